"""What the worker pool did: every bot move and hint it was asked for, timed.

Kept by :class:`~fivetowers.tables.workers.Workers` (a bounded record of the
latest jobs) so that a load test can say how the bots fared under load: how
long a bot's move took from being asked to being answered against its
budget, how much of it was spent waiting for a worker, the CPU it thought
and the deals its search played, and how many moves were made by the late
bot (the worker took the job after its ceiling) or the quick bot (no worker
answered at all); and how long hints waited.
"""

from __future__ import annotations

from collections import deque
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Iterable

KEPT = 2_000
"""Jobs of each kind remembered at the most; the oldest are forgotten. Only
tests and benchmarks read the record, and the load test drains it to disk
as it goes (:meth:`PoolStats.drain`), so a server keeps the last few
minutes (at 100 sessions the realistic mix makes about 560 bot moves and
660 hint jobs a minute). A bot move (with its CPU and deals) and a hint job
cost about 420 bytes together (slots), so 0.8 MiB at the most; when it
kept 26,000 of each, filling it grew a server by about a quarter of a MiB a
minute for its first 40 minutes at 100 sessions."""
MIB_KEPT_AT_MOST = 1
"""What a full record may cost (tests/tables/test_pool_stats_memory.py)."""


@dataclass(frozen=True, slots=True)
class BotMove:
    role: str
    """"bot": a table's bot seat (stand-ins too); "advice": the adviser
    thinking for a human's hint panel."""
    bot: str
    budget: float
    asked: float
    """``time.monotonic()`` when the move was asked for (one clock for every
    process of the machine)."""
    waited: float
    """Seconds from asked to a worker starting on it (the queue)."""
    took: float
    """Seconds from asked to the answer."""
    how: str
    """"thought" (the bot itself), "late" (its worker took the job after its
    ceiling: the game's late bot answered) or "quick" (no worker answered
    within the ceiling plus margin: the quick bot moved on the serving process)."""
    cpu: float | None = None
    """CPU seconds its worker thread spent on it (None: the quick bot's)."""
    searched: int | None = None
    """The deals its search played (5 Towers' worlds, GoTown's deals), for a
    bot that says."""


@dataclass(frozen=True, slots=True)
class HintJob:
    asked: float
    waited: float
    took: float
    cpu: float | None = None
    """CPU seconds its worker thread spent on it."""
    game: str = ""
    """Whose hint: the game its hinter is of ("five_towers", "gotown")."""


@dataclass
class PoolStats:
    moves: deque[BotMove] = field(default_factory=lambda: deque(maxlen=KEPT))
    hints: deque[HintJob] = field(default_factory=lambda: deque(maxlen=KEPT))
    hints_known: int = 0
    """Hint asks answered from the cache at once."""
    hints_joined: int = 0
    """Hint asks that waited for the same position's job already in flight."""
    dropped: dict[str, int] = field(default_factory=dict)
    """Jobs dropped before a worker took them, by what they were ("hint",
    "bot", "advice"): nobody waited for them any more."""

    def drop(self, what: str) -> None:
        self.dropped[what] = self.dropped.get(what, 0) + 1

    def drain(self) -> PoolStats:
        """What was recorded since the last drain, leaving this record empty
        (its jobs, counts and drops start again from nothing). O(1), so the
        serving loop may call it; the chunks' ``to_json()`` together are the
        whole run for :func:`summarise`, each job and count in one chunk."""
        chunk, empty = replace(self), PoolStats()  # every field, one added later too
        for kept in fields(self):
            setattr(self, kept.name, getattr(empty, kept.name))
        return chunk

    def to_json(self) -> dict[str, Any]:
        return {"moves": [asdict(m) for m in self.moves],
                "hints": [asdict(h) for h in self.hints],
                "hints_known": self.hints_known, "hints_joined": self.hints_joined,
                "dropped": dict(self.dropped)}


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (NaN if none): the pool report's."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _had(move: BotMove) -> float:
    """What ``move``'s bot had to think: the CPU it spent."""
    return (move.cpu or 0.0) if move.how == "thought" else 0.0


