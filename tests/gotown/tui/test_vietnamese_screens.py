"""GoTown in Vietnamese: a whole game played by keys alone, and snapshots at
80x24 of its end screen, its help page and its replay viewer (the table's
is in test_vietnamese_table.py); the threats line and the card labels in
the viewer's language."""

from __future__ import annotations

import unicodedata
from contextvars import copy_context

from textual.pilot import Pilot
from textual.widgets import Static

from fivetowers.games.gotown.kind import GAME
from fivetowers.games.gotown.rules import Card, Floor, Game, Piece
from fivetowers.games.gotown.tui.look import label
from fivetowers.games.gotown.tui.screens.end import GoTownEndScreen
from fivetowers.games.gotown.tui.screens.help import HelpScreen
from fivetowers.games.gotown.tui.screens.replay import GoTownReplayScreen
from fivetowers.games.gotown.tui.screens.table import GoTownTableScreen
from fivetowers.games.gotown.tui.threats import threats
from fivetowers.i18n import Speech, speak
from tests.gotown.tui.helpers import finished, local, settle
from tests.gotown.tui.test_pilot_game import play_to_the_end
from tests.gotown.tui.test_replay_screen import ReplayApp, played_with_a_thief
from tests.gotown.tui.test_vietnamese_table import VietnameseGoTownApp
from tests.tui.test_vietnamese import screen_text, viewing

ENGLISH = ("YOUR TURN", "Your hand", "Threats", "Hint", "Log", "Play ", "hand ", "end turn",
           "to win", "Draw ", "Discard", "Winner", "The game is over", "play again",
           "Dog", "Bone", "Jack", "Wreck", "Milk", "Donut", "Thief", "Super", "steal",
           "builds", "step", "back", "help", "quit")
"""Phrases of GoTown's English screens (the player names here have none of them)."""


def english_in(text: str) -> list[str]:
    return [phrase for phrase in ENGLISH if phrase in text]


def shown(pilot: Pilot[None]) -> str:
    """The screen's text as a Vietnamese viewer reads it: NFC, no English."""
    text = viewing("vi", lambda: screen_text(pilot.app))  # type: ignore[arg-type]
    assert unicodedata.is_normalized("NFC", text)
    assert not english_in(text), (english_in(text), text)
    return text


async def test_a_whole_game_in_vietnamese_by_keys_alone() -> None:
    client = local(seed=11, players=2, bots=1, short=True)
    app = VietnameseGoTownApp(client, lambda: local(seed=12, players=2, bots=1, short=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        seen = [shown(pilot)]
        assert "LƯỢT CỦA BẠN" in seen[0] and "Bài của bạn" in seen[0] and "Nhật ký" in seen[0]
        await play_to_the_end(pilot, client, lambda: seen.append(shown(pilot)))
        for words in ("tầng", "thẻ", "lượt"):  # the rulebook's words, all game long
            assert words in "".join(seen)
        await settle(pilot)
        assert isinstance(app.screen, GoTownEndScreen)
        end = shown(pilot)
        assert "Trò chơi đã kết thúc" in end and "chơi lại" in end
        assert "Người thắng:" in end or "Đồng chiến thắng:" in end
        await pilot.press("b")  # back to the table: its last log lines, in Vietnamese
        await settle(pilot)
        assert isinstance(app.screen, GoTownTableScreen)
        assert "thắng" in shown(pilot)


def test_the_vietnamese_end_screen_snapshot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = VietnameseGoTownApp(finished(4))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        assert isinstance(pilot.app.screen, GoTownEndScreen)
        text = shown(pilot)
        assert "Trò chơi đã kết thúc" in text and "với 5 tầng" in text
        assert "xem bàn chơi" in text and "thoát" in text

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_the_vietnamese_help_snapshot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = VietnameseGoTownApp(finished(4))

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("b", "question_mark")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, HelpScreen)
        for words in ("luật chơi tóm tắt", "tầng", "thẻ Chó", "Xương", "Búa máy",
                      "Quả cầu phá hủy", "Sữa lắc", "Xe tải bánh rán", "Tên trộm",
                      "Siêu trộm", "thẻ dấu hỏi", "# Phím"):
            assert words in screen.TEXT
        # The card table names each label as the hand shows it.
        for card in (Card.DOG, Card.JACKHAMMER, Card.WRECKING_BALL, Card.DONUT_TRUCK):
            assert f"| {viewing('vi', lambda c=card: label(c))} |" in screen.TEXT

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def replay_app(seat: int | None) -> tuple[ReplayApp, Game, int]:
    game, at = played_with_a_thief()
    screens = GAME.screens()
    history = screens.replay(game.record_json())

    class VietnameseReplay(ReplayApp):
        def on_load(self) -> None:
            speak(Speech("vi"))

    return VietnameseReplay(
        lambda: screens.replay_screen(history, 7, ["Ann", "Bo"], seat)), game, at


def test_the_vietnamese_replay_snapshot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app, game, at = replay_app(0)

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        for _ in range(at + 1):
            await pilot.press("right")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GoTownReplayScreen)
        text = shown(pilot)
        assert "ván 7 · bước" in text and "Bước" in text and "(bạn)" in text

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_a_replay_that_stops_says_why_in_vietnamese() -> None:
    game, _ = played_with_a_thief()
    record = game.record_json()
    record["actions"] = record["actions"][:3] + record["actions"][:1]  # played twice
    screens = GAME.screens()
    history = screens.replay(record)
    assert history.error is not None and history.refused is not None

    class VietnameseReplay(ReplayApp):
        def on_load(self) -> None:
            speak(Speech("vi"))

    app = VietnameseReplay(lambda: screens.replay_screen(history, 7, ["Ann", "Bo"], None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        step = viewing("vi", lambda: str(app.screen.query_one("#replay-step", Static).render()))
        assert "Bản ghi dừng ở đây: nước đi 3 bị từ chối" in step, step
        assert history.error.message not in step  # the engine's English reason, translated


def vietnamese(read):  # type: ignore[no-untyped-def]
    def run():  # type: ignore[no-untyped-def]
        speak(Speech("vi"))
        return read()
    return copy_context().run(run)


def test_the_threats_line_in_vietnamese() -> None:
    game = Game(["Ann", "Bo"], seed=3)
    assert vietnamese(lambda: threats(game.view(0))).startswith("Mối đe dọa: chưa có")
    game.players[0].floors = [Floor(Piece(2), Piece(7))]
    text = vietnamese(lambda: threats(game.view(0)))
    assert text.startswith("Đe dọa tầng trên cùng [2 7]: ")
    assert "thẻ 2 ăn trộm" in text and "Búa máy" in text and "Trong tay Bo (" in text
    assert not english_in(text)
    game.players[0].dogs.add(0)
    assert "(có Chó)" in vietnamese(lambda: threats(game.view(0)))


def test_card_labels_are_short_in_every_language() -> None:
    actions = [c for c in Card if c.number is None and c is not Card.WILD]
    for language in ("en", "vi"):
        labels = viewing(language, lambda: [label(c) for c in actions])
        assert len(set(labels)) == len(actions) and max(map(len, labels)) <= 5, labels
    assert viewing("vi", lambda: label(Card.WRECKING_BALL)) == "Cầu"
