"""A new node's matched rules set in one step (checked against Textual 8.2.8).

See :func:`fresh_styles_at_once`; ``tests/compat/test_styles.py`` pins it down.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from rich.style import Style
from textual.color import Color
from textual.css import _style_properties
from textual.css.scalar import Scalar, Unit
from textual.css.styles import RulesMap, Styles
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.geometry import Spacing
from textual.layout import Layout
from textual.layouts.factory import LAYOUT_MAP
from textual.widget import Widget

from fivetowers.compat.checked import Workaround, source_digest, source_unchanged

TEXTUAL = "8.2.8"
"""The Textual version the style properties were read in."""

UPSTREAM_SOURCE = "d785e51bd0fc5e5d"
"""The first 16 hex digits of the SHA-256 of the sources of
``Stylesheet.replace_rules``, ``Styles.set_rule``, ``Styles.refresh`` and the
style properties' module (every descriptor's ``__set__``): what a fresh node's
styles become is that code's, so the shortcut is taken only while it is."""

RULES_KEPT = 1024
"""Rule maps whose outcome is known: one per matched node path (see
``share_style_matches``), a few hundred in use (about 1.5 KiB each). 20
sessions at 4 tables game after game (scripts/bench_cache_bounds.py): 443
after two games, a few dozen new a game after; 512 and 4,096 both hit
88.8% in the first game and 95.5% in the second. 4,096 would have held
some 6 MiB, mostly paths no screen shows any more, after hours. That bench
plays 5 Towers' base game only (GoTown, the variants, other themes add
paths in use), so twice 512 are kept (some 1.5 MiB)."""

_SIDE_EFFECTS = frozenset({"pointer"})
"""Rules whose setting does more than store its value, whatever the node's state
(the pointer asks the node's screen for its shape again)."""

