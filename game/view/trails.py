"""`Trails`: where bodies were drawn in the last few frames, kept to draw as fading dots.

A trail is made of *drawn* positions, one per rendered frame, so it shows what the player saw:
with interpolation on, evenly spaced dots; with it off at 10 Hz, clumps of dots on the same
spot and then a jump, which is the judder made visible. Each frame's positions are one row of a
fixed ring of arrays, so recording costs the same every frame and nothing is ever allocated.

Dots, not lines: a body that is reset or teleported leaves dots behind that fade out, where a
line joining its old and new places would draw a streak it never flew along.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from game.world.bodies import SPRING
from game.world.render_view import RenderView

TRAIL_FRAMES = 40
"""Frames of history: two thirds of a second at 60 fps."""
TRAILED_BODIES = 96
"""At most this many bodies get a trail (springs first, then the newest projectiles), so that
5,000 projectiles with trails on cost a few thousand dots, not 200,000."""

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


class Trails:
    """A ring of the last `frames` frames' drawn positions of up to `bodies` bodies each."""

    def __init__(self, frames: int = TRAIL_FRAMES, bodies: int = TRAILED_BODIES) -> None:
        if frames < 1 or bodies < 1:
            raise ValueError(f"frames and bodies must be at least 1 (got {frames}, {bodies})")
        self.frames, self.bodies = frames, bodies
        self._x = np.full((frames, bodies), np.nan)
        self._y = np.full((frames, bodies), np.nan)
        self._kind = np.zeros((frames, bodies), dtype=np.int64)
        self._radius = np.zeros((frames, bodies))
        self._recorded = 0  # frames ever recorded: the newest row is (recorded - 1) % frames
        self._last_stamp: tuple[int, float, float] | None = None

    @property
    def empty(self) -> bool:
        """Nothing recorded since the trails were last cleared (or made)."""
        return self._recorded == 0 and self._last_stamp is None

    def clear(self) -> None:
        """Forget every dot (the trails were switched off, so switching them on starts afresh)."""
        if self.empty:
            return  # nothing to forget: as every frame with the trails off
        self._x.fill(np.nan)
        self._y.fill(np.nan)
        self._recorded = 0
        self._last_stamp = None

    def record(self, view: RenderView) -> None:
        """Add this frame's drawn positions, unless the picture has not moved since the last
        one (a paused game redraws the same view and would pile its dots on one spot)."""
        stamp = (view.tick, view.time, view.alpha)
        if stamp == self._last_stamp:
            return
        self._last_stamp = stamp
        rows = self._chosen(view)
        slot = self._recorded % self.frames
        self._x[slot].fill(np.nan)
        self._y[slot].fill(np.nan)
        count = rows.shape[0]
        self._x[slot, :count] = view.x[rows]
        self._y[slot, :count] = view.y[rows]
        self._kind[slot, :count] = view.kind[rows]
        self._radius[slot, :count] = view.radius[rows]
        self._recorded += 1

    def dots(self) -> tuple[Floats, Floats, Ints, Floats, Ints]:
        """Every recorded dot, oldest first, as (x, y, kind, radius, age in frames).

        The current frame's positions are age 0: the bodies themselves cover them.
        """
        kept = min(self._recorded, self.frames)
        newest = (self._recorded - 1) % self.frames
        order = (newest - np.arange(kept - 1, -1, -1)) % self.frames  # oldest row first
        ages = np.repeat(np.arange(kept - 1, -1, -1), self.bodies)
        x, y = self._x[order].ravel(), self._y[order].ravel()
        valid = np.isfinite(x) & np.isfinite(y)
        kind = self._kind[order].ravel()[valid]
        radius = self._radius[order].ravel()[valid]
        return x[valid], y[valid], kind, radius, ages[valid]

    def _chosen(self, view: RenderView) -> npt.NDArray[np.intp]:
        """Rows of the bodies that get a trail: all of them, or springs then the newest."""
        if view.count <= self.bodies:
            every: npt.NDArray[np.intp] = np.arange(view.count)
            return every
        priority = np.where(view.kind == SPRING, np.iinfo(np.int64).max, view.ids)
        chosen: npt.NDArray[np.intp] = np.argpartition(-priority, self.bodies - 1)[: self.bodies]
        return np.sort(chosen)
