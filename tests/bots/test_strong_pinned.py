"""The strong bot's decisions are pinned: refactoring how it builds its
determinised worlds must not change what it plays.

The expected actions and world digests were computed with the code of commit
94a4af4, where ``determinize`` assembled the ``Game`` field by field through
``Game.__new__``; they must hold for the named constructor
(:meth:`Game.from_view`) that replaced it.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from fivetowers.games.five_towers.bots import RandomBot, StrongBot
from fivetowers.games.five_towers.bots.determinize import determinize
from fivetowers.games.five_towers.rules import Game, PlayerView, Variant

# (players, variant, decision index in the seeded random game, the strong
# bot's action as JSON, digest of the determinised world)
PINNED: list[tuple[int, str, int, str, str]] = [
    (2, 'base', 4, '{"seat":0,"bid":0}', '1c34b6199a4f'),
    (2, 'base', 13, '{"seat":0,"bid":3}', 'ab98ca8f0902'),
    (2, 'base', 22, '{"seat":1,"build":{"take":["candy-2","candy-6","scrap-0","scrap-11","scrap-14"],"pay":0,"teardown":"scrap","steps":[{"card":"candy-6"},{"card":"candy-2"},{"card":"scrap-14"},{"card":"scrap-11"},{"card":"scrap-0"}]}}', '8fc3f8aa6a2e'),
    (2, 'base', 31, '{"seat":1,"bid":1}', 'e1753ecf8248'),
    (2, 'base', 40, '{"seat":1,"bid":3}', '67fea06b49a6'),
    (2, 'base', 49, '{"seat":0,"build":{"take":["scrap-5"],"pay":0,"teardown":null,"steps":[{"card":"scrap-5"}]}}', '07ea240ea7a1'),
    (2, 'base', 58, '{"seat":0,"build":{"take":["scrap-4","scrap-7"],"pay":0,"teardown":null,"steps":[{"card":"scrap-7"},{"card":"scrap-4"}]}}', '9a1d201f767d'),
    (2, 'great-powers', 4, '{"seat":0,"build":{"take":["candy-13","tree-0","scrap-9","sand-11"],"pay":0,"teardown":null,"steps":[{"card":"candy-13"},{"card":"tree-0"},{"card":"scrap-9"},{"card":"sand-11"}]}}', 'e513a1620f5e'),
    (2, 'great-powers', 13, '{"seat":0,"build":{"take":["candy-6","scrap-4"],"pay":0,"teardown":"scrap","steps":[{"card":"candy-6"},{"card":"scrap-4"},{"card":"scrap-3","from":"teardown"}]}}', '8fe95f1632e7'),
    (2, 'great-powers', 22, '{"seat":0,"bid":0}', '9a20123487e8'),
    (2, 'great-powers', 31, '{"seat":1,"bid":4}', '45d1e76454e7'),
    (2, 'great-powers', 40, '{"seat":0,"bid":2}', 'e0daa201e7f6'),
    (2, 'great-powers', 49, '{"seat":0,"build":{"take":["scary-9","scrap-13"],"pay":0,"teardown":"scrap","steps":[{"card":"scrap-13"},{"card":"scrap-12","from":"teardown"},{"card":"scrap-3","from":"teardown"},{"card":"scary-1","from":"teardown"},{"card":"scary-9"}]}}', 'adadac906d31'),
    (2, 'great-powers', 58, '{"seat":0,"bid":0}', '08e60f16dda9'),
    (3, 'base', 4, '{"seat":0,"bid":0}', 'b56378dd2cd5'),
    (3, 'base', 13, '{"seat":1,"pass":true}', '020946aeca43'),
    (3, 'base', 22, '{"seat":1,"bid":2}', '02f1beb87a38'),
    (3, 'base', 31, '{"seat":1,"build":{"take":["tree-3","tree-8","tree-14","sand-8","sand-10"],"pay":0,"teardown":"sand","steps":[{"card":"tree-8"},{"card":"tree-14"},{"card":"tree-3"},{"card":"sand-10"},{"card":"sand-8"}]}}', 'b6c1cc2ab6f8'),
    (3, 'base', 40, '{"seat":2,"build":{"take":["scary-9","tree-1","tree-6","tree-9","scrap-13"],"pay":0,"teardown":"scrap","steps":[{"card":"scary-9"},{"card":"tree-1"},{"card":"tree-9"},{"card":"tree-6"},{"card":"scrap-13"}]}}', '11ddf8697a51'),
    (3, 'base', 49, '{"seat":0,"bid":5}', '8dd41c6e8a2c'),
    (3, 'base', 58, '{"seat":1,"build":{"take":["candy-0","sand-1"],"pay":0,"teardown":null,"steps":[{"card":"candy-0"},{"card":"sand-1"}]}}', '5c37ff6892d7'),
    (3, 'base', 67, '{"seat":0,"build":{"take":["candy-6","candy-9","scary-3"],"pay":0,"teardown":null,"steps":[{"card":"candy-9"},{"card":"candy-6"},{"card":"scary-3"}]}}', 'e0e1d080b7a0'),
    (3, 'great-powers', 4, '{"seat":0,"bid":0}', '12ed2647fb3a'),
    (3, 'great-powers', 13, '{"seat":2,"build":{"take":["candy-10","tree-0","tree-4","tree-14"],"pay":0,"teardown":"scary","steps":[{"card":"candy-10"},{"card":"tree-14"},{"card":"tree-4"},{"card":"tree-0"}]}}', '2ae827378a94'),
    (3, 'great-powers', 22, '{"seat":1,"bid":5}', '542b3e212496'),
    (3, 'great-powers', 31, '{"seat":0,"bid":4}', '9e779403f194'),
    (3, 'great-powers', 40, '{"seat":1,"build":{"take":["scary-5","scary-9","sand-14"],"pay":1,"teardown":null,"steps":[{"card":"scary-5"},{"card":"scary-9"},{"card":"sand-14","end":"bottom"}]}}', '9e0df9991c42'),
    (3, 'great-powers', 49, '{"seat":1,"bid":1}', 'a1d1ca6336d2'),
    (3, 'great-powers', 58, '{"seat":0,"bid":2}', 'f858c249180c'),
    (3, 'great-powers', 67, '{"seat":1,"bid":0}', 'f42bc924b2bb'),
    (3, 'great-powers', 76, '{"seat":1,"build":{"take":["tree-3","scrap-0","scrap-6"],"pay":0,"teardown":"scrap","steps":[{"card":"tree-3"},{"card":"scrap-6"},{"card":"scrap-4","from":"teardown"},{"card":"scrap-3","from":"teardown"},{"card":"scrap-0"},{"card":"sand-1","from":"teardown"}]}}', '244715888f36'),
    (3, 'great-powers', 85, '{"seat":1,"build":{"take":["scary-8","sand-15"],"pay":1,"teardown":"scary","steps":[{"card":"scary-8"},{"card":"sand-15","end":"bottom"}]}}', '9c3cbfe4ab96'),
    (4, 'base', 4, '{"seat":3,"build":{"take":["scary-4","tree-6","sand-2","sand-4"],"pay":0,"teardown":null,"steps":[{"card":"scary-4"},{"card":"tree-6"},{"card":"sand-4"},{"card":"sand-2"}]}}', '8b894c956a4e'),
    (4, 'base', 13, '{"seat":1,"bid":0}', '2d665b7cfbab'),
    (4, 'base', 22, '{"seat":1,"pass":true}', '3eb08ccc4c21'),
    (4, 'base', 31, '{"seat":3,"build":{"take":["tree-1","scrap-2","scrap-6"],"pay":0,"teardown":"scary","steps":[{"card":"tree-1"},{"card":"scrap-6"},{"card":"scrap-2"}]}}', '71cabaf90302'),
    (4, 'base', 40, '{"seat":2,"bid":3}', '9a93f320481c'),
    (4, 'base', 49, '{"seat":1,"bid":1}', 'fea79ad2fa6a'),
    (4, 'base', 58, '{"seat":2,"build":{"take":["candy-8","candy-12","scrap-0"],"pay":0,"teardown":"sand","steps":[{"card":"candy-8"},{"card":"candy-12"},{"card":"scrap-0"}]}}', '228c07c3832c'),
    (4, 'base', 67, '{"seat":0,"bid":3}', 'c417fff97f6e'),
    (4, 'base', 76, '{"seat":1,"build":{"take":["scary-10"],"pay":0,"teardown":"scary","steps":[{"card":"scary-10"}]}}', '24a6cc844995'),
    (4, 'base', 85, '{"seat":2,"pass":true}', '16afd039bc71'),
    (4, 'base', 94, '{"seat":2,"bid":0}', 'ef0222e42e22'),
    (4, 'base', 103, '{"seat":1,"bid":2}', '4f9cc11614cd'),
    (4, 'base', 112, '{"seat":2,"build":{"take":["candy-10"],"pay":0,"teardown":"candy","steps":[{"card":"candy-10"}]}}', '7f710139665c'),
    (4, 'great-powers', 4, '{"seat":3,"bid":5}', 'c71f1dfb5649'),
    (4, 'great-powers', 13, '{"seat":0,"bid":3}', '1ee5cc41ca45'),
    (4, 'great-powers', 22, '{"seat":2,"build":{"take":["candy-12","scary-4","scary-13","sand-2"],"pay":2,"teardown":null,"steps":[{"card":"candy-12"},{"card":"scary-13"},{"card":"scary-4"},{"card":"sand-2","end":"bottom"}]}}', '03a1c725e243'),
    (4, 'great-powers', 31, '{"seat":3,"bid":0}', 'e13d435efc81'),
    (4, 'great-powers', 40, '{"seat":1,"bid":3}', '6f4b228dff88'),
    (4, 'great-powers', 49, '{"seat":1,"bid":0}', '61f7092aada9'),
    (4, 'great-powers', 58, '{"seat":3,"pass":true}', '25a95ddfa873'),
    (4, 'great-powers', 67, '{"seat":3,"bid":4}', '38b5bb56a19e'),
    (4, 'great-powers', 76, '{"seat":0,"pass":true}', '55d62dbb59b1'),
    (4, 'great-powers', 85, '{"seat":1,"bid":1}', 'a8fc2b436e17'),
    (4, 'great-powers', 94, '{"seat":3,"build":{"take":["tree-1","tree-4"],"pay":0,"teardown":"sand","steps":[{"card":"tree-4"},{"card":"tree-1"}]}}', '769a4bfbe5a1'),
    (4, 'great-powers', 103, '{"seat":2,"bid":0}', '11cdad366c0d'),
    (5, 'base', 4, '{"seat":3,"pass":true}', '19207adb70a5'),
    (5, 'base', 13, '{"seat":3,"build":{"take":["candy-0","scrap-15","sand-2","sand-4","sand-5"],"pay":0,"teardown":null,"steps":[{"card":"candy-0"},{"card":"scrap-15"},{"card":"sand-5"},{"card":"sand-4"},{"card":"sand-2"}]}}', '4377ac290582'),
    (5, 'base', 22, '{"seat":1,"pass":true}', 'b1e2037276e6'),
    (5, 'base', 31, '{"seat":3,"bid":4}', '743720058ca5'),
    (5, 'base', 40, '{"seat":3,"bid":2}', '34a00b9bdfab'),
    (5, 'base', 49, '{"seat":2,"pass":true}', '7a3f1d941a00'),
    (5, 'base', 58, '{"seat":3,"pass":true}', '807fa9073111'),
    (5, 'base', 67, '{"seat":4,"build":{"take":["candy-5","scary-1","sand-6","sand-9","sand-10"],"pay":0,"teardown":"scrap","steps":[{"card":"candy-5"},{"card":"scary-1"},{"card":"sand-10"},{"card":"sand-6"},{"card":"sand-9"}]}}', 'f55538d1a36b'),
    (5, 'base', 76, '{"seat":1,"pass":true}', 'c54e7a90378c'),
    (5, 'base', 85, '{"seat":3,"bid":0}', 'bde9227db2fd'),
    (5, 'base', 94, '{"seat":4,"build":{"take":["candy-6","scary-4","scary-9"],"pay":0,"teardown":"candy","steps":[{"card":"candy-6"},{"card":"scary-9"},{"card":"scary-4"}]}}', 'a53abd73cf7c'),
    (5, 'great-powers', 4, '{"seat":3,"bid":1}', 'fa74be8ad0a0'),
    (5, 'great-powers', 13, '{"seat":2,"bid":0}', '773c81059927'),
    (5, 'great-powers', 22, '{"seat":3,"bid":5}', 'dff2e6411cec'),
    (5, 'great-powers', 31, '{"seat":0,"bid":4}', '7e4dbc4662b7'),
    (5, 'great-powers', 40, '{"seat":2,"bid":3}', '44548e0e82d0'),
    (5, 'great-powers', 49, '{"seat":0,"build":{"take":["candy-7","scary-10","sand-0","sand-11"],"pay":1,"teardown":"scary","steps":[{"card":"candy-7"},{"card":"scary-10"},{"card":"sand-11"},{"card":"sand-0"}]}}', '74c57a8b3a4f'),
    (5, 'great-powers', 58, '{"seat":2,"bid":5}', '68a109427795'),
    (5, 'great-powers', 67, '{"seat":3,"build":{"take":["scary-0","scary-11","tree-0","tree-2","tree-12"],"pay":0,"teardown":null,"steps":[{"card":"scary-11"},{"card":"scary-0"},{"card":"tree-12"},{"card":"tree-2"},{"card":"tree-0"}]}}', '62c2402d910d'),
    (5, 'great-powers', 76, '{"seat":1,"bid":4}', '6c1b97061897'),
    (5, 'great-powers', 85, '{"seat":4,"bid":3}', 'caee1ac8da29'),
    (5, 'great-powers', 94, '{"seat":1,"build":{"take":["tree-8","scrap-5","scrap-12"],"pay":0,"teardown":"scrap","steps":[{"card":"tree-8"},{"card":"scrap-12"},{"card":"scrap-5"},{"card":"scrap-2","from":"teardown"},{"card":"candy-6","from":"teardown"}]}}', '5d3a73672a3a'),
    (5, 'great-powers', 103, '{"seat":4,"bid":1}', 'ba0fd684134e'),
    (5, 'great-powers', 112, '{"seat":0,"bid":3}', '4321cda31851'),
]


def _views() -> dict[tuple[int, str, int], PlayerView]:
    """Every ninth view of random games, one per player count and variant."""
    out: dict[tuple[int, str, int], PlayerView] = {}
    for players in (2, 3, 4, 5):
        for variant in (Variant.BASE, Variant.GREAT_POWERS):
            seed = players * 10 + (variant is Variant.GREAT_POWERS)
            game = Game([f"p{i}" for i in range(players)], variant, seed=seed)
            rng = random.Random(seed)
            n = 0
            while not game.is_terminal():
                seat = game.to_move
                assert seat is not None
                view = game.view(seat)
                if n % 9 == 4:
                    out[players, variant.value, n] = view
                game.apply(RandomBot().choose(view, rng))
                n += 1
    return out


VIEWS = _views()


def _world_digest(world: Game) -> str:
    """The dealt cards, the bidding still to come, and a random playout to the
    end (which uses the world's own reshuffle generator)."""
    played = world.clone()
    rng = random.Random(1)
    while not played.is_terminal():
        seat = played.to_move
        assert seat is not None
        played.apply(RandomBot().choose(played.view(seat), rng))
    text = repr(([str(c) for c in world.draw],
                 [[str(c) for c in p.board.teardown] for p in world.players],
                 list(world.waiting), world.runout_round,
                 [s.total for s in played.outcome().scores],
                 [str(c) for c in (played.reshuffle or [])]))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def test_the_pinned_views_are_the_ones_listed() -> None:
    assert sorted(VIEWS) == sorted((p, v, n) for p, v, n, _, _ in PINNED)


@pytest.mark.parametrize("players,variant,index,action,digest", PINNED)
def test_strong_bot_plays_as_before(players: int, variant: str, index: int, action: str,
                                    digest: str) -> None:
    view = VIEWS[players, variant, index]
    world = determinize(view, random.Random(index))
    assert _world_digest(world) == digest
    chosen = StrongBot(simulations=8).choose(view, random.Random(index))
    assert json.dumps(chosen.to_json(), separators=(",", ":")) == action
