"""Three ways to advance a body by one fixed tick, each a few lines that read like its formula.

- **explicit** Euler moves with the old velocity, then updates the velocity with the acceleration
  at the old position. It feeds energy into a spring on every tick, by a factor of exactly
  1 + (k/m) h^2: the spring of the projectile-and-spring article gains a factor of 8.4e11 in
  10,000 ticks (docs/references.md#projectile-spring).
- **semi-implicit** (symplectic) Euler updates the velocity first and moves with the new one. It
  costs the same and keeps a spring's energy bounded; it is the default.
- **verlet** (velocity Verlet) moves with the average of the old and new accelerations. It is
  exact for constant gravity (the projectile lands on its parabola) and keeps springs bounded.

Each integrator updates `position` and `velocity` in place, using preallocated scratch arrays,
so a step allocates nothing. The order of every multiply and add is the textbook one: in float32
it reproduces that article's single-precision figures to the last printed digit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from game.world.bodies import Array
from game.world.forces import ForceLaw


@dataclass(frozen=True, slots=True)
class Scratch:
    """Four (2, n) work arrays for one tick."""

    acceleration: Array
    next_acceleration: Array
    velocity_guess: Array
    product: Array


class Workspace:
    """Scratch arrays kept between ticks; they grow with the world and are never shrunk."""

    def __init__(self, dtype: np.dtype[Any]) -> None:
        self._dtype = dtype
        self._arrays = np.zeros((4, 2, 0), dtype=dtype)
        self._scratch = Scratch(*self._arrays)

    def sized(self, n: int) -> Scratch:
        """Views of n columns of each work array (the same views as last time if n is unchanged)."""
        if self._scratch.product.shape[-1] != n:
            if self._arrays.shape[-1] < n:
                grown = max(n, 2 * self._arrays.shape[-1])
                self._arrays = np.zeros((4, 2, grown), dtype=self._dtype)
            self._scratch = Scratch(*self._arrays[:, :, :n])
        return self._scratch


class Integrator(Protocol):
    def __call__(
        self, position: Array, velocity: Array, law: ForceLaw, dt: np.floating[Any], work: Scratch
    ) -> None: ...


def add_scaled(target: Array, rate: Array, factor: np.floating[Any], product: Array) -> None:
    """target += rate * factor, in place (the product is rounded first, as in `x += v * dt`)."""
    np.multiply(rate, factor, out=product)
    np.add(target, product, out=target)


def explicit_euler(
    position: Array, velocity: Array, law: ForceLaw, dt: np.floating[Any], work: Scratch
) -> None:
    """x += v dt; v += a(x_old) dt."""
    a = law.acceleration(position, velocity, work.acceleration, work.product)
    add_scaled(position, velocity, dt, work.product)
    add_scaled(velocity, a, dt, work.product)


def semi_implicit_euler(
    position: Array, velocity: Array, law: ForceLaw, dt: np.floating[Any], work: Scratch
) -> None:
    """v += a(x) dt; x += v_new dt."""
    a = law.acceleration(position, velocity, work.acceleration, work.product)
    add_scaled(velocity, a, dt, work.product)
    add_scaled(position, velocity, dt, work.product)


def velocity_verlet(
    position: Array, velocity: Array, law: ForceLaw, dt: np.floating[Any], work: Scratch
) -> None:
    """x += v dt + a dt^2 / 2; v += (a + a_new) dt / 2.

    The new acceleration is taken at the new position; a damped spring also needs a velocity
    there, for which the Euler guess v + a dt stands in (without damping it plays no part).
    """
    half = dt.dtype.type(0.5)
    a = law.acceleration(position, velocity, work.acceleration, work.product)
    add_scaled(position, velocity, dt, work.product)
    add_scaled(position, a, half * dt * dt, work.product)
    guess = work.velocity_guess
    np.multiply(a, dt, out=guess)
    np.add(guess, velocity, out=guess)
    a_new = law.acceleration(position, guess, work.next_acceleration, work.product)
    np.add(a, a_new, out=a)
    add_scaled(velocity, a, half * dt, work.product)


INTEGRATORS: dict[str, Integrator] = {
    "explicit": explicit_euler,
    "semi-implicit": semi_implicit_euler,
    "verlet": velocity_verlet,
}
"""By the names orders and settings use. Semi-implicit is the default."""
