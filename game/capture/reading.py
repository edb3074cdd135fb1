"""`open_capture`: the one way in. It tells the format from the file's first lines and opens it.

- a first character `{` is a CapFrameX session (JSON);
- a first line `os,cpu,gpu,...` (or MangoHud's `v1` versioning line) is a MangoHud log;
- a first line holding `Application, ProcessID, SwapChainAddress` and PresentMon's interval
  columns is a PresentMon CSV, in the layout its columns say (`presentmon.py`).

Anything else is refused in one line, as is a file that cannot be read or that holds no frame.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from game.capture.capframex import CapFrameXCapture
from game.capture.frame import Capture, IntervalColumn
from game.capture.frame_columns import FrameColumns
from game.capture.lines import BOM, first_lines
from game.capture.mangohud import MangoHudCapture, is_mangohud
from game.capture.presentmon import detect_layout
from game.capture.presentmon_file import PresentMonCapture
from game.errors import BadInput

COLUMNS: tuple[IntervalColumn, ...] = ("presents", "display", "simulation")


def open_capture(
    path: Path,
    *,
    process: str | None = None,
    swapchain: str | None = None,
    column: IntervalColumn = "presents",
    done: Callable[[float], None] | None = None,
) -> Capture:
    """The capture at `path`, read and counted; `BadInput` (one line) for
    a file that is missing, is not a capture, or keeps no frame ("FILE: no frames: ...").
    `done(bytes_read)` moves a progress bar while a PresentMon file is read (the others are
    read as their frames are, `frame_columns`)."""
    if column not in COLUMNS:
        raise BadInput(f"{path}: --column must be one of {', '.join(COLUMNS)} (got {column!r})")
    lines = first_lines(path, 8)
    first = lines[0].lstrip() if lines else ""
    if not first:
        raise BadInput(f"{path}: not a capture: the file is empty")
    if first.lstrip(BOM).startswith("{"):
        return CapFrameXCapture(path, process=process, swapchain=swapchain, column=column)
    if is_mangohud(lines):
        return MangoHudCapture(path, lines, process=process, swapchain=swapchain, column=column)
    header = lines[0].split(",")
    layout = detect_layout(header)
    if layout is None:
        raise BadInput(
            f"{path}: not a capture: the first line is no PresentMon header "
            "(Application,ProcessID,SwapChainAddress,...,MsBetweenPresents or FrameTime), "
            "MangoHud log (os,cpu,gpu,...) or CapFrameX session ({...})"
        )
    return PresentMonCapture(
        path, header, layout, process=process, swapchain=swapchain, column=column, done=done
    )


def frame_columns(capture: Capture, done: Callable[[float], None] | None = None) -> FrameColumns:
    """The capture's frames as columns: the PresentMon reader's own, written as it read the file
    (`done` is not called: there is nothing left to read), else written down from `frames()`,
    `done(frames_read)` moving a progress bar between chunks."""
    if isinstance(capture, PresentMonCapture):
        return capture.columns
    return FrameColumns.from_frames(capture.frames(), capture.info.frames, done)


def read_capture_once(path: Path, *, column: IntervalColumn = "presents") -> int:
    """Open a capture and read its frames into columns: what `make bench` times (the frames
    kept)."""
    return len(frame_columns(open_capture(path, column=column)))
