"""The live judder meter's place in the game: fed by each frame the picture draws.

A frame's picture reaches the display when the loop flips it, and the loop's next frame starts
once the pacer has held it to the cap: the next frame boundary is the *pacer's frame-end time*
of this picture. The session knows those boundaries exactly (lane 1's books count the measured
wall time of every frame), so the watch writes each picture down when the next one is drawn:
the time it ended, the simulated time it showed (`drawn_time_ns`, as the headless meter), and
its tick. `LiveJudder` turns the last second of those into the DISPLAY rows, recomputed every
`EVERY_FRAMES` frames (they describe the last second; a fresher figure would not say more).
"""

from __future__ import annotations

from fractions import Fraction

from game.app.refresh import desktop_refresh
from game.clock.units import round_ns
from game.display.live import LiveJudder
from game.session.readout import DisplayReadout
from game.session.session import LabSession
from game.workshop.display_run import drawn_time_ns

EVERY_FRAMES = 15


class JudderWatch:
    """Pictures in, a `DisplayReadout` out."""

    def __init__(self, refresh: tuple[Fraction, bool] | None = None) -> None:
        self.refresh_hz, self.refresh_read = refresh or desktop_refresh()
        self.meter = LiveJudder(self.refresh_hz)
        self._frames = 0
        self._shown: DisplayReadout | None = None
        self._step = Fraction(0)
        self._last: tuple[int, int] | None = None
        """The picture drawn before this one: (drawn simulated time, tick)."""
        self._wall = -1

    def drew(self, session: LabSession) -> None:
        """A frame's picture was just drawn, after its ticks: the one before it ended now."""
        lane = session.lanes[0]
        plan = lane.scheduler.last_plan
        wall = lane.books.wall_ns
        fresh_books = wall <= self._wall  # a lesson step opened new books: time starts again
        self._wall = wall
        if plan is None or plan.paused or plan.step_ns != self._step or fresh_books:
            self._step = plan.step_ns if plan is not None else Fraction(0)
            self.meter.clear()  # paused, or a new tick rate: the old cadence says nothing now
            self._last = None
            return
        if self._last is not None:
            self.meter.record(wall, *self._last)
        interpolation = session.controls.interpolation
        self._last = (round_ns(drawn_time_ns(plan, interpolation)), plan.tick)
        self._frames += 1
        if self._frames % EVERY_FRAMES == 0 or self._shown is None:
            report = self.meter.report(float(session.controls.time_scale))
            self._shown = DisplayReadout(
                refresh_hz=float(self.refresh_hz),
                refresh_read=self.refresh_read,
                cadence=report.cadence,
                holds=report.holds,
                judder_pct=report.judder_pct,
                position_error_ms=report.position_error_ms,
            )

    @property
    def readout(self) -> DisplayReadout | None:
        return self._shown
