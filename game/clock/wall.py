"""`WallClock`: the one place in the game that reads real time.

Everything else in `game/` is handed durations in integer nanoseconds, or a `Clock` to call,
never `time` itself. That is what lets a test swap in `ManualClock` (`game.clock.manual`) and
drive the real loop frame by frame with exact numbers. Both are the loop's `FrameSource`
(`timestep_lab.FrameSource`) through `MeasuredFrames`: a frame lasts from one reading to the next.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Protocol

from timestep_lab import NOTHING_RAN, NS_PER_MS, NS_PER_SECOND, FrameRan

BLOCK_SPIN_NS = 2 * NS_PER_MS
"""How much of a stall `block_ns` spins instead of sleeping: more than the OS ever oversleeps
on a quiet machine (about 0.1 to 0.3 ms on Linux), so the stall ends on time, not late."""


class Clock(Protocol):
    """What the loop needs from a clock: read it, and the three ways of letting time pass."""

    def now_ns(self) -> int:
        """A monotonic instant in nanoseconds. Only differences between two readings mean
        anything."""
        ...

    def sleep_ns(self, ns: int) -> None:
        """Give the CPU back to the OS for about `ns`; the OS may wake us late, never early."""
        ...

    def busy_wait_ns(self, ns: int) -> None:
        """Spend exactly `ns` on the CPU: precise to the microsecond, and a real load."""
        ...

    def block_ns(self, ns: int) -> None:
        """Stop the loop for `ns`, accurately, as a GC pause or a breakpoint would."""
        ...


def check_duration(ns: int, what: str = "duration") -> int:
    """Accept a whole, non-negative number of nanoseconds; refuse floats, bools and negatives."""
    if isinstance(ns, bool) or not isinstance(ns, int):
        raise TypeError(f"{what} must be an int of nanoseconds, not {type(ns).__name__} ({ns!r})")
    if ns < 0:
        raise ValueError(f"{what} cannot be negative (got {ns} ns)")
    return ns


class MeasuredClock(Clock, Protocol):
    """A `Clock` that is also the loop's `FrameSource`: what the game loop holds."""

    @property
    def end_ns(self) -> int: ...

    def start_frames(self) -> int: ...

    def next_frame(
        self, ran: FrameRan = NOTHING_RAN, until_ns: Fraction | int | None = None
    ) -> int | None: ...


class MeasuredFrames:
    """The `FrameSource` of a clock that is read: a frame lasts from one reading to the next.

    `start_frames` reads the clock where the first frame begins (the loop calls it once it has
    drawn its first picture, so that the warm-up is no frame's time)."""

    _origin_ns = 0
    _frame_end_ns = 0

    def now_ns(self) -> int:
        raise NotImplementedError

    def start_frames(self) -> int:
        """Count frames from now on; return the reading they start at."""
        self._origin_ns = self._frame_end_ns = start = self.now_ns()
        return start

    @property
    def end_ns(self) -> int:
        return self._frame_end_ns - self._origin_ns

    def next_frame(
        self, ran: FrameRan = NOTHING_RAN, until_ns: Fraction | int | None = None
    ) -> int | None:
        """The time since the last frame ended, read now. `ran` is not needed (the loop gives
        none): its ticks' cost and its stall have really taken their time
        (`FrameSource.next_frame` says the rest)."""
        now = self.now_ns()
        if until_ns is not None and now - self._origin_ns > until_ns:
            return None
        elapsed, self._frame_end_ns = now - self._frame_end_ns, now
        return elapsed


class WallClock(MeasuredFrames):
    """Real time, from `time.perf_counter_ns()`: monotonic, integer, the finest clock Python has.

    `time.time()` can jump when the system clock is set; `time.monotonic()` is a float. The
    performance counter is neither, so frame times are exact differences of two integers.
    """

    def __init__(self) -> None:
        self.start_frames()

    def now_ns(self) -> int:
        return time.perf_counter_ns()

    def sleep_ns(self, ns: int) -> None:
        # A float only at the OS boundary, where the waiting happens: `time.sleep` takes seconds.
        # Its rounding (well under 1 ns) is lost in the OS's own oversleep of a tenth of a ms.
        # What the loop measures and hands on stays integer nanoseconds.
        if check_duration(ns, "sleep") > 0:
            time.sleep(ns / NS_PER_SECOND)

    def busy_wait_ns(self, ns: int) -> None:
        deadline = time.perf_counter_ns() + check_duration(ns, "busy wait")
        while time.perf_counter_ns() < deadline:
            pass

    def block_ns(self, ns: int) -> None:
        """Sleep for all but the last `BLOCK_SPIN_NS`, then spin: a stall of the length asked.

        Sleeping all of it would end the stall late by the OS's oversleep; spinning all of a
        2 s stall would heat a core for nothing.
        """
        deadline = time.perf_counter_ns() + check_duration(ns, "stall")
        if ns > BLOCK_SPIN_NS:
            time.sleep((ns - BLOCK_SPIN_NS) / NS_PER_SECOND)
        while time.perf_counter_ns() < deadline:
            pass
