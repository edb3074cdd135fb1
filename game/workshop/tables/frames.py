"""Readable tables and CSV files of headless runs.

Exact values are turned into milliseconds only here, for people to read; the JSON and the books
keep whole nanoseconds.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from game.clock.units import format_ms
from game.config.exact import decimal_text
from game.scheduler.records import FRAME_KEYS
from game.workshop.files.scenario import Scenario
from game.workshop.runs.runner import FrameReport, RunResult
from timestep_lab import NS_PER_SECOND, POLICIES, SchedulerSettings, round_ns

FRAME_CSV_COLUMNS = (*FRAME_KEYS, "wall_ns", "frame_ns", "lag_ns")
BUCKET_SECONDS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600)
"""Widths of the rows of the per-second table: the narrowest that keeps it to `MAX_ROWS`."""
MAX_ROWS = 30


@dataclass(frozen=True, slots=True)
class Bucket:
    """The frames that ended within one stretch of wall time."""

    start_s: int
    end_s: int
    frames: int
    ticks: int
    max_steps: int
    max_frame_ns: int
    dropped_ns: Fraction
    max_backlog: int
    lag_ns: Fraction
    """The lag after the bucket's last frame."""


def buckets(frames: Sequence[FrameReport], seconds: Fraction) -> list[Bucket]:
    """The run cut into equal stretches of wall time, at most `MAX_ROWS` of them."""
    counter = BucketCounter(seconds)
    for frame in frames:
        counter(frame)
    return counter.rows()


class BucketCounter:
    """A frame sink that sums the frames into `buckets` as they come (at most `MAX_ROWS` rows
    held, however long the run)."""

    def __init__(self, seconds: Fraction) -> None:
        self.width = next(
            (w for w in BUCKET_SECONDS if seconds <= w * MAX_ROWS), BUCKET_SECONDS[-1]
        )
        self.groups: dict[int, Bucket] = {}

    def __call__(self, frame: FrameReport) -> None:
        index = max(0, frame.wall_ns - 1) // (self.width * NS_PER_SECOND)
        plan = frame.plan
        old = self.groups.get(index)
        if old is None:
            start = index * self.width
            old = Bucket(start, start + self.width, 0, 0, 0, 0, Fraction(0), 0, Fraction(0))
        self.groups[index] = Bucket(
            start_s=old.start_s,
            end_s=old.end_s,
            frames=old.frames + 1,
            ticks=old.ticks + plan.steps,
            max_steps=max(old.max_steps, plan.steps),
            max_frame_ns=max(old.max_frame_ns, frame.frame_ns),
            dropped_ns=old.dropped_ns + plan.dropped_ns,
            max_backlog=max(old.max_backlog, plan.backlog_steps),
            lag_ns=frame.lag_ns,
        )

    def rows(self) -> list[Bucket]:
        return [bucket for _, bucket in sorted(self.groups.items())]


def settings_text(scenario: Scenario, settings: SchedulerSettings) -> str:
    """Two lines: the policy and what it does, then every knob of the run."""
    clock = scenario.clock
    return (
        f"policy {settings.policy}: {POLICIES[settings.policy].summary}\n"
        f"{decimal_text(settings.hz)} Hz (step {format_ms(settings.step_ns)} ms), "
        f"M = {settings.max_steps}, F = {format_ms(settings.max_frame_ns, 1)} ms, "
        f"B = {format_ms(settings.max_backlog_ns, 1)} ms, time scale {settings.time_scale}; "
        f"render {decimal_text(clock.render_fps)} fps, "
        f"render cost {decimal_text(clock.render_cost_ms)} ms, "
        f"step cost {decimal_text(scenario.load.step_cost_ms)} ms, "
        f"jitter {decimal_text(clock.jitter_ms)} ms; {decimal_text(scenario.seconds)} s"
    )


_BUCKET_HEADER = (
    f"{'seconds':>9} {'frames':>7} {'ticks':>6} {'max steps':>9} {'max frame ms':>13} "
    f"{'dropped ms':>11} {'backlog':>8} {'lag ms':>10}"
)


def bucket_table(rows: Sequence[Bucket]) -> str:
    lines = [_BUCKET_HEADER]
    for row in rows:
        lines.append(
            f"{f'{row.start_s}-{row.end_s}':>9} {row.frames:>7} {row.ticks:>6} "
            f"{row.max_steps:>9} {format_ms(row.max_frame_ns):>13} "
            f"{format_ms(row.dropped_ns):>11} {row.max_backlog:>8} {format_ms(row.lag_ns):>10}"
        )
    return "\n".join(lines) + "\n"


def totals_text(result: RunResult) -> str:
    """The run in three lines: the books, the verdicts, and the line the game prints on exit."""
    books = result.books
    ledger = "balanced" if books["ledger_ok"] else "DOES NOT BALANCE"
    spiral = spiral_text(result)
    return (
        f"frames {books['frames']}, ticks {books['ticks']}, wall {format_ms(books['wall_ns'])} ms "
        f"(paused {format_ms(books['paused_ns'])} ms), simulated "
        f"{format_ms(books['sim_time_ns'])} ms, dropped {format_ms(books['dropped_ns'])} ms, "
        f"lag {format_ms(result.lag_ns)} ms\n"
        f"ledger {ledger}; longest frame {format_ms(result.max_frame_ns)} ms; spiral {spiral}\n"
        + (
            f"the simulation blew up at tick {result.non_finite_tick}: a position became "
            "infinite or NaN (the integrator is unstable at this tick rate)\n"
            if result.non_finite_tick is not None
            else ""
        )
        + _rollback_text(result)
        + f"final tick {result.tick} state {result.state_hash}\n"
    )


