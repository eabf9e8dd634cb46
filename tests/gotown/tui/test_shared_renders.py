"""GoTown's log, piles, top line and threat line: every screen at a table
that shows the same lines shares one render of them (ui/shared_lines.py),
as the 5 Towers table's do; a viewer whose lines differ renders its own."""

from __future__ import annotations

from collections import Counter, OrderedDict

from rich.text import Text
from textual.app import App, ComposeResult
from textual.events import MouseScrollUp
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

import fivetowers.ui.shared_lines as shared
from fivetowers.games.gotown.rules import Game
from fivetowers.games.gotown.tui.widgets.game_log import GameLog
from fivetowers.games.gotown.tui.widgets.piles import PilesLine
from fivetowers.games.gotown.tui.widgets.status_bar import StatusBar
from fivetowers.games.gotown.tui.widgets.threat_line import ThreatLine

LOG = (("play", "Ann builds a floor"), ("turn", "Bob's turn"))


class Viewer(App[None]):
    """One viewer's screen with the widgets every viewer at a table shows."""

    CSS = "GameLog { height: 6; border: round white; }"

    def __init__(self, log: tuple[tuple[str, str], ...], back: int = 0) -> None:
        super().__init__()
        self.lines, self.back = log, back

    def compose(self) -> ComposeResult:
        yield StatusBar()
        yield PilesLine()
        yield ThreatLine()
        yield GameLog()

    def on_mount(self) -> None:
        view = Game(["Ann", "Bob"], seed=1).view(0)
        self.query_one(StatusBar).show(view, Text("Ann is playing…"))
        self.query_one(PilesLine).show(view)
        self.query_one(ThreatLine).show("Bob: could take your top floor")
        log = self.query_one(GameLog)
        log.show(self.lines)
        for _ in range(self.back):  # the mouse wheel, back through older lines
            log.on_mouse_scroll_up(MouseScrollUp(log, 0, 0, 0, -1, 0, False, False, False))


async def draw(app: Viewer) -> None:
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()


async def test_screens_showing_the_same_lines_render_them_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(shared, "_lines", OrderedDict())
    renders: Counter[str] = Counter()
    upstream = Widget.render_lines

    def counted(self: Widget, crop: Region) -> list[Strip]:
        renders[type(self).__name__] += 1
        return upstream(self, crop)

    monkeypatch.setattr(Widget, "render_lines", counted)
    await draw(Viewer(LOG))
    names = ("GameLog", "PilesLine", "StatusBar", "ThreatLine")
    first = Counter({name: renders[name] for name in names})
    assert all(first[name] >= 1 for name in names)
    await draw(Viewer(LOG))  # a second viewer at the table: nothing of these again
    assert all(renders[name] == first[name] for name in names)
    # A viewer reading a line the others may not (a thief's catch) renders
    # its own log; one that wheeled back (its "↓ newer" mark) too.
    await draw(Viewer(LOG + (("attack", "You took Ann's top floor"),)))
    assert renders["GameLog"] == first["GameLog"] + 1
    await draw(Viewer(LOG + (("turn", "Ann's turn"),), back=1))
    assert renders["GameLog"] == first["GameLog"] + 2
    assert renders["PilesLine"] == first["PilesLine"]
