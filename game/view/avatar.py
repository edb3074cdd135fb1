"""The avatar drawn in its arena: a small runner with a facing eye, and a ghost of its jump.

It is drawn where the world's avatar is `alpha` of the way from its previous tick to its
current one (interpolated like every body), standing on the arena's ground. A jump is easy to
judge by eye against the faint marks of the heights one and two jumps reach.
"""

from __future__ import annotations

import pygame

from game.view.camera import Camera
from game.world.avatar import AVATAR, Avatar

BODY = (255, 196, 64)
JOINER_BODY = (96, 200, 255)
"""The second avatar's colour, in a match: the joiner's."""
EYE = (20, 24, 36)
MARK = (90, 96, 120)


def draw_avatar(
    surface: pygame.Surface,
    camera: Camera,
    avatar: Avatar,
    alpha: float,
    interpolate: bool,
    body: tuple[int, int, int] = BODY,
) -> pygame.Rect:
    """Draw `avatar` through `camera`, and the one-jump and two-jump heights above it; returns
    the pixels it drew over."""
    x, y = avatar.pose(alpha, interpolate)
    width = max(4, round(camera.pixels(AVATAR.width)))
    height = max(6, round(camera.pixels(AVATAR.height)))
    left, feet = camera.point_to_screen(x - AVATAR.width / 2, y)
    drawn = []
    for jumps in (1, 2):
        _, mark = camera.point_to_screen(0.0, jumps * AVATAR.jump_height + AVATAR.height)
        start, end = (left - width // 2, mark), (left + width * 3 // 2, mark)
        drawn.append(pygame.draw.line(surface, MARK, start, end))
    shape = pygame.Rect(left, feet - height, width, height)
    drawn.append(pygame.draw.rect(surface, body, shape, border_radius=max(1, width // 4)))
    eye_x = shape.centerx + avatar.facing * width // 4
    eye = pygame.draw.circle(surface, EYE, (eye_x, shape.y + height // 3), max(1, width // 8))
    return eye.unionall(drawn)
