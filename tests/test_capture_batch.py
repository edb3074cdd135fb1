"""`python -m game capture PATH...` on many files (issue 33, part 1): the folders walked and the
patterns expanded by the command, a row per file, tick rate and policy, the aggregates summed
over the files and checked here against each file's own figures, failures per file, `--out`'s
`batch.csv` and folders, the exit status and the one bar that counts files.

The captures are written here (`tests/capture_files.py`); none is copied from anywhere.
"""

from __future__ import annotations

import csv
import gzip
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from game import limits
from game.cli import main
from tests.capture_files import presents, write_capframex, write_mangohud, write_presentmon_1x
from tests.test_progress_bars import Watched, bars  # noqa: F401 (the fixture)

FLAGS = ["--hz", "60,120", "--policies", "drop,backlog", "--headroom-frames", "0"]


def a_night(folder: Path) -> Path:
    """A night's folder: a PresentMon CSV, a gzip one (capitals in its name), a CapFrameX
    session two folders down, a MangoHud log, and two files that are no capture by their names."""
    (folder / "b" / "deep").mkdir(parents=True)
    (folder / "a").mkdir()
    write_presentmon_1x(folder / "a" / "x.csv", presents(["16.6667", "33.4", "7.5"] * 50))
    packed = write_presentmon_1x(
        folder / "b" / "y.csv", presents(["16.6667", "120.25", "6.9"] * 40)
    )
    (folder / "b" / "Y2.CSV.GZ").write_bytes(gzip.compress(packed.read_bytes()))
    packed.unlink()
    write_capframex(folder / "b" / "deep" / "z.json", [presents(["10", "20"] * 30)])
    write_mangohud(folder / "m.csv", ["16.6", "17.2", "50.0", "16.4"] * 20)
    (folder / "notes.txt").write_text("not a capture\n")
    (folder / "b" / "y.csv.bak").write_text("not a capture either\n")
    return folder


