"""`python -m game schedule`: the explainer's JSON contract, its table, and its errors."""

import json
import subprocess
import sys
from typing import Any

import pytest

from game.cli import main
from game.scheduler.records import FRAME_KEYS

SUMMARY_KEYS = {
    "frames",
    "ticks",
    "wall_ns",
    "paused_ns",
    "scaled_ns",
    "sim_time_ns",
    "dropped_ns",
    "remainder_ns",
    "backlog_steps",
    "conditioning_carry_ns",
    "ledger_ok",
}


def run_json(
    capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    assert main(["schedule", "--json", *args]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return lines[:-1], lines[-1]["summary"]


def test_the_step_cap_article_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    frames, summary = run_json(
        capsys, "--hz", "50", "--max-steps", "4", "--initial-remainder-ms", "15", "200", "5"
    )
    assert frames[0] == {
        "frame": 1,
        "elapsed_ns": 200_000_000,
        "steps": 4,
        "dt_ns": 20_000_000,
        "dropped_ns": 120_000_000,
        "remainder_ns": 15_000_000,
        "backlog_steps": 0,
        "alpha": 0.75,
        "tick": 4,
        "sim_time_ns": 80_000_000,
        "overloaded": False,
        "paused": False,
        "counted_ns": 200_000_000,
        "conditioning_carry_ns": 0,
    }
    assert (frames[1]["steps"], frames[1]["tick"], frames[1]["remainder_ns"]) == (1, 5, 0)
    assert summary == {
        "frames": 2,
        "ticks": 5,
        "wall_ns": 205_000_000,
        "paused_ns": 0,
        "scaled_ns": 205_000_000,
        "sim_time_ns": 100_000_000,
        "dropped_ns": 120_000_000,
        "remainder_ns": 0,
        "backlog_steps": 0,
        "conditioning_carry_ns": 0,
        "ledger_ok": True,
    }


def test_every_frame_line_has_exactly_the_contract_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    frames, summary = run_json(capsys, "16.667x3", "250")
    assert all(list(frame) == list(FRAME_KEYS) for frame in frames)
    assert set(summary) == SUMMARY_KEYS


def test_frames_are_read_exactly_and_repeated(capsys: pytest.CaptureFixture[str]) -> None:
    frames, summary = run_json(capsys, "16.667x600")
    assert len(frames) == 600
    assert {frame["elapsed_ns"] for frame in frames} == {16_667_000}
    # 600 x 16.667 ms = 10.0002 s at 60 Hz: 600 ticks and 0.2 ms carried.
    assert (summary["ticks"], summary["wall_ns"], summary["remainder_ns"]) == (
        600,
        10_000_200_000,
        200_000,
    )
    assert frames[0]["dt_ns"] == 16_666_667  # 50,000,000/3 rounded for printing only


def test_pause_and_resume_words_bill_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    frames, summary = run_json(capsys, "--hz", "50", "15", "pause", "1000", "resume", "5")
    assert [f["paused"] for f in frames] == [False, True, False]
    assert [f["steps"] for f in frames] == [0, 0, 1]
    assert (summary["paused_ns"], summary["dropped_ns"], summary["ledger_ok"]) == (
        1_000_000_000,
        0,
        True,
    )


def test_the_table_shows_each_frame_and_the_ledger(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["schedule", "--hz", "50", "--max-steps", "4", "--initial-remainder-ms", "15", "200"])
        == 0
    )
    out = capsys.readouterr().out
    assert "policy drop" in out
    assert "      1     200.000      4     120.000        15.000        0   0.7500        4" in out
    assert "ledger (exact ns): carried in 15_000_000 + scaled 200_000_000" in out
    assert out.rstrip().endswith("balanced")


def test_the_step_is_shown_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schedule", "10"]) == 0
    assert "step h = 16_666_666 2/3 ns" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-5"], "bad frame '-5'"),
        (["abc"], "bad frame 'abc'"),
        (["nan"], "bad frame 'nan'"),
        (["inf"], "bad frame 'inf'"),
        (["1e3"], "bad frame '1e3'"),
        (["16.667x0"], "repeat count"),
        (["1.0000001"], "whole number of nanoseconds"),
        (["--hz", "0", "10"], "--hz must be positive"),
        (["--hz", "-60", "10"], "--hz"),
        (["--hz", "60", "--step-ms", "20", "10"], "not allowed with"),
        (["--step-ms", "0", "10"], "step must be"),
        (["--max-steps", "0", "10"], "max_steps"),
        (["--max-steps", "many", "10"], "--max-steps: must be a whole number like 5 (got 'many')"),
        (["--max-frame-ms", "5", "10"], "max frame"),
        (["--time-scale", "0", "10"], "time scale"),
        (["--time-scale", "65", "10"], "time scale"),
        (["--time-scale", "1/0", "10"], "zero denominator"),
        (["--policy", "turbo", "10"], "policy must be one of"),
        (["--alpha", "sideways", "10"], "invalid choice"),
        (["--initial-remainder-ms", "20", "--step-ms", "20", "10"], "less than one step"),
        ([], "required"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["schedule", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert message in lines[0]


def test_the_real_process_prints_no_traceback_on_bad_input() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "game", "schedule", "--hz", "abc", "10"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("error: ")
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_help_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    assert "schedule" in capsys.readouterr().out
