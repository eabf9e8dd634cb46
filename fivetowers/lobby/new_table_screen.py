"""Small forms over the lobby: a new table, joining by code, a chat line."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Select, Static, Switch

from fivetowers.compat.textual import InOrderInput
from fivetowers.games import game_kinds
from fivetowers.games.protocol import GameKind, GameOption
from fivetowers.i18n import N_, _
from fivetowers.lobby.model import CHAT_LENGTH, TITLE_LENGTH
from fivetowers.ui.capped_input import CappedInput


@dataclass(frozen=True)
class NewTable:
    """What the creator asked for."""

    title: str
    players: int
    bots: int
    private: bool
    kind: str = "fivetowers"
    """The registry name of the game."""
    options: dict[str, str] = field(default_factory=dict)
    """The game's options as chosen (``GameOption.key`` -> value)."""


OPTION_WORDS = (N_("Variant"), N_("base game"), N_("Great Powers"),
                N_("Floors to win"), N_("5 floors"), N_("4 floors (short game)"))
"""The registered games' option labels and choices (``GameOption``, in each
game's kind.py, which translates nothing): listed for the catalog, shown with
``_`` by the form."""


def seats_label(kind: GameKind) -> str:
    return _("Seats ({least}-{most})").format(least=kind.min_players, most=kind.max_players)


def seats_allowed(kind: GameKind) -> str:
    """What the seats field lets one type: a digit the game allows, or nothing yet."""
    return f"[{kind.min_players}-{kind.max_players}]?" if kind.max_players < 10 else "[0-9]*"


def bots_allowed(kind: GameKind) -> str:
    """What the bots field lets one type: fewer than the most seats (one is yours)."""
    return f"[0-{kind.max_players - 1}]?" if kind.max_players <= 10 else "[0-9]*"


