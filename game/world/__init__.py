"""The simulation: bodies in numpy arrays, fixed ticks, tick-stamped orders, render views.

Pure Python and numpy, never pygame: everything here runs and is tested without a display.
"""

from game.world.bodies import BodyKind
from game.world.integrators import INTEGRATORS
from game.world.orders import (
    Fire,
    Order,
    Reset,
    SetCannon,
    SetIntegrator,
    SpawnSpring,
    Teleport,
)
from game.world.render_view import InterpolationMode, RenderView
from game.world.scene import Scene, demo_scene
from game.world.settings import PRECISIONS, CannonSettings, WorldSettings
from game.world.world import World, demo_world

__all__ = [
    "INTEGRATORS",
    "PRECISIONS",
    "BodyKind",
    "CannonSettings",
    "Fire",
    "InterpolationMode",
    "Order",
    "RenderView",
    "Reset",
    "Scene",
    "SetCannon",
    "SetIntegrator",
    "SpawnSpring",
    "Teleport",
    "World",
    "WorldSettings",
    "demo_scene",
    "demo_world",
]
