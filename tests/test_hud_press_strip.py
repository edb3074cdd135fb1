"""The press strip's frame marks: filled as bars where they touch (1,000 fps) or written column
by column (144 fps), the pixels are the same, for one lane or two sharing the flips."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from game.hud import press_strip
from game.hud.press_strip import PressStrip
from game.hud.text import Fonts
from game.session.input_readout import InputCounts, InputReadout
from tests.test_hud_stats import lane, readout

NOW_NS = 5_000_000_000


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def strip_pixels(flips_ns: tuple[int, ...], lanes: int, clip: pygame.Rect | None) -> bytes:
    surface = pygame.Surface((900, 240))
    surface.fill((10, 13, 22))
    surface.set_clip(clip)
    lab = InputReadout(
        model="frame-edge",
        counts=InputCounts(),
        now_ns=NOW_NS,
        ticks_at_ns=tuple(range(NOW_NS - 1_990_000_000, NOW_NS, 16_666_667)),
        flips_ns=flips_ns,
    )
    strip = PressStrip(Fonts.at_scale(1.0), backdrop=(10, 13, 22))
    strip.update(readout(lanes=(lane(inputs=lab),) * lanes), pygame.Rect(20, 10, 860, 220))
    strip.draw(surface)
    return pygame.image.tobytes(surface, "RGBA")


@pytest.mark.parametrize("lanes", [1, 2])
@pytest.mark.parametrize("frame_ns", [1_000_000, 2_000_000, 6_944_444, 250_000])
@pytest.mark.parametrize("clip", [None, pygame.Rect(300, 0, 200, 240)])
def test_bars_and_columns_paint_the_same_pixels(
    lanes: int, frame_ns: int, clip: pygame.Rect | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    flips = tuple(range(NOW_NS - 2_100_000_000, NOW_NS + 1, frame_ns))
    flips = flips[:700] + flips[760:]  # a hitch: a gap in the bar
    as_bars = strip_pixels(flips, lanes, clip)
    monkeypatch.setattr(press_strip, "FEW_RUNS", 0)
    assert strip_pixels(flips, lanes, clip) == as_bars
