"""5 Towers' screens in Vietnamese: snapshots at 80x24 (bidding, building,
help, the end), a whole game played at the keyboard, and two viewers at one
hosted table each reading the log and the hints in their own language."""

from __future__ import annotations

import random
import unicodedata
from contextvars import copy_context
from typing import Callable, TypeVar

from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Markdown

from fivetowers.games.five_towers.client import LocalClient, new_local_game
from fivetowers.games.five_towers.rules import Card, Variant
from fivetowers.games.five_towers.solver import exhaustive_hint
from fivetowers.games.five_towers.tui.app import FiveTowersApp
from fivetowers.games.five_towers.tui.screens.end import EndScreen
from fivetowers.games.five_towers.tui.screens.help import HelpScreen
from fivetowers.games.five_towers.tui.screens.table import TableScreen
from fivetowers.games.five_towers.tui.widgets.phase_panel import PhasePanel
from fivetowers.games.five_towers.tui.widgets.game_log import GameLog
from fivetowers.games.five_towers.tui.widgets.hint_panel import HintPanel
from fivetowers.games.five_towers.tui.widgets.status_bar import StatusBar
from fivetowers.i18n import Speech, speak
from fivetowers.lobby.app import LobbyApp
from fivetowers.lobby.model import Lobby
from fivetowers.server.session import Visitor
from fivetowers.ui.key_bar import KeyBar
from tests.tui.helpers import finished_client, passive_client, settle
from tests.tui.test_pilot_games import play_to_the_end
from tests.tui.test_snapshots import refusable_pair, seed_with_refusal


class VietnameseApp(FiveTowersApp):
    """``fivetowers play`` as a Vietnamese reader sees it: the App speaks
    Vietnamese in its own task and every task it starts (as a session does)."""

    def on_load(self) -> None:
        speak(Speech("vi"))


T = TypeVar("T")


def viewing(language: str, read: Callable[[], T]) -> T:
    """``read()`` as a viewer of ``language`` runs it (a screen's language is
    its App's tasks', not this test's)."""
    def run() -> T:
        speak(Speech(language))
        return read()
    return copy_context().run(run)


def vietnamese(client: LocalClient) -> VietnameseApp:
    return VietnameseApp(client, None, True)


