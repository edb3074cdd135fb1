"""The lab's figures, drawn with matplotlib (Agg: no window, no display needed), each written as
PNG and SVG (`game.workshop.figures.plotting.save_figure`).

The experiments are the projectile-and-spring article's (docs/references.md#projectile-spring).

- `projectile.png`: the projectile at 30, 60 and 120 Hz against the exact parabola, and how far
  above or below it each integrator flies (x is exact: nothing pushes sideways).
  Explicit Euler flies high and semi-implicit low by the same g h t / 2; Verlet stays on it.
- `spring_energy.png`: the spring's energy over 10,000 ticks for each integrator, on a log scale
  (explicit Euler climbs twelve decades, the other two stay at 1), and a close-up of the first
  second showing that semi-implicit Euler's energy wobbles but does not drift.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np

from game.workshop.figures.plotting import save_figure
from game.world.experiments import (
    PROJECTILE_PRECISION,
    PROJECTILE_RATES,
    SPRING_HZ,
    SPRING_PRECISION,
    projectile_flight,
    spring_energies,
)
from game.world.integrators import INTEGRATORS

RATE_COLOURS = {30: "tab:red", 60: "tab:orange", 120: "tab:blue"}
INTEGRATOR_STYLES = {"explicit": "--", "semi-implicit": "-", "verlet": ":"}
INTEGRATOR_COLOURS = {"explicit": "tab:red", "semi-implicit": "tab:blue", "verlet": "tab:green"}


def write_figures(directory: Path, *, svg: bool = True) -> list[Path]:
    """Write both figures into `directory` (which exists), each as PNG and, if `svg`, SVG;
    return the paths."""
    return [*_projectile_figure(directory, svg), *_spring_figure(directory, svg)]


def _projectile_figure(directory: Path, svg: bool) -> list[Path]:
    figure, (path_axes, error_axes) = plt.subplots(1, 2, figsize=(13, 5.2))
    exact = projectile_flight("semi-implicit", max(PROJECTILE_RATES))
    path_axes.plot(exact.analytic_x, exact.analytic_y, color="black", lw=1.2, label="exact")
    for hz in sorted(PROJECTILE_RATES, reverse=True):  # the sparse 30 Hz ticks drawn on top
        flight = projectile_flight("semi-implicit", hz)
        path_axes.plot(
            flight.x,
            flight.y,
            "o",
            ms=3.5,
            mfc="none",
            color=RATE_COLOURS[hz],
            label=f"semi-implicit, {hz} Hz ticks",
        )
    path_axes.set(
        title="Projectile from (0, 0) at (10, 15) m/s, 2 s",
        xlabel="x (m)",
        ylabel="y (m)",
        aspect="equal",
    )
    path_axes.legend(loc="lower center")
    path_axes.grid(alpha=0.3)

    for hz in PROJECTILE_RATES:
        for name in INTEGRATORS:
            flight = projectile_flight(name, hz, PROJECTILE_PRECISION)  # as `lab`'s table
            error_axes.plot(
                flight.time,
                flight.y - flight.analytic_y,
                INTEGRATOR_STYLES[name],
                color=RATE_COLOURS[hz],
                label=f"{name}, {hz} Hz (off by {flight.error:.6f} m)",
            )
    error_axes.set(
        title=f"Height above the exact parabola ({PROJECTILE_PRECISION} world)",
        xlabel="time (s)",
        ylabel="y - y exact (m)",
    )
    error_axes.legend(fontsize=8, loc="upper left")
    error_axes.grid(alpha=0.3)
    figure.tight_layout()
    return save_figure(figure, directory / "projectile.png", svg=svg)


def _spring_figure(directory: Path, svg: bool) -> list[Path]:
    figure, (log_axes, close_axes) = plt.subplots(1, 2, figsize=(13, 5.2))
    for name in INTEGRATORS:
        # With the precision spelt out, as `lab`'s table asks: the cache keys on the arguments
        # as given, so `spring_energies(name)` would run the same 10,000 ticks again.
        energy = spring_energies(name, SPRING_PRECISION)
        ratio = energy / energy[0]
        ticks = np.arange(1, ratio.size + 1)
        colour, style = INTEGRATOR_COLOURS[name], INTEGRATOR_STYLES[name]
        log_axes.semilogy(ticks, ratio, style, color=colour, label=name)
        first_second = slice(0, 2 * SPRING_HZ)
        close_axes.plot(ticks[first_second], ratio[first_second], style, color=colour, label=name)
    log_axes.set(
        title=f"Spring k = 10, m = 1 at {SPRING_HZ} Hz: energy / first sample",
        xlabel="tick",
        ylabel="E / E(tick 1)  (log scale)",
    )
    log_axes.legend()
    log_axes.grid(alpha=0.3, which="both")
    close_axes.set(
        title=f"The first 2 s, linear scale ({SPRING_PRECISION} world)",
        xlabel="tick",
        ylabel="E / E(tick 1)",
    )
    close_axes.set_ylim(0.9, 1.4)
    close_axes.legend()
    close_axes.grid(alpha=0.3)
    figure.tight_layout()
    return save_figure(figure, directory / "spring_energy.png", svg=svg)
