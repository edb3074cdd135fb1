"""The text cache: rendered once, handed back after, and never larger than its capacity."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.hud import text
from game.hud.text import Fonts, TextCache, load_font

WHITE = (255, 255, 255)
RED = (255, 0, 0)


@pytest.fixture(scope="module")
def font() -> Iterator[pygame.font.Font]:
    pygame.init()
    yield load_font(text.REGULAR, 16)
    pygame.quit()


def test_the_same_text_and_colour_give_the_same_surface(font: pygame.font.Font) -> None:
    cache = TextCache(font)
    first = cache.render("0.750", WHITE)
    assert cache.render("0.750", WHITE) is first
    assert cache.render("0.750", RED) is not first
    assert cache.render("0.751", WHITE) is not first
    assert (cache.hits, cache.misses, len(cache)) == (1, 3, 3)


def test_the_cache_is_bounded_and_forgets_the_least_recently_used(
    font: pygame.font.Font,
) -> None:
    cache = TextCache(font, capacity=3)
    a = cache.render("a", WHITE)
    b = cache.render("b", WHITE)
    cache.render("c", WHITE)
    assert cache.render("a", WHITE) is a  # "a" is now the most recently used
    cache.render("d", WHITE)  # over capacity: "b" goes
    assert len(cache) == 3
    assert cache.render("a", WHITE) is a
    assert cache.render("b", WHITE) is not b


def test_a_thousand_changing_numbers_never_grow_it_past_its_capacity(
    font: pygame.font.Font,
) -> None:
    cache = TextCache(font, capacity=100)
    for frame in range(1_000):
        cache.render(f"{frame / 1000:.3f}", WHITE)
    assert len(cache) == 100


def test_capacity_zero_renders_every_time(font: pygame.font.Font) -> None:
    cache = TextCache(font, capacity=0)
    assert cache.render("fps", WHITE) is not cache.render("fps", WHITE)
    assert (len(cache), cache.hits, cache.misses) == (0, 0, 2)


def test_a_rendered_text_is_as_wide_as_its_characters(font: pygame.font.Font) -> None:
    cache = TextCache(font)
    assert cache.render("16.667 ms", WHITE).get_width() == pytest.approx(
        9 * cache.char_width, abs=1
    )


def test_presentation_fonts_are_twice_the_size(font: pygame.font.Font) -> None:
    normal, doubled = Fonts.at_scale(1.0), Fonts.at_scale(2.0)
    # Hinting rounds each glyph's advance to whole pixels: 10 px at 16 px, 19 px at 32 px.
    assert (normal.body.char_width, doubled.body.char_width) == (10, 19)
    assert doubled.body.line_height == pytest.approx(2 * normal.body.line_height, abs=2)
    assert doubled.px(12) == 24


def test_a_missing_font_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(text, "FONTS", tmp_path)
    with pytest.raises(FileNotFoundError, match=r"HUD font not found: .*DejaVuSansMono\.ttf"):
        load_font(text.REGULAR, 16)
