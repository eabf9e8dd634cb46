"""Where the serving loop's time goes, seen whole (``FIVETOWERS_PROFILE=MS``).

cProfile slows every Python call several times over, so under a load test it
measures a different server; the stall watch (stalls.py) only looks when the
loop is late. This samples the loop's stack every MS milliseconds of the
process's CPU time (``setitimer(ITIMER_PROF)``, a SIGPROF handler: the
loop runs on the main thread, where Python runs signal handlers) for the
server's whole life, or from ``FIVETOWERS_PROFILE_AFTER`` seconds on for
``FIVETOWERS_PROFILE_FOR`` seconds (a load test's measurement without its
arrivals and departures), and when the server stops prints on stderr the
samples' shares, which are shares of the serving process's CPU:

- by subsystem: the innermost frame that belongs to a known part (SUBSYSTEMS:
  the compositor, drawing, our widgets, asyncssh, timers, the message pumps,
  the store, the worker pool's plumbing, the lobby, logging...): the part's
  own cost, the shares add up to 100%;
- by loop callback: the outermost frame under asyncio's (a message pump of
  which App or widget class, a timer, an SSH packet read...);
- by function, inclusive: the samples any frame of which is that function
  (what a cut there could save at most).

A sample with the loop in ``select`` is another thread's CPU (idle for the
loop). A sample is taken between two bytecodes, so a C call's time (a
socket's send, a cipher, pickle) is its Python caller's. The collector's
time on the loop is also timed apart (``gc.callbacks``), and the process's
and the loop thread's CPU over the window are printed beside.
``FIVETOWERS_PROFILE_OUT=FILE`` also writes the busy stacks folded
("frame;frame;... count", flame graph tools' input). Off unless asked: with
the variable unset nothing is started. Each SIGPROF also wakes the loop's
signal pipe when one is set (a byte a sample: a few hundred wake-ups a
second at most, while the loop is busy anyway).
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import os
import signal
import sys
import threading
import time
from collections import Counter
from types import CodeType, FrameType
from typing import Any, Callable, TextIO

ENVIRONMENT = "FIVETOWERS_PROFILE"
"""Milliseconds between samples; unset or 0: no profile."""
AFTER = "FIVETOWERS_PROFILE_AFTER"
FOR = "FIVETOWERS_PROFILE_FOR"
"""Seconds to sample for (default: until the server stops)."""
OUT = "FIVETOWERS_PROFILE_OUT"

SUBSYSTEMS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # (name, file path parts): the first whose parts are in a frame's file
    # names it, scanning from the innermost frame out. Order matters where
    # paths nest (textual's compositor before textual).
    ("store (sqlite)", ("/sqlite3/", "fivetowers/tables/store", "fivetowers/tables/sql")),
    ("logging", ("/logging/",)),
    ("worker pool plumbing", ("fivetowers/tables/workers", "fivetowers/tables/pool",
                              "/pickle.py", "/copyreg.py", "/multiprocessing/",
                              "/concurrent/futures/")),
    ("garbage collection (samples held over a collection, the settles)", (
        "fivetowers/server/collector", "fivetowers/server/loop_profile", "/_weakrefset.py")),
    ("asyncssh", ("/asyncssh/",)),
    ("our SSH driver", ("fivetowers/server/driver", "fivetowers/server/input_guard")),
    ("textual compositor", ("textual/_compositor", "textual/_spatial_map",
                            "textual/_arrange", "textual/_layout", "textual/layouts/",
                            "textual/geometry")),
    ("drawing (rich, strips, styles cache, compat's workarounds)", (
        "/rich/", "textual/strip", "textual/_segment_tools", "textual/_styles_cache",
        "textual/_border", "textual/renderables/", "textual/color", "textual/filter",
        "textual/content", "textual/visual", "textual/_log_lines", "fivetowers/compat/")),
    ("textual CSS and styles", ("textual/css/", "textual/dom", "textual/_node_list")),
    ("textual timers", ("textual/timer", "textual/_time")),
    ("textual message pumps and events", ("textual/message_pump", "textual/message",
                                          "textual/events", "textual/_callback",
                                          "textual/_context", "textual/signal")),
    ("textual other", ("/textual/",)),
    ("our widgets and screens", ("fivetowers/ui/", "fivetowers/games/five_towers/ui",
                                 "fivetowers/games/gotown/ui", "fivetowers/lobby/app",
                                 "fivetowers/lobby/screens", "fivetowers/lobby/widgets")),
    ("lobby and tables", ("fivetowers/lobby/", "fivetowers/tables/")),
    ("game rules", ("fivetowers/games/",)),
    ("server (sessions, auth)", ("fivetowers/server/",)),
    ("i18n", ("fivetowers/i18n", "/gettext.py")),
    ("socket sends and receives (asyncio's transports)", ("asyncio/selector_events",)),
    ("asyncio", ("/asyncio/",)),
)
OTHER = "other (standard library, ...)"
IDLE_FILES = ("/selectors.py",)
"""Innermost frame in these: the loop is waiting for I/O or a timer."""
SKIPPED = ("/asyncio/", "/selectors.py")
"""Frames below a loop callback: the loop's own."""
SignalHandler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None
"""What ``signal.signal`` returns (None: a handler not set from Python)."""


