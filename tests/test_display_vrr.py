"""Low framerate compensation (LFC) on the VRR panel, exactly: below the range each frame is
shown m times, m the smallest whole number that brings the last frame interval / m within
1/min; a frame that lands during a repeat waits until 1/max after the repeat began. On a run,
the judder meter samples every repeat as a refresh whose picture did not move."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest

from game.display.model import DisplaySettings, Presented, VirtualDisplay
from game.display.vrr import VrrCounts, lfc_fits, showings
from game.workshop.files.display_section import DisplaySection
from game.workshop.files.scenario_loading import load_scenario
from game.workshop.runs.runner import RunResult
from game.workshop.runs.simulation import run_scenario

MS = 1_000_000
START = Fraction(15 * MS)
"""The first frame: the panel's last refresh before the run was at 0 (phase 0), and 15 ms
lies past its scan-out (1/75 s at most) and within 1/48 s: the frame is shown at once."""


def vrr(low: int, high: int, *, lfc: bool = True) -> VirtualDisplay:
    return VirtualDisplay(
        DisplaySettings(
            refresh_hz=Fraction(high), vrr_min_hz=Fraction(low), vrr_max_hz=Fraction(high),
            phase=Fraction(0), lfc=lfc,
        )
    )  # fmt: skip


def steady(display: VirtualDisplay, fps: int, frames: int) -> list[Presented]:
    """`frames` frames handed over every 1/fps s from `START`."""
    interval = Fraction(1_000 * MS, fps)
    return [display.present(START + index * interval) for index in range(frames)]


def test_lfc_shows_30_fps_twice_each_at_60_hz_on_48_144() -> None:
    display = vrr(48, 144)
    shown = steady(display, 30, 6)
    interval = Fraction(100 * MS, 3)
    assert [p.shown_ns for p in shown] == [START + index * interval for index in range(6)]
    assert all(p.blocked_ns == 0 and p.waited_ns == 0 for p in shown)  # nothing waits
    # The first frame has no interval to predict from: the panel repeats it on its own, 1/48 s
    # after. From then on LFC has seen 33.3 ms: m = 2, a repeat halfway, 60 Hz.
    assert shown[1].repeats_ns == (START + Fraction(1_000 * MS, 48),)
    for before, frame in pairwise(shown[1:]):
        assert frame.repeats_ns == (before.shown_ns + Fraction(50 * MS, 3),)
    assert (display.repeats, display.collisions) == (5, 0)


def test_lfc_shows_40_fps_twice_each_at_80_hz() -> None:
    display = vrr(48, 144)
    shown = steady(display, 40, 6)
    # The second frame comes 25 ms after the first, before LFC has seen an interval: the panel
    # has repeated the first on its own at 1/48 s, and the frame waits out that scan (1/144 s).
    own = START + Fraction(1_000 * MS, 48)
    assert shown[1].repeats_ns == (own,)
    assert shown[1].shown_ns == own + Fraction(1_000 * MS, 144)
    # From then on LFC has seen 25 ms: m = 2, a repeat 12.5 ms after each frame (80 Hz), and
    # every frame is shown as it comes.
    assert showings(Fraction(25 * MS), Fraction(1_000 * MS, 48)) == 2
    for before, frame in pairwise(shown[1:]):
        assert frame.repeats_ns == (before.shown_ns + Fraction(25 * MS, 2),)
        assert frame.waited_ns == 0
    assert (display.repeats, display.collisions) == (5, 1)


def test_lfc_shows_20_fps_three_times_each_at_60_hz() -> None:
    display = vrr(48, 144)
    shown = steady(display, 20, 5)
    third = Fraction(50 * MS, 3)
    for before, frame in pairwise(shown[1:]):
        assert frame.repeats_ns == (before.shown_ns + third, before.shown_ns + 2 * third)
        assert frame.shown_ns == before.shown_ns + 50 * MS
    # The first frame, before any interval was seen: the panel's own repeats at 1/48, 2/48 s.
    assert shown[1].repeats_ns == (
        START + Fraction(1_000 * MS, 48),
        START + Fraction(1_000 * MS, 24),
    )
    assert (display.repeats, display.collisions) == (2 + 3 * 2, 0)


def test_a_frame_landing_during_a_repeat_waits_until_1_over_max_after_it_began() -> None:
    # 30 fps: LFC repeats each frame 16.7 ms after it. A frame 20 ms after the last one comes
    # 3.3 ms into that repeat's scan-out, which takes 1/144 s: the frame is shown at the end of
    # it, 16.7 + 6.9 ms after the last one. The loop is not held; the picture is late.
    display = vrr(48, 144)
    last = steady(display, 30, 3)[-1]
    early = display.present(last.shown_ns + 20 * MS)
    repeat = last.shown_ns + Fraction(50 * MS, 3)
    assert early.repeats_ns == (repeat,)
    assert early.shown_ns == repeat + Fraction(1_000 * MS, 144)
    assert early.blocked_ns == 0
    assert early.waited_ns == Fraction(50 * MS, 3) + Fraction(1_000 * MS, 144) - 20 * MS
    assert display.collisions == 1


def test_a_48_75_panel_cannot_take_lfc_and_repeats_on_its_own() -> None:
    # 75 < 2 x 48: an interval just over 1/48 s (20.8 ms) halved is 10.4 ms, shorter than
    # 1/75 s (13.3 ms), and not halved it is out of the range: no m fits. LFC stays off (as
    # AMD's driver keeps it off) even at 30 fps, which m = 2 would have fitted.
    assert not lfc_fits(Fraction(48), Fraction(75))
    assert not DisplaySettings(
        refresh_hz=Fraction(75), vrr_min_hz=Fraction(48), vrr_max_hz=Fraction(75)
    ).lfc_active
    asked, off = vrr(48, 75), vrr(48, 75, lfc=False)
    assert steady(asked, 30, 8) == steady(off, 30, 8)
    assert (asked.repeats, asked.collisions) == (off.repeats, off.collisions)


def test_without_lfc_30_fps_collides_with_the_panels_own_repeat_every_frame() -> None:
    # The panel repeats 1/48 s (20.8 ms) after each frame; that scan-out lasts 1/75 s (13.3 ms),
    # past the next frame at 33.3 ms: every frame waits, each 0.83 ms longer than the last.
    display = vrr(48, 75)
    shown = steady(display, 30, 4)
    late = [p.waited_ns for p in shown]
    assert late == [0, *(index * Fraction(5 * MS, 6) for index in (1, 2, 3))]
    assert shown[1].repeats_ns == (START + Fraction(1_000 * MS, 48),)
    assert display.collisions == 3


@pytest.mark.parametrize(
    "gaps_ms",
    [
        [10] * 12,  # 100 fps, steady
        [10, 15, 8, 20, 7, 12, 19, 9],  # uneven, every gap within 1/144 to 1/48 s
        [10, 12, 45, 10, 11],  # one late frame: after in-range gaps, the panel's own repeat
    ],
)
def test_inside_the_range_lfc_changes_nothing(gaps_ms: list[int]) -> None:
    runs = []
    for lfc in (True, False):
        display = vrr(48, 144, lfc=lfc)
        at, shown = START, []
        for gap in [0, *gaps_ms]:
            at += gap * MS
            shown.append(display.present(at))
        runs.append((shown, display.repeats, display.collisions))
    assert runs[0] == runs[1]


def test_lfc_is_on_by_default_and_named_where_it_works() -> None:
    wide = DisplaySettings(
        refresh_hz=Fraction(144), vrr_min_hz=Fraction(48), vrr_max_hz=Fraction(144)
    )
    assert wide.lfc_active
    assert wide.describe() == "VRR 48-144 Hz, LFC"
    narrow = DisplaySettings(
        refresh_hz=Fraction(75), vrr_min_hz=Fraction(48), vrr_max_hz=Fraction(75)
    )
    assert narrow.describe() == "VRR 48-75 Hz"
    assert not DisplaySettings().lfc_active  # no VRR range, nothing to compensate


def test_a_display_section_without_lfc_asks_for_it_where_the_range_allows() -> None:
    narrow = DisplaySection(
        refresh_hz=Fraction(75), vrr_min_hz=Fraction(48), vrr_max_hz=Fraction(75)
    ).settings()
    assert (narrow.lfc, narrow.lfc_active) == (True, False)  # no error: it just cannot
    off = DisplaySection(
        refresh_hz=Fraction(144), vrr_min_hz=Fraction(48), vrr_max_hz=Fraction(144), lfc=False
    ).settings()
    assert (off.lfc, off.lfc_active) == (False, False)


# -- a run on the virtual display: configs/scenarios/vrr_lfc.toml, 40 fps on 48-144 Hz ---------

SCENARIO = Path(__file__).resolve().parents[1] / "configs" / "scenarios" / "vrr_lfc.toml"


def lfc_run(lfc: bool) -> RunResult:
    scenario = load_scenario(SCENARIO)
    assert scenario.display is not None
    display = scenario.display.model_copy(update={"lfc": lfc})
    return run_scenario(scenario.model_copy(update={"display": display}))


def test_lfc_at_40_fps_is_an_even_picture_shown_twice_and_the_meter_sees_every_repeat() -> None:
    result = lfc_run(True)
    assert result.vrr == VrrCounts(lfc=True, repeats=399, collisions=1)  # 400 frames in 10 s
    report = result.judder
    assert report is not None
    # The meter samples every refresh the panel made, repeats included: 80 a second after the
    # first quarter second, where the frames alone would be 40. A repeat advances no tick (0).
    assert report.refreshes == 783
    assert report.cadence == "0102" * 6
    # Interpolated frames shown evenly twice: a picture standing still every other refresh,
    # exactly 100 %, and a wobble of half a refresh (12.5 ms / 2).
    assert (report.judder_pct, report.position_error_ms) == (100.0, 6.25)


def test_without_lfc_40_fps_collides_with_the_panels_own_repeats() -> None:
    result = lfc_run(False)
    # Two frames in three are repeated 1/48 s after they were shown, and the next frame comes
    # during that repeat's scan-out: every repeat delays a frame.
    assert result.vrr == VrrCounts(lfc=False, repeats=266, collisions=266)
    report = result.judder
    assert report is not None
    assert report.refreshes == 652
    assert (report.judder_pct, report.position_error_ms) == (176.512, 9.722)
