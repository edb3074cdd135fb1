"""A few bodies placed one by one in plain floats: the usual scene's handful of springs and shots.

For a view of a few bodies (`world_renderer.FEW_BODIES`) numpy's cost per call is many times
the arithmetic it does (some twenty-five small array operations a lane a frame: masks, fancy
indexing, conversions), so the view's columns are read into lists once (`Listed`) and each
body is placed in plain floats.
The pixels are the array path's: a point is `Camera.point_to_screen` (`to_screen`'s doubles
for one point), a size `round(radius * scale)` (`np.rint` also rounds half to even) and a
sprite frame `frame_index`'s rounding; `tests/test_view_world_renderer.py` draws both.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import pygame

from game.view.camera import Camera
from game.view.springs import Ends
from game.view.sprites import SpriteSet
from game.world.render_view import RenderView

Blit = tuple[pygame.Surface, tuple[int, int]]


class Listed(NamedTuple):
    """The columns of a view the bodies are drawn from, as plain lists, in view order."""

    kind: list[int]
    x: list[float]
    y: list[float]
    angle: list[float]
    size: list[int]
    """Each radius in whole pixels (as `WorldRenderer._radius_px` gives it)."""

    def rows_of(self, kind: int) -> list[int]:
        return [row for row, each in enumerate(self.kind) if each == kind]


def listed(view: RenderView, sizes: list[int]) -> Listed:
    """The view's kinds, positions and turns as lists, with the radii in pixels (`sizes`)."""
    return Listed(view.kind.tolist(), view.x.tolist(), view.y.tolist(), view.angle.tolist(), sizes)


def coil_ends(
    camera: Camera, view: RenderView, bodies: Listed, springs: list[int]
) -> tuple[list[list[int]], list[Ends]]:
    """The pixel of each mounted anchor, and each coil's two ends (an exploded bob, inf or
    NaN, has no coil; an exploded anchor has neither), for the springs at rows `springs`."""
    to_screen = camera.point_to_screen
    anchor_x, anchor_y = view.anchor_x.tolist(), view.anchor_y.tolist()
    mounts: list[list[int]] = []
    ends: list[Ends] = []
    for row in springs:
        ax, ay = anchor_x[row], anchor_y[row]
        if not (math.isfinite(ax) and math.isfinite(ay)):
            continue
        mount = to_screen(ax, ay)
        mounts.append(list(mount))
        bx, by = bodies.x[row], bodies.y[row]
        if math.isfinite(bx) and math.isfinite(by):
            ends.append((*mount, *to_screen(bx, by)))
    return mounts, ends


def turned(
    camera: Camera, bodies: Listed, rows: list[int], sprites_for: Callable[[int], SpriteSet]
) -> list[Blit]:
    """Each body at `rows` as the frame of its sprite nearest its turn, centred on its pixel
    (a body that blew up is left out)."""
    to_screen = camera.point_to_screen
    xs, ys, turns, sizes = bodies.x, bodies.y, bodies.angle, bodies.size
    blits: list[Blit] = []
    kinds: dict[int, tuple[SpriteSet, int, float]] = {}  # per size: its sprites, once
    for row in rows:
        bx, by, turn = xs[row], ys[row], turns[row]
        if not (math.isfinite(bx) and math.isfinite(by) and math.isfinite(turn)):
            continue
        size = sizes[row]
        kind = kinds.get(size)
        if kind is None:
            sprites = sprites_for(size)
            frames = len(sprites.surfaces)
            kind = kinds[size] = (sprites, frames, 2.0 * math.pi / frames)
        sprites, frames, turn_per_frame = kind
        frame = round(turn / turn_per_frame) % frames  # as `frame_index` rounds
        px, py = to_screen(bx, by)
        blits.append((sprites.surfaces[frame], (px - sprites.half, py - sprites.half)))
    return blits
