"""Reading ``.po`` catalogs and compiling them to ``.mo``, standard library only.

The build (``setup.py``) compiles every ``.po`` into the wheel with this
module, loaded by path so the build imports nothing else of the package; a
source checkout or an editable install, which has no compiled catalog (or an
older one), compiles in memory at first use (:mod:`fivetowers.i18n`). One
compiler for both: what a test reads is what a wheel ships.

Fuzzy and untranslated entries are left out of the compiled catalog, as
GNU ``msgfmt`` does: such a string shows in English.
"""

from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field
from pathlib import Path


class PoError(ValueError):
    """A ``.po`` file this reader cannot parse; the message names the line."""


@dataclass
class Entry:
    """One message of a catalog."""

    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)
    """The translation; for a plural message one form per plural index."""
    fuzzy: bool = False
    line: int = 0

    @property
    def translated(self) -> bool:
        return not self.fuzzy and bool(self.msgstr) and all(self.msgstr)


def parse_po(text: str, name: str = "<po>") -> list[Entry]:
    """Every entry of a ``.po`` file's text, the header (msgid "") first if any."""
    entries: list[Entry] = []
    current: Entry | None = None
    fuzzy = has_msgid = False
    target: tuple[str, int] | None = None  # the field continuation lines extend

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#~"):
            continue  # obsolete entries are not messages
        if line.startswith("#,"):
            finish()
            fuzzy = "fuzzy" in (flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            if current is None or target is None:
                raise PoError(f"{name}:{number}: a string continues nothing")
            _extend(current, target, _string(line, name, number))
            continue
        value = _string(rest.strip(), name, number)
        # An entry starts at its msgctxt, or at its msgid when it has no context.
        if keyword == "msgctxt" or (keyword == "msgid" and not (
                current is not None and current.msgctxt is not None and not has_msgid)):
            finish()
            current = Entry(msgid="", fuzzy=fuzzy, line=number)
            fuzzy, has_msgid = False, False
        if keyword == "msgid":
            has_msgid = True
        if current is None:
            raise PoError(f"{name}:{number}: {keyword} outside an entry")
        if keyword == "msgctxt":
            current.msgctxt, target = value, ("msgctxt", 0)
        elif keyword == "msgid":
            current.msgid, target = value, ("msgid", 0)
        elif keyword == "msgid_plural":
            current.msgid_plural, target = value, ("msgid_plural", 0)
        elif keyword == "msgstr":
            current.msgstr, target = [value], ("msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]"):
            try:
                index = int(keyword[7:-1])
            except ValueError:
                raise PoError(f"{name}:{number}: a plural index that is no number") from None
            while len(current.msgstr) <= index:
                current.msgstr.append("")
            current.msgstr[index], target = value, ("msgstr", index)
        else:
            raise PoError(f"{name}:{number}: unknown keyword {keyword!r}")
    finish()
    return entries


def _string(text: str, name: str, number: int) -> str:
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{name}:{number}: expected a quoted string, not {text[:40]!r}")
    try:
        value = ast.literal_eval(text)  # PO's escapes are C's, a subset of Python's
    except (ValueError, SyntaxError):
        raise PoError(f"{name}:{number}: a string that cannot be read: {text[:40]!r}") from None
    if not isinstance(value, str):
        raise PoError(f"{name}:{number}: expected a string")
    return value


def _extend(entry: Entry, target: tuple[str, int], more: str) -> None:
    what, index = target
    if what == "msgstr":
        entry.msgstr[index] += more
    else:
        setattr(entry, what, (getattr(entry, what) or "") + more)


def compile_entries(entries: list[Entry]) -> bytes:
    """A GNU ``.mo`` file (little-endian, no hash table) of the translated entries."""
    messages: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.msgid == "" and entry.msgctxt is None:  # the header: kept even if fuzzy
            messages[b""] = "".join(entry.msgstr).encode("utf-8")
            continue
        if not entry.translated:
            continue
        key = entry.msgid if entry.msgid_plural is None else (
            entry.msgid + "\0" + entry.msgid_plural)
        if entry.msgctxt is not None:
            key = entry.msgctxt + "\x04" + key
        messages[key.encode("utf-8")] = "\0".join(entry.msgstr).encode("utf-8")
    keys = sorted(messages)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(messages[k] + b"\0" for k in keys)
    count = len(keys)
    id_table_start = 7 * 4
    str_table_start = id_table_start + count * 8
    data_start = str_table_start + count * 8
    id_offsets, str_offsets = [], []
    offset = data_start
    for k in keys:
        id_offsets += [len(k), offset]
        offset += len(k) + 1
    for k in keys:
        str_offsets += [len(messages[k]), offset]
        offset += len(messages[k]) + 1
    header = struct.pack("<7I", 0x950412DE, 0, count, id_table_start, str_table_start, 0, 0)
    return (header + struct.pack(f"<{2 * count}I", *id_offsets)
            + struct.pack(f"<{2 * count}I", *str_offsets) + ids + strs)


def compile_po(source: Path) -> bytes:
    """The ``.mo`` bytes of one ``.po`` file."""
    return compile_entries(parse_po(source.read_text(encoding="utf-8"), str(source)))


def compile_tree(root: Path) -> list[Path]:
    """Compile every ``*.po`` under ``root`` to a ``.mo`` beside it; the ``.mo`` paths."""
    written = []
    for source in sorted(root.rglob("*.po")):
        target = source.with_suffix(".mo")
        target.write_bytes(compile_po(source))
        written.append(target)
    return written
