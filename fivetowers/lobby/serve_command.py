"""``fivetowers serve``: checks the options, sets up logging, runs the server."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from fivetowers.i18n import _

if TYPE_CHECKING:  # textual must not be imported before run_serve sets its environment
    from fivetowers.lobby.limits import LobbyLimits
    from fivetowers.lobby.model import Lobby
    from fivetowers.server.serve import ServerConfig

log = logging.getLogger("fivetowers.server")


async def serve_with_store(config: ServerConfig, away: float = 60.0,
                           limits: LobbyLimits | None = None,
                           workers: int | None = None, store_url: str | None = None,
                           shared: bool = False) -> None:
    """The lobby, keeping every game in the store of the data directory (or
    the PostgreSQL database at ``store_url``) and serving again, at start,
    the games that were going on at the last stop. Bots and hints run in
    ``workers`` processes (default: one per core). ``shared``: one of several
    servers on that database, serving the tables it leases and, within
    seconds, those of a server that died."""
    from fivetowers.lobby.model import Lobby
    from fivetowers.lobby.app import lobby_factory
    from fivetowers.lobby.export import exporter
    from fivetowers.server.serve import load_allowed_keys, serve_forever
    from fivetowers.tables.store import open_store
    from fivetowers.tables.workers import Workers

    load_allowed_keys(config.allow_file)  # a bad file is refused before any work
    store = open_store(config.data_dir, exclusive=True, url=store_url, shared=shared)
    pool = Workers(workers)
    lobby = Lobby(store=store, absence_bot_after=away, limits=limits, workers=pool)
    try:
        if shared:
            await share_tables(lobby)
        report = lobby.restore()  # a damaged store is refused before workers start
        # Started before anyone connects: starting a worker later would wait on
        # the serving loop.
        await asyncio.to_thread(pool.start)
        log.info("%d worker processes for bots and hints", pool.width)  # (size + the short lane)
        log.info("games are kept in %s", _store_where(config, store_url))
        if report.live or report.finished:
            log.info("restored %d games from the store (%d found finished)",
                     len(report.live), len(report.finished))
        for table_id, reason in report.broken:
            log.warning("stored game %d cannot be served again: %s", table_id, reason)
        adopting = asyncio.create_task(adopt_orphans(lobby)) if shared else None
        try:
            await serve_forever(config, lobby_factory(lobby), exporter=exporter(lobby))
        finally:
            if adopting is not None:
                adopting.cancel()
    finally:
        await lobby.close()  # the last commits, then the store
        pool.close()


async def share_tables(lobby: Lobby) -> None:
    """Let ``lobby`` list, seat at and show every table of the servers sharing
    its PostgreSQL store (and them at its own), through the store's bus."""
    from fivetowers.lobby.crossing import Crossing
    from fivetowers.tables.pg_store import PgStore
    from fivetowers.tables.remote import PgSharing

    assert isinstance(lobby.store, PgStore)
    lobby.share(Crossing(lobby, await PgSharing.start(lobby.store)))


ADOPT_EVERY = 1.0
"""Seconds between a sharing server's looks for tables nobody drives."""


async def adopt_orphans(lobby: Lobby) -> None:
    """Serve, as if restored at start, the tables of a server that died (their
    leases came free), and tables kept while no server ran."""
    from fivetowers.tables.pg_store import PgStore
    from fivetowers.tables.store import StoreError

    store, writer = lobby.store, lobby.writer
    assert isinstance(store, PgStore) and writer is not None
    while True:
        await asyncio.sleep(ADOPT_EVERY)
        try:
            if not await writer.call(store.orphans):
                continue  # nothing to take: the lobby's screens are left alone
            report = lobby.restore()
        except StoreError as exc:  # the database away: the next look tries again
            log.warning("cannot look for tables to take over: %s", exc)
            continue
        if report.live:
            log.info("took over %d tables nobody served: %s", len(report.live),
                     " ".join(f"#{r.info.id}" for r in report.live))
        for table_id, reason in report.broken:
            log.warning("stored game %d cannot be served again: %s", table_id, reason)


