"""The SSH game server: listening, limits, sessions, and a clean stop."""

from __future__ import annotations

import asyncio
import logging
import math
import signal
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import asyncssh

from fivetowers.compat.chacha import one_keystream_per_packet
from fivetowers.compat.freed_screens import screens_freed
from fivetowers.compat.ignore_packets import no_ignore_packets_with_aead
from fivetowers.compat.installed import install_drawing_workarounds
from fivetowers.compat.saslprep import ascii_names_prepared_at_once
from fivetowers.i18n import N_
from fivetowers.server.addresses import address_group
from fivetowers.server.auth import AuthPolicy, GameSSHServer, disconnect_soon
from fivetowers.server.collector import QuietCollector
from fivetowers.server.hostkey import default_data_dir, load_or_create_host_key
from fivetowers.server.loop_profile import LoopProfile
from fivetowers.server.loop_profile import from_environment as profile_from_environment
from fivetowers.server.process_name import server_version
from fivetowers.server.session import AppFactory, Exporter, Session
from fivetowers.server.stalls import StallWatch, from_environment

log = logging.getLogger("fivetowers.server")


CHANNEL_WINDOW = 256 * 1024
"""Bytes of input a session's channel buffers before the client must wait."""
EVICTION_LOG_EVERY = 10.0
FLOOD_BAN_MAX = 15 * 60.0
FLOOD_FORGIVEN = 3600.0
"""Seconds after its last ban ended that an address's floods are forgotten."""
FLOOD_BANS_KEPT = 1024


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 2222
    data_dir: Path = field(default_factory=default_data_dir)
    allow_file: Path | None = None
    """authorized_keys file: only these keys may log in (a private server)."""
    password: str | None = None
    reuse_port: bool = False
    """Listen with SO_REUSEPORT: one of ``serve --processes N`` on one port."""
    process: int | None = None
    """Which of ``serve --processes N`` this is (1 to N): named in the SSH
    version string every client sees (``ssh -v``: "remote software version
    ... fivetowers-process-2") and in the banner, so a host (or a test) knows
    which process a connection reached."""
    max_sessions: int = 200
    """Logged-in connections (one session each) at once."""
    max_sessions_per_address: int = 16
    max_logins: int = 64
    """Connections still logging in (TCP connected, not yet authenticated) at
    once, counted apart from the logged-in ones. When full, a new one evicts
    the oldest login in progress of the address that has the most."""
    max_logins_per_address: int = 8
    max_auth_attempts: int = 6
    login_timeout: float = 10.0
    """Seconds from TCP connect to logged in (a key login takes well under 1 s)."""
    password_login_timeout: float = 60.0
    """The same when the server has a password: a person may be typing it."""
    linger: float = 10.0
    """Seconds a logged-in connection may be without its session (before it
    opens it, or after it ended) before the server closes it."""
    idle_timeout: float = 15 * 60.0
    """Seconds without a key press before a session is closed, unless its App
    sets ``idle_exempt`` (seated at a running table)."""
    flood_cooldown: float = 10.0
    """Seconds an address may not connect after a session of it was
    disconnected for flooding input; doubled for each flood within an hour
    (up to 15 minutes), so that a persistent flooder costs the others nothing."""
    min_size: tuple[int, int] = (80, 24)
    public_name: str | None = None
    """The host name players type (``--public-name``), when the address the
    server listens on is not it (a NAT, a DNS name)."""
    shutdown_grace: float = 2.0
    """Seconds players get to read "the server is stopping" before it does."""


class ConfigError(ValueError):
    """A setting the server cannot start with (one-line reason)."""


def load_allowed_keys(path: Path | None) -> asyncssh.SSHAuthorizedKeys | None:
    if path is None:
        return None
    try:
        return asyncssh.read_authorized_keys(str(path))
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        raise ConfigError(f"cannot read allowed keys {path}: "
                          f"{getattr(exc, 'strerror', None) or exc}") from None


