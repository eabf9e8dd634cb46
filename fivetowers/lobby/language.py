"""A player's language, remembered by their SSH key in the store.

Read as the player arrives and written when they switch in the lobby, off
the event loop (through the lobby's StoreWriter, like every store call). A
password login is a guest: nothing is kept for it, as no games are. A store
that fails here costs the player only the remembered choice.
"""

from __future__ import annotations

import logging

from fivetowers.i18n import LANGUAGES
from fivetowers.lobby.archive import is_key
from fivetowers.lobby.model import Lobby
from fivetowers.tables.store import StoreError

PREFERENCE = "language"
log = logging.getLogger("fivetowers.server")


async def remembered_language(lobby: Lobby, identity: str) -> str | None:
    """The language this key chose last time, if the server keeps one."""
    writer = lobby.writer
    if writer is None or not is_key(identity):
        return None
    try:
        language = await writer.call(writer.store.preference, identity, PREFERENCE)
    except StoreError as exc:
        log.warning("cannot read the language of %s: %s", identity, exc)
        return None
    return language if language in LANGUAGES else None


async def remember_language(lobby: Lobby, identity: str, language: str) -> None:
    """Keep ``language`` as this key's choice (nothing for a password login)."""
    writer = lobby.writer
    if writer is None or not is_key(identity):
        return
    try:
        await writer.call(writer.store.set_preference, identity, PREFERENCE, language)
    except StoreError as exc:
        log.warning("cannot keep the language of %s: %s", identity, exc)
