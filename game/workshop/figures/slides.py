"""Figures of headless runs, for slides: each written as PNG and SVG, in a light or dark theme.

- `timeline.png` (`simulate --out`): one run on a wall-clock axis, five panels: each frame's
  length against the frame budget and the step; the ticks each frame ran; the same ticks as
  ticks per second against real time; the time each frame dropped and the time owed; the lag.
- `compare.png` (`compare --out`): one scenario under several policies, one column each, rows
  sharing their scale: frame time, ticks per second, time dropped so far, lag.

Every per-frame value sits at the frame's end (see `frame_series`): a dot, or a stem for the
frames that stand out (a frame over budget, a frame that dropped time), or a sum over a slice of
wall time. Quantities that hold between frames (time dropped so far, time owed) change at a
frame's end and keep their value until the next one ends. Lag is drawn as the band its saw-tooth
covers in each slice, with its time-average as a line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.lines import Line2D
from numpy.typing import NDArray

from game.workshop.figures.frame_series import Floats, FrameSeries, slice_seconds
from game.workshop.figures.marks import (
    draw_real_time_rate,
    draw_step_cost,
    headline,
    mark_events,
    ms,
)
from game.workshop.figures.plotting import Theme, rasterise_if_dense, save_figure, themed
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


def _dots(axes: Any, x: Floats, y: Floats, colour: str, **style: Any) -> None:
    """One dot per frame, at its end."""
    axes.plot(x, y, ls="none", marker="o", ms=2.6, mew=0, color=colour,
              rasterized=rasterise_if_dense(len(x)), **style)  # fmt: skip


def _stems(axes: Any, x: Floats, bottom: float | Floats, top: Floats, colour: str) -> None:
    """A line from `bottom` to each value, at each frame's end, topped with a dot."""
    axes.vlines(x, bottom, top, color=colour, lw=1.0, rasterized=rasterise_if_dense(len(x)))
    _dots(axes, x, top, colour)


def _held(axes: Any, series: FrameSeries, values: Floats, end_s: float, **style: Any) -> None:
    """A value that changes when a frame ends and holds until the next one ends.

    Only the frames that change it start a stair: the same line, but matplotlib walks a stair's
    every segment in Python, and the time dropped so far at 1000 fps is 150,000 frames of which
    a handful drop anything."""
    if series.count:
        edges = np.concatenate(([0.0], series.end_s, [max(end_s, series.end)]))
        held = np.concatenate(([0.0], values))
        starts = np.concatenate(([0], np.flatnonzero(held[1:] != held[:-1]) + 1))
        axes.stairs(held[starts], np.append(edges[starts], edges[-1]), baseline=None, **style)


def _long(series: FrameSeries, span_s: float) -> NDArray[np.bool_]:
    """Frames long enough to show as a gap on the time axis (over 1/250 of it): their values get
    a stem, so a lone long frame stands out. Short frames are dense dots: stems there would fill
    an area and read as a value held over time."""
    return series.frame_ms / 1000 > span_s / STEM_FRACTION


def _marks(
    axes: Any, x: Floats, values: Floats, long: NDArray[np.bool_], base: float, colour: str
) -> None:
    """Each frame's value at its end: a dot, and a stem from `base` for a long frame."""
    _dots(axes, x[~long], values[~long], colour)
    _stems(axes, x[long], base, values[long], colour)


def _frames(axes: Any, series: FrameSeries, budget_ms: float, colour: str, span_s: float) -> None:
    """Frame times as dots at their ends; a long frame gets a stem up from the budget."""
    _marks(axes, series.end_s, series.frame_ms, _long(series, span_s), budget_ms, colour)


