"""The graph panel, checked in pixels: red where frames were overloaded, calm when calm."""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pygame
import pytest
from numpy.typing import NDArray

from game.display.live import JudderTrace, LiveJudder
from game.hud.graph_bins import bin_judder
from game.hud.graphs import FrameGraphs
from game.hud.hud_colours import BAD, FRAME_BAR, LANE_TWO, OK, RGB, STEPS_LINE, STRAINED
from game.hud.text import Fonts
from game.session.history import FrameHistory, FrameSample
from tests.test_hud_stats import READOUT

AREA = pygame.Rect(20, 20, 620, 230)


@pytest.fixture(scope="module")
def fonts() -> Iterator[Fonts]:
    pygame.init()
    yield Fonts.at_scale(1.0)
    pygame.quit()


def frames(*runs: tuple[float, float, bool, float]) -> FrameHistory:
    """Runs of equal frames, one after another: (seconds, frame_ms, overloaded, dropped_ms)."""
    history = FrameHistory(capacity=4_096)
    wall_s = 0.0
    for seconds, frame_ms, overloaded, dropped_ms in runs:
        for _ in range(round(seconds * 1000 / frame_ms)):
            wall_s += frame_ms / 1000
            history.append(FrameSample(wall_s, frame_ms, 1, dropped_ms, 0, overloaded))
    return history


def drawn(fonts: Fonts, history: FrameHistory) -> tuple[FrameGraphs, NDArray[np.int_]]:
    graphs = FrameGraphs(fonts, seconds=5.0)
    graphs.update((history,), READOUT, AREA)
    surface = pygame.Surface((700, 300))
    graphs.draw(surface)
    return graphs, pygame.surfarray.array3d(surface)


def count(pixels: NDArray[np.int_], rect: pygame.Rect, colour: RGB) -> int:
    """How many pixels inside `rect` are exactly `colour`."""
    area = pixels[rect.left : rect.right, rect.top : rect.bottom]
    return int(np.all(area == colour, axis=2).sum())


def part(plot: pygame.Rect, start: float, end: float) -> pygame.Rect:
    """The columns of `plot` between two fractions of its width (0 = 5 s ago, 1 = now)."""
    left = plot.left + round(start * plot.w)
    return pygame.Rect(left, plot.top, plot.left + round(end * plot.w) - left, plot.h)


def test_overloaded_frames_are_drawn_red_and_calm_ones_are_not(fonts: Fonts) -> None:
    history = frames((3.0, 1000 / 60, False, 0.0), (2.0, 40.0, True, 0.0))
    graphs, pixels = drawn(fonts, history)
    calm, overloaded = part(graphs.frame_plot, 0.02, 0.58), part(graphs.frame_plot, 0.62, 0.98)
    assert count(pixels, calm, BAD) == 0
    assert count(pixels, calm, FRAME_BAR) > 0
    assert count(pixels, overloaded, BAD) > 0
    assert count(pixels, overloaded, FRAME_BAR) == 0


