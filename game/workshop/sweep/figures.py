"""The spiral map: one figure per policy, four heat maps over the sweep's grid, the theory on top.

Panels: what each run did (kept up, fell behind, spiralled), the share of time dropped, the
longest frame and the time-averaged lag (both on log scales: they span milliseconds to
seconds). Each cell is one run, drawn at its values: a range is drawn on a scale of values, a
list (M = 1, 2, 3, 5, 8) as evenly spaced rows.

On every panel the frontier of `game.workshop.sweep.frontier` is drawn as a line along the cell
edges where the theory's verdict changes: the cells on its low-cost side are the runs the theory
says keep up, so where the colours change at the line, measurement and theory agree. With the step
cost on an axis, the exact c* of each row (or column) is written beside the line. A cross marks
a run whose measured verdict disagrees with the theory, a ring a run exactly on the frontier
(where the theory calls it neither way).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.colors import ListedColormap, LogNorm, Normalize
from matplotlib.lines import Line2D

from game.config.exact import decimal_text
from game.workshop.figures.frame_series import Floats
from game.workshop.figures.plotting import Theme, save_figure, themed
from game.workshop.figures.slides import plt_subplots
from game.workshop.sweep.frontier import FORMULAS, ROLLBACK_FORMULA
from game.workshop.sweep.grid import Axis
from game.workshop.sweep.report import Run, agreement_text

COST_KEY = ("load", "step_cost_ms")
VERDICTS = ("kept up", "fell behind", "spiral")
MAX_LABELS = 12
"""Write c* beside the frontier for at most this many rows (or columns)."""
LABELS = {
    "load.step_cost_ms": "step cost c (ms)",
    "scheduler.max_steps": "catch-up cap M",
    "scheduler.hz": "tick rate (Hz)",
    "scheduler.max_frame_ms": "max frame F (ms)",
    "scheduler.max_backlog_ms": "max backlog B (ms)",
    "scheduler.time_scale": "time scale R",
    "clock.render_fps": "render rate (fps)",
    "clock.render_cost_ms": "render cost r (ms)",
    "clock.jitter_ms": "jitter (ms)",
}
"""How the axes of the usual keys are labelled (beside the key itself)."""


@dataclass(frozen=True, slots=True)
class _Scale:
    """Where an axis's cells sit on the plot."""

    edges: Floats
    centres: Floats
    position: Callable[[float], float]
    labels: list[str] | None
    """Tick labels at the centres, for a list drawn as evenly spaced rows."""


def _scale(axis: Axis | None) -> _Scale:
    if axis is None:
        return _Scale(np.array([-0.5, 0.5]), np.zeros(1), lambda value: 0.0, [""])
    values = np.array([float(value) for value in axis.values])
    if axis.evenly_spaced and len(values) > 1:
        half = (values[1] - values[0]) / 2
        edges = np.concatenate((values - half, [values[-1] + half]))
        return _Scale(edges, values, lambda value: value, None)
    count = len(values)
    order = np.argsort(values)
    spots = np.arange(count, dtype=float)

    def position(value: float) -> float:
        return float(np.interp(value, values[order], spots[order]))

    labels = [decimal_text(value) for value in axis.values]
    return _Scale(np.arange(count + 1, dtype=np.float64) - 0.5, spots, position, labels)


def _grid(runs: Sequence[Run], width: int, value: Callable[[Run], float]) -> Floats:
    """Runs in grid order (first axis slowest) as an array of rows (second axis) by columns."""
    flat = np.array([value(run) for run in runs], dtype=float)
    return flat.reshape(width, -1).T


