"""A headless run with a display at the end of the loop: vsync, the present queue, the judder.

Without a display, the virtual clock says a frame lasts max(budget, work) + jitter + stall.
With one, the loop does what a vsynced game does: it works (render cost + the last frame's
ticks x step cost, after any stall), waits for its pacer's budget, presents, and is held by a
full queue until a vblank frees a slot. Its next frame starts when `present` returns. The
clock's jitter becomes *wake-up* noise: the time read after `present` returns is late by up to
`jitter_ms`, and the lateness does not pile up, since the next frame still starts on the
display's grid. That is the measured-delta noise of Glaiel's article, which conditioning
(`timestep_lab.CONDITIONERS`) is for.

`DisplayedFrames` is the run's `timestep_lab.FrameSource` in place of its `VirtualClock`;
it hears what each frame drew through the run's sink (`hearing`), and `figures()` hands the
records to the judder meter (`game.display.judder`) and reads the VRR panel's counts.
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction
from math import ceil, cos, lcm, radians

import numpy as np
import numpy.typing as npt

from game.clock.virtual import VirtualClock
from game.display.judder import Ints, JudderReport, measure, on_screen
from game.display.latency import DisplayLatency, frame_to_photons
from game.display.model import Presented, VirtualDisplay
from game.display.vrr import VrrCounts
from game.session.drawn import drawn_time_ns
from game.session.session import LabSession
from game.workshop.runs.runner import FrameReport, FrameSink
from timestep_lab import NS_PER_MS, FrameRan, StepPlan

WARM_UP_NS = 250 * NS_PER_MS
"""The judder meter starts a quarter of a second into a run."""
_NOTHING = Fraction(0)  # a frame that lasts nothing: made once, not every frame


def _nearest(ns: Fraction) -> int:
    """Exact, non-negative ns to the nearest whole ns (halves up): `round_ns`, inlined."""
    return (2 * ns.numerator + ns.denominator) // (2 * ns.denominator)


INT64_ROOM = 2**62
"""Below this, the grid's exact sums fit numpy's int64 with room to spare."""


def vblank_grid(first: Fraction, period: Fraction, count: int) -> Ints:
    """`count` vblanks, first + i x period, each rounded to the nearest whole ns, exactly.

    The sums are integers over a common denominator. A refresh rate with many digits makes
    them huge (997.123456789 Hz has a period of 10^18 / 997123456789 ns, and i x numerator
    passes 2^63 within a second): numpy's int64 would raise or, worse, wrap silently and place
    every vblank wrong, so such a grid is summed in Python's unbounded integers instead."""
    denominator = lcm(first.denominator, period.denominator)
    start = first.numerator * (denominator // first.denominator)
    stride = period.numerator * (denominator // period.denominator)
    twice = 2 * denominator
    if 2 * (start + count * stride) + denominator < INT64_ROOM:
        exact = start + np.arange(count, dtype=np.int64) * stride
        return (2 * exact + denominator) // twice
    rounded = [(2 * (start + index * stride) + denominator) // twice for index in range(count)]
    return np.array(rounded, dtype=np.int64)


class DisplayedFrames:
    """The virtual clock with a display: frame boundaries where the swap chain puts them.

    A run on it takes `hearing(session)` as its sink: a display that is shown no picture
    presents none."""

    def __init__(self, clock: VirtualClock, display: VirtualDisplay) -> None:
        self.clock = clock
        self.display = display
        self._start = Fraction(0)  # where the current frame began, without wake-up noise
        self.presented: list[Presented] = []
        self._starts: list[Fraction] = []
        self._stalls: list[Fraction | int] = []
        self._works: list[Fraction] = []
        """Each presented frame's start, stall and work: its road to the display. (Lists of
        values the run has anyway, not a new tuple a frame: a 10-minute run keeps 86,400 of each,
        and Python's garbage collector walks every tuple it keeps, again and again.)"""
        self.drawn_ns: list[int] = []
        """The simulated time each frame's picture shows, to the nearest ns, as the judder meter
        reads it (the exact time is `drawn_time_ns`)."""
        self.drawn_ticks: list[int] = []
        """The tick each frame's picture shows."""

    @property
    def end_ns(self) -> Fraction:
        return self.clock.end_ns

    @property
    def render_cost_ns(self) -> Fraction:
        return self.clock.render_cost_ns

    def move_on(self, length: Fraction | int) -> int:
        return self.clock.move_on(length)

    def ends_after(self, length: Fraction | int, until_ns: Fraction | int) -> bool:
        return self.clock.ends_after(length, until_ns)

    def set_render(
        self, render_fps: Fraction | int | None = None, render_cost_ns: Fraction | int | None = None
    ) -> None:
        self.clock.set_render(render_fps, render_cost_ns)

    def next_frame(self, ran: FrameRan, until_ns: Fraction | int | None = None) -> int | None:
        """The next frame, as `FrameSource.next_frame` says: the one that ran is presented
        first, and the next begins when the swap chain lets it (`frame_length`)."""
        length = self.frame_length(ran.steps, ran.step_cost_ns, ran.stall_ns)
        if until_ns is not None and self.clock.ends_after(length, until_ns):
            return None
        return self.clock.move_on(length)

    def frame_length(
        self, steps_last_frame: int, step_cost_ns: Fraction | int, stall_ns: Fraction | int = 0
    ) -> Fraction:
        """Present the frame that just ran (none before the first) and return how long, as the
        clock reads it, until the next frame starts.

        The clock is asked for its own length first, so that whatever keeps count of it (the
        stalls a run held) still does, and so that its jitter is drawn once per frame: what it
        adds beyond the frame's work and stall is the wake-up noise. (The sums skip the terms
        that are 0, most of them in most frames: each `Fraction` operation costs a microsecond
        or two, and a 10-minute run has 86,400 frames at 144 Hz.)"""
        clock = self.clock
        length = clock.frame_length(steps_last_frame, step_cost_ns, stall_ns)
        work = clock.render_cost_ns
        budget = clock.budget_ns
        to_handover = quiet = clock.least_length_ns  # the work or the budget, the longer
        if steps_last_frame and step_cost_ns:
            work = work + steps_last_frame * step_cost_ns
            to_handover = quiet = work if work > budget else budget
        if stall_ns:
            busy = stall_ns + work  # the stall, then the work
            to_handover = busy if busy > budget else budget  # ready, or paced if later
            quiet += stall_ns  # the clock's length without its noise
        start = self._start
        if self.drawn_ticks:
            presented = self.display.present(start + to_handover)
            self.presented.append(presented)
            self._starts.append(start)
            self._stalls.append(stall_ns)
            self._works.append(work)
            following = presented.resumed_ns
        else:
            following = start + budget + stall_ns if stall_ns else start + budget
        self._start = following
        until_next = clock.time_until(following)
        if length != quiet:  # the wake-up noise: the next frame reads its clock late
            until_next += length - quiet
        return until_next if until_next.numerator > 0 else _NOTHING

    @property
    def latencies(self) -> list[DisplayLatency]:
        """Each presented frame's road from its start to the photons (render, pacer, queue,
        vblank), exact: the display's part of an input-to-photon breakdown."""
        roads = zip(self._starts, self._stalls, self._works, self.presented, strict=True)
        return [
            frame_to_photons(start + stall, start + stall + work, presented.ready_ns, presented)
            for start, stall, work, presented in roads
        ]

    def photon_ns(self, flip_ns: Fraction | int) -> Fraction | None:
        """When the first frame handed to the display at or after `flip_ns` went on screen: the
        end of an input-to-photon latency whose press-to-flip part the input lab measures
        (`game.session.input_lab`). None if no such frame was presented."""
        handed = [presented.ready_ns for presented in self.presented]
        index = bisect_left(handed, flip_ns)
        return self.presented[index].shown_ns if index < len(handed) else None

    def drew(self, plan: StepPlan, interpolation: str) -> None:
        """Write down what the frame just finished will show."""
        self.drawn_ns.append(_nearest(drawn_time_ns(plan, interpolation)))
        self.drawn_ticks.append(plan.tick)

    def hearing(self, session: LabSession, then: FrameSink | None = None) -> FrameSink:
        """A run's sink that writes down what each frame drew (in the session's picture mode),
        then hands the frame on to `then`: the display sees every picture the run makes."""
        drew = self.drew

        def heard(report: FrameReport) -> None:
            drew(report.plan, session.controls.interpolation)
            if then is not None:
                then(report)

        return heard

    def figures(self, session: LabSession) -> tuple[JudderReport, VrrCounts | None]:
        """The judder meter's figures for lane 0's cannon shot, and the VRR panel's counts."""
        cannon = session.lanes[0].world.settings.cannon
        speed = cannon.speed * cos(radians(cannon.angle_deg))
        judder = self.judder(float(session.controls.time_scale), speed)
        panel = self.display.panel
        return judder, None if panel is None else panel.counts()

    def refreshes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(refresh instant, drawn time, tick) for every refresh from the first shown frame to
        the last, in whole ns: every vblank of the grid, showing the last frame shown by then
        (a frame repeats when no new one came; without vsync, tearing is left out); with VRR,
        every refresh the panel made, its repeats of a frame included (`_vrr_refreshes`)."""
        frames = min(len(self.presented), len(self.drawn_ticks))  # the last drawn: not shown yet
        presented = self.presented[:frames]
        shown = np.array([_nearest(p.shown_ns) for p in presented], dtype=np.int64)
        drawn = np.array(self.drawn_ns[:frames], dtype=np.int64)
        ticks = np.array(self.drawn_ticks[:frames], dtype=np.int64)
        settings = self.display.settings
        if not presented:
            return shown, drawn, ticks
        if settings.vrr:
            instants, index = self._vrr_refreshes(frames)
            return instants, drawn[index], ticks[index]
        period = settings.period_ns
        first = self.display.vblank_at_or_after(presented[0].shown_ns)
        count = ceil((presented[-1].shown_ns - first) / period) + 1
        grid = vblank_grid(first, period, count)
        index = on_screen(shown, grid)
        return grid, drawn[index], ticks[index]

    def _vrr_refreshes(self, count: int) -> tuple[Ints, npt.NDArray[np.intp]]:
        """Every refresh of a VRR panel, in whole ns, from the first frame shown to the
        `count`-th, and which frame each showed: each frame when it went on screen, then the
        panel's repeats of it before the next (LFC's, or its own at 1/min). The meter counts a
        repeat as what the eye gets: a refresh whose picture did not move."""
        instants: list[int] = []
        frames: list[int] = []
        for frame, presented in enumerate(self.presented[:count]):
            repeats = presented.repeats_ns  # of the frame before (none before the first)
            instants.extend(_nearest(ns) for ns in repeats)
            frames.extend([frame - 1] * len(repeats))
            instants.append(_nearest(presented.shown_ns))
            frames.append(frame)
        return np.array(instants, dtype=np.int64), np.array(frames, dtype=np.intp)

    def judder(self, time_scale: float, speed_m_s: float) -> JudderReport:
        """The meter's figures, from `WARM_UP_NS` on: the first frames fill the present queue
        and start from an empty accumulator, which is not what the run is about."""
        refreshes, drawn, ticks = self.refreshes()
        kept = refreshes >= WARM_UP_NS
        return measure(
            refreshes[kept], drawn[kept], ticks[kept], time_scale=time_scale, speed_m_s=speed_m_s
        )
