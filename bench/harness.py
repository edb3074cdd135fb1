"""Small timing helpers: medians over repeated runs, and Markdown tables of results.

The machines are shared and noisy, so every figure is a median of many repeats, and every
figure sits beside a baseline measured in the same run: the ratio is what to trust.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field


def median_ns_per_call(fn: Callable[[], object], *, number: int, repeat: int) -> float:
    """Median over `repeat` batches of the time per call, each batch `number` calls long."""
    timings = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        for _ in range(number):
            fn()
        timings.append((time.perf_counter_ns() - start) / number)
    return statistics.median(timings)


def median_ns_per_batch(fn: Callable[[], object], *, repeat: int) -> float:
    """Median time of one call of `fn` (which does a whole batch of work itself)."""
    timings = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        fn()
        timings.append(time.perf_counter_ns() - start)
    return statistics.median(timings)


@dataclass
class Section:
    """One part of BENCHMARKS.md: a title, what it measures, a table, and notes."""

    title: str
    intro: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, *cells: object) -> None:
        self.rows.append([str(cell) for cell in cells])

    def markdown(self) -> str:
        lines = [f"## {self.title}", "", self.intro, ""]
        lines.append("| " + " | ".join(self.columns) + " |")
        lines.append("|" + "|".join("---" for _ in self.columns) + "|")
        lines.extend("| " + " | ".join(row) + " |" for row in self.rows)
        if self.notes:
            lines.append("")
            lines.extend(self.notes)
        return "\n".join(lines) + "\n"


def us(ns: float) -> str:
    return f"{ns / 1_000:.2f} us"


def ms(ns: float) -> str:
    return f"{ns / 1_000_000:.3f} ms"


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"
