"""GoTown's help page (`?`): the rules in short and every key."""

from __future__ import annotations

from fivetowers.i18n.help import help_text as game_help
from fivetowers.ui.help_page import HelpPage, table_help


def help_text(hosted: bool) -> str:
    """The help for local play or for a server's table, in the viewer's
    language: one page per language (``locale/<lang>/help/gotown.md``, its
    rules, cards and keys) with the local or hosted keys put in."""
    return table_help(game_help("gotown"), hosted)


class HelpScreen(HelpPage):
    def __init__(self, hosted: bool = False) -> None:
        super().__init__()
        self.TEXT = help_text(hosted)
