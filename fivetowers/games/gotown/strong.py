"""GoTown's strong bot: greedy+, and a search over the hidden hands and the
deck when the move's time allows enough of it.

A win is made at once, and so is greedy+'s play
(:func:`~fivetowers.games.gotown.plus.plus_play`) when it is a steal or a
thief. Otherwise, for a few plays open now (:meth:`StrongBot.candidates`:
greedy+'s, ending the turn, the best build; :data:`WIDTH` at most), the bot
deals the cards it cannot see (the other hands, by their public sizes, and
the draw pile) at random many times and, on the same deals for every play
(common random numbers), makes the play, lets greedy+ finish the turn and
play :data:`ROUNDS` rounds for every seat, then scores the table: a win 1,
another's win 0, else its lead in floors (pairs in hand and a guarded top
counting part of a floor). It keeps dealing until its time per move is spent
and leaves greedy+'s play for the one with the best paired mean difference,
if that is beyond :data:`SURE` standard errors. Like every bot it sees only
its own view.

A search of few deals is noise: heads-up against the greedy bot, greedy+
alone won 56.2% of 400 games (seed 1), greedy+ with the search at 0.05 s a
move on a loaded machine (about 6 deals a decision) 47.5% of the same games,
and with 30 deals a decision 61.5% of 200 [54.6–68.0]. So the search has its
say heads-up only when a decision will see :data:`MIN_DEALS` deals; the
clock's forecast is made after the first :data:`FORECAST_DEALS`.

With a fixed number of deals a decision (``scripts/gotown_search_arena.py``,
which builds ``StrongBot(simulations=N)``: figures free of the machine's
load; seed 1, heads-up against greedy, 95% Wilson intervals), the design
below (:data:`HEADS_UP_SEARCH`):

==========================  =====  ============================
design                      deals  won
==========================  =====  ============================
as below                    30     61.5% of 200 [54.6–68.0]
as below                    60     64.5% of 200 [57.7–70.8]
                                   (60.8% of 400 [55.9–65.4])
as below                    100    63.5% of 200 [56.6–69.9]
2 rounds instead of 3       60     61.0% of 200 [54.1–67.5]
SURE 1.0 instead of 0.5     60     67.0% of 200 [60.2–73.1]
==========================  =====  ============================

Beyond 30 deals, more deals bring little that 200 or 400 games can see
(the same first 200 games: 61.5%, 64.5%, 63.5%; games 200–399 at 60 deals
57.0%): the goal of 65% is not reached by more deals of this design alone.
A decision the search has its say at makes about 2.6 playouts a deal.
SURE 1.0 did 2.5 points better than the design kept on the same 200 games,
well within their noise (about ±7 points), and no better on 400 fresh ones
(seed 2, 50 deals: 58.2% [53.4–63.0] against 57.8% [52.9–62.5]), so it is
not adopted. Through the tournament at 0.05 s on a quiet machine (seeds 1
and 0, 400 games each) the design kept won 64.0% and 60.5%; with
``drop_after=10`` (stop playing a candidate searched clearly worse than
greedy+'s, to spend the playouts on more deals) 61.3% and 59.5%, so that
stays off too.

Two designs play the same games the same way most of the time: the arena
now pairs them game by game (``--wins-to`` then ``--paired``: the games only
one of them won, and the sign test's p on those), which sees a difference
two win rates of 200 games cannot. Against the design kept on seed 1's
games 0–199 at 60 deals (129 won, 64.5%), busy shared machine, figures
free of its load, all with greedy+ from before its pair-keeping steal
(with it, the design kept won 66.5% of these games; see plus.py):

=======================================  =====================  =============
design                                   won                    only it/kept
=======================================  =====================  =============
``steals=True`` (search greedy+'s         63.0% [56.1–69.4]      31/34, p 0.80
steals and thieves too)
``per_card=0.1`` (a card in hand, in      66.5% [59.7–72.7]      11/7, p 0.48
floors, in the score)
``hold=True`` (3rd place: greedy+'s       65.0% [58.2–71.3]      13/12, p 1.0
turn without its play's cards, kept for
later: :meth:`StrongBot.held_back`)
``stealer=0.5`` (a steal ready at the     69.0% [62.3–75.0]      12/3, p 0.035
horizon, in floors, in the score)
=======================================  =====================  =============

On seed 2's games 0–199 the design kept won 57.5% [50.6–64.1] and
``per_card=0.1`` the same 115 games (6/6). ``stealer=0.5`` is the one lead:
p 0.035 on one seed, but one of four designs tried on the same games (so
about 0.14 once that is counted), and on seed 2's first 60 games it won
33 to the design kept's 34 (4/5): not confirmed. The defaults therefore
stay as they were and the options stay, off, for 400-game runs on two
seeds on a quiet machine.

A learned score at the horizon (``value=True``,
:mod:`~fivetowers.games.gotown.value`): the chance our seat goes on to win
from the horizon, a logistic regression on 35 features (and a bias) of the seat and its
rival (floors to go, guarded top, pairs, wilds, action cards by kind, a
steal ready, milkshake turns owed, whose turn, the draw pile, the table),
fitted by ``scripts/gotown_value_fit.py`` on greedy+ games from random seeds
(a quarter with the greedy bot in one seat). Heads-up it has weights of its
own, fitted on 5000 games of two: on the games held out, log loss 0.546
against the hand-made score's 0.622 (given one logistic fit to calibrate
it), and the seat it ranks first is the winner at 71.4% of states against
65.1%. It predicts the winner better; the search does not play measurably
better with it. Seed 1's games 0–199 at 60 deals, paired with the design
kept (133 won, 66.5%; busy shared machine, figures free of its load):

==========================================  =====================  =============
design                                      won                    only it/kept
==========================================  =====================  =============
``value=True`` (weights of 2–4 players)     63.5% [56.6–69.9]      19/25, p 0.45
``value=True,rounds=2`` (the same)          68.5% [61.8–74.5]      33/29, p 0.70
``value=True,rounds=2`` (heads-up weights)  68.0% [61.2–74.1]      33/30, p 0.80
``value=True,rounds=1`` (heads-up weights)  68.5% [61.8–74.5]      32/28, p 0.70
==========================================  =====================  =============

On seed 2's games 0–199 the design kept won 111 (55.5% [48.6–62.2]) and
``value=True,rounds=2`` 117 (58.5% [51.6–65.1]; 32/26, p 0.51): over the
400, 63.2% against 61.0%, 65 games only it won against 56 (p 0.47);
``rounds=1`` the same 111 (35/35). A score
costs 41 µs of CPU against the hand-made one's 12 µs, a playout of 3 rounds
280–380 µs and of 2 rounds 210 µs (heads-up, mid-game states, busy shared
machine): with 2 rounds the clock would give about a third more deals, which
past 30 deals add little (above). Every figure leans its way and none is
beyond the noise, so the option stays off: the next measurement is 400 games
a seed of ``value=True,rounds=2`` (or ``rounds=1``) on a quiet machine, then
the tournament at 0.05 s.

Since greedy+ got its fitted worths (plus.py) the value was refit on games
of the current greedy+ (value.py's ``FITTED_BY``): heads-up, on the states
held out, log loss 0.553 and the first-ranked seat the winner at 70.6%,
against the old weights' 0.553 and 70.5% on the same states; at three and
four seats, on 1500 fresh games, 0.5739 against 0.5742 (38.1% both). The
refit changes nothing measurable. Against the design kept, with it, at 60
deals (busy shared machine, figures free of its load; games 0–199 of each
seed), and what the clock lets each search (the arena's ``--clock 0.05``:
the CPU a searched decision spent over its deals, on this machine, and the
share of searched decisions whose cost a deal lets them see
:data:`MIN_DEALS` deals in 0.05 s):

=========================  =================  =================  ==========  ==============
design                     seed 1             seed 2             CPU a deal  at 0.05 s
=========================  =================  =================  ==========  ==============
the design kept            68.0% [61.2–74.1]  62.0% [55.1–68.4]  1.26 ms     40 deals, 80%
``value=True,rounds=1``    66.0% [59.2–72.2]  55.5% [48.6–62.2]  0.69 ms     72 deals, 100%
``value=True,rounds=2``    74.0% [64.6–81.6]  (not played)       0.94 ms     53 deals, 99%
=========================  =================  =================  ==========  ==============

(The clock's figures: means of the two seeds. ``rounds=2``: seed 1's games
0–99 only, where the design kept won 70: 16 games only it won, 12 only
the design kept, p 0.57; ``rounds=1`` on those 100 games 16/16.) Paired game by
game, ``value=True,rounds=1`` won 28 games the design kept lost and lost 32
it won on seed 1 (p 0.70), 29 and 42 on seed 2 (p 0.15): over the 400,
60.8% [55.9–65.4] against 65.0% [60.2–69.5], 57/74 (p 0.16). With the
old greedy+ it leaned the other way (above); with the fitted greedy+ it
does worse, if anything. Under the clock the learned score with one round
would let every searched decision have its say, with nearly twice the
deals, where the design kept stays silent at about one in five; but a
search that plays no better on fixed deals gains nothing from being heard
more often, so the defaults stay as they are. ``rounds=2`` leans the other
way on 100 games of one seed, far within the noise: its second seed is the
next measurement.

That measurement, with main's greedy+ (the fitted worths), 60 deals,
paired with the design kept on the same games (busy shared machine,
figures free of its load; the clock's columns as above, but this run's:
CPU a deal depends on the machine's load at the time, so the design kept
sees 55 deals here where the earlier run's table says 40):

===========================  =============  =============  =============  ===============
``value=True,rounds=2``      seed 1, 0–199  seed 2, 0–199  400 games      at 0.05 s
===========================  =============  =============  =============  ===============
won (design kept)            136 (136)      122 (124)      64.5% (65.0%)  69 deals, 100%
only it / only kept          30/30, p 1.0   31/33, p 0.90  61/63, p 0.93  (kept: 55, 96%)
===========================  =============  =============  =============  ===============

(Seed 1's games 100–199: 62 against 66, 14/18.) On fixed deals the
learned score with 2 rounds plays as the design kept does, to the game;
under the clock it would see about a quarter more deals in this run (a
third in the earlier estimate from a playout's CPU), which past 30
add little (above). Not adopted: nothing on fixed deals says it is better.

Defending against a rival near its win (``defend``,
:meth:`StrongBot.defence`; ``critical_deals``), with main's greedy+: greedy+
already makes every play worth more than 0 before it ends its turn heads-up,
so the best play against the rival's tower is nearly always among the plays
searched. Over 40 games of seed 1 (662 searched decisions), a rival was one
floor from winning at 11; the defensive play was open at 6 of them and was
greedy+'s own play at all 6; within two floors, open at 29 and a new
candidate at 5 (a wrecking ball or jackhammer where greedy+ built or played
a donut truck first). Paired with the design kept at 60 deals (busy shared
machine, figures free of its load): ``defend=2`` on seed 1's games 100–199
won 65 to 66 (0/1), on seed 2's games 0–99 66 to 66, the same games (0/0).
The fewest deals for those decisions: at 15 deals a decision (so that
MIN_DEALS keeps every other search silent; greedy+ alone then, 60.5% of seed
1's games 0–199 and 50.0% of seed 2's) ``critical_deals=10`` searched 0.3
decisions a game and won 122 and 99 of the 200 against 121 and 100 (2/1 and
0/1). Too rare to matter either way: both stay off.

Which decisions the search changes, and whether those changes win
(``scripts/gotown_search_arena.py --departures 60``: each decision that
leaves greedy+'s play, judged on the game's true state, the rival's real
hand and 60 shuffles of the draw pile, the search's play against greedy+'s
with greedy+ and the greedy bot playing on to the game's end). Seed 3,
games 0–79, 60 deals (47 won, 58.8%): 390 departures, 4.9 a game, each
gaining +0.027 wins (se 0.005) over greedy+'s play:

===========================  ==========  ====================
greedy+'s play -> search's   departures  wins gained (se)
===========================  ==========  ====================
build -> end the turn        219         +0.026 (0.005)
milkshake -> end the turn    40          +0.015 (0.013)
end the turn -> build        34          +0.025 (0.022)
build -> another build       29          +0.037 (0.019)
bone -> end the turn         12          −0.019 (0.040)
dog -> end the turn          11          +0.017 (0.013)
milkshake -> build           10          +0.135 (0.038)
the 9 other kinds            35          (1–9 each)
===========================  ==========  ====================

The search's changes win: mostly a pair kept in hand rather than built
(where greedy+ builds with 3 cards or fewer, or by its risk rule), each
worth about 2.6 points of a game. No kind of departure loses beyond its
noise, so no candidate is worth dropping; if anything the search would leave
greedy+'s play more readily, but the departures a lower bar adds do not win:
``sure=0.0`` (instead of 0.5), paired with the design kept at 60 deals, won
64 to 66 on seed 1's games 100–199 (10/12) and 64 to 66 on seed 2's games
0–99 (13/15): 128 to 132, 23/27, p 0.67. The defaults stay.

Whole-turn plans were tried as candidates (a sequence of plays for the rest
of the turn, plans leaving the same hand and table counted once, searched by
successive halving on common deals with the design kept's playouts a
decision; not merged; the branch is gone, its figures stay here): on seed 1's games 0–199 8 plans
at SURE 1.0 won 71.5% against 66.5% (35/25), on seed 2's 400 games 57.8%
against 58.2% (68/70); all 600 games 118/110, p 0.64. They leave greedy+'s
play more often (mostly to end the turn early, keeping a pair or an action
card) and win no more.

The deals model the opponents as players who use their cards (see
:func:`played_at_once`): a hand that had the chance to play a thief, or to
steal our top floor, and did not, most likely holds none (all but
:data:`STILL_HELD` of the time).

Reading the last opponent's turn exactly (``infer``, :func:`read_turn`):
the seat before ours, if its hand is larger than :data:`REFILL` (so no card
came since its plays), is dealt only hands a sensible player could have
ended that turn with, the table as it is at the start of ours: no card that
steals an open top floor, no thief, milkshake or donut truck, no jackhammer
with an open top in reach, no wrecking ball with a tower of two floors or a
guarded top, no dog with its own top open, and with a full hand
(:data:`~fivetowers.games.gotown.bots.HOARD` cards) no two cards that build
(:func:`read_hand`: the first cards of the shuffle that keep to it; the
rest reshuffled). In 300 games of greedy+ against the greedy bot, 3,360 of
4,717 turn starts had a reading (41 a full hand's) and the greedy bot's
true hand kept to every one; a deal costs the same (25–30 µs either way,
against some 0.4–0.5 ms of playouts a deal). And modelling the opponents
in the playouts by the plain greedy policy
(:data:`~fivetowers.games.gotown.plus.GREEDY`, ``rivals_greedy``) rather than
greedy+. Paired with the design kept at 60 deals on games 0–199 of seeds 1
and 2 (``--wins-to``, ``--paired``; busy shared machine, figures free of its
load):

=======================  ===========  ===========  ===============
design                   seed 1       seed 2       only it/kept,
                                                   400 games
=======================  ===========  ===========  ===============
the design kept          136 (68.0%)  124 (62.0%)
``infer=True``           134 (29/31)  120 (29/33)  58/64, p 0.65
``rivals_greedy=True``   134 (19/21)  125 (17/16)  36/37, p 1.0
=======================  ===========  ===========  ===============

Neither plays better: the reading adds little to the soft model above (it
makes exact what that model does nine times in ten, and a full hand that
did not build is rare against a bot that builds at 8), and what the search
changes is mostly whether to keep a pair (the departures above), which
turns on the stealers of a floor not yet built, of which the last turn
says nothing. Both stay off.

What the departures point to: the search's gains are pairs kept in hand
rather than built, so the worth of a pair in hand in the score
(:data:`IN_HAND`, in floors) decides them. The same games, paired with the
design kept (0.8):

===============  ===========  ===========  ===========  ===============
``in_hand``      seed 1       seed 2       seed 3       only it/kept
===============  ===========  ===========  ===========  ===============
0.8 (before)     136 (68.0%)  124 (62.0%)  112 (56.0%)
1.0              130 (7/13)   (not played)              7/13, p 0.26
0.6              140 (15/11)  125 (15/14)               30/25, p 0.59
0.4 (adopted)    142 (17/11)  129 (21/16)  121 (22/13)  60/40, p 0.057
===============  ===========  ===========  ===========  ===============

(games 0–199 of each seed; busy shared machine, figures free of its load;
the same 60 deals a decision, so the same cost.) The lower the worth, the
more games on seed 1; 0.4 leads on each of the three seeds, 65.3% of the
600 against 62.0%, and the heads-up search now has it
(:data:`HEADS_UP_IN_HAND`; three or four seats keep :data:`IN_HAND`).
The sign test's 0.057 is for one of three worths tried on these games:
a lean, not a proof. Through the tournament at 0.05 s a move, busy
machine (``--workers 2``, seed 1, 400 games): 57.5% of 400
[52.6–62.3] (2026-12-02 12:36 UTC, load 5–6 on the 2 cores, 24 ms a
strong move: most searches fell short of MIN_DEALS and played greedy+'s
play; no run of the design before beside it, so not a comparison).

The horizon, the candidates and the departures once more (2026-12-02 late
afternoon, busy shared machine, figures free of its load): the design kept
(``in_hand`` 0.4) won 142, 129 and 121 of games 0–199 of seeds 1, 2 and 3
at 60 deals (65.3% of the 600), the same games as above. Each variant
paired with it on seed 1's games 0–199, and where marked on seed 2's or 3's
(CPU a deal: each run's, the design kept 0.45–0.49 ms; the load moves it):

==========================================  ====  ==============  ==========
design                                      won   only it/kept    CPU a deal
==========================================  ====  ==============  ==========
``to_end=1`` (a seat one floor from its     142   1/1, p 1.0      0.50 ms
win: playouts of ``end_rounds`` 40 rounds,
to the game's end)
``to_end=2`` (two floors)                   143   6/5, p 1.0      0.59 ms
``to_end=5`` (every playout to the end)     115   19/46, p 0.001  1.33 ms
``rounds=5``                                134   26/34, p 0.37   0.63 ms
``width=5`` (greedy's next two plays too)   136   7/13, p 0.26    0.46 ms
``protected=0.6`` (a guarded top)           144   8/6, p 0.79     0.42 ms
``keep_attacks=True`` (below)               141   8/9, p 1.0      0.43 ms
(seed 2)                                    129   8/8, p 1.0
``in_hand=0.2`` (0.4 kept)                  139   12/15, p 0.70   0.38 ms
(seed 2)                                    135   24/18, p 0.44   0.39 ms
(seed 3)                                    116   15/20, p 0.50   0.39 ms
(seeds 1–3, 600 games; kept: 392)           390   51/53, p 0.92
==========================================  ====  ==============  ==========

Playouts to the game's end lose clearly: greedy+ played on for a whole
game is a worse judge of a play than the score after 3 rounds (its draws
decide more than the play; 2 rounds did worse too, above); near the end
only (``to_end`` 1 or 2) it changes a handful of games and wins none more.
The departures of the design kept (``--departures 40``, seed 3, games
0–79, 52 won): 501, each gaining +0.019 wins (se 0.004); build -> end the
turn 284 (+0.010, se 0.005), milkshake -> end 59 (+0.020, 0.011), end ->
build 49 (+0.044, 0.018); the one kind below zero beyond one standard
error was bone -> end the turn, 8 departures at −0.094 (se 0.048; −0.019
over 12 in the first table), with wrecking ball -> end 7 at −0.025 (0.048).
``keep_attacks`` leaves ending the turn out of the plays searched when
greedy+ bones or wrecks: about one departure in five games, too rare to
show (above). With the kept design, at 0.05 s on a quiet machine, a decision
would see 100–118 deals (0.42–0.49 ms of CPU a deal), past the 60 at which
more deals stopped helping (100 deals: 63.5% against 64.5%, above), so
giving contested decisions more of the clock would buy nothing these games
show; and the bot's own deadline was then per move, so time saved on one
move could not go to another (the time bank, below, now lets it, the
average within the budget). The defaults stay. At four seats, 0.05 s a move
(``fivetowers tournament --game gotown --players 4 --bots strong,greedy
--games 200 --seed 1 --workers 1``, busy machine, load 6–8 on the 2
cores, 32 ms a strong move): 33.5% of 200 [27.3–40.3], above its 25% share.

The cost of a deal, cut with the same decisions (2026-12-02 evening):
``tests/gotown/test_strong_digest.py`` holds every decision at 30 deals
over 24 seeded games of 2–4 seats, both lengths (and two designs off by
default), with every candidate's paired sums and every playout's plays,
state and score, written from the code before. Python calls a deal
2,256 -> 899 (``scripts/bench_gotown_search.py --digest-calls``: cProfile,
the searched heads-up decisions at the digest's positions of 48 seeds at
60 deals; with ``--all``, every table size, 4,343 -> 1,754, and CPU a
deal 0.70-0.73 -> 0.46-0.58 ms, two runs each alternating with main's on
the busy machine); in ``scripts/bench_gotown_search.py --count``'s
fixed work 2,871 -> 1,228 calls and 36,253 -> 30,495 opcodes a deal. CPU
a deal 0.36 -> 0.28 ms (the arena, seed 1's games 0–99 at 60 deals, main
and this side by side on the busy shared machine; the same 72 games won,
game by game), so 0.05 s of CPU would give a decision about 177 deals
where it gave 140. How: greedy+ and the turn ask a hand with ``in`` and
``[]`` (no ``dict.get``, no ``Counter.__missing__``), tops' guards and
heights without calls, a hand's builds from a table by the cards held,
the unseen stealers of its builds counted in one call, plays dispatched
by ``type() is``, a playout's first play without the validator (legal in
the view the deal agrees with), and Random's shuffle, choice, randrange
and seed drawn with the same numbers in fewer calls
(:mod:`~fivetowers.games.gotown.draws`). The calls fell by three fifths,
the CPU by about a fifth: what is left is the plays' own bytecode (greedy+
a fifth of it, the dealer's shuffles a tenth). Under the CPU clock at 0.05 s
(``scripts/bench_gotown_search.py --games 8``, beside main's) a searched
decision saw 190 deals on average (p10 121, p50 170) against 144 (p10 94,
p50 136), every one past :data:`MIN_DEALS` either way. Through the
tournament at 0.05 s a move (``--workers 1``, busy machine, load 8–9 on the
2 cores, 28–30 ms a strong move): 62.3% of 400 [57.4–66.9] at seed 1 and
60.0% [55.1–64.7] at seed 0 (61.1% of the 800 [57.7–64.4]); a second
seed-1 run beside main's in the same minutes, 60.2% [55.4–64.9] against
59.0% [54.1–63.7]. More deals of this design do not reach 65% (above).

The clock, measured free of the machine's load (2026-12-02 night;
``scripts/gotown_search_arena.py --rate R``: a model clock that moves
1/R s a deal of the search and half a deal's worth a decision for its own
work, the CPU ratio measured, 0.14–0.17 ms against 0.28–0.40 ms a deal;
``--clock 0.05``; the report of how each move ended, :attr:`StrongBot.why`).
Heads-up, of the strong bot's 28–31 moves a game (seeds 1 and 2, games
0–199) 5.6–7.7 are a single legal play, 0.6–0.7 a win, 4.8–5.3 greedy+'s
steal or thief and 0.1–0.3 a single play worth searching: about 42% of its
moves need no search and spend next to nothing of their 0.05 s; 16–18
search. A deal costs 0.28 ms of CPU on the quiet machine (above): about
3,500 deals a second, 175 deals a searched decision at 0.05 s, none short
of :data:`MIN_DEALS`; at 1,000 deals a second 50, none short; at 500 a
second 25, every one short, so the bot before played greedy+ alone there
(17.7 decisions a game returned greedy+'s play after 3 deals). So on a
quiet machine the clock gives three times the deals the design was chosen
at, and on a machine a third as fast or slower it silences the search.

What the clock does to the result, paired game by game with ``--deals 60``
(seeds 1 and 2, games 0–199; 142 and 129 won): at 3,500 deals a second,
175 deals a decision, 134 and 130 (of the 400, 59 games only ``--deals
60`` won, 52 only the clock, p 0.57); at 1,000 a second 137 and 129
(60/55, p 0.71). More deals than 60 never played better (100
deals: above), so under the clock a heads-up search now stops at
:data:`MOST_DEALS` deals, and the time a move does not spend, a move with
no search or a search stopped there (or by :attr:`Search.settle`, off),
goes to the bot's **time bank** (:data:`BANK_CAP`: a move may spend the
bank on top of its budget, 4 budgets at most, and an overrun is charged;
9/10 of what a move saves is kept, so the game's moves average under the
budget as ``fivetowers tournament`` reports them, its ms/move). Wherever
the clock gives 60 deals a decision, the bot then plays exactly as
``--deals 60``: at 3,500 deals a second seed 1's games 0–19 were won and
lost as there, game by game. Against the design kept under the same model
clock (the bank and ``most`` above against neither; ``--bank 1 --design
most=0``):

=================  ===================  ===================  ===============
deals a second     seed 1 (kept: mine)  seed 2 (kept: mine)  only kept/mine
=================  ===================  ===================  ===============
1,000 (50 deals)   137 : 131            129 : 129            57/51, p 0.63
500 (25 deals)     121 : 127            100 : 119            48/73, p 0.029
=================  ===================  ===================  ===============

At 1,000 deals a second the bank gives a searched decision 2.7–2.9
budgets on average (58 deals, p10 50) and wins no more: past 50 deals
more add nothing these games show. At 500 a second, where the design kept
searches nothing (greedy+ alone, 55.2% of the 400), 70% of the decisions
that deal reach 30 deals (mean 36–37, p50 44): 61.5%, 25 games more (on
seed 2 alone 23/42, p 0.025). With ``settle=2.0`` too (a search stops
once every play is two standard errors below greedy+'s, or one two above
the rest; 6–7 decisions a game stop so, from 30 deals), 249 of the 400
against the bank's 246 (45/42, p 0.83): off. And under a CPU clock at
0.05 s on this busy machine (``time.process_time``, seed 1's games 0–11)
every one of 207 searches made its 60 deals and every game ended as with
``--deals 60``. So on a machine that gives each search its 60 deals in
its budget and bank (the quiet one gives 175 in the budget alone) the
tournament's games end as the arena's at 60 deals: ``--seed 1`` games
0–399 263 won (65.8% [61.0–70.2]), ``--seed 0`` 261 (65.2% [60.5–69.8]),
65.5% of the 800 [62.1–68.7] (``gotown_search_arena.py --deals 60``,
figures free of the machine's load). The bank alone, without ``most`` (1,000 a second, seed 1:
every saved second spent, 77 deals on average, p90 139): 133 against the
kept 137 (28 games only the kept won, 24 only it). At four seats (one
strong bot, three greedy; no ``most`` there, the table's search keeps its
whole time; a deal costs about 0.9 ms of CPU there, three heads-up deals)
at 1,000 deals a second, games 0–99 of seeds 1 and 2: with the bank 40
and 33 won (78–80 deals a decision, p50 50, p90 139) against 34 and 34;
73 of the 200 against 68 (44/39, p 0.66), both above the 25% share. The bank is the bot object's, on one clock: in the tournament (a bot a seat a game) it lasts the game; on the server a worker
gives each move a new :class:`~fivetowers.tables.workers.WorkerClock` on a
copy of the bot, so the bank starts empty each move and the worker's
budget of CPU, stretch and ceiling hold as before.

What the hidden cards are worth (2026-12-03, thirteenth session;
``scripts/gotown_search_arena.py --peek``, 60 deals, figures free of the
machine's load). On seed 12's games 0–399, where the design won 236
(59.0%), a search dealt the rival's true hand (the draw pile still
shuffled) won 267 (44/75, p 0.006) and one dealt the pile's order too 344
(86.0%); on seed 1's games 0–199 the hand alone won 144 against 142. On
seeds 12–14's 1,200 games the design won 728 (60.7% [57.9–63.4]; 236, 249,
243) and the same search dealt the rival's true hand 781 (65.1%
[62.3–67.7]; 267, 262, 252): told the hand, this search only just reaches
the goal of 65% on those games. The hand pays where the rival holds 5
cards or more (the true hand dealt only then: 257, 52/73), not at 8 or
more (236, 3/3). Reading the rival's past
turns is not where that lies: each card of its hand dealt none of the
stealers of every open top of ours it sat through without stealing (the
cards' arrival times taken from the true game, so a bound on any such
reading) won 240 (62/66). The draws decide; a better reading of the
rival's plays has little to find.

Which departures win, by the hand they are made with (``--departures 40
--by-hand``, seed 3, games 0–159, 98 won): build -> end the turn with 8
cards or more, 300 departures, +0.007 wins each (se 0.005); with a dog
held, 95, +0.034 (0.009); end the turn -> build with 4–7 cards, 97, +0.039
(0.014). The full hand's keeps, the commonest departure, gain least. A
keep rule learned from the search (a linear guess of keeping's worth
against building, fitted on its paired estimates at 5,973 build decisions
of seed 11's 600 games; with 8 cards it kept at 71% of them) played worse
as greedy+'s rule, −2.3 points [−4.1, −0.6] over 4,000 deals (seed 5,
``scripts/gotown_policy_arena.py``), and as our seat's policy in the
playouts, 250 of seed 1's 400 against 263 (45/58, p 0.24): not kept (nor
its code). Nor a playout scored by the mean of its scores at the end of
each round (seed 12's 400: 238 against 236, 57/55; with 5 rounds 241,
52/47). Four earlier options on the same fresh games, against 236:
``steals=True`` 256 (65/45, p 0.07), ``width=5`` 240, ``rounds=4`` 228,
``value=True,rounds=2`` 231; ``steals=True`` on seeds 13 and 14 then won
242 and 241 against 249 and 243: over the 1,200 games 739 against 728
(179/168, p 0.6), the lead of seed 12 its noise."""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable

