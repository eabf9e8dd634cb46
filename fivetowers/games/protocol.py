"""What a game is to the layers that host it: the one protocol.

Live tables, the store, the lobby, the SSH server, history, ratings and the
command line see a game only through these types. A game is a package under
:mod:`fivetowers.games` whose ``GAME`` is a :class:`GameKind`; the registry
(:func:`fivetowers.games.game_kind`) lists them by :attr:`GameKind.name`,
which is also what the store keeps in its ``kind`` column.

Standard library only: a game's rules may import this module and nothing
else of ours. The screens a game brings are typed through ``TYPE_CHECKING``
so that importing the protocol never imports Textual (see
:mod:`fivetowers.games.screens`).

A game's *record* is a JSON object (its FORMATS.md document): a ``format``,
``players`` (names in seat order), ``actions`` (JSON objects, in order) and
whatever else the game needs to replay exactly (its options, a seed, a deck
order, reshuffles...). The store keeps that "whatever else" as the game's
*setup* — the record without ``players`` and ``actions`` — beside the
actions; a game may add to its setup as it goes (a reshuffle revealed
mid-game), and :meth:`Match.setup_json` is asked again after every action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Self, Sequence

if TYPE_CHECKING:
    from fivetowers.games.screens import GameScreens


class Term(str):
    """A word of a game (a tower, a card) inside a refusal's details: each
    viewer reads it in their own language (the catalog has it)."""

    __slots__ = ()


class ActionRefused(ValueError):
    """The rules refuse an action; the message is the reason, in words a
    player understands. Nothing changed.

    The reason is kept as an English ``template`` with ``{name}`` fields and
    their ``details``, so each viewer's screen can show it in their language
    (``fivetowers.i18n.refusal_text``); ``str()`` is the English text. The
    rules only mark templates for the catalog: they run in worker processes
    and for several viewers at once, so they translate nothing."""

    def __init__(self, template: str = "", /, **details: object) -> None:
        super().__init__(template.format(**details) if details else template)
        self.template = template
        self.details = details

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled to and from worker processes with its template, not its text.
        return (_refused, (type(self), self.template, self.details))


def _refused(kind: type[ActionRefused], template: str,
             details: dict[str, object]) -> ActionRefused:
    return kind(template, **details)


class NoScreens(LookupError):
    """A game that cannot be shown on a terminal (yet): only its rules,
    records and hints are there."""


class RecordError(ValueError):
    """A record, a setup or an action's JSON is not valid for the game; the
    message names what is wrong."""


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game, as the hosting layers need it: a score for each
    seat (ratings and game lists show it) and the winning seats."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOption:
    """One choice the new-table form offers for a game, kept with the table
    (in the game's setup) as ``key: value``."""

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    """(value, what the form shows), the default first."""

    @property
    def default(self) -> str:
        return self.choices[0][0]


class Bot(Protocol):
    """A player that decides from its own view only, with an injected RNG.

    Bots run in worker processes: a bot and the views it gets must pickle.
    A bot that searches may also say, as ``searched`` (an int), how many
    worlds or deals its last decision played out: the server's load report
    gives it."""

    def choose(self, view: Any, rng: random.Random) -> Any:
        """The action for the viewer, whose turn it must be."""
        ...


class Match(Protocol):
    """One game being played: the whole, true state (OpenSpiel's ``State``)."""

    @property
    def player_count(self) -> int: ...

    @property
    def to_move(self) -> int | None:
        """The seat whose decision the game waits for (None once it is over)."""
        ...

    def is_terminal(self) -> bool: ...

    def apply(self, action: Any) -> None:
        """Carry out ``action`` or raise :class:`ActionRefused` and change nothing."""
        ...

    def clone(self) -> Self: ...

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may see (None: a spectator). Must pickle."""
        ...

    def progress(self) -> str:
        """How far the game has come, in a few words for a table list
        ("round 3", "turn 12")."""
        ...

    def result(self) -> Result | None:
        """Scores and winners once the game is over, else None."""
        ...

    def action_count(self) -> int:
        """How many actions have been applied."""
        ...

    def action_json(self, index: int) -> dict[str, Any]:
        """Action number ``index`` as its record writes it."""
        ...

    def setup_json(self) -> dict[str, Any]:
        """The record without ``players`` and ``actions``: with them, it
        replays this game exactly."""
        ...

    def record_json(self) -> dict[str, Any]:
        """The whole record so far (the game's FORMATS.md document)."""
        ...


class GameKind(Protocol):
    """A game: how to start, replay and show it. One object per game package."""

    name: str
    """Registry key, kept by the store: ``fivetowers``, ``gotown``."""
    title: str
    """What players read: ``5 Towers``."""
    record_format: str
    """The ``format`` of its records: ``fivetowers-record/1``."""
    min_players: int
    max_players: int
    score_unit: str
    """What a score counts, as game lists write it after the number: ``VP``."""
    options: tuple[GameOption, ...]
    """What the new-table form offers, each kept in the setup."""
    bot_kinds: tuple[str, ...]
    """Bots by strength, weakest first; the strongest is the default. The
    weakest must answer at once: it moves on the server itself when the
    worker pool is jammed."""
    late_bot: str
    """The bot (a name :meth:`make_bot` knows, offered to players or not) a
    worker plays for a bot whose time is up before it could think: quick, but
    as good as quick can be."""
    preload: tuple[str, ...]
    """Modules a worker process imports as it starts (a solver slow to
    import), so that no player's first hint or bot move waits for them."""

    def players_problem(self, count: int) -> str | None:
        """Why ``count`` players cannot play this game, or None if they can."""
        ...

    def new_match(self, players: Sequence[str], options: Mapping[str, str],
                  seed: int) -> Match:
        """A new game for ``players`` (names, seat order) with ``options``
        (keys of :attr:`options`; a missing key takes its default), its
        random parts drawn from ``seed`` and written into its setup."""
        ...

    def match_from_record(self, record: Mapping[str, Any]) -> Match:
        """The game a record describes, every action applied; raises
        :class:`RecordError` for a record it cannot replay (a malformed or
        illegal action included)."""
        ...

    def action_from_json(self, data: Any) -> Any:
        """An action from its record JSON; :class:`RecordError` if malformed."""
        ...

    def make_bot(self, kind: str) -> Bot:
        """A bot of one of :attr:`bot_kinds`; ValueError for another."""
        ...

    def options_of(self, setup: Mapping[str, Any]) -> dict[str, str]:
        """The :attr:`options` a setup was made with (for game lists)."""
        ...

    def screens(self) -> GameScreens:
        """Its table, end and replay screens (imports its Textual code: call
        it where screens are shown, never on the path of the rules)."""
        ...


def check_options(kind: GameKind, options: Mapping[str, str]) -> dict[str, str]:
    """``options`` completed with defaults; RecordError for an unknown key or value."""
    known = {o.key: o for o in kind.options}
    for key, value in options.items():
        option = known.get(key)
        if option is None:
            raise RecordError(f"{kind.title} has no option {key!r}")
        if value not in {v for v, _ in option.choices}:
            raise RecordError(f"{kind.title}: {option.label} cannot be {value!r}")
    return {o.key: options.get(o.key, o.default) for o in kind.options}