def _store_where(config: ServerConfig, store_url: str | None) -> str:
    """The store a server keeps its games in, for its log (never a password)."""
    if store_url is not None:
        from fivetowers.tables.pg_store import describe

        return describe(store_url)
    from fivetowers.tables.store import STORE_FILE

    return str(config.data_dir / STORE_FILE)


def run_serve(args: argparse.Namespace) -> int:
    # Before textual is imported (it reads this once): the server never asks
    # clients for the kitty keyboard protocol (DESIGN.md trap 1, belt and braces
    # with the driver's own parser).
    os.environ.setdefault("TEXTUAL_DISABLE_KITTY_KEY", "1")
    from fivetowers.server.hostkey import HostKeyError, default_data_dir
    from fivetowers.server.serve import ConfigError, ServerConfig, configure_logging
    from fivetowers.tables.store import StoreError, store_url

    if not 0 <= args.port <= 65535:
        _refuse(_("--port {port} is not a port (0-65535)").format(port=args.port))
        return 2
    if not 0 <= args.away <= 7 * 24 * 3600:
        _refuse(_("--away {seconds} is not a number of seconds (0 to a week)")
                .format(seconds=f"{args.away:g}"))
        return 2
    limits = _lobby_limits(args)
    if isinstance(limits, str):
        _refuse(limits)
        return 2
    workers = getattr(args, "workers", None)
    if workers is not None and not 1 <= workers <= 256:
        _refuse(_("--workers {workers} must be 1 to 256").format(workers=workers))
        return 2
    public_name = args.public_name
    if public_name is not None and not re.fullmatch(r"[A-Za-z0-9._:\[\]-]{1,253}", public_name):
        _refuse(_("--public-name {name} is no host name or address").format(
            name=repr(public_name)))
        return 2
    if args.password is not None and not args.password:
        _refuse(_("--password must not be empty"))
        return 2
    config = ServerConfig(
        host=args.host, port=args.port,
        data_dir=Path(args.data_dir) if args.data_dir else default_data_dir(),
        allow_file=Path(args.allow) if args.allow else None,
        password=args.password,
        public_name=public_name,
    )
    try:
        url = store_url(getattr(args, "store", None))
    except StoreError as exc:
        _refuse(str(exc))
        return 2
    from fivetowers.lobby.processes import child_number, is_child, refusal, run_processes

    processes = getattr(args, "processes", 1)
    refused = refusal(processes, url)
    if refused is not None:
        _refuse(refused)
        return 2
    process = child_number()
    configure_logging(sys.stderr, process)
    shared = getattr(args, "share_store", False) or is_child()
    if is_child():
        config = dataclasses.replace(config, reuse_port=True, process=process)
    try:
        if processes > 1 and not is_child():
            return run_processes(processes, config.data_dir)
        asyncio.run(serve_with_store(config, args.away, limits, workers, url, shared))
    except (HostKeyError, ConfigError, StoreError) as exc:
        reason = " ".join(str(exc).split())  # one line, whatever the library said
        _refuse(reason)
        return 2
    except OSError as exc:
        _refuse(_("cannot listen on {host} port {port}: {error}").format(
            host=args.host, port=args.port, error=exc.strerror or exc))
        return 2
    return 0


def _refuse(reason: str) -> None:
    """``serve``'s one-line error on stderr, in the operator's language."""
    print("fivetowers: serve: " + reason, file=sys.stderr)


def _lobby_limits(args: argparse.Namespace) -> LobbyLimits | str:
    """The lobby's limits from the options, or what is wrong with one."""
    from fivetowers.lobby.limits import LobbyLimits

    for option, value in (("--max-tables", args.max_tables),
                          ("--tables-per-address", args.tables_per_address)):
        if not 1 <= value <= 100_000:
            return _("{option} {value} is not a number of tables (1 to 100000)").format(
                option=option, value=value)
    for option, seconds in (("--pause-unattended", args.pause_unattended),
                            ("--close-unattended", args.close_unattended)):
        if not 0 < seconds <= 30 * 24 * 3600:  # also refuses nan
            return _("{option} {seconds} is not a number of seconds (above 0, up to 30 days)"
                     ).format(option=option, seconds=f"{seconds:g}")
    return LobbyLimits(max_tables=args.max_tables, tables_per_address=args.tables_per_address,
                       pause_after=args.pause_unattended, close_after=args.close_unattended)
