"""`TimeSync`: how the peer that runs ahead of the other slows down.

Both peers predict the other's input from the last one they heard, so the one that is ahead
rolls back deeper and more often, and the other hardly at all. Time sync evens it out, one of
two ways (the figures are GGPO's, `src/lib/ggpo/timesync.h` in pond3r/ggpo; each figure and its
source: `docs/references.md#rollback`):

- `wait`, as GGPO's `TimeSync::recommend_frame_wait_duration`: each peer averages its frame
  advantage (its tick minus its estimate of the other's) over the last 40 frames; when both
  averages agree that it is ahead, it waits half the gap, rounded, for that many frames, if
  that is at least 3, and at most 9. A visible stutter, as GGRS's `WaitRecommendation` says.
  After a wait the average starts afresh (GGPO asks again only after a while).
- `stretch`, as GGRS's examples do: while the peer is a whole tick or more ahead, each of its
  ticks lasts 10% longer on its wall clock, so it drifts back without a pause. Ahead by GGRS's
  `average_frame_advantage`: the two averages met in the middle, (ours - theirs) / 2, so that a
  lead that flickers between 0 and 1 from frame to frame (frames that do not fall on the other
  peer's ticks) is not taken for one.

Advantages are exact `Fraction`s of a tick; nothing here reads a clock.
"""

from __future__ import annotations

import math
from collections import deque
from fractions import Fraction

from game.network.settings import TimeSyncMode

FRAME_WINDOW = 40
"""GGPO's `FRAME_WINDOW_SIZE`: the frames the advantage is averaged over."""
MIN_WAIT_FRAMES = 3
"""GGPO's `MIN_FRAME_ADVANTAGE`: a smaller gap is not worth a wait."""
MAX_WAIT_FRAMES = 9
"""GGPO's `MAX_FRAME_ADVANTAGE`: the longest wait."""
STRETCH = Fraction(11, 10)
"""How much longer a tick lasts while the peer is ahead, under `stretch` (10%)."""


class TimeSync:
    """One peer's time sync: its recent frame advantages and what they recommend."""

    def __init__(self, mode: TimeSyncMode) -> None:
        self.mode = mode
        self._leads: deque[Fraction] = deque(maxlen=FRAME_WINDOW)
        self._sum = Fraction(0)

    def saw(self, lead: Fraction) -> None:
        """One more frame, `lead` ticks ahead of the other peer (negative: behind)."""
        if len(self._leads) == FRAME_WINDOW:
            self._sum -= self._leads[0]
        self._leads.append(lead)
        self._sum += lead

    @property
    def average(self) -> Fraction:
        """The average lead over the frames seen (at most the last 40); 0 before any."""
        return self._sum / len(self._leads) if self._leads else Fraction(0)

    def wait_frames(self, their_average: Fraction) -> int:
        """Under `wait`, how many frames to run no tick: half the gap between the two
        averages, rounded, when both say this peer is ahead by at least 3 frames of it."""
        if self.mode != "wait" or len(self._leads) < FRAME_WINDOW:
            return 0
        gap = self.average - their_average
        frames = math.floor(gap / 2 + Fraction(1, 2))
        if frames < MIN_WAIT_FRAMES:
            return 0
        self._leads.clear()
        self._sum = Fraction(0)
        return min(frames, MAX_WAIT_FRAMES)

    def step_factor(self, their_average: Fraction) -> Fraction:
        """How long the next tick lasts, in steps of the wall clock: 11/10 under `stretch`
        while the two averages, met in the middle, put this peer a whole tick or more ahead."""
        if self.mode == "stretch" and self._leads and self.average - their_average >= 2:
            return STRETCH
        return Fraction(1)
