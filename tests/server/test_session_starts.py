"""Sessions start cheaply: the lobby's keys are one widget, viewers of the same
list share its rendered lines, and Apps take turns to start."""

from __future__ import annotations

import asyncio
import gc
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import asyncssh
import pytest
from textual import events
from textual.app import ComposeResult
from textual.geometry import Region
from textual.screen import Screen as TextualScreen
from textual.widgets import DataTable, Static, Tooltip
from textual.notifications import Notification, Notify
from textual.widgets._toast import Toast, ToastRack
from textual.widgets._footer import FooterKey

from fivetowers.games import game_kind
from fivetowers.server import hosted as hosted_module
from fivetowers.server.collector import OLD_BY_SETTLES_ONLY, YOUNG_WHILE_STARTING
from fivetowers.server.hosted import HostedApp
from fivetowers.lobby.model import HostedTable, Lobby
from fivetowers.lobby.app import LobbyApp, lobby_factory
from fivetowers.lobby.lobby_screen import LobbyScreen, TableList
from fivetowers.lobby.new_table_screen import NewTableScreen
from fivetowers.server.driver import SSHDriver
from fivetowers.server.serve import GameServer
from fivetowers.server.session import Visitor
from fivetowers.tables.seats import Seat
from fivetowers.compat.textual import data_table_draw_state
from fivetowers.ui.key_bar import KeyBar, forget_built_lines
from fivetowers.ui.shared_static import SharedStatic

from tests.server.server_helpers import Screen, StartServer, connect


def _lobby(tables: int = 3) -> Lobby:
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, hints=False)
    for t in range(tables):
        code = f"TB{t:03d}"
        lobby.tables[code] = HostedTable(code, f"table {t}",
                                         game_kind("fivetowers"), {"variant": "base"}, False,
                                         [Seat("", None) for _ in range(4)])
    return lobby


def _visitor(name: str) -> Visitor:
    return Visitor(identity=f"SHA256:{name}", name=name, address="127.0.0.1",
                   join_code=None, term="xterm-256color", colorterm="truecolor")


async def test_the_lobby_keys_are_one_line_and_a_click_presses_one() -> None:
    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        assert list(screen.query(FooterKey)) == []  # not a widget per key
        bar = screen.query_one(KeyBar)
        line = bar.line.plain
        for shown in ("sit", "n new table", "w watch", "j join by code", "q leave"):
            assert shown in line
        start, end, key, enabled = next(spot for spot in bar.spots if spot[2] == "n")
        assert enabled and line[start:end] == "n new table"
        await pilot.click(KeyBar, offset=(start, 0))
        await pilot.pause()
        assert isinstance(app.screen, NewTableScreen)


async def test_viewers_of_the_same_list_share_its_lines_and_not_a_seat_mark() -> None:
    lobby = _lobby()
    ann, bo, cy = (LobbyApp(lobby, _visitor(name)) for name in ("ann", "bo", "cy"))
    lobby.sit(lobby.tables["TB001"], "SHA256:cy", "cy")  # cy's list says "(yours)"
    async with ann.run_test(size=(80, 24)) as pilot_a, bo.run_test(size=(80, 24)) as pilot_b, \
            cy.run_test(size=(80, 24)) as pilot_c:
        for pilot in (pilot_a, pilot_b, pilot_c):
            await pilot.pause()
            await pilot.pause()

        def lines(app: LobbyApp) -> list[Any]:
            table = app.screen.query_one(DataTable)
            return table.render_lines(Region(0, 0, table.size.width, table.size.height))

        mine, theirs, cys = lines(ann), lines(bo), lines(cy)
        assert len(mine) == 4 and "TB002" in mine[1].text
        assert all(a is b for a, b in zip(mine, theirs))  # rendered once for both
        assert "(yours)" in "".join(s.text for s in cys)
        assert "(yours)" not in "".join(s.text for s in mine)
        await pilot_b.press("down")  # bo's cursor moves: bo's lines are bo's own
        await pilot_b.pause()
        moved = lines(bo)
        assert [s.text for s in moved] == [s.text for s in mine]
        assert any(a is not b for a, b in zip(mine, moved))
        assert bo.screen.selected_code() != ann.screen.selected_code()  # type: ignore[attr-defined]


