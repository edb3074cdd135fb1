"""The scene on screen: a world's read-only `RenderView` turned into pixels with pygame.

`Camera` maps metres to pixels and back (for mouse clicks), `SpriteBook` holds every body
pre-rendered at every angle, and `WorldRenderer` draws a view into a rectangle of a surface
(the whole window, or one half of a split screen).
"""

from game.view.camera import Camera
from game.view.sprites import FRAMES, SpriteBook, frame_index
from game.view.world_renderer import (
    ALL_OVERLAYS,
    NO_OVERLAYS,
    Overlays,
    OverlaySwitches,
    WorldRenderer,
)

__all__ = [
    "ALL_OVERLAYS",
    "FRAMES",
    "NO_OVERLAYS",
    "Camera",
    "OverlaySwitches",
    "Overlays",
    "SpriteBook",
    "WorldRenderer",
    "frame_index",
]
