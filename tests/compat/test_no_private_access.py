"""Outside fivetowers.compat, fivetowers touches no private name of Textual,
Rich or asyncssh (see private_names.py for what counts)."""

from __future__ import annotations

import textwrap
from typing import Any

import asyncssh
import pytest
from rich.console import Console
from textual.app import App
from textual.driver import Driver
from textual.widgets import Footer

from tests.compat.private_names import Reach, package_modules, scan_package, scan_source


def test_no_module_outside_compat_reaches_into_a_library() -> None:
    assert len(list(package_modules())) > 50  # the scan sees the whole package
    found = scan_package()
    assert not found, ("private names of libraries outside fivetowers.compat (move them "
                       "into a named workaround there):\n" + "\n".join(map(str, found)))


class Bar(Footer):  # a library subclass for the snippets below
    pass


class Mine:
    def __init__(self) -> None:
        self._conn = 1  # our own private name (asyncssh has one of the same name)


def scan(source: str) -> list[Reach]:
    namespace: dict[str, Any] = {"App": App, "Bar": Bar, "Mine": Mine, "Driver": Driver,
                                 "asyncssh": asyncssh, "Console": Console}
    source = textwrap.dedent(source)
    exec(compile(source, "<snippet>", "exec"), namespace)
    return scan_source(source, "<snippet>", namespace)


@pytest.mark.parametrize("source", [
    "from textual._xterm_parser import XTermParser",
    "import textual._xterm_parser",
    "from textual.widgets import _toast",
    "def f(app): app._capture_stdout = None",
    "def f(node): return node._closing",
    "def f(node): return getattr(node, '__watchers', {})",
    "CACHES = ('_divide_cache', '_crop_cache')",
    "def f(): return App._refresh_notifications",
    """
    class Driven(Driver):
        def size(self): return self._size
    """,
    """
    class Quiet(App):
        def _refresh_notifications(self): pass
    """,
    """
    class Quiet(App):
        def f(self): return super()._refresh_notifications()
    """,
    "def f(): return Console(_environ={})",
    """
    class Process(asyncssh.SSHServerProcess):
        pass
    def f(start): return Process(start, None, 0, False)
    """,
    "def f(start): return asyncssh.SSHServerProcess(start, None, 0, False)",
])
def test_the_scan_finds_each_kind_of_reach(source: str) -> None:
    assert scan(source), source


@pytest.mark.parametrize("source", [
    "import os\ndef f(): os._exit(0)",  # a standard library module's
    """
    class Own(Mine):
        def f(self): return self._conn
    """,
    """
    class Keys(Bar):
        def __init__(self):
            super().__init__()
            self._shown = True  # a name of our own on a library subclass
    """,
    "def f(mine: Mine): return getattr(mine, 'conn', None)",
])
def test_the_scan_leaves_our_own_names_alone(source: str) -> None:
    assert scan(source) == []
