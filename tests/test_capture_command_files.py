"""`python -m game capture FILE` on capture files the tests write (`tests/capture_files.py`).

The histograms are checked against an independent computation: the test reads the interval
column's decimals from the file itself with `csv` and `Fraction`, and plans each policy's ticks
from its defining sentence (`tests/test_capture_command.py`).
"""

from __future__ import annotations

import csv
import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from tests.capture_files import OTHER_SWAPCHAIN, PRESENTMON_1X, presents, write_presentmon_1x
from tests.test_capture_command import reference_ticks
from timestep_lab import POLICIES

BEYOND_THE_NS = {3: "7.12345650000000", 8: "7.12345750000000"}
"""Two intervals written half a nanosecond past it: read half to even, 7,123,456 and 7,123,458."""


def _game(path: Path, count: int, seed: int) -> Path:
    rng = random.Random(seed)
    whole_ns = ["16.6667", "7.123456", "33.4", "120.25", "6.9", "0.5"]
    frames = presents([rng.choice(whole_ns) for _ in range(count)])
    for index, text in BEYOND_THE_NS.items():
        frames[index] = replace(frames[index], cells={"msBetweenPresents": text})
    return write_presentmon_1x(path, frames)


def _intervals_in(path: Path) -> list[Fraction]:
    """The file's present intervals in seconds, read as decimals: an independent reading."""
    with path.open(newline="", encoding="utf-8") as file:
        return [Fraction(row["msBetweenPresents"]) / 1000 for row in csv.DictReader(file)]


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    assert main(["capture", *argv, "--json", "--headroom-frames", "0"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("hz", [60, 144])
def test_the_histograms_are_exact_against_the_files_decimals(
    hz: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _game(tmp_path / "game.csv", 500, seed=hz)
    exact = [Fraction(round(seconds * 10**9), 10**9) for seconds in _intervals_in(path)]
    assert (exact[3], exact[8]) == (Fraction(7_123_456, 10**9), Fraction(7_123_458, 10**9))
    lines = _json(capsys, str(path), "--hz", str(hz))
    assert [line["policy"] for line in lines] == list(POLICIES)
    for line in lines:
        reference = Counter(reference_ticks(str(line["policy"]), exact, hz))
        assert line["steps_per_frame"] == {str(k): v for k, v in sorted(reference.items())}


def test_the_capture_object_says_what_was_read_and_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Six presents of the game's swap chain, two of another interleaved: the six are kept."""
    game = presents(["10"] * 6)
    other = [replace(row, swapchain=OTHER_SWAPCHAIN) for row in presents(["30"] * 2)]
    rows = sorted([*game, *other], key=lambda row: row.time_ns)
    path = write_presentmon_1x(tmp_path / "game.csv", rows)
    (line,) = _json(capsys, str(path), "--policies", "drop")
    assert line["capture"] == {
        "format": "presentmon", "layout": "1.x", "process": "game.exe (4712)",
        "rows": 8, "frames": 6, "skipped": {"other swap chain": 2}, "damaged": {},
        "candidates": [{"process": "game.exe (4712)", "swapchain": OTHER_SWAPCHAIN, "rows": 2}],
    }  # fmt: skip
    assert line["frames"] == 6


def test_a_file_without_frames_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.csv"
    path.write_text(",".join(PRESENTMON_1X) + "\r\n", encoding="utf-8")
    assert main(["capture", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert captured.err.startswith(f"{path}: ")


def test_an_unknown_column_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["capture", "any.csv", "--column", "gpu"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
