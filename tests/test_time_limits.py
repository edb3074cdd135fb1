"""Issue 20, bounded time: every command within its limits finishes in under a minute (`make
bench` runs each at its limits: BENCHMARKS.md, "Limits"), and a run just over one is refused
with one line naming the limit and exit 2, before any work: nothing is run and nothing written.
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


def test_the_limits_are_what_a_minute_of_cpu_allows() -> None:
    assert (limits.MAX_RUN_TICKS, limits.MAX_RUN_FRAMES, limits.MAX_REPLAY_FRAMES) == (
        60_000, 100_000, 100_000
    )  # fmt: skip
    assert limits.MAX_JUDDER_ROWS == 200
    assert (clips.MAX_PICTURES, clips.MAX_MEGAPIXELS) == (1_200, 400)


def test_a_run_one_frame_past_the_frame_limit_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert refused(capsys, "simulate", "--seconds", "100.001", "--render-fps", "1000") == (
        "error: --seconds would let the run take up to 100,001 frames (100.001 s x 1000 fps), "
        "more than 100,000 (the limit)"
    )


def test_a_run_just_past_the_tick_limit_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--seconds", "1000.1", "--render-fps", "1", "--policy", "uncapped"]
    assert refused(capsys, "simulate", *args) == (
        "error: --seconds would let the run simulate up to 60,006 ticks (1000.1 s x time scale "
        "1 x 60 Hz), more than 60,000 (the limit)"
    )


def test_the_input_models_share_one_limit(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--seconds", "20.001", "--render-fps", "1000", "--input-models", EVERY_INPUT_MODEL]
    assert refused(capsys, "simulate", *args) == (
        "error: --seconds would let 5 runs take up to 100,005 frames (5 x 20.001 s x 1000 fps), "
        "more than 100,000 (the limit)"
    )


def test_the_policies_of_compare_share_one_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--seconds", "16.667", "--render-fps", "1000", "--policies", EVERY_POLICY]
    assert refused(capsys, "compare", *args, "--out", str(tmp_path / "D")) == (
        "error: --seconds would let 6 runs take up to 100,002 frames (6 x 16.667 s x 1000 fps), "
        "more than 100,000 (the limit)"
    )
    assert not (tmp_path / "D").exists()


def test_the_cells_of_a_sweep_share_one_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--seconds", "5.001", "--render-fps", "1000", "--vary", "load.step_cost_ms=0:9:1"]
    args += ["--policies", "drop,uncapped", "--out", str(tmp_path / "D")]
    assert refused(capsys, "sweep", *args) == (
        "error: --vary: 20 runs would take up to 100,020 frames, more than 100,000 (the limit): "
        "fewer values or --seconds"
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


def test_a_replay_one_frame_past_its_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = recording_to(tmp_path, 6_001)  # 100 s at 60 Hz and one tick: 100,017 frames
    assert refused(capsys, "replay", str(recording), "--render-fps", "1000") == (
        f"error: replaying {recording} at 1000 fps takes about 100,017 frames, more than "
        "100,000 (the limit): use a lower --render-fps"
    )


def test_a_replay_past_the_tick_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = recording_to(tmp_path, 60_001)
    assert refused(capsys, "replay", str(recording), "--render-fps", "1") == (
        f"{recording}:2: final_tick must be from 0 to 60,000, the limit (got 60001)"
    )


def test_judder_rows_share_the_headless_limits(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "judder", "--seconds", "17") == (
        "error: 48 rows of 17 s would take up to 50,592 ticks and 100,512 frames, more than "
        "60,000 ticks or 100,000 frames (the limits): fewer rows or --seconds"
    )


def test_a_judder_row_past_the_tick_limit_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--hz", "1000", "--refresh", "60", "--interpolation", "off", "--conditioning", "raw"]
    assert refused(capsys, "judder", *args, "--seconds", "60.001") == (
        "error: 1 rows of 60.001 s would take up to 60,001 ticks and 3,604 frames, more than "
        "60,000 ticks or 100,000 frames (the limits): fewer rows or --seconds"
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
