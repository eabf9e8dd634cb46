"""The lobby package's shape (issue 12): no import cycles, screens that ask
their app only what :class:`LobbyHost` declares, no private fields read or
written across modules.

The checks read the source (every import counts: at the top, inside a
function, under ``TYPE_CHECKING``), so a cycle cannot hide behind a late import.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import fivetowers
from fivetowers.lobby.host import LobbyHost, NotInLobby, lobby_host

ROOT = Path(fivetowers.__file__).parent
LOBBY = ROOT / "lobby"
GAMES = ROOT / "games"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, package: str) -> set[str]:
    """The modules of ``package`` that ``path`` imports, wherever the import is."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            # ``from package import module`` imports that module too
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        found |= {n for n in names if n == package or n.startswith(package + ".")}
    return found


def import_graph(folder: Path) -> dict[str, set[str]]:
    package = module_name(folder / "__init__.py")
    modules = {module_name(p): p for p in folder.rglob("*.py")}
    return {name: {m for m in imports_of(path, package) if m in modules and m != name}
            for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle, as the modules along it (depth-first search)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def getattr_on_app(path: Path) -> list[str]:
    """``getattr(<something>.app, ...)`` or ``getattr(app, ...)`` calls."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr") and node.args:
            target = node.args[0]
            if (isinstance(target, ast.Attribute) and target.attr == "app") \
                    or (isinstance(target, ast.Name) and target.id == "app"):
                out.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return out


def untyped_app_calls(path: Path) -> list[str]:
    """Lines that call something on ``self.app`` the App type does not have
    (silenced with ``type: ignore[attr-defined]``)."""
    return [f"{path.name}:{n}: {line.strip()}"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if ".app." in line and "type: ignore[attr-defined]" in line]


def private_access(path: Path) -> list[str]:
    """``thing._field`` where ``thing`` is not ``self`` or ``cls``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                out.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return out


def screen_modules() -> list[Path]:
    """The lobby's modules that define a screen (a class based on ``*Screen[...]``)."""
    def defines_screen(path: Path) -> bool:
        return any(isinstance(node, ast.ClassDef)
                   and any("Screen" in ast.unparse(base) for base in node.bases)
                   for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    return sorted(p for p in LOBBY.glob("*.py") if defines_screen(p))


def test_the_lobby_package_has_no_import_cycle() -> None:
    assert cycles(import_graph(LOBBY)) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    # The check itself: the graph the lobby had before (app and its screens).
    graph = {"app": {"lobby_screen", "waiting_screen"}, "lobby_screen": {"app"},
             "waiting_screen": {"lobby_screen", "app"}}
    assert ["app", "lobby_screen", "app"] in cycles(graph)


def test_screens_never_import_the_app() -> None:
    assert len(screen_modules()) >= 5  # lobby, waiting, forms, my games, leaderboard
    for path in screen_modules():
        assert "fivetowers.lobby.app" not in imports_of(path, "fivetowers"), path.name


def test_no_screen_reads_its_app_through_getattr_or_an_ignored_type() -> None:
    paths = [*LOBBY.glob("*.py"), *(GAMES).rglob("tui/**/*.py")]
    assert [hit for p in paths for hit in getattr_on_app(p) + untyped_app_calls(p)] == []


def test_the_scans_see_what_they_look_for(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(self):\n"
                   "    hosted._takeovers[1] = getattr(self.app, 'lobby')\n"
                   "    self.app.show_end(x)  # type: ignore[attr-defined]\n")
    assert len(getattr_on_app(bad)) == 1
    assert len(untyped_app_calls(bad)) == 1
    assert private_access(bad) == ["bad.py:2: hosted._takeovers"]


def test_the_lobby_touches_no_private_field_of_another_object() -> None:
    assert [hit for p in LOBBY.glob("*.py") for hit in private_access(p)] == []


@pytest.mark.parametrize("module", sorted(import_graph(LOBBY)))
def test_every_lobby_module_imports_alone(module: str) -> None:
    """In a fresh interpreter, first of the package: an order-dependent
    import (one that works only once another module is loaded) fails here."""
    done = subprocess.run([sys.executable, "-c", f"import {module}"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_lobby_app_is_a_lobby_host() -> None:
    from fivetowers.lobby.app import LobbyApp
    from fivetowers.lobby.model import Lobby
    from fivetowers.server.session import Visitor

    visitor = Visitor(identity="SHA256:x", name="ann", address="127.0.0.1", join_code=None,
                      term="xterm-256color", colorterm="truecolor")
    assert isinstance(LobbyApp(Lobby(), visitor), LobbyHost)


async def test_a_lobby_screen_in_another_app_says_so() -> None:
    from textual.app import App

    app: App[None] = App()
    async with app.run_test():
        with pytest.raises(NotInLobby, match="no lobby app"):
            lobby_host(app.screen)


def test_a_games_screens_load_only_when_asked_for() -> None:
    """The protocol and a game's kind stay free of Textual (the rules' path:
    replay, export, workers); ``screens()`` brings it."""
    script = ("import sys\n"
              "from fivetowers.games import game_kinds\n"
              "import fivetowers.games.screens\n"
              "kind = game_kinds()[0]\n"
              "assert not [m for m in sys.modules if m.startswith('textual')], 'textual early'\n"
              "screens = kind.screens()\n"
              "assert 'textual' in sys.modules\n"
              "print(type(screens).__name__)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "FiveTowersScreens"


def test_a_lobby_host_is_checked_once_per_app_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runtime protocol check asks the App for every member (a lobby
    start asked three times): the second App of a class is not checked."""
    from types import SimpleNamespace

    import fivetowers.lobby.host as host
    from fivetowers.lobby.app import LobbyApp
    from fivetowers.lobby.model import Lobby
    from fivetowers.server.session import Visitor

    checked: list[object] = []

    def counted_isinstance(value: object, kinds: Any) -> bool:
        if kinds is host.LobbyHost:
            checked.append(value)
        return isinstance(value, kinds)

    monkeypatch.setattr(host, "isinstance", counted_isinstance, raising=False)
    visitor = Visitor(identity="SHA256:x", name="ann", address="127.0.0.1", join_code=None,
                      term="xterm-256color", colorterm="truecolor")
    first, second = LobbyApp(Lobby(), visitor), LobbyApp(Lobby(), visitor)
    host._HOST_CLASSES.discard(LobbyApp)  # as if no lobby had started in this process
    assert host.lobby_host(SimpleNamespace(app=first)) is first  # type: ignore[arg-type]
    assert checked == [first]
    assert host.lobby_host(SimpleNamespace(app=second)) is second  # type: ignore[arg-type]
    assert host.lobby_host(SimpleNamespace(app=first)) is first  # type: ignore[arg-type]
    assert checked == [first]


async def test_a_lobby_screen_in_another_app_says_so_every_time() -> None:
    from textual.app import App

    app: App[None] = App()
    async with app.run_test():
        for _ in range(2):
            with pytest.raises(NotInLobby, match="no lobby app"):
                lobby_host(app.screen)
