"""Games arranged card by card for rule-example tests."""

from __future__ import annotations

from fivetowers.games.five_towers.rules import TYPES, Board, Card, Game, Variant, card, full_deck
from fivetowers.games.five_towers.rules.building import multiset_minus


def arranged(names: list[str], display: list[str], boards: dict[int, dict[str, list[int]]] | None = None,
             piles: dict[int, list[str]] | None = None, variant: Variant = Variant.BASE,
             deck_after: list[str] | None = None, starter: int = 0) -> Game:
    """A game whose first display is ``display`` and whose boards are given.

    Board and pile cards are taken out of the draw deck, so every card is
    still in exactly one place. ``deck_after`` puts cards right after the
    display in the draw order.
    """
    boards = boards or {}
    piles = piles or {}
    first = [card(c) for c in display] + [card(c) for c in (deck_after or [])]
    rest = multiset_minus(full_deck(len(names)), first)
    assert rest is not None
    game = Game(names, variant, deck=first + rest)
    placed: list[Card] = []
    for seat, towers in boards.items():
        board = Board()
        for t in TYPES:
            board.towers[t] = list(towers.get(t.value, []))
            placed += [Card(t, v) for v in board.towers[t]]
        game.players[seat].board = board
    for seat, pile in piles.items():
        game.players[seat].board.teardown = [card(c) for c in pile]
        placed += game.players[seat].board.teardown
    left = multiset_minus(game.draw, placed)
    assert left is not None, "a board card is also in the display"
    game.draw = left
    game.starter = game.to_move = starter
    game._max_bids.clear()
    return game
