"""Frame-edge presses on a capture: the input lab's formula, on arrays."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple, cast

import numpy as np

from game.workshop.captures.presses import press_shares
from game.workshop.runs.runner import FrameReport
from game.workshop.tables.frame_edge import frame_edge_shares


class _Plan(NamedTuple):
    steps: int


class _Report(NamedTuple):
    """What `frame_edge_shares` reads of a `FrameReport`."""

    frame_ns: int
    plan: _Plan


def test_a_worked_example() -> None:
    """Frames of 10, 20, 30 and 40 ns running 0, 1, 2 and 3 ticks: presses made during the
    first are read by no tick (10 of 100), during the last two by two or more (70 of 100)."""
    shares = press_shares(np.array([10, 20, 30, 40], np.int64), np.array([0, 1, 2, 3], np.int64))
    assert shares == (Fraction(1, 10), Fraction(7, 10))


def test_the_same_shares_as_the_input_lab() -> None:
    rng = np.random.default_rng(4)
    elapsed = rng.integers(1, 40_000_000, 2_000)
    steps = rng.integers(0, 4, 2_000)
    reports = [_Report(int(e), _Plan(int(s))) for e, s in zip(elapsed, steps, strict=True)]
    expected = frame_edge_shares(cast(Sequence[FrameReport], reports))
    assert tuple(press_shares(elapsed, steps)) == expected


def test_no_time_no_shares() -> None:
    none = np.zeros(0, np.int64)
    assert press_shares(none, none) == (0, 0)
