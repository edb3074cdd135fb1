"""A capture's frames on the live game's clock: `--capture FILE`, and a lesson step's `capture`.

The file is opened, read once and checked before the window opens (`open_capture`: one line and
exit 2 for a file that holds no frames), its frames held as columns (33 to 41 bytes a frame),
and handed out again for each round the game plays it (`CapturedClock`): a pipe or a FIFO plays
as a file does. A lesson step names a capture shipped with the game (`assets/captures/`,
`game.resources.CAPTURES`), found by its file name.
"""

from __future__ import annotations

from collections.abc import Callable

from game.clock.captured import CapturedClock
from game.clock.wall import MeasuredClock
from game.resources import CAPTURES
from game.workshop.files.lessons import LessonRun

StepCapture = Callable[[MeasuredClock, str], CapturedClock]
"""Opens a lesson step's capture by its name, on the given real clock."""


def lesson_capture(real: MeasuredClock, name: str) -> CapturedClock:
    """A lesson step's capture, shipped in `assets/captures/`, on the real clock."""
    from game.capture.reading import open_capture  # the readers load only when one is played

    return CapturedClock.playing(real, open_capture(CAPTURES / name))


def step_capture_name(run: LessonRun | None) -> str | None:
    """The capture the lesson step showing plays (its settings' `capture`), if any."""
    return None if run is None else run.current.settings.capture
