"""Limits against hostile input, not against work: a run past one is refused with one line
naming the limit and how long the run would take, and exit 2, before any work: nothing is run
and nothing written. The limits are patched down here, so a refusal is reached with small input
(the real ones are far beyond a test's time: `make bench` measures the long runs).
"Before any work" is checked by the work itself (a run or the loop starting fails the test),
never by how long the refusal took.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn
from unittest.mock import patch

import pytest

from game import limits
from game.app.loop import GameLoop
from game.cli import main
from game.config.loading import load_config
from game.resources import SCENARIOS
from game.workshop.clips import files as clips
from game.workshop.files.recording import header_record
from game.workshop.runs.runner import _HeadlessRun

EVERY_POLICY = "uncapped,clamp,drop,reset,backlog,variable"
EVERY_INPUT_MODEL = "frame-edge,tick-poll,latched,counted,stamped"


STEADY = str(SCENARIOS / "steady_144.toml")
"""By its path: a name would add the line saying which file it chose."""


def no_work(*args: object) -> NoReturn:
    raise AssertionError("the command began its work before refusing it")


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line `python -m game ARGS` prints, having printed nothing else, refused before
    any work: a headless run or the game's loop starting fails the test."""
    with (
        patch.object(_HeadlessRun, "run", no_work),
        patch.object(GameLoop, "warm_up", no_work),
    ):
        assert main(list(args)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1, captured.err
    return captured.err.strip()


def test_the_limits_guard_against_typos_not_against_work() -> None:
    assert (limits.MAX_RUN_TICKS, limits.MAX_RUN_FRAMES, limits.MAX_REPLAY_FRAMES) == (
        10**8, 10**8, 10**8
    )  # fmt: skip
    assert (limits.MAX_SWEEP_RUNS, limits.MAX_VARY_AXES) == (10**6, 4)
    assert (limits.MAX_CANNON_PERIOD_TICKS, limits.MAX_RUN_SECONDS) == (10**7, 31_536_000)
    assert limits.MAX_JUDDER_ROWS == 200
    assert (clips.MAX_PICTURES, clips.MAX_MEGAPIXELS) == (1_200, 400)


@pytest.mark.usefixtures("small_limits")
def test_the_time_a_refused_run_would_take_is_worked_out_from_the_throughput() -> None:
    assert limits.estimated_s(100_000, 10_000) == 20.0  # 10 s of ticks, 10 s of frames
    assert [limits.duration_text(s) for s in (40, 720, 12_600, 1_814_400)] == [
        "40 s", "12 min", "3.5 h", "21 days"
    ]  # fmt: skip


@pytest.mark.usefixtures("small_limits")
def test_a_run_one_frame_past_the_frame_limit_is_refused_with_its_estimate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert refused(capsys, "simulate", "--seconds", "1.001", "--render-fps", "1000") == (
        "error: --seconds would take up to 1,001 frames (1.001 s x 1000 fps), about 1 s of CPU, "
        "more than 1,000 a run (the limit)"
    )


@pytest.mark.usefixtures("small_limits")
def test_a_run_just_past_the_tick_limit_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--seconds", "1000.1", "--render-fps", "1", "--policy", "uncapped"]
    assert refused(capsys, "simulate", *args) == (
        "error: --seconds would simulate up to 60,006 ticks (1000.1 s x time scale 1 x 60 Hz), "
        "about 7 s of CPU, more than 60,000 a run (the limit)"
    )


@pytest.mark.usefixtures("small_limits")
def test_each_policy_of_compare_is_a_run_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--seconds", "0.9", "--render-fps", "1000", "--policies", EVERY_POLICY]
    assert main(["compare", *args]) == 0  # six runs of 900 frames: each within 1,000
    capsys.readouterr()
    assert refused(capsys, "compare", *args[2:], "--seconds", "1.001") == (
        "error: --seconds would take up to 1,001 frames (1.001 s x 1000 fps), about 1 s of CPU, "
        "more than 1,000 a run (the limit)"
    )


@pytest.mark.usefixtures("small_limits")
def test_a_sweep_is_refused_by_its_largest_run_or_its_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "short.toml"
    scenario.write_text("seconds = 0.5\n[clock]\nrender_fps = 1000\n")
    args = ["--scenario", str(scenario), "--out", str(tmp_path / "D")]
    assert refused(capsys, "sweep", *args, "--vary", "seconds=0.5,1.5") == (
        "error: --vary seconds would take up to 1,500 frames (1.5 s x 1000 fps), about 2 s of "
        "CPU, more than 1,000 a run (the limit)"
    )
    assert refused(capsys, "sweep", *args, "--vary", "load.step_cost_ms=0:10:1") == (
        "error: --vary load.step_cost_ms=0:10:1: 11 values is too many (at most 10)"
    )
    assert not (tmp_path / "D").exists()


def recording_to(folder: Path, final_tick: int) -> Path:
    """A recording of the default settings (60 Hz) that ends at `final_tick`."""
    lines = [
        header_record(load_config(None, [])),
        {"final_tick": final_tick, "state_hash": "0" * 64, "ended": "end", "record_hash": "0" * 64},
    ]
    path = folder / "r.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.usefixtures("small_limits")
def test_a_replay_one_frame_past_its_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = recording_to(tmp_path, 61)  # 1 s at 60 Hz and one tick: 1,017 frames
    assert refused(capsys, "replay", str(recording), "--render-fps", "1000") == (
        f"error: replaying {recording} at 1000 fps takes about 1,017 frames, about 1 s of CPU, "
        "more than 1,000 (the limit): use a lower --render-fps"
    )


@pytest.mark.usefixtures("small_limits")
def test_a_replay_past_the_tick_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = recording_to(tmp_path, 60_001)
    assert refused(capsys, "replay", str(recording), "--render-fps", "1") == (
        f"{recording}:2: final_tick must be from 0 to 60,000, the limit (got 60001)"
    )


def test_a_clip_one_picture_past_its_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "c.gif"
    args = ["--scenario", STEADY, "--seconds", "40.04", "--size", "320x240"]
    assert refused(capsys, "clip", *args, "--out", str(out)) == (
        "error: --seconds 40.04 at 30 fps is 1,201 pictures, more than 1,200 (the limit)"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_clip_just_past_its_megapixels_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "c.mp4"
    args = ["--scenario", STEADY, "--seconds", "14.5", "--out", str(out)]
    assert refused(capsys, "clip", *args) == (
        "error: --seconds 14.5 at 30 fps is 435 pictures of 1280x720, 401 megapixels, more than "
        "400 (the limit): fewer --seconds or --fps, or a smaller --size"
    )
    assert list(tmp_path.iterdir()) == []