def _rate(
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
    axes.stairs(rate, edges, baseline=None, color=colour, lw=0.9, alpha=0.45,
                label=f"ticks run, per {_width(width_s)}")  # fmt: skip
    axes.stairs(smooth, edges, baseline=None, color=colour, lw=2.0, label="the same, over 1 s")
    real = draw_real_time_rate(axes, scenario, series.end, theme)
    return float(rate.max(initial=0.0)), real


def _rate_top(highest: float, real: float) -> float:
    """The top of a ticks-per-second axis: the highest rate, but at most `RATE_CLIP` x real time,
    so a burst does not squash the real-time line flat."""
    return max(min(highest, real * RATE_CLIP), real, 1.0) * 1.15


def _off_scale(axes: Any, highest: float, top: float, colour: str) -> None:
    """Name a burst the axis cuts off."""
    if highest > top:
        axes.text(0.99, 0.95, f"bursts up to {highest:,.0f} ticks/s (off the scale)",
                  transform=axes.transAxes, ha="right", va="top", fontsize=9, color=colour,
                  bbox={"facecolor": axes.get_facecolor(), "edgecolor": "none", "alpha": 0.85},
                  zorder=5)  # fmt: skip


def _frame_axis(axes: Any, frame_ms: Floats, budget_ms: float, top_line_ms: float) -> None:
    top = max(float(frame_ms.max(initial=0.0)), budget_ms, top_line_ms)
    bottom = min(float(frame_ms.min(initial=budget_ms)), budget_ms)
    if top / max(bottom, 1e-9) > LOG_SCALE_RATIO:
        axes.set_yscale("log")
    else:
        axes.set_ylim(0, top * 1.15)


def _lag(axes: Any, series: FrameSeries, width_s: float, colour: str) -> float:
    """The lag's band per slice and its mean; returns the run's time-averaged lag in ms."""
    band = series.lag_band(width_s)
    if not len(band.mean_ms):
        return 0.0
    axes.stairs(band.high_ms, band.edges_s, baseline=band.low_ms, fill=True, color=colour,
                alpha=0.28, lw=0, label=f"lowest to highest in each {_width(width_s)}")  # fmt: skip
    axes.stairs(band.mean_ms, band.edges_s, baseline=None, color=colour, lw=1.8,
                label="time-averaged")  # fmt: skip
    return float(np.sum(band.mean_ms * np.diff(band.edges_s)) / max(series.end, 1e-12))


def _width(width_s: float) -> str:
    return f"{width_s * 1000:g} ms" if width_s < 1 else f"{width_s:g} s"


def _runaway_note(axes: Any, result: RunResult, series: FrameSeries, theme: Theme) -> None:
    if result.runaway and series.count:
        axes.annotate(
            f"runaway guard:\na frame's work\npassed {RUNAWAY_WORK_NS // NS_PER_SECOND} s",
            (series.end, float(series.frame_ms[-1])), xytext=(-10, -4),
            textcoords="offset points", ha="right", va="top", color=theme.step, fontsize=9,
            fontweight="bold",
        )  # fmt: skip


def _legend_outside(axes: Any) -> None:
    """Legends sit right of the plot, where no curve can hide behind them."""
    axes.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize=9, frameon=False)


def _from_zero(axes: Any, values: Floats, at_least: float = 1.0) -> None:
    """A y axis from 0 with room above the highest value (and a visible one when all are 0)."""
    axes.set_ylim(0, max(at_least, float(values.max(initial=0.0))) * 1.15)


def timeline_figure(
    path: Path,
    result: RunResult,
    scenario: Scenario,
    title: str,
    theme: Theme,
    series: FrameSeries | None = None,
) -> list[Path]:
    """Write the five-panel timeline of one run to `path` (PNG) and its SVG; return both. The
    frames are `series` (a `SeriesBuilder`'s, for a streamed run) or else `result`'s."""
    series = FrameSeries(result) if series is None else series
    end_s = series.end or float(scenario.seconds)
    width_s = slice_seconds(end_s)
    with themed(theme):
        figure, axes = plt_subplots(5, 1, (12.5, 11), (2.2, 1, 1, 1, 1.2), sharex=True)
        frame_axes, steps_axes, rate_axes, dropped_axes, lag_axes = axes
        _frame_panel(frame_axes, series, scenario, result, theme)
        _steps_panel(steps_axes, series, scenario, theme)
        _rate_panel(rate_axes, series, scenario, theme)
        _dropped_panel(dropped_axes, series, end_s, theme)
        mean_lag = _lag(lag_axes, series, width_s, theme.lag)
        lag_axes.set_ylabel("lag (ms)\nwall - simulated")
        lag_axes.text(1.01, 0.05, f"mean lag:\n{mean_lag:,.1f} ms", transform=lag_axes.transAxes,
                      va="bottom", fontsize=9)  # fmt: skip
        _legend_outside(lag_axes)
        lag_axes.set_xlabel("wall-clock time (s): each frame's values are drawn at its end")
        lag_axes.set_xlim(0, end_s)
        for panel in axes:
            panel.grid(True)
        mark_events(axes, scenario, end_s, theme)
        verdict = "SPIRAL" if result.spiral else "no spiral"
        figure.suptitle(f"{headline(scenario, title)}  |  {verdict}", fontsize=14,
                        fontweight="bold")  # fmt: skip
        return save_figure(figure, path)


