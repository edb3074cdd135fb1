"""`ManualClock`: a `Clock` whose time moves only when something spends it.

Sleeping, spinning and stalling simply move the hands forward, and `move_on` stands for the
frame's own work. Handed to the real loop or the pacer instead of `WallClock`, it makes every
frame time an exact, repeatable number: tests assert `== 16_666_666`, not "about 16.7 ms".
"""

from __future__ import annotations

from game.clock.wall import MeasuredFrames, check_duration


class ManualClock(MeasuredFrames):
    """A deterministic stand-in for `WallClock`, with running totals of how time was spent.

    `oversleep_ns` makes every `sleep_ns` wake that much late, as a real OS does, so the pacer's
    answer to a late wake-up can be tested exactly too.
    """

    def __init__(self, start_ns: int = 0, *, oversleep_ns: int = 0) -> None:
        if isinstance(start_ns, bool) or not isinstance(start_ns, int):
            raise TypeError(f"start_ns must be an int (got {start_ns!r})")
        self._now_ns = start_ns
        self.oversleep_ns = check_duration(oversleep_ns, "oversleep")
        self.slept_ns = 0
        """Total time spent in `sleep_ns`, oversleep included."""
        self.spun_ns = 0
        """Total time spent in `busy_wait_ns`."""
        self.blocked_ns = 0
        """Total time spent in `block_ns`."""
        self.sleeps = 0
        """How many times `sleep_ns` was called with a positive duration."""
        self.start_frames()

    def now_ns(self) -> int:
        return self._now_ns

    def move_on(self, ns: int) -> None:
        """Let `ns` pass as if the program were busy with something else (a frame's work)."""
        self._now_ns += check_duration(ns, "advance")

    def sleep_ns(self, ns: int) -> None:
        if check_duration(ns, "sleep") > 0:
            slept = ns + self.oversleep_ns
            self._now_ns += slept
            self.slept_ns += slept
            self.sleeps += 1

    def busy_wait_ns(self, ns: int) -> None:
        self._now_ns += check_duration(ns, "busy wait")
        self.spun_ns += ns

    def block_ns(self, ns: int) -> None:
        self._now_ns += check_duration(ns, "stall")
        self.blocked_ns += ns
