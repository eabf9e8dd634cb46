"""Each workaround was checked against the library version installed: a
different major.minor asks for a re-check (and a new version recorded)."""

from __future__ import annotations

import importlib

import pytest

import fivetowers.compat
from fivetowers.compat import workarounds
from fivetowers.compat.checked import Workaround, installed_version


def major_minor(text: str) -> tuple[int, int]:
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


@pytest.mark.parametrize("workaround", workarounds(), ids=lambda w: w.name)
def test_the_installed_library_is_the_version_checked(workaround: Workaround) -> None:
    installed = installed_version(workaround.library)
    assert major_minor(installed) == major_minor(workaround.checked), (
        f"re-check {workaround.module}: {workaround.name} was checked against "
        f"{workaround.library} {workaround.checked}, {installed} is installed; once its "
        f"tests pass and its note still holds, record {installed}")


@pytest.mark.parametrize("workaround", workarounds(), ids=lambda w: w.name)
def test_each_workaround_is_where_it_says_and_listed(workaround: Workaround) -> None:
    dotted = workaround.module.removesuffix(".py").replace("/", ".")
    module = importlib.import_module(dotted)
    assert hasattr(module, workaround.name), workaround
    assert workaround.internals and workaround.retire_when
    # A reader finds it in the package's docstring, with its version.
    doc = fivetowers.compat.__doc__ or ""
    assert f"``{workaround.name}``" in doc, f"list {workaround.name} in compat/__init__.py"
    shown = {"textual": "Textual", "rich": "Rich", "python": "Python"}.get(
        workaround.library, workaround.library)
    assert f"{shown} {workaround.checked}" in doc, f"say which {workaround.library} was checked"
    # Its own note: a paragraph on what upstream does and what would retire it.
    note = " ".join((getattr(module, workaround.name).__doc__ or "").split())
    assert len(note) > 200 and "Retire it when" in note, workaround.name


def test_every_workaround_is_recorded() -> None:
    names = [w.name for w in workarounds()]
    assert len(names) == len(set(names))
    # The six the issue named, and the rest found since.
    assert {"UncachedXTermParser", "keep_process_output", "share_parsed_css",
            "release_strip_caches", "drop_closed_watchers", "server_process"} <= set(names)


def test_a_changed_library_is_read_and_reported_once_a_process_not_once_a_session(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every hosted App's start asks each workaround to install itself.
    from fivetowers.compat import checked

    reads = []
    monkeypatch.setattr(checked.inspect, "getsource",
                        lambda code: reads.append(code) or "def changed(): pass")
    checked.source_digest.cache_clear()
    try:
        for _ in range(3):
            assert not checked.source_unchanged(checked.source_digest(_library_code),
                                                "recorded", "a test's library changed")
    finally:
        checked.source_digest.cache_clear()
    assert reads == [_library_code]
    assert caplog.text.count("a test's library changed") == 1


def _library_code() -> None:
    """Stands for a library's code in the test above (a function to read)."""