async def test_players_on_the_lobby_share_its_background_and_help_lines() -> None:
    lobby = _lobby()
    ann, bo = LobbyApp(lobby, _visitor("ann")), LobbyApp(lobby, _visitor("bo"))
    async with ann.run_test(size=(80, 24)) as pilot_a, bo.run_test(size=(80, 24)) as pilot_b:
        for pilot in (pilot_a, pilot_b):
            await pilot.pause()

        def lines(app: LobbyApp, widget: Any) -> list[Any]:
            return widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))

        for query in ("#lobby-help", "#lobby-empty"):
            mine, theirs = (lines(app, app.screen.query_one(query)) for app in (ann, bo))
            assert mine and all(a is b for a, b in zip(mine, theirs)), query
        assert "join CODE" in lines(ann, ann.screen.query_one("#lobby-help"))[0].text
        backgrounds = [lines(app, app.screen) for app in (ann, bo)]
        assert len(backgrounds[0]) == 24
        assert all(a is b for a, b in zip(*backgrounds))
        # Each one's own name: the title is not shared.
        titles = [lines(app, app.screen.query_one("#lobby-title")) for app in (ann, bo)]
        assert "ann" in titles[0][0].text and "bo" in titles[1][0].text


@asynccontextmanager
async def lobby_shown() -> AsyncIterator[tuple[LobbyApp, Any]]:
    """ann's session on a lobby of three tables, its first screen shown."""
    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        yield app, pilot


async def test_a_lobby_start_is_laid_out_once_not_four_times(
        monkeypatch: pytest.MonkeyPatch) -> None:
    layouts: list[Any] = []
    upstream = TextualScreen._refresh_layout

    def counted(self: TextualScreen[Any], size: Any = None, scroll: bool = False) -> None:
        if isinstance(self, LobbyScreen):
            layouts.append(size)
        upstream(self, size, scroll)

    monkeypatch.setattr(TextualScreen, "_refresh_layout", counted)
    async with lobby_shown() as (app, pilot):
        await asyncio.sleep(0.2)
        await pilot.pause()
        # Textual laid it out again for each Resize the screen sent itself,
        # and once more for each widget's first virtual size.
        assert len(layouts) == 1
        table = app.screen.query_one(DataTable)
        assert table.region.height == 4 and table.row_count == 3
        await pilot.resize_terminal(100, 30)  # a real resize is laid out as ever
        await pilot.pause()
        assert len(layouts) > 1 and app.screen.size == (100, 30)


async def test_the_first_fill_of_the_table_list_clears_nothing_a_later_one_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cleared: list[DataTable[Any]] = []
    upstream = TableList.clear

    def clear(self: TableList, columns: bool = False) -> TableList:
        cleared.append(self)
        return upstream(self, columns)

    monkeypatch.setattr(TableList, "clear", clear)
    async with lobby_shown() as (app, pilot):
        table = app.screen.query_one(TableList)
        assert table.row_count == 3 and not cleared
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        screen.refresh_tables()
        assert cleared == [table] and table.row_count == 3


