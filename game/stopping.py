"""One way to stop: Ctrl+C, a closed terminal and `kill` end every command the same way.

SIGINT (Ctrl+C), SIGHUP (the terminal closed) and SIGTERM (`kill`, a CI timeout) each become a
`Stopped` exception in the main thread. It unwinds through the `finally` blocks and context
managers that own the outputs, so every output is either finished (a recording gets its final,
hashed line) or discarded (a file written under a temporary name is removed, never renamed);
every worker process is stopped; `game.cli` prints one line saying what was kept and exits
128 + the signal's number (130 for Ctrl+C, 143 for SIGTERM, 129 for SIGHUP), as a shell expects.

When a signal becomes `Stopped`:

- before the command starts (`python -m game` installs the handlers before it imports the
  game, `stops_from_the_start`): the signal is noted, and the command stops as it starts, with
  "nothing written";
- while it runs, at once, wherever the program is (as Python's own `KeyboardInterrupt` is),
  which is safe for any command whose outputs are written whole or not at all;
- or, inside `holding_stops()`, only at the next `clean_point()`: the headless runner holds
  stops for the length of a run and looks once a frame, so a run stops between two frames, at
  a tick boundary, where a recording's final hash is one a replay reproduces;
- after the command has finished, its outputs whole: never. The signal is noted and ignored,
  and the command exits with its own code. Nothing dies by a signal's default action.

A second signal while the first unwinds is ignored: stopping is short (files removed, workers
given their grace period, then killed: `game.worker_pool`).

Every command run by `game.cli` runs inside `stops_cleanly()`, so a new command stops cleanly
with no code of its own. What it may add, one line each:

- an output written whole (`game.workshop.files.output.written_whole`, the recorder) calls
  `wrote(path)` once it has its name, and the stop's line lists it: nothing else to do;
- to keep something else on a stop, say so: `except Stopped as stop: stop.kept.append(...)`;
- to run work in processes, use `game.jobs.local_jobs(job, n)` (over `game.worker_pool`).

Stop points: stopping a command at a known moment
-------------------------------------------------
A test that stops a command "mid-run" must know the command is mid-run; guessing from the CPU
time it has used or the files that have appeared holds only on a machine as fast as the one
the guess was made on. With `TIMESTEP_LAB_STOP_AT=NAME` in its environment, a command that
reaches the point NAME writes `at NAME` and a line end to stderr, then waits for a stop
signal, and stops as it would have stopped had the signal come at that moment. Each point is
reached once at most (the first time), in the command's own process (never in a worker); SIGUSR1
lets it go on without stopping. With the variable unset nothing waits and nothing is printed.
The points (`POINTS`):

- `imports`: every command, its stop handlers in, before the game's modules are imported;
- `output`: the first output file is open under its temporary name (`--out`'s files, a
  recording, a clip, a figure): the commands that write files;
- `workers`: the worker processes are up, and no job has been handed to them yet (`sweep`,
  `handout`, `lessons --check`, `capture --workers`);
- `files`: a `capture PATH...` batch has its first file's figures back (and its folder, with
  `--out`), and the other files are not all done; with `--workers 1` they wait to be read;
- `run`: a headless run is about to run its first frame; stops are held, so the run stops at
  that frame's tick boundary (`simulate`, `compare`, `replay`, `judder`, `lessons`);
- `rows`: a table's heading is printed and its first row is not (`schedule`, `judder`);
- `window`: the game's loop has drawn its first picture, before its first frame (`play`, and
  `clip`, which films the game's loop);
- `frame`: the live `--capture` is about to wait out a captured frame longer than a slice of
  its wait (`game.clock.captured`: a loading screen's frame of seconds), in `play`;
- `done`: every command, its work done and its outputs whole; a stop here changes nothing.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that ask a program to stop (SIGHUP and SIGTERM exist only on POSIX)."""
KEPT_NAMED = 4
"""Finished outputs a stopped command names in its one line; the rest are counted."""
STOP_AT = "TIMESTEP_LAB_STOP_AT"
"""The environment variable that names the stop point to wait at."""
POINTS = ("imports", "output", "workers", "files", "run", "rows", "window", "frame", "done")
"""The stop points, in the order a command may reach them (the module's docstring says where)."""
_GO_ON: signal.Signals | None = getattr(signal, "SIGUSR1", None)
"""The signal (POSIX only) that lets a command waiting at a stop point go on without stopping
(a test that kills a worker first, say)."""
_WAIT_S = 0.01
"""How often a command waiting at a stop point looks whether a signal came."""


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


