"""The background goes around the arenas, not under them: `uncovered` cuts the window into the
rectangles no arena covers, and they cover every other pixel exactly once."""

import numpy as np
import pygame

from game.app.picture import uncovered


def coverage(window: pygame.Rect, arenas: list[pygame.Rect]) -> np.ndarray:
    """How many times each pixel is covered by an arena or by one of the pieces."""
    count = np.zeros((window.h, window.w), dtype=np.int64)
    for rect in [*uncovered(window, arenas), *(a.clip(window) for a in arenas)]:
        count[rect.top : rect.bottom, rect.left : rect.right] += 1
    return count


def test_one_arena_leaves_the_bands_above_below_and_beside_it() -> None:
    window, arena = pygame.Rect(0, 0, 1280, 720), pygame.Rect(410, 69, 858, 338)
    assert uncovered(window, [arena]) == [
        pygame.Rect(0, 0, 1280, 69),
        pygame.Rect(0, 69, 410, 338),
        pygame.Rect(1268, 69, 12, 338),
        pygame.Rect(0, 407, 1280, 313),
    ]
    assert (coverage(window, [arena]) == 1).all()


def test_arenas_side_by_side_stacked_or_partly_off_the_window() -> None:
    window = pygame.Rect(0, 0, 200, 100)
    for arenas in (
        [pygame.Rect(10, 10, 80, 50), pygame.Rect(100, 20, 90, 60)],
        [pygame.Rect(10, 0, 180, 40), pygame.Rect(10, 50, 180, 50)],
        [pygame.Rect(150, 60, 100, 100)],  # partly off the window: only its part inside counts
    ):
        assert (coverage(window, arenas) == 1).all()
    assert uncovered(window, [pygame.Rect(5, 5, 0, 10)]) == [window]
    assert uncovered(window, [window]) == []
