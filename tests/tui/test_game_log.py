"""The game log: the newest entries that fit, and the mouse wheel back through
older ones without losing the place when new entries arrive."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.events import MouseScrollDown, MouseScrollUp
from textual.pilot import Pilot

from fivetowers.games.five_towers.rules import LogEntry
from fivetowers.games.five_towers.tui.widgets.game_log import GameLog


def entries(n: int) -> tuple[LogEntry, ...]:
    return tuple(LogEntry(1, "bid", 0, f"entry {i}") for i in range(n))


class LogHost(App[None]):
    CSS = "#log { height: 8; border: round white; }"

    def compose(self) -> ComposeResult:
        yield GameLog()


async def wheel(pilot: Pilot[None], up: bool) -> None:
    """One turn of the mouse wheel over the log (Pilot has no wheel of its own)."""
    event = MouseScrollUp if up else MouseScrollDown
    await pilot._post_mouse_events([event], GameLog, offset=(3, 3))


async def test_the_newest_entries_fill_the_log_and_the_wheel_goes_back() -> None:
    app = LogHost()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(GameLog)
        log.show(entries(20))
        await pilot.pause()
        text = str(log.render())
        assert text.splitlines() == [f"entry {i}" for i in range(14, 20)]  # 6 content lines
        assert log.border_subtitle == ""
        for _ in range(3):
            await wheel(pilot, up=True)
        await pilot.pause()
        assert log.back == 3
        assert str(log.render()).splitlines() == [f"entry {i}" for i in range(11, 17)]
        assert log.border_subtitle == "↓ 3 newer (wheel)"
        log.show(entries(22))  # reading back: two new entries do not move the page
        await pilot.pause()
        assert str(log.render()).splitlines() == [f"entry {i}" for i in range(11, 17)]
        assert log.border_subtitle == "↓ 5 newer (wheel)"
        for _ in range(10):
            await wheel(pilot, up=False)
        await pilot.pause()
        assert log.back == 0 and log.border_subtitle == ""
        assert str(log.render()).splitlines()[-1] == "entry 21"


async def test_long_entries_wrap_and_the_bottom_line_is_the_newest() -> None:
    app = LogHost()
    async with app.run_test(size=(24, 12)) as pilot:
        log = app.query_one(GameLog)
        long = LogEntry(1, "reveal", None, "round 1: " + ", ".join(["candy-11"] * 6))
        log.show((long, *entries(2)))
        await pilot.pause()
        shown = str(log.render()).splitlines()
        assert len(shown) == 6 and shown[-2:] == ["entry 0", "entry 1"]
        assert all(len(line) <= log.content_region.width for line in shown)
        log.show(())  # a new game at the same widget
        await pilot.pause()
        assert str(log.render()) == "" and log.shown == 0


async def test_a_reader_wheeled_back_to_the_lines_all_showed_a_move_ago_sees_its_newer_mark() -> None:
    # The log's lines are rendered once for every viewer who shows them
    # (shared_lines): the "↓ N newer" border is part of those lines.
    app = LogHost()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(GameLog)
        log.show(entries(20))  # what every viewer showed a move ago
        await pilot.pause()
        log.show(entries(21))
        await pilot.pause()
        await wheel(pilot, up=True)  # back one: the lines of a move ago
        await pilot.pause()
        assert log.border_subtitle != ""
        drawn = "".join(segment.text for strip in log.render_lines(log.region.reset_offset)
                        for segment in strip)
        assert "1 newer" in drawn



def test_a_new_entry_refreshes_the_log_once() -> None:
    # Its empty "newer" mark is not set again: each set refreshes the log.
    log = GameLog()
    log.show(entries(3))
    refreshes = 0
    upstream = log.refresh

    def counted(*args: object, **kwargs: object) -> GameLog:
        nonlocal refreshes
        refreshes += 1
        return upstream(*args, **kwargs)  # type: ignore[arg-type]

    log.refresh = counted  # type: ignore[method-assign]
    log.show(entries(4))
    assert refreshes == 1 and log.border_subtitle == ""
