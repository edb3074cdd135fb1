"""Figures of headless runs, for slides (matplotlib with the Agg backend: no window needed).

- `timeline.png` (`simulate --out`): one run on a shared wall-clock axis: the frame time against
  the frame budget and the step, the ticks each frame ran, the time dropped, the backlog owed.
  Stalls, knob changes and pauses are marked where they happened.
- `compare.png` (`compare --out`): one scenario under several policies side by side, one column
  each, rows sharing their scale so the columns compare at a glance: frame time, time dropped
  so far, and lag (scaled wall time minus simulated time).

A frame is drawn as a step over the wall time it lasted, ending where it was handed to the
scheduler. Exact times become floats here, at the edge, only to be plotted.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D
from numpy.typing import NDArray

from game.clock.units import NS_PER_MS, NS_PER_SECOND
from game.config.exact import decimal_text
from game.workshop.runner import RUNAWAY_WORK_NS, RunResult
from game.workshop.scenario import Scenario
from game.workshop.timeline import SettingsChange

FRAME_COLOUR = "#1f5fa8"
BUDGET_COLOUR = "#2e8b57"
STEP_COLOUR = "#c0392b"
STALL_COLOUR = "#d35400"
CHANGE_COLOUR = "#7d3c98"
PAUSE_COLOUR = "#bbbbbb"
POLICY_COLOURS = {
    "uncapped": "#c0392b",
    "clamp": "#d68910",
    "drop": "#1f5fa8",
    "reset": "#7d3c98",
    "backlog": "#148f77",
    "variable": "#616a6b",
}
LOG_SCALE_RATIO = 30
"""Frame times spanning more than this ratio get a log axis, so a 7 ms frame and a 4 s frame both
stay readable on one plot."""

Floats = NDArray[np.float64]


class _Series:
    """A run's frames as float arrays for plotting; the wall axis starts at 0."""

    def __init__(self, result: RunResult) -> None:
        frames = result.frames
        self.end_s: Floats = np.array([frame.wall_ns / NS_PER_SECOND for frame in frames])
        self.x: Floats = np.concatenate(([0.0], self.end_s))
        self.frame_ms: Floats = np.array([frame.frame_ns / NS_PER_MS for frame in frames])
        self.steps: Floats = np.array([float(frame.plan.steps) for frame in frames])
        self.dropped_ms: Floats = np.array([float(frame.plan.dropped_ns) for frame in frames])
        self.dropped_ms /= NS_PER_MS
        self.backlog: Floats = np.array([float(frame.plan.backlog_steps) for frame in frames])
        self.lag_ms: Floats = np.array([float(frame.lag_ns) / NS_PER_MS for frame in frames])

    def stairs(self, axes: Any, values: Floats, **style: Any) -> None:
        """Each frame's value held over the wall time the frame lasted."""
        if len(values):
            axes.stairs(values, self.x, baseline=None, **style)

    def filled(self, axes: Any, values: Floats, **style: Any) -> None:
        if len(values):
            axes.stairs(values, self.x, fill=True, **style)


def _ms(ns: Fraction) -> float:
    return float(ns / NS_PER_MS)


def _frame_axis(axes: Any, series: _Series, budget_ms: float, step_ms: float) -> None:
    top = max(float(series.frame_ms.max(initial=0.0)), budget_ms, step_ms)
    bottom = min(float(series.frame_ms.min(initial=budget_ms)), budget_ms)
    if top / max(bottom, 1e-9) > LOG_SCALE_RATIO:
        axes.set_yscale("log")
    else:
        axes.set_ylim(0, top * 1.15)


