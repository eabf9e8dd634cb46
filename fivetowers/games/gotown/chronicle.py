"""The game's story for the log, told to each viewer: every play in words.

The engine keeps the actions, not what happened between them (draws, a
milkshake drunk, a donut truck's extra turn, a reshuffle): a
:class:`Chronicle` replays the table's actions on a game of its own, one at
a time as they come, and writes down what changed. A thief's catch is a
secret of the thief and the robbed player: :meth:`Entry.text_for` names the
card for them and says "a card" to everyone else.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fivetowers.games.gotown.rules import (
    Action, Bone, Build, Card, Dog, DonutTruck, End, Floor, Game, Jackhammer, Milkshake, Steal,
    SuperThief, Thief, WreckingBall,
)
from fivetowers.games.gotown.rules.game import REFILL_TO

YOU = "You"
"""Local play's name for its one human: the log says "You build", "your tower"."""


def floor_text(floor: Floor) -> str:
    """A floor in words: ``[3 ?6]``."""
    return f"[{floor.left} {floor.right}]"


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the log: ``kind`` styles it (play, turn, attack, end...)."""

    kind: str
    text: str
    took: tuple[tuple[int, Card], ...] = ()
    """A thief's catch: (robbed seat, card); shown only to ``thief`` and the robbed."""
    thief: int | None = None
    after: tuple[str, ...] = ()
    """With ``took``: the words after each card taken (``text`` comes before)."""
    action: int = -1
    """The number of the action that led to it (0 the first)."""

    def text_for(self, seat: int | None) -> str:
        out = self.text
        for (robbed, card), words in zip(self.took, self.after):
            knows = seat is not None and seat in (self.thief, robbed)
            out += (card.words if knows else "a card") + words
        return out


class Chronicle:
    """The log of one table's game, extended as its actions come."""

    def __init__(self, game: Game) -> None:
        self._game = Game([p.name for p in game.players], game.floors_to_win,
                          deck=game.initial_deck, seed=game.seed,
                          reshuffles=game.reshuffles)
        self.entries: list[Entry] = []
        self.reason = ""
        """Why the player to move has this turn, when it is not plain rotation."""

    def follow(self, game: Game) -> None:
        """Take in the actions ``game`` has that this log has not told yet."""
        mine = self._game
        mine.planned_reshuffles = [list(r) for r in game.reshuffles]
        for action in game.actions[len(mine.actions):]:
            self._tell(mine, action)

    def _name(self, seat: int) -> str:
        return self._game.players[seat].name

    def _does(self, seat: int, verb: str) -> str:
        """``Ann builds``; ``You build`` (local play's default name)."""
        name = self._name(seat)
        return f"{name} {verb}" if name == YOU else f"{name} {verb}s"

    def _them(self, seat: int) -> str:
        """``Ann``; ``you`` in the middle of a sentence."""
        name = self._name(seat)
        return "you" if name == YOU else name

    def _of(self, seat: int, start: bool = False) -> str:
        """``Ann's``; ``your`` (``Your`` to start a sentence)."""
        name = self._name(seat)
        if name == YOU:
            return "Your" if start else "your"
        return f"{name}'s"

    def _tell(self, game: Game, action: Action) -> None:
        before_milk = [p.milkshakes for p in game.players]
        before_hands = [p.hand_size for p in game.players]
        reshuffles = len(game.reshuffles)
        truck = game.truck_on_table
        floors = [list(p.floors) for p in game.players]
        told = len(self.entries)
        game.apply(action, recorded=True)
        who = action.seat
        if isinstance(action, End):
            # The draw up to 3 (a donut truck's extra turn may draw one more).
            drawn = min(game.players[action.seat].hand_size - before_hands[action.seat],
                        REFILL_TO - before_hands[action.seat])
            self._add("turn", f"{self._does(who, 'end')} the turn"
                      + (f", draws {drawn}" if drawn > 0 else ""))
            self.reason = ""
            if truck:
                self._add("tempo", f"Donut truck: {self._does(who, 'take')} another turn")
                self.reason = "another turn: donut truck"
            for seat, (was, now) in enumerate(zip(before_milk, (p.milkshakes for p in game.players))):
                if now < was:
                    lost = was - now
                    self._add("tempo", f"{self._does(seat, 'drink')} a milkshake: "
                                       + ("turn lost" if lost == 1 else f"{lost} turns lost"))
                    if not truck:
                        self.reason = f"{self._name(seat)} drank a milkshake"
        else:
            self.entries.append(self._play(game, action, floors, who))
        if len(game.reshuffles) > reshuffles:
            self._add("turn", "The discard pile is shuffled into a new draw pile")
        if game.over:
            names = " and ".join(self._name(s) for s in game.winners)
            alone = len(game.winners) == 1 and names != YOU
            self._add("end", f"{names} win{'s' if alone else ''}!")
        index = len(game.actions) - 1
        self.entries[told:] = [replace(e, action=index) for e in self.entries[told:]]

    def _add(self, kind: str, text: str) -> None:
        self.entries.append(Entry(kind, text))

    def _play(self, game: Game, action: Action, floors: list[list[Floor]], who: int) -> Entry:
        built = game.players[action.seat].floors[-1] if game.players[action.seat].floors else None
        if isinstance(action, Build) and built is not None:
            return Entry("play", f"{self._does(who, 'build')} {floor_text(built)}")
        if isinstance(action, Steal) and built is not None:
            return Entry("attack", f"{self._does(who, 'steal')} from "
                                   f"{self._of(action.target)} top floor "
                                   f"{floor_text(floors[action.target][-1])} and builds "
                                   f"{floor_text(built)}")
        if isinstance(action, Dog):
            return Entry("play", f"{self._does(who, 'put')} a dog on floor {action.floor + 1}")
        if isinstance(action, Bone):
            return Entry("attack", f"{self._of(who, True)} bone lures away the dog on "
                                   f"{self._of(action.target)} floor {action.floor + 1}")
        if isinstance(action, (Jackhammer, WreckingBall)):
            tool = "jackhammer" if isinstance(action, Jackhammer) else "wrecking ball"
            return Entry("attack", f"{self._of(who, True)} {tool} knocks down "
                                   f"{self._of(action.target)} "
                                   f"top floor {floor_text(floors[action.target][-1])}")
        if isinstance(action, Milkshake):
            return Entry("tempo",
                         f"{self._does(who, 'give')} {self._them(action.target)} a milkshake")
        if isinstance(action, DonutTruck):
            return Entry("tempo", f"{self._does(who, 'play')} the donut truck: another turn follows")
        recorded = game.actions[-1]
        if isinstance(recorded, Thief) and recorded.took is not None:
            return Entry("attack", f"{self._of(who, True)} thief takes ",
                         ((recorded.target, recorded.took),),
                         action.seat, (f" from {self._them(recorded.target)}",))
        assert isinstance(recorded, SuperThief) and recorded.took is not None
        if not recorded.took:
            return Entry("attack", f"{self._of(who, True)} super thief finds no card to take")
        after = tuple(f" from {self._them(s)}" + (" and " if n < len(recorded.took) - 1 else "")
                      for n, (s, _) in enumerate(recorded.took))
        return Entry("attack", f"{self._of(who, True)} super thief takes ", recorded.took,
                     action.seat, after)
