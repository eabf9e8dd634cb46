"""ui.steady_text: new text lays the screen out only when its height changes;
GoTown's lines that change on every move then repaint, no more."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from fivetowers.ui.steady_text import update_steady


class Watched(Static):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.layouts = 0

    def refresh(self, *regions: object, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Watched:
        self.layouts += layout
        super().refresh(*regions, repaint=repaint, layout=layout,  # type: ignore[arg-type]
                        recompose=recompose)
        return self


class Lines(App[None]):
    CSS = "#piles { height: 1; } #panel { height: auto; }"

    def compose(self) -> ComposeResult:
        yield Watched("Draw 40  Discard 0", id="piles")
        yield Watched("thinking…", id="panel")


async def test_a_layout_only_when_the_height_changes() -> None:
    app = Lines()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        piles, panel = app.query_one("#piles", Watched), app.query_one("#panel", Watched)
        update_steady(piles, Text("Draw 40  Discard 0"))  # measured once: a layout
        update_steady(panel, Text("thinking…"))
        await pilot.pause()
        piles.layouts = panel.layouts = 0
        for count in range(39, 30, -1):  # a move: the counts change, one line still
            update_steady(piles, Text(f"Draw {count}  Discard {40 - count}"))
            await pilot.pause()
        assert piles.layouts == 0
        assert "Draw 31" in str(piles.render())
        update_steady(panel, Text("Best: 3 floors\nPlan: build\nStrong bot: steal"))
        await pilot.pause()
        assert panel.layouts >= 1 and panel.size.height == 3  # taller: laid out
        panel.layouts = 0
        update_steady(panel, Text("Best: 2 floors\nPlan: steal\nStrong bot: build"))
        await pilot.pause()
        assert panel.layouts == 0  # the same height: a repaint
        assert "Best: 2" in str(panel.render())


class Roomy(App[None]):
    CSS = ("#hints { height: auto; min-height: 5; max-height: 7; border: round white; }"
           " #threats { height: auto; min-height: 3; max-height: 3; padding: 0 1; }")

    def compose(self) -> ComposeResult:
        yield Watched("On your turn: the best plan.", id="hints")
        yield Watched("", id="threats")


async def test_text_within_the_room_kept_lays_nothing_out() -> None:
    """A widget that keeps room for its longest text (min-height, max-height;
    GoTown's hints and threats): a text of one line, then of three, then
    one again (a turn's start and end, a hint's arrival) is a repaint."""
    app = Roomy()
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        hints, threats = app.query_one("#hints", Watched), app.query_one("#threats", Watched)
        update_steady(hints, Text("On your turn: the best plan."))
        update_steady(threats, Text("Threats: none yet."))
        await pilot.pause()
        hints.layouts = threats.layouts = 0
        where = hints.region, threats.region
        for text in ("thinking…", "Best: 3 floors\nPlan: build\nStrong bot: steal",
                     "On your turn: the best plan.", "Best: 1 floor\nStrong bot: end"):
            update_steady(hints, Text(text))
            # Threats: one line, three, five (past its max-height: cut).
            update_steady(threats, Text("\n".join(text.split("\n") * 2 if "\n" in text
                                                   else [text])))
            await pilot.pause()
        assert hints.layouts == threats.layouts == 0
        assert (hints.region, threats.region) == where
        assert "Strong bot: end" in str(hints.render())