def sweep_figure(
    path: Path, axes_given: Sequence[Axis], runs: Sequence[Run], title: str, theme: Theme
) -> list[Path]:
    """Write one policy's four heat maps to `path` (PNG) and its SVG; return both."""
    x_axis = axes_given[0]
    y_axis = axes_given[1] if len(axes_given) > 1 else None
    x, y = _scale(x_axis), _scale(y_axis)
    width = len(x_axis.values)
    policy = runs[0].cell.policy
    panels = _panels(runs, width)
    wrong = _grid(runs, width, lambda run: 0.0 if run.agrees else 1.0)
    edge = _grid(runs, width, lambda run: 1.0 if run.on_the_frontier else 0.0)
    with themed(theme):
        figure, grid = plt_subplots(2, 2, (14, 9.5), (1, 1), sharex=True, sharey=True)
        for plot, (name, values, kind) in zip(grid.flat, panels, strict=True):
            mesh = plot.pcolormesh(x.edges, y.edges, values, **_colours(kind, values, theme))
            bar = figure.colorbar(mesh, ax=plot, pad=0.01)
            if kind == "verdict":
                bar.set_ticks([0, 1, 2], labels=list(VERDICTS))
            _frontier(plot, runs, width, x, y, theme)
            _marks(plot, x, y, wrong, "x", theme)
            _marks(plot, x, y, edge, "o", theme)
            plot.set_title(name, fontsize=12, fontweight="bold")
        _cost_labels(grid[0, 0], runs, axes_given, x, y, theme)
        _label_axes(grid, x_axis, y_axis, x, y)
        rollback = runs[0].frontier.resimulated is not None
        formula = ROLLBACK_FORMULA if rollback else FORMULAS.get(policy, "")
        _legend(figure, formula, theme)
        figure.suptitle(
            f"{title}\n{policy}: {agreement_text(runs)}", fontsize=14, fontweight="bold"
        )
        return save_figure(figure, path)


def _panels(runs: Sequence[Run], width: int) -> list[tuple[str, Floats, str]]:
    """The four heat maps: (title, values by row and column, colour scale)."""
    return [
        ("what the run did", _grid(runs, width, lambda run: run.verdict), "verdict"),
        (
            "time dropped (%)",
            _grid(runs, width, lambda r: float(r.measures.dropped_pct)),
            "dropped",
        ),
        ("longest frame (ms)", _grid(runs, width, lambda r: r.measures.max_frame_ns / 1e6), "log"),
        ("mean lag (ms)", _grid(runs, width, lambda r: float(r.measures.mean_lag_ns) / 1e6), "log"),
    ]


def _legend(figure: Any, formula: str, theme: Theme) -> None:
    """Below the maps: the frontier's line and what the two marks mean."""
    figure.legend(
        handles=[
            Line2D([], [], color=theme.ink, lw=2.4, label=f"theory: the frontier, {formula}"),
            Line2D(
                [],
                [],
                ls="none",
                marker="x",
                color=theme.ink,
                label="a run that disagrees with the theory",
            ),
            Line2D(
                [],
                [],
                ls="none",
                marker="o",
                mfc="none",
                color=theme.ink,
                label="exactly on the frontier: no slack",
            ),
        ],
        loc="outside lower center",
        ncols=3,
        frameon=False,
    )


def _colours(kind: str, values: Floats, theme: Theme) -> dict[str, Any]:
    if kind == "verdict":
        colours = ListedColormap([theme.calm, theme.cost, theme.step])
        return {"cmap": colours, "norm": Normalize(-0.5, 2.5)}
    if kind == "dropped":
        return {"cmap": theme.heat, "norm": Normalize(0, max(float(values.max()), 1.0))}
    positive = values[values > 0]
    low = float(positive.min()) if len(positive) else 1.0
    high = max(float(values.max()), low * 10)
    return {"cmap": theme.sequential, "norm": LogNorm(low, high, clip=True)}


def _frontier(
    plot: Any, runs: Sequence[Run], width: int, x: _Scale, y: _Scale, theme: Theme
) -> None:
    """The theory's line, along the edges between cells it says keep up and cells it does not."""
    fits = _grid(runs, width, lambda run: float(run.theory_keeps_up))
    for segment in _edges(fits, x, y):
        plot.plot(*segment, color=theme.page, lw=4.6, zorder=3, solid_capstyle="round")
        plot.plot(*segment, color=theme.ink, lw=2.4, zorder=4, solid_capstyle="round")


