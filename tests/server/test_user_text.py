"""Everything one user types and another sees reaches the other's terminal
cleaned: a table's title, names (SSH key and password logins) and chat, each
tried with control characters (C0, DEL, C1), 7- and 8-bit escape sequences,
bidi and zero-width characters and markup, read as the raw bytes a second
client receives."""

from __future__ import annotations

import asyncio
import random
import re

from fivetowers.lobby.model import Lobby
from fivetowers.lobby.app import lobby_factory

from tests.server.server_helpers import Screen, StartServer, connect

# Names are SSH user names. asyncssh already refuses (SASLprep, RFC 4013) a
# user name with a control, bidi or format character, at both ends, so what a
# name may still carry is markup: never parsed, its brackets dropped.
KEY_NAME = "[reverse]Ann[/]"
KEY_NAME_SHOWN = "reverseAnn/"
PASSWORD_NAME = "Cy[on red]\u00adZ"
PASSWORD_NAME_SHOWN = "Cyon redZ"
# Titles and chat are pasted (bracketed paste): the 8-bit spelling of escape
# sequences is what a paste carries through (issue 18's own reproducer), with
# C0 controls, bidi and zero-width characters (a paste keeps its first line
# only, and a 7-bit sequence inside a paste is eaten by Textual's own parser;
# the unit tests cover both). The title field holds 24.
TITLE = "Z\u009b2J\u009b1;1HOWNED\u202e\x07"
TITLE_SHOWN = "ZOWNED"
OTHER_TITLE = "[bold red]x[/]\u2066\u200b\x0e\x9d0;PWN\x9c"
OTHER_TITLE_SHOWN = "[bold red]x[/]"
CHAT = "gg\u202e\u2069\u200d\ufeff\x08\x7f\x9b8;99;99t [b]x[/]\x90q\x9cwp!"
CHAT_SHOWN = "gg [b]x[/]wp!"

FORBIDDEN = re.compile(
    "[\x80-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff"
    "\U000e0000-\U000e007f]")
"""Characters no screen of this server ever draws itself."""
C0_DRAWN = {"\x1b", "\r", "\n"}
"""The C0 controls a Textual screen itself sends (checked on a clean session),
besides the BEL ending its pointer-shape requests (OSC 22)."""
POINTER_SHAPE = re.compile("\x1b]22;[a-z-]*\x07")


WAIT = 30.0
"""Seconds a screen may take to show something (the machine is shared)."""


def paste(screen: Screen, text: str) -> None:
    screen.press(b"\x1b[200~" + text.encode() + b"\x1b[201~")


async def press_slowly(screen: Screen, *keys: bytes) -> None:
    for key in keys:
        screen.press(key)
        await asyncio.sleep(0.15)


def assert_clean(raw: bytes) -> None:
    text = raw.decode("utf-8")
    assert not FORBIDDEN.findall(text), FORBIDDEN.findall(text)
    controls = {ch for ch in POINTER_SHAPE.sub("", text) if ch < " " or ch == "\x7f"}
    assert controls <= C0_DRAWN, controls
    for injected in (b"99;99t", b"PWN", b"\x1b(0", b"\x1b]0;"):
        assert injected not in raw, injected


async def test_titles_names_and_chat_reach_others_cleaned(start_server: StartServer) -> None:
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, hints=False,
                  rng=random.Random(18))
    server = await start_server(lobby_factory(lobby), password="pw")
    bob_conn = await connect(server, username="bob")
    bob = await Screen.open(bob_conn, 100, 30)
    await bob.wait_for("lobby — you are bob", WAIT)

    # A key login with a hostile name opens a table with a hostile title.
    ann_conn = await connect(server, username=KEY_NAME)
    ann = await Screen.open(ann_conn, 100, 30)
    await ann.wait_for(f"you are {KEY_NAME_SHOWN}", WAIT)
    ann.press(b"n")
    await ann.wait_for("New table", WAIT)
    paste(ann, TITLE)
    await press_slowly(ann, b"\t", b"\t", b"\x7f", b"0", b"\r")  # 3 seats, no bots
    await ann.wait_for("Waiting for 2 players", WAIT)
    (code,) = lobby.tables

    # A password login with a hostile name opens another.
    cy_conn = await connect(server, client_keys=[], password="pw", username=PASSWORD_NAME)
    cy = await Screen.open(cy_conn, 100, 30)
    await cy.wait_for(f"you are {PASSWORD_NAME_SHOWN}", WAIT)
    cy.press(b"n")
    await cy.wait_for("New table", WAIT)
    paste(cy, OTHER_TITLE)
    cy.press(b"\r")
    await cy.wait_for("Waiting for 1 player", WAIT)

    # Bob, in the lobby, sees both titles as text; his screen is his own.
    await bob.wait_for(TITLE_SHOWN, WAIT)
    await bob.wait_for(OTHER_TITLE_SHOWN, WAIT)
    assert "5 Towers lobby" in bob.screen.display[0]
    assert "OWNED" not in bob.screen.display[0]
    cy_conn.close()  # cy's table closes with cy
    await cy_conn.wait_closed()

    # Bob sits at ann's table: the waiting screen shows her title and name.
    bob.press(b"j")
    await bob.wait_for("Join a table by its code", WAIT)
    bob.press(code.encode() + b"\r")
    await bob.wait_for("seat 3", WAIT)
    await bob.wait_for(TITLE_SHOWN, WAIT)
    await bob.wait_for(KEY_NAME_SHOWN, WAIT)

    # Cy comes back by password and takes the last seat: the game starts.
    async with await connect(server, client_keys=[], password="pw",
                             username=PASSWORD_NAME) as cy_again:
        cy = await Screen.open(cy_again, 100, 30, command=f"join {code}")
        await bob.wait_for("bob — your towers", WAIT)
        await bob.wait_for(KEY_NAME_SHOWN, WAIT)
        await bob.wait_for(PASSWORD_NAME_SHOWN, WAIT)

        # Ann says something hostile to the table.
        await ann.wait_for("your towers", WAIT)
        ann.press(b"c")
        await ann.wait_for("Say to the table", WAIT)
        paste(ann, CHAT)
        ann.press(b"\r")
        await bob.wait_for(CHAT_SHOWN, WAIT)
        await cy.wait_for(CHAT_SHOWN, WAIT)
        for screen in (bob, cy):
            assert_clean(bytes(screen.raw))
        cy_again.close()
    ann_conn.close()
    bob_conn.close()


async def test_a_clean_session_sends_only_these_controls(start_server: StartServer) -> None:
    """What assert_clean allows is what an honest session sends anyway."""
    lobby = Lobby(bot_kind="random", bot_delay=0.0, absence_bot_after=60, hints=False)
    server = await start_server(lobby_factory(lobby))
    async with await connect(server, username="ann") as conn:
        ann = await Screen.open(conn, 100, 30)
        await ann.wait_for("you are ann", WAIT)
        ann.press(b"n")
        await ann.wait_for("New table", WAIT)
        paste(ann, "plain [b]x[/]")
        ann.press(b"\r")
        await ann.wait_for("Waiting for", WAIT)
        await ann.wait_for("plain [b]x[/]", WAIT)
        assert_clean(bytes(ann.raw))
