"""The documentation tells the truth: docs/ and the README against the code.

- Every ```json block of docs/formats.md parses, and each block marked with a
  ``<!-- check: KIND NAME -->`` comment is held to what it claims: 5 Towers
  records replay through ``fivetowers replay`` with the exit status shown and
  print the output shown; hint outputs have the bids and gains ``fivetowers
  hint`` finds, and every plan shown is a legal build worth its gain; the
  export example is laid out as ``fivetowers export`` lays records out.
  GoTown's examples are checked against the format's own rules (card sets,
  shapes, the 54 cards accounted for) and against its engine: the record
  replays as shown, and the hint reaches the floors shown.
- Every path and module the README and docs/ name exists, every relative link
  and #anchor resolves, and the README points at docs/ rather than at files a
  clone does not have.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fivetowers.cli import _record_text
from fivetowers.games.five_towers.rules import (
    BuildSession, IllegalAction, Position, action_from_json,
)
from fivetowers.games.five_towers.rules.actions import Build

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FORMATS = DOCS / "formats.md"
NAMING_DOCS = [ROOT / "README.md", DOCS / "architecture.md", DOCS / "rules.md", FORMATS]

PLANNED = {
}
"""Paths the docs name as the target of issue 12 and its follow-up, which
other branches are adding. Remove an entry once its path has landed."""

CHECK_KINDS = {"record", "replay", "export", "position", "hint", "build",
               "gotown-record", "gotown-replay", "gotown-position", "gotown-hint"}


@dataclass(frozen=True)
class Block:
    line: int
    text: str
    kind: str | None
    name: str | None
    options: dict[str, str]

    @property
    def data(self) -> Any:
        return json.loads(self.text)

    def where(self) -> str:
        return f"{FORMATS.name} line {self.line}"


_CHECK = re.compile(r"<!--\s*check:\s*(\S+)\s+(\S+)((?:\s+\w+=\S+)*)\s*-->")


def json_blocks(path: Path) -> list[Block]:
    """Every ```json fenced block, with the check comment on the line before it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```json":
            start = i + 1
            end = next(j for j in range(start, len(lines)) if lines[j].strip() == "```")
            kind = name = None
            options: dict[str, str] = {}
            match = _CHECK.fullmatch(lines[i - 1].strip()) if i else None
            if match:
                kind, name = match.group(1), match.group(2)
                options = dict(o.split("=", 1) for o in match.group(3).split())
            blocks.append(Block(start, "\n".join(lines[start:end]), kind, name, options))
            i = end
        i += 1
    return blocks


BLOCKS = json_blocks(FORMATS)


def checked(kind: str) -> list[Block]:
    return [b for b in BLOCKS if b.kind == kind]


def one(kind: str, name: str) -> Block:
    found = [b for b in BLOCKS if b.kind == kind and b.name == name]
    assert len(found) == 1, f"formats.md needs exactly one '{kind} {name}' example"
    return found[0]


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fivetowers.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def ids(blocks: list[Block]) -> list[str]:
    return [f"{b.kind}:{b.name}" if b.kind else f"line{b.line}" for b in blocks]


# -- every example is JSON, and the checks are really there ------------------

@pytest.mark.parametrize("block", BLOCKS, ids=ids(BLOCKS))
def test_every_json_example_parses(block: Block) -> None:
    try:
        json.loads(block.text)
    except json.JSONDecodeError as exc:
        pytest.fail(f"{block.where()}: not valid JSON: {exc}")


def test_every_kind_of_example_is_checked() -> None:
    kinds = {b.kind for b in BLOCKS if b.kind}
    assert kinds <= CHECK_KINDS, f"unknown check kinds {kinds - CHECK_KINDS}"
    assert kinds == CHECK_KINDS, f"formats.md lost its {CHECK_KINDS - kinds} examples"
    for block in BLOCKS:
        if block.kind in ("replay", "export"):
            one("record", block.name or "")
        if block.kind in ("hint", "build"):
            one("position", block.name or "")
        if block.kind == "gotown-replay":
            one("gotown-record", block.name or "")
        if block.kind == "gotown-hint":
            one("gotown-position", block.name or "")


# -- 5 Towers: records, replay, export ---------------------------------------

