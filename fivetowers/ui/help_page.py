"""A game's help page (`?`): its rules in short and every key, as Markdown."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from fivetowers.i18n import N_, _
from fivetowers.ui.key_footer import KeyFooter


class HelpPage(ModalScreen[None]):
    """Shows ``TEXT`` (a subclass's Markdown); `escape`, `?` or `q` closes it."""

    TEXT = ""
    BINDINGS = [
        Binding("escape", "close", N_("close")),
        Binding("question_mark", "close", N_("close"), key_display="?", show=False),
        Binding("q", "close", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(self.TEXT)
        yield KeyFooter(compact=True)

    def action_close(self) -> None:
        self.dismiss()


LOCAL_KEYS = N_("| `q` | quit |\n")
HOSTED_KEYS = N_("| `c` | chat: say a line to everyone at the table |\n"
                 "| `q` | back to the lobby (your seat is kept; the lobby's `q` disconnects) |\n")


def table_help(text: str, hosted: bool) -> str:
    """A game's help page for local play (q quits) or for a server's table
    (q goes back to the lobby, c chats): ``text`` holds ``{leave_keys}`` in
    its key table and ``{end_q}`` where it says what the end screen's q does."""
    return text.format(leave_keys=_(HOSTED_KEYS if hosted else LOCAL_KEYS),
                       end_q=_("`q` goes back to the lobby") if hosted else _("`q` quits"))
