"""The translucent plate behind every HUD block, so text reads over any scene.

Built once per size and kept by its owner, so a frame blits it and never draws it again
(BENCHMARKS.md, "Why the code looks like this").
"""

from __future__ import annotations

import pygame

from game.hud.hud_colours import PLATE, PLATE_EDGE, RGB, RGBA


def make_plate(
    size: tuple[int, int], radius: int, fill: RGBA = PLATE, edge: RGBA = PLATE_EDGE
) -> pygame.Surface:
    """A rounded translucent rectangle with a faint edge, `size` pixels."""
    plate = pygame.Surface(size, pygame.SRCALPHA)
    rect = plate.get_rect()
    pygame.draw.rect(plate, fill, rect, border_radius=radius)
    pygame.draw.rect(plate, edge, rect, width=1, border_radius=radius)
    return plate


def flattened(
    picture: pygame.Surface,
    backdrop: RGB,
    like: pygame.Surface,
    reuse: pygame.Surface | None = None,
) -> pygame.Surface:
    """`picture` blended once onto a plain `backdrop`, as an opaque Surface in `like`'s pixel
    format (the window's); `reuse` is written over instead of a new Surface when it fits.

    Blitting it where the window is that plain colour gives exactly the pixels that blending
    `picture` there would give (the same blend, of the same pixels, in the same format, done
    once), at the cost of a copy: a 400x700 panel's blend costs about three times its copy
    (BENCHMARKS.md, "Why the code looks like this").
    """
    flat = reuse
    if flat is None or flat.get_size() != picture.get_size() or not same_format(flat, like):
        flat = pygame.Surface(picture.get_size(), 0, like)
    flat.fill(backdrop)
    flat.blit(picture, (0, 0))
    return flat


def same_format(one: pygame.Surface, other: pygame.Surface) -> bool:
    """Whether two Surfaces store pixels alike (a flattened picture is only exact in the format
    it was blended in: after a change of window, it is blended again)."""
    return one.get_bitsize() == other.get_bitsize() and one.get_masks() == other.get_masks()
