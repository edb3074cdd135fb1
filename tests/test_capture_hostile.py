"""Hostile captures and unusual inputs (issue 30): pipes and FIFOs read once with every row, a
byte-order mark on a session, numbers past every limit, a long line anywhere, a session too
large for the row limit, and names holding line breaks and escape sequences."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

import game.capture.capframex
from game.capture.reading import open_capture
from game.cli import main
from game.errors import BadInput
from tests.capture_files import (
    presents,
    write_capframex,
    write_long_presentmon_1x,
    write_mangohud,
    write_presentmon_1x,
)
from tests.commands import ROOT

LONG_ROWS = 12_000
"""A capture well past the 64 KiB its format is told from (some 1.4 MB)."""


def _feed(fifo: Path, data: bytes) -> threading.Thread:
    """A writer for `fifo` in a thread of its own (it opens once a reader does)."""

    def write() -> None:
        with fifo.open("wb") as end:
            end.write(data)

    thread = threading.Thread(target=write)
    thread.start()
    return thread


def test_a_capture_through_a_fifo_is_read_once_with_every_row(tmp_path: Path) -> None:
    data = write_long_presentmon_1x(tmp_path / "long.csv", frames=LONG_ROWS).read_bytes()
    fifo = tmp_path / "capture.csv"
    os.mkfifo(fifo)
    writer = _feed(fifo, data)
    capture = open_capture(fifo)
    writer.join()
    assert (capture.info.rows, capture.info.frames) == (LONG_ROWS, LONG_ROWS)
    assert len(list(capture.frames())) == len(list(capture.frames())) == LONG_ROWS


@pytest.mark.parametrize("kind", ["mangohud", "capframex"])
def test_every_reader_reads_a_fifo_once(tmp_path: Path, kind: str) -> None:
    rows = presents(["10"] * 3000)
    if kind == "mangohud":
        path = write_mangohud(tmp_path / "log.csv", ["10"] * 3000)
    else:
        path = write_capframex(tmp_path / "session.json", [rows])
    assert path.stat().st_size > 64 * 1024
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = _feed(fifo, path.read_bytes())
    capture = open_capture(fifo)
    writer.join()
    assert (capture.info.rows, capture.info.frames) == (3000, 3000)
    assert list(capture.frames()) == list(open_capture(path).frames())


def test_the_capture_command_reads_a_pipe_whole(tmp_path: Path) -> None:
    data = write_long_presentmon_1x(tmp_path / "long.csv", frames=LONG_ROWS).read_bytes()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "game",
            "capture",
            "/dev/stdin",
            "--json",
            "--policies",
            "drop",
            "--headroom-frames",
            "0",
        ],
        input=data,
        capture_output=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    capture = json.loads(done.stdout.splitlines()[0])["capture"]
    assert (capture["rows"], capture["frames"]) == (LONG_ROWS, LONG_ROWS)


def test_a_capframex_session_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    path = write_capframex(tmp_path / "session.json", [presents(["10", "12"])])
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert [frame.elapsed_ns for frame in open_capture(path).frames()] == [10**7, 12 * 10**6]


def test_a_mangohud_number_past_the_digit_limit_is_no_number_at_once(tmp_path: Path) -> None:
    """`fps` x `frametime` tells milliseconds from microseconds: read exactly, `1e999999999`
    would take minutes and gigabytes; it is no number, as in every other cell."""
    huge = "1e999999999"
    path = write_mangohud(tmp_path / "log.csv", [huge, "10", "10"], fps=[huge, huge, "100"])
    capture = open_capture(path)
    assert (capture.info.frames, dict(capture.info.skipped)) == (2, {"not a number": 1})
    assert [frame.elapsed_ns for frame in capture.frames()] == [10**7, 10**7]


@pytest.mark.parametrize("length", [70_000, 500_000, 900_000])
def test_a_line_past_the_limit_anywhere_is_refused(tmp_path: Path, length: int) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["10"] * 200))
    lines = path.read_bytes().split(b"\r\n")
    lines.insert(100, b"game.exe,4712," + b"9" * length)
    path.write_bytes(b"\r\n".join(lines))
    with pytest.raises(BadInput) as refused:
        open_capture(path)
    assert refused.value.lines == (f"{path}: not a capture: a line longer than 65,536 bytes",)
    log = write_mangohud(tmp_path / "log.csv", ["10"] * 200)
    lines = log.read_bytes().split(b"\n")
    lines.insert(100, b"60," + b"1" * length)
    log.write_bytes(b"\n".join(lines))
    with pytest.raises(BadInput) as also:
        open_capture(log)
    assert also.value.lines == (f"{log}: not a capture: a line longer than 65,536 bytes",)


def test_a_capframex_session_past_its_row_limit_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit is a million rows (`MAX_CAPFRAMEX_ROWS`); here one of 30 stands for it."""
    monkeypatch.setattr(game.capture.capframex, "MAX_CAPFRAMEX_ROWS", 30)
    path = write_capframex(tmp_path / "session.json", [presents(["10"] * 31)])
    with pytest.raises(BadInput) as refused:
        open_capture(path)
    assert refused.value.lines == (
        f"{path}: more than 30 rows in its first run (the limit for a CapFrameX session)",
    )
    assert open_capture(write_capframex(tmp_path / "ok.json", [presents(["10"] * 30)]))


