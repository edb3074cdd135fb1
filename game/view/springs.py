"""Springs drawn as coils: a mount at the anchor, a zig-zag to the bob, the bob on top.

The coil always has the same number of turns, so it visibly stretches and bunches up as the
bob moves: a stiff spring at a low tick rate, integrated by explicit Euler, shows its energy
growing as a coil that stretches further every swing.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import numpy.typing as npt
import pygame

from game.view import palette

Points = npt.NDArray[np.float64]

TURNS = 9
"""Zig-zag teeth from anchor to bob."""
COIL_WIDTH_M = 0.5
LEAD_M = 0.3
"""Straight wire at each end of the coil, metres."""
MOUNT_WIDTH_M = 0.8


def coil_points(
    anchor: tuple[float, float], bob: tuple[float, float], *, width: float, lead: float
) -> Points:
    """The corners of a zig-zag from `anchor` to `bob` (pixels), `width` across, as (n, 2).

    A straight `lead` at each end (shortened when the spring is short), then `TURNS` teeth
    evenly spaced between, alternating either side of the line.
    """
    start, end = np.asarray(anchor, dtype=np.float64), np.asarray(bob, dtype=np.float64)
    span = end - start
    length = float(np.hypot(*span))
    if length < 1e-9:
        return np.stack((start, end))
    along = span / length
    side = np.array((-along[1], along[0]))
    lead = min(lead, length / 5.0)
    corners = 2 * TURNS
    steps = lead + (length - 2.0 * lead) * (np.arange(corners) + 0.5) / corners
    offsets = np.where(np.arange(corners) % 2 == 0, 0.5, -0.5) * width
    teeth = start + steps[:, None] * along + offsets[:, None] * side
    return np.vstack((start, start + lead * along, teeth, end - lead * along, end))


def draw_mount(surface: pygame.Surface, anchor: tuple[int, int], scale: float) -> None:
    """A bracket across the anchor and the pin the spring hangs from."""
    half = max(3, round(MOUNT_WIDTH_M * scale / 2))
    thick = max(2, round(0.12 * scale))
    x, y = anchor
    pygame.draw.rect(surface, palette.MOUNT, (x - half, y - thick, 2 * half, thick), 0, thick // 2)
    pygame.draw.circle(surface, palette.MOUNT_PIN, (x, y), max(2, round(0.07 * scale)))


def draw_coil(
    surface: pygame.Surface, anchor: tuple[int, int], bob: tuple[int, int], scale: float
) -> None:
    """The coil, its back strokes darker than its front ones so the wire reads as a helix."""
    corners = coil_points(anchor, bob, width=COIL_WIDTH_M * scale, lead=LEAD_M * scale).tolist()
    segments = list(pairwise(corners))
    last = len(segments) - 1
    back = [segment for i, segment in enumerate(segments) if i % 2 == 0 and 0 < i < last]
    front = [segment for i, segment in enumerate(segments) if i % 2 == 1 or i in (0, last)]
    wire = max(1, round(0.05 * scale))
    for start, end in back:
        pygame.draw.line(surface, palette.COIL_SHADOW, start, end, wire)
    for start, end in front:
        pygame.draw.line(surface, palette.COIL, start, end, wire)
        if wire <= 2:  # thin wire: smooth its edges; a thick one is smooth enough already
            pygame.draw.aaline(surface, palette.COIL, start, end)
