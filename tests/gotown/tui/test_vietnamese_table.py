"""GoTown's table in Vietnamese at 80×24 (the same turn as the English
snapshot of a turn with its targets marked)."""

from __future__ import annotations

from fivetowers.games.gotown.tui.app import GoTownApp
from fivetowers.i18n import Speech, speak
from tests.gotown.tui.test_snapshots import a_marked_turn


class VietnameseGoTownApp(GoTownApp):
    """Local GoTown as a Vietnamese player sees it."""

    def on_load(self) -> None:
        speak(Speech("vi"))


def test_the_vietnamese_table_snapshot_fits_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app, run_before = a_marked_turn(VietnameseGoTownApp)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
