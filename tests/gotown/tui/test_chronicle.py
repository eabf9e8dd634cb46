"""The log tells every play, and a thief's catch only to those who know it."""

from __future__ import annotations

import random

from fivetowers.games.gotown.bots import make_bot
from fivetowers.games.gotown.chronicle import Chronicle
from fivetowers.games.gotown.rules import (
    Card, DonutTruck, End, Game, Milkshake, SuperThief, Thief, full_deck,
)


def test_a_thiefs_card_is_named_for_the_thief_and_the_robbed_only() -> None:
    game = Game(["Ann", "Bo", "Cy"], seed=7)
    chronicle = Chronicle(game)
    # play greedy until a thief has been played, then compare the viewers
    bot, rng = make_bot("greedy"), random.Random(3)
    while not any(isinstance(a, (Thief, SuperThief)) and (a.took if isinstance(a, Thief)
                  else a.took) for a in game.actions):
        assert not game.over
        game.apply(bot.choose(game.view(game.to_move), rng))
    chronicle.follow(game)
    entry = next(e for e in chronicle.entries if e.took)
    thief = entry.thief
    assert thief is not None
    robbed = {s for s, _ in entry.took}
    for seat in range(3):
        text = entry.text_for(seat)
        for s, card in entry.took:
            if seat in (thief, s):
                assert card.words in text, (seat, text)
        if seat != thief and seat not in robbed:
            assert "a card" in text
    assert "a card" in entry.text_for(None)  # a watcher knows no card


def test_milkshake_and_donut_truck_turns_are_told_and_give_the_reason() -> None:
    deck = full_deck()
    for card in (Card.DONUT_TRUCK, Card.MILKSHAKE):  # dealt to Ann
        deck.remove(card)
        deck.insert(0, card)
    game = Game(["Ann", "Bo", "Cy"], deck=deck, seed=7)
    chronicle = Chronicle(game)
    for action in (DonutTruck(0), Milkshake(0, 1), End(0)):
        game.apply(action)
    chronicle.follow(game)
    texts = [e.text_for(None) for e in chronicle.entries]
    assert texts[-2:] == ["Ann ends the turn", "Donut truck: Ann takes another turn"]
    assert chronicle.reason == "another turn: donut truck" and game.to_move == 0
    game.apply(End(0))  # Bo drinks the milkshake: Cy's turn
    chronicle.follow(game)
    assert chronicle.entries[-1].text_for(None) == "Bo drinks a milkshake: turn lost"
    assert chronicle.reason == "Bo drank a milkshake" and game.to_move == 2


def test_every_action_is_told_once_in_order() -> None:
    game = Game(["You", "Bo"], seed=2)
    bot, rng = make_bot("random"), random.Random(2)
    chronicle = Chronicle(game)
    while not game.over:
        game.apply(bot.choose(game.view(game.to_move), rng))
        if len(game.actions) % 5 == 0:
            chronicle.follow(game)
    chronicle.follow(game)
    told = [e.action for e in chronicle.entries]
    assert sorted(set(told)) == list(range(len(game.actions)))
    assert told == sorted(told)
    assert not any("You builds" in e.text_for(None) or "You's" in e.text_for(None)
                   for e in chronicle.entries)


async def test_two_viewers_at_one_table_read_the_log_in_their_own_language() -> None:
    """One chronicle, two sessions on one loop: each reads every line (the
    thief's catch too) in its own language, at the same time."""
    import asyncio

    from fivetowers.i18n import Speech, speak

    game = Game(["Ann", "Bo", "Cy"], seed=7)
    chronicle = Chronicle(game)
    bot, rng = make_bot("greedy"), random.Random(3)
    while not any(isinstance(a, (Thief, SuperThief)) and a.took for a in game.actions):
        game.apply(bot.choose(game.view(game.to_move), rng))
    for _ in range(8):  # some turns ended too
        game.apply(bot.choose(game.view(game.to_move), rng))
    chronicle.follow(game)
    thief_line = next(i for i, e in enumerate(chronicle.entries) if e.took)
    robbed = chronicle.entries[thief_line].took[0][0]
    both_read = asyncio.Event()
    read: dict[str, list[str]] = {}

    async def viewer(language: str, seat: int) -> None:
        speak(Speech(language))
        await asyncio.sleep(0)  # the other session speaks its language meanwhile
        read[language] = [e.text_for(seat) for e in chronicle.entries]
        if len(read) == 2:
            both_read.set()
        await both_read.wait()
        read[language].append(chronicle.entries[thief_line].text_for(seat))

    await asyncio.gather(viewer("vi", robbed), viewer("en", (robbed + 1) % 3))
    english, vietnamese = read["en"], read["vi"]
    assert len(english) == len(vietnamese)
    assert any(" ends the turn" in line for line in english)
    assert not any(" ends the turn" in line for line in vietnamese)
    assert any(" kết thúc lượt" in line for line in vietnamese)
    catch = chronicle.entries[thief_line].took[0][1]
    assert "Tên trộm" in vietnamese[-1] or "Siêu trộm" in vietnamese[-1]
    assert "một thẻ" not in vietnamese[-1]  # the robbed player is told the card...
    assert catch.words not in vietnamese[-1]  # ...in Vietnamese
    entry = chronicle.entries[thief_line]
    if (robbed + 1) % 3 not in {entry.thief, *(s for s, _ in entry.took)}:
        assert "a card" in english[-1]  # the English viewer was not robbed


def test_a_steal_reads_right_for_the_thief_and_the_others() -> None:
    from fivetowers.games.gotown.rules import Steal

    game = Game(["You", "Bo"], seed=2)  # the log says "You ..." of a player named You
    chronicle = Chronicle(game)
    bot, rng = make_bot("greedy"), random.Random(2)
    while not any(isinstance(a, Steal) and a.seat == 0 for a in game.actions):
        assert not game.over
        game.apply(bot.choose(game.view(game.to_move), rng))
    chronicle.follow(game)
    entry = next(e for e in chronicle.entries if e.kind == "attack" and "steal" in e.text
                 and e.text_for(0).startswith("You"))
    assert entry.text_for(0).startswith("You steal from Bo's top floor [")
    assert " and build [" in entry.text_for(0)
