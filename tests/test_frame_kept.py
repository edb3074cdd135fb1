"""A frame that starts from what the last one left on the window draws the same pixels as one
that fills the window and draws everything afresh.

`Picture` keeps the window between frames when the layout has not changed (`Picture.draw`):
the fill is skipped, the HUD copies only what changed. A mistake there would not show at
once: stale pixels stay on screen until something covers them. So the same scripted run is
played twice, once keeping the window and once redrawing every pixel (`keeps_window = False`),
and every frame of the two is compared, byte for byte, while the script opens and closes
the help and the lesson menu, swaps one caption for a shorter and a longer one (N with no lesson
running, between two stalls), splits the screen and changes a lane's policy (a narrower tag),
goes to presentation mode and back, hides the graphs, turns the overlays on, stalls, rewatches
and moves the avatar.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pygame
import pytest

from game.clock.manual import ManualClock
from tests.helpers import game_loop, ms, post_keys

FRAMES = 260
KEYS = {
    10: (pygame.K_SPACE,),
    20: (pygame.K_F1,),
    24: (pygame.K_F1,),
    30: (pygame.K_s,),
    34: (pygame.K_n,),
    38: (pygame.K_s,),
    40: (pygame.K_v,),
    50: (pygame.K_TAB,),
    60: (pygame.K_b,),
    66: (pygame.K_TAB,),
    80: (pygame.K_v,),
    90: (pygame.K_z,),
    110: (pygame.K_z,),
    120: (pygame.K_g,),
    130: (pygame.K_g,),
    140: (pygame.K_m, pygame.K_o, pygame.K_x),
    170: (pygame.K_m, pygame.K_o, pygame.K_x),
    180: (pygame.K_l,),
    186: (pygame.K_ESCAPE,),
    200: (pygame.K_w,),
    230: (pygame.K_RIGHT, pygame.K_UP),
}
"""Keys pressed (down, then up) before a frame."""
WORK_NS = (ms("1.3"), ms("6.1"), ms("0.9"), ms("12.4"), ms("2.2"))
"""Each frame's work after the pacer's wait, cycled: frames with no tick, one tick, several."""


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def frame_digests(keeps_window: bool) -> list[str]:
    """The digest of the window's pixels after each frame of the scripted run."""
    clock = ManualClock()
    loop = game_loop(clock=clock, warm_up=False)
    loop.picture.keeps_window = keeps_window
    loop.warm_up()
    digests = []
    for frame in range(FRAMES):
        post_keys([(key, 0) for key in KEYS.get(frame, ())])
        loop.run_frame()
        digests.append(hashlib.sha256(loop.window.surface.get_view("2").raw).hexdigest())
        clock.move_on(WORK_NS[frame % len(WORK_NS)])
    return digests


@pytest.mark.slow
def test_every_frame_drawn_on_the_last_is_the_frame_drawn_afresh() -> None:
    afresh = frame_digests(keeps_window=False)
    kept = frame_digests(keeps_window=True)
    pairs = enumerate(zip(afresh, kept, strict=True))
    differing = [frame for frame, (one, other) in pairs if one != other]
    assert differing == []
    assert len(set(kept)) > FRAMES // 2  # the picture did change from frame to frame