def subsystem_of(filename: str) -> str | None:
    for name, parts in SUBSYSTEMS:
        if any(part in filename for part in parts):
            return name
    return None


def _label(code: CodeType, frame: FrameType | None = None) -> str:
    where = code.co_filename.rsplit("site-packages/", 1)[-1].rsplit("/fivetowers/", 1)[-1]
    name = code.co_qualname
    owner = _owner(code, frame) if frame is not None else None
    if owner is not None and owner not in name:
        name = f"{name}[{owner}]"
    return f"{name} ({where.rsplit('/', 1)[-1]})"


RESUMABLE = (inspect.CO_COROUTINE | inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR
             | inspect.CO_ITERABLE_COROUTINE)
PUMP_TASK = "message pump "
"""How Textual names a message pump's task: this, then its owner (``Class(...)``)."""


def _owner(code: CodeType, frame: FrameType) -> str | None:
    """The class of the object whose method ``frame`` runs, where cheap to tell."""
    if not (code.co_argcount and code.co_varnames[:1] == ("self",)):
        return None
    if code.co_flags & RESUMABLE:
        # Not frame.f_locals: on 3.11 it builds a dict the frame keeps, with
        # every local as it was then, for as long as the frame lives (a
        # message pump's: the session's), skewing the memory profiled. A
        # loop callback's coroutine is the running task's; Textual names a
        # pump's task after its owner.
        try:
            task = asyncio.current_task()
        except RuntimeError:  # no loop running
            return None
        told = task.get_name() if task is not None else ""
        owner = told[len(PUMP_TASK):].split("(", 1)[0] if told.startswith(PUMP_TASK) else ""
        return owner if owner.isidentifier() else None
    found = frame.f_locals.get("self")  # (a plain call's frame: gone with its dict)
    return None if found is None else type(found).__name__


def _callback_part(codes: tuple[CodeType, ...]) -> tuple[CodeType, ...]:
    """The frames of a stack (innermost first) above the loop's ``Handle._run``."""
    for depth, code in enumerate(codes):
        if code.co_filename.endswith("asyncio/events.py"):
            return codes[:depth]
    return codes


