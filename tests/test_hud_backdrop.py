"""A HUD told the window's plain backdrop draws the very pixels of one that is not told.

With a backdrop, every box is laid on it once and copied opaque, and the stats panel redraws
only the rows whose values changed (`game.hud.plate.flattened`, `game.hud.panel_ink`). That is
a cache, and a cache must never show: frame after frame, through values that change, rows that
come and go, a badge, an overflowing alpha bar, captions, a spiral, split screen, the press
strip and presentation mode, both HUDs draw onto a window filled with the backdrop and the two
pictures are compared byte for byte.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from game.hud.hud import Hud
from game.session.history import FrameHistory, FrameSample
from game.session.input_readout import Fate, InputCounts, InputReadout, PressLatency, PressMark
from game.session.readout import Readout
from tests.test_hud_stats import READOUT, lane

BACKDROP = (10, 13, 22)
SIZE = (1280, 720)
MS = 1_000_000


@pytest.fixture(scope="module", autouse=True)
def pygame_running() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def inputs(frame: int) -> InputReadout:
    """An input lab two seconds into its timeline: a frame every 4 ms, a tick every 16 ms, and
    a press that was seen (its lines) and one that was lost."""
    now = 2_000 * MS + frame * 7 * MS
    seen = PressMark("jump", now - 900 * MS, Fate.SEEN, (now - 890 * MS,), now - 880 * MS)
    lost = PressMark("jump", now - 400 * MS, Fate.LOST, (), None)
    return InputReadout(
        model="frame-edge",
        counts=InputCounts(presses=2, seen=1, lost=1),
        last_fate=Fate.LOST if frame % 2 else Fate.SEEN,
        last_latency=PressLatency(3 * MS, 8 * MS, frame * MS),
        now_ns=now,
        presses=(seen, lost),
        ticks_at_ns=tuple(range(now - 1_990 * MS, now, 16 * MS)),
        flips_ns=tuple(range(now - 1_999 * MS, now, 4 * MS)),
    )


def frame_readout(frame: int) -> Readout:
    """Frame `frame` of a run that goes through every kind of change the HUD shows."""
    strained = 10 <= frame < 16
    one = lane(
        alpha=(frame * 0.137) % 1.0 if frame < 20 else 1.0 + frame * 0.4,  # then naive: past 1
        alpha_mode="correct" if frame < 20 else "naive",
        steps=1 + frame % 3,
        tick=1_000 + frame,
        lag_ms=12.5 + frame,
        overloaded=strained,
        spiral=strained,
        time_scale="1" if frame < 24 else "1/8",  # the "owed" row comes in
        inputs=inputs(frame) if frame >= 6 else None,
    )
    lanes = (one, lane(policy="uncapped", alpha=0.5, inputs=one.inputs)) if frame >= 28 else (one,)
    return dataclasses.replace(
        READOUT,
        lanes=lanes,
        fps=60.0 - frame * 0.3,
        frame_ms=16.7 + frame % 5,
        work_ms=3.2 + frame * 0.01,
        caption="" if frame < 4 else f"a caption, then another ({frame // 8})",
        presentation=frame >= 34,
    )


def history(frames: int) -> FrameHistory:
    recorded = FrameHistory()
    for frame in range(frames):
        late = frame % 50 > 44
        recorded.append(
            FrameSample((frame + 1) / 60, 1000 / 60 + 30 * late, 1, 4.0 * late, 0, late)
        )
    return recorded


@pytest.mark.slow
def test_the_same_pixels_with_and_without_the_backdrop_every_frame() -> None:
    told, untold = Hud(backdrop=BACKDROP), Hud()
    for frame in range(40):
        readout = frame_readout(frame)
        histories = (history(120 + 3 * frame),) * len(readout.lanes)
        pictures = []
        for hud in (told, untold):
            surface = pygame.Surface(SIZE)
            surface.fill(BACKDROP)
            hud.draw(surface, readout, histories)
            pictures.append(pygame.surfarray.array3d(surface))
        differ = np.any(pictures[0] != pictures[1], axis=2)
        assert not differ.any(), f"frame {frame}: {int(differ.sum())} pixels differ"
