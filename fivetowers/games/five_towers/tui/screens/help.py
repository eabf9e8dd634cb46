"""The help screen (`?`): the rules in short (a page per language,
fivetowers/locale/<lang>/help/fivetowers.md, from the rulebooks) and every key."""

from __future__ import annotations

from fivetowers.i18n import N_, _
from fivetowers.i18n.help import help_text as rules_text
from fivetowers.ui.help_page import HelpPage, table_help

KEYS = (
    ('`0`–`9`', N_('bid that many (bidding); pick card *n* (building)')),
    ('`p`', N_('pass (bidding)')),
    ('click', N_('pick a display card / a card to place')),
    ('`t`', N_('choose the tower to tear down (or none)')),
    ('`y`', N_('Great Powers: how many tree cards to pay')),
    ('`enter`', N_('confirm the cards taken; place the highlighted card; build')),
    ('`↑` `↓`', N_('move through the cards to place')),
    ('`a`', N_("lay out the hint's best plan for your bid")),
    ('`u` / `backspace`', N_('undo a step or the choice of cards')),
    ('`h`', N_('show / hide the hints')),
    ('`v`', N_("the hints in full: every bid's plan, wrapped (the panel cuts long ones)")),
    ('`s`', N_("show / hide every score's breakdown (others: towers+main+pairs−pile=total)")),
    ('`b`', N_('bell and window title when it becomes your turn: on / off (on at first)')),
    ('`o`', N_("scroll to the other players' boards (4–5 players on a small terminal)")),
    ('`e`', N_('the results again, once the game is over')),
    ('`?`', N_('this help (`↑` `↓` `end` scroll); `escape` closes it')),
)
"""The key table: each key (the same in every language) and what it does."""
NOTES = (
    N_('On the end screen: `n` plays again, `b` goes back to look at the table, {end_q}.'),
    N_("With hints on, each opponent's board shows **bid≤N**: the highest bid they "
       "could carry out now (public information)."),
    N_("In the build list **✓** means every taken card can still be built after that "
       "step; *dead end* means the rules allow it but a card would be stuck; **✗** "
       "means the rules refuse it (pick it to read why)."),
)
"""What follows the key table, a paragraph each ({end_q}: what q does there)."""


def help_text(hosted: bool) -> str:
    """The help for local play or for a server's table, in the viewer's language."""
    keys = "".join(f"| {key} | {_(what)} |\n" for key, what in KEYS)
    notes = "\n\n".join(_(note) for note in NOTES)  # Markdown wraps them
    page = (rules_text("fivetowers") + "\n# " + _("Keys") + "\n\n| " + _("key | what it does")
            + " |\n| --- | --- |\n" + keys + "{leave_keys}\n" + notes
            + "\n")
    return table_help(page, hosted)


class HelpScreen(HelpPage):
    def __init__(self, hosted: bool = False) -> None:
        super().__init__()
        self.TEXT = help_text(hosted)
