"""`Window`: the display surface, resizable, with F11 fullscreen and optional vsync.

Opening a window is where a headless machine fails, so this is where that failure becomes one
clear line instead of an SDL traceback.
"""

from __future__ import annotations

import os
import sys

import pygame

from game.errors import BadInput
from game.limits import SMALLEST_WINDOW

TITLE = "Timestep Lab"

NO_DISPLAY = (
    "error: no display available ({reason}). Run the game on a desktop session, or under a "
    "virtual display with `xvfb-run -a make run`; the headless tools need no display: "
    "`python -m game schedule`, `python -m game lab`."
)


INVISIBLE_DRIVERS = ("offscreen", "dummy")
"""SDL drivers that draw nowhere: fine when asked for (tests), a missing screen otherwise."""


def _no_display_reason() -> str:
    """Why there is certainly no screen, checked before SDL tries (and prints its own noise)."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return ""  # the driver was chosen on purpose (the tests choose "dummy")
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "neither DISPLAY nor WAYLAND_DISPLAY is set"
    return ""


class Window:
    """The one display surface. Knows its windowed size so F11 can come back to it."""

    def __init__(self, width: int, height: int, *, fullscreen: bool, vsync: bool) -> None:
        missing = _no_display_reason()
        if missing:
            raise BadInput(NO_DISPLAY.format(reason=missing))
        try:
            pygame.display.init()
        except pygame.error as problem:
            raise BadInput(NO_DISPLAY.format(reason=problem)) from None
        chosen = os.environ.get("SDL_VIDEODRIVER", "")
        if pygame.display.get_driver() in INVISIBLE_DRIVERS and not chosen:
            # SDL fell back to drawing nowhere: a game nobody can see is not a game.
            pygame.display.quit()
            raise BadInput(NO_DISPLAY.format(reason="SDL found no screen to draw on"))
        self._windowed_size = (width, height)
        self.vsync = vsync
        self.vsync_active = False
        self.fullscreen = fullscreen
        pygame.display.set_caption(TITLE)
        self.surface = self._open()

    def _open(self) -> pygame.Surface:
        size = (0, 0) if self.fullscreen else self._windowed_size
        flags = pygame.FULLSCREEN if self.fullscreen else pygame.RESIZABLE
        if self.vsync:
            # SDL only syncs a renderer-backed window: ask for SCALED, fall back if refused.
            try:
                surface = pygame.display.set_mode(size, flags | pygame.SCALED, vsync=1)
                self.vsync_active = True
                return surface
            except pygame.error:
                self.vsync_active = False
        try:
            return pygame.display.set_mode(size, flags)
        except pygame.error as problem:
            raise BadInput(NO_DISPLAY.format(reason=problem)) from None

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def toggle_fullscreen(self) -> None:
        if not self.fullscreen:
            self._windowed_size = self.size
        self.fullscreen = not self.fullscreen
        self.surface = self._open()

    def resized(self, width: int, height: int) -> None:
        """Follow a window resize (pygame 2 resizes the surface; remember the new size)."""
        if not self.fullscreen:
            smallest_w, smallest_h = SMALLEST_WINDOW
            self._windowed_size = (max(smallest_w, width), max(smallest_h, height))
        self.surface = pygame.display.get_surface() or self.surface
