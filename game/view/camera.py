"""`Camera`: world metres (y up, origin bottom-left) to screen pixels (y down), and back.

The arena is fitted into a screen rectangle as large as it can be without changing its shape;
the space left over on two sides is letterbox. One uniform scale keeps a circle round and a
45-degree shot at 45 degrees, which matters when the picture is the lesson.

Pixel coordinates here are continuous: pixel column 40 is the line 40 pixels from the left
edge, so `to_world(to_screen(x, y))` gives back (x, y) to within half a pixel. The arithmetic
is pure numpy: it works on one point (a mouse click) or on 5,000 bodies at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Pixels = npt.NDArray[np.int64]
Metres = npt.NDArray[np.float64]
ScreenRect = tuple[int, int, int, int]
"""(left, top, width, height) in pixels, as pygame's `Rect` takes and gives it."""

FAR_PX = 100_000
"""Screen coordinates are clamped to +/- this: an exploding spring at 1e30 m still casts to an
int, and pygame still clips the line to it."""


class Camera:
    """Fits an `arena_width` x `arena_height` m arena into a screen rect, keeping its aspect."""

    def __init__(self, arena_width: float, arena_height: float, rect: ScreenRect) -> None:
        if not (arena_width > 0 and arena_height > 0):
            raise ValueError(
                f"the arena must have a positive size (got {arena_width} x {arena_height} m)"
            )
        self.arena_width = float(arena_width)
        self.arena_height = float(arena_height)
        self.rect: ScreenRect = (0, 0, 1, 1)
        self.scale = 1.0
        """Pixels per metre."""
        self.origin_x = 0.0
        """Screen x of the arena's left edge (x = 0 m)."""
        self.ground_y = 0.0
        """Screen y of the arena's bottom edge (y = 0 m)."""
        self.resize(rect)

    def resize(self, rect: ScreenRect) -> None:
        """Fit the arena into `rect`: the largest uniform scale, centred, letterboxed."""
        left, top, width, height = (int(value) for value in rect)
        if width <= 0 or height <= 0:
            raise ValueError(f"the screen rect must have a positive size (got {rect!r})")
        self.rect = (left, top, width, height)
        self.scale = min(width / self.arena_width, height / self.arena_height)
        self.origin_x = left + (width - self.arena_width * self.scale) / 2.0
        self.ground_y = top + (height + self.arena_height * self.scale) / 2.0

    @property
    def arena_rect(self) -> ScreenRect:
        """The arena's own pixels inside `rect` (the rest is letterbox)."""
        left = round(self.origin_x)
        top = round(self.ground_y - self.arena_height * self.scale)
        right = round(self.origin_x + self.arena_width * self.scale)
        bottom = round(self.ground_y)
        return left, top, right - left, bottom - top

    def pixels(self, metres: float) -> float:
        """A length in metres as a length in pixels."""
        return metres * self.scale

    def to_screen(self, x: Any, y: Any) -> tuple[Pixels, Pixels]:
        """Screen pixels (px, py) of world points (x, y), rounded to the nearest pixel.

        Takes numbers or arrays; gives int64 arrays of the same shape. NaN must be filtered
        out by the caller: there is no pixel for a position that is not a number.
        """
        px = np.asarray(x, dtype=np.float64) * self.scale + self.origin_x
        py = self.ground_y - np.asarray(y, dtype=np.float64) * self.scale
        return _to_pixels(px), _to_pixels(py)

    def point_to_screen(self, x: float, y: float) -> tuple[int, int]:
        """One world point's pixel, exactly as `to_screen` gives it (the same double arithmetic,
        rounded half to even, clamped), in plain floats: numpy's cost per call is many times the
        arithmetic for a single point (the cannon, the avatar, a few bodies). Each coordinate
        is clamped (an infinity too), then rounded half to even, inline: this runs for every
        spring's ends and every few body of each lane, every frame."""
        px = float(x) * self.scale + self.origin_x
        py = self.ground_y - float(y) * self.scale
        return round(min(max(px, -FAR_PX), FAR_PX)), round(min(max(py, -FAR_PX), FAR_PX))

    def to_world(self, px: Any, py: Any) -> tuple[Metres, Metres]:
        """World metres (x, y) of screen points: where a click at (px, py) lands in the arena."""
        x = (np.asarray(px, dtype=np.float64) - self.origin_x) / self.scale
        y = (self.ground_y - np.asarray(py, dtype=np.float64)) / self.scale
        return x, y

    def point_to_world(self, pixel: tuple[int, int]) -> tuple[float, float]:
        """One screen point (a mouse position) in world metres, as plain floats."""
        x, y = self.to_world(pixel[0], pixel[1])
        return float(x), float(y)

    def in_arena(self, pixel: tuple[int, int]) -> bool:
        """True when a screen point falls inside the arena (not in the letterbox or beyond)."""
        x, y = self.point_to_world(pixel)
        return 0.0 <= x <= self.arena_width and 0.0 <= y <= self.arena_height


def _to_pixels(values: Metres) -> Pixels:
    # np.clip's Python wrapper costs more than these two ufuncs on the few bodies of a frame.
    pixels: Pixels = np.minimum(np.maximum(np.rint(values), -FAR_PX), FAR_PX).astype(np.int64)
    return pixels
