"""`LabSession`: the whole game without pixels.

The pygame loop and the headless tools both drive a session the same way: hand it each frame's
wall-clock duration (`frame`) and the player's actions (`apply`). The session owns the lanes
(one, or two in split screen), turns actions into tick-stamped world commands and scheduler
settings, and fills in the HUD's `Readout`. It never reads a clock and never draws.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from game.clock.units import NS_PER_MS, NS_PER_SECOND, hz_to_step_ns
from game.scheduler.plan import StepPlan
from game.scheduler.settings import SchedulerSettings
from game.session.aim import launch_velocity
from game.session.controls import Act, Action, Controls
from game.session.lane import BeforeTick, Lane
from game.session.readout import LaneReadout
from game.world.commands import Command, Fire, Reset, SetIntegrator
from game.world.world import World

WorldFactory = Callable[[], World]

CommandLog = Callable[[int, Command], None]
"""Told about every command the session stamps: the lane it went to, and the command."""

TickRateLog = Callable[[int, Fraction], None]
"""Told when the tick rate changes: the next tick of lane 0 (the main world), and the new rate.
A tick's dt is part of the physics, so a recording must know from which tick on it changed."""


class LabSession:
    """Lanes, controls, and the translation of actions into stamped commands."""

    def __init__(
        self,
        controls: Controls,
        make_world: WorldFactory,
        base_settings: SchedulerSettings | None = None,
        *,
        on_command: CommandLog | None = None,
        on_tick_rate: TickRateLog | None = None,
    ) -> None:
        self._base = base_settings or SchedulerSettings()
        self._on_command = on_command
        self._on_tick_rate = on_tick_rate
        self.controls = replace(controls, policies=controls.policies[:1], focus_lane=0)
        world = make_world()
        self.lanes: list[Lane] = [Lane(self._scheduler_settings(self.controls, 0), world)]
        if world.integrator != controls.integrator:
            self._stamp(SetIntegrator(tick=world.tick, name=controls.integrator))
        self.set_controls(controls)

    # -- time -------------------------------------------------------------------------------------

    def frame(self, elapsed_ns: int, before_tick: BeforeTick | None = None) -> tuple[StepPlan, ...]:
        """One frame: every lane gets the same wall-clock duration and runs its own plan."""
        return tuple(lane.run_frame(elapsed_ns, before_tick) for lane in self.lanes)

    @property
    def paused(self) -> bool:
        return self.lanes[0].scheduler.paused

    def set_paused(self, paused: bool) -> None:
        for lane in self.lanes:
            if paused:
                lane.scheduler.pause()
            else:
                lane.scheduler.resume()

    # -- actions ----------------------------------------------------------------------------------

    def apply(self, action: Action) -> str | None:
        """Carry out a player's action. Returns a short message for the screen, if any."""
        act = action.act
        if act is Act.FIRE:
            self._fire(action.x, action.y)
        elif act is Act.RESET:
            for index, lane in enumerate(self.lanes):
                self._stamp(Reset(tick=lane.world.tick), index)
            return "scene reset"
        elif act is Act.TOGGLE_PAUSE:
            self.set_paused(not self.paused)
        elif act is Act.SINGLE_STEP:
            if not self.paused:
                return "single step works while paused: press P first"
            for lane in self.lanes:
                lane.single_step()
        else:
            self.set_controls(self.controls.after(action))
            if act is Act.TOGGLE_SPLIT and self.controls.split:
                return "split screen: same frames, same inputs, two policies (B picks the lane)"
            if act is Act.SWITCH_LANE and self.controls.split:
                return f"policy keys now change lane {self.controls.focus_lane + 1}"
        return None

    def set_controls(self, controls: Controls) -> None:
        """Make the lanes match `controls`: lanes added or removed, schedulers reconfigured,
        the integrator switched by a command stamped for the next tick."""
        if controls.split and len(self.lanes) == 1:
            self.lanes.append(self.lanes[0].twin())
        elif not controls.split and len(self.lanes) == 2:
            self.lanes.pop()
        for index, lane in enumerate(self.lanes):
            wanted = self._scheduler_settings(controls, index)
            if wanted != lane.scheduler.settings:
                lane.scheduler.reconfigure(wanted)
        if controls.hz != self.controls.hz and self._on_tick_rate is not None:
            self._on_tick_rate(self.lanes[0].world.tick, controls.hz)
        if controls.integrator != self.controls.integrator:
            for index, lane in enumerate(self.lanes):
                self._stamp(SetIntegrator(tick=lane.world.tick, name=controls.integrator), index)
        self.controls = controls

    def _scheduler_settings(self, controls: Controls, lane: int) -> SchedulerSettings:
        step_ns = hz_to_step_ns(controls.hz)
        return replace(
            self._base,
            step_ns=step_ns,
            # F is at least one step: at 10 Hz a 20 ms max frame would let no tick through.
            max_frame_ns=max(self._base.max_frame_ns, step_ns),
            policy=controls.policies[lane],
            max_steps=controls.max_steps,
            time_scale=controls.time_scale,
            alpha_mode=controls.alpha_mode,
        )

    def _fire(self, x: float | None, y: float | None) -> None:
        """Space fires along the cannon's aim; a click fires through the clicked point."""
        for index, lane in enumerate(self.lanes):
            world = lane.world
            cannon = world.settings.cannon
            if x is None or y is None:
                angle = math.radians(cannon.angle_deg)
                vx, vy = cannon.speed * math.cos(angle), cannon.speed * math.sin(angle)
            else:
                vx, vy = launch_velocity(
                    x - cannon.x, y - cannon.y, speed=cannon.speed * 1.2,
                    gravity=world.settings.gravity,
                )  # fmt: skip
            shot = Fire(tick=world.tick, x=cannon.x, y=cannon.y, vx=vx, vy=vy, spin=cannon.spin)
            self._stamp(shot, index)

    def _stamp(self, command: Command, lane: int = 0) -> None:
        self.lanes[lane].world.submit(command)
        if self._on_command is not None:
            self._on_command(lane, command)

    # -- what the HUD shows -----------------------------------------------------------------------

    def lane_readouts(self) -> tuple[LaneReadout, ...]:
        split = len(self.lanes) > 1
        return tuple(
            _lane_readout(lane, focused=split and index == self.controls.focus_lane)
            for index, lane in enumerate(self.lanes)
        )