def plt_subplots(
    rows: int, columns: int, size: tuple[float, float], heights: tuple[float, ...], **options: Any
) -> tuple[Any, Any]:
    """`plt.subplots` with a constrained layout (imported here: matplotlib loads slowly)."""
    import matplotlib.pyplot as plt

    return plt.subplots(rows, columns, figsize=size, height_ratios=heights,
                        layout="constrained", **options)  # fmt: skip


def _frame_panel(
    axes: Any, series: FrameSeries, scenario: Scenario, result: RunResult, theme: Theme
) -> None:
    """Frame time against the frame budget and the step; the step cost too, when there is one:
    a cost line above the step line is the spiral's whole cause."""
    budget_ms = ms(NS_PER_SECOND / scenario.clock.render_fps)
    step_ms = ms(scenario.scheduler.step_ns)
    _frames(axes, series, budget_ms, theme.frame, series.end)
    fps, hz = scenario.clock.render_fps, scenario.scheduler.hz
    axes.plot([], [], ls="none", marker="o", color=theme.frame, label="frame time (at its end)")
    axes.axhline(budget_ms, color=theme.budget, ls="--", lw=1.3,
                 label=f"frame budget {budget_ms:.2f} ms ({fps} fps)")  # fmt: skip
    axes.axhline(step_ms, color=theme.step, ls=":", lw=1.8,
                 label=f"one tick simulates {step_ms:.2f} ms ({hz} Hz)")  # fmt: skip
    highest_cost = draw_step_cost(axes, scenario, series.end, theme)
    _frame_axis(axes, series.frame_ms, budget_ms, max(step_ms, highest_cost))
    _runaway_note(axes, result, series, theme)
    axes.set_ylabel("frame time (ms)")
    _legend_outside(axes)


def _steps_panel(axes: Any, series: FrameSeries, scenario: Scenario, theme: Theme) -> None:
    _marks(axes, series.end_s, series.steps, _long(series, series.end), 0.0, theme.ticks)
    cap = 0
    if scenario.scheduler.policy in CAPPED:
        cap = scenario.scheduler.max_steps
        axes.axhline(cap, color=theme.step, ls=":", lw=1.4, label=f"cap M = {cap}")
        _legend_outside(axes)
    axes.set_ylabel("ticks\nper frame")
    _from_zero(axes, series.steps, cap)


def _rate_panel(axes: Any, series: FrameSeries, scenario: Scenario, theme: Theme) -> None:
    """The same ticks summed per slice of wall time, as ticks per second."""
    highest, real = _rate(axes, series, scenario, theme.ticks, theme, series.end)
    axes.set_ylabel("ticks per\nsecond")
    top = _rate_top(highest, real)
    axes.set_ylim(0, top)
    _off_scale(axes, highest, top, theme.ticks)
    _legend_outside(axes)


def _dropped_panel(axes: Any, series: FrameSeries, end_s: float, theme: Theme) -> None:
    """Time each frame dropped (stems) and time owed to later frames (the backlog)."""
    dropping = series.dropped_ms > 0
    long = _long(series, series.end)[dropping]
    _marks(axes, series.end_s[dropping], series.dropped_ms[dropping], long, 0.0, theme.dropped)
    axes.plot([], [], marker="o", color=theme.dropped, label="dropped by a frame")
    if series.owed_ms.any():
        _held(axes, series, series.owed_ms, end_s, color=theme.backlog, lw=1.4,
              label="owed (backlog)")  # fmt: skip
    axes.set_ylabel("time not\nsimulated (ms)")
    axes.text(1.01, 0.05, f"total dropped:\n{float(series.dropped_ms.sum()):,.1f} ms",
              transform=axes.transAxes, va="bottom", fontsize=9)  # fmt: skip
    _from_zero(axes, np.concatenate((series.dropped_ms, series.owed_ms)))
    _legend_outside(axes)


