"""The world's knobs, validated once, as frozen values.

A world is built from one `WorldSettings` and never changes it: the tick rate is not here (the
caller hands `dt` to every step), and everything a player may change while playing (the
integrator, the cannon switch) arrives as a tick-stamped order instead, so that a replay sees
it at the same tick.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from game.world.checks import finite_number, non_negative_number, positive_number, whole_number
from game.world.integrators import INTEGRATORS

PRECISIONS = ("float32", "float64")
"""Float32 is what a game engine's vectors use (the projectile figures of
docs/references.md#projectile-spring are float32); float64 is what a reference calculation
uses. The lab shows both."""

MAX_CAPACITY = 10_000_000


@dataclass(frozen=True, slots=True)
class CannonSettings:
    """The world-owned cannon: where it stands, how it aims, how often it fires.

    Each shot's angle and speed are jittered by draws from the world's seeded generator, so the
    volley looks lively and is still identical in every replay and at every render rate.
    """

    x: float = 1.5
    y: float = 1.5
    angle_deg: float = 55.0
    """Launch angle above the +x axis."""
    speed: float = 15.0
    """Launch speed, m/s."""
    every_ticks: int = 45
    """One shot on every tick whose number is a multiple of this."""
    angle_jitter_deg: float = 5.0
    """Each shot's angle is uniform in angle_deg +/- this."""
    speed_jitter: float = 1.5
    """Each shot's speed is uniform in speed +/- this (m/s)."""
    spin: float = 4.0
    """Angular velocity of each shot, rad/s (so rotation interpolation is visible)."""

    def __post_init__(self) -> None:
        for name in ("x", "y", "angle_deg"):
            object.__setattr__(self, name, finite_number(getattr(self, name), f"cannon {name}"))
        speed = positive_number(self.speed, "cannon speed")
        whole_number(self.every_ticks, "cannon every_ticks", minimum=1)
        non_negative_number(self.angle_jitter_deg, "cannon angle_jitter_deg")
        jitter = non_negative_number(self.speed_jitter, "cannon speed_jitter")
        if jitter >= speed:
            raise ValueError(
                f"cannon speed_jitter must be less than its speed (got {jitter} >= {speed})"
            )
        object.__setattr__(self, "speed", speed)
        object.__setattr__(self, "speed_jitter", jitter)
        object.__setattr__(self, "angle_jitter_deg", float(self.angle_jitter_deg))
        object.__setattr__(self, "spin", finite_number(self.spin, "cannon spin"))


@dataclass(frozen=True, slots=True)
class WorldSettings:
    """Gravity, arena, precision, seed and capacity of one world.

    The arena is `arena_width` x `arena_height` metres with the origin at the bottom-left and
    y pointing up. Projectiles that leave it through the left, right or bottom edge are
    removed; the sky is open, because whatever flies above the top falls back in.
    """

    gravity: float = 9.81
    """Downward acceleration on projectiles, m/s^2 (springs are not under gravity)."""
    arena_width: float = 32.0
    arena_height: float = 18.0
    precision: str = "float64"
    """"float32" or "float64": the dtype of every state array."""
    seed: int = 0
    """Seeds the world's own random generator (the cannon's jitter)."""
    capacity: int = 1024
    """Rows allocated up front; the arrays double when they fill, never shrink."""
    integrator: str = "semi-implicit"
    """The integrator at tick 0; `SetIntegrator` changes it at any later tick."""
    projectile_radius: float = 0.2
    """Drawn size of a projectile, metres."""
    cannon: CannonSettings = field(default_factory=CannonSettings)

    def __post_init__(self) -> None:
        object.__setattr__(self, "gravity", non_negative_number(self.gravity, "gravity"))
        object.__setattr__(self, "arena_width", positive_number(self.arena_width, "arena_width"))
        object.__setattr__(self, "arena_height", positive_number(self.arena_height, "arena_height"))
        if self.precision not in PRECISIONS:
            raise ValueError(f"precision must be 'float32' or 'float64' (got {self.precision!r})")
        whole_number(self.seed, "seed")
        capacity = whole_number(self.capacity, "capacity", minimum=1)
        if capacity > MAX_CAPACITY:
            raise ValueError(f"capacity must be at most {MAX_CAPACITY:,} (got {capacity:,})")
        if self.integrator not in INTEGRATORS:
            raise ValueError(
                f"integrator must be one of {', '.join(INTEGRATORS)} (got {self.integrator!r})"
            )
        object.__setattr__(
            self, "projectile_radius", positive_number(self.projectile_radius, "projectile_radius")
        )
        if not isinstance(self.cannon, CannonSettings):
            raise TypeError(f"cannon must be CannonSettings, not {type(self.cannon).__name__}")
        if not self.contains(self.cannon.x, self.cannon.y):
            raise ValueError(
                f"the cannon at ({self.cannon.x}, {self.cannon.y}) is outside the "
                f"{self.arena_width} x {self.arena_height} m arena"
            )

    @property
    def dtype(self) -> np.dtype[Any]:
        """The numpy dtype of the state arrays."""
        return np.dtype(self.precision)

    def contains(self, x: float, y: float) -> bool:
        """True when (x, y) is inside the arena, edges included."""
        return 0.0 <= x <= self.arena_width and 0.0 <= y <= self.arena_height
