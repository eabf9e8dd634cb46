"""One SSH session: check what the client asked for, then run one App for it.

The App comes from an app factory (the lobby, or a placeholder until the
lobby exists) and runs on the server's event loop through
:class:`~fivetowers.server.driver.SSHDriver`. :func:`prepare_app` handles the
two traps of that route that live in the App rather than the driver
(DESIGN.md): process-wide stdout capture, and colours taken from the server's
environment instead of the client's terminal.
"""

from __future__ import annotations

import io
import logging
import math
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol, TextIO

import asyncssh
from rich.console import Console
from textual.app import App

from fivetowers.compat.textual import keep_process_output
from fivetowers.i18n import Speech, Translator, language_from_env, speak
from fivetowers.server.colours import client_color_system, render_console
from fivetowers.server.driver import SessionTerminal, clamp_size
from fivetowers.compat.ended_app import let_go_of_app
from fivetowers.server.hosted import HostedApp
from fivetowers.server.names import COMMANDS, parse_exec, parse_export

log = logging.getLogger("fivetowers.server")


@dataclass(frozen=True, slots=True)
class Visitor:
    """Who is on the other end of a session, as the app factory sees them."""

    identity: str
    """The player's identity: their public key's SHA256 fingerprint, or
    ``password:NAME`` when they logged in with the server's password."""
    name: str
    """Display name: the SSH user name, cleaned (see user_text.clean_name)."""
    address: str
    join_code: str | None
    """The table code of ``ssh -t HOST join CODE``; None for the lobby."""
    term: str
    colorterm: str
    port: int = 2222
    """The server's port, for telling players how to connect."""
    speech: Speech = field(default_factory=Speech)
    """The session's language: first what the client's locale asks for
    (LC_ALL, LC_MESSAGES, LANG), then what the player chooses in the lobby."""
    server_name: str = "HOST"
    """What players type to reach the server: its ``--public-name``, else the
    address this session connected to (the one it listens on)."""


AppFactory = Callable[[Visitor], App[Any]]
Goodbye = Callable[[Translator], str]
"""A session's last line, written in the language its player reads."""


class ExportRefused(ValueError):
    """An ``export GAME`` the server will not answer, with a one-line reason."""


Exporter = Callable[[str, int], Awaitable[str]]
"""``export GAME`` for an identity: the game's record as text, or
:class:`ExportRefused` (not theirs, unknown, still going on)."""


class SessionHost(Protocol):
    """What a session needs from the server that runs it."""

    app_factory: AppFactory
    min_size: tuple[int, int]
    stdout: TextIO
    stderr: TextIO
    port: int
    exporter: Exporter | None
    """Answers ``export GAME``; None: the server keeps no games."""
    public_name: str | None

    def session_started(self, session: Session) -> bool: ...

    def session_ended(self, session: Session) -> None: ...

    def start_began(self) -> None:
        """A session's App begins its start (it may wait for its turn)."""
        ...

    def start_ended(self) -> None:
        """A start that began ended: its first screen drawn, or the App gone."""
        ...

    def app_started(self) -> None: ...

    def screen_left(self, shown_at: int | None = None) -> None:
        """A screen was left for good; ``shown_at``: ``freezes()`` when it was first shown."""
        ...

    def freezes(self) -> int:
        """How many times the server froze its heap so far (collector.py)."""
        ...

    def flooded(self, address: str) -> float:
        """A session was ended for flooding input: seconds its address must wait."""
        ...


def prepare_app(app: App[Any], terminal: SessionTerminal, visitor: Visitor,
                stdout: TextIO, stderr: TextIO) -> io.StringIO:
    """Make a freshly built App safe to run as one of many in this process.

    Returns the buffer that collects the App's own error report (Textual
    prints a crashed App's traceback there; the session logs it).
    """
    app.driver_class = terminal.driver_class()
    # Trap 3: every App renders alike (24-bit, whatever the server's TERM);
    # the driver rewrites colours for this client's terminal (see colours.py).
    app.console = render_console()
    terminal.color_system = client_color_system(visitor.term, visitor.colorterm)
    errors = io.StringIO()
    app.error_console = Console(file=errors, width=100, color_system=None,
                                markup=False, highlight=False)
    # Trap 2: each App's print capture would swap the process's sys.stdout.
    keep_process_output(app, stdout, stderr)
    return errors


def _locale_env(process: asyncssh.SSHServerProcess[bytes]) -> dict[str, str]:
    """The locale variables the client sent (OpenSSH sends LANG and LC_* by
    default on Debian and Ubuntu); asyncssh keeps every variable asked for."""
    env: dict[str, str] = {}
    for key, value in (process.env or {}).items():
        name = key.decode("utf-8", "replace") if isinstance(key, bytes) else str(key)
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        if name in ("LC_ALL", "LC_MESSAGES", "LANG"):
            env[name] = text
    return env


def say(process: asyncssh.SSHServerProcess[bytes], line: str, error: bool = False) -> None:
    """Write one line to a client, pty or not (``error``: to its stderr)."""
    try:
        stream = process.stderr if error else process.stdout
        stream.write((line + "\r\n").encode("utf-8", "replace"))
    except (OSError, asyncssh.Error):
        pass


def reachable_name(address: str) -> str:
    """The address a client connected to, as that client can type it again
    (an IPv4 client of a dual-stack listener shows as ``::ffff:a.b.c.d``)."""
    return address.removeprefix("::ffff:") if "." in address else address


