"""`run_scenario`: a scenario played out on the game's own session and a virtual clock.

This is `python -m game simulate` without the printing: the scenario's settings become a
`GameConfig` (so the session is built exactly as the game builds it), its `[clock]` becomes a
`VirtualClock` (behind a `VirtualDisplay` when it has a `[display]`), and its stalls, changes
and inputs become the run's timeline.

A run is every frame that ends within the scenario's seconds. A stall whose frame would end after
that was never shown, and the run would look calm where the scenario asked for a stall, so the
run is refused instead (`UnfinishedRun`); which frame holds a stall depends on the frames before
it, so this is known only once they have run. (A stall that ends after the run is refused before
it starts: see `timeline_problems`.)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction

from game.clock.virtual import FrameJitter, VirtualClock
from game.config.exact import decimal_text
from game.config.model import GameConfig, RenderSection
from game.config.problems import Problem
from game.display.model import VirtualDisplay
from game.from_config import session_from
from game.session.rollback import Rollback
from game.session.session import LabSession
from game.stopping import Stopped, holding_stops
from game.workshop.files.frame_log import FrameLog
from game.workshop.files.network_section import NetworkSection
from game.workshop.files.recording import SessionRecorder
from game.workshop.files.scenario import Scenario
from game.workshop.files.timeline import KeyEdge
from game.workshop.runs.display_run import DisplayedFrames
from game.workshop.runs.runner import (
    FrameReport,
    FrameSink,
    HeadlessSource,
    RunResult,
    run_headless,
)
from timestep_lab import NS_PER_MS, NS_PER_SECOND, hz_to_step_ns


def scenario_config(scenario: Scenario) -> GameConfig:
    """The game configuration a scenario runs under (its own sections, the defaults elsewhere)."""
    render = RenderSection()
    if scenario.display is not None:
        render = RenderSection(interpolation=scenario.display.interpolation)
    return GameConfig(
        scheduler=scenario.scheduler,
        load=scenario.load,
        world=scenario.world,
        input=scenario.input,
        render=render,
    )


class UnfinishedRun(Exception):
    """The run could not show what the scenario asked for; `problem` says what, and where."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def tick_phase(scenario: Scenario) -> Fraction:
    """Where the run's steady frames end within a tick, in steps (`clock.tick_phase`): the
    scenario's or a flag's value when one sets it (`in_input_lab` sets the knob's default,
    mid-tick); else 0, frames starting on a tick boundary, as every other run always has (so
    their frames, figures and state hashes are what they were)."""
    clock = scenario.clock
    return clock.tick_phase if "tick_phase" in clock.model_fields_set else Fraction(0)


def in_input_lab(scenario: Scenario) -> Scenario:
    """`scenario` as the input lab runs it: at its `clock.tick_phase`, by default mid-tick, the
    phase docs/input.md's table assumes (frames of two ticks' time at 60 Hz and 30 fps then
    run two ticks each, rather than 1, 2, 3 on the boundary)."""
    clock = scenario.clock.model_copy(update={"tick_phase": scenario.clock.tick_phase})
    return scenario.model_copy(update={"clock": clock})


def tick_phase_text(phase: Fraction) -> str:
    """The tick phase in a line of a run's output."""
    where = "mid-tick" if phase == Fraction(1, 2) else "on the tick boundary" if not phase else ""
    said = f" (frames end {where})" if where else ""
    return f"tick phase {phase} of a step{said}; --tick-phase 0 or 1/2 moves it"


def scenario_clock(scenario: Scenario, render_fps: Fraction | None = None) -> VirtualClock:
    """The scenario's virtual clock, optionally at another render rate, at the run's tick phase
    (it counts the stall time of the frames it moved through: `held_stall_ns`, for
    `_check_stalls`)."""
    clock = scenario.clock
    jitter_ns = int(clock.jitter_ms * NS_PER_MS)  # whole ns: the noise is drawn in ns
    return VirtualClock(
        clock.render_fps if render_fps is None else render_fps,
        clock.render_cost_ms * NS_PER_MS,
        jitter=FrameJitter(jitter_ns, clock.jitter_seed) if jitter_ns else None,
        phase_ns=tick_phase(scenario) * hz_to_step_ns(scenario.scheduler.hz),
    )