@pytest.mark.parametrize("block", checked("record"), ids=ids(checked("record")))
def test_record_examples_replay_as_shown(block: Block) -> None:
    out = cli("replay", "-", stdin=block.text)
    assert out.returncode == int(block.options.get("exit", "0")), out.stdout + out.stderr
    assert out.stderr == ""
    shown = one("replay", block.name or "").data
    printed = json.loads(out.stdout)
    if "error" in shown:  # the message is for people; the index is the format
        assert printed["error"]["action"] == shown["error"]["action"]
        assert isinstance(printed["error"]["message"], str) and printed["error"]["message"]
    else:
        assert printed == shown, f"{block.where()}: replay prints {out.stdout}"
    assert "\n" not in out.stdout.rstrip("\n"), "replay prints one line"


@pytest.mark.parametrize("block", checked("export"), ids=ids(checked("export")))
def test_export_example_is_laid_out_as_export_prints(block: Block) -> None:
    record = block.data
    assert block.text == _record_text(record), "export would lay this record out otherwise"
    assert record["format"] == "fivetowers-record/1" and "deck" in record
    for action in record["actions"]:  # builds are written with all four fields
        if "build" in action:
            assert list(action["build"]) == ["take", "pay", "teardown", "steps"]
    mine = cli("replay", "-", stdin=block.text)
    theirs = cli("replay", "-", stdin=one("record", block.name or "").text)
    assert mine.returncode == theirs.returncode == 0
    assert json.loads(mine.stdout) == json.loads(theirs.stdout), "not the same game"


def test_the_illegal_example_is_one_bad_action_from_a_good_record() -> None:
    bad = [b for b in checked("record") if b.options.get("exit") == "1"]
    assert bad, "formats.md shows an illegal action"
    for block in bad:
        index = one("replay", block.name or "").data["error"]["action"]
        record = block.data
        record["actions"] = record["actions"][:index]
        assert cli("replay", "-", stdin=json.dumps(record)).returncode == 0


# -- 5 Towers: positions and hints --------------------------------------------

def position(name: str) -> Position:
    return Position.from_json(one("position", name).data)


def gain_of(pos: Position, plan: dict[str, Any]) -> int:
    """Carry ``plan`` out on ``pos`` with the engine's own building step;
    the score it adds. Raises IllegalAction if any part breaks a rule."""
    build = action_from_json({"seat": 0, "build": {k: plan[k] for k in plan
                                                   if k in ("take", "pay", "teardown", "steps")}})
    assert isinstance(build, Build)
    bid = plan.get("bid", len(build.take) + build.pay)
    session = BuildSession(pos.board, pos.display, pos.powers, bid)
    session.choose(build.take, build.pay, build.teardown)
    for step in build.steps:
        session.place(step)
    assert session.done, f"{plan}: taken cards left unplaced"
    return session.board.score(pos.powers).total - pos.board.score(pos.powers).total


@pytest.mark.parametrize("block", checked("position"), ids=ids(checked("position")))
def test_position_examples_are_valid(block: Block) -> None:
    out = cli("hint", "-", stdin=block.text)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""


@pytest.mark.parametrize("block", checked("hint"), ids=ids(checked("hint")))
def test_hint_example_has_the_gains_hint_finds(block: Block) -> None:
    out = cli("hint", "-", stdin=one("position", block.name or "").text)
    assert out.returncode == 0, out.stderr
    printed, shown = json.loads(out.stdout), block.data
    assert shown["max_bid"] == printed["max_bid"]
    assert [(p["bid"], p["gain"]) for p in shown["plans"]] == \
        [(p["bid"], p["gain"]) for p in printed["plans"]]
    assert [p["bid"] for p in shown["plans"]] == list(range(shown["max_bid"] + 1))
    pos = position(block.name or "")
    for plan in shown["plans"]:  # ties may print another plan: this one must be as good
        assert list(plan) == ["bid", "take", "pay", "teardown", "steps", "gain"]
        assert gain_of(pos, plan) == plan["gain"], f"{block.where()}: bid {plan['bid']}"


@pytest.mark.parametrize("block", checked("build"), ids=ids(checked("build")))
def test_build_example_is_legal_in_its_position(block: Block) -> None:
    build = block.data["build"]
    pos = position(block.name or "")
    gain_of(pos, build)  # raises IllegalAction if any part breaks a rule
    out = cli("hint", "-", stdin=one("position", block.name or "").text)
    assert len(build["take"]) + build.get("pay", 0) <= json.loads(out.stdout)["max_bid"]


