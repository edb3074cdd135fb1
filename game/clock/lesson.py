"""The lesson clock: a step's claim shown on any laptop, in slow motion.

A lesson says "at 144 fps the balls hug their ghosts" or "12 ms a tick and the loop keeps up".
A laptop that draws at 25 fps cannot show either on the wall clock. So such a step runs on a
clock the game moves itself, as a clip does: every frame lasts what the step says (its render
cap's period, or its ticks' step cost when that is longer), the step cost is counted rather than
burnt, and the picture is shown as soon as the laptop has drawn it. The room then sees what a fast
machine shows, only slower, and the HUD says how much slower: "shown at 0.26x" (the fps row
beside it counts the simulated frames).

Three pieces, none of which reads a clock (the loop hands them durations):

- `LessonClock`: a `ManualClock` whose frames also cost `FRAME_WORK_NS` of drawing, so that an
  uncapped step still lets time pass;
- `SlowMotion`: lesson time against real time over the last second: the simulated frame rate and
  the slow-motion factor;
- `RateWatch`: the real clock's frames against what the lesson clock would have made of them;
  under 90 % over a second, the laptop cannot hold the step's rate and the game falls back.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction

from game.clock.manual import ManualClock
from game.clock.virtual import FrameJitter
from timestep_lab import NOTHING_RAN, NS_PER_MS, NS_PER_SECOND, FrameRan

FRAME_WORK_NS = NS_PER_MS
"""What drawing one frame costs on the lesson clock (a clip counts the same 1 ms): without it an
uncapped step would let no time pass."""
WINDOW_NS = NS_PER_SECOND
"""Both meters look at the last second of real time."""
LEAST_HELD = Fraction(9, 10)
"""Below this share of the step's rate, over a second, the laptop does not hold it."""


class LessonClock(ManualClock):
    """A clock that moves only when the loop spends time on it: sleeping, a tick's step cost
    (counted, not burnt), a stall, and each frame's drawing (`FRAME_WORK_NS`, counted when the
    next frame is measured; the pacer's deadlines make the frame its period all the same).

    Exact frames never show what a real machine's wake-up noise does (a snap that has nothing
    to snap, a 165 Hz judder of 0 %), so a step may ask for a wobble (`wobble_up_to`): each
    frame's drawing also takes a seeded 0 to `max_ns` more, and the frames wobble around their
    period as a clip's and a claims check's do."""

    def __init__(self) -> None:
        super().__init__()
        self.wobble = FrameJitter(0, seed=0)

    def wobble_up_to(self, max_ns: int) -> None:
        """From the next frame on, each frame runs up to `max_ns` past its period; a new bound
        starts the seeded sequence afresh, so a step's wobble is the same every time."""
        if max_ns != self.wobble.max_ns:
            self.wobble = FrameJitter(max_ns, seed=0)

    def next_frame(
        self, ran: FrameRan = NOTHING_RAN, until_ns: Fraction | int | None = None
    ) -> int | None:
        self.move_on(FRAME_WORK_NS + self.wobble.draw_ns())
        return super().next_frame(ran, until_ns)


class SlowMotion:
    """Each frame's lesson time beside the real time it took to show: the slow-motion factor
    over the last second of real time, the simulated frame rate over the last second of lesson
    time (as the fps row counts it)."""

    def __init__(self) -> None:
        self._frames: deque[tuple[int, int]] = deque()
        self._lesson_ns = 0
        self._real_ns = 0

    def clear(self) -> None:
        self._frames.clear()
        self._lesson_ns = self._real_ns = 0

    def shown(self, lesson_ns: int, real_ns: int) -> None:
        """One frame: `lesson_ns` of lesson time, shown in `real_ns` of real time. The oldest
        frame goes once both seconds are whole without it."""
        frames = self._frames
        frames.append((lesson_ns, real_ns))
        self._lesson_ns += lesson_ns
        self._real_ns += real_ns
        while (
            len(frames) > 1
            and self._lesson_ns - frames[0][0] >= WINDOW_NS
            and self._real_ns - frames[0][1] >= WINDOW_NS
        ):
            old_lesson, old_real = frames.popleft()
            self._lesson_ns -= old_lesson
            self._real_ns -= old_real

    @property
    def factor(self) -> Fraction | None:
        """Lesson seconds per real second over the last real second (1/4: four times slower
        than life); None before a frame has taken any real time."""
        lesson = real = 0
        for frame_lesson, frame_real in reversed(self._frames):
            lesson, real = lesson + frame_lesson, real + frame_real
            if real >= WINDOW_NS:
                break
        return Fraction(lesson, real) if real > 0 else None

    @property
    def simulated_fps(self) -> Fraction | None:
        """Frames per second of lesson time, over its last second: the rate the room sees."""
        lesson = count = 0
        for frame_lesson, _ in reversed(self._frames):
            lesson, count = lesson + frame_lesson, count + 1
            if lesson >= WINDOW_NS:
                break
        return Fraction(count * NS_PER_SECOND, lesson) if lesson > 0 else None

    def text(self) -> str:
        """`shown at 0.26x` (or what is known so far). The simulated rate is the fps row's: said
        here too, the row grew so wide that presentation mode fell back to small type."""
        factor = self.factor
        if factor is None:
            return "lesson clock"
        return f"shown at {_factor_text(factor)}"


def _factor_text(factor: Fraction) -> str:
    """Two significant figures below 1 ("0.26x", "0.043x"); "1x" at full speed."""
    if factor >= 1:
        return "1x"
    return f"{float(factor):.2g}x"


class RateWatch:
    """Does this laptop hold the step's rate? Each real frame beside the lesson clock's length
    for the same frame; over the last second of real time, the share it held.

    The lesson clock's length of a frame is its cap's period, or its ticks' step cost plus the
    drawing when that is longer, plus a stall: what a fast machine takes. So a step whose ticks
    cost 12 ms is judged on its own frames, not on a frame rate no machine could reach with them.
    """

    def __init__(self) -> None:
        self._frames: deque[tuple[int, int]] = deque()
        self._real_ns = 0
        self._wanted_ns = 0

    def clear(self) -> None:
        """Start afresh (a new step, a new clock, a new cap)."""
        self._frames.clear()
        self._real_ns = self._wanted_ns = 0

    def frame(self, real_ns: int, wanted_ns: int) -> None:
        """A real frame of `real_ns` that the lesson clock would have made `wanted_ns` long."""
        self._frames.append((real_ns, wanted_ns))
        self._real_ns += real_ns
        self._wanted_ns += wanted_ns
        while len(self._frames) > 1 and self._real_ns - self._frames[0][0] >= WINDOW_NS:
            old_real, old_wanted = self._frames.popleft()
            self._real_ns -= old_real
            self._wanted_ns -= old_wanted

    @property
    def held(self) -> Fraction | None:
        """The share of the step's rate held over the last second (1: all of it); None until a
        whole second of frames has been seen."""
        if self._real_ns < WINDOW_NS:
            return None
        return min(Fraction(1), Fraction(self._wanted_ns, self._real_ns))

    @property
    def falls_short(self) -> bool:
        """Under 90 % of the rate over a whole second."""
        held = self.held
        return held is not None and held < LEAST_HELD


def wanted_frame_ns(period_ns: Fraction | None, ticks: int, step_cost_ns: int) -> int:
    """How long the lesson clock would make a frame that ran `ticks` ticks of `step_cost_ns`:
    the cap's period, or the ticks' cost and the drawing when that is longer (uncapped: those
    alone), in whole ns."""
    work = FRAME_WORK_NS + ticks * step_cost_ns
    if period_ns is None:
        return work
    return max(int(period_ns), work)
