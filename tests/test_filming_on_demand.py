"""A clip paints only the frames it films, and is the clip that paints every frame, byte for byte.

`film` draws every frame as it comes (its views, the trails' dots, the graphs' bars) and
paints it only when the camera shoots it (`Picture.on_demand`, `FilmingClock.develop`): by then
the game has run on (the next frame's ticks, a stall, a catch-up), so the frame must have kept
everything its painting reads. A mistake would not show as an error, only as a picture a little
wrong. So each take is filmed twice, painting every frame and painting on demand, and every
picture's RGBX bytes are compared: while the worlds catch up with redraws every 250 ms, stall for
2 s, are rewatched, rewound, paused, split, rolled back, drawn large, with trails and ghosts, a
simulated screen's strip, the help, the lesson menu, a caption that changes mid-clip, and a
scenario's hitches and changes cued at frame boundaries.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import pygame
import pytest

from game.app.demo import demo_presses
from game.app.filming import Take, film
from game.app.key_names import KEY_CODES
from game.app.loop import GameLoop
from game.app.script import Press
from game.config.loading import load_config
from game.config.model import GameConfig
from game.workshop.clips.cues import ScenarioCues
from game.workshop.clips.files import ClipSpec, Pixels
from game.workshop.files.lessons import find_lesson, load_lessons
from game.workshop.files.scenario_loading import load_scenario
from tests.helpers import game_loop, ms

SIZE = (480, 270)
FPS = 30
ROOT = Path(__file__).resolve().parents[1]


class Pictures:
    """A clip sink keeping each picture's digest (of its bytes, with their layout) and its
    repeat count."""

    def __init__(self) -> None:
        self.taken: list[tuple[str, Pixels, int]] = []

    def add(self, picture: bytes, pixels: Pixels, repeat: int = 1) -> None:
        self.taken.append((hashlib.sha256(picture).hexdigest(), pixels, repeat))

    def close(self) -> None:
        pass

    def discard(self) -> None:
        pass


class Counted:
    """Shown the loop after each frame: keeps its picture (for the counts), and holds the rewind
    key down from frame `hold[0]` to frame `hold[1]` (a script only taps keys)."""

    def __init__(self, hold: tuple[int, int] | None = None) -> None:
        self.hold = hold
        self.loop: GameLoop | None = None
        self.frames = 0

    def __call__(self, loop: GameLoop) -> None:
        self.loop = loop
        self.frames += 1
        if self.hold is not None and self.frames in self.hold:
            kind = pygame.KEYDOWN if self.frames == self.hold[0] else pygame.KEYUP
            pygame.event.post(pygame.event.Event(kind, key=pygame.K_BACKSPACE, mod=0, unicode=""))


def keys(*timed: tuple[str, str]) -> tuple[Press, ...]:
    """Presses at ms of game time: ("1500", "shift+s")."""
    presses = []
    for at_ms, name in timed:
        *modifiers, key = name.split("+")
        presses.append(Press(ms(at_ms), key=KEY_CODES[key], modifiers=tuple(modifiers)))
    return tuple(presses)


def lesson_take(
    number: int, step: int, *extra: tuple[str, str], size: tuple[int, int] = SIZE
) -> Take:
    """Step `step` of lesson `number` with its demo's keys, and `extra` keys after them."""
    lesson = find_lesson(load_lessons(), number)
    demo = lesson.steps[step - 1].demo
    assert demo is not None
    presses = tuple(sorted((*demo_presses(demo), *keys(*extra)), key=lambda press: press.at_ns))
    return Take(config(size=size), (number, step), presses, lessons=(lesson,))


def scenario_take(name: str) -> Take:
    path = ROOT / "configs" / "scenarios" / f"{name}.toml"
    cues = ScenarioCues(load_scenario(path), path)
    return Take(cues.config(*SIZE), cues=cues)


def config(*overrides: str, size: tuple[int, int] = SIZE) -> GameConfig:
    return load_config(None, [f"render.width={size[0]}", f"render.height={size[1]}", *overrides])


def filmed(
    take: Take, seconds: str, every_frame: bool, hold: tuple[int, int] | None = None
) -> tuple[list[tuple[str, Pixels, int]], int, int]:
    """The take's pictures, and how many frames its picture drew and painted."""
    size = (take.config.render.width, take.config.render.height)
    spec = ClipSpec(Path("x.mp4"), *size, FPS, Fraction(seconds))
    sink, counted = Pictures(), Counted(hold)
    pygame.event.clear()
    film(take, spec, sink, watch=counted, paint_every_frame=every_frame)
    assert counted.loop is not None
    return sink.taken, counted.loop.picture.drawn, counted.loop.picture.painted


