"""The `capture` command's report: what was read, then one row per policy at each tick rate.

The text is for a person: the file, its format and layout, the process kept (and why), the rows
read, the frames made and the rows skipped by reason; then per tick rate a table. `--json` is
for scripts: one object per line per (tick rate, policy), each `PolicyFigures.record()` with the
headroom and the `"capture"` object beside it (`json_record`). A part of the analysis that adds
its own object to each line adds it to the dict `json_record` returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from game.capture.damage import damage_line
from game.capture.frame import CaptureInfo
from game.clock.units import format_ms
from game.config.exact import decimal_text
from game.printable import printable
from game.workshop.captures.headroom import RESOLUTION_NS, Headroom
from game.workshop.captures.policy_figures import PolicyFigures, nine_places
from timestep_lab import SchedulerSettings

COLUMN_WORDS = {
    "presents": "the time between presents",
    "display": "the time between display changes",
    "simulation": "the time between simulation starts",
}


def capture_record(info: CaptureInfo) -> dict[str, object]:
    """`--json`'s `"capture"` object: what was read (`damaged` counts the kept rows lost to
    damage, by reason: `game.capture.damage`; `candidates` the other processes and swap chains
    a default choice passed over; `info` what the tool wrote of the capture, CapFrameX's
    `//Key=Value` lines; `notes` what the reader noticed)."""
    record: dict[str, object] = {
        "format": info.format,
        "layout": info.layout,
        "process": info.process,
        "rows": info.rows,
        "frames": info.frames,
        "skipped": dict(info.skipped),
        "damaged": info.damaged,
    }
    if info.chosen_by_default:
        record["candidates"] = [candidate._asdict() for candidate in info.candidates]
    if info.tool_info:
        record["info"] = dict(info.tool_info)
    if info.notes:
        record["notes"] = list(info.notes)
    return record


def json_record(
    figures: PolicyFigures, headroom: Headroom | None, info: CaptureInfo
) -> dict[str, object]:
    """One `--json` line: the figures, the headroom (`"headroom_ns"`, null when it was not
    measured or the policy falls behind even with no added work), and the capture."""
    record = figures.record()
    if headroom is not None:
        record["headroom_ns"] = headroom.headroom_ns
        record["headroom_frames"] = headroom.frames
    record["capture"] = capture_record(info)
    return record


def heading(info: CaptureInfo) -> str:
    """The report's first lines: damage, if more than 1 % of the kept rows (first, so that it
    is not missed), which file, what was kept (and what else there was, when the choice was the
    default), what the tool wrote of it, and what the figures describe."""
    chosen = ", chosen: most rows" if info.chosen_by_default else ""
    chain = f", swap chain {printable(info.swapchain)}" if info.swapchain is not None else ""
    skipped = sum(info.skipped.values())
    reasons = ", ".join(f"{reason} {count:,}" for reason, count in info.skipped.items() if count)
    damaged = damage_line(info)
    lines = [] if damaged is None else [printable(damaged)]
    lines += [
        f"capture {printable(info.path)}: {info.format} {info.layout}, process "
        f"{printable(info.process)}{chain}{chosen}",
        f"rows {info.rows:,}: frames {info.frames:,}, skipped {skipped:,}"
        + (f" ({reasons})" if reasons else ""),
    ]
    if info.chosen_by_default and info.candidates:
        lines.append("other processes: " + candidates_text(info))
    lines += [f"note: {note}" for note in info.notes]
    if info.tool_info:
        said = ", ".join(f"{key}={value}" for key, value in info.tool_info)
        lines.append(f"the tool wrote: {printable(said)}")
    lines.append(
        f"each frame's time: {COLUMN_WORDS.get(info.column, info.column)} (--column {info.column})"
    )
    if info.sample_interval_ms is not None:
        lines.append(
            f"MangoHud logged a sample every {info.sample_interval_ms} ms: the figures below "
            "describe samples, not frames"
        )
    lines.append(
        "open loop: each frame lasts what the capture says, whatever the policy planned, so "
        "no spiral can start (spiral: none to judge)"
    )
    return "\n".join(lines) + "\n"


def candidates_text(info: CaptureInfo) -> str:
    """`dwm.exe (1234) swap chain 0x1F 4,229 rows, ...`: what a default choice passed over."""
    return printable(
        ", ".join(
            f"{candidate.process} swap chain {candidate.swapchain} {candidate.rows:,} rows"
            for candidate in info.candidates
        )
    )


def _histogram(counts: Mapping[int, int]) -> str:
    return " ".join(f"{steps}:{frames}" for steps, frames in counts.items())


HEADER = (
    "policy", "ticks", "frames by ticks run (ticks:frames)", "dropped ms", "longest catch-up",
    "lag ms", "lost", "doubled", "headroom ms",
)  # fmt: skip


def rate_table(
    settings: SchedulerSettings,
    rows: Sequence[tuple[PolicyFigures, Headroom | None]],
) -> str:
    """One tick rate's table: a row per policy."""
    hz = decimal_text(Fraction(settings.hz))
    lines = [
        f"\nat {hz} Hz (step {format_ms(settings.step_ns)} ms), M {settings.max_steps}, "
        f"F {format_ms(settings.max_frame_ns)} ms, B {format_ms(settings.max_backlog_ns)} ms"
        + ("" if settings.time_scale == 1 else f", time scale {decimal_text(settings.time_scale)}")
    ]
    cells = [list(HEADER)] + [row_cells(figures, headroom) for figures, headroom in rows]
    lines += aligned(cells)
    return "\n".join(line.rstrip() for line in lines) + "\n"


def row_cells(figures: PolicyFigures, headroom: Headroom | None) -> list[str]:
    """One policy's row of a table (`HEADER`'s columns)."""
    return [
        figures.policy,
        f"{figures.ticks:,}",
        _histogram(figures.steps_per_frame),
        format_ms(figures.dropped_ns),
        f"{figures.longest_catch_up} (row {figures.longest_catch_up_row})",
        format_ms(figures.lag_ns),
        nine_places(figures.lost_share),
        nine_places(figures.doubled_share),
        headroom_cell(headroom),
    ]


def aligned(cells: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as lines, each column as wide as its widest cell."""
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in cells
    ]


def headroom_cell(headroom: Headroom | None) -> str:
    if headroom is None:
        return "-"
    if headroom.below is None:
        return "none"
    shown = format_ms(headroom.below.step_cost_ns)
    return f">= {shown}" if headroom.above is None else shown


def footnotes(measured_headroom: bool, hitch_rule: str) -> str:
    """What the columns mean, under the tables."""
    lines = [
        "lost, doubled: the share of presses placed uniformly in time that no tick reads, or two "
        "or more do, under frame-edge input (the input lab's formula, exact)",
        "longest catch-up: the most ticks one frame ran (and the capture's row of that frame)",
        f"hitch: {hitch_rule}",
    ]
    if measured_headroom:
        lines.append(
            "headroom: the most work each tick could add before the policy stops keeping up "
            f"with these frames (closed loop, to {format_ms(RESOLUTION_NS, 2)} ms; "
            "game/workshop/captures/headroom.py states the model)"
        )
    return "\n" + "\n".join(lines) + "\n"
