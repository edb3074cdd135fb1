"""The live judder meter, its HUD rows and the conditioning key: without a window."""

from __future__ import annotations

from fractions import Fraction

from game.display.live import LiveJudder
from game.hud.display_rows import display_group
from game.session.controls import Act, Action, Controls
from game.session.readout import DisplayReadout
from tests.test_hud_stats import lane, readout


def feed(
    meter: LiveJudder,
    fps: int,
    interpolate: bool,
    seconds: int = 1,
    offset: Fraction = Fraction(1, 2),
) -> None:
    """Frames ending at exactly `fps`, 60 Hz ticks whose grid is `offset` of a tick off the
    frames' (a loop started at some moment), drawn off or interpolated (one tick behind)."""
    step = Fraction(1_000_000_000, 60)
    for frame in range(fps * seconds + 1):
        end = frame * 1_000_000_000 // fps
        now = end + step * offset
        tick = int(now / step)
        drawn = now - step if interpolate else tick * step
        meter.record(end, round(drawn), tick)


def test_72_fps_on_60_hz_without_interpolation_depends_on_where_the_vblanks_fall() -> None:
    # Each tick reaches the screen one frame (13.9 ms) after it ran, give or take the 72 fps
    # grid: when that spread fits between two vblanks, every refresh shows one new tick; when a
    # vblank falls inside it, the refreshes show 0, 1 or 2 new ticks (a third of the phases vs
    # two thirds: `python -m game judder --render-fps 72 --no-vsync` gives the mean).
    steady, uneven = LiveJudder(Fraction(60)), LiveJudder(Fraction(60))
    feed(steady, 72, interpolate=False, offset=Fraction(1, 2))
    feed(uneven, 72, interpolate=False, offset=Fraction(1, 4))
    assert (set(steady.report().cadence), steady.report().judder_pct) == ({"1"}, 0.0)
    assert set(uneven.report().cadence) == {"0", "1", "2"}
    assert 62 < uneven.report().judder_pct < 65


def test_72_fps_on_60_hz_interpolated_judders_by_a_third() -> None:
    # A 60 Hz screen shows frames 13.9 or 27.8 ms of motion apart: one refresh in five jumps
    # twice as far (the same figure as `python -m game judder --render-fps 72 --no-vsync`).
    for offset in (Fraction(1, 4), Fraction(1, 2)):
        meter = LiveJudder(Fraction(60))
        feed(meter, 72, interpolate=True, offset=offset)
        assert 33 < meter.report().judder_pct < 34


def test_only_the_last_second_is_kept_and_clear_forgets() -> None:
    meter = LiveJudder(Fraction(60))
    feed(meter, 100, interpolate=False, seconds=3)
    assert meter.report().refreshes <= 61
    meter.clear()
    assert meter.report().refreshes == 0


def test_u_cycles_the_focused_lane_s_conditioning() -> None:
    controls = Controls()
    assert controls.after(Action(Act.CYCLE_CONDITIONING)).conditioning == ("snap", "raw")
    split = Controls(policies=("drop", "uncapped"), focus_lane=1, conditioning=("raw", "godot"))
    assert split.after(Action(Act.CYCLE_CONDITIONING)).conditioning == ("raw", "raw")


def test_the_display_rows_say_guess_and_show_each_lane_s_account() -> None:
    shown = DisplayReadout(60.0, False, "0101001", "2323", 118.3, 4.8)
    lanes = (lane(conditioning="snap", conditioning_carry_ms=0.88), lane())
    group = display_group(readout(lanes=lanes, display=shown))
    cells = {row.label: [cell.text for cell in row.cells] for row in group.rows}
    assert cells == {
        "refresh": ["60 Hz (guess)"],
        "ticks/refresh": ["0101001"],
        "judder": ["118.3 %"],
        "pos. error": ["4.80 ms"],
        "conditioning": ["snap +0.88 ms", "raw"],
    }
