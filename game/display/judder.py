"""The judder meter: what the eye sees, refresh by refresh, against where things truly are.

Every shown refresh puts a picture on screen that shows the world at some simulated time (the
*drawn* time: the last tick, or between the last two at alpha, or ahead of it). The truth at that
refresh is the world at the moment the photons leave: the wall time of the refresh, scaled. The
meter compares the two:

- latency: how far the picture is behind the truth, on average (interpolation shows the past);
- position error: the RMS of the drawn time's error about that average, times a speed: the
  wobble of a moving body around where a steady picture would put it;
- judder: the RMS error of the *displayed velocity* (the drawn time moved per refresh against
  the wall time per refresh), in % of the true speed: 0 for perfectly even motion, 100 % for a
  picture that stands still every other refresh;
- cadence: the ticks each refresh advanced, as digits (`010010100101...` for 60 Hz ticks on a
  144 Hz display without interpolation), and `holds`, the refreshes each tick stayed on screen
  (`23232...`, the 2/3 cadence).

Positions. The meter works in time and multiplies by a speed: the horizontal motion of a
projectile is linear in time (x = x0 + vx t, for every integrator here), so a picture drawn
at time T instead of t is off by exactly vx (T - t), the analytic path's own error. Times come
in as whole ns (int64); the figures are rounded to 0.001 % and 0.001 ms, below which a clock
that reads whole nanoseconds cannot tell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
CADENCE_DIGITS = 24


@dataclass(frozen=True, slots=True)
class JudderReport:
    """The meter's figures over a run (or the last second of a live game)."""

    refreshes: int
    latency_ms: float
    position_error_ms: float
    position_error_m: float
    judder_pct: float
    cadence: str
    holds: str

    def row(self) -> dict[str, float | int | str]:
        return {
            "refreshes": self.refreshes,
            "latency_ms": self.latency_ms,
            "position_error_ms": self.position_error_ms,
            "position_error_m": self.position_error_m,
            "judder_pct": self.judder_pct,
            "cadence": self.cadence,
            "holds": self.holds,
        }


def on_screen(shown_ns: Ints, refreshes_ns: Ints) -> npt.NDArray[np.intp]:
    """For each refresh, the index of the frame on screen: the last one shown at or before it
    (-1 before the first)."""
    index = np.searchsorted(shown_ns, refreshes_ns, side="right")
    index -= 1
    return index


def measure(
    refresh_ns: Ints,
    drawn_ns: Ints,
    ticks: Ints,
    *,
    time_scale: float = 1.0,
    speed_m_s: float = 1.0,
) -> JudderReport:
    """The figures for pictures on screen at `refresh_ns`, showing simulated time `drawn_ns`
    after `ticks` ticks (one entry per refresh, repeats included, in time order)."""
    count = int(refresh_ns.shape[0])
    if count < 3:
        return JudderReport(count, 0.0, 0.0, 0.0, 0.0, "", "")
    truth = refresh_ns.astype(np.float64)  # in place from here: a capture has a million
    truth *= time_scale  # refreshes, and each array of them is 8 MB
    error = drawn_ns.astype(np.float64)
    error -= truth
    del truth
    latency = -float(error.mean())
    error += latency
    error **= 2
    wobble = float(np.sqrt(np.mean(error)))
    del error
    velocity = velocity_errors(refresh_ns, drawn_ns, time_scale)
    velocity **= 2
    judder = float(np.sqrt(np.mean(velocity)))
    advanced = np.diff(ticks)
    return JudderReport(
        refreshes=count,
        latency_ms=round(latency / 1e6, 3),
        position_error_ms=round(wobble / 1e6, 3),
        position_error_m=round(wobble / 1e9 * speed_m_s, 6),
        judder_pct=round(judder, 3) + 0.0,
        cadence=cadence(advanced),
        holds=holds(advanced),
    )


def velocity_errors(refresh_ns: Ints, drawn_ns: Ints, time_scale: float = 1.0) -> Floats:
    """Per refresh after the first, in % of the true speed: how far the picture moved since
    the refresh before (`drawn_ns`) against how far the world truly moved (the wall time
    between the two refreshes, scaled), minus one. 0 is perfectly even motion; -100 a picture
    that stood still; +100 one that jumped twice as far."""
    wall = np.diff(refresh_ns).astype(np.float64)
    wall *= time_scale
    moved = np.diff(drawn_ns).astype(np.float64)
    moved /= wall
    moved -= 1.0
    moved *= 100.0
    return moved


def cadence(advanced: Ints) -> str:
    """The last `CADENCE_DIGITS` refreshes as digits of ticks advanced (9 means 9 or more)."""
    recent = np.minimum(advanced[-CADENCE_DIGITS:], 9)
    return "".join(str(int(value)) for value in recent)


def holds(advanced: Ints) -> str:
    """How many refreshes each of the recent ticks stayed on screen, as digits (the first and
    last runs are cut by the window, so they are left out)."""
    changes = np.flatnonzero(advanced)
    if changes.shape[0] < 3:
        return ""
    runs = np.minimum(np.diff(changes), 9)[-CADENCE_DIGITS // 2 :]
    return "".join(str(int(value)) for value in runs)
