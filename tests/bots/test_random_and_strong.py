"""The random and strong bots play only legal moves, reproducibly."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import threading
from typing import Callable

import pytest

from fivetowers.games.five_towers.bots import Bot, RandomBot, StrongBot, make_bot, think
from fivetowers.games.five_towers.rules import Action, Bid, Build, Game, Pass, Phase, PlayerView, Variant

from tests.bots.helpers import play

VARIANTS = [Variant.BASE, Variant.GREAT_POWERS]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_bot_is_always_legal(variant: Variant, players: int) -> None:
    for seed in range(6):
        game, actions = play([RandomBot() for _ in range(players)], variant, seed)
        assert game.phase is Phase.OVER
        assert any(isinstance(a, Build) for a in actions)


def test_random_bot_uses_every_kind_of_move() -> None:
    kinds: set[str] = set()
    for seed in range(10):
        _, actions = play([RandomBot(), RandomBot(), RandomBot()], Variant.GREAT_POWERS, seed)
        for a in actions:
            kinds.add(type(a).__name__)
            if isinstance(a, Build):
                if a.teardown is not None:
                    kinds.add("teardown")
                if a.pay:
                    kinds.add("pay")
                if any(s.source.value == "teardown" for s in a.steps):
                    kinds.add("rebuild")
                if any(s.end.value == "bottom" for s in a.steps):
                    kinds.add("bottom")
    assert kinds >= {"Bid", "Pass", "Build", "teardown", "pay", "rebuild", "bottom"}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 4])
def test_strong_bot_is_always_legal(variant: Variant, players: int) -> None:
    bots = [StrongBot(simulations=2)] + [RandomBot() for _ in range(players - 1)]
    game, _ = play(bots, variant, seed=players)
    assert game.phase is Phase.OVER


def test_strong_bots_against_each_other_are_legal() -> None:
    game, _ = play([StrongBot(simulations=1), StrongBot(simulations=1), StrongBot(simulations=1)],
                   Variant.GREAT_POWERS, seed=11)
    assert game.phase is Phase.OVER


MAKERS: list[Callable[[], Bot]] = [RandomBot, lambda: StrongBot(simulations=3)]


@pytest.mark.parametrize("make", MAKERS)
def test_same_seed_same_game(make: Callable[[], Bot]) -> None:
    runs = [play([make(), make()], Variant.GREAT_POWERS, seed=5)[1] for _ in range(2)]
    assert runs[0] == runs[1]
    other = play([make(), make()], Variant.GREAT_POWERS, seed=6)[1]
    assert other != runs[0]


def test_strong_bot_beats_random_bot() -> None:
    # Not a benchmark: a floor that any planning bot clears in every game.
    for seed in range(2):
        strong, weak = StrongBot(simulations=4), RandomBot()
        bots: list[Bot] = [strong, weak] if seed % 2 == 0 else [weak, strong]
        game, _ = play(bots, Variant.BASE, seed)
        strong_seat = 0 if seed % 2 == 0 else 1
        assert game.outcome().winners == (strong_seat,)


def test_a_bot_refuses_to_move_out_of_turn() -> None:
    game = Game(["a", "b"], Variant.BASE, seed=1)
    for bot in (RandomBot(), StrongBot(simulations=1)):
        with pytest.raises(ValueError, match="not this bot's turn"):
            bot.choose(game.view(1), random.Random(0))


def test_make_bot_names() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    strong = make_bot("strong", 0.25)
    assert isinstance(strong, StrongBot) and strong.time_per_move == 0.25
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bot("clever")


def test_think_runs_off_the_event_loop() -> None:
    """The bot waits until the event loop releases it: only possible when its
    thinking runs in another thread while the loop goes on."""
    game = Game(["a", "b"], Variant.BASE, seed=2)

    class WaitingBot:
        name = "waiting"

        def __init__(self) -> None:
            self.released = threading.Event()
            self.was_released = False
            self.thread: threading.Thread | None = None

        def choose(self, view: PlayerView, rng: random.Random) -> Action:
            self.thread = threading.current_thread()
            self.was_released = self.released.wait(timeout=60)
            return RandomBot().choose(view, rng)

    bot = WaitingBot()

    async def main() -> Action:
        thinking = asyncio.create_task(think(bot, game.view(0), random.Random(1)))
        while bot.thread is None:
            await asyncio.sleep(0.01)
        bot.released.set()
        return await thinking

    action = asyncio.run(main())
    assert bot.was_released and bot.thread is not threading.main_thread()
    game.apply(action)


def test_think_in_a_process_pool_is_reproducible() -> None:
    game = Game(["a", "b"], Variant.GREAT_POWERS, seed=4)
    view = game.view(0)

    async def main() -> list[Action]:
        with concurrent.futures.ProcessPoolExecutor(1) as pool:
            return [await think(StrongBot(simulations=2), view, random.Random(7), pool),
                    await think(StrongBot(simulations=2), view, random.Random(7))]

    in_process, in_thread = asyncio.run(main())
    assert in_process == in_thread
    game.apply(in_process)


def test_clear_winner_needs_a_lead_beyond_the_noise() -> None:
    from fivetowers.games.five_towers.bots.strong import MIN_WORLDS, clear_winner

    rng = random.Random(3)
    # Candidate 0 is always a win better than candidate 1: clear once there are enough worlds.
    rows = [[1.0 + rng.random() * 0.01, rng.random() * 0.01] for _ in range(MIN_WORLDS)]
    assert clear_winner(rows)
    assert not clear_winner(rows[:MIN_WORLDS - 1])
    # Two equal coin flips are never told apart.
    coins = [[float(rng.random() < 0.5), float(rng.random() < 0.5)] for _ in range(400)]
    assert not clear_winner(coins)
    # Identical candidates never stop the search.
    assert not clear_winner([[0.5, 0.5]] * 100)
