"""A screen's partial update that renders only the lines that changed."""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Mapping, Sequence, cast

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

from fivetowers.compat.checked import Workaround

TEXTUAL = "8.2.8"
"""The Textual version this was checked against."""

_original: Callable[[Compositor], ChopsUpdate | None] | None = None


def render_dirty_lines_only() -> bool:
    """Make every screen's partial update render only the lines it sends.

    Textual's ``Compositor.render_partial_update`` renders, in full, every
    widget that overlaps the *bounding box* of the regions that changed,
    and then drops the lines outside them. At a table a move changes the
    status line at the top and the log or the hand at the bottom: the box is
    the whole screen, so every viewer's screen rendered every widget on it
    (the containers and the screen's background too) for a change of a few
    lines, on every move: most of a move's cost per viewer (issue 11).
    This one renders each widget only on the rows where it overlaps a
    changed region (in bands: one ``render_lines`` call per run of rows).
    What is sent is the same: each line in a changed region comes from the
    same front-most widget as before. Retire it when Textual's partial
    update crops each widget's render to the changed regions: not reported
    upstream yet. Returns whether it is on.
    """
    global _original
    if _original is None:
        _original = Compositor.render_partial_update
        Compositor.render_partial_update = _render_partial_update  # type: ignore[method-assign]
    return True


def _render_partial_update(self: Compositor) -> ChopsUpdate | None:
    # Textual's render_partial_update, with _render_chops' renders banded.
    update_regions = self._dirty_regions.copy()
    self._dirty_regions.clear()
    if not update_regions:
        return None
    crop = Region.from_union(update_regions).intersection(self.size.region)
    spans = list(self._regions_to_spans(update_regions))
    is_rendered_line = {y for y, _, _ in spans}.__contains__
    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    intersection = Region.intersection
    for region, clip, strips in _banded_renders(self, crop, update_regions):
        render_region = intersection(region, clip)
        render_x = render_region.x
        first_cut, last_cut = render_region.column_span
        for y, strip in zip(render_region.line_range, strips):
            if not is_rendered_line(y):
                continue
            chops_line = chops[y]
            final_cuts = [cut for cut in cuts[y] if (last_cut >= cut >= first_cut)]
            cut_strips = strip.divide([cut - render_x for cut in final_cuts[1:]])
            # Front to back: the first strip for a cut wins (as Textual paints).
            for cut, piece in zip(final_cuts, cut_strips):
                if chops_line.get(cut) is None:
                    chops_line[cut] = piece
    chop_ends = [cut_set[1:] for cut_set in cuts]
    return ChopsUpdate(cast("Sequence[Mapping[int, Strip]]", chops), spans, chop_ends)


def _banded_renders(compositor: Compositor, crop: Region, dirty: Iterable[Region]
                    ) -> Iterator[tuple[Region, Region, list[Strip]]]:
    """(region, the band of its visible part rendered, strips), front to back:
    each widget rendered only on the rows where it meets a changed region."""
    dirty = list(dirty)
    for widget, (region, clip) in compositor.visible_widgets.items():
        if not crop.overlaps(clip):
            continue
        visible = region.intersection(clip)
        if not visible:
            continue
        rows = sorted((part.y, part.bottom) for part in
                      (visible.intersection(changed) for changed in dirty) if part)
        bands: list[list[int]] = []
        for top, bottom in rows:  # runs of rows, merged where they touch
            if bands and top <= bands[-1][1]:
                bands[-1][1] = max(bands[-1][1], bottom)
            else:
                bands.append([top, bottom])
        for top, bottom in bands:
            band = Region(visible.x, top, visible.width, bottom - top)
            yield region, band, widget.render_lines(
                Region(band.x - region.x, band.y - region.y, band.width, band.height))


WORKAROUNDS = (
    Workaround("render_dirty_lines_only", "fivetowers/compat/dirty_lines.py", "textual",
               TEXTUAL, ("Compositor.render_partial_update", "Compositor._dirty_regions",
                         "Compositor._regions_to_spans", "textual._compositor.ChopsUpdate"),
               "Textual's partial update crops each widget's render to the changed regions"),
)
