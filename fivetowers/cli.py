"""The ``fivetowers`` command line.

Sub-commands import what they need when they run, so ``replay`` and ``hint``
start without loading textual (and ``replay`` without ortools).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from typing import Any, BinaryIO, Callable, Iterator, Sequence

from fivetowers.games.five_towers.rules.errors import shown  # the rules only (no Textual)
from fivetowers.i18n import LANGUAGES, _, set_process_language  # standard library only
from fivetowers.games.five_towers.rules.players import MAX_PLAYERS, MIN_PLAYERS


MAX_INPUT_BYTES = 1 << 20
"""The largest record, position or batch line read (1 MiB): a whole 5-player
game's record is about 30 kB, so this refuses only what no game could write,
before any of it is parsed (issue 18)."""
MAX_MESSAGE = 300
"""The longest error line written (echoed input is cut shorter still)."""


def _die(message: str) -> int:
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + "…"
    print(f"fivetowers: {message}", file=sys.stderr)
    return 2


def _shown(where: str) -> str:
    """A path or argument as a message repeats it: short, controls escaped."""
    return where if len(where) <= 60 and where.isprintable() else shown(where)


def _too_big(where: str) -> str:
    return f"{where} is larger than {MAX_INPUT_BYTES // 1024} KiB, far more than any " \
           "record or position"


def _read_json(path: str) -> Any:
    """Read JSON from a path or ``-`` (stdin); ValueError with a one-line reason."""
    where = _shown(path)
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data: bytes | str = (stream.read(MAX_INPUT_BYTES + 1) if stream is not None
                                 else sys.stdin.read(MAX_INPUT_BYTES + 1))
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise ValueError(_too_big(where))
        text = data if isinstance(data, str) else data.decode("utf-8")
    except OSError as exc:
        raise ValueError(_("cannot read {file}: {error}").format(
            file=where, error=exc.strerror or exc)) from None
    except UnicodeDecodeError:
        raise ValueError(_("{file} is not UTF-8 text").format(file=where)) from None
    return _loads(text, where)


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} "
                         f"column {exc.colno}") from None
    except RecursionError:
        raise ValueError(f"{where} is nested too deeply to be a record or a position") from None
    except ValueError:  # a number of thousands of digits (int_max_str_digits)
        raise ValueError(f"{where} is not valid JSON: a number is too long") from None


def _batch_lines(stream: BinaryIO) -> Iterator[str | ValueError]:
    """The lines of a JSON Lines stream, split on "\\n" only (a "\\r\\n" ending
    too), never on the other line breaks of Unicode, which JSON strings may
    hold. A line too long or not UTF-8 comes as a ValueError, without being
    held whole in memory."""
    while True:
        raw = stream.readline(MAX_INPUT_BYTES + 1)
        if not raw:
            return
        if len(raw) > MAX_INPUT_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip to the line's end
                raw = stream.readline(1 << 16)
            yield ValueError(f"the line is larger than {MAX_INPUT_BYTES // 1024} KiB, far "
                             "more than any position")
            continue
        raw = raw[:-1] if raw.endswith(b"\n") else raw
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            yield ValueError("the line is not UTF-8 text")


GOTOWN_RECORD = "gotown-record/1"  # GoTown is not in the registry until issue 14
GOTOWN_POSITION = "gotown-position/1"


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record of either game, chosen by its ``format`` (FORMATS.md)."""
    try:
        data = _read_json(args.record)
    except ValueError as exc:
        return _die(f"{_shown(args.record)}: {exc}")
    if isinstance(data, dict) and data.get("format") == GOTOWN_RECORD:
        return _replay_gotown(args.record, data)
    from fivetowers.games import game_kind
    from fivetowers.games.five_towers.rules.game import Game
    from fivetowers.games.five_towers.rules.record import Record, result_json
    from fivetowers.tables.history import replay

    try:
        Record.from_json(data)  # the record's own checks, before any replaying
        game, error = replay(game_kind("fivetowers"), data)
    except ValueError as exc:  # the rules' FormatError among them
        return _die(f"{_shown(args.record)}: {exc}")
    assert isinstance(game, Game)  # the result's format is 5 Towers' (FORMATS.md)
    if error is not None:
        print(json.dumps({"error": {"action": error.action, "message": _cut(error.message)}}))
        return 1
    print(json.dumps(result_json(game)))
    return 0


