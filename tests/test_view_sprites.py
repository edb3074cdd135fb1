"""Pre-rendered sprites: the frame chosen for an angle, which way a frame faces, the cache."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest

from game.view import arena_colours
from game.view.sprites import ANGLE_STEP, FRAMES, SpriteBook, frame_index, paint_bob


def test_an_angle_picks_the_nearest_of_32_frames() -> None:
    angles = np.array([0.0, 0.49 * ANGLE_STEP, 0.51 * ANGLE_STEP, math.pi / 2, math.pi])
    assert frame_index(angles).tolist() == [0, 0, 1, 8, 16]


def test_whole_turns_and_negative_angles_land_on_the_same_frame() -> None:
    angles = np.array([3 * math.pi / 2, 2 * math.pi, -ANGLE_STEP, 4 * math.pi + ANGLE_STEP])
    assert frame_index(angles).tolist() == [24, 0, 31, 1]


def test_frame_index_takes_any_frame_count() -> None:
    assert frame_index(np.array([math.pi / 2, math.pi]), frames=36).tolist() == [9, 18]


def test_a_projectile_has_one_square_sprite_per_frame_centred_on_the_body() -> None:
    sprites = SpriteBook().projectile(16)
    assert len(sprites.surfaces) == FRAMES
    assert {surface.get_size() for surface in sprites.surfaces} == {(34, 34)}
    assert sprites.half == 17


def test_frame_0_faces_right_and_a_quarter_turn_faces_up_the_screen() -> None:
    """The bright nose sits on the side the body faces; world angles turn counter-clockwise."""
    sprites = SpriteBook().projectile(16)
    h = sprites.half
    nose = pygame.Color(*arena_colours.PROJECTILE_NOSE, 255)
    assert sprites.surfaces[0].get_at((h + 8, h)) == nose
    assert sprites.surfaces[0].get_at((h - 9, h)) != nose
    assert sprites.surfaces[8].get_at((h, h - 9)) == nose  # up the screen is up the world
    assert sprites.surfaces[24].get_at((h, h + 8)) == nose


def test_sprites_are_premultiplied_with_transparent_corners() -> None:
    book = SpriteBook()
    for sprites in (book.projectile(9), book.bob(14), book.ghost(9), book.tick_marker(4)):
        for surface in sprites.surfaces:
            rgba = pygame.image.tobytes(surface, "RGBA")
            pixels = np.frombuffer(rgba, dtype=np.uint8).reshape(-1, 4).astype(int)
            assert (pixels[:, :3] <= pixels[:, 3:]).all()  # no channel brighter than its alpha
            assert surface.get_at((0, 0)).a == 0


def test_trail_dots_fade_from_newest_to_oldest() -> None:
    dots = SpriteBook().trail(8, arena_colours.PROJECTILE, 10)
    assert len(dots.surfaces) == 10
    centre = dots.half
    alphas = [surface.get_at((centre, centre)).a for surface in dots.surfaces]
    assert alphas == sorted(alphas, reverse=True)
    assert alphas[0] == 191  # 0.75 opacity
    assert alphas[-1] < alphas[0] // 10


def test_the_book_paints_a_size_once_and_keeps_only_the_most_recent_sizes() -> None:
    book = SpriteBook(keep=2)
    small, medium = book.projectile(4), book.projectile(5)
    assert book.projectile(4) is small  # used again: now the most recent
    book.projectile(6)  # a third size pushes out the least recently used, size 5
    assert book.projectile(4) is small
    assert book.projectile(5) is not medium


def test_a_book_needs_at_least_one_frame_and_one_entry() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        SpriteBook(frames=0)
    with pytest.raises(ValueError, match="at least 1"):
        SpriteBook(keep=0)


def test_every_book_in_the_process_draws_the_same_painted_sprites() -> None:
    # A handout's worker films a dozen clips, each with its own window and book: a bob's 32
    # turns (45 ms of painting) are painted once, and they are the very pixels painting makes.
    first, second = SpriteBook().bob(7), SpriteBook().bob(7)
    assert second is first
    painted = [paint_bob(7, frame * ANGLE_STEP) for frame in range(FRAMES)]
    assert [rgba(sprite) for sprite in first.surfaces] == [rgba(sprite) for sprite in painted]
    assert len(SpriteBook(frames=8).bob(7).surfaces) == 8  # the frame count is part of the key


def test_a_display_gets_sprites_in_its_own_pixel_format() -> None:
    # Painted before there is a display, a sprite stays as painted; once there is one, it is
    # painted again and converted to the display's format (a blit then converts nothing).
    pygame.display.quit()
    before = SpriteBook().ghost(5)
    pygame.display.init()
    try:
        screen = pygame.display.set_mode((64, 48))
        after = SpriteBook().ghost(5)
        assert after is not before and SpriteBook().ghost(5) is after
        assert after.surfaces[0].get_masks()[:3] == screen.get_masks()[:3]
        assert rgba(after.surfaces[0]) == rgba(before.surfaces[0])
    finally:
        pygame.display.quit()


def rgba(sprite: pygame.Surface) -> bytes:
    return pygame.image.tobytes(sprite, "RGBA")
