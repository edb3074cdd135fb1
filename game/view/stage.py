"""`Stage`: what never moves (sky, metre grid, ground, cannon), painted once per window size.

Painting a gradient and a grid takes far longer than blitting the finished picture
(BENCHMARKS.md, "Why the code looks like this"). So the stage is painted when the target rect
changes size and otherwise copied, and per frame the scene's work is the bodies alone.

The grid is in metres (a faint line every metre, a stronger one every five, labelled), because
the lesson is about distances: a ghost ring half a grid square from its ball is an integration
error of half a metre.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pygame

from game.view import arena_colours
from game.view.camera import Camera
from game.view.raster import Canvas, Colour, shaded
from game.world.settings import CannonSettings, WorldSettings

Image = npt.NDArray[np.float64]
"""An RGB picture indexed [x, y, channel], as `pygame.surfarray` wants it."""

BARREL_REACH_M = 1.3
"""How far the barrel reaches past the pivot, metres (a shot appears at the pivot, inside it)."""


class Stage:
    """The backdrop and the cannon for one world's settings, cached per size in pixels."""

    def __init__(self, settings: WorldSettings) -> None:
        self.settings = settings
        self._backdrop: pygame.Surface | None = None
        self._backdrop_size = (0, 0)
        self._cannon: pygame.Surface | None = None
        self._cannon_centre = (0.0, 0.0)
        self._cannon_scale = 0.0

    def draw_backdrop(
        self, surface: pygame.Surface, camera: Camera, only: list[pygame.Rect] | None = None
    ) -> None:
        """Sky, grid, ground and labels over the whole of the camera's rect, or `only` over
        those parts of it (window pixels within the rect), when the rest is there already."""
        left, top, width, height = camera.rect
        if self._backdrop is None or self._backdrop_size != (width, height):
            self._backdrop = paint_backdrop(self.settings, width, height)
            self._backdrop_size = (width, height)
            only = None
        if only is None:
            surface.blit(self._backdrop, (left, top))
            return
        backdrop = self._backdrop
        surface.blits([(backdrop, part, part.move(-left, -top)) for part in only], False)

    def draw_cannon(self, surface: pygame.Surface, camera: Camera) -> pygame.Rect:
        """The cannon on its post, at its settings' place and aim; returns where it went."""
        if self._cannon is None or self._cannon_scale != camera.scale:
            self._cannon, self._cannon_centre = paint_cannon(self.settings.cannon, camera.scale)
            self._cannon_scale = camera.scale
        cannon = self.settings.cannon
        px, py = camera.point_to_screen(cannon.x, cannon.y)
        centre_x, centre_y = self._cannon_centre
        corner = (px - round(centre_x), py - round(centre_y))
        return surface.blit(self._cannon, corner, special_flags=pygame.BLEND_PREMULTIPLIED)


def paint_backdrop(settings: WorldSettings, width: int, height: int) -> pygame.Surface:
    """The arena fitted into a `width` x `height` picture, with its letterbox."""
    camera = Camera(settings.arena_width, settings.arena_height, (0, 0, width, height))
    metres_x, _ = camera.to_world(np.arange(width) + 0.5, 0.0)
    _, metres_y = camera.to_world(0.0, np.arange(height) + 0.5)
    altitude = np.clip(metres_y / settings.arena_height, 0.0, 1.0) ** 0.8
    sky = _mix(arena_colours.SKY_HORIZON, arena_colours.SKY_TOP, altitude)
    image: Image = np.repeat(sky[None, :, :], width, axis=0)
    beside = (metres_x < 0.0) | (metres_x > settings.arena_width)
    image[beside] *= arena_colours.OUTSIDE_DIM
    depth = np.clip(-metres_y[metres_y < 0.0] / 3.0, 0.0, 1.0)
    image[:, metres_y < 0.0] = _mix(arena_colours.EARTH, arena_colours.LETTERBOX, depth)
    inside = _arena_slices(camera)
    _draw_grid(image, camera, inside)
    _draw_ground(image, camera, inside[0])
    _darken_corners(image)
    picture = pygame.surfarray.make_surface(np.clip(np.rint(image), 0, 255).astype(np.uint8))
    if pygame.display.get_surface() is not None:
        picture = picture.convert()
    _draw_labels(picture, camera)
    return picture


def _mix(low: Colour, high: Colour, amount: npt.NDArray[np.float64]) -> Image:
    """Per entry of `amount` (0 to 1), the colour that far from `low` to `high`."""
    a, b = np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)
    mixed: Image = a + (b - a) * amount[:, None]
    return mixed


def _arena_slices(camera: Camera) -> tuple[slice, slice]:
    left, top, width, height = camera.arena_rect
    return slice(left, left + width), slice(top, top + height)


def _blend(pixels: Image, colour: Colour, alpha: float) -> None:
    pixels *= 1.0 - alpha
    pixels += np.asarray(colour, dtype=np.float64) * alpha


def _draw_grid(image: Image, camera: Camera, inside: tuple[slice, slice]) -> None:
    """A line every metre across the arena, stronger every five."""
    columns, rows = inside
    for metre in range(1, math.ceil(camera.arena_width)):
        px, _ = camera.to_screen(metre, 0.0)
        alpha = arena_colours.GRID_MAJOR_ALPHA if metre % 5 == 0 else arena_colours.GRID_MINOR_ALPHA
        column = min(max(int(px), 0), image.shape[0] - 1)  # a tiny arena rounds onto its edge
        _blend(image[column, rows], arena_colours.GRID_COLOUR, alpha)
    for metre in range(1, math.ceil(camera.arena_height)):
        _, py = camera.to_screen(0.0, metre)
        alpha = arena_colours.GRID_MAJOR_ALPHA if metre % 5 == 0 else arena_colours.GRID_MINOR_ALPHA
        row = min(max(int(py), 0), image.shape[1] - 1)
        _blend(image[columns, row], arena_colours.GRID_COLOUR, alpha)


