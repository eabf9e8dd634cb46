"""The game's story for the log, told to each viewer: every play in words.

The engine keeps the actions, not what happened between them (draws, a
milkshake drunk, a donut truck's extra turn, a reshuffle): a
:class:`Chronicle` replays the table's actions on a game of its own, one at
a time as they come, and writes down what changed. An :class:`Entry` keeps
an English template and its details, not words: :meth:`Entry.text_for`
writes it in the viewer's language, so two players at one table each read
their own. A thief's catch is a secret of the thief and the robbed player:
it names the card for them and says "a card" to everyone else.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from fivetowers.games.gotown.rules import (
    Action, Bone, Build, Card, Dog, DonutTruck, End, Floor, Game, Jackhammer, Milkshake, Steal,
    SuperThief, Thief, WreckingBall,
)
from fivetowers.games.gotown.rules.game import REFILL_TO
from fivetowers.i18n import N_, _, current_language, ngettext

YOU = "You"
"""Local play's name for its one human: the log says "You build", "your tower"."""

CARD_PHRASES: dict[Card, str] = {
    Card.WILD: N_("a wild"), Card.DOG: N_("a dog"), Card.BONE: N_("a bone"),
    Card.JACKHAMMER: N_("a jackhammer"), Card.WRECKING_BALL: N_("a wrecking ball"),
    Card.MILKSHAKE: N_("a milkshake"), Card.DONUT_TRUCK: N_("a donut truck"),
    Card.THIEF: N_("a thief"), Card.SUPER_THIEF: N_("a super thief"),
}
"""How a sentence names a card that is not a number."""


def floor_text(floor: Floor) -> str:
    """A floor in words: ``[3 ?6]``."""
    return f"[{floor.left} {floor.right}]"


def card_phrase(card: Card) -> str:
    """The card as a sentence names it, in the viewer's language: ``a 5``, ``an 8``."""
    if card in CARD_PHRASES:
        return _(CARD_PHRASES[card])
    if card.number == 8:
        return _("an {number}").format(number=card.value)
    return _("a {number}").format(number=card.value)


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the log: ``kind`` styles it (play, turn, attack, end...).

    ``text`` is an English template (marked for the catalog where it is
    made); ``seats`` name its players by seat, ``details`` fill in the rest.
    A seat field ``who`` gives the template ``{who}`` (the name) and
    ``{who_of}`` (``Ann's``, ``your``)."""

    kind: str
    text: str
    you_text: str = ""
    """The template when ``who`` is local play's "You" ("You build", "Your bone")."""
    seats: tuple[tuple[str, int], ...] = ()
    details: tuple[tuple[str, object], ...] = ()
    names: tuple[str, ...] = ()
    """The players' names, by seat."""
    took: tuple[tuple[int, Card], ...] = ()
    """A thief's catch: (robbed seat, card); shown only to ``thief`` and the robbed."""
    thief: int | None = None
    winners: tuple[int, ...] = ()
    """Several winners, named together as ``{names}``."""
    action: int = -1
    """The number of the action that led to it (0 the first)."""
    said: dict[tuple[int | None, str], str] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False)
    """Its line as each seat (None: a watcher) reads it, by language, once
    written: every viewer's log is written again on every move at the table
    (the whole game's lines), a tenth of a GoTown move's calls per viewer."""

    def _you(self, seat: int) -> bool:
        return self.names[seat] == YOU

    def _name(self, seat: int) -> str:
        return _("you") if self._you(seat) else self.names[seat]

    def _of(self, seat: int) -> str:
        return _("your") if self._you(seat) else _("{name}'s").format(name=self.names[seat])

    def text_for(self, seat: int | None) -> str:
        """The line as ``seat`` reads it (None: a watcher), in the current language."""
        key = (seat, current_language())
        text = self.said.get(key)
        if text is None:
            text = self.said[key] = self._write(seat)
        return text

    def _write(self, seat: int | None) -> str:
        fields: dict[str, object] = dict(self.details)
        for key, who in self.seats:
            fields[key] = self._name(who)
            fields[f"{key}_of"] = self._of(who)
        if self.winners:
            fields["names"] = _(" and ").join(_("You") if self._you(s) else self.names[s]
                                              for s in self.winners)
        if self.took:
            fields["catch"] = _(" and ").join(
                _("{card} from {robbed}").format(
                    card=card_phrase(card) if seat is not None and seat in (self.thief, robbed)
                    else _("a card"), robbed=self._name(robbed))
                for robbed, card in self.took)
        you = self.you_text and dict(self.seats).get("who") is not None \
            and self._you(dict(self.seats)["who"])
        template = _(self.you_text if you else self.text)
        try:
            return template.format(**fields)
        except (KeyError, IndexError, ValueError):  # a catalog entry that lost a field
            return (self.you_text if you else self.text).format(**fields)


