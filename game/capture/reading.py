"""`open_capture`: the one way in. It tells the format from the file's first lines and opens it.

- a first character `{` is a CapFrameX session (JSON);
- a first line `os,cpu,gpu,...` (or MangoHud's `v1` versioning line) is a MangoHud log;
- a first line holding `Application, ProcessID, SwapChainAddress` and PresentMon's interval
  columns is a PresentMon CSV, in the layout its columns say (`presentmon.py`);
- lines `//Key=Value` before such a header are CapFrameX's CSV export (2019-2020): what it says
  of the capture (game, processor, GPU, driver, comment) is kept as `CaptureInfo.tool_info`, at
  most `MAX_INFO_LINES` lines and 64 KiB of them.

Anything else is refused in one line, as is a file that cannot be read, that holds no frame, or
whose kept rows are more than half damaged (`damage.py`, unless `allow_damaged`). The input is
read once (`source.py`), so a pipe or a FIFO reads as a file does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from game.capture.capframex import CapFrameXCapture
from game.capture.damage import refuse_damage
from game.capture.frame import Capture, IntervalColumn
from game.capture.frame_columns import FrameColumns
from game.capture.mangohud import MangoHudCapture, is_mangohud
from game.capture.presentmon import detect_layout
from game.capture.presentmon_file import PresentMonCapture
from game.capture.source import CaptureInput
from game.errors import BadInput

COLUMNS: tuple[IntervalColumn, ...] = ("presents", "display", "simulation")
MAX_INFO_LINES = 100
"""`//Key=Value` lines a CapFrameX CSV export may start with (it writes some twenty)."""
_FIRST_LINES = 8


def open_capture(
    path: Path,
    *,
    process: str | None = None,
    swapchain: str | None = None,
    column: IntervalColumn = "presents",
    done: Callable[[float], None] | None = None,
    allow_damaged: bool = False,
) -> Capture:
    """The capture at `path`, read and counted; `BadInput` (one line) for
    a file that is missing, is not a capture, or keeps no frame ("FILE: no frames: ..."), or
    whose kept rows are more than half damaged (unless `allow_damaged`).
    `done(bytes_read)` moves a progress bar while a PresentMon file is read."""
    if column not in COLUMNS:
        raise BadInput(f"{path}: --column must be one of {', '.join(COLUMNS)} (got {column!r})")
    with CaptureInput(path) as source:
        capture = _opened(source, process, swapchain, column, done)
    refuse_damage(capture.info, allow=allow_damaged)
    return capture


def _opened(
    source: CaptureInput,
    process: str | None,
    swapchain: str | None,
    column: IntervalColumn,
    done: Callable[[float], None] | None,
) -> Capture:
    path = source.path
    lines = source.first_lines(MAX_INFO_LINES + _FIRST_LINES)
    first = lines[0].lstrip() if lines else ""
    if not first:
        raise BadInput(f"{path}: not a capture: the file is empty")
    if first.startswith("{"):
        return CapFrameXCapture(source, process=process, swapchain=swapchain, column=column)
    if is_mangohud(lines):
        return MangoHudCapture(
            source, lines[:_FIRST_LINES], process=process, swapchain=swapchain, column=column
        )
    info = tool_info(path, lines)
    header = lines[len(info)].split(",") if len(info) < len(lines) else []
    layout = detect_layout(header)
    if layout is None:
        raise BadInput(
            f"{path}: not a capture: the first line is no PresentMon header "
            "(Application,ProcessID,SwapChainAddress,...,MsBetweenPresents or FrameTime), "
            "MangoHud log (os,cpu,gpu,...), CapFrameX session ({...}) or CapFrameX CSV export "
            "(//Key=Value lines, then a PresentMon header)"
        )
    return PresentMonCapture(
        source,
        header,
        layout,
        process=process,
        swapchain=swapchain,
        column=column,
        done=done,
        info=info,
    )


def tool_info(path: Path, lines: list[str]) -> list[tuple[str, str]]:
    """The `//Key=Value` lines at the start (each as (key, value); a line with no `=` is a key
    with an empty value), at most `MAX_INFO_LINES` of them within the first 64 KiB."""
    found = []
    for line in lines:
        if not line.startswith("//"):
            break
        key, _, value = line[2:].partition("=")
        found.append((key.strip(), value.strip()))
    if len(found) > MAX_INFO_LINES:
        raise BadInput(
            f"{path}: not a capture: more than {MAX_INFO_LINES} //Key=Value lines before the "
            "PresentMon header"
        )
    return found


def frame_columns(capture: Capture, done: Callable[[float], None] | None = None) -> FrameColumns:
    """The capture's frames as columns: the readers' own, written as they read the file (`done`
    is not called: there is nothing left to read), else written down from `frames()`,
    `done(frames_read)` moving a progress bar between chunks."""
    columns = getattr(capture, "columns", None)
    if isinstance(columns, FrameColumns):
        return columns
    return FrameColumns.from_frames(capture.frames(), capture.info.frames, done)


def read_capture_once(path: Path, *, column: IntervalColumn = "presents") -> int:
    """Open a capture and read its frames into columns: what `make bench` times (the frames
    kept)."""
    return len(frame_columns(open_capture(path, column=column)))
