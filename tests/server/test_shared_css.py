"""Hosted sessions share one parse of their CSS, and only when the theme is the same."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Static

from fivetowers.server.hosted import HostedApp


class Probe(HostedApp):
    CSS = "#probe { height: 3; background: $background; }"

    def __init__(self, theme: str = "textual-dark") -> None:
        super().__init__()
        self.wanted = theme

    def compose(self) -> ComposeResult:
        yield Static("probe", id="probe")

    def on_mount(self) -> None:
        self.theme = self.wanted


async def probe_rules(theme: str = "textual-dark") -> tuple[list[Any], Any]:
    app = Probe(theme)
    async with app.run_test() as pilot:
        await pilot.pause()
        rules = [rule for rule in app.stylesheet.rules
                 if "#probe" in rule.selectors]
        colour = app.query_one("#probe").styles.background
    return rules, colour


async def test_two_sessions_read_the_same_parsed_rules() -> None:
    first, colour1 = await probe_rules()
    second, colour2 = await probe_rules()
    assert len(first) == 1 and first[0] is second[0]
    assert colour1 == colour2


async def test_another_theme_gets_its_own_rules() -> None:
    dark, dark_colour = await probe_rules("textual-dark")
    light, light_colour = await probe_rules("textual-light")
    assert dark[0] is not light[0]
    assert dark_colour != light_colour  # $background follows each app's own theme
