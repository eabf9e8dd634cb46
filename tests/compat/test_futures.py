"""compat.futures: a process pool's workers, found and stopped."""

from __future__ import annotations

import concurrent.futures
import os

from fivetowers.compat.futures import pool_processes


def test_a_process_pool_s_workers_by_pid() -> None:
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=1)
    try:
        worker = pool.submit(os.getpid).result(timeout=60)
        processes = pool_processes(pool)
        assert list(processes) == [worker], "re-check compat/futures.py: pool_processes"
        assert processes[worker].pid == worker and processes[worker].is_alive()
    finally:
        # Waited for by the pool's own thread: two threads reaping one child
        # race, and the loser's is_alive() says True of a process long gone.
        pool.shutdown(wait=True, cancel_futures=True)
    assert not processes[worker].is_alive()


def test_other_executors_have_none() -> None:
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(os.getpid).result()
        assert pool_processes(pool) == {}