from fivetowers.games.gotown.bots import HOARD, GreedyBot, pairs_held
from fivetowers.games.gotown.draws import below, reseed, shuffle
from fivetowers.games.gotown.plus import GREEDY, plus_play
from fivetowers.games.gotown.rules import (
    Action, Bone, Build, Card, Dog, DonutTruck, End, Game, Jackhammer, Milkshake, PlayerView,
    Steal, SuperThief, Thief, WreckingBall,
)
from fivetowers.games.gotown.rules.cards import FLOOR_SUM, cards_unseen, floor_card
from fivetowers.games.gotown.rules.view import SeatView
from fivetowers.games.gotown.value import steals_from, win_chance, win_share


MARGIN = 0.01
"""How much better (in mean score) a play must search than the greedy one..."""
SURE = 1.5
"""... plus this many standard errors of the mean difference."""
WIDTH = 6
"""The most plays searched at a decision (see :meth:`StrongBot.candidates`)
at a table of three or four."""
HEADS_UP_WIDTH = 3
"""The same at a table of two: the default play (greedy's then, greedy+'s
now), ending the turn, the best build. Each play costs its playouts on
every deal, and at 0.05 s a move on a loaded machine a decision sees about
6 deals; heads-up, with 6 plays the search won 45.5% of 400 games, with 3,
50.5% (seed 0; both within the noise of 400 games, ±5 points). At four
seats, with 3, it won 22.7% of 300 games, with 6, 19.3% (the bot before
making steals and thieves at once and the faster playouts: also 19.3%,
under the same load)."""
ROUNDS = 2
"""How many rounds of turns a playout plays (this one to its end, then every
seat's next, and again)."""
HEADS_UP = (0.0, 0.5, 3)
"""(:data:`MARGIN`, :data:`SURE`, :data:`ROUNDS`) at a table of two. A round
there is half as long, so the playouts can look further, and the search may
leave the greedy play more readily: at SURE 1.5 it did so at 5% of
decisions. Over the same 200 heads-up games these won 59% (SURE 1.5 and 2
rounds: 51%; differences within the noise of 200 games, about ±7 points).
At four seats they cost the bot its lead (24.7% of 300 games, against
33.0% with the settings above, which bigger tables therefore keep)."""
MIN_DEALS = 30
"""The fewest deals a heads-up decision's search needs to leave greedy+'s
play: with fewer, the search's noise costs more than it finds (see the
module's notes); a decision that will not reach them returns greedy+'s play
after :data:`FORECAST_DEALS` deals (one with a fixed number), and so does
one whose clock runs out before them after all (on a busy machine the
forecast can be hopeful). At three or four seats the search always has its say: there
the bot before greedy+ won 33.0% of 300 four-player games with it on a
quiet machine, greedy+ alone 26.0% of 1000 (under load, the search over
greedy+ 22.0% of 200, seed 1; greedy+ alone 19.0% of the same games)."""
FORECAST_DEALS = 3
"""Under the clock, how many deals the forecast of :data:`MIN_DEALS` is
made after (with a fixed number of deals it is exact after the first). One
deal's time is a noisy forecast: heads-up at 0.05 s of CPU a move, of 13
decisions out of 67 whose forecast after one deal was below 30, 10 reached
30 deals when let go on (``scripts/bench_gotown_search.py``, busy shared
machine, CPU clock)."""
BANK_CAP = 4.0
"""Under the clock (``time_per_move``, no fixed number of deals), the most
a move may think, in budgets: a move that searches nothing (a single play,
a win, greedy+'s steal or thief) or less than its budget leaves the rest in
the bot's *bank*, and the next move may spend the bank on top of its own
budget up to this cap; a move that overruns its allowance (by part of a
deal) is charged the overrun. So over a game the bot's moves average no
more than ``time_per_move``, as ``fivetowers tournament`` reports it. The
bank is the bot object's, kept only on one clock (its ``timer``): a
server's worker gives the bot a new clock each move
(:class:`~fivetowers.tables.workers.WorkerClock`), so there it starts empty
each move and the worker's budget and ceiling hold as before. 1.0: no bank."""
BANK_SHARE = 0.9
"""The share of a move's unspent time the bank keeps: the rest covers what
the tournament counts in a move and the bot does not (making its view),
so the average stays under the budget."""
WHYS = ("one", "win", "greedy", "steal", "alone", "short", "late", "settled", "searched")
"""How a decision ends (:attr:`StrongBot.why`): a single legal play, a win
made at once, search off, greedy+'s steal or thief, a single play worth
searching, the forecast short of :data:`MIN_DEALS`, the clock short of them
after all, a search stopped early (:attr:`Search.settle`), a search that
had its say."""
MOST_DEALS = 60
"""Under the clock, the most deals a heads-up decision makes: the deals the
design was chosen at (``gotown_search_arena.py --deals 60``); more never
measured better (the module's notes), and the time they would take goes to
the bank for a decision the clock leaves short."""
SETTLE_FROM = 30
"""The fewest deals before :attr:`Search.settle` may stop a search."""
IN_HAND = 0.8
"""A floor the hand could build, as a share of a floor in the tower: safe
from steals and hammers, but not yet there."""
HEADS_UP_IN_HAND = 0.4
""":data:`IN_HAND` at a table of two: a pair kept is worth less there, so the
search keeps fewer (the module's notes: 392 of 600 games won against 372 at
0.8, 60/40, p 0.057, ahead on each of three seeds)."""
PROTECTED = 0.3
"""A dog on the top floor, in floors: the tower cannot be stolen from or hit."""


