"""`Canvas`: paint sprites as shapes on a supersampled grid, then average down to smooth edges.

Each sprite pixel is split into `samples` x `samples` points. A shape is a boolean test on the
points' coordinates (inside a disc, inside a rotated band), so a 16-pixel ball is exact
geometry, not a scaled bitmap; averaging the points gives each edge pixel its true coverage.
That is how the sprites look anti-aliased without `transform.rotate` or `draw.aacircle` at
draw time: all of it happens once, when a sprite size is first needed.

Coordinates are in pixels from the sprite's centre with v pointing *up*, like the world, so a
shape rotated by a world angle comes out turned the way the body turns on screen.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pygame

Floats = npt.NDArray[np.float64]
Colour = tuple[int, int, int]


class Canvas:
    """A `width` x `height` pixel picture held as premultiplied RGBA at `samples`^2 per pixel.

    Coordinates are measured from `centre` (pixels from the top-left corner; the middle of
    the canvas unless given).
    """

    def __init__(
        self,
        width: int,
        height: int,
        *,
        samples: int = 4,
        centre: tuple[float, float] | None = None,
    ) -> None:
        if width <= 0 or height <= 0 or samples <= 0:
            raise ValueError(f"a canvas needs a positive size (got {width} x {height} x {samples})")
        self.width, self.height, self.samples = width, height, samples
        centre_x, centre_y = (width / 2.0, height / 2.0) if centre is None else centre
        steps_u = (np.arange(width * samples) + 0.5) / samples - centre_x
        steps_v = centre_y - (np.arange(height * samples) + 0.5) / samples
        self.u, self.v = np.meshgrid(steps_u, steps_v)  # rows are screen rows, top first
        """Each sample point's position: pixels right of and above the centre."""
        self._colour = np.zeros((*self.u.shape, 3))  # premultiplied by alpha
        self._alpha = np.zeros(self.u.shape)

    def radius(self) -> Floats:
        """Each sample point's distance from the centre, in pixels."""
        distance: Floats = np.hypot(self.u, self.v)
        return distance

    def turned(self, angle: float) -> tuple[Floats, Floats]:
        """The sample coordinates in a frame turned by `angle` (radians, counter-clockwise):
        a shape drawn along +u in that frame points along `angle` on screen."""
        cos, sin = np.cos(angle), np.sin(angle)
        return self.u * cos + self.v * sin, self.v * cos - self.u * sin

    def paint(self, inside: npt.NDArray[np.bool_], colour: Any, opacity: float = 1.0) -> None:
        """Lay `colour` (one RGB, or an RGB per sample) over the points `inside`."""
        cover = inside * opacity
        paint = np.broadcast_to(np.asarray(colour, dtype=np.float64), self._colour.shape)
        keep = 1.0 - cover
        self._colour *= keep[..., None]
        self._colour += paint * cover[..., None]
        self._alpha *= keep
        self._alpha += cover

    def surface(self) -> pygame.Surface:
        """Average each pixel's samples into a *premultiplied* RGBA surface.

        Premultiplied (colour already scaled by alpha) because the renderer lays thousands of
        sprites on a frame with pygame's SIMD blitter for `BLEND_PREMULTIPLIED` (BENCHMARKS.md,
        "Render: 5,000 projectiles"): draw these surfaces with that flag, never a plain blit.
        """
        s = self.samples
        colour = self._colour.reshape(self.height, s, self.width, s, 3).mean(axis=(1, 3))
        alpha = self._alpha.reshape(self.height, s, self.width, s).mean(axis=(1, 3))
        surface = pygame.Surface((self.width, self.height), pygame.SRCALPHA, 32)
        rgb = pygame.surfarray.pixels3d(surface)  # locks the surface until deleted
        rgb[...] = _bytes(colour).transpose(1, 0, 2)
        del rgb
        opacity = pygame.surfarray.pixels_alpha(surface)
        opacity[...] = _bytes(alpha * 255.0).T
        del opacity
        return surface


def _bytes(values: Floats) -> npt.NDArray[np.uint8]:
    return np.clip(np.rint(values), 0, 255).astype(np.uint8)


def shaded(base: Colour, light: Floats, *, ambient: float = 0.45) -> Floats:
    """`base` lit by `light` (0 to 1 per sample): the shadow side keeps `ambient` of it."""
    level = ambient + (1.0 - ambient) * light
    colour: Floats = np.asarray(base, dtype=np.float64) * level[..., None]
    return colour


def sphere_light(canvas: Canvas, radius: float) -> Floats:
    """How much light each point of a ball of `radius` px catches from the upper left.

    The light stays put while the ball spins: only the markings painted on it turn, which is
    what makes a spinning ball read as a ball and not as a turning disc.
    """
    nu, nv = canvas.u / radius, canvas.v / radius
    nz = np.sqrt(np.clip(1.0 - nu * nu - nv * nv, 0.0, 1.0))
    light: Floats = np.clip(-0.45 * nu + 0.55 * nv + 0.70 * nz, 0.0, 1.0)
    return light


def highlight(canvas: Canvas, radius: float) -> npt.NDArray[np.bool_]:
    """A small glint up and to the left of the centre."""
    glint_u, glint_v = -0.38 * radius, 0.40 * radius
    inside: npt.NDArray[np.bool_] = np.hypot(canvas.u - glint_u, canvas.v - glint_v) < max(
        0.9, 0.24 * radius
    )
    return inside
