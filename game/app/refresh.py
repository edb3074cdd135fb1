"""The display's refresh rate, as pygame-ce reports it, or a guess said to be one.

pygame-ce reads the desktop's refresh rates (`pygame.display.get_desktop_refresh_rates`, one
per monitor); a virtual X server or an old SDL may report 0 or nothing, and then the game
guesses 60 Hz and the HUD says "guess".
"""

from __future__ import annotations

from fractions import Fraction

import pygame

GUESS_HZ = Fraction(60)


def desktop_refresh() -> tuple[Fraction, bool]:
    """(refresh rate, whether it was read rather than guessed) of the first monitor."""
    try:
        rates = pygame.display.get_desktop_refresh_rates()
    except (AttributeError, pygame.error):
        return GUESS_HZ, False
    if rates and 0 < rates[0] <= 1000:
        return Fraction(rates[0]), True
    return GUESS_HZ, False