@dataclass(frozen=True)
class Search:
    """How the bot searches at a table of one size: the settings above, kept
    together so that ``scripts/gotown_search_arena.py`` can play variants."""

    margin: float
    sure: float
    rounds: int
    width: int
    min_deals: int = 0
    """Below this many deals a decision returns greedy+'s play (0: never)."""
    in_hand: float = IN_HAND
    protected: float = PROTECTED
    per_card: float = 0.0
    """A card in hand, in floors (the choices it gives)."""
    drop_after: int = 0
    """After this many deals a play searched worse than greedy+'s by more
    than two standard errors is played no more (0: never)."""
    steals: bool = False
    """Search greedy+'s steals and thieves too (else made at once)."""
    hold: bool = False
    """Also search the rest of greedy+'s turn without the cards of its play
    (keeping an action card or a pair for a later turn), in the third place
    (:meth:`StrongBot.held_back`). The cards kept are out of the hand while
    that turn plays, so greedy+'s steal risk counts them as unseen: its
    playouts overrate the risk of building (as measured, 13/12)."""
    stealer: float = 0.0
    """A hand holding a card that steals some opponent's open top floor at
    the horizon, in floors (a steal ready for its next turn)."""
    value: bool = False
    """Score the horizon by the learned chance to win from it
    (:func:`~fivetowers.games.gotown.value.win_chance`) instead of the
    lead in floors (the weights above then play no part)."""
    share: bool = False
    """With :attr:`value`: our chance over the sum of every seat's
    (:func:`~fivetowers.games.gotown.value.win_share`)."""
    defend: int = 0
    """When an opponent is this many floors or fewer from winning, also
    search the best play against its tower (:meth:`StrongBot.defence`),
    beyond :attr:`width` (0: never)."""
    critical_deals: int = 0
    """The fewest deals (instead of :attr:`min_deals`) of a decision at which
    an opponent is one floor from winning (0: :attr:`min_deals`)."""
    rivals_greedy: bool = False
    """The opponents play the plain greedy policy in the playouts
    (:data:`~fivetowers.games.gotown.plus.GREEDY`) instead of greedy+."""
    to_end: int = 0
    """When some seat (ours too) is this many floors or fewer from winning,
    the playouts run :attr:`end_rounds` rounds instead of :attr:`rounds`
    (to the game's end, nearly always: a playout's win or loss is then the
    game's, not the hand-made score's guess); 0: never."""
    end_rounds: int = 40
    """The rounds a playout plays near the end (see :attr:`to_end`)."""
    most: int = 0
    """Under the clock, stop after this many deals even with time left,
    which goes to the bank (:data:`BANK_CAP`); 0: never. (A fixed number of
    deals, ``StrongBot(simulations=N)``, is not cut.)"""
    settle: float = 0.0
    """Stop dealing, from :data:`SETTLE_FROM` deals (or ``min_deals``), once
    the choice is settled within this many standard errors (:func:`_settled`;
    0: never): under the clock the time left goes to the bank."""
    keep_attacks: bool = False
    """Do not search ending the turn when greedy+'s play is a bone or a
    wrecking ball (the departures that lost: see the module's notes)."""
    infer: bool = False
    """Deal the opponent who played just before us only hands consistent
    with its last turn, had it played sensibly (:func:`read_turn`). It reads
    the bot's memory of the table at its last decision: a server's worker
    gets a fresh copy of the bot each move, so at a hosted table only the
    tournament's and the arena's bots (where it was measured) remember."""