def screen_text(app: FiveTowersApp | LobbyApp) -> str:
    """Every line the screen shows now, as text."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


async def fits(pilot: Pilot[None]) -> str:
    """The screen's text, checked: NFC, and the game's keys on the key line
    whole within 80 columns."""
    text = viewing("vi", lambda: screen_text(pilot.app))  # type: ignore[arg-type]
    assert unicodedata.is_normalized("NFC", text)
    keys = pilot.app.screen.query(KeyBar)
    if keys:  # The game's own keys whole; the table's own (?, q, c, v, b) come
        # after them and, while building, are past 80 columns in English too.
        bar = keys.first()
        assert all(end <= 80 for _, end, key, _ in bar.spots
                   if key not in ("question_mark", "q", "c", "v", "b")), bar.line.plain
    return text


def test_bidding_in_vietnamese(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = vietnamese(passive_client(Variant.BASE, seed=4))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        text = await fits(pilot)
        assert "ĐẾN LƯỢT BẠN đấu giá" in text and "Bạn có thể đấu giá" in text
        assert "Giá đấu an toàn cao nhất:" in text  # the hints, in words of the rulebook

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_building_in_vietnamese(snap_compare) -> None:  # type: ignore[no-untyped-def]
    variant = Variant.GREAT_POWERS
    client = passive_client(variant, seed_with_refusal(variant))
    low, high = refusable_pair(list(client.view().display)) or (None, None)
    app = vietnamese(client)

    async def option(pilot: Pilot[None], card: Card | None) -> str:
        panel = pilot.app.screen.query_one(PhasePanel)
        return str(next(i + 1 for i, o in enumerate(panel.options) if o.step.card == card))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        count = len(client.view().display)
        await pilot.press(str(count))
        await settle(pilot)
        await pilot.press(*[str(i + 1) for i in range(count)], "enter")
        await pilot.press(await option(pilot, low))
        await pilot.press(await option(pilot, high))  # refused: the rules' reason, translated
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, TableScreen) and screen.guide is not None
        assert screen.guide.notice.startswith("bị từ chối: ")
        assert "refused" not in screen.guide.notice and "candy-" not in screen.guide.notice
        text = await fits(pilot)
        assert "Đặt một lá" in text and "u hủy" in text

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_help_in_vietnamese(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = vietnamese(passive_client(Variant.BASE, seed=4))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, HelpScreen)
        page = screen.TEXT
        for words in ("luật chơi tóm tắt", "Tháp kẹo", "phá dỡ", "đỉnh tháp", "# Phím",
                      "| `q` | thoát |", "`q` để thoát"):
            assert words in page
        assert screen.query_one(Markdown)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_end_in_vietnamese(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = vietnamese(finished_client(Variant.BASE, seed=9))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        assert isinstance(pilot.app.screen, EndScreen)
        text = await fits(pilot)
        assert "Trò chơi đã kết thúc" in text and "chơi lại" in text

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_a_whole_game_in_vietnamese() -> None:
    client = new_local_game(3, 2, Variant.GREAT_POWERS, seed=121, bot_kind="random",
                            bot_delay=0, hinter=exhaustive_hint, advice=False)
    app = vietnamese(client)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Vòng 1 · chồng rút" in str(app.screen.query_one(StatusBar).render())
        # Every turn: the top line says whose, in Vietnamese (a build by hand).
        await play_to_the_end(pilot, manual=True, turn_words="đến lượt bạn")
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        text = await fits(pilot)
        assert "Trò chơi đã kết thúc" in text
        await pilot.press("b")  # back to the table: its last log lines, in Vietnamese
        await settle(pilot)
        log = viewing("vi", lambda: _lines(app.screen.query_one(GameLog)))
        assert "trò chơi kết thúc; người" in log
        assert "the game is over" not in log


def _visitor(name: str, language: str, join_code: str) -> Visitor:
    return Visitor(identity=f"SHA256:{name}", name=name, address="127.0.0.1",
                   join_code=join_code, term="xterm-256color", colorterm="truecolor",
                   speech=Speech(language))


def _lines(widget: GameLog | HintPanel) -> str:
    region = Region(0, 0, widget.size.width, widget.size.height)
    return "\n".join(strip.text for strip in widget.render_lines(region))


async def test_two_viewers_at_one_table_each_read_their_own_language() -> None:
    """an (vi) and bo (en) play, cy (vi) and di (en) watch, all at 80x24 on one
    event loop: each reads the log and the hints in their own language, though
    the watchers' screens are alike enough to share renders."""
    lobby = Lobby(bot_kind="random", bot_delay=60.0, absence_bot_after=60.0, hints=True,
                  rng=random.Random(1))
    hosted = lobby.create("SHA256:an", "an", title="t", players=2, bots=0, private=False)
    lobby.sit(hosted, "SHA256:bo", "bo")  # the table starts: two seats, no bots
    for identity in ("SHA256:an", "SHA256:bo"):
        lobby.away(hosted, identity)  # until their sessions come back to their seats
    apps = {name: LobbyApp(lobby, _visitor(name, language, hosted.code))
            for name, language in (("an", "vi"), ("bo", "en"), ("cy", "vi"), ("di", "en"))}
    language = {"an": "vi", "bo": "en", "cy": "vi", "di": "en"}
    try:
        async with apps["an"].run_test(size=(80, 24)) as an, \
                apps["bo"].run_test(size=(80, 24)) as bo, \
                apps["cy"].run_test(size=(80, 24)) as cy, \
                apps["di"].run_test(size=(80, 24)) as di:
            pilots = (an, bo, cy, di)
            for _ in range(40):
                for pilot in pilots:
                    await pilot.pause()
                    await pilot.app.workers.wait_for_complete()
                screens = [app.screen for app in apps.values()]
                if all(isinstance(s, TableScreen) for s in screens) and all(
                        s.hint_version == s.client.version for s in screens[:2]):
                    break
            for _ in range(3):
                for pilot in pilots:
                    await pilot.pause()
            screens = {name: app.screen for name, app in apps.items()}
            assert all(isinstance(s, TableScreen) for s in screens.values())
            assert [screens[n].client.seat for n in ("cy", "di")] == [None, None]

            def read(name: str, widget: type[GameLog] | type[HintPanel]) -> str:
                return viewing(language[name], lambda: _lines(screens[name].query_one(widget)))

            # The same log entries at the same size: rendered once per language.
            for name in apps:
                log = read(name, GameLog)
                said, other = ("vòng 1:", "round 1:") if language[name] == "vi" else (
                    "round 1:", "vòng 1:")
                assert said in log and other not in log, (name, log)
            an_hint, bo_hint = read("an", HintPanel), read("bo", HintPanel)
            assert "Giá đấu an toàn cao nhất:" in an_hint and "không lấy gì" in an_hint
            assert "Your highest safe bid:" in bo_hint and "take nothing" in bo_hint
            assert "Nhật ký" in viewing("vi", lambda: screen_text(apps["cy"]))
            assert "Log" in viewing("en", lambda: screen_text(apps["di"]))
    finally:
        await lobby.close()
