"""Rollback against a simulated remote peer: the frontier, exact books, no desync.

At steady latency (no jitter, no loss) and a remote player who flips the cannon's trigger every
tick (so every prediction is wrong), each frame receives the remote's input for the tick
R = ceil(latency / h) - input_delay ticks back, rolls back there and runs R ticks again before
its new one. A loop that renders one new tick a frame keeps up while (1 + R) c + r <= h.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from game.from_config import session_from
from game.network.peer import RemotePeer
from game.session.rollback import Rollback
from game.workshop.files.scenario import Scenario
from game.workshop.runs.reports import RunResult
from game.workshop.runs.runner import run_headless
from game.workshop.runs.simulation import run_scenario, scenario_clock, scenario_config
from game.workshop.sweep.frontier import FALLS_BEHIND, KEEPS_UP, ON_THE_FRONTIER, frontier
from game.world.snapshots import SnapshotRing
from game.world.world import World
from timestep_lab import NS_PER_MS, hz_to_step_ns

H_NS = hz_to_step_ns(60)
RENDER_COST_MS = Fraction(2)
WARM_UP = 30
"""Frames before the first remote input can arrive, and a margin."""
TICK_PHASE = Fraction(1, 100)
"""Frames start just past a tick boundary: there the input that arrives in a frame is the one
for ceil(latency / h) - input_delay ticks back (on the boundary itself, the frames' whole-ns
lengths would land a third of a ns short of it: see `game.clock.virtual`)."""


def network_scenario(step_cost_ms: Fraction, **network: object) -> Scenario:
    """60 Hz ticks at 60 fps, at `TICK_PHASE`, with `[network]` as given (every tick flips)."""
    seconds = network.pop("seconds", 3)
    policy = network.pop("policy", "uncapped")
    return Scenario.model_validate(
        {
            "seconds": seconds,
            "scheduler": {"hz": 60, "policy": policy},
            "load": {"step_cost_ms": step_cost_ms},
            "clock": {
                "render_fps": 60,
                "render_cost_ms": RENDER_COST_MS,
                "tick_phase": TICK_PHASE,
            },
            "network": {"remote_flips_per_s": 60, **network},
        }
    )


def depth(latency_ms: int, input_delay: int) -> int:
    """R = ceil(latency / h) - input delay, in ticks."""
    return math.ceil(latency_ms * NS_PER_MS / H_NS) - input_delay


def frontier_cost_ms(rollback_depth: int) -> Fraction:
    """The largest step cost c with (1 + R) c + r <= h."""
    return (H_NS / NS_PER_MS - RENDER_COST_MS) / (1 + rollback_depth)


CASES = [(100, 0), (50, 1), (100, 2)]
"""Latencies of a whole number of steps (6 and 3): there R is the same wherever the frames fall
within a tick (`test_between_...` shows what happens between two depths)."""


@pytest.mark.parametrize(("latency_ms", "input_delay"), CASES)
def test_on_the_frontier_every_frame_renders_one_new_tick_and_re_simulates_r(
    latency_ms: int, input_delay: int
) -> None:
    rollback_depth = depth(latency_ms, input_delay)
    cost = frontier_cost_ms(rollback_depth)
    result = run_scenario(network_scenario(cost, latency_ms=latency_ms, input_delay=input_delay))
    steady = result.frames[WARM_UP:]
    assert {frame.plan.steps for frame in steady} == {1}
    assert {frame.rollback.resimulated for frame in steady} == {rollback_depth}
    assert {frame.rollback.depth for frame in steady} == {rollback_depth}
    assert {frame.frame_ns for frame in steady} == {16_666_666, 16_666_667}
    assert result.rollback is not None and result.rollback.desyncs == 0


@pytest.mark.parametrize(("latency_ms", "input_delay"), CASES)
def test_a_microsecond_past_the_frontier_frames_outlast_the_step(
    latency_ms: int, input_delay: int
) -> None:
    rollback_depth = depth(latency_ms, input_delay)
    cost = frontier_cost_ms(rollback_depth) + Fraction(1, 1000)
    result = run_scenario(network_scenario(cost, latency_ms=latency_ms, input_delay=input_delay))
    steady = result.frames[WARM_UP:]
    longest = (1 + rollback_depth) * cost * NS_PER_MS + RENDER_COST_MS * NS_PER_MS
    assert max(frame.frame_ns for frame in steady) == math.ceil(longest)
    assert longest > H_NS
    assert len(result.frames) < 3 * 60


def test_the_depths_are_the_formula_s() -> None:
    assert [depth(latency, delay) for latency, delay in CASES] == [6, 2, 4]
    assert frontier_cost_ms(6) == Fraction(44, 21)


def test_between_the_two_depths_the_frames_drift_later_into_the_tick_and_settle() -> None:
    """90 ms is 5.4 steps: frames just past a tick roll back ceil(5.4) - 2 = 4 ticks, frames just
    before one floor(5.4) - 2 = 3. Too slow for 4 but not for 3, the frames outlast the step,
    start later and later within the tick, and settle at the tick rate rolling back 3; too slow
    for 3 as well, they never come back."""
    between = (frontier_cost_ms(4) + frontier_cost_ms(3)) / 2  # 3.3 ms: 2.933 and 3.667
    result = run_scenario(network_scenario(between, latency_ms=90, input_delay=2))
    first, last = result.frames[6:13], result.frames[-60:]  # the remote's first input: frame 7
    assert [frame.rollback.depth for frame in first] == [4, 4, 4, 4, 4, 3, 3]
    assert [frame.frame_ns // 1000 for frame in first] == [16_666, *[18_500] * 5, 16_666]
    assert {frame.rollback.depth for frame in last} == {3}
    assert {frame.frame_ns for frame in last} == {16_666_666, 16_666_667}
    beyond = frontier_cost_ms(3) + Fraction(1, 10)
    result = run_scenario(network_scenario(beyond, latency_ms=90, input_delay=2))
    assert min(frame.frame_ns for frame in result.frames[-60:]) > H_NS


def test_a_window_smaller_than_the_latency_stalls_and_every_frame_still_balances() -> None:
    result = run_scenario(
        network_scenario(Fraction(1), latency_ms=200, prediction_window=4, policy="drop")
    )
    rollback = result.rollback
    assert rollback is not None
    assert rollback.window_stalls > 0
    assert rollback.max_depth <= 4
    assert rollback.desyncs == 0
    assert all(frame.plan.balances for frame in result.frames)
    assert result.books["ledger_ok"] is True
    stalled = [frame for frame in result.frames if frame.rollback.window_stall]
    assert len(stalled) == rollback.window_stalls
    last = result.frames[-1].plan
    dropped = sum(frame.plan.dropped_ns for frame in result.frames)
    wall = sum(frame.frame_ns for frame in result.frames)
    assert wall == last.sim_time_ns + dropped + last.carried_out_ns
    assert dropped > 0


def test_without_a_network_section_nothing_changes_and_rollback_is_null() -> None:
    scenario = network_scenario(Fraction(1), latency_ms=100)
    plain = scenario.model_copy(update={"network": None})
    result = run_scenario(plain)
    assert result.rollback is None
    assert result.summary()["rollback"] is None
    assert {(f.record()["resimulated"], f.record()["rollback_depth"]) for f in result.frames} == {
        (0, 0)
    }


class NudgingRing(SnapshotRing):
    """A ring that restores a tick with its first body a micrometre off: a broken rollback."""

    def restore(self, world: World, tick: int) -> None:
        super().restore(world, tick)
        world._bodies.live().position[0, 0] += 1e-6


def broken_run() -> RunResult:
    scenario = network_scenario(Fraction(1), latency_ms=100, seconds=2)
    assert scenario.network is not None
    session = session_from(scenario_config(scenario))
    world = session.lanes[0].world
    settings = scenario.network.settings()
    peer = RemotePeer(settings, H_NS, world.cannon_on)
    session.connect(Rollback(world, settings, NudgingRing(10), peer=peer, window=8))
    return run_headless(session, scenario_clock(scenario), until_ns=scenario.until_ns)


def test_a_rollback_that_restores_less_than_the_tick_had_is_a_desync_at_its_first_tick() -> None:
    result = broken_run()
    assert result.rollback is not None
    assert result.rollback.desyncs > 0
    first = result.rollback.first_desync_tick
    assert first is not None and first % 15 == 14
    assert result.rollback.summary()["first_desync_tick"] == first


SYNCS = ("none", "wait", "stretch")
TenMinutes = tuple[int, int, int, int, bool]
"""desyncs, prediction misses, re-simulated ticks, final tick, whether every frame balanced."""


def ten_minutes_of(time_sync: str) -> TenMinutes:
    scenario = Scenario.model_validate(
        {
            "seconds": 600,
            "clock": {"render_fps": 60},
            "network": {
                "latency_ms": 100,
                "jitter_ms": 20,
                "loss": "0.05",
                "input_delay": 2,
                "time_sync": time_sync,
                "seed": 7,
            },
        }
    )
    result = run_scenario(scenario, keep=0)
    rollback = result.rollback
    assert rollback is not None
    ok = result.books["ledger_ok"] is True
    figures = (rollback.desyncs, rollback.prediction_misses, rollback.resimulated_ticks)
    return (*figures, result.tick, ok)


@pytest.mark.slow
@pytest.mark.parametrize("time_sync", SYNCS)
def test_ten_minutes_at_100_ms_20_ms_jitter_and_5_percent_loss_never_desync(
    time_sync: str,
) -> None:
    desyncs, misses, resimulated, tick, balanced = ten_minutes_of(time_sync)
    assert desyncs == 0
    assert misses > 1000
    assert resimulated > misses
    assert tick == 36_000
    assert balanced


def test_re_simulated_ticks_light_the_overload_light_and_count_for_the_spiral_rule() -> None:
    scenario = network_scenario(Fraction(1), latency_ms=100, seconds=2)
    assert scenario.network is not None
    session = session_from(scenario_config(scenario))
    world = session.lanes[0].world
    session.connect(Rollback.online(world, scenario.network.settings(), H_NS))
    result = run_headless(session, scenario_clock(scenario), until_ns=scenario.until_ns)
    lane = session.lanes[0]
    last = result.frames[-1]
    assert (last.plan.steps, last.rollback.resimulated) == (1, 6)  # 7 ticks of work, M = 5
    assert last.plan.overloaded is False  # the scheduler saw one tick a frame
    assert lane.work_light.on is True
    assert lane.history.window(1.0).overloaded[-1]
    assert lane.spiral.last.ticks == 7


def test_the_sweep_s_theory_for_a_network_scenario_is_the_tick_rate_s_frontier() -> None:
    at_100 = network_scenario(Fraction(2), latency_ms=100)
    theory = frontier(at_100)
    assert (theory.resimulated, theory.cost_ms) == (6, Fraction(44, 21))
    assert theory.verdict(Fraction(2 * NS_PER_MS)) == KEEPS_UP
    assert theory.verdict(Fraction(44, 21) * NS_PER_MS) == ON_THE_FRONTIER
    assert theory.verdict(Fraction(22, 10) * NS_PER_MS) == FALLS_BEHIND
    at_90 = frontier(network_scenario(Fraction(2), latency_ms=90, input_delay=2))
    assert (at_90.resimulated, at_90.cost_ms) == (3, Fraction(11, 3))  # floor(5.4) - 2
    plain = frontier(at_100.model_copy(update={"network": None}))
    assert plain.resimulated is None


@pytest.mark.parametrize(
    ("time_sync", "waited", "stretched"), [("wait", True, False), ("stretch", False, True)]
)
def test_after_a_stall_that_drops_time_the_remote_ahead_of_us_waits_or_stretches(
    time_sync: str, waited: bool, stretched: bool
) -> None:
    scenario = Scenario.model_validate(
        {
            "seconds": 8,
            "scheduler": {"hz": 60, "policy": "drop"},
            "clock": {"render_fps": 60},
            "stalls": [{"at": 1, "ms": 500}],
            "network": {"latency_ms": 50, "time_sync": time_sync, "seed": 3},
        }
    )
    assert scenario.network is not None
    session = session_from(scenario_config(scenario))
    world = session.lanes[0].world
    rollback = Rollback.online(world, scenario.network.settings(), H_NS)
    session.connect(rollback)
    result = run_headless(
        session, scenario_clock(scenario), scenario.timeline(), until_ns=scenario.until_ns
    )
    peer = rollback.peer
    assert peer is not None
    assert result.books["dropped_ns"] > 0  # we fell about 25 ticks behind the remote
    assert (peer.waited_frames > 0, peer.stretched_ticks > 0) == (waited, stretched)
    assert abs(peer.tick - result.tick) < 3 * 60 // 10  # and it let us catch up
    assert result.rollback is not None and result.rollback.desyncs == 0
