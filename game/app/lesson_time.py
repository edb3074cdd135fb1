"""`SwitchedClock`: the loop's clock, the wall, a capture or the lesson clock, as the step asks.

The loop holds one clock and never knows which runs. Each frame boundary (`next_frame`) the
switch measures the frame on the clock that ran it, then follows the controls' `clock` (a lesson
step's `clock = "lesson"`, or D). Its time is continuous across a switch, so the pacer's
deadlines, the key stamps and the status messages go on from where they were.

On the lesson clock (`game.clock.lesson`) the pacer's sleeps, the ticks' step cost and a stall
are counted, not waited for, and each frame adds its drawing: the frames last what the step
says. A key is stamped with this clock's time when the loop reads it, so slow motion slows the
taps with everything else. Real time still passes, and is handed to the meters as durations:
the slow-motion factor the clock row shows, and a rule that the picture is never shown faster
than life (a fast laptop waits out what the lesson clock counted).

On the wall clock, in a lesson step that asks for the lesson clock (D has switched it to the
real one, to prove the picture real), each frame is set beside what the lesson clock would have
made of it (`RateWatch`); under 90 % over a second, the switch turns the clock back to the lesson
clock itself and says so.

A capture (`--capture`, or a lesson step's `capture`: `game.clock.captured`) plays where the wall
would: its frames last what the captured game's did, and the loop's pacing waits them out on the
wall (`paced`). A pause holds it on the wall, and the lesson clock takes over from it as from
the wall.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from game.app.caption import StatusMessage
from game.app.captures import StepCapture, lesson_capture, step_capture_name
from game.app.lesson_guide import LessonGuide
from game.app.pacer import FramePacer
from game.app.quit_signals import window_answers
from game.app.readout_builder import LoopFigures
from game.clock.captured import CapturedClock
from game.clock.lesson import FRAME_WORK_NS, LessonClock, RateWatch, SlowMotion, wanted_frame_ns
from game.clock.wall import MeasuredClock
from game.session.controls import ControlsChange
from game.session.session import LabSession
from game.workshop.files.lessons import LessonRun
from timestep_lab import NOTHING_RAN, FrameRan, hz_to_step_ns

LESSON = "lesson"


class SwitchedClock:
    """A `MeasuredClock` that is the wall (or a capture) or the lesson clock, as the controls say.

    `real` is the clock of this machine (`WallClock`; a test hands a `ManualClock` it moves as a
    slow or a fast laptop would), or a `CapturedClock` made on it (`--capture`): then the capture
    runs the frames where the wall would."""

    def __init__(
        self,
        real: MeasuredClock,
        session: LabSession,
        lessons: LessonGuide,
        message: StatusMessage,
        *,
        step_capture: StepCapture = lesson_capture,
    ) -> None:
        capture = real if isinstance(real, CapturedClock) else None
        self.real: MeasuredClock = real if capture is None else capture.real
        self.capture = self.given_capture = capture
        """The capture that plays instead of the wall (`--capture`, or the lesson step's)."""
        self._step_capture = step_capture
        self._step_captures: dict[str, CapturedClock] = {}
        self.lesson = LessonClock()
        self.session = session
        self.lessons = lessons
        self.message = message
        self.slow_motion = SlowMotion()
        self.rate = RateWatch()
        self._active: MeasuredClock = real
        self.on_frame: Callable[[int], None] | None = None
        """Hears each frame's length, whichever clock ran it (`--frame-log`)."""
        self._offset = 0
        """This clock's time is the active clock's reading plus this."""
        self._origin = self._frame_end = 0
        self._real_mark = real.now_ns()
        self._lesson_mark = 0
        """Both clocks' readings where the frame in flight began."""
        self._stall_ns = 0
        self._switched = False
        self._judged: tuple[object, ...] = ()
        """What the rate watch judges against (the step, the cap, the step cost)."""

    @property
    def on_lesson_clock(self) -> bool:
        return self._active is self.lesson

    @property
    def playing(self) -> CapturedClock | None:
        """The capture running the frames now (None on the wall or the lesson clock)."""
        return self.capture if self._active is self.capture else None

    # -- the `Clock` ----------------------------------------------------------------------------

    def now_ns(self) -> int:
        return self._active.now_ns() + self._offset

    def sleep_ns(self, ns: int) -> None:
        if self.on_lesson_clock:
            self.lesson.sleep_ns(ns)
            self._not_faster_than_life()
        else:
            self._active.sleep_ns(ns)

    def busy_wait_ns(self, ns: int) -> None:
        if self.on_lesson_clock:
            self.lesson.busy_wait_ns(ns)  # counted, not burnt
            self._not_faster_than_life()
        else:
            self._active.busy_wait_ns(ns)

    def block_ns(self, ns: int) -> None:
        self._stall_ns += ns
        if self.on_lesson_clock:
            self.lesson.block_ns(ns)
            self._not_faster_than_life()
        else:
            self._active.block_ns(ns)

    def _not_faster_than_life(self) -> None:
        """Wait, really, for what the lesson clock has counted in this frame (its drawing too)
        beyond the real time the frame has taken: a fast laptop shows the lesson at 1x, never
        faster."""
        counted = self.lesson.now_ns() - self._lesson_mark + FRAME_WORK_NS
        ahead = counted - (self.real.now_ns() - self._real_mark)
        if ahead > 0:
            self.real.sleep_ns(ahead)

    # -- the `FrameSource` ----------------------------------------------------------------------

    def start_frames(self) -> int:
        self.real.start_frames()
        self.lesson.start_frames()
        if self.capture is not None:
            self.capture.start_frames()
        self._mark()
        self._origin = self._frame_end = self.now_ns()
        return self._origin

    @property
    def end_ns(self) -> int:
        return self._frame_end - self._origin

    def next_frame(
        self, ran: FrameRan = NOTHING_RAN, until_ns: Fraction | int | None = None
    ) -> int | None:
        """The frame's length on the clock that ran it; then the clock the controls ask for."""
        real_ns = self.real.now_ns() - self._real_mark
        self.lesson.wobble_up_to(self.session.controls.lesson_jitter_ns)
        elapsed = self._active.next_frame(ran, until_ns)
        if elapsed is None:
            return None
        if self._switched:
            pass  # the first frame after a switch was paced on the other clock: not a sample
        elif self.on_lesson_clock:
            self.slow_motion.shown(elapsed, real_ns)
        elif self._active is self.real:
            self._judge(elapsed)
        self._frame_end += elapsed
        if self.on_frame is not None:
            self.on_frame(elapsed)
        self._mark()
        self._switched = False
        self._follow_capture()
        self._follow(self.session.controls.clock)
        return elapsed

    def _mark(self) -> None:
        self._real_mark = self.real.now_ns()
        self._lesson_mark = self.lesson.now_ns()
        self._stall_ns = 0

    def _follow(self, wanted: str) -> None:
        """Switch to the `wanted` clock at this frame boundary, keeping the time continuous. A
        capture plays where the wall would, but holds while the game is paused (P, a lost focus,
        the rewatch): the paused frames run on the wall, and the capture goes on from where it
        stopped."""
        outside = self.capture or self.real
        if self.session.controls.paused:
            outside = self.real
        target = self.lesson if wanted == LESSON else outside
        if target is self._active:
            return
        now = self.now_ns()
        self._active = target
        self._active.start_frames()  # its next frame is measured from here
        self._offset = now - self._active.now_ns()
        self.slow_motion.clear()
        self.rate.clear()
        self._switched = True

    def _follow_capture(self) -> None:
        """Play the lesson step's capture while the step shows (`capture` in its settings),
        else `--capture`'s, else none; a step's capture starts from its first frame each time."""
        name = step_capture_name(self.lessons.run)
        if name is None:
            self.capture = self.given_capture
            return
        if self.capture is not None and self.capture is self._step_captures.get(name):
            return
        self.capture = self._step_capture(self.real, name)
        self._step_captures = {name: self.capture}
        said = f"playing the capture {name} (its frames, not this laptop's)"
        self.message.say(said, self.now_ns())

    def _judge(self, real_ns: int) -> None:
        """During a lesson step that asks for the lesson clock (D took it to the real one), with
        a render cap: does the laptop hold the step's rate? Under 90 % over a second, fall back
        to the lesson clock, and say so."""
        controls = self.session.controls
        run = self.lessons.run
        step = None if run is None else (run.lesson.number, run.step)
        judged = (step, controls.fps_cap, controls.step_cost_ns)
        if judged != self._judged or not _asks_for_lesson_clock(run) or not controls.fps_cap:
            self._judged = judged
            self.rate.clear()
            return
        ticks = sum(
            lane.scheduler.last_plan.steps
            for lane in self.session.lanes
            if lane.scheduler.last_plan is not None
        )
        period = hz_to_step_ns(controls.fps_cap)
        wanted = wanted_frame_ns(period, ticks, controls.step_cost_ns) + self._stall_ns
        self.rate.frame(real_ns, wanted)
        held = self.rate.held
        if held is not None and self.rate.falls_short:
            self.session.change(ControlsChange(clock=LESSON))
            self.message.say(
                f"this laptop held {float(held):.0%} of the step's rate over a second: "
                "on the lesson clock now (D: the real clock)",
                self.now_ns(),
            )

    # -- what the HUD says ----------------------------------------------------------------------

    def row_text(self) -> str:
        """The clock row: `lesson · shown at 0.26x`, `capture` or `real (wall)`."""
        if self.on_lesson_clock:
            return f"lesson \N{MIDDLE DOT} {self.slow_motion.text()}"
        return "capture" if self.playing is not None else "real (wall)"


def _asks_for_lesson_clock(run: LessonRun | None) -> bool:
    """Whether the step (or the last step up to it that names a clock) runs on the lesson
    clock. Only such a step's claim needs a rate: the others show on any laptop, and some need
    the wall's own wobble (lesson 9), which the lesson clock does not have."""
    if run is None:
        return False
    for step in reversed(run.lesson.steps[: run.step + 1]):
        if step.settings.clock is not None:
            return bool(step.settings.clock == LESSON)
    return False


def clock_row(clock: object) -> str:
    """The clock row's text, or "" for a loop that has no switch (a clip, a test)."""
    return clock.row_text() if isinstance(clock, SwitchedClock) else ""


def running_capture(clock: object) -> CapturedClock | None:
    """The capture whose frames the loop's clock is playing now, if any (`--capture`, a lesson
    step's, or one a clip or a test hands the loop directly)."""
    if isinstance(clock, CapturedClock):
        return clock
    return clock.playing if isinstance(clock, SwitchedClock) else None


def capture_row(clock: object) -> str:
    """The capture row's text (`hitch.csv · 301/600 · round 2`, `... · held` while paused), or
    "" when none plays."""
    capture = running_capture(clock)
    if capture is not None:
        return capture.row_text()
    if isinstance(clock, SwitchedClock) and clock.capture is not None and not clock.on_lesson_clock:
        return f"{clock.capture.row_text()} \N{MIDDLE DOT} held"
    return ""


def with_clock_rows(figures: LoopFigures, clock: object) -> LoopFigures:
    """The loop's figures with the clock row's and the capture row's texts."""
    return figures._replace(clock=clock_row(clock), capture=capture_row(clock))


def paced(
    clock: MeasuredClock,
    pacer: FramePacer,
    cap: int | None,
    between: Callable[[], bool] | None = None,
) -> int:
    """Wait for the end of the frame and return how long that took: while a capture plays,
    until its frame has lasted its captured length (the capture sets the pace, not the cap), a
    slice at a time with `between()` (default: `window_answers`) asked after each (True: the
    game is quitting, stop waiting); else until the pacer's deadline under `cap`, the cap in
    force now (F, a lesson or a script may have changed it)."""
    capture = running_capture(clock)
    if capture is not None:
        return capture.wait_out_frame(between or window_answers)
    if pacer.cap_fps != cap:
        pacer.set_cap(cap)
    return pacer.wait(clock)
