"""The pieces the slides' panels are drawn with (`game.workshop.figures.slides`): dots and stems
at each frame's end, values held between frames, ticks per second against real time, the lag's
band, and the axes and notes around them."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.workshop.figures.frame_series import Floats, FrameSeries, slice_seconds
from game.workshop.figures.marks import (
    draw_real_time_rate,
)
from game.workshop.figures.plotting import Theme, rasterise_if_dense
from game.workshop.files.scenario import Scenario
from game.workshop.runs.runner import RUNAWAY_WORK_NS, RunResult
from timestep_lab import NS_PER_SECOND

LOG_SCALE_RATIO = 30
"""Frame times spanning more than this ratio get a log axis, so a 7 ms frame and a 4 s frame both
stay readable on one plot."""
CAPPED = ("drop", "reset", "backlog")
STEM_FRACTION = 250
RATE_SLICE_S = 0.25
RATE_CLIP = 3
"""Ticks per second are drawn up to this many times the real-time rate; a burst above it is
written out instead, so the real-time line and a shortfall below it stay readable."""


def draw_dots(axes: Any, x: Floats, y: Floats, colour: str, **style: Any) -> None:
    """One dot per frame, at its end."""
    axes.plot(
        x,
        y,
        ls="none",
        marker="o",
        ms=2.6,
        mew=0,
        color=colour,
        rasterized=rasterise_if_dense(len(x)),
        **style,
    )


def draw_stems(axes: Any, x: Floats, bottom: float | Floats, top: Floats, colour: str) -> None:
    """A line from `bottom` to each value, at each frame's end, topped with a dot."""
    axes.vlines(x, bottom, top, color=colour, lw=1.0, rasterized=rasterise_if_dense(len(x)))
    draw_dots(axes, x, top, colour)


def draw_held(axes: Any, series: FrameSeries, values: Floats, end_s: float, **style: Any) -> None:
    """A value that changes when a frame ends and holds until the next one ends.

    Only the frames that change it start a stair: the same line, but matplotlib walks a stair's
    every segment in Python, and the time dropped so far at 1000 fps is 150,000 frames of which
    a handful drop anything."""
    if series.count:
        edges = np.concatenate(([0.0], series.end_s, [max(end_s, series.end)]))
        held = np.concatenate(([0.0], values))
        starts = np.concatenate(([0], np.flatnonzero(held[1:] != held[:-1]) + 1))
        axes.stairs(held[starts], np.append(edges[starts], edges[-1]), baseline=None, **style)


def standing_out(series: FrameSeries, span_s: float) -> NDArray[np.bool_]:
    """Frames long enough to show as a gap on the time axis (over 1/250 of it): their values get
    a stem, so a lone long frame stands out. Short frames are dense dots: stems there would fill
    an area and read as a value held over time."""
    return series.frame_ms / 1000 > span_s / STEM_FRACTION


def draw_marks(
    axes: Any, x: Floats, values: Floats, long: NDArray[np.bool_], base: float, colour: str
) -> None:
    """Each frame's value at its end: a dot, and a stem from `base` for a long frame."""
    draw_dots(axes, x[~long], values[~long], colour)
    draw_stems(axes, x[long], base, values[long], colour)


def draw_frames(
    axes: Any, series: FrameSeries, budget_ms: float, colour: str, span_s: float
) -> None:
    """Frame times as dots at their ends; a long frame gets a stem up from the budget."""
    draw_marks(axes, series.end_s, series.frame_ms, standing_out(series, span_s), budget_ms, colour)