def test_an_illegal_plan_is_caught() -> None:
    """The legality check above can fail: candy-11 cannot go onto candy-10."""
    pos = position("formats-example")
    with pytest.raises(IllegalAction):
        gain_of(pos, {"bid": 1, "take": ["candy-11"], "pay": 0, "teardown": None,
                      "steps": [{"card": "candy-11"}]})


# -- GoTown: the format's own rules (no engine yet) ---------------------------

FLOOR_CARDS = [str(v) for v in range(1, 9)]
GOTOWN_DECK = Counter({**{v: 4 for v in FLOOR_CARDS}, "?": 4, "dog": 4, "bone": 2,
                       "jackhammer": 3, "wrecking-ball": 1, "milkshake": 3,
                       "donut-truck": 1, "thief": 3, "super-thief": 1})
PLAYS = {"build", "steal", "dog", "bone", "jackhammer", "wrecking-ball", "thief",
         "super-thief", "milkshake", "donut-truck", "end"}
HINT_PLAYS = {"build", "steal", "dog", "bone", "jackhammer", "wrecking-ball"}


def floor_value(card: str) -> int:
    assert re.fullmatch(r"[1-8]|\?[1-8]", card), f"{card!r} cannot stand in a floor"
    return int(card.lstrip("?"))


def check_floor(floor: list[str]) -> None:
    assert len(floor) == 2 and sum(map(floor_value, floor)) == 9, floor
    assert not all(c.startswith("?") for c in floor), f"two wilds: {floor}"


def check_play(key: str, value: Any, seats: int) -> None:
    def seat(s: Any) -> None:
        assert isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats, s
    if key == "build":
        assert len(value) == 2 and all(c in GOTOWN_DECK for c in value), value
    elif key == "steal":
        assert set(value) == {"card", "from"} and value["card"] in FLOOR_CARDS
        seat(value["from"])
    elif key in ("dog",):
        assert isinstance(value, int) and value >= 0
    elif key == "bone":
        assert set(value) == {"from", "floor"}
        seat(value["from"])
    elif key in ("jackhammer", "wrecking-ball", "milkshake"):
        seat(value)
    elif key == "thief":
        assert set(value) == {"from", "took"} and value["took"] in GOTOWN_DECK
        seat(value["from"])
    elif key == "super-thief":
        assert set(value) == {"took"}
        for s, c in value["took"].items():
            seat(int(s))
            assert c in GOTOWN_DECK
    else:
        assert key in ("donut-truck", "end") and value is True


@pytest.mark.parametrize("block", checked("gotown-record"), ids=ids(checked("gotown-record")))
def test_gotown_record_examples_follow_the_format(block: Block) -> None:
    record = block.data
    assert record["format"] == "gotown-record/1"
    assert 2 <= len(record["players"]) <= 4
    assert record.get("floors_to_win", 5) in (4, 5)
    assert Counter(record["deck"]) == GOTOWN_DECK, "the deck is the 54 cards of rules C1"
    for pile in record.get("reshuffles", []):
        assert not Counter(pile) - GOTOWN_DECK
    for action in record["actions"]:
        plays = set(action) - {"seat"}
        assert "seat" in action and len(plays) == 1 and plays <= PLAYS, action
        key = plays.pop()
        check_play(key, action[key], len(record["players"]))


@pytest.mark.parametrize("block", checked("gotown-replay"), ids=ids(checked("gotown-replay")))
def test_gotown_replay_example_accounts_for_every_card(block: Block) -> None:
    out, record = block.data, one("gotown-record", block.name or "").data
    assert list(out) == ["finished", "turn", "to_move", "players", "draw_pile",
                         "discard_pile", "winners"]
    assert [p["name"] for p in out["players"]] == record["players"]
    assert (out["to_move"] is None) == out["finished"] and (out["winners"] == []) != out["finished"]
    cards = out["draw_pile"] + out["discard_pile"]
    for player in out["players"]:
        assert list(player) == ["name", "floors", "dogs", "hand", "milkshakes"]
        for floor in player["floors"]:
            check_floor(floor)
        assert player["dogs"] == sorted(set(player["dogs"]))
        assert all(0 <= d < len(player["floors"]) for d in player["dogs"])
        cards += 2 * len(player["floors"]) + len(player["dogs"]) + player["hand"] \
            + player["milkshakes"]
    since_end: list[dict[str, Any]] = []  # the actions of the turn in progress
    for action in record["actions"]:
        since_end = [] if "end" in action else since_end + [action]
    truck_out = any("donut-truck" in a for a in since_end)  # in no pile until its turn ends
    assert cards == 54 - truck_out, f"{cards} cards accounted for, not {54 - truck_out}"


