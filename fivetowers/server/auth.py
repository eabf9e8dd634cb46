"""Who may connect: the asyncssh server object, auth and connection hooks only.

By default any public key is welcome and its SHA256 fingerprint is the
player's identity (the same key reconnecting is the same player). An
authorized_keys file (``--allow``) makes a private server. Passwords and
keyboard-interactive logins are refused unless the server has a password;
without one, a client that comes to keyboard-interactive (it had no key the
server took) is told how to make a key (:data:`KEY_HELP`) and refused.
Everything a session may *do* is decided in :mod:`fivetowers.server.session`;
here a session channel can only ever become a :class:`GameProcess`.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from dataclasses import dataclass
from typing import Any, Protocol

import asyncssh

from fivetowers.compat.asyncssh import server_process
from fivetowers.user_text import clean_name

log = logging.getLogger("fivetowers.server")

KEY_HELP = (
    "fivetowers: players log in with an SSH key, not a password.\r\n"
    "No key of yours was offered (or taken). Make one with:\r\n"
    "    ssh-keygen -t ed25519\r\n"
    "then connect again: ssh -t -p PORT HOST (your key is who you are here;\r\n"
    "the user name is only the name others see).\r\n")
"""What a client that has no key reads before it is refused (an SSH auth
banner, which OpenSSH prints on the terminal)."""

@dataclass(frozen=True, slots=True)
class AuthPolicy:
    allowed_keys: asyncssh.SSHAuthorizedKeys | None = None
    """None: any key is welcome."""
    password: str | None = None
    max_auth_attempts: int = 6


class Gate(Protocol):
    """The server side of connection limits and sessions."""

    policy: AuthPolicy
    linger: float
    """Seconds a logged-in connection may go without a session (before its
    one session, or after it ended) before the server closes it."""

    def admit_connection(self, conn: asyncssh.SSHServerConnection, address: str) -> str | None:
        """A new TCP connection: None to admit it as a login in progress, else
        the reason for refusing."""

    def login_completed(self, conn: asyncssh.SSHServerConnection, address: str) -> str | None:
        """It has authenticated: None to keep it as logged in, else why not."""

    def connection_closed(self, conn: asyncssh.SSHServerConnection, address: str) -> None: ...

    async def handle_session(self, process: asyncssh.SSHServerProcess[bytes],
                             identity: str, name: str) -> None: ...


class GameProcess(asyncssh.SSHServerProcess[bytes]):
    """A session channel that can be a game and nothing else."""

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("refused subsystem %r", subsystem[:40])
        return False

    def exec_requested(self, command: str) -> bool:
        # Accepted so the client reads a one-line answer; the session parses
        # the command as "join CODE" and runs nothing else.
        return True


class GameSSHServer(asyncssh.SSHServer):
    """One per connection: authentication and connection bookkeeping."""

    def __init__(self, gate: Gate) -> None:
        self._gate = gate
        self._conn: asyncssh.SSHServerConnection | None = None
        self._address = "?"
        self._admitted = False
        self._logged_in = False
        self._username = ""
        self._key: asyncssh.SSHKey | None = None
        self._failures = 0
        self._told_key_help = False
        self._sessions = 0
        self._linger: asyncio.TimerHandle | None = None

    # -- connection ----------------------------------------------------------
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self._address = str(peer[0])
        refusal = self._gate.admit_connection(conn, self._address)
        if refusal is None:
            self._admitted = True
        else:
            log.warning("refused connection from %s: %s", self._address, refusal)
            # After the version exchange, so the client can read why.
            disconnect_soon(conn, asyncssh.DISC_TOO_MANY_CONNECTIONS, refusal)

    def auth_completed(self) -> None:
        if not self._admitted or self._conn is None:
            return
        refusal = self._gate.login_completed(self._conn, self._address)
        self._logged_in = refusal is None
        if refusal is not None:
            log.warning("refused login from %s: %s", self._address, refusal)
            disconnect_soon(self._conn, asyncssh.DISC_TOO_MANY_CONNECTIONS, refusal)
        else:
            self._start_lingering()

    def _start_lingering(self) -> None:
        # A logged-in connection holds a place in the server's limits; without
        # a session it must not hold it for ever (clients close it themselves
        # once their session has ended, well within the time).
        self._stop_lingering()
        self._linger = asyncio.get_running_loop().call_later(self._gate.linger, self._lingered)

    def _stop_lingering(self) -> None:
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None

    def _lingered(self) -> None:
        self._linger = None
        if self._conn is not None:
            log.info("closing a connection from %s that has no session", self._address)
            self._conn.disconnect(asyncssh.DISC_BY_APPLICATION, "no session")

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_lingering()
        if self._admitted and self._conn is not None:
            self._admitted = False
            self._gate.connection_closed(self._conn, self._address)
        self._conn = None

    # -- authentication ------------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self._username = username
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        allowed = self._gate.policy.allowed_keys
        if allowed is None or allowed.validate(key, self._address, self._address) is not None:
            self._key = key
            return True
        self._failed("key not allowed")
        return False

    def password_auth_supported(self) -> bool:
        return self._gate.policy.password is not None

    def kbdint_auth_supported(self) -> bool:
        # With a password, asyncssh asks for it by keyboard-interactive too
        # (NotImplemented ties the two); without one, keyboard-interactive is
        # offered only to tell a client that has no key how to make one.
        return NotImplemented if self._gate.policy.password is not None else True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        """No password here: say how to make a key (once), and refuse."""
        if not self._told_key_help and self._conn is not None:
            self._told_key_help = True
            port = self._conn.get_extra_info("sockname", ("", 2222))[1]
            self._conn.send_auth_banner(KEY_HELP.replace("PORT", str(port)))
        self._failed("no key")
        return False

    def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        return False  # never a challenge to answer: no password login

    def validate_password(self, username: str, password: str) -> bool:
        expected = self._gate.policy.password
        if expected is not None and hmac.compare_digest(password.encode(), expected.encode()):
            self._key = None
            return True
        self._failed("wrong password")
        return False

    def _failed(self, why: str) -> None:
        self._failures += 1
        if self._failures >= self._gate.policy.max_auth_attempts and self._conn is not None:
            log.warning("disconnecting %s: %d failed authentication attempts (last: %s)",
                        self._address, self._failures, why)
            disconnect_soon(self._conn, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                    "too many authentication attempts")

    @property
    def identity(self) -> str:
        if self._key is not None:
            return self._key.get_fingerprint("sha256")
        return "password:" + clean_name(self._username)

    # -- sessions ------------------------------------------------------------
    def session_requested(self) -> Any:
        # One session per connection, so connection limits are session limits.
        if self._sessions or not self._logged_in:
            return False
        self._sessions += 1
        self._stop_lingering()
        identity, name = self.identity, clean_name(self._username)

        async def start(process: asyncssh.SSHServerProcess[bytes]) -> None:
            try:
                await self._gate.handle_session(process, identity, name)
            finally:
                if self._conn is not None:
                    self._start_lingering()
        return server_process(GameProcess, start)


def disconnect_soon(conn: asyncssh.SSHServerConnection, code: int, reason: str) -> None:
    """Disconnect ``conn`` on the next loop pass (not from inside an asyncssh callback)."""
    asyncio.get_running_loop().call_soon(conn.disconnect, code, reason)
