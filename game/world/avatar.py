"""The avatar: a small runner the player steers, stepped by the fixed tick like every body.

It exists to make the input side of the fixed step visible. Each tick it is handed what that
tick consumed (an `AvatarInput` order: the run direction held, and how many jump and dash
presses), so what it does depends on ticks and orders only, never on frames, and a replay
reproduces it at any render rate.

Each press adds its full effect, so a lost press is no jump at all and a doubled one is plain to
see: a jump adds `jump_height` to the height it will reach (two presses on consecutive ticks,
about twice as high), a dash adds `dash_distance` of travel (two, twice as far). A jump press
acts on the ground, or within `jump_window_s` of leaving it: long enough for the ticks of one
frame to double it, too short for tapping in mid-air to climb out of the arena.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from game.world.checks import whole_number


@dataclass(frozen=True, slots=True)
class AvatarSettings:
    """How the avatar moves (metres, seconds). Its own gravity is stronger than the
    projectiles': a game character's jump is snappier than a ballistic arc."""

    run_speed: float = 6.0
    jump_height: float = 2.5
    dash_distance: float = 4.0
    dash_speed: float = 24.0
    gravity: float = 30.0
    jump_window_s: float = 0.15
    width: float = 0.7
    height: float = 1.1


AVATAR = AvatarSettings()


@dataclass(frozen=True, slots=True)
class AvatarInput:
    """What one tick of the avatar consumed: the run direction held from this tick on (-1 left,
    0 still, 1 right), and the jump and dash presses it acts on.

    The session stamps one for a tick only when something changed (a press, or the run key),
    so a recording holds what each tick saw, not every tick.
    """

    tick: int
    run: int = 0
    jumps: int = 0
    dashes: int = 0

    def __post_init__(self) -> None:
        whole_number(self.tick, "AvatarInput.tick")
        if isinstance(self.run, bool) or self.run not in (-1, 0, 1):
            raise ValueError(f"AvatarInput.run must be -1, 0 or 1 (got {self.run!r})")
        whole_number(self.jumps, "AvatarInput.jumps")
        whole_number(self.dashes, "AvatarInput.dashes")

    def points(self) -> tuple[tuple[str, float, float], ...]:
        return ()


@dataclass(frozen=True, slots=True)
class JoinerInput:
    """`AvatarInput` for the second avatar, the joiner's, which only a match's world has
    (`World.add_joiner`): another order, so that no order of a world without it changes."""

    tick: int
    run: int = 0
    jumps: int = 0
    dashes: int = 0

    def __post_init__(self) -> None:
        whole_number(self.tick, "JoinerInput.tick")
        if isinstance(self.run, bool) or self.run not in (-1, 0, 1):
            raise ValueError(f"JoinerInput.run must be -1, 0 or 1 (got {self.run!r})")
        whole_number(self.jumps, "JoinerInput.jumps")
        whole_number(self.dashes, "JoinerInput.dashes")

    def points(self) -> tuple[tuple[str, float, float], ...]:
        return ()


@dataclass(frozen=True, slots=True)
class Avatar:
    """The avatar's state after a tick, and where it was before it (for interpolation)."""

    x: float
    y: float = 0.0
    vy: float = 0.0
    run: int = 0
    facing: int = 1
    dash_left: float = 0.0
    """Dash travel still to cover, metres."""
    air_s: float = 0.0
    """Simulated seconds since it left the ground (0 on the ground)."""
    previous_x: float | None = None
    previous_y: float = 0.0

    def given(self, order: AvatarInput | JoinerInput, settings: AvatarSettings = AVATAR) -> Avatar:
        """This state with a tick's input applied: the run level set, each press added."""
        vy = self.vy
        if self.y <= 0.0 or self.air_s < settings.jump_window_s:
            for _ in range(order.jumps):
                vy = math.sqrt(max(vy, 0.0) ** 2 + 2.0 * settings.gravity * settings.jump_height)
        facing = order.run or self.facing
        dash_left = self.dash_left + order.dashes * settings.dash_distance
        return replace(self, vy=vy, run=order.run, facing=facing, dash_left=dash_left)

    def stepped(self, dt: float, arena_width: float, settings: AvatarSettings = AVATAR) -> Avatar:
        """One tick of `dt` seconds (semi-implicit Euler), kept on the ground and in the arena."""
        dash = min(self.dash_left, settings.dash_speed * dt)
        half = settings.width / 2
        x = self.x + (self.run * settings.run_speed * dt) + self.facing * dash
        x = min(max(x, half), arena_width - half)
        vy = self.vy - settings.gravity * dt
        y = self.y + vy * dt
        air_s = self.air_s + dt
        if y <= 0.0:
            y, vy, air_s = 0.0, 0.0, 0.0
        # Built directly, not with `replace`: this runs every tick.
        return Avatar(x, y, vy, self.run, self.facing, self.dash_left - dash, air_s, self.x, self.y)

    def pose(self, alpha: float, interpolate: bool) -> tuple[float, float]:
        """Where to draw it `alpha` of the way from the previous tick to this one (or where it
        is now, when the picture is not interpolated)."""
        if not interpolate or self.previous_x is None:
            return self.x, self.y
        return (
            self.previous_x + (self.x - self.previous_x) * alpha,
            self.previous_y + (self.y - self.previous_y) * alpha,
        )
