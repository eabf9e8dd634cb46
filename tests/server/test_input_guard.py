"""The paste guard and budgets of server/input_guard.py, without a server."""

from __future__ import annotations

import pytest

from fivetowers.server.driver import SessionParser
from fivetowers.server.input_guard import (PASTE_END, PASTE_START, Part, PasteGuard,
                                           TokenBucket, key_events)


def _pieces(guard: PasteGuard, *chunks: str) -> list[tuple[str, str]]:
    return [(p.part.value, p.text) for c in chunks for p in guard.split(c)]


def _parsed(guard: PasteGuard, *chunks: str) -> list[str]:
    """What a parser fed the guard's pieces reports (keys and pastes)."""
    parser = SessionParser()
    out: list[str] = []
    for chunk in chunks:
        for piece in guard.split(chunk):
            for event in parser.feed(piece.text):
                out.append(getattr(event, "text", None) or getattr(event, "key", "?"))
    return out


@pytest.mark.parametrize("cut", range(1, len(PASTE_START + "hello" + PASTE_END)))
def test_markers_cut_across_reads_are_followed(cut: int) -> None:
    stream = "a" + PASTE_START + "hello" + PASTE_END + "b"
    guard = PasteGuard(cap=100)
    pieces = _pieces(guard, stream[:cut], stream[cut:])
    assert "".join(text for _, text in pieces) == stream  # nothing lost, nothing added
    assert not guard.in_paste and not guard.discarding
    assert [kind for kind, _ in pieces].count("start") == 1
    # The part of a cut end marker before the cut goes out as paste text (the
    # parser, like the guard, only knows it for a marker once it is whole).
    pasted = "".join(t for k, t in pieces if k == "paste")
    assert pasted.startswith("hello") and PASTE_END.startswith(pasted[5:])
    assert _parsed(PasteGuard(cap=100), stream[:cut], stream[cut:]) == ["a", "hello", "b"]


def test_a_paste_past_the_cap_is_cut_and_the_rest_dropped() -> None:
    guard = PasteGuard(cap=10)
    pieces = _pieces(guard, PASTE_START + "x" * 25, "y" * 5 + PASTE_END + "k")
    assert pieces == [("start", PASTE_START), ("paste", "x" * 10), ("end", PASTE_END),
                      ("keys", "k")]
    assert guard.take_dropped() == 20
    assert _parsed(PasteGuard(cap=10), PASTE_START + "x" * 25, PASTE_END + "k") == \
        ["x" * 10, "k"]


def test_a_paste_without_end_ends_when_told() -> None:
    guard = PasteGuard(cap=100)
    assert _pieces(guard, PASTE_START + "abc") == [("start", PASTE_START), ("paste", "abc")]
    assert [p.part for p in guard.end_paste()] == [Part.END]
    assert _pieces(guard, "q") == [("keys", "q")]
    # A refused paste is dropped whole, up to its end marker.
    assert _pieces(guard, PASTE_START) == [("start", PASTE_START)]
    guard.refuse_paste()
    assert _pieces(guard, "secret" + PASTE_END + "z") == [("keys", "z")]


def test_token_bucket_refills_at_its_rate_up_to_its_burst() -> None:
    bucket = TokenBucket(rate=10, burst=20, now=0.0)
    assert bucket.take(25, 0.0) == 20
    assert bucket.take(5, 0.2) == 2
    bucket.charge(10, 0.2)  # into debt
    assert bucket.wait_for(1, 0.2) == pytest.approx(1.1)
    assert bucket.take(100, 100.0) == 20


@pytest.mark.parametrize("keys", [
    "x", "hello", "\x1b[A", "\x1b[1;5B", "\x1b[<0;12;7M\x1b[<0;12;7m", "\x1bOP",
    "\x1bx", "\x1b", "a\x1b[Bb\x1b[200~", "\x1b[15~\x1b[2;3R", "\x1b[", "\x1b[<0;",
])
def test_key_events_is_at_least_what_the_parser_makes(keys: str) -> None:
    parser = SessionParser()
    made = list(parser.feed(keys)) + list(parser.tick())
    assert len(made) <= key_events(keys)


def test_key_events_counts_a_sequence_as_one() -> None:
    assert key_events("x" * 300) == 300
    assert key_events("\x1b[<0;12;7M" * 30) == 30  # a drag: 360 characters, 30 events
    assert key_events("\x1b[A\x1bOPq") == 3