class _Stops:
    """The process's one record of stop signals (a module-level instance: the signal handler
    and the runner's frame loop both read it, and a read must cost nothing)."""

    def __init__(self) -> None:
        self.pending = 0
        """The signal number waiting to become `Stopped` (at a clean point, or as the command
        starts), or 0."""
        self.raised = False
        """A `Stopped` is already on its way: later signals are ignored."""
        self.running = False
        """A command runs (inside `stops_cleanly`): a signal may become `Stopped`. Before and
        after, it is only noted."""
        self.holding = 0
        self.installed = False
        """The handlers are in for the whole process (`stops_from_the_start`)."""
        self.heard = 0
        """The first stop signal that came, whoever handled it (a stop point waits for it)."""
        self.written: list[str] = []
        """The outputs finished under their names since the command started (`wrote`)."""
        self.stop_at: str | None = os.environ.get(STOP_AT) or None
        """The stop point to wait at (`STOP_AT`), until it is reached."""

    def handle(self, number: int, frame: FrameType | None) -> None:
        self.heard = self.heard or number
        if self.raised or self.pending:
            return
        if self.holding or not self.running:
            self.pending = number
            return
        self.raised = True
        raise Stopped(number)

    def stop_now(self) -> None:
        number, self.pending = self.pending, 0
        self.raised = True
        raise Stopped(number)


STOPS = _Stops()


def stops_from_the_start() -> None:
    """`python -m game`'s first act: from here until the process exits, a stop signal is never
    fatal. Before the command starts it is noted (the command then stops as it starts); after
    the command ends it is ignored."""
    for number in SIGNALS:
        signal.signal(number, STOPS.handle)
    STOPS.installed = True


@contextmanager
def stops_cleanly() -> Iterator[None]:
    """Within it, SIGINT, SIGTERM and SIGHUP raise `Stopped` (one that came before it raises
    as it starts). Once it ends, a signal is only noted; handlers it put in itself (a caller
    that did not start with `stops_from_the_start`, a test) are taken out again. (Signals can
    only be handled in the main thread; elsewhere this does nothing.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    if not STOPS.installed:
        previous = {number: signal.signal(number, STOPS.handle) for number in SIGNALS}
        STOPS.pending, STOPS.raised, STOPS.heard = 0, False, 0
    STOPS.written = []
    STOPS.running = True
    try:
        clean_point()  # a signal that came during the imports
        yield
    finally:
        STOPS.running = False
        for number, handler in previous.items():
            signal.signal(number, handler)


def ignore_stops() -> None:
    """The command has finished and its exit code is decided: a late stop signal is ignored,
    through the interpreter's own shutdown (which would put the default, fatal, action back)."""
    for number in SIGNALS:
        signal.signal(number, signal.SIG_IGN)


def wrote(output: str) -> None:
    """An output is finished under its name (a stop now keeps it): the writers of outputs
    call this once a file is whole, so a stop can say what it kept."""
    STOPS.written.append(output)


@contextmanager
def outputs_of_a_whole() -> Iterator[None]:
    """Within it, finished outputs are not listed one by one in a stop's line: they are parts
    of one output (a file's folder in a `capture` batch) whose owner says what it kept."""
    listed = len(STOPS.written)
    try:
        yield
    finally:
        del STOPS.written[listed:]


@contextmanager
def holding_stops() -> Iterator[None]:
    """Within it, a stop signal waits for `clean_point()` (or the end of the block)."""
    STOPS.holding += 1
    try:
        yield
    finally:
        STOPS.holding -= 1
    if STOPS.pending and not STOPS.holding and STOPS.running:
        STOPS.stop_now()


def clean_point() -> None:
    """Raise `Stopped` here if a stop signal is waiting. (A hot loop may test
    `STOPS.pending` itself, and call this only when it is set.)"""
    if STOPS.pending:
        STOPS.stop_now()


def heard(number: int) -> None:
    """A handler of the command's own (the game's, which quits at the next tick boundary) says
    that a stop signal came, so that a stop point waiting for one goes on."""
    STOPS.heard = STOPS.heard or number


def stop_point(name: str) -> None:
    """If `TIMESTEP_LAB_STOP_AT` names this point (see the module's docstring), say so on
    stderr and wait for a stop signal; then go on as the signal says (it raises `Stopped` here
    while a command runs, or waits for the next clean point while stops are held)."""
    if STOPS.stop_at != name:
        return
    STOPS.stop_at = None
    go_on: list[int] = []
    previous = None if _GO_ON is None else signal.signal(_GO_ON, lambda n, f: go_on.append(n))
    try:
        sys.stderr.write(f"at {name}\n")
        sys.stderr.flush()
        while not (STOPS.heard or go_on):  # a test device: it waits on a signal, not a duration
            time.sleep(_WAIT_S)
    finally:
        if _GO_ON is not None:
            signal.signal(_GO_ON, previous)


def unknown_stop_point() -> str | None:
    """The value of `TIMESTEP_LAB_STOP_AT` if it names no point (a typo would wait nowhere)."""
    return STOPS.stop_at if STOPS.stop_at not in (None, *POINTS) else None


def no_stop_points() -> None:
    """A worker process waits at no point: the command's own process does."""
    STOPS.stop_at = None