def _mark_events(axes_list: Sequence[Any], scenario: Scenario, end_s: float) -> None:
    """Stalls as orange dashed lines and knob changes as purple dotted ones, across every panel;
    pauses as grey bands. Stalls are named above the top panel, changes inside its foot."""
    timeline = scenario.timeline()
    for stall in timeline.stalls:
        at = float(stall.at_ns / NS_PER_SECOND)
        if at <= end_s:
            _across(axes_list, at, STALL_COLOUR, "--")
            _label(axes_list[0], at, f"stall {decimal_text(stall.length_ns / NS_PER_MS)} ms",
                   STALL_COLOUR, above=True)  # fmt: skip
    paused_from: float | None = None
    for change in timeline.changes:
        at = float(change.at_ns / NS_PER_SECOND)
        if at > end_s:
            continue
        if change.paused is True and paused_from is None:
            paused_from = at
        elif change.paused is False and paused_from is not None:
            _paused(axes_list, paused_from, at)
            paused_from = None
        label = _change_label(change)
        if label:
            _across(axes_list, at, CHANGE_COLOUR, ":")
            _label(axes_list[0], at, label, CHANGE_COLOUR, above=False)
    if paused_from is not None:
        _paused(axes_list, paused_from, end_s)


def _across(axes_list: Sequence[Any], at: float, colour: str, style: str) -> None:
    for axes in axes_list:
        axes.axvline(at, color=colour, lw=1.2, ls=style, alpha=0.85, zorder=1)


def _label(axes: Any, at: float, text: str, colour: str, *, above: bool) -> None:
    axes.annotate(
        text, (at, 1.0 if above else 0.0), xycoords=("data", "axes fraction"),
        xytext=(3, 3), textcoords="offset points", va="bottom", color=colour, fontsize=9,
        annotation_clip=False,
    )  # fmt: skip


def _paused(axes_list: Sequence[Any], start: float, end: float) -> None:
    for axes in axes_list:
        axes.axvspan(start, end, color=PAUSE_COLOUR, alpha=0.35, lw=0, zorder=0)
    _label(axes_list[0], start, "paused (not billed)", "#555555", above=True)


def _change_label(change: SettingsChange) -> str:
    parts = []
    if change.policy is not None:
        parts.append(change.policy)
    if change.hz is not None:
        parts.append(f"{decimal_text(change.hz)} Hz")
    if change.max_steps is not None:
        parts.append(f"M={change.max_steps}")
    if change.time_scale is not None:
        parts.append(f"x{change.time_scale}")
    if change.step_cost_ms is not None:
        parts.append(f"cost {decimal_text(change.step_cost_ms)} ms")
    if change.render_fps is not None:
        parts.append(f"{decimal_text(change.render_fps)} fps")
    if change.render_cost_ms is not None:
        parts.append(f"render {decimal_text(change.render_cost_ms)} ms")
    return ", ".join(parts)


def _runaway_note(axes: Any, result: RunResult, series: _Series) -> None:
    if result.runaway and len(series.end_s):
        axes.annotate(
            f"runaway guard:\na frame's work\npassed {RUNAWAY_WORK_NS // NS_PER_SECOND} s",
            (float(series.end_s[-1]), float(series.frame_ms[-1])),
            xytext=(-10, -4),
            textcoords="offset points",
            ha="right",
            va="top",
            color=STEP_COLOUR,
            fontsize=9,
            fontweight="bold",
        )


def headline(scenario: Scenario, title: str, *, policy: bool = True) -> str:
    """The figure's title, and under it the knobs that explain the picture."""
    settings = scenario.scheduler
    knobs = [settings.policy] if policy else []
    knobs += [
        f"{decimal_text(settings.hz)} Hz",
        f"M = {settings.max_steps}",
        _cost_text(scenario),
        f"render {decimal_text(scenario.clock.render_fps)} fps",
    ]
    if settings.time_scale != 1:
        knobs.append(f"time scale {settings.time_scale}")
    if scenario.clock.jitter_ms:
        knobs.append(f"jitter up to {decimal_text(scenario.clock.jitter_ms)} ms")
    return f"{title}\n{'  |  '.join(knobs)}"


def _cost_text(scenario: Scenario) -> str:
    """ "step cost 8 ms", or "step cost 8 -> 20 ms" when the scenario ramps it."""
    start = scenario.load.step_cost_ms
    ramp = [change.step_cost_ms for change in scenario.changes if change.step_cost_ms is not None]
    if ramp:
        return f"step cost {decimal_text(start)} -> {decimal_text(ramp[-1])} ms"
    return f"step cost {decimal_text(start)} ms"


