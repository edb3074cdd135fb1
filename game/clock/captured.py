"""`CapturedClock`: the live game's frames, each as long as a real game's captured frame was.

`python -m game --capture FILE` plays a capture (PresentMon, CapFrameX, MangoHud, our own
`--frame-log`) in the window: each frame hands the scheduler the capture's next length, exactly,
so the policies plan what they would plan for that game, and a room watches its hitches live.

One owner of time: this clock reads nothing itself. It is handed the machine's clock (the loop's
`WallClock`, or a `ManualClock` in a test) and only the loop calls it, as it calls any clock:

- **Time is the capture's.** A frame lasts the capture's length (plus a stall asked for with S,
  which lands in the frame in flight, as it would in the game). Within a frame the clock moves
  with real time but never past the frame's end, so it never runs backwards.
- **Pacing.** `wait_out_frame` (the loop's pacer, while a capture runs) sleeps and spins on the
  real clock until the frame has lasted its length in real time: a 277 ms hitch is 277 ms on
  screen. A captured frame may last seconds (a loading screen) or, in a hostile file, a year:
  the wait is slept in slices of at most `WAIT_SLICE_NS`, and after each the loop's `between`
  is asked (it keeps the window answering and says whether to quit: a stop signal, the close
  button), so a stop acts within a slice, never at the frame's end.
- **Stretched frames.** A frame shorter than this laptop can draw (or than the ticks' step cost,
  which is burnt for real) ends late in real time. The scheduler is still handed the capture's
  length, so the plans stay the capture's; only the picture lags. Each such frame is counted
  (`stretched`, with the real time it ran over in `stretched_ns`), and the HUD says so.
- **At the end** the capture starts again from its first frame (`passes` counts the rounds, and
  the HUD shows it): a room watches a hitch come round again. `loop=False` stops instead: the
  loop ends when the capture does (tests). The frames are the capture's, read once when it was
  opened (a pipe cannot be read twice): each round hands them out again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import PurePath
from typing import Protocol

from game.clock.wall import MeasuredClock
from game.stopping import stop_point
from timestep_lab import NOTHING_RAN, NS_PER_MS, FrameRan

SPIN_NS = NS_PER_MS
"""How much of a frame's wait `wait_out_frame` spins rather than sleeps: an OS wakes a sleeper up
to a millisecond late, so the frame still ends on time."""
WAIT_SLICE_NS = 50 * NS_PER_MS
"""The longest sleep of a frame's wait before the loop is asked whether to go on: a stop acts
within 100 ms (a slice, and the loop's next poll)."""
STOP_POINT = "frame"
"""The stop point (`game.stopping`) reached the first time a frame's wait is longer than a
slice: a test stops the game there, mid-wait."""


class _Frame(Protocol):
    @property
    def elapsed_ns(self) -> int: ...


class _Info(Protocol):
    @property
    def path(self) -> str: ...

    @property
    def frames(self) -> int: ...


class Playable(Protocol):
    """What of a capture (`game.capture.frame.Capture`) the clock plays: its frames' lengths."""

    @property
    def info(self) -> _Info: ...

    def frames(self) -> Iterator[_Frame]: ...


class CapturedClock:
    """A `MeasuredClock` whose frames last a capture's frame lengths (see the module's docstring).

    `frames` makes the capture's lengths afresh for each round (a capture is streamed from its
    file, never held whole); `name` and `count` (its number of frames) are for the HUD.
    """

    def __init__(
        self,
        real: MeasuredClock,
        frames: Callable[[], Iterable[int]],
        *,
        name: str,
        count: int,
        loop: bool = True,
    ) -> None:
        self.real = real
        self.name = name
        self.count = count
        self.loop = loop
        self._frames = frames
        self._lengths: Iterator[int] = iter(frames())
        self.position = 0
        """The capture's frame in flight, from 1 (0 before the first)."""
        self.passes = 1
        """Which round of the capture is playing (2 once it has started again)."""
        self.stretched = 0
        """Frames that ran longer in real time than their captured length."""
        self.stretched_ns = 0
        """The real time those frames ran over, in total."""
        self._pending: int | None = None
        """The length of the frame in flight (None: the capture has ended)."""
        self._stall_ns = 0
        self._time_ns = self._origin_ns = 0
        self._real_mark = real.now_ns()
        self._take_next()

    @classmethod
    def playing(cls, real: MeasuredClock, capture: Playable, *, loop: bool = True) -> CapturedClock:
        """`capture`'s frames (each its `elapsed_ns`), paced on `real`, named by its file."""

        def lengths() -> Iterator[int]:
            return (frame.elapsed_ns for frame in capture.frames())

        name = PurePath(capture.info.path).name
        return cls(real, lengths, name=name, count=capture.info.frames, loop=loop)

    # -- the `Clock` ----------------------------------------------------------------------------

    def now_ns(self) -> int:
        """The capture's time: real time since the frame began, up to the frame's length."""
        spent = self.real.now_ns() - self._real_mark
        return self._time_ns + min(spent, self._length_now())

    def sleep_ns(self, ns: int) -> None:
        self.real.sleep_ns(ns)

    def busy_wait_ns(self, ns: int) -> None:
        """A tick's step cost: burnt for real (the laptop's work), the capture's time unmoved."""
        self.real.busy_wait_ns(ns)

    def block_ns(self, ns: int) -> None:
        """A stall: really blocked, and added to the frame in flight, which it lengthens."""
        self.real.block_ns(ns)
        self._stall_ns += ns

    def wait_out_frame(self, between: Callable[[], bool] | None = None) -> int:
        """Wait, on the real clock, until the frame in flight has lasted its length, in slices of
        at most `WAIT_SLICE_NS`, `between()` asked after each (True: stop waiting, the game is
        quitting); how long that took (0 for a frame already late: it is stretched)."""
        start = self.real.now_ns()
        left = self._length_now() - (start - self._real_mark)
        if left <= 0:
            return 0
        if left > WAIT_SLICE_NS:
            stop_point(STOP_POINT)
        while left > SPIN_NS:
            self.real.sleep_ns(min(left - SPIN_NS, WAIT_SLICE_NS))
            if between is not None and between():
                return self.real.now_ns() - start
            left = self._length_now() - (self.real.now_ns() - self._real_mark)
        if left > 0:
            self.real.busy_wait_ns(left)
        return self.real.now_ns() - start

    # -- the `FrameSource` ----------------------------------------------------------------------

    def start_frames(self) -> int:
        """Count frames from here: the frame in flight begins now, in real time."""
        self._real_mark = self.real.now_ns()
        self._origin_ns = self._time_ns
        return self._time_ns

    @property
    def end_ns(self) -> int:
        return self._time_ns - self._origin_ns

    def next_frame(
        self, ran: FrameRan = NOTHING_RAN, until_ns: Fraction | int | None = None
    ) -> int | None:
        """The captured length of the frame that just ended (with any stall); a frame that took
        longer in real time is counted as stretched. None once the capture has ended (and does
        not loop), or when the frame would end after `until_ns`."""
        if self._pending is None:
            return None
        length = self._length_now()
        if until_ns is not None and self.end_ns + length > until_ns:
            return None
        now = self.real.now_ns()
        over = now - self._real_mark - length
        if over > 0:
            self.stretched += 1
            self.stretched_ns += over
        self._time_ns += length
        self._real_mark = now
        self._stall_ns = 0
        self._take_next()
        return length

    def _length_now(self) -> int:
        return (self._pending or 0) + self._stall_ns

    def _take_next(self) -> None:
        """The next captured length; at the end, the first again (or None without `loop`)."""
        length = next(self._lengths, None)
        if length is None and self.loop and self.position > 0:
            self._lengths = iter(self._frames())
            self.passes += 1
            self.position = 0
            length = next(self._lengths, None)
        self._pending = length
        if length is not None:
            self.position += 1

    # -- what the HUD says ----------------------------------------------------------------------

    def row_text(self) -> str:
        """The capture row: `hitch.csv · 301/600 · round 2 · stretched 4 (52 ms)`."""
        parts = [self.name, f"{self.position:,}/{self.count:,}"]
        if self.passes > 1:
            parts.append(f"round {self.passes}")
        if self.stretched:
            parts.append(f"stretched {self.stretched:,} ({self.stretched_ns / NS_PER_MS:.0f} ms)")
        return " \N{MIDDLE DOT} ".join(parts)
