"""The load test's mix: what the players do, and which tables they sit at.

Two presets. ``realistic`` (the default) is the game as players get it: hints
on, a strong bot at every table with the lobby's own pacing, humans who build
with the hint's plan when they win a bid, a spectator at every other table,
tables of 2 to 5 seats, every other table (of up to 4 seats) a GoTown table
whose humans play a card's first legal play, else end the turn, game after
game (a rematch at every table). ``bids-only`` is the old, cheap mix the README's first
figures came from: hints off, no bot, five humans a table who only bid 0 or
pass (nobody ever builds), nobody watching.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace

PLAYS = ("build", "bids")
"""build: bid to build and build with the hint's plan; bids: bid 0 or pass only."""

BOT_KINDS = ("strong", "greedy", "random")


@dataclass(frozen=True)
class Mix:
    name: str
    hints: bool
    bots: int
    """Bot seats per table."""
    bot: str
    sizes: tuple[int, ...]
    """Seats per table, bots included, used in turn table after table."""
    spectators: float
    """Watchers per table: 0.5 is one at every other table, 2 two at each."""
    play: str
    raise_chance: float = 0.3
    """How often a human who does not start raises to the lowest legal bid
    (else passes); a starter bids 1. Only with play=build."""
    bot_delay: float | None = None
    """Seconds a bot waits before its move; None: the lobby's default."""
    store: bool = True
    """Every move kept in a SQLite store before screens show it, as
    ``fivetowers serve`` does (off only to compare)."""
    gotown: float = 0.0
    """Tables of GoTown among those of at most 4 seats (GoTown's most): 0.5
    is every other table, counted like spectators; the others are 5 Towers."""
    rematch: bool = False
    """Tables play game after game: at the end screen every player says yes
    to a rematch (``n``) and every spectator leaves, then joins the next game
    as a new session. Off: each table plays one game, then sits at its end."""

    def describe(self) -> str:
        sizes = "/".join(map(str, self.sizes))
        bots = f"{self.bots} {self.bot} bot{'s' if self.bots != 1 else ''} a table" \
            if self.bots else "no bots"
        pace = "lobby default pacing" if self.bot_delay is None else f"bot delay {self.bot_delay:g}s"
        play = ("humans bid (starter 1, others raise "
                f"{self.raise_chance:.0%} of the time) and build with the hint's plan (a, enter)"
                if self.play == "build" else "humans bid 0 when starting, else pass")
        watching = {0.0: "no spectators", 0.5: "a spectator at every other table",
                    1.0: "a spectator at every table"}.get(
            self.spectators, f"{self.spectators:g} spectators a table")
        gotown = "" if not self.gotown else (
            f", GoTown at {'every other' if self.gotown == 0.5 else f'{self.gotown:.0%} of'} "
            "table of up to 4 seats (a card's first legal play, else e)")
        again = ("game after game (n for a rematch; spectators leave and join the next)"
                 if self.rematch else "one game a table")
        return (f"mix {self.name}: hints {'on' if self.hints else 'off'}, {bots}"
                f"{f' ({pace})' if self.bots else ''}, tables of {sizes} seats, "
                f"{watching}, {play}{gotown}, {again}, "
                f"{'moves kept in a store' if self.store else 'no store'}")


PRESETS = {
    "realistic": Mix("realistic", hints=True, bots=1, bot="strong", sizes=(4, 3, 5, 2),
                     spectators=0.5, play="build", gotown=0.5, rematch=True),
    "bids-only": Mix("bids-only", hints=False, bots=0, bot="strong", sizes=(5,),
                     spectators=0.0, play="bids"),
}


class MixError(ValueError):
    """A mix that cannot be seated (names the knob)."""


def with_overrides(mix: Mix, **knobs: object) -> Mix:
    """The preset with every knob that was given (not None) replaced."""
    given = {k: v for k, v in knobs.items() if v is not None}
    changed = replace(mix, **given) if given else mix  # type: ignore[arg-type]
    if changed.bot not in BOT_KINDS:
        raise MixError(f"--bot {changed.bot}: one of {', '.join(BOT_KINDS)}")
    if changed.play not in PLAYS:
        raise MixError(f"--play {changed.play}: one of {', '.join(PLAYS)}")
    if not changed.sizes or any(not 2 <= s <= 5 for s in changed.sizes):
        raise MixError(f"--sizes {changed.sizes}: seats per table are 2 to 5")
    if changed.bots < 0 or any(s - changed.bots < 1 for s in changed.sizes):
        raise MixError(f"--bots {changed.bots}: every table needs a human seat")
    if changed.spectators < 0:
        raise MixError(f"--spectators {changed.spectators:g}: not a count")
    if not 0 <= changed.gotown <= 1:
        raise MixError(f"--gotown {changed.gotown:g}: a share of the tables, 0 to 1")
    return changed


@dataclass
class TablePlan:
    code: str
    humans: int
    bots: int
    spectators: int
    game: str = "fivetowers"
    """fivetowers or gotown."""


@dataclass
class Plan:
    mix: Mix
    tables: list[TablePlan] = field(default_factory=list)

    @property
    def humans(self) -> int:
        return sum(t.humans for t in self.tables)

    @property
    def spectators(self) -> int:
        return sum(t.spectators for t in self.tables)

    def to_json(self) -> str:
        return json.dumps({"mix": asdict(self.mix), "tables": [asdict(t) for t in self.tables]})

    @classmethod
    def from_json(cls, text: str) -> Plan:
        data = json.loads(text)
        mix = data["mix"]
        mix["sizes"] = tuple(mix["sizes"])
        return cls(Mix(**mix), [TablePlan(**t) for t in data["tables"]])

    def describe(self) -> str:
        seats = sum(t.humans + t.bots for t in self.tables)
        gotown = sum(1 for t in self.tables if t.game == "gotown")
        return (f"{self.humans + self.spectators} sessions: {self.humans} players and "
                f"{self.spectators} spectators at {len(self.tables)} tables "
                f"({gotown} of them GoTown; {seats} seats, {seats - self.humans} bots)")


def seat(mix: Mix, sessions: int) -> Plan:
    """Tables for ``sessions`` clients, in the mix's sizes, until all are seated.

    Spectators count as sessions. The last table may be smaller; a lone
    human left over with no bot to play watches the first table instead.
    """
    plan = Plan(mix)
    left = sessions
    i = 0
    while left > 0:
        size = mix.sizes[i % len(mix.sizes)]
        humans = min(size - mix.bots, left)
        if humans + mix.bots < 2:
            if not plan.tables:
                raise MixError(f"--sessions {sessions}: too few to seat a table without bots")
            plan.tables[0].spectators += left
            break
        left -= humans
        # one at every other table for 0.5: the count of tables so far decides
        watchers = min(int((i + 1) * mix.spectators) - int(i * mix.spectators), left)
        left -= watchers
        gotown = int((i + 1) * mix.gotown) > int(i * mix.gotown) and humans + mix.bots <= 4
        plan.tables.append(TablePlan(f"LT{i:03d}", humans, mix.bots, watchers,
                                     "gotown" if gotown else "fivetowers"))
        i += 1
    return plan
