"""Whole games at the keyboard: against bots to the end screen and play
again, and two humans sharing one terminal (hot-seat)."""

from __future__ import annotations

from textual.pilot import Pilot

from fivetowers.games.five_towers.rules import Phase, Variant
from fivetowers.games.five_towers.rules.search import feasible
from fivetowers.games.five_towers.client import LocalClient, new_local_game
from fivetowers.games.five_towers.solver import exhaustive_hint
from fivetowers.games.five_towers.tui.app import FiveTowersApp, create_app
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.phase_panel import PhasePanel
from fivetowers.games.five_towers.tui.widgets.status_bar import StatusBar
from fivetowers.games.five_towers.tui.widgets.tower_board import TowerBoard
from tests.tui.helpers import settle

MAX_TURNS = 400  # a game has about 25 rounds; this only stops a broken loop


def current(app: FiveTowersApp) -> LocalClient:
    client = app.client
    assert isinstance(client, LocalClient)
    return client


async def bid_by_keyboard(pilot: Pilot[None], client: LocalClient) -> None:
    """The lowest raise that builds something, else pass (or 0 when starting)."""
    view = client.view()
    raises = [b for b in view.legal_bids if 1 <= b <= 9]
    if raises:
        await pilot.press(str(raises[0]))
    elif view.may_pass:
        await pilot.press("p")
    else:
        await pilot.press("0")


async def build_by_keyboard(pilot: Pilot[None], client: LocalClient) -> None:
    """Pick display cards one by one (digits), tear down nothing, place with
    the first ✓ option each time, and confirm; like a player reading the screen."""
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen) and screen.guide is not None
    view = client.view()
    session = screen.guide.session
    bid = view.high_bid or 0
    towers, pile = session.start.towers_key(), session.start.pile_key()
    from itertools import combinations
    take = next((c for c in combinations(range(len(view.display)), bid)
                 if feasible(towers, pile,
                             tuple((view.display[i].type.index, view.display[i].value)
                                   for i in c), view.variant.powers)), None)
    if take is None:  # only a teardown makes it buildable: the hint's plan it is
        await pilot.press("a", "enter")
        return
    await pilot.press(*[str(i + 1) for i in take], "enter")
    panel = screen.query_one(PhasePanel)
    while not session.done:
        pick = next(i for i, o in enumerate(panel.options) if o.completable)
        await pilot.press(str(pick + 1))
    await pilot.press("enter")


async def play_to_the_end(pilot: Pilot[None], manual: bool, turn_words: str = "turn to") -> None:
    app = pilot.app
    assert isinstance(app, FiveTowersApp)
    for _ in range(MAX_TURNS):
        await settle(pilot)
        client = current(app)
        view = client.view()
        if view.phase is Phase.OVER:
            return
        assert view.to_move in client.human_seats, "a bot did not move"
        assert client.seat == view.to_move
        status = str(app.screen.query_one(StatusBar).render())
        assert turn_words in status.lower()  # whose turn it is, on the top line
        if view.phase is Phase.BID:
            await bid_by_keyboard(pilot, client)
        elif manual:
            await build_by_keyboard(pilot, client)
        else:
            await pilot.press("a", "enter")  # the hint's plan, then build
        assert current(app).version > client.version or current(app).view() != view
    raise AssertionError("the game did not end")


async def test_a_whole_game_against_bots_then_play_again() -> None:
    seeds = iter(range(100, 200))

    def new_game() -> LocalClient:
        return new_local_game(3, 2, Variant.BASE, seed=next(seeds), bot_kind="random",
                              bot_delay=0, hinter=exhaustive_hint, advice=False)

    app = create_app(new_game(), new_game)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_end(pilot, manual=False)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        first = app.client
        assert first.table.over and first.table.bot_error is None
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen) and app.client is not first
        assert app.client.view().round == 1 and len(app.screen_stack) == 2
        await pilot.press("q")


