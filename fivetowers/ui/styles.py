"""Stylesheets shared by the lobby's screens and the games' screens."""

from __future__ import annotations

from importlib.resources import files

HISTORY_CSS = str(files("fivetowers.styles") / "history.tcss")
"""The history screens' styles (styles/history.tcss: the lobby's game list and
leaderboard, a game's replay), by absolute path: Textual reads a path once per
app however many screens name it."""


def stylesheet(name: str = "app.tcss") -> str:
    """A stylesheet shipped in the wheel (the repo's ``styles/`` folder)."""
    return (files("fivetowers.styles") / name).read_text(encoding="utf-8")
