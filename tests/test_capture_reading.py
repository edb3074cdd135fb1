"""Reading PresentMon captures: exact nanoseconds from the decimals, each layout told from its
header, and the frames streamed back with their row numbers (the fixtures: `capture_files.py`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from game.capture.decimals import MS, SECONDS, decimal_ns
from game.capture.frame import CapturedFrame
from game.capture.frame_columns import FrameColumns, GrowingColumn
from game.capture.reading import frame_columns, open_capture
from game.errors import BadInput
from tests.capture_files import (
    START_NS,
    presents,
    write_composed_60hz_capture,
    write_presentmon_1x,
    write_presentmon_2x,
    write_tearing_160fps_capture,
)


@pytest.mark.parametrize(
    ("text", "unit", "expected"),
    [
        ("16.6667", MS, 16_666_700),
        ("16.66670000000000", MS, 16_666_700),
        ("16.6666666666667", MS, 16_666_667),
        ("0.0123456789", SECONDS, 12_345_679),
        ("0.0000000005", SECONDS, 0),  # half a ns: to the even 0
        ("0.0000000015", SECONDS, 2),  # 1.5 ns: to the even 2
        ("0.0000000025", SECONDS, 2),  # 2.5 ns: to the even 2
        ("0.00000000251", SECONDS, 3),
        ("16", MS, 16_000_000),
        (".5", MS, 500_000),
        ("-1.8e15", MS, -1_800_000_000_000_000_000_000),
        ("1E-05", MS, 10),
        ("1e-300", MS, 0),
    ],
)
def test_a_cell_is_read_as_the_decimal_it_is(text: str, unit: int, expected: int) -> None:
    assert decimal_ns(text, unit) == expected


@pytest.mark.parametrize("text", ["NA", "", "nan", "-nan(ind)", "inf", "1,5", "٣", "-", "1e99999"])
def test_a_cell_that_is_no_number_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        decimal_ns(text, MS)


def test_a_presentmon_1x_capture_reads_back_exactly(tmp_path: Path) -> None:
    rows = presents(
        ["16.6667", "16.6666", "33.3334", "8.3333"], until_displayed_ms="3.5", hidden=[2]
    )
    path = write_presentmon_1x(tmp_path / "pm.csv", rows)
    capture = open_capture(path)
    info = capture.info
    assert (info.format, info.layout, info.process, info.swapchain) == (
        "presentmon", "1.x", "game.exe (4712)", "0x0000021A3F2B5C80"
    )  # fmt: skip
    assert (info.rows, info.frames, dict(info.skipped), info.chosen_by_default) == (4, 4, {}, True)
    # Each is ready 1.5 ms after its present (msUntilRenderComplete).
    assert list(capture.frames()) == [
        CapturedFrame(2, 0, 16_666_700, 16_666_700, True, 3_500_000, 1_500_000),
        CapturedFrame(3, 16_666_600, 16_666_600, 16_666_600, True, 20_166_600, 18_166_600),
        CapturedFrame(4, 50_000_000, 33_333_400, 33_333_400, False, None, 51_500_000),
        CapturedFrame(5, 58_333_300, 8_333_300, 8_333_300, True, 61_833_300, 59_833_300),
    ]


def test_frames_are_handed_out_again_on_each_call(tmp_path: Path) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["10", "20"]))
    capture = open_capture(path)
    assert list(capture.frames()) == list(capture.frames())
    assert [frame.elapsed_ns for frame in capture.frames()] == [10_000_000, 20_000_000]


def test_the_display_column_keeps_the_frames_shown_with_their_display_change(
    tmp_path: Path,
) -> None:
    rows = presents(["10", "10", "10", "10"], hidden=[1])
    capture = open_capture(write_presentmon_1x(tmp_path / "pm.csv", rows), column="display")
    # The first frame shown has no display change before it (1.x writes 0): a zero interval.
    assert dict(capture.info.skipped) == {"not displayed": 1, "zero or negative interval": 1}
    assert [(f.row, f.time_ns, f.elapsed_ns) for f in capture.frames()] == [
        (4, 0, 20_000_000),
        (5, 10_000_000, 10_000_000),
    ]


@pytest.mark.parametrize("time", ["seconds", "qpc"])
def test_a_presentmon_2x_capture_reads_back_exactly(tmp_path: Path, time: str) -> None:
    rows = presents(["6.9444", "7.0001", "13.8888"], until_displayed_ms="1.25", hidden=[1])
    path = write_presentmon_2x(tmp_path / "pm.csv", rows, time=time, telemetry=True)
    capture = open_capture(path)
    assert capture.info.layout == ("2.x" if time == "seconds" else "2.x-qpc")
    assert (capture.info.rows, capture.info.frames) == (3, 3)
    # With QPC ticks the time is the running sum of the intervals from the first row at 0:
    # the same here, as the rows are back to back. Each is ready 1.5 ms after its present
    # (MsRenderPresentLatency).
    assert list(capture.frames()) == [
        CapturedFrame(2, 0, 6_944_400, 6_944_400, True, 1_250_000, 1_500_000),
        CapturedFrame(3, 7_000_100, 7_000_100, 7_000_100, False, None, 8_500_100),
        CapturedFrame(4, 20_888_900, 13_888_800, 13_888_800, True, 22_138_900, 22_388_900),
    ]


def test_the_simulation_column_reads_ms_between_simulation_start(tmp_path: Path) -> None:
    path = write_presentmon_2x(tmp_path / "pm.csv", presents(["5", "6.5"]))
    capture = open_capture(path, column="simulation")
    assert [frame.elapsed_ns for frame in capture.frames()] == [5_000_000, 6_500_000]


def test_a_column_the_layout_lacks_is_refused_in_one_line(tmp_path: Path) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["5"]))
    with pytest.raises(BadInput) as refused:
        open_capture(path, column="simulation")
    assert refused.value.lines == (
        f"{path}: --column simulation needs MsBetweenSimulationStart, which this PresentMon "
        "1.x capture does not have",
    )


def test_the_composed_60hz_fixture_shows_about_every_other_frame_on_the_grid(
    tmp_path: Path,
) -> None:
    written = write_composed_60hz_capture(tmp_path / "composed.csv")
    capture = open_capture(written.path)
    frames = list(capture.frames())
    assert capture.info.frames == len(frames) == 600
    shown = [frame for frame in frames if frame.displayed]
    assert len(shown) == 299
    period = written.refresh_ns
    assert period is not None
    origin = written.presents[0].time_ns
    for frame in shown:
        assert frame.display_time_ns is not None
        refresh = (frame.display_time_ns + origin - written.phase_ns) / period
        assert abs(refresh - round(refresh)) * period < 1  # on the grid, to the rounded ns
    display = open_capture(written.path, column="display")
    assert (display.info.frames, dict(display.info.skipped)) == (
        298, {"not displayed": 301, "missing value": 1}
    )  # fmt: skip


def test_the_tearing_fixture_shows_every_frame(tmp_path: Path) -> None:
    written = write_tearing_160fps_capture(tmp_path / "tearing.csv")
    frames = list(open_capture(written.path).frames())
    assert len(frames) == 800 and all(frame.displayed for frame in frames)
    assert frames[0].time_ns == 0 and written.presents[0].time_ns > START_NS


def test_a_file_that_is_no_capture_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.csv"
    path.write_text("name,score\nada,3\n")
    with pytest.raises(BadInput) as refused:
        open_capture(path)
    assert refused.value.lines[0].startswith(f"{path}: not a capture: the first line is no ")
    with pytest.raises(BadInput) as missing:
        open_capture(tmp_path / "gone.csv")
    assert missing.value.lines == (f"{tmp_path / 'gone.csv'}: file not found",)


def test_the_frames_are_held_as_columns_and_handed_out_the_same(tmp_path: Path) -> None:
    # A PresentMon capture's kept frames are written into columns as the file is read; any
    # other capture's are written down from its frames: the same columns either way.
    capture = open_capture(write_composed_60hz_capture(tmp_path / "composed.csv").path)
    columns = frame_columns(capture)
    frames = list(capture.frames())
    assert len(columns) == len(frames) == capture.info.frames == 600
    again = FrameColumns.from_frames(frames, capacity=7)  # grown many times over
    for name in ("row", "time_ns", "elapsed_ns", "present_interval_ns", "displayed", "display_ns"):
        assert getattr(again, name).tolist() == getattr(columns, name).tolist(), name
    assert list(again.frames()) == frames
    assert columns.present_interval_ns is columns.elapsed_ns  # --column presents: kept once
    assert {frame.displayed for frame in frames} == {True, False}  # about every other shown
    assert all((frame.display_time_ns is None) == (not frame.displayed) for frame in frames)


def test_a_growing_column_keeps_what_was_written_when_it_grows() -> None:
    column = GrowingColumn(np.int64, 2)
    for values in ([1, 2, 3], [], [4], list(range(5, 20))):
        column.append(np.array(values, dtype=np.int64))
    assert column.written().tolist() == list(range(1, 20))


@pytest.mark.slow
def test_a_file_longer_than_its_first_lines_promise_is_read_whole(tmp_path: Path) -> None:
    # The columns are made at the size the first chunk's bytes a line promise for the file;
    # shorter lines after it hold more rows than that, and the columns grow to take them.
    rows = presents(["10"] * 30_000)
    long = [replace(row, cells={"PresentMode": "x" * 400}) for row in rows[:2_000]]
    path = write_presentmon_1x(tmp_path / "promise.csv", long + rows[2_000:])
    capture = open_capture(path)
    assert capture.info.frames == 30_000
    assert frame_columns(capture).row.tolist() == list(range(2, 30_002))
