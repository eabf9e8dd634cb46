"""The Vietnamese catalog has every string the code marks, translated, and compiles."""

from __future__ import annotations

import gettext
import io
import string
import unicodedata
from pathlib import Path

import pytest

from fivetowers.i18n import LANGUAGES, LOCALE_DIR, nfc, translator
from fivetowers.i18n.extract import Message, entry_key, extract, merge_po, messages_of
from fivetowers.i18n.po import PoError, compile_entries, compile_po, compile_tree, parse_po

VI_PO = LOCALE_DIR / "vi" / "LC_MESSAGES" / "fivetowers.po"


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_marked_string_is_translated_in_vietnamese() -> None:
    messages = extract()
    assert len(messages) > 150  # the extractor finds the code's strings
    entries = {entry_key(e): e for e in parse_po(VI_PO.read_text("utf-8")) if e.msgid}
    missing = [key[0] for key in messages if key not in entries]
    untranslated = [key[0] for key in messages
                    if key in entries and not entries[key].translated]
    assert not missing, f"not in {VI_PO.name} (run python -m fivetowers.i18n.extract): {missing}"
    assert not untranslated, f"untranslated or fuzzy in {VI_PO.name}: {untranslated}"


def test_translations_keep_every_field_and_are_nfc() -> None:
    for entry in parse_po(VI_PO.read_text("utf-8")):
        if not entry.msgid:
            continue
        for form in entry.msgstr:
            assert _fields(form) == _fields(entry.msgid), (entry.msgid, form)
            assert unicodedata.is_normalized("NFC", form), entry.msgid


def test_the_pot_lists_what_the_code_marks() -> None:
    pot = parse_po((LOCALE_DIR / "fivetowers.pot").read_text("utf-8"))
    assert {entry_key(e) for e in pot if e.msgid} == set(extract())


def test_the_extractor_finds_calls_and_refusal_templates() -> None:
    source = '''
_("plain")
N_("marked")
ngettext("one {n}", "many {n}", n)
IllegalBid("a bid must raise {bid}", bid=3)
MalformedAction(f"not {x}")
_(f"built at run time {x}")
pgettext("a match", "game")
'''
    found = [(m.msgid, m.msgid_plural, m.msgctxt) for m in messages_of(source, "x.py")]
    assert found == [("plain", None, None), ("marked", None, None),
                     ("one {n}", "many {n}", None), ("a bid must raise {bid}", None, None),
                     ("game", None, "a match")]


def test_compiled_catalog_translates_plurals_and_skips_fuzzy() -> None:
    po = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "one"
msgstr "một"

#, fuzzy
msgid "guess"
msgstr "đoán"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} lá"
msgstr[1] "{n} lá bài"

msgctxt "key"
msgid "back"
msgstr "quay lại"

msgid "multi"
msgstr ""
"dòng một\\n"
"dòng hai"
'''
    catalog = gettext.GNUTranslations(io.BytesIO(compile_entries(parse_po(po))))
    assert catalog.gettext("one") == "một"
    assert catalog.gettext("guess") == "guess"  # fuzzy: left out, as msgfmt does
    assert catalog.ngettext("{n} card", "{n} cards", 1) == "{n} lá"
    assert catalog.ngettext("{n} card", "{n} cards", 4) == "{n} lá bài"
    assert catalog.pgettext("key", "back") == "quay lại"
    assert catalog.gettext("multi") == "dòng một\ndòng hai"


def test_a_broken_po_is_refused_with_its_line() -> None:
    with pytest.raises(PoError, match=":2:"):
        parse_po('msgid "a"\nmsgstr oops\n', "bad.po")


def test_the_build_step_compiles_every_catalog(tmp_path: Path) -> None:
    # What setup.py's build_py does to the copy of the package in a wheel.
    target = tmp_path / "locale" / "vi" / "LC_MESSAGES"
    target.mkdir(parents=True)
    (target / "fivetowers.po").write_bytes(VI_PO.read_bytes())
    written = compile_tree(tmp_path / "locale")
    assert written == [target / "fivetowers.mo"]
    with written[0].open("rb") as file:
        catalog = gettext.GNUTranslations(file)
    assert catalog.gettext("new table") == "bàn mới"
    assert written[0].read_bytes() == compile_po(VI_PO)


def test_vietnamese_is_vietnamese_and_english_is_the_source() -> None:
    assert LANGUAGES == ("en", "vi")
    assert translator("vi").gettext("the game is over") == "ván đấu đã kết thúc"
    assert translator("en").gettext("the game is over") == "the game is over"
    assert translator("xx").language == "en"  # no catalog: English


def test_text_is_nfc_normalised() -> None:
    decomposed = unicodedata.normalize("NFD", "Tiếng Việt")
    assert len(decomposed) > len("Tiếng Việt")
    assert nfc(decomposed) == "Tiếng Việt"


def test_one_english_word_said_two_ways_keeps_both_translations(tmp_path: Path) -> None:
    # "game": a kind of game in the lobby (trò), a kept game's number in my games (ván).
    po = tmp_path / "vi.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "game"\nmsgstr "trò"\n\n'
                  'msgctxt "a number"\nmsgid "game"\nmsgstr "ván"\n', "utf-8")
    messages = extract_source('_("game")\npgettext("a number", "game")\n')
    assert merge_po(messages, po) == 0
    catalog = gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    assert catalog.gettext("game") == "trò"
    assert catalog.pgettext("a number", "game") == "ván"
    assert translator("vi").pgettext("a kept game's number", "game") == "ván"
    assert translator("vi").gettext("game") == "trò"


def extract_source(source: str) -> dict[tuple[str, str | None], Message]:
    return {m.key: m for m in messages_of(source, "x.py")}