def _replay_gotown(where: str, data: dict[str, Any]) -> int:
    from fivetowers.games.gotown.rules.record import Record, replay, result_json

    try:
        game, error = replay(Record.from_json(data))
    except ValueError as exc:  # not a valid record: FormatError, a bad reshuffle
        return _die(f"{_shown(where)}: {exc}")
    if error is not None:
        print(json.dumps({"error": {"action": error.action, "message": _cut(error.message)}}))
        return 1
    print(json.dumps(result_json(game)))
    return 0


def _hint_position(data: Any, seat: int | None, records: bool = True) -> Any:
    """The position to hint from a position, or a record and a seat (FORMATS.md).

    Raises ValueError with a one-line reason when the input is not usable.
    """
    from fivetowers.games import game_kind
    from fivetowers.games.five_towers.rules.game import Game
    from fivetowers.games.five_towers.rules.position import POSITION_FORMAT, Position
    from fivetowers.games.five_towers.rules.record import RECORD_FORMAT, Record
    from fivetowers.tables.history import replay

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
        game, error = replay(game_kind("fivetowers"), data)
        if error is not None:
            raise ValueError(f"action {error.action} of the record is illegal: {error.message}")
        assert isinstance(game, Game)
        return Position.from_game(game, seat)
    if kind != POSITION_FORMAT:
        raise ValueError(f'unknown format {shown(kind)}: expected "{POSITION_FORMAT}" or '
                         f'"{RECORD_FORMAT}"')
    if seat is not None:
        raise ValueError("--seat is for a game record, and this is a position")
    return Position.from_json(data)


def _not_proven(where: str) -> None:
    """Say on stderr that a hint is not proven best (FORMATS.md fixes stdout's shape)."""
    print("fivetowers: " + _("{file}: hint not proven optimal: the solver's time ran out; "
                             "its plans are legal but may not be the best, and max_bid may "
                             "be low").format(file=_shown(where)), file=sys.stderr)


def cmd_hint(args: argparse.Namespace) -> int:
    """``hint POSITION``, ``hint RECORD --seat N`` or ``hint --batch FILE.jsonl``."""
    if (args.input is None) == (args.batch is None):
        return _die(_("hint: give a POSITION (or RECORD --seat N), or --batch FILE.jsonl"))
    if args.batch is not None and args.seat is not None:
        return _die(_("hint: --seat is for one record, not for --batch"))
    data: Any = None
    if args.batch is None:
        try:
            data = _read_json(args.input)
        except ValueError as exc:
            return _die(f"{_shown(args.input)}: {exc}")
        if isinstance(data, dict) and data.get("format") in (GOTOWN_RECORD, GOTOWN_POSITION):
            return _hint_gotown(args, data)
    from fivetowers.games.five_towers.solver import hint

    if args.batch is None:
        try:
            position = _hint_position(data, args.seat)
        except ValueError as exc:
            return _die(f"{_shown(args.input)}: {exc}")
        answer = hint(position)
        print(json.dumps(answer.to_json(args.explain)))
        if not answer.proven:
            _not_proven(args.input)
        return 0
    try:
        if args.batch == "-":
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a text stream (tests): the same bytes
                stream = io.BytesIO(sys.stdin.read().encode("utf-8"))
            failed = _hint_batch(stream, args.explain)
        else:
            with open(args.batch, "rb") as f:
                failed = _hint_batch(f, args.explain)
    except OSError as exc:
        return _die(_("cannot read {file}: {error}").format(file=_shown(args.batch),
                                                        error=exc.strerror or exc))
    return 1 if failed else 0


def _hint_gotown(args: argparse.Namespace, data: dict[str, Any]) -> int:
    """``hint`` for a GoTown position, or a GoTown record and ``--seat N``."""
    from fivetowers.games.gotown.hint import hint
    from fivetowers.games.gotown.rules.position import Position
    from fivetowers.games.gotown.rules.record import Record, replay

    where = _shown(args.input)
    if args.explain:
        return _die(_("{file}: --explain is for 5 Towers hints; a GoTown plan is its plays")
                    .format(file=where))
    try:
        if data.get("format") == GOTOWN_POSITION:
            if args.seat is not None:
                raise ValueError("--seat is for a game record, and this is a position")
            position = Position.from_json(data)
        else:
            if args.seat is None:
                raise ValueError("this is a game record: give --seat N for the seat to hint")
            record = Record.from_json(data)
            if not 0 <= args.seat < len(record.players):
                raise ValueError(f"--seat {args.seat}: the record has seats "
                                 f"0..{len(record.players) - 1}")
            game, error = replay(record)
            if error is not None:
                raise ValueError(f"action {error.action} of the record is illegal: "
                                 f"{error.message}")
            position = Position.from_game(game, args.seat)
    except ValueError as exc:
        return _die(f"{where}: {exc}")
    print(json.dumps(hint(position).to_json()))
    return 0


