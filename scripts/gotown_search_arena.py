"""Play GoTown's strong bot with a fixed number of deals a decision against
greedy bots: how the strong bot's search design was chosen, in figures that
do not depend on the machine's load (the clock plays no part).

    python scripts/gotown_search_arena.py --deals 60 --games 400 --seed 1
    python scripts/gotown_search_arena.py --deals 60 --design rounds=4,sure=1.0
    python scripts/gotown_search_arena.py --deals 30 --players 4 --games 200
    python scripts/gotown_search_arena.py --design stealer=0.5 --wins-to b.txt
    python scripts/gotown_search_arena.py --paired a.txt b.txt
    python scripts/gotown_search_arena.py --deals 60 --games 100 --departures 100
    python scripts/gotown_search_arena.py --deals 60 --games 200 --peek hands
    python scripts/gotown_search_arena.py --rate 1000 --overhead 0.5 --bank 1 --design most=0

The games, their seeds, seats and the bots' random numbers are those of
``fivetowers tournament --game gotown --bots strong,greedy`` with the same
seed; only the strong bot is built here, as ``StrongBot(simulations=DEALS)``
with its :class:`~fivetowers.games.gotown.strong.Search` at the table's
size changed by ``--design`` (``field=value,...``). Prints the win rate with
its 95% Wilson interval, and the mean deals and playouts a searched decision
made. Two designs agree on most games, so ``--wins-to`` keeps each game's
outcome and ``--paired`` compares two such files on their common games: the
games only one design won, and the sign test's p on those.

``--rate R`` plays the strong bot under the clock instead (``--clock``
seconds a move, its time bank capped at ``--bank`` budgets), on a model
clock that moves ``1/R`` s a deal of its search and ``--overhead`` deals'
worth a decision for the rest of its work: the deals the clock would give
each decision on a machine making ``R`` deals a second, free of this one's
load. Every run also prints how the strong bot's moves ended (a single
play, a win, greedy+'s steal, short of ``MIN_DEALS``, searched...), the
deals its searches made and the time they were allowed, in budgets.

``--departures K`` judges the decisions at which the strong bot leaves
greedy+'s play, on the game's true state (the rival's real hand): from
each, K times, the draw pile shuffled anew (the same K shuffles for both
plays), the search's play and greedy+'s, then greedy+ for the strong bot's
seat and the greedy bot for the others to the game's end. It prints, by
the kind of departure (greedy+'s play's kind, then the search's), how many
there were and the mean of the wins it gained (the search's play won, less
greedy+'s) with its standard error: whether what the search changes wins.
With ``--by-hand`` each kind is split by the hand it was made with (3
cards or fewer, a dog held, 8 or more, else 4-7).

``--peek hands`` lets the search deal the rival's true hand (the draw pile
still shuffled) and ``--peek all`` the true draw pile too: not a bot, a
bound on what reading the hidden cards better could win.
"""

from __future__ import annotations

import argparse
import ast
import math
import random
import sys
import time
from dataclasses import fields, replace
from typing import Any, Callable

from fivetowers.games.gotown.bots import HOARD, GreedyBot
from fivetowers.games.gotown.draws import below, shuffle
from fivetowers.games.gotown.plus import plus_play
from fivetowers.games.gotown.rules import Action, Card, Game, IllegalPlay, PlayerView
from fivetowers.games.gotown.strong import (
    BANK_CAP, HEADS_UP_SEARCH, TABLE_SEARCH, WHYS, Search, StrongBot,
)
from fivetowers.games.gotown.tournament import MAX_ACTIONS
from fivetowers.games.tournament import lineup, play_all, play_out, wilson

Job = tuple[int, int, int, int, Search, float, int, float, float, float, str, bool]
"""seed, index, players, deals, design, clock, departures' continuations,
the model clock's deals a second (0: the fixed ``deals``), its overhead a
decision in deals, the bank's cap in budgets, what the search may peek at
(``--peek``: "", "hands" or "all"), whether departures are told apart by
the hand (``--by-hand``)"""
Outcome = tuple[int, bool, int, int, int, float, int, list[tuple[str, float, float]],
                dict[str, int], list[tuple[int, float]], float, int]


