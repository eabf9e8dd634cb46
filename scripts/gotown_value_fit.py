"""Fit GoTown's learned horizon value (fivetowers/games/gotown/value.py).

    python scripts/gotown_value_fit.py --games 8000 --seed 1 --workers 2 --write

Plays games from random seeds (2–4 players, a fifth of them the short game;
``--greedy`` of them with the greedy bot in one seat, the rest greedy+ at
every seat, as the strong bot's playouts play), keeps each turn boundary
with chance ``--every``, and records every seat's
:func:`~fivetowers.games.gotown.value.features` there with whether that seat
won in the end (a shared win as its share). Fits a logistic regression by
Newton's method (a little ridge) on the games not held out (every fifth game
is), and prints, on the held-out games, its log loss and accuracy beside the
strong bot's hand-made score (:func:`~fivetowers.games.gotown.strong.score`,
given the same chance to be calibrated: a logistic fit of its one number):
the log loss per seat, and how often the seat each ranks first is the
winner; and the same for the weights value.py holds now (fitted on the games
of greedy+ as it was then), to see what a refit gains. ``--write`` puts the
weights and this command line into value.py.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import textwrap
import sys
import time
from pathlib import Path

from fivetowers.games.gotown import value
from fivetowers.games.gotown.bots import GreedyBot
from fivetowers.games.gotown.plus import plus_play
from fivetowers.games.gotown.rules import Game
from fivetowers.games.gotown.strong import TABLE_SEARCH, score
from fivetowers.games.gotown.tournament import MAX_ACTIONS
from fivetowers.games.tournament import play_all

Job = tuple[int, int, float, float, tuple[int, ...]]  # seed, index, every, greedy share, sizes
Sample = tuple[int, int, list[float], float, float]  # game, state, features, formula, won
MODULE = Path(__file__).resolve().parent.parent / "fivetowers" / "games" / "gotown" / "value.py"


def play(job: Job) -> list[Sample]:
    """One game's samples: at each kept turn boundary, every seat's features,
    its hand-made score and (filled in at the end) its share of the win."""
    seed, index, every, greedy_share, sizes = job
    rng = random.Random(seed * 1_000_003 + index)
    players = rng.choice(sizes)
    floors = 4 if rng.random() < 0.2 else 5
    game = Game([f"p{s}" for s in range(players)], floors, seed=rng.randrange(1 << 30))
    greedy_seat = rng.randrange(players) if rng.random() < greedy_share else -1
    greedy = GreedyBot()
    rows: list[tuple[int, int, list[float], float]] = []
    states = actions = 0
    turn = game.turn
    while not game.over and actions < MAX_ACTIONS:
        seat = game.to_move
        assert seat is not None
        if seat == greedy_seat:
            game.apply(greedy.choose(game.view(seat), rng))
        else:
            game.apply_trusted(plus_play(game, rng))
        actions += 1
        if not game.over and game.turn != turn:
            turn = game.turn
            if rng.random() < every:
                for s in range(players):
                    rows.append((states, s, value.features(game, s), score(game, s, TABLE_SEARCH)))
                states += 1
    if not game.over:
        return []
    return [(index, state, x, formula, 1.0 / len(game.winners) if s in game.winners else 0.0)
            for state, s, x, formula in rows]


def fit(xs: list[list[float]], ys: list[float], ridge: float = 1.0,
        steps: int = 8) -> list[float]:
    """Logistic regression by Newton's method (ridge on all but the bias)."""
    size = len(xs[0])
    w = [0.0] * size
    nonzero = [[(j, v) for j, v in enumerate(x) if v] for x in xs]
    for _ in range(steps):
        grad = [ridge * w[j] if j else 0.0 for j in range(size)]
        hess = [[(ridge if i == j and i else 0.0) for j in range(size)] for i in range(size)]
        for sparse, y in zip(nonzero, ys):
            z = sum(w[j] * v for j, v in sparse)
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            err, curve = p - y, max(p * (1.0 - p), 1e-9)
            for a, (i, vi) in enumerate(sparse):
                grad[i] += err * vi
                row = hess[i]
                cv = curve * vi
                for j, vj in sparse[a:]:
                    row[j] += cv * vj
        for i in range(size):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-4:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a``⁻¹ ``b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(m[r][r]) < 1e-12:
            continue
        out[r] = (m[r][n] - sum(m[r][c] * out[c] for c in range(r + 1, n))) / m[r][r]
    return out


def chance(w: list[float], x: list[float]) -> float:
    z = sum(a * b for a, b in zip(w, x))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


_TWO_PLAYERS = value.NAMES.index("two_players")


def shipped_chance(x: list[float]) -> float:
    """The chance value.py's weights (as they were when this run started) give
    features ``x``, picked by table size as :func:`~value.win_chance` picks them."""
    weights = value.HEADS_UP_WEIGHTS if x[_TWO_PLAYERS] else value.WEIGHTS
    return chance(list(weights), x)


