"""Screenshots: the window's picture saved as a PNG, under a name that sorts by time."""

from __future__ import annotations

import datetime
from pathlib import Path

import pygame

from game.workshop.files.output import renamed_when_whole


def save_picture(surface: pygame.Surface, path: Path) -> Path:
    """Write `surface` to `path` (its folder made if need be) and return the path: whole or
    not at all, and never over a device or a folder (`renamed_when_whole`: `OSError` if not)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with renamed_when_whole(path) as partial, partial.open("wb") as file:
        pygame.image.save(surface, file, "png")  # the name hint: the partial name ends in .part
    return path


def numbered_name(folder: Path, frame: int) -> Path:
    """`timestep-lab-YYYYmmdd-HHMMSS-FRAME.png` in `folder`: the date and the frame say when
    (this reads the calendar for a name, never the game's clock)."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return folder / f"timestep-lab-{stamp}-{frame}.png"
