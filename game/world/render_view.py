"""What the renderer may see: a read-only picture of the world at a fraction of a tick.

The world keeps two complete states, the one the last tick started from (previous) and the one
it produced (current). The scheduler's alpha says how far the wall clock has got between them;
`render_view` blends the two into fresh, read-only arrays. Nothing here writes the world: a
blended position is a picture, and the next tick starts from the exact current state.

The worked-example article's case (docs/references.md#worked-example): with h = 20 ms, 6 ms
carried and a 29 ms frame, one tick runs and 15 ms remain, so alpha = 0.75; a body that went
from 2.0 m to 2.4 m is drawn at 2.3 m.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from game.world.bodies import Array, LiveBodies

TAU = 2.0 * math.pi


class InterpolationMode(StrEnum):
    """How a frame between two ticks is drawn."""

    OFF = "off"
    """Draw the current tick as is: motion steps at the tick rate (judder at low tick rates)."""
    INTERPOLATE = "interpolate"
    """Blend previous -> current by alpha: smooth, one tick late. Angles take the short way."""
    EXTRAPOLATE = "extrapolate"
    """Guess ahead: current + velocity * alpha * dt. Smooth and on time, wrong at every bounce."""


@dataclass(frozen=True, slots=True, eq=False)
class RenderView:
    """Arrays to draw, one entry per live body, all read-only and owned by this view.

    `x`, `y`, `angle` are where to draw (blended by the mode); `raw_x`, `raw_y` are the exact
    current tick (the "raw tick markers"). `analytic_x`, `analytic_y` are where a projectile
    would be on its exact parabola at the drawn time (NaN for springs); `anchor_x`, `anchor_y`
    are a spring's mount (NaN for projectiles); `vx`, `vy` the current velocity (for arrows).
    """

    tick: int
    alpha: float
    mode: InterpolationMode
    time: float
    """The world time the blended arrays show, s."""
    ids: Array
    kind: Array
    x: Array
    y: Array
    angle: Array
    radius: Array
    raw_x: Array
    raw_y: Array
    analytic_x: Array
    analytic_y: Array
    anchor_x: Array
    anchor_y: Array
    vx: Array
    vy: Array

    @property
    def count(self) -> int:
        return int(self.ids.shape[0])

    def body_at(self, x: float, y: float, reach: float = 0.5) -> int | None:
        """The id of the body drawn nearest to (x, y) metres, if one is within its radius plus
        `reach` (a grab needs some slack on a small ball); None otherwise."""
        if not self.count:
            return None
        distance = np.hypot(self.x - x, self.y - y) - self.radius
        nearest = int(np.argmin(distance))
        return int(self.ids[nearest]) if distance[nearest] <= reach else None


def check_alpha(alpha: object) -> float:
    """Alpha is a finite number >= 0. Above 1 is allowed: the naive-alpha bug must be showable."""
    if type(alpha) is float and math.isfinite(alpha) and alpha >= 0.0:
        return alpha  # the usual case, a frame's alpha, checked without the general tests
    if isinstance(alpha, bool) or not isinstance(alpha, int | float | np.floating):
        raise TypeError(f"alpha must be a number, not {type(alpha).__name__} (got {alpha!r})")
    value = float(alpha)
    if not math.isfinite(value) or value < 0.0:
        raise ValueError(f"alpha must be a finite number >= 0 (got {alpha!r})")
    return value


def check_mode(mode: object) -> InterpolationMode:
    if type(mode) is InterpolationMode:
        return mode
    try:
        return InterpolationMode(str(mode))
    except ValueError:
        names = ", ".join(m.value for m in InterpolationMode)
        raise ValueError(f"interpolation mode must be one of {names} (got {mode!r})") from None


def render_view(
    bodies: LiveBodies,
    *,
    tick: int,
    time: float,
    last_dt: float,
    gravity: float,
    alpha: float,
    mode: InterpolationMode,
) -> RenderView:
    """Blend the two buffers at `alpha` by `mode` into a new read-only view."""
    # Every float array of the view is a row of one block: one allocation per view, not twelve.
    # Twelve arrays, freed every frame, went back to the system and came back page by page
    # (the figure: BENCHMARKS.md, "World: `view()`").
    block = np.empty((12, bodies.ids.shape[0]), dtype=bodies.position.dtype)
    shown_time = _pose(block[0:2], block[2], bodies, alpha, mode, time, last_dt)
    np.copyto(block[3], bodies.radius)
    np.copyto(block[4:6], bodies.position)
    _analytic_position(block[6:8], bodies, shown_time, gravity)
    np.copyto(block[8:10], bodies.anchor)
    np.copyto(block[10:12], bodies.velocity)
    block.flags.writeable = False  # rows taken from here on are read-only too
    x, y, angle, radius, raw_x, raw_y, analytic_x, analytic_y, anchor_x, anchor_y, vx, vy = block
    return RenderView(
        tick=tick,
        alpha=alpha,
        mode=mode,
        time=shown_time,
        ids=_read_only(bodies.ids.copy()),
        kind=_read_only(bodies.kind.copy()),
        x=x,
        y=y,
        angle=angle,
        radius=radius,
        raw_x=raw_x,
        raw_y=raw_y,
        analytic_x=analytic_x,
        analytic_y=analytic_y,
        anchor_x=anchor_x,
        anchor_y=anchor_y,
        vx=vx,
        vy=vy,
    )


def _pose(
    position: Array,
    angle: Array,
    bodies: LiveBodies,
    alpha: float,
    mode: InterpolationMode,
    time: float,
    last_dt: float,
) -> float:
    """Write the drawn positions (2, n) and angles (n,); return the world time they show."""
    current, previous = bodies.position, bodies.previous_position
    fraction = current.dtype.type(alpha)
    if mode is InterpolationMode.OFF:
        np.copyto(position, current)
        np.copyto(angle, bodies.angle)
        return time
    if mode is InterpolationMode.INTERPOLATE:
        np.subtract(current, previous, out=position)
        position *= fraction
        position += previous
        _blend_angles(angle, bodies, fraction)
        return time - (1.0 - alpha) * last_dt
    ahead = current.dtype.type(alpha * last_dt)
    np.multiply(bodies.velocity, ahead, out=position)
    position += current
    np.multiply(bodies.spin, ahead, out=angle)
    angle += bodies.angle
    return time + alpha * last_dt


def _blend_angles(angle: Array, bodies: LiveBodies, fraction: np.floating[Any]) -> None:
    """previous + alpha * (the turn from previous to current, the short way round)."""
    turns = fraction.dtype.type(TAU)
    turn = np.subtract(bodies.angle, bodies.previous_angle, out=angle)
    whole = turn / turns
    np.rint(whole, out=whole)
    whole *= turns
    turn -= whole  # now within [-pi, pi]: 350 deg -> 10 deg turns +20 deg, not -340 deg
    turn *= fraction
    turn += bodies.previous_angle


def _analytic_position(out: Array, bodies: LiveBodies, time: float, gravity: float) -> None:
    """p0 + v0 t - (0, g t^2 / 2) since launch, computed in float64 (NaN for springs): both
    axes in each operation, straight into `out` when the world is float64 too."""
    flight = time - bodies.launch_time
    exact = out.dtype == np.float64
    coordinates = np.multiply(bodies.launch_velocity, flight, out=out if exact else None)
    coordinates += bodies.launch_position
    flight *= flight
    flight *= 0.5 * gravity
    coordinates[1] -= flight
    if not exact:
        np.copyto(out, coordinates, casting="same_kind")


def _read_only(array: Array) -> Array:
    array.flags.writeable = False
    return array
