"""Where the kernel put the load test's sessions with ``--processes N``:
every process listens on one port, and each client learns which one it
reached from the SSH version string (fivetowers/server/process_name.py)."""

from __future__ import annotations

from dataclasses import dataclass

from load_clients import Player, Viewer


@dataclass
class Spread:
    """Where the kernel put the sessions of ``--processes N`` (one port)."""

    sessions: dict[str, int]
    """Sessions each process served, by its number."""
    players_across: int
    """Tables whose players were on more than one process ..."""
    screens_across: int
    """... and whose screens (players and spectators) were."""
    tables: int

    @classmethod
    def of(cls, tables: list[list[Viewer]]) -> Spread:
        sessions: dict[str, int] = {}
        for viewers in tables:
            for viewer in viewers:
                sessions[str(viewer.process)] = sessions.get(str(viewer.process), 0) + 1
        players = sum(len({v.process for v in viewers if isinstance(v, Player)}) > 1
                      for viewers in tables)
        screens = sum(len({v.process for v in viewers}) > 1 for viewers in tables)
        return cls(dict(sorted(sessions.items())), players, screens, len(tables))

    def describe(self) -> str:
        each = ", ".join(f"process {p} {n}" for p, n in self.sessions.items())
        return (f"sessions {each}; {self.players_across} of {self.tables} tables had players "
                f"on more than one process ({self.screens_across} counting spectators)")
