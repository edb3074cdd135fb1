"""`PolicyFigures`: what one policy did with a capture's frames at one tick rate.

The figures `capture` prints and `capture --json` gives (one object per tick rate and policy),
read off an open-loop run's arrays: frames, ticks, how many frames ran each number of ticks,
the time dropped, the longest catch-up (the most ticks one frame ran), the lag at the end
(dropped plus carried: the capture's time minus the simulated time), and the share of
frame-edge presses lost and doubled (`presses`). All exact; the `*_ns` values are rounded to
whole ns only when written out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.workshop.captures.frame_times import FrameTimes, exact_sum
from game.workshop.captures.open_loop import OpenLoopRun
from game.workshop.captures.presses import press_shares
from timestep_lab import round_ns

_COUNTED_STEPS = 1 << 16
"""Up to this many steps a frame, the histogram is counted with one slot per number."""
SPIRAL_OPEN_LOOP = None
"""An open-loop run's spiral verdict. The spiral is frames that grow *because* the ticks owed grow
(`game.session.spiral`); a capture's frames are what they were, whatever the policy planned,
so no frame of it can grow because of a tick: the question has no answer here (null), not
"no". The headroom's closed-loop runs are where a capture can spiral."""


@dataclass(frozen=True, slots=True)
class PolicyFigures:
    policy: str
    hz: Fraction
    frames: int
    ticks: int
    steps_per_frame: Mapping[int, int]
    """How many frames ran each number of ticks (only the numbers some frame ran)."""
    dropped_ns: Fraction
    lag_ns: Fraction
    longest_catch_up: int
    """The most ticks one frame ran."""
    longest_catch_up_row: int | None
    """The capture's row of the first frame that ran them (None without frames)."""
    lost_share: Fraction
    doubled_share: Fraction
    ledger_ok: bool
    """Every frame balanced, to the grain (it always does; it is checked all the same)."""

    def record(self) -> dict[str, object]:
        """The `--json` keys of the issue's contract that these figures answer."""
        return {
            "policy": self.policy,
            "hz": json_number(self.hz),
            "frames": self.frames,
            "ticks": self.ticks,
            "steps_per_frame": {str(steps): n for steps, n in self.steps_per_frame.items()},
            "dropped_ns": round_ns(self.dropped_ns),
            "lag_ns": round_ns(self.lag_ns),
            "longest_catch_up": self.longest_catch_up,
            "longest_catch_up_row": self.longest_catch_up_row,
            "spiral": SPIRAL_OPEN_LOOP,
            "lost_share": json_number(round(self.lost_share, 9)),
            "doubled_share": json_number(round(self.doubled_share, 9)),
            "ledger_ok": self.ledger_ok,
        }


def figures_of(run: OpenLoopRun, times: FrameTimes) -> PolicyFigures:
    """Read the figures off one run of `times`' frames."""
    steps = run.steps
    histogram = steps_histogram(steps)
    per_ns = run.grain.per_ns
    dropped = exact_sum(run.dropped)
    carried = int(run.carried[-1]) if len(steps) else 0
    longest = int(steps.max()) if len(steps) else 0
    row = int(times.row[int(np.argmax(steps))]) if len(steps) else None
    shares = press_shares(times.elapsed_ns, steps)
    return PolicyFigures(
        policy=run.settings.policy,
        hz=run.settings.hz,
        frames=len(steps),
        ticks=exact_sum(steps),
        steps_per_frame=histogram,
        dropped_ns=Fraction(dropped, per_ns),
        lag_ns=Fraction(dropped + carried, per_ns),
        longest_catch_up=longest,
        longest_catch_up_row=row,
        lost_share=shares.lost,
        doubled_share=shares.doubled,
        ledger_ok=bool(run.balances().all()),
    )


def steps_histogram(steps: NDArray[Any]) -> dict[int, int]:
    """How many frames ran each number of steps, fewest steps first: counted in place
    (`bincount`) when no frame ran more than `_COUNTED_STEPS`, else sorted (`unique`, which
    copies a million frames' steps to sort them)."""
    if not len(steps):
        return {}
    if steps.dtype == np.int64 and int(steps.max()) <= _COUNTED_STEPS:
        return {value: n for value, n in enumerate(np.bincount(steps).tolist()) if n}
    values, counts = np.unique(steps, return_counts=True)
    return {int(value): int(n) for value, n in zip(values, counts, strict=True)}


def json_number(value: Fraction) -> int | float:
    """An exact decimal as a JSON number: whole ones as integers; others (0.123456789, a tick
    rate of 59.94) as the float whose shortest text is that decimal."""
    return value.numerator if value.denominator == 1 else float(value)


def nine_places(share: Fraction) -> str:
    """A share written to 9 decimal places, rounded exactly (half to even)."""
    billionths = round(share * 10**9)
    return f"{billionths // 10**9}.{billionths % 10**9:09d}"
