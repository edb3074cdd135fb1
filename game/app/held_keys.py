"""`HeldKeys`: which modifier keys are down, tracked from the key events themselves.

`pygame.key.get_mods()` reads SDL's keyboard state, which posted events (tests, `--script`) never
update. Tracking KEYDOWN/KEYUP here makes a posted Shift followed by a posted Tab behave exactly
like a real Shift+Tab.
"""

from __future__ import annotations

import pygame

_MODIFIER_KEYS = {
    pygame.K_LSHIFT: pygame.KMOD_LSHIFT,
    pygame.K_RSHIFT: pygame.KMOD_RSHIFT,
    pygame.K_LCTRL: pygame.KMOD_LCTRL,
    pygame.K_RCTRL: pygame.KMOD_RCTRL,
}


class HeldKeys:
    """The modifiers held down, as a KMOD mask."""

    def __init__(self) -> None:
        self._mods = 0

    def observe(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in _MODIFIER_KEYS:
            self._mods |= _MODIFIER_KEYS[event.key]
        elif event.type == pygame.KEYUP and event.key in _MODIFIER_KEYS:
            self._mods &= ~_MODIFIER_KEYS[event.key]
        elif event.type == pygame.WINDOWFOCUSLOST:
            self._mods = 0  # the key-up happens in another window

    def mods(self, event_mods: int = 0) -> int:
        """The modifiers of a key event: what the event says, plus what we saw pressed."""
        return event_mods | self._mods
