"""The two experiments of the projectile-and-spring article, run through this world's `step`.

The article is described in docs/references.md#projectile-spring.

1. A projectile launched from (0, 0) at (10, 15) m/s flies for 2 s at 30, 60 and 120 Hz; how far
   is it from the exact parabola at the end? Halving the step halves the error.
2. A spring (k = 10 N/m, m = 1 kg) released 1 m from rest runs 10,000 ticks at 60 Hz; by how
   much has its energy drifted? Explicit Euler multiplies it by about 8.4e11, semi-implicit Euler
   keeps it within 2 %.

The article's figures are reproduced to the printed digit, which needs the article's arithmetic:
its projectile ran in single precision (game-engine vectors), its spring in double. In float64 the
projectile errors come out as exactly g h T / 2 (0.327000, 0.163500, 0.081750 m): the float32
digits are rounding, not physics. Each result is cached: the experiments are pure functions.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from game.world.bodies import Array
from game.world.orders import Fire, SpawnSpring
from game.world.render_view import InterpolationMode
from game.world.settings import WorldSettings
from game.world.world import World

PROJECTILE_RATES = (30, 60, 120)
PROJECTILE_SECONDS = 2
PROJECTILE_LAUNCH = Fire(tick=0, x=0.0, y=0.0, vx=10.0, vy=15.0)
PROJECTILE_PRECISION = "float32"
"""The article's projectile figures are single precision."""

SPRING_RELEASE = SpawnSpring(tick=0, anchor_x=0.0, anchor_y=0.0, k=10.0, mass=1.0, offset=(1.0, 0))
"""Rest point at the origin, so the displacement is the position, exactly as in the article."""
SPRING_HZ = 60
SPRING_TICKS = 10_000
SPRING_SAMPLE_EVERY = 100
"""The article samples the energy after ticks 1, 101, ..., 9901, then compares last and first."""
SPRING_PRECISION = "float64"
"""The article's spring figures are double precision."""


@dataclass(frozen=True, slots=True, eq=False)
class Flight:
    """One projectile run: where the world put it after each tick, and where the parabola is."""

    integrator: str
    hz: int
    precision: str
    time: Array
    """Seconds since launch, at the start and after each tick."""
    x: Array
    y: Array
    analytic_x: Array
    analytic_y: Array
    error: float
    """Distance from the parabola at the end, m, computed in the world's precision."""


@functools.cache
def projectile_flight(integrator: str, hz: int, precision: str = PROJECTILE_PRECISION) -> Flight:
    """Fly the article's projectile for 2 s at `hz` with `integrator`."""
    world = World(WorldSettings(precision=precision, integrator=integrator))
    world.submit(PROJECTILE_LAUNCH)
    ticks = PROJECTILE_SECONDS * hz
    time = np.zeros(ticks + 1)
    # Column 0 is the launch, at the origin; column i is after tick i - 1.
    x, y, analytic_x, analytic_y = np.zeros((4, ticks + 1), dtype=np.dtype(precision))
    for sample in range(1, ticks + 1):
        world.step(1.0 / hz)
        now = world.view(0.0, InterpolationMode.OFF)
        time[sample] = world.time
        x[sample], y[sample] = now.x[0], now.y[0]
        analytic_x[sample], analytic_y[sample] = now.analytic_x[0], now.analytic_y[0]
    dx, dy = x[-1] - analytic_x[-1], y[-1] - analytic_y[-1]  # in the world's precision
    error = float(np.sqrt(dx * dx + dy * dy))
    return Flight(integrator, hz, precision, time, x, y, analytic_x, analytic_y, error)


def projectile_error(integrator: str, hz: int, precision: str = PROJECTILE_PRECISION) -> float:
    """Distance from the exact position after 2 s, m."""
    return projectile_flight(integrator, hz, precision).error


@functools.cache
def spring_energies(integrator: str, precision: str = SPRING_PRECISION) -> Array:
    """The article's spring: its energy after each of its 10,000 ticks, J (read-only)."""
    world = World(WorldSettings(precision=precision, integrator=integrator))
    world.submit(SPRING_RELEASE)
    energies = np.empty(SPRING_TICKS, dtype=np.dtype(precision))
    for tick in range(SPRING_TICKS):
        world.step(1.0 / SPRING_HZ)
        energies[tick] = world.spring_energy()[0]
    energies.flags.writeable = False
    return energies


def spring_energy_drift(integrator: str, precision: str = SPRING_PRECISION) -> float:
    """|E_last / E_first - 1| over the article's samples (every 100 ticks)."""
    samples = spring_energies(integrator, precision)[::SPRING_SAMPLE_EVERY]
    return abs(float(samples[-1]) / float(samples[0]) - 1.0)
