"""A value worked out from a widget's styles, kept until Textual restyles it."""

from __future__ import annotations

from typing import Any, Callable, Hashable, TypeVar

from textual.widget import Widget

from fivetowers.compat.checked import Workaround

W = TypeVar("W", bound=Widget)

_SLOT: tuple[str, ...] = ("fivetowers: kept until restyled",)
"""The key kept in the cache: Textual's own are (pseudo-classes key, component
classes, partial), never a one-string tuple."""


def until_restyled(widget: W, work_out: Callable[[W], Hashable]) -> Hashable:
    """``work_out(widget)``, the same value until Textual next restyles ``widget``.

    Textual 8.2.8. A restyle that changes a node's own rules (a class or a
    pseudo-class that changed what matches it, its screen's classes, a new
    theme: ``App.update_styles`` restyles the node and everything under it)
    ends in ``Widget.notify_style_update``, which empties the widget's private
    ``_visual_style_cache`` (a dict of its visual styles by component classes).
    A value kept in that dict is thus dropped whenever the widget's own look may
    have changed. The keys of shared renders (ui/shared_lines.py) read a widget's
    classes and pseudo-classes on every lookup, some 230 Python calls each and a
    tenth of a table change's calls at a hosted table; kept there, once per
    restyle. Not dropped: a class or pseudo-class change that leaves the
    widget's own rules as they were (``Stylesheet.replace_rules`` returns early,
    ``add_class(update=False)`` restyles nothing). The value is then stale, which
    is harmless unless the change alters what the widget draws some other way:
    a component-class rule (``Foo.-x > .foo--key``) or a ``render`` reading
    ``has_class``/``has_focus``. None of the widgets whose renders are shared
    does either today (their rules and renders were read for it); a widget
    that does must not use it. Pseudo-classes no rule of the widget tests
    (hover over a widget without a :hover rule) change nothing it shows.
    Structural pseudo-classes (``first-child``, ``odd``...) change as
    siblings come and go, not always with a restyle: a widget whose rules test
    them (Textual's ``_has_order_style``, ``_has_odd_or_even``) works the value
    out every time. Retire it when Textual gives a public hook or counter for a widget's
    restyles: not reported upstream yet.
    """
    if widget._has_order_style or widget._has_odd_or_even:
        return work_out(widget)
    cache: dict[Any, Any] = widget._visual_style_cache
    value = cache.get(_SLOT)
    if value is None:
        value = cache[_SLOT] = work_out(widget)
    return value


TEXTUAL = "8.2.8"

WORKAROUNDS = (
    Workaround("until_restyled", "fivetowers/compat/restyle_memo.py", "textual", TEXTUAL,
               ("Widget._visual_style_cache", "Widget._has_order_style",
                "Widget._has_odd_or_even"),
               "Textual gives a public hook or counter for a widget's restyles"),
)
