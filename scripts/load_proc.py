"""What the load test reads of the server process (and its workers) in /proc."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:  # gone
        pass
    return 0


def _stat(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def cpu_seconds(pid: int, reaped: bool = False) -> float:
    """User + system time; with ``reaped``, of the children it has waited for too."""
    fields = _stat(pid)
    if not fields:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICK


def cpu_wait_seconds(pid: int) -> float:
    """How long the process's main thread (the server's serving loop) was
    ready to run but waited for a CPU: the scheduler's run delay. On a
    machine the workers fill, this is the part of a key's wait that the
    workers' priority decides."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):  # gone, or no schedstats
        return 0.0


def descendants(pid: int) -> list[int]:
    """Every live process under ``pid`` (worker pools, their helpers)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields:
                parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


@dataclass
class Sample:
    server_kib: int
    workers_kib: int
    workers: int


def sample(pid: int) -> Sample:
    kids = descendants(pid)
    return Sample(rss_kib(pid), sum(rss_kib(k) for k in kids), len(kids))


def workers_cpu(pid: int) -> float:
    """CPU seconds of the processes under ``pid``, live or replaced: a worker
    the pool replaced (``TASKS_PER_WORKER``) is counted in the reaped
    children's time of its parent (the forkserver that started it, or the
    server itself)."""
    return cpu_seconds(pid, True) - cpu_seconds(pid) + sum(
        cpu_seconds(k, True) for k in descendants(pid))


def slope_per_minute(points: list[tuple[float, float]]) -> float:
    """Least-squares growth of ``(seconds, MiB)`` points, in MiB a minute."""
    if len(points) < 2:
        return float("nan")
    n = len(points)
    mt = sum(t for t, _ in points) / n
    mv = sum(v for _, v in points) / n
    var = sum((t - mt) ** 2 for t, _ in points)
    if var == 0:
        return float("nan")
    return sum((t - mt) * (v - mv) for t, v in points) / var * 60


def growth_after(points: list[tuple[float, float]], warmup: float) -> tuple[float, list[float]]:
    """RSS growth once ``warmup`` seconds of ``(seconds, MiB)`` points are past:
    its least-squares slope (MiB a minute) and each whole minute's change
    after it (the last point at or before each minute's end against the one
    before; the last point of the warm-up starts the count). Caches fill
    during the warm-up; what still grows after it grows with play."""
    after = [(t, v) for t, v in points if t >= warmup]
    if not after:
        return float("nan"), []
    begun = [p for p in points if p[0] <= warmup] or after[:1]
    start_t, previous = begun[-1]
    minutes: list[float] = []
    minute = 1
    while start_t + 60 * minute <= after[-1][0]:
        value = [v for t, v in points if t <= start_t + 60 * minute][-1]
        minutes.append(value - previous)
        previous = value
        minute += 1
    return slope_per_minute(after), minutes