def timeline_figure(path: Path, result: RunResult, scenario: Scenario, title: str) -> Path:
    """Write the four-panel timeline of one run to `path` (a PNG) and return it."""
    series = _Series(result)
    end_s = float(series.x[-1]) if len(series.end_s) else float(scenario.seconds)
    figure, axes = plt.subplots(
        4, 1, figsize=(12, 8.4), sharex=True, height_ratios=(2.2, 1, 1, 1), layout="constrained"
    )
    frame_axes, steps_axes, dropped_axes, backlog_axes = axes
    _frame_panel(frame_axes, series, scenario, result)
    _steps_panel(steps_axes, series, scenario)
    series.filled(dropped_axes, series.dropped_ms, color=STEP_COLOUR, alpha=0.75)
    dropped_axes.set_ylabel("dropped (ms)")
    dropped_axes.text(
        1.01, 0.95, f"total dropped:\n{float(series.dropped_ms.sum()):,.1f} ms",
        transform=dropped_axes.transAxes, va="top", fontsize=9,
    )  # fmt: skip
    series.filled(backlog_axes, series.backlog, color="#148f77", alpha=0.75)
    backlog_axes.set_ylabel("backlog (ticks)")
    backlog_axes.set_xlabel("wall-clock time (s)")
    backlog_axes.set_xlim(0, end_s)
    _from_zero(dropped_axes, series.dropped_ms)
    _from_zero(backlog_axes, series.backlog)
    for panel in axes:
        panel.grid(alpha=0.3)
    _mark_events(axes, scenario, end_s)
    verdict = "SPIRAL" if result.spiral else "no spiral"
    figure.suptitle(f"{headline(scenario, title)}  |  {verdict}", fontsize=13, fontweight="bold")
    figure.savefig(path, dpi=120, format="png")  # the name may be a partial one (.part)
    plt.close(figure)
    return path


def _frame_panel(axes: Any, series: _Series, scenario: Scenario, result: RunResult) -> None:
    """Frame time against the frame budget and the step; the step cost too, when there is one:
    a cost line above the step line is the spiral's whole cause."""
    budget_ms = _ms(NS_PER_SECOND / scenario.clock.render_fps)
    step_ms = _ms(scenario.scheduler.step_ns)
    series.stairs(axes, series.frame_ms, color=FRAME_COLOUR, lw=1.4, label="frame time")
    fps = decimal_text(scenario.clock.render_fps)
    axes.axhline(budget_ms, color=BUDGET_COLOUR, ls="--", lw=1.2,
                 label=f"frame budget {budget_ms:.2f} ms ({fps} fps)")  # fmt: skip
    hz = decimal_text(scenario.scheduler.hz)
    axes.axhline(step_ms, color=STEP_COLOUR, ls=":", lw=1.6,
                 label=f"one tick simulates {step_ms:.2f} ms ({hz} Hz)")  # fmt: skip
    highest_cost = _draw_step_cost(axes, scenario, float(series.x[-1]) if len(series.end_s) else 0)
    _frame_axis(axes, series, budget_ms, max(step_ms, highest_cost))
    _runaway_note(axes, result, series)
    axes.set_ylabel("frame time (ms)")
    _legend_outside(axes)


def _draw_step_cost(axes: Any, scenario: Scenario, end_s: float) -> float:
    """What one tick costs to run, over time (a staircase when the scenario ramps it), when it
    costs anything. Above the step line, ticks cost more than they simulate. Returns the highest
    cost drawn, in ms."""
    edges, costs = [0.0], [float(scenario.load.step_cost_ms)]
    for change in scenario.timeline().changes:
        at = float(change.at_ns / NS_PER_SECOND)
        if change.step_cost_ms is not None and at < end_s:
            edges.append(at)
            costs.append(float(change.step_cost_ms))
    if not any(costs) or end_s <= 0:
        return 0.0
    edges.append(end_s)
    axes.stairs(costs, edges, baseline=None, color=STALL_COLOUR, ls="-.", lw=1.4,
                label="one tick costs to run")  # fmt: skip
    return max(costs)


