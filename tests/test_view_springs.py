"""Spring coils: a fixed number of teeth from anchor to bob, so the coil stretches with it."""

from __future__ import annotations

import numpy as np
import pytest

from game.view.springs import TURNS, coil_points


def test_a_coil_runs_from_the_anchor_through_its_leads_and_teeth_to_the_bob() -> None:
    points = coil_points((0.0, 0.0), (0.0, 100.0), width=20.0, lead=10.0)
    assert points.shape == (2 * TURNS + 4, 2)
    assert points[0].tolist() == [0.0, 0.0]
    assert points[1].tolist() == [0.0, 10.0]
    assert points[-2].tolist() == [0.0, 90.0]
    assert points[-1].tolist() == [0.0, 100.0]


def test_the_teeth_alternate_sides_at_half_the_width_evenly_spaced() -> None:
    teeth = coil_points((0.0, 0.0), (0.0, 100.0), width=20.0, lead=10.0)[2:-2]
    assert teeth[:, 0].tolist() == [-10.0, 10.0] * TURNS
    spacing = np.diff(teeth[:, 1])
    assert spacing == pytest.approx(np.full(2 * TURNS - 1, 80.0 / (2 * TURNS)))
    assert teeth[0, 1] == pytest.approx(10.0 + 40.0 / (2 * TURNS))


def test_a_short_spring_shortens_its_leads_to_a_fifth_of_its_length() -> None:
    points = coil_points((0.0, 0.0), (50.0, 0.0), width=4.0, lead=30.0)
    assert points[1].tolist() == [10.0, 0.0]
    assert points[-2].tolist() == [40.0, 0.0]


def test_a_coil_of_zero_length_is_just_its_two_ends() -> None:
    points = coil_points((5.0, 5.0), (5.0, 5.0), width=4.0, lead=3.0)
    assert points.tolist() == [[5.0, 5.0], [5.0, 5.0]]
