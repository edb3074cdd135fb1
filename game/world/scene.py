"""Scenes: what a world holds at the start, and what `Reset` brings back.

A scene is a list of spawn orders plus the cannon switch. Building it from the same orders a
player sends means one code path (and one set of checks) puts bodies in the world, whether it is
tick 0, a reset at tick 9,000, or a click.

The demo scene is the one the game opens with: four springs side by side, soft to stiff, one of
them damped and two of them spinning, the cannon on, and the avatar on the ground. Switch to
explicit Euler and watch the stiff one blow up first.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.world.orders import Fire, SpawnSpring
from game.world.settings import WorldSettings


@dataclass(frozen=True, slots=True)
class Scene:
    """Bodies to spawn (their ticks are ignored: a scene is placed at whatever tick it loads)."""

    springs: tuple[SpawnSpring, ...] = ()
    projectiles: tuple[Fire, ...] = ()
    cannon_on: bool = False
    avatar_at: float | None = None
    """Where the avatar starts, standing on the ground (metres from the left); None: no avatar."""

    def __post_init__(self) -> None:
        if not all(isinstance(spring, SpawnSpring) for spring in self.springs):
            raise TypeError("Scene.springs must be a tuple of SpawnSpring commands")
        if not all(isinstance(shot, Fire) for shot in self.projectiles):
            raise TypeError("Scene.projectiles must be a tuple of Fire commands")
        if not isinstance(self.cannon_on, bool):
            raise TypeError(f"Scene.cannon_on must be a bool (got {self.cannon_on!r})")


@dataclass(frozen=True, slots=True)
class _DemoSpring:
    """One spring of the demo: where along the arena, how stiff, how damped, how fast it spins."""

    across: float
    k: float
    damping: float
    spin: float


_DEMO_SPRINGS = (
    _DemoSpring(across=0.45, k=4.0, damping=0.0, spin=0.0),
    _DemoSpring(across=0.58, k=16.0, damping=0.0, spin=1.5),
    _DemoSpring(across=0.71, k=16.0, damping=0.8, spin=0.0),
    _DemoSpring(across=0.84, k=64.0, damping=0.0, spin=8.0),
)


def demo_scene(settings: WorldSettings | None = None) -> Scene:
    """The demo layout, scaled to the arena: mounts near the top, bobs pulled down to start."""
    settings = settings or WorldSettings()
    width, height = settings.arena_width, settings.arena_height
    springs = tuple(
        SpawnSpring(
            tick=0,
            anchor_x=round(spring.across * width, 2),
            anchor_y=round(0.95 * height, 2),
            k=spring.k,
            mass=1.0,
            damping=spring.damping,
            rest_length=round(0.28 * height, 2),
            offset=(0.0, -round(0.14 * height, 2)),
            spin=spring.spin,
        )
        for spring in _DEMO_SPRINGS
    )
    return Scene(springs=springs, cannon_on=True, avatar_at=round(0.25 * width, 2))
