"""Real captures, read right (issue 29): each shape a public capture came in, written here.

OCAT's short rows read whole; a file mostly damaged is refused unless `--allow-damaged`;
CapFrameX's CSV export reads with what it says of the capture; the default passes the
compositor over and lists what else there was; a last line without a line end counts when it is
whole; and the display model is handed each frame when the GPU had drawn it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.capture.frame import Candidate
from game.capture.reading import frame_columns, open_capture
from game.cli import main
from game.errors import BadInput
from game.workshop.captures.display_columns import DisplayColumns
from game.workshop.captures.display_side import compare_display
from tests.capture_files import PRESENTMON_1X, presents, write_presentmon_1x
from tests.capture_shapes import (
    write_capframex_csv,
    write_five_processes,
    write_ocat,
    write_ready_composed_capture,
)


def _json_capture(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["capture", *argv, "--json", "--policies", "drop", "--headroom-frames", "0"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    capture: dict[str, object] = record["capture"]
    return capture


def test_ocat_s_short_rows_read_whole(tmp_path: Path) -> None:
    """29 columns in the header, the first row all 29, the others the 17 PresentMon ones."""
    path = write_ocat(tmp_path / "ocat.csv", presents(["9.681", "12.166", "11.5", "10"]))
    lines = path.read_text().splitlines()
    assert [line.count(",") + 1 for line in lines] == [29, 29, 17, 17, 17]
    capture = open_capture(path)
    info = capture.info
    assert (info.rows, info.frames, dict(info.skipped), info.damaged) == (4, 4, {}, {})
    assert [frame.elapsed_ns for frame in capture.frames()] == [
        9_681_000,
        12_166_000,
        11_500_000,
        10_000_000,
    ]


def _damaged(path: Path, count: int, bad: int) -> Path:
    """`count` rows of 10 ms, the first `bad` of them damaged in turn: an `NA` interval, one
    that is no number, a row cut short."""
    rows = presents(["10"] * count)
    for index in range(bad):
        if index % 3 == 0:
            rows[index] = replace(rows[index], cells={"msBetweenPresents": "NA"})
        elif index % 3 == 1:
            rows[index] = replace(rows[index], cells={"msBetweenPresents": "1,5"})  # two cells
        else:
            rows[index] = replace(rows[index], cells={"TimeInSeconds": "abc"})
    return write_presentmon_1x(path, rows)


def test_a_file_more_than_half_damaged_is_refused_naming_the_commonest_cause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """60 of 100 rows damaged: 20 missing values, 20 lines with a cell too many (truncated:
    spliced), 20 not numbers. The commonest of equals is named, the last in the reasons' order."""
    path = _damaged(tmp_path / "damaged.csv", 100, 60)
    assert main(["capture", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{path}: 60 of the 100 rows of game.exe (4712) are damaged (the commonest: truncated "
        "line, 20); --allow-damaged reads the rest"
    ]
    capture = _json_capture(capsys, str(path), "--allow-damaged")
    assert (capture["rows"], capture["frames"], capture["damaged"]) == (
        100,
        40,
        {"missing value": 20, "not a number": 20, "truncated line": 20},
    )


def test_damage_over_one_percent_is_the_report_s_first_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _damaged(tmp_path / "some.csv", 100, 2)
    assert main(["capture", str(path), "--policies", "drop", "--headroom-frames", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "damaged: 2 of the 100 rows of game.exe (4712) (2.0 %: missing value 1, truncated line "
        "1); the figures below leave them out"
    )
    one = _damaged(tmp_path / "one.csv", 100, 1)
    assert main(["capture", str(one), "--policies", "drop", "--headroom-frames", "0"]) == 0
    assert capsys.readouterr().out.startswith(f"capture {one}:")


def test_other_processes_and_frames_not_shown_are_no_damage(tmp_path: Path) -> None:
    rows = presents(["10"] * 10, hidden=range(7))
    rows += [replace(row, process="other.exe", pid=1) for row in presents(["5"] * 30)]
    path = write_presentmon_1x(tmp_path / "pm.csv", rows)
    info = open_capture(path, process="game.exe", column="display").info
    # Of the three shown, the first has no display change before it (1.x writes 0).
    assert (info.frames, dict(info.skipped), info.damaged) == (
        2,
        {"other process": 30, "not displayed": 7, "zero or negative interval": 1},
        {},
    )


def test_the_capframex_csv_export_reads_with_its_info(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_capframex_csv(tmp_path / "cx.csv", presents(["3.387", "3.345", "5"]))
    capture = open_capture(path)
    assert (capture.info.format, capture.info.layout, capture.info.frames) == (
        "capframex",
        "1.x",
        3,
    )
    assert [frame.row for frame in capture.frames()] == [9, 10, 11]  # the file's own lines
    record = _json_capture(capsys, str(path))
    assert record["info"] == {
        "GameName": "re2.exe",
        "ProcessName": "Resident Evil 2",
        "Processor": "Intel(R) Core(TM) CPU @ 3.60GHz",
        "GPU": "GPU 2080 Ti",
        "Base Driver Version": "bla",
        "Comment": "Test",
    }
    assert main(["capture", str(path), "--policies", "drop", "--headroom-frames", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[2] == (
        "the tool wrote: GameName=re2.exe, ProcessName=Resident Evil 2, Processor=Intel(R) "
        "Core(TM) CPU @ 3.60GHz, GPU=GPU 2080 Ti, Base Driver Version=bla, Comment=Test"
    )


def test_more_than_a_hundred_info_lines_are_refused(tmp_path: Path) -> None:
    info = [(f"Key{index}", "x") for index in range(101)]
    path = write_capframex_csv(tmp_path / "cx.csv", presents(["5"]), info)
    with pytest.raises(BadInput) as refused:
        open_capture(path)
    assert refused.value.lines == (
        f"{path}: not a capture: more than 100 //Key=Value lines before the PresentMon header",
    )
    assert open_capture(write_capframex_csv(tmp_path / "ok.csv", presents(["5"]), info[:100]))


def test_the_default_passes_the_compositor_over_and_lists_the_candidates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_five_processes(tmp_path / "five.csv")
    info = open_capture(path).info
    assert (info.process, info.swapchain, info.frames) == (
        "GRB.exe (13456)",
        "0x0000000000000002",
        5,
    )
    assert info.candidates == (
        Candidate("DWM.exe (1520)", "0x0000000000000001", 9),
        Candidate("firefox.exe (7084)", "0x0000000000000003", 4),
        Candidate("GRB.exe (13456)", "0x00000000000000F0", 3),
        Candidate("AMD Ryzen Master.exe (16864)", "0x0000000000000004", 2),
        Candidate("devenv.exe (11852)", "0x0000000000000005", 1),
    )
    assert _json_capture(capsys, str(path))["candidates"] == [
        candidate._asdict() for candidate in info.candidates
    ]
    assert main(["capture", str(path), "--policies", "drop", "--headroom-frames", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[2] == (
        "other processes: DWM.exe (1520) swap chain 0x0000000000000001 9 rows, firefox.exe "
        "(7084) swap chain 0x0000000000000003 4 rows, GRB.exe (13456) swap chain "
        "0x00000000000000F0 3 rows, AMD Ryzen Master.exe (16864) swap chain 0x0000000000000004 "
        "2 rows, devenv.exe (11852) swap chain 0x0000000000000005 1 rows"
    )
    asked = open_capture(path, process="dwm.exe").info
    assert (asked.process, asked.candidates) == ("DWM.exe (1520)", ())


def test_the_compositor_is_kept_when_nothing_else_presents(tmp_path: Path) -> None:
    rows = [replace(row, process="dwm.exe", pid=1) for row in presents(["16"] * 3)]
    info = open_capture(write_presentmon_1x(tmp_path / "dwm.csv", rows)).info
    assert (info.process, info.frames, info.candidates) == ("dwm.exe (1)", 3, ())


def test_a_whole_last_line_without_a_line_end_is_a_frame(tmp_path: Path) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["10", "11", "12"]))
    path.write_bytes(path.read_bytes().removesuffix(b"\r\n"))
    capture = open_capture(path)
    assert (capture.info.frames, dict(capture.info.skipped)) == (3, {})
    assert capture.info.notes == ("last line had no line end: read as a row",)
    assert [frame.elapsed_ns for frame in capture.frames()][-1] == 12_000_000


def test_a_last_line_cut_to_fewer_cells_is_a_truncated_line(tmp_path: Path) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["10", "11", "12"]))
    text = path.read_bytes().removesuffix(b"\r\n")
    path.write_bytes(text[: text.rindex(b",")])  # its last cell gone
    capture = open_capture(path)
    assert (capture.info.frames, dict(capture.info.skipped)) == (2, {"truncated line": 1})
    assert capture.info.notes == ("last line had no line end: read as a truncated line",)
    header_only = tmp_path / "header.csv"
    header_only.write_text(",".join(PRESENTMON_1X))
    with pytest.raises(BadInput):
        open_capture(header_only)


def test_a_composed_capture_s_frames_are_shown_by_when_the_gpu_drew_them(tmp_path: Path) -> None:
    """1,200 frames near 120 fps on 60 Hz, each drawn 2 to 12 ms after its present, shown by
    the compositor when drawn: the model handed the ready times agrees on at least 98.5 % of
    them, handed the presents on fewer than 97 %."""
    written = write_ready_composed_capture(tmp_path / "composed.csv")
    columns = DisplayColumns.of(frame_columns(open_capture(written.path)))
    ready = compare_display(columns)
    present = compare_display(columns, ready=False)
    assert (ready.ready_from, present.ready_from) == ("ready", "present")
    assert (ready.mode, present.mode) == ("latest", "latest")
    assert ready.agreement == Fraction(1_199, 1_200)
    assert present.agreement == Fraction(806, 1_200)
    assert ready.agreement >= Fraction(985, 1000) > Fraction(97, 100) > present.agreement


def test_the_json_display_object_says_what_the_model_was_handed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = write_ready_composed_capture(tmp_path / "composed.csv", frames=300)
    assert main(["capture", str(written.path), "--json", "--policies", "drop"]) == 0
    display = json.loads(capsys.readouterr().out)["display"]
    assert display["ready_from"] == "ready"
    hidden = [replace(row, cells={"msUntilRenderComplete": "NA"}) for row in written.presents]
    path = write_presentmon_1x(tmp_path / "no_ready.csv", hidden)
    assert main(["capture", str(path), "--json", "--policies", "drop"]) == 0
    assert json.loads(capsys.readouterr().out)["display"]["ready_from"] == "present"
