"""`--frame-log FILE.csv`: the frames a run really had, written as PresentMon 1.x writes a capture.

The game, `simulate` and `clip` write one row per frame in PresentMon 1.x's default columns
(`FRAME_LOG_COLUMNS`), so that the tools that read PresentMon files (CapFrameX, a spreadsheet)
open it, and so that `python -m game capture` reads it back to the very same frame lengths, and
so the very same plans: every time is written as the exact decimal of its whole nanoseconds
(`TimeInSeconds` with 9 decimals, every `Ms...` column with 6), never a rounded float.

What each column says, for a frame of ours:

    Application             `timestep-lab` (`APPLICATION`): how a reader tells our file apart
    ProcessID, SwapChain... 0 and 0x0: a run of the lab has no Windows process or swap chain
    Runtime, PresentFlags   Other, 0
    SyncInterval            1 on a display with vsync, else 0
    AllowsTearing           1 on a display without vsync, else 0
    PresentMode             Other: the lab's display is no Windows presentation path
    Dropped                 0: every picture the lab hands a display model is shown
    TimeInSeconds           when the frame ended: where the loop read its clock, since the start
    MsBetweenPresents       the frame's length: exactly the `elapsed_ns` the scheduler was handed
    MsBetweenDisplayChange  from the last frame shown to this one shown (0 for the first shown)
    MsInPresentAPI          how long a full present queue held the loop (0 without a display)
    MsUntilRenderComplete   from the frame's end to its picture handed to the display
    MsUntilDisplayed        from the frame's end to its picture on screen

The frame's "present" is where the loop measured it: the boundary its `elapsed_ns` ends at, so
that `TimeInSeconds` adds up the lengths exactly. Where the run had no display model (the live
game, a clip, a scenario without `[display]`), nobody knows when a picture reached the screen,
and the display columns are written as PresentMon 1.x writes a time it has no figure for: 0
(`UNKNOWN_DISPLAY`), so a reader that asks for display-change times finds none, and one that
asks for present intervals gets every frame.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from game.arguments import file_path
from game.display.model import Presented
from game.workshop.files.output import writable_file, written_whole
from timestep_lab import NS_PER_MS, NS_PER_SECOND

APPLICATION = "timestep-lab"
"""The `Application` of every row we write: `game.capture.reading` knows our file by it."""
FRAME_LOG_COLUMNS = (
    "Application",
    "ProcessID",
    "SwapChainAddress",
    "Runtime",
    "SyncInterval",
    "PresentFlags",
    "AllowsTearing",
    "PresentMode",
    "Dropped",
    "TimeInSeconds",
    "MsBetweenPresents",
    "MsBetweenDisplayChange",
    "MsInPresentAPI",
    "MsUntilRenderComplete",
    "MsUntilDisplayed",
)
"""PresentMon 1.x's default CSV columns, in its order."""


def ms_text(ns: int) -> str:
    """Whole ns as exact milliseconds: 16_666_667 is `16.666667`, never a rounded float."""
    if ns < 0:
        raise ValueError(f"a frame log writes no negative time (got {ns} ns)")
    return f"{ns // NS_PER_MS}.{ns % NS_PER_MS:06d}"


def seconds_text(ns: int) -> str:
    """Whole ns as exact seconds: 1_016_666_667 is `1.016666667`."""
    if ns < 0:
        raise ValueError(f"a frame log writes no negative time (got {ns} ns)")
    return f"{ns // NS_PER_SECOND}.{ns % NS_PER_SECOND:09d}"


UNKNOWN_DISPLAY = ("0", "0.000000", "0.000000", "0.000000", "0.000000")
"""Dropped, MsBetweenDisplayChange, MsInPresentAPI, MsUntilRenderComplete, MsUntilDisplayed of a
frame whose screen time nobody knows (see the module's docstring)."""


