"""`Draws`: a seeded stream of 64-bit numbers, one per question the network model asks.

SplitMix64, as the virtual clock's `FrameJitter` draws it: integer arithmetic written out, so a
scenario's packets are lost and delayed the same way next year, on every machine. Each stream
(flips, delays, losses) has its own seed, so a higher loss does not move the remote's inputs.
"""

from __future__ import annotations

import math
from fractions import Fraction

_MASK_64 = (1 << 64) - 1
_WHOLE = 1 << 64


class Draws:
    """Seeded draws: `chance` for yes/no questions, `up_to` for whole numbers."""

    def __init__(self, seed: int, stream: int) -> None:
        self._state = (seed * 0x2545F4914F6CDD1D + stream * 0x9E3779B97F4A7C15) & _MASK_64

    def _next(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK_64
        mixed = self._state
        mixed = ((mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9) & _MASK_64
        mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & _MASK_64
        return mixed ^ (mixed >> 31)

    def chance(self, probability: Fraction) -> bool:
        """True with `probability` (exact: a draw below probability x 2^64)."""
        if probability <= 0:
            return False
        if probability >= 1:
            return True
        return self._next() < math.floor(probability * _WHOLE)

    def up_to(self, most: int) -> int:
        """A whole number from 0 to `most` (0 without a draw when `most` is 0)."""
        return self._next() % (most + 1) if most else 0
