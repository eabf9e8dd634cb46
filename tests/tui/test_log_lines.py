"""The logs draw each entry's lines once: the same lines as drawing the whole
log's text at once (Textual's own way), and a new entry draws only itself."""

from __future__ import annotations

import random
from collections import OrderedDict
from weakref import WeakSet

import pytest
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.visual import Visual, visualize

import fivetowers.ui.log_lines as log_lines
import fivetowers.ui.shared_lines as shared_lines
from fivetowers.games.five_towers.rules import LogEntry
from fivetowers.games.five_towers.tui.widgets.game_log import GameLog
from fivetowers.games.gotown.tui.widgets.game_log import GameLog as GoTownLog
from fivetowers.ui.entry_log import EntryLog

KINDS = ["reveal", "bid", "pass", "auto-pass", "build", "no-build", "reshuffle", "end", "chat"]
WORDS = ["Ann", "bid", "3", "passed", "candy-11,", "cake-3", "tore", "down", "pie-7",
         "round", "2:", "ice-12", "«quoted»", "naïve", "café", "大"]


class LogHost(App[None]):
    CSS = "#log { height: 9; border: round white; padding: 0 1; }"

    def __init__(self, log: EntryLog) -> None:  # type: ignore[type-arg]
        super().__init__()
        self.log_widget = log

    def compose(self) -> ComposeResult:
        yield self.log_widget


def whole_text_lines(log: EntryLog) -> list[Strip]:  # type: ignore[type-arg]
    """The content lines Textual draws from the log's whole text (render())."""
    width, height = log.size
    strips = Visual.to_strips(log, visualize(log, log.render()), width, height, log.visual_style)
    blank = Strip.blank(width, log.visual_style.rich_style)
    return strips + [blank] * (height - len(strips))


def shown(log: EntryLog) -> list[Strip]:  # type: ignore[type-arg]
    log.render_lines(log.region.reset_offset)  # draws the content for this render
    return [log.render_line(y) for y in range(log.size.height)]


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 14)))


async def test_the_lines_are_those_of_the_whole_text_for_any_entries_and_width() -> None:
    rng = random.Random(11)
    app = LogHost(GameLog())
    async with app.run_test(size=(44, 12)) as pilot:
        log = app.query_one(GameLog)
        for width in (44, 31, 22):
            await pilot.resize_terminal(width, 12)
            await pilot.pause()
            entries: tuple[LogEntry, ...] = ()
            for _ in range(25):
                entries += tuple(LogEntry(1, rng.choice(KINDS), 0, sentence(rng))
                                 for _ in range(rng.randint(0, 2)))
                log.show(entries)
                await pilot.pause()
                assert shown(log) == whole_text_lines(log)
                assert [strip.text for strip in shown(log)] == [
                    strip.text for strip in whole_text_lines(log)]


async def test_gotown_lines_are_those_of_the_whole_text() -> None:
    rng = random.Random(5)
    app = LogHost(GoTownLog())
    async with app.run_test(size=(36, 12)) as pilot:
        log = app.query_one(GoTownLog)
        lines: tuple[tuple[str, str], ...] = ()
        for _ in range(20):
            lines += ((rng.choice(["play", "attack", "tempo", "turn", "end", "chat"]),
                       sentence(rng)),)
            log.show(lines)
            await pilot.pause()
            assert shown(log) == whole_text_lines(log)


async def test_a_new_entry_draws_only_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(log_lines, "_entries", OrderedDict())
    monkeypatch.setattr(shared_lines, "_lines", OrderedDict())  # no whole log drawn before
    drawn: list[str] = []
    looked = GameLog.look

    def counted(self: GameLog, entry: LogEntry) -> object:
        drawn.append(entry.text)
        return looked(self, entry)

    monkeypatch.setattr(GameLog, "look", counted)
    app = LogHost(GameLog())
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(GameLog)
        entries = tuple(LogEntry(1, "bid", 0, f"entry {i}") for i in range(10))
        log.show(entries)
        await pilot.pause()
        assert sorted(drawn) == sorted(f"entry {i}" for i in range(3, 10))  # 7 lines show
        drawn.clear()
        log.show(entries + (LogEntry(1, "build", 0, "entry 10"),))
        await pilot.pause()
        assert drawn == ["entry 10"]
        assert shown(log)[-1].text.strip() == "entry 10"


async def test_the_kept_entries_are_bounded_and_what_is_dropped_is_released(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(log_lines, "_entries", OrderedDict())
    monkeypatch.setattr(shared_lines, "_lines", OrderedDict())
    monkeypatch.setattr(log_lines, "KEPT", 12)
    monkeypatch.setattr(log_lines, "PER_APP", 4)  # one App: the least bound rules
    monkeypatch.setattr(log_lines, "_apps", WeakSet())  # (other tests' Apps count none)
    app = LogHost(GameLog())
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(GameLog)
        entries: tuple[LogEntry, ...] = ()
        for i in range(40):
            entries += (LogEntry(1, "bid", 0, f"entry {i}"),)
            log.show(entries)
            await pilot.pause()
            assert len(log_lines._entries) <= 12
        assert shown(log)[-1].text.strip() == "entry 39"
