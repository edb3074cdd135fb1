"""Determinism: the same inputs give the same state at the same tick at any render rate, and
the same run twice gives the same frames."""

from fractions import Fraction
from pathlib import Path

import pytest

from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import Flag, load_scenario
from game.workshop.runs.simulation import run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"
RATES = (30, 60, 144, 240)


def scenario(name: str, *flags: Flag) -> Scenario:
    return load_scenario(SCENARIOS / f"{name}.toml", flags)


def test_scripted_inputs_give_the_same_state_at_the_same_tick_at_30_60_144_and_240_fps() -> None:
    steady = scenario("steady_144")  # fires at ticks 60 and 150, explicit Euler at 240, reset 420
    runs = {fps: run_scenario(steady, render_fps=Fraction(fps), until_tick=450) for fps in RATES}
    assert {run.tick for run in runs.values()} == {450}
    assert {run.books["dropped_ns"] for run in runs.values()} == {0}
    assert len({run.state_hash for run in runs.values()}) == 1
    assert [len(run.frames) for run in runs.values()] == [225, 450, 1080, 1800]


def test_the_frame_rate_does_not_matter_even_when_frames_jitter() -> None:
    jitter = scenario("heavy_jitter")
    hashes = {
        run_scenario(jitter, render_fps=Fraction(fps), until_tick=300).state_hash for fps in RATES
    }
    steady = run_scenario(scenario("steady_144"), until_tick=300)
    assert len(hashes) == 1
    assert hashes != {steady.state_hash}  # different inputs, different state: the hash sees them


def test_the_variable_policy_is_what_a_fixed_step_fixes_its_state_depends_on_the_frame_rate() -> (
    None
):
    variable = scenario("steady_144", Flag("--policy", ("scheduler", "policy"), "variable"))
    hashes = {
        run_scenario(variable, render_fps=Fraction(fps), until_tick=200).state_hash
        for fps in (30, 144)
    }
    assert len(hashes) == 2


@pytest.mark.parametrize("name", ["heavy_jitter", "spiral"])
def test_the_same_scenario_twice_gives_the_same_frames_and_summary(name: str) -> None:
    short = scenario(name, Flag("--seconds", ("seconds",), "3"))
    first, second = run_scenario(short), run_scenario(short)
    assert [frame.record() for frame in first.frames] == [frame.record() for frame in second.frames]
    assert first.summary() == second.summary()