def test_a_themes_css_variables_are_made_once_for_every_session(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.app import App
    from textual.theme import Theme

    made: list[str] = []
    upstream = Theme.to_color_system

    def counted(self: Theme) -> Any:
        made.append(self.name)
        return upstream(self)

    monkeypatch.setattr(Theme, "to_color_system", counted)
    lobby = _lobby()
    first = LobbyApp(lobby, _visitor("ann"))
    second = LobbyApp(lobby, _visitor("bo"))
    assert second.get_css_variables() == App.get_css_variables(second)  # as Textual makes them
    made.clear()
    assert second.get_css_variables() == first.get_css_variables()
    assert made == []  # made before, by the first session
    assert second.theme_variables == first.theme_variables
    second.theme = "textual-light"
    light = second.get_css_variables()
    assert light != first.get_css_variables() and light == App.get_css_variables(second)


class Starting(HostedApp):
    """Records when it mounts and when its first frame is drawn."""

    def __init__(self, name: str, events: list[str]) -> None:
        super().__init__()
        self.label = name
        self.events = events

    def compose(self) -> ComposeResult:
        yield Static(f"app {self.label}")

    def on_mount(self) -> None:
        self.events.append(f"mount {self.label}")
        self.call_after_refresh(self.drawn)

    def drawn(self) -> None:
        self.events.append(f"frame {self.label}")
        self.set_timer(0.2, self.exit)


async def test_apps_take_turns_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosted_module, "LONGEST_TURN", 60.0)  # only frames end turns here
    events: list[str] = []
    count = hosted_module.STARTING + 1
    apps = [Starting(str(i), events) for i in range(count)]
    await asyncio.wait_for(asyncio.gather(*(app.run_async(headless=True, size=(40, 10))
                                            for app in apps)), 10)
    assert sorted(events) == sorted([f"mount {i}" for i in range(count)]
                                    + [f"frame {i}" for i in range(count)])
    # The last App mounted only once another had drawn its first screen.
    last = events.index(f"mount {count - 1}")
    assert any(event.startswith("frame") for event in events[:last])


async def test_a_start_that_never_draws_holds_the_others_only_so_long(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosted_module, "LONGEST_TURN", 0.05)
    monkeypatch.setattr(hosted_module, "STARTING", 1)
    monkeypatch.setattr(hosted_module, "_turns", type(hosted_module._turns)())

    class Stuck(HostedApp):
        def first_frame_drawn(self) -> None:  # as if it never drew
            pass

    events: list[str] = []
    hung = Stuck()
    task = asyncio.create_task(hung.run_async(headless=True, size=(40, 10)))
    await asyncio.sleep(0)
    await asyncio.wait_for(Starting("next", events).run_async(headless=True, size=(40, 10)), 10)
    assert "frame next" in events
    hung.exit()
    await asyncio.wait_for(task, 10)


