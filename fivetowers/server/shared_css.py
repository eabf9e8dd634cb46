"""One parse of the stylesheets for every session.

Each Textual App parses every CSS source again into its own rule objects:
about 370 KiB per session for the same rules (measured with tracemalloc).
Rules are only read once parsed, so sessions with the same CSS variables
(the same theme) can share them. Textual has no hook for this; the parse
method is wrapped, and only if it still has the signature this was written
against (Textual 8.2), else every App parses its own as before.
"""

from __future__ import annotations

import inspect
import logging
from collections import OrderedDict
from typing import Any, Callable

from textual.css.stylesheet import Stylesheet

log = logging.getLogger("fivetowers.server")

KEPT = 256
"""Parsed sources kept (a few dozen are in use: the apps' and widgets' CSS)."""

_EXPECTED = ["self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]
_parsed: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_shared = False


def share_parsed_css() -> bool:
    """Make every Stylesheet share parsed rules; True if it does."""
    global _shared
    if _shared:
        return True
    original: Callable[..., Any] = Stylesheet._parse_rules
    if list(inspect.signature(original).parameters) != _EXPECTED:
        log.warning("Textual's stylesheet parser changed: each session parses its own CSS")
        return False

    def parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                    tie_breaker: int = 0, scope: str = "") -> Any:
        key = (css, read_from, is_default_rules, tie_breaker, scope,
               tuple(sorted(self._variables.items())))
        rules = _parsed.get(key)
        if rules is None:
            rules = original(self, css, read_from, is_default_rules, tie_breaker, scope)
            _parsed[key] = rules
            if len(_parsed) > KEPT:
                _parsed.popitem(last=False)
        else:
            _parsed.move_to_end(key)
        return rules

    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]
    _shared = True
    return True
