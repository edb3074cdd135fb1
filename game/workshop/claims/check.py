"""Each claim of a lesson step set beside what its demo measured: one line, or one JSON object.

    lesson 7 step 1: lost_pct: claimed 75 +- 10 %, measured 75 %: ok
    lesson 8 step 1: judder_pct on a 165 Hz screen: claimed 130 +- 15 %, measured 128.4 %: ok

A claim holds when the measurement is within its tolerance of the expected figure; a figure
that could not be measured (None) never holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.config.exact import decimal_text
from game.workshop.claims.measures import MEASURES, Subject
from game.workshop.claims.record import DemoFrame, window
from game.workshop.files.lessons import Claim
from timestep_lab import NS_PER_SECOND, round_ns

PLACES = 3
"""Measurements are rounded to this many decimals (a thousandth of a ms, of a %)."""


def measured(frames: Sequence[DemoFrame], claim: Claim) -> float | None:
    """The claim's figure, measured over its window of the demo's frames."""
    to_ns = None if claim.to_s is None else round_ns(claim.to_s * NS_PER_SECOND)
    frames_in = window(frames, round_ns(claim.from_s * NS_PER_SECOND), to_ns)
    value = MEASURES[claim.measure].compute(frames_in, Subject(claim.lane - 1, claim.refresh_hz))
    return None if value is None else round(value, PLACES)


def _number(value: float) -> str:
    """At most `PLACES` decimals, and no trailing zeros: 1933.333, 75, 0.5."""
    return f"{value:.{PLACES}f}".rstrip("0").rstrip(".")


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """One claim of one step, and what the demo measured."""

    lesson: int
    step: int
    """1-based."""
    claim: Claim
    measured: float | None

    @property
    def ok(self) -> bool:
        value = self.measured
        return value is not None and abs(value - self.claim.expected) <= self.claim.tolerance

    @property
    def unit(self) -> str:
        return MEASURES[self.claim.measure].unit

    def what(self) -> str:
        """The claim's figure in words: its measure, lane, screen and window."""
        claim = self.claim
        parts = [claim.measure]
        if claim.lane != 1:
            parts.append(f"lane {claim.lane}")
        if claim.refresh_hz is not None:
            parts.append(f"on a {decimal_text(claim.refresh_hz)} Hz screen")
        if claim.from_s:
            parts.append(f"from {decimal_text(claim.from_s)} s")
        if claim.to_s is not None:
            parts.append(f"up to {decimal_text(claim.to_s)} s")
        return " ".join(parts[:1]) + (f" ({', '.join(parts[1:])})" if parts[1:] else "")

    def claimed(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"{_number(self.claim.expected)} +- {_number(self.claim.tolerance)}{unit}"

    def measurement(self) -> str:
        if self.measured is None:
            return "not measurable"
        return _number(self.measured) + (f" {self.unit}" if self.unit else "")

    def line(self) -> str:
        verdict = "ok" if self.ok else "DIFFERS"
        return (
            f"lesson {self.lesson} step {self.step}: {self.what()}: claimed {self.claimed()}, "
            f"measured {self.measurement()}: {verdict}"
        )

    def record(self) -> dict[str, object]:
        claim = self.claim
        return {
            "lesson": self.lesson,
            "step": self.step,
            "claim": claim.measure,
            "expected": claim.expected,
            "tolerance": claim.tolerance,
            "measured": self.measured,
            "ok": self.ok,
            "unit": self.unit,
            "lane": claim.lane,
        }


def check_step(
    lesson: int, step: int, claims: Sequence[Claim], frames: Sequence[DemoFrame]
) -> list[ClaimResult]:
    """Every claim of a step against its demo's frames."""
    return [ClaimResult(lesson, step, claim, measured(frames, claim)) for claim in claims]
