"""Callbacks' parameter counts worked out once per code (checked against Textual 8.2.8).

See :func:`count_parameters_once`; ``tests/compat/test_callbacks.py`` pins it down.
"""

from __future__ import annotations

import inspect
from types import CodeType, FunctionType, MethodType
from typing import Any, Callable, cast

from textual import _callback

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the counting was read in."""

UPSTREAM_SOURCE = "7e844cbc9d5af261"
"""The first 16 hex digits of the SHA-256 of ``textual._callback``'s
``count_parameters`` and ``_count_parameters`` sources."""

COUNTS_KEPT = 4096
"""Counts kept: one per function's code or callable class; a few hundred in use."""

_SIGNATURE_NAMES = ("__wrapped__", "__signature__", "_partialmethod", "__partialmethod__")
"""Attributes through which ``inspect.signature`` may answer otherwise than
from the code (a decorator's wrapped function, an explicit signature)."""

_Key = CodeType | tuple[type, FunctionType] | tuple[type, CodeType]
_counts: dict[_Key, int] = {}
_upstream: Callable[[Callable[..., Any]], int] | None = None


def upstream_source_digest() -> str:
    """The digest of the upstream counting, as UPSTREAM_SOURCE records it."""
    return source_digest(_callback.count_parameters, _upstream or _callback._count_parameters)


def _plain_function(func: Any) -> bool:
    return (type(func) is FunctionType
            and not any(name in func.__dict__ for name in _SIGNATURE_NAMES))


def _key(func: Any) -> _Key | None:
    """What ``func``'s count depends on alone, or None if more than that."""
    if _plain_function(func):
        return func.__code__  # type: ignore[no-any-return]
    kind = type(func)
    if kind is MethodType:
        # A bound method (a partial of one reaches here): inspect counts its
        # function's parameters less the first, before anything else.
        return (MethodType, func.__func__.__code__) if _plain_function(func.__func__) else None
    if type(kind) is not type or kind in (FunctionType, type):
        return None  # classes, builtins, partials, methods...: upstream's way
    call = inspect.getattr_static(kind, "__call__", None)
    if not _plain_function(call) or any(hasattr(func, name) for name in _SIGNATURE_NAMES):
        return None
    # A plain object whose class defines __call__ in Python: its signature
    # is __call__'s less self (inspect's last case).
    return (kind, cast(FunctionType, call))


def _count_parameters(func: Callable[..., Any]) -> int:
    assert _upstream is not None
    key = _key(func)
    if key is None:
        return _upstream(func)
    count = _counts.get(key)
    if count is None:
        if len(_counts) >= COUNTS_KEPT:
            _counts.clear()
        count = _counts[key] = _upstream(func)
    return count


def count_parameters_once() -> bool:
    """Make a callback's parameter count be worked out once per code; True if it does.

    Textual calls every handler, watcher and ``call_later`` callback through
    ``textual._callback._invoke``, which passes it as many arguments as it
    takes: ``count_parameters`` keeps the count on the function (or the
    method's function), but a closure made afresh each time (``Widget.mount``'s
    ``update_styles``, ``App._prune``'s ``post_mount``...), a new callable
    object (``AwaitMount``, ``AwaitRemove``) or a new partial of a bound method
    (signals' subscribers, ``Reactive._compute``) is a new object each time,
    so ``inspect.signature`` ran again: ~2% of a session start's Python calls.
    The count of a plain Python function depends only on its code, that of
    a bound method only on its function's code, and that of an object of a
    plain class only on the class's ``__call__``: this keeps it per code
    object (and per class and ``__call__``), computed by
    upstream's own ``_count_parameters`` the first time. Anything that can
    make ``inspect.signature`` answer otherwise (``__wrapped__``,
    ``__signature__``, partials, builtin methods, classes) goes to
    upstream each time. Installed only while upstream's source is the one
    read (its digest is recorded). Retire it when Textual caches counts
    per code object: not reported upstream yet.
    """
    global _upstream
    if _upstream is not None:
        return True
    if not source_unchanged(upstream_source_digest(), UPSTREAM_SOURCE, "Textual's callback "
                            "invocation changed: counts are worked out each time"):
        return False
    _upstream = _callback._count_parameters
    _callback._count_parameters = _count_parameters
    return True


def upstream_count_parameters() -> Callable[[Callable[..., Any]], int]:
    """``textual._callback._count_parameters`` as Textual has it (for tests)."""
    return _upstream or _callback._count_parameters


def counted_kinds() -> int:
    """How many counts the process keeps (for tests)."""
    return len(_counts)


WORKAROUNDS = (
    Workaround("count_parameters_once", "fivetowers/compat/callbacks.py", "textual", TEXTUAL,
               ("textual._callback", "_count_parameters", "_param_count"),
               "Textual caches callbacks' parameter counts per code object"),
)
