"""`CapFrameXCapture`: a CapFrameX session (JSON), its first run read as a PresentMon 1.x capture.

CapFrameX records with PresentMon and saves a session: `{"Info": {"ProcessName", "GameName",
...}, "Runs": [{"CaptureData": {"TimeInSeconds": [...], "MsBetweenPresents": [...],
"MsBetweenDisplayChange": [...], "MsUntilDisplayed": [...], "Dropped": [...], ...},
"SensorData": ...}, ...]}`, one column array per PresentMon 1.x column.

**Which run.** A session's runs are separate recordings of the same scene (CapFrameX shows them
one by one or aggregated); joining them would invent the time between them. The first run is
read, and the process says so when there are more (`game.exe (run 1 of 3)`).

**Rows.** Row k is the k-th entry of every array (numbered from 1); it becomes a frame by PresentMon
1.x's rules (`presentmon.py`), `Dropped` being `true` or 1 for a frame never shown. An entry
missing from a shorter array is a "missing value". The numbers are read as the decimals the file
holds (JSON's text, never a float).

**Size.** The standard library cannot stream JSON, so the file is read whole, within
`MAX_CAPFRAMEX_BYTES`, and again by each `frames()` call.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from game.capture.frame import CapturedFrame, CaptureInfo, IntervalColumn
from game.capture.presentmon import ChainClock, PresentMonLayout, Row, row_reader
from game.capture.selection import describe_skips
from game.errors import BadInput
from game.file_reading import read_text
from game.limits import MAX_CAPFRAMEX_BYTES

_ARRAYS = ("TimeInSeconds", "MsBetweenPresents", "Dropped", "MsUntilDisplayed",
           "MsBetweenDisplayChange")  # fmt: skip
_LAYOUT = PresentMonLayout(
    name="1.x",
    application=0,
    process_id=0,
    swapchain=0,
    time=1,
    time_unit=9,
    present=2,
    dropped=3,
    until_displayed=4,
    display_change=5,
)
"""Where `_cells` puts each array's entry: PresentMon 1.x's rules read the row."""


def _load(path: Path) -> tuple[dict[str, list[str]], int, str]:
    """The first run's arrays (entries as text), the number of runs, and the process name."""
    text = read_text(path, "a CapFrameX session", limit=MAX_CAPFRAMEX_BYTES)
    try:
        session = json.loads(text, parse_float=str, parse_int=str, parse_constant=str)
    except (json.JSONDecodeError, RecursionError) as problem:
        raise BadInput(f"{path}: not a CapFrameX session: {problem}") from None
    runs = session.get("Runs") if isinstance(session, dict) else None
    if not isinstance(runs, list) or not runs or not isinstance(runs[0], dict):
        raise BadInput(f'{path}: not a CapFrameX session: no "Runs" with a run in them')
    data = runs[0].get("CaptureData")
    if not isinstance(data, dict) or not isinstance(data.get("MsBetweenPresents"), list):
        raise BadInput(f"{path}: not a CapFrameX session: its first run has no MsBetweenPresents")
    info = session.get("Info")
    name: Any = info.get("ProcessName") or info.get("GameName") if isinstance(info, dict) else None
    arrays = {key: _texts(data.get(key)) for key in _ARRAYS}
    return arrays, len(runs), name if isinstance(name, str) and name else path.stem


def _texts(values: object) -> list[str]:
    """An array's entries as the text they were written as (`true`/`false` as 1/0)."""
    if not isinstance(values, list):
        return []
    return [
        ("1" if value else "0")
        if isinstance(value, bool)
        else value
        if isinstance(value, str)
        else ""
        for value in values
    ]


class CapFrameXCapture:
    """A CapFrameX session opened for reading (see the module docstring)."""

    def __init__(
        self,
        path: Path,
        *,
        process: str | None = None,
        swapchain: str | None = None,
        column: IntervalColumn = "presents",
    ) -> None:
        self.path = path
        self.column = column
        if column == "simulation":
            raise BadInput(
                f"{path}: --column simulation needs MsBetweenSimulationStart, which a CapFrameX "
                "session does not have"
            )
        arrays, runs, name = _load(path)
        if swapchain is not None:
            raise BadInput(f"{path}: a CapFrameX session holds one swap chain: no --swapchain")
        if process is not None and process.strip().lower() != name.lower():
            raise BadInput(f"{path}: nothing matches --process {process}; the session is {name}")
        rows = len(arrays["MsBetweenPresents"])
        skipped: dict[str, int] = {}
        frames = 0
        for outcome in self._outcomes(arrays):
            if isinstance(outcome, str):
                skipped[outcome] = skipped.get(outcome, 0) + 1
            else:
                frames += 1
        if frames == 0:
            reasons = describe_skips(skipped) or "no rows"
            raise BadInput(f"{path}: no frames: {rows:,} rows, none a frame ({reasons})")
        self._info = CaptureInfo(
            path=str(path),
            format="capframex",
            layout="capframex",
            process=name if runs == 1 else f"{name} (run 1 of {runs})",
            swapchain=None,
            column=column,
            rows=rows,
            frames=frames,
            skipped=skipped,
            chosen_by_default=False,
        )

    @property
    def info(self) -> CaptureInfo:
        return self._info

    def _outcomes(self, arrays: dict[str, list[str]]) -> Iterator[Row | str]:
        layout = _LAYOUT if arrays["Dropped"] else replace(_LAYOUT, dropped=None)
        read = row_reader(layout, self.column)
        clock = ChainClock()
        columns = [arrays[key] for key in _ARRAYS]
        for index in range(len(arrays["MsBetweenPresents"])):
            cells = [column[index] if index < len(column) else "" for column in columns]
            yield read(["", *cells], clock)

    def frames(self) -> Iterator[CapturedFrame]:
        """The first run's frames in order, read from the file again."""
        arrays, _, _ = _load(self.path)
        origin: int | None = None
        for number, outcome in enumerate(self._outcomes(arrays), start=1):
            if isinstance(outcome, str):
                continue
            time_ns, elapsed_ns, present_ns, displayed, display_ns = outcome
            if origin is None:
                origin = time_ns
            shown = None if display_ns is None else display_ns - origin
            yield CapturedFrame(number, time_ns - origin, elapsed_ns, present_ns, displayed, shown)
