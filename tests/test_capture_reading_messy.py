"""Real captures are messy: processes interleaved, NA and empty cells, frames never shown with
garbage beside them, zero and negative intervals, cut lines. Each case has its rule (in
`game/capture/presentmon.py` and `selection.py`) and its exact counts, and every row is counted
once: rows == frames + the skipped rows."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

import game.capture.lines
import game.capture.presentmon_file
import game.capture.source
from game.capture.frame import Capture
from game.capture.presentmon import ChainClock, detect_layout, row_reader
from game.capture.reading import open_capture
from game.errors import BadInput
from tests.capture_files import (
    OTHER_SWAPCHAIN,
    SWAPCHAIN,
    Present,
    presents,
    write_composed_60hz_capture,
    write_presentmon_1x,
    write_presentmon_2x,
    write_presentmon_v2_metrics,
)


def counted(capture: Capture) -> tuple[int, int, dict[str, int]]:
    """(rows, frames, skipped), after checking that they add up and that the frames streamed
    are as many as the info says."""
    info = capture.info
    assert info.rows == info.frames + sum(info.skipped.values())
    assert sum(1 for _ in capture.frames()) == info.frames
    return info.rows, info.frames, dict(info.skipped)


def interleaved() -> list[Present]:
    """game.exe's main swap chain (5 rows), its second one (2) and dwm.exe (3), interleaved."""
    game = presents(["10", "10", "10", "10", "10"])
    second = [replace(row, swapchain=OTHER_SWAPCHAIN) for row in presents(["40", "40"])]
    dwm = [replace(row, process="dwm.exe", pid=1234) for row in presents(["16", "16", "16"])]
    return [
        game[0],
        dwm[0],
        game[1],
        second[0],
        game[2],
        dwm[1],
        game[3],
        second[1],
        dwm[2],
        game[4],
    ]


def test_the_swap_chain_with_most_rows_is_kept_by_default(tmp_path: Path) -> None:
    capture = open_capture(write_presentmon_1x(tmp_path / "pm.csv", interleaved()))
    assert (capture.info.process, capture.info.swapchain, capture.info.chosen_by_default) == (
        "game.exe (4712)", SWAPCHAIN, True
    )  # fmt: skip
    assert counted(capture) == (10, 5, {"other process": 3, "other swap chain": 2})
    assert [frame.row for frame in capture.frames()] == [2, 4, 6, 8, 11]
    assert [frame.time_ns for frame in capture.frames()] == [
        0,
        10**7,
        2 * 10**7,
        3 * 10**7,
        4 * 10**7,
    ]


@pytest.mark.parametrize(
    ("process", "swapchain", "kept", "rows"),
    [
        ("dwm.exe", None, "dwm.exe (1234)", [3, 7, 10]),
        ("DWM.EXE", None, "dwm.exe (1234)", [3, 7, 10]),
        ("1234", None, "dwm.exe (1234)", [3, 7, 10]),
        (None, "0x21A3F2B9E40", "game.exe (4712)", [5, 9]),
        ("game.exe", OTHER_SWAPCHAIN.lower(), "game.exe (4712)", [5, 9]),
    ],
)
def test_process_and_swapchain_choose_the_rows_kept(
    tmp_path: Path, process: str | None, swapchain: str | None, kept: str, rows: list[int]
) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", interleaved())
    capture = open_capture(path, process=process, swapchain=swapchain)
    assert (capture.info.process, capture.info.chosen_by_default) == (kept, False)
    assert [frame.row for frame in capture.frames()] == rows
    assert sum(counted(capture)[2].values()) == 10 - len(rows)


def test_a_process_nobody_ran_is_refused_naming_what_there_is(tmp_path: Path) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", interleaved())
    with pytest.raises(BadInput) as refused:
        open_capture(path, process="doom.exe")
    assert refused.value.lines == (
        f"{path}: nothing matches --process doom.exe; the capture has game.exe (4712) swap chain "
        f"{SWAPCHAIN}, dwm.exe (1234) swap chain {SWAPCHAIN}, game.exe (4712) swap chain "
        f"{OTHER_SWAPCHAIN}",
    )


def messy_2x() -> list[Present]:
    """Nine 2.x rows: four frames (one never shown, with garbage beside it), five bad ones."""
    rows = presents(["10"] * 9)
    hidden = {"MsBetweenDisplayChange": "0.0000", "MsUntilDisplayed": "0.0000"}
    return [
        rows[0],
        replace(rows[1], cells={"MsBetweenPresents": "NA"}),
        replace(rows[2], cells={"TimeInSeconds": ""}),
        replace(rows[3], cells={"MsBetweenPresents": "abc"}),
        replace(rows[4], cells={"MsBetweenPresents": "-1.50000000000000"}),
        replace(rows[5], cells={"MsBetweenPresents": "0.00000000000000"}),
        replace(rows[6], display_ns=None, cells={**hidden, "MsAnimationError": "-1.8e15"}),
        rows[7],
        rows[8],
    ]