def compare_figure(
    path: Path,
    results: Sequence[tuple[str, RunResult]],
    scenario: Scenario,
    title: str,
    theme: Theme,
    kept: Sequence[FrameSeries] | None = None,
    *,
    svg: bool = True,
) -> list[Path]:
    """Write the policies side by side (one column each) to `path` (PNG) and, if `svg`, its
    SVG. `kept` holds each run's frames as a `SeriesBuilder` kept them (made from the results'
    own frames when not given)."""
    columns = len(results)
    budget_ms = ms(NS_PER_SECOND / scenario.clock.render_fps)
    step_ms = ms(scenario.scheduler.step_ns)
    everything = list(kept) if kept is not None else [FrameSeries(r) for _, r in results]
    end_s = float(scenario.seconds)
    width_s = slice_seconds(end_s)
    with themed(theme):
        figure, axes = plt_subplots(
            4, columns, (min(max(4.4 * columns, 8), 18.5), 10), (1.6, 1, 1, 1.2),
            sharex=True, sharey="row", squeeze=False,
        )  # fmt: skip
        highest_cost = 0.0
        rates: list[tuple[float, float]] = []
        for column, ((policy, result), series) in enumerate(zip(results, everything, strict=True)):
            cost, rate = _compare_column(axes[:, column], policy, result, series, scenario, theme)
            highest_cost = max(highest_cost, cost)
            rates.append(rate)
        all_frames = np.concatenate([series.frame_ms for series in everything] + [np.zeros(0)])
        _frame_axis(axes[0, 0], all_frames, budget_ms, max(step_ms, highest_cost))
        axes[0, 0].set_ylabel("frame time (ms)")
        axes[1, 0].set_ylabel("ticks per second")
        top = max(_rate_top(highest, real) for highest, real in rates)
        axes[1, 0].set_ylim(0, top)
        for column, ((policy, _), (highest, _)) in enumerate(zip(results, rates, strict=True)):
            _off_scale(axes[1, column], highest, top, theme.policy(policy))
        axes[2, 0].set_ylabel("dropped so far (ms)")
        _from_zero(axes[2, 0], np.concatenate([np.cumsum(s.dropped_ms) for s in everything]))
        axes[3, 0].set_ylabel("lag: wall - simulated (ms)")
        axes[0, 0].set_xlim(0, end_s)
        figure.legend(handles=_compare_legend(budget_ms, step_ms, highest_cost, width_s, theme),
                      loc="outside lower center", ncols=3, frameon=False)  # fmt: skip
        figure.suptitle(headline(scenario, title, policy=False), fontsize=14, fontweight="bold")
        return save_figure(figure, path, svg=svg)


def _compare_column(
    column: Any,
    policy: str,
    result: RunResult,
    series: FrameSeries,
    scenario: Scenario,
    theme: Theme,
) -> tuple[float, tuple[float, float]]:
    """One policy's column, top to bottom: frame time, ticks per second, time dropped so far,
    lag. Returns what the shared scales need: the highest tick cost drawn, and the highest
    rate with the real-time one."""
    colour = theme.policy(policy)
    budget_ms = ms(NS_PER_SECOND / scenario.clock.render_fps)
    end_s = float(scenario.seconds)
    frame_axes, rate_axes, dropped_axes, lag_axes = column
    _frames(frame_axes, series, budget_ms, colour, end_s)
    frame_axes.axhline(budget_ms, color=theme.budget, ls="--", lw=1.2)
    frame_axes.axhline(ms(scenario.scheduler.step_ns), color=theme.step, ls=":", lw=1.5)
    cost = draw_step_cost(frame_axes, scenario, series.end, theme)
    _runaway_note(frame_axes, result, series, theme)
    rate = _rate(rate_axes, series, scenario, colour, theme, end_s)
    _held(dropped_axes, series, np.cumsum(series.dropped_ms), end_s, color=colour, lw=1.6)
    mean_lag = _lag(lag_axes, series, slice_seconds(end_s), colour)
    lag_axes.text(0.02, 0.95, f"mean {mean_lag:,.1f} ms", transform=lag_axes.transAxes,
                  va="top", fontsize=10, color=colour)  # fmt: skip
    verdict = "SPIRAL" if result.spiral else "no spiral"
    frame_axes.set_title(f"{policy}: {verdict}", fontsize=14, fontweight="bold",
                         color=colour)  # fmt: skip
    lag_axes.set_xlabel("wall-clock time (s)")
    for each in column:
        each.grid(True)
    return cost, rate


def _compare_legend(
    budget_ms: float, step_ms: float, cost: float, width_s: float, theme: Theme
) -> list[Line2D]:
    lines = [
        Line2D([], [], ls="none", marker="o", color=theme.faint,
               label="frame time, a dot at each frame's end (a stem for a long frame)"),
        Line2D([], [], color=theme.budget, ls="--", label=f"frame budget {budget_ms:.2f} ms; "
               "ticks per second that keep real time"),
        Line2D([], [], color=theme.step, ls=":", label=f"one tick simulates {step_ms:.2f} ms"),
        Line2D([], [], color=theme.faint, lw=6, alpha=0.4,
               label=f"lag: lowest to highest in each {_width(width_s)}; line: time-averaged"),
    ]  # fmt: skip
    if cost:
        lines.append(Line2D([], [], color=theme.cost, ls="-.", label="one tick costs to run"))
    return lines
