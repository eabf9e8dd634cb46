"""Modules already translated show no English the catalog cannot reach.

A module joins CONVERTED once its strings are wrapped; from then on a plain
literal or an f-string given straight to something that shows text (a
notification, a widget, a note, a key's description, a command-line error)
fails here. Ids, styles and other keyword arguments are not text.
"""

from __future__ import annotations

import ast
from pathlib import Path

import fivetowers

PACKAGE = Path(fivetowers.__file__).parent
CONVERTED = (
    "lobby/lobby_screen.py", "lobby/waiting_screen.py", "lobby/my_games_screen.py",
    "lobby/leaderboard_screen.py", "lobby/app.py", "server/session.py", "server/driver.py",
    "server/serve.py",
    *(f"games/five_towers/tui/{module}" for module in (
        "screens/table.py", "screens/end.py", "screens/help.py", "screens/replay.py",
        "screens/plans.py", "widgets/bid_panel.py",
        "widgets/build_panel.py", "widgets/display_row.py", "widgets/game_log.py",
        "widgets/hint_panel.py", "widgets/status_bar.py", "widgets/tower_board.py",
        "log_lines.py", "build_guide.py", "look.py", "words.py")),
    "ui/key_bar.py", "ui/live_table.py", "ui/help_page.py", "ui/leave.py",
    "lobby/new_table_screen.py", "lobby/model.py", "lobby/export.py",
    "lobby/archive.py", "games/gotown/chronicle.py", "games/gotown/tui/screens/table.py",
    "games/gotown/tui/screens/help.py", "games/gotown/tui/widgets/status_bar.py",
    "games/gotown/tui/widgets/piles.py", "games/gotown/tui/widgets/play_panel.py",
    "games/gotown/tui/widgets/tower_board.py", "games/gotown/tui/widgets/game_log.py",
    "games/gotown/tui/widgets/hand_row.py", "games/gotown/tui/widgets/hint_panel.py",
    "games/gotown/tui/log_lines.py", "games/gotown/tui/choices.py",
    "games/gotown/tui/screens/end.py", "games/gotown/tui/screens/replay.py",
    "games/gotown/tui/threats.py", "games/gotown/tui/look.py", "ui/too_small.py", "cli.py",
    "lobby/serve_command.py", "lobby/processes.py",
)
SHOWS_TEXT = frozenset({
    "notify", "Static", "Label", "Text", "note", "update", "append", "add_columns",
    "say", "_die", "stop", "Binding", "Input", "Button", "assemble",
})
"""Calls whose positional string arguments a player reads."""
NOT_TEXT = frozenset({"", " ", "  ", "\n", "bold", "italic", "dim", "reverse",
                      "5 Towers", "GoTown",
                      " esc", "chat"})  # styles, the games' names, keys, a log line's kind
KEYS = frozenset({*"abcdefghijklmnopqrstuvwxyz", "enter", "escape"})
"""A key to press (``n`` play again) is the same in every language."""
COMMANDS = ("ssh ", "fivetowers ")
"""A command line to type is the same in every language."""


def _words(node: ast.expr) -> bool:
    """A literal a player would read: letters in it, not a style or an id."""
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        if isinstance(first, ast.Constant) and str(first.value).strip().startswith(COMMANDS):
            return False
        return any(isinstance(v, ast.Constant) and any(c.isalpha() for c in str(v.value))
                   for v in node.values)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value not in NOT_TEXT and node.value.strip() not in KEYS
                and not node.value.strip().startswith(COMMANDS)
                and any(c.isalpha() for c in node.value))
    return False


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) else None)


def untranslated(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or _name(node.func) not in SHOWS_TEXT:
            continue
        args = list(node.args)
        if _name(node.func) == "Binding":
            args = args[2:3]  # the description; the key and action are names
        for arg in args:
            parts = arg.elts[:1] if isinstance(arg, ast.Tuple) else [arg]  # (text, style)
            for part in parts:
                if _words(part):
                    found.append((part.lineno, ast.unparse(part)[:60]))
    return found


def test_converted_modules_wrap_what_players_read() -> None:
    problems = {path: found for path in CONVERTED
                if (found := untranslated((PACKAGE / path).read_text("utf-8")))}
    assert not problems, f"unwrapped text (wrap it in _() or N_()): {problems}"


def test_the_check_catches_plain_and_built_text() -> None:
    found = untranslated('''
self.notify("Welcome")
self.notify(_("Welcome"))
Static(f"seat {n}")
Binding("q", "quit", "leave")
Binding("q", "quit", N_("leave"))
Text.assemble(("Lobby", "bold"), (_("lobby"), "bold"), ("5 Towers", "bold"))
Static("", id="x")
''')
    assert [line for line, _ in found] == [2, 4, 5, 7]


def test_the_rules_refuse_with_templates_the_catalog_holds() -> None:
    """A refusal is an English template and its details, never a built string:
    a viewer's screen translates the template (fivetowers.i18n.refusal_text)."""
    from fivetowers.i18n.extract import REFUSAL_KEYWORDS

    built = []
    for rules in ("games/five_towers/rules", "games/gotown/rules"):
        for path in sorted((PACKAGE / rules).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if (isinstance(node, ast.Call) and _name(node.func) in REFUSAL_KEYWORDS
                        and node.args and not (isinstance(node.args[0], ast.Constant)
                                               and isinstance(node.args[0].value, str))):
                    built.append(f"{path.name}:{node.lineno}")
    assert built == []
