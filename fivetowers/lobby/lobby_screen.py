"""The lobby screen: the hosted tables, and keys to create, sit, watch or join."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer
from textual.widgets import DataTable, Static

from fivetowers.compat.data_table import add_rows_at_once
from fivetowers.compat.textual import SettledScreen, is_being_removed
from fivetowers.games import game_kinds
from fivetowers.i18n import N_, _
from fivetowers.lobby.host import LobbyChanged, LobbyHost, lobby_host
from fivetowers.ui.shared_lines import shared_lines
from fivetowers.ui.shared_static import SharedStatic
from fivetowers.ui.shared_table import SharedTable
from fivetowers.ui.styled_template import styled_template
from fivetowers.ui.key_bar import KeyBar


class TableList(SharedTable):
    """The hosted tables, one per row; every viewer of the same list shares its lines.

    Players arriving together all see the same list; ``listing`` is what the
    rows show (see SharedTable)."""

    def watch_has_focus(self, has_focus: bool) -> None:
        # As a session ends, Textual takes focus off the list it is removing
        # (``App._prune``): restyling a list nobody will see again, and its
        # dozen component classes, was a third of a session's end.
        if not is_being_removed(self):
            super().watch_has_focus(has_focus)


class LobbyScreen(SettledScreen):
    BINDINGS = [
        Binding("n", "new_table", N_("new table")),
        Binding("enter", "sit", N_("sit"), priority=True),
        Binding("w", "watch", N_("watch")),
        Binding("j", "join", N_("join by code")),
        Binding("g", "my_games", N_("games")),
        Binding("l", "leaderboard", N_("ratings")),
        # The key names the language it switches to, in that language.
        Binding("t", "language", N_("Tiếng Việt")),
        Binding("q", "quit", N_("leave")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._stale = False
        self._listening = False
        self._pending_refresh: Timer | None = None
        self._shown = False
        self.games_shown = len(game_kinds()) > 1
        """Whether the list says each table's game: only when there is a choice."""

    def post_message(self, message: Message) -> bool:
        # Textual restyles every widget of a screen each time it is shown, the
        # first time too, right after mounting styled them all: a tenth of a
        # session's start. Later showings restyle (the theme may have changed).
        if isinstance(message, events.ScreenResume) and not self._shown:
            self._shown = True
            message.refresh_styles = False
        return super().post_message(message)

    def render_lines(self, crop: Region) -> list[Strip]:
        # The background behind the widgets, the same for every player: drawn
        # once (a see-through one blends with the screen below: drawn alone).
        shared = None if self.styles.background.a < 1 else ("background",)
        return shared_lines(self, shared, crop, super().render_lines)

    @property
    def lobby_host(self) -> LobbyHost:
        return lobby_host(self)

    def compose(self) -> ComposeResult:
        app = self.lobby_host
        # One template, so a language may put the words in its own order
        # ("Sảnh 5 Towers — bạn là …").
        title = styled_template(_("{game} lobby — you are {name}"),
                                game=("5 Towers", "bold"), name=(app.player_name, "bold"))
        yield Static(title, id="lobby-title")
        tables = TableList(id="tables")
        # Set without their watchers: on a list not mounted and still empty
        # they change nothing (no row to highlight, none to scroll to), and
        # the cursor's scrolled to the first row of nothing (1% of a start).
        tables.set_reactive(TableList.cursor_type, "row")
        tables.set_reactive(TableList.zebra_stripes, True)
        if self.app.app_focus and self.focused is None:
            # Textual's auto focus picks the list (the first focusable widget)
            # right after mounting styled it, and taking focus styled it and its
            # dozen component classes again: it is styled focused from the start.
            tables.set_reactive(TableList.has_focus, True)
        yield tables
        yield SharedStatic("", id="lobby-empty")
        yield SharedStatic(Text.assemble(
            _("Share a table's code: others type  "),
            (f"ssh -t -p {app.port} {app.server_name} join CODE", "bold")), id="lobby-help")
        # Textual's compact footer drawn as one widget: a FooterKey per key,
        # rebuilt each time focus settled, was about half of a session's start.
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        if table.has_focus and self.focused is not table:  # auto focus went elsewhere
            table.has_focus = False
        table.add_columns(_("code"), _("table"), *((_("game"),) if self.games_shown else ()),
                          _("rules"), _("seats"), _("status"))
        self._listen(True)
        self.refresh_tables(first=True)

    def on_unmount(self) -> None:
        self._listen(False)

    def _listen(self, on: bool) -> None:
        if on != self._listening:
            self._listening = on
            if on:
                self.lobby_host.lobby.subscribe(self._on_lobby_change)
            else:
                self.lobby_host.lobby.unsubscribe(self._on_lobby_change)

    def _on_lobby_change(self) -> None:
        # Called from whichever session changed the lobby: only post here, so
        # the work below runs in this App's own context. Its own sender: the
        # last message a loop handled stays its local until the next, and an
        # ended session's App (the watcher who left) must not be kept by it.
        self.post_message(LobbyChanged().set_sender(self))

    def on_lobby_changed(self, message: LobbyChanged) -> None:
        # Every move at every table changes some status. A lobby under a table
        # screen only notes it; a shown one redraws at most a few times a second.
        # Not ``is_current``: Textual counts the screen right under the top one
        # as current, and its every redraw repaints the whole table screen.
        if self.app.screen is not self:
            self._stale = True
        elif self._pending_refresh is None:
            self._pending_refresh = self.set_timer(0.3, self._refresh_later)

    def _refresh_later(self) -> None:
        self._pending_refresh = None
        self.refresh_tables()

    def on_screen_suspend(self) -> None:
        # Under a table screen this screen hears nothing: Textual keeps the
        # screen below the top one "current", and any message it handles ends
        # in a full repaint of the table screen over it (every move at every
        # table would cost every seated player a whole frame).
        self._listen(False)
        self._stale = True
        if self._pending_refresh is not None:
            self._pending_refresh.stop()
            self._pending_refresh = None

    def on_screen_resume(self) -> None:
        self._listen(True)
        if self._stale:
            self._stale = False
            self.refresh_tables()

    def refresh_tables(self, first: bool = False) -> None:
        app = self.lobby_host
        table = self.query_one(TableList)
        selected = self.selected_code()
        if not first:  # a list just made has nothing to clear (a start's 1% of calls)
            table.clear()
        rows = []
        for hosted in app.lobby.listing(app.identity):
            mine = hosted.seat_of(app.identity) is not None
            game = (hosted.kind.title,) if self.games_shown else ()
            rows.append((hosted.code, hosted.name + (_(" (yours)") if mine else ""), *game,
                         hosted.rules_text, hosted.taken(), hosted.status()))
        add_rows_at_once(table, [(row[0], (row[0], Text(row[1]), *row[2:])) for row in rows])
        table.listing = tuple(rows)
        table.measure_now()  # the first frame shows the rows (see measure_now)
        if selected is not None and selected in {str(k.value) for k in table.rows}:
            table.move_cursor(row=table.get_row_index(selected))
        empty = self.query_one("#lobby-empty", SharedStatic)
        says = "" if table.row_count else _("No tables yet: press n to create one.")
        if empty.content != says:  # (the same words: no new visual, no layout; 1% of a start)
            empty.update(says)

    def selected_code(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return None if key.value is None else str(key.value)

    def action_new_table(self) -> None:
        from fivetowers.lobby.new_table_screen import NewTableScreen
        app = self.lobby_host
        self.app.push_screen(NewTableScreen(app.new_table_refusal), app.create_table)

    def action_sit(self) -> None:
        code = self.selected_code()
        if code is not None:
            self.lobby_host.open_table(code, watch=False)

    def action_watch(self) -> None:
        code = self.selected_code()
        if code is not None:
            self.lobby_host.open_table(code, watch=True)

    def action_join(self) -> None:
        from fivetowers.lobby.new_table_screen import JoinScreen
        self.app.push_screen(JoinScreen(), self._join)

    def _join(self, code: str | None) -> None:
        if code:
            self.lobby_host.open_table(code, watch=None)

    def action_my_games(self) -> None:
        from fivetowers.lobby.archive import Archive
        from fivetowers.lobby.my_games_screen import MyGamesScreen
        app = self.lobby_host
        archive = Archive(app.lobby.store, app.lobby.writer)
        self.app.push_screen(MyGamesScreen(archive, app.identity))

    def action_leaderboard(self) -> None:
        from fivetowers.lobby.archive import Archive
        from fivetowers.lobby.leaderboard_screen import LeaderboardScreen
        app = self.lobby_host
        archive = Archive(app.lobby.store, app.lobby.writer)
        self.app.push_screen(LeaderboardScreen(archive, app.identity))

    def action_language(self) -> None:
        self.lobby_host.switch_language()

    def action_quit(self) -> None:
        self.app.exit()