async def test_a_hot_seat_game_of_two_humans_with_hand_picked_builds() -> None:
    client = new_local_game(2, 0, Variant.GREAT_POWERS, seed=21, bot_delay=0,
                            names=["Ann", "[b]Bo"], hinter=exhaustive_hint, advice=False)
    app = create_app(client)
    async with app.run_test(size=(80, 24)) as pilot:
        seen: set[int] = set()
        for _ in range(6):  # both players get their turn at the one screen
            await settle(pilot)
            seat = client.seat
            assert seat is not None
            seen.add(seat)
            name = client.seats()[seat].name
            assert f"{name}: your turn" in str(app.screen.query_one(StatusBar).render())
            view = client.view()
            if view.phase is Phase.BID:
                await bid_by_keyboard(pilot, client)
            else:
                await build_by_keyboard(pilot, client)
        assert seen == {0, 1}
        titles = [str(b.border_title) for b in app.screen.query(TowerBoard)]
        # one name cleaner everywhere: markup brackets go, so "[b]Bo" is the
        # plain name "bBo" (never a bold "Bo")
        assert "bBo" in titles and not any("[b]" in t for t in titles), titles
        assert any(a.to_json().get("build") for a in client.table.game.actions)
        await play_to_the_end(pilot, manual=False)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        assert client.table.over and len(client.table.game.actions) > 20


async def test_great_powers_bids_past_nine_take_two_digits() -> None:
    from fivetowers.games.five_towers.rules import TowerType
    from tests.tui.helpers import app_for, passive_client

    client = passive_client(Variant.GREAT_POWERS, seed=4)
    game = client.table.game
    # A tall tree tower lets seat 1 pay its way past the display (RULES.md B Tree).
    game.players[1].board.towers[TowerType.TREE] = [15, 14, 13, 12, 11, 10, 9]
    game._max_bids.clear()
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert client.view().to_move == 1 and max(client.view().legal_bids) >= 10
        await pilot.press("1")
        await settle(pilot)
        assert game.high_bid == 0  # waiting for a second digit
        await pilot.press("0")
        await settle(pilot)
        assert (game.high_seat, game.high_bid) == (1, 10)


async def test_a_spectator_watches_bots_play_to_the_end() -> None:
    from fivetowers.games.five_towers.client import TableClient
    from fivetowers.games.five_towers.bots.random_bot import RandomBot

    bots = new_local_game(3, 3, Variant.BASE, seed=8, bot_delay=0, advice=False,
                          bots_by_seat={i: RandomBot() for i in range(3)})
    watcher = TableClient(bots.table, None, exhaustive_hint)
    app = create_app(watcher)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert bots.table.over and isinstance(app.screen, EndScreen)
        await pilot.press("b")  # back to the final table
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert "game over" in str(app.screen.query_one(StatusBar).render())
        await pilot.press("1", "p", "a", "u", "enter")  # keys of players do nothing here
        assert bots.table.version == len(bots.table.game.actions)
        await pilot.press("e")  # the results again
        assert isinstance(app.screen, EndScreen)


async def test_the_mouse_picks_display_cards_and_cards_to_place() -> None:
    from textual.widgets import OptionList

    from fivetowers.games.five_towers.tui.widgets.display_row import NARROW, DisplayRow
    from tests.tui.helpers import app_for, passive_client

    client = passive_client(Variant.BASE, seed=4)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2")  # the other bot passes: seat 1 builds 2
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.guide is not None
        row = screen.query_one(DisplayRow)
        assert row.card_width() == NARROW

        def card(slot: int) -> tuple[int, int]:
            return slot * NARROW + 4, 2  # the middle of the card

        await pilot.click(row, offset=card(0))
        await pilot.click(row, offset=card(4))
        await pilot.click(row, offset=card(4))  # a second click puts it back
        await pilot.click(row, offset=card(3))
        await settle(pilot)
        assert screen.guide.picked == {0, 3}
        assert row.picked == {0, 3}
        await pilot.press("enter")
        await settle(pilot)
        assert screen.guide.chosen
        steps = screen.query_one("#steps", OptionList)
        before = len(screen.guide.session.hand)
        await pilot.click(steps, offset=(2, 0))  # the first card in the list
        await settle(pilot)
        first = screen.guide.session.steps[0]
        assert len(screen.guide.session.hand) == before - 1  # sand-12 starts the sand tower
        assert screen.guide.notice == f"placed {first}"


async def test_a_failing_bot_is_shown_not_hidden() -> None:
    from fivetowers.games.five_towers.rules import Game
    from fivetowers.tables.seats import Seat
    from fivetowers.tables.table import Table

    class Broken:
        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            raise RuntimeError("out of ideas")

    game = Game(["Bot", "You"], Variant.BASE, seed=1)
    table = Table(game, [Seat("Bot", bot="x"), Seat("You")], bot_delay=0, bots={0: Broken()})
    app = create_app(LocalClient(table, [1], exhaustive_hint))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        status = str(app.screen.query_one(StatusBar).render())
        assert "a bot failed: RuntimeError: out of ideas" in status


