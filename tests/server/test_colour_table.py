"""The colour rewrite is a table lookup per escape: the same bytes as
rewriting each escape with the per-code function, and that function runs
once per escape's parameters, not once per escape written."""

from __future__ import annotations

import random
import re

import pytest
from rich.color import ColorSystem

import fivetowers.server.colours as colours

SYSTEMS = [ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT, ColorSystem.STANDARD,
           ColorSystem.WINDOWS, None]


def one_by_one(data: str, system: ColorSystem | None) -> str:
    """The rewrite as it was: the per-code function called for every escape."""
    if system is ColorSystem.TRUECOLOR:
        return data
    return re.sub(r"\x1b\[([0-9;]*)m", lambda m: colours._rewrite(m.group(1), system), data)


def every_code() -> list[str]:
    codes = [str(n) for n in range(0, 110)] + ["", "0", "1;2;3", "38", "48", "38;2", "38;5",
                                                "38;2;1;2", "38;5;", "38;2;;;", "1;38;2;300;0;0"]
    for n in range(256):
        codes += [f"38;5;{n}", f"48;5;{n}", f"1;38;5;{n};48;5;{255 - n}"]
    for red in range(0, 256, 15):
        for green in range(0, 256, 15):
            for blue in range(0, 256, 51):
                codes += [f"38;2;{red};{green};{blue}", f"48;2;{blue};{red};{green}",
                          f"1;3;38;2;{red};{green};{blue};48;2;{green};{blue};{red}"]
    return codes


@pytest.mark.parametrize("system", SYSTEMS, ids=str)
def test_every_code_is_rewritten_as_the_per_code_function_does(system: ColorSystem | None) -> None:
    codes = every_code()
    for code in codes:
        escape = f"\x1b[{code}m"
        assert colours.downgrade(escape, system) == one_by_one(escape, system), code
    rng = random.Random(3)  # frames: escapes among text, other escapes, none at the ends
    for _ in range(200):
        frame = "".join(rng.choice([f"\x1b[{rng.choice(codes)}m", "text ", "\x1b[2J", "é",
                                    "\x1b[?25l", "\x1b[12;4H", "\x1bm", "[1m"])
                        for _ in range(rng.randint(0, 30)))
        assert colours.downgrade(frame, system) == one_by_one(frame, system), repr(frame)


def test_each_escape_is_worked_out_once_then_looked_up(monkeypatch: pytest.MonkeyPatch) -> None:
    worked_out: list[str] = []
    rewrite = colours._rewrite

    def counted(params: str, system: ColorSystem | None) -> str:
        worked_out.append(params)
        return rewrite(params, system)

    monkeypatch.setattr(colours, "_rewrite", counted)
    monkeypatch.setattr(colours, "_REWRITES", {ColorSystem.EIGHT_BIT: colours._Rewrites(
        ColorSystem.EIGHT_BIT)})
    frame = "".join(f"\x1b[38;2;{n};0;0mx\x1b[0m" for n in range(50)) * 3
    first = colours.downgrade(frame, ColorSystem.EIGHT_BIT)
    assert sorted(worked_out) == sorted({"0", *(f"38;2;{n};0;0" for n in range(50))})
    worked_out.clear()
    assert colours.downgrade(frame, ColorSystem.EIGHT_BIT) == first
    assert worked_out == []


def test_the_table_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(colours, "KEPT", 10)
    table = colours._Rewrites(None)
    monkeypatch.setattr(colours, "_REWRITES", {None: table})
    for n in range(40):
        assert colours.downgrade(f"\x1b[1;38;5;{n}mx", None) == "\x1b[1mx"
        assert len(table) <= 10
