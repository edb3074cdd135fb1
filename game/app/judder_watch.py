"""The live judder meter's place in the loop: one record per flip, a readout now and then.

After every flip the loop tells the watch when the frame was handed over (the wall clock) and
lane 1's plan; the watch turns the plan into the simulated time the picture shows, exactly as
the headless meter does (`drawn_time_ns`), and feeds `LiveJudder`. The figures are recomputed
every `EVERY_FRAMES` frames: they describe the last second, so a fresher figure would not say
more.
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
    """Frame ends in, a `DisplayReadout` out."""

    def __init__(self, refresh: tuple[Fraction, bool] | None = None) -> None:
        self.refresh_hz, self.refresh_read = refresh or desktop_refresh()
        self.meter = LiveJudder(self.refresh_hz)
        self._frames = 0
        self._shown: DisplayReadout | None = None
        self._hz = Fraction(0)

    def flipped(self, session: LabSession, now_ns: int) -> None:
        """A frame was just handed to the display at `now_ns`."""
        plan = session.lanes[0].scheduler.last_plan
        if plan is None or plan.paused:
            self.meter.clear()
            return
        if plan.step_ns != self._hz:  # a new tick rate: the old cadence says nothing now
            self._hz = plan.step_ns
            self.meter.clear()
        drawn = round_ns(drawn_time_ns(plan, session.controls.interpolation))
        self.meter.record(now_ns, drawn, plan.tick)
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
