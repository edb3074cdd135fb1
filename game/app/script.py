"""`--script FILE`: timed key presses that drive the real game loop.

A workshop can rehearse a demo, and a test can play the game, through exactly the path a player's
keys take: the script posts ordinary pygame key and mouse events into the event queue when their
time comes. The file is plain text, one press per line:

    # ms since start   what to press
    500    space
    1000   shift+tab
    1500   3
    2000   ctrl+s
    2500   click 16 9        # a left click at (16 m, 9 m) in the arena
    4000   q

Times are wall-clock milliseconds since the loop started; they must not decrease.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame

from game.app.key_names import KEY_CODES, MODIFIER_KEYS
from game.clock.units import parse_decimal, shown
from game.errors import BadInput
from game.file_reading import read_text
from game.world.settings import WorldSettings
from timestep_lab import NS_PER_MS

_ARENA = WorldSettings()
"""Where a scripted click may land: the arena every config plays in."""


@dataclass(frozen=True, slots=True)
class Press:
    """One scripted input: a key with modifiers, or a click at a point in metres."""

    at_ns: int
    key: int = 0
    modifiers: tuple[str, ...] = ()
    click: tuple[float, float] | None = None


def parse_script(text: str, label: str) -> tuple[Press, ...]:
    """Read a script; any bad line raises BadInput naming the file, line and text."""
    presses: list[Press] = []
    last = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{label}:{number}"
        parts = line.split()
        try:
            at_ns = parse_decimal(parts[0], what="time") * NS_PER_MS
        except ValueError:
            raise BadInput(
                f"{where}: the time must be milliseconds like 500 (got {shown(raw)})"
            ) from None
        at = int(at_ns)
        if at < last:
            raise BadInput(f"{where}: times must not go backwards (got {shown(raw)})")
        last = at
        presses.append(_press(where, at, parts[1:], raw.strip()))
    return tuple(presses)


def _press(where: str, at: int, words: list[str], raw: str) -> Press:
    if not words:
        raise BadInput(f"{where}: say what to press after the time (got {shown(raw)})")
    if words[0].lower() == "click":
        try:
            x, y = (parse_decimal(w, what="coordinate") for w in words[1:3])
        except ValueError:
            raise BadInput(f"{where}: a click needs x and y in metres (got {shown(raw)})") from None
        if len(words) != 3:
            raise BadInput(f"{where}: a click needs exactly x and y in metres (got {shown(raw)})")
        if not (x <= _ARENA.arena_width and y <= _ARENA.arena_height):
            raise BadInput(
                f"{where}: a click must be inside the {_ARENA.arena_width:g} x "
                f"{_ARENA.arena_height:g} m arena (got {shown(raw)})"
            )
        return Press(at, click=(float(x), float(y)))
    if len(words) != 1:
        raise BadInput(
            f"{where}: one key or combination per line, like shift+tab (got {shown(raw)})"
        )
    *mods, key = words[0].lower().split("+")
    unknown = [m for m in mods if m not in MODIFIER_KEYS]
    if unknown or key not in KEY_CODES:
        raise BadInput(f"{where}: unknown key {shown(words[0])} (got {shown(raw)})")
    return Press(at, key=KEY_CODES[key], modifiers=tuple(mods))


def load_script(path: Path) -> tuple[Press, ...]:
    """The script at `path`; `BadInput` with one line if it cannot be read or has a bad line."""
    return parse_script(read_text(path, "a script"), str(path))


class ScriptPlayer:
    """Posts each press's events into pygame's queue once its time has come."""

    def __init__(self, presses: tuple[Press, ...]) -> None:
        self._presses = presses
        self._next = 0

    def post_due(
        self, since_start_ns: int, to_pixels: Callable[[float, float], tuple[int, int]]
    ) -> None:
        while self._next < len(self._presses) and self._presses[self._next].at_ns <= since_start_ns:
            _post(self._presses[self._next], to_pixels)
            self._next += 1


def _post(press: Press, to_pixels: Callable[[float, float], tuple[int, int]]) -> None:
    if press.click is not None:
        pos = to_pixels(*press.click)
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
        return
    mod = 0
    for name in press.modifiers:
        key, flag = MODIFIER_KEYS[name]
        mod |= flag
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=press.key, mod=mod, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=press.key, mod=mod, unicode=""))
    for name in reversed(press.modifiers):
        key, flag = MODIFIER_KEYS[name]
        mod &= ~flag
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=""))
