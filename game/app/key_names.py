"""Key names, as scripts, lesson steps and the knob table write them, and their pygame keys.

Everything below `game.app` names keys in words ("t", "shift+c", "kp_minus", "f12": the
names of `game.vocabulary.KEY_NAMES`, with "shift+" or "ctrl+" before them); this module is the
one place a name meets pygame's constant, for the bindings (`game.app.keymap`), the scripts
(`game.app.script`) and the lesson demos (`game.app.demo`) alike.
"""

from __future__ import annotations

import pygame

from game.vocabulary import KEY_MODIFIERS, KEY_NAMES

_SPECIAL_KEYS = {
    "space": pygame.K_SPACE, "tab": pygame.K_TAB, "escape": pygame.K_ESCAPE,
    "esc": pygame.K_ESCAPE, "return": pygame.K_RETURN, "enter": pygame.K_RETURN,
    "period": pygame.K_PERIOD, ".": pygame.K_PERIOD, "minus": pygame.K_MINUS,
    "-": pygame.K_MINUS, "equals": pygame.K_EQUALS, "=": pygame.K_EQUALS,
    "[": pygame.K_LEFTBRACKET, "]": pygame.K_RIGHTBRACKET, "left": pygame.K_LEFT,
    "right": pygame.K_RIGHT, "up": pygame.K_UP, "down": pygame.K_DOWN,
    "backspace": pygame.K_BACKSPACE, "semicolon": pygame.K_SEMICOLON, ";": pygame.K_SEMICOLON,
    "quote": pygame.K_QUOTE, "'": pygame.K_QUOTE,
}  # fmt: skip
MODIFIER_KEYS: dict[str, tuple[int, int]] = dict(
    zip(
        KEY_MODIFIERS,
        ((pygame.K_LSHIFT, pygame.KMOD_LSHIFT), (pygame.K_LCTRL, pygame.KMOD_LCTRL)),
        strict=True,
    )
)
"""Each modifier's key, pressed before the key it modifies, and its flag."""
MODIFIER_FLAGS = {"shift": pygame.KMOD_SHIFT, "ctrl": pygame.KMOD_CTRL}
"""What a binding needs held for each modifier: either Shift, either Ctrl."""


def _code(name: str) -> int:
    """The pygame key of a name in `KEY_NAMES`: a letter or digit, F1-F12, a keypad key
    ("kp5", "kp_minus") or a special key."""
    if name in _SPECIAL_KEYS:
        return _SPECIAL_KEYS[name]
    upper = name.startswith("kp") or (name.startswith("f") and len(name) > 1)
    return int(getattr(pygame, f"K_{name.upper()}" if upper else f"K_{name}"))


KEY_CODES: dict[str, int] = {name: _code(name) for name in KEY_NAMES}
"""Every key name of `game.vocabulary.KEY_NAMES`, and its pygame key."""


def key_and_modifiers(combination: str) -> tuple[int, int]:
    """("shift+c" ->) the pygame key and the modifier flags a binding needs held."""
    *modifiers, name = combination.lower().split("+")
    if name not in KEY_CODES or any(modifier not in MODIFIER_FLAGS for modifier in modifiers):
        raise ValueError(f"not a key name: {combination!r}")
    held = 0
    for modifier in modifiers:
        held |= MODIFIER_FLAGS[modifier]
    return KEY_CODES[name], held
