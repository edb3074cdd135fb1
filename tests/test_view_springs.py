"""Spring coils: a fixed number of teeth from anchor to bob, so the coil stretches with it."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pygame
import pytest

from game.view.springs import CORNERS, TURNS, CoilBook, coil_points, draw_coils, draw_mounts


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


@pytest.fixture(scope="module")
def display() -> Iterator[None]:
    pygame.display.init()
    yield
    pygame.display.quit()


@pytest.mark.parametrize("scale", [20.0, 28.6, 40.0, 61.0])  # wires of 1, 1, 2 and 3 pixels
def test_kept_coil_sprites_draw_the_pixels_of_drawing_each_coil(
    scale: float, display: None
) -> None:
    """`CoilBook` blits kept sprites; drawing every mount and stroke afresh is the reference.
    Some coils reach past the clip (drawn directly then), and each is drawn twice, the second
    time from the kept sprite."""
    rng = np.random.default_rng(int(scale))
    anchors = rng.integers(-40, 440, (12, 2))
    bobs = anchors + rng.integers(-160, 160, (12, 2))
    background = pygame.Surface((400, 300))
    pygame.surfarray.pixels3d(background)[...] = rng.integers(0, 256, (400, 300, 3), np.uint8)
    book = CoilBook()
    for _ in range(2):
        direct, kept = background.copy(), background.copy()
        for surface in (direct, kept):
            surface.set_clip(pygame.Rect(20, 10, 360, 270))
        draw_mounts(direct, anchors.astype(np.float64), scale)
        draw_coils(direct, anchors.astype(np.float64), bobs.astype(np.float64), scale)
        ends = [
            (*anchor, *bob) for anchor, bob in zip(anchors.tolist(), bobs.tolist(), strict=True)
        ]
        book.draw(kept, anchors.tolist(), ends, scale)
        assert (pygame.surfarray.array3d(direct) == pygame.surfarray.array3d(kept)).all()
