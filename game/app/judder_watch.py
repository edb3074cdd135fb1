"""The live judder meter's place in the game: fed by each frame the picture draws, one per lane.

A frame's picture reaches the display when the loop flips it, and the loop's next frame starts
once the pacer has held it to the cap: the next frame boundary is the *pacer's frame-end time*
of this picture. The session knows those boundaries exactly (each lane's books count the
measured wall time of every frame), so the watch writes each picture down when the next one is
drawn: the time it ended, the simulated time it showed (`drawn_time_ns`, as the headless meter),
and its tick. Each lane has its own meter, so a split screen compares two conditionings (lesson
9) side by side. `LiveJudder` turns the last second of those into the DISPLAY rows, recomputed
every `EVERY_FRAMES` frames (they describe the last second; a fresher figure would not say
more), and the last few seconds into the graph's judder strip.
"""

from __future__ import annotations

from fractions import Fraction

from game.app.refresh import desktop_refresh
from game.display.live import LiveJudder
from game.session.drawn import drawn_whole_ns
from game.session.lane import Lane
from game.session.readout import DisplayReadout, LaneJudder
from game.session.session import LabSession

EVERY_FRAMES = 15


class _LaneWatch:
    """One lane's meter, and the picture drawn before this one."""

    def __init__(self, refresh_hz: Fraction) -> None:
        self.meter = LiveJudder(refresh_hz)
        self.step = Fraction(0)
        self.wall = -1
        self.interpolation = ""
        self.last: tuple[int, int] | None = None
        """The picture drawn before this one: (drawn simulated time, tick)."""

    def drew(self, lane: Lane, interpolation: str, time_scale: float) -> None:
        plan = lane.scheduler.last_plan
        wall = lane.books.wall_ns
        fresh_books = wall <= self.wall  # a lesson step opened new books: time starts again
        self.wall = wall
        if (
            plan is None
            or plan.paused
            or plan.ledger.step * self.step.denominator  # plan.step_ns != self.step,
            != self.step.numerator * plan.ledger.grains_per_ns  # without making a Fraction
            or fresh_books
            or time_scale != self.meter.time_scale
            or interpolation != self.interpolation
        ):
            self.interpolation = interpolation
            self.step = plan.step_ns if plan is not None else Fraction(0)
            # The old cadence says nothing about the new one; in the lesson clock's slow motion
            # the room would otherwise wait out a whole second of lesson time to see I's effect.
            self.meter.clear(time_scale)
            self.last = None
            return
        if self.last is not None:
            self.meter.record(wall, *self.last)
        self.last = (drawn_whole_ns(plan, interpolation), plan.tick)


class JudderWatch:
    """Pictures in; a `DisplayReadout` and each lane's `LiveJudder` (for the graph) out."""

    def __init__(self, refresh: tuple[Fraction, bool] | None = None) -> None:
        self.refresh_hz, self.refresh_read = refresh or desktop_refresh()
        self._window_hz = self.refresh_hz
        self.simulated = False
        """The refresh is a lesson step's screen, on the lesson clock (not the window's)."""
        self._lanes: list[_LaneWatch] = []
        self._frames = 0
        self._shown: DisplayReadout | None = None

    def drew(self, session: LabSession) -> None:
        """A frame's picture was just drawn, after its ticks: the one before it ended now."""
        lanes = session.lanes
        controls = session.controls
        simulated = controls.clock == "lesson" and controls.refresh_hz > 0
        refresh = controls.refresh_hz if simulated else self._window_hz
        if len(self._lanes) != len(lanes) or refresh != self.refresh_hz:
            # split screen on or off, another screen: every lane starts afresh
            self.refresh_hz, self.simulated = refresh, simulated
            self._lanes = [_LaneWatch(self.refresh_hz) for _ in lanes]
            self._shown = None
        scale = float(controls.time_scale)
        for watch, lane in zip(self._lanes, lanes, strict=True):
            watch.drew(lane, controls.interpolation, scale)
        self._frames += 1
        if self._frames % EVERY_FRAMES == 0 or self._shown is None:
            self._shown = DisplayReadout(
                refresh_hz=float(self.refresh_hz),
                refresh_read=self.refresh_read,
                refresh_simulated=self.simulated,
                lanes=tuple(_lane_judder(watch.meter) for watch in self._lanes),
            )

    @property
    def readout(self) -> DisplayReadout | None:
        return self._shown

    @property
    def meters(self) -> tuple[LiveJudder, ...]:
        """Each lane's meter, lane 1 first: the graph reads their traces."""
        return tuple(watch.meter for watch in self._lanes)


def _lane_judder(meter: LiveJudder) -> LaneJudder:
    report = meter.report()
    return LaneJudder(
        cadence=report.cadence,
        holds=report.holds,
        judder_pct=report.judder_pct,
        position_error_ms=report.position_error_ms,
    )
