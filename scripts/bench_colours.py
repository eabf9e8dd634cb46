"""CPU of the colour rewrite for a client terminal without 24-bit colour
(fivetowers/server/colours.py), per frame of a fixed size.

    python scripts/bench_colours.py [--escapes 600] [--colours 60]

Builds a frame of ``--escapes`` colour escapes (``--colours`` distinct
ones, each a foreground and background in 24-bit colour, as Textual writes
them) between short runs of text, and prints the CPU time to rewrite it for
a 256-colour terminal (the load test's clients), best of five rounds of 200,
beside the rewrite as it was: the per-code function called for every escape.
"""

from __future__ import annotations

import argparse
import functools
import random
import re
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.color import ColorSystem  # noqa: E402

from fivetowers.server import colours  # noqa: E402

SGR = re.compile(r"\x1b\[([0-9;]*)m")
per_code = functools.lru_cache(maxsize=8192)(colours._rewrite)


def one_by_one(data: str, system: ColorSystem | None) -> str:
    return SGR.sub(lambda match: per_code(match.group(1), system), data)


def cpu_us(rewrite: Callable[[str, ColorSystem | None], str], frame: str) -> float:
    rounds = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(200):
            rewrite(frame, ColorSystem.EIGHT_BIT)
        rounds.append((time.process_time() - start) / 200 * 1e6)
    return min(rounds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--escapes", type=int, default=600)
    parser.add_argument("--colours", type=int, default=60)
    args = parser.parse_args()
    rng = random.Random(1)
    styles = [f"38;2;{rng.randrange(256)};{rng.randrange(256)};{rng.randrange(256)};48;2;18;18;18"
              for _ in range(args.colours)]
    frame = "".join(f"\x1b[{rng.choice(styles)}m" + "x" * rng.randint(1, 12)
                    for _ in range(args.escapes))
    assert colours.downgrade(frame, ColorSystem.EIGHT_BIT) == one_by_one(frame, ColorSystem.EIGHT_BIT)
    old, new = cpu_us(one_by_one, frame), cpu_us(colours.downgrade, frame)
    print(f"{len(frame)} characters, {args.escapes} escapes, 256 colours: "
          f"{new:.0f} us CPU a frame (one by one: {old:.0f} us, {new / old:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
