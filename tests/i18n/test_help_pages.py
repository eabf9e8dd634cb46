"""The `?` help pages: the rules in short for each game, in each language."""

from __future__ import annotations

import unicodedata

import pytest

from fivetowers.i18n import LANGUAGES, Speech, speak
from fivetowers.i18n.help import NoHelp, help_text

RULEBOOK_TERMS = {
    "fivetowers": ("Tháp kẹo", "Tháp đáng sợ", "Tháp cây", "Tháp phế liệu", "Tháp cát",
                   "đấu giá", "phá dỡ", "đỉnh tháp"),
    "gotown": ("tầng", "Chó", "Xương", "Búa máy", "Quả cầu phá hủy", "Sữa lắc",
               "Xe tải bánh rán", "Tên trộm", "Siêu trộm", "thẻ dấu hỏi"),
}


@pytest.mark.parametrize("game", sorted(RULEBOOK_TERMS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_has_a_help_page_in_every_language(game: str, language: str) -> None:
    page = help_text(game, language)
    assert page.startswith("# ") and len(page) > 800
    assert unicodedata.is_normalized("NFC", page)


@pytest.mark.parametrize("game", sorted(RULEBOOK_TERMS))
def test_the_vietnamese_pages_use_the_rulebooks_words(game: str) -> None:
    page = help_text(game, "vi")
    assert [term for term in RULEBOOK_TERMS[game] if term not in page] == []
    assert page != help_text(game, "en")


async def test_the_page_follows_the_session_and_falls_back_to_english() -> None:
    speak(Speech("vi"))  # this test's task only
    assert help_text("gotown").startswith("# GoTown — luật chơi tóm tắt")
    assert help_text("gotown", "xx") == help_text("gotown", "en")
    with pytest.raises(NoHelp):
        help_text("chess")
    with pytest.raises(NoHelp):
        help_text("../vi/help/gotown")