class GameServer:
    """Runs ``app_factory``'s App for every SSH session on one event loop."""

    def __init__(self, config: ServerConfig, app_factory: AppFactory | None = None,
                 exporter: Exporter | None = None) -> None:
        if app_factory is None:
            from fivetowers.server.placeholder import placeholder_factory
            app_factory = placeholder_factory
        self.config = config
        self.app_factory: AppFactory = app_factory
        self.exporter = exporter
        """Answers ``ssh HOST export GAME`` (the lobby's store); None: no games kept."""
        self.min_size = config.min_size
        self.public_name = config.public_name
        self.linger = config.linger
        self.policy = AuthPolicy(load_allowed_keys(config.allow_file), config.password,
                                 config.max_auth_attempts)
        # Bound now: apps never get to redirect where the server's output goes.
        self.stdout: TextIO = sys.stdout
        self.stderr: TextIO = sys.stderr
        self.port = 0
        self.fingerprint = ""
        self.sessions: set[Session] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._connections: set[asyncssh.SSHServerConnection] = set()
        self._per_address: Counter[str] = Counter()
        # Logins in progress, oldest first (dicts keep insertion order).
        self._logins: dict[asyncssh.SSHServerConnection, str] = {}
        self._logins_per_address: Counter[str] = Counter()
        self._evicted = 0
        # Flooders' addresses (IPv6: their /64) -> (refused until, floods).
        self._flood_bans: dict[str, tuple[float, int]] = {}
        self._evictions_logged_at = -1e9
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._watchdog: asyncio.Task[None] | None = None
        install_drawing_workarounds()  # (every App does: known before the collector counts)
        self.collector = QuietCollector(live=lambda: len(self.sessions),
                                        screens_freed=screens_freed)
        self._collecting: asyncio.Task[None] | None = None
        self._stopping = False
        self.stalls: StallWatch | None = None
        """What the loop did when it stalled (FIVETOWERS_STALLS=MS), else None."""
        self.profile: LoopProfile | None = None
        """Where the loop's time went (FIVETOWERS_PROFILE=MS), else None."""

    # -- life ----------------------------------------------------------------
    async def start(self) -> None:
        host_key, created = load_or_create_host_key(self.config.data_dir)
        self.fingerprint = host_key.get_fingerprint("sha256")
        if created:
            log.info("generated host key %s in %s", self.fingerprint, self.config.data_dir)
        password = self.config.password is not None
        one_keystream_per_packet()  # the same chacha20-poly1305, two ChaCha20 runs a packet
        no_ignore_packets_with_aead()  # one SSH packet a screen update, not two
        ascii_names_prepared_at_once()  # a plain ASCII login name is its own SASLprep
        self._acceptor = await asyncssh.create_server(
            lambda: GameSSHServer(self), self.config.host, self.config.port,
            reuse_port=self.config.reuse_port or None,
            server_host_keys=[host_key], encoding=None, line_editor=False,
            allow_pty=True, agent_forwarding=False, x11_forwarding=False,
            allow_scp=False, public_key_auth=True, password_auth=password,
            # Without a password, keyboard-interactive only tells a client
            # that has no key how to make one, and refuses (auth.KEY_HELP).
            kbdint_auth=True,
            login_timeout=(self.config.password_login_timeout if password
                           else self.config.login_timeout),
            # What a client sent and the session has not read yet stays in
            # this window; the driver reads at a bounded rate (driver.RAW_RATE).
            window=CHANNEL_WINDOW,
            keepalive_interval=30, keepalive_count_max=4,
            server_version=server_version(self.config.process),
        )
        self.port = self._acceptor.get_port()
        self._watchdog = asyncio.create_task(self._watch_idle(), name="fivetowers-idle")
        self._collecting = asyncio.create_task(self.collector.run(), name="fivetowers-gc")
        self.stalls = from_environment()
        if self.stalls is not None:
            self.stalls.start()
        self.profile = profile_from_environment()
        if self.profile is not None:
            self.profile.start()
        log.info("serving on %s port %d", self.config.host, self.port)

    async def stop(self, message: str = N_("the server is shutting down")) -> None:
        """Tell every player, end their sessions, close connections and the listener."""
        if self._stopping:
            return
        self._stopping = True
        if self._acceptor is not None:
            self._acceptor.close()
        if self._watchdog is not None:
            self._watchdog.cancel()
        if self._collecting is not None:
            self._collecting.cancel()
        sessions = list(self.sessions)
        log.info("stopping: %d sessions open", len(sessions))
        for session in sessions:
            if session.app is not None and self.config.shutdown_grace > 0:
                words = session.words
                session.app.notify(words.gettext("{message}. Thanks for playing!").format(
                    message=words.gettext(message).capitalize()),
                    severity="warning", timeout=self.config.shutdown_grace + 5)
        if sessions and self.config.shutdown_grace > 0:
            await asyncio.sleep(self.config.shutdown_grace)
        for session in sessions:
            session.stop(lambda words: words.gettext(
                "fivetowers: {message}. Thanks for playing!").format(
                    message=words.gettext(message)))
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=10)
        for conn in [*self._connections, *self._logins]:
            conn.disconnect(asyncssh.DISC_BY_APPLICATION, message)
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
        if self._collecting is not None:
            # Its thresholds given back before stop returns (collector.OLD_HELD).
            await asyncio.wait({self._collecting})
        self.collector.reclaim()
        log.info(self.collector.pauses.summary())
        if self.profile is not None:
            self.profile.stop()
            try:
                self.profile.report()
            except OSError as exc:  # FIVETOWERS_PROFILE_OUT not writable: the rest still reports
                log.warning("loop profile: cannot write its report: %s", exc)
        if self.stalls is not None:
            self.stalls.stop()
            print(self.stalls.summary(), file=self.stderr, flush=True)
            print(self.collector.pauses.summary(), file=self.stderr, flush=True)
        log.info("stopped")

    # -- connections (auth.Gate) ---------------------------------------------
    def admit_connection(self, conn: asyncssh.SSHServerConnection, address: str) -> str | None:
        """A TCP connection: admitted as a login in progress, or refused."""
        if self._stopping:
            return "the server is shutting down"
        banned = self._flood_ban_left(address)
        if banned:
            return (f"input flood from your address: you may connect again in "
                    f"{math.ceil(banned)} s")
        refusal = self._logged_in_refusal(address)
        if refusal is not None:
            return refusal
        if self._logins_per_address[address] >= self.config.max_logins_per_address:
            return "too many logins at once from your address"
        if self._logins and len(self._logins) >= self.config.max_logins:
            self._evict_a_login()
        self._logins[conn] = address
        self._logins_per_address[address] += 1
        return None

    def flooded(self, address: str) -> float:
        """A session of ``address`` was ended for flooding input: refuse its
        new connections for a while. Returns the seconds of the ban."""
        now = asyncio.get_running_loop().time()
        group = address_group(address)
        until, floods = self._flood_bans.get(group, (0.0, 0))
        if now - until > FLOOD_FORGIVEN:
            floods = 0
        wait = min(self.config.flood_cooldown * 2.0 ** floods, FLOOD_BAN_MAX)
        self._flood_bans[group] = (now + wait, floods + 1)
        if len(self._flood_bans) > FLOOD_BANS_KEPT:  # forget the forgiven
            self._flood_bans = {g: (u, n) for g, (u, n) in self._flood_bans.items()
                                if now - u <= FLOOD_FORGIVEN}
        log.warning("refusing connections from %s for %.0f s (input flood %d within "
                    "the hour)", group, wait, floods + 1)
        return wait

    def _flood_ban_left(self, address: str) -> float:
        ban = self._flood_bans.get(address_group(address))
        if ban is None:
            return 0.0
        return max(0.0, ban[0] - asyncio.get_running_loop().time())

    def _logged_in_refusal(self, address: str) -> str | None:
        if len(self._connections) >= self.config.max_sessions:
            return "the server is full"
        if self._per_address[address] >= self.config.max_sessions_per_address:
            return "too many connections from your address"
        return None

    def _evict_a_login(self) -> None:
        # Like OpenSSH's MaxStartups, but evicting instead of refusing: idle
        # connections cannot keep new players out, they are pushed out by
        # them. The address with the most logins in progress loses its oldest,
        # so one who opens many pushes out their own first.
        crowded = max(self._logins_per_address.values())
        conn = next(c for c, a in self._logins.items()
                    if self._logins_per_address[a] == crowded)
        self._forget_login(conn)
        disconnect_soon(conn, asyncssh.DISC_TOO_MANY_CONNECTIONS,
                          "too many logins in progress; please try again")
        self._evicted += 1
        now = asyncio.get_running_loop().time()
        if now - self._evictions_logged_at >= EVICTION_LOG_EVERY:
            log.warning("the login queue is full (%d at once): evicted %d oldest "
                        "logins in progress", self.config.max_logins, self._evicted)
            self._evictions_logged_at, self._evicted = now, 0

    def _forget_login(self, conn: asyncssh.SSHServerConnection) -> bool:
        address = self._logins.pop(conn, None)
        if address is None:
            return False
        self._logins_per_address[address] -= 1
        if self._logins_per_address[address] <= 0:
            del self._logins_per_address[address]
        return True

    def login_completed(self, conn: asyncssh.SSHServerConnection, address: str) -> str | None:
        """A login in progress authenticated: it becomes a logged-in connection."""
        if not self._forget_login(conn):
            return "too many logins in progress; please try again"  # evicted meanwhile
        refusal = "the server is shutting down" if self._stopping else \
            self._logged_in_refusal(address)
        if refusal is not None:
            return refusal
        self._connections.add(conn)
        self._per_address[address] += 1
        return None

    def connection_closed(self, conn: asyncssh.SSHServerConnection, address: str) -> None:
        if self._forget_login(conn) or conn not in self._connections:
            return
        self._connections.discard(conn)
        self._per_address[address] -= 1
        if self._per_address[address] <= 0:
            del self._per_address[address]

    async def handle_session(self, process: asyncssh.SSHServerProcess[bytes],
                             identity: str, name: str) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await Session(process, self, identity, name).run()
        finally:
            if task is not None:
                self._tasks.discard(task)

    # -- sessions (session.SessionHost) --------------------------------------
    def session_started(self, session: Session) -> bool:
        if self._stopping:
            return False
        self.sessions.add(session)
        return True

    def session_ended(self, session: Session) -> None:
        self.sessions.discard(session)
        self.collector.session_ended(len(self.sessions), session.app)

    def start_began(self) -> None:
        self.collector.start_began()

    def start_ended(self) -> None:
        self.collector.start_ended()

    def app_started(self) -> None:
        self.collector.app_started()

    def screen_left(self, shown_at: int | None = None) -> None:
        self.collector.screen_left(len(self.sessions), shown_at)

    def freezes(self) -> int:
        return self.collector.freezes

    async def _watch_idle(self) -> None:
        limit = self.config.idle_timeout
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(30.0, max(limit / 4, 0.05)))
            # In a function of its own: a local naming a session's App would
            # keep that App alive through the sleep, after its session ended.
            self._close_idle(loop.time(), limit)

    def _close_idle(self, now: float, limit: float) -> None:
        for session in list(self.sessions):
            app: Any = session.app
            if app is None or getattr(app, "idle_exempt", False):
                continue
            if session.idle_for(now) > limit:
                minutes = max(1, round(limit / 60))
                log.info("session of %s (%s) idle, closing", session.name, session.address)
                session.stop(lambda words: words.ngettext(
                    "fivetowers: closed after {minutes} idle minute; connect again any time.",
                    "fivetowers: closed after {minutes} idle minutes; connect again any time.",
                    minutes).format(minutes=minutes))


