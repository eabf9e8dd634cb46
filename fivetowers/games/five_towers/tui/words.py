"""5 Towers' words in the viewer's language: cards, tower names, steps,
builds, the log's entries and the hint's plans.

The rules and the solver write English (records, the JSON hint, tests read
it); a screen says the same things again from their data, with the
catalog's words (the Vietnamese rulebook's: Tháp kẹo, phá dỡ, …). English
is shown exactly as the rules and the solver wrote it.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from fivetowers.games.five_towers.rules import Build, Card, End, LogEntry, Source, Step, TowerType
from fivetowers.games.five_towers.solver.plans import Plan
from fivetowers.games.protocol import ActionRefused, Term
from fivetowers.i18n import ENGLISH, N_, _, current_language, ngettext, refusal_text

CARD_WORD = {
    TowerType.CANDY: N_("candy-{value}"),
    TowerType.SCARY: N_("scary-{value}"),
    TowerType.TREE: N_("tree-{value}"),
    TowerType.SCRAP: N_("scrap-{value}"),
    TowerType.SAND: N_("sand-{value}"),
}
"""A card in a sentence: ``candy-11``."""
TYPE_NAME = {
    TowerType.CANDY: N_("CANDY"),
    TowerType.SCARY: N_("SCARY"),
    TowerType.TREE: N_("TREE"),
    TowerType.SCRAP: N_("SCRAP"),
    TowerType.SAND: N_("SAND"),
}
"""A tower's type on a card and beside your own towers."""
TYPE_TAG = {
    TowerType.CANDY: N_("Ca"),
    TowerType.SCARY: N_("Sy"),
    TowerType.TREE: N_("Tr"),
    TowerType.SCRAP: N_("Sp"),
    TowerType.SAND: N_("Sa"),
}
"""Two letters per type for the compact boards (that differ within a language)."""
TOWER = {
    TowerType.CANDY: N_("candy"), TowerType.SCARY: N_("scary"), TowerType.TREE: N_("tree"),
    TowerType.SCRAP: N_("scrap"), TowerType.SAND: N_("sand"),
}
"""A tower by its type (the refusals' Terms: Tháp kẹo, …)."""
LOG_TEMPLATE = {
    "bid": N_("{name}: bid {amount}"),
    "pass": N_("{name}: pass"),
    "auto-pass": N_("{name}: pass (cannot raise)"),
    "no-build": N_("nobody builds; the display is discarded"),
    "build": N_("{name}: {build}"),
    "reveal": N_("round {round}: {cards}"),
    "end": N_("the game is over; winner: {names}"),
}
STAND_IN = N_(" (stand-in bot)")
"""After a move a stand-in bot made."""


def english() -> bool:
    return current_language() == ENGLISH


def type_name(tower: TowerType) -> str:
    return _(TYPE_NAME[tower])


def type_tag(tower: TowerType) -> str:
    return _(TYPE_TAG[tower])


def card_word(card: Card) -> str:
    return _(CARD_WORD[card.type]).format(value=card.value)


def cards_word(cards: Iterable[Card]) -> str:
    return ", ".join(card_word(c) for c in cards)


def step_word(step: Step) -> str:
    """A step as the build panel and the log say it: ``sand-3 under the sand tower``."""
    if english():
        return str(step)
    text = card_word(step.card)
    if step.source is Source.TEARDOWN:
        text = _("{card} from the teardown pile").format(card=text)
    if step.end is End.BOTTOM:
        text = _("{card} under the sand tower").format(card=text)
    return text


def build_word(build: Build, torn: Card | None) -> str:
    """The build in words, cards in the order they were placed (as the rules' log)."""
    parts = []
    if build.pay:
        parts.append(ngettext("pay {count} tree card", "pay {count} tree cards",
                              build.pay).format(count=build.pay))
    if build.teardown:
        parts.append(_("tear down {card}").format(
            card=card_word(torn) if torn else _(TOWER[build.teardown])))
    steps = ", ".join(step_word(s) for s in build.steps)
    parts.append(_("build {cards}").format(cards=steps) if steps else _("build nothing"))
    return ", ".join(parts)


def _detail(value: object) -> object:
    if isinstance(value, Card):
        return card_word(value)
    if isinstance(value, tuple) and value and all(isinstance(v, Card) for v in value):
        return cards_word(value)
    if isinstance(value, tuple):
        return ", ".join(map(str, value))  # names
    return value


def entry_text(entry: LogEntry) -> str:
    """A log entry in the viewer's language (chat and unknown kinds as written)."""
    details = dict(entry.details)
    mark = _(STAND_IN) if details.pop("stand_in", False) else ""
    if english() or not entry.details:
        return entry.text
    if entry.kind == "reshuffle":
        count = int(details.get("count", 0))  # type: ignore[call-overload]
        return ngettext("the deck ran out: {count} discarded card forms the new deck",
                        "the deck ran out: {count} discarded cards form the new deck",
                        count).format(count=count) + mark
    template = LOG_TEMPLATE.get(entry.kind)
    if template is None:
        return entry.text
    words = {key: _detail(value) for key, value in details.items()}
    if entry.kind == "build" and isinstance(details.get("build"), Build):
        torn = details.get("torn")
        words["build"] = build_word(details["build"],  # type: ignore[arg-type]
                                    torn if isinstance(torn, Card) else None)
    try:
        return _(template).format(**words) + mark
    except (KeyError, IndexError, ValueError):
        return entry.text


def entry_texts(entries: Sequence[LogEntry]) -> tuple[str, ...]:
    return tuple(entry_text(e) for e in entries)


def plan_word(plan: Plan, explain: str) -> str:
    """A hint's plan: the solver's own explanation in English (``explain``),
    else said again from the plan's data."""
    if english():
        return explain
    parts = []
    if plan.pay:
        parts.append(ngettext("pay {count} tree card", "pay {count} tree cards",
                              plan.pay).format(count=plan.pay))
    if plan.teardown is not None:
        parts.append(_("tear down the top of the {tower}").format(tower=_(TOWER[plan.teardown])))
    steps = ", ".join(step_word(s) for s in plan.steps)
    parts.append(_("build {cards}").format(cards=steps) if steps else _("build nothing"))
    return ", ".join(parts)


def _named_cards(value: object) -> object:
    """A refusal's detail that names cards (``candy-4``, ``candy-4, sand-2``)
    in the viewer's words; any other detail as it is."""
    if not isinstance(value, str) or isinstance(value, Term) or not value:
        return value
    try:
        cards = [Card.from_str(part) for part in value.split(", ")]
    except ValueError:
        return value
    return cards_word(cards)


def refusal_words(exc: BaseException) -> str:
    """A refusal of the rules in the viewer's language, its cards too (the
    rules name them as ``candy-4``)."""
    if english() or not isinstance(exc, ActionRefused) or not exc.details:
        return refusal_text(exc)
    details = {key: _named_cards(value) for key, value in exc.details.items()}
    return refusal_text(type(exc)(exc.template, **details))
