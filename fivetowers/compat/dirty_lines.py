"""A screen's partial update that renders only the lines that changed."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable, Iterator, Mapping, Sequence, cast

from rich.console import Console
from rich.control import Control
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

RENDER_SEGMENTS_SOURCE = "4c1cdb567e0b8354"
"""The digest of upstream's ``ChopsUpdate.render_segments``, which
:class:`_Chops` replays."""

PARTIAL_UPDATE_SOURCE = "7bc39cecb40d5447"
"""The digest of upstream's partial update (:func:`upstream_partial_update_digest`),
which :func:`_render_partial_update` replays."""

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
    changed region (in bands: one ``render_lines`` call per run of rows),
    and not at all on rows that widgets in front of it already fill (a
    container behind its children, the screen's background).
    What is sent is the same: each line in a changed region comes from the
    same front-most widget as before (less the cursor moves Textual sends for
    a piece that starts where its span ends, with nothing drawn after them).
    Retire it when Textual's partial update crops each widget's render to
    the changed regions: not reported upstream yet. Returns whether it is on.
    """
    global _original, _update
    if _original is None:
        if not source_unchanged(upstream_partial_update_digest(), PARTIAL_UPDATE_SOURCE,
                                "Textual's partial update changed: every widget a change "
                                "overlaps is rendered in full, as upstream does"):
            return False
        if source_unchanged(source_digest(ChopsUpdate.render_segments), RENDER_SEGMENTS_SOURCE,
                            "Textual's ChopsUpdate.render_segments changed: cursor moves "
                            "made as upstream does"):
            _update = _Chops
        _original = Compositor.render_partial_update
        Compositor.render_partial_update = _render_partial_update  # type: ignore[method-assign]
    return True


def upstream_partial_update_digest() -> str:
    """The digest of the upstream code :func:`_render_partial_update` replays:
    installed only while it is still that code (every App installs it, local
    play too, and the package allows later Textual 8 releases)."""
    upstream = Compositor.render_partial_update if _original is None else _original
    return source_digest(upstream, Compositor._render_chops,
                         Compositor._regions_to_spans, ChopsUpdate.__init__)


def _render_partial_update(self: Compositor) -> ChopsUpdate | None:
    # Textual's render_partial_update, with _render_chops' renders banded
    # and rows already covered by widgets in front left unrendered.
    update_regions = self._dirty_regions.copy()
    self._dirty_regions.clear()
    if not update_regions:
        return None
    crop = Region.from_union(update_regions).intersection(self.size.region)
    spans = list(self._regions_to_spans(update_regions))
    cuts = self.cuts
    # The cuts of each rendered row that a span sends and no widget has
    # filled yet (None in chops): one set operation a row tells whether a
    # widget behind has any to fill. Only the cuts a span sends something
    # of (ChopsUpdate skips the pieces outside, and those left None): the others
    # of a changed row are never sent, and filling them rendered the
    # containers behind (a board that changed at a table made its row's
    # whole width open: the columns, the screen), a render a viewer a move.
    unfilled: dict[int, set[int]] = {}
    for y, x1, x2 in spans:
        row = cuts[y]
        unfilled.setdefault(y, set()).update(
            cut for cut, end in zip(row, row[1:]) if cut < x2 and end > x1)
    unsent: dict[int, Strip | None] = {}  # the rows not sent: ChopsUpdate reads only spans
    chops = [dict.fromkeys(cut_set[:-1]) if y in unfilled else unsent
             for y, cut_set in enumerate(cuts)]
    remaining = sum(map(len, unfilled.values()))
    for widget, region, band in _bands(self, crop, update_regions):
        if not remaining:
            break  # every changed cut has its strip: the widgets behind show nowhere
        first_cut, last_cut = band.column_span
        # The rows where some cut is still open: a cut already filled by a
        # widget in front would win over this one's (as Textual paints), so
        # the rows where all are filled (a container behind its children,
        # the screen's background) need no render at all.
        open_rows: list[tuple[int, list[int]]] = []
        for y in band.line_range:
            open_cuts = unfilled.get(y)
            if not open_cuts:  # not rendered, or filled by widgets in front
                continue
            final_cuts = [cut for cut in cuts[y] if (last_cut >= cut >= first_cut)]
            # A cut at the band's right edge starts no piece of this widget's.
            starts = final_cuts[:-1] if final_cuts[-1:] == [last_cut] else final_cuts
            if not open_cuts.isdisjoint(starts):
                open_rows.append((y, final_cuts))
        for top, bottom, rows in _runs(open_rows):
            strips = widget.render_lines(Region(band.x - region.x, top - region.y,
                                                band.width, bottom - top))
            for (y, final_cuts), strip in zip(rows, strips):
                chops_line = chops[y]
                open_cuts = unfilled[y]
                cut_strips = strip.divide([cut - band.x for cut in final_cuts[1:]])
                # Front to back: the first strip for a cut wins (as Textual paints).
                for cut, piece in zip(final_cuts, cut_strips):
                    if cut in open_cuts:
                        chops_line[cut] = piece
                        open_cuts.discard(cut)
                        remaining -= 1
    chop_ends = [cut_set[1:] for cut_set in cuts]
    return _update(cast("Sequence[Mapping[int, Strip]]", chops), spans, chop_ends)


