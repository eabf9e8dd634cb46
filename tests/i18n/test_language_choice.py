"""Which language a player reads: --lang, the locale variables, per session."""

from __future__ import annotations

import asyncio
import contextvars
import os
import pickle
import subprocess
import sys
from typing import Iterator

import pytest

from fivetowers.cli import main
from fivetowers.games.five_towers.rules import Bid, Pass
from fivetowers.games.five_towers.rules.errors import IllegalBid, IllegalBuild, NotYourTurn
from fivetowers.games.gotown.rules.errors import IllegalPlay
from fivetowers.games.protocol import ActionRefused, Term
from fivetowers.i18n import (
    Speech, _, current_language, language_from_env, ngettext, refusal_text,
    set_process_language, speak, translator,
)

from tests.rules.arrange import arranged
from tests.rules.test_game import DISPLAY


@pytest.fixture
def english_afterwards() -> Iterator[None]:
    yield
    set_process_language("en")


@pytest.mark.parametrize(("env", "language"), [
    ({"LANG": "vi_VN.UTF-8"}, "vi"),
    ({"LANG": "vi"}, "vi"),
    ({"LC_MESSAGES": "vi_VN.UTF-8", "LANG": "en_GB.UTF-8"}, "vi"),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "vi_VN.UTF-8"}, "en"),  # LC_ALL first
    ({"LC_ALL": "C", "LANG": "vi_VN.UTF-8"}, "en"),  # the first set decides
    ({"LANG": "de_DE.UTF-8"}, "en"),  # no German catalog: English
    ({}, "en"),
])
def test_the_locale_variables_choose_the_language(env: dict[str, str], language: str) -> None:
    assert language_from_env(env) == language


def test_play_lang_vi_speaks_vietnamese(capsys: pytest.CaptureFixture[str],
                                        english_afterwards: None) -> None:
    assert main(["play", "--lang", "vi", "--players", "9"]) == 2
    assert capsys.readouterr().err == "fivetowers: --players phải từ 2 đến 5, không phải 9\n"
    assert main(["play", "--lang", "en", "--players", "9"]) == 2
    assert capsys.readouterr().err == "fivetowers: --players must be 2 to 5, not 9\n"


def test_play_refuses_a_language_it_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--lang", "de"])
    assert "invalid choice: 'de'" in capsys.readouterr().err


