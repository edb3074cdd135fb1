"""One file of a `capture PATH...` batch: one job, which reads the file and runs every tick rate
and policy on it, as `capture FILE` does, then sends back only its figures (`FileResult`).

A file that cannot be read, holds no frame, or asks for too much work is a failed file: its one
line comes back as the result (`FileResult.error`) and the batch goes on. With `--out`, the job
writes the file's own folder (`frames.csv`, `display.csv` where the display side ran, and its
figures when asked for) under a hidden temporary name, and renames it once it is whole: a stop
or a failure leaves no folder of that file, and a folder there is whole.

On a cluster (`--cluster`) the work is split: the client reads each file (`load_file`) and sends
its frames' columns, so no worker needs the files; the worker runs them (`run_loaded`) and sends
back, with `--out`, what the file's folder is made of (`FolderParts`), which the client writes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from game.capture.frame import CaptureInfo, IntervalColumn
from game.capture.frame_columns import FrameColumns
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


@dataclass(frozen=True, slots=True)
class LoadedFile:
    """A file read, its frames as columns: what a cluster's worker is sent."""

    job: FileJob
    info: CaptureInfo
    columns: FrameColumns


@dataclass(frozen=True, slots=True)
class FolderParts:
    """What a file's folder under `--out` is written from (sent back by a cluster's worker)."""

    info: CaptureInfo
    times: FrameTimes
    results: list[PolicyResult]
    display: DisplaySide | str


Finished = tuple[FileResult, FolderParts | None]
"""A file's job's answer: its result and, when its folder is the client's to write, its parts."""


def run_file(settings: BatchSettings, job: FileJob) -> Finished:
    """The local pool's job: read one file, run it and write its folder here (see the module);
    a refused file is a `FileResult` with its error."""
    loaded = load_file(settings, job)
    if isinstance(loaded, FileResult):
        return loaded, None
    result, parts = run_loaded(settings, loaded)
    if parts is not None:
        write_folder(settings, job, parts)
    return result, None


def load_file(settings: BatchSettings, job: FileJob) -> LoadedFile | FileResult:
    """Read one file into columns, its work checked; or the one line why not."""
    try:
        capture = open_capture(
            Path(job.path),
            process=settings.process,
            swapchain=settings.swapchain,
            column=settings.column,
            allow_damaged=settings.allow_damaged,
        )
        info = capture.info
        if info.frames == 0:
            raise BadInput(f"{job.path}: no frames to run ({info.rows:,} rows)")
        refuse_run_work(job.path, info.frames, len(settings.rates), len(settings.policies))
        return LoadedFile(job, info, frame_columns(capture))
    except BadInput as problem:
        return FileResult(job.path, error="; ".join(problem.lines))


def run_loaded(settings: BatchSettings, loaded: LoadedFile) -> Finished:
    """Every tick rate and policy on a file's columns, and its display side; with `--out`, the
    parts of its folder."""
    job, info, columns = loaded.job, loaded.info, loaded.columns
    times = FrameTimes.of(columns)
    keep = settings.out is not None
    asked = Analysis(settings.rates, settings.policies, settings.headroom_frames, keep, 1)
    results = [result for row in analyse(times, asked) for result in row]
    display = run_display_side(DisplayColumns.of(columns), info, settings.display)
    lines = []
    for result in results:
        record = {"file": job.path, **json_record(result.figures, result.headroom, info)}
        lines.append(add_display_record(record, display))
    figures = FileResult(
        job.path,
        figures=[result.figures for result in results],
        headrooms=[result.headroom for result in results],
        lines=lines,
        captured_ns=exact_sum(times.elapsed_ns),
        agreement=display.agreement if isinstance(display, DisplaySide) else None,
    )
    return figures, FolderParts(info, times, results, display) if keep else None


def write_folder(settings: BatchSettings, job: FileJob, parts: FolderParts) -> None:
    """The file's folder under `--out`, written under a hidden name and renamed when whole."""
    assert settings.out is not None
    from game.workshop.captures.frames_csv import write_frames_csv

    size = len(settings.policies)
    rows = [parts.results[start : start + size] for start in range(0, len(parts.results), size)]
    with whole_folder(settings.out / job.folder) as folder, outputs_of_a_whole():
        write_frames_csv(folder / "frames.csv", parts.times, rows)
        write_display_outputs(folder, parts.display)
        if settings.figures:
            from game.workshop.captures.figure import capture_figure
            from game.workshop.captures.frames_csv import figure_stem
            from game.workshop.figures.plotting import THEMES

            for row in rows:
                png = folder / f"{figure_stem(row[0].settings)}.png"
                capture_figure(png, parts.info, parts.times, row, THEMES[settings.theme])


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
