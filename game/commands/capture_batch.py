"""`python -m game capture PATH...` on many files: a night's captures in one command.

    python -m game capture nightly/                      # every capture under the folder
    python -m game capture 'nightly/**/*.csv.gz' --json  # a pattern, expanded by the command
    python -m game capture a.csv b.json --out out/batch --figures

Anything but one PATH naming a file is a batch (`game.workshop.captures.batch_files` says which
files it reads). Each file is one job (`game.jobs`): a worker reads it and runs every tick rate
and policy on it, as `capture FILE` does (`batch_job`); one progress bar counts the files done.
The report (`batch_report`): a row per file, tick rate and policy, then per tick rate and policy
the aggregate over the files and the worst file for each measure. `--json`: each file's lines,
as `capture FILE --json` prints them plus `"file"`, a failed file's `{"file", "error"}`, then the
aggregates' lines. `--out DIR`: `batch.csv` and a folder per file.

Exit status: 0 when every file was read, 1 when some failed (each is one line on stderr, and the
others are read), 2 when the arguments were refused before any file was read. A stop keeps the
folders of the files finished, each whole, and says how many; `batch.csv` is not written.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from game.errors import BadInput
from game.jobs import Jobs, jobs_on
from game.stopping import Stopped, stop_point
from game.workshop.captures.batch_files import BatchFiles, find_files, folder_names
from game.workshop.captures.batch_job import (
    BatchSettings,
    FileJob,
    FileResult,
    Finished,
    load_file,
    run_file,
    run_loaded,
    write_folder,
)
from game.workshop.captures.batch_report import (
    BATCH_CSV,
    aggregates,
    batch_text,
    json_lines,
    write_batch_csv,
)
from game.workshop.captures.display_options import display_options
from game.workshop.files.output import Outputs, output_directory, written_whole
from game.workshop.runs.progress import progress_bar
from timestep_lab import SchedulerSettings

EXIT_SOME_FAILED = 1


def run_batch(
    args: argparse.Namespace,
    rates: Sequence[SchedulerSettings],
    policies: Sequence[str],
    workers: int,
) -> int:
    """The batch, its flags checked as `capture FILE` checks them (the caller did)."""
    found = find_files(list(args.paths))
    names = folder_names(found.files)
    if BATCH_CSV in names.values():
        raise BadInput.error(f"--out: a capture's folder would be named {BATCH_CSV}")
    inputs = [("PATH", Path(file)) for file in found.files]
    Outputs(inputs).folder("--out", args.out, [BATCH_CSV, *names.values()])
    out = output_directory(args.out) if args.out is not None else None
    if found.others:
        sys.stderr.write(
            f"capture: left out {found.others:,} other files (not .csv, .csv.gz, .json or "
            ".json.gz)\n"
        )
    settings = BatchSettings(
        rates,
        policies,
        args.headroom_frames,
        args.process,
        args.swapchain,
        args.column,
        args.allow_damaged,
        display_options(args),
        out,
        args.figures,
        args.theme,
    )
    jobs = [FileJob(file, names[file]) for file in found.files]
    results = _run_jobs(settings, jobs, workers, args.cluster)
    return _report(args, found, results, out)


def _run_jobs(
    settings: BatchSettings, jobs: list[FileJob], workers: int, cluster: str | None
) -> dict[str, FileResult]:
    """Every file's result, by path; a stop says how many files had finished."""
    done: dict[str, FileResult] = {}
    try:
        if cluster is None:  # each worker reads its file and writes its folder
            job = functools.partial(run_file, settings)
            with jobs_on(job, max(1, min(workers, len(jobs))), None) as running:
                for each in jobs:  # all handed out before the bar's thread starts
                    running.submit(each)
                _collect(running, settings, jobs, done, [])
        else:  # the client reads each file and sends its columns, and writes its folder
            remote = functools.partial(run_loaded, settings)
            with jobs_on(remote, 1, cluster) as on_cluster:
                failed = []
                for each in jobs:
                    read = load_file(settings, each)
                    if isinstance(read, FileResult):
                        failed.append(read)
                    else:
                        on_cluster.submit(read)
                _collect(on_cluster, settings, jobs, done, failed)
    except Stopped as stop:
        folders = sum(1 for result in done.values() if result.error is None)  # read: a folder each
        out = settings.out
        stop.kept.append(
            f"the folders of {folders:,} of {len(jobs):,} files, in {out}"
            if out is not None
            else f"nothing: {len(done):,} of {len(jobs):,} files had finished"
        )
        raise
    return done


def _collect(
    running: Jobs[Any, Finished],
    settings: BatchSettings,
    jobs: list[FileJob],
    done: dict[str, FileResult],
    failed: list[FileResult],
) -> None:
    """Take the files' results as they finish (writing the folders sent back), one bar."""
    by_path = {job.path: job for job in jobs}
    with progress_bar(len(jobs), "files") as moved:
        for result in failed:  # read by the client, and refused
            done[result.path] = result
        for _, (result, parts) in running.finished():
            if parts is not None:
                write_folder(settings, by_path[result.path], parts)
            done[result.path] = result
            moved(len(done))
            if len(done) < len(jobs):
                stop_point("files")


def _report(
    args: argparse.Namespace, found: BatchFiles, done: dict[str, FileResult], out: Path | None
) -> int:
    """Print the report (and write `batch.csv`); the exit status."""
    results = [
        FileResult(entry.path, error=entry.problem)
        if entry.problem is not None
        else done[entry.path]
        for entry in found.entries
    ]
    headroom = args.headroom_frames > 0
    totals = aggregates(results, headroom)
    failed = [result.error for result in results if result.error is not None]
    for line in failed:
        sys.stderr.write(f"capture: {line}\n")
    if args.json:
        for record in json_lines(results, totals):
            sys.stdout.write(json.dumps(record) + "\n")
    else:
        sys.stdout.write(batch_text(results, totals, headroom))
    if out is not None:
        with written_whole(out / BATCH_CSV, "--out") as partial:
            write_batch_csv(partial, results)
        if not args.json:
            folders = len(done) - sum(1 for result in done.values() if result.error is not None)
            sys.stdout.write(f"wrote {out / BATCH_CSV} and {folders:,} folders\n")
    return EXIT_SOME_FAILED if failed else 0
