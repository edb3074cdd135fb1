"""Worker processes that stop with their command: `worker_pool(n)` instead of
`ProcessPoolExecutor(n)`.

Its workers leave the terminal's signals (Ctrl+C, a closed terminal: sent to every process of
the terminal) to the parent, which stops them with SIGTERM; they stop when it stops, or stop by
themselves when it dies outright; and a worker that dies ends the command in one line
(`WorkerDied`, exit 1) with the others stopped. The stop itself is `game.stopping`'s.

Commands reach it through `game.jobs.local_jobs`, the local engine of the one interface for
running jobs (`game.jobs.Jobs`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from types import FrameType
from typing import ParamSpec, TypeVar

from game.stopping import SIGNALS, Stopped, no_stop_points, stop_point

WORKER_GRACE_S = 3.0
"""How long stopped workers get to clean up their own outputs before they are killed."""
EXIT_WORKER_DIED = 1
_POLL_S = 0.02
_PARENT_POLL_S = 0.5

Result = TypeVar("Result")
Item = TypeVar("Item")
Params = ParamSpec("Params")


class WorkerDied(Exception):
    """A worker process ended without finishing its job (killed, out of memory): the others
    were stopped and nothing was written."""

    def line(self, command: str) -> str:
        return f"{command}: {self}; the other workers were stopped, nothing written"


class WorkerPool:
    """A `ProcessPoolExecutor` whose workers stop with the command (see `worker_pool`)."""

    def __init__(self, executor: ProcessPoolExecutor) -> None:
        self.executor = executor

    def submit(
        self, job: Callable[Params, Result], *args: Params.args, **kwargs: Params.kwargs
    ) -> Future[Result]:
        return self.executor.submit(_in_a_worker, job, *args, **kwargs)  # type: ignore[arg-type]

    def map(self, job: Callable[[Item], Result], items: Sequence[Item]) -> Iterator[Result]:
        """`job(item)` for each item in a worker, the results in the items' order."""
        futures = [self.submit(job, item) for item in items]
        for future in futures:
            yield future.result()


@contextmanager
def worker_pool(workers: int) -> Iterator[WorkerPool]:
    """`workers` processes, forked where the platform can (a fork starts in milliseconds).

    On the way out: a finished block waits for the workers; a stop, a failure or a dead worker
    stops them all (each is asked to clean up, then killed after `WORKER_GRACE_S`), and a dead
    worker becomes `WorkerDied`.
    """
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    executor = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_worker_starts, initargs=(os.getpid(),)
    )
    try:
        pool = WorkerPool(executor)
        with _stop_signals_blocked():  # the first job starts the workers (all, when forked)
            ready = pool.submit(_ready)
        ready.result()
        stop_point("workers")
        yield pool
        executor.shutdown()  # inside: a stop while it waits stops the workers too
    except BrokenProcessPool:
        _stop_workers(executor)
        raise WorkerDied("a worker process died before its job was done") from None
    except BaseException:
        _stop_workers(executor)
        raise


def stop_pool(pool: WorkerPool) -> None:
    """Cancel the pool's jobs not started and stop its workers (`Jobs.stop`)."""
    _stop_workers(pool.executor)


@contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    """The stop signals wait while the workers are made: a new worker has the command's own
    handler until `_worker_starts` puts its own in (and a stop of the command, raised in a
    worker that has only just been forked, would print a traceback from whatever it was
    doing). Signals are masked, not lost: each is delivered when they are unblocked."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: workers are spawned, not forked
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)


def _stop_workers(executor: ProcessPoolExecutor) -> None:
    """Cancel the jobs not started, ask every worker to stop, kill those still there after
    the grace period. (A pool's workers are the only processes the game starts with
    `multiprocessing`, and one pool runs at a time: its workers are the active children.)

    Then wait for the pool's own thread to finish closing its pipes: a command that stops
    exits right after, and Python 3.11's exit hook for the pool wakes that thread through one
    of them, which the thread may be closing at that moment (`OSError: Bad file descriptor`,
    printed as a traceback after the stop's line, as a test saw on one busy core)."""
    manager: threading.Thread | None = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    workers = multiprocessing.active_children()
    for worker in workers:
        worker.terminate()
    for _ in range(round(WORKER_GRACE_S / _POLL_S)):  # no clock read: sleeps are counted
        if not any(worker.is_alive() for worker in workers):
            break
        time.sleep(_POLL_S)
    for worker in workers:
        if worker.is_alive():
            worker.kill()
        worker.join()
    if manager is not None:
        manager.join(WORKER_GRACE_S)  # it ends once it sees its workers gone


_JOB = threading.Event()
"""Set in a worker while it runs a job (a stop then unwinds the job; between jobs it exits)."""


def _worker_starts(parent: int) -> None:
    """A worker leaves Ctrl+C and a closed terminal (sent to every process of the terminal) to
    the parent, which stops it with SIGTERM; and stops by itself if the parent is gone."""
    no_stop_points()
    for number in SIGNALS:
        if number != signal.SIGTERM:
            signal.signal(number, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_stop)
    if hasattr(signal, "pthread_sigmask"):  # made with them blocked: `_stop_signals_blocked`
        signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _worker_stop(number: int, frame: FrameType | None) -> None:
    if not _JOB.is_set():
        os._exit(128 + number)
    _JOB.clear()
    raise Stopped(number)


def _watch_parent(parent: int) -> None:
    """The parent was killed outright (no chance to stop its workers): stop, as it would ask."""
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL_S)
    os.kill(os.getpid(), signal.SIGTERM)


def _ready() -> None:
    """The first job: nothing, so that the workers are up before the command's jobs go."""


def _in_a_worker(
    job: Callable[Params, Result], *args: Params.args, **kwargs: Params.kwargs
) -> Result:
    """Run `job`; on a stop, let its own cleanup run, then leave the process at once (the pool
    would otherwise hand it the next job)."""
    _JOB.set()
    try:
        return job(*args, **kwargs)
    except Stopped as stop:
        os._exit(stop.exit_code)
    finally:
        _JOB.clear()
