"""`VrrPanel`: when a variable-refresh panel shows each frame, and what it shows in between.

A VRR panel (48-144 Hz, say) starts a refresh when a frame arrives, but no sooner than 1/max
after its last refresh started (that scan-out must finish first), and it cannot hold a picture
longer than 1/min: by then it must refresh, showing the last frame again (a *repeat*).

Below the range frames come further apart than 1/min, and something must repeat them. Without
help the panel repeats on its own every 1/min, wherever that falls. Low framerate compensation
(LFC: AMD FreeSync's, G-SYNC's frame doubling) instead shows each frame m times, evenly, m the
smallest whole number that brings the predicted frame interval / m within 1/min: 30 fps on
48-144 Hz is shown twice, at 60 Hz; 20 fps three times, at 60 Hz. (AMD's Linux driver picks
the m nearest the middle of the range; the smallest is the plainest rule that stays inside it.)

The prediction is the last frame-to-frame interval (arrival to arrival), as AMD's driver uses
the last time between two flips. It can be wrong: a frame that comes early, while a repeat is
being scanned out, waits until 1/max after that repeat began. That is a *collision*, counted:
LFC keeps the panel in its range, but a frame that lands during a repeat is shown late, and
shown late is judder.

Why LFC needs max >= 2 x min. An interval just above 1/min needs m = 2, which puts the repeats
just above 1/(2 min) apart; that is within the range only when 1/max <= 1/(2 min). AMD's Linux
driver turns its below-the-range repeats off on narrower panels, and so does this one: a 48-75 Hz
panel repeats on its own at 1/min.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil

from timestep_lab import NS_PER_SECOND

NO_REPEATS: tuple[Fraction, ...] = ()


def lfc_fits(min_hz: Fraction, max_hz: Fraction) -> bool:
    """Whether a range can take LFC: whether every interval above 1/min, split into its
    `showings`, lands inside the range (see the module's docstring)."""
    return max_hz >= 2 * min_hz


def showings(interval_ns: Fraction, longest_ns: Fraction) -> int:
    """LFC's m: the fewest showings of a frame that keep each within `longest_ns` (1/min)."""
    return ceil(interval_ns / longest_ns)


@dataclass(frozen=True, slots=True)
class VrrCounts:
    """What a VRR panel did over a run: the summary's `vrr_*` keys."""

    lfc: bool
    repeats: int
    collisions: int

    def row(self) -> dict[str, int | bool]:
        return {"vrr_lfc": self.lfc, "vrr_repeats": self.repeats, "vrr_collisions": self.collisions}


class VrrPanel:
    """A variable-refresh panel, exact and deterministic: `show` each arriving frame in turn."""

    def __init__(
        self, min_hz: Fraction, max_hz: Fraction, *, lfc: bool, last_refresh_ns: Fraction
    ) -> None:
        self.longest = NS_PER_SECOND / min_hz
        """The longest a picture may stay: 1/min."""
        self.shortest = NS_PER_SECOND / max_hz
        """The shortest time between two refresh starts: 1/max, one scan-out."""
        self.lfc = lfc and lfc_fits(min_hz, max_hz)
        """LFC asked for, and the range can take it."""
        self._last_refresh = last_refresh_ns
        self._last_arrival: Fraction | None = None
        self._repeat_every = self.longest
        self.repeats = 0
        """Refreshes that showed the last frame again (LFC's, or the panel's own at 1/min); the
        panel's refreshes before the first frame are not counted, nor reported."""
        self.collisions = 0
        """Frames that arrived during a repeat's scan-out and waited for it to end."""

    def counts(self) -> VrrCounts:
        return VrrCounts(self.lfc, self.repeats, self.collisions)

    def show(self, arrived_ns: Fraction) -> tuple[Fraction, tuple[Fraction, ...]]:
        """When a frame arriving at `arrived_ns` goes on screen, and the refreshes before it that
        repeated the last frame. Calls come in time order."""
        repeats = self._repeats_before(arrived_ns)
        if self._last_arrival is None:
            repeats = NO_REPEATS  # what the panel showed before the first frame was not ours
        earliest = self._last_refresh + self.shortest  # the last scan-out has ended
        if repeats and arrived_ns < earliest:
            self.collisions += 1
        self.repeats += len(repeats)
        shown = earliest if arrived_ns < earliest else arrived_ns
        self._last_refresh = shown
        self._plan_repeats(arrived_ns)
        return shown, repeats

    def _repeats_before(self, arrived_ns: Fraction) -> tuple[Fraction, ...]:
        """The repeats started before the frame arrived: one every `_repeat_every` after the
        last refresh (a repeat due at the very instant the frame comes is the frame instead)."""
        last, every = self._last_refresh, self._repeat_every
        if arrived_ns <= last + every:
            return NO_REPEATS
        count = ceil((arrived_ns - last) / every) - 1
        self._last_refresh = last + count * every
        return tuple(last + index * every for index in range(1, count + 1))

    def _plan_repeats(self, arrived_ns: Fraction) -> None:
        """How often to repeat the frame just shown: with LFC, after an interval longer than
        1/min, that interval split into `showings`; otherwise the panel's own 1/min."""
        previous, self._last_arrival = self._last_arrival, arrived_ns
        self._repeat_every = self.longest
        if self.lfc and previous is not None:
            interval = arrived_ns - previous
            if interval > self.longest:
                self._repeat_every = interval / showings(interval, self.longest)
