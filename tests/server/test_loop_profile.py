"""The loop's CPU profile (FIVETOWERS_PROFILE): where the serving process's CPU went."""

from __future__ import annotations

import asyncio
import io
import signal
import weakref
from pathlib import Path
from types import FrameType

import pytest

from fivetowers.server import loop_profile, stalls
from fivetowers.server.loop_profile import OTHER, LoopProfile, from_environment, subsystem_of

from tests.server.server_helpers import LogCapture, StartServer


def spin_the_cpu(profile: LoopProfile, samples: int, most: int = 50_000_000) -> None:
    """Pure Python work until the profile holds ``samples`` busy samples
    (bounded: a profile that never samples fails the test, not hangs it)."""
    total = 0
    for _ in range(most):
        total += 1
        if total % 10_000 == 0 and sum(profile.stacks.values()) >= samples:
            return


async def a_callback_that_spins(profile: LoopProfile) -> None:
    spin_the_cpu(profile, 30)


async def sampling(profile: LoopProfile) -> None:
    """Once ``profile`` samples: its start schedules that (a call_later(0))
    for a later turn of the loop than the one its caller resumes in."""
    for _ in range(1000):
        if profile._sampling:
            return
        await asyncio.sleep(0)
    raise AssertionError("the profile did not begin sampling")


async def test_the_loop_s_cpu_is_sampled_and_named() -> None:
    out = io.StringIO()
    profile = LoopProfile(every_ms=1, out=out)
    assert profile.start()
    await sampling(profile)
    try:
        await asyncio.get_running_loop().create_task(a_callback_that_spins(profile))
    finally:
        profile.stop()
    assert sum(profile.stacks.values()) >= 30
    summary = profile.summary()
    assert "spin_the_cpu" in summary
    assert "a_callback_that_spins" in summary  # the loop callback it ran in
    assert "the process's CPU" in summary  # the window's CPU, beside the shares
    assert f"{OTHER}" in summary  # a test file is none of the server's parts
    folded = profile.folded()
    assert "a_callback_that_spins (test_loop_profile.py);spin_the_cpu" in folded


async def test_no_sample_after_it_stops() -> None:
    profile = LoopProfile(every_ms=1, for_s=30)
    assert profile.start()
    await sampling(profile)
    spin_the_cpu(profile, 5)
    profile.stop()
    taken = sum(profile.stacks.values())
    assert taken > 0  # it was sampling when stopped
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) != profile._sample
    spin_the_cpu(profile, taken + 1, most=2_000_000)  # ~100 samples' CPU: none comes
    assert sum(profile.stacks.values()) == taken


async def test_sigprof_is_handled_again_as_before_once_it_stops() -> None:
    # SIGPROF's default ends the process: not what stopping leaves behind.
    def before(signum: int, frame: FrameType | None) -> None:
        """The process's own SIGPROF handler (none comes here)."""

    was = signal.signal(signal.SIGPROF, before)
    try:
        profile = LoopProfile(every_ms=1)
        assert profile.start()
        await sampling(profile)
        profile.stop()
        assert signal.getsignal(signal.SIGPROF) is before
    finally:
        signal.signal(signal.SIGPROF, signal.SIG_DFL if was is None else was)


class Pump:
    async def run(self, profile: LoopProfile) -> bool:
        """Spin with a local, drop it: whether it is gone (nothing kept it)."""
        held = Held()
        gone = weakref.ref(held)
        spin_the_cpu(profile, 30)
        del held
        return gone() is None


class LobbyPump(Pump):
    """A subclass, as a Textual App or widget is of MessagePump."""


class Held:
    pass


async def test_a_coroutine_s_locals_are_not_kept_by_its_samples_and_its_owner_is_named() -> None:
    # frame.f_locals on 3.11 leaves a dict of the locals on the frame for its
    # whole life: a message pump's, the session's. Textual names its task.
    profile = LoopProfile(every_ms=1)
    assert profile.start()
    await sampling(profile)
    try:
        freed = await asyncio.get_running_loop().create_task(
            LobbyPump().run(profile), name="message pump LobbyPump(id='lobby')")
    finally:
        profile.stop()
    assert sum(profile.stacks.values()) >= 30
    assert freed
    assert "Pump.run[LobbyPump] (test_loop_profile.py)" in profile.callbacks


def test_frames_are_put_in_the_server_s_parts() -> None:
    site = "/x/site-packages/"
    assert subsystem_of(site + "textual/_compositor.py") == "textual compositor"
    assert subsystem_of(site + "asyncssh/channel.py") == "asyncssh"
    assert subsystem_of("/repo/fivetowers/tables/workers.py") == "worker pool plumbing"
    assert subsystem_of("/repo/fivetowers/games/gotown/tui/table.py") is not None
    assert subsystem_of("/usr/lib/python3.11/json/encoder.py") is None


def test_off_unless_the_environment_asks(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(loop_profile.ENVIRONMENT, raising=False)
    assert from_environment() is None
    monkeypatch.setenv(loop_profile.ENVIRONMENT, "soon")
    assert from_environment() is None
    assert "not a number" in capsys.readouterr().err
    monkeypatch.setenv(loop_profile.ENVIRONMENT, "5")
    monkeypatch.setenv(loop_profile.AFTER, "20")
    monkeypatch.setenv(loop_profile.FOR, "55")
    profile = from_environment()
    assert profile is not None
    assert (profile.every, profile.after, profile.for_s) == (0.005, 20.0, 55.0)


async def test_a_profile_that_cannot_be_written_does_not_stop_the_server_s_report(
        start_server: StartServer, server_log: LogCapture, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(loop_profile.ENVIRONMENT, "5")
    monkeypatch.setenv(loop_profile.OUT, str(tmp_path / "no such folder" / "stacks.folded"))
    monkeypatch.setenv(stalls.ENVIRONMENT, "1000")
    server = await start_server()
    server.stderr = io.StringIO()
    await server.stop()
    assert "loop profile: cannot write its report" in server_log.text
    assert "loop stalls over 1000 ms" in server.stderr.getvalue()  # (after the profile's)
    assert server_log.text.rstrip().endswith("stopped")
