"""`python -m game simulate`: its JSON contract, readable output, files, and its errors."""

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.scheduler.records import FRAME_KEYS

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"
EXPLAINER_SUMMARY_KEYS = (
    "frames", "ticks", "wall_ns", "paused_ns", "scaled_ns", "sim_time_ns", "dropped_ns",
    "remainder_ns", "backlog_steps", "conditioning_carry_ns", "ledger_ok",
)  # fmt: skip


def simulate_json(
    capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    assert main(["simulate", "--json", *args]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return lines[:-1], lines[-1]["summary"]


def test_json_is_the_explainers_frames_plus_wall_and_frame_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    frames, summary = simulate_json(
        capsys, "--render-fps", "50", "--hz", "50", "--seconds", "0.3", "--stall", "0.04:100"
    )
    keys = [*FRAME_KEYS, "wall_ns", "frame_ns", "resimulated", "rollback_depth"]
    assert [list(frame) for frame in frames] == [keys] * 10
    assert frames[0] == {
        "frame": 1, "elapsed_ns": 20_000_000, "steps": 1, "dt_ns": 20_000_000, "dropped_ns": 0,
        "remainder_ns": 0, "backlog_steps": 0, "alpha": 0.0, "tick": 1,
        "sim_time_ns": 20_000_000, "overloaded": False, "paused": False,
        "counted_ns": 20_000_000, "conditioning_carry_ns": 0,
        "wall_ns": 20_000_000, "frame_ns": 20_000_000, "resimulated": 0, "rollback_depth": 0,
    }  # fmt: skip
    stalled = frames[2]  # the frame that starts at 0.04 s lasts 20 + 100 ms and owes 6 ticks
    assert (stalled["frame_ns"], stalled["wall_ns"]) == (120_000_000, 160_000_000)
    assert (stalled["steps"], stalled["dropped_ns"], stalled["tick"]) == (5, 20_000_000, 7)
    assert list(summary) == [
        *EXPLAINER_SUMMARY_KEYS, "state_hash", "max_frame_ns", "spiral", "lag_ns", "runaway",
        "non_finite_tick", "rollback",
    ]  # fmt: skip
    assert summary["non_finite_tick"] is None
    assert summary["rollback"] is None  # no [network]
    assert {key: summary[key] for key in ("frames", "ticks", "wall_ns", "dropped_ns")} == {
        "frames": 10, "ticks": 14, "wall_ns": 300_000_000, "dropped_ns": 20_000_000,
    }  # fmt: skip
    assert (summary["max_frame_ns"], summary["lag_ns"], summary["spiral"]) == (
        120_000_000, 20_000_000, False,
    )  # fmt: skip
    assert len(summary["state_hash"]) == 64


@pytest.mark.parametrize(("policy", "spiral"), [("uncapped", True), ("drop", False)])
def test_a_step_cost_above_the_step_spirals_uncapped_and_not_capped(
    capsys: pytest.CaptureFixture[str], policy: str, spiral: bool
) -> None:
    _, summary = simulate_json(
        capsys, "--policy", policy, "--step-cost-ms", "20", "--seconds", "60"
    )
    assert (summary["spiral"], summary["runaway"]) == (spiral, spiral)


def test_the_same_command_twice_prints_the_same_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--json", "--scenario", str(SCENARIOS / "heavy_jitter.toml"),
            "--seconds", "2"]  # fmt: skip
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first


def test_without_json_it_prints_the_settings_a_table_by_second_and_the_totals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    scenario = str(SCENARIOS / "single_stall.toml")
    assert main(["simulate", "--scenario", scenario, "--seconds", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:4] == [
        "A single 200 ms stall",
        "One long frame owes 12 ticks; the cap M = 5 runs five and drops seven (116.7 ms).",
        "policy drop: run at most M steps, drop whole steps beyond M",
        "60 Hz (step 16.667 ms), M = 5, F = 250.0 ms, B = 1000.0 ms, time scale 1; render 144 "
        "fps, render cost 0 ms, step cost 0 ms, jitter 0 ms; 3 s",
    ]
    assert lines[6:9] == [
        "      0-1     144     60         1         6.944       0.000        0      0.000",
        "      1-2     144     60         1         6.944       0.000        0      0.000",
        "      2-3     115     52         5       206.944     116.667        0    131.944",
    ]
    assert lines[-3] == (
        "frames 403, ticks 172, wall 2998.611 ms (paused 0.000 ms), simulated 2866.667 ms, "
        "dropped 116.667 ms, lag 131.944 ms"
    )
    assert lines[-2] == "ledger balanced; longest frame 206.944 ms; spiral no"
    assert lines[-1].startswith("final tick 172 state ")


@pytest.mark.slow
def test_out_writes_the_frames_the_summary_and_the_timeline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "figures" / "stall"
    scenario = str(SCENARIOS / "single_stall.toml")
    assert main(["simulate", "--json", "--scenario", scenario, "--seconds", "3",
                 "--out", str(out)]) == 0  # fmt: skip
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    with (out / "frames.csv").open() as file:
        rows = list(csv.DictReader(file))
    assert list(rows[0]) == [*FRAME_KEYS, "wall_ns", "frame_ns", "lag_ns"]
    assert len(rows) == len(printed) - 1 == 403
    assert rows[288]["frame_ns"] == "206944444" and rows[288]["dropped_ns"] == "116666667"
    assert json.loads((out / "summary.json").read_text()) == printed[-1]
    png = (out / "timeline.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 50_000
    assert "fill: #ffffff" in (out / "timeline.svg").read_text()  # the light page by default


def test_a_recorded_simulation_replays_to_the_same_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "steady.replay"
    scenario = str(SCENARIOS / "steady_144.toml")
    assert main(["simulate", "--scenario", scenario, "--seconds", "8",
                 "--record", str(record)]) == 0  # fmt: skip
    final = capsys.readouterr().out.splitlines()[-1]
    assert main(["replay", str(record), "--render-fps", "30"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        final,
        "matches the recording (replayed at 30 fps)",
    ]


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (["--seconds", "0"], ["error: --seconds must be more than 0 (got '0')"]),
        (["--stall", "2"], ["error: --stall must be T:MS, like 2:200 for 200 ms at 2 s (got '2')"]),
        (["--stall", "2:-5"], ["error: --stall 2:-5: ms must be more than 0 (got '-5')"]),
        (["--max-steps", "x"],
         ["error: argument --max-steps: must be a whole number like 5 (got 'x')"]),
        (["--hz", "0", "--render-fps", "0"], [
            "error: --hz must be at least 0.1 (got '0')",
            "error: --render-fps must be at least 1 (got '0')",
        ]),
        (["--step-cost-ms", "41"], ["error: --step-cost-ms must be at most 40 (got '41')"]),
        (["--time-scale", "1/0"], ["error: --time-scale must be a number like 1/8 or 0.5 "
                                   "(got '1/0')"]),
    ],
)  # fmt: skip
def test_bad_flags_are_one_line_each_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], lines: list[str]
) -> None:
    assert main(["simulate", *args]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err.splitlines()) == ("", lines)


def test_an_out_path_that_is_a_file_or_a_missing_scenario_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "taken"
    a_file.write_text("")
    assert main(["simulate", "--out", str(a_file)]) == 2
    assert main(["simulate", "--scenario", str(tmp_path / "nope.toml")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: --out {a_file}: exists and is not a directory",
        f"{tmp_path / 'nope.toml'}: file not found",
    ]


def test_the_progress_bar_shows_only_on_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """Logs, pipes and tests see no bar: stderr is not a terminal here."""
    from game.workshop.runs.progress import on_a_terminal, progress_bar

    assert not on_a_terminal()
    with progress_bar(10, "seconds") as done:
        done(5)
    assert capsys.readouterr().err == ""