def test_each_bad_cell_is_counted_under_its_reason(tmp_path: Path) -> None:
    capture = open_capture(write_presentmon_2x(tmp_path / "pm.csv", messy_2x()))
    assert counted(capture) == (
        9, 4, {"missing value": 2, "not a number": 1, "zero or negative interval": 2}
    )  # fmt: skip
    frames = list(capture.frames())
    assert [(f.row, f.displayed) for f in frames] == [(2, True), (8, False), (9, True), (10, True)]
    assert frames[1].display_time_ns is None and frames[1].elapsed_ns == 10**7


def test_a_frame_never_shown_is_skipped_only_under_the_display_column(tmp_path: Path) -> None:
    capture = open_capture(write_presentmon_2x(tmp_path / "pm.csv", messy_2x()), column="display")
    # Row 9 follows a row never shown: its display change (20 ms) spans both presents.
    assert counted(capture) == (
        9, 2, {"missing value": 3, "not a number": 1, "zero or negative interval": 2,
               "not displayed": 1}
    )  # fmt: skip
    assert [(f.row, f.elapsed_ns) for f in capture.frames()] == [(9, 20_000_000), (10, 10_000_000)]


def test_cut_and_blank_lines(tmp_path: Path) -> None:
    # The last line loses its line end and the last 40 characters: two of its cells.
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["10"] * 4), cut_last=40)
    lines = path.read_bytes().split(b"\r\n")
    lines.insert(2, b"")  # a blank line is no row
    lines.insert(3, b"game.exe,4712,0x0000021A3F2B5C80,DXGI,1,0")  # a row cut short
    path.write_bytes(b"\r\n".join(lines))
    capture = open_capture(path)
    assert counted(capture) == (5, 3, {"truncated line": 2})
    assert [frame.row for frame in capture.frames()] == [2, 5, 6]
    assert capture.info.notes == ("last line had no line end: read as a truncated line",)


def test_a_file_with_no_frame_under_the_column_is_one_line(tmp_path: Path) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["10", "10"], hidden=[0, 1]))
    with pytest.raises(BadInput) as refused:
        open_capture(path, column="display")
    assert refused.value.lines == (
        f"{path}: no frames: 2 rows, game.exe (4712) swap chain {SWAPCHAIN} kept, none a frame "
        "under --column display (not displayed 2)",
    )
    header_only = tmp_path / "header.csv"
    header_only.write_text(path.read_text().splitlines()[0] + "\n")
    with pytest.raises(BadInput) as empty:
        open_capture(header_only)
    assert empty.value.lines == (f"{header_only}: no frames: the capture has no rows",)


def test_v2_metrics_reads_cpu_start_and_frame_time(tmp_path: Path) -> None:
    rows = presents(["10", "12", "8"], hidden=[1])
    capture = open_capture(write_presentmon_v2_metrics(tmp_path / "pm.csv", rows))
    assert (capture.info.layout, counted(capture)) == ("v2_metrics", (3, 3, {}))
    assert [
        (f.time_ns, f.elapsed_ns, f.displayed, f.display_time_ns) for f in capture.frames()
    ] == [
        (0, 10_000_000, True, 13_500_000),
        (10_000_000, 12_000_000, False, None),
        (22_000_000, 8_000_000, True, 33_500_000),
    ]
    display = open_capture(tmp_path / "pm.csv", column="display")
    # The first frame shown has no previous one's DisplayedTime; the third was shown 20 ms later.
    assert counted(display) == (3, 1, {"missing value": 1, "not displayed": 1})
    assert [(f.row, f.elapsed_ns) for f in display.frames()] == [(4, 20_000_000)]


def test_qpc_ticks_are_timed_by_each_chains_summed_intervals(tmp_path: Path) -> None:
    path = write_presentmon_2x(tmp_path / "pm.csv", interleaved(), time="qpc")
    capture = open_capture(path, swapchain=OTHER_SWAPCHAIN)
    assert capture.info.layout == "2.x-qpc"
    assert [(f.row, f.time_ns) for f in capture.frames()] == [(5, 0), (9, 40_000_000)]
    v2 = write_presentmon_v2_metrics(tmp_path / "v2.csv", interleaved(), time="qpc")
    assert [f.time_ns for f in open_capture(v2, process="dwm.exe").frames()] == [
        0,
        16 * 10**6,
        32 * 10**6,
    ]


