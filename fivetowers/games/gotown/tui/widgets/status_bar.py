"""The top line: whose turn it is and why (a milkshake drunk, a donut
truck's extra turn), and the turn count against the game's limit."""

from __future__ import annotations

from rich.text import Text

from fivetowers.games.gotown.rules import PlayerView
from fivetowers.i18n import _
from fivetowers.ui.shared_static import SharedStatic
from fivetowers.ui.text import name_text

YOURS = "bold black on #ffd75f"


def turn_text(view: PlayerView, names: list[str], humans: tuple[int, ...],
              reason: str) -> Text:
    """Whose turn, in a few words, with why when it is not plain rotation."""
    if view.over or view.to_move is None:
        return Text(_(" game over "), style="bold reverse")
    who = view.to_move
    if who in humans:
        text = Text(" ▶ ", style=YOURS)
        if len(humans) > 1:
            text.append_text(name_text(names[who], YOURS))
            text.append(_(": your turn "), style=YOURS)
        else:
            text.append(_("YOUR TURN "), style=YOURS)
    else:
        text = name_text(names[who], "bold")
        text.append(_(" is playing…"), style="italic")
    if reason:
        text.append(f" ({reason})", style="bold #ffafd7")
    return text


class StatusBar(SharedStatic):
    shown: Text | None = None

    def show(self, view: PlayerView, turn: Text) -> None:
        line = turn.copy()
        line.append(_("  turn {turn} of at most {most}").format(turn=view.turn, most=view.turn_limit),
                    style="dim")
        if line != self.shown:
            self.shown = line
            self.update(line, layout=False)
