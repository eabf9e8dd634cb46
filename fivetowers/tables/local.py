"""Games played at one terminal (``fivetowers play``), kept in the server's store.

A local game is kept move by move like a hosted one (its code starts with
:data:`~fivetowers.tables.store.LOCAL_CODE_PREFIX`, so no server serves it),
so a closed terminal or a ``q`` loses nothing: ``fivetowers play --resume``
replays the newest unfinished one. Its human seats are guests (no key):
they are not rated and in nobody's "my games".

The commit runs on the caller's loop: one screen, and a commit of a few
milliseconds between two moves is not seen (a server keeps its commits off
the loop, on the store's thread).
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Callable, Sequence

from fivetowers.games import UnknownGame, game_kind
from fivetowers.games.protocol import GameKind, Match
from fivetowers.tables.history import replay
from fivetowers.tables.seats import Seat
from fivetowers.tables.store import (
    LOCAL_CODE_PREFIX, Store, StoredSeat, StoreError, TableInfo, action_hook, is_local,
)

log = logging.getLogger("fivetowers.store")


@dataclass(frozen=True, slots=True)
class LocalGame:
    """An unfinished local game, rebuilt from the store as it was left."""

    info: TableInfo
    game: Match
    kind: GameKind

    @property
    def seats(self) -> list[Seat]:
        """Its seats: humans (here, at this terminal) and bots of their kind."""
        return [Seat(s.name, bot=s.bot, connected=s.bot is None) for s in self.info.seats]


def keep_local(store: Store, kind: str, match: Match,
               seats: Sequence[Seat]) -> Callable[[Match], None]:
    """Keep a new local game now; its table's ``on_action`` hook, which
    commits every action and, at the end, the result."""
    table_id = store.create_table(
        code=LOCAL_CODE_PREFIX + secrets.token_hex(6), name="local game", kind=kind,
        setup=match.setup_json(), seats=[StoredSeat(s.name, bot=s.bot) for s in seats],
        actions=[match.action_json(i) for i in range(match.action_count())])
    return local_hook(store, table_id)


def local_hook(store: Store, table_id: int) -> Callable[[Match], None]:
    """Commit each action of kept local game ``table_id``, then its result."""
    commit = action_hook(store, table_id)

    def keep(match: Match) -> None:
        commit(match)
        result = match.result()
        if result is not None:
            try:
                store.finish_table(table_id, list(result.scores), list(result.winners))
            except StoreError as exc:  # the move is kept; --resume finishes it
                log.warning("local game %d could not be marked finished: %s", table_id, exc)
    return keep


def last_local(store: Store, game: str | None = None) -> LocalGame | None:
    """The newest unfinished local game (of game ``game``, if given) that
    replays; one found over is finished on the way (the terminal closed
    between its last move and that)."""
    for stored in reversed(store.unfinished_tables()):
        if not is_local(stored.info.code) or game not in (None, stored.info.kind):
            continue
        try:
            kind = game_kind(stored.info.kind)
            match, error = replay(kind, stored.record)
        except (UnknownGame, ValueError) as exc:
            log.warning("local game %d cannot be resumed: %s", stored.info.id, exc)
            continue
        if error is not None:
            log.warning("local game %d cannot be resumed: action %d: %s", stored.info.id,
                        error.action, error.message)
            continue
        result = match.result()
        if result is not None:
            store.finish_table(stored.info.id, list(result.scores), list(result.winners))
            continue
        return LocalGame(stored.info, match, kind)
    return None
