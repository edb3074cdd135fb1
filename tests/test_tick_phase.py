"""The virtual clock's tick phase: where steady frames end within a tick.

At 60 Hz and 30 fps every frame holds two ticks' time. On the tick boundary (phase 0), 1/30 s in
whole ns lands a third of a nanosecond short of two ticks, and the frames run 1, 2, 3 ticks;
mid-tick (phase 1/2, the input lab's default and docs/input.md's table's assumption) they run 2.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.clock.virtual import VirtualClock
from game.workshop.tables.frame_edge import frame_edge_shares, grid_run
from timestep_lab import FrameRan

TAPS = "random jump 4/s seed 7\n"


def simulate(capsys: pytest.CaptureFixture[str], tmp_path: Path, *flags: str) -> list[str]:
    taps = tmp_path / "taps.txt"
    taps.write_text(TAPS, encoding="utf-8")
    args = ["simulate", "--hz", "60", "--render-fps", "30", "--input-script", str(taps),
            "--input-models", "frame-edge", *flags]  # fmt: skip
    assert main(args) == 0
    return capsys.readouterr().out.splitlines()


def test_the_first_frame_lasts_the_phase_longer_and_the_rest_are_steady() -> None:
    clock = VirtualClock(30, phase_ns=Fraction(25_000_000, 3))  # half a 60 Hz step
    lengths = [clock.next_frame(FrameRan()) for _ in range(4)]
    assert lengths == [41_666_666, 33_333_334, 33_333_333, 33_333_333]
    assert clock.end_ns == Fraction(425_000_000, 3)  # 8.333... ms + 4 frames of 1/30 s, exactly


def test_the_table_and_simulate_agree_at_the_default_phase_every_tap_doubled(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lost, doubled = frame_edge_shares(grid_run(Fraction(60), 30).frames[1:])
    assert (lost, doubled) == (0, 1)  # the input table's "0.0% lost, 100.0% doubled"
    lines = simulate(capsys, tmp_path)
    assert lines[-3:] == [
        "tick phase 1/2 of a step (frames end mid-tick); --tick-phase 0 or 1/2 moves it",
        "model       presses  seen  lost  doubled  merged",
        "frame-edge       37     0     0       37       0",
    ]


def test_the_boundary_phase_is_one_setting_away_and_runs_1_2_3(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = simulate(capsys, tmp_path, "--tick-phase", "0")
    assert lines[-3:] == [
        "tick phase 0 of a step (frames end on the tick boundary); --tick-phase 0 or 1/2 moves it",
        "model       presses  seen  lost  doubled  merged",
        "frame-edge       37    15     0       22       0",
    ]
    assert main(["simulate", "--hz", "60", "--render-fps", "30", "--seconds", "1",
                 "--tick-phase", "0", "--json"]) == 0  # fmt: skip
    frames = [json.loads(line) for line in capsys.readouterr().out.splitlines()[:-1]]
    assert [frame["steps"] for frame in frames[:9]] == [1, 2, 3, 1, 2, 3, 1, 2, 3]


def test_a_run_without_inputs_keeps_its_frames_on_the_boundary_unless_it_sets_a_phase(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def steps(*flags: str) -> list[int]:
        assert main(["simulate", "--hz", "60", "--render-fps", "30", "--seconds", "1",
                     "--json", *flags]) == 0  # fmt: skip
        lines = capsys.readouterr().out.splitlines()[:-1]
        return [json.loads(line)["steps"] for line in lines[:6]]

    assert steps() == [1, 2, 3, 1, 2, 3]  # as every run without inputs always was
    assert steps("--tick-phase", "1/2") == [2, 2, 2, 2, 2, 2]


@pytest.mark.parametrize("phase", ["1", "-1/2", "0.5.5"])
def test_a_phase_outside_a_step_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], phase: str
) -> None:
    assert main(["simulate", f"--tick-phase={phase}"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: --tick-phase") and f"(got {phase!r})" in line


@pytest.mark.slow
def test_the_inputs_table_says_the_phase_it_assumes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inputs", "--table"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "steady frames at tick phase 1/2 of a step (frames end mid-tick); --tick-phase 0 or 1/2 "
        "moves it in simulate"
    )
