"""What a run's figures mark beside its frames: titles, the scenario's events, and the lines
frame times are read against (the frame budget, the step, the step cost, real-time speed).

Stalls are orange dashed lines and knob changes purple dotted ones, across every panel; pauses
are grey bands. Stalls are named above the top panel, changes inside its foot.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from game.config.exact import decimal_text
from game.workshop.figures.plotting import Theme
from game.workshop.files.scenario import Scenario
from game.workshop.files.timeline import CHANGE_KNOBS, SettingsChange
from timestep_lab import NS_PER_MS, NS_PER_SECOND


def ms(ns: Fraction) -> float:
    return float(ns / NS_PER_MS)


def headline(scenario: Scenario, title: str, *, policy: bool = True) -> str:
    """The figure's title, and under it the knobs that explain the picture."""
    settings = scenario.scheduler
    knobs = [settings.policy] if policy else []
    knobs += [
        f"{decimal_text(settings.hz)} Hz",
        f"M = {settings.max_steps}",
        cost_text(scenario),
        f"render {decimal_text(scenario.clock.render_fps)} fps",
    ]
    if scenario.clock.render_cost_ms:
        knobs.append(f"render cost {decimal_text(scenario.clock.render_cost_ms)} ms")
    if settings.time_scale != 1:
        knobs.append(f"time scale {settings.time_scale}")
    if scenario.clock.jitter_ms:
        knobs.append(f"jitter up to {decimal_text(scenario.clock.jitter_ms)} ms")
    return f"{title}\n{'  |  '.join(knobs)}"


def cost_text(scenario: Scenario) -> str:
    """ "step cost 8 ms", or "step cost 8 -> 20 ms" when the scenario ramps it."""
    start = scenario.load.step_cost_ms
    ramp = [change.step_cost_ms for change in scenario.changes if change.step_cost_ms is not None]
    if ramp:
        return f"step cost {decimal_text(start)} -> {decimal_text(ramp[-1])} ms"
    return f"step cost {decimal_text(start)} ms"


def mark_events(axes_list: Sequence[Any], scenario: Scenario, end_s: float, theme: Theme) -> None:
    """The scenario's stalls, knob changes and pauses, across every panel of `axes_list`."""
    timeline = scenario.timeline()
    for stall in timeline.stalls:
        at = float(stall.at_ns / NS_PER_SECOND)
        if at <= end_s:
            _across(axes_list, at, theme.stall, "--")
            _label(
                axes_list[0],
                at,
                f"stall {decimal_text(stall.length_ns / NS_PER_MS)} ms",
                theme.stall,
                above=True,
            )
    paused_from: float | None = None
    for change in timeline.changes:
        at = float(change.at_ns / NS_PER_SECOND)
        if at > end_s:
            continue
        if change.paused is True and paused_from is None:
            paused_from = at
        elif change.paused is False and paused_from is not None:
            _paused(axes_list, paused_from, at, theme)
            paused_from = None
        label = _change_label(change)
        if label:
            _across(axes_list, at, theme.change, ":")
            _label(axes_list[0], at, label, theme.change, above=False)
    if paused_from is not None:
        _paused(axes_list, paused_from, end_s, theme)


def _across(axes_list: Sequence[Any], at: float, colour: str, style: str) -> None:
    for axes in axes_list:
        axes.axvline(at, color=colour, lw=1.2, ls=style, alpha=0.85, zorder=1)


def _label(axes: Any, at: float, text: str, colour: str, *, above: bool) -> None:
    axes.annotate(
        text,
        (at, 1.0 if above else 0.0),
        xycoords=("data", "axes fraction"),
        xytext=(3, 3),
        textcoords="offset points",
        va="bottom",
        color=colour,
        fontsize=9,
        annotation_clip=False,
    )


def _paused(axes_list: Sequence[Any], start: float, end: float, theme: Theme) -> None:
    for axes in axes_list:
        axes.axvspan(start, end, color=theme.pause, alpha=0.35, lw=0, zorder=0)
    _label(axes_list[0], start, "paused (not billed)", theme.faint, above=True)


def _change_label(change: SettingsChange) -> str:
    """What a change turned, as its knobs' marks say it: "uncapped, M=1, 30 fps"."""
    parts = []
    for name, value in change.turned.items():
        knob = CHANGE_KNOBS[name]
        if knob.mark:
            shown = decimal_text(value) if isinstance(value, Fraction) else value
            parts.append(knob.mark.format(value if knob.range and knob.range.ratios else shown))
    return ", ".join(parts)


def _staircase(
    scenario: Scenario, end_s: float, start: Fraction, turned: Any
) -> tuple[list[float], list[float]]:
    """A knob's value over the run: edges in s, one value per stretch between them."""
    edges, values = [0.0], [float(start)]
    for change in scenario.timeline().changes:
        at = float(change.at_ns / NS_PER_SECOND)
        value = turned(change)
        if value is not None and 0 < at < end_s:
            edges.append(at)
            values.append(float(value))
    edges.append(end_s)
    return edges, values


def draw_step_cost(axes: Any, scenario: Scenario, end_s: float, theme: Theme) -> float:
    """What one tick costs to run, over time (a staircase when the scenario ramps it), when it
    costs anything. Above the step line, ticks cost more than they simulate. Returns the highest
    cost drawn, in ms."""
    edges, costs = _staircase(
        scenario, end_s, scenario.load.step_cost_ms, lambda change: change.step_cost_ms
    )
    if not any(costs) or end_s <= 0:
        return 0.0
    axes.stairs(
        costs,
        edges,
        baseline=None,
        color=theme.cost,
        ls="-.",
        lw=1.6,
        label="one tick costs to run",
    )
    return max(costs)


def draw_real_time_rate(axes: Any, scenario: Scenario, end_s: float, theme: Theme) -> float:
    """Ticks per second of wall time that keep the simulation on time: hz x time scale, over the
    run. Returns the highest rate drawn."""
    hz_edges, rates = _staircase(scenario, end_s, scenario.scheduler.hz, lambda c: c.hz)
    scale_edges, scales = _staircase(
        scenario, end_s, scenario.scheduler.time_scale, lambda c: c.time_scale
    )
    edges = sorted(set(hz_edges) | set(scale_edges))
    values = [
        _value_at(hz_edges, rates, left) * _value_at(scale_edges, scales, left)
        for left in edges[:-1]
    ]
    if end_s <= 0:
        return 0.0
    axes.stairs(
        values,
        edges,
        baseline=None,
        color=theme.budget,
        ls="--",
        lw=1.4,
        label="real time (hz x scale)",
    )
    return max(values)


def _value_at(edges: list[float], values: list[float], at: float) -> float:
    index = max(i for i, edge in enumerate(edges[:-1]) if edge <= at)
    return values[index]
