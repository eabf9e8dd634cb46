"""The bidding panel's lines read as sentences: "You bid 1", "Hedda bids 0"."""

from __future__ import annotations

from textual.app import App, ComposeResult

from fivetowers.games.five_towers.rules import Bid, Game, Pass, Variant
from fivetowers.games.five_towers.tui.widgets.bid_panel import BidPanel


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield BidPanel()


async def test_bids_read_as_sentences_with_single_spaces() -> None:
    names = ["Hedda", "You", "Peter"]
    game = Game(names, Variant.BASE, seed=3)
    game.apply(Bid(0, 0))
    raise_to = min(b for b in game.legal_bids() if b > 0)
    game.apply(Bid(1, raise_to))
    view = game.view(1)
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(BidPanel)
        panel.show(view, names, 1, "")
        await pilot.pause()
        lines = [line.rstrip() for line in (panel.shown.plain if panel.shown else "").split("\n")]
        assert "Hedda bids 0" in lines and f"You bid {raise_to}" in lines
        assert "Peter to bid…" in lines
        assert not any("  " in line for line in lines[1:])
        # Another viewer reads ann's (here: "You"'s) bid by her name.
        names[1] = "ann"
        panel.show(game.view(2), names, 2, "")
        await pilot.pause()
        assert panel.shown is not None and f"ann bids {raise_to}" in panel.shown.plain

async def test_a_pass_by_the_viewer_is_you_pass() -> None:
    names = ["Hedda", "ann", "Peter"]
    game = Game(names, Variant.BASE, seed=3)
    game.apply(Bid(0, 0))
    game.apply(Pass(1))
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(BidPanel)
        panel.show(game.view(1), names, 1, "")
        await pilot.pause()
        assert panel.shown is not None and "\nYou pass\n" in panel.shown.plain