def configure_logging(stream: TextIO, process: int | None = None) -> None:
    """Server log lines to ``stream``, bound now (DESIGN.md trap 2); those of
    process N of ``serve --processes`` say so (they share one stderr)."""
    handler = logging.StreamHandler(stream)
    where = "" if process is None else f"process {process} "
    handler.setFormatter(logging.Formatter(f"%(asctime)s {where}%(levelname)s %(message)s"))
    logger = logging.getLogger("fivetowers")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    # asyncssh logs every channel request at INFO; its warnings are enough.
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    logging.getLogger("asyncssh").addHandler(handler)


async def serve_forever(config: ServerConfig, app_factory: AppFactory | None = None,
                        out: TextIO | None = None, exporter: Exporter | None = None) -> None:
    """Start, print where and who the server is, run until SIGINT/SIGTERM, stop."""
    out = out or sys.stdout
    server = GameServer(config, app_factory, exporter)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    host = config.public_name or (
        config.host if config.host not in ("0.0.0.0", "::", "") else "HOST")
    print(f"fivetowers: serving on {host} port {server.port}"
          + ("" if config.process is None else f" (process {config.process})"), file=out)
    print(f"  host key fingerprint: {server.fingerprint}", file=out)
    print(f"  players connect with: ssh -t -p {server.port} {host}", file=out)
    print("  stop with Ctrl+C", file=out, flush=True)
    try:
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        await server.stop()
