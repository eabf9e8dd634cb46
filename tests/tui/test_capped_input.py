"""A capped text field keeps what fits of a paste, and says what it left out."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult

from fivetowers.ui.capped_input import CappedInput


class Form(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.cuts: list[tuple[int, int]] = []

    def compose(self) -> ComposeResult:
        yield CappedInput(max_length=10)

    def on_capped_input_cut(self, event: CappedInput.Cut) -> None:
        self.cuts.append((event.kept, event.left_out))


async def pasted(value: str, text: str) -> tuple[str, list[tuple[int, int]]]:
    app = Form()
    async with app.run_test() as pilot:
        field = app.query_one(CappedInput)
        field.value = value
        field.cursor_position = len(value)
        field.post_message(events.Paste(text))
        await pilot.pause()
        return field.value, app.cuts


async def test_a_paste_that_fits_is_kept_whole_with_its_lines_joined() -> None:
    assert await pasted("ab", "cd\nef") == ("abcd ef", [])


async def test_a_paste_too_long_keeps_what_fits_and_says_so() -> None:
    assert await pasted("ab", "0123456789xyz") == ("ab01234567", [(8, 5)])


async def test_a_full_field_keeps_nothing_and_says_so() -> None:
    assert await pasted("0123456789", "more") == ("0123456789", [(0, 4)])
