"""How often deleting a crashed store's ``-wal`` costs something.

    .venv/bin/python scripts/stress_deleted_wal.py [--runs 100] [--kills 6] [--seed 1000]

Each run is a fresh store that a writer (tests/tables/store_kill_writer.py)
fills with random games and is SIGKILLed at random moments, ``--kills``
times, as in tests/tables/test_store_kill.py; after each kill the ``-wal``
and ``-shm`` files are deleted and the store opened. Every write is
checkpointed into the main file before it returns, so a kill between two
writes loses nothing (the test shows it); a kill inside a checkpoint can
leave the main file torn, which only the deleted ``-wal`` would have mended.
A run ends at its first damage. Counted:

- *kept*: the store opened holding every acknowledged action;
- *refused*: the store would not open (damaged), in one line;
- *lost*: it opened but lacked acknowledged actions (silent loss).

The ratio is per kill: how often the operator's cleanup costs something.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fivetowers.tables.sqlite_store import SqliteStore  # noqa: E402
from fivetowers.tables.store import STORE_FILE, StoreError  # noqa: E402
from tests.tables.test_store_kill import run_and_kill  # noqa: E402


def one_run(seed: int, kills: int) -> tuple[str, int]:
    """The run's end ('kept', 'refused' or 'lost') and the kills it took."""
    with tempfile.TemporaryDirectory() as name:
        data_dir = Path(name)
        rng = random.Random(seed)
        reported: dict[int, int] = {}
        for kill in range(1, kills + 1):
            for line in run_and_kill(data_dir, rng):
                kind, table, *rest = line.split()
                if kind == "A":
                    reported[int(table)] = int(rest[0]) + 1
            for suffix in ("-wal", "-shm"):
                (data_dir / (STORE_FILE + suffix)).unlink(missing_ok=True)
            try:
                store = SqliteStore(data_dir / STORE_FILE)
            except StoreError as exc:
                print(f"  run {seed}, kill {kill}: refused: {exc}")
                return "refused", kill
            try:
                short = [t for t, count in reported.items()
                         if store.load_table(t).info.actions < count]
            finally:
                store.close()
            if short:
                print(f"  run {seed}, kill {kill}: tables {short} lost acknowledged actions")
                return "lost", kill
        return "kept", kills


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    ends = {"kept": 0, "refused": 0, "lost": 0}
    kills = 0
    for seed in range(args.seed, args.seed + args.runs):
        end, taken = one_run(seed, args.kills)
        ends[end] += 1
        kills += taken
    print(f"{args.runs} runs, {kills} kills at random moments, each followed by "
          "deleting the -wal and -shm")
    for end in ("refused", "lost"):
        print(f"  {end}: {ends[end]} ({ends[end] / kills:.2%} of kills)")
    print(f"  runs kept whole: {ends['kept']} of {args.runs}")


if __name__ == "__main__":
    main()
