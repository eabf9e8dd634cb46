"""The games' words that refusals name as details (:class:`~fivetowers.games.protocol.Term`).

The rules pass a tower's type or a card's name as a ``Term``; each viewer
reads it translated. Listed here so the catalog has them: the extractor
finds each ``N_`` (the rules themselves mark nothing, being standard library
only and language-free).
"""

from __future__ import annotations

from fivetowers.i18n import N_, _

FIVE_TOWERS_TOWERS = (N_("candy"), N_("scary"), N_("tree"), N_("scrap"), N_("sand"))
"""5 Towers' tower types, as ``TowerType.value``."""

GOTOWN_CARDS = (N_("dog"), N_("bone"), N_("jackhammer"), N_("wrecking-ball"), N_("milkshake"),
                N_("donut-truck"), N_("thief"), N_("super-thief"), N_("?"))
"""GoTown's cards by value (``Card.value``; the numbers need no translation)."""

GOTOWN_CARD_WORDS = (
    N_("a wild"), N_("a dog"), N_("a bone"), N_("a jackhammer"), N_("a wrecking ball"),
    N_("a milkshake"), N_("a donut truck"), N_("a thief"), N_("a super thief"),
    N_("a 1"), N_("a 2"), N_("a 3"), N_("a 4"), N_("a 5"), N_("a 6"), N_("a 7"), N_("an 8"))
"""GoTown's cards as a sentence names them (``Card.words``)."""

REMATCH_WANTED = N_("wants a rematch: n on the end screen says yes")
TABLE_SAYS = frozenset({REMATCH_WANTED})
"""What a table itself says in its chat (under a player's name): kept in
English in the chat, like any line, and translated as each viewer reads it."""


def said_text(text: str) -> str:
    """A chat line's text for this viewer: the table's own words translated,
    a player's words never."""
    return _(text) if text in TABLE_SAYS else text