def _bare_session(path: Path, entries: int) -> Path:
    """A CapFrameX session whose first run is `entries` frames of 1 ms, one digit an entry:
    the most rows 24 MiB can hold."""
    times = ",".join(["0"] * entries)
    presents_ms = ",".join(["1"] * entries)
    path.write_text(
        '{"Info": {"ProcessName": "bare.exe"}, "Runs": [{"CaptureData": '
        f'{{"TimeInSeconds": [{times}], "MsBetweenPresents": [{presents_ms}]}}}}]}}'
    )
    return path


@pytest.mark.slow
def test_a_session_of_six_million_entries_is_refused_within_the_memory_budget(
    tmp_path: Path,
) -> None:
    """24 MB of bare digits: 6,000,000 rows, refused by the row limit in one line, the command
    peaking well under the 200 MB a capture may use (it once took 600 MB). Slow: it writes and
    reads 24 MB; it measures memory, not time."""
    path = _bare_session(tmp_path / "bare.json", 6_000_000)
    assert path.stat().st_size <= 24 * 1024 * 1024
    peak = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run([sys.executable, '-m', 'game', 'capture', sys.argv[1]],"
        " capture_output=True, text=True)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(done.stderr, end='')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", peak, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    first, said = done.stdout.split("\n", 1)
    code, peak_kb = (int(part) for part in first.split())
    assert (code, said) == (
        2,
        f"{path}: more than 1,000,000 rows in its first run (the limit for a CapFrameX session)\n",
    )
    assert peak_kb < 200 * 1024


def test_names_read_from_a_file_are_printed_with_their_controls_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_capframex(
        tmp_path / "session.json", [presents(["10", "10"])], process="ga\nme\u001b[31m.exe"
    )
    assert main(["capture", str(path), "--policies", "drop", "--headroom-frames", "0"]) == 0
    heading = capsys.readouterr().out.splitlines()[0]
    assert heading == f"capture {path}: capframex capframex, process ga\\nme\\x1b[31m.exe"
    rows = [replace(row, process="evil\r\u202e.exe") for row in presents(["10", "10"])]
    pm = write_presentmon_1x(tmp_path / "pm.csv", rows)
    assert main(["capture", str(pm), "--json", "--policies", "drop", "--headroom-frames", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["capture"]["process"] == "evil\r\u202e.exe (4712)"
    assert main(["capture", str(pm), "--policies", "drop", "--headroom-frames", "0"]) == 0
    assert "process evil\\r\\u202e.exe (4712)" in capsys.readouterr().out.splitlines()[0]


def test_a_refusal_naming_a_process_prints_its_controls_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        replace(row, process="ev\u001b[31mil", cells={"msBetweenPresents": "NA"})
        for row in presents(["10"] * 3)
    ]
    path = write_presentmon_1x(tmp_path / "pm.csv", rows)
    assert main(["capture", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"{path}: no frames: 3 rows, ev\\x1b[31mil (4712) swap chain 0x0000021A3F2B5C80 kept, "
        "none a frame under --column presents (missing value 3)\n"
    )
