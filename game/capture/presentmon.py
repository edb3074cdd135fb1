"""PresentMon's CSV layouts, told apart by their header, and the rule that makes a row a frame.

PresentMon has written three layouts (column names from its console application's source and
README; names are matched without regard to case, as 1.6 wrote `msBetweenPresents`):

- **1.x** (and `--v1_metrics`): `Application, ProcessID, SwapChainAddress, Runtime, SyncInterval,
  PresentFlags, Dropped, TimeInSeconds, msInPresentAPI, msBetweenPresents, AllowsTearing,
  PresentMode, msUntilRenderComplete, msUntilDisplayed, msBetweenDisplayChange, ...`.
- **2.x** (the console and the capture app): `Application, ProcessID, SwapChainAddress,
  PresentRuntime, SyncInterval, PresentFlags, AllowsTearing, PresentMode, [FrameType],
  TimeInSeconds | TimeInMs | TimeInQPC | TimeInDateTime, MsBetweenSimulationStart,
  MsBetweenPresents, MsBetweenDisplayChange, MsInPresentAPI, MsRenderPresentLatency,
  MsUntilDisplayed, CPUStartTime..., MsCPUBusy, ..., MsAnimationError, ...` and the capture
  app's telemetry columns (GPU power, temperatures), which are ignored. Where a frame was not
  displayed PresentMon writes `NA` in its display columns.
- **v2_metrics** (`--v2_metrics`, the 2.0-2.3 default): `..., CPUStartTime | CPUStartQPC |
  CPUStartQPCTime | CPUStartDateTime, FrameTime, CPUBusy, CPUWait, GPULatency, GPUTime, GPUBusy,
  GPUWait, DisplayLatency, DisplayedTime, AnimationError, ...`.

**Times.** `TimeInSeconds` and `CPUStartTime` are seconds since the capture started, `TimeInMs`
and `CPUStartQPCTime` milliseconds. With `--qpc_time` PresentMon writes raw performance-counter
ticks (`TimeInQPC`, `CPUStartQPC`) and the counter's frequency is nowhere in the file, so they
are not read: those layouts (`2.x-qpc`, and v2_metrics with ticks or dates) time each row by the
running sum of its swap chain's present intervals (milliseconds in every layout): a row is
presented its `MsBetweenPresents` after the row before it, and a v2_metrics row starts its
`FrameTime` before the next one. A row whose interval cannot be read adds nothing to the sum.

**Which rows are frames** (every rule counted under one `SkipReason`, checked in this order):
1. The present interval (`MsBetweenPresents`, `FrameTime`) must be a number: `NA` or empty is a
   "missing value", anything else unreadable "not a number"; so must the time column.
2. It must be positive ("zero or negative interval"): it is the loop's own measure of the frame.
   A frame that never reached the screen still ran: under `--column presents` it is a frame,
   with `displayed=False`.
3. `--column display`: a frame not displayed is skipped ("not displayed"); a displayed one needs
   a positive display-change interval (`MsBetweenDisplayChange`; in v2_metrics the previous
   displayed frame's `DisplayedTime`, which is the same interval, so the first displayed frame
   of a swap chain has none: "missing value").
4. `--column simulation`: `MsBetweenSimulationStart` must be a positive number (`NA` when the
   game is not instrumented: "missing value").

**Displayed.** 1.x: `Dropped` is 0. 2.x: `MsUntilDisplayed` is a positive number (PresentMon
writes `NA`, some versions 0, for a frame never shown, and then fills dependent columns such as
`MsAnimationError` with garbage like -1.8e15, which is never read). v2_metrics: `DisplayedTime`
is a positive number. The display time is the present time plus `MsUntilDisplayed` (v2_metrics:
the CPU start plus `DisplayLatency`).

**Ready.** A frame cannot reach the screen before the GPU has drawn it, so the display model
takes each frame's *ready time* where the capture gives one (`game.workshop.captures.display_side`):
1.x (and OCAT's and CapFrameX's files) the present time plus `MsUntilRenderComplete`; 2.x the
present time plus `MsRenderPresentLatency`, or else the CPU start (`CPUStartTime`, in seconds or
ms) plus `MsGPULatency` and `MsGPUTime`; v2_metrics the CPU start plus `GPULatency` and
`GPUTime`. A ready time is never before the present (a negative sum is taken as 0), and a row
whose cells for it are missing or unreadable has none: it is no less a frame for that.

**Short rows.** A row may end before the header does (OCAT writes its system-information
columns on its first row only): it is read when it holds every column the rules above need
(`PresentMonLayout.last_column`); the ready time's columns may be missing from it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.capture.decimals import MISSING, MS, SECONDS, decimal_ns
from game.capture.frame import IntervalColumn

Row = tuple[int, int, int, "bool | None", "int | None", "int | None"]
"""A frame as read from its row: (time, elapsed, present interval, displayed, display time, ready
time), the times in ns on the capture's own clock (not yet from the first frame)."""