class Session:
    """One SSH session from start to exit status."""

    def __init__(self, process: asyncssh.SSHServerProcess[bytes], host: SessionHost,
                 identity: str, name: str) -> None:
        self.process = process
        self.host = host
        self.identity = identity
        self.name = name
        peer = process.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        local = process.get_extra_info("sockname") or ("HOST", 0)
        self.server_name = host.public_name or reachable_name(str(local[0]))
        self.app: App[Any] | None = None
        self.terminal: SessionTerminal | None = None
        self.goodbye: Goodbye | None = None
        """A last line for the player, written after the App has left the screen."""
        self.speech = Speech(language_from_env(_locale_env(process)))
        """What the client's locale asks for; the lobby may switch it later."""
        self.starting = False
        """The App began its start and has not drawn its first screen yet."""

    async def run(self) -> None:
        status = 1
        try:
            status = await self._run()
        except Exception:
            log.exception("session of %s (%s) failed", self.name, self.address)
            say(self.process, self.words.gettext(
                "fivetowers: something went wrong on the server; the error is logged. Sorry!"))
        finally:
            self.app = None
            self.terminal = None
            try:
                self.process.exit(status)
            except (OSError, asyncssh.Error):
                pass

    async def _run(self) -> int:
        # This task's language, and so that of the App and driver it starts.
        speak(self.speech)
        process = self.process
        join_code = None
        if process.command is not None:
            join_code = parse_exec(process.command)
            export = parse_export(process.command)
            if export is not None:
                return await self._export(export)
            if join_code is None:
                say(process, self.words.gettext("fivetowers: the only commands are: {commands}")
                    .format(commands=COMMANDS))
                return 2
        if process.term_type is None:
            say(process, self.words.gettext(
                "fivetowers needs a terminal: connect with ssh -t "
                "(for example: ssh -t -p {port} {host})").format(port=self.host.port,
                                                               host=self.server_name))
            return 1
        if not self.host.session_started(self):
            say(process, self.words.gettext(
                "fivetowers: the server is full right now; please try again later."))
            return 1
        try:
            return await self._play(join_code)
        finally:
            self.host.session_ended(self)

    async def _export(self, game_id: int) -> int:
        """Print the record of one of this key's own games, and nothing else."""
        exporter = self.host.exporter
        if exporter is None:
            say(self.process, self.words.gettext("fivetowers: this server keeps no games to export"),
                error=True)
            return 1
        try:
            text = await exporter(self.identity, game_id)
        except ExportRefused as exc:
            say(self.process, self.words.gettext("fivetowers: {reason}").format(
                reason=" ".join(str(exc).split())), error=True)
            return 1
        log.info("%s (%s) exported game %d", self.name, self.address, game_id)
        # Plain newlines: the client's own redirect gets the record as
        # `fivetowers export` prints it (a terminal, if asked for, is raw).
        newline = "\r\n" if self.process.term_type is not None else "\n"
        try:
            self.process.stdout.write((text.replace("\n", newline) + newline).encode("utf-8"))
        except (OSError, asyncssh.Error):
            pass
        return 0

    async def _play(self, join_code: str | None) -> int:
        process = self.process
        width, height = process.term_size[:2]
        size = clamp_size(width or 80, height or 24)
        visitor = Visitor(identity=self.identity, name=self.name, address=self.address,
                          join_code=join_code, term=process.term_type or "xterm",
                          colorterm=process.env.get("COLORTERM", ""), port=self.host.port,
                          speech=self.speech, server_name=self.server_name)
        terminal = self.terminal = SessionTerminal(process, size, self.host.min_size,
                                                   name=self.name, address=self.address)
        app = self.app = self.host.app_factory(visitor)
        errors = prepare_app(app, terminal, visitor, self.host.stdout, self.host.stderr)
        if isinstance(app, HostedApp):
            app.on_screen_left = self.host.screen_left
            app.freezes = self.host.freezes
            self.starting = True
            self.host.start_began()
            app.on_started = self._first_screen
        log.info("session of %s (%s, %s) starts at %dx%d", self.name, self.address,
                 self.identity, *size)
        try:
            await app.run_async(size=size)
        finally:
            self._start_ended()  # (if gone before its first screen)
            await terminal.finished()
            let_go_of_app(app)  # its cycles cut: it dies with this session (ended_app.py)
        report = errors.getvalue().strip()
        if report:
            log.error("the app of %s (%s) crashed:\n%s", self.name, self.address, report)
            say(process, self.words.gettext(
                "fivetowers: something went wrong on the server; the error is logged. Sorry!"))
            return 1
        log.info("session of %s (%s) ends", self.name, self.address)
        if terminal.goodbye:  # the driver ended it: an input flood
            wait = self.host.flooded(self.address)
            say(process, self.words.gettext(terminal.goodbye) + " " + self.words.gettext(
                "You may connect again in {seconds} s.").format(seconds=math.ceil(wait)))
            return 1
        if self.goodbye:
            say(process, self.goodbye(self.words))
        return app.return_code or 0

    def _first_screen(self) -> None:
        self.host.app_started()
        self._start_ended()

    def _start_ended(self) -> None:
        if self.starting:
            self.starting = False
            self.host.start_ended()

    @property
    def words(self) -> Translator:
        """This client's language, for the lines written outside the App."""
        return self.speech.translator

    def stop(self, goodbye: Goodbye) -> None:
        """End the session: the App exits and the player reads ``goodbye``
        (made in their language)."""
        self.goodbye = goodbye
        if self.app is not None:
            self.app.exit()

    def idle_for(self, now: float) -> float:
        terminal = self.terminal
        return 0.0 if terminal is None else now - terminal.last_input