def _hint_batch(stream: BinaryIO, explain: bool) -> bool:
    """One result line per input line; True when some line was refused."""
    from fivetowers.games.five_towers.solver import hint

    failed = False
    for number, line in enumerate(_batch_lines(stream), 1):
        try:
            if isinstance(line, ValueError):
                raise line
            data = _loads(line, f"line {number}")
            if isinstance(data, dict) and data.get("format") in (GOTOWN_RECORD,
                                                                 GOTOWN_POSITION):
                out = _gotown_batch_answer(data, explain)
            else:
                answer = hint(_hint_position(data, None, records=False))
                out = answer.to_json(explain)
                if not answer.proven:
                    _not_proven(f"line {number}")
        except ValueError as exc:
            failed = True
            out = {"error": {"line": number, "message": _cut(str(exc))}}
        print(json.dumps(out), flush=False)
    sys.stdout.flush()
    return failed


def _gotown_batch_answer(data: dict[str, Any], explain: bool) -> dict[str, Any]:
    """A GoTown batch line's answer, as ``hint`` gives it for that position
    (ValueError, for the line's error, as ``hint`` refuses it)."""
    from fivetowers.games.gotown.hint import hint
    from fivetowers.games.gotown.rules.position import Position

    if data.get("format") == GOTOWN_RECORD:
        raise ValueError("a batch line must be a position, not a game record")
    if explain:
        raise ValueError("--explain is for 5 Towers hints; a GoTown plan is its plays")
    return hint(Position.from_json(data)).to_json()