class LoopProfile:
    """Samples the main thread's stack (the loop's) every so much process CPU."""

    def __init__(self, every_ms: float, after_s: float = 0.0, for_s: float = 0.0,
                 out: TextIO | None = None, folded_to: str | None = None) -> None:
        self.every = every_ms / 1000
        self.after = after_s
        self.for_s = for_s
        """Seconds to sample for, 0: until stopped."""
        self.out = out if out is not None else sys.stderr
        self.folded_to = folded_to
        self.stacks: Counter[tuple[CodeType, ...]] = Counter()
        """Samples' stacks (code objects, innermost first) with the loop busy."""
        self.callbacks: Counter[str] = Counter()
        """Busy samples by loop callback (its outermost frame, with its owner's class)."""
        self.idle = 0
        """Samples with the loop waiting in select: another thread's CPU."""
        self.gc_s = 0.0
        """The loop thread's CPU seconds in collections."""
        self.collections: Counter[int] = Counter()
        """Collections on the loop by generation."""
        self.collection_s: dict[int, float] = {0: 0.0, 1: 0.0, 2: 0.0}
        """Their CPU seconds by generation."""
        self._gc_started = 0.0
        self._thread = threading.get_ident()
        self._sampling = False
        self._handles: list[asyncio.TimerHandle] = []
        self._window: tuple[float, float, float] | None = None
        """(monotonic, process CPU, loop thread CPU) when sampling began."""
        self._ended: tuple[float, float, float] | None = None
        self._previous: SignalHandler = None
        """SIGPROF's handler before sampling began."""

    # -- life ----------------------------------------------------------------
    def start(self) -> bool:
        """Start sampling, ``after`` seconds from now (call from the loop, on
        the main thread: Python runs signal handlers there). False: not here."""
        if (threading.current_thread() is not threading.main_thread()
                or not hasattr(signal, "setitimer")):
            print("loop profile: needs the loop on the main thread and setitimer",
                  file=self.out)
            return False
        self._thread = threading.get_ident()
        loop = asyncio.get_running_loop()
        self._handles.append(loop.call_later(self.after, self._begin))
        if self.for_s > 0:
            self._handles.append(loop.call_later(self.after + self.for_s, self._end))
        return True

    def stop(self) -> None:
        for handle in self._handles:
            handle.cancel()
        if self._sampling:
            self._end()

    def _begin(self) -> None:
        # ITIMER_PROF counts the process's CPU time (user and system, every
        # thread): a sample is a slice of CPU, wherever the loop is then.
        # A sampling thread would not do: it can only run when the loop
        # thread lets go of the GIL, so its samples pile up on system calls.
        self._window = (time.monotonic(), time.process_time(), time.thread_time())
        self._previous = signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.every, self.every)
        gc.callbacks.append(self._on_gc)
        self._sampling = True

    def _end(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        # SIGPROF's default ends the process: whatever handled it before
        # (None: not set from Python, the default then) handles it again.
        signal.signal(signal.SIGPROF, signal.SIG_DFL if self._previous is None
                      else self._previous)
        self._ended = (time.monotonic(), time.process_time(), time.thread_time())
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        self._sampling = False

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if threading.get_ident() != self._thread:
            return
        if phase == "start":
            self._gc_started = time.thread_time()
        else:
            took = time.thread_time() - self._gc_started
            self.gc_s += took
            generation = info.get("generation", -1)
            self.collections[generation] += 1
            self.collection_s[generation] = self.collection_s.get(generation, 0.0) + took

    # -- the signal handler (on the loop's thread, between two bytecodes) ------
    def _sample(self, signum: int, frame: FrameType | None) -> None:
        if frame is None:
            return
        if any(part in frame.f_code.co_filename for part in IDLE_FILES):
            self.idle += 1
            return
        codes: list[CodeType] = []
        callback = "(the loop itself)"
        current: FrameType | None = frame
        while current is not None:
            code = current.f_code
            codes.append(code)
            caller = current.f_back
            if (caller is not None and caller.f_code.co_filename.endswith("asyncio/events.py")
                    and not any(p in code.co_filename for p in SKIPPED)):
                callback = _label(code, current)
            current = caller
        self.stacks[tuple(codes)] += 1
        self.callbacks[callback] += 1

    # -- reports -------------------------------------------------------------
    def by_subsystem(self) -> Counter[str]:
        """Busy samples by the innermost frame's part (the part's own cost)."""
        return Counter({part: sum(functions.values())
                        for part, functions in self.subsystem_functions().items()})

    def subsystem_functions(self) -> dict[str, Counter[str]]:
        """Each part's busy samples by the frame that put them there."""
        parts: dict[str, Counter[str]] = {}
        for codes, count in self.stacks.items():
            found = OTHER, codes[0]
            for code in _callback_part(codes) or codes:
                part = subsystem_of(code.co_filename)
                if part is not None:
                    found = part, code
                    break
            parts.setdefault(found[0], Counter())[_label(found[1])] += count
        return parts

    def inclusive(self) -> Counter[str]:
        """Busy samples any frame of which is the function (counted once a
        sample), of the frames that run a loop callback (not the loop's own)."""
        functions: Counter[str] = Counter()
        for codes, count in self.stacks.items():
            for label in {_label(code) for code in _callback_part(codes)}:
                functions[label] += count
        return functions

    def summary(self, top: int = 40) -> str:
        busy = sum(self.stacks.values())
        total = busy + self.idle
        if not total:
            return "loop profile: no sample"
        lines = [f"loop profile: {total} samples, one every {self.every * 1000:.0f} ms of the"
                 f" process's CPU; the loop busy in {busy}, waiting in {self.idle}"
                 f" (another thread's CPU)"]
        if self._window is not None and self._ended is not None:
            wall = self._ended[0] - self._window[0]
            cpu = self._ended[1] - self._window[1]
            loop_cpu = self._ended[2] - self._window[2]
            lines.append(f"  over {wall:.1f} s: the process's CPU {cpu / wall:.1%} of a core,"
                         f" the loop thread's {loop_cpu / wall:.1%}; collections on the loop"
                         f" {self.gc_s / cpu if cpu else 0:.1%} of the process's CPU"
                         " (young/middle/old: " + ", ".join(
                             f"{self.collections[g]} taking {self.collection_s[g] * 1000:.0f} ms"
                             for g in range(3)) + ")")
        lines.append("  by subsystem (the innermost frame's part: its own cost; % of busy samples)")
        functions = self.subsystem_functions()
        for name, count in self.by_subsystem().most_common():
            lines.append(f"    {count / busy:6.1%}  {name}: " + ", ".join(
                f"{function} {n / busy:.1%}" for function, n in functions[name].most_common(3)))
        lines.append("  by loop callback (the outermost frame under asyncio's)")
        for name, count in self.callbacks.most_common(15):
            lines.append(f"    {count / busy:6.1%}  {name}")
        lines.append(f"  by function, inclusive (the top {top})")
        for name, count in self.inclusive().most_common(top):
            lines.append(f"    {count / busy:6.1%}  {name}")
        return "\n".join(lines)

    def folded(self) -> str:
        return "\n".join(";".join(_label(code) for code in reversed(codes)) + f" {count}"
                         for codes, count in self.stacks.most_common())

    def report(self) -> None:
        print(self.summary(), file=self.out, flush=True)
        if self.folded_to:
            with open(self.folded_to, "w", encoding="utf-8") as out:
                out.write(self.folded() + "\n")


def from_environment() -> LoopProfile | None:
    """A profile if ``FIVETOWERS_PROFILE`` asks for one (milliseconds), else None."""
    value = os.environ.get(ENVIRONMENT, "").strip()
    try:
        every = float(value) if value else 0.0
        after = float(os.environ.get(AFTER, "0") or 0)
        for_s = float(os.environ.get(FOR, "0") or 0)
    except ValueError:
        print(f"{ENVIRONMENT}={value!r} or {AFTER} is not a number: no loop profile",
              file=sys.stderr)
        return None
    return LoopProfile(every, after, for_s, folded_to=os.environ.get(OUT) or None) if every > 0 else None
