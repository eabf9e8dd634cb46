"""The CP-SAT model of one player's building step (imports OR-Tools: load lazily).

One model per position; it is solved once per bid with the bid fixed (the
bid variable's domain is changed in place), from bid 1 upwards until a bid is
infeasible, which gives ``max_bid``.

Variables and constraints (RULES.md A2, A3.4, Part B):

* **Candidates.** Every display card may be taken; under Great Powers, when
  the display holds a scrap card, the teardown-pile cards a best plan may
  need (:mod:`fivetowers.games.five_towers.solver.rebuilds`: interchangeable cards are offered
  once, used highest first) — and the card torn down this round — may come
  back by a scrap rebuild. Each candidate is placed at most once; a display
  card is taken exactly when it is placed.
* **Cut.** ``td[t]`` tears down the top of tower ``t`` (at most one, never a
  0). Great Powers: ``pay`` (one-hot ``pay{q}``) removes ``q`` tree cards from
  the top first, and forbids taking display tree cards. The tree's cut is
  ``pay + td[tree]`` (one-hot ``cut[j]``), so the card torn down from the tree
  depends on the payment.
* **Order within a tower.** Each tower's new cards form one circuit
  (``add_circuit``) through a node for the tower left after the cut and a
  node per candidate; an arc ``c → d`` exists only when ``d`` may go onto
  ``c`` by A2 (lower, anything onto an 8, a 9 onto anything but a 0, nothing
  onto a 0), the arc from the tower to its first new card only when that card
  fits the top left by the cut. An unused candidate takes its self-loop. The
  Great Powers sand tower has one more node, the ground, so the circuit may
  also pass through cards slid under the tower (each able to bear the card
  above it); only one end is used per round. The last card of the circuit is
  the new top: a 0 there doubles the tower, and its value gives the openness.
* **Scrap rebuilds.** A card from the pile comes right after a scrap card is
  added, one per scrap card. Given the chains, such an order exists exactly
  when the first scrap card added comes from hand and the cards rebuilt are no
  more than the scrap cards added (:func:`plans.order_steps` builds it).
* **Objective.** The rank of problem.py (the tie-break rule) as one weighted
  sum: the final score (tower cards, doubled when the top card is a 0; the
  main tower as a max; scary/candy pairs as a sum of per-value minima; the
  teardown penalty ``n(n+1)/2`` by its tangent lines) weighted highest, then
  no teardown, then the openness of the tops, then fewer tree cards paid.
  Each plan read back is re-scored by the engine's scoring and must match
  the objective, or the solve raises.
* **Time.** One hint has :data:`SECONDS` for all its bids. Small models solve
  best without CP-SAT's LP relaxation; from :data:`LP_FROM` rebuild
  candidates on it is switched on, since only the LP bounds the quadratic
  pile penalty well (a pile of 60: over 30 s per bid without, well under one
  with). If the time still runs out, the plans found so far are returned,
  marked unproven, instead of failing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Union

from ortools.sat.python import cp_model

from fivetowers.games.five_towers.rules.cards import TOWER_TOP
from fivetowers.games.five_towers.rules.scoring import PAIR_BONUS
from fivetowers.games.five_towers.rules.search import CANDY, SAND, SCARY, SCRAP, TREE
from fivetowers.games.five_towers.rules.towers import can_place
from fivetowers.games.five_towers.solver.plans import Link, Plan, make_plan, nothing_plan, order_steps
from fivetowers.games.five_towers.solver.rebuilds import rebuild_candidates
from fivetowers.games.five_towers.solver.problem import Problem, top_openness

W_SCORE, W_NO_TEARDOWN, W_OPEN = 8192, 4096, 32  # rank levels; pay weighs 1
SECONDS = 10.0
"""The time one hint (every bid) may take; a pile of 60 needs about a second."""
LP_FROM = 10
"""Rebuild candidates from which the LP relaxation pays (scripts/bench_hint.py)."""
LinearExpr = Union[cp_model.LinearExpr, int]
Literal = cp_model.LiteralT


@dataclass
class _Cand:
    """A card that may join tower ``ti`` this round."""

    ti: int
    value: int
    from_pile: bool
    placed: cp_model.IntVar


@dataclass
class _Cut:
    """One way the tower may be cut before building: ``j`` cards off the top."""

    j: int
    lit: cp_model.IntVar | None  # None: the only option (always true)
    negated: bool = False  # the option holds when ``lit`` is false

    def clause_false(self) -> list[Literal]:
        """Literals of a clause that are false exactly when this option holds."""
        if self.lit is None:
            return []
        return [self.lit] if self.negated else [self.lit.Not()]

    def expr(self) -> LinearExpr:
        if self.lit is None:
            return 1
        return 1 - self.lit if self.negated else self.lit


class HintModel:
    """The CP-SAT model of one position; :meth:`solve` answers one bid."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        m = self.model = cp_model.CpModel()
        towers, powers = problem.towers, problem.powers
        max_pay = problem.max_pay
        rebuild = powers and any(ti == SCRAP for ti, _ in problem.display)

        # -- tree payment and teardown ----------------------------------------
        self.pay_options: list[cp_model.IntVar] = []
        pay: LinearExpr = 0
        if max_pay:
            self.pay_options = [m.new_bool_var(f"pay{q}") for q in range(max_pay + 1)]
            m.add_exactly_one(self.pay_options)
            pay = cp_model.LinearExpr.weighted_sum(self.pay_options, range(max_pay + 1))
        self.td: dict[int, cp_model.IntVar] = {}
        for ti, tower in enumerate(towers):
            if tower and tower[-1] != TOWER_TOP:
                self.td[ti] = m.new_bool_var(f"td{ti}")
        if self.td:
            m.add_at_most_one(self.td.values())
        cuts: list[list[_Cut]] = []
        for ti, tower in enumerate(towers):
            if ti == TREE and max_pay:
                opts = [m.new_bool_var(f"cut{j}") for j in range(len(tower) + 1)]
                m.add_exactly_one(opts)
                m.add(cp_model.LinearExpr.weighted_sum(opts, range(len(tower) + 1))
                      == pay + self.td[TREE])
                cuts.append([_Cut(j, lit) for j, lit in enumerate(opts)])
            elif ti in self.td:
                cuts.append([_Cut(0, self.td[ti], negated=True), _Cut(1, self.td[ti])])
            else:
                cuts.append([_Cut(0, None)])

        # -- candidates -------------------------------------------------------
        self.hand: list[_Cand] = []
        cands: list[list[_Cand]] = [[] for _ in range(5)]
        for i, (ti, v) in enumerate(problem.display):
            if towers[ti] and towers[ti][-1] == TOWER_TOP:
                continue  # a finished tower takes nothing
            c = _Cand(ti, v, False, m.new_bool_var(f"take{i}"))
            if ti == TREE and max_pay:
                m.add(c.placed <= self.pay_options[0])  # paying: no tree card
            self.hand.append(c)
            cands[ti].append(c)
        self.rebuilt: list[_Cand] = []
        if rebuild:
            offered = rebuild_candidates(problem)
            from_pile: list[_Cand] = []
            for j, (ti, v) in enumerate(offered.cards):
                c = _Cand(ti, v, True, m.new_bool_var(f"pile{j}"))
                from_pile.append(c)
                cands[ti].append(c)
            for group in offered.ordered:  # highest first: no symmetric choices
                for a, b in zip(group, group[1:]):
                    m.add_implication(from_pile[b].placed, from_pile[a].placed)
            self.rebuilt += from_pile
            for ti, td in self.td.items():
                tower = towers[ti]
                if ti == TREE and max_pay:
                    for q in range(min(max_pay, len(tower) - 1) + 1):
                        c = _Cand(ti, tower[-1 - q], True, m.new_bool_var(f"torn{ti}_{q}"))
                        m.add(c.placed <= td)
                        m.add(c.placed <= self.pay_options[q])
                        self.rebuilt.append(c)
                        cands[ti].append(c)
                else:
                    c = _Cand(ti, tower[-1], True, m.new_bool_var(f"torn{ti}"))
                    m.add(c.placed <= td)
                    self.rebuilt.append(c)
                    cands[ti].append(c)
        self.cands = cands

        # -- order within each tower: a circuit through the tower's cards ------
        lengths: list[LinearExpr] = []
        points: list[LinearExpr] = []
        opens: list[LinearExpr] = []
        self.next: list[dict[int, list[tuple[int, cp_model.IntVar]]]] = []
        for ti, tower in enumerate(towers):
            cs = cands[ti]
            arcs_out: dict[int, list[tuple[int, cp_model.IntVar]]] = {}
            self.next.append(arcs_out)
            if tower and tower[-1] == TOWER_TOP:
                lengths.append(len(tower))
                points.append(2 * len(tower))
                continue
            base_len: LinearExpr = len(tower) - sum(
                cut.j * cut.expr() for cut in cuts[ti] if cut.j)
            shown, ends = self._tower(ti, tower, cs, cuts[ti], arcs_out)
            top_open: list[LinearExpr] = [
                top_openness(c.value) * end for c, end in zip(cs, ends)]
            for cut in cuts[ti]:
                rest = tower[:len(tower) - cut.j]
                weight = top_openness(rest[-1] if rest else None)
                if not weight:
                    continue
                if shown is None:
                    top_open.append(weight * cut.expr())
                else:
                    on_top = m.new_bool_var(f"shown{ti}_{cut.j}")
                    m.add(on_top <= cut.expr())
                    m.add(on_top <= shown)
                    top_open.append(weight * on_top)
            opens.append(sum(top_open))
            length = base_len + sum(c.placed for c in cs)
            lengths.append(length)
            zero = [end for c, end in zip(cs, ends) if c.value == TOWER_TOP]
            if zero:
                bound = len(tower) + len(cs)
                doubled = m.new_int_var(0, bound, f"doubled{ti}")
                m.add(doubled <= length)
                m.add(doubled <= bound * sum(zero))
                points.append(length + doubled)
            else:
                points.append(length)

        # -- counts, scrap rebuilds, score -------------------------------------
        rebuilt_count: LinearExpr = sum(c.placed for c in self.rebuilt)
        if self.rebuilt:
            # one rebuild per scrap card added; a rebuilt scrap card brings its
            # own, so the other types' rebuilds are at most the scrap cards from
            # hand (the same constraint, stated so that it propagates early)
            others = sum(c.placed for c in self.rebuilt if c.ti != SCRAP)
            m.add(others <= sum(c.placed for c in self.hand if c.ti == SCRAP))
        self.bid = m.new_int_var(0, len(problem.display) + max_pay, "bid")
        m.add(self.bid == sum(c.placed for c in self.hand) + pay)

        bound = sum(len(t) for t in towers) + len(problem.display) + len(problem.pile) + 1
        main = m.new_int_var(0, bound, "main")
        m.add_max_equality(main, lengths)

        pairs: LinearExpr = 0
        if powers:
            pairs = self._pairs(cuts, cands)

        pile_after = len(problem.pile) + sum(self.td.values()) - rebuilt_count
        most = len(problem.pile) + 1
        penalty = m.new_int_var(0, most * (most + 1) // 2, "penalty")
        for n0 in range(most + 1):  # tangents of n(n+1)/2 at every integer
            m.add(penalty >= n0 * (n0 + 1) // 2 + (n0 + 1) * (pile_after - n0))

        score = sum(points) + main + PAIR_BONUS * pairs - penalty
        self.score = score
        no_teardown = 1 - sum(self.td.values())
        m.maximize(W_SCORE * score + W_NO_TEARDOWN * no_teardown + W_OPEN * sum(opens) - pay)
        self.solver = cp_model.CpSolver()
        params = self.solver.parameters
        # Tiny models: one worker, and no presolve, symmetry detection, LP
        # relaxation or probing — each costs more than it saves here
        # (scripts/bench_hint.py). No SIGINT handler: hints run in threads.
        params.num_workers = 1
        params.cp_model_presolve = False
        params.symmetry_level = 0
        # Except with many pile cards to rebuild: without the LP relaxation
        # the search cannot bound the pile penalty (issue 18: a pile of 60
        # ran out of time; with it, it takes well under a second).
        params.linearization_level = 1 if len(self.rebuilt) >= LP_FROM else 0
        params.cp_model_probing_level = 0
        params.catch_sigint_signal = False
        self._bid_index = self.bid.index

    def _tower(self, ti: int, tower: tuple[int, ...], cs: list[_Cand], cuts: list[_Cut],
               arcs_out: dict[int, list[tuple[int, cp_model.IntVar]]],
               ) -> tuple[cp_model.IntVar | None, list[cp_model.IntVar]]:
        """The cards tower ``ti`` gains, as one circuit; returns (base on top, ends).

        Nodes: 0 is the tower left after the cut (``BASE``), ``1..n`` the
        candidates, and for the Great Powers sand tower ``n + 1`` (``SRC``),
        the ground under it. Read bottom to top, a tower is a path whose every
        step obeys A2 (also for cards slid under the sand tower: ``b`` goes
        under ``l`` when ``l`` could go onto ``b``). Without ``SRC`` the circuit
        runs BASE → cards added on top → BASE, and BASE's self-loop means
        nothing is added; with it, SRC → cards slid under → BASE → cards on top
        → SRC, and one of SRC → BASE, BASE → SRC must hold: one end per round.
        An empty sand tower takes its cards on top only, which loses nothing: a
        valid tower can always be built up from its bottom card. ``ends[c]``
        is the arc from candidate ``c`` back to the start: ``c`` is the top.
        """
        m = self.model
        n = len(cs)
        if not n:
            return None, []
        sand = self.problem.powers and ti == SAND and bool(tower)
        base, src = 0, n + 1
        after = n + 1 if sand else 0  # where a top chain ends
        arcs: list[tuple[int, int, Literal]] = []

        def arc(i: int, j: int, name: str) -> cp_model.IntVar:
            lit = m.new_bool_var(f"a{ti}_{name}")
            arcs.append((i, j, lit))
            arcs_out.setdefault(i, []).append((j, lit))
            return lit

        ends = []
        for k, c in enumerate(cs, 1):
            arcs.append((k, k, c.placed.Not()))
            if not (ti == SCRAP and c.from_pile):  # the first scrap card comes from hand
                first = arc(base, k, f"b{k}")
                for cut in cuts:
                    rest = tower[:len(tower) - cut.j]
                    if rest and not can_place(c.value, rest[-1]):
                        m.add_bool_or([first.Not()] + cut.clause_false())
            ends.append(arc(k, after, f"e{k}"))
            for h, d in enumerate(cs, 1):
                if d is not c and can_place(d.value, c.value):
                    arc(k, h, f"{k}_{h}")
        if not sand:
            shown = arc(base, base, "none")
            for c in cs:  # else the cards could make a circuit of their own
                m.add_implication(shown, c.placed.Not())
            m.add_circuit(arcs)
            return shown, ends
        ground = arc(src, base, "ground")  # nothing slid under the tower
        shown = arc(base, src, "shown")  # nothing added on top
        m.add_bool_or([ground, shown])
        for k, c in enumerate(cs, 1):
            arc(src, k, f"s{k}")
            under = arc(k, base, f"u{k}")
            for cut in cuts:
                rest = tower[:len(tower) - cut.j]
                if not rest or not can_place(tower[0], c.value):
                    m.add_bool_or([under.Not()] + cut.clause_false())
        m.add_circuit(arcs)
        return shown, ends

    def _pairs(self, cuts: list[list[_Cut]], cands: list[list[_Cand]]) -> LinearExpr:
        """Scary/candy pairs: per value, the smaller of its counts in the two towers."""
        m = self.model
        towers = self.problem.towers

        def count(ti: int, v: int) -> tuple[LinearExpr, int]:
            tower = towers[ti]
            have = sum(1 for x in tower if x == v)
            expr: LinearExpr = have
            for cut in cuts[ti]:
                if cut.j and tower[-1] == v:
                    expr = expr - cut.expr()
            added = [c.placed for c in cands[ti] if c.value == v]
            return expr + sum(added), have + len(added)

        total: LinearExpr = 0
        for v in range(16):
            scary, most_s = count(SCARY, v)
            candy, most_c = count(CANDY, v)
            if not most_s or not most_c:
                continue
            pv = m.new_int_var(0, min(most_s, most_c), f"pairs{v}")
            m.add(pv <= scary)
            m.add(pv <= candy)
            total = total + pv
        return total

    def solve(self, bid: int, seconds: float) -> tuple[Plan | None, bool]:
        """The best plan for ``bid`` (None when no build of that bid exists)
        found within ``seconds``, and whether it is proven: the best plan, or
        that there is none. Unproven: the best plan found, or None when the
        time ran out before any was found."""
        domain = self.model.proto.variables[self._bid_index].domain
        domain[0] = bid  # the domain [0, most] becomes [bid, bid]
        domain[1] = bid
        self.solver.parameters.max_time_in_seconds = max(seconds, 0.0)
        status = self.solver.solve(self.model)
        if status == cp_model.OPTIMAL:
            return self._plan(), True
        if status == cp_model.FEASIBLE:
            return self._plan(), False
        if status == cp_model.INFEASIBLE:
            return None, True
        if status == cp_model.UNKNOWN:
            return None, False
        raise RuntimeError(f"CP-SAT stopped with status {self.solver.status_name(status)}")

    def _plan(self) -> Plan:
        value = self.solver.boolean_value
        pay = next((q for q, lit in enumerate(self.pay_options) if value(lit)), 0)
        torn = next((ti for ti, lit in self.td.items() if value(lit)), None)
        top: list[list[Link]] = []
        bottom: list[Link] = []
        for ti, cs in enumerate(self.cands):
            succ = {i: j for i, outs in self.next[ti].items() for j, lit in outs
                    if value(lit) and i != j}
            chain: list[Link] = []
            node = succ.get(0)
            while node is not None and 1 <= node <= len(cs):
                chain.append((cs[node - 1].value, cs[node - 1].from_pile))
                node = succ.get(node)
            top.append(chain)
            if ti == SAND:
                under: list[Link] = []
                node = succ.get(len(cs) + 1)
                while node is not None and 1 <= node <= len(cs):
                    under.append((cs[node - 1].value, cs[node - 1].from_pile))
                    node = succ.get(node)
                bottom = under[::-1]  # slid under one by one, from the base down
        plan, rank = make_plan(self.problem, pay, torn, order_steps(top, bottom))
        objective = round(self.solver.objective_value)
        weighed = W_SCORE * (rank[0] + self.problem.start_total()) + W_NO_TEARDOWN * rank[1] \
            + W_OPEN * rank[2] + rank[3]
        if weighed != objective:
            raise RuntimeError(f"CP-SAT plan {plan} is worth {weighed}, model says {objective}")
        return plan


def cpsat_plans(problem: Problem,
                seconds: float | None = None) -> tuple[tuple[Plan, ...], bool]:
    """The best plan of every bid ``0..max_bid``, by the CP-SAT model, and
    whether all of it is proven (every plan the best, and ``max_bid`` the
    highest buildable bid).

    ``seconds`` (default :data:`SECONDS`) bounds the whole solve, every bid
    together. When it runs out, the plans found so far are kept — each legal,
    but perhaps not the best — and the bids from the first one without a plan
    found are left out.
    """
    plans = [nothing_plan()]
    if not problem.display and not problem.max_pay:
        return tuple(plans), True
    model = HintModel(problem)
    deadline = time.monotonic() + (SECONDS if seconds is None else seconds)
    proven = True
    for bid in range(1, len(problem.display) + problem.max_pay + 1):
        plan, exact = model.solve(bid, deadline - time.monotonic())
        proven = proven and exact
        if plan is None:
            break
        plans.append(plan)
    return tuple(plans), proven
