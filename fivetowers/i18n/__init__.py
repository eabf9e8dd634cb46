"""The players' language: gettext catalogs, chosen per viewer.

Every SSH session's App runs on one event loop, so the language cannot be
process-wide (``gettext.install``): two players at one table may read two
languages. Each session has a :class:`Speech` (its language, switchable at
any time), held by a context variable: an App sets its own as it loads
(:func:`speak`), and every task it starts afterwards (each widget's message
loop, its timers) inherits the same object, so a switch reaches them all.
Code with no session of its own (the command line, ``fivetowers play``,
tests) speaks the process's language (:func:`set_process_language`).

In code: ``_("text")`` translates now, in the current session's language;
``ngettext(singular, plural, n)`` chooses the plural form; ``N_("text")`` only
marks a string for the catalog (a class attribute, a table of words) and is
translated where it is shown. Text is NFC-normalised, so a Vietnamese letter
with two marks is one character, one cell.

Refusals of the rules keep their English template and details
(:class:`~fivetowers.games.protocol.ActionRefused`); a screen shows one
with :func:`refusal_text`, in its viewer's language.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
import unicodedata
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from fivetowers.games.protocol import ActionRefused, Term
from fivetowers.i18n.po import compile_po

DOMAIN = "fivetowers"
ENGLISH = "en"
LANGUAGES: tuple[str, ...] = ("en", "vi")
"""The languages there are catalogs for (English is the source text)."""
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "vi": "Tiếng Việt"}
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def nfc(text: str) -> str:
    """``text`` in Unicode's composed form (one code point per letter where possible)."""
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


class Translator:
    """One language's catalog: translate, choose plural forms, normalise."""

    def __init__(self, language: str, catalog: _gettext.NullTranslations) -> None:
        self.language = language
        self._catalog = catalog

    def gettext(self, message: str) -> str:
        return nfc(self._catalog.gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return nfc(self._catalog.ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        return nfc(self._catalog.pgettext(context, message))


def normal_language(code: str | None) -> str | None:
    """A language we have from a locale name: ``vi_VN.UTF-8`` → ``vi``;
    ``C``, ``POSIX``, empty or a language without a catalog → None."""
    if not code:
        return None
    base = code.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def language_from_env(env: Mapping[str, str]) -> str:
    """The language a locale environment asks for (``LC_ALL``, then
    ``LC_MESSAGES``, then ``LANG``, as POSIX orders them); English if it names
    none we have. The first that is set decides, as for any program: a
    ``LC_ALL=C`` means English even with ``LANG=vi_VN.UTF-8``."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return normal_language(value) or ENGLISH
    return ENGLISH


@lru_cache(maxsize=None)
def translator(language: str) -> Translator:
    """The translator of ``language`` (English for any we do not have)."""
    if language not in LANGUAGES or language == ENGLISH:
        return Translator(ENGLISH, _gettext.NullTranslations())
    return Translator(language, _load_catalog(language))


def _load_catalog(language: str) -> _gettext.NullTranslations:
    # A wheel ships the compiled .mo (setup.py builds it); a source checkout
    # or an editable install has only the .po (or a stale .mo): compile
    # that in memory, so a checkout always shows its current catalog.
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    source, compiled = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if compiled.exists() and (not source.exists()
                              or compiled.stat().st_mtime >= source.stat().st_mtime):
        with compiled.open("rb") as file:
            return _gettext.GNUTranslations(file)
    if source.exists():
        return _gettext.GNUTranslations(io.BytesIO(compile_po(source)))
    return _gettext.NullTranslations()


class Speech:
    """One session's language; :meth:`switch` changes it for the whole session."""

    def __init__(self, language: str = ENGLISH) -> None:
        self.translator = translator(language)

    @property
    def language(self) -> str:
        return self.translator.language

    def switch(self, language: str) -> None:
        self.translator = translator(language)


_process_speech = Speech(language_from_env(os.environ))
_speech: ContextVar[Speech] = ContextVar("fivetowers_speech")


def set_process_language(language: str) -> None:
    """The language of code that runs outside any session (``play --lang``)."""
    _process_speech.switch(language)


def speak(speech: Speech) -> None:
    """Make ``speech`` the language of the calling task and the tasks it starts
    from now on (an App calls it as it loads)."""
    _speech.set(speech)


def current() -> Translator:
    """The translator of the session running this code (else the process's)."""
    return _speech.get(_process_speech).translator


def current_language() -> str:
    return current().language


def _(message: str) -> str:
    """``message`` in the current session's language."""
    return current().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n``, in the current language."""
    return current().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as ``context`` means it (an English word Vietnamese says two
    ways: a ``game`` that is a match, or a kind of game), in the current language."""
    return current().pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog without translating it (yet)."""
    return message


def refusal_text(exc: BaseException, to: Translator | None = None) -> str:
    """A refusal of the rules (or any error shown to a player) in the viewer's
    language: an :class:`ActionRefused` translates its template, then fills in
    its details; other errors show their message as it is."""
    words = to or current()
    if not isinstance(exc, ActionRefused) or not exc.template:
        return str(exc)
    details = {key: words.gettext(value) if isinstance(value, Term) else value
               for key, value in exc.details.items()}
    try:
        return words.gettext(exc.template).format(**details)
    except (KeyError, IndexError, ValueError):  # a catalog entry that lost a detail
        return str(exc)


__all__ = ["DOMAIN", "ENGLISH", "LANGUAGES", "LANGUAGE_NAMES", "N_", "Speech", "Term",
           "Translator", "_", "current", "current_language", "language_from_env", "ngettext",
           "nfc", "normal_language", "pgettext", "refusal_text", "set_process_language", "speak",
           "translator"]
