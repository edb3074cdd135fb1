"""`run_headless`: the game's session driven by the virtual clock, its timeline, and the spiral."""

import gc
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from game.clock.virtual import VirtualClock
from game.config.model import GameConfig, LoadSection, SchedulerSection
from game.from_config import session_from
from game.session.session import LabSession
from game.workshop.files.scenario_loading import load_scenario
from game.workshop.files.timeline import (
    PlayerInput,
    SettingsChange,
    Stall,
    TickRateChange,
    Timeline,
)
from game.workshop.runs.runner import RUNAWAY_WORK_NS, run_headless
from game.workshop.runs.simulation import run_scenario
from game.world.orders import Fire, Order, Reset, SetIntegrator
from timestep_lab import NS_PER_SECOND

SECOND = Fraction(1_000_000_000)
MS = Fraction(1_000_000)
STEP_60_HZ = Fraction(50_000_000, 3)


def session(policy: str = "drop", step_cost_ms: int = 0, **scheduler: Any) -> LabSession:
    config = GameConfig(
        scheduler=SchedulerSection(policy=policy, **scheduler),
        load=LoadSection(step_cost_ms=Fraction(step_cost_ms)),
    )
    return session_from(config)


def test_a_quiet_run_is_the_game_at_its_frame_rate_with_balanced_books() -> None:
    result = run_headless(session(), VirtualClock(144), until_ns=10 * SECOND)
    assert (len(result.frames), result.tick) == (1440, 600)
    assert result.books["wall_ns"] == 10 * SECOND
    assert result.books["ledger_ok"] is True
    assert (result.spiral, result.runaway, result.lag_ns) == (False, False, 0)
    assert result.frames[-1].wall_ns == 10 * SECOND


def test_a_stall_lengthens_the_frame_that_starts_at_the_first_boundary_at_or_after_it() -> None:
    timeline = Timeline(stalls=(Stall(2 * SECOND, 200 * MS),))
    result = run_headless(session(), VirtualClock(144), timeline, until_ns=3 * SECOND)
    before, stalled = result.frames[287], result.frames[288]
    assert before.wall_ns == 2 * SECOND
    assert stalled.frame_ns == 206_944_444
    # 12 whole ticks owed: drop runs M = 5 and drops 7, keeping the sub-step remainder.
    assert stalled.plan.steps == 5
    assert stalled.plan.dropped_ns == 7 * STEP_60_HZ
    assert stalled.plan.remainder_ns == 6_944_444


def test_knobs_turn_at_the_first_frame_boundary_at_or_after_their_time() -> None:
    timeline = Timeline(
        changes=(SettingsChange(SECOND, max_steps=1, render_fps=Fraction(30)),),
        stalls=(Stall(SECOND, 200 * MS),),
    )
    result = run_headless(session(), VirtualClock(144), timeline, until_ns=2 * SECOND)
    frames = [(frame.number, frame.frame_ns, frame.plan.steps) for frame in result.frames[143:147]]
    assert frames == [
        (144, 6_944_445, 1),  # ends on 1 s: planned with M = 1 already
        (145, 233_333_333, 1),  # a 30 fps frame plus the stall; M = 1 runs one tick
        (146, 33_333_333, 1),
        (147, 33_333_334, 1),
    ]


def test_paused_time_is_counted_as_paused_and_never_simulated() -> None:
    timeline = Timeline(
        changes=(SettingsChange(3 * SECOND, paused=True), SettingsChange(13 * SECOND, paused=False))
    )
    result = run_headless(session("uncapped"), VirtualClock(144), timeline, until_ns=18 * SECOND)
    assert result.books["paused_ns"] == 10 * SECOND
    assert result.books["sim_time_ns"] == 8 * SECOND
    assert result.tick == 480
    assert max(frame.plan.steps for frame in result.frames) == 1  # no catch-up burst on resume


def test_the_uncapped_policy_spirals_when_a_tick_costs_more_than_it_simulates() -> None:
    result = run_headless(session("uncapped", 20), VirtualClock(144), until_ns=60 * SECOND)
    assert result.spiral is True
    assert result.runaway is True
    steps = [frame.plan.steps for frame in result.frames]
    assert steps[-3:] == [383, 460, 552]  # x 1.2 a frame: 20 ms of work per 16.67 ms tick
    assert steps[-1] * 20 * MS > RUNAWAY_WORK_NS >= steps[-2] * 20 * MS
    assert (len(result.frames), result.tick, result.max_frame_ns) == (39, 3307, 9_200 * MS)
    assert result.books["dropped_ns"] == 0