RowReader = Callable[[list[str], "ChainClock"], "Row | str"]
"""Reads one row's cells (with its swap chain's clock): a `Row`, or the `SkipReason` it fails."""

FRAME_LOG_APPLICATION = "timestep-lab"
"""The `Application` our own `--frame-log` writes: a 1.x file from it reads as format
`timestep-lab`."""

_TIME_COLUMNS = {
    "timeinseconds": SECONDS,
    "timeinms": MS,
    "cpustarttime": SECONDS,
    "cpustarttimeinseconds": SECONDS,
    "cpustartqpctime": MS,
    "cpustarttimeinms": MS,
}
_TICK_COLUMNS = ("timeinqpc", "timeindatetime", "cpustartqpc", "cpustartdatetime")
_CPU_START = ("cpustarttime", "cpustarttimeinseconds", "cpustartqpctime", "cpustarttimeinms")
"""2.x's CPU start, where it is written as a time (not in ticks), for the ready time."""
_RENDER_COMPLETE = ("msuntilrendercomplete", "msrenderpresentlatency")
"""The ready time's interval after the present: in 1.x, and in 2.x."""


@dataclass(frozen=True, slots=True)
class PresentMonLayout:
    """Where one layout keeps what a frame needs: column indices (None when it has none)."""

    name: str
    application: int
    process_id: int
    swapchain: int
    present: int
    time: int | None
    """None: the layout's time is in ticks or dates, so rows are timed by summed intervals."""
    time_unit: int
    dropped: int | None = None
    until_displayed: int | None = None
    display_change: int | None = None
    displayed_time: int | None = None
    simulation: int | None = None
    render_complete: int | None = None
    """The ready time's interval after the present (1.x `MsUntilRenderComplete`, 2.x
    `MsRenderPresentLatency`)."""
    cpu_start: int | None = None
    """2.x's `CPUStartTime`, where the ready time is summed from it and the two GPU intervals."""
    cpu_start_unit: int = SECONDS
    gpu_latency: int | None = None
    gpu_time: int | None = None
    gpu_after_time: bool = False
    """v2_metrics: the row's time is its CPU start, which the GPU intervals follow."""

    @property
    def last_column(self) -> int:
        """The last column a row must hold to be read (a shorter row is a truncated line)."""
        used = (
            self.application,
            self.process_id,
            self.swapchain,
            self.present,
            self.time,
            self.dropped,
            self.until_displayed,
            self.display_change,
            self.displayed_time,
            self.simulation,
        )
        return max(index for index in used if index is not None)

    @property
    def widest_column(self) -> int:
        """The last column read: a row is split no further (telemetry columns stay unsplit)."""
        ready = (self.render_complete, self.cpu_start, self.gpu_latency, self.gpu_time)
        return max((self.last_column, *(index for index in ready if index is not None)))

    @property
    def has_ready(self) -> bool:
        """Whether the layout gives a ready time (a row's cells may still be missing)."""
        summed = self.cpu_start is not None or self.gpu_after_time
        gpu = self.gpu_latency is not None and self.gpu_time is not None
        return self.render_complete is not None or (summed and gpu)

    def lacks(self, column: IntervalColumn) -> str | None:
        """What the layout lacks for `column` (a column name), or None when it has it."""
        if column == "display" and self.display_change is None and self.displayed_time is None:
            return "MsBetweenDisplayChange"
        if column == "simulation" and self.simulation is None:
            return "MsBetweenSimulationStart"
        return None