def summarise(stats: Iterable[dict[str, Any]], since: float = -float("inf"),
              until: float = float("inf")) -> dict[str, Any]:
    """Figures over the pools' ``to_json()`` (several servers'), for jobs
    asked from ``since`` to ``until``: per role and bot, moves, ask-to-answer and
    queue times (p50/p99/max, seconds), how many went over budget, the time
    it had to think (the CPU it spent; in records without it, what was left
    of the budget after the queue; p50, p10; the late and quick bots' moves
    count 0) and how many moves had at least 95% of the budget, the deals
    its search played (p50, p10 of the moves it thought that searched,
    where the bot says), and how many the late and quick bots made; for hints, jobs and their times
    (the asks answered from the cache or joining a job in flight: over the
    whole run)."""
    stats = list(stats)
    moves = [BotMove(**m) for s in stats for m in s["moves"]
             if since <= m["asked"] <= until]
    hints = [HintJob(**h) for s in stats for h in s["hints"]
             if since <= h["asked"] <= until]
    out: dict[str, Any] = {}
    for role, bot in sorted({(m.role, m.bot) for m in moves}):
        mine = [m for m in moves if m.role == role and m.bot == bot]
        took, waited = [m.took for m in mine], [m.waited for m in mine]
        had = [_had(m) for m in mine]
        # Decisions that searched: a forced play, a win or a rule's play
        # (GoTown's greedy+ steal) searches nothing and says 0.
        searched = [float(m.searched) for m in mine if m.how == "thought"
                    and m.searched]
        out[f"{role} {bot}"] = {
            "moves": len(mine), "budget_s": max(m.budget for m in mine),
            "took_p50": pct(took, 0.5), "took_p99": pct(took, 0.99), "took_max": max(took),
            "over_budget": sum(m.took > m.budget for m in mine),
            "waited_p50": pct(waited, 0.5), "waited_p99": pct(waited, 0.99),
            "had_p50": pct(had, 0.5), "had_p10": pct(had, 0.1),
            "full_budget": sum(h >= 0.95 * m.budget for h, m in zip(had, mine)),
            "searched_p50": pct(searched, 0.5), "searched_p10": pct(searched, 0.1),
            "late": sum(m.how == "late" for m in mine),
            "quick": sum(m.how == "quick" for m in mine)}
    out["hints"] = {
        "computed": len(hints), "known": sum(s["hints_known"] for s in stats),
        "joined": sum(s["hints_joined"] for s in stats),
        "took_p50": pct([h.took for h in hints], 0.5),
        "took_p99": pct([h.took for h in hints], 0.99),
        "waited_p50": pct([h.waited for h in hints], 0.5),
        "waited_p99": pct([h.waited for h in hints], 0.99)}
    dropped: dict[str, int] = {}
    for s in stats:
        for what, n in s.get("dropped", {}).items():
            dropped[what] = dropped.get(what, 0) + n
    out["dropped"] = dropped
    out["cpu"] = cpu_by_job(moves, hints)
    return out


def _job_kind(move: BotMove) -> str:
    """What a bot move was, for the CPU shares: "five_towers bot" (a table's
    bot seat, any kind), "gotown advice" (the adviser for a hint panel)..."""
    game = move.bot.split(" ")[0] if " " in move.bot else move.bot
    return f"{game} {move.role}"


def cpu_by_job(moves: list[BotMove], hints: list[HintJob]) -> dict[str, dict[str, float]]:
    """The workers' CPU per kind of job (a game's bot moves, its advice, its
    hints): jobs, CPU seconds in all, per job p50/p90, and the share of the
    workers' CPU that the jobs recorded spent."""
    spent: dict[str, list[float]] = {}
    for m in moves:
        if m.cpu is not None:
            spent.setdefault(_job_kind(m), []).append(m.cpu)
    for h in hints:
        if h.cpu is not None:
            spent.setdefault(f"{h.game or '?'} hint", []).append(h.cpu)
    everything = sum(sum(c) for c in spent.values()) or 1.0
    return {kind: {"jobs": len(c), "cpu_s": sum(c), "cpu_p50": pct(c, 0.5),
                   "cpu_p90": pct(c, 0.9), "share": sum(c) / everything}
            for kind, c in sorted(spent.items())}