def run_scenario(
    scenario: Scenario,
    *,
    source: HeadlessSource | None = None,
    render_fps: Fraction | None = None,
    until_tick: int | None = None,
    recorder: SessionRecorder | None = None,
    key_edges: tuple[KeyEdge, ...] = (),
    sink: FrameSink | None = None,
    keep: int | None = None,
    frame_log: FrameLog | None = None,
) -> RunResult:
    """Play `scenario` for its `seconds` of wall time, or until tick `until_tick` comes first.

    The frames come from the scenario's `[clock]` (behind its `[display]`, if it has one), or
    from `source` when one is given (a recording of real frame times, say): the stall check and
    the display's figures belong to the scenario's clock, and are left out then. `render_fps`
    replaces the scenario's render rate (the render-rate comparisons use it). A
    `recorder` (made with `scenario_config(scenario)`) records the run and is finished at its end
    (or at the frame a stop signal ended it: `Stopped`), or abandoned if the run raises:
    `UnfinishedRun` when a stall did not fit in it. `key_edges`
    are the avatar's keys (an input script's), read at frame boundaries. `sink` and `keep` are
    `run_headless`'s: each frame as it is made, and how many the result keeps (None: all).
    `frame_log` (`--frame-log`) hears each frame's length, and what its display presented.
    """
    display = scenario.display
    session = session_from(
        scenario_config(scenario),
        on_order=recorder.on_order if recorder is not None else None,
        on_tick_rate=recorder.tick_rate_changed if recorder is not None else None,
        refresh_hz=display.refresh_hz if display is not None else Fraction(60),
    )
    if scenario.network is not None:
        _connect(session, scenario.network, scenario.scheduler.hz, recorder)
    clock = scenario_clock(scenario, render_fps)
    shown = None
    if display is not None and source is None:
        shown = DisplayedFrames(clock, VirtualDisplay(display.settings()))
    sink = sink if frame_log is None else _logged(frame_log, shown, sink)
    timeline = replace(scenario.timeline(), key_edges=key_edges)
    with _recorded(recorder, session):
        result = run_headless(
            session,
            source or shown or clock,
            timeline,
            until_ns=scenario.until_ns,
            until_tick=until_tick,
            sink=sink if shown is None else shown.hearing(session, sink),
            keep=keep,
        )
        if shown is not None:
            judder, vrr = shown.figures(session)
            result = replace(result, judder=judder, vrr=vrr)
        ended = result.runaway or (until_tick is not None and result.tick >= until_tick)
        if source is None and not ended:
            _check_stalls(scenario, clock)
    return result


@contextmanager
def _recorded(recorder: SessionRecorder | None, session: LabSession) -> Iterator[None]:
    """The recording's end: finished with the run, or with the frame a stop signal ended it
    (a tick boundary, `game.stopping`), abandoned if the run fails."""
    if recorder is None:
        yield
        return
    try:
        yield
    except Stopped:
        recorder.finish(session.lanes[0].world, ended="signal")
        raise
    except BaseException:
        recorder.abandon()
        raise
    with holding_stops():  # a stop now waits for the final line and the rename
        recorder.finish(session.lanes[0].world)


def _connect(
    session: LabSession, network: NetworkSection, hz: Fraction, recorder: SessionRecorder | None
) -> None:
    """Play lane 0 against the remote peer of `[network]` (its arrivals recorded, if asked)."""
    world = session.lanes[0].world
    rollback = Rollback.online(world, network.settings(), hz_to_step_ns(hz))
    if recorder is not None:
        rollback.on_arrival = recorder.remote_arrived
    session.connect(rollback)


def _logged(
    frame_log: FrameLog, shown: DisplayedFrames | None, then: FrameSink | None
) -> FrameSink:
    """A sink that hands each frame's length to `frame_log`, then the frame to `then`; with a
    display, the log also reads what it presented."""
    if shown is not None:
        frame_log.show_on(shown.presented, vsync=shown.display.settings.vsync)

    def logged(report: FrameReport) -> None:
        frame_log.frame(report.plan.elapsed_ns)
        if then is not None:
            then(report)

    return logged


def _check_stalls(scenario: Scenario, clock: VirtualClock) -> None:
    """`UnfinishedRun` naming the first stall (in time) that no frame of the run held."""
    in_time = sorted(range(len(scenario.stalls)), key=lambda index: scenario.stalls[index].at)
    shown = clock.held_stall_ns
    for index in in_time:
        stall = scenario.stalls[index]
        shown -= stall.ms * NS_PER_MS
        if shown < 0:
            end_ns = max(
                clock.end_ns + clock.last_length_ns, stall.at * NS_PER_SECOND + stall.ms * NS_PER_MS
            )
            end = Fraction(math.ceil(end_ns / NS_PER_MS), 1000)  # in s, rounded up to the ms
            raise UnfinishedRun(
                Problem(
                    ("stalls", index),
                    f"does not fit in the run: the frame that holds it would end at "
                    f"{decimal_text(end)} s, after the run's {decimal_text(scenario.seconds)} s; "
                    "end it earlier or run longer",
                    involves=(("seconds",),),
                )
            )