def _cut(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + "…"


def cmd_export(args: argparse.Namespace) -> int:
    from fivetowers.tables.history import record_text_of
    from fivetowers.tables.store import StoreError, open_store, store_url

    try:
        table_id = int(args.game.lstrip("#"))
        if not 0 < table_id < 2**63:
            raise ValueError
    except ValueError:
        return _die(_('{game} is not a game number (see "my games" in the lobby)')
                    .format(game=shown(args.game)))
    try:
        store = open_store(args.data_dir, create=False, url=store_url(args.store))
        try:
            stored = store.load_table(table_id)
        finally:
            store.close()
    except StoreError as exc:
        return _die(str(exc))
    try:
        record = record_text_of(stored.info.kind, stored.record)
    except ValueError as exc:  # the game's RecordError
        return _die(_("game {number} in the store is damaged: {error}")
                    .format(number=table_id, error=_cut(str(exc))))
    print(_record_text(record))
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from fivetowers.tables.pg_store import PgStore
    from fivetowers.tables.store import StoreError, store_url
    from fivetowers.tables.store_copy import copy_store

    try:
        url = store_url(args.to)
        assert url is not None  # --to is required and not empty
        target = PgStore(url)
        try:
            copied = copy_store(Path(args.source), target)
        finally:
            target.close()
    except StoreError as exc:
        return _die(_("migrate: {error}").format(error=" ".join(str(exc).split())))
    print(_("copied {games} games, {players} players' keys and {ratings} ratings into "
            "{store}").format(games=copied.games, players=copied.players,
                              ratings=copied.ratings, store=target.where))
    return 0


def _record_text(data: dict[str, Any]) -> str:
    """A record as ``fivetowers export`` prints it (see ``history.record_text``)."""
    from fivetowers.tables.history import record_text
    return record_text(data)


def cmd_play(args: argparse.Namespace) -> int:
    if args.lang is not None:
        set_process_language(args.lang)
    if args.game == "gotown":
        from fivetowers.games.gotown.kind import GAME as kind
    else:
        from fivetowers.games.five_towers.kind import GAME as kind
    players = args.players
    bots = players - 1 if args.bots is None else args.bots
    if kind.players_problem(players) is not None:
        wording = (_("--players must be {low} to {high} for GoTown, not {players}")
                   if args.game == "gotown" else _("--players must be {low} to {high}, not {players}"))
        return _die(wording.format(low=kind.min_players, high=kind.max_players, players=players))
    if not 0 <= bots <= players:
        return _die(_("--bots must be 0 to {players} for {players} players, not {bots}")
                    .format(players=players, bots=bots))
    if len(args.names) > players:
        return _die(_("{names} names given for {players} players")
                    .format(names=len(args.names), players=players))
    if not 0 <= args.bot_delay <= 60:  # also refuses nan
        return _die(_("--bot-delay must be 0 to 60 seconds"))
    if args.game == "gotown":
        return _play_gotown(args, players, bots)
    if args.short:
        return _die(_("--short is for --game gotown (4 floors to win)"))
    return _play_five_towers(args, players, bots)


def _play_gotown(args: argparse.Namespace, players: int, bots: int) -> int:
    if args.variant != "base":
        return _die(_("--variant is for 5 Towers; GoTown has --short"))
    from fivetowers.games.gotown.client import local_client, new_local_game
    from fivetowers.games.gotown.kind import GAME
    from fivetowers.games.gotown.rules import Game
    from fivetowers.games.gotown.tui.app import GoTownApp

    def deal(seed: int | None, keep: Any) -> Any:
        return new_local_game(players, bots, args.short, seed, args.names, args.bot,
                              args.bot_delay, keep=keep)

    return _play_local(args, GAME.name, Game, deal, local_client, GoTownApp)


def _play_five_towers(args: argparse.Namespace, players: int, bots: int) -> int:
    from fivetowers.games.five_towers.client import local_client, new_local_game
    from fivetowers.games.five_towers.kind import GAME
    from fivetowers.games.five_towers.rules import Game, Variant
    from fivetowers.games.five_towers.tui.app import create_app

    variant = Variant.GREAT_POWERS if args.variant == "great-powers" else Variant.BASE

    def deal(seed: int | None, keep: Any) -> Any:
        return new_local_game(players, bots, variant, seed, args.names, args.bot,
                              args.bot_delay, keep=keep)

    return _play_local(args, GAME.name, Game, deal, local_client, create_app)


def _play_local(args: argparse.Namespace, game_name: str, game_class: type,
                deal: Callable[[int | None, Any], Any], resume: Callable[..., Any],
                create_app: Callable[[Any, Callable[[], Any], bool], Any]) -> int:
    """Either game's ``play``: a new game dealt (``deal(seed, keep)``) or the
    last unfinished one resumed (``resume(game, seats, bot_delay, hook)``),
    kept in the store when it opens, and a new seed each "play again"."""
    from fivetowers.tables.local import keep_local, last_local, local_hook
    from fivetowers.tables.store import StoreError

    store = _local_store(args)
    if isinstance(store, int):
        return store
    keep: Any = None
    if store is not None:
        kept = store
        keep = lambda game, seats: keep_local(kept, game_name, game, seats)  # noqa: E731
    try:
        if args.resume:
            assert store is not None
            local = last_local(store, game_name)
            if local is None:
                return _die(_("there is no unfinished local game to resume (in {place})")
                            .format(place=args.data_dir or _("the data directory")))
            assert isinstance(local.game, game_class)  # this game's: its kind said so
            first = resume(local.game, local.seats, args.bot_delay,
                           local_hook(store, local.info.id))
        else:
            first = deal(args.seed, keep)
        seeds = iter(range((args.seed or 0) + 1, 1 << 62)) if args.seed is not None else None
        create_app(first, lambda: deal(next(seeds) if seeds else None, keep),
                   not args.no_hints).run()
    except StoreError as exc:  # keeping the new game failed before it began
        return _die(str(exc))
    finally:
        if store is not None:
            store.close()
    return 0


def _local_store(args: argparse.Namespace) -> Any:
    """The server's store for a local game (a closed terminal or a q is not a
    lost game), None if it cannot be opened (said), or an exit status."""
    from fivetowers.tables.store import StoreError, open_store

    try:
        return open_store(args.data_dir)
    except StoreError as exc:
        if args.resume:
            return _die(str(exc))
        print(_("fivetowers: play: this game will not be kept: {reason}").format(reason=exc),
              file=sys.stderr)
        return None


def cmd_tournament(args: argparse.Namespace) -> int:
    if args.game == "gotown":
        from fivetowers.games.gotown import tournament as gotown

        if args.variant != "base":
            return _die(_("--variant is for 5 Towers; GoTown has --floors 4|5"))
        bots = tuple(name.strip() for name in args.bots.split(",") if name.strip())
        try:
            settings: Any = gotown.Settings(bots, args.players, args.games,
                                            5 if args.floors is None else args.floors,
                                            args.seed, args.time_per_move)
        except ValueError as exc:
            return _die(str(exc))
        return _run_tournament(args, settings, gotown.run, gotown.TournamentError)
    if args.floors is not None:
        return _die(_("--floors is for --game gotown"))
    from fivetowers.games.five_towers.bots import tournament as towers
    from fivetowers.games.five_towers.rules import Variant

    try:
        settings = towers.Settings(towers.parse_bots(args.bots), args.players, args.games,
                                   Variant.from_str(args.variant), args.seed,
                                   args.time_per_move)
    except ValueError as exc:
        return _die(str(exc))
    return _run_tournament(args, settings, towers.run, towers.TournamentError)


def _run_tournament(args: argparse.Namespace, settings: Any, run: Callable[..., Any],
                    failure: type[Exception]) -> int:
    """Either game's tournament with a progress bar on stderr, then its summary."""
    if args.workers < 1:
        return _die(_("--workers must be at least 1, not {workers}").format(workers=args.workers))
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
        TimeElapsedColumn, TimeRemainingColumn

    # More processes than games or cores only costs start-up time.
    workers = min(args.workers, settings.games, os.cpu_count() or 1)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=args.json) as bar:
        task = bar.add_task(" vs ".join(settings.bots), total=settings.games)
        try:
            summary = run(settings, workers, lambda _: bar.advance(task))
        except failure as exc:
            print(f"fivetowers: {exc}", file=sys.stderr)
            return 1
    print(json.dumps(summary.to_json()) if args.json else summary.to_text())
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from fivetowers.lobby.serve_command import run_serve

    # A password on the command line shows in `ps` to every local user; a
    # file or the environment keeps it private.
    if args.password_file is not None:
        try:
            with open(args.password_file, encoding="utf-8") as f:
                args.password = f.readline().rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as exc:
            return _die(_("cannot read the password file {file}: {error}")
                        .format(file=args.password_file, error=exc))
        if not args.password:
            return _die(_("the password file {file} is empty").format(file=args.password_file))
    elif args.password is None and os.environ.get("FIVETOWERS_PASSWORD"):
        args.password = os.environ["FIVETOWERS_PASSWORD"]
    return run_serve(args)


