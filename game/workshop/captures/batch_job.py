"""One file of a `capture PATH...` batch: one job, which reads the file and runs every tick rate
and policy on it, as `capture FILE` does, then sends back only its figures (`FileResult`).

A file that cannot be read, holds no frame, or asks for too much work is a failed file: its one
line comes back as the result (`FileResult.error`) and the batch goes on. With `--out`, the job
writes the file's own folder (`frames.csv`, `display.csv` where the display side ran, and its
figures when asked for) under a hidden temporary name, and renames it once it is whole: a stop
or a failure leaves no folder of that file, and a folder there is whole.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from game.capture.frame import Capture, IntervalColumn
from game.capture.reading import frame_columns, open_capture
from game.errors import BadInput
from game.stopping import outputs_of_a_whole
from game.workshop.captures.analysis import Analysis, PolicyResult, analyse
from game.workshop.captures.display_columns import DisplayColumns
from game.workshop.captures.display_options import (
    DisplayOptions,
    add_display_record,
    run_display_side,
    write_display_outputs,
)
from game.workshop.captures.display_side import DisplaySide
from game.workshop.captures.frame_times import FrameTimes, exact_sum
from game.workshop.captures.headroom import Headroom
from game.workshop.captures.policy_figures import PolicyFigures
from game.workshop.captures.report import json_record
from game.workshop.captures.work import refuse_run_work
from timestep_lab import SchedulerSettings


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """What every file of the batch is run with (the command's flags, checked)."""

    rates: Sequence[SchedulerSettings]
    policies: Sequence[str]
    headroom_frames: int
    process: str | None
    swapchain: str | None
    column: IntervalColumn
    allow_damaged: bool
    display: DisplayOptions
    out: Path | None
    """The batch's `--out` folder: each file gets a folder of its own in it."""
    figures: bool
    theme: str


@dataclass(frozen=True, slots=True)
class FileJob:
    path: str
    folder: str
    """The name of its folder under `--out`."""


@dataclass(frozen=True, slots=True)
class FileResult:
    """What one file's job sends back: its figures per (tick rate, policy) in the order asked,
    with `--json`'s lines; or the one line saying why the file failed."""

    path: str
    error: str | None = None
    figures: Sequence[PolicyFigures] = ()
    headrooms: Sequence[Headroom | None] = ()
    lines: Sequence[dict[str, object]] = ()
    captured_ns: int = 0
    """The capture's time: the sum of its frames' elapsed times (the shares' denominator)."""
    agreement: Fraction | None = None
    """The display side's agreement, where it ran."""


def run_file(settings: BatchSettings, job: FileJob) -> FileResult:
    """Read one file and run it (see the module); a refused file is a `FileResult` with its
    error."""
    try:
        capture = open_capture(
            Path(job.path),
            process=settings.process,
            swapchain=settings.swapchain,
            column=settings.column,
            allow_damaged=settings.allow_damaged,
        )
        return _run(capture, settings, job)
    except BadInput as problem:
        return FileResult(job.path, error="; ".join(problem.lines))


def _run(capture: Capture, settings: BatchSettings, job: FileJob) -> FileResult:
    info = capture.info
    if info.frames == 0:
        raise BadInput(f"{job.path}: no frames to run ({info.rows:,} rows)")
    refuse_run_work(job.path, info.frames, len(settings.rates), len(settings.policies))
    columns = frame_columns(capture)
    times = FrameTimes.of(columns)
    keep = settings.out is not None
    asked = Analysis(settings.rates, settings.policies, settings.headroom_frames, keep, 1)
    results = [result for row in analyse(times, asked) for result in row]
    display = run_display_side(DisplayColumns.of(columns), info, settings.display)
    lines = []
    for result in results:
        record = {"file": job.path, **json_record(result.figures, result.headroom, info)}
        lines.append(add_display_record(record, display))
    if settings.out is not None:
        _write_folder(settings, job, capture, times, results, display)
    return FileResult(
        job.path,
        figures=[result.figures for result in results],
        headrooms=[result.headroom for result in results],
        lines=lines,
        captured_ns=exact_sum(times.elapsed_ns),
        agreement=display.agreement if isinstance(display, DisplaySide) else None,
    )


def _write_folder(
    settings: BatchSettings,
    job: FileJob,
    capture: Capture,
    times: FrameTimes,
    results: list[PolicyResult],
    display: DisplaySide | str,
) -> None:
    """The file's folder under `--out`, written under a hidden name and renamed when whole."""
    assert settings.out is not None
    from game.workshop.captures.frames_csv import write_frames_csv

    rows = [
        results[start : start + len(settings.policies)]
        for start in range(0, len(results), len(settings.policies))
    ]
    with whole_folder(settings.out / job.folder) as folder, outputs_of_a_whole():
        write_frames_csv(folder / "frames.csv", times, rows)
        write_display_outputs(folder, display)
        if settings.figures:
            from game.workshop.captures.figure import capture_figure
            from game.workshop.captures.frames_csv import figure_stem
            from game.workshop.figures.plotting import THEMES

            for row in rows:
                png = folder / f"{figure_stem(row[0].settings)}.png"
                capture_figure(png, capture.info, times, row, THEMES[settings.theme])


@contextlib.contextmanager
def whole_folder(path: Path) -> Iterator[Path]:
    """Yield a hidden temporary folder beside `path`; once the block succeeds it replaces
    `path` (a folder left by an earlier batch); however the block ends, no temporary is left."""
    partial = path.with_name(f".{path.name}.part")
    shutil.rmtree(partial, ignore_errors=True)  # left by a batch killed outright
    try:
        try:
            partial.mkdir(parents=True)
        except OSError as problem:
            raise BadInput(f"{path}: cannot write: {problem.strerror or problem}") from None
        yield partial
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        os.replace(partial, path)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