def design_from(text: str, base: Search) -> Search:
    """``base`` with the fields named in ``text`` (``rounds=4,sure=1.0``) changed."""
    names = {f.name for f in fields(Search)}
    design = base
    for part in filter(None, text.split(",")):
        key, _, value = part.partition("=")
        if key not in names:
            raise SystemExit(f"unknown design field {key!r}: expected one of "
                             f"{', '.join(sorted(names))}")
        kind = type(getattr(base, key))
        design = replace(design, **{key: kind(ast.literal_eval(value))})
    return design


class ModelClock:
    """A clock that moves only when the strong bot deals: ``1 / rate`` seconds
    a deal of its search, and ``overhead`` deals' worth when a decision gets
    past the plays made at once (its dealer, greedy+'s play, the
    candidates). Under it a decision gets the deals a machine making
    ``rate`` deals a second would give it, whatever this machine's load."""

    def __init__(self, rate: float, overhead: float) -> None:
        self.step, self.overhead = 1.0 / rate, overhead / rate
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Counting(StrongBot):
    """The strong bot, counting the deals and playouts of its searches, their
    CPU time, and how many of them would see ``min_deals`` deals within
    ``clock`` seconds a move at that CPU cost a deal (what the tournament's
    clock lets search). The CPU a deal counts the decision's work before its
deals too (dealer, greedy+'s play, the candidates), so it is a little high."""

    def __init__(self, clock: float, min_deals: int, game: Game | None = None,
                 continuations: int = 0, model: ModelClock | None = None,
                 peek: str = "", by_hand: bool = False, **options: Any) -> None:
        super().__init__(**options)
        self.peek, self.by_hand = peek, by_hand
        self.clock, self.min_deals = clock, min_deals
        self.model = model
        if model is not None:
            self.timer = model
        self.whys: dict[str, int] = {}  # decisions by how they ended (strong.WHYS)
        self.searches: list[tuple[int, float]] = []  # each search's deals and allowance in budgets
        self.unsearched_cpu, self.unsearched = 0.0, 0  # decisions with a dealer and no deals
        self.decisions_searched = self.deals_made = self.playouts_made = self.in_time = 0
        self.cpu = 0.0
        self.game, self.continuations = game, continuations
        self.greedy: Action | None = None  # greedy+'s play at the last decision
        self.departures: list[tuple[str, float, float]] = []  # kind, wins gained, squared

    def default(self, view: PlayerView, dealer: Any, rng: random.Random) -> Action:
        if self.peek and self.game is not None:
            dealer.deal = peeking(self.game, self.peek)
        self.greedy = super().default(view, dealer, rng)
        model = self.model
        if model is not None:  # the decision's own work, then each deal of its search
            model.now += model.overhead
            deal = dealer.deal

            def ticking(rng: random.Random) -> Game:
                model.now += model.step
                return deal(rng)  # type: ignore[no-any-return]
            dealer.deal = ticking
        return self.greedy

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        self.deals = self.playouts = 0
        self.greedy = None
        started = time.process_time()
        action = super().choose(view, rng)
        spent = time.process_time() - started  # the search's own, before any judging
        self.whys[self.why] = self.whys.get(self.why, 0) + 1
        if self.why in ("steal", "alone"):  # past the plays made at once, no deals
            self.unsearched_cpu += spent
            self.unsearched += 1
        if self.deals:
            self.searches.append((self.deals, self.allowance / self.time_per_move))
        if self.continuations and self.game is not None and self.greedy is not None \
                and action != self.greedy:
            kind = f"{type(self.greedy).__name__}->{type(action).__name__}"
            if self.by_hand:
                kind += f" {hand_class(view)}"
            self.departures.append((kind, *judge(self.game, view, self.greedy, action,
                                                 self.continuations)))
        if self.deals > 1:
            self.decisions_searched += 1
            self.deals_made += self.deals
            self.playouts_made += self.playouts
            self.cpu += spent
            self.in_time += spent / self.deals * self.min_deals <= self.clock
        return action