def wall_clock() -> float:
    """The strong bot's default timer: ``time.perf_counter``, looked up at each
    reading (the tests patch ``time.perf_counter``)."""
    return time.perf_counter()


TABLE_SEARCH = Search(MARGIN, SURE, ROUNDS, WIDTH)
"""The search at a table of three or four."""
HEADS_UP_SEARCH = Search(*HEADS_UP, width=HEADS_UP_WIDTH, min_deals=MIN_DEALS,
                         in_hand=HEADS_UP_IN_HAND, most=MOST_DEALS)
"""The search at a table of two."""


class StrongBot:
    name = "strong"

    def __init__(self, time_per_move: float = 0.05, simulations: int | None = None,
                 search: bool = True, heads_up: Search = HEADS_UP_SEARCH,
                 table: Search = TABLE_SEARCH, bank_cap: float = BANK_CAP) -> None:
        self.time_per_move = time_per_move
        self.heads_up, self.table = heads_up, table
        self.search = search  # False: greedy+'s play alone (measurements)
        self.simulations = simulations  # deals per decision instead of the clock (tests)
        # seconds: the wall clock, unless a table's worker gives its CPU time
        # (fivetowers.tables.workers.WorkerClock); "clock" is the arena's
        self.timer: Callable[[], float] = wall_clock
        self.rollout = GreedyBot(plan=False)
        self.prior = GreedyBot()
        # the turn in progress, and our tower at its start
        self._turn: int = -1
        self._faced: SeatView | None = None
        self._seats: tuple[SeatView, ...] | None = None  # the table at our last decision
        self._reading: Reading | None = None  # what the last opponent's turn told
        self.deals = 0  # how many deals the last decision searched (benchmarks)
        self.playouts = 0  # and how many playouts it played
        self.why = ""  # how the last decision ended (:data:`WHYS`; benchmarks)
        self.allowance = 0.0  # the seconds the last decision was given (the bank's part too)
        # seconds saved by earlier moves on the clock self._banked_on (:data:`BANK_CAP`)
        self.bank_cap = bank_cap
        self.bank = 0.0
        self._banked_on: object = None

    @property
    def searched(self) -> int:
        """What the last decision searched, for a host's report (:class:`~fivetowers.games.protocol.Bot`)."""
        return self.deals

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if view.seat is None or not view.my_turn or not view.legal:
            raise ValueError("it is not this bot's turn")
        began = self.timer()
        self.allowance = self.time_per_move
        banking = self.simulations is None and self.bank_cap > 1.0
        if banking:
            if self._banked_on is not self.timer:
                # a new clock (a worker's, each move): nothing was saved on it
                self.bank, self._banked_on = 0.0, self.timer
            self.allowance += min(self.bank, (self.bank_cap - 1.0) * self.time_per_move)
        try:
            return self._decide(view, rng, began + self.allowance)
        finally:
            if banking:
                left = self.time_per_move - (self.timer() - began)
                self.bank += BANK_SHARE * left if left > 0 else left

    def _decide(self, view: PlayerView, rng: random.Random, deadline: float) -> Action:
        """:meth:`choose`'s decision, searching until ``deadline`` (``self.timer``)."""
        assert view.seat is not None  # (choose checked it)
        self.deals = self.playouts = 0
        legal = view.legal
        me = view.seat
        design = self.near_end(view, self.design(len(view.seats)))
        if self._turn != view.turn:  # our tower as the opponents last saw it
            self._reading = None
            if self._turn != view.turn - 1 and design.infer:
                # (else our donut truck's turn: nobody played since)
                self._reading = read_turn(view, self._seats)
            self._turn, self._faced = view.turn, view.seats[me]
        self._seats = view.seats
        if len(legal) == 1:
            self.why = "one"
            return legal[0]
        for action in legal:  # a win now needs no search
            if isinstance(action, (Build, Steal)) and \
                    len(view.seats[me].floors) + 1 >= view.floors_to_win:
                self.why = "win"
                return action
        dealer = Dealer(view, self._faced, self._reading)
        greedy = self.default(view, dealer, rng)
        if not self.search:
            self.why = "greedy"
            return greedy
        if isinstance(greedy, (Steal, Thief, SuperThief)) and not design.steals:
            self.why = "steal"
            return greedy
        plays = self.candidates(view, greedy, design)
        hidden: list[Counter[Card] | None] = [None] * len(plays)
        if design.hold:
            plan = self.held_back(greedy, dealer)
            if plan is not None:
                plays.insert(2, plan[0])
                hidden.insert(2, plan[1])
                del plays[design.width:], hidden[design.width:]
        if design.defend:  # after the trim to the width: it is searched beyond it
            guard = self.defence(view, design.defend)
            if guard is not None and guard not in plays:
                plays.append(guard)
                hidden.append(None)
        if len(plays) == 1:
            self.why = "alone"
            return greedy
        # paired differences from the default play (common random numbers)
        sums = [0.0] * len(plays)
        squares = [0.0] * len(plays)
        searched = list(range(1, len(plays)))
        rounds = playouts = 0
        forecast_at = 1 if self.simulations is not None else FORECAST_DEALS
        min_deals = design.min_deals
        if design.critical_deals and _one_floor_off(view):
            min_deals = design.critical_deals
        played = random.Random(0)  # each playout's draws, seeded by the deal
        settle_from = max(min_deals, SETTLE_FROM)
        self.why = ""
        started = self.timer()
        while rounds == 0 or (self.timer() < deadline if self.simulations is None
                              else rounds < self.simulations):
            if rounds == forecast_at and min_deals and \
                    self._too_few_deals(started, deadline, min_deals, rounds):
                self.deals, self.playouts = rounds, playouts
                self.why = "short"
                return greedy
            deal = dealer.deal(rng)
            seed = below(rng, 1 << 30)
            # one generator seeded again for each playout: random.Random(seed)'s draws
            reseed(played, seed)
            base = self._playout(deal, plays[0], me, played, design)
            for i in searched:
                reseed(played, seed)
                diff = self._playout(deal, plays[i], me, played, design, hidden[i]) - base
                sums[i] += diff
                squares[i] += diff * diff
            rounds += 1
            playouts += 1 + len(searched)
            if rounds == design.drop_after:
                searched = [i for i in searched if _lead(sums[i], squares[i], rounds, 0.0, -2.0)
                            is not None]
                if not searched:
                    break
            if rounds == design.most and self.simulations is None:
                break  # enough: the time left goes to the bank
            if design.settle and rounds >= settle_from and \
                    _settled(sums, squares, searched, rounds, design.margin, design.settle):
                self.why = "settled"
                break
        self.deals, self.playouts = rounds, playouts
        if rounds < min_deals:
            self.why = "late"
            return greedy  # the clock ran out after a hopeful forecast (a busy machine)
        if self.why != "settled":
            self.why = "searched"
        # greedy+'s play unless the search finds one better beyond its noise
        best, best_mean = 0, 0.0
        for i in searched:
            mean = _lead(sums[i], squares[i], rounds, design.margin, design.sure)
            if mean is not None and mean > best_mean:
                best, best_mean = i, mean
        return plays[best]

    def _too_few_deals(self, started: float, deadline: float, needed: int,
                       done: int) -> bool:
        """True when the move's deals will be fewer than ``needed``
        (the clock's forecast from the ``done`` deals made, or the fixed number)."""
        if self.simulations is not None:
            return self.simulations < needed
        now = self.timer()
        return done + done * (deadline - now) / max(now - started, 1e-9) < needed

    def default(self, view: PlayerView, dealer: Dealer, rng: random.Random) -> Action:
        """Greedy+'s play (:func:`~fivetowers.games.gotown.plus.plus_play`):
        it reads only what the view shows, so any deal of the unseen cards
        gives the same play."""
        play = plus_play(dealer.deal(rng), random.Random(0))
        if play in view.legal:
            return play
        return self.prior.choose(view, random.Random(0))  # never seen; a safe net

    def design(self, players: int) -> Search:
        """How the bot searches at a table of ``players``."""
        return self.heads_up if players == 2 else self.table

    @staticmethod
    def near_end(view: PlayerView, design: Search) -> Search:
        """``design``, with its playouts to the game's end if some seat is
        within ``design.to_end`` floors of winning (:attr:`Search.to_end`)."""
        if design.to_end and any(view.floors_to_win - len(s.floors) <= design.to_end
                                 for s in view.seats):
            return replace(design, rounds=design.end_rounds)
        return design

    def candidates(self, view: PlayerView, greedy: Action, design: Search) -> list[Action]:
        """The plays worth searching: greedy+'s first, then ending the
        turn, the best build (to build now or keep the pair), then the
        greedy bot's next best, up to the ``design``'s width in all."""
        worth = {a: self.rollout.worth(view, a) for a in view.legal}
        ranked = sorted(view.legal, key=lambda a: -worth[a])
        plays = [greedy]
        end = None if design.keep_attacks and isinstance(greedy, (Bone, WreckingBall)) \
            else End(greedy.seat)
        for extra in (end, next((a for a in ranked if isinstance(a, Build)), None)):
            if extra is not None and extra not in plays:
                plays.append(extra)
        for action in ranked:
            if len(plays) >= design.width:
                break
            if worth[action] > 0 and action not in plays:
                plays.append(action)
        return plays

    @staticmethod
    def defence(view: PlayerView, within: int) -> Action | None:
        """The best play open now against the tower of the opponent fewest
        floors from winning, if it is ``within`` floors of it: a steal from
        its top, a wrecking ball or jackhammer on it, a bone on its top's
        dog, a milkshake before it, a donut truck, a thief on its hand, in
        that order; None if there is none (or no opponent that near)."""
        assert view.seat is not None
        me = view.seat
        rival = max((s for s in range(len(view.seats)) if s != me),
                    key=lambda s: len(view.seats[s].floors))
        if view.floors_to_win - len(view.seats[rival].floors) > within:
            return None
        top = len(view.seats[rival].floors) - 1
        best: tuple[int, Action] | None = None
        for action in view.legal:
            rank = _DEFENCE_RANK.get(type(action))
            if rank is None or getattr(action, "target", rival) != rival:
                continue
            if isinstance(action, Bone) and action.floor != top:
                continue
            if best is None or rank < best[0]:
                best = rank, action
        return best[1] if best is not None else None

    def held_back(self, greedy: Action, dealer: Dealer) -> tuple[Action, Counter[Card]] | None:
        """The rest of greedy+'s turn without the cards of its play
        ``greedy`` (an action card, all of its kind; a build's two cards):
        its first play, and the cards it keeps for a later turn; None if
        that turn ends at once (the same as ending it) or keeps nothing."""
        held = _cards_of(greedy)
        if not held:
            return None
        game = dealer.deal(random.Random(0))  # greedy+ reads only what the view shows
        hand = game.players[greedy.seat].hand
        kept = _hide(hand, held)
        first = plus_play(game, random.Random(0))
        hand.update(kept)
        if isinstance(first, End) or first not in dealer.view.legal:
            return None
        return first, kept

    def _playout(self, deal: Game, action: Action, me: int, rng: random.Random,
                 design: Search, hidden: Counter[Card] | None = None) -> float:
        game = deal.clone()
        # the plays searched are legal in the view, and the deal agrees with
        # it: the validator would pass them (its check, a playout's first play)
        game.apply_trusted(action)
        horizon = deal.turn + design.rounds * game.player_count
        if hidden:
            finish_turn(game, me, hidden, rng)
        if design.rivals_greedy:
            while not game.over and game.turn < horizon:
                game.apply_trusted(plus_play(game, rng) if game.to_move == me
                                   else plus_play(game, rng, GREEDY))
        else:
            while not game.over and game.turn < horizon:
                game.apply_trusted(plus_play(game, rng))
        return score(game, me, design)


