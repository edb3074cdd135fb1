"""The world's cannon: from the settings and two random draws, the next shot.

The draws come from the world's own seeded generator, taken on every tick whether the cannon
fires or not, so the stream of numbers depends only on the tick: switching the cannon off and on
again, or rendering at another rate, never shifts a later shot.
"""

from __future__ import annotations

import math

from game.world.orders import Fire
from game.world.settings import CannonSettings


def fires_on(cannon: CannonSettings, tick: int) -> bool:
    """The cannon fires on every tick whose number is a multiple of `every_ticks`."""
    return tick % cannon.every_ticks == 0


def cannon_shot(cannon: CannonSettings, tick: int, angle_draw: float, speed_draw: float) -> Fire:
    """The shot for this tick; each draw in [-1, 1) scales its jitter."""
    angle = math.radians(cannon.angle_deg + cannon.angle_jitter_deg * angle_draw)
    speed = cannon.speed + cannon.speed_jitter * speed_draw
    return Fire(
        tick=tick,
        x=cannon.x,
        y=cannon.y,
        vx=speed * math.cos(angle),
        vy=speed * math.sin(angle),
        spin=cannon.spin,
    )