def _ms(ns: Fraction | int) -> float:
    return float(Fraction(ns) / NS_PER_MS)


def _lane_readout(lane: Lane, *, focused: bool) -> LaneReadout:
    settings = lane.scheduler.settings
    plan = lane.scheduler.last_plan
    books = lane.books
    return LaneReadout(
        policy=settings.policy,
        hz=float(settings.hz),
        step_ms=_ms(settings.step_ns),
        max_steps=settings.max_steps,
        max_frame_ms=_ms(settings.max_frame_ns),
        max_backlog_ms=_ms(settings.max_backlog_ns),
        steps=plan.steps if plan else 0,
        alpha=plan.alpha if plan else 0.0,
        remainder_ms=_ms(plan.remainder_ns) if plan else 0.0,
        backlog_steps=plan.backlog_steps if plan else 0,
        dropped_frame_ms=_ms(plan.dropped_ns) if plan else 0.0,
        dropped_last_second_ms=float(lane.history.window(1.0).dropped_ms.sum()),
        dropped_total_ms=_ms(books.dropped_ns),
        tick=lane.world.tick,
        sim_time_s=float(books.sim_time_ns / NS_PER_SECOND),
        wall_time_s=float((books.scaled_ns + books.granted_ns) / NS_PER_SECOND),
        lag_ms=_ms(lane.lag_ns),
        time_scale=str(settings.time_scale),
        paused=lane.scheduler.paused,
        overloaded=lane.scheduler.overloaded,
        spiral=lane.spiral.on,
        alpha_mode=settings.alpha_mode.value,
        integrator=lane.world.integrator,
        bodies=lane.world.body_count,
        focused=focused,
    )
