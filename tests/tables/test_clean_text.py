"""The one text cleaner and the one name cleaner, over every class of
character that can do something to a terminal other than show itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import fivetowers
from fivetowers.user_text import MAX_NAME, clean_name, clean_text

C0 = [chr(c) for c in range(0x00, 0x20)]
DEL = ["\x7f"]
C1 = [chr(c) for c in range(0x80, 0xA0)]
BIDI = [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)] \
    + ["\u061c", "\u200e", "\u200f"]
ZERO_WIDTH = [chr(c) for c in range(0x200B, 0x2010)] + ["\ufeff", "\u00ad", "\u2060"]
SEPARATORS = ["\u2028", "\u2029", "\x85"]
TAGS = ["\U000e0001"] + [chr(c) for c in range(0xE0020, 0xE0080)]
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
PRIVATE = ["\ue000", "\U000f0000"]
INVISIBLE = C0 + DEL + C1 + BIDI + ZERO_WIDTH + SEPARATORS + TAGS + SURROGATES + PRIVATE
INTRODUCERS = {"\x1b", "\x90", "\x98", "\x9b", "\x9d", "\x9e", "\x9f"}
"""Start a sequence: what follows is its body, and goes with it, as a terminal
would read it (the tests below show what text after a whole sequence keeps)."""


@pytest.mark.parametrize("clean", [lambda s: clean_text(s, 200), clean_name])
@pytest.mark.parametrize("ch", INVISIBLE, ids=lambda ch: f"U+{ord(ch):04X}")
def test_no_control_or_format_character_survives(clean: object, ch: str) -> None:
    assert callable(clean)
    out = clean(f"ab{ch}cd")
    assert ch not in out
    if ch in INTRODUCERS:
        assert out in ("ab", "abd")
    else:
        assert out in ("abcd", "ab cd")  # white space and separators become one space


@pytest.mark.parametrize(("raw", "shown"), [
    ("Z\u009b2J\u009b1;1HOWNED", "ZOWNED"),  # 8-bit CSI: the whole sequence goes
    ("a\x1b[2Jb\x1b[1;1Hc", "abc"),  # 7-bit CSI
    ("a\x1b[38;2;255;0;0mred\x1b[0m", "ared"),
    ("x\x1b]0;title\x07y", "xy"),  # OSC to BEL
    ("x\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\y", "xlinky"),  # OSC to ST
    ("x\x9d0;title\x9cy", "xy"),  # 8-bit OSC to 8-bit ST
    ("x\x1bP1$r\x1b\\y", "xy"),  # DCS
    ("x\x90q#0\x9cy", "xy"),  # 8-bit DCS
    ("x\x1b_apc\x1b\\y \x1b^pm\x1b\\z", "xy z"),  # APC, PM
    ("x\x1b(0lqk\x1b(By", "xlqky"),  # charset designation: ESC ( 0
    ("x\x1b7\x1b8y\x1bcz", "xyz"),  # save/restore cursor, full reset
    ("tail\x1b[", "tail"),  # a sequence cut short
    ("tail\x9b", "tail"),
])
def test_escape_sequences_go_whole(raw: str, shown: str) -> None:
    assert clean_text(raw, 100) == shown


def test_markup_is_kept_in_text_and_dropped_from_names() -> None:
    assert clean_text("[bold red]x[/] \\[b]", 100) == "[bold red]x[/] \\[b]"
    assert clean_name("[bold red]x[/]\\") == "bold redx/"


def test_white_space_and_length() -> None:
    assert clean_text("  a \t\n b\u3000c\u2028d  ", 100) == "a b c d"
    assert clean_text("x" * 500, 120) == "x" * 120
    assert clean_text("abc   de", 4) == "abc"  # no trailing space after the cut
    assert clean_name("y" * 100) == "y" * MAX_NAME
    assert clean_name("\x1b[31m\u202e\x07") == "player"
    assert clean_name("", fallback="guest") == "guest"


def test_visible_text_is_kept() -> None:
    for text in ("Jürgen Ölmann", "Ἀθῆναι", "東京タワー", "مرحبا", "e\u0301", "🙂 ok"):
        assert clean_text(text, 100) == text
        assert clean_name(text) == text[:MAX_NAME]


def test_a_huge_paste_is_cut_before_cleaning() -> None:
    assert clean_text("\x1b[" + "1;" * 1_000_000 + "mhello", 120) == ""
    assert clean_text("ok " + "\x00" * 5_000_000, 120) == "ok"


CLEANERS = {"clean_name", "clean_text"}


def test_there_is_one_name_cleaner() -> None:
    # One module defines the cleaners (none other cleans names or text its own
    # way), and every module that uses them imports them from there.
    package = Path(fivetowers.__file__).parent
    defined, imported = set(), set()
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(package.parent).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name in CLEANERS:
                defined.add((where, node.name))
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name in CLEANERS:
                        imported.add((where, node.module))
    assert defined == {("fivetowers/user_text.py", "clean_name"),
                       ("fivetowers/user_text.py", "clean_text")}
    assert imported and {module for _, module in imported} == {"fivetowers.user_text"}