@pytest.mark.parametrize("block", checked("gotown-position"),
                         ids=ids(checked("gotown-position")))
def test_gotown_position_examples_are_valid(block: Block) -> None:
    pos = block.data
    assert pos["format"] == "gotown-position/1" and pos["floors_to_win"] in (4, 5)
    seats = len(pos["towers"])
    assert 2 <= seats <= 4 and len(pos["dogs"]) == seats and 0 <= pos["me"] < seats
    used = Counter(pos["hand"])
    for tower, dogs in zip(pos["towers"], pos["dogs"]):
        assert len(tower) < pos["floors_to_win"], "a tower that has already won"
        assert all(0 <= d < len(tower) for d in dogs), "a dog on a missing floor"
        for floor in tower:
            check_floor(floor)
            used.update("?" if c.startswith("?") else c for c in floor)
        used.update("dog" for _ in dogs)
    assert not used - GOTOWN_DECK, f"more copies than the deck has: {used - GOTOWN_DECK}"


@pytest.mark.parametrize("block", checked("gotown-hint"), ids=ids(checked("gotown-hint")))
def test_gotown_hint_example_follows_the_format(block: Block) -> None:
    out, pos = block.data, one("gotown-position", block.name or "").data
    assert list(out) == ["floors", "wins", "plan"]
    assert out["wins"] == (out["floors"] == pos["floors_to_win"])
    assert len(pos["towers"][pos["me"]]) <= out["floors"] <= pos["floors_to_win"]
    for play in out["plan"]:
        assert "seat" not in play and len(play) == 1 and set(play) <= HINT_PLAYS, play
        key = next(iter(play))
        check_play(key, play[key], len(pos["towers"]))


@pytest.mark.parametrize("block", checked("gotown-record"), ids=ids(checked("gotown-record")))
def test_gotown_record_examples_replay_as_shown(block: Block) -> None:
    out = cli("replay", "-", stdin=block.text)
    assert out.returncode == 0 and out.stderr == "", out.stdout + out.stderr
    assert json.loads(out.stdout) == one("gotown-replay", block.name or "").data


@pytest.mark.parametrize("block", checked("gotown-hint"), ids=ids(checked("gotown-hint")))
def test_gotown_hint_example_reaches_the_floors_hint_finds(block: Block) -> None:
    from fivetowers.games.gotown.hint import hint
    from fivetowers.games.gotown.rules import action_from_json as gotown_action
    from fivetowers.games.gotown.rules.position import Position

    shown, position = block.data, Position.from_json(
        one("gotown-position", block.name or "").data)
    found = hint(position)
    assert (found.floors, found.wins) == (shown["floors"], shown["wins"])
    game = position.to_game()
    for play in shown["plan"]:  # the plan shown is legal and reaches its floors
        game.apply(gotown_action({"seat": position.me, **play}))
    assert len(game.players[position.me].floors) == shown["floors"]


def test_gotown_checks_can_fail() -> None:
    with pytest.raises(AssertionError):
        check_floor(["?4", "?5"])
    with pytest.raises(AssertionError):
        check_floor(["3", "5"])
    with pytest.raises(AssertionError):
        check_play("steal", {"card": "?", "from": 1}, 3)


# -- names, links, and the README ----------------------------------------------

_PATH = re.compile(r"(?<![\w/.~$-])((?:fivetowers|tests|scripts|styles|docs)/[\w./{},*-]*)")
_MODULE = re.compile(r"`(fivetowers(?:\.\w+)+)`")


def expand(path: str) -> list[str]:
    """``a/{b,c}/d`` -> ``a/b/d``, ``a/c/d`` (one level of braces)."""
    match = re.search(r"\{([^{}]*)\}", path)
    if not match:
        return [path]
    return [p for alt in match.group(1).split(",")
            for p in expand(path[:match.start()] + alt + path[match.end():])]


