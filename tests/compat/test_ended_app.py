"""let_go_of_app cuts an ended App's own helpers only, and never fails a
session's end (the bench-level checks: tests/server/test_left_screens.py)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from textual.app import App

from fivetowers.compat import ended_app
from fivetowers.compat.ended_app import let_go_of_app


class Shared:
    """What every session's App holds alike (the lobby, a table)."""

    app: Any = None
    call: Any = None


async def test_what_the_app_shares_with_other_sessions_keeps_its_fields() -> None:
    # Scanning every attribute of the App, a shared object's field holding
    # this App was nulled: for every session, not only the one that ended.
    app = App[None]()
    shared = Shared()
    app.lobby = shared  # type: ignore[attr-defined]
    shared.app, shared.call = app, app.exit
    let_go_of_app(app)
    assert shared.app is app
    assert shared.call.__self__ is app


class Renamed:
    """A helper whose pointer back is no longer what let_go_of_app reads."""

    @property
    def app(self) -> Any:
        raise RuntimeError("a Textual read differently")


def _changed_helper(monkeypatch: pytest.MonkeyPatch, app: App[None]) -> None:
    app.seat_host = Renamed()  # type: ignore[attr-defined]  # (the helpers' loop)


def _changed_cut(monkeypatch: pytest.MonkeyPatch, app: App[None]) -> None:
    def cut_cycles(nodes: list[Any]) -> None:
        raise TypeError("a Textual read differently")

    monkeypatch.setattr(ended_app, "cut_cycles", cut_cycles)


@pytest.mark.parametrize("change", [_changed_helper, _changed_cut])
async def test_an_error_while_letting_go_is_a_warning_once_never_the_session_s(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, change: Any) -> None:
    # Raised, it ended the session's teardown: the player was told that
    # something went wrong on the server.
    monkeypatch.setattr(ended_app, "_warned", [])
    app = App[None]()
    change(monkeypatch, app)
    with caplog.at_level(logging.WARNING, logger="fivetowers.server"):
        let_go_of_app(app)
        let_go_of_app(App[None]())  # (another session's end: no second warning)
    warned = [r for r in caplog.records if "let_go_of_app" in r.getMessage()]
    assert len(warned) == 1 and "a Textual read differently" in warned[0].getMessage()