def test_the_limits_end_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["10"] * 5))
    monkeypatch.setattr(game.capture.presentmon_file, "MAX_CAPTURE_ROWS", 4)
    with pytest.raises(BadInput) as rows:
        open_capture(path)
    assert rows.value.lines == (f"{path}: more than 4 rows (the limit for a capture)",)
    monkeypatch.setattr(game.capture.source, "MAX_CAPTURE_BYTES", 100)
    with pytest.raises(BadInput) as size:
        open_capture(path)
    assert size.value.lines == (f"{path}: too large for a capture (more than 100 bytes)",)
    endless = tmp_path / "zeros.csv"
    endless.write_bytes(path.read_bytes()[:300] + b"\0" * 70_000)
    monkeypatch.setattr(game.capture.source, "MAX_CAPTURE_BYTES", 10**6)
    with pytest.raises(BadInput) as line:
        open_capture(endless)
    assert line.value.lines == (f"{endless}: not a capture: a line longer than 65,536 bytes",)


def reference_frames(
    path: Path, column: str = "presents"
) -> list[tuple[int, int, int, bool | None]]:
    """The kept chain's (row, elapsed, present, displayed) by `row_reader`, one row at a time."""
    lines = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").split("\n")
    layout = detect_layout(lines[0].split(","))
    assert layout is not None
    read = row_reader(layout, column)  # type: ignore[arg-type]
    clocks: dict[tuple[str, ...], ChainClock] = {}
    chosen = open_capture(path, column=column).info  # type: ignore[arg-type]
    found = []
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split(",")
        if len(cells) != len(lines[0].split(",")):
            continue
        key = (cells[layout.application], cells[layout.process_id], cells[layout.swapchain])
        outcome = read(cells, clocks.setdefault(key, ChainClock()))
        kept = f"{key[0]} ({key[1]})" == chosen.process and key[2] == chosen.swapchain
        if kept and not isinstance(outcome, str):
            found.append((number, outcome[1], outcome[2], outcome[3]))
    return found


@pytest.mark.parametrize("column", ["presents", "display"])
def test_the_columns_reader_keeps_the_row_by_row_rules(tmp_path: Path, column: str) -> None:
    files = [
        write_presentmon_2x(tmp_path / "messy.csv", messy_2x()),
        write_presentmon_1x(tmp_path / "interleaved.csv", interleaved()),
        write_presentmon_v2_metrics(tmp_path / "v2.csv", presents(["9", "11", "10"], hidden=[0])),
        write_composed_60hz_capture(tmp_path / "composed.csv", frames=200).path,
    ]
    for path in files:
        streamed = open_capture(path, column=column)  # type: ignore[arg-type]
        assert [
            (f.row, f.elapsed_ns, f.present_interval_ns, f.displayed) for f in streamed.frames()
        ] == reference_frames(path, column), path.name


def test_columns_of_empty_or_one_character_cells(tmp_path: Path) -> None:
    rows = [replace(row, cells={"TimeInSeconds": ""}) for row in presents(["10", "10"])]
    path = write_presentmon_1x(tmp_path / "empty.csv", rows)
    with pytest.raises(BadInput) as refused:
        open_capture(path)
    assert refused.value.lines[0].endswith("none a frame under --column presents (missing value 2)")
    short = [replace(row, cells={"msBetweenPresents": "5"}) for row in presents(["10", "10"])]
    capture = open_capture(write_presentmon_1x(tmp_path / "short.csv", short))
    assert [frame.elapsed_ns for frame in capture.frames()] == [5_000_000, 5_000_000]


def damaged(seed: int, original: bytes) -> bytes:
    """`original` with a few bytes cut, replaced or inserted at seeded places."""
    rng = random.Random(seed)
    data = bytearray(original)
    pieces = [b",", b"\n", b"\r\n", b"NA", b"-", b"e", b"\xff", b"\x00", b".", b"9" * 30, b""]
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(data) + 1)
        if rng.random() < 0.5:
            data[at : at + rng.randint(0, 5)] = rng.choice(pieces)
        else:
            del data[at : at + rng.randint(1, 30)]
    return bytes(data)


def test_damaged_captures_end_in_frames_or_one_line(tmp_path: Path) -> None:
    rows = presents(["10", "11", "12", "9"], hidden=[1])
    originals = [
        write_presentmon_1x(tmp_path / "a.csv", rows).read_bytes(),
        write_presentmon_2x(tmp_path / "b.csv", rows, time="qpc").read_bytes(),
        write_presentmon_v2_metrics(tmp_path / "c.csv", rows).read_bytes(),
    ]
    outcomes = {"read": 0, "refused": 0}
    for seed in range(60):
        path = tmp_path / "damaged.csv"
        path.write_bytes(damaged(seed, originals[seed % 3]))
        for column in ("presents", "display", "simulation"):
            try:
                capture = open_capture(path, column=column)
            except BadInput as refused:
                assert len(refused.lines) == 1
                outcomes["refused"] += 1
                continue
            counted(capture)
            assert all(frame.elapsed_ns > 0 for frame in capture.frames())
            outcomes["read"] += 1
    assert outcomes["read"] > 0 and outcomes["refused"] > 0
