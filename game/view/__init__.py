"""The scene on screen: a world's read-only `RenderView` turned into pixels with pygame.

`Camera` maps metres to pixels and back (for mouse clicks).
"""

from game.view.camera import Camera

__all__ = ["Camera"]
