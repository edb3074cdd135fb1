"""The one force law of the world, for every body at once.

    a = (0, gravity) - stiffness * (position - rest) - damping * velocity

A projectile has gravity -g and no spring (stiffness and damping 0); a spring's bob has a
stiffness k/m and a damping c/m and no gravity. Writing both kinds as one law lets a single
vectorised pass move all bodies, and the zero terms are exact: 0 * x adds nothing, so a
projectile's acceleration is exactly (0, -g), as in the projectile experiment of the
projectile-and-spring article (docs/references.md#projectile-spring).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.world.bodies import Array, LiveBodies


@dataclass(frozen=True, slots=True)
class ForceLaw:
    """Per-body coefficients of the law, as views of the live rows."""

    gravity: Array
    stiffness: Array
    damping: Array
    rest: Array

    @classmethod
    def of(cls, bodies: LiveBodies) -> ForceLaw:
        return cls(bodies.gravity, bodies.stiffness, bodies.damping, bodies.rest)

    def acceleration(self, position: Array, velocity: Array, out: Array, scratch: Array) -> Array:
        """Write the acceleration of every body at this position and velocity into `out`."""
        np.subtract(position, self.rest, out=out)  # displacement from rest
        np.multiply(out, self.stiffness, out=out)
        np.negative(out, out=out)  # the spring pulls back
        np.multiply(velocity, self.damping, out=scratch)
        np.subtract(out, scratch, out=out)  # damping opposes the motion
        np.add(out[1], self.gravity, out=out[1])
        return out
