"""One way to stop: Ctrl+C, a closed terminal and `kill` end every command the same way.

SIGINT (Ctrl+C), SIGHUP (the terminal closed) and SIGTERM (`kill`, a CI timeout) each become a
`Stopped` exception in the main thread. It unwinds through the `finally` blocks and context
managers that own the outputs, so every output is either finished (a recording gets its final,
hashed line) or discarded (a file written under a temporary name is removed, never renamed);
every worker process is stopped; `game.cli` prints one line saying what was kept and exits
128 + the signal's number (130 for Ctrl+C, 143 for SIGTERM, 129 for SIGHUP), as a shell expects.

Where the exception is raised:

- at once, wherever the program is (as Python's own `KeyboardInterrupt` is), which is safe for
  any command whose outputs are written whole or not at all;
- or, inside `holding_stops()`, only at the next `clean_point()`: the headless runner holds
  stops for the length of a run and looks once a frame, so a run stops between two frames, at
  a tick boundary, where a recording's final hash is one a replay reproduces.

A second signal while the first unwinds is ignored: stopping is short (files removed, workers
given `WORKER_GRACE_S` to clean up, then killed).

Every command run by `game.cli` runs inside `stops_cleanly()`, so a new command stops cleanly
with no code of its own. What it may add, one line each:

- an output written whole (`game.workshop.files.output.written_whole`, the recorder) calls
  `wrote(path)` once it has its name, and the stop's line lists it: nothing else to do;
- to keep something else on a stop, say so: `except Stopped as stop: stop.kept.append(...)`;
- to run work in processes, use `worker_pool(n)` instead of `ProcessPoolExecutor(n)`: its
  workers leave the terminal's signals to the parent, stop when it stops (or dies), and a worker
  that dies ends the command in one line (`WorkerDied`, exit 1) with the others stopped.
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

SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that ask a program to stop (SIGHUP and SIGTERM exist only on POSIX)."""
WORKER_GRACE_S = 3.0
"""How long stopped workers get to clean up their own outputs before they are killed."""
EXIT_WORKER_DIED = 1
_POLL_S = 0.02
_PARENT_POLL_S = 0.5
KEPT_NAMED = 4
"""Finished outputs a stopped command names in its one line; the rest are counted."""

Result = TypeVar("Result")
Item = TypeVar("Item")
Params = ParamSpec("Params")


class Stopped(BaseException):
    """A stop signal came. A `BaseException`, as `KeyboardInterrupt` is, so that no
    `except Exception` on the way takes it for an error of its own.

    `kept` lists what the command keeps, in a few words each, added as the stop unwinds
    through the code that owns each output.
    """

    def __init__(self, number: int) -> None:
        super().__init__(signal.Signals(number).name)
        self.number = number
        self.kept: list[str] = []

    @property
    def name(self) -> str:
        return signal.Signals(self.number).name

    @property
    def exit_code(self) -> int:
        """128 + the signal's number: what a shell expects of a program a signal ended."""
        return 128 + self.number

    def line(self, command: str) -> str:
        """The one line a stopped command prints: what it kept, the outputs it had finished
        (`wrote`) and anything noted in `kept`; unfinished outputs were discarded."""
        kept = [*STOPS.written, *self.kept]
        if len(kept) > KEPT_NAMED:
            kept[KEPT_NAMED - 1 :] = [f"{len(kept) - KEPT_NAMED + 1} more"]
        said = "kept " + ", ".join(kept) if kept else "nothing written"
        return f"{command}: stopped by {self.name}; {said}"


class WorkerDied(Exception):
    """A worker process ended without finishing its job (killed, out of memory): the others
    were stopped and nothing was written."""

    def line(self, command: str) -> str:
        return f"{command}: {self}; the other workers were stopped, nothing written"


class _Stops:
    """The process's one record of stop signals (a module-level instance: the signal handler
    and the runner's frame loop both read it, and a read must cost nothing)."""

    def __init__(self) -> None:
        self.pending = 0
        """The signal number waiting for a clean point, or 0."""
        self.raised = False
        """A `Stopped` is already on its way: later signals are ignored."""
        self.holding = 0
        self.written: list[str] = []
        """The outputs finished under their names since the command started (`wrote`)."""

    def handle(self, number: int, frame: FrameType | None) -> None:
        if self.raised or self.pending:
            return
        if self.holding:
            self.pending = number
            return
        self.raised = True
        raise Stopped(number)

    def stop_now(self) -> None:
        number, self.pending = self.pending, 0
        self.raised = True
        raise Stopped(number)


STOPS = _Stops()


@contextmanager
def stops_cleanly() -> Iterator[None]:
    """Within it, SIGINT, SIGTERM and SIGHUP raise `Stopped`; the previous handlers come back
    after. (Signals can only be handled in the main thread; elsewhere this does nothing.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, STOPS.handle) for number in SIGNALS}
    STOPS.pending, STOPS.raised, STOPS.written = 0, False, []
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def wrote(output: str) -> None:
    """An output is finished under its name (a stop now keeps it): the writers of outputs
    call this once a file is whole, so a stop can say what it kept."""
    STOPS.written.append(output)


@contextmanager
def holding_stops() -> Iterator[None]:
    """Within it, a stop signal waits for `clean_point()` (or the end of the block)."""
    STOPS.holding += 1
    try:
        yield
    finally:
        STOPS.holding -= 1
    if STOPS.pending and not STOPS.holding:
        STOPS.stop_now()


def clean_point() -> None:
    """Raise `Stopped` here if a stop signal is waiting. (A hot loop may test
    `STOPS.pending` itself, and call this only when it is set.)"""
    if STOPS.pending:
        STOPS.stop_now()


# -- worker processes ---------------------------------------------------------------------------


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
        yield WorkerPool(executor)
        executor.shutdown()  # inside: a stop while it waits stops the workers too
    except BrokenProcessPool:
        _stop_workers(executor)
        raise WorkerDied("a worker process died before its job was done") from None
    except BaseException:
        _stop_workers(executor)
        raise


def _stop_workers(executor: ProcessPoolExecutor) -> None:
    """Cancel the jobs not started, ask every worker to stop, kill those still there after
    the grace period. (A pool's workers are the only processes the game starts with
    `multiprocessing`, and one pool runs at a time: its workers are the active children.)"""
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


_JOB = threading.Event()
"""Set in a worker while it runs a job (a stop then unwinds the job; between jobs it exits)."""


def _worker_starts(parent: int) -> None:
    """A worker leaves Ctrl+C and a closed terminal (sent to every process of the terminal) to
    the parent, which stops it with SIGTERM; and stops by itself if the parent is gone."""
    for number in SIGNALS:
        if number != signal.SIGTERM:
            signal.signal(number, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_stop)
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