def peeking(game: Game, peek: str) -> Callable[[random.Random], Game]:
    """A dealer's ``deal`` that deals the truth: ``game`` as it is, its draw
    pile shuffled again unless ``peek`` is "all" (and the thieves' and
    reshuffles' draws seeded anew either way)."""
    def deal(rng: random.Random) -> Game:
        board = game.clone()
        if peek != "all":
            shuffle(rng, board.draw)
        board.seed = below(rng, 1 << 30)
        return board
    return deal


def hand_class(view: PlayerView) -> str:
    """The hand at a departure, as ``--by-hand`` tells them apart."""
    size = len(view.hand)
    if size <= 3:
        return "hand<=3"
    if size >= HOARD:
        return "hand8+"
    return "dog" if Card.DOG in view.hand else "hand4-7"


def judge(game: Game, view: PlayerView, greedy: Action, chosen: Action,
          continuations: int) -> tuple[float, float]:
    """The mean and mean square of the wins ``chosen`` gains over ``greedy``
    from ``game``'s true state, over ``continuations`` shuffles of its draw
    pile (see the module's docstring)."""
    me = view.seat
    assert me is not None
    rival = GreedyBot()
    total = squares = 0.0
    for k in range(continuations):
        won = []
        for play in (chosen, greedy):
            rng = random.Random(k)
            board = game.clone()
            rng.shuffle(board.draw)
            board.seed = rng.randrange(1 << 30)
            board.apply(play)
            for _ in range(MAX_ACTIONS):
                if board.over:
                    break
                seat = board.to_move
                assert seat is not None
                board.apply(plus_play(board, rng) if seat == me
                            else rival.choose(board.view(seat), rng))
            won.append(float(me in board.winners))
        total += won[0] - won[1]
        squares += (won[0] - won[1]) ** 2
    return total / continuations, squares / continuations