@lru_cache(maxsize=2048)  # the cells pieces start at: a few hundred a screen size
def _move_to(x: int, y: int) -> str:
    return Control.move_to(x, y).segment.text


class _Chops(ChopsUpdate):
    """Textual's ChopsUpdate, whose cursor moves are made once per cell.

    Its ``render_segments`` makes a Rich Control (a Segment, a Style lookup)
    for every piece it sends to find the same few escape codes: some 3% of a
    move's Python calls per viewer (issue 11), at 30 pieces a partial update."""

    def render_segments(self, console: Console) -> str:
        # Upstream's, with _move_to for Control.move_to(...).segment.text.
        sequences: list[str] = []
        append = sequences.append
        chops = self.chops
        chop_ends = self.chop_ends
        last_y = self.spans[-1][0]
        for y, x1, x2 in self.spans:
            line = chops[y]
            ends = chop_ends[y]
            for end, (x, strip) in zip(ends, line.items()):
                if strip is None:
                    continue
                if x > x2 or end <= x1:
                    continue
                if x2 > x >= x1 and end <= x2:
                    append(_move_to(x, y))
                    append(strip.render(console))
                    continue
                strip = strip.crop(0, min(end, x2) - x)
                append(_move_to(x, y))
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)


def _runs(rows: list[tuple[int, list[int]]]
          ) -> Iterator[tuple[int, int, list[tuple[int, list[int]]]]]:
    """(top, bottom, the rows) of each run of consecutive rows: one render a run."""
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or rows[i][0] != rows[i - 1][0] + 1:
            yield rows[start][0], rows[i - 1][0] + 1, rows[start:i]
            start = i


def _bands(compositor: Compositor, crop: Region, dirty: Iterable[Region]
           ) -> Iterator[tuple[Widget, Region, Region]]:
    """(widget, its region, a band of its visible part), front to back: each
    widget's rows where it meets a changed region."""
    changed = [(x, y, x + width, y + height) for x, y, width, height in dirty]
    for widget, (region, clip) in compositor.visible_widgets.items():
        if not crop.overlaps(clip):
            continue
        x, y, width, height = region.intersection(clip)  # the widget's visible part
        if width <= 0 or height <= 0:
            continue
        right, bottom = x + width, y + height
        # The rows of its visible part that each changed region meets (its
        # Region.intersection, unrolled: a call a widget and region was most
        # of a partial update's own cost).
        rows = [(y if y > top else top, bottom if bottom < low else low)
                for left, top, end, low in changed
                if x < end and left < right and y < low and top < bottom]
        if not rows:
            continue
        rows.sort()
        bands: list[list[int]] = []
        for first, last in rows:  # runs of rows, merged where they touch
            if bands and first <= bands[-1][1]:
                bands[-1][1] = max(bands[-1][1], last)
            else:
                bands.append([first, last])
        for first, last in bands:
            yield widget, region, Region(x, first, width, last - first)


WORKAROUNDS = (
    Workaround("render_dirty_lines_only", "fivetowers/compat/dirty_lines.py", "textual",
               TEXTUAL, ("Compositor.render_partial_update", "Compositor._dirty_regions",
                         "Compositor._regions_to_spans", "textual._compositor.ChopsUpdate",
                         "ChopsUpdate.render_segments"),
               "Textual's partial update crops each widget's render to the changed regions"),
)


_update: type[ChopsUpdate] = ChopsUpdate
"""The partial update's class: :class:`_Chops` while upstream's
``render_segments`` is the code it replays (checked as it is installed)."""