def detect_layout(header: Sequence[str]) -> PresentMonLayout | None:
    """The layout whose columns the header holds, or None when it is not PresentMon's."""
    where = {name.strip().lower(): index for index, name in reversed(list(enumerate(header)))}
    chain = [where.get(name) for name in ("application", "processid", "swapchainaddress")]
    if None in chain:
        return None
    application, process_id, swapchain = (index for index in chain if index is not None)
    present = where.get("msbetweenpresents")
    time_names: tuple[str, ...]
    if present is not None and "dropped" in where and "timeinseconds" in where:
        name, time_names = "1.x", ("timeinseconds",)
    elif present is not None:
        name, time_names = "2.x", ("timeinseconds", "timeinms")
    elif "frametime" in where:
        name, time_names, present = "v2_metrics", tuple(_TIME_COLUMNS)[2:], where["frametime"]
    else:
        return None
    time = next((where[n] for n in time_names if n in where), None)
    if time is None and not any(tick in where for tick in _TICK_COLUMNS):
        return None
    if time is None and name == "2.x":
        name = "2.x-qpc"
    time_unit = next((_TIME_COLUMNS[n] for n in time_names if n in where), SECONDS)
    v2 = name == "v2_metrics"
    cpu_start = next((where[n] for n in _CPU_START if n in where), None)
    if v2 or time is None:  # v2_metrics: the time is the CPU start; ticks: times are summed
        cpu_start = None
    cpu_start_unit = next((_TIME_COLUMNS[n] for n in _CPU_START if n in where), SECONDS)
    return PresentMonLayout(
        name=name,
        application=application,
        process_id=process_id,
        swapchain=swapchain,
        present=present,
        time=time,
        time_unit=time_unit,
        dropped=where.get("dropped") if name == "1.x" else None,
        until_displayed=where.get("displaylatency" if v2 else "msuntildisplayed"),
        display_change=None if v2 else where.get("msbetweendisplaychange"),
        displayed_time=where.get("displayedtime") if v2 else None,
        simulation=where.get("msbetweensimulationstart"),
        render_complete=None if v2 else where.get(_RENDER_COMPLETE[name != "1.x"]),
        cpu_start=cpu_start,
        cpu_start_unit=cpu_start_unit,
        gpu_latency=where.get("gpulatency" if v2 else "msgpulatency"),
        gpu_time=where.get("gputime" if v2 else "msgputime"),
        gpu_after_time=v2,
    )


class ChainClock:
    """What reading one swap chain's rows carries from row to row."""

    __slots__ = ("shown_for_ns", "time_ns")

    def __init__(self) -> None:
        self.time_ns = 0
        """The running sum of present intervals (the time of layouts written in ticks)."""
        self.shown_for_ns: int | None = None
        """The last displayed frame's `DisplayedTime` (v2_metrics' display-change interval)."""


def _positive_ms(text: str) -> int | None:
    """A cell of milliseconds as ns if it is a positive number, else None (NA, 0, garbage)."""
    if text in MISSING:
        return None
    try:
        value = decimal_ns(text, MS)
    except ValueError:
        return None
    return value if value > 0 else None


def _interval(text: str) -> int | str:
    """A cell of milliseconds that must be a positive interval: its ns, or the reason it is not."""
    if text in MISSING:
        return "missing value"
    try:
        value = decimal_ns(text, MS)
    except ValueError:
        return "not a number"
    return value if value > 0 else "zero or negative interval"


def _display_change(cells: list[str], change: int | None, shown_for_ns: int | None) -> int | str:
    """A displayed row's display-change interval: its `MsBetweenDisplayChange`, or (v2_metrics)
    how long the previous displayed frame was shown."""
    if change is not None:
        return _interval(cells[change])
    return "missing value" if shown_for_ns is None else shown_for_ns


