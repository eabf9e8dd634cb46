"""Asked before ``q`` leaves a local game that is not over."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from fivetowers.ui.key_footer import KeyFooter


class LeaveScreen(ModalScreen[bool]):
    """Dismissed with True to leave, False to go on playing."""

    DEFAULT_CSS = """
    LeaveScreen { align: center middle; }
    #leave { width: 64; max-width: 100%; height: auto; padding: 1 2;
             border: thick $warning; background: $surface; }
    """
    BINDINGS = [
        Binding("y", "leave", "leave the game"),
        Binding("n", "stay", "go on playing"),
        Binding("escape", "stay", "go on playing", show=False),
        Binding("q", "stay", "go on playing", show=False),
    ]

    def __init__(self, kept: bool, resume: str = "fivetowers play --resume") -> None:
        super().__init__()
        self.kept = kept
        self.resume = resume
        """The command that takes the player back to the game."""

    def compose(self) -> ComposeResult:
        text = Text("Leave this game?\n\n", style="bold")
        if self.kept:
            text.append("It is kept: ")
            text.append(self.resume, style="bold")
            text.append(" takes you back to it, as it is now.")
        else:
            text.append("It is not kept (the store could not be opened): leaving ends it.")
        text.append("\n\n")
        text.append("y", style="bold green")
        text.append(" leave    ")
        text.append("n", style="bold green")
        text.append(" go on playing")
        with Vertical(id="leave"):
            yield Static(text)
        yield KeyFooter(compact=True)

    def action_leave(self) -> None:
        self.dismiss(True)

    def action_stay(self) -> None:
        self.dismiss(False)
