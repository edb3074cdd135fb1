"""A progress bar for long headless work, on stderr when it is a terminal, and nothing otherwise
(logs, pipes and tests see no bar).

The rule every long command follows (`simulate`, `compare`, `sweep`, `judder`, `replay`,
`schedule`, `capture`): the bar appears once the work has run for `SHOW_AFTER_S` (a command
that ends sooner never flickers one), moves as the command says how far it is, and is gone
when the work ends, however it ends. The work says how far it is at a pace that costs nothing
per frame (every few thousand frames); how long it has run is the bar library's own reading of
the time, which decides nothing but when to draw.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

SHOW_AFTER_S = 2.0
"""How long the work runs before its bar appears."""
EVERY_FRAMES = 4096
"""How often a frame loop tells its bar how far it is (a power of two: a mask, not a division)."""


def on_a_terminal() -> bool:
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


@contextmanager
def progress_bar(total: float, label: str) -> Iterator[Callable[[float], None]]:
    """Yield `done(completed)`, which moves the bar to `completed` of `total` (and shows it,
    once the work has run for `SHOW_AFTER_S`)."""
    if not on_a_terminal():
        yield lambda completed: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (label, BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    progress = Progress(*columns, console=Console(stderr=True), transient=True)
    task = progress.add_task(label, total=total)
    shown = False

    def done(completed: float) -> None:
        nonlocal shown
        progress.update(task, completed=completed)
        if not shown and (progress.tasks[0].elapsed or 0.0) >= SHOW_AFTER_S:
            progress.start()
            shown = True

    try:
        yield done
    finally:
        if shown:
            progress.stop()


def every_frames(done: Callable[[float], None]) -> Callable[[int, float], None]:
    """`told(frame_number, completed)` for a frame loop: moves the bar to `completed` every
    `EVERY_FRAMES` frames, so the bar costs nothing per frame."""

    def told(number: int, completed: float) -> None:
        if number & (EVERY_FRAMES - 1) == 0:
            done(completed)

    return told


def wall_seconds(done: Callable[[float], None], before_s: float = 0) -> Callable[[int, int], None]:
    """`seen(frame_number, wall_ns)` for a frame loop: moves a bar that counts simulated wall
    seconds (runs before this one having counted `before_s`), every `EVERY_FRAMES` frames."""
    told = every_frames(done)

    def seen(number: int, wall_ns: int) -> None:
        told(number, before_s + wall_ns / 1_000_000_000)

    return seen
