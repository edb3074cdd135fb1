"""The display side of a capture: the virtual display run on a real game's present times, beside
what the capture says reached the screen."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from game.capture.reading import open_capture
from game.workshop.captures.display_report import display_text
from game.workshop.captures.display_side import DisplayColumns, DisplaySide, compare_display
from tests.capture_files import (
    DisplayedCapture,
    presents,
    write_composed_60hz_capture,
    write_presentmon_2x,
    write_tearing_160fps_capture,
)


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
    # The compositor showed 300 of 600 frames; the model on the fitted grid, newest frame at
    # each vblank, agrees with the capture on SHOWN_AGREED of them.
    side = display_side(composed)
    truth = [present.display_ns is not None for present in composed.presents]
    assert side.captured.tolist() == truth
    assert side.mode == "latest" and not side.asked
    assert side.agreement == AGREEMENT
    assert side.agreement >= Fraction(97, 100)
    assert side.record() == RECORD


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
    # grid: the model shows each at once and agrees on all 800; latest frame wins on a 60 Hz
    # display would have shown only those last before a refresh.
    side = display_side(tearing)
    assert not side.fit.on_a_grid and not side.grid.fitted
    assert side.mode == "immediate"
    assert side.agreement == 1 and side.captured_shown == side.predicted_shown == 800
    assert side.agreements["latest"] == TORN_LATEST


def test_the_report_names_the_grid_the_model_and_the_agreement(composed: DisplayedCapture) -> None:
    text = display_text(display_side(composed), 600)
    assert text.splitlines()[0] == (
        "display side: 300 of 600 frames reached the screen, by the capture's word"
    )


def test_a_capture_that_does_not_say_what_was_shown_has_no_display_side(tmp_path: Path) -> None:
    path = write_presentmon_2x(tmp_path / "hidden.csv", presents(["16.6667"] * 5, hidden=range(5)))
    columns = DisplayColumns.from_frames(open_capture(path).frames())
    assert columns.missing() == "the capture gives fewer than two display times to fit a refresh grid to"