_DEFENCE_RANK: dict[type, int] = {Steal: 0, WreckingBall: 1, Jackhammer: 2, Bone: 3,
                                   Milkshake: 4, DonutTruck: 5, Thief: 6, SuperThief: 6}
"""The plays against a rival's tower, best first (:meth:`StrongBot.defence`)."""


def _one_floor_off(view: PlayerView) -> bool:
    """True if an opponent of the viewer is one floor from winning."""
    return any(len(s.floors) + 1 >= view.floors_to_win
               for seat, s in enumerate(view.seats) if seat != view.seat)


def finish_turn(game: Game, me: int, kept: Counter[Card], rng: random.Random) -> None:
    """Greedy+ plays the rest of ``me``'s turn in ``game`` as if the cards
    ``kept`` were not in its hand (they are back in it for the end of the
    turn's draw up to 3 and after)."""
    if game.over or game.to_move != me:
        return
    hand = game.players[me].hand
    taken = _hide(hand, kept)
    while not game.over and game.to_move == me:
        play = plus_play(game, rng)
        if isinstance(play, End):
            hand.update(taken)
            taken.clear()
        game.apply_trusted(play)
        if isinstance(play, End):
            break
    hand.update(taken)  # a win mid-turn: the hand as it was


_ACTION_CARD = {Dog: Card.DOG, Bone: Card.BONE, Jackhammer: Card.JACKHAMMER,
                WreckingBall: Card.WRECKING_BALL, Milkshake: Card.MILKSHAKE,
                DonutTruck: Card.DONUT_TRUCK, Thief: Card.THIEF, SuperThief: Card.SUPER_THIEF}