@pytest.mark.parametrize(("env", "expected"), [
    ({"LANG": "vi_VN.UTF-8"}, "fivetowers: --bot-delay phải từ 0 đến 60 giây"),
    ({"LANG": "vi_VN.UTF-8", "LC_ALL": "C"}, "fivetowers: --bot-delay must be 0 to 60 seconds"),
])
def test_the_command_line_reads_the_environment(env: dict[str, str], expected: str) -> None:
    clean = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    done = subprocess.run([sys.executable, "-m", "fivetowers.cli", "play", "--bot-delay", "99"],
                          env={**clean, **env}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == expected


@pytest.mark.parametrize(("args", "expected"), [
    (("hint",), "fivetowers: hint: hãy đưa một POSITION (hoặc RECORD --seat N), "
                "hoặc --batch FILE.jsonl"),
    (("hint", "--batch", "-", "--seat", "1"),
     "fivetowers: hint: --seat dành cho một bản ghi, không dùng với --batch"),
    (("serve", "--port", "70000"), "fivetowers: serve: --port 70000 không phải là một cổng "
                                   "(0-65535)"),
    (("serve", "--processes", "2", "--store", ""),
     "fivetowers: serve: --processes cần kho PostgreSQL (--store postgresql://... hoặc "
     "$FIVETOWERS_STORE): kho SQLite chỉ phục vụ một tiến trình"),
])
def test_hint_and_serve_errors_read_the_environment(args: tuple[str, ...],
                                                    expected: str) -> None:
    clean = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    done = subprocess.run([sys.executable, "-m", "fivetowers.cli", *args],
                          env={**clean, "LANG": "vi_VN.UTF-8"}, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr.strip() == expected


async def test_two_sessions_on_one_loop_read_their_own_language() -> None:
    seen: dict[str, list[str]] = {}

    async def session(name: str, language: str) -> None:
        speak(Speech(language))

        async def widget() -> str:  # a task the session starts inherits its language
            await asyncio.sleep(0)
            return _("sit")

        seen[name] = [_("sit"), await asyncio.create_task(widget()), current_language()]

    await asyncio.gather(session("an", "vi"), session("bob", "en"))
    assert seen == {"an": ["ngồi", "ngồi", "vi"], "bob": ["sit", "sit", "en"]}


async def test_a_switch_reaches_every_task_of_the_session() -> None:
    speech = Speech("en")
    speak(speech)
    later = asyncio.Event()

    async def widget() -> str:
        await later.wait()
        return _("leave")

    task = asyncio.create_task(widget())  # started before the switch
    speech.switch("vi")
    later.set()
    assert await task == "thoát"


def test_plurals_follow_the_language() -> None:
    one = "fivetowers: closed after {minutes} idle minute; connect again any time."
    many = "fivetowers: closed after {minutes} idle minutes; connect again any time."
    assert translator("en").ngettext(one, many, 1) == one
    assert translator("en").ngettext(one, many, 5) == many
    assert translator("vi").ngettext(one, many, 1) == translator("vi").ngettext(one, many, 5)
    assert ngettext(one, many, 2) == many  # tests run in English


def test_a_refusal_reads_in_each_viewers_language() -> None:
    game = arranged(["An", "Bình"], DISPLAY)
    game.apply(Bid(0, 0))
    with pytest.raises(IllegalBid) as refused:
        game.apply(Bid(1, 0))
    exc = refused.value
    assert str(exc) == "a bid must raise the current bid of 0"
    assert refusal_text(exc, translator("en")) == "a bid must raise the current bid of 0"
    assert refusal_text(exc, translator("vi")) == "giá đấu phải cao hơn giá hiện tại là 0"
    with pytest.raises(NotYourTurn) as turn:
        game.apply(Pass(0))
    assert refusal_text(turn.value, translator("vi")) == "đang đến lượt Bình đấu giá"


def test_refusals_name_game_words_in_the_viewers_language() -> None:
    torn = IllegalBuild("you have no {tower} tower to tear down", tower=Term("candy"))
    assert refusal_text(torn, translator("vi")) == "bạn không có Tháp kẹo để phá dỡ"
    held = IllegalPlay("{player} holds no {card}", player="An", card=Term("wrecking-ball"))
    assert str(held) == "An holds no wrecking-ball"
    assert refusal_text(held, translator("vi")) == "An không có thẻ Quả cầu phá hủy"


def test_a_refusal_crosses_a_process_boundary_with_its_template() -> None:
    exc = IllegalBid("a bid must raise the current bid of {bid}", bid=3)
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is IllegalBid and back.details == {"bid": 3}
    assert refusal_text(back, translator("vi")) == "giá đấu phải cao hơn giá hiện tại là 3"


def test_other_errors_are_shown_as_they_are() -> None:
    assert refusal_text(ValueError("plain"), translator("vi")) == "plain"
    assert refusal_text(ActionRefused("no template here {x}"), translator("vi")) == (
        "no template here {x}")  # no details: never formatted


def test_a_local_games_too_small_notice_reads_like_the_servers() -> None:
    from fivetowers.server.driver import too_small_message
    from fivetowers.ui.too_small import too_small_text

    def read() -> tuple[str, str]:
        speak(Speech("vi"))
        return too_small_text(60, 20), too_small_message(60, 20, 80, 24)

    local, served = contextvars.copy_context().run(read)
    assert local.splitlines()[0] == "Terminal của bạn là 60x20."
    assert served.endswith("\r\n".join(local.splitlines()))  # the same four lines
