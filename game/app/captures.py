"""A capture's frames on the live game's clock: `--capture FILE`, and a lesson step's `capture`.

The file is opened and checked before the window opens (`open_capture`: one line and exit 2 for
a file that holds no frames), then streamed again from the file for each round the game plays
it (`CapturedClock`), so a capture of any length costs no memory. A lesson step names a capture
shipped with the game (`assets/captures/`, `game.resources.CAPTURES`), found by its file name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from game.capture.frame import Capture
from game.clock.captured import CapturedClock
from game.clock.wall import Clock
from game.resources import CAPTURES
from game.workshop.files.lessons import LessonRun

StepCapture = Callable[[Clock, str], CapturedClock]
"""Opens a lesson step's capture by its name, on the given real clock."""


def captured_clock(real: Clock, capture: Capture, *, loop: bool = True) -> CapturedClock:
    """`capture`'s frames as the loop's clock, paced on `real`, played round and round."""

    def lengths() -> Iterator[int]:
        return (frame.elapsed_ns for frame in capture.frames())

    name = Path(capture.info.path).name
    return CapturedClock(real, lengths, name=name, count=capture.info.frames, loop=loop)


def lesson_capture(real: Clock, name: str) -> CapturedClock:
    """A lesson step's capture, shipped in `assets/captures/`, on the real clock."""
    from game.capture.reading import open_capture  # the readers load only when one is played

    return captured_clock(real, open_capture(CAPTURES / name))


def step_capture_name(run: LessonRun | None) -> str | None:
    """The capture the lesson step showing plays (its settings' `capture`), if any."""
    return None if run is None else run.current.settings.capture