_VALUES = (bool, int, float, str, type(None), Color, Style, Scalar, Spacing, Unit)
"""Immutable kinds of stored value: a node may hold the same object as another."""


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What setting a rules map on a fresh node left in its base styles."""

    rules: dict[str, Any]
    """The rules stored (descriptors may have made their own values)."""
    attributes: dict[str, Any]
    """Attributes set on the styles without a descriptor (Textual's ``auto_*`` flags)."""
    updates: int
    """How many times the styles counted an update."""
    made: tuple[str, ...]
    """Rules whose value every node gets one of its own (a layout, made
    by its name as the layout property makes it)."""


_outcomes: OrderedDict[int, tuple[RulesMap, _Outcome | None]] = OrderedDict()
"""By the id of a rules map (held, so the id stays its own): what setting it
on a fresh node leaves, or None when that cannot be copied to another node."""
_upstream: Callable[..., None] | None = None


def upstream_source_digest() -> str:
    """The digest of the upstream code, as UPSTREAM_SOURCE records it."""
    return source_digest(_upstream or Stylesheet.replace_rules, Styles.set_rule,
                         Styles.refresh, _style_properties)


def _fresh(node: DOMNode) -> bool:
    """Whether ``node`` has no rules yet and setting them refreshes nothing
    (``Styles.refresh`` returns at once for a node not mounted)."""
    if node._is_mounted or node.styles.base._rules:
        return False
    if isinstance(node, Widget):
        # A scrollbar colour set on a widget showing a scrollbar refreshes it.
        return not (node.show_horizontal_scrollbar or node.show_vertical_scrollbar)
    return True


def _shareable(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_shareable(each) for each in value)
    return isinstance(value, _VALUES)


def _outcome(base: Styles, attributes: dict[str, Any], updates: int,
             rules: RulesMap) -> _Outcome | None:
    """What upstream left in ``base`` (its attributes before, ``attributes``),
    if another node may be given the same."""
    if any(value is not None for name, value in rules.items() if name in _SIDE_EFFECTS):
        return None
    added = {name: value for name, value in vars(base).items()
             if name not in attributes or attributes[name] is not value}
    added.pop("_updates", None)
    if not set(added) <= rules.keys():
        return None  # something set more than the map's names (its ``auto_*`` flags)
    stored = dict(base._rules)
    made = tuple(name for name, value in stored.items() if isinstance(value, Layout)
                 and LAYOUT_MAP.get(value.name) is type(value) and not vars(value))
    if not all(_shareable(value) for name, value in (*stored.items(), *added.items())
               if name not in made):
        return None  # another value of its own per node: not copied
    return _Outcome(stored, added, base._updates - updates, made)


def _replace_rules(cls: type[Stylesheet], node: DOMNode, rules: RulesMap,
                   animate: bool = False) -> None:
    assert _upstream is not None
    if animate or not _fresh(node):
        _upstream(node, rules, animate=animate)
        return
    base = node.styles.base
    known = _outcomes.get(id(rules))
    if known is None or known[0] is not rules:
        attributes, updates = dict(vars(base)), base._updates
        _upstream(node, rules, animate=animate)
        _outcomes[id(rules)] = (rules, _outcome(base, attributes, updates, rules))
        if len(_outcomes) > RULES_KEPT:
            _outcomes.popitem(last=False)
        return
    _outcomes.move_to_end(id(rules))
    outcome = known[1]
    if outcome is None:
        _upstream(node, rules, animate=animate)
        return
    base._rules.update(outcome.rules)  # type: ignore[typeddict-item]
    for name in outcome.made:  # as get_layout makes it
        base._rules[name] = type(outcome.rules[name])()  # type: ignore[literal-required]
    vars(base).update(outcome.attributes)
    base._updates += outcome.updates
    if "display" in outcome.rules and node.parent:
        node._nodes.updated()  # as the display property does when it changes
    node.notify_style_update()  # as upstream ends (caches of styles derived before)


def fresh_styles_at_once() -> bool:
    """Set a new node's matched rules in one step; True if it does.

    ``Stylesheet.replace_rules`` sets each rule of the map the stylesheet
    matched for a node through its style property (``setattr`` on the
    node's base styles: the descriptor validates the value, stores it with
    ``Styles.set_rule`` and asks for a refresh), some forty of them for a
    widget, for each new widget and for each component class of a DataTable:
    about 7% of the Python calls of a lobby session's start. For a node
    that has no rules yet and is not mounted (``Styles.refresh`` returns at
    once), what that leaves behind depends only on the map: the first time
    a map is set on such a node it is set as upstream does, and if every
    value that left is immutable (or a layout made by its name, which each
    node gets anew) and nothing but the map's rules and Textual's ``auto_*``
    flags was set, later fresh nodes get those values stored at once, the
    same flags, the same count of updates and, for ``display``, the node's
    children list marked updated, as the display property does; then, as
    upstream ends, the node is told its styles changed. Maps with
    a pointer shape (which asks the screen), animated changes, styled nodes,
    mounted ones and widgets showing a scrollbar (a scrollbar colour
    refreshes it) go through upstream's code. Installed only while
    upstream's code is the one read (its digest is recorded). Retire it
    when Textual sets a new node's rules without a descriptor call each:
    not reported upstream yet.
    """
    global _upstream
    if _upstream is not None:
        return True
    if not source_unchanged(upstream_source_digest(), UPSTREAM_SOURCE, "Textual's style "
                            "properties changed: each new node's rules are set one by one"):
        return False
    _upstream = Stylesheet.replace_rules
    Stylesheet.replace_rules = classmethod(_replace_rules)  # type: ignore[method-assign, assignment]
    return True


def upstream_replace_rules() -> Callable[..., None]:
    """``Stylesheet.replace_rules`` as Textual has it (for tests)."""
    return _upstream or Stylesheet.replace_rules


def copied_rule_maps() -> int:
    """How many rule maps are known to be copied to fresh nodes (for tests and figures)."""
    return sum(outcome is not None for _, outcome in _outcomes.values())


WORKAROUNDS = (
    Workaround("fresh_styles_at_once", "fivetowers/compat/styles.py", "textual", TEXTUAL,
               ("Stylesheet.replace_rules", "Styles._rules", "Styles._updates",
                "DOMNode._is_mounted", "DOMNode._nodes"),
               "Textual sets a new node's rules without a descriptor call each"),
)
