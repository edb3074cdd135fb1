"""Colours of the HUD, and what each one means.

Colour carries meaning and nothing else: green is fine, amber is strained, red is overloaded or
losing time. Everything else is white or grey, so that the few coloured values stand out from the
back of a room. The stats layer says *what* a value means (`Meaning`); only this module says which
colour that is.
"""

from __future__ import annotations

from enum import StrEnum

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


class Meaning(StrEnum):
    """How a value should be read at a glance."""

    PLAIN = "plain"
    """Just a value: nothing to worry about, nothing to celebrate."""
    OK = "ok"
    """Good news worth saying: keeping up, holding the frame rate."""
    STRAINED = "strained"
    """Working harder than it should: catching up, carrying a backlog, a known-wrong mode."""
    BAD = "bad"
    """Overloaded, or throwing simulated time away."""


TEXT: RGB = (236, 240, 246)
LABEL: RGB = (148, 160, 178)
DIM: RGB = (104, 116, 134)
HEADING: RGB = (112, 184, 255)
KEY: RGB = (255, 212, 112)
"""Key names in the help overlay: warm, so they read as "press this"."""

OK: RGB = (86, 222, 128)
STRAINED: RGB = (255, 186, 52)
BAD: RGB = (255, 82, 82)
BADGE_TEXT: RGB = (255, 255, 255)

PLATE: RGBA = (10, 14, 22, 208)
"""The translucent plate behind every HUD block: dark enough to read over any scene."""
PLATE_EDGE: RGBA = (255, 255, 255, 44)
RULE: RGB = (58, 68, 84)
TRACK: RGB = (52, 60, 74)
"""The empty part of a bar, and graph backgrounds."""
ALPHA_FILL: RGB = (112, 184, 255)

FRAME_BAR: RGB = (72, 152, 226)
OVER_BUDGET_BAR: RGB = STRAINED
OVERLOADED_BAR: RGB = BAD
STEPS_LINE: RGB = (120, 226, 214)
BUDGET_LINE: RGB = OK
STEP_LINE: RGB = (190, 150, 255)
LANE_TWO: RGB = (255, 128, 200)
"""Lane 2's steps and dropped time in the split screen's graphs (lane 1 keeps the usual ones)."""

BANNER_PLATE: RGBA = (46, 4, 8, 222)
BANNER_EDGE: RGB = BAD

MEANING_COLOURS: dict[Meaning, RGB] = {
    Meaning.PLAIN: TEXT,
    Meaning.OK: OK,
    Meaning.STRAINED: STRAINED,
    Meaning.BAD: BAD,
}
