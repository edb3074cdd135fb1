"""The overload indicator: a light that does not flicker.

A single long frame (a stall) is not an overload; a machine that cannot keep up is. Like
MonoGame's `IsRunningSlowly`, the light turns on only after `overload_frames` strained frames in a
row, and turns off only once a frame runs unstrained with the backlog cleared. A frame is
*strained* when it wanted more whole steps than the cap M allows, or when time was dropped.
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
        if self.on:
            return OverloadState(streak, strained or not caught_up)
        return OverloadState(streak, streak >= frames_to_light)