def log_loss(ps: list[float], ys: list[float]) -> float:
    eps = 1e-9
    return -sum(y * math.log(max(p, eps)) + (1 - y) * math.log(max(1 - p, eps))
                for p, y in zip(ps, ys)) / max(len(ys), 1)


def first_right(samples: list[Sample], ps: list[float]) -> float:
    """How often the seat ranked first at a state is a winner."""
    best: dict[tuple[int, int], tuple[float, float]] = {}
    for (game, state, _, _, won), p in zip(samples, ps):
        key = (game, state)
        if key not in best or p > best[key][0]:
            best[key] = (p, won)
    return sum(1 for _, won in best.values() if won > 0) / max(len(best), 1)


def report(name: str, samples: list[Sample], ps: list[float]) -> str:
    ys = [s[4] for s in samples]
    return (f"{name}: log loss {log_loss(ps, ys):.4f}, first-ranked seat won "
            f"{first_right(samples, ps):.1%}")


def write(weights: list[float], fitted_by: str, heads_up: bool) -> None:
    """Put ``weights`` into value.py: :data:`HEADS_UP_WEIGHTS` (fitted on
    games of two) or :data:`WEIGHTS`, each after its ``FITTED_BY``."""
    text = MODULE.read_text(encoding="utf-8")
    prefix = "HEADS_UP_" if heads_up else ""
    lines = textwrap.wrap(fitted_by, 80, drop_whitespace=False)
    block = (f"{prefix}FITTED_BY = (\n" + "".join(f"    {line!r}\n" for line in lines) + ")\n"
             f'"""The command line that fitted :data:`{prefix}WEIGHTS`, and the data it saw."""\n'
             f"{prefix}WEIGHTS: tuple[float, ...] = (\n"
             + "".join(f"    {w:.4f},  # {n}\n" for w, n in zip(weights, value.NAMES))
             + ")\n" + ('"""One weight per feature of :data:`NAMES`, '
                        'fitted on games of two."""\n\n\n' if heads_up else
                        '"""One weight per feature of :data:`NAMES`, '
                        'fitted on games of 2–4."""\n'))
    pattern = r"^HEADS_UP_FITTED_BY = .*?(?=^FITTED_BY = )" if heads_up else r"^FITTED_BY = .*\Z"
    text, found = re.subn(pattern, lambda _: block, text, flags=re.S | re.M)
    if not found:
        raise SystemExit(f"{MODULE}: no FITTED_BY block to replace")
    MODULE.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=float, default=0.15,
                        help="the chance a turn boundary is kept")
    parser.add_argument("--greedy", type=float, default=0.25,
                        help="the share of games with the greedy bot in one seat")
    parser.add_argument("--players", default="2,2,3,4",
                        help="the table sizes to draw each game's from "
                             "(2 alone: the heads-up weights)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="write the weights into value.py")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    sizes = tuple(int(n) for n in args.players.split(","))
    if not all(2 <= n <= 4 for n in sizes):
        raise SystemExit(f"--players: table sizes are 2 to 4, not {args.players}")
    jobs = [(args.seed, i, args.every, args.greedy, sizes) for i in range(args.games)]
    samples = [s for rows in play_all(play, jobs, args.workers) for s in rows]
    train = [s for s in samples if s[0] % 5]
    held = [s for s in samples if not s[0] % 5]
    if not train or not held:
        raise SystemExit("too few samples to fit and test: play more --games")
    played = time.perf_counter() - started
    weights = fit([s[2] for s in train], [s[4] for s in train])
    formula = fit([[1.0, s[3]] for s in train], [s[4] for s in train], ridge=0.0)
    states = len({(s[0], s[1]) for s in samples})
    print(f"{args.games} games, {states} states, {len(samples)} seat samples "
          f"({len(train)} to fit, {len(held)} held out); played in {played:.0f} s, "
          f"fitted in {time.perf_counter() - started - played:.0f} s (busy shared machine)")
    learned = report("learned", held, [chance(weights, s[2]) for s in held])
    hand_made = report("hand-made score (calibrated)", held,
                       [chance(formula, [1.0, s[3]]) for s in held])
    before = report("weights before this fit", held, [shipped_chance(s[2]) for s in held])
    print("held out: " + learned)
    print("held out: " + before)
    print("held out: " + hand_made)
    print("train:    " + report("learned", train, [chance(weights, s[2]) for s in train]))
    for name, w in zip(value.NAMES, weights):
        print(f"  {name:18} {w:+.4f}")
    if args.write:
        command = "python scripts/gotown_value_fit.py " + " ".join(argv or sys.argv[1:])
        write(weights, f"{command}: {len(train)} seat samples from {states} states "
                       f"of {args.games} games (4 in 5 of them); on the rest, {learned}; "
                       f"{before}; {hand_made}", heads_up=set(sizes) == {2})
        print(f"wrote {MODULE}")


if __name__ == "__main__":
    main()
