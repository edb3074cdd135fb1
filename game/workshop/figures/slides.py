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

from game.workshop.figures.drawing import (
    CAPPED,
    draw_frames,
    draw_held,
    draw_lag,
    draw_marks,
    draw_rate,
    from_zero,
    legend_outside,
    note_off_scale,
    note_runaway,
    rate_top,
    set_frame_axis,
    standing_out,
    width_text,
)
from game.workshop.figures.frame_series import FrameSeries, slice_seconds
from game.workshop.figures.marks import (
    draw_step_cost,
    headline,
    mark_events,
    ms,
)
from game.workshop.figures.plotting import Theme, save_figure, themed
from game.workshop.files.scenario import Scenario
from game.workshop.runs.runner import RunResult
from timestep_lab import NS_PER_SECOND


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
        mean_lag = draw_lag(lag_axes, series, width_s, theme.lag)
        lag_axes.set_ylabel("lag (ms)\nwall - simulated")
        lag_axes.text(
            1.01,
            0.05,
            f"mean lag:\n{mean_lag:,.1f} ms",
            transform=lag_axes.transAxes,
            va="bottom",
            fontsize=9,
        )
        legend_outside(lag_axes)
        lag_axes.set_xlabel("wall-clock time (s): each frame's values are drawn at its end")
        lag_axes.set_xlim(0, end_s)
        for panel in axes:
            panel.grid(True)
        mark_events(axes, scenario, end_s, theme)
        verdict = "SPIRAL" if result.spiral else "no spiral"
        figure.suptitle(
            f"{headline(scenario, title)}  |  {verdict}", fontsize=14, fontweight="bold"
        )
        return save_figure(figure, path)


def plt_subplots(
    rows: int, columns: int, size: tuple[float, float], heights: tuple[float, ...], **options: Any
) -> tuple[Any, Any]:
    """`plt.subplots` with a constrained layout (imported here: matplotlib loads slowly)."""
    import matplotlib.pyplot as plt

    return plt.subplots(
        rows, columns, figsize=size, height_ratios=heights, layout="constrained", **options
    )


def _frame_panel(
    axes: Any, series: FrameSeries, scenario: Scenario, result: RunResult, theme: Theme
) -> None:
    """Frame time against the frame budget and the step; the step cost too, when there is one:
    a cost line above the step line is the spiral's whole cause."""
    budget_ms = ms(NS_PER_SECOND / scenario.clock.render_fps)
    step_ms = ms(scenario.scheduler.step_ns)
    draw_frames(axes, series, budget_ms, theme.frame, series.end)
    fps, hz = scenario.clock.render_fps, scenario.scheduler.hz
    axes.plot([], [], ls="none", marker="o", color=theme.frame, label="frame time (at its end)")
    axes.axhline(
        budget_ms,
        color=theme.budget,
        ls="--",
        lw=1.3,
        label=f"frame budget {budget_ms:.2f} ms ({fps} fps)",
    )
    axes.axhline(
        step_ms,
        color=theme.step,
        ls=":",
        lw=1.8,
        label=f"one tick simulates {step_ms:.2f} ms ({hz} Hz)",
    )
    highest_cost = draw_step_cost(axes, scenario, series.end, theme)
    set_frame_axis(axes, series.frame_ms, budget_ms, max(step_ms, highest_cost))
    note_runaway(axes, result, series, theme)
    axes.set_ylabel("frame time (ms)")
    legend_outside(axes)


def _steps_panel(axes: Any, series: FrameSeries, scenario: Scenario, theme: Theme) -> None:
    draw_marks(axes, series.end_s, series.steps, standing_out(series, series.end), 0.0, theme.ticks)
    cap = 0
    if scenario.scheduler.policy in CAPPED:
        cap = scenario.scheduler.max_steps
        axes.axhline(cap, color=theme.step, ls=":", lw=1.4, label=f"cap M = {cap}")
        legend_outside(axes)
    axes.set_ylabel("ticks\nper frame")
    from_zero(axes, series.steps, cap)


def _rate_panel(axes: Any, series: FrameSeries, scenario: Scenario, theme: Theme) -> None:
    """The same ticks summed per slice of wall time, as ticks per second."""
    highest, real = draw_rate(axes, series, scenario, theme.ticks, theme, series.end)
    axes.set_ylabel("ticks per\nsecond")
    top = rate_top(highest, real)
    axes.set_ylim(0, top)
    note_off_scale(axes, highest, top, theme.ticks)
    legend_outside(axes)


