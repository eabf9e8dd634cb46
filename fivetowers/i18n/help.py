"""The ``?`` help pages (the rules in short), one Markdown file per game and language.

Kept as data (``fivetowers/locale/<language>/help/<game>.md``), not in the
catalog: a page is one text that a translator writes whole, from the rulebook
in their language (the Vietnamese ones from the Vietnamese rulebooks). A help
screen shows :func:`help_text` above its own table of keys.
"""

from __future__ import annotations

from fivetowers.i18n import ENGLISH, LOCALE_DIR, current_language, nfc


class NoHelp(LookupError):
    """No help page for that game in any language."""


def help_text(game: str, language: str | None = None) -> str:
    """The rules in short of ``game`` (its registry name: ``fivetowers``,
    ``gotown``) in ``language`` (default: the current session's), else in
    English."""
    for lang in (language or current_language(), ENGLISH):
        page = LOCALE_DIR / lang / "help" / f"{game}.md"
        if "/" not in game and page.is_file():
            return nfc(page.read_text(encoding="utf-8"))
    raise NoHelp(f"no help page for the game {game!r}")
