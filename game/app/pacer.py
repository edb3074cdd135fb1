"""`FramePacer`: holds the render-rate cap with deadlines, a sleep, and a short spin.

Why not `pygame.time.Clock.tick(60)`? It works in whole milliseconds: it truncates the frame
budget 1000/60 to 16 ms and measures the frame with a millisecond counter, so asked for 60 fps
it runs at about 1000/16 = 62.5 fps (and asked for 144, at 1000/6 = 167). It also counts each
budget from the moment the previous `tick` returned, so every late wake-up of the OS is added
to the frame for good. This pacer instead keeps a schedule of exact deadlines:

    deadline of frame n = anchor + n * 1_000_000_000 // fps      (integer nanoseconds)

Counting frames from one anchor means the error is under 1 ns at any frame, after a minute or a
day: there is no per-frame rounding to pile up. To reach a deadline it sleeps until a margin
before it (`time.sleep` wakes late, by a tenth of a millisecond to a millisecond or more), then
spins on the clock for the last stretch, which is accurate to the microsecond.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction

from game.clock.wall import Clock, check_duration
from timestep_lab import NS_PER_MS, NS_PER_SECOND, hz_to_step_ns

MAX_CAP_FPS = 1_000
"""Above this the frame is shorter than a sleep's own lateness; "uncapped" is the honest cap."""


def check_cap(fps: object) -> int | None:
    """Accept a whole number of frames per second from 1 to `MAX_CAP_FPS`, or None (uncapped)."""
    if fps is None:
        return None
    if isinstance(fps, bool) or not isinstance(fps, int):
        raise TypeError(
            f"render cap must be a whole number of frames per second or None (uncapped), "
            f"not {type(fps).__name__} (got {fps!r})"
        )
    if not 1 <= fps <= MAX_CAP_FPS:
        raise ValueError(f"render cap must be between 1 and {MAX_CAP_FPS} fps (got {fps})")
    return fps


class SleepMargin:
    """How long before a deadline the pacer stops sleeping and starts spinning.

    Too small, and a late wake-up from the OS makes the frame late; too large, and the spin
    burns CPU for nothing. So the margin learns: it is the worst oversleep among the last
    `window` sleeps plus `slack_ns`, kept between `floor_ns` and `ceiling_ns`. It starts at
    `initial_ns`, before anything has been measured. The window is long (256 sleeps: about 2 s
    at 144 fps) because a noisy machine is noisy in bursts: one very late wake-up warns of more.
    """

    def __init__(
        self,
        initial_ns: int = 2 * NS_PER_MS,
        *,
        floor_ns: int = NS_PER_MS // 2,
        ceiling_ns: int = 4 * NS_PER_MS,
        slack_ns: int = NS_PER_MS // 4,
        window: int = 256,
    ) -> None:
        for value, what in (
            (initial_ns, "initial margin"),
            (floor_ns, "margin floor"),
            (ceiling_ns, "margin ceiling"),
            (slack_ns, "margin slack"),
        ):
            check_duration(value, what)
        if floor_ns > ceiling_ns:
            raise ValueError(f"margin floor {floor_ns} ns is above the ceiling {ceiling_ns} ns")
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise ValueError(f"margin window must be a whole number of sleeps >= 1 ({window!r})")
        self.floor_ns = floor_ns
        self.ceiling_ns = ceiling_ns
        self.slack_ns = slack_ns
        self._oversleeps: deque[int] = deque(maxlen=window)
        self._ns = self._clamp(initial_ns)

    @classmethod
    def fixed(cls, ns: int) -> SleepMargin:
        """A margin that never moves: handy for exact tests and for comparing settings."""
        return cls(ns, floor_ns=ns, ceiling_ns=ns)

    @property
    def ns(self) -> int:
        return self._ns

    def record(self, oversleep_ns: int) -> None:
        """Learn from one sleep that woke `oversleep_ns` after it was asked to."""
        self._oversleeps.append(max(0, oversleep_ns))
        self._ns = self._clamp(max(self._oversleeps) + self.slack_ns)

    def _clamp(self, ns: int) -> int:
        return min(max(ns, self.floor_ns), self.ceiling_ns)


class FramePacer:
    """Ends each frame on its deadline; the app calls `wait(clock)` once per frame, last.

    If a frame overran its deadline by more than a whole period (a stall, a dragged window), the
    schedule is re-anchored at that moment instead of racing to catch up: catching up would mean
    a burst of unpaced frames, and a frame rate is not a debt. A frame late by less than a period
    keeps the schedule, so the next frame is a little shorter and the average rate stays exact.
    """

    def __init__(self, cap_fps: int | None = 60, *, margin: SleepMargin | None = None) -> None:
        self._cap = check_cap(cap_fps)
        self.margin = margin if margin is not None else SleepMargin()
        self._anchor_ns: int | None = None
        """When frame 0 of the current schedule started; None until the first `wait`."""
        self._frames = 0
        """Frames ended on this schedule since the anchor."""
        self.reanchors = 0
        """How many times a stall made the pacer start a new schedule."""

    @property
    def cap_fps(self) -> int | None:
        return self._cap

    @property
    def period_ns(self) -> Fraction | None:
        """The exact frame period (1/144 s is 62,500,000/9 ns), or None when uncapped."""
        return None if self._cap is None else hz_to_step_ns(self._cap)

    @property
    def next_deadline_ns(self) -> int | None:
        """When the frame in flight should end, or None if uncapped or not started yet."""
        if self._cap is None or self._anchor_ns is None:
            return None
        return self._deadline(self._frames + 1)

    def set_cap(self, fps: int | None) -> None:
        """Change the cap between two frames; a bad value raises and changes nothing.

        The new schedule is anchored where the frame in flight started, so that frame already
        gets the new period: no frame is skipped, none runs unpaced.
        """
        fps = check_cap(fps)
        if self._anchor_ns is not None and self._cap is not None:
            self._anchor_ns = self._deadline(self._frames)
        self._frames = 0
        self._cap = fps

    def wait(self, clock: Clock) -> int:
        """Wait for the end of this frame's period and return how long that took, in ns.

        The first call only sets the anchor (there is no frame before it to measure from).
        Frame time minus this wait is the frame's own work.
        """
        now = clock.now_ns()
        if self._cap is None or self._anchor_ns is None:
            self._start_schedule(now)
            return 0
        deadline = self._deadline(self._frames + 1)
        late_ns = now - deadline
        if late_ns * self._cap > NS_PER_SECOND:  # late by more than a period: a stall
            self._start_schedule(now)
            self.reanchors += 1
            return 0
        self._frames += 1
        if late_ns >= 0:
            return 0
        self._sleep_until(clock, now, deadline - self.margin.ns)
        spin_ns = deadline - clock.now_ns()
        if spin_ns > 0:
            clock.busy_wait_ns(spin_ns)
        return clock.now_ns() - now

    def _sleep_until(self, clock: Clock, now: int, wake_at: int) -> None:
        """Sleep until `wake_at` if it is still ahead, and learn how late the OS woke us."""
        sleep_ns = wake_at - now
        if sleep_ns > 0:
            clock.sleep_ns(sleep_ns)
            self.margin.record(clock.now_ns() - wake_at)

    def _start_schedule(self, now: int) -> None:
        self._anchor_ns = now
        self._frames = 0

    def _deadline(self, frame: int) -> int:
        assert self._anchor_ns is not None and self._cap is not None
        return self._anchor_ns + frame * NS_PER_SECOND // self._cap