def _dropped_panel(axes: Any, series: FrameSeries, end_s: float, theme: Theme) -> None:
    """Time each frame dropped (stems) and time owed to later frames (the backlog)."""
    dropping = series.dropped_ms > 0
    long = standing_out(series, series.end)[dropping]
    draw_marks(axes, series.end_s[dropping], series.dropped_ms[dropping], long, 0.0, theme.dropped)
    axes.plot([], [], marker="o", color=theme.dropped, label="dropped by a frame")
    if series.owed_ms.any():
        draw_held(
            axes, series, series.owed_ms, end_s, color=theme.backlog, lw=1.4, label="owed (backlog)"
        )
    axes.set_ylabel("time not\nsimulated (ms)")
    axes.text(
        1.01,
        0.05,
        f"total dropped:\n{float(series.dropped_ms.sum()):,.1f} ms",
        transform=axes.transAxes,
        va="bottom",
        fontsize=9,
    )
    from_zero(axes, np.concatenate((series.dropped_ms, series.owed_ms)))
    legend_outside(axes)


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
            4,
            columns,
            (min(max(4.4 * columns, 8), 18.5), 10),
            (1.6, 1, 1, 1.2),
            sharex=True,
            sharey="row",
            squeeze=False,
        )
        highest_cost = 0.0
        rates: list[tuple[float, float]] = []
        for column, ((policy, result), series) in enumerate(zip(results, everything, strict=True)):
            cost, rate = _compare_column(axes[:, column], policy, result, series, scenario, theme)
            highest_cost = max(highest_cost, cost)
            rates.append(rate)
        all_frames = np.concatenate([series.frame_ms for series in everything] + [np.zeros(0)])
        set_frame_axis(axes[0, 0], all_frames, budget_ms, max(step_ms, highest_cost))
        axes[0, 0].set_ylabel("frame time (ms)")
        axes[1, 0].set_ylabel("ticks per second")
        top = max(rate_top(highest, real) for highest, real in rates)
        axes[1, 0].set_ylim(0, top)
        for column, ((policy, _), (highest, _)) in enumerate(zip(results, rates, strict=True)):
            note_off_scale(axes[1, column], highest, top, theme.policy(policy))
        axes[2, 0].set_ylabel("dropped so far (ms)")
        from_zero(axes[2, 0], np.concatenate([np.cumsum(s.dropped_ms) for s in everything]))
        axes[3, 0].set_ylabel("lag: wall - simulated (ms)")
        axes[0, 0].set_xlim(0, end_s)
        figure.legend(
            handles=_compare_legend(budget_ms, step_ms, highest_cost, width_s, theme),
            loc="outside lower center",
            ncols=3,
            frameon=False,
        )
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
    draw_frames(frame_axes, series, budget_ms, colour, end_s)
    frame_axes.axhline(budget_ms, color=theme.budget, ls="--", lw=1.2)
    frame_axes.axhline(ms(scenario.scheduler.step_ns), color=theme.step, ls=":", lw=1.5)
    cost = draw_step_cost(frame_axes, scenario, series.end, theme)
    note_runaway(frame_axes, result, series, theme)
    rate = draw_rate(rate_axes, series, scenario, colour, theme, end_s)
    draw_held(dropped_axes, series, np.cumsum(series.dropped_ms), end_s, color=colour, lw=1.6)
    mean_lag = draw_lag(lag_axes, series, slice_seconds(end_s), colour)
    lag_axes.text(
        0.02,
        0.95,
        f"mean {mean_lag:,.1f} ms",
        transform=lag_axes.transAxes,
        va="top",
        fontsize=10,
        color=colour,
    )
    verdict = "SPIRAL" if result.spiral else "no spiral"
    frame_axes.set_title(f"{policy}: {verdict}", fontsize=14, fontweight="bold", color=colour)
    lag_axes.set_xlabel("wall-clock time (s)")
    for each in column:
        each.grid(True)
    return cost, rate


def _compare_legend(
    budget_ms: float, step_ms: float, cost: float, width_s: float, theme: Theme
) -> list[Line2D]:
    lines = [
        Line2D(
            [],
            [],
            ls="none",
            marker="o",
            color=theme.faint,
            label="frame time, a dot at each frame's end (a stem for a long frame)",
        ),
        Line2D(
            [],
            [],
            color=theme.budget,
            ls="--",
            label=f"frame budget {budget_ms:.2f} ms; ticks per second that keep real time",
        ),
        Line2D([], [], color=theme.step, ls=":", label=f"one tick simulates {step_ms:.2f} ms"),
        Line2D(
            [],
            [],
            color=theme.faint,
            lw=6,
            alpha=0.4,
            label=f"lag: lowest to highest in each {width_text(width_s)}; line: time-averaged",
        ),
    ]
    if cost:
        lines.append(Line2D([], [], color=theme.cost, ls="-.", label="one tick costs to run"))
    return lines