def test_the_drop_policy_with_the_same_cost_levels_off_at_its_cap() -> None:
    result = run_headless(session("drop", 20), VirtualClock(144), until_ns=60 * SECOND)
    assert (result.spiral, result.runaway) == (False, False)
    assert result.max_frame_ns == 100 * MS  # M = 5 ticks of 20 ms
    assert {frame.frame_ns for frame in result.frames[-100:]} == {100 * MS}
    assert result.books["dropped_ns"] == 9_916_666_667
    assert result.books["ledger_ok"] is True


def test_without_a_step_cost_the_uncapped_policy_does_not_spiral() -> None:
    result = run_headless(session("uncapped"), VirtualClock(144), until_ns=20 * SECOND)
    assert (result.spiral, result.max_frame_ns) == (False, 6_944_445)


def test_a_run_can_stop_exactly_on_a_tick_in_the_middle_of_a_frame() -> None:
    result = run_headless(session("uncapped"), VirtualClock(30), until_tick=7)
    ran = [(frame.plan.steps, frame.plan.tick) for frame in result.frames]
    assert ran == [(1, 1), (2, 3), (3, 6), (1, 7)]  # the last frame planned 2 and ran 1
    assert result.books["ticks"] == 7
    assert result.books["ledger_ok"] is True


def test_inputs_go_through_the_session_right_before_their_tick_even_inside_a_frame() -> None:
    stamped: list[tuple[int, Order]] = []
    config = GameConfig()
    lab = session_from(config, lambda lane, order: stamped.append((lane, order)))
    inputs = (
        PlayerInput(5, "fire"),
        PlayerInput(9, "integrator", integrator="verlet"),
        PlayerInput(9, "reset"),
    )
    run_headless(lab, VirtualClock(30), Timeline(tick_events=inputs), until_tick=12)
    # The integrator is a change of controls: it stops the frame at tick 9 and is made once
    # the frame has finished, so it is stamped after the reset, for the same tick.
    assert [(lane, type(order), order.tick) for lane, order in stamped] == [
        (0, Fire, 5),
        (0, Reset, 9),
        (0, SetIntegrator, 9),
    ]
    assert lab.lanes[0].world.integrator == "verlet"


def test_a_tick_rate_change_stops_the_frame_at_its_tick_and_is_reported() -> None:
    heard: list[tuple[int, Fraction]] = []
    timeline = Timeline(tick_events=(TickRateChange(10, Fraction(30)),))
    heard_by = session_from(GameConfig(), on_tick_rate=lambda tick, hz: heard.append((tick, hz)))
    result = run_headless(heard_by, VirtualClock(15), timeline, until_tick=20)
    ticks = [frame.plan.tick for frame in result.frames]
    assert 10 in ticks  # a frame ended exactly there, whatever its plan was
    assert heard == [(10, Fraction(30))]
    assert result.frames[-1].plan.dt_ns == Fraction(100_000_000, 3)
    assert result.books["ledger_ok"] is True


def test_a_run_needs_an_end_it_can_reach() -> None:
    with pytest.raises(ValueError, match="a headless run needs an end"):
        run_headless(session(), VirtualClock(144))
    paused = Timeline(changes=(SettingsChange(Fraction(0), paused=True),))
    with pytest.raises(ValueError, match="paused for good: tick 5 can never be reached"):
        run_headless(session(), VirtualClock(144), paused, until_tick=5)
    assert gc.isenabled()  # the run paused it (`run_headless`), and it is back on


def test_the_collector_comes_back_without_walking_what_the_run_made() -> None:
    # Back on, the collector would walk every object the run made in its next collection; they
    # go to the oldest generation instead (`collector_paused`), so the young ones stay small.
    gc.collect()
    result = run_headless(session(), VirtualClock(144), until_ns=20 * NS_PER_SECOND)
    assert len(result.frames) == 2_880
    young = len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1))
    assert young < 1_000  # the run kept some 20,000 tracked objects: none of them is here
    assert gc.isenabled()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["judder_144", "vrr_lfc", "heartbeat_snap", "single_stall"])
def test_a_run_leaves_no_reference_cycles_for_the_collector_it_pauses(name: str) -> None:
    # `run_headless` turns the cyclic collector off while it runs: fine only while everything
    # a run throws away goes by reference counting, and the collector comes back on.
    scenario = load_scenario(Path(__file__).resolve().parents[1] / f"configs/scenarios/{name}.toml")
    gc.collect()
    gc.disable()
    try:
        run_scenario(scenario)
        assert gc.collect() == 0
    finally:
        gc.enable()
    run_scenario(scenario)
    assert gc.isenabled()
