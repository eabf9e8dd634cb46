"""GoTown's help page (`?`): the rules in short and every key."""

from __future__ import annotations

from fivetowers.ui.help_page import HelpPage, table_help

HELP = """\
# GoTown — the rules in short

**Goal:** the first tower of **5 floors** wins at once (the short game: 4).
A floor is two cards that make **9**: 1+8, 2+7, 3+6, 4+5, or a wild `?`
with any 1–8 (`?6` is a wild standing for 6). Towers grow bottom to top.

**A turn.** Draw a card (not with 8 or more in hand), play any number of
cards in any order, then end the turn (`e`): you draw up to 3 cards.
If a **milkshake** waits before you, you drink it instead and that is your
whole turn. After 100 turns per player the tallest tower wins.

**Plays.**

| card | look | what it does |
| --- | --- | --- |
| `1`–`8`, `?` | blue, pink | **build** two cards from your hand that make 9; or **steal**: a 1–8 from your hand takes the card that makes 9 from an opponent's top floor (not one with a dog); their other card is discarded |
| Dog | orange | guards a floor of your tower: no steal, no jackhammer |
| Bone | beige | lures away the dog on an opponent's floor |
| Jack | red | jackhammer: knocks down an opponent's top floor without a dog |
| Wreck | dark pink | wrecking ball: knocks down a top floor, dog and all |
| Milk | light pink | milkshake: the opponent loses their next turn |
| Donut | yellow | donut truck: you take another turn after this one |
| Thief | green | takes a random card from an opponent's hand |
| Super | teal | super thief: a random card from every opponent |

Hands are secret (their sizes are not); towers, dogs, milkshakes and the
discard pile are public. The log names a thief's card only to the thief
and the robbed player.

# Keys

| key | what it does |
| --- | --- |
| `1`–`9`, `0` | pick that card of your hand; then pick option *n* of the Play panel |
| `←` `→` `enter` | move along your hand and pick a card |
| `↑` `↓` `enter` | move through the options and play one |
| click | a hand card picks it; with a card picked, a partner card builds and a tower's floor is a target |
| `escape` / `backspace` | put the picked card back |
| `e` | end your turn |
| `h` | show / hide the hints (best plan, strong bot, threats) |
| `r` | the result again, once the game is over |
| `?` | this help; `escape` closes it |
{leave_keys}
Targets marked **◀n** on a tower or under a hand card are legal, with the
option number that plays them; **✗** options are refused: pick one to read
the reason. On the end screen: `n` plays again, `b` goes back to the
table, {end_q}.
"""

def help_text(hosted: bool) -> str:
    """The help for local play or for a server's table."""
    return table_help(HELP, hosted)


class HelpScreen(HelpPage):
    def __init__(self, hosted: bool = False) -> None:
        super().__init__()
        self.TEXT = help_text(hosted)
