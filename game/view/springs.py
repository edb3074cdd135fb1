"""Springs drawn as coils: a mount at the anchor, a zig-zag to the bob, the bob on top.

The coil always has the same number of turns, so it visibly stretches and bunches up as the
bob moves: a stiff spring at a low tick rate, integrated by explicit Euler, shows its energy
growing as a coil that stretches further every swing.
"""

from __future__ import annotations

from collections import OrderedDict
from itertools import pairwise

import numpy as np
import numpy.typing as npt
import pygame

from game.view import arena_colours

Points = npt.NDArray[np.float64]

TURNS = 9
"""Zig-zag teeth from anchor to bob, each two strokes long."""
CORNERS = 2 * TURNS + 4
"""Points of one coil: the anchor, the end of its lead, the teeth, the other lead, the bob."""
COIL_WIDTH_M = 0.5
LEAD_M = 0.3
"""Straight wire at each end of the coil, metres."""
MOUNT_WIDTH_M = 0.8


def coil_points(anchors: Points, bobs: Points, *, width: float, lead: float) -> Points:
    """The corners of a zig-zag from each anchor to its bob, as (springs, CORNERS, 2).

    `anchors` and `bobs` are (springs, 2) in pixels. Each coil has a straight `lead` at each
    end (at most a fifth of the spring), then `TURNS` teeth evenly spaced between them, `width`
    across, alternating either side of the line. All springs at once: a handful of array
    operations whether there are 4 springs or 400, written into one array (a coil is painted
    whenever a bob moves a whole pixel, so this runs most frames).
    """
    span = bobs - anchors
    length = np.hypot(span[:, 0], span[:, 1])[:, None]
    along = span / np.maximum(length, 1e-9)  # a spring of zero length collapses to a point
    side = along[:, ::-1] * _PERPENDICULAR
    leads = np.minimum(lead, length / 5.0)
    steps = leads + (length - 2.0 * leads) * _TOOTH_PLACES
    offsets = _TOOTH_SIDES * width
    corners = np.empty((span.shape[0], CORNERS, 2))
    teeth = corners[:, 2:-2]
    np.multiply(steps[:, :, None], along[:, None, :], out=teeth)
    teeth += anchors[:, None, :]  # the same sums, in the same order, as written out in full
    teeth += offsets[None, :, None] * side[:, None, :]
    reach = leads * along
    corners[:, 0], corners[:, 1] = anchors, anchors + reach
    corners[:, -2], corners[:, -1] = bobs - reach, bobs
    return corners


_TOOTH_PLACES = (np.arange(2 * TURNS) + 0.5) / (2 * TURNS)
"""Where each tooth sits between the leads, as a share of the way."""
_TOOTH_SIDES = np.where(np.arange(2 * TURNS) % 2 == 0, 0.5, -0.5)
"""Which side of the line each tooth is on, in coil widths."""
_PERPENDICULAR = np.array([-1.0, 1.0])
"""(dx, dy) reversed and times this is the line turned a quarter: (-dy, dx)."""


def draw_mounts(surface: pygame.Surface, anchors: Points, scale: float) -> None:
    """A bracket across each anchor (pixels, (springs, 2)) and the pin its spring hangs from."""
    for anchor in anchors.astype(np.int64).tolist():
        _draw_mount(surface, anchor, scale)


def draw_coils(surface: pygame.Surface, anchors: Points, bobs: Points, scale: float) -> None:
    """Each spring's coil from its anchor to its bob (the bobs are sprites, drawn on top)."""
    coils = coil_points(anchors, bobs, width=COIL_WIDTH_M * scale, lead=LEAD_M * scale)
    for corners in coils.tolist():
        _draw_coil(surface, corners, _wire(scale))


Ends = tuple[int, int, int, int]
"""A coil's anchor and bob, in whole pixels: (anchor x, anchor y, bob x, bob y)."""
KEPT_COILS = 512
"""Coil sprites kept per lane: every position of the demo scene's four springs over a swing
(some 260 sprites, 1.2 MB; at 64 a coil was repainted on most frames of the wall clock)."""


