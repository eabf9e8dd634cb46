"""Message dispatch that finds each class's handlers once (checked against Textual 8.2.8).

See :func:`share_dispatch_plans`; ``tests/compat/test_dispatch.py`` pins it down.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Iterable, Iterator

from textual._on import OnNoWidget
from textual.css.match import match
from textual.message import Message
from textual.message_pump import MessagePump

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the dispatch was read in."""

UPSTREAM_SOURCE = "42cf0aeddecf314f"
"""The first 16 hex digits of the SHA-256 of ``MessagePump._get_dispatch_methods``'
source in Textual 8.2.8: the plans below replay that code, so they are used
only while it is the code Textual has."""

PLANS_KEPT = 4096
"""Plans kept: one per (kind of node, kind of message); a few hundred in use."""

_Entry = tuple[type, Callable[..., Any], "dict[str, Any] | None"]
"""A handler in dispatch order: the class it is found on, its function, and
its ``@on`` selectors (None for a handler found by its name)."""

_plans: dict[tuple[type, type, str], tuple[_Entry, ...]] = {}
_Walk = Callable[..., Iterable[tuple[type, Callable[..., Any]]]]
"""What ``MessagePump._get_dispatch_methods`` is."""
_upstream: _Walk | None = None


def upstream_source_digest() -> str:
    """The digest of the upstream function's source, as UPSTREAM_SOURCE records it."""
    return source_digest(_upstream or MessagePump._get_dispatch_methods)


def _plan(pump: type, message: type, method_name: str) -> tuple[_Entry, ...]:
    """Every handler the upstream walk would look at, in its order."""
    message_mro = [kind for kind in message.__mro__ if issubclass(kind, Message)]
    entries: list[_Entry] = []
    for cls in pump.__mro__:
        decorated = cls.__dict__.get("_decorated_handlers")
        if decorated:
            for message_class in message_mro:
                for method, selectors in decorated.get(message_class, []):
                    entries.append((cls, method, selectors))
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        if method is not None and not getattr(method, "_textual_on", None):
            entries.append((cls, method, None))
    return tuple(entries)


def _get_dispatch_methods(self: MessagePump, method_name: str, message: Message
                          ) -> Iterator[tuple[type, Callable[[Message], Awaitable[Any]]]]:
    from textual.widget import Widget

    key = (type(self), type(message), method_name)
    plan = _plans.get(key)
    if plan is None:
        if len(_plans) >= PLANS_KEPT:
            _plans.clear()
        plan = _plans[key] = _plan(*key)
    methods_dispatched: set[Callable[..., Any]] = set()
    current: type | None = None
    for cls, method, selectors in plan:
        if cls is not current:
            # Upstream asks before each class of the walk: a handler may
            # have prevented the default since the class before.
            current = cls
            if message._no_default_action:
                break
        if selectors is None:  # found by its name: never deduplicated
            yield cls, method.__get__(self, cls)
        elif method in methods_dispatched:
            continue
        elif not selectors:
            yield cls, method.__get__(self, cls)
            methods_dispatched.add(method)
        else:
            if not message._sender:
                continue
            for attribute, selector in selectors.items():
                node = getattr(message, attribute)
                if node is None:
                    break
                if not isinstance(node, Widget):
                    raise OnNoWidget(
                        f"on decorator can't match against {attribute!r} as it is not a widget."
                    )
                if not match(selector, node):
                    break
            else:
                yield cls, method.__get__(self, cls)
                methods_dispatched.add(method)


def share_dispatch_plans() -> bool:
    """Make every message dispatch find its handlers from a plan made once; True if it does.

    For every message a node handles, ``MessagePump._get_dispatch_methods``
    walks the node's class's MRO (a widget's is a dozen classes) and, in
    each class's ``__dict__``, looks up the ``@on`` handlers for every class
    of the message's MRO and the handler named after the message: the same
    lookups, with the same answers, for every node of a kind and every
    message of a kind, about 6% of the Python calls of a session's start.
    The answers depend only on the two classes and the handler's name
    (classes' ``__dict__`` and ``_decorated_handlers`` are made when the
    class is; a handler assigned to a class after its first dispatch is not
    seen: nothing here does that), so the list of candidate handlers is
    worked out once per (node class, message class, name); the walk over it
    does what upstream does at each step: stops when a handler prevented the
    default before the next class, matches ``@on`` selectors against the
    message each time, and yields a decorated function only once. Installed
    only while upstream's source is the one this replays (its digest is
    recorded), else every dispatch walks as before, with a warning. Retire
    it when Textual caches its handler lookups per class: not reported
    upstream yet.
    """
    global _upstream
    if _upstream is not None:
        return True
    if not source_unchanged(upstream_source_digest(), UPSTREAM_SOURCE, "Textual's message "
                            "dispatch changed: each message looks its handlers up"):
        return False
    _upstream = MessagePump._get_dispatch_methods
    MessagePump._get_dispatch_methods = _get_dispatch_methods  # type: ignore[method-assign]
    return True


def dispatch_plans() -> int:
    """How many plans the process holds (for tests and figures)."""
    return len(_plans)


def upstream_get_dispatch_methods() -> _Walk:
    """``MessagePump._get_dispatch_methods`` as Textual has it (for tests)."""
    return _upstream or MessagePump._get_dispatch_methods


WORKAROUNDS = (
    Workaround("share_dispatch_plans", "fivetowers/compat/dispatch.py", "textual", TEXTUAL,
               ("MessagePump._get_dispatch_methods", "_decorated_handlers",
                "_no_default_action", "_sender", "textual._on", "_textual_on"),
               "Textual caches its handler lookups per class"),
)
