"""`PlayerOrders`: what a player's actions on the world become, orders stamped with the tick
they apply to, in every lane.

A key never touches a world. Space, a click, R, K and a right-drag each become an order (`Fire`,
`Reset`, `SetCannon`, `Teleport`) stamped for the tick the lane runs next, in every lane alike (the
split screen's lanes share their inputs), and this is the one place an order reaches a world: it
is submitted there, told to rollback (lane 0 against a remote peer) and to the recorder, so a
replay at any render rate stamps the same orders at the same ticks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

from game.session.aim import launch_velocity
from game.session.lane import Lane
from game.session.rollback import Rollback
from game.world.orders import Fire, Order, Reset, SetCannon, Teleport

OrderLog = Callable[[int, Order], None]
"""Told about every order the session stamps: the lane it went to, and the order."""

TickRateLog = Callable[[int, Fraction], None]
"""Told when the tick rate changes: the next tick of lane 0 (the main world), and the new rate.
A tick's dt is part of the physics, so a recording must know from which tick on it changed."""


class PlayerOrders:
    """Stamps orders into the lanes' worlds, and turns a player's world actions into them."""

    def __init__(
        self,
        lanes: Sequence[Lane],
        on_order: OrderLog | None = None,
    ) -> None:
        self._lanes = lanes
        """The session's lanes, as they are now (the same list: a split adds a lane to it)."""
        self.rollback: Rollback | None = None
        """Lane 0's rollback against a remote peer, told of every order lane 0 gets, or None.
        The session sets it (its own `rollback` is this attribute): the orders hold no reference
        back to the session, so a run leaves no reference cycle for the collector."""
        self.on_order = on_order

    def stamp(self, order: Order, lane_index: int = 0) -> None:
        """Submit `order` to a lane's world, and tell rollback and the recorder."""
        world = self._lanes[lane_index].world
        world.submit(order)
        rollback = self.rollback
        if lane_index == 0 and rollback is not None:
            rollback.submitted(world.tick, order)
        if self.on_order is not None:
            self.on_order(lane_index, order)

    def fire(self, x: float | None, y: float | None) -> None:
        """Space fires along the cannon's aim; a click fires through the clicked point."""
        for index, lane in enumerate(self._lanes):
            world = lane.world
            cannon = world.settings.cannon
            if x is None or y is None:
                angle = math.radians(cannon.angle_deg)
                vx, vy = cannon.speed * math.cos(angle), cannon.speed * math.sin(angle)
            else:
                vx, vy = launch_velocity(
                    x - cannon.x,
                    y - cannon.y,
                    speed=cannon.speed * 1.2,
                    gravity=world.settings.gravity,
                )
            shot = Fire(tick=world.tick, x=cannon.x, y=cannon.y, vx=vx, vy=vy, spin=cannon.spin)
            self.stamp(shot, index)

    def reset(self) -> str:
        """R: the scene back as it started, in every lane (no smear)."""
        for index, lane in enumerate(self._lanes):
            self.stamp(Reset(tick=lane.world.tick), index)
        return "scene reset"

    def toggle_cannon(self) -> str:
        """K: the cannon off, or on again, in every lane; what is in flight stays."""
        on = not self._lanes[0].world.cannon_on
        for index, lane in enumerate(self._lanes):
            self.stamp(SetCannon(tick=lane.world.tick, enabled=on), index)
        return "cannon on" if on else "cannon off: the arena keeps what is in flight"

    def teleport(self, body_id: int, x: float, y: float, smear: bool) -> str:
        """Move a body to (x, y) at the next tick, in every lane (the same body in each).
        Returns what the screen should say."""
        for index, lane in enumerate(self._lanes):
            move = Teleport(tick=lane.world.tick, body_id=body_id, x=x, y=y, smear=smear)
            self.stamp(move, index)
        if smear:
            return "teleported without resetting the previous state: see the smear (J: fix it)"
        return "teleported: both states moved, so it jumps (J: show the smear)"
