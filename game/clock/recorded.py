"""`RecordedFrames`: a `FrameSource` that plays back a list of frame lengths.

The plainest source there is: the next frame lasts the next length in the list, whatever the
frame before it ran. That is where real frame times captured on some machine plug in, and what a
test hands the loop to say "these frames, exactly" (as httpx's `MockTransport` stands in for the
network). Its frames hold their drawing and their stalls already, so a headless run's render knobs
have nothing to turn: `render_cost_ns` is 0 and `set_render` changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from game.clock.wall import check_duration
from timestep_lab import FrameRan


class RecordedFrames:
    """Frame lengths in whole ns, played in order; `next_frame` says None once they run out."""

    render_cost_ns = 0

    def __init__(self, lengths_ns: Iterable[int]) -> None:
        self.lengths_ns = tuple(check_duration(ns, "a recorded frame") for ns in lengths_ns)
        self.played = 0
        """How many of the frames have been handed out."""
        self._now = 0

    @property
    def end_ns(self) -> int:
        return self._now

    def next_frame(self, ran: FrameRan, until_ns: Fraction | int | None = None) -> int | None:
        """The next recorded length; `ran` changes nothing (see `FrameSource.next_frame`)."""
        if self.played == len(self.lengths_ns):
            return None
        length = self._length(self.lengths_ns[self.played], ran)
        if until_ns is not None and self._now + length > until_ns:
            return None
        self.played += 1
        self._now += length
        return length

    def _length(self, recorded_ns: int, ran: FrameRan) -> int:
        """The frame's length from its recorded one: as recorded (a subclass may add the work
        the frame before it ran, as the capture's headroom does)."""
        return recorded_ns

    def set_render(
        self, render_fps: Fraction | int | None = None, render_cost_ns: Fraction | int | None = None
    ) -> None:
        """Nothing to change: a recorded frame's length holds its drawing already."""