def _number(text: str, unit: int) -> int | None:
    """A cell as ns if it is a number, else None."""
    if text in MISSING:
        return None
    try:
        return decimal_ns(text, unit)
    except ValueError:
        return None


def ready_after(layout: PresentMonLayout, cells: list[str], time_ns: int) -> int | None:
    """How long after its time (the present; in v2_metrics the CPU start) the row's frame was
    ready, never below 0; None when the row does not say (the module's "Ready")."""
    if layout.render_complete is not None and layout.render_complete < len(cells):
        after = _number(cells[layout.render_complete], MS)
        if after is not None:
            return max(after, 0)
    columns = (layout.cpu_start, layout.gpu_latency, layout.gpu_time)
    start_column, latency_column, gpu_column = columns
    if latency_column is None or gpu_column is None:
        return None
    if start_column is None and not layout.gpu_after_time:
        return None
    if max(index for index in columns if index is not None) >= len(cells):
        return None
    start: int | None = time_ns
    if start_column is not None:
        start = _number(cells[start_column], layout.cpu_start_unit)
    latency = _number(cells[latency_column], MS)
    gpu = _number(cells[gpu_column], MS)
    if start is None or latency is None or gpu is None:
        return None
    return max(start + latency + gpu - time_ns, 0)


def _shown(
    layout: PresentMonLayout, cells: list[str], time_ns: int
) -> tuple[bool | None, int | None]:
    """Whether the row's frame was displayed (None: the layout does not say), and when."""
    dropped, until, displayed_time = layout.dropped, layout.until_displayed, layout.displayed_time
    displayed: bool | None = None
    if dropped is not None:
        displayed = cells[dropped] == "0"
    elif displayed_time is not None:
        displayed = _positive_ms(cells[displayed_time]) is not None
    elif until is not None:
        displayed = _positive_ms(cells[until]) is not None
    display_ns = None
    if displayed and until is not None:
        until_ns = _positive_ms(cells[until])
        display_ns = None if until_ns is None else time_ns + until_ns
    return displayed, display_ns


def row_reader(layout: PresentMonLayout, column: IntervalColumn) -> RowReader:
    """The rule that makes one of `layout`'s rows a frame under `column` (the module's rules)."""
    present, time, unit = layout.present, layout.time, layout.time_unit
    change, displayed_time, simulation = (
        layout.display_change,
        layout.displayed_time,
        layout.simulation,
    )
    # `MsBetweenPresents` ends at its row's present; `FrameTime` starts at its row's CPU start.
    interval_ends_row = layout.name != "v2_metrics"

    def read(cells: list[str], clock: ChainClock) -> Row | str:
        shown_for_ns = clock.shown_for_ns
        if displayed_time is not None:
            shown = _positive_ms(cells[displayed_time])
            if shown is not None:
                clock.shown_for_ns = shown
        present_text = cells[present]
        if present_text in MISSING:
            return "missing value"
        try:
            present_ns = decimal_ns(present_text, MS)
        except ValueError:
            return "not a number"
        if time is None:
            time_ns = clock.time_ns
            clock.time_ns += present_ns
            if interval_ends_row:
                time_ns += present_ns
        else:
            time_text = cells[time]
            if time_text in MISSING:
                return "missing value"
            try:
                time_ns = decimal_ns(time_text, unit)
            except ValueError:
                return "not a number"
        if present_ns <= 0:
            return "zero or negative interval"
        displayed, display_ns = _shown(layout, cells, time_ns)
        after = ready_after(layout, cells, time_ns)
        ready_ns = None if after is None else time_ns + after
        if column == "presents":
            return (time_ns, present_ns, present_ns, displayed, display_ns, ready_ns)
        if column == "display":
            if not displayed:
                return "not displayed"
            elapsed = _display_change(cells, change, shown_for_ns)
        else:
            elapsed = _interval(cells[simulation]) if simulation is not None else "missing value"
        if isinstance(elapsed, str):
            return elapsed
        return (time_ns, elapsed, present_ns, displayed, display_ns, ready_ns)

    return read
