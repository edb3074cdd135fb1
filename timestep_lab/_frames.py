"""`FrameSource`: where each frame's length comes from, the one seam between time and a frame.

A real-time loop and a headless run do the same thing at the start of a frame: ask a source how
long the next frame lasts, and hand that to the scheduler. Only the answer differs. In Timestep
Lab, for instance:

    source                          the next frame lasts
    the wall clock (a test's manual one)  as long as it really took: read, the one real clock
    a virtual clock                 max(budget, render cost + ticks x step cost) + jitter + stall
    a modelled display              until the swap chain lets the next frame start (vsync, queue)
    recorded frames                 the next length in a list (a capture; a test's frames)

As httpx's `BaseTransport.handle_request` is the whole contract between a client and the network,
`FrameSource.next_frame` is the whole contract between a loop and time: anything that answers it
runs a loop's frames, and a list of lengths makes a test a one-liner.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple, Protocol


class FrameRan(NamedTuple):
    """What the frame that just ended ran: everything a source may use to say how long the next
    one lasts (a NamedTuple: one is made every frame)."""

    steps: int = 0
    """How many ticks it ran: their cost is what the next frame waits for."""
    step_cost_ns: Fraction | int = 0
    """What each of those ticks cost, exactly."""
    stall_ns: Fraction | int = 0
    """A stall held at the boundary since (a GC pause, a breakpoint): the next frame's too."""


NOTHING_RAN = FrameRan()
"""Before the first frame: no ticks, no cost, no stall."""


class FrameSource(Protocol):
    """Where each frame's elapsed time comes from (see the module's table)."""

    @property
    def end_ns(self) -> Fraction | int:
        """Where the last frame ended, exactly, in ns since the source's first frame began (0
        before it): the time a run's wall-clock events (a knob turned, a stall) are due at."""
        ...

    def next_frame(self, ran: FrameRan, until_ns: Fraction | int | None = None) -> int | None:
        """Move on to the end of the next frame and return its length: the `elapsed_ns` for
        `session.begin`. Call it once per frame, when the frame begins.

        In: `ran`, what the frame that just ended ran (`NOTHING_RAN` before the first). A computed
        source makes the next frame's length from it; a measured one (the wall) does not need it,
        since that work has really taken its time. `until_ns`, if given, is where the caller stops:
        a frame that would end after it is not begun.
        Out: the length in whole nanoseconds, never negative. The lengths add up to the whole ns
        of `end_ns`, so nothing is lost to rounding however long the run (a computed source's exact
        boundaries may fall between two ns: each length is the difference of two floored ones).
        None, and the source stays where it was, when the frame would end after `until_ns` or the
        source has no frame left (a recording played to its end).
        """
        ...
