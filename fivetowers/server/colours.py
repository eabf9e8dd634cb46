"""Colours per client terminal (DESIGN.md trap 3), done in the driver.

Textual decides colours from the console's colour system, but it also keeps
rendered lines in caches shared by every App in the process (``Strip.blank``
and friends remember their escape sequences). Two sessions rendering with
different colour systems would paint each other's colours. So every App
renders the same way, in 24-bit colour, and each session's driver rewrites
the colour escapes for what its client's terminal can show (from the
client's ``TERM`` and ``COLORTERM``, never the server's environment).
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from typing import IO, cast

from rich.color import Color, ColorSystem
from rich.console import Console

from fivetowers.compat.rich import console_with_environ

_SGR = re.compile(r"\x1b\[([0-9;]*)m")
# SGR parameters that set a basic colour (dropped for a colourless terminal).
_BASIC = {str(n) for n in (*range(30, 38), 39, *range(40, 48), 49,
                           *range(90, 98), *range(100, 108))}
_SYSTEMS = {"truecolor": ColorSystem.TRUECOLOR, "256": ColorSystem.EIGHT_BIT,
            "standard": ColorSystem.STANDARD}


class NullFile(io.TextIOBase):
    """Where an App's console writes: nowhere (frames go through the driver)."""

    def write(self, text: str) -> int:
        return len(text)

    def isatty(self) -> bool:
        return True


def render_console() -> Console:
    """The console every session's App renders with: Textual's own settings, 24-bit."""
    return console_with_environ({}, cast(IO[str], NullFile()), color_system="truecolor",
                                markup=True, highlight=False, emoji=False,
                                legacy_windows=False, force_terminal=True, safe_box=False,
                                soft_wrap=False)


@lru_cache(maxsize=64)  # a Console each time: a few hundred microseconds per session
def client_color_system(term: str, colorterm: str) -> ColorSystem | None:
    """What a terminal with this ``TERM``/``COLORTERM`` shows; None for no colour."""
    console = console_with_environ({"TERM": term, "COLORTERM": colorterm},
                                   cast(IO[str], NullFile()), force_terminal=True,
                                   color_system="auto")
    name = console.color_system
    return None if name is None else _SYSTEMS.get(name, ColorSystem.STANDARD)


def downgrade(data: str, system: ColorSystem | None) -> str:
    """``data`` with its 24-bit colour escapes rewritten for ``system``."""
    if system is ColorSystem.TRUECOLOR:
        return data
    # Text and escapes' parameters alternate; each escape is a dict lookup
    # run by map(), not a Python call (a frame holds hundreds of escapes).
    parts = _SGR.split(data)
    if len(parts) > 1:
        parts[1::2] = map(_REWRITES[system].__getitem__, parts[1::2])
    return "".join(parts)


class _Rewrites(dict[str, str]):
    """Escape parameters -> the whole escape rewritten for one colour system;
    filled as parameters are first met."""

    def __init__(self, system: ColorSystem | None) -> None:
        super().__init__()
        self.system = system

    def __missing__(self, params: str) -> str:
        if len(self) >= KEPT:  # a few hundred colours in practice: never, but bounded
            self.clear()
        escape = self[params] = _rewrite(params, self.system)
        return escape


KEPT = 8192
"""Rewritten escapes kept per colour system."""

_REWRITES = {system: _Rewrites(system)
             for system in (ColorSystem.EIGHT_BIT, ColorSystem.STANDARD,
                            ColorSystem.WINDOWS, None)}


def _rewrite(params: str, system: ColorSystem | None) -> str:
    parts = params.split(";")
    out: list[str] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        if part in ("38", "48") and i + 1 < len(parts):
            foreground = part == "38"
            if parts[i + 1] == "2" and i + 4 < len(parts):
                red, green, blue = (int(p or 0) for p in parts[i + 2:i + 5])
                color: Color | None = Color.from_rgb(red, green, blue)
                i += 5
            elif parts[i + 1] == "5" and i + 2 < len(parts):
                color = Color.from_ansi(int(parts[i + 2] or 0))
                i += 3
            else:
                out.append(part)
                i += 1
                continue
            if system is not None and color is not None:
                out.extend(color.downgrade(system).get_ansi_codes(foreground))
            continue
        if not (system is None and part in _BASIC):
            out.append(part)
        i += 1
    # An empty "\x1b[m" would mean reset: drop the sequence instead.
    return f"\x1b[{';'.join(out)}m" if out else ""