def _draw_ground(image: Image, camera: Camera, columns: slice) -> None:
    """A bright ground line at y = 0 with a soft glow above it, where projectiles end."""
    ground = round(camera.ground_y)
    glow = max(2, round(camera.pixels(0.6)))
    for above in range(glow):
        row = ground - 1 - above
        if row >= 0:
            _blend(image[columns, row], arena_colours.GROUND_LINE, 0.16 * (1.0 - above / glow) ** 2)
    for row in (ground - 2, ground - 1):
        if row >= 0:
            _blend(image[columns, row], arena_colours.GROUND_LINE, 0.85)


def _darken_corners(image: Image) -> None:
    """A soft vignette: the corners a little darker than the middle, where the action is."""
    width, height = image.shape[:2]
    across = np.linspace(-1.0, 1.0, width)[:, None]
    down = np.linspace(-1.0, 1.0, height)[None, :]
    image *= (1.0 - arena_colours.VIGNETTE * (across**2 + down**2) / 2.0)[..., None]


def _draw_labels(picture: pygame.Surface, camera: Camera) -> None:
    """Metre labels on the major grid lines: along the ground, and up the left edge."""
    if not pygame.font.get_init():
        pygame.font.init()
    size = max(11, min(18, round(camera.pixels(0.36))))
    font = pygame.font.Font(None, size)
    gap = max(2, size // 4)
    ground = camera.ground_y - 2
    for metre in range(5, math.ceil(camera.arena_width), 5):
        px, _ = camera.to_screen(metre, 0.0)
        text = font.render(f"{metre} m", True, arena_colours.LABEL)
        picture.blit(text, (int(px) + gap, round(ground) - text.get_height() - gap))
    for metre in range(5, math.ceil(camera.arena_height), 5):
        _, py = camera.to_screen(0.0, metre)
        text = font.render(f"{metre} m", True, arena_colours.LABEL)
        picture.blit(text, (round(camera.origin_x) + gap, int(py) + gap))


def paint_cannon(
    cannon: CannonSettings, scale: float
) -> tuple[pygame.Surface, tuple[float, float]]:
    """The cannon at `scale` px/m: a post from the ground to its pivot, a barrel at its angle.

    Returns the sprite and the pixel of it that sits on the pivot.
    """
    reach = math.ceil(BARREL_REACH_M * scale) + 2
    post = math.ceil(cannon.y * scale) + 1
    canvas = Canvas(2 * reach, reach + post, centre=(reach, reach))
    m = scale  # pixels per metre, short for the dimensions below
    ground_v = -cannon.y * m
    # The post: a trapezoid from a base plate on the ground up to the pivot, lit from the left.
    rise = np.clip((canvas.v - ground_v) / max(1.0, -ground_v), 0.0, 1.0)
    half_width = (0.42 - 0.22 * rise) * m
    post_shape = (canvas.v <= 0.0) & (canvas.v >= ground_v) & (np.abs(canvas.u) <= half_width)
    side_light = np.clip(0.6 - 0.4 * canvas.u / np.maximum(half_width, 1.0), 0.0, 1.0)
    canvas.paint(post_shape, shaded(arena_colours.CANNON_DARK, side_light, ambient=0.7))
    plate = (
        (canvas.v >= ground_v) & (canvas.v <= ground_v + 0.14 * m) & (np.abs(canvas.u) <= 0.7 * m)
    )
    canvas.paint(plate, arena_colours.CANNON)
    # The barrel: a tapered tube along the aim, rounded at the breech, banded at the muzzle.
    along, across = canvas.turned(math.radians(cannon.angle_deg))
    taper = np.clip((along + 0.35 * m) / (1.6 * m), 0.0, 1.0)
    radius = (0.25 - 0.06 * taper) * m
    tube = (along >= -0.35 * m) & (along <= BARREL_REACH_M * m) & (np.abs(across) <= radius)
    normal = np.clip(across / np.maximum(radius, 1.0), -1.0, 1.0)
    roundness = np.sqrt(1.0 - normal * normal)
    light = np.clip(0.25 + 0.55 * roundness + 0.35 * normal, 0.0, 1.0)
    canvas.paint(tube, shaded(arena_colours.CANNON, light, ambient=0.35))
    breech = np.hypot(along + 0.35 * m, across) <= 0.25 * m
    canvas.paint(breech & (along < -0.35 * m), shaded(arena_colours.CANNON, light, ambient=0.35))
    muzzle_band = (along >= (BARREL_REACH_M - 0.16) * m) & (along <= BARREL_REACH_M * m)
    canvas.paint(
        muzzle_band & (np.abs(across) <= radius + 0.04 * m),
        shaded(arena_colours.CANNON_BAND, light, ambient=0.5),
    )
    # The hub the barrel turns on.
    distance = canvas.radius()
    canvas.paint(
        distance <= 0.3 * m,
        shaded(arena_colours.CANNON_DARK, np.clip(0.5 + canvas.v / (0.6 * m), 0.0, 1.0)),
    )
    canvas.paint(distance <= max(1.0, 0.11 * m), arena_colours.CANNON_BAND)
    sprite = canvas.surface()
    if pygame.display.get_surface() is not None:
        sprite = sprite.convert_alpha()
    return sprite, (float(reach), float(reach))
