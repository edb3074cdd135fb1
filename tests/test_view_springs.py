"""Spring coils: a fixed number of teeth from anchor to bob, so the coil stretches with it."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from game.view.springs import CORNERS, TURNS, coil_points


def coil(
    anchor: tuple[float, float], bob: tuple[float, float], *, width: float, lead: float
) -> npt.NDArray[np.float64]:
    """One spring's corners, (CORNERS, 2)."""
    corners: npt.NDArray[np.float64] = coil_points(
        np.array([anchor]), np.array([bob]), width=width, lead=lead
    )[0]
    return corners


def test_a_coil_runs_from_the_anchor_through_its_leads_and_teeth_to_the_bob() -> None:
    points = coil((0.0, 0.0), (0.0, 100.0), width=20.0, lead=10.0)
    assert points.shape == (CORNERS, 2) == (2 * TURNS + 4, 2)
    assert points[0].tolist() == [0.0, 0.0]
    assert points[1].tolist() == [0.0, 10.0]
    assert points[-2].tolist() == [0.0, 90.0]
    assert points[-1].tolist() == [0.0, 100.0]


def test_the_teeth_alternate_sides_at_half_the_width_evenly_spaced() -> None:
    teeth = coil((0.0, 0.0), (0.0, 100.0), width=20.0, lead=10.0)[2:-2]
    assert teeth[:, 0].tolist() == [-10.0, 10.0] * TURNS
    assert np.diff(teeth[:, 1]) == pytest.approx(np.full(2 * TURNS - 1, 80.0 / (2 * TURNS)))
    assert teeth[0, 1] == pytest.approx(10.0 + 40.0 / (2 * TURNS))


def test_a_short_spring_shortens_its_leads_to_a_fifth_of_its_length() -> None:
    points = coil((0.0, 0.0), (50.0, 0.0), width=4.0, lead=30.0)
    assert points[1].tolist() == [10.0, 0.0]
    assert points[-2].tolist() == [40.0, 0.0]


def test_a_spring_of_zero_length_collapses_to_its_anchor() -> None:
    points = coil((5.0, 5.0), (5.0, 5.0), width=4.0, lead=3.0)
    assert (points == 5.0).all()


def test_many_springs_are_coiled_at_once_each_between_its_own_ends() -> None:
    anchors = np.array([[0.0, 0.0], [100.0, 0.0], [200.0, 50.0]])
    bobs = np.array([[0.0, 60.0], [100.0, 90.0], [260.0, 50.0]])
    coils = coil_points(anchors, bobs, width=8.0, lead=5.0)
    assert coils.shape == (3, CORNERS, 2)
    assert (coils[:, 0] == anchors).all()
    assert (coils[:, -1] == bobs).all()
    for index in range(3):
        (ax, ay), (bx, by) = anchors[index].tolist(), bobs[index].tolist()
        assert (coils[index] == coil((ax, ay), (bx, by), width=8.0, lead=5.0)).all()