def _restyles(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The nodes LobbyApps style again from now on (not mounting's first styling)."""
    restyled: list[object] = []
    original = LobbyApp.update_styles

    def update_styles(self: LobbyApp, node: Any, animate: bool = True) -> None:
        restyled.append(node)
        original(self, node, animate)

    monkeypatch.setattr(LobbyApp, "update_styles", update_styles)
    return restyled


async def test_the_lobby_is_styled_once_when_first_shown_and_again_later(
        monkeypatch: pytest.MonkeyPatch) -> None:
    restyled = _restyles(monkeypatch)
    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        assert screen not in restyled  # mounting styled it: no second pass
        assert "TB002" in screen.query_one(DataTable).render_lines(Region(0, 0, 80, 2))[1].text
        screen.post_message(events.ScreenResume())  # shown again: styled again
        await pilot.pause()
        assert screen in restyled


async def test_the_table_list_is_styled_focused_once_not_again_when_focus_comes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    restyled = _restyles(monkeypatch)
    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(TableList)
        assert app.screen.focused is table and table.has_focus
        assert table not in restyled  # auto focus found it styled focused already
        assert table.has_pseudo_class("focus")
        app.screen.set_focus(None)  # and it still looks unfocused when it is
        await pilot.pause()
        assert not table.has_focus and table in restyled


async def test_the_table_list_is_not_restyled_as_the_session_ends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    restyled = _restyles(monkeypatch)
    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(TableList)
        assert app.screen.focused is table
        blurred: list[bool] = []
        def seen(focused: bool) -> None:
            blurred.append(focused)

        table.watch(table, "has_focus", seen, init=False)
        await app.action_quit()
        await pilot.pause()
    assert blurred == [False]  # focus was taken off it as it was removed
    assert table not in restyled


async def test_the_empty_list_line_is_updated_only_when_its_words_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    updates: list[object] = []
    original = SharedStatic.update

    def update(self: SharedStatic, content: Any = "", *, layout: bool = True) -> None:
        if self.id == "lobby-empty":
            updates.append(content)
        original(self, content, layout=layout)

    monkeypatch.setattr(SharedStatic, "update", update)
    lobby = _lobby()
    app = LobbyApp(lobby, _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        assert updates == []  # composed empty, and a list with tables keeps it so
        saved = dict(lobby.tables)
        lobby.tables.clear()
        screen.refresh_tables()
        screen.refresh_tables()
        empty = screen.query_one("#lobby-empty", SharedStatic)
        assert "No tables yet" in str(empty.content) and len(updates) == 1
        lobby.tables.update(saved)
        screen.refresh_tables()
        assert empty.content == "" and len(updates) == 2


async def test_the_table_list_is_made_a_row_list_with_stripes_without_watchers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    watched: list[str] = []

    def cursor_type(self: DataTable[Any], old: str, new: str) -> None:
        watched.append(new)

    monkeypatch.setattr(DataTable, "watch_cursor_type", cursor_type)
    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(TableList)
        assert table.cursor_type == "row" and table.zebra_stripes
        assert watched == []
        assert table.cursor_row == 0 and table.scroll_offset == (0, 0)


async def test_the_table_list_does_not_look_focused_when_auto_focus_leaves_it() -> None:
    class NoAutoFocus(LobbyScreen):
        AUTO_FOCUS = ""

    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = NoAutoFocus()
        await app.push_screen(screen)
        await pilot.pause()
        table = screen.query_one(TableList)
        assert screen.focused is None
        assert not table.has_focus and not table.has_pseudo_class("focus")


async def test_a_session_s_first_screen_settles_the_garbage_collection(
        start_server: StartServer, client_key: asyncssh.SSHKey) -> None:
    server = await start_server()
    assert server._collecting is not None
    server._collecting.cancel()  # no settles on the clock: only the start's
    # (Not after a reclaim: a start leaves that one's full collection to the
    # regular settle, tests/server/test_collector.py.)
    freezes = server.collector.freezes
    async with await connect(server, client_key, username="hedda") as conn:
        screen = await Screen.open(conn)
        await screen.wait_for("Welcome, hedda.")
        for _ in range(500):  # the frame is sent before the App hears it was drawn
            if server.collector.freezes > freezes:
                break
            await asyncio.sleep(0.01)
        # What the start made is frozen: a crowd's young collections pass it by.
        assert server.collector.freezes == freezes + 1 and server.collector.frozen
        screen.press(b"q")
        assert await screen.wait_closed() == 0


async def _start_drawn(start_server: StartServer, client_key: asyncssh.SSHKey,
                       app: type[HostedApp]) -> GameServer:
    """A session of ``app`` (which shows "drawn") until the server hears its
    start has ended."""
    server = await start_server(lambda visitor: app())
    async with await connect(server, client_key, username="ines") as conn:
        screen = await Screen.open(conn)
        await screen.wait_for("drawn")
        await screen.wait_until(lambda: server.collector.starting == 0, "start ended")
        screen.process.close()
    return server


async def _given_back(server: GameServer, thresholds: tuple[int, int, int]) -> None:
    """While the server runs, the oldest generation is its settles' (see
    collector.OLD_BY_SETTLES_ONLY); once it stopped, the process has the
    thresholds it had before."""
    assert gc.get_threshold() == (*thresholds[:2], OLD_BY_SETTLES_ONLY)
    await server.stop()
    assert gc.get_threshold() == thresholds


async def test_a_start_holds_young_collections_until_its_first_screen(
        start_server: StartServer, client_key: asyncssh.SSHKey) -> None:
    thresholds = gc.get_threshold()
    seen: list[tuple[int, ...]] = []

    class Watched(HostedApp):
        def on_mount(self) -> None:
            seen.append(gc.get_threshold())  # mid-start (Textual calls HostedApp's too)

        def compose(self) -> ComposeResult:
            yield Static("drawn")

    server = await _start_drawn(start_server, client_key, Watched)
    assert seen and seen[0][0] >= YOUNG_WHILE_STARTING
    await _given_back(server, thresholds)  # the young one back at the first screen


async def test_a_start_slower_than_its_turn_still_ends_at_its_first_screen(
        start_server: StartServer, client_key: asyncssh.SSHKey,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Under load a start can outlast LONGEST_TURN: its turn goes to the next
    # App, but the server must still hear of its first screen, or young
    # collections stayed held off for the whole session.
    import fivetowers.server.hosted as hosted

    monkeypatch.setattr(hosted, "LONGEST_TURN", 0.0)
    thresholds = gc.get_threshold()

    class Slow(HostedApp):
        async def on_mount(self) -> None:
            await asyncio.sleep(0.2)  # the turn's timer has fired

        def compose(self) -> ComposeResult:
            yield Static("drawn")

    await _given_back(await _start_drawn(start_server, client_key, Slow), thresholds)


async def test_a_start_gone_before_its_first_screen_gives_young_collections_back(
        start_server: StartServer, client_key: asyncssh.SSHKey) -> None:
    thresholds = gc.get_threshold()

    class Gone(HostedApp):
        def first_frame_drawn(self) -> None:  # as if it never drew
            self.exit()

    server = await start_server(lambda visitor: Gone())
    async with await connect(server, client_key, username="jo") as conn:
        screen = await Screen.open(conn)
        await screen.wait_closed()
    assert server.collector.starting == 0
    await _given_back(server, thresholds)


async def test_what_a_start_writes_before_its_first_frame_goes_out_with_it(
        start_server: StartServer, client_key: asyncssh.SSHKey,
        monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[str] = []
    original = SSHDriver._send

    def send(self: SSHDriver, data: str) -> None:
        sent.append(data)
        original(self, data)

    monkeypatch.setattr(SSHDriver, "_send", send)
    server = await start_server(lobby_factory(_lobby()))
    async with await connect(server, client_key, username="kim") as conn:
        screen = await Screen.open(conn, 80, 24)
        await screen.wait_for("TB002")
        assert sent[0].startswith("\x1b[?1049h")  # the switch to the App's screen, at once
        # Then one write (one SSH packet): the screens' pointer shapes and the frame.
        assert "\x1b]22;" in sent[1] and "TB002" in sent[1]
        screen.press(b"q")
        await screen.wait_closed()


async def test_no_tooltip_and_no_toast_rack_until_a_notification_then_toasts_show() -> None:
    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        assert not lobby.query(Tooltip) and not lobby.query(ToastRack)  # two widgets fewer
        app.notify("the first news", markup=False)
        await pilot.pause()
        await pilot.pause()
        assert [str(toast.render()) for toast in lobby.query(Toast)] == ["the first news"]
        await pilot.press("n")  # a screen made since composes its own rack
        await pilot.pause()
        assert isinstance(app.screen, NewTableScreen) and app.screen.query(ToastRack)
        app.notify("more news", markup=False)
        await pilot.pause()
        await pilot.pause()
        assert "more news" in [str(toast.render()) for toast in app.screen.query(Toast)]


class NotedAtOnce(HostedApp):
    """A notification reaches a screen not composed yet (as a welcome back may)."""

    def on_mount(self) -> None:
        self.push_screen(TextualScreen())
        # As Textual handles a Notify message, here before the screen composed.
        self._on_notify(Notify(Notification("welcome back", timeout=30)))


async def test_a_notification_before_the_first_screen_composed_is_shown_once() -> None:
    app = NotedAtOnce()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for _ in range(3):
            await pilot.pause()
        assert len(app.screen.query(ToastRack)) == 1
        assert [str(toast.render()) for toast in app.screen.query(Toast)] == ["welcome back"]


class NotedAndGone(HostedApp):
    """A notification for a screen that is gone before its rack is added (a
    flooder is told to slow down and disconnected at once: the session's App
    exits before the screen is mounted)."""

    def on_mount(self) -> None:
        self.push_screen(TextualScreen())
        self._on_notify(Notify(Notification("slow down", timeout=30)))
        self.exit()


async def test_a_notification_as_the_session_ends_is_dropped_quietly() -> None:
    app = NotedAndGone()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for _ in range(3):
            await pilot.pause()
        assert app.return_value is None and not app._exception


async def test_the_screen_under_the_lobby_is_not_laid_out_with_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each layout of the (empty) default screen under the lobby had the lobby
    drawn again in full: three full frames in a session's start, not two."""
    layouts: list[TextualScreen[Any]] = []
    refresh_layout = TextualScreen._refresh_layout

    def counting(screen: TextualScreen[Any], *args: Any, **kwargs: Any) -> None:
        layouts.append(screen)
        refresh_layout(screen, *args, **kwargs)

    monkeypatch.setattr(TextualScreen, "_refresh_layout", counting)
    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        under = app.screen_stack[0]
        layouts.clear()
        await pilot.resize_terminal(90, 30)
        await pilot.pause()
        assert under not in layouts
        assert app.screen in layouts


async def test_the_lobby_key_line_is_built_once_per_start_and_again_when_the_keys_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Focus and showing the screen say "the keys changed" three times while
    # a lobby starts, always with the same keys: one line, styled once.
    styled: list[str] = []
    original = KeyBar.get_component_rich_style

    def get_component_rich_style(self: KeyBar, *names: str, partial: bool = False) -> Any:
        styled.extend(names)
        return original(self, *names, partial=partial)

    monkeypatch.setattr(KeyBar, "get_component_rich_style", get_component_rich_style)
    forget_built_lines()  # another test's App may have built these lines already
    app = LobbyApp(_lobby(), _visitor("ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        bar = screen.query_one(KeyBar)
        assert styled == ["key-bar--key", "key-bar--description"]
        assert "n new table" in bar.line.plain
        screen.refresh_bindings()  # the same keys: nothing to build
        await pilot.pause()
        assert len(styled) == 2
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        screen.refresh_bindings()  # another theme: styled again
        await pilot.pause()
        assert len(styled) == 4
        await pilot.press("t")  # the keys in another language
        await pilot.pause()
        assert len(styled) > 4
        assert "n new table" not in app.screen.query_one(KeyBar).line.plain


async def test_sessions_showing_the_same_keys_share_one_key_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Every lobby player's start built and styled the same line.
    styled: list[str] = []
    original = KeyBar.get_component_rich_style

    def get_component_rich_style(self: KeyBar, *names: str, partial: bool = False) -> Any:
        styled.extend(names)
        return original(self, *names, partial=partial)

    monkeypatch.setattr(KeyBar, "get_component_rich_style", get_component_rich_style)
    forget_built_lines()
    lobby = _lobby()
    lines = []
    styled_before = 0
    for name, theme in (("ann", None), ("bo", None), ("cy", "textual-light")):
        styled_before = len(styled)
        app = LobbyApp(lobby, _visitor(name))
        if theme is not None:
            app.theme = theme
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            bar = app.screen.query_one(KeyBar)
            lines.append((bar.line, list(bar.spots), app.screen.render_lines(bar.region)))
            if name == "bo":  # the same keys, words and theme: ann's line, not styled again
                assert styled == ["key-bar--key", "key-bar--description"]
                assert bar.line is lines[0][0]
                await pilot.click(KeyBar, offset=(bar.spots[0][0], 0))  # its spots work
                await pilot.pause()
                assert not isinstance(app.screen, LobbyScreen)
    assert len(styled) == styled_before + 2  # another theme: styled anew
    assert lines[1][1:] == lines[0][1:]
    assert lines[2][0] is not lines[0][0] and lines[2][2] != lines[0][2]


async def test_viewers_of_the_same_list_measure_its_rows_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import _data_table

    measured: list[object] = []
    original = _data_table.measure

    def measure(console: Any, renderable: Any, default: int, **kwargs: Any) -> int:
        measured.append(renderable)
        return original(console, renderable, default, **kwargs)

    monkeypatch.setattr(_data_table, "measure", measure)
    lobby = _lobby()
    lobby.tables["TB001"].name = "a table with a long name"  # wider than the column's label
    widths: list[list[int]] = []
    for name in ("ann", "bo", "cy"):
        if name == "cy":
            lobby.sit(lobby.tables["TB001"], "SHA256:cy", "cy")  # cy's list says "(yours)"
        measured.clear()
        app = LobbyApp(lobby, _visitor(name))
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()
            table = app.screen.query_one(DataTable)
            assert not data_table_draw_state(table)[0]
            widths.append([column.get_render_width(table) for column in table.ordered_columns])
            rows_measured = sum(1 for r in measured if "TB00" in str(r))
            text = "".join(s.text for s in table.render_lines(Region(0, 0, 100, 5)))
        assert "a table with a long name" in text
        if name == "bo":  # ann's list again: ann's widths, nothing measured
            assert rows_measured == 0 and widths[1] == widths[0]
        else:
            assert rows_measured == 3  # its own list: each code measured
    assert widths[2][1] > widths[0][1]  # "(yours)" made cy's name column wider


async def test_a_lobby_start_draws_one_frame_and_it_shows_the_whole_list(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from textual._compositor import Compositor
    from fivetowers.compat.dirty_lines import render_dirty_lines_only

    render_dirty_lines_only()  # as every App has it: wrapped below, not after
    frames: list[tuple[str, str]] = []
    full, partial = Compositor.render_full_update, Compositor.render_partial_update

    def drawn(kind: str, render: Any) -> Any:
        def counted(self: Compositor, *args: Any, **kwargs: Any) -> Any:
            update = render(self, *args, **kwargs)
            if isinstance(self.root, LobbyScreen) and update is not None:
                table = self.root.query_one(TableList)
                frames.append((kind, "".join(strip.text for strip in table.render_lines(
                    Region(0, 0, table.size.width, table.size.height)))))
            return update
        return counted

    monkeypatch.setattr(Compositor, "render_full_update", drawn("full", full))
    monkeypatch.setattr(Compositor, "render_partial_update", drawn("partial", partial))
    async with lobby_shown() as (app, pilot):
        await asyncio.sleep(0.2)
        await pilot.pause()
        # Not a frame drawn while the App mounts (Textual drops it), then
        # another for the rows measured, then one more for the widgets sized.
        assert [kind for kind, _ in frames] == ["full"]
        assert "TB002" in frames[0][1]  # its rows measured before it was drawn
        table = app.screen.query_one(TableList)
        await pilot.press("down")  # later changes are drawn as ever
        await pilot.pause()
        assert table.cursor_coordinate.row == 1
        assert [kind for kind, _ in frames][1:] == ["partial"]


async def test_a_scrollbar_that_comes_with_the_first_layout_is_laid_out_and_drawn() -> None:
    from textual.containers import VerticalScroll
    from fivetowers.compat.textual import SettledScreen

    class Long(SettledScreen):
        def compose(self) -> ComposeResult:
            with VerticalScroll(id="long"):
                for n in range(30):
                    yield Static(f"line {n}")

    class LongApp(HostedApp):
        def on_mount(self) -> None:
            self.push_screen(Long())
            super().on_mount()

    app = LongApp()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        await asyncio.sleep(0.1)
        await pilot.pause()
        scroller = app.screen.query_one("#long")
        # The first layout made the scrollbar appear: laid out again for it,
        # the lines are one column narrower and the bar is drawn.
        assert scroller.show_vertical_scrollbar
        assert app.screen.query_one(Static).size.width == 40 - scroller.scrollbar_size_vertical
        drawn = "".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "line 0" in drawn
