"""The overload indicator: a light for a machine that cannot keep up, not for one long frame.

A frame is *strained* when it wanted more whole steps than the cap M allows, or when time was
dropped. The light turns on after `overload_frames` strained frames in a row and turns off once a
frame is not strained and carries no whole step (the backlog is cleared), so a stall alone never
lights it and the light does not flicker.

MonoGame's `IsRunningSlowly` follows another rule: it counts every extra update a frame runs,
turns on when that count reaches 5 and off when one-update frames have paid it back to 0. So it
lights after a slowdown that was caught up within the cap, where this light stays off.
"""

from __future__ import annotations

from typing import NamedTuple


class OverloadState(NamedTuple):
    """How many strained frames in a row, and whether the light is on (a per-frame value)."""

    streak: int = 0
    on: bool = False

    def after(self, strained: bool, caught_up: bool, frames_to_light: int) -> OverloadState:
        """The state after one more frame; `caught_up` means no whole step is carried."""
        streak = self.streak + 1 if strained else 0
        on = (strained or not caught_up) if self.on else streak >= frames_to_light
        if streak == self.streak and on == self.on:
            return self  # most frames: nothing changed, no new value to build
        return OverloadState(streak, on)