def play(job: Job) -> Outcome:
    """Game ``index``: its index, whether the strong bot won, and its search
    counts (decisions, deals, playouts, CPU seconds, decisions in time)."""
    seed, index, players, deals, design, clock, continuations, rate, overhead, bank, peek, \
        by_hand = job
    seats = lineup(("strong", "greedy"), players, index)
    game_seed = seed * 1_000_003 + index  # as the tournament seeds its games
    game = Game([f"{name}-{s}" for s, name in enumerate(seats)], 5, seed=game_seed)
    # the clock's bar: the heads-up design's min_deals (at more seats, any deal)
    bar = max(design.min_deals, 1) if players == 2 else 1
    model = ModelClock(rate, overhead) if rate else None
    timing: dict[str, Any] = {"simulations": None, "time_per_move": clock, "bank_cap": bank} \
        if model else {"simulations": deals}
    strong = Counting(clock, bar, game, continuations, model, peek, by_hand, heads_up=design,
                      table=design, **timing) if players == 2 \
        else Counting(clock, bar, game, continuations, model, peek, by_hand, table=design,
                      **timing)
    bots = [strong if name == "strong" else GreedyBot() for name in seats]
    play_out(game, lambda: game.over, seats, bots, game_seed, index, refused=IllegalPlay,
             max_actions=MAX_ACTIONS)
    won = any(seats[w] == "strong" for w in game.winners)
    return (index, won, strong.decisions_searched, strong.deals_made, strong.playouts_made,
            strong.cpu, strong.in_time, strong.departures, strong.whys, strong.searches,
            strong.unsearched_cpu, strong.unsearched)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0,
                        help="the first game's index (to extend a run: --first 200)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--design", default="", help="Search fields to change")
    parser.add_argument("--clock", type=float, default=0.05,
                        help="the time per move to forecast the searched decisions at")
    parser.add_argument("--rate", type=float, default=0.0, metavar="R",
                        help="the clock instead of --deals: a model clock of R deals a second "
                             "(free of this machine's load), --clock seconds a move")
    parser.add_argument("--overhead", type=float, default=0.0, metavar="D",
                        help="with --rate: a decision's work besides its deals, in deals")
    parser.add_argument("--bank", type=float, default=BANK_CAP, metavar="CAP",
                        help="with --rate: the bank's cap in budgets (1: no bank)")
    parser.add_argument("--wins-to", metavar="FILE",
                        help="write each game's index and 1/0 (strong won) to FILE, one a line, "
                             "to pair two designs game by game (--paired)")
    parser.add_argument("--departures", type=int, default=0, metavar="K",
                        help="judge each decision that leaves greedy+'s play by K "
                             "continuations of the true state (see the docstring)")
    parser.add_argument("--by-hand", action="store_true",
                        help="with --departures: tell them apart by the hand too (3 cards or "
                             "fewer, a dog held, 8 or more, else 4-7)")
    parser.add_argument("--peek", choices=("hands", "all"), default="",
                        help="let the search deal the true hidden cards: the rival's hand "
                             "(the draw pile still shuffled) or everything (a bound, not a bot)")
    parser.add_argument("--paired", nargs=2, metavar=("A", "B"),
                        help="compare two --wins-to files on their common games and exit")
    args = parser.parse_args()
    if args.paired:
        print(paired(*(read_wins(path) for path in args.paired)))
        return
    base = HEADS_UP_SEARCH if args.players == 2 else TABLE_SEARCH
    design = design_from(args.design, base)
    jobs = [(args.seed, i, args.players, args.deals, design, args.clock, args.departures,
             args.rate, args.overhead, args.bank, args.peek, args.by_hand)
            for i in range(args.first, args.first + args.games)]
    whys: dict[str, int] = {}
    searches: list[tuple[int, float]] = []
    unsearched_cpu, unsearched = 0.0, 0
    wins = searched = deals = playouts = in_time = 0
    cpu = 0.0
    start = time.process_time()
    wall = time.perf_counter()
    outcomes: list[tuple[int, bool]] = []
    departures: list[tuple[str, float, float]] = []
    for index, won, s, d, p, c, t, judged, w, ss, uc, u in play_all(play, jobs, args.workers):
        departures.extend(judged)
        for why, count in w.items():
            whys[why] = whys.get(why, 0) + count
        searches.extend(ss)
        unsearched_cpu, unsearched = unsearched_cpu + uc, unsearched + u
        wins += won
        outcomes.append((index, won))
        searched, deals, playouts = searched + s, deals + d, playouts + p
        cpu, in_time = cpu + c, in_time + t
    low, high = wilson(wins, args.games)
    per = max(searched, 1)
    print(f"deals {args.deals} {args.design or 'default'} ({design}) players {args.players} "
          f"seed {args.seed} games {args.first}-{args.first + args.games - 1}: strong won {wins}/{args.games} = {wins / args.games:.1%} "
          f"[{low:.1%}-{high:.1%}]; searched decisions {searched / args.games:.1f} a game, "
          f"{deals / per:.1f} deals and {playouts / per:.1f} playouts each, "
          f"{cpu / max(deals, 1) * 1000:.2f} ms CPU a deal (busy shared machine): "
          f"{args.clock / max(cpu / max(deals, 1), 1e-9):.0f} deals in {args.clock} s, "
          f"{in_time / per:.0%} of searched decisions would see "
          f"{max(design.min_deals, 1) if args.players == 2 else 1} in it; "
          f"{time.perf_counter() - wall:.0f} s wall (busy shared machine), "
          f"parent CPU {time.process_time() - start:.1f} s")
    print(clock_report(whys, searches, args.games, design.min_deals if args.players == 2 else 0,
                       unsearched_cpu / max(unsearched, 1), cpu / max(deals, 1)))
    if args.departures:
        print(departures_table(departures, args.departures))
    sys.stdout.flush()
    if args.wins_to:
        with open(args.wins_to, "w", encoding="utf-8") as out:
            out.writelines(f"{index} {int(won)}\n" for index, won in outcomes)


