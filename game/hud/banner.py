"""Words over the scene: the "SPIRAL OF DEATH" banner, and a caption box for short messages.

Both are built once per text and area, then blitted: they say the same thing for many frames
(laid on the window's plain backdrop once, when there is one, and then copied opaque).
The banner's hint line is `spiral_advice`: the way out from the policy the spiralling lane is
under (never the key of the policy already on); the caption is whatever `Readout.caption` says
(a lesson's caption, "screenshot saved ..."). When the banner shows is the spiral rule's to say
(`game.session.spiral`), not the HUD's.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import pygame

from game.hud.hud_colours import BAD, BANNER_EDGE, BANNER_PLATE, RGB, TEXT
from game.hud.plate import flattened, make_plate, same_format
from game.hud.text import Fonts, TextCache
from game.session.readout import LaneReadout

SPIRAL_TITLE = "SPIRAL OF DEATH"
DROPPING = ("drop", "reset")
"""The capped policies that drop what cannot run: they get out of any spiral within a frame (the
carried backlog goes to the new policy as it is, and clamp, like uncapped, would run all of it)."""


def spiral_advice(lanes: Sequence[LaneReadout]) -> str:
    """The banner's hint: how to get out, from the policy of the lane in the spiral. Keys 3
    (drop) and 4 (reset) while neither is on; under one of them, which already caps the ticks at
    M a frame, a smaller M or a cheaper tick."""
    policy = next((lane.policy for lane in lanes if lane.spiral), lanes[0].policy if lanes else "")
    if policy in DROPPING:
        way = f"- for a smaller M, Shift+C for cheaper ticks ({policy} runs at most M a frame)"
    else:
        way = "3 (drop) or 4 (reset): what cannot run is dropped, at once"
    return f"B picks the lane, then {way}" if len(lanes) > 1 else f"press {way}"


class _Flat:
    """A built box, and the same box laid on the window's plain backdrop (if there is one) the
    first time it is drawn (`plate.flattened`).

    On a kept window (`Hud.draw`) the box drawn last frame is still there: a narrower box
    drawn in the same area would leave the old one's edges showing, so what the new box does
    not cover of the old one goes back to the backdrop first."""

    def __init__(self, backdrop: RGB | None) -> None:
        self.backdrop = backdrop
        self.box = pygame.Surface((0, 0))
        self._flat: pygame.Surface | None = None
        self._drawn = pygame.Rect(0, 0, 0, 0)

    def set(self, box: pygame.Surface) -> None:
        self.box, self._flat = box, None

    def draw(
        self, surface: pygame.Surface, topleft: tuple[int, int], retains: bool, kept: bool
    ) -> None:
        rect = self.box.get_rect(topleft=topleft)
        if kept and self.backdrop is not None and not rect.contains(self._drawn):
            surface.fill(self.backdrop, self._drawn)
        self._drawn = rect
        if self.backdrop is None or not retains:
            surface.blit(self.box, topleft)
            return
        if self._flat is None or not same_format(self._flat, surface):
            self._flat = flattened(self.box, self.backdrop, surface)
        surface.blit(self._flat, topleft)


class SpiralBanner:
    """A large red banner with a hint underneath, centred in the area it is given."""

    def __init__(self, fonts: Fonts, backdrop: RGB | None = None) -> None:
        self.fonts = fonts
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._key: tuple[object, ...] = ()
        self._kept = _Flat(backdrop)

    def height_for(self, hint: str, width: int, *, compact: bool = False) -> int:
        """How tall the banner is at this width (built, and kept for `update`). A compact
        banner sets its title in the caption's type: it shares the screen with a caption."""
        key = (hint, width, compact)
        if key != self._key or not self.fonts.retains:
            self._key = key
            self._kept.set(self._build(hint, width, compact))
        return self._kept.box.get_height()

    def update(self, hint: str, area: pygame.Rect, *, compact: bool = False) -> None:
        self.height_for(hint, area.w, compact=compact)
        self.rect = self._kept.box.get_rect(midtop=area.midtop)

    def draw(self, surface: pygame.Surface, kept: bool = False) -> None:
        """Draw the box; `kept`: the window still shows last frame's (`_Flat`)."""
        self._kept.draw(surface, self.rect.topleft, self.fonts.retains, kept)

    def _build(self, hint: str, max_width: int, compact: bool = False) -> pygame.Surface:
        fonts = self.fonts
        pad_x, pad_y = fonts.px(28), fonts.px(8 if compact else 14)
        room = max(1, max_width - 2 * pad_x)
        title = (fonts.caption if compact else fonts.banner).render(SPIRAL_TITLE, BAD)
        if title.get_width() > room:  # a small window: shrink the words, never cut them
            height = round(title.get_height() * room / title.get_width())
            title = pygame.transform.smoothscale(title, (room, height))
        lines = _wrapped(fonts.caption, hint, room)
        width = max(title.get_width(), *(line.get_width() for line in lines)) + 2 * pad_x
        gap = fonts.px(4)
        height = 2 * pad_y + title.get_height() + sum(gap + line.get_height() for line in lines)
        box = make_plate((width, height), fonts.px(12), fill=BANNER_PLATE, edge=(*BANNER_EDGE, 255))
        box.blit(title, title.get_rect(midtop=(width // 2, pad_y)))
        y = pad_y + title.get_height()
        for line in lines:
            y += gap
            box.blit(line, line.get_rect(midtop=(width // 2, y)))
            y += line.get_height()
        return box


class CaptionBox:
    """A short message on a plate, wrapped to fit, at the top-centre of its area."""

    def __init__(self, fonts: Fonts, backdrop: RGB | None = None) -> None:
        self.fonts = fonts
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._key: tuple[object, ...] = ()
        self._kept = _Flat(backdrop)

    def height_for(self, text: str, width: int) -> int:
        """How tall the box for `text` is when it may be `width` wide (nothing is rendered:
        the type is monospaced, so the wrapping is a count of characters)."""
        cache = self.fonts.caption
        lines = len(_wrap(cache, text, self._text_width(width)))
        return lines * cache.font.get_height() + 2 * self.fonts.px(10)

    def update(self, text: str, area: pygame.Rect) -> None:
        key = (text, area.w)
        if key != self._key or not self.fonts.retains:
            self._key = key
            self._kept.set(self._build(text, min(area.w, self.fonts.px(760))))
        self.rect = self._kept.box.get_rect(midtop=area.midtop)

    def _text_width(self, width: int) -> int:
        return max(1, min(width, self.fonts.px(760)) - 2 * self.fonts.px(18))

    def draw(self, surface: pygame.Surface, kept: bool = False) -> None:
        """Draw the box; `kept`: the window still shows last frame's (`_Flat`)."""
        self._kept.draw(surface, self.rect.topleft, self.fonts.retains, kept)

    def _build(self, text: str, max_width: int) -> pygame.Surface:
        fonts = self.fonts
        pad_x, pad_y = fonts.px(18), fonts.px(10)
        lines = _wrapped(fonts.caption, text, max(1, max_width - 2 * pad_x))
        width = max(line.get_width() for line in lines) + 2 * pad_x
        height = sum(line.get_height() for line in lines) + 2 * pad_y
        box = make_plate((width, height), fonts.px(10))
        y = pad_y
        for line in lines:
            box.blit(line, line.get_rect(midtop=(width // 2, y)))
            y += line.get_height()
        return box


def _wrap(cache: TextCache, text: str, max_width: int) -> list[str]:
    """`text` in lines no wider than `max_width` (monospaced type: a fixed count of characters)."""
    columns = max(8, int(max_width // cache.char_width))
    return textwrap.wrap(text, columns) or [""]


def _wrapped(cache: TextCache, text: str, max_width: int) -> list[pygame.Surface]:
    return [cache.render(line, TEXT) for line in _wrap(cache, text, max_width)]
