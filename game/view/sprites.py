"""Pre-rendered sprites: every body drawn at every angle once, so a frame is only lookups.

Rotating a sprite per body per frame (`transform.rotate`) is slow (BENCHMARKS.md, "Render: 5,000
projectiles") and blurs the picture; drawing circles per body cannot show rotation at all.
Instead each body sprite is painted at `FRAMES` angles when its pixel size is first needed, and a
body turned by `angle` is drawn with frame `rint(angle / (2 pi / FRAMES)) % FRAMES`: an array
lookup for 5,000 bodies at once. Sizes change when the window does, so sprites are cached per
size in pixels, once for the whole process.

The sprites hold premultiplied alpha (see `raster.Canvas.surface`): blit them with
`pygame.BLEND_PREMULTIPLIED`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pygame

from game.view import arena_colours
from game.view.raster import Canvas, Colour, highlight, shaded, sphere_light

FRAMES = 32
"""Angles per body sprite: 11.25 degrees apart, finer than the eye can follow on a spinning
ball of 16 pixels."""
ANGLE_STEP = 2.0 * math.pi / FRAMES

Indices = npt.NDArray[np.intp]


def frame_index(angle: npt.NDArray[Any], frames: int = FRAMES) -> Indices:
    """The frame drawn for each angle: the nearest of `frames` evenly spaced angles.

    Angle 0 is frame 0; a quarter turn is frame frames/4; any whole number of turns, or a
    negative angle, lands on the same frame as its angle in [0, 2 pi).
    """
    step = 2.0 * math.pi / frames
    nearest = np.rint(np.asarray(angle, dtype=np.float64) / step).astype(np.intp)
    index: Indices = nearest % frames
    return index


@dataclass(frozen=True, slots=True, eq=False)
class SpriteSet:
    """One or more same-size sprites (angle frames, or fading levels) and where their centre is.

    `table` holds the same surfaces as a numpy object array, so picking 5,000 of them by an
    index array is one fancy-indexing call instead of a Python loop.
    """

    surfaces: tuple[pygame.Surface, ...]
    table: npt.NDArray[np.object_]
    half: int
    """Pixels from a sprite's top-left corner to its centre (the same along x and y)."""

    @classmethod
    def of(cls, surfaces: list[pygame.Surface]) -> SpriteSet:
        """Square sprites of one size, centred: the half-size is read from the first."""
        sizes = {surface.get_size() for surface in surfaces}
        if len(sizes) != 1 or len({*sizes.pop()}) != 1:
            raise ValueError("a sprite set holds square sprites of one size")
        table = np.empty(len(surfaces), dtype=object)
        table[:] = surfaces
        return cls(tuple(surfaces), table, surfaces[0].get_width() // 2)

    def pick(self, index: Indices) -> list[pygame.Surface]:
        """The sprite for each index, as a list ready to zip with positions for `fblits`."""
        picked: list[pygame.Surface] = self.table[index].tolist()
        return picked


def _ready(surface: pygame.Surface) -> pygame.Surface:
    """In the display's pixel format when there is a display (a blit then needs no conversion)."""
    if pygame.display.get_surface() is not None:
        return surface.convert_alpha()
    return surface


def _sized(radius: float) -> Canvas:
    """A square canvas with a pixel of margin around a body of `radius` px."""
    half = math.ceil(radius) + 1
    return Canvas(2 * half, 2 * half)


def paint_projectile(radius: int, angle: float) -> pygame.Surface:
    """An amber ball with a seam across it and a bright nose on the seam, facing `angle`."""
    canvas = _sized(radius)
    r = float(radius)
    distance = canvas.radius()
    light = sphere_light(canvas, r)
    along, across = canvas.turned(angle)
    canvas.paint(distance <= r, shaded(arena_colours.PROJECTILE, light))
    canvas.paint(
        (np.abs(across) < max(0.55, 0.15 * r)) & (distance <= r),
        shaded(arena_colours.PROJECTILE_SEAM, light),
    )
    nose = np.hypot(along - 0.55 * r, across) < max(0.9, 0.24 * r)
    canvas.paint(nose, arena_colours.PROJECTILE_NOSE)
    canvas.paint(
        (distance > r - max(0.8, 0.12 * r)) & (distance <= r), arena_colours.PROJECTILE_RIM, 0.85
    )
    canvas.paint(highlight(canvas, r), (255, 255, 255), 0.35)
    return canvas.surface()


def paint_bob(radius: int, angle: float) -> pygame.Surface:
    """A teal ball with three spokes and a pin: a spring's bob, whose spin the spokes show."""
    canvas = _sized(radius)
    r = float(radius)
    distance = canvas.radius()
    light = sphere_light(canvas, r)
    canvas.paint(distance <= r, shaded(arena_colours.BOB, light))
    width = max(0.6, 0.11 * r)
    for spoke in range(3):
        along, across = canvas.turned(angle + spoke * 2.0 * math.pi / 3.0)
        arm = (along > 0) & (np.abs(across) < width) & (distance < 0.78 * r)
        canvas.paint(arm, shaded(arena_colours.BOB_SPOKE, light))
    canvas.paint(distance < max(1.0, 0.2 * r), arena_colours.BOB_HUB)
    canvas.paint((distance > r - max(0.8, 0.1 * r)) & (distance <= r), arena_colours.BOB_RIM, 0.9)
    canvas.paint(highlight(canvas, r), (255, 255, 255), 0.3)
    return canvas.surface()


def paint_ghost(radius: int) -> pygame.Surface:
    """A hollow lilac ring around a body of `radius` px: where exact physics puts the body.

    The ring is a little larger than the body, so that with no error at all it still shows,
    circling the ball with a thin gap.
    """
    ring = radius + max(1.5, 0.3 * radius)
    canvas = _sized(ring)
    distance = canvas.radius()
    thickness = max(1.1, 0.14 * ring)
    canvas.paint(distance <= ring - thickness, arena_colours.GHOST, 0.1)
    canvas.paint((distance > ring - thickness) & (distance <= ring), arena_colours.GHOST, 0.95)
    return canvas.surface()


def paint_tick_marker(size: int) -> pygame.Surface:
    """A small pink diamond with a dark edge: where the last tick really left the body."""
    canvas = _sized(size)
    diamond = np.abs(canvas.u) + np.abs(canvas.v)
    canvas.paint(diamond <= size, (40, 8, 24), 0.8)
    canvas.paint(diamond <= size - max(0.8, 0.25 * size), arena_colours.TICK_MARKER)
    return canvas.surface()


def paint_dot(radius: float, colour: Colour, opacity: float, room: int) -> pygame.Surface:
    """A round dot (one step of a trail) on a canvas sized for a body of `room` px."""
    canvas = _sized(room)
    canvas.paint(canvas.radius() <= radius, colour, opacity)
    return canvas.surface()


_PAINTED: dict[Hashable, SpriteSet] = {}
"""Every book's sprites, for the whole process: the same sprite is painted once however many
books ask for it (a handout's worker films a dozen clips, each with its own window and book:
32 rotations of a ball cost 45 ms to paint). Keyed by what decides the pixels: the kind and
its arguments, the frame count, and the display's pixel format (`_ready` converts to it)."""


def _display_format() -> Hashable:
    screen = pygame.display.get_surface()
    return None if screen is None else (screen.get_bitsize(), screen.get_masks())


class SpriteBook:
    """Every sprite the scene draws, painted on first use and kept per pixel size.

    Every book in the process draws from one store (`_PAINTED`), so two renderers (the split
    screen) or two films in a row paint a sprite once. Sizes come and go as a window is
    dragged, so a book trims the store to the `keep` most recently used entries.
    """

    def __init__(self, frames: int = FRAMES, keep: int = 64) -> None:
        if frames < 1 or keep < 1:
            raise ValueError(f"frames and keep must be at least 1 (got {frames}, {keep})")
        self.frames = frames
        self.keep = keep

    def projectile(self, radius: int) -> SpriteSet:
        """A projectile of `radius` px at each of `frames` angles."""
        return self._rotations("projectile", radius, paint_projectile)

    def bob(self, radius: int) -> SpriteSet:
        """A spring bob of `radius` px at each of `frames` angles."""
        return self._rotations("bob", radius, paint_bob)

    def ghost(self, radius: int) -> SpriteSet:
        """The analytic ghost ring for a body of `radius` px."""
        return self._cached(("ghost", radius), lambda: [paint_ghost(radius)])

    def tick_marker(self, size: int) -> SpriteSet:
        """The raw-tick marker, `size` px from its centre to a corner."""
        return self._cached(("marker", size), lambda: [paint_tick_marker(size)])

    def trail(self, radius: int, colour: Colour, length: int) -> SpriteSet:
        """`length` trail dots for a body of `radius` px, newest first: each fainter and
        smaller than the one before, so a trail fades out towards its tail."""

        def paint() -> list[pygame.Surface]:
            dots = []
            for age in range(length):
                youth = 1.0 - age / length
                dots.append(
                    paint_dot(radius * (0.4 + 0.4 * youth), colour, 0.75 * youth**1.2, radius)
                )
            return dots

        return self._cached(("trail", radius, colour, length), paint)

    def _rotations(
        self, name: str, radius: int, paint: Callable[[int, float], pygame.Surface]
    ) -> SpriteSet:
        def turns() -> list[pygame.Surface]:
            return [
                paint(radius, frame * 2.0 * math.pi / self.frames) for frame in range(self.frames)
            ]

        return self._cached((name, radius), turns)

    def _cached(self, what: Hashable, paint: Callable[[], list[pygame.Surface]]) -> SpriteSet:
        key = (what, self.frames, _display_format())
        found = _PAINTED.pop(key, None)  # popped and put back: the dict order is recency
        if found is None:
            found = SpriteSet.of([_ready(surface) for surface in paint()])
        _PAINTED[key] = found
        while len(_PAINTED) > self.keep:
            del _PAINTED[next(iter(_PAINTED))]
        return found
