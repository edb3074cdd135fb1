"""Aiming a shot: the launch velocity that sends a projectile through a clicked point.

With a fixed launch speed v, gravity g and a target (dx, dy) from the muzzle, the angle solves
tan(theta) = (v^2 - sqrt(v^4 - g (g dx^2 + 2 dy v^2))) / (g dx) (the low, flat arc). Out of
reach, the shot goes at 45 degrees towards the target, which still flies the farthest.
"""

from __future__ import annotations

import math


def launch_velocity(dx: float, dy: float, *, speed: float, gravity: float) -> tuple[float, float]:
    """Velocity (vx, vy) of a shot at `speed` that passes through (dx, dy) from the muzzle."""
    if speed <= 0:
        raise ValueError(f"speed must be positive (got {speed})")
    direction = 1.0 if dx >= 0 else -1.0
    reach = abs(dx)
    if gravity <= 0 or reach < 1e-9:
        length = math.hypot(dx, dy) or 1.0
        return speed * dx / length if reach else 0.0, speed * (dy / length if reach else 1.0)
    v2 = speed * speed
    discriminant = v2 * v2 - gravity * (gravity * reach * reach + 2.0 * dy * v2)
    if discriminant < 0:
        angle = math.pi / 4
    else:
        angle = math.atan2(v2 - math.sqrt(discriminant), gravity * reach)
    return direction * speed * math.cos(angle), speed * math.sin(angle)
