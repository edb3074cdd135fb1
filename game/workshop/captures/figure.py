"""The capture's slide: its frame times with the hitches marked, and the ticks each policy ran.

One figure per tick rate: the top panel is the frame times (ms) against the capture's time (s),
the hitches (`hitches`' rule) marked in the alarm colour; below it, one panel per policy with
the ticks each frame ran. A capture of more frames than the figure has room for is drawn as
each slice's lowest and highest value (a band from one to the other), so a million frames draw as
fast as a thousand and no hitch is averaged away.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.capture.frame import CaptureInfo
from game.workshop.captures.analysis import PolicyResult
from game.workshop.captures.frame_times import FrameTimes
from game.workshop.captures.frames_csv import hz_text
from game.workshop.captures.hitches import hitches
from game.workshop.figures.plotting import Theme, rasterise_if_dense, save_figure, themed
from game.workshop.figures.slides import plt_subplots

SLICES = 2_000
"""Above this many frames, each panel draws the range of each of this many slices."""


def _ranges(
    seconds: NDArray[np.float64], values: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(x, low, high) per slice of frames (every frame its own slice when they are few)."""
    if len(values) <= SLICES:
        return seconds, values, values
    edges = np.linspace(0, len(values), SLICES + 1).astype(np.int64)[:-1]
    return seconds[edges], np.minimum.reduceat(values, edges), np.maximum.reduceat(values, edges)


def _draw(
    axes: Any, seconds: NDArray[np.float64], values: NDArray[np.float64], colour: str
) -> None:
    """Each slice's highest value as a step line, the band down to its lowest filled in."""
    x, low, high = _ranges(seconds, values)
    dense = rasterise_if_dense(len(x))
    axes.fill_between(x, low, high, step="post", color=colour, alpha=0.35, lw=0, rasterized=dense)
    axes.step(x, high, where="post", color=colour, lw=0.9, rasterized=dense)


def _frame_panel(
    axes: Any,
    seconds: NDArray[np.float64],
    times: FrameTimes,
    hz: str,
    step_ms: float,
    theme: Theme,
) -> None:
    """The frame times, the hitches marked, and the length of one tick for scale."""
    frame_ms = times.elapsed_ns / 1e6
    marked = hitches(times.elapsed_ns)
    count = int(marked.sum())
    _draw(axes, seconds, frame_ms, theme.frame)
    axes.plot(
        seconds[marked],
        frame_ms[marked],
        ls="none",
        marker="v",
        ms=6,
        color=theme.step,
        label=f"hitch ({count:,})",
        rasterized=rasterise_if_dense(count),
    )
    axes.axhline(step_ms, color=theme.faint, ls=":", lw=1.3, label=f"one tick at {hz} Hz")
    axes.set_ylabel("frame time (ms)")
    axes.set_ylim(bottom=0)
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)


def capture_figure(
    png: Path,
    info: CaptureInfo,
    times: FrameTimes,
    row: Sequence[PolicyResult],
    theme: Theme,
) -> list[Path]:
    """Write one tick rate's figure to `png` and its SVG; return both paths."""
    seconds = times.time_ns / 1e9  # floats for drawing only: the figures are read, not summed
    hz = hz_text(row[0].settings)
    with themed(theme):
        figure, axes = plt_subplots(
            1 + len(row),
            1,
            (12, 2.2 + 1.3 * len(row)),
            (2.0, *(1.0,) * len(row)),
            sharex=True,
            squeeze=False,
        )
        _frame_panel(axes[0, 0], seconds, times, hz, float(row[0].settings.step_ns) / 1e6, theme)
        for panel, result in zip(axes[1:, 0], row, strict=True):
            assert result.steps is not None, "the runs keep their ticks when a figure is asked for"
            policy = result.settings.policy
            _draw(panel, seconds, result.steps.astype(np.float64), theme.policy(policy))
            panel.set_ylabel(f"{policy}\nticks")
            panel.set_ylim(bottom=0)
        axes[-1, 0].set_xlabel(f"capture time (s); {info.frames:,} frames")
        kind = "samples" if info.sample_interval_ms is not None else "frames"
        figure.suptitle(
            f"{Path(info.path).name}: {info.process}, {kind} through each policy at {hz} Hz",
            fontsize=14,
            fontweight="bold",
        )
        return save_figure(figure, png)