def named_paths(text: str) -> set[str]:
    found = set()
    for raw in _PATH.findall(text):
        for path in expand(raw.rstrip(".,:;")):
            found.add(path.rstrip(".,:;"))
    return found


@pytest.mark.parametrize("doc", NAMING_DOCS, ids=[d.name for d in NAMING_DOCS])
def test_every_path_named_exists(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    paths = named_paths(text)
    assert paths, f"{doc.name} names no path at all: is the pattern broken?"
    missing = sorted(p for p in paths if not (ROOT / p).exists() and p not in PLANNED)
    assert not missing, f"{doc.name} names paths that do not exist: {missing}"


@pytest.mark.parametrize("doc", NAMING_DOCS, ids=[d.name for d in NAMING_DOCS])
def test_every_module_named_imports(doc: Path) -> None:
    for dotted in _MODULE.findall(doc.read_text(encoding="utf-8")):
        if dotted.endswith(".sqlite3"):  # the store's file name, not a module
            continue
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):  # the longest importable prefix...
            try:
                obj: Any = importlib.import_module(".".join(parts[:cut]))
            except ModuleNotFoundError:
                continue
            for attr in parts[cut:]:  # ... and the rest are its attributes
                assert hasattr(obj, attr), f"{doc.name}: {dotted} does not exist"
                obj = getattr(obj, attr)
            break


def test_path_pattern_finds_what_it_should() -> None:
    text = ("see `fivetowers/games/five_towers/{rules,solver}/`, run "
            "python scripts/bench_hint.py. Not ~/.local/share/fivetowers")
    assert named_paths(text) == {"fivetowers/games/five_towers/rules/",
                                 "fivetowers/games/five_towers/solver/",
                                 "scripts/bench_hint.py"}


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@pytest.mark.parametrize("doc", NAMING_DOCS, ids=[d.name for d in NAMING_DOCS])
def test_every_link_resolves(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        linked = (doc.parent / target) if target else doc
        assert linked.exists(), f"{doc.name} links to a missing {target}"
        if anchor:
            headings = re.findall(r"^#+ (.*)$", linked.read_text(encoding="utf-8"), re.M)
            assert anchor in {slug(h) for h in headings}, \
                f"{doc.name} links to #{anchor}, which {linked.name} does not have"


def test_readme_points_at_the_docs_a_clone_has() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in ("docs/rules.md", "docs/formats.md", "docs/architecture.md"):
        assert f"]({doc})" in readme, f"the README does not link {doc}"
    for outside in ("RULES.md", "FORMATS.md", "DESIGN.md"):
        assert outside not in readme, f"the README still sends readers to {outside}"
    assert "mypy --strict fivetowers`" in readme


# -- the import table of docs/architecture.md ----------------------------------

PACKAGE = ROOT / "fivetowers"


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def project_imports(source: str) -> dict[str, bool]:
    """The fivetowers modules ``source`` imports, wherever the import is (at the
    top, in a function), each with whether it is for types only (under
    ``if TYPE_CHECKING:``). ``from a import b`` counts as importing ``a.b``
    when that is a module, else ``a``."""
    found: dict[str, bool] = {}

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{a.name}" if is_module(f"{node.module}.{a.name}")
                     else node.module for a in node.names]
        for name in names:
            if name.split(".")[0] == "fivetowers":
                found[name] = found.get(name, True) and typing_only
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(ast.parse(source), False)
    return found


def imports_under(folder: str) -> dict[str, dict[str, bool]]:
    """Each module file under ``fivetowers/folder`` (or that one file) -> its imports."""
    base = PACKAGE / folder
    files = [base] if base.suffix == ".py" else sorted(base.rglob("*.py"))
    return {str(f.relative_to(ROOT)): project_imports(f.read_text(encoding="utf-8"))
            for f in files}


def prefixes_root(name: str, prefixes: tuple[str, ...]) -> str | None:
    """``name`` if it is one of ``prefixes`` or inside one, else None."""
    return name if any(name == p or name.startswith(p + ".") for p in prefixes) else None


