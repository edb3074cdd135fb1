"""`run_scenario`: a scenario played out on the game's own session and a virtual clock.

This is `python -m game simulate` without the printing: the scenario's settings become a
`GameConfig` (so the session is built exactly as the game builds it), its `[clock]` becomes a
`VirtualClock` (behind a `VirtualDisplay` when it has a `[display]`), and its stalls, changes
and inputs become the run's timeline.
"""

from __future__ import annotations

from fractions import Fraction

from game.clock.units import NS_PER_MS
from game.clock.virtual import FrameJitter, VirtualClock
from game.config.model import GameConfig, RenderSection
from game.display.model import VirtualDisplay
from game.from_config import session_from
from game.workshop.display_run import DisplayedClock
from game.workshop.recording import SessionRecorder
from game.workshop.runner import RunResult, run_headless
from game.workshop.scenario import Scenario


def scenario_config(scenario: Scenario) -> GameConfig:
    """The game configuration a scenario runs under (its own sections, the defaults elsewhere)."""
    render = RenderSection()
    if scenario.display is not None:
        render = RenderSection(interpolation=scenario.display.interpolation)
    return GameConfig(
        scheduler=scenario.scheduler, load=scenario.load, world=scenario.world, render=render
    )


def scenario_clock(scenario: Scenario, render_fps: Fraction | None = None) -> VirtualClock:
    """The scenario's virtual clock, optionally at another render rate."""
    clock = scenario.clock
    jitter_ns = int(clock.jitter_ms * NS_PER_MS)  # whole ns: the noise is drawn in ns
    return VirtualClock(
        clock.render_fps if render_fps is None else render_fps,
        clock.render_cost_ms * NS_PER_MS,
        jitter=FrameJitter(jitter_ns, clock.jitter_seed) if jitter_ns else None,
    )


def run_scenario(
    scenario: Scenario,
    *,
    render_fps: Fraction | None = None,
    until_tick: int | None = None,
    recorder: SessionRecorder | None = None,
) -> RunResult:
    """Play `scenario` for its `seconds` of wall time, or until tick `until_tick` comes first.

    `render_fps` replaces the scenario's render rate (the render-rate comparisons use it). A
    `recorder` (made with `scenario_config(scenario)`) records the run and is finished at its end.
    """
    display = scenario.display
    session = session_from(
        scenario_config(scenario),
        on_command=recorder.on_command if recorder is not None else None,
        on_tick_rate=recorder.tick_rate_changed if recorder is not None else None,
        refresh_hz=display.refresh_hz if display is not None else Fraction(60),
    )
    clock = scenario_clock(scenario, render_fps)
    result = run_headless(
        session,
        clock,
        scenario.timeline(),
        until_ns=scenario.until_ns,
        until_tick=until_tick,
        display=DisplayedClock(clock, VirtualDisplay(display.settings())) if display else None,
    )
    if recorder is not None:
        recorder.finish(session.lanes[0].world)
    return result