def clock_report(whys: dict[str, int], searches: list[tuple[int, float]], games: int,
                 min_deals: int, unsearched_cpu: float, deal_cpu: float) -> str:
    """What the clock did: the strong bot's moves a game by how they ended
    (strong.WHYS), the deals its searches made (mean, p10, p50; those short
    of ``min_deals``), and the time they were allowed, in budgets."""
    moves = sum(whys.values())
    parts = ", ".join(f"{why} {whys.get(why, 0) / games:.1f}" for why in WHYS if whys.get(why))
    lines = [f"moves a game {moves / games:.1f}: {parts}"]
    if searches:
        dealt = sorted(d for d, _ in searches)
        allowed = sorted(a for _, a in searches)
        n = len(dealt)
        lines.append(
            f"decisions that dealt {n / games:.1f} a game: deals mean {sum(dealt) / n:.1f}, "
            f"p10 {dealt[n // 10]}, p50 {dealt[n // 2]}, p90 {dealt[9 * n // 10]}; "
            f"{sum(d < min_deals for d in dealt) / n:.1%} short of {min_deals}; "
            f"allowed (budgets) mean {sum(allowed) / n:.2f}, p50 {allowed[n // 2]:.2f}, "
            f"max {allowed[-1]:.2f}")
    lines.append(f"CPU of a decision past the plays made at once that deals nothing "
                 f"{unsearched_cpu * 1000:.2f} ms, of a deal {deal_cpu * 1000:.2f} ms "
                 f"(busy shared machine): overhead about "
                 f"{unsearched_cpu / max(deal_cpu, 1e-9):.1f} deals")
    return "\n".join(lines)


def departures_table(departures: list[tuple[str, float, float]], continuations: int) -> str:
    """By kind (and all together), how many departures there were and the
    mean wins they gained with its standard error (each departure's mean of
    ``continuations`` counts as one sample; its own noise is part of the spread)."""
    kinds: dict[str, list[float]] = {}
    for kind, gained, _ in departures:
        kinds.setdefault(kind, []).append(gained)
        kinds.setdefault("all", []).append(gained)
    lines = [f"departures judged by {continuations} continuations each:"]
    for kind, gains in sorted(kinds.items(), key=lambda item: -len(item[1])):
        n = len(gains)
        mean = sum(gains) / n
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(n - 1, 1) / n)
        lines.append(f"  {kind:28} {n:5} departures, wins gained {mean:+.3f} (se {spread:.3f})")
    return "\n".join(lines)


def read_wins(path: str) -> dict[int, bool]:
    """A ``--wins-to`` file: game index to whether the strong bot won."""
    wins: dict[int, bool] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            index, won = line.split()
            wins[int(index)] = won == "1"
    return wins


def paired(a: dict[int, bool], b: dict[int, bool]) -> str:
    """Two designs on the same games: their win rates, the games only one of
    them won, and the two-sided sign test's p on those (exact binomial)."""
    common = sorted(a.keys() & b.keys())
    if not common:
        return "no games in common"
    only_a = sum(a[i] and not b[i] for i in common)
    only_b = sum(b[i] and not a[i] for i in common)
    n = only_a + only_b
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2 ** n if n else 1.0
    return (f"{len(common)} games: A won {sum(a[i] for i in common)}, B {sum(b[i] for i in common)}; "
            f"only A {only_a}, only B {only_b}; sign test p = {min(1.0, 2 * tail):.3f}")


if __name__ == "__main__":
    main()
