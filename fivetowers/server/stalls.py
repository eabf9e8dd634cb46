"""Catching the event loop's stalls in the act (``FIVETOWERS_STALLS=MS``).

Every screen of every session is drawn by one asyncio loop: one synchronous
stretch of 300 ms (a re-layout, a screen mounted, a collection) delays every
player's key by that much. A lag meter only says *that* the loop stalled;
this says *what* it was doing: a daemon thread watches a heartbeat the loop
beats every few milliseconds and, while it is late by more than the
threshold, samples the loop thread's stack (``sys._current_frames``) every
``sample_ms``. When the loop beats again the stall is reported on stderr:
its length, the time the garbage collector took inside it (a collection
holds the interpreter, so no sample can be taken then; ``gc.callbacks``
times it instead), and the samples folded into a trunk (the frames every
sample shares) and branches (where the samples went from there, with
counts). ``summary()`` (printed when the server stops) groups the stalls by
their deepest frame of the project's or Textual's code.

Off unless the environment asks (``from_environment``): nothing runs then.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, TextIO

ENVIRONMENT = "FIVETOWERS_STALLS"
"""Milliseconds of lateness that count as a stall; unset or 0: no watch."""

Frame = tuple[str, str]
"""(where: file:line, what: function, with the instance's class for methods)."""

SKIPPED = ("/asyncio/", "/selectors.py", "/threading.py")
"""Frames that say nothing of the stall (the loop's own, the watcher's thread)."""


@dataclass
class Sample:
    at: float
    """time.monotonic() of the sample."""
    callback: int
    """Identity of the loop callback's outermost frame (the same in every
    sample of one run of one callback: a task's step, a timer, a handle)."""
    frames: list[Frame]


@dataclass
class Stall:
    started: float
    """Wall-clock time (time.time) the loop last beat before the stall."""
    ms: float = 0.0
    gc_ms: float = 0.0
    samples: list[Sample] = field(default_factory=list)

    def runs(self, every_ms: float) -> list[tuple[float, list[list[Frame]]]]:
        """The loop callbacks sampled in turn: (about how long each ran, ms,
        its samples' stacks). One long callback is one run; many short ones
        queued behind each other are many runs."""
        runs: list[list[Sample]] = []
        for sample in self.samples:
            if runs and runs[-1][-1].callback == sample.callback:
                runs[-1].append(sample)
            else:
                runs.append([sample])
        return [((s[-1].at - s[0].at) * 1000 + every_ms, [x.frames for x in s]) for s in runs]


def _name(frame: FrameType) -> str:
    code = frame.f_code
    name = code.co_qualname
    if code.co_argcount and code.co_varnames[:1] == ("self",):
        # The instance's class says which widget or screen it was.
        owner = frame.f_locals.get("self")
        if owner is not None and type(owner).__name__ not in name:
            name = f"{name}[{type(owner).__name__}]"
    return name


def stack_of(frame: FrameType | None) -> tuple[int, list[Frame]]:
    """The frames worth showing, outermost first, and the identity of the
    loop callback's outermost frame (0: none, the loop was waiting)."""
    frames: list[Frame] = []
    callback = 0
    while frame is not None:
        where = frame.f_code.co_filename
        if where != __file__ and not any(part in where for part in SKIPPED):
            short = where.rsplit("site-packages/", 1)[-1].rsplit("/fivetowers/", 1)[-1]
            frames.append((f"{short}:{frame.f_lineno}", _name(frame)))
            caller = frame.f_back
            if caller is not None and caller.f_code.co_filename.endswith("asyncio/events.py"):
                callback = id(frame)
        frame = frame.f_back
    frames.reverse()
    return callback, frames


def fold(samples: list[list[Frame]]) -> tuple[list[Frame], Counter[tuple[Frame, ...]]]:
    """The frames every sample shares (outermost first) and, past them, how
    many samples went down each next few frames."""
    trunk: list[Frame] = []
    if samples:
        for level in zip(*samples):
            if any(frame[1] != level[0][1] for frame in level):
                break
            trunk.append(level[0])
    branches: Counter[tuple[Frame, ...]] = Counter(
        tuple(sample[len(trunk):len(trunk) + 4]) for sample in samples)
    return trunk, branches


def culprit_of(samples: list[list[Frame]]) -> str:
    """The deepest frame all samples share, with the frame below it that
    most samples went down: what they were doing, for grouping."""
    if not samples:
        return "(no sample)"
    trunk, branches = fold(samples)
    deepest = trunk[-1][1] if trunk else "?"
    below = branches.most_common(1)[0][0]
    return f"{deepest} > {below[0][1]}" if below else deepest


def longest_run(stall: Stall, every_ms: float,
                runs: list[tuple[float, list[list[Frame]]]] | None = None
                ) -> tuple[float, list[list[Frame]]]:
    """The longest of the stall's ``runs`` (default: worked out here)."""
    if runs is None:
        runs = stall.runs(every_ms)
    return max(runs, key=lambda run: run[0]) if runs else (0.0, [])


def culprit(stall: Stall, every_ms: float = 10.0) -> str:
    """What the stall's longest loop callback was doing."""
    if not stall.samples:
        return "garbage collection" if stall.gc_ms else "(no sample)"
    return culprit_of(longest_run(stall, every_ms)[1])


class StallWatch:
    def __init__(self, threshold_ms: float, sample_ms: float = 10.0,
                 out: TextIO | None = None, depth: int = 14) -> None:
        self.threshold = threshold_ms / 1000
        self.sample_every = sample_ms / 1000
        self.out = out if out is not None else sys.stderr
        self.depth = depth
        """Trunk frames printed per stall (the deepest ones)."""
        self.beat = time.monotonic()
        self.stalls: list[Stall] = []
        self._loop_thread = threading.get_ident()
        self._gc_started = 0.0
        self._gc_ms = 0.0
        """Collection time since the loop last beat."""
        self._stop = threading.Event()
        self._heart: asyncio.Task[None] | None = None
        self._watcher: threading.Thread | None = None

    # -- life ----------------------------------------------------------------
    def start(self) -> None:
        """Start beating on the running loop (call from it) and watching."""
        self._loop_thread = threading.get_ident()
        self.beat = time.monotonic()
        self._heart = asyncio.get_running_loop().create_task(self._beat(), name="stall-heart")
        gc.callbacks.append(self._on_gc)
        self._watcher = threading.Thread(target=self._watch, name="stall-watch", daemon=True)
        self._watcher.start()

    def stop(self) -> None:
        self._stop.set()
        if self._heart is not None:
            self._heart.cancel()
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._watcher is not None:
            self._watcher.join(timeout=1)

    async def _beat(self) -> None:
        while True:
            self.beat = time.monotonic()
            self._gc_ms = 0.0
            await asyncio.sleep(self.sample_every / 2)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if threading.get_ident() != self._loop_thread:
            return
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self._gc_ms += (time.perf_counter() - self._gc_started) * 1000

    # -- the watcher thread ----------------------------------------------------
    def _watch(self) -> None:
        stall: Stall | None = None
        stall_beat = 0.0
        while not self._stop.wait(self.sample_every):
            beat = self.beat
            late = time.monotonic() - beat
            if late > self.threshold:
                if stall is None:
                    stall = Stall(started=time.time() - late)
                frame = sys._current_frames().get(self._loop_thread)
                callback, frames = stack_of(frame)
                del frame
                stall.samples.append(Sample(time.monotonic(), callback, frames))
                stall.gc_ms = self._gc_ms
                stall.ms = late * 1000
                stall_beat = beat
            elif stall is not None:
                # Over: its length is up to the beat that ended it.
                stall.ms = max(stall.ms, (self.beat - stall_beat) * 1000)
                self.stalls.append(stall)
                self.report(stall)
                stall = None

    # -- reports -------------------------------------------------------------
    def report(self, stall: Stall) -> None:
        every = self.sample_every * 1000
        runs = stall.runs(every)
        ms, samples = longest_run(stall, every, runs)
        trunk, branches = fold(samples)
        lines = [f"loop stall {stall.ms:.0f} ms at {stall.started:.3f} (gc {stall.gc_ms:.0f} ms,"
                 f" {len(stall.samples)} samples, {len(runs)} callbacks, the longest"
                 f" ~{ms:.0f} ms): {culprit(stall, every)}"]
        for where, what in trunk[-self.depth:]:
            lines.append(f"    {what}  ({where})")
        for branch, count in branches.most_common(6):
            lines.append(f"  {count:3d}x " + " > ".join(what for _, what in branch))
        others = Counter(culprit_of(s) for m, s in runs if s is not samples)
        if others:
            lines.append("  other callbacks: " + "; ".join(
                f"{n}x {name}" for name, n in others.most_common(6)))
        print("\n".join(lines), file=self.out, flush=True)

    def summary(self) -> str:
        """The stalls grouped by what their longest callback did, the costliest first."""
        every = self.sample_every * 1000
        groups: dict[str, list[tuple[float, float]]] = {}
        for stall in self.stalls:
            groups.setdefault(culprit(stall, every), []).append(
                (stall.ms, longest_run(stall, every)[0]))
        total = sum(s.ms for s in self.stalls)
        lines = [f"loop stalls over {self.threshold * 1000:.0f} ms: {len(self.stalls)},"
                 f" {total:.0f} ms in all; grouped by their longest callback"
                 f" (stall ms, and that callback's ms)"]
        for name, found in sorted(groups.items(), key=lambda g: -sum(m for _, m in g[1])):
            stall_ms = sum(m for m, _ in found)
            own_ms = sorted((m for _, m in found), reverse=True)
            lines.append(f"  {len(found):3d}x {stall_ms:6.0f} ms, longest callbacks"
                         f" {sum(own_ms):6.0f} ms (max {own_ms[0]:.0f}): {name}")
        return "\n".join(lines)


def from_environment() -> StallWatch | None:
    """A watch if ``FIVETOWERS_STALLS`` asks for one (milliseconds), else None."""
    value = os.environ.get(ENVIRONMENT, "").strip()
    try:
        threshold = float(value) if value else 0.0
    except ValueError:
        print(f"{ENVIRONMENT}={value!r} is not a number of milliseconds: no stall watch",
              file=sys.stderr)
        return None
    return StallWatch(threshold) if threshold > 0 else None
