"""Themes and saving, shared by every slide figure (`simulate`, `compare`, `sweep`).

A projector washes out pale lines on white and a dark room glares at a white slide, so every
figure comes in two themes, chosen with `--theme light|dark`: the same plot with the colours
picked for the background. Each figure is written twice, as a PNG to drop into any slide and as
an SVG that stays sharp at any size (its text stays text, so a slide tool can still edit it).
Dense artists (thousands of frame markers) are rasterised inside the SVG, which keeps the file
small without blurring the axes or the words.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from game.workshop.files.output import written_whole

ThemeName = Literal["light", "dark"]
DPI = 120
DENSE = 4_000
"""An artist with more points than this is rasterised in the SVG."""


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of one theme: the page, the ink, and one colour per meaning."""

    name: ThemeName
    page: str
    ink: str
    faint: str
    """Grid lines and secondary text."""
    frame: str
    budget: str
    step: str
    cost: str
    stall: str
    change: str
    pause: str
    dropped: str
    ticks: str
    backlog: str
    lag: str
    calm: str
    """The spiral map's "kept up" colour; `step` is its alarm."""
    policies: Mapping[str, str] = field(default_factory=dict)
    sequential: str = "viridis"
    """The colour map of the heat maps (low values on the page's side)."""
    heat: str = "YlOrRd"
    """The colour map of the dropped-time heat map: none is calm, a lot is alarming."""

    def policy(self, name: str) -> str:
        return self.policies.get(name, self.frame)


LIGHT = Theme(
    name="light",
    page="#ffffff",
    ink="#1b1b1b",
    faint="#8a8a8a",
    frame="#1f5fa8",
    budget="#2e8b57",
    step="#c0392b",
    cost="#d35400",
    stall="#d35400",
    change="#7d3c98",
    pause="#bbbbbb",
    dropped="#c0392b",
    ticks="#34495e",
    backlog="#148f77",
    lag="#7d3c98",
    calm="#cfe8d5",
    policies={
        "uncapped": "#c0392b",
        "clamp": "#d68910",
        "drop": "#1f5fa8",
        "reset": "#7d3c98",
        "backlog": "#148f77",
        "variable": "#616a6b",
    },
    sequential="viridis",
    heat="YlOrRd",
)

DARK = Theme(
    name="dark",
    page="#101418",
    ink="#ececec",
    faint="#8c959f",
    frame="#6cb4ff",
    budget="#4cd37b",
    step="#ff6b5e",
    cost="#ffa94d",
    stall="#ffa94d",
    change="#d0a3ff",
    pause="#4a4f55",
    dropped="#ff6b5e",
    ticks="#c9d6e3",
    backlog="#3ddbb8",
    lag="#d0a3ff",
    calm="#1f4d33",
    policies={
        "uncapped": "#ff6b5e",
        "clamp": "#ffc145",
        "drop": "#6cb4ff",
        "reset": "#d0a3ff",
        "backlog": "#3ddbb8",
        "variable": "#b8c2cc",
    },
    sequential="viridis",
    heat="inferno",
)

THEMES: dict[str, Theme] = {"light": LIGHT, "dark": DARK}
"""By the name `--theme` takes (`game.workshop.files.output.THEME_NAMES`)."""


def _style(theme: Theme) -> dict[str, Any]:
    """matplotlib settings for `theme`; a projector wants bigger type than a paper."""
    return {
        "figure.facecolor": theme.page,
        "savefig.facecolor": theme.page,
        "axes.facecolor": theme.page,
        "axes.edgecolor": theme.ink,
        "axes.labelcolor": theme.ink,
        "axes.titlecolor": theme.ink,
        "text.color": theme.ink,
        "xtick.color": theme.ink,
        "ytick.color": theme.ink,
        "grid.color": theme.faint,
        "grid.alpha": 0.35,
        "legend.labelcolor": theme.ink,
        "font.size": 11,
        "axes.labelsize": 11,
        "svg.fonttype": "none",
        "svg.hashsalt": "timestep-lab",
    }


@contextmanager
def themed(theme: Theme) -> Iterator[None]:
    """Draw inside this block to draw in `theme`'s colours."""
    with plt.rc_context(cast(Any, _style(theme))):
        yield


def save_figure(figure: Any, png: Path, *, svg: bool = True) -> list[Path]:
    """Write `figure` as `png` and, unless `svg` is False, as the SVG beside it; close it;
    return the paths written. (Each file lays the figure out again: a page that shows only the
    PNG saves that second layout and drawing, 2 of the 6 to 8 s CPU of a `compare`.)

    Neither file records the date, so the same run draws the same bytes.
    """
    written = [png]
    try:
        with written_whole(png) as partial:  # a partial name until complete, then renamed
            figure.savefig(partial, format="png", dpi=DPI, metadata={"Software": None})
        if svg:
            written.append(png.with_suffix(".svg"))
            with written_whole(written[-1]) as partial:
                figure.savefig(partial, format="svg", metadata={"Date": None, "Creator": None})
    finally:
        plt.close(figure)
    return written


def rasterise_if_dense(count: int) -> bool:
    """Whether an artist of `count` points is drawn as pixels inside the SVG."""
    return count > DENSE
