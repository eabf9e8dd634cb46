"""A left screen is freed by reference counting (checked against Textual 8.2.8).

See :func:`freed_when_removed` and :func:`arrange_without_cycles`;
``tests/compat/test_freed_screens.py`` pins them down, and
``scripts/bench_left_screens.py`` counts what a left screen leaves to the
cyclic collector.
"""

from __future__ import annotations

import inspect
import logging
import textwrap
from typing import Any, Callable

from textual import _compositor
from textual.cache import LRUCache
from textual.dom import DOMNode
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.worker import Worker, WorkerState
from textual.worker_manager import WorkerManager

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the cycles were read in."""
ARRANGE_SOURCE = "e893dcd84bf247f8"
"""``source_digest(Compositor._arrange_root)`` of that version."""


def freed_when_removed() -> None:
    """Every removed widget (a screen left, a widget a live screen replaced)
    freed by reference counting the moment Textual has removed it
    (process-wide, idempotent).

    The server freezes what survives a while (``server/collector.py``), and
    what is frozen is never collected: a left screen caught in reference
    cycles (a table screen when its game is over, an end screen when the
    rematch starts, a dialog closed, a lobby left) stayed until a reclaim's
    full collection, a second of a frozen loop at 100 sessions. Textual
    detaches a removed widget from its parent and clears its caches, but
    these cycles stay (each found with ``gc.get_referrers`` on the garbage
    of a rematch, ``scripts/bench_left_screens.py``):

    - a widget's ``Styles`` point back at it (``Styles.node``), and so do
      those of the virtual nodes its component classes were styled with;
    - a Textual ``LRUCache`` is a ring of links: cleared (a removed widget's
      query cache), the ring stays, holding the widgets it cached;
    - a child list keeps its last ``displayed`` copy of the children;
    - a screen's compositor and its widgets waiting for a layout hold the
      screen and its widgets;
    - a stopped timer a widget keeps (a screen's updates, an Input's blink)
      holds a bound method of the widget;
    - a finished worker (a table screen's ``fetch_hint``) keeps its task,
      whose context holds the worker (``active_worker``) and the widget that
      started it; a cancelled one's error keeps its traceback's frames (the
      worker's, the widget's). Cut as each worker finishes, when its
      manager forgets it (``WorkerManager._remove_worker``): it may finish
      after its widget's removal, and is not found from the widget then.

    Each is cut once the widget's removal is over (``_message_loop_exit``,
    which every removed widget and screen ends with, the children's first).
    What a late caller can reach of a removed widget still works: its styles
    without a node refresh nothing (Textual's own check), an emptied cache
    misses, a fresh compositor has nothing to draw, a timer without a
    callback calls nothing (and is stopped), a finished worker's ``wait``
    answers from its state. A removed screen must not be pushed again: its
    styles' node and its update timer are cut. Retire it when Textual frees a
    removed widget without the cyclic collector: not reported upstream yet.
    """
    if getattr(Widget._message_loop_exit, "_cuts_cycles", False):
        return
    upstream = Widget._message_loop_exit

    async def exit_and_cut_cycles(self: Widget) -> None:
        # Textual's internals this reads may change in a later release: a
        # removal then ends as upstream's (its garbage left to the
        # collector), with a warning once, never an error.
        try:
            held = held_nodes(self)
            empty_ring(self._query_one_cache)  # (upstream clears it: its ring would stay)
        except AttributeError as exc:
            held = []
            _cannot_cut(exc)
        await upstream(self)
        try:
            cut_cycles(held)
        except AttributeError as exc:
            _cannot_cut(exc)

    exit_and_cut_cycles._cuts_cycles = True  # type: ignore[attr-defined]
    exit_and_cut_cycles._upstream = upstream  # type: ignore[attr-defined]  # (its test)
    Widget._message_loop_exit = exit_and_cut_cycles  # type: ignore[method-assign]
    forget = WorkerManager._remove_worker

    def remove_and_let_go(self: WorkerManager, worker: Worker[Any]) -> None:
        forget(self, worker)
        try:
            let_go(worker)
        except AttributeError as exc:
            _cannot_cut(exc)

    WorkerManager._remove_worker = remove_and_let_go  # type: ignore[method-assign]


def let_go(worker: Worker[Any]) -> None:
    """Cut the cycles through a finished ``worker`` (see freed_when_removed):
    its done task (its context holds the worker and the widget that started
    it) and its error's traceback.

    A worker cancelled before it ran is RUNNING still (its run never set an
    end state), and its ``wait`` learns of the cancellation from the task:
    it is set CANCELLED first, as that ``wait`` does (without, it answered
    None). Its task is let go of too: the run it never started holds the
    worker. A task that ended otherwise without an end state is kept."""
    task = worker._task
    if task is None or not task.done():
        return
    if task.cancelled() and worker.state not in FINISHED:
        worker.state = WorkerState.CANCELLED
    if worker.state not in FINISHED:
        return
    worker._task = None
    error = worker._error
    if error is not None:
        error.__traceback__ = None
        error.__context__ = None


FINISHED = (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED)
"""The states a worker's run ends in."""


def screens_freed() -> bool:
    """Whether left screens are freed by reference counting in this process
    now (both workarounds installed, and no cut failed since): the collector
    then need not count them as frozen garbage (``server/collector.py``,
    which asks at each count). Once Textual's internals turned out not to
    be the ones read (``_cannot_cut``), removals end as upstream's, their
    garbage frozen until a reclaim again."""
    return (getattr(Widget._message_loop_exit, "_cuts_cycles", False)
            and getattr(_compositor.Compositor._arrange_root, "_without_cycles", False)
            and not _warned)


_warned: list[str] = []


def _cannot_cut(exc: AttributeError) -> None:
    if not _warned:  # once a process, not once a widget
        _warned.append(str(exc))
        logging.getLogger("fivetowers.server").warning(
            "Textual's widgets are not the code freed_when_removed was read in (%s): "
            "a removed widget is left to the collector", exc)


def held_nodes(widget: Widget) -> list[DOMNode]:
    """The widget and its component styles' virtual nodes (taken before the
    removal, which forgets them)."""
    nodes: list[DOMNode] = [widget]
    for styles in widget._component_styles.values():
        virtual = styles.node
        if virtual is not None:
            nodes.append(virtual)
    return nodes


def cut_cycles(nodes: list[DOMNode]) -> None:
    """Cut the reference cycles through removed ``nodes`` (see freed_when_removed)."""
    for node in nodes:
        empty_ring(node._query_one_cache)
        for value in list(vars(node).values()):
            if isinstance(value, LRUCache):
                empty_ring(value)
            elif isinstance(value, Timer):  # (an Input's blink, a screen's updates)
                value.stop()
                value._callback = None
        node._css_styles.node = None
        node._inline_styles.node = None
        children = node._nodes
        children._displayed_nodes = (-1, [])
        children._displayed_visible_nodes = (-1, [])
        if isinstance(node, Screen):
            node._compositor = _compositor.Compositor()
            node._layout_widgets.clear()


def empty_ring(cache: LRUCache[Any, Any]) -> None:
    """Empty a Textual ``LRUCache`` and break its ring of links (``clear``
    alone leaves the ring, and what it cached, to the cyclic collector)."""
    for link in cache._cache.values():
        link.clear()
    cache.clear()


def arrange_without_cycles() -> None:
    """Every layout's arrangement freed by reference counting (process-wide,
    idempotent).

    ``Compositor._arrange_root`` places widgets with a nested function that
    calls itself: the function and its closure's cell are a cycle, and with
    them the arrangement's map and widget sets, every widget of the screen,
    stay until a collection. The last layout of a screen left kept the
    screen itself (and, frozen, until a reclaim). This installs upstream's
    own code with one line added (the nested function let go of at the end),
    while upstream is that code. Retire it when ``_arrange_root`` is not
    recursive through a closure: not reported upstream yet."""
    compositor = _compositor.Compositor
    if getattr(compositor._arrange_root, "_without_cycles", False):
        return
    if not source_unchanged(source_digest(compositor._arrange_root), ARRANGE_SOURCE,
                            "Textual's Compositor._arrange_root is not the code "
                            "arrange_without_cycles was read in: layouts left as upstream's"):
        return
    source = textwrap.dedent(inspect.getsource(compositor._arrange_root))
    end = "    widgets -= invisible_widgets\n    return map, widgets\n"
    if source.count(end) != 1:
        return
    source = source.replace(end, "    add_widget = None  # the closure's cycle, cut\n" + end)
    made: dict[str, Any] = {}
    # (the module's own globals: what upstream's code reads, patched or not)
    exec(compile(source, "<fivetowers.compat: Compositor._arrange_root without its cycle>",
                 "exec"), vars(_compositor), made)
    arrange: Callable[..., Any] = made["_arrange_root"]
    arrange._without_cycles = True  # type: ignore[attr-defined]
    arrange._upstream = compositor._arrange_root  # type: ignore[attr-defined]  # (its test)
    compositor._arrange_root = arrange  # type: ignore[method-assign]


WORKAROUNDS = (
    Workaround("freed_when_removed", "fivetowers/compat/freed_screens.py", "textual", TEXTUAL,
               ("Widget._message_loop_exit", "DOMNode._query_one_cache",
                "DOMNode._component_styles", "DOMNode._css_styles", "DOMNode._inline_styles",
                "DOMNode._nodes", "NodeList._displayed_nodes",
                "NodeList._displayed_visible_nodes", "Screen._compositor", "Screen._layout_widgets",
                "Timer._callback", "LRUCache._cache", "WorkerManager._remove_worker",
                "Worker._task", "Worker._error"),
               "Textual frees a removed widget without the cyclic collector"),
    Workaround("arrange_without_cycles", "fivetowers/compat/freed_screens.py", "textual",
               TEXTUAL, ("Compositor._arrange_root",),
               "Compositor._arrange_root places widgets without a self-referencing closure"),
)
