"""How many tables the lobby serves: per key, per address, in all, and how long
one nobody is at is kept (see :class:`fivetowers.lobby.model.Lobby`)."""

from __future__ import annotations

from dataclasses import dataclass

from fivetowers.server.addresses import address_group

__all__ = ["LobbyLimits", "MAX_TABLES_PER_PLAYER", "address_group"]

MAX_TABLES_PER_PLAYER = 3


@dataclass(frozen=True, slots=True)
class LobbyLimits:
    """What one player, one address and everyone together may open.

    A key costs nothing to make, so the per-key limit alone does not bound a
    person; an address costs more. Unattended tables pause, then close, so
    what is left to bound is memory and tables nobody plays at."""

    tables_per_player: int = MAX_TABLES_PER_PLAYER
    """Unfinished tables one key may sit at."""
    tables_per_address: int = 8
    """Unfinished tables opened from one address (an IPv6 /64) that are still
    served: several people behind one NAT each open a table or two."""
    max_tables: int = 100
    """Unfinished tables the server serves at once; then no new ones."""
    pause_after: float = 120.0
    """Seconds without a human present before a table's bots pause."""
    close_after: float = 12 * 3600.0
    """Seconds without a human present before a table is closed (abandoned)."""
    check_every: float = 15.0
    """How often unattended tables are looked at (at most; seconds)."""


