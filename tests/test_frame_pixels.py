"""The frame the player sees, pixel for pixel: drawing faster must not draw differently.

Three scripted runs of the real game loop (the default scene; split screen; presentation mode),
each with the HUD and its graphs at 1280x720, end on a picture that is compared with a reference
picture rendered by the code as it was before any speed work (`tests/pixels/`). The comparison
is exact: every byte of every pixel. A change meant to move pixels regenerates the references
(`python -m tests.test_frame_pixels --write`) and says in its commit which pixels and why.

What makes the pictures the same from run to run:
- time: a `ManualClock`, so every frame's length is an exact number. The frames' own "work" is
  a fixed list of durations (`WORK_NS`, cycled) spent between frames, and the stall key (S) is
  pressed at a fixed frame, so the graphs show uneven frames, a stall and dropped time;
- the world: the default config's seed, so the cannon fires the same volley;
- the display: SDL's dummy video driver (set in `conftest.py`), so the refresh rate the live
  judder meter assumes is the same guess everywhere;
- the type: the glyphs come from pygame-ce's FreeType and SDL_ttf, whose anti-aliasing may change
  between versions, so the references note the versions they were rendered with and the
  comparison is made only under the same ones (elsewhere the test says so and skips).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pygame
import pytest

from game.clock.manual import ManualClock
from tests.helpers import game_loop, post_keys
from timestep_lab import NS_PER_MS

REFERENCES = Path(__file__).parent / "pixels"
INDEX = REFERENCES / "frames.json"
WORK_NS = tuple(
    round(ms * NS_PER_MS) for ms in (1.3, 2.1, 0.9, 3.4, 1.7, 0.6, 2.8, 5.2, 1.1, 9.5, 1.9, 0.8)
)
"""Each frame's work, spent on the clock after the pacer's wait: the pacer then sleeps for what
is left of the 6.94 ms period, or not at all (the 9.5 ms frames run late)."""
STALL_AT = 150
"""The frame before which S is pressed: a 200 ms stall, with dropped time on the graph and the
"stalled the loop" caption still showing at the end."""
AVATAR_KEYS = {
    140: ((pygame.K_UP, True), (pygame.K_UP, False)),
    250: ((pygame.K_RIGHT, True),),
    262: ((pygame.K_UP, True),),
    266: ((pygame.K_UP, False),),
    330: ((pygame.K_RIGHT, False), (pygame.K_DOWN, True), (pygame.K_DOWN, False)),
    380: ((pygame.K_UP, True),),
    395: ((pygame.K_UP, False),),
}
"""The avatar's keys (key, down) before some frames: taps within one frame (which the default
frame-edge model may lose), held keys, so the press strip shows presses of several fates with
their lines to ticks and frames."""


class Scene(NamedTuple):
    """A scripted run: its `--set` overrides, the keys pressed before its first frame, and how
    many frames it runs."""

    overrides: tuple[str, ...] = ()
    keys: tuple[int, ...] = ()
    frames: int = 432
    """Three seconds at the default 144 fps cap: the graphs' five seconds are partly filled,
    the cannon has fired several times."""


SCENES = {
    "default": Scene(),
    "split": Scene(keys=(pygame.K_v,)),
    "presentation": Scene(("hud.presentation=true",)),
    "spiral": Scene(("scheduler.policy=uncapped", "load.step_cost_ms=18"), (pygame.K_F1,), 45),
}
"""The spiral: uncapped ticks that cost more than they simulate, each frame longer than the
last (the banner, the red badge, a frame axis in seconds), with the help open over it; its run
is short because each of its frames redraws every 250 ms of catch-up."""


def versions() -> dict[str, str]:
    """What draws the glyphs and blends the pixels: pixel identity holds under these only."""
    return {
        "pygame-ce": pygame.version.ver,
        "SDL": ".".join(map(str, pygame.get_sdl_version())),
        "SDL_ttf": ".".join(map(str, pygame.font.get_sdl_ttf_version())),
    }


def scripted_frame(scene: str) -> pygame.Surface:
    """The last picture of `scene`'s scripted run (a copy of the window's surface)."""
    overrides, keys, frames = SCENES[scene]
    clock = ManualClock()
    loop = game_loop(*overrides, clock=clock)
    post_keys([(key, 0) for key in keys])
    for frame in range(frames):
        if frame == STALL_AT:
            post_keys([(pygame.K_s, 0)])
        for key, down in AVATAR_KEYS.get(frame, ()):
            kind = pygame.KEYDOWN if down else pygame.KEYUP
            pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode=""))
        loop.run_frame()
        clock.move_on(WORK_NS[frame % len(WORK_NS)])
    return loop.window.surface.copy()


def rgb(surface: pygame.Surface) -> np.ndarray:
    """The picture as a (height, width, 3) array of bytes."""
    return np.asarray(pygame.surfarray.array3d(surface)).transpose(1, 0, 2)


def digest(surface: pygame.Surface) -> str:
    return hashlib.sha256(rgb(surface).tobytes()).hexdigest()


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture(scope="module")
def index() -> dict[str, object]:
    recorded: dict[str, object] = json.loads(INDEX.read_text(encoding="utf-8"))
    if recorded["versions"] != versions():
        pytest.skip(f"references drawn with {recorded['versions']}, this is {versions()}")
    return recorded


@pytest.mark.slow
@pytest.mark.parametrize("scene", list(SCENES))
def test_the_scripted_frame_is_the_reference_pixel_for_pixel(
    scene: str, index: dict[str, object], tmp_path: Path
) -> None:
    picture = scripted_frame(scene)
    digests = index["frames"]
    assert isinstance(digests, dict)
    if digest(picture) == digests[scene]:
        return
    saved = tmp_path / f"{scene}.png"
    pygame.image.save(picture, saved)
    reference = pygame.image.load(REFERENCES / f"{scene}.png")
    rows, columns = np.nonzero(np.any(rgb(picture) != rgb(reference), axis=2))
    where = (
        f"{rows.size:,} pixels differ from tests/pixels/{scene}.png, within x "
        f"{columns.min()}-{columns.max()}, y {rows.min()}-{rows.max()}"
        if rows.size
        else f"its digest is not the one indexed for tests/pixels/{scene}.png"
    )
    pytest.fail(f"{scene}: {where} (this run's picture: {saved})")


def test_the_reference_pictures_are_the_ones_indexed(index: dict[str, object]) -> None:
    """The PNGs are there to look at and to diff against; the digests are what is compared."""
    digests = index["frames"]
    assert isinstance(digests, dict)
    for scene in SCENES:
        assert digest(pygame.image.load(REFERENCES / f"{scene}.png")) == digests[scene]


def write_references() -> None:
    """Render every scene and record its picture and digest (run on the code to compare with)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"  # as `conftest.py` sets them for the tests
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    pygame.init()
    REFERENCES.mkdir(exist_ok=True)
    frames = {}
    for scene in SCENES:
        picture = scripted_frame(scene)
        pygame.image.save(picture, REFERENCES / f"{scene}.png")
        frames[scene] = digest(picture)
    record = {"versions": versions(), "frames": frames}
    INDEX.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    pygame.quit()


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.test_frame_pixels --write")
    write_references()