class NewTableScreen(ModalScreen[NewTable | None]):
    """Enter in any field creates the table; Escape cancels.

    Every registered game is offered, each with the options it declares: a
    two-way option is a switch named after its other choice (5 Towers'
    "Great Powers"), a longer one a drop-down. With one game registered the
    form shows no game choice; with more, a drop-down on top chooses it and
    only the chosen game's options show.

    ``refusal`` says why no table may be opened now (the server's or this
    player's limit), or None: the form shows it at once and on Enter."""

    BINDINGS = [Binding("escape", "cancel", N_("cancel"))]
    AUTO_FOCUS = "#title"
    """The name first, whatever games there are (most keep the first game;
    shift+tab reaches the game's drop-down above it)."""
    # A one-line drop-down, level with its label (a label sits a line down,
    # level with the text of the three-line inputs beside it).
    DEFAULT_CSS = """
    NewTableScreen .form-row Select { width: 24; margin: 1 1 0 0; }
    """

    def __init__(self, refusal: Callable[[], str | None] | None = None) -> None:
        super().__init__()
        self._refusal = refusal
        self.kinds = {kind.name: kind for kind in game_kinds()}
        self.kind = next(iter(self.kinds.values()))
        """The game chosen (the first registered until the player picks another)."""

    def on_mount(self) -> None:
        self._refused()

    def _refused(self) -> bool:
        """Show why no table can be opened, if so; True then."""
        reason = self._refusal() if self._refusal is not None else None
        if reason is not None:
            self.query_one("#form-error", Static).update(
                Text(_("No new table: {reason}.").format(reason=reason), style="bold red"))
        return reason is not None

    def compose(self) -> ComposeResult:
        several = len(self.kinds) > 1
        with Vertical(id="new-table", classes="form"):
            yield Static(_("New table  (Tab: next field, Enter: create, Esc: cancel)"),
                         classes="form-title")
            if several:
                with Horizontal(classes="form-row"):
                    yield Label(_("Game"))
                    yield Select([(kind.title, kind.name) for kind in self.kinds.values()],
                                 value=self.kind.name, allow_blank=False, compact=True,
                                 id="game")
            yield Label(_("Name"))
            yield InOrderInput(placeholder=_("a name for the table"), id="title",
                        max_length=TITLE_LENGTH)
            with Horizontal(classes="form-row"):
                yield Label(seats_label(self.kind), id="seats-label")
                yield InOrderInput(str(min(max(3, self.kind.min_players), self.kind.max_players)),
                            id="players", max_length=len(str(self.kind.max_players)),
                            restrict=seats_allowed(self.kind))
                yield Label(_("of them bots"))
                yield InOrderInput("1", id="bots", max_length=len(str(self.kind.max_players - 1)),
                            restrict=bots_allowed(self.kind))
            for kind in self.kinds.values():
                with Horizontal(classes="form-row game-options", id=f"options-{kind.name}") \
                        as row:
                    row.display = kind is self.kind
                    for option in kind.options:
                        yield from self.option_fields(kind, option)
                    if not several:
                        yield Label(_("Private"))
                        yield Switch(False, id="private")
            if several:
                with Horizontal(classes="form-row"):
                    yield Label(_("Private"))
                    yield Switch(False, id="private")
            yield Static("", id="form-error")

    @staticmethod
    def option_fields(kind: GameKind, option: GameOption) -> ComposeResult:
        field_id = f"option-{kind.name}-{option.key}"
        if len(option.choices) == 2:
            yield Label(_(option.choices[1][1]))
            yield Switch(False, id=field_id)
        else:
            yield Label(_(option.label))
            yield Select([(_(text), value) for value, text in option.choices],
                         value=option.default, allow_blank=False, compact=True, id=field_id)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id != "game" or not isinstance(event.value, str):
            return
        self.kind = self.kinds[event.value]
        for kind in self.kinds.values():
            self.query_one(f"#options-{kind.name}").display = kind is self.kind
        self.query_one("#seats-label", Label).update(seats_label(self.kind))
        players = self.query_one("#players", Input)
        players.restrict = seats_allowed(self.kind)
        players.max_length = len(str(self.kind.max_players))
        players.value = str(min(max(3, self.kind.min_players), self.kind.max_players))
        bots = self.query_one("#bots", Input)
        bots.restrict = bots_allowed(self.kind)
        bots.max_length = len(str(self.kind.max_players - 1))

    def chosen_options(self) -> dict[str, str]:
        chosen: dict[str, str] = {}
        for option in self.kind.options:
            field_id = f"#option-{self.kind.name}-{option.key}"
            if len(option.choices) == 2:
                on = self.query_one(field_id, Switch).value
                chosen[option.key] = option.choices[1 if on else 0][0]
            else:
                value = self.query_one(field_id, Select).value
                chosen[option.key] = value if isinstance(value, str) else option.default
        return chosen

    def on_input_submitted(self) -> None:
        kind = self.kind
        players = self.query_one("#players", Input).value
        bots = self.query_one("#bots", Input).value
        if not players.isdigit() or not bots.isdigit() \
                or kind.players_problem(int(players)) is not None or int(bots) >= int(players):
            self.query_one("#form-error", Static).update(
                _("Seats {least}-{most}, and fewer bots than seats (one seat is yours).").format(
                    least=kind.min_players, most=kind.max_players))
            return
        if self._refused():
            return
        self.dismiss(NewTable(
            title=self.query_one("#title", Input).value,
            players=int(players), bots=int(bots), kind=kind.name,
            options=self.chosen_options(),
            private=self.query_one("#private", Switch).value))

    def action_cancel(self) -> None:
        self.dismiss(None)


class JoinScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", N_("cancel"))]

    def compose(self) -> ComposeResult:
        with Vertical(id="join", classes="form"):
            yield Static(_("Join a table by its code (Enter: join, Esc: cancel)"),
                         classes="form-title")
            yield InOrderInput(placeholder="CODE", id="code", max_length=12,
                        restrict=r"[A-Za-z0-9]*")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip().upper() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChatScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", N_("cancel"))]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat", classes="form"):
            yield Static(_("Say to the table (Enter: send, Esc: cancel)"), classes="form-title")
            yield CappedInput(placeholder=_("a line for everyone at this table"), id="line",
                              max_length=CHAT_LENGTH)
            yield Static("", id="chat-note")

    def on_capped_input_cut(self, event: CappedInput.Cut) -> None:
        self.query_one("#chat-note", Static).update(Text(
            _("Paste cut to fit {most} characters ({left_out} left out).").format(
                most=CHAT_LENGTH, left_out=event.left_out),
            style="bold yellow"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