def outside(folder: str, allowed: tuple[str, ...], *, typing_only: bool = False) -> list[str]:
    """Imports under ``folder`` of modules outside ``allowed`` (prefixes, without
    ``fivetowers.``); with ``typing_only``, run-time imports are not allowed at all."""
    prefixes = tuple(f"fivetowers.{a}" for a in allowed)
    # Importing anything under fivetowers.games imports the registry package too.
    registry_ok = any(a.startswith("games") for a in allowed)
    bad = []
    for path, found in imports_under(folder).items():
        for name, for_types in found.items():
            inside = prefixes_root(name, prefixes) is not None \
                or (registry_ok and name == "fivetowers.games")
            if not inside or (typing_only and not for_types):
                bad.append(f"{path}: {name}")
    return bad


def architecture_row(first_cell: str) -> str:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith(f"| {first_cell}")]
    assert len(rows) == 1, f"architecture.md's import table has no one row {first_cell!r}"
    return rows[0]


GAME_CODE = ("games.protocol", "games.five_towers.rules")
LAYERS: dict[str, tuple[tuple[str, ...], bool]] = {
    # what (under fivetowers/) -> (what it may import, for types only?), as
    # docs/architecture.md's import table says
    "games/protocol.py": (("games.screens",), True),
    "games/screens.py": (("tables.table",), True),
    "games/__init__.py": (("games.protocol",), False),
    "user_text.py": ((), False),
    "games/five_towers/rules": (GAME_CODE, False),
    "games/five_towers/solver": (GAME_CODE + ("games.five_towers.solver",), False),
    "games/five_towers/bots": (GAME_CODE + ("games.five_towers.solver",
                                            "games.five_towers.bots", "games.tournament"),
                               False),
    "games/tournament.py": ((), False),
    "ui": (("ui", "compat", "i18n"), False),
    "i18n": (("i18n", "games.protocol"), False),
    "compat": (("compat",), False),
    "tables": (("tables", "games.protocol", "user_text", "compat",
                "games.five_towers"), False),  # 5 Towers: workers.py alone, below
    "server": (("server", "user_text", "tables.store", "ui", "compat", "i18n"), False),
}


@pytest.mark.parametrize("folder", LAYERS)
def test_each_layer_imports_what_the_import_table_says(folder: str) -> None:
    allowed, typing_only = LAYERS[folder]
    assert not outside(folder, allowed, typing_only=typing_only)


def test_a_game_client_and_screens_import_exactly_the_tables_modules_named() -> None:
    row = architecture_row("a game's `client.py`")
    named = set(re.findall(r"`fivetowers/tables/(\w+)\.py`", row))
    found = {name.split(".")[2] for folder in ("games/five_towers/client.py",
                                               "games/five_towers/tui")
             for imports in imports_under(folder).values() for name in imports
             if name.startswith("fivetowers.tables.")}
    assert found == named, "the row names other tables/ modules than the code imports"
    assert not outside("games", ("games", "ui", "compat", "user_text", "tables", "i18n"))
    for folder in ("games/five_towers/rules", "games/five_towers/solver",
                   "games/five_towers/bots", "games/five_towers/kind.py"):
        assert not [n for i in imports_under(folder).values() for n in i
                    if n.startswith("fivetowers.tables")], f"{folder} imports tables/"


def test_the_hosting_layers_name_5_towers_only_where_the_table_says() -> None:
    def naming(folder: str) -> set[str]:
        return {path for path, imports in imports_under(folder).items()
                if any(n.startswith("fivetowers.games.five_towers") for n in imports)}

    assert naming("tables") == set()
    assert naming("server") == set()
    assert naming("lobby") == {"fivetowers/lobby/app.py"}
    rows = " ".join(architecture_row(f"`fivetowers/{layer}/`") for layer in ("tables", "lobby"))
    for path in naming("tables") | naming("lobby"):
        assert f"`{path}`" in rows, f"the import table does not name {path}"


def test_the_import_scan_sees_late_and_typing_only_imports() -> None:
    source = ("from typing import TYPE_CHECKING\n"
              "import fivetowers.ui.text\n"
              "if TYPE_CHECKING:\n    from fivetowers.tables.table import Table\n"
              "def f():\n    from fivetowers.games import protocol\n"
              "    from fivetowers.lobby.model import Lobby\n")
    assert project_imports(source) == {"fivetowers.ui.text": False,
                                       "fivetowers.tables.table": True,
                                       "fivetowers.games.protocol": False,
                                       "fivetowers.lobby.model": False}
    assert prefixes_root("fivetowers.tables.table", ("fivetowers.tables",))
    assert not prefixes_root("fivetowers.tablesx", ("fivetowers.tables",))
