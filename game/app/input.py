"""Events in, requests out: what each pygame event asks of the game.

The loop reads the event queue between frames and, during a long catch-up, between ticks. Either
way each event goes through `InputReader.read`, which knows the keys (`keymap`), which modifiers
are held (`HeldKeys`) and whether a right-drag is under way, and answers with one request value.
It decides nothing about time: whether a request waits for the frame to finish is the session's
rule (`LabSession.change`), so it holds for keys, lessons and scripts alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.app.held_keys import HeldKeys
from game.app.keymap import AVATAR_KEYS, REWIND_KEY, action_for
from game.session.controls import Act, Action

Pixel = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MenuKey:
    """A key pressed while the lesson menu is open: the menu takes it."""

    key: int


@dataclass(frozen=True, slots=True)
class Aim:
    """A left click: fire through this pixel (if it is in an arena)."""

    pixel: Pixel


@dataclass(frozen=True, slots=True)
class Drag:
    """A right-drag: move the body under `start` to `end` (a teleport)."""

    start: Pixel
    end: Pixel


@dataclass(frozen=True, slots=True)
class Focus:
    """The window lost focus (or was minimised), or got it back."""

    gained: bool


@dataclass(frozen=True, slots=True)
class Resize:
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class AvatarKey:
    """One of the avatar's keys went down or up: the loop hands the edge, with the time it read
    it, to the session's input lab."""

    button: str
    down: bool


@dataclass(frozen=True, slots=True)
class RewindKey:
    """The rewind key went down (time starts running backwards) or up (the game goes on)."""

    down: bool


Request = Action | MenuKey | Aim | Drag | Focus | Resize | AvatarKey | RewindKey


class InputReader:
    """Turns one event at a time into a request, keeping the little state that needs."""

    def __init__(self) -> None:
        self.held = HeldKeys()
        self._drag_from: Pixel | None = None

    def read(self, event: pygame.event.Event, *, menu_open: bool = False) -> Request | None:
        self.held.observe(event)
        kind = event.type
        if kind == pygame.QUIT:
            return Action(Act.QUIT)
        if kind in (pygame.KEYDOWN, pygame.KEYUP) and event.key in AVATAR_KEYS:
            if menu_open and kind == pygame.KEYDOWN:
                return MenuKey(event.key)
            return AvatarKey(AVATAR_KEYS[event.key], kind == pygame.KEYDOWN)
        if kind in (pygame.KEYDOWN, pygame.KEYUP) and event.key == REWIND_KEY:
            if menu_open and kind == pygame.KEYDOWN:
                return MenuKey(event.key)
            return RewindKey(kind == pygame.KEYDOWN)
        if kind == pygame.KEYDOWN:
            if menu_open:
                return MenuKey(event.key)
            return action_for(event.key, self.held.mods(getattr(event, "mod", 0)))
        if kind == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return Aim(event.pos)
        if kind == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self._drag_from = event.pos
            return None
        if kind == pygame.MOUSEBUTTONUP and event.button == 3 and self._drag_from is not None:
            start, self._drag_from = self._drag_from, None
            return Drag(start, event.pos)
        if kind in (pygame.WINDOWFOCUSLOST, pygame.WINDOWMINIMIZED):
            self._drag_from = None
            return Focus(gained=False)
        if kind in (pygame.WINDOWFOCUSGAINED, pygame.WINDOWRESTORED):
            return Focus(gained=True)
        if kind == pygame.VIDEORESIZE:
            return Resize(event.w, event.h)
        return None
