"""The ``fivetowers`` command line.

Sub-commands import what they need when they run, so ``replay`` and ``hint``
start without loading textual (and ``replay`` without ortools).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence


def _die(message: str) -> int:
    print(f"fivetowers: {message}", file=sys.stderr)
    return 2


def _read_json(path: str) -> Any:
    """Read JSON from a path or ``-`` (stdin); ValueError with a one-line reason."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno} "
                         f"column {exc.colno}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    from fivetowers.rules.errors import FormatError
    from fivetowers.rules.record import Record, replay, result_json

    try:
        record = Record.from_json(_read_json(args.record))
        game, error = replay(record)
    except (ValueError, FormatError) as exc:
        return _die(f"{args.record}: {exc}")
    if error is not None:
        print(json.dumps({"error": {"action": error.action, "message": error.message}}))
        return 1
    print(json.dumps(result_json(game)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fivetowers",
        description="5 Towers (Kasper Lapp) in the terminal and over SSH.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("replay", help="replay a game record and print the result as JSON")
    p.add_argument("record", metavar="RECORD", help="a fivetowers-record/1 file, or - for stdin")
    p.set_defaults(func=cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        result: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
