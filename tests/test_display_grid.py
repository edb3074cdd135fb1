"""Fitting a display's refresh grid from the times frames reached the screen."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from game.display.grid import RefreshGrid, fit_refresh_grid

NS = 1_000_000_000


def display_times(
    hz: Fraction, count: int, *, jitter_ns: int, offset_ns: Fraction, seed: int
) -> tuple[list[int], list[int]]:
    """`count` display times on the vblanks of `hz` from `offset_ns`, a frame every 1 to 3
    refreshes (a game that sometimes misses one or two), each off by up to `jitter_ns` either
    way; and each one's true refresh index."""
    rng = random.Random(seed)
    period = NS / hz
    index, indices, times = 0, [], []
    for _ in range(count):
        index += rng.choice((1, 1, 1, 1, 2, 3))
        indices.append(index)
        times.append(round(offset_ns + index * period) + rng.randint(-jitter_ns, jitter_ns))
    return times, indices


@pytest.mark.parametrize(
    ("hz", "period_ps", "fitted_hz"),
    [(Fraction(60), 16_666_664_631, "60.000"), (Fraction(144), 6_944_442_409, "144.000")],
)
def test_the_grid_is_recovered_from_jittered_display_times(
    hz: Fraction, period_ps: int, fitted_hz: str
) -> None:
    # 5,000 display times, each up to 0.4 ms off its vblank: the period comes back within
    # 2.1 ns of 1/hz (what 0.23 ms of RMS noise leaves over 7,486 refreshes), and every frame
    # is put on its own refresh, the fitted vblank within 0.015 ms of the true one.
    offset = Fraction(3_217_000)
    times, indices = display_times(hz, 5_000, jitter_ns=400_000, offset_ns=offset, seed=60)
    grid = fit_refresh_grid(np.array(times, dtype=np.int64))
    assert grid.period_ps == period_ps
    assert f"{float(grid.refresh_hz):.3f}" == fitted_hz
    assert abs(grid.period_ns - NS / hz) < Fraction(21, 10)
    assert grid.on_a_grid  # the noise: 0.2 ms by the median, 0.4 ms at worst (and the fit's)
    assert (grid.median_residual_ns // 1000, grid.worst_residual_ns // 1000) == (196, 411)
    vblanks = grid.nearest_vblanks_ps(np.array(times, dtype=np.int64))
    true_vblanks = [round((offset + index * NS / hz) * 1000) for index in indices]
    assert int(np.abs(vblanks - np.array(true_vblanks)).max()) < 15_000_000  # ps


def test_exact_display_times_give_the_exact_grid() -> None:
    # A 100 Hz display's vblanks from 5 ms, some refreshes missed: the fit is the grid itself,
    # and time 0 is half a refresh after a vblank.
    times = [5_000_000 + index * 10_000_000 for index in (0, 1, 2, 4, 5, 7, 8, 9)]
    grid = fit_refresh_grid(np.array(times, dtype=np.int64))
    assert (grid.period_ns, grid.offset_ns, grid.refresh_hz) == (10_000_000, 5_000_000, 100)
    assert (grid.frames, grid.refreshes, grid.median_residual_ns, grid.worst_residual_ns) == (
        8,
        9,
        0,
        0,
    )
    assert grid.phase == Fraction(1, 2)


def test_a_display_that_never_shows_neighbouring_refreshes_needs_its_rate_told() -> None:
    # 20 fps on 60 Hz: frames 3 refreshes apart look like a 20 Hz grid, which they also sit on;
    # told the display's rate, the fit counts the refreshes between them.
    times = [round(index * 3 * Fraction(NS, 60)) for index in range(1, 100)]
    alone = fit_refresh_grid(np.array(times, dtype=np.int64))
    assert f"{float(alone.refresh_hz):.3f}" == "20.000"
    told = fit_refresh_grid(np.array(times, dtype=np.int64), refresh_hz=Fraction(60))
    assert (f"{float(told.refresh_hz):.3f}", told.refreshes) == ("60.000", 294)


def test_torn_frames_sit_on_no_grid() -> None:
    # Display times placed at random: the residuals are about 0.29 of a period, not a grid.
    rng = random.Random(160)
    times = sorted(rng.randrange(0, 10 * NS) for _ in range(2_000))
    assert not fit_refresh_grid(np.array(times, dtype=np.int64)).on_a_grid


def test_a_nominal_grid_is_stated_not_fitted() -> None:
    grid = RefreshGrid.nominal(Fraction(60))
    assert (grid.fitted, grid.period_ps, grid.offset_ps) == (False, 16_666_666_667, 0)


@pytest.mark.parametrize(
    ("times", "message"),
    [([5, 5, 5], "at least two frames"), ([9, 4], "in time order")],
)
def test_too_few_or_unordered_times_are_refused(times: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fit_refresh_grid(np.array(times, dtype=np.int64))