def _rollback_text(result: RunResult) -> str:
    """Rollback's line, in a network session: what was run again, and whether the peers agree."""
    totals = result.rollback
    if totals is None:
        return ""
    desyncs = (
        "no desync"
        if totals.first_desync_tick is None
        else f"{totals.desyncs} DESYNCS from tick {totals.first_desync_tick}"
    )
    synced = (
        f"{totals.held_ticks} ticks held by time sync's wait, " if totals.held_ticks else ""
    ) + (f"{totals.stretched_frames} frames stretched, " if totals.stretched_frames else "")
    return (
        f"rollback: {totals.resimulated_ticks} ticks re-simulated, deepest {totals.max_depth}, "
        f"{totals.prediction_misses} prediction misses, {totals.window_stalls} window stalls; "
        f"{synced}{desyncs}\n"
    )


def spiral_text(result: RunResult) -> str:
    """The run's spiral verdict in words, with the frames the spiral rule says each spiral
    started and was over (`game.session.spiral.SpiralRule`)."""
    spans = result.spirals
    seen = ", ".join(
        f"frame {span.start} to {span.over}" if span.over else f"frame {span.start} on"
        for span in spans
    )
    if result.runaway:
        verdict = "YES: stopped by the runaway guard (a frame's work passed 10 s)"
    elif spans and spans[-1].over is None:
        verdict = "YES: each frame owed more ticks than the last, and took longer, to the end"
    elif result.spiral:
        verdict = "YES: the frames, and the ticks they owed, were still growing at the end"
    else:
        verdict = "no"
    return f"{verdict} (the spiral rule: {seen})" if seen else verdict


def write_frames_csv(
    path: Path,
    frames: Sequence[FrameReport],
    extra_columns: Sequence[str] = (),
    extra_cells: Callable[[int], Sequence[int]] | None = None,
) -> None:
    """One row per frame: the `simulate --json` frame keys and the lag, in whole ns, then any
    extra columns (each input model's counters), `extra_cells(index)` giving a row's."""
    with path.open("w", newline="", encoding="utf-8") as file:
        write_row = frames_csv_writer(file, extra_columns)
        for index, frame in enumerate(frames):
            write_row(frame, extra_cells(index) if extra_cells is not None else ())


def frames_csv_writer(
    file: TextIO, extra_columns: Sequence[str] = ()
) -> Callable[[FrameReport, Sequence[int]], None]:
    """Write `frames.csv`'s header to `file`; return what writes one frame's row (streaming)."""
    writer = csv.writer(file)
    writer.writerow([*FRAME_CSV_COLUMNS, *extra_columns])

    def write_row(frame: FrameReport, extra: Sequence[int] = ()) -> None:
        record = frame.record()
        writer.writerow(
            [*(record[key] for key in FRAME_CSV_COLUMNS[:-1]), round_ns(frame.lag_ns), *extra]
        )

    return write_row


COMPARE_COLUMNS = ("policy", "max_frame_ms", "dropped_ms", "final_lag_ms", "ticks", "spiral")


ROLLBACK_COLUMNS = ("resimulated", "max_depth", "misses", "window_stalls", "desyncs")
"""Rollback's figures, after the others, when the scenario has a `[network]`."""


def compare_rows(results: Sequence[tuple[str, RunResult]]) -> list[tuple[str, ...]]:
    """One row per policy: longest frame, total dropped, final lag, ticks, spiral yes or no;
    then rollback's totals, in a network session (`ROLLBACK_COLUMNS`)."""
    return [
        (
            policy,
            format_ms(result.max_frame_ns),
            format_ms(result.books["dropped_ns"]),
            format_ms(result.lag_ns),
            str(result.tick),
            "yes" if result.spiral else "no",
            *_rollback_cells(result),
        )
        for policy, result in results
    ]


def _rollback_cells(result: RunResult) -> tuple[str, ...]:
    totals = result.rollback
    if totals is None:
        return ()
    figures = (totals.resimulated_ticks, totals.max_depth, totals.prediction_misses)
    return tuple(str(figure) for figure in (*figures, totals.window_stalls, totals.desyncs))


def compare_table(rows: Sequence[tuple[str, ...]]) -> str:
    header: tuple[str, ...] = (
        "policy",
        "max frame ms",
        "dropped ms",
        "final lag ms",
        "ticks",
        "spiral",
    )
    if rows and len(rows[0]) > len(header):
        header = (*header, *(name.replace("_", " ") for name in ROLLBACK_COLUMNS))
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        )
        for cells in (header, *rows)
    ]
    return "\n".join(lines) + "\n"


def write_compare_csv(path: Path, rows: Sequence[tuple[str, ...]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        rollback = ROLLBACK_COLUMNS if rows and len(rows[0]) > len(COMPARE_COLUMNS) else ()
        writer.writerow((*COMPARE_COLUMNS, *rollback))
        writer.writerows(rows)
