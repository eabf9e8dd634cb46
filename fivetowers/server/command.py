"""``fivetowers serve``: checks the options, sets up logging, runs the server."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from fivetowers.server.session import AppFactory


def default_app_factory() -> AppFactory:
    """What every session runs: the lobby, shared by all sessions of this server."""
    from fivetowers.server.lobby import Lobby
    from fivetowers.server.lobby_app import lobby_factory
    return lobby_factory(Lobby())


def run_serve(args: argparse.Namespace) -> int:
    # Before textual is imported (it reads this once): the server never asks
    # clients for the kitty keyboard protocol (DESIGN.md trap 1, belt and braces
    # with the driver's own parser).
    os.environ.setdefault("TEXTUAL_DISABLE_KITTY_KEY", "1")
    from fivetowers.server.hostkey import HostKeyError, default_data_dir
    from fivetowers.server.serve import ConfigError, ServerConfig, configure_logging, serve_forever

    if not 0 <= args.port <= 65535:
        print(f"fivetowers: serve: --port {args.port} is not a port (0-65535)", file=sys.stderr)
        return 2
    if args.password is not None and not args.password:
        print("fivetowers: serve: --password must not be empty", file=sys.stderr)
        return 2
    config = ServerConfig(
        host=args.host, port=args.port,
        data_dir=Path(args.data_dir) if args.data_dir else default_data_dir(),
        allow_file=Path(args.allow) if args.allow else None,
        password=args.password,
    )
    configure_logging(sys.stderr)
    try:
        asyncio.run(serve_forever(config, default_app_factory()))
    except (HostKeyError, ConfigError) as exc:
        print(f"fivetowers: serve: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"fivetowers: serve: cannot listen on {args.host} port {args.port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
