"""Reactive reads that skip the checks whose answer a node's class fixes
(checked against Textual 8.2.8).

See :func:`fast_reactive_reads`; ``tests/compat/test_reactive.py`` pins it down.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from textual.dom import DOMNode
from textual.reactive import Reactive

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the reads were read in."""

UPSTREAM_SOURCES = "8815bb80cc3fd16e"
"""The first 16 hex digits of the SHA-256 of the sources of ``Reactive.__get__``
and ``DOMNode.id``'s getter in Textual 8.2.8: the fast read answers what those
answer only while they are that code."""

KINDS_KEPT = 8192
"""Verdicts kept: one per (kind of node, reactive); a few hundred in use."""

_ID = DOMNode.__dict__["id"]
_plain: dict[tuple[type, Reactive[Any]], bool] = {}
_upstream: Callable[..., Any] | None = None


def upstream_sources_digest() -> str:
    """The digest of the upstream code the fast read stands for (see UPSTREAM_SOURCES)."""
    return source_digest(_upstream or Reactive.__get__, _ID.fget)


def _is_plain(kind: type, reactive: Reactive[Any]) -> bool:
    """Whether, for a node of ``kind``, upstream's read comes down to the
    instance's own stored value once it has one: ``id`` is DOMNode's (it
    reads ``_id``), the class has no compute method for the reactive and no
    attribute of the stored value's name, and no ``__getattr__`` (or own
    ``__getattribute__``) that could answer either for the instance."""
    return (inspect.getattr_static(kind, "id", None) is _ID
            and inspect.getattr_static(kind, "__getattr__", None) is None
            and inspect.getattr_static(kind, "__getattribute__") is object.__getattribute__
            and not hasattr(kind, reactive.compute_name)
            and not hasattr(kind, reactive.internal_name))


def _get(self: Reactive[Any], obj: Any, obj_type: type | None = None) -> Any:
    if obj is None:
        return self
    kind = type(obj)
    key = (kind, self)
    plain = _plain.get(key)
    if plain is None:
        if len(_plain) >= KINDS_KEPT:
            _plain.clear()
        plain = _plain[key] = _is_plain(kind, self)
    if plain:
        stored = obj.__dict__
        internal_name = self.internal_name
        # Upstream's checks, answered from the instance's dict: it has an
        # id, a value, and no compute method of its own.
        if internal_name in stored and "_id" in stored and self.compute_name not in stored:
            return stored[internal_name]
    assert _upstream is not None
    return _upstream(self, obj, obj_type)


def fast_reactive_reads() -> bool:
    """Make reading a reactive attribute that has its value return it at once; True if it does.

    ``Reactive.__get__`` runs on every read of a reactive attribute (a
    widget's ``has_focus``, ``disabled``, a DataTable's cursor…), about 8%
    of the Python calls of a session's start, and asks three things each
    time: whether the node has an ``id`` (a property call), whether it has
    the stored value yet (else it initialises it), and whether it has a
    compute method (a failed attribute lookup through the whole MRO, raising
    and catching an AttributeError). Two of the three answers are fixed by
    the node's class; this read works them out once per (class, reactive)
    and, when the class has no compute method and reads ``id`` as DOMNode
    does, returns the value from the instance's dict when it is there with
    the node's ``_id`` (every other case goes to upstream's read, which also
    initialises; a compute method given to a class after its first read is
    not seen: nothing here does that). Installed only while upstream's code
    is the one this stands for (a digest of its source is recorded). Retire
    it when Textual's reactive read is cheap (cached compute lookups): not
    reported upstream yet.
    """
    global _upstream
    if _upstream is not None:
        return True
    if not source_unchanged(upstream_sources_digest(), UPSTREAM_SOURCES, "Textual's reactive "
                            "read changed: each read asks its questions again"):
        return False
    _upstream = Reactive.__get__
    Reactive.__get__ = _get  # type: ignore[method-assign]
    return True


def upstream_reactive_get() -> Callable[..., Any]:
    """``Reactive.__get__`` as Textual has it (for tests)."""
    return _upstream or Reactive.__get__


def reactive_kinds() -> int:
    """How many (kind of node, reactive) verdicts the process holds (for tests)."""
    return len(_plain)


WORKAROUNDS = (
    Workaround("fast_reactive_reads", "fivetowers/compat/reactive.py", "textual", TEXTUAL,
               ("Reactive.__get__", "_id", "internal_name", "compute_name"),
               "Textual's reactive read is cheap for a plain stored value"),
)
