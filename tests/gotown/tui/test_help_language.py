"""GoTown's `?` page: one source per language, the local or hosted keys put in."""

from __future__ import annotations

import contextvars

import pytest

from fivetowers.games.gotown.tui.screens.help import help_text
from fivetowers.i18n import Speech, speak


@pytest.mark.parametrize(("language", "end_turn", "local_q", "hosted_q"), [
    ("en", "| `e` | end your turn |", "| `q` | quit |", "back to the lobby"),
    ("vi", "| `e` | kết thúc lượt |", "| `q` | thoát |", "về sảnh"),
])
def test_the_help_page_reads_in_the_viewers_language_with_its_keys(
        language: str, end_turn: str, local_q: str, hosted_q: str) -> None:
    def read() -> tuple[str, str]:
        speak(Speech(language))  # in a copy of the context: later tests keep theirs
        return help_text(hosted=False), help_text(hosted=True)

    local, hosted = contextvars.copy_context().run(read)
    assert end_turn in local and end_turn in hosted
    assert local_q in local and hosted_q not in local
    assert hosted_q in hosted and "| `c` |" in hosted
    assert "{" not in local + hosted  # every field filled in
    if language == "vi":
        assert "Quả cầu phá hủy" in local and "end your turn" not in local
