"""`SpiralDetector`: is the loop in a spiral of death right now?

The spiral: ticks cost more wall time than they simulate, so each frame owes more ticks than the
last, takes longer to run them, and owes even more. Seen from outside, the frame time keeps
growing, frame after frame. A single stall is a spike, not a spiral; a capped policy grows for a
while and then levels off at its cap, which is not a spiral either.

The detector lights after `frames` frames in a row that each took at least `growth_percent`
percent longer than the one before, the last one longer than `min_frame_ns`; it goes out after
`frames` frames in a row that did not grow. Integer arithmetic, like everything about time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class SpiralState(NamedTuple):
    """Where the detector stands after a frame (a NamedTuple: a new one every frame, cheap to
    build)."""

    growing: int = 0
    """Frames in a row that grew."""
    calm: int = 0
    """Frames in a row that did not grow."""
    last_frame_ns: int = 0
    on: bool = False


@dataclass(frozen=True, slots=True)
class SpiralDetector:
    frames: int = 4
    growth_percent: int = 5
    min_frame_ns: int = 50_000_000

    def after(self, state: SpiralState, frame_ns: int) -> SpiralState:
        grew = state.last_frame_ns > 0 and (
            frame_ns * 100 >= state.last_frame_ns * (100 + self.growth_percent)
        )
        growing = state.growing + 1 if grew else 0
        calm = 0 if grew else state.calm + 1
        if state.on:
            on = calm < self.frames
        else:
            on = growing >= self.frames and frame_ns >= self.min_frame_ns
        return SpiralState(growing, calm, frame_ns, on)