def draw_rate(
    axes: Any, series: FrameSeries, scenario: Scenario, colour: str, theme: Theme, span_s: float
) -> tuple[float, float]:
    """Ticks per second of wall time: the ticks of the frames that ended in each slice (a thin
    line), and their average over the second around it (a bold one), against the rate that keeps
    real time. Returns the highest rate drawn and the real-time rate."""
    width_s = max(slice_seconds(span_s), RATE_SLICE_S)
    edges = series.edges(width_s)
    widths = np.maximum(np.diff(edges), 1e-12)
    ticks = series.per_slice(series.steps, width_s)
    rate = ticks / widths
    window = np.ones(max(1, min(len(ticks), round(1 / width_s))))  # a run under 1 s: all of it
    smooth = np.convolve(ticks, window, "same") / np.convolve(widths, window, "same")
    axes.stairs(
        rate,
        edges,
        baseline=None,
        color=colour,
        lw=0.9,
        alpha=0.45,
        label=f"ticks run, per {width_text(width_s)}",
    )
    axes.stairs(smooth, edges, baseline=None, color=colour, lw=2.0, label="the same, over 1 s")
    real = draw_real_time_rate(axes, scenario, series.end, theme)
    return float(rate.max(initial=0.0)), real


def rate_top(highest: float, real: float) -> float:
    """The top of a ticks-per-second axis: the highest rate, but at most `RATE_CLIP` x real time,
    so a burst does not squash the real-time line flat."""
    return max(min(highest, real * RATE_CLIP), real, 1.0) * 1.15


def note_off_scale(axes: Any, highest: float, top: float, colour: str) -> None:
    """Name a burst the axis cuts off."""
    if highest > top:
        axes.text(
            0.99,
            0.95,
            f"bursts up to {highest:,.0f} ticks/s (off the scale)",
            transform=axes.transAxes,
            ha="right",
            va="top",
            fontsize=9,
            color=colour,
            bbox={"facecolor": axes.get_facecolor(), "edgecolor": "none", "alpha": 0.85},
            zorder=5,
        )


def set_frame_axis(axes: Any, frame_ms: Floats, budget_ms: float, top_line_ms: float) -> None:
    top = max(float(frame_ms.max(initial=0.0)), budget_ms, top_line_ms)
    bottom = min(float(frame_ms.min(initial=budget_ms)), budget_ms)
    if top / max(bottom, 1e-9) > LOG_SCALE_RATIO:
        axes.set_yscale("log")
    else:
        axes.set_ylim(0, top * 1.15)


def draw_lag(axes: Any, series: FrameSeries, width_s: float, colour: str) -> float:
    """The lag's band per slice and its mean; returns the run's time-averaged lag in ms."""
    band = series.lag_band(width_s)
    if not len(band.mean_ms):
        return 0.0
    axes.stairs(
        band.high_ms,
        band.edges_s,
        baseline=band.low_ms,
        fill=True,
        color=colour,
        alpha=0.28,
        lw=0,
        label=f"lowest to highest in each {width_text(width_s)}",
    )
    axes.stairs(
        band.mean_ms, band.edges_s, baseline=None, color=colour, lw=1.8, label="time-averaged"
    )
    return float(np.sum(band.mean_ms * np.diff(band.edges_s)) / max(series.end, 1e-12))


def width_text(width_s: float) -> str:
    return f"{width_s * 1000:g} ms" if width_s < 1 else f"{width_s:g} s"


def note_runaway(axes: Any, result: RunResult, series: FrameSeries, theme: Theme) -> None:
    if result.runaway and series.count:
        axes.annotate(
            f"runaway guard:\na frame's work\npassed {RUNAWAY_WORK_NS // NS_PER_SECOND} s",
            (series.end, float(series.frame_ms[-1])),
            xytext=(-10, -4),
            textcoords="offset points",
            ha="right",
            va="top",
            color=theme.step,
            fontsize=9,
            fontweight="bold",
        )


def legend_outside(axes: Any) -> None:
    """Legends sit right of the plot, where no curve can hide behind them."""
    axes.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize=9, frameon=False)


def from_zero(axes: Any, values: Floats, at_least: float = 1.0) -> None:
    """A y axis from 0 with room above the highest value (and a visible one when all are 0)."""
    axes.set_ylim(0, max(at_least, float(values.max(initial=0.0))) * 1.15)