def _cost_labels(
    plot: Any, runs: Sequence[Run], axes_given: Sequence[Axis], x: _Scale, y: _Scale, theme: Theme
) -> None:
    """c* of each row (cost on x) or column (cost on y), written beside the frontier (at the
    cell edge it runs along, so the line stays clear)."""
    width = len(axes_given[0].values)
    height = len(runs) // width
    if axes_given[0].key == COST_KEY and height <= MAX_LABELS:
        for row in range(height):
            cost = runs[row].frontier.cost_ms  # the first column: every row's c*
            _cost_label(plot, cost, (x.position, float(y.centres[row])), "x", x, theme)
    elif len(axes_given) > 1 and axes_given[1].key == COST_KEY and width <= MAX_LABELS:
        for column in range(width):
            cost = runs[column * height].frontier.cost_ms
            _cost_label(plot, cost, (y.position, float(x.centres[column])), "y", y, theme)


def _cost_label(
    plot: Any,
    cost: Fraction | None,
    where: tuple[Callable[[float], float], float],
    along: str,
    scale: _Scale,
    theme: Theme,
) -> None:
    position, across = where
    low, high = float(scale.edges[0]), float(scale.edges[-1])
    spot = low if cost is None else min(max(position(float(cost)), low), high)
    spot = float(scale.edges[min(int(np.searchsorted(scale.edges, spot)), len(scale.edges) - 1)])
    text = "c*: none fits" if cost is None else f"c* = {float(cost):.2f} ms"
    xy = (spot, across) if along == "x" else (across, spot)
    plot.annotate(
        text,
        xy,
        xytext=(6, 0) if along == "x" else (0, 6),
        textcoords="offset points",
        va="center" if along == "x" else "bottom",
        fontsize=9,
        color=theme.ink,
        bbox={"facecolor": theme.page, "edgecolor": "none", "alpha": 0.8, "pad": 1},
        zorder=6,
    )


def _edges(fits: Floats, x: _Scale, y: _Scale) -> list[tuple[list[float], list[float]]]:
    """The cell edges between a cell the theory says keeps up and one it says does not."""
    segments = []
    rows, columns = fits.shape
    for row in range(rows):
        for column in range(columns):
            if column + 1 < columns and fits[row, column] != fits[row, column + 1]:
                edge = float(x.edges[column + 1])
                segments.append(([edge, edge], [float(y.edges[row]), float(y.edges[row + 1])]))
            if row + 1 < rows and fits[row, column] != fits[row + 1, column]:
                edge = float(y.edges[row + 1])
                segments.append(
                    ([float(x.edges[column]), float(x.edges[column + 1])], [edge, edge])
                )
    return segments


def _marks(plot: Any, x: _Scale, y: _Scale, where: Floats, marker: str, theme: Theme) -> None:
    """A marker on each cell where `where` is 1."""
    rows, columns = np.nonzero(where)
    if len(rows):
        plot.plot(
            x.centres[columns],
            y.centres[rows],
            ls="none",
            marker=marker,
            ms=7,
            mew=2,
            mfc="none",
            color=theme.ink,
            zorder=5,
        )


def _label_axes(grid: Any, x_axis: Axis, y_axis: Axis | None, x: _Scale, y: _Scale) -> None:
    for plot in grid[1, :]:
        plot.set_xlabel(_label(x_axis))
        if x.labels is not None:
            plot.set_xticks(x.centres, x.labels)
    for plot in grid[:, 0]:
        plot.set_ylabel(_label(y_axis) if y_axis is not None else "")
        if y.labels is not None:
            plot.set_yticks(y.centres, y.labels)
    grid[0, 0].set_xlim(float(x.edges[0]), float(x.edges[-1]))
    grid[0, 0].set_ylim(float(y.edges[0]), float(y.edges[-1]))


def _label(axis: Axis) -> str:
    known = LABELS.get(axis.name)
    return f"{known}   [{axis.name}]" if known else axis.name
