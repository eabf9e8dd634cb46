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


LOCAL_KEYS = (("q", N_("quit")),)
HOSTED_KEYS = (("c", N_("chat: say a line to everyone at the table")),
               ("q", N_("back to the lobby (your seat is kept; the lobby's `q` disconnects)")))


def table_help(text: str, hosted: bool) -> str:
    """A game's help page for local play (q quits) or for a server's table
    (q goes back to the lobby, c chats): ``text`` holds ``{leave_keys}`` in
    its key table and ``{end_q}`` where it says what the end screen's q does."""
    keys = "".join(f"| `{key}` | {_(what)} |\n" for key, what in
                   (HOSTED_KEYS if hosted else LOCAL_KEYS))
    return text.format(leave_keys=keys,
                       end_q=_("`q` goes back to the lobby") if hosted else _("`q` quits"))