async def test_a_refused_bid_says_why_in_the_bidding_panel() -> None:
    from fivetowers.games.five_towers.tui.widgets.phase_panel import PhasePanel
    from tests.tui.helpers import app_for, passive_client

    client = passive_client(Variant.BASE, seed=4)
    app = app_for(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("7")  # more than the display's five cards
        await settle(pilot)
        text = str(app.screen.query_one(PhasePanel).shown)
        assert "✗ bid not buildable" in text and "cannot bid 7" in text
        assert client.table.game.high_bid == 0  # still the bot's opening 0
        await pilot.press("0")  # not a raise
        await settle(pilot)
        assert "must raise" in str(app.screen.query_one(PhasePanel).shown)


async def test_a_store_that_cannot_save_is_shown_whole_at_80_columns() -> None:
    """A full disk: the top line says so in full at 80 columns (it was a bot
    failure's traceback-like text, cut), and clears once moves are kept again."""
    from fivetowers.games.five_towers.rules import Game
    from fivetowers.tables.seats import Seat
    from fivetowers.tables.table import Table

    full = [True]

    async def store(game: Game) -> None:
        if full[0]:
            raise OSError("database or disk is full")

    game = Game(["Bot", "You"], Variant.BASE, seed=1)
    table = Table(game, [Seat("Bot", bot="random"), Seat("You")], bot_delay=0,
                  on_action=store)
    table.save_retry_first = table.save_retry_max = 0.05
    app = create_app(LocalClient(table, [1], exhaustive_hint))
    async with app.run_test(size=(80, 24)) as pilot:
        while not table.cannot_save:  # the bot's move is refused (settle would wait on)
            await pilot.pause(0.01)
        await pilot.pause()
        status = str(app.screen.query_one(StatusBar).render())
        assert "the server cannot save moves right now; retrying…" in status, status
        assert "bot failed" not in status and table.bot_error is None
        full[0] = False
        await table.wait_idle()
        await settle(pilot)
        status = str(app.screen.query_one(StatusBar).render())
        assert "cannot save" not in status and len(table.game.actions) == 1


async def test_a_build_placed_with_the_arrow_keys() -> None:
    # ↑/↓ move through the placing options and enter places the highlighted one.
    from itertools import combinations

    from textual.widgets import OptionList

    client = new_local_game(2, 1, Variant.BASE, seed=7, bot_kind="random", bot_delay=0,
                            hinter=exhaustive_hint, advice=False)
    app = create_app(client)
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(MAX_TURNS):
            await settle(pilot)
            view = client.view()
            assert view.phase is not Phase.OVER, "the human never built"
            if view.phase is Phase.BID:
                await bid_by_keyboard(pilot, client)
                continue
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.guide is not None
            session = screen.guide.session
            towers, pile = session.start.towers_key(), session.start.pile_key()
            take = next((c for c in combinations(range(len(view.display)), view.high_bid or 0)
                         if feasible(towers, pile,
                                     tuple((view.display[i].type.index, view.display[i].value)
                                           for i in c), False)), None)
            if take is None or len(take) < 2:
                await pilot.press("a", "enter")  # not this round: the hint's plan
                continue
            await pilot.press(*[str(i + 1) for i in take], "enter")
            panel = screen.query_one(PhasePanel)
            steps = screen.query_one("#steps", OptionList)
            placed = moved = 0
            while not session.done:
                await settle(pilot)
                # The last option that still lets the build finish: arrows to reach it.
                want = max(i for i, o in enumerate(panel.options) if o.completable)
                at = steps.highlighted or 0
                moved += want != at
                await pilot.press(*(["down"] * (want - at) if want >= at else ["up"] * (at - want)))
                assert steps.highlighted == want
                before = len(session.hand)
                await pilot.press("enter")
                assert len(session.hand) == before - 1
                placed += 1
            actions = len(client.table.game.actions)
            await pilot.press("enter")
            await settle(pilot)
            assert len(client.table.game.actions) > actions and placed == len(take)
            assert moved
            return
    raise AssertionError("the game did not reach a human build")