def _steps_panel(axes: Any, series: _Series, scenario: Scenario) -> None:
    series.stairs(axes, series.steps, color="#34495e", lw=0.9)
    settings = scenario.scheduler
    cap = 0
    if settings.policy in ("drop", "reset", "backlog"):
        cap = settings.max_steps
        axes.axhline(cap, color=STEP_COLOUR, ls=":", lw=1.2, label=f"cap M = {cap}")
        _legend_outside(axes)
    axes.set_ylabel("ticks per frame")
    _from_zero(axes, series.steps, cap)


def _legend_outside(axes: Any) -> None:
    """Legends sit right of the plot, where no curve can hide behind them."""
    axes.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize=9, frameon=False)


def _from_zero(axes: Any, values: Floats, at_least: float = 1.0) -> None:
    """A y axis from 0 with room above the highest value (and a visible one when all are 0)."""
    axes.set_ylim(0, max(at_least, float(values.max(initial=0.0))) * 1.15)


def compare_figure(
    path: Path, results: Sequence[tuple[str, RunResult]], scenario: Scenario, title: str
) -> Path:
    """Write the policies side by side (one column each) to `path` and return it."""
    columns = len(results)
    figure, axes = plt.subplots(
        3, columns, figsize=(min(max(4.2 * columns, 8), 18), 8), sharex=True, sharey="row",
        squeeze=False, layout="constrained",
    )  # fmt: skip
    budget_ms = _ms(NS_PER_SECOND / scenario.clock.render_fps)
    step_ms = _ms(scenario.scheduler.step_ns)
    everything = [_Series(result) for _, result in results]
    all_frames = np.concatenate([series.frame_ms for series in everything] + [np.zeros(0)])
    top = max(float(all_frames.max(initial=0.0)), step_ms)
    log_frames = top / min(float(all_frames.min(initial=budget_ms)), budget_ms) > LOG_SCALE_RATIO
    highest_cost = 0.0
    for column, ((policy, result), series) in enumerate(zip(results, everything, strict=True)):
        colour = POLICY_COLOURS.get(policy, FRAME_COLOUR)
        frame_axes, dropped_axes, lag_axes = axes[:, column]
        series.stairs(frame_axes, series.frame_ms, color=colour, lw=1.4)
        frame_axes.axhline(budget_ms, color=BUDGET_COLOUR, ls="--", lw=1.1)
        frame_axes.axhline(step_ms, color=STEP_COLOUR, ls=":", lw=1.3)
        end_s = float(series.x[-1]) if len(series.end_s) else 0.0
        highest_cost = max(highest_cost, _draw_step_cost(frame_axes, scenario, end_s))
        _runaway_note(frame_axes, result, series)
        series.filled(dropped_axes, np.cumsum(series.dropped_ms), color=colour, alpha=0.6)
        series.stairs(lag_axes, series.lag_ms, color=colour, lw=1.2)
        verdict = "SPIRAL" if result.spiral else "no spiral"
        frame_axes.set_title(f"{policy}: {verdict}", fontsize=13, fontweight="bold", color=colour)
        lag_axes.set_xlabel("wall-clock time (s)")
        for each in axes[:, column]:
            each.grid(alpha=0.3)
    if log_frames:
        axes[0, 0].set_yscale("log")
    axes[0, 0].set_ylabel("frame time (ms)")
    axes[1, 0].set_ylabel("dropped so far (ms)")
    _from_zero(axes[1, 0], np.concatenate([np.cumsum(series.dropped_ms) for series in everything]))
    axes[2, 0].set_ylabel("lag: wall - simulated (ms)")
    axes[0, 0].set_xlim(0, float(scenario.seconds))
    lines = [
        Line2D([], [], color=BUDGET_COLOUR, ls="--", label=f"frame budget {budget_ms:.2f} ms"),
        Line2D([], [], color=STEP_COLOUR, ls=":", label=f"one tick simulates {step_ms:.2f} ms"),
    ]
    if highest_cost:
        lines.append(Line2D([], [], color=STALL_COLOUR, ls="-.", label="one tick costs to run"))
    figure.legend(handles=lines, loc="outside lower center", ncols=len(lines), frameon=False)
    figure.suptitle(headline(scenario, title, policy=False), fontsize=13, fontweight="bold")
    figure.savefig(path, dpi=120, format="png")  # the name may be a partial one (.part)
    plt.close(figure)
    return path
