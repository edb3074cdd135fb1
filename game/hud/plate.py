"""The translucent plate behind every HUD block, so text reads over any scene.

Built once per size and kept by its owner, so a frame blits it and never draws it again
(BENCHMARKS.md, "Why the code looks like this").
"""

from __future__ import annotations

import pygame

from game.hud.hud_colours import PLATE, PLATE_EDGE, RGBA


def make_plate(
    size: tuple[int, int], radius: int, fill: RGBA = PLATE, edge: RGBA = PLATE_EDGE
) -> pygame.Surface:
    """A rounded translucent rectangle with a faint edge, `size` pixels."""
    plate = pygame.Surface(size, pygame.SRCALPHA)
    rect = plate.get_rect()
    pygame.draw.rect(plate, fill, rect, border_radius=radius)
    pygame.draw.rect(plate, edge, rect, width=1, border_radius=radius)
    return plate
