"""``fivetowers serve``'s table limits: options to LobbyLimits, bad ones refused."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from fivetowers.cli import build_parser
from fivetowers.lobby.serve_command import _lobby_limits
from fivetowers.lobby.limits import LobbyLimits


def test_the_options_set_the_lobby_limits() -> None:
    args = build_parser().parse_args(["serve"])
    assert _lobby_limits(args) == LobbyLimits()
    args = build_parser().parse_args(["serve", "--max-tables", "5", "--tables-per-address",
                                      "2", "--pause-unattended", "30",
                                      "--close-unattended", "600"])
    assert _lobby_limits(args) == LobbyLimits(max_tables=5, tables_per_address=2,
                                              pause_after=30.0, close_after=600.0)
    for bad in (["--max-tables", "0"], ["--tables-per-address", "-3"],
                ["--pause-unattended", "nan"], ["--close-unattended", "0"]):
        refusal = _lobby_limits(build_parser().parse_args(["serve", *bad]))
        assert isinstance(refusal, str) and bad[0] in refusal


async def test_a_bad_limit_is_one_line_and_status_2(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "fivetowers.cli", "serve", "--data-dir", str(tmp_path / "d"),
        "--max-tables", "0", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 2
    assert err.decode().splitlines() == [
        "fivetowers: serve: --max-tables 0 is not a number of tables (1 to 100000)"]
