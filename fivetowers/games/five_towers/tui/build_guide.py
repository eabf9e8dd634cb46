"""The state of a build being made on screen, over the engine's BuildSession.

The session decides what is legal; this only remembers what the player has
picked so far (display cards, teardown, tree payment) and the last message.
"""

from __future__ import annotations

from dataclasses import dataclass

from fivetowers.games.five_towers.rules import (
    TYPES, Build, BuildSession, End, IllegalBuild, Source, Step, TowerType,
)
from fivetowers.games.five_towers.rules.towers import has_tower_top
from fivetowers.games.five_towers.solver.plans import Plan
from fivetowers.games.five_towers.tui.words import cards_word, refusal_words, step_word
from fivetowers.i18n import _


@dataclass(frozen=True)
class StepOption:
    """One card the player could try to place next."""

    step: Step
    legal: bool
    completable: bool


class BuildGuide:
    def __init__(self, session: BuildSession) -> None:
        self.session = session
        self.picked: set[int] = set()
        self.teardown: TowerType | None = None
        self.pay = 0
        self.notice = ""
        self.notice_bad = False

    # -- choosing -----------------------------------------------------------
    @property
    def chosen(self) -> bool:
        return self.session.chosen

    @property
    def powers(self) -> bool:
        return self.session.powers

    @property
    def take_count(self) -> int:
        return self.session.bid - self.pay

    def say(self, text: str, bad: bool = False) -> None:
        self.notice, self.notice_bad = text, bad

    def toggle(self, index: int) -> None:
        if self.chosen:
            self.say(_("cards already chosen: undo (u) to choose again"), True)
            return
        if not 0 <= index < len(self.session.display):
            self.say(_("there is no card {number} in the display").format(number=index + 1), True)
            return
        self.picked ^= {index}
        self.say("")

    def teardown_options(self) -> list[TowerType | None]:
        towers = self.session.start.towers
        return [None] + [t for t in TYPES if towers[t] and not has_tower_top(towers[t])]

    def cycle_teardown(self) -> None:
        if self.chosen:
            self.say(_("undo (u) to change the teardown"), True)
            return
        options = self.teardown_options()
        self.teardown = options[(options.index(self.teardown) + 1) % len(options)]
        self.say("")

    def max_pay(self) -> int:
        tree = self.session.start.towers[TowerType.TREE]
        if not self.powers or not tree or has_tower_top(tree):
            return 0
        return min(len(tree), self.session.bid)

    def cycle_pay(self) -> None:
        if self.chosen:
            self.say(_("undo (u) to change the payment"), True)
        elif not self.max_pay():
            self.say(_("you cannot pay with tree cards now"), True)
        else:
            self.pay = (self.pay + 1) % (self.max_pay() + 1)
            self.say("")

    def confirm_choice(self) -> None:
        take = [self.session.display[i] for i in sorted(self.picked)]
        try:
            self.session.choose(take, self.pay, self.teardown)
        except IllegalBuild as exc:
            self.say(refusal_words(exc), True)
        else:
            self.say(_("now place the cards: pick one (digit, click, ↑↓ enter)"))

    # -- placing ------------------------------------------------------------
    def options(self) -> list[StepOption]:
        s = self.session
        if not s.chosen:
            return []
        legal = set(s.legal_steps())
        good = set(s.completable_steps())
        steps: list[Step] = []
        sand_bottom = s.powers and bool(s.board.towers[TowerType.SAND])
        for card in dict.fromkeys(s.hand):
            steps.append(Step(card))
            if sand_bottom and card.type is TowerType.SAND:
                steps.append(Step(card, End.BOTTOM))
        if s.rebuild_pending:
            for card in dict.fromkeys(s.board.teardown):
                steps.append(Step(card, source=Source.TEARDOWN))
        return [StepOption(st, st in legal, st in good) for st in steps]

    def pick(self, option: StepOption) -> None:
        try:
            self.session.place(option.step)
        except IllegalBuild as exc:
            self.say(_("refused: {reason}").format(reason=refusal_words(exc)), True)
            return
        if self.session.done or self.session.can_finish():
            placed = step_word(option.step)
            self.say(_("placed {step}: enter builds, u undoes").format(step=placed)
                     if self.session.done else _("placed {step}").format(step=placed))
        else:
            self.say(_("placed {step}, but now {cards} cannot all be built: undo (u)").format(
                step=step_word(option.step), cards=cards_word(self.session.hand)), True)

    def undo(self) -> None:
        if self.session.undo():
            if not self.session.chosen:
                self.say(_("choice undone: pick cards again"))
            else:
                self.say(_("step undone"))
        else:
            self.say(_("nothing to undo"), True)

    def accept(self, plan: Plan) -> None:
        """Carry out a hint's plan (choose + every step) for the player to confirm."""
        while self.session.undo():
            pass
        try:
            self.session.choose(list(plan.take), plan.pay, plan.teardown)
            for step in plan.steps:
                self.session.place(step)
        except IllegalBuild as exc:  # a solver bug must not crash the screen
            while self.session.undo():
                pass
            self.say(_("the hint's plan was refused: {reason}").format(reason=refusal_words(exc)),
                     True)
            return
        taken = list(plan.take)
        pool = list(enumerate(self.session.display))
        self.picked = set()
        for card in taken:
            i = next(i for i, c in pool if c == card and i not in self.picked)
            self.picked.add(i)
        self.pay, self.teardown = plan.pay, plan.teardown
        self.say(_("the hint's plan is laid out"))

    def finish(self, seat: int) -> Build | None:
        try:
            return self.session.finish(seat)
        except IllegalBuild as exc:
            self.say(refusal_words(exc), True)
            return None
