"""The simulation: bodies in numpy arrays, fixed ticks, tick-stamped commands, render views.

Pure Python and numpy, never pygame: everything here runs and is tested without a display.
"""

from game.world.bodies import BodyKind
from game.world.commands import (
    Command,
    Fire,
    Reset,
    SetCannon,
    SetIntegrator,
    SpawnSpring,
    Teleport,
)
from game.world.integrators import INTEGRATORS
from game.world.scene import Scene, default_scene, demo_scene
from game.world.settings import PRECISIONS, CannonSettings, WorldSettings
from game.world.view import InterpolationMode, RenderView
from game.world.world import World

__all__ = [
    "INTEGRATORS",
    "PRECISIONS",
    "BodyKind",
    "CannonSettings",
    "Command",
    "Fire",
    "InterpolationMode",
    "RenderView",
    "Reset",
    "Scene",
    "SetCannon",
    "SetIntegrator",
    "SpawnSpring",
    "Teleport",
    "World",
    "WorldSettings",
    "default_scene",
    "demo_scene",
]
