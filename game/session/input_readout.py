"""What the input lab reports: the counters, the last press's latency, and the press timeline.

Plain frozen values, like the rest of the `Readout`: the HUD draws them, the headless tools
write them to JSON and CSV, and the tests compare them with exact numbers. Times are whole
nanoseconds of wall time since the session started.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple


class Fate(StrEnum):
    """What became of one press under one model."""

    PENDING = "pending"
    """Not acted on yet, and not lost yet (a latched press waiting for a tick)."""
    SEEN = "seen"
    """Acted on by exactly one tick."""
    DOUBLED = "doubled"
    """Acted on by two ticks or more: the game did it twice."""
    MERGED = "merged"
    """Taken together with an earlier press: the game did it once for both."""
    LOST = "lost"
    """No tick will ever act on it."""


class InputCounts(NamedTuple):
    """Every press is one of seen, doubled, merged, lost, or still pending. (A NamedTuple: a
    headless run keeps one with every frame it reports.)"""

    presses: int = 0
    seen: int = 0
    lost: int = 0
    doubled: int = 0
    merged: int = 0

    @property
    def pending(self) -> int:
        return self.presses - self.seen - self.lost - self.doubled - self.merged

    def record(self) -> dict[str, int]:
        return {
            "presses": self.presses,
            "seen": self.seen,
            "lost": self.lost,
            "doubled": self.doubled,
            "merged": self.merged,
        }


@dataclass(frozen=True, slots=True)
class PressLatency:
    """From a press to the picture that first shows its effect, in three parts (wall ns).

    `wait_ns`: until the tick that acts on it runs (the loop reads input at frame boundaries,
    so at least the rest of the frame it was pressed in). `interpolation_ns`: an interpolated
    picture shows the world (1 - alpha) of a step behind its newest tick. `present_ns`: from
    that tick to the flip of the frame that draws it.
    """

    wait_ns: int
    interpolation_ns: int
    present_ns: int

    @property
    def total_ns(self) -> int:
        return self.wait_ns + self.interpolation_ns + self.present_ns


@dataclass(frozen=True, slots=True)
class PressMark:
    """One press on the timeline strip: when it happened, the ticks that acted on it (none if
    lost, two if doubled), and the flip that first showed it."""

    button: str
    at_ns: int
    fate: Fate
    tick_at_ns: tuple[int, ...]
    shown_ns: int | None


@dataclass(frozen=True, slots=True)
class InputReadout:
    """One lane's input lab: its model, its counters, its last press, its recent timeline."""

    model: str
    counts: InputCounts
    last_fate: Fate | None = None
    """The latest press that was either shown or lost, and what became of it."""
    last_latency: PressLatency | None = None
    now_ns: int = 0
    presses: tuple[PressMark, ...] = ()
    ticks_at_ns: tuple[int, ...] = ()
    """When the recent ticks ran (wall ns)."""
    flips_ns: tuple[int, ...] = ()
    """When the recent frames were flipped (wall ns)."""
