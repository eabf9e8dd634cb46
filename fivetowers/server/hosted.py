"""The base of every app served over SSH.

Players are strangers, and the app runs inside the server process. Textual's
command palette offers system commands that act on the host (saving a
screenshot writes a file into the server user's Downloads folder), so a
hosted app offers no palette, no system commands and no screenshot action.
"""

from __future__ import annotations

from typing import Any, Iterable

from textual.app import App, SystemCommand
from textual.screen import Screen

from fivetowers.server.shared_css import share_parsed_css


class HostedApp(App[None]):
    ENABLE_COMMAND_PALETTE = False

    def __init__(self) -> None:
        share_parsed_css()  # the sessions' CSS parsed once for all of them
        super().__init__()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        return ()

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        self.bell()