def test_calm_frames_fill_a_third_of_the_fixed_minimum_axis(fonts: Fonts) -> None:
    graphs, pixels = drawn(fonts, frames((5.0, 1000 / 60, False, 0.0)))
    plot = graphs.frame_plot
    column = pixels[plot.left + plot.w // 2, plot.top : plot.bottom]
    bar = int(np.all(column == FRAME_BAR, axis=1).sum())
    assert bar == pytest.approx(plot.h * (1000 / 60) / 50, abs=2)  # the axis is 0-50 ms


def test_a_spike_grows_the_axis_and_the_calm_frames_shrink(fonts: Fonts) -> None:
    history = frames(
        (4.0, 1000 / 60, False, 0.0), (0.18, 180.0, False, 0.0), (0.5, 1000 / 60, False, 0.0)
    )
    graphs, pixels = drawn(fonts, history)
    plot = graphs.frame_plot
    column = pixels[plot.left + plot.w // 4, plot.top : plot.bottom]
    bar = int(np.all(column == FRAME_BAR, axis=1).sum())
    assert bar == pytest.approx(plot.h * (1000 / 60) / 200, abs=2)  # now 0-200 ms


def test_dropped_time_is_drawn_red_in_its_own_strip(fonts: Fonts) -> None:
    history = frames((4.0, 1000 / 60, False, 0.0), (1.0, 1000 / 60, False, 12.0))
    graphs, pixels = drawn(fonts, history)
    assert count(pixels, part(graphs.dropped_plot, 0.02, 0.78), BAD) == 0
    assert count(pixels, part(graphs.dropped_plot, 0.82, 0.98), BAD) > 0


def test_a_short_graph_keeps_the_frame_times_and_gives_up_the_other_strips(
    fonts: Fonts,
) -> None:
    graphs = FrameGraphs(fonts)
    graphs.update((frames((5.0, 20.0, False, 0.0)),), READOUT, pygame.Rect(0, 0, 600, 90))
    assert graphs.frame_plot.h >= 36
    assert not graphs.steps_plot
    assert not graphs.dropped_plot
    graphs.update((frames((5.0, 20.0, False, 0.0)),), READOUT, AREA)
    assert graphs.steps_plot and graphs.dropped_plot


def test_the_picture_changes_only_when_a_bin_completes(fonts: Fonts) -> None:
    history = frames((5.0, 1000 / 60, False, 0.0))
    graphs = FrameGraphs(fonts, seconds=5.0)
    graphs.update((history,), READOUT, AREA)
    shown = graphs.bins
    bin_s = 5.0 / len(shown)
    newest = float(history.latest(1).wall_s[0])
    next_bin = (newest // bin_s + 1) * bin_s
    history.append(FrameSample((newest + next_bin) / 2, 1.0, 1, 0.0, 0, False))
    graphs.update((history,), READOUT, AREA)
    assert graphs.bins is shown  # the same bin: nothing to redraw
    history.append(FrameSample(next_bin + 0.001, 1.0, 1, 0.0, 0, True))
    graphs.update((history,), READOUT, AREA)
    assert graphs.bins is not shown
    assert graphs.bins.overloaded.tolist() == [False] * len(shown)  # still filling: not shown


def test_split_screen_graphs_draw_lane_two_in_pink_beside_lane_one(fonts: Fonts) -> None:
    lane_one = frames((5.0, 1000 / 60, False, 0.0))
    lane_two = frames((4.0, 1000 / 60, False, 0.0), (1.0, 1000 / 60, False, 12.0))
    graphs = FrameGraphs(fonts, seconds=5.0)
    graphs.update((lane_one, lane_two), READOUT, AREA)
    surface = pygame.Surface((700, 300))
    graphs.draw(surface)
    pixels = pygame.surfarray.array3d(surface)
    assert count(pixels, graphs.steps_plot, LANE_TWO) > 0
    assert count(pixels, part(graphs.dropped_plot, 0.82, 0.98), LANE_TWO) > 0
    assert count(pixels, graphs.dropped_plot, BAD) == 0  # lane 1 dropped nothing
    _, alone = drawn(fonts, lane_one)
    assert count(alone, graphs.steps_plot, LANE_TWO) == 0


def judder_meter(error_pct: float, seconds: float = 5.0) -> LiveJudder:
    """A meter whose `trace` says every refresh of the last `seconds` at 60 Hz was off by
    `error_pct` (what the graph reads of a meter)."""
    meter = LiveJudder(Fraction(60))
    refreshes = np.arange(1, round(seconds * 60) + 1, dtype=np.int64) * 1_000_000_000 // 60
    trace = JudderTrace(refreshes, np.full(refreshes.shape[0], error_pct))
    meter.trace = lambda: trace  # type: ignore[method-assign]
    return meter


def test_bin_judder_is_the_rms_of_the_refreshes_in_each_bin() -> None:
    # Two bins of a second: refreshes at 0.5 s (+30 %) and 0.9 s (-40 %) in the first, none in
    # the second.
    trace = JudderTrace(np.array([500_000_000, 900_000_000]), np.array([30.0, -40.0]))
    rms = bin_judder(trace, seconds=2.0, count=2, end=2.0)
    assert rms.tolist() == [pytest.approx(math.sqrt((30**2 + 40**2) / 2)), 0.0]


def test_the_judder_strip_draws_each_bin_in_the_meter_s_colours(fonts: Fonts) -> None:
    history = frames((5.0, 1000 / 60, False, 0.0))
    for error, colour in ((5.0, OK), (33.0, STRAINED), (140.0, BAD)):
        graphs = FrameGraphs(fonts, seconds=5.0)
        graphs.update((history,), READOUT, AREA, (judder_meter(error),))
        surface = pygame.Surface((700, 300))
        graphs.draw(surface)
        pixels = pygame.surfarray.array3d(surface)
        plot = graphs.judder_plot
        assert count(pixels, part(plot, 0.1, 0.9), colour) > 0
        assert graphs.lane_judder[0][len(graphs.bins) // 2] == pytest.approx(error)


def test_split_screen_judder_shows_both_lanes_side_by_side(fonts: Fonts) -> None:
    history = frames((5.0, 1000 / 60, False, 0.0))
    graphs = FrameGraphs(fonts, seconds=5.0)
    meters = (judder_meter(60.0), judder_meter(8.0))
    graphs.update((history, history), READOUT, AREA, meters)
    surface = pygame.Surface((700, 300))
    graphs.draw(surface)
    pixels = pygame.surfarray.array3d(surface)
    plot = part(graphs.judder_plot, 0.1, 0.9)
    assert count(pixels, plot, STEPS_LINE) > count(pixels, plot, LANE_TWO) > 0
    assert count(pixels, plot, BAD) == 0  # two lanes: lane colours, not the meter's


def test_judder_comes_second_while_the_loop_keeps_up_and_last_once_it_drops(
    fonts: Fonts,
) -> None:
    calm = frames((5.0, 1000 / 60, False, 0.0))
    dropping = frames((4.0, 1000 / 60, False, 0.0), (1.0, 1000 / 60, False, 12.0))
    short = pygame.Rect(0, 0, 620, 150)  # room for two strips
    for history, strips in ((calm, ("frame", "judder")), (dropping, ("frame", "steps"))):
        graphs = FrameGraphs(fonts, seconds=5.0)
        graphs.update((history,), READOUT, short, (judder_meter(20.0),))
        assert graphs.strips == strips
    assert not graphs.judder_plot
    graphs = FrameGraphs(fonts, seconds=5.0)
    graphs.update((calm,), READOUT, AREA)  # no meters (a headless film): no judder strip
    assert graphs.strips == ("frame", "steps", "dropped")
