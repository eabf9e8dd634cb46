"""The help screen (`?`): the rules in short and every key."""

from __future__ import annotations

from fivetowers.ui.help_page import HelpPage, table_help

HELP = """\
# 5 Towers — the rules in short

**Goal:** the most victory points (VP) at the end. You build up to five
towers, one per type: **CANDY** (pink), **SCARY** (purple), **TREE** (green),
**SCRAP** (grey), **SAND** (yellow).

**A round.** Up to five cards are revealed (the *display*). The starting
player must bid 0–5; each other player once raises or passes. A player who
cannot build more cards than the current bid passes automatically. The
highest bidder takes exactly that many display cards and builds them all.

**Building.** A card goes onto a **higher** card of its type: `c` onto
`t` when `c < t`. Anything goes onto an **8**; a **9**
goes onto anything but a 0. A **0** is a *tower top* (▲): nothing more goes
on that tower. Before placing you may **tear down** the top card of one of
your towers (never a 0) onto your face-down teardown pile.

**Scoring.** Each tower card 1 VP, 2 VP in a tower with a tower top. The
main tower (★, most cards) scores +1 per card. A teardown pile of n cards
costs 1+2+…+n VP. The deck is used twice: when it runs out the first time
the discard pile is shuffled into a new deck; when it runs out again the
game ends. The top line shows the round, the cards left in the deck and the
pass through it (1/2 or 2/2, then **LAST ROUND**).

**Great Powers** (variant): *tree* lets you bid over the display and pay
the difference with tree cards; *scrap* brings a card back from your pile
after each scrap card; *sand* builds at the bottom too; a pair of equal
*scary* and *candy* values scores +3.

# Keys

| key | what it does |
| --- | --- |
| `0`–`9` | bid that many (bidding); pick card *n* (building) |
| `p` | pass (bidding) |
| click | pick a display card / a card to place |
| `t` | choose the tower to tear down (or none) |
| `y` | Great Powers: how many tree cards to pay |
| `enter` | confirm the cards taken; place the highlighted card; build |
| `↑` `↓` | move through the cards to place |
| `a` | lay out the hint's best plan for your bid |
| `u` / `backspace` | undo a step or the choice of cards |
| `h` | show / hide the hints |
| `v` | the hints in full: every bid's plan, wrapped (the panel cuts long ones) |
| `s` | show / hide every score's breakdown (others: towers+main+pairs−pile=total) |
| `b` | bell and window title when it becomes your turn: on / off (on at first) |
| `o` | scroll to the other players' boards (4–5 players on a small terminal) |
| `e` | the results again, once the game is over |
| `?` | this help (`↑` `↓` `end` scroll); `escape` closes it |
{leave_keys}
On the end screen: `n` plays again, `b` goes back to look at the table, {end_q}.

With hints on, each opponent's board shows **bid≤N**: the highest bid they
could carry out now (public information).

In the build list **✓** means every taken card can still be built after
that step; *dead end* means the rules allow it but a card would be stuck;
**✗** means the rules refuse it (pick it to read why).
"""


def help_text(hosted: bool) -> str:
    """The help for local play or for a server's table."""
    return table_help(HELP, hosted)


class HelpScreen(HelpPage):
    def __init__(self, hosted: bool = False) -> None:
        super().__init__()
        self.TEXT = help_text(hosted)
