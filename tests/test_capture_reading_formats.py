"""CapFrameX sessions and MangoHud logs, and our own frame log: each told from its first lines,
read into the same `CapturedFrame`s as PresentMon's CSVs, exactly."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.capture.frame import CapturedFrame
from game.capture.presentmon import FRAME_LOG_APPLICATION
from game.capture.reading import open_capture, read_capture_once
from game.errors import BadInput
from tests.capture_files import (
    presents,
    write_capframex,
    write_long_presentmon_1x,
    write_mangohud,
    write_presentmon_1x,
)


@pytest.mark.parametrize("dropped_as", ["bool", "int"])
def test_a_capframex_session_reads_its_first_run(tmp_path: Path, dropped_as: str) -> None:
    first = presents(["16.6667", "16.6666", "33.3334"], hidden=[1])
    second = presents(["5", "5"])
    path = write_capframex(tmp_path / "session.json", [first, second], dropped_as=dropped_as)
    capture = open_capture(path)
    info = capture.info
    assert (info.format, info.layout, info.process, info.swapchain) == (
        "capframex", "capframex", "game.exe (run 1 of 2)", None
    )  # fmt: skip
    assert (info.rows, info.frames, dict(info.skipped)) == (3, 3, {})
    assert list(capture.frames()) == [
        CapturedFrame(1, 0, 16_666_700, 16_666_700, True, 3_500_000),
        CapturedFrame(2, 16_666_600, 16_666_600, 16_666_600, False, None),
        CapturedFrame(3, 50_000_000, 33_333_400, 33_333_400, True, 53_500_000),
    ]
    display = open_capture(path, column="display")
    assert (display.info.frames, dict(display.info.skipped)) == (
        1, {"not displayed": 1, "zero or negative interval": 1}
    )  # fmt: skip
    assert [(f.row, f.elapsed_ns) for f in display.frames()] == [(3, 50_000_000)]


def test_a_capframex_session_with_a_bad_entry_counts_it(tmp_path: Path) -> None:
    rows = presents(["10", "10", "10"])
    rows[1] = replace(rows[1], cells={"MsBetweenPresents": "-2.5"})
    capture = open_capture(write_capframex(tmp_path / "session.json", [rows]))
    assert (capture.info.process, capture.info.frames, dict(capture.info.skipped)) == (
        "game.exe", 2, {"zero or negative interval": 1}
    )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{", "not a CapFrameX session: Expecting property name enclosed in double quotes"),
        ('{"Runs": []}', 'not a CapFrameX session: no "Runs" with a run in them'),
        ('{"Runs": [{"CaptureData": {}}]}', "not a CapFrameX session: its first run has no "),
    ],
)
def test_json_that_is_no_session_is_refused(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "session.json"
    path.write_text(text)
    with pytest.raises(BadInput) as refused:
        open_capture(path)
    assert refused.value.lines[0].startswith(f"{path}: {problem}")


@pytest.mark.parametrize("versioning", [False, True])
def test_a_mangohud_log_is_read_frame_by_frame(tmp_path: Path, versioning: bool) -> None:
    path = write_mangohud(tmp_path / "game_2026-12-01_20-00-00.csv", ["16.6667", "16.6666", "8.3"],
                          versioning=versioning)  # fmt: skip
    capture = open_capture(path)
    info = capture.info
    assert (info.format, info.layout, info.process, info.sample_interval_ms) == (
        "mangohud", "mangohud", "game", None
    )  # fmt: skip
    first_row = 8 if versioning else 4  # after the system-info lines and the header
    assert list(capture.frames()) == [
        CapturedFrame(first_row, 0, 16_666_700, 16_666_700, None, None),
        CapturedFrame(first_row + 1, 16_666_600, 16_666_600, 16_666_600, None, None),
        CapturedFrame(first_row + 2, 24_966_600, 8_300_000, 8_300_000, None, None),
    ]


def test_old_mangohud_logs_in_microseconds_are_told_apart(tmp_path: Path) -> None:
    path = write_mangohud(tmp_path / "old.csv", ["16667", "8333"], elapsed_ns=[0, 8_333_000],
                          fps=["59.9988", "120.005"])  # fmt: skip
    assert [frame.elapsed_ns for frame in open_capture(path).frames()] == [16_667_000, 8_333_000]


def test_a_mangohud_log_sampled_every_100_ms_says_so(tmp_path: Path) -> None:
    # log_interval=100: a row every 100 ms (a little late each time), holding the last frame time.
    elapsed = [index * 100_000_000 + index * 137_000 for index in range(12)]
    path = write_mangohud(tmp_path / "sampled.csv", ["6.9"] * 12, elapsed_ns=elapsed)
    info = open_capture(path).info
    assert (info.layout, info.sample_interval_ms, info.frames) == ("mangohud-sampled", 100, 12)


def test_a_mangohud_log_with_a_cut_last_line(tmp_path: Path) -> None:
    # Cut within its cells (the last 50 characters: `elapsed` and the columns before it), the
    # last line is a truncated line; cut within its last number only, it is still a row.
    path = write_mangohud(tmp_path / "cut.csv", ["10", "10", "x", "10"], cut_last=50)
    capture = open_capture(path)
    assert (capture.info.rows, capture.info.frames, dict(capture.info.skipped)) == (
        4, 2, {"not a number": 1, "truncated line": 1}
    )  # fmt: skip
    assert capture.info.notes == ("last line had no line end: read as a truncated line",)
    whole = write_mangohud(tmp_path / "whole.csv", ["10", "10", "x", "10"], cut_last=1)
    assert open_capture(whole).info.frames == 3
    with pytest.raises(BadInput) as refused:
        open_capture(path, column="display")
    assert refused.value.lines[0].startswith(f"{path}: --column display needs display or ")


def test_our_own_frame_log_is_named_as_ours(tmp_path: Path) -> None:
    rows = [replace(row, process=FRAME_LOG_APPLICATION) for row in presents(["10"])]
    info = open_capture(write_presentmon_1x(tmp_path / "ours.csv", rows)).info
    assert (info.format, info.layout) == ("timestep-lab", "1.x")


def test_a_long_capture_is_read_whole_by_the_timed_function(tmp_path: Path) -> None:
    path = write_long_presentmon_1x(tmp_path / "long.csv", frames=30_000)
    assert read_capture_once(path) == 30_000
