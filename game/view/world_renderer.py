"""`WorldRenderer`: a world's `RenderView` drawn into a rectangle of a surface.

The renderer reads the view and writes pixels, nothing else: it keeps drawing caches (sprites,
the painted backdrop, the trail ring) but no world state, and the positions it blends or
remembers never go back into the physics.

Per frame the cost is the bodies, and the bodies are array work: the camera maps every
position at once, numpy picks each body's sprite frame from its angle, and one `fblits` call
draws all of them. Only springs (a handful) are drawn one at a time, as coils.

Draw order, back to front: backdrop, trails, springs, projectiles, the cannon (shots leave
from inside its barrel), then the overlays that compare the picture with the truth: the
analytic ghost and the raw tick markers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt
import pygame

from game.view import arena_colours, few_bodies
from game.view.camera import Camera, Pixels, ScreenRect
from game.view.few_bodies import Blit
from game.view.raster import Colour
from game.view.springs import CoilBook, Ends
from game.view.sprites import SpriteBook, SpriteSet, frame_index
from game.view.stage import Stage
from game.view.trails import Trails
from game.world.bodies import PROJECTILE, SPRING
from game.world.render_view import RenderView
from game.world.settings import WorldSettings

Mask = npt.NDArray[np.bool_]
Floats = npt.NDArray[Any]
"""A view's coordinates: float64, or float32 in a float32 world."""

TICK_MARKER_M = 0.22
"""Half the width of a raw-tick marker, metres."""
FEW_BODIES = 16
"""A view of up to this many bodies is drawn one body at a time in plain floats (`few_bodies`):
for the handful of a usual scene, numpy's cost per call is many times the arithmetic (the
pixels are the same)."""
KEPT_MARKS = 64
"""At most this many drawn things are restored one by one on a kept window; more (thousands
of projectiles) and the whole backdrop is copied again, which is then cheaper."""


class Bodies(NamedTuple):
    """Bodies of one kind, blitted as turned sprites: where they are, their turn, their size."""

    x: Floats
    y: Floats
    angle: Floats
    radius: Floats


