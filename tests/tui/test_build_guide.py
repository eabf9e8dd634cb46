"""The build guide over the engine's BuildSession: what the build panel offers
and says, including the Great Powers sand bottom, scrap rebuild and tree pay."""

from __future__ import annotations

from fivetowers.games.five_towers.rules import Board, BuildSession, End, Position, Source, Step, TowerType, Variant, card
from fivetowers.games.five_towers.solver import exhaustive_hint
from fivetowers.games.five_towers.tui.build_guide import BuildGuide

SAND, SCRAP, CANDY, TREE = TowerType.SAND, TowerType.SCRAP, TowerType.CANDY, TowerType.TREE


def board() -> Board:
    b = Board()
    b.towers[SAND] = [10]
    b.towers[SCRAP] = [14]
    b.towers[CANDY] = [7]
    b.towers[TREE] = [9, 5]
    b.teardown = [card("candy-6")]
    return b


DISPLAY = [card("sand-12"), card("scrap-11"), card("scary-3")]


def guide(bid: int = 3) -> BuildGuide:
    return BuildGuide(BuildSession(board(), DISPLAY, True, bid))


def test_choosing_the_wrong_number_of_cards_is_refused_with_the_engines_reason() -> None:
    g = guide()
    g.toggle(0)
    g.confirm_choice()
    assert g.notice_bad and "take exactly 3" in g.notice and not g.chosen
    g.toggle(7)
    assert g.notice_bad and "no card 8" in g.notice


def test_sand_bottom_refusals_and_scrap_rebuild_are_offered() -> None:
    g = guide()
    for i in range(3):
        g.toggle(i)
    g.confirm_choice()
    assert g.chosen and not g.notice_bad
    by_step = {o.step: o for o in g.options()}
    top, bottom = Step(card("sand-12")), Step(card("sand-12"), End.BOTTOM)
    assert not by_step[top].legal and by_step[bottom].completable
    g.pick(by_step[top])
    assert g.notice_bad and "refused: sand-12 cannot go onto sand-10" in g.notice
    assert g.session.board.towers[SAND] == [10]  # a refusal changes nothing
    g.pick(by_step[Step(card("scrap-11"))])
    rebuild = Step(card("candy-6"), source=Source.TEARDOWN)
    assert rebuild in {o.step for o in g.options() if o.legal}
    g.undo()
    assert rebuild not in {o.step for o in g.options()}
    g.undo()  # back before the choice of cards
    assert not g.chosen and "pick cards again" in g.notice
    g.undo()
    assert g.notice_bad and g.notice == "nothing to undo"


def test_teardown_and_tree_payment_cycle_through_what_the_board_allows() -> None:
    g = guide()
    seen = []
    for _ in range(5):
        g.cycle_teardown()
        seen.append(g.teardown)
    assert seen == [CANDY, TREE, SCRAP, SAND, None]
    assert g.max_pay() == 2
    g.cycle_pay()
    g.cycle_pay()
    assert g.pay == 2 and g.take_count == 1
    g.cycle_pay()
    assert g.pay == 0


def test_accepting_the_hints_plan_lays_out_a_finished_build() -> None:
    position = Position(Variant.GREAT_POWERS, board(), list(DISPLAY))
    plan = exhaustive_hint(position).plans[3]
    g = guide()
    g.accept(plan)
    assert g.session.done and not g.notice_bad
    build = g.finish(0)
    assert build is not None and build == plan.to_build(0)
    assert len(g.picked) == 3 - plan.pay
