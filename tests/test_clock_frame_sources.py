"""`FrameSource`: one seam, four shapes. The same frames through each give the same plans.

Half a second of the default scene at 60 Hz, each tick costing 9 ms, at most 2 ticks a frame: a
frame that runs two ticks does 18 ms of work, longer than the 16.7 ms budget, so the next frame
lasts 18 ms. The virtual clock computes that; a 60 Hz vsynced display computes the same (every
frame starts on a vblank, the long one on the one after); a recording of those lengths plays them
back; and the wall's shape, driven by a `ManualClock` that the frames' work moves on, measures
them. Four answers to `next_frame`, one list of plans.
"""

from fractions import Fraction
from pathlib import Path

import pytest

from game.clock.manual import ManualClock
from game.clock.recorded import RecordedFrames
from game.clock.virtual import VirtualClock
from game.config.model import GameConfig, LoadSection, SchedulerSection
from game.display.model import DisplaySettings, VirtualDisplay
from game.from_config import session_from
from game.session.session import LabSession
from game.workshop.files.scenario_loading import Flag, load_scenario
from game.workshop.runs.display_run import DisplayedFrames
from game.workshop.runs.runner import RunResult, run_headless
from game.workshop.runs.simulation import run_scenario
from timestep_lab import NOTHING_RAN, FrameRan, StepPlan

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"

HALF_A_SECOND = 500_000_000
FRAMES = [16_666_666, 16_666_667, 16_666_667, 18_000_000, 16_666_666, 16_666_667]
"""The first frames: two ticks of 9 ms ran in the third, so the fourth lasts 18 ms."""


def session() -> LabSession:
    config = GameConfig(
        scheduler=SchedulerSection(policy="drop", max_steps=2),
        load=LoadSection(step_cost_ms=Fraction(9)),
    )
    return session_from(config)


def plans(result: RunResult) -> list[StepPlan]:
    return [frame.plan for frame in result.frames]


def measured(lengths: list[int]) -> list[StepPlan]:
    """The game loop's shape: each frame's work moves the clock on; the wall measures it."""
    clock, lab = ManualClock(start_ns=123_456_789), session()
    clock.start_frames()
    plans = []
    for length in lengths:
        clock.move_on(length)  # the frame's ticks and drawing take their time
        elapsed = clock.next_frame()
        assert elapsed is not None
        frame = lab.begin(elapsed)
        while frame.next_tick():
            pass
        plans.append(frame.finish()[0])
    return plans


def test_the_same_frames_through_every_source_give_the_same_plans() -> None:
    virtual = plans(run_headless(session(), VirtualClock(60), until_ns=HALF_A_SECOND))
    lengths = [plan.elapsed_ns for plan in virtual]
    assert lengths[:6] == FRAMES
    assert (len(virtual), virtual[-1].tick, sum(lengths)) == (29, 29, 484_666_666)
    long = virtual[3]  # 18 ms: one tick, and 18 - 16 2/3 = 1 1/3 ms carried on
    assert (long.steps, long.tick, long.remainder_ns) == (1, 4, Fraction(4_000_000, 3))
    lab, display = session(), DisplayedFrames(VirtualClock(60), VirtualDisplay(DisplaySettings()))
    displayed = plans(run_headless(lab, display, until_ns=HALF_A_SECOND, sink=display.hearing(lab)))
    recorded = plans(run_headless(session(), RecordedFrames(lengths), until_ns=HALF_A_SECOND))
    assert displayed == recorded == measured(lengths) == virtual


def test_a_recording_plays_its_lengths_whatever_ran_and_stops_at_its_end() -> None:
    source = RecordedFrames([16_000_000, 20_000_000, 7])
    assert source.next_frame(NOTHING_RAN) == 16_000_000
    assert source.next_frame(FrameRan(steps=40, step_cost_ns=10**9, stall_ns=10**9)) == 20_000_000
    assert source.next_frame(NOTHING_RAN, until_ns=36_000_006) is None  # would end at ..._007
    assert (source.end_ns, source.played) == (36_000_000, 2)  # it stayed where it was
    assert source.next_frame(NOTHING_RAN, until_ns=36_000_007) == 7
    assert source.next_frame(NOTHING_RAN) is None
    assert source.end_ns == 36_000_007


def test_a_recording_ends_a_headless_run_when_it_runs_out() -> None:
    result = run_headless(session(), RecordedFrames([20_000_000] * 3), until_tick=1_000)
    assert (len(result.frames), result.tick) == (3, 3)


@pytest.mark.parametrize(
    ("lengths", "error", "message"),
    [
        ([16_000_000, -1], ValueError, "a recorded frame cannot be negative"),
        ([16.6], TypeError, "a recorded frame must be an int of nanoseconds, not float"),
    ],
)
def test_a_recording_refuses_what_is_not_whole_ns(
    lengths: list[int], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        RecordedFrames(lengths)


def test_a_measured_clock_counts_its_frames_from_start_frames() -> None:
    clock = ManualClock(start_ns=5_000)
    clock.move_on(1_000)  # before the frames start: the warm-up is no frame's time
    assert clock.start_frames() == 6_000
    clock.move_on(16_000_000)
    assert clock.next_frame() == 16_000_000
    clock.move_on(4_000_000)
    assert clock.next_frame(until_ns=19_999_999) is None  # 20 ms in: past the end
    assert clock.end_ns == 16_000_000
    assert clock.next_frame() == 4_000_000
    assert clock.end_ns == 20_000_000


def test_a_scenario_runs_on_a_source_handed_to_it() -> None:
    # Where a capture of real frame times plugs in: the scenario's session and timeline, the
    # frames from the recording. Its own clock's frames, recorded, give the same run.
    scenario = load_scenario(SCENARIOS / "steady_144.toml", [Flag("--seconds", ("seconds",), "2")])
    own = run_scenario(scenario)
    lengths = [frame.frame_ns for frame in own.frames]
    again = run_scenario(scenario, source=RecordedFrames(lengths))
    assert (len(own.frames), own.tick) == (288, 120)
    assert plans(again) == plans(own)
    assert again.state_hash == own.state_hash
