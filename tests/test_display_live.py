"""The live judder meter, its HUD rows and the conditioning key: without a window."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise

import numpy as np

from game.app.judder_watch import JudderWatch
from game.display.judder import measure, on_screen
from game.display.live import LiveJudder
from game.hud.display_rows import display_group
from game.hud.hud_colours import Meaning
from game.hud.rows import IMPORTANT, USEFUL
from game.knobs import Move
from game.session.controls import Act, Action, Controls, ControlsChange
from game.session.readout import DisplayReadout, LaneJudder
from game.session.session import LabSession
from game.world.world import demo_world
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
    assert controls.after(Action.turn("scheduler.conditioning", Move.NEXT)).conditioning == (
        "snap",
        "raw",
    )
    split = Controls(policies=("drop", "uncapped"), focus_lane=1, conditioning=("raw", "godot"))
    assert split.after(Action.turn("scheduler.conditioning", Move.NEXT)).conditioning == (
        "raw",
        "raw",
    )


def test_the_display_rows_say_guess_and_show_each_lane_s_meter_and_account() -> None:
    shown = DisplayReadout(
        60.0,
        False,
        (LaneJudder("0101001", "2323", 118.3, 4.8), LaneJudder("1111111", "1111", 0.0, 0.0)),
    )
    lanes = (lane(conditioning="snap", conditioning_carry_ms=0.88), lane())
    group = display_group(readout(lanes=lanes, display=shown))
    cells = {row.label: [(cell.text, cell.meaning) for cell in row.cells] for row in group.rows}
    plain = Meaning.PLAIN
    assert cells == {
        "refresh": [("60 Hz (guess)", plain)],
        "ticks/refresh": [("0101001", plain), ("1111111", plain)],
        "judder": [("118.3 %", Meaning.BAD), ("0.0 %", Meaning.OK)],
        "pos. error": [("4.80 ms", plain), ("0.00 ms", plain)],
        "conditioning": [("snap +0.88 ms", plain), ("raw", plain)],
    }


def test_the_trace_is_each_refresh_s_velocity_error_and_the_report_is_its_rms() -> None:
    # 72 fps interpolated on 60 Hz: a refresh shows 13.9 ms of motion (-16.7 % of the 16.7 ms
    # a refresh truly takes) or, one in five, 27.8 ms (+66.7 %).
    meter = LiveJudder(Fraction(60))
    feed(meter, 72, interpolate=True)
    trace = meter.trace()
    assert sorted(set(np.round(trace.error_pct, 1).tolist())) == [-16.7, 66.7]
    assert trace.refresh_ns.shape == trace.error_pct.shape
    rms = float(np.sqrt(np.mean(trace.error_pct**2)))
    assert round(rms, 3) == meter.report().judder_pct


def test_the_graph_s_trace_keeps_seconds_the_report_does_not() -> None:
    meter = LiveJudder(Fraction(60))
    feed(meter, 100, interpolate=False, seconds=8)
    assert meter.report().refreshes in (60, 61)  # the last second
    assert 6 * 60 - 1 <= meter.trace().refresh_ns.shape[0] <= 6 * 60 + 1  # KEEP_NS


def frames_of(session: LabSession, watch: JudderWatch, elapsed_ns: list[int]) -> None:
    for elapsed in elapsed_ns:
        session.play_frame(elapsed)
        watch.drew(session)


def steady_72_fps(seconds: int) -> list[int]:
    ends = [frame * 1_000_000_000 // 72 for frame in range(72 * seconds + 1)]
    return [after - before for before, after in pairwise(ends)]


def test_the_watch_meters_the_game_s_own_frames_as_the_table_predicts() -> None:
    session = LabSession(Controls(), demo_world)
    watch = JudderWatch((Fraction(60), True))
    frames_of(session, watch, steady_72_fps(2))
    display = watch.readout
    assert display is not None and len(display.lanes) == 1
    assert 33 < display.lanes[0].judder_pct < 34  # the 72-on-60 interpolated figure


def test_in_split_screen_each_lane_has_its_own_meter() -> None:
    # Jittered frames around 60 Hz, lane 1 raw, lane 2 averaging the deltas: the drawn motion
    # follows the measured deltas, so averaging them smooths the picture (lesson 9).
    session = LabSession(Controls(), demo_world)
    session.apply(Action(Act.TOGGLE_SPLIT))
    session.change(ControlsChange(conditioning=("raw", "average")))
    watch = JudderWatch((Fraction(60), True))
    jittered = [16_666_667 + (3_000_000 if frame % 3 == 0 else -1_500_000) for frame in range(240)]
    frames_of(session, watch, jittered)
    display = watch.readout
    assert display is not None
    raw, averaged = display.lanes
    assert raw.judder_pct > 2 * averaged.judder_pct > 0
    assert watch.meters[0] is not watch.meters[1]


def test_a_new_time_scale_starts_the_meter_afresh() -> None:
    session = LabSession(Controls(), demo_world)
    watch = JudderWatch((Fraction(60), True))
    frames_of(session, watch, steady_72_fps(1))
    assert watch.meters[0].report().refreshes > 50
    session.apply(Action.turn("scheduler.time_scale", Move.DOWN))
    frames_of(session, watch, [13_888_889])
    assert watch.meters[0].report().refreshes == 0
    assert watch.meters[0].time_scale == 0.5


def test_i_starts_the_meter_afresh_so_the_new_picture_is_read_at_once() -> None:
    session = LabSession(Controls(interpolation="off"), demo_world)
    watch = JudderWatch((Fraction(60), True))
    frames_of(session, watch, steady_72_fps(1))
    assert watch.meters[0].report().refreshes > 50
    session.change(ControlsChange(interpolation="interpolate"))
    frames_of(session, watch, [13_888_889])
    assert watch.meters[0].report().refreshes == 0


def test_the_conditioning_row_is_important_once_a_lane_conditions_its_deltas() -> None:
    # Lesson 9 asks to watch lane 2's carry: a crowded panel must keep that row.
    raw = display_group(readout(lanes=(lane(), lane())))
    snapped = display_group(readout(lanes=(lane(), lane(conditioning="snap"))))
    assert [row.priority for row in raw.rows if row.label == "conditioning"] == [USEFUL]
    assert [row.priority for row in snapped.rows if row.label == "conditioning"] == [IMPORTANT]


def test_frames_no_refresh_shows_are_not_kept_and_the_figures_do_not_change() -> None:
    # A 1,000 fps loop on a 60 Hz display: only the last frame before each vblank is ever on
    # screen. The meter keeps those (one per refresh) and measures exactly what sampling every
    # frame on the same refresh grid gives.
    meter = LiveJudder(Fraction(60))
    feed(meter, 1000, interpolate=False)
    ends = np.array([frame * 1_000_000 for frame in range(1001)], dtype=np.int64)
    step = Fraction(1_000_000_000, 60)
    nows = [end + step / 2 for end in ends.tolist()]
    drawn = np.array([round(int(now / step) * step) for now in nows], dtype=np.int64)
    ticks = np.array([int(now / step) for now in nows], dtype=np.int64)
    period = Fraction(1_000_000_000, 60)  # vblank k at ceil((k - 0.63) x period), k = 1..60
    grid = np.array([math.ceil((k - Fraction(63, 100)) * period) for k in range(1, 61)])
    shown = on_screen(ends, grid)
    expected = measure(grid, drawn[shown], ticks[shown])
    assert meter.frames_kept <= 62
    assert meter.report() == expected