def _cards_of(action: Action) -> Counter[Card]:
    """The cards ``action`` plays from the hand, to keep back: every card of
    an action card's kind, a build's two, a steal's one."""
    if isinstance(action, Build):
        return Counter(action.cards)
    if isinstance(action, Steal):
        return Counter((action.card,))
    card = _ACTION_CARD.get(type(action))
    return Counter({card: 99}) if card is not None else Counter()


def _hide(hand: Counter[Card], cards: Counter[Card]) -> Counter[Card]:
    """Take ``cards`` (as many as there are) out of ``hand``; returns those taken."""
    taken: Counter[Card] = Counter()
    for card, count in cards.items():
        some = min(count, hand.get(card, 0))
        if some:
            taken[card] = some
            hand[card] -= some
            if not hand[card]:
                del hand[card]
    return taken


def _settled(sums: list[float], squares: list[float], searched: list[int], deals: int,
             margin: float, z: float) -> bool:
    """True when more deals would most likely not change the choice: the
    interval of ``z`` standard errors about each searched play's mean paired
    difference lies below ``margin`` for every one (greedy+'s play stands),
    or one lies above it and above every other's."""
    bounds = []
    for i in searched:
        mean = sums[i] / deals
        spread = z * math.sqrt(max(squares[i] / deals - mean * mean, 0.0) / deals)
        bounds.append((mean - spread, mean + spread))
    if all(high <= margin for _, high in bounds):
        return True
    best = max(range(len(bounds)), key=lambda k: bounds[k][0])
    low = bounds[best][0]
    return low > margin and all(high < low for k, (_, high) in enumerate(bounds) if k != best)