STORE_HELP = ("keep games in this PostgreSQL database, postgresql://user:password@host/"
              "database (default: $FIVETOWERS_STORE, else the SQLite store of the data "
              "directory)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fivetowers",
        description="5 Towers (Kasper Lapp) in the terminal and over SSH.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("replay", help="replay a game record and print the result as JSON")
    p.add_argument("record", metavar="RECORD",
                   help="a fivetowers-record/1 or gotown-record/1 file, or - for stdin")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser(
        "hint", help="the highest bid a player can carry out and the best build for each bid",
        description="Print the hint of FORMATS.md for a position (a path, or - for stdin), "
                    "for a seat at the end of a game record, or for every line of a JSON "
                    "Lines file of positions of either game (one result line per input line; a bad line "
                    "gives {\"error\": {\"line\": N, \"message\": ...}} and exit status 1).")
    p.add_argument("input", nargs="?", metavar="POSITION|RECORD",
                   help="a fivetowers-position/1 or fivetowers-record/1 file (or GoTown's "
                        "gotown-position/1 or gotown-record/1), or - for stdin")
    p.add_argument("--seat", type=int, metavar="N",
                   help="with a record: hint seat N's position where the record ends")
    p.add_argument("--batch", metavar="FILE.jsonl",
                   help="one position per line (or - for stdin); one result per line")
    p.add_argument("--explain", action="store_true",
                   help='add an "explain" line in plain words to every plan')
    p.set_defaults(func=cmd_hint)
    p = sub.add_parser("play", help="play a game at this terminal, against bots or hot-seat")
    p.add_argument("--players", type=int, default=3, metavar="N",
                   help=f"seats, {MIN_PLAYERS}-{MAX_PLAYERS} (GoTown 2-4; default 3)")
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
    p.add_argument("--resume", action="store_true",
                   help="go on with the last unfinished local game (games are kept as played)")
    p.add_argument("--data-dir", metavar="DIR", default=None,
                   help="where games are kept (default: $XDG_DATA_HOME/fivetowers "
                        "or ~/.local/share/fivetowers, the server's store)")
    p.add_argument("--lang", choices=LANGUAGES, default=None,
                   help="the language of the screens (default: from LC_ALL, LC_MESSAGES, LANG)")
    p.add_argument("--game", choices=["fivetowers", "gotown"], default="fivetowers",
                   help="which game (default fivetowers); GoTown is for 2-4 players")
    p.add_argument("--short", action="store_true",
                   help="GoTown: the short game, 4 floors to win")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("export", help="print a kept game's record (fivetowers-record/1 or "
                                      "gotown-record/1)")
    p.add_argument("game", metavar="GAME", help="the game's number, as \"my games\" shows it")
    p.add_argument("--data-dir", metavar="DIR", default=None,
                   help="where the server keeps its store (default: $XDG_DATA_HOME/fivetowers "
                        "or ~/.local/share/fivetowers)")
    p.add_argument("--store", metavar="URL", default=None, help=STORE_HELP)
    p.set_defaults(func=cmd_export)
    p = sub.add_parser(
        "migrate", help="copy a SQLite store's games, players and ratings into PostgreSQL",
        description="Copy the SQLite store of a data directory (stop its server first) into "
                    "a new, empty PostgreSQL database, which then serves with "
                    "fivetowers serve --store URL. Games keep their numbers.")
    p.add_argument("--from", dest="source", metavar="DATA_DIR", required=True,
                   help="the data directory holding fivetowers.sqlite3")
    p.add_argument("--to", metavar="URL", required=True,
                   help="the PostgreSQL database: postgresql://user:password@host/database")
    p.set_defaults(func=cmd_migrate)
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
    p.add_argument("--game", choices=["fivetowers", "gotown"], default="fivetowers",
                   help="which game the bots play (default fivetowers); GoTown's bots "
                        "are random, greedy and strong, 2..4 players")
    p.add_argument("--floors", type=int, choices=[4, 5], default=None,
                   help="GoTown: floors to win, 5 or 4 for the short game (default 5)")
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
    p.add_argument("--public-name", metavar="NAME", default=None,
                   help="the host name or address players type to reach the server, as the "
                        "lobby shows it in 'ssh ... join CODE' (default: the address each "
                        "player connected to)")
    p.add_argument("--data-dir", metavar="DIR", default=None,
                   help="where the host key and the store are kept (default: "
                        "$XDG_DATA_HOME/fivetowers or ~/.local/share/fivetowers)")
    p.add_argument("--store", metavar="URL", default=None, help=STORE_HELP)
    p.add_argument("--share-store", action="store_true",
                   help="one of several servers on the PostgreSQL store: each serves the "
                        "tables it drives (players see the tables of the server they reach) "
                        "and takes over, within seconds, those of a server that died")
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
    p.add_argument("--max-tables", type=int, default=100, metavar="N",
                   help="unfinished tables served at once; then no new ones (default 100)")
    p.add_argument("--tables-per-address", type=int, default=8, metavar="N",
                   help="unfinished tables that may be opened from one address, an IPv6 "
                        "/64 (default 8; each key may also sit at 3)")
    p.add_argument("--pause-unattended", type=float, default=120.0, metavar="SECONDS",
                   help="a table with no player or watcher connected pauses its bots "
                        "after this long (default 120)")
    p.add_argument("--close-unattended", type=float, default=12 * 3600.0, metavar="SECONDS",
                   help="...and is closed after this long, its game kept as abandoned "
                        "(default 43200, 12 hours)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="processes in which bots think and hints are computed "
                        "(default: one per core), plus one for short jobs only")
    p.add_argument("--processes", type=int, default=1, metavar="N",
                   help="N servers sharing the port (SO_REUSEPORT) and the PostgreSQL "
                        "store, each with its own workers: all cores of one machine "
                        "(default 1; needs --store postgresql://...)")
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
        return _die(_("internal error: {kind}: {error}").format(kind=type(exc).__name__,
                                                                 error=exc))
    return result


if __name__ == "__main__":
    sys.exit(main())
