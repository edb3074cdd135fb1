"""The camera: world metres (y up) to screen pixels (y down), letterboxed, and back."""

from __future__ import annotations

import numpy as np
import pytest

from game.view.camera import FAR_PX, Camera


def test_the_default_arena_fills_a_1280x720_window_at_40_pixels_per_metre() -> None:
    camera = Camera(32.0, 18.0, (0, 0, 1280, 720))
    assert camera.scale == 40.0
    assert camera.arena_rect == (0, 0, 1280, 720)
    px, py = camera.to_screen(np.array([0.0, 32.0, 8.0]), np.array([0.0, 18.0, 9.0]))
    assert px.tolist() == [0, 1280, 320]
    assert py.tolist() == [720, 0, 360]  # y up in the world is y down on screen


def test_a_square_window_letterboxes_the_arena_above_and_below() -> None:
    camera = Camera(32.0, 18.0, (0, 0, 1000, 1000))
    assert camera.scale == 31.25
    assert camera.origin_x == 0.0
    assert camera.ground_y == 781.25  # (1000 + 18 * 31.25) / 2
    assert camera.arena_rect == (0, 219, 1000, 562)
    px, py = camera.to_screen(np.array([0.0, 32.0]), np.array([0.0, 18.0]))
    assert px.tolist() == [0, 1000]
    assert py.tolist() == [781, 219]


def test_a_tall_narrow_window_letterboxes_at_the_sides() -> None:
    camera = Camera(32.0, 18.0, (0, 0, 1280, 1440))
    assert camera.scale == 40.0
    assert camera.arena_rect == (0, 360, 1280, 720)
    narrow = Camera(16.0, 18.0, (0, 0, 1280, 720))
    assert narrow.scale == 40.0
    assert narrow.arena_rect == (320, 0, 640, 720)


def test_the_right_half_of_a_split_screen_is_offset_by_its_left_edge() -> None:
    camera = Camera(32.0, 18.0, (640, 0, 640, 720))
    assert camera.scale == 20.0
    assert camera.arena_rect == (640, 180, 640, 360)
    px, py = camera.to_screen(0.0, 0.0)
    assert (int(px), int(py)) == (640, 540)


def test_resize_refits_the_same_arena() -> None:
    camera = Camera(32.0, 18.0, (0, 0, 1280, 720))
    camera.resize((0, 0, 640, 360))
    assert camera.rect == (0, 0, 640, 360)
    assert camera.scale == 20.0
    assert camera.point_to_world((320, 180)) == (16.0, 9.0)


def test_world_to_screen_to_world_comes_back_within_half_a_pixel() -> None:
    rng = np.random.default_rng(7)
    x, y = rng.uniform(0.0, 32.0, 1_000), rng.uniform(0.0, 18.0, 1_000)
    for rect in ((0, 0, 1280, 720), (0, 0, 1000, 1000), (640, 0, 640, 720), (13, 7, 333, 211)):
        camera = Camera(32.0, 18.0, rect)
        back_x, back_y = camera.to_world(*camera.to_screen(x, y))
        half_pixel = 0.5 / camera.scale
        assert np.abs(back_x - x).max() <= half_pixel
        assert np.abs(back_y - y).max() <= half_pixel


def test_a_click_converts_to_world_metres_as_plain_floats() -> None:
    camera = Camera(32.0, 18.0, (0, 0, 1280, 720))
    x, y = camera.point_to_world((320, 360))
    assert (x, y) == (8.0, 9.0)
    assert type(x) is float and type(y) is float
    assert camera.point_to_world((0, 720)) == (0.0, 0.0)


def test_a_click_in_the_letterbox_is_not_in_the_arena() -> None:
    camera = Camera(32.0, 18.0, (0, 0, 1000, 1000))
    assert camera.in_arena((500, 500))
    assert not camera.in_arena((500, 100))  # above the arena, in the top letterbox
    assert not camera.in_arena((500, 900))  # below the ground
    assert camera.point_to_world((500, 100)) == (16.0, 21.8)


def test_far_away_points_are_clamped_so_they_still_cast_to_pixels() -> None:
    camera = Camera(32.0, 18.0, (0, 0, 1280, 720))
    px, py = camera.to_screen(np.array([1e30, -1e300]), np.array([-1e30, 1e300]))
    assert px.tolist() == [FAR_PX, -FAR_PX]
    assert py.tolist() == [FAR_PX, -FAR_PX]


def test_empty_rects_and_arenas_are_refused() -> None:
    with pytest.raises(ValueError, match="positive size"):
        Camera(32.0, 18.0, (0, 0, 0, 720))
    with pytest.raises(ValueError, match="positive size"):
        Camera(0.0, 18.0, (0, 0, 1280, 720))


def test_one_point_lands_on_the_pixel_the_array_path_gives_it() -> None:
    """`point_to_screen` is `to_screen` for one point in plain floats: halves round to even,
    far points and infinities clamp to FAR_PX, a float32 position is read as it is."""
    camera = Camera(30.0, 17.0, (410, 70, 858, 338))
    rng = np.random.default_rng(16)
    xs = [0.0, 0.5, 15.0, -3.25, 1e30, -np.inf, np.inf, *rng.uniform(-40, 40, 200).tolist()]
    ys = [0.0, 2.5, 8.5, 1e30, -1e30, np.inf, -np.inf, *rng.uniform(-40, 40, 200).tolist()]
    halves = Camera(40.0, 22.5, (0, 0, 1280, 720))  # 32 px/m: 1/64 m is half a pixel
    assert halves.point_to_screen(1 / 64, 1 / 64) == (0, 720)  # 0.5 -> 0, 719.5 -> 720
    assert halves.point_to_screen(3 / 64, 3 / 64) == (2, 718)  # 1.5 -> 2, 718.5 -> 718
    for x, y in zip(xs, ys, strict=True):
        px, py = camera.to_screen(x, y)
        assert camera.point_to_screen(x, y) == (int(px), int(py))
    x32, y32 = np.float32(7.3), np.float32(2.9)  # a float32 world's position, read exactly
    px32, py32 = camera.to_screen(x32, y32)
    assert camera.point_to_screen(float(x32), float(y32)) == (int(px32), int(py32))
    assert camera.point_to_screen(1e30, -np.inf) == (FAR_PX, FAR_PX)