def _lead(total: float, squares: float, deals: int, margin: float, sure: float) -> float | None:
    """The mean of ``deals`` paired differences (their ``total`` and sum of
    ``squares``) if it is beyond ``margin`` plus ``sure`` standard errors, else None."""
    mean = total / deals
    spread = math.sqrt(max(squares / deals - mean * mean, 0.0) / deals)
    return mean if mean > margin + sure * spread else None


def score(game: Game, me: int, design: Search = TABLE_SEARCH) -> float:
    """1 for a win, 0 for another's; else 0.5 plus the lead in floors (a pair
    in hand counts ``design.in_hand`` of a floor, a guarded top :data:`PROTECTED`),
    scaled below a win. With ``design.value``, the learned chance to win."""
    if design.value and design.share:
        return win_share(game, me)
    if design.value or game.over:
        return win_chance(game, me)
    def strength(seat: int) -> float:
        player = game.players[seat]
        guarded = design.protected if player.floors and player.top_has_dog() else 0.0
        value = len(player.floors) + guarded + design.in_hand * pairs_held(player.hand) \
            + design.per_card * player.hand_size
        if design.stealer and _steals_some(game, seat):
            value += design.stealer
        return value
    best_other = max(strength(s) for s in range(game.player_count) if s != me)
    return 0.5 + 0.4 * (strength(me) - best_other) / game.floors_to_win


def _steals_some(game: Game, seat: int) -> bool:
    """True if ``seat`` holds a card that steals some opponent's open top floor."""
    hand = game.players[seat].hand
    return any(steals_from(hand, player) for other, player in enumerate(game.players)
               if other != seat)


STILL_HELD = 0.1
"""The chance that an opponent still holds a card it would have played at
once (:func:`played_at_once`): drawn at the end of its turn, or kept."""

_AT_ONCE = frozenset({Card.THIEF, Card.SUPER_THIEF, Card.MILKSHAKE, Card.DONUT_TRUCK})


def played_at_once(view: PlayerView, faced: SeatView | None = None) -> frozenset[Card]:
    """The cards an opponent is unlikely to hold now, having had its turn
    since our last: thieves, milkshakes and donut trucks are played as soon
    as they are drawn; a jackhammer, a wrecking ball and a card that steals
    as soon as our tower, as the opponents ``faced`` it at the start of our
    turn (default: as it is now), gives them a target."""
    assert view.seat is not None
    return _AT_ONCE | _invited_by(faced or view.seats[view.seat])