class OverlaySwitches(Protocol):
    """Which overlays to draw. The session's `Controls` has exactly these three switches."""

    @property
    def ghost(self) -> bool: ...
    @property
    def tick_markers(self) -> bool: ...
    @property
    def trails(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Overlays:
    """The overlay switches as a plain value (for tests, benches, screenshots)."""

    ghost: bool = False
    tick_markers: bool = False
    trails: bool = False


NO_OVERLAYS = Overlays()
ALL_OVERLAYS = Overlays(ghost=True, tick_markers=True, trails=True)


class WorldRenderer:
    """Draws one world.

    A split screen uses one renderer per world: each keeps its own trails and its own camera
    (so a click maps through the half it landed in), and both can share one `SpriteBook`.
    """

    def __init__(
        self,
        settings: WorldSettings,
        sprites: SpriteBook | None = None,
        rect: ScreenRect = (0, 0, 1280, 720),
    ) -> None:
        self.settings = settings
        self.camera = Camera(settings.arena_width, settings.arena_height, rect)
        """Maps the world into the rect of the last `draw`: use it for mouse -> world."""
        self.sprites = SpriteBook() if sprites is None else sprites
        self.stage = Stage(settings)
        self.trails = Trails()
        self.coils = CoilBook()
        self._marks: list[pygame.Rect] | None = None
        """What the last picture put over the backdrop, in window pixels within its rect (all
        that a window still showing it needs restored from the backdrop); None when that is
        not known (overlays on, too many bodies to list)."""

    def draw(
        self,
        surface: pygame.Surface,
        view: RenderView,
        rect: ScreenRect | pygame.Rect | None = None,
        overlays: OverlaySwitches = NO_OVERLAYS,
        *,
        kept: bool = False,
    ) -> None:
        """Draw `view` with the arena fitted into `rect` (the whole surface if None): `record`
        it, then `paint` it."""
        self.record(view, overlays)
        self.paint(surface, view, rect, overlays, kept=kept)

    def record(self, view: RenderView, overlays: OverlaySwitches = NO_OVERLAYS) -> None:
        """What every frame drawn leaves behind, painted or not: its positions in the trails,
        which are made of the frames drawn (a clip paints only the frames it films)."""
        if overlays.trails:
            self.trails.record(view)
        else:
            self.trails.clear()  # so that switching them on again starts afresh

    def paint(
        self,
        surface: pygame.Surface,
        view: RenderView,
        rect: ScreenRect | pygame.Rect | None = None,
        overlays: OverlaySwitches = NO_OVERLAYS,
        *,
        kept: bool = False,
    ) -> None:
        """Paint `view`, recorded last, with the arena fitted into `rect`.

        Nothing outside `rect` (or outside the surface's clip) is touched, so two renderers
        can share one window. `kept`: the surface still shows this renderer's last picture
        (and whatever `drew` added to it), so only what that put over the backdrop is
        restored from it, not the whole arena.
        """
        target = tuple(surface.get_rect() if rect is None else rect)
        restore = self._marks if kept and target == self.camera.rect else None
        if target != self.camera.rect:
            self.camera.resize((target[0], target[1], target[2], target[3]))
        overlaid = overlays.trails or overlays.ghost or overlays.tick_markers
        self._marks = None if overlaid else []
        previous_clip = surface.get_clip()
        surface.set_clip(previous_clip.clip(self.camera.rect))  # within the caller's clip too
        try:
            self.stage.draw_backdrop(surface, self.camera, restore)
            if overlays.trails:
                self._draw_trails(surface)
            if view.count <= FEW_BODIES:  # the usual scene: one by one, in plain floats
                self._draw_few(surface, view)
            else:
                self._draw_springs(surface, view)
                self._draw_projectiles(surface, view)
            self.drew(self.stage.draw_cannon(surface, self.camera))
            if overlays.ghost:
                self._draw_ghosts(surface, view)
            if overlays.tick_markers:
                self._draw_tick_markers(surface, view)
        finally:
            surface.set_clip(previous_clip)

    def drew(self, *rects: pygame.Rect | None) -> None:
        """Note what was drawn into the arena over its backdrop (by this renderer, or after it:
        the avatar), so that the next kept frame restores it; None: not known."""
        if self._marks is None:
            return
        if any(rect is None for rect in rects) or len(self._marks) + len(rects) > KEPT_MARKS:
            self._marks = None
            return
        arena = pygame.Rect(self.camera.rect)
        self._marks.extend(arena.clip(rect) for rect in rects if rect is not None)

    def covers(self, pixel: tuple[int, int]) -> bool:
        """True when a screen point lies in the rect of the last `draw` (which half was clicked)."""
        left, top, width, height = self.camera.rect
        return left <= pixel[0] < left + width and top <= pixel[1] < top + height

    def to_world(self, pixel: tuple[int, int]) -> tuple[float, float]:
        """The world point (metres) under a screen point, as this renderer last drew the world."""
        return self.camera.point_to_world(pixel)

    # -- bodies ------------------------------------------------------------------------------

    def _draw_projectiles(self, surface: pygame.Surface, view: RenderView) -> None:
        shots = view.kind == PROJECTILE
        shown = Bodies(view.x[shots], view.y[shots], view.angle[shots], view.radius[shots])
        self._blit_turned(surface, shown, self.sprites.projectile)

    def _draw_springs(self, surface: pygame.Surface, view: RenderView) -> None:
        springs = np.flatnonzero(view.kind == SPRING)
        if springs.size == 0:
            return
        anchor_x, anchor_y = view.anchor_x[springs], view.anchor_y[springs]
        x, y = view.x[springs], view.y[springs]
        self._draw_coils(surface, *self._coil_ends(anchor_x, anchor_y, x, y))
        bobs = Bodies(x, y, view.angle[springs], view.radius[springs])
        self._blit_turned(surface, bobs, self.sprites.bob)

    def _draw_coils(
        self, surface: pygame.Surface, mounts: list[list[int]], ends: list[Ends]
    ) -> None:
        coils = self.coils.draw(surface, mounts, ends, self.camera.scale)
        if coils is None:
            self.drew(None)  # a coil drawn stroke by stroke, wherever its strokes went
        else:
            self.drew(*coils)

    def _draw_few(self, surface: pygame.Surface, view: RenderView) -> None:
        """`_draw_springs` then `_draw_projectiles`, for a few bodies (`few_bodies`): the
        view's columns read once, each body placed in plain floats, and the bobs and the shots
        in one `fblits`, bobs first."""
        radius = view.radius
        if radius.dtype == np.float64:  # `_radius_px` in plain floats: the same doubles
            scale = self.camera.scale
            sizes = [max(1, round(r * scale)) for r in radius.tolist()]
        else:  # float32 times a scale stays float32 in numpy: round as it does
            sizes = self._radius_px(radius).tolist()
        bodies = few_bodies.listed(view, sizes)
        springs = bodies.rows_of(SPRING)
        blits: list[Blit] = []
        if springs:
            self._draw_coils(surface, *few_bodies.coil_ends(self.camera, view, bodies, springs))
            blits = few_bodies.turned(self.camera, bodies, springs, self.sprites.bob)
        shots = bodies.rows_of(PROJECTILE)
        blits += few_bodies.turned(self.camera, bodies, shots, self.sprites.projectile)
        if self._marks is not None:
            self.drew(*(pygame.Rect(corner, sprite.get_size()) for sprite, corner in blits))
        surface.fblits(blits, pygame.BLEND_PREMULTIPLIED)

    def _coil_ends(
        self, anchor_x: Floats, anchor_y: Floats, x: Floats, y: Floats
    ) -> tuple[list[list[int]], list[Ends]]:
        """The pixels of each mounted anchor, and of each coil's two ends (an exploded bob,
        inf or NaN, has no coil), every spring at once."""
        mounted = _finite(anchor_x, anchor_y)
        attached = mounted & _finite(x, y)
        count = int(x.size)
        if mounted.all() and attached.all():  # as always, but for a spring that blew up
            px, py = self.camera.to_screen(
                np.concatenate((anchor_x, x)), np.concatenate((anchor_y, y))
            )
            ends = np.column_stack((px[:count], py[:count], px[count:], py[count:])).tolist()
            return [end[:2] for end in ends], [tuple(end) for end in ends]
        mounts = np.column_stack(self.camera.to_screen(anchor_x[mounted], anchor_y[mounted]))
        ax, ay = self.camera.to_screen(anchor_x[attached], anchor_y[attached])
        bx, by = self.camera.to_screen(x[attached], y[attached])
        ends = np.column_stack((ax, ay, bx, by)).tolist()
        return mounts.tolist(), [tuple(end) for end in ends]

    def _blit_turned(
        self, surface: pygame.Surface, bodies: Bodies, sprites_for: Callable[[int], SpriteSet]
    ) -> None:
        """Each body as the frame of its sprite nearest its angle, all in one `fblits`."""
        x, y, angle, radius = bodies
        shown = _finite(x, y) & np.isfinite(angle)
        if not shown.all():  # a spring blew up: leave it out (else no copies are needed)
            x, y, angle, radius = x[shown], y[shown], angle[shown], radius[shown]
        px, py = self.camera.to_screen(x, y)
        sizes = self._radius_px(radius)
        turn = angle
        if sizes.size and (sizes == sizes[0]).all():  # one size, as usual: one group, no copies
            sprites = sprites_for(int(sizes[0]))
            self._fblits(surface, sprites, frame_index(turn, len(sprites.surfaces)), px, py)
            return
        for size, group in _groups(sizes):
            sprites = sprites_for(size)
            frames = frame_index(turn[group], len(sprites.surfaces))
            self._fblits(surface, sprites, frames, px[group], py[group])

    # -- overlays ----------------------------------------------------------------------------

    def _draw_ghosts(self, surface: pygame.Surface, view: RenderView) -> None:
        """A ring where each projectile would be on its exact parabola at the drawn time."""
        shots = view.kind == PROJECTILE
        x, y = view.analytic_x[shots], view.analytic_y[shots]
        shown = _finite(x, y)
        px, py = self.camera.to_screen(x[shown], y[shown])
        for size, group in _groups(self._radius_px(view.radius[shots][shown])):
            sprites = self.sprites.ghost(size)
            self._fblits(surface, sprites, np.zeros(group.size, np.intp), px[group], py[group])

    def _draw_tick_markers(self, surface: pygame.Surface, view: RenderView) -> None:
        """A diamond on each body's exact position at the last tick (before any blending)."""
        shown = _finite(view.raw_x, view.raw_y)
        px, py = self.camera.to_screen(view.raw_x[shown], view.raw_y[shown])
        sprites = self.sprites.tick_marker(max(4, round(self.camera.pixels(TICK_MARKER_M))))
        self._fblits(surface, sprites, np.zeros(px.size, np.intp), px, py)

    def _draw_trails(self, surface: pygame.Surface) -> None:
        """Each trailed body's recent drawn positions as dots, fading with age."""
        x, y, kind, radius, age = self.trails.dots()
        past = age > 0  # age 0 is this frame: the bodies cover it
        px, py = self.camera.to_screen(x[past], y[past])
        kind, age = kind[past], age[past]
        sizes = self._radius_px(radius[past])
        for body_kind, colour in (
            (SPRING, arena_colours.BOB),
            (PROJECTILE, arena_colours.PROJECTILE),
        ):
            of_kind = np.flatnonzero(kind == body_kind)
            for size, group in _groups(sizes[of_kind]):
                rows = of_kind[group]
                sprites = self._trail_sprites(size, colour)
                self._fblits(surface, sprites, age[rows], px[rows], py[rows])

    def _trail_sprites(self, size: int, colour: Colour) -> SpriteSet:
        return self.sprites.trail(size, colour, self.trails.frames)

    # -- helpers -----------------------------------------------------------------------------

    def _radius_px(self, radius: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        """Body radii in whole pixels, at least 1 so a body never vanishes in a small window."""
        pixels: npt.NDArray[np.int64] = np.maximum(1, np.rint(radius * self.camera.scale)).astype(
            np.int64
        )
        return pixels

    def _drew_sprites(self, xs: list[int], ys: list[int], size: tuple[int, int]) -> None:
        """Note sprites of `size` drawn at corners (`xs[i]`, `ys[i]`), as `drew` does."""
        if self._marks is None:
            return
        if len(self._marks) + len(xs) > KEPT_MARKS:
            self._marks = None
            return
        self.drew(*(pygame.Rect(x, y, *size) for x, y in zip(xs, ys, strict=True)))

    def _fblits(
        self,
        surface: pygame.Surface,
        sprites: SpriteSet,
        frames: npt.NDArray[np.intp] | npt.NDArray[np.int64],
        px: Pixels,
        py: Pixels,
    ) -> None:
        """Blit sprite `frames[i]` centred on (px[i], py[i]), skipping those outside the rect."""
        left, top, width, height = self.camera.rect
        half = sprites.half
        corner_x, corner_y = px - half, py - half
        seen = (corner_x > left - 2 * half) & (corner_x < left + width)
        seen &= (corner_y > top - 2 * half) & (corner_y < top + height)
        if not seen.all():
            frames, corner_x, corner_y = frames[seen], corner_x[seen], corner_y[seen]
        xs, ys = corner_x.tolist(), corner_y.tolist()
        self._drew_sprites(xs, ys, sprites.surfaces[0].get_size())
        corners = zip(xs, ys, strict=True)
        # A generator, not a list: 5,000 (sprite, corner) tuples kept alive at once would wake
        # the garbage collector several times a second, and each visit is a 20 ms frame.
        surface.fblits(zip(sprites.pick(frames), corners, strict=True), pygame.BLEND_PREMULTIPLIED)


def _finite(x: npt.NDArray[Any], y: npt.NDArray[Any]) -> Mask:
    """Positions that can be drawn: an exploded spring (inf, NaN) has no pixel."""
    finite: Mask = np.isfinite(x) & np.isfinite(y)
    return finite


def _groups(sizes: npt.NDArray[np.int64]) -> Iterator[tuple[int, npt.NDArray[np.intp]]]:
    """(size, indices) for each distinct size; one group, without sorting, when all agree."""
    if sizes.size == 0:
        return
    first = int(sizes[0])
    if (sizes == first).all():
        yield first, np.arange(sizes.size)
        return
    values, inverse = np.unique(sizes, return_inverse=True)
    for index, value in enumerate(values.tolist()):
        yield int(value), np.flatnonzero(inverse == index)