def run_json(
    capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, list[dict[str, Any]], str]:
    code = main(["capture", *argv, *FLAGS, "--workers", "1", "--json"])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def single(capsys: pytest.CaptureFixture[str], path: Path) -> list[dict[str, Any]]:
    """`capture FILE --json`'s lines for one file."""
    assert main(["capture", str(path), *FLAGS, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_folder_is_walked_to_its_full_depth_in_path_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night = a_night(tmp_path / "night")
    code, lines, err = run_json(capsys, str(night))
    files = list(dict.fromkeys(line["file"] for line in lines if "aggregate" not in line))
    assert code == 0
    assert files == [
        f"{night}/{name}" for name in ("a/x.csv", "b/Y2.CSV.GZ", "b/deep/z.json", "m.csv")
    ]
    assert err == "capture: left out 2 other files (not .csv, .csv.gz, .json or .json.gz)\n"


def test_each_files_lines_are_the_single_files_lines_with_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night = a_night(tmp_path / "night")
    _, lines, _ = run_json(capsys, str(night))
    for name in ("a/x.csv", "b/Y2.CSV.GZ", "b/deep/z.json", "m.csv"):
        path = night / name
        own = [{"file": str(path), **line} for line in single(capsys, path)]
        assert [line for line in lines if line.get("file") == str(path)] == own


def test_the_aggregates_sum_numerators_and_denominators_over_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night = a_night(tmp_path / "night")
    _, lines, _ = run_json(capsys, str(night / "a"), str(night / "b"))
    per_file = [line for line in lines if "aggregate" not in line]
    totals = [line for line in lines if "aggregate" in line]
    assert [(line["hz"], line["policy"]) for line in totals] == [
        (60, "drop"), (60, "backlog"), (120, "drop"), (120, "backlog"),
    ]  # fmt: skip
    captured = {line["file"]: line["capture"] for line in per_file}
    for total in totals:
        mine = [
            line
            for line in per_file
            if (line["hz"], line["policy"]) == (total["hz"], total["policy"])
        ]
        assert total["files"] == 3 == len(mine)
        assert total["frames"] == sum(line["frames"] for line in mine) == 150 + 120 + 60
        histogram: dict[str, int] = {}
        for line in mine:
            for steps, count in line["steps_per_frame"].items():
                histogram[steps] = histogram.get(steps, 0) + count
        assert total["steps_per_frame"] == dict(
            sorted(histogram.items(), key=lambda kv: int(kv[0]))
        )
        time = {
            f"{night}/a/x.csv": (Fraction("16.6667") + Fraction("33.4") + Fraction("7.5")) * 50,
            f"{night}/b/Y2.CSV.GZ": (Fraction("16.6667") + Fraction("120.25") + Fraction("6.9"))
            * 40,
            f"{night}/b/deep/z.json": Fraction(30 * 30),
        }
        all_ns = sum(time.values()) * 1_000_000
        assert total["captured_ns"] == all_ns
        assert total["dropped_share"] == float(
            round(Fraction(sum(line["dropped_ns"] for line in mine)) / all_ns, 9)
        )
        lost = Fraction(0)
        for line in mine:
            lost += Fraction(str(line["lost_share"])) * time[line["file"]] * 1_000_000
        # each file's share is printed to 9 places, so its sum is within 1e-9 of the exact one
        assert abs(Fraction(str(total["lost_share"])) - lost / all_ns) <= Fraction(1, 10**9)
        worst_dropped = max(
            mine, key=lambda line: Fraction(line["dropped_ns"]) / time[line["file"]]
        )
        if worst_dropped["dropped_ns"]:
            assert total["worst"]["dropped_share"] == worst_dropped["file"]
        worst_doubled = max(mine, key=lambda line: line["doubled_share"])
        assert total["worst"]["doubled_share"] == worst_doubled["file"]
        assert set(total["worst"]) == {"dropped_share", "lost_share", "doubled_share", "agreement"}
    assert set(captured) == {f"{night}/a/x.csv", f"{night}/b/Y2.CSV.GZ", f"{night}/b/deep/z.json"}


def test_a_pattern_is_expanded_by_the_command_and_one_that_matches_nothing_fails_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night = a_night(tmp_path / "night")
    code, lines, err = run_json(capsys, f"{night}/**/*.json", f"{night}/*.nothing")
    assert code == 1
    files = list(dict.fromkeys(line["file"] for line in lines if "aggregate" not in line))
    assert files == [f"{night}/*.nothing", f"{night}/b/deep/z.json"]  # in path order
    assert {"file": f"{night}/*.nothing", "error": f"{night}/*.nothing: matches no file"} in lines
    assert err == f"capture: {night}/*.nothing: matches no file\n"


def test_a_file_that_cannot_be_read_is_one_line_exit_1_and_the_others_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write_presentmon_1x(tmp_path / "good.csv", presents(["16.6667"] * 30))
    bad = tmp_path / "bad.csv"
    bad.write_text("nope\n")
    other = write_presentmon_1x(tmp_path / "other.csv", presents(["10"] * 30))
    code, lines, err = run_json(capsys, str(tmp_path), "--process", "game.exe")
    assert code == 1
    failed = [line for line in lines if "error" in line]
    assert [line["file"] for line in failed] == [str(bad)]
    assert str(failed[0]["error"]).startswith(
        f"{bad}: not a capture: the first line is no PresentMon"
    )
    assert err.count("\n") == 1 and err.startswith(f"capture: {bad}: not a capture")
    assert {line["file"] for line in lines if "frames" in line and "aggregate" not in line} == {
        str(good),
        str(other),
    }


def test_a_process_named_that_a_file_does_not_hold_fails_that_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_presentmon_1x(tmp_path / "a.csv", presents(["16.6667"] * 30))
    code, lines, _ = run_json(capsys, str(tmp_path), "--process", "other.exe")
    assert code == 1
    assert [sorted(line) for line in lines] == [["error", "file"]]


def test_refused_before_any_file_is_read_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "readme.txt").write_text("x")
    assert main(["capture", str(tmp_path / "empty")]) == 2
    assert (
        capsys.readouterr().err
        == f"error: no capture files in {tmp_path / 'empty'} (1 other files)\n"
    )
    for name in ("a", "b", "c"):
        write_presentmon_1x(tmp_path / f"{name}.csv", presents(["10"] * 5))
    monkeypatch.setattr(limits, "MAX_CAPTURE_FILES", 2)
    assert main(["capture", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "error: more than 2 capture files to read (the limit for one batch): name fewer folders "
        "or a narrower pattern\n"
    )


def test_out_writes_batch_csv_and_a_whole_folder_per_file_named_by_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night = a_night(tmp_path / "night")
    out = tmp_path / "out"
    assert main(["capture", str(night / "a"), str(night / "b"), *FLAGS, "--out", str(out)]) == 0
    assert sorted(path.name for path in out.iterdir()) == [
        "a__x.csv", "b__Y2.CSV.GZ", "b__deep__z.json", "batch.csv",
    ]  # fmt: skip
    assert capsys.readouterr().out.endswith(f"wrote {out}/batch.csv and 3 folders\n")
    assert (
        main(["capture", str(night / "a" / "x.csv"), *FLAGS, "--out", str(tmp_path / "one")]) == 0
    )
    one = tmp_path / "one"
    assert (out / "a__x.csv" / "frames.csv").read_bytes() == (one / "frames.csv").read_bytes()
    assert (out / "a__x.csv" / "display.csv").read_bytes() == (one / "display.csv").read_bytes()
    assert sorted(path.name for path in (out / "a__x.csv").iterdir()) == [
        "display.csv",
        "frames.csv",
    ]
    with (out / "batch.csv").open(newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 3 * 4
    assert (rows[0]["file"], rows[0]["hz"], rows[0]["policy"]) == (f"{night}/a/x.csv", "60", "drop")
    assert rows[0]["frames"] == "150"


def test_one_worker_or_two_the_output_is_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night = a_night(tmp_path / "night")
    outputs = []
    for workers in ("1", "2"):
        out = tmp_path / f"out{workers}"
        argv = ["capture", str(night), *FLAGS, "--json", "--workers", workers, "--out", str(out)]
        assert main(argv) == 0
        outputs.append((capsys.readouterr().out, (out / "batch.csv").read_bytes()))
    assert outputs[0] == outputs[1]


def test_one_bar_counts_the_files(bars: Watched, tmp_path: Path) -> None:  # noqa: F811
    for name in ("a", "b", "c"):
        write_presentmon_1x(tmp_path / f"{name}.csv", presents(["10"] * 5))
    assert main(["capture", str(tmp_path), *FLAGS, "--workers", "1", "--json"]) == 0
    assert (bars.started, bars.stopped) == ([("files", 3, 3)], 1)
