"""Finding the strings to translate in the source, and keeping the catalogs.

What ``xgettext``/Babel's extractor would find, with the standard library's
``ast``: the first argument of ``_``, ``N_``, ``gettext``, the two of
``ngettext``, the context and text of ``pgettext`` (one English word that
Vietnamese says two ways), and the template of every refusal the rules raise (their
exception classes are keywords here, so rules code stays plain). A string
built at run time (an f-string) cannot be in a catalog: the converted-module
check in the tests reports those.

``python -m fivetowers.i18n.extract`` rewrites the ``.pot`` and adds each new
message to every ``.po`` (untranslated, for a translator to fill in).
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

from fivetowers.i18n.po import Entry, parse_po

PACKAGE = Path(__file__).resolve().parent.parent
LOCALE = PACKAGE / "locale"
SINGULAR_KEYWORDS = frozenset({"_", "N_", "gettext"})
PLURAL_KEYWORDS = frozenset({"ngettext"})
CONTEXT_KEYWORDS = frozenset({"pgettext"})
REFUSAL_KEYWORDS = frozenset({
    # 5 Towers' rules
    "IllegalAction", "NotYourTurn", "IllegalBid", "IllegalBuild", "GameOver",
    # GoTown's rules
    "IllegalPlay",
})
"""Refusal classes whose first argument is a catalog template (MalformedAction
is not among them: it answers malformed JSON, for a tool's author, in English)."""


@dataclass
class Message:
    msgid: str
    msgid_plural: str | None = None
    places: list[str] = field(default_factory=list)
    python_format: bool = False
    msgctxt: str | None = None

    @property
    def key(self) -> tuple[str, str | None]:
        return message_key(self.msgid, self.msgid_plural, self.msgctxt)


def message_key(msgid: str, msgid_plural: str | None = None,
                msgctxt: str | None = None) -> tuple[str, str | None]:
    """A message's identity in a catalog: its text, plural and context (as a
    compiled catalog keys it, ``context\x04text``)."""
    return ((msgid if msgctxt is None else f"{msgctxt}\x04{msgid}"), msgid_plural)


def entry_key(entry: Entry) -> tuple[str, str | None]:
    return message_key(entry.msgid, entry.msgid_plural, entry.msgctxt)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def messages_of(source: str, place: str) -> list[Message]:
    """The translatable strings of one module's source, in order."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = _name(node.func)
        where = f"{place}:{node.lineno}"
        if name in SINGULAR_KEYWORDS or name in REFUSAL_KEYWORDS:
            text = _text(node.args[0])
            if text:
                found.append(Message(text, places=[where],
                                     python_format=name in REFUSAL_KEYWORDS and bool(node.keywords)))
        elif name in CONTEXT_KEYWORDS and len(node.args) >= 2:
            context, text = _text(node.args[0]), _text(node.args[1])
            if context and text:
                found.append(Message(text, places=[where], msgctxt=context))
        elif name in PLURAL_KEYWORDS and len(node.args) >= 2:
            one, many = _text(node.args[0]), _text(node.args[1])
            if one and many:
                found.append(Message(one, many, places=[where]))
    return sorted(found, key=lambda m: int(m.places[0].rsplit(":", 1)[1]))


def extract(package: Path = PACKAGE) -> dict[tuple[str, str | None], Message]:
    """Every translatable message of the package, keyed by (msgid, msgid_plural)."""
    catalog: dict[tuple[str, str | None], Message] = {}
    for path in sorted(package.rglob("*.py")):
        place = path.relative_to(package.parent).as_posix()
        for message in messages_of(path.read_text(encoding="utf-8"), place):
            key = message.key
            if key in catalog:
                catalog[key].places += message.places
            else:
                catalog[key] = message
    return catalog


def _quote(text: str) -> str:
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
               .replace("\n", "\\n"))
    return f'"{escaped}"'


def _lines(keyword: str, text: str) -> list[str]:
    if "\\n" in _quote(text)[1:-1] and len(text) > 1:
        parts = text.splitlines(keepends=True)
        return [f'{keyword} ""'] + [_quote(p) for p in parts]
    return [f"{keyword} {_quote(text)}"]


def render_entry(msgid: str, msgid_plural: str | None, msgstr: list[str],
                 places: list[str], fuzzy: bool = False, msgctxt: str | None = None) -> str:
    lines = [f"#: {' '.join(places)}"] if places else []
    if fuzzy:
        lines.append("#, fuzzy")
    if msgctxt is not None:
        lines += _lines("msgctxt", msgctxt)
    lines += _lines("msgid", msgid)
    if msgid_plural is None:
        lines += _lines("msgstr", msgstr[0] if msgstr else "")
    else:
        lines += _lines("msgid_plural", msgid_plural)
        forms = msgstr or [""]
        for index, form in enumerate(forms):
            lines += _lines(f"msgstr[{index}]", form)
    return "\n".join(lines)


POT_HEADER = """# The messages of fivetowers to translate (made by fivetowers.i18n.extract).
msgid ""
msgstr ""
"Project-Id-Version: fivetowers\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"""


def write_pot(messages: dict[tuple[str, str | None], Message], target: Path) -> None:
    body = [render_entry(m.msgid, m.msgid_plural,
                         [] if m.msgid_plural is None else ["", ""], m.places,
                         msgctxt=m.msgctxt)
            for m in messages.values()]
    target.write_text(POT_HEADER + "\n" + "\n\n".join(body) + "\n", encoding="utf-8")


def merge_po(messages: dict[tuple[str, str | None], Message], target: Path) -> int:
    """Rewrite ``target`` with every message (its translations kept); the
    number of new, untranslated ones. Messages no longer in the code are
    kept at the end as obsolete (``#~``), for a translator to reuse."""
    text = target.read_text(encoding="utf-8")
    entries = parse_po(text, str(target))
    header = next((e for e in entries if e.msgid == "" and e.msgctxt is None), None)
    known: dict[tuple[str, str | None], Entry] = {
        entry_key(e): e for e in entries if e.msgid}
    head = text.split("\n\n", 1)[0] if header is not None else POT_HEADER.rstrip("\n")
    body, new = [], 0
    for key, message in messages.items():
        entry = known.pop(key, None)
        if entry is None:
            new += 1
        body.append(render_entry(message.msgid, message.msgid_plural,
                                 entry.msgstr if entry else [], message.places,
                                 fuzzy=entry.fuzzy if entry else False,
                                 msgctxt=message.msgctxt))
    for entry in known.values():  # obsolete
        block = render_entry(entry.msgid, entry.msgid_plural, entry.msgstr, [],
                             msgctxt=entry.msgctxt)
        body.append("\n".join("#~ " + line for line in block.splitlines()))
    target.write_text(head + "\n\n" + "\n\n".join(body) + "\n", encoding="utf-8")
    return new


def main() -> int:
    messages = extract()
    write_pot(messages, LOCALE / "fivetowers.pot")
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/fivetowers.po")):
        new = merge_po(messages, po)
        print(f"{po.relative_to(PACKAGE.parent)}: {len(messages)} messages, {new} new")
    return 0


if __name__ == "__main__":
    sys.exit(main())
