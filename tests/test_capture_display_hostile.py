"""The display side and the command's work on hostile captures (issue 30, points 1, 2, 5, 11):
times the model cannot fit end in "display side: not run: REASON" beside the policies' report,
a pause in the times costs nothing in proportion to its span, `--refresh` takes the model's
range, and `capture`'s work is its frames x rates x policies, worded for it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import game.workshop.captures.display_side
import game.workshop.captures.work
from game.cli import main
from tests.capture_files import Present, presents, s_text, write_capframex, write_presentmon_1x

QUICK = ["--policies", "drop", "--headroom-frames", "0"]


def _run(capsys: pytest.CaptureFixture[str], path: Path, *flags: str) -> tuple[int, str, str]:
    code = main(["capture", str(path), *QUICK, *flags])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _timed(rows: list[Present], times_ns: dict[int, int]) -> list[Present]:
    """`rows` with the given rows' `TimeInSeconds` written as other times."""
    return [
        replace(row, cells={"TimeInSeconds": s_text(times_ns[index])}) if index in times_ns else row
        for index, row in enumerate(rows)
    ]


STEADY = presents(["16.6667"] * 300)
HOSTILE = {
    "an outlier first display time": (
        [replace(STEADY[0], cells={"msUntilDisplayed": "99999.0"}), *STEADY[1:]],
        "the display times go back in time: 299 of the 300 frames shown were shown before the "
        "first of them, leaving no two to fit a grid to",
    ),
    "a time going down": (
        _timed(STEADY, {150: 10**9}),
        "the present times go back in time (once at row 152, 3,500.005 ms before the row "
        "before it)",
    ),
    "a jump to 9e9 s": (
        _timed(STEADY, {150: 9 * 10**18}),
        "the present times go back in time (once at row 153, 8,999,999,995,466.661 ms before "
        "the row before it)",
    ),
    "a jump to 9e9 s at the end": (
        _timed(STEADY, {299: 9 * 10**18}),
        "the capture spans 8,999,999,997,986.833 ms, more than the 1,000,000 s the display model "
        "can lay on a refresh grid",
    ),
    "a gap of 1e7 s": (
        _timed(STEADY, {index: STEADY[index].time_ns + 10**16 for index in range(150, 300)}),
        "the capture spans 10,000,004,986.843 ms, more than the 1,000,000 s the display model "
        "can lay on a refresh grid",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE), ids=list(HOSTILE))
def test_display_times_the_model_cannot_fit_leave_the_policies_report_whole(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, reason = HOSTILE[case]
    code, out, err = _run(capsys, write_presentmon_1x(tmp_path / "pm.csv", rows))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == f"display side: not run: {reason}"
    assert "\ndrop " in out  # the policies' table is there


def test_a_capframex_session_with_its_times_reversed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    last = len(STEADY) - 1
    rows = _timed(STEADY, {index: STEADY[last - index].time_ns for index in range(len(STEADY))})
    code, out, err = _run(capsys, write_capframex(tmp_path / "session.json", [rows]))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == (
        "display side: not run: the present times go back in time (299 times, first at row 2, "
        "16.666 ms before the row before it)"
    )


def test_a_pause_of_a_day_costs_nothing_in_proportion_to_its_span(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five rows, the last two 100,000 s later: 6,000,000 refreshes of 60 Hz between them. The
    meter would lay out every one (it once took 3 GB for a million seconds): it is not run, and
    says why."""

    def refused(*args: object) -> None:
        raise AssertionError("the meter was run over the pause")

    monkeypatch.setattr(game.workshop.captures.display_side, "_judders", refused)
    steady = presents(["16.6667"] * 5)
    rows = _timed(steady, {index: steady[index].time_ns + 10**14 for index in (3, 4)})
    code, out, _ = _run(capsys, write_presentmon_1x(tmp_path / "pm.csv", rows))
    assert code == 0
    assert out.splitlines()[-4:] == [
        "  capture         5         -           -  -",
        "  model           5         -           -  -",
        "  agreement: 5 of 5 frames (100.000 %)",
        "  judder: not measured: the frames shown span 5,999,992 refreshes, more than 64 a frame "
        "shown (5): a pause in the capture the meter would only measure the stillness of",
    ]


@pytest.mark.parametrize("refresh", ["0.5", "0", "1001", "-60"])
def test_refresh_takes_the_models_range_from_the_knob_table(
    refresh: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["16.6667"] * 30))
    code, out, err = _run(capsys, path, "--refresh", refresh)
    assert (code, out) == (2, "")
    if refresh == "-60":
        assert err.splitlines() == [
            "error: --refresh must be a non-negative decimal number like 16.667 (got '-60')"
        ]
        return
    assert err.splitlines() == [f"error: --refresh must be from 1 to 1000 Hz (got '{refresh}')"]
    assert _run(capsys, path, "--refresh", "1")[0] == 0


@pytest.mark.parametrize("flags", [["--hz", "6001"], ["--hz", "1000", "--time-scale", "7"]])
def test_capture_runs_any_tick_rate_its_flags_allow(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["16.6667"] * 30))
    code, out, err = _run(capsys, path, *flags)
    assert (code, err) == (0, "")
    assert "\ndrop " in out


def test_capture_s_work_is_its_frames_by_rates_by_policies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit is 20,000,000 frames to run; here 100 stands for it."""
    monkeypatch.setattr(game.workshop.captures.work, "MAX_CAPTURE_RUN_FRAMES", 100)
    path = write_presentmon_1x(tmp_path / "pm.csv", presents(["16.6667"] * 30))
    assert main(["capture", str(path), "--hz", "60,120", "--policies", "drop,backlog"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{path}: 30 frames x 2 tick rates x 2 policies is 120 frames to run, more than 100 (the "
        "limit for a capture): fewer rates or policies, or a shorter capture"
    ]
    assert main(["capture", str(path), "--hz", "60,120", "--headroom-frames", "5001"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: --headroom-frames 5,001 x 2 tick rates x 6 policies is 60,012 frames for the "
        "headroom's runs to take, more than 60,000 (the limit): fewer frames, rates or policies "
        "(--headroom-frames 0 skips it)"
    ]
