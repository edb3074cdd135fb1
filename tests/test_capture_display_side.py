"""The display side of a capture: the virtual display run on a real game's present times, beside
what the capture says reached the screen."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.capture.frame import CapturedFrame
from game.capture.reading import frame_columns, open_capture
from game.cli import main
from game.errors import BadInput
from game.workshop.captures.display_columns import DisplayColumns
from game.workshop.captures.display_options import (
    DisplayOptions,
    add_display_arguments,
    display_options,
    run_display_side,
)
from game.workshop.captures.display_report import display_text, write_display_csv
from game.workshop.captures.display_side import DisplaySide, compare_display
from tests.capture_files import (
    DisplayedCapture,
    presents,
    write_composed_60hz_capture,
    write_presentmon_2x,
    write_tearing_160fps_capture,
)

MS = 1_000_000


def display_side(capture: DisplayedCapture, **asked: object) -> DisplaySide:
    columns = DisplayColumns.from_frames(open_capture(capture.path).frames())
    return compare_display(columns, **asked)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def composed(tmp_path_factory: pytest.TempPathFactory) -> DisplayedCapture:
    return write_composed_60hz_capture(tmp_path_factory.mktemp("composed") / "composed.csv")


@pytest.fixture(scope="module")
def tearing(tmp_path_factory: pytest.TempPathFactory) -> DisplayedCapture:
    return write_tearing_160fps_capture(tmp_path_factory.mktemp("tearing") / "tearing.csv")


def test_a_composed_capture_at_120_fps_on_60_hz_fits_latest_frame_wins(
    composed: DisplayedCapture,
) -> None:
    # The compositor showed 299 of 600 frames. The model on the fitted grid, the newest frame
    # at each vblank, agrees on 599: all but the last frame (row 601), which it shows at the
    # next refresh, after the capture had stopped; the capture never saw it shown.
    side = display_side(composed)
    truth = [present.display_ns is not None for present in composed.presents]
    assert side.captured.tolist() == truth
    assert side.mode == "latest" and not side.asked
    assert side.agreement == Fraction(599, 600) >= Fraction(97, 100)
    assert side.disagreements() == [601]
    assert side.record() == {
        "captured_shown": 299,
        "predicted_shown": 300,
        "agreement": 0.998333333,
        "ready_from": "ready",
    }
    assert side.agreements == {
        "queue": Fraction(299, 600),
        "latest": Fraction(599, 600),
        "immediate": Fraction(299, 600),
    }
    # The compositor's 1 ms after the frame's present, less the 0.5 ms it took to draw, and the
    # nearest present to it; the model was handed each frame when it was ready.
    assert (side.lead_ns, side.ready_from) == (525_933, "ready")


def test_the_composed_capture_s_grid_is_its_60_hz_display(composed: DisplayedCapture) -> None:
    side = display_side(composed)
    assert composed.refresh_ns is not None
    assert abs(side.grid.period_ns - composed.refresh_ns) < 1
    first_vblank = composed.phase_ns - composed.presents[0].time_ns  # on the capture's clock
    assert abs((side.grid.offset_ns - first_vblank) % composed.refresh_ns) < 1


def test_the_queue_asked_for_on_the_composed_capture_shows_every_frame(
    composed: DisplayedCapture,
) -> None:
    side = display_side(composed, mode="queue")
    assert side.asked and side.predicted_shown == 600
    assert side.agreement == Fraction(side.captured_shown, 600)


def test_the_judder_of_what_was_shown_is_the_same_on_both_sides_where_they_agree(
    composed: DisplayedCapture,
) -> None:
    side = display_side(composed)
    assert side.captured_judder == side.predicted_judder


def test_a_tearing_capture_sits_on_no_grid_and_fits_immediate(tearing: DisplayedCapture) -> None:
    # Every frame of a torn capture reached the screen, 0.2 to 0.6 ms after its present, on no
    # grid: the model shows each at once and agrees on all 800 (tried first, it wins the tie
    # with the queue); latest frame wins, on a 60 Hz display, would have shown 301.
    side = display_side(tearing)
    assert not side.fit.on_a_grid and not side.grid.fitted
    assert side.mode == "immediate"
    assert side.agreement == 1 and side.captured_shown == side.predicted_shown == 800
    assert side.agreements == {
        "immediate": Fraction(1),
        "queue": Fraction(1),  # open loop, a queue shows every frame too, only later and later
        "latest": Fraction(301, 800),
    }


def test_the_report_names_the_grid_the_model_and_the_agreement(composed: DisplayedCapture) -> None:
    text = display_text(display_side(composed), 600)
    assert text.splitlines()[0] == (
        "display side: 299 of 600 frames reached the screen, by the capture's word"
    )


def frame(row: int, present_ms: int, shown_ns: int | None, *, said: bool = True) -> CapturedFrame:
    """A frame presented at `present_ms`, shown at `shown_ns` (None: never), or one whose fate
    the capture does not say."""
    displayed = (shown_ns is not None) if said else None
    return CapturedFrame(row, present_ms * MS, 8 * MS, 8 * MS, displayed, shown_ns)


def test_a_worked_example_of_latest_frame_wins() -> None:
    # A game presenting every 8 ms on a 60 Hz display whose vblanks fall at 10 ms + k/60 s; the
    # compositor shows at each vblank the newest frame presented at least 1 ms before it: the
    # frames of 8, 24, 40 and 56 ms, at 10, 26.7, 43.3 and 60 ms. The capture does not say what
    # became of the frame of 64 ms: the agreement counts the other eight, and the model agrees
    # on all of them.
    vblanks = [10 * MS, 26_666_667, 43_333_333, 60 * MS]
    shown = {8: vblanks[0], 24: vblanks[1], 40: vblanks[2], 56: vblanks[3]}
    frames = [frame(row, ms, shown.get(ms)) for row, ms in enumerate(range(0, 64, 8), start=2)]
    frames.append(frame(10, 64, None, said=False))
    side = compare_display(DisplayColumns.from_frames(frames))
    assert (side.mode, side.frames, side.agreed, side.lead_ns) == ("latest", 8, 8, 2 * MS)
    assert side.predicted.tolist() == [False, True] * 4 + [True]
    # The least-squares line through four display times rounded to the ns: 1/60 s within 0.1 ns.
    assert (side.grid.period_ps, side.grid.offset_ps) == (16_666_666_600, 10_000_000_100)
    assert side.captured_judder is not None and side.predicted_judder is not None
    assert side.captured_judder.cadence == side.predicted_judder.cadence == "222"


def test_a_capture_that_does_not_say_what_was_shown_has_no_display_side(tmp_path: Path) -> None:
    path = write_presentmon_2x(tmp_path / "hidden.csv", presents(["16.6667"] * 5, hidden=range(5)))
    columns = DisplayColumns.from_frames(open_capture(path).frames())
    assert (
        columns.missing()
        == "the capture gives fewer than two display times to fit a refresh grid to"
    )


def test_a_capture_that_says_nothing_of_the_screen_has_no_display_side() -> None:
    frames = [frame(row, ms, None, said=False) for row, ms in enumerate((0, 8, 16), start=2)]
    columns = DisplayColumns.from_frames(frames)
    assert columns.missing() == "the capture does not say which frames reached the screen"
    with pytest.raises(ValueError, match="does not say"):
        compare_display(columns)


def test_the_columns_are_written_down_in_the_one_read(composed: DisplayedCapture) -> None:
    # The policies' runs and the display side share the columns the reader wrote as it read the
    # file; they hold what the frames say, frame by frame.
    capture = open_capture(composed.path)
    columns = frame_columns(capture)
    from_frames = DisplayColumns.from_frames(capture.frames())
    shared = DisplayColumns.of(columns)
    assert shared.rows is columns.row and shared.present_ns is columns.time_ns
    for name in ("rows", "present_ns", "displayed", "display_ns"):
        assert getattr(shared, name).tolist() == getattr(from_frames, name).tolist()
    assert int(shared.shown.sum()) == 299


def test_under_column_display_the_display_side_does_not_run(composed: DisplayedCapture) -> None:
    capture = open_capture(composed.path, column="display")
    columns = DisplayColumns.from_frames(capture.frames())
    assert run_display_side(columns, capture.info, DisplayOptions()) == (
        "--column display keeps only the frames shown; --column presents keeps them all"
    )


def test_the_mode_and_the_refresh_asked_for(composed: DisplayedCapture) -> None:
    parser = argparse.ArgumentParser()
    add_display_arguments(parser)
    options = display_options(parser.parse_args(["--present-mode", "queue", "--refresh", "59.94"]))
    assert options == DisplayOptions("queue", Fraction(5994, 100))
    capture = open_capture(composed.path)
    side = run_display_side(DisplayColumns.from_frames(capture.frames()), capture.info, options)
    assert isinstance(side, DisplaySide) and (side.mode, side.asked) == ("queue", True)
    with pytest.raises(BadInput, match="--refresh must be from 1 to 1000 Hz"):
        display_options(parser.parse_args(["--refresh", "0"]))


def test_a_torn_capture_told_its_display_s_refresh_runs_on_that_refresh(
    tearing: DisplayedCapture,
) -> None:
    # Told 144 Hz, the fit starts from 1/144 s but runs back to the game's own 159 fps: the
    # times sit on no 144 Hz grid, so the model runs on the 144 Hz stated. Latest frame wins
    # there would have shown 719 of the 800 frames.
    capture = open_capture(tearing.path)
    columns = DisplayColumns.from_frames(capture.frames())
    side = compare_display(columns, refresh_hz=Fraction(144))
    assert not side.grid.fitted and side.grid.period_ps == 6_944_444_444
    assert side.mode == "immediate" and side.agreements["latest"] == Fraction(719, 800)


def test_display_csv_puts_the_two_sides_frame_by_frame(
    composed: DisplayedCapture, tmp_path: Path
) -> None:
    side = display_side(composed)
    path = write_display_csv(tmp_path / "display.csv", side)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == (
        "row,time_ns,captured_shown,captured_display_ns,predicted_shown,predicted_display_ns"
    )
    assert len(lines) == 601
    first_shown = next(index for index, p in enumerate(composed.presents) if p.display_ns)
    row = lines[1 + first_shown].split(",")
    present = composed.presents[first_shown]
    start = composed.presents[0].time_ns
    assert row[:4] == [
        str(first_shown + 2),
        str(present.time_ns - start),
        "1",
        str(present.display_ns - start),  # type: ignore[operator]
    ]
    assert row[4:] == ["1", row[3]]  # the model shows it at the same refresh, to the ns
    assert lines[-1].split(",")[2:] == ["0", "", "1", lines[-1].split(",")[5]]


def _capture_command(path: Path, *flags: str) -> int:
    quick = ["--policies", "drop", "--headroom-frames", "0", "--workers", "1"]
    return main(["capture", str(path), *quick, *flags])


def test_the_capture_command_s_json_carries_the_display_object(
    composed: DisplayedCapture, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _capture_command(composed.path, "--json") == 0
    line = json.loads(capsys.readouterr().out)
    assert line["display"] == {
        "captured_shown": 299,
        "predicted_shown": 300,
        "agreement": 0.998333333,
        "ready_from": "ready",
    }


def test_the_capture_command_reports_the_display_side_and_writes_display_csv(
    composed: DisplayedCapture, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert _capture_command(composed.path, "--present-mode", "latest", "--out", str(out)) == 0
    text = capsys.readouterr().out
    assert "\ndisplay side: 299 of 600 frames reached the screen, by the capture's word\n" in text
    assert "  agreement: 599 of 600 frames (99.833 %); they disagree first at rows 601\n" in text
    assert (out / "display.csv").read_text(encoding="utf-8").count("\n") == 601


def test_without_display_times_the_report_says_why_and_the_json_has_no_display(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_presentmon_2x(tmp_path / "hidden.csv", presents(["16.6667"] * 5, hidden=range(5)))
    assert _capture_command(path, "--json") == 0
    assert "display" not in json.loads(capsys.readouterr().out)
    assert _capture_command(path) == 0
    assert capsys.readouterr().out.endswith(
        "\ndisplay side: not run: the capture gives fewer than two display times to fit a "
        "refresh grid to\n"
    )


def test_a_bad_refresh_is_one_line_and_exit_2(
    composed: DisplayedCapture, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _capture_command(composed.path, "--refresh", "sixty") == 2
    assert capsys.readouterr().err == (
        "error: --refresh must be a non-negative decimal number like 16.667 (got 'sixty')\n"
    )


def test_columns_grow_past_the_size_they_were_made_at() -> None:
    # A stream of unknown length is written into arrays made for one chunk, grown as it comes.
    frames = (frame(row, 8 * row, None if row % 2 else 8 * row * MS + 1) for row in range(10_000))
    columns = DisplayColumns.from_frames(frames)
    assert columns.rows.tolist() == list(range(10_000))
    assert int(columns.shown.sum()) == 5_000 and columns.display_ns[2] == 16 * MS + 1