class CoilBook:
    """The mounts and coils of the springs, each drawn once into a sprite and kept.

    A coil's pixels depend only on its two ends in whole pixels (the camera rounds them) and
    the scale, so a coil whose ends have not moved a whole pixel is the same sprite again: at
    1,000 fps that is most frames, and one `fblits` of kept sprites replaces numpy's coil
    corners and a dozen `draw.line` calls per spring. A sprite is opaque where the wire is and
    clear elsewhere, so blitting it gives the pixels drawing the wire there gives
    (`tests/test_view_springs.py` compares the two). A coil that would reach outside the
    surface's clip is drawn directly, where pygame clips each stroke itself.
    """

    def __init__(self) -> None:
        self._scale = 0.0
        self._mount: tuple[pygame.Surface, int] | None = None
        self._coils: OrderedDict[Ends, tuple[pygame.Surface, tuple[int, int]]] = OrderedDict()

    def draw(
        self, surface: pygame.Surface, mounts: list[list[int]], coils: list[Ends], scale: float
    ) -> list[pygame.Rect] | None:
        """The mounts at `mounts` (anchor pixels), then the coils between `coils`' ends.
        Returns where they were drawn (None for a coil drawn stroke by stroke)."""
        if scale != self._scale:
            self._scale, self._mount = scale, None
            self._coils.clear()
        drawn: list[pygame.Rect] | None = []
        if mounts:
            mount, reach = self._mount_sprite()
            corners = [(x - reach, y - reach) for x, y in mounts]
            surface.fblits([(mount, corner) for corner in corners])
            drawn = [pygame.Rect(corner, mount.get_size()) for corner in corners]
        self._paint_missing(coils)
        clip = surface.get_clip()
        sprites: list[tuple[pygame.Surface, tuple[int, int]]] = []
        for ends in coils:
            sprite, corner = self._coils[ends]
            self._coils.move_to_end(ends)
            if clip.contains((corner, sprite.get_size())):
                sprites.append((sprite, corner))
                if drawn is not None:
                    drawn.append(pygame.Rect(corner, sprite.get_size()))
                continue
            surface.fblits(sprites)  # those before it first: the order of the strokes is kept
            sprites, drawn = [], None
            anchor, bob = np.array([ends[:2]], np.float64), np.array([ends[2:]], np.float64)
            draw_coils(surface, anchor, bob, scale)
        surface.fblits(sprites)
        while len(self._coils) > KEPT_COILS:
            self._coils.popitem(last=False)
        return drawn

    def _mount_sprite(self) -> tuple[pygame.Surface, int]:
        """The mount drawn around the middle of a clear square sprite, and that middle."""
        if self._mount is None:
            scale = self._scale
            reach = max(round(MOUNT_WIDTH_M * scale / 2), round(0.12 * scale), 3) + 2
            sprite = pygame.Surface((2 * reach + 1, 2 * reach + 1), pygame.SRCALPHA)
            _draw_mount(sprite, [reach, reach], scale)
            self._mount = (sprite, reach)
        return self._mount

    def _paint_missing(self, coils: list[Ends]) -> None:
        """Sprites for the coils not kept yet, their corners worked out all at once."""
        missing = list(dict.fromkeys(ends for ends in coils if ends not in self._coils))
        if not missing:
            return
        ends = np.array(missing, dtype=np.float64)
        scale = self._scale
        wire = _wire(scale)
        margin = wire + 2
        every = coil_points(
            ends[:, :2], ends[:, 2:], width=COIL_WIDTH_M * scale, lead=LEAD_M * scale
        )
        lows = (np.floor(every.min(axis=1)).astype(np.int64) - margin).tolist()
        highs = (np.ceil(every.max(axis=1)).astype(np.int64) + margin).tolist()
        for key, corners, (left, top), (right, bottom) in zip(
            missing, every, lows, highs, strict=True
        ):
            sprite = pygame.Surface((right - left + 1, bottom - top + 1), pygame.SRCALPHA)
            _draw_coil(sprite, (corners - (left, top)).tolist(), wire)
            self._coils[key] = (sprite, (left, top))


def _wire(scale: float) -> int:
    return max(1, round(0.05 * scale))


def _draw_mount(surface: pygame.Surface, anchor: list[int], scale: float) -> None:
    """A bracket across the anchor and the pin the spring hangs from."""
    half = max(3, round(MOUNT_WIDTH_M * scale / 2))
    thick = max(2, round(0.12 * scale))
    x, y = anchor
    pygame.draw.rect(
        surface, arena_colours.MOUNT, (x - half, y - thick, 2 * half, thick), 0, thick // 2
    )
    pygame.draw.circle(surface, arena_colours.MOUNT_PIN, (x, y), max(2, round(0.07 * scale)))


def _draw_coil(surface: pygame.Surface, corners: list[list[float]], wire: int) -> None:
    """The whole wire in shadow, then its front strokes bright, so that it reads as a helix."""
    pygame.draw.lines(surface, arena_colours.COIL_SHADOW, False, corners, wire)
    last_stroke = len(corners) - 2
    for index, (start, end) in enumerate(pairwise(corners)):
        if index % 2 == 1 or index in (0, last_stroke):  # the leads, and every other stroke
            pygame.draw.line(surface, arena_colours.COIL, start, end, wire)
