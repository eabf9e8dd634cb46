"""The ``fivetowers`` command line.

Sub-commands import what they need when they run, so ``replay`` and ``hint``
start without loading textual (and ``replay`` without ortools).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from fivetowers.tables.client import TableClient


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
    return _loads(text, path)


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} "
                         f"column {exc.colno}") from None
    except RecursionError:
        raise ValueError(f"{where} is nested too deeply to be a record or a position") from None


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


def _hint_position(data: Any, seat: int | None, records: bool = True) -> Any:
    """The position to hint from a position, or a record and a seat (FORMATS.md).

    Raises ValueError with a one-line reason when the input is not usable.
    """
    from fivetowers.rules.position import POSITION_FORMAT, Position
    from fivetowers.rules.record import RECORD_FORMAT, Record, replay

    if not isinstance(data, dict):
        raise ValueError("a position must be a JSON object")
    kind = data.get("format")
    if kind == RECORD_FORMAT and not records:
        raise ValueError("a batch line must be a position, not a game record")
    if kind == RECORD_FORMAT:
        if seat is None:
            raise ValueError("this is a game record: give --seat N for the seat to hint")
        record = Record.from_json(data)
        if not 0 <= seat < len(record.players):
            raise ValueError(f"--seat {seat}: the record has seats 0..{len(record.players) - 1}")
        game, error = replay(record)
        if error is not None:
            raise ValueError(f"action {error.action} of the record is illegal: {error.message}")
        return Position.from_game(game, seat)
    if kind != POSITION_FORMAT:
        raise ValueError(f'unknown format {kind!r}: expected "{POSITION_FORMAT}" or '
                         f'"{RECORD_FORMAT}"')
    if seat is not None:
        raise ValueError("--seat is for a game record, and this is a position")
    return Position.from_json(data)


def cmd_hint(args: argparse.Namespace) -> int:
    """``hint POSITION``, ``hint RECORD --seat N`` or ``hint --batch FILE.jsonl``."""
    if (args.input is None) == (args.batch is None):
        return _die("hint: give a POSITION (or RECORD --seat N), or --batch FILE.jsonl")
    if args.batch is not None and args.seat is not None:
        return _die("hint: --seat is for one record, not for --batch")
    from fivetowers.solver import hint

    if args.batch is None:
        try:
            position = _hint_position(_read_json(args.input), args.seat)
        except ValueError as exc:
            return _die(f"{args.input}: {exc}")
        print(json.dumps(hint(position).to_json(args.explain)))
        return 0
    try:
        if args.batch == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(args.batch, encoding="utf-8") as f:
                lines = f.read().splitlines()
    except OSError as exc:
        return _die(f"cannot read {args.batch}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        return _die(f"{args.batch} is not UTF-8 text")
    failed = False
    for number, line in enumerate(lines, 1):
        try:
            data = _loads(line, f"line {number}")
            out = hint(_hint_position(data, None, records=False)).to_json(args.explain)
        except ValueError as exc:
            failed = True
            out = {"error": {"line": number, "message": str(exc)}}
        print(json.dumps(out), flush=False)
    sys.stdout.flush()
    return 1 if failed else 0


def cmd_export(args: argparse.Namespace) -> int:
    from fivetowers.tables.store import StoreError, open_store

    try:
        table_id = int(args.game.lstrip("#"))
        if not 0 < table_id < 2**63:
            raise ValueError
    except ValueError:
        return _die(f"{args.game!r} is not a game number (see \"my games\" in the lobby)")
    try:
        store = open_store(args.data_dir, create=False)
        try:
            stored = store.load_table(table_id)
        finally:
            store.close()
    except StoreError as exc:
        return _die(str(exc))
    print(_record_text(stored.record.to_json()))
    return 0


def _record_text(data: dict[str, Any]) -> str:
    """A record as JSON, one line per field and per action: readable and diffable."""
    fields = []
    for key, value in data.items():
        if key == "actions" and value:
            actions = ",\n".join(f"    {json.dumps(a)}" for a in value)
            fields.append(f"  {json.dumps(key)}: [\n{actions}\n  ]")
        else:
            fields.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(fields) + "\n}"


def cmd_play(args: argparse.Namespace) -> int:
    from fivetowers.rules import Variant

    players = args.players
    bots = players - 1 if args.bots is None else args.bots
    if not 2 <= players <= 5:
        return _die(f"--players must be 2 to 5, not {players}")
    if not 0 <= bots <= players:
        return _die(f"--bots must be 0 to {players} for {players} players, not {bots}")
    if len(args.names) > players:
        return _die(f"{len(args.names)} names given for {players} players")
    if not 0 <= args.bot_delay <= 60:  # also refuses nan
        return _die("--bot-delay must be 0 to 60 seconds")
    variant = Variant.GREAT_POWERS if args.variant == "great-powers" else Variant.BASE
    from fivetowers.tables.client import new_local_game
    from fivetowers.tui.app import create_app

    def new_game(seed: int | None = args.seed) -> "TableClient":
        return new_local_game(players, bots, variant, seed, args.names, args.bot,
                              args.bot_delay)

    seeds = iter(range((args.seed or 0) + 1, 1 << 62)) if args.seed is not None else None
    app = create_app(new_game(), lambda: new_game(next(seeds) if seeds else None),
                     hints=not args.no_hints)
    app.run()
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
        TimeElapsedColumn, TimeRemainingColumn

    from fivetowers.bots.tournament import Settings, TournamentError, parse_bots, run
    from fivetowers.rules import Variant

    try:
        settings = Settings(parse_bots(args.bots), args.players, args.games,
                            Variant.from_str(args.variant), args.seed, args.time_per_move)
    except ValueError as exc:
        return _die(str(exc))
    if args.workers < 1:
        return _die(f"--workers must be at least 1, not {args.workers}")
    # More processes than games or cores only costs start-up time.
    workers = min(args.workers, settings.games, os.cpu_count() or 1)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=args.json) as bar:
        task = bar.add_task(" vs ".join(settings.bots), total=settings.games)
        try:
            summary = run(settings, workers, lambda _: bar.advance(task))
        except TournamentError as exc:
            print(f"fivetowers: {exc}", file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(summary.to_text())
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from fivetowers.server.command import run_serve

    # A password on the command line shows in `ps` to every local user; a
    # file or the environment keeps it private.
    if args.password_file is not None:
        try:
            with open(args.password_file, encoding="utf-8") as f:
                args.password = f.readline().rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as exc:
            return _die(f"cannot read the password file {args.password_file}: {exc}")
        if not args.password:
            return _die(f"the password file {args.password_file} is empty")
    elif args.password is None and os.environ.get("FIVETOWERS_PASSWORD"):
        args.password = os.environ["FIVETOWERS_PASSWORD"]
    return run_serve(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fivetowers",
        description="5 Towers (Kasper Lapp) in the terminal and over SSH.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("replay", help="replay a game record and print the result as JSON")
    p.add_argument("record", metavar="RECORD", help="a fivetowers-record/1 file, or - for stdin")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser(
        "hint", help="the highest bid a player can carry out and the best build for each bid",
        description="Print the hint of FORMATS.md for a position (a path, or - for stdin), "
                    "for a seat at the end of a game record, or for every line of a JSON "
                    "Lines file of positions (one result line per input line; a bad line "
                    "gives {\"error\": {\"line\": N, \"message\": ...}} and exit status 1).")
    p.add_argument("input", nargs="?", metavar="POSITION|RECORD",
                   help="a fivetowers-position/1 or fivetowers-record/1 file, or - for stdin")
    p.add_argument("--seat", type=int, metavar="N",
                   help="with a record: hint seat N's position where the record ends")
    p.add_argument("--batch", metavar="FILE.jsonl",
                   help="one position per line (or - for stdin); one result per line")
    p.add_argument("--explain", action="store_true",
                   help='add an "explain" line in plain words to every plan')
    p.set_defaults(func=cmd_hint)
    p = sub.add_parser("play", help="play a game at this terminal, against bots or hot-seat")
    p.add_argument("--players", type=int, default=3, metavar="N", help="seats, 2-5 (default 3)")
    p.add_argument("--bots", type=int, default=None, metavar="M",
                   help="how many of the last seats bots play (default: all but one)")
    p.add_argument("--variant", choices=["base", "great-powers"], default="base",
                   help="the rules (default base)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="shuffle and bots from this seed (default: random)")
    p.add_argument("--names", nargs="+", default=[], metavar="NAME",
                   help="names for the seats, in order")
    p.add_argument("--bot", choices=["random", "greedy", "strong"], default="strong",
                   help="which bot plays the bot seats (default strong)")
    p.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                   help="pause before each bot move so you can follow it (default 0.8)")
    p.add_argument("--no-hints", action="store_true", help="start with the hints hidden")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("export", help="print a kept game's record (fivetowers-record/1)")
    p.add_argument("game", metavar="GAME", help="the game's number, as \"my games\" shows it")
    p.add_argument("--data-dir", metavar="DIR", default=None,
                   help="where the server keeps its store (default: $XDG_DATA_HOME/fivetowers "
                        "or ~/.local/share/fivetowers)")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("tournament", help="play bots against each other and print win rates")
    p.add_argument("--bots", required=True, metavar="A,B",
                   help="bot names (random, greedy, strong), one seat each; the last fills "
                        "the remaining seats")
    p.add_argument("--players", type=int, default=2, help="seats per game, 2..5 (default 2)")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--variant", default="base", help="base or great-powers (default base)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--time-per-move", type=float, default=1.0, metavar="T",
                   help="the strong bot's thinking time per decision, seconds (default 1)")
    p.add_argument("--workers", type=int, default=2,
                   help="processes playing games at once (default 2)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_tournament)
    p = sub.add_parser(
        "serve", help="host tables that anyone can join with ssh",
        description="Run the SSH game server. Players connect with "
                    "ssh -t -p PORT HOST (or ssh -t -p PORT HOST join CODE for one table). "
                    "Any public key may log in unless --allow is given; its fingerprint is "
                    "the player's identity.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on; 0.0.0.0 for every interface (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=2222, help="port to listen on (default 2222)")
    p.add_argument("--data-dir", metavar="DIR", default=None,
                   help="where the host key and the store are kept (default: "
                        "$XDG_DATA_HOME/fivetowers or ~/.local/share/fivetowers)")
    p.add_argument("--allow", metavar="FILE", default=None,
                   help="authorized_keys file: only these keys may log in (default: any key)")
    p.add_argument("--password", metavar="PW", default=None,
                   help="also accept password and keyboard-interactive logins with this "
                        "password (default: refused); other local users can see it in "
                        "`ps`, so prefer --password-file or $FIVETOWERS_PASSWORD")
    p.add_argument("--password-file", metavar="FILE", default=None,
                   help="like --password, with the password on the first line of FILE")
    p.add_argument("--away", type=float, default=60.0, metavar="SECONDS",
                   help="how long a seat waits for a dropped player before a bot plays it "
                        "until they return (default 60)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="processes in which bots think and hints are computed "
                        "(default: one per core)")
    p.set_defaults(func=cmd_serve)
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
    except BrokenPipeError:
        return 0
    except Exception as exc:  # never a traceback for a user; say what broke
        return _die(f"internal error: {type(exc).__name__}: {exc}")
    return result


if __name__ == "__main__":
    sys.exit(main())