def _invited_by(tower: SeatView) -> frozenset[Card]:
    """The cards a sensible opponent plays on ``tower`` as soon as it holds
    them: a wrecking ball on two floors or a guarded top, a jackhammer and
    the cards that steal on an open top."""
    if not tower.floors:
        return frozenset()
    cards = set()
    guarded = len(tower.floors) - 1 in tower.dogs
    if len(tower.floors) >= 2 or guarded:
        cards.add(Card.WRECKING_BALL)
    if not guarded:
        cards.add(Card.JACKHAMMER)
        cards.update(floor_card(FLOOR_SUM - p.value) for p in tower.floors[-1].pieces)
    return frozenset(cards)


REFILL = 3
"""A hand of this many cards or fewer at the start of our turn may hold
cards drawn since its owner's last play (the draw up to 3 at the end of a
turn): :func:`read_turn` reads nothing into it."""


@dataclass(frozen=True)
class Reading:
    """What the opponent in ``seat`` holds if it played its last turn
    sensibly, the table then as at the start of our turn: none of the cards
    ``none_of`` (it would have played them: a steal, a thief, a jackhammer
    on an open top...) and, with ``no_build``, no two cards that build a
    floor (with a full hand it would have built)."""

    seat: int
    none_of: frozenset[Card]
    no_build: bool


def read_turn(view: PlayerView, before: tuple[SeatView, ...] | None = None) -> Reading | None:
    """What the turn just played by the seat before ours says of its hand
    (``view``: the start of our turn; ``before``: the seats at our last
    decision, if any), or None if it says nothing: nobody has played yet, its
    hand may hold cards drawn at the end of its turn (:data:`REFILL`), or its
    turn was a milkshake's (no play). The player is taken to play sensibly,
    not any bot's rules: it steals from an open top floor when it can, plays
    thieves, milkshakes and the donut truck as soon as it holds them, a
    jackhammer on an open top, a wrecking ball on a tower of two floors or a
    guarded top, a dog on its own open top, and builds with a full hand
    (:data:`~fivetowers.games.gotown.bots.HOARD` cards: it draws no more).
    Only the whole hand is read, as it is now: no card has entered it since
    that turn's plays, and a card our thieves took leaves the rest as it was."""
    assert view.seat is not None
    seat = (view.seat - 1) % len(view.seats)
    shown = view.seats[seat]
    if view.turn <= 1 or shown.hand_size <= REFILL:
        return None
    if before is not None and before[seat].milkshakes:
        return None  # it drank a milkshake: that turn had no plays
    none_of = {Card.THIEF, Card.SUPER_THIEF, Card.MILKSHAKE, Card.DONUT_TRUCK}
    if shown.floors and len(shown.floors) - 1 not in shown.dogs:
        none_of.add(Card.DOG)
    for other, tower in enumerate(view.seats):
        if other != seat:
            none_of |= _invited_by(tower)
    return Reading(seat, frozenset(none_of), shown.hand_size >= HOARD)


def consistent(hand: Counter[Card], reading: Reading) -> bool:
    """True if ``hand`` is one ``reading`` allows (the tests' check)."""
    if any(hand[card] for card in reading.none_of):
        return False
    return not reading.no_build or not pairs_held(hand)


def read_hand(cards: list[Card], size: int, reading: Reading,
              rng: random.Random) -> tuple[list[Card], list[Card]]:
    """A hand of ``size`` for ``reading``'s seat from the shuffled ``cards``,
    and the cards left: the first cards in order that ``reading`` allows
    (with ``no_build``, none that builds with one taken before, and no wild:
    a full hand with a wild holds no number, a rare hand); should too few be
    allowed (it did not play sensibly after all), the first of the others.
    The cards left are shuffled again if any were passed over, so
    that the draw pile's order stays random."""
    none_of, no_build = reading.none_of, reading.no_build
    hand: list[Card] = []
    passed: list[Card] = []
    taken = [False] * (FLOOR_SUM + 1)  # taken[v]: a card of value v is in the hand
    for at, card in enumerate(cards):
        if len(hand) == size:
            break
        if card in none_of:
            passed.append(card)
            continue
        if no_build:
            value = card.number
            if card is Card.WILD or (value is not None and taken[FLOOR_SUM - value]):
                # a wild builds with any number: a full hand holding one holds
                # no number at all, a rare hand, so it is dealt none
                passed.append(card)
                continue
            if value is not None:
                taken[value] = True
        hand.append(card)
    else:
        at = len(cards)
    if len(hand) < size:  # not a sensible hand after all: take what is left
        short = size - len(hand)
        hand.extend(passed[:short])
        del passed[:short]
    if not passed:
        return hand, cards[at:]
    rest = passed + cards[at:]
    shuffle(rng, rest)
    return hand, rest


def determinize(view: PlayerView, rng: random.Random) -> Game:
    """A whole game that agrees with everything ``view`` shows, the unseen
    cards dealt at random into the other hands and the draw pile."""
    return Dealer(view).deal(rng)


class Dealer:
    """Deals the cards ``view`` cannot see, again and again: what is unseen
    and the public table are worked out once per move."""

    def __init__(self, view: PlayerView, faced: SeatView | None = None,
                 reading: Reading | None = None) -> None:
        assert view.seat is not None
        self.view = view
        self.reading = reading
        self.unlikely = played_at_once(view, faced)
        unseen = cards_unseen(view.seats, view.discard, view.truck_on_table, Counter(view.hand))
        self.unseen = sorted(unseen.elements(), key=lambda c: c.value)
        self.in_hands = sum(s.hand_size for i, s in enumerate(view.seats) if i != view.seat)
        game = Game([s.name for s in view.seats], view.floors_to_win, seed=0)
        for seat, (player, shown) in enumerate(zip(game.players, view.seats)):
            player.hand = Counter(view.hand) if seat == view.seat else Counter()
            player.floors, player.dogs = list(shown.floors), set(shown.dogs)
            player.milkshakes = shown.milkshakes
        game.draw, game.discard = [], list(view.discard)
        game.truck_on_table = view.truck_on_table
        game.turn, game.turns_ended = view.turn, view.turn - 1
        game.to_move = view.seat
        self.table = game

    def deal(self, rng: random.Random) -> Game:
        cards = list(self.unseen)
        shuffle(rng, cards)  # rng.shuffle's order, in fewer calls (draws.py)
        in_hands, read = self.in_hands, None
        hand: list[Card] = []
        if self.reading is not None:  # its seat's hand read from its last turn
            read = self.reading.seat
            hand, cards = read_hand(cards, self.view.seats[read].hand_size, self.reading, rng)
            in_hands -= len(hand)
        if self.unlikely and (in_hands or read is None):  # (with infer off, the same random draws as before it)
            cards = self._unlikely_last(cards, in_hands, rng)
        game = self.table.clone()
        game.seed = below(rng, 1 << 30)  # the thieves' and reshuffles' draws
        for seat, shown in enumerate(self.view.seats):
            if seat == read:
                game.players[seat].hand = Counter(hand)
            elif seat != self.view.seat:
                game.players[seat].hand = Counter(cards[:shown.hand_size])
                del cards[:shown.hand_size]
        game.draw = cards
        return game

    def _unlikely_last(self, cards: list[Card], in_hands: int,
                       rng: random.Random) -> list[Card]:
        """``cards`` (shuffled) with the cards an opponent would have played
        already (:func:`played_at_once`) dealt to the ``in_hands`` cards of
        the hands only once the likely ones run out (but for
        :data:`STILL_HELD` of them); the draw pile's part shuffled again."""
        front: list[Card] = []
        back: list[Card] = []
        for card in cards:
            (back if card in self.unlikely and rng.random() >= STILL_HELD
             else front).append(card)
        if not back:
            return cards
        cards = front + back
        rest = cards[in_hands:]
        shuffle(rng, rest)
        cards[in_hands:] = rest
        return cards
