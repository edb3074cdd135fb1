"""`LaneReadouts`: each lane's figures for the HUD (`LaneReadout`), built once a picture.

The time path is exact (integer grains, `Fraction` nanoseconds); the HUD shows floats. Each
float here is the exact value divided once, `numerator / (denominator x unit)`: Python rounds
an int division correctly, so it is the very float `float(Fraction(ns) / unit)` gives, without
making the `Fraction`s (some thirty a lane, which cost more than the rest of the readout). A
frame's plan is read in its own grains; the settings' figures change only with the settings,
so they are worked out once for each settings value the lanes run under.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from game.session.input_readout import InputReadout
from game.session.lane import Lane
from game.session.readout import LaneReadout
from timestep_lab import NS_PER_MS, NS_PER_SECOND, SchedulerSettings, StepPlan

SETTINGS_KEPT = 8
"""How many settings values' figures are kept (two lanes; a few changes of a knob)."""


def over(exact: Fraction | int, unit: int) -> float:
    """`exact / unit` as the nearest float: the same float as `float(Fraction(exact) / unit)`."""
    return exact.numerator / (exact.denominator * unit)


class SettingsFigures(NamedTuple):
    """What the readout shows of one `SchedulerSettings`."""

    hz: float
    step_ms: float
    max_frame_ms: float
    max_backlog_ms: float
    time_scale: str
    alpha_mode: str
    variable: bool

    @classmethod
    def of(cls, settings: SchedulerSettings) -> SettingsFigures:
        return cls(
            hz=float(settings.hz),
            step_ms=over(settings.step_ns, NS_PER_MS),
            max_frame_ms=over(settings.max_frame_ns, NS_PER_MS),
            max_backlog_ms=over(settings.max_backlog_ns, NS_PER_MS),
            time_scale=str(settings.time_scale),
            alpha_mode=settings.alpha_mode.value,
            variable=settings.policy == "variable",
        )


class LaneReadouts:
    """Builds `LaneReadout`s, keeping the figures of the settings it has seen (by identity:
    settings are frozen, and a change of a knob makes a new value)."""

    def __init__(self) -> None:
        self._figures: dict[int, tuple[SchedulerSettings, SettingsFigures]] = {}

    def figures(self, settings: SchedulerSettings) -> SettingsFigures:
        kept = self._figures.get(id(settings))
        if kept is not None and kept[0] is settings:
            return kept[1]
        if len(self._figures) >= SETTINGS_KEPT:
            self._figures.clear()
        figures = SettingsFigures.of(settings)
        self._figures[id(settings)] = (settings, figures)  # the value kept: its id stays its own
        return figures

    def of(
        self,
        lane: Lane,
        inputs: InputReadout | None = None,
        *,
        focused: bool,
        open_frame: tuple[StepPlan, int] | None = None,
        in_frame_ns: int = 0,
    ) -> LaneReadout:
        """One lane's readout; `open_frame` (its plan and the ticks run so far) while a frame
        is still catching up, when the lag grows by the `in_frame_ns` the frame has taken."""
        scheduler = lane.scheduler
        settings = scheduler.settings
        shown = self.figures(settings)
        books = lane.books
        plan = scheduler.last_plan if open_frame is None else open_frame[0]
        lag = lane.lag_ns if open_frame is None else _lag_so_far(lane, open_frame, in_frame_ns)
        granted = books.granted_ns
        owed_ns = books.scaled_ns + granted if granted else books.scaled_ns
        return LaneReadout(
            policy=settings.policy,
            hz=shown.hz,
            step_ms=shown.step_ms,
            max_steps=settings.max_steps,
            max_frame_ms=shown.max_frame_ms,
            max_backlog_ms=shown.max_backlog_ms,
            steps=plan.ledger.steps if plan else 0,
            alpha=plan.alpha if plan else 0.0,
            remainder_ms=_grains_over(plan, plan.ledger.remainder, NS_PER_MS) if plan else 0.0,
            backlog_steps=plan.ledger.backlog_steps if plan else 0,
            dropped_frame_ms=plan.dropped_ms if plan else 0.0,
            dropped_last_second_ms=lane.history.dropped_ms_within(1.0),
            dropped_total_ms=over(books.dropped_ns, NS_PER_MS),
            tick=lane.world.tick,
            sim_time_s=over(books.sim_time_ns, NS_PER_SECOND),
            wall_time_s=books.wall_ns / NS_PER_SECOND,
            owed_time_s=over(owed_ns, NS_PER_SECOND),
            lag_ms=over(lag, NS_PER_MS),
            time_scale=shown.time_scale,
            paused=scheduler.paused,
            overloaded=scheduler.overloaded or lane.work_light.on,
            spiral=lane.spiral.on,
            alpha_mode=shown.alpha_mode,
            integrator=lane.world.integrator,
            bodies=lane.world.body_count,
            focused=focused,
            non_finite_tick=lane.world.non_finite_tick,
            inputs=inputs,
            variable=shown.variable,
            dt_ms=_grains_over(plan, plan.ledger.dt, NS_PER_MS) if plan else shown.step_ms,
            conditioning=settings.conditioning,
            conditioning_carry_ms=scheduler.conditioning_carry_ns / NS_PER_MS,
        )


def _lag_so_far(lane: Lane, open_frame: tuple[StepPlan, int], in_frame_ns: int) -> Fraction:
    """The lag in the middle of a catch-up. Owed: what was carried in and this frame's time,
    plus the wall time the catch-up has taken so far; run: the ticks done. (Once the frame is
    finished, the books say.)"""
    planned, ran = open_frame
    owed = (
        planned.carried_in_ns + planned.scaled_ns + in_frame_ns * lane.scheduler.settings.time_scale
    )
    return lane.books.dropped_ns + owed - ran * planned.dt_ns


def _grains_over(plan: StepPlan, grains: int, unit: int) -> float:
    """A value of `plan`'s ledger, in its grains, over `unit` ns: as `over(Fraction(...))`."""
    return grains / (plan.ledger.grains_per_ns * unit)
