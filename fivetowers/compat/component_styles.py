"""A widget's component styles kept while a restyle leaves them as they were.

See :func:`component_styles_kept`; ``tests/compat/test_component_styles.py``
pins it down.
"""

from __future__ import annotations

from typing import Callable

from textual.css.styles import RenderStyles
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the code below was read in."""

UPSTREAM_SOURCE = "852b5e4b93c6fc25"
"""The first 16 hex digits of the SHA-256 of the source of
``Stylesheet._process_component_classes``: the replacement below is that
code with its virtual nodes let go of, so it is installed only while
upstream is still that code."""

_upstream: Callable[[Stylesheet, DOMNode], None] | None = None


def upstream_source_digest() -> str:
    """The digest of the upstream code, as UPSTREAM_SOURCE records it."""
    return source_digest(_upstream or Stylesheet._process_component_classes)


def component_styles_kept() -> bool:
    """Restyle a widget's component classes without leaving cyclic garbage;
    True if installed (process-wide, idempotent).

    Each time Textual styles a widget that has component classes (a key
    bar's keys, a data table's cursor, a toast's title), which it does for
    the widget and everything under it whenever a class, a pseudo-class or a
    screen's class changes, it makes a new virtual ``DOMNode`` per component
    class, styles it, and keeps the node's ``styles``. The styles' base
    points back at its node, so the node replaced is a cycle of some 40
    objects (its styles, node list, signals, bindings, caches) that only the
    cyclic collector frees. The server freezes what lives for a minute
    (``server/collector.py``): every component node alive at a freeze and
    replaced after it waited frozen for the next reclaim, some 700 nodes a
    minute at 100 sessions, the most numerous kind of what grew (the load
    test's ``LOADTEST_TYPES``).

    This is upstream's code with two changes: when the new virtual node's
    styles equal the ones kept (its rules are the same, as upstream compares
    them to decide whether to refresh), the kept styles stay and the new
    node is let go of; when they differ, the node replaced is let go of.
    Letting go of a virtual node cuts its base and inline styles' pointers
    back at it: nothing reads them afterwards (a component's styles are
    read through the widget's ``_component_styles``, which no longer holds
    it), and it dies by reference counting. Retire it when Textual reuses a
    component class's styles or frees its virtual nodes without the cyclic
    collector: not reported upstream yet.
    """
    global _upstream
    if _upstream is not None:
        return True
    if not source_unchanged(upstream_source_digest(), UPSTREAM_SOURCE,
                            "Textual's Stylesheet._process_component_classes is not the code "
                            "component_styles_kept was read in: component styles left as "
                            "upstream's"):
        return False
    _upstream = Stylesheet._process_component_classes
    Stylesheet._process_component_classes = _process_component_classes  # type: ignore[method-assign]
    return True


def _process_component_classes(self: Stylesheet, node: DOMNode) -> None:
    component_classes = node._get_component_classes()
    if not component_classes:
        return
    refresh_node = False
    old_component_styles = node._component_styles.copy()
    node._component_styles.clear()
    for component in sorted(component_classes):
        virtual_node = DOMNode(classes=component)
        virtual_node._attach(node)
        self.apply(virtual_node, animate=False)
        kept = old_component_styles.get(component)
        if kept is not None and kept == virtual_node.styles:
            node._component_styles[component] = kept
            _let_go(virtual_node.styles)
        else:
            refresh_node = True
            node._component_styles[component] = virtual_node.styles
            if kept is not None:
                _let_go(kept)
    if refresh_node:
        node.refresh()


def _let_go(styles: RenderStyles) -> None:
    """Cut a virtual node's cycles through its styles (see component_styles_kept)."""
    styles._base_styles.node = None
    styles._inline_styles.node = None


def upstream_process_component_classes() -> Callable[[Stylesheet, DOMNode], None]:
    """``Stylesheet._process_component_classes`` as Textual has it (for tests)."""
    return _upstream or Stylesheet._process_component_classes


WORKAROUNDS = (
    Workaround("component_styles_kept", "fivetowers/compat/component_styles.py", "textual",
               TEXTUAL, ("Stylesheet._process_component_classes", "DOMNode._component_styles",
                         "DOMNode._get_component_classes", "DOMNode._attach",
                         "RenderStyles._base_styles", "RenderStyles._inline_styles"),
               "Textual reuses a component class's styles or frees its virtual nodes "
               "without the cyclic collector"),
)