class Shot(NamedTuple):
    take: Callable[[], Take]
    """Made afresh for each film: a scenario's cues are used up as they are handed out."""
    seconds: str
    hold: tuple[int, int] | None = None
    """The frames the rewind key goes down and up after (`Counted`)."""


SHOTS = {
    "ghost and trails, the frame rate raised": Shot(lambda: lesson_take(1, 1), "1.6"),
    "paused, two single ticks, resumed": Shot(lambda: lesson_take(3, 1), "2.2"),
    "a 2 s stall, then rewatched": Shot(lambda: lesson_take(4, 1, ("2700", "w")), "3.4"),
    "a spiral: catch-ups redrawn every 250 ms": Shot(
        lambda: Take(
            config("load.step_cost_ms=24", "scheduler.policy=uncapped"),
            script=keys(("100", "space"), ("1200", "3")),
        ),
        "2",
    ),
    "split, the press strip, split off": Shot(lambda: lesson_take(7, 6), "1.6"),
    "a press's line to a tick after now, at 960x540": Shot(
        lambda: lesson_take(7, 1, size=(960, 540)), "0.4"
    ),
    "rollback against a remote peer": Shot(lambda: lesson_take(10, 1), "1.5"),
    "a simulated 165 Hz screen's strip": Shot(lambda: lesson_take(8, 1), "1.5"),
    "presentation, help, next step (a new caption), the menu": Shot(
        lambda: lesson_take(
            2,
            1,
            ("200", "z"),
            ("500", "f1"),
            ("700", "f1"),
            ("900", "n"),
            ("1200", "z"),
            ("1400", "l"),
            ("1600", "escape"),
        ),
        "1.9",
    ),
    "a scenario's hitches, cued at frame boundaries": Shot(
        lambda: scenario_take("repeated_stalls"), "3"
    ),
    "trails on, rewound (Backspace held), played on": Shot(
        lambda: Take(config(), script=keys(("50", "m"), ("100", "space"), ("200", "right"))),
        "2",
        (110, 200),
    ),
}


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.mark.slow
@pytest.mark.parametrize("name", SHOTS)
def test_a_clip_painted_on_demand_is_the_clip_painted_every_frame(name: str) -> None:
    take, seconds, hold = SHOTS[name]
    every, drawn, painted = filmed(take(), seconds, every_frame=True, hold=hold)
    on_demand, drawn_too, painted_on_demand = filmed(take(), seconds, every_frame=False, hold=hold)
    assert len(every) == len(on_demand)
    first_wrong = next(
        (index for index, (a, b) in enumerate(zip(every, on_demand, strict=True)) if a != b), None
    )
    assert first_wrong is None, f"picture {first_wrong} differs"
    assert sum(repeat for _, _, repeat in every) == round(Fraction(seconds) * FPS)
    assert drawn_too == drawn == painted  # the same frames drawn, and every one painted...
    assert painted_on_demand <= min(len(on_demand), drawn)  # ...or only those filmed


def test_a_lesson_at_144_fps_filmed_at_30_paints_a_frame_a_picture() -> None:
    """Lesson 2 step 1 runs at 144 fps; 1 s of it at 30 fps is 30 pictures, each of a new
    frame: 141 frames drawn (the warm-up's, and 140 up to the last picture), 30 painted."""
    pictures, drawn, painted = filmed(lesson_take(2, 1), "1", every_frame=False)
    assert (len(pictures), sum(repeat for _, _, repeat in pictures)) == (30, 30)
    assert (drawn, painted) == (141, 30)


def test_a_screenshot_paints_the_frame_drawn_first(tmp_path: Path) -> None:
    """A screenshot reads the window: the frame drawn and not painted yet is painted first."""
    loops = []
    for on_demand in (False, True):
        loop = game_loop(warm_up=False, screenshot_dir=tmp_path)
        loop.picture.on_demand = on_demand
        loop.warm_up()
        for _ in range(5):
            loop.run_frame()
        loop.dispatcher.save_screenshot(tmp_path / f"{on_demand}.png")
        loops.append(loop)
    eager, lazy = (pygame.image.load(tmp_path / f"{each}.png") for each in (False, True))
    assert pygame.image.tobytes(eager, "RGBX") == pygame.image.tobytes(lazy, "RGBX")
    assert [(loop.picture.drawn, loop.picture.painted) for loop in loops] == [(6, 6), (6, 1)]
