"""``ssh HOST export GAME``: a player downloads the record of one of their games.

The server's one command besides ``join CODE`` (:mod:`fivetowers.server.names`
parses both; nothing else is run). Only the key's own games, and only once
they are over: a running game's setup holds its deck order, which no player
may read before the end.
"""

from __future__ import annotations

from fivetowers.i18n import N_, _
from fivetowers.lobby.model import Lobby
from fivetowers.server.session import Exporter, ExportRefused
from fivetowers.tables.history import record_text, record_text_of
from fivetowers.tables.store import Store, StoreError, UnknownTable


def exporter(lobby: Lobby) -> Exporter:
    """Answers ``export GAME`` from the lobby's store, on the store's thread."""

    async def export(identity: str, game_id: int) -> str:
        writer = lobby.writer
        if writer is None:
            raise ExportRefused(_("this server keeps no games to export"))
        if not identity.startswith("SHA256:"):
            raise ExportRefused(
                _("only a key's own games can be exported: log in with your key"))
        try:
            return await writer.call(_export_text, writer.store, identity, game_id)
        except StoreError as exc:
            raise ExportRefused(_("game {game} cannot be read now: {reason}").format(
                game=game_id, reason=exc)) from None
        except ExportRefused as exc:  # a template from the store's thread: in words here
            raise ExportRefused(_(str(exc)).format(game=game_id)) from None
    return export


def _export_text(store: Store, identity: str, game_id: int) -> str:
    """(On the store's thread.) Its record, or why not; a game that is not
    this key's is told apart from one that does not exist by nothing, so a
    stranger learns nothing of other people's game numbers."""
    # Templates ({game}), put in the asker's words by export(): this thread
    # does not run in the asker's session.
    not_yours = ExportRefused(N_("game {game} is not one of your games "
                                 "(see \"my games\" in the lobby for their numbers)"))
    try:
        stored = store.load_table(game_id)
    except UnknownTable:
        raise not_yours from None
    if all(seat.fingerprint != identity for seat in stored.info.seats):
        raise not_yours
    if stored.info.finished is None:
        raise ExportRefused(N_("game {game} is still being played: "
                               "export it once it is over"))
    try:
        return record_text(record_text_of(stored.info.kind, stored.record))
    except ValueError:  # the game's RecordError: a damaged record
        raise ExportRefused(N_("game {game} in the store is damaged")) from None
