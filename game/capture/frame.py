"""`CapturedFrame` and `CaptureInfo`: what every capture reader hands out, whatever the format.

PresentMon, CapFrameX and MangoHud each name their columns differently; past the reader, code
sees only these two records, so the policies, the display model and the live game never ask which
tool wrote the file. Every time is whole nanoseconds, read exactly from the decimal the tool wrote
(rounded half to even beyond the nanosecond): a capture is as exact an input as a scenario.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, Protocol

CaptureFormat = Literal["presentmon", "capframex", "mangohud", "timestep-lab"]
"""The tool that wrote the file (`timestep-lab` for our own `--frame-log`, a PresentMon 1.x
layout: it reads back as `presentmon` would, and says who wrote it)."""

IntervalColumn = Literal["presents", "display", "simulation"]
"""Which interval is a frame's elapsed time (`--column`): between presents (the default, as the
game's loop measured it), between display changes (what the screen showed, which frame
generation does not break), or between simulation starts (PresentMon 2.x only)."""


class CapturedFrame(NamedTuple):
    """One frame of a capture (a NamedTuple: a million are made for a large file)."""

    row: int
    """The frame's line number in the file (a PresentMon header is line 1, so its first row is
    2; a MangoHud log's rows follow its system-info lines and header); for a CapFrameX run, the
    index in its arrays from 1: how a user finds the frame again in their own tool."""
    time_ns: int
    """When it was presented, in ns since the first frame kept (the capture's `TimeInSeconds`,
    `CPUStartTime` in v2_metrics or MangoHud's `elapsed`, less the first one's; in layouts
    written in QPC ticks, the summed present intervals: see `game.capture.presentmon`)."""
    elapsed_ns: int
    """The interval chosen by `--column`, never negative: what the scheduler is handed."""
    present_interval_ns: int
    """`MsBetweenPresents` (`FrameTime` in the v2 metrics), whatever `--column` says."""
    displayed: bool | None
    """Whether it reached the screen, by the capture's word (`Dropped` 0, or a display time
    given); None when the format does not say (MangoHud)."""
    display_time_ns: int | None
    """When it reached the screen, on the same clock as `time_ns` (present time plus
    `MsUntilDisplayed`, or `DisplayedTime`); None when it did not or the capture does not say."""
    ready_ns: int | None = None
    """When the GPU had finished drawing it, on the same clock, never before `time_ns`
    (`game.capture.presentmon`'s "Ready"); None when the capture does not say."""


DAMAGE: tuple[str, ...] = ("missing value", "not a number", "truncated line")
"""The skip reasons that are damage when they befall a row of the kept process and swap chain
(`game.capture.damage`): the other skips are other processes' rows, or rows that are whole but
no frame under the rules (not displayed, a zero interval)."""


class Candidate(NamedTuple):
    """A (process, swap chain) of the capture not kept by default, and its rows."""

    process: str
    swapchain: str
    rows: int


SkipReason = Literal[
    "other process",
    "other swap chain",
    "missing value",
    "not displayed",
    "not a number",
    "zero or negative interval",
    "truncated line",
]
"""Why a row was not made a frame; each has its rule in the reader's docstring, and every
skipped row is counted under exactly one of them."""


@dataclass(frozen=True, slots=True)
class CaptureInfo:
    """What was read, for the report's first lines and `--json`'s `"capture"` object."""

    path: str
    format: CaptureFormat
    layout: str
    """Which of the format's layouts the header matched: `1.x`, `2.x`, `2.x-qpc`, `v2_metrics`,
    `capframex`, `mangohud`, `mangohud-sampled`."""
    process: str
    """The process (and its id) whose frames were kept, e.g. `game.exe (4712)`."""
    swapchain: str | None
    """The swap chain kept (`0x...`), or None when the format has none."""
    column: IntervalColumn
    rows: int
    """Data rows read (the header and MangoHud's system-info lines not counted)."""
    frames: int
    skipped: Mapping[str, int] = field(default_factory=dict)
    """Rows skipped, by `SkipReason`; `rows == frames + sum(skipped.values())`."""
    sample_interval_ms: int | None = None
    """MangoHud's `log_interval` when it was not 0: the rows are samples every N ms, not frames,
    and every figure made from them must say so."""
    chosen_by_default: bool = False
    """True when no `--process`/`--swapchain` was given and the one with most rows was kept."""
    kept_rows: int | None = None
    """The kept process and swap chain's rows, its truncated lines included (and lines that
    name no process): what damage is a share of. None: every row (one process)."""
    candidates: tuple[Candidate, ...] = ()
    """When the choice was the default: up to 5 other (process, swap chain) pairs, most rows
    first (`game.capture.selection`)."""
    notes: tuple[str, ...] = ()
    """What the reader noticed and the report says ("last line had no line end: ...")."""
    tool_info: tuple[tuple[str, str], ...] = ()
    """What the tool wrote about the capture besides its frames (CapFrameX's `//Key=Value`
    lines): `--json`'s `capture.info`, in file order, a repeated key keeping its last value."""

    @property
    def damaged(self) -> dict[str, int]:
        """The kept rows skipped as damage, by reason (`DAMAGE`)."""
        return {reason: self.skipped[reason] for reason in DAMAGE if self.skipped.get(reason)}

    @property
    def chain_rows(self) -> int:
        """The rows damage is counted against: the kept chain's (or every row)."""
        return self.rows if self.kept_rows is None else self.kept_rows


class Capture(Protocol):
    """A capture file opened for reading: its info, and its frames streamed from the file."""

    @property
    def info(self) -> CaptureInfo: ...

    def frames(self) -> Iterator[CapturedFrame]:
        """The kept frames, in file order, on each call (a 1 GB capture is never held whole:
        its kept frames are held as columns, read once when it was opened)."""
        ...
