"""The scene on screen: a world's read-only `RenderView` turned into pixels with pygame.

`Camera` maps metres to pixels and back (for mouse clicks), and `SpriteBook` holds every body
pre-rendered at every angle.
"""

from game.view.camera import Camera
from game.view.sprites import FRAMES, SpriteBook, frame_index

__all__ = ["FRAMES", "Camera", "SpriteBook", "frame_index"]