class FrameLog:
    """Writes rows as a run's frames end; `finish` writes what is still waiting.

    Without a display model each frame's row is written at once. With one (`show_on`), a frame's
    row waits until the display has been handed its picture, which the display model does when
    the next frame begins; the run's last picture is never handed over, so its row is written by
    `finish` with the display unknown.
    """

    def __init__(self, file: TextIO, *, vsync: bool | None = None) -> None:
        self._writer = csv.writer(file, lineterminator="\n")
        self._writer.writerow(FRAME_LOG_COLUMNS)
        self._vsync = vsync
        self._end_ns = 0
        self._presented: Sequence[Presented] | None = None
        self._waiting: list[tuple[int, int]] = []
        """Frames written when their picture has been handed over: (end, length)."""
        self._last_shown_ns: Fraction | None = None
        self.frames = 0

    def show_on(self, presented: Sequence[Presented], *, vsync: bool) -> None:
        """Take the display columns from `presented`, the display model's list of presents (it
        grows as the run goes: picture k is its k-th entry)."""
        self._presented, self._vsync = presented, vsync

    def frame(self, elapsed_ns: int) -> None:
        """One frame ended, `elapsed_ns` after the one before: its row, now or once shown."""
        self._end_ns += elapsed_ns
        self.frames += 1
        if self._presented is None:
            self._row(self._end_ns, elapsed_ns, UNKNOWN_DISPLAY)
            return
        self._waiting.append((self._end_ns, elapsed_ns))
        self._write_shown()

    def finish(self) -> None:
        """Write the frames whose pictures never reached the display model, display unknown."""
        if self._presented is not None:
            self._write_shown()
        for end_ns, elapsed_ns in self._waiting:
            self._row(end_ns, elapsed_ns, UNKNOWN_DISPLAY)
        self._waiting.clear()

    def _write_shown(self) -> None:
        presented = self._presented
        assert presented is not None
        written = self.frames - len(self._waiting)
        while self._waiting and written < len(presented):
            end_ns, elapsed_ns = self._waiting.pop(0)
            self._row(end_ns, elapsed_ns, self._display_cells(end_ns, presented[written]))
            written += 1

    def _display_cells(self, end_ns: int, presented: Presented) -> tuple[str, ...]:
        """The display columns of a frame whose picture the display model presented."""
        shown = presented.shown_ns
        between = 0 if self._last_shown_ns is None else _whole(shown - self._last_shown_ns)
        self._last_shown_ns = shown
        return (
            "0",
            ms_text(between),
            ms_text(_whole(presented.blocked_ns)),
            ms_text(max(0, _whole(presented.ready_ns) - end_ns)),
            ms_text(max(0, _whole(shown) - end_ns)),
        )

    def _row(self, end_ns: int, elapsed_ns: int, display: Sequence[str]) -> None:
        dropped, between_display, in_present, until_render, until_displayed = display
        sync, tearing = ("1", "0") if self._vsync else ("0", "0" if self._vsync is None else "1")
        self._writer.writerow(
            (
                APPLICATION,
                0,
                "0x0000000000000000",
                "Other",
                sync,
                0,
                tearing,
                "Other",
                dropped,
                seconds_text(end_ns),
                ms_text(elapsed_ns),
                between_display,
                in_present,
                until_render,
                until_displayed,
            )
        )


def _whole(ns: Fraction | int) -> int:
    """Exact ns to whole ns, half up (the display model's times are exact rationals)."""
    value = Fraction(ns)
    return (2 * value.numerator + value.denominator) // (2 * value.denominator)


def add_frame_log_argument(parser: argparse.ArgumentParser) -> None:
    """`--frame-log FILE.csv`, for the commands that run frames (the game, `simulate`, `clip`)."""
    parser.add_argument(
        "--frame-log",
        type=file_path,
        metavar="FILE.csv",
        help="write the frames this run had as a PresentMon 1.x CSV (`capture` reads it back)",
    )


@contextlib.contextmanager
def frame_log_file(path: Path | None) -> Iterator[FrameLog | None]:
    """A `FrameLog` writing to `path` (None: no log), written whole or not at all: the rows go
    to `path.part`, which becomes `path` once the block ends and `finish` has written the rest."""
    if path is None:
        yield None
        return
    writable_file(path, "--frame-log")  # refused in one line before the run, not after it
    with written_whole(path) as partial, partial.open("w", newline="", encoding="utf-8") as file:
        log = FrameLog(file)
        yield log
        log.finish()
