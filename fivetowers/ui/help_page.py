"""A game's help page (`?`): its rules in short and every key, as Markdown."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from fivetowers.ui.key_footer import KeyFooter


class HelpPage(ModalScreen[None]):
    """Shows ``TEXT`` (a subclass's Markdown); `escape`, `?` or `q` closes it."""

    TEXT = ""
    BINDINGS = [
        Binding("escape", "close", "close"),
        Binding("question_mark", "close", "close", key_display="?", show=False),
        Binding("q", "close", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(self.TEXT)
        yield KeyFooter(compact=True)

    def action_close(self) -> None:
        self.dismiss()