class Chronicle:
    """The log of one table's game, extended as its actions come."""

    def __init__(self, game: Game) -> None:
        self._game = Game([p.name for p in game.players], game.floors_to_win,
                          deck=game.initial_deck, seed=game.seed,
                          reshuffles=game.reshuffles)
        self._names = tuple(p.name for p in game.players)
        self.entries: list[Entry] = []
        self._reason: Entry | None = None

    @property
    def reason(self) -> str:
        """Why the player to move has this turn, when it is not plain rotation
        (in the viewer's language)."""
        return "" if self._reason is None else self._reason.text_for(None)

    def follow(self, game: Game) -> None:
        """Take in the actions ``game`` has that this log has not told yet."""
        mine = self._game
        mine.planned_reshuffles = [list(r) for r in game.reshuffles]
        for action in game.actions[len(mine.actions):]:
            self._tell(mine, action)

    def _entry(self, kind: str, text: str, you_text: str = "", who: int | None = None,
               target: int | None = None, **details: object) -> Entry:
        seats = tuple((key, seat) for key, seat in (("who", who), ("target", target))
                      if seat is not None)
        return Entry(kind, text, you_text, seats, tuple(details.items()), self._names)

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
            if drawn > 0:
                self.entries.append(self._entry(
                    "turn", N_("{who} ends the turn, draws {count}"),
                    N_("You end the turn, draws {count}"), who, count=drawn))
            else:
                self.entries.append(self._entry("turn", N_("{who} ends the turn"),
                                                N_("You end the turn"), who))
            self._reason = None
            if truck:
                self.entries.append(self._entry("tempo", N_("Donut truck: {who} takes another turn"),
                                                N_("Donut truck: You take another turn"), who))
                self._reason = self._entry("reason", N_("another turn: donut truck"))
            for seat, (was, now) in enumerate(zip(before_milk, (p.milkshakes for p in game.players))):
                if now < was:
                    lost = was - now
                    if lost == 1:
                        self.entries.append(self._entry(
                            "tempo", N_("{who} drinks a milkshake: turn lost"),
                            N_("You drink a milkshake: turn lost"), seat))
                    else:
                        self.entries.append(self._entry(
                            "tempo", N_("{who} drinks a milkshake: {count} turns lost"),
                            N_("You drink a milkshake: {count} turns lost"), seat, count=lost))
                    if not truck:
                        self._reason = self._entry("reason", N_("{who} drank a milkshake"),
                                                   N_("You drank a milkshake"), seat)
        else:
            self.entries.append(self._play(game, action, floors, who))
        if len(game.reshuffles) > reshuffles:
            self.entries.append(self._entry(
                "turn", N_("The discard pile is shuffled into a new draw pile")))
        if game.over:
            self.entries.append(self._winners(list(game.winners)))
        index = len(game.actions) - 1
        self.entries[told:] = [replace(e, action=index) for e in self.entries[told:]]

    def _winners(self, winners: list[int]) -> Entry:
        if len(winners) == 1:
            return self._entry("end", N_("{who} wins!"), N_("You win!"), winners[0])
        return replace(self._entry("end", N_("{names} win!")), winners=tuple(winners))

    def _play(self, game: Game, action: Action, floors: list[list[Floor]], who: int) -> Entry:
        built = game.players[action.seat].floors[-1] if game.players[action.seat].floors else None
        if isinstance(action, Build) and built is not None:
            return self._entry("play", N_("{who} builds {floor}"), N_("You build {floor}"), who,
                               floor=floor_text(built))
        if isinstance(action, Steal) and built is not None:
            return self._entry(
                "attack", N_("{who} steals from {target_of} top floor {taken} and builds {floor}"),
                N_("You steal from {target_of} top floor {taken} and build {floor}"), who,
                action.target, taken=floor_text(floors[action.target][-1]),
                floor=floor_text(built))
        if isinstance(action, Dog):
            return self._entry("play", N_("{who} puts a dog on floor {number}"),
                               N_("You put a dog on floor {number}"), who, number=action.floor + 1)
        if isinstance(action, Bone):
            return self._entry(
                "attack", N_("{who_of} bone lures away the dog on {target_of} floor {number}"),
                N_("Your bone lures away the dog on {target_of} floor {number}"), who,
                action.target, number=action.floor + 1)
        if isinstance(action, Jackhammer):
            return self._entry(
                "attack", N_("{who_of} jackhammer knocks down {target_of} top floor {floor}"),
                N_("Your jackhammer knocks down {target_of} top floor {floor}"), who,
                action.target, floor=floor_text(floors[action.target][-1]))
        if isinstance(action, WreckingBall):
            return self._entry(
                "attack", N_("{who_of} wrecking ball knocks down {target_of} top floor {floor}"),
                N_("Your wrecking ball knocks down {target_of} top floor {floor}"), who,
                action.target, floor=floor_text(floors[action.target][-1]))
        if isinstance(action, Milkshake):
            return self._entry("tempo", N_("{who} gives {target} a milkshake"),
                               N_("You give {target} a milkshake"), who, action.target)
        if isinstance(action, DonutTruck):
            return self._entry("tempo", N_("{who} plays the donut truck: another turn follows"),
                               N_("You play the donut truck: another turn follows"), who)
        recorded = game.actions[-1]
        if isinstance(recorded, Thief) and recorded.took is not None:
            return replace(self._entry("attack", N_("{who_of} thief takes {catch}"),
                                       N_("Your thief takes {catch}"), who),
                           took=((recorded.target, recorded.took),), thief=action.seat)
        assert isinstance(recorded, SuperThief) and recorded.took is not None
        if not recorded.took:
            return self._entry("attack", N_("{who_of} super thief finds no card to take"),
                               N_("Your super thief finds no card to take"), who)
        return replace(self._entry("attack", N_("{who_of} super thief takes {catch}"),
                                   N_("Your super thief takes {catch}"), who),
                       took=tuple(recorded.took), thief=action.seat)
