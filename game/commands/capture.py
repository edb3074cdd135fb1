"""`python -m game capture`: a real game's frame times through every policy, at every tick rate.

    python -m game capture game.csv
    python -m game capture game.csv --process game.exe --hz 60,120 --policies drop,backlog
    python -m game capture game.csv --json
    python -m game capture game.csv --out out/capture --theme dark
    python -m game capture nightly/ 'more/*.csv.gz' --out out/batch   # a batch: capture_batch.py

The file is a PresentMon CSV (any layout), a CapFrameX JSON or a MangoHud CSV
(`game.capture.reading`). Its frames run open loop: each lasts what the capture says, and each
policy plans ticks on them as the game's scheduler would (`game.workshop.captures`). Per tick
rate and policy: ticks, frames by ticks run, dropped time, the longest catch-up, the lag at the
end, the share of frame-edge presses lost and doubled, and the headroom: how much more each tick
could cost before the policy stops keeping up (closed loop, on the heaviest `--headroom-frames`
frames; 0 skips it).

`--json` prints one object per line per (tick rate, policy): `policy`, `hz`, `frames`, `ticks`,
`steps_per_frame` (ticks run, as a string, to frames), `dropped_ns`, `lag_ns`, `spiral` (null:
open loop), `lost_share`, `doubled_share`, `headroom_ns` and `capture` (`format`, `layout`,
`process`, `rows`, `frames`, `skipped`). `--out DIR` writes `frames.csv` (a row per frame: the
capture's row and time, its elapsed time, whether it is a hitch, and the ticks each policy ran)
and `capture_HZ.png`/`.svg` per tick rate (frame times with hitches marked, ticks per frame
under each policy).

The display side, where the capture says which frames reached the screen and when: the refresh
grid fitted to the display times, the virtual display run on the present times in the present
mode that fits best (or `--present-mode`), and beside each other the frames each says were
shown, the agreement and the judder of what was shown (`game.workshop.captures.display_side`).
`--json` lines then carry `"display"`: `captured_shown`, `predicted_shown`, `agreement`; `--out`
writes `display.csv`, the two sides frame by frame.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import get_args

from game.arguments import file_path, whole_number
from game.capture.frame import Capture, CaptureInfo, IntervalColumn
from game.capture.frame_columns import FrameColumns
from game.capture.reading import frame_columns
from game.commands.options import add_cluster_argument
from game.errors import BadInput
from game.workshop.captures.analysis import Analysis, PolicyResult, analyse
from game.workshop.captures.batch_files import is_batch
from game.workshop.captures.display_columns import DisplayColumns
from game.workshop.captures.display_options import (
    add_display_arguments,
    add_display_record,
    display_lines,
    display_options,
    run_display_side,
    write_display_outputs,
)
from game.workshop.captures.display_report import DISPLAY_CSV
from game.workshop.captures.frame_times import FrameTimes
from game.workshop.captures.headroom import HEADROOM_FRAMES
from game.workshop.captures.hitches import hitch_rule
from game.workshop.captures.report import footnotes, heading, json_record, rate_table
from game.workshop.captures.work import refuse_headroom_work, refuse_run_work
from game.workshop.files.output import (
    Outputs,
    add_theme_argument,
    output_directory,
)
from game.workshop.files.scenario_loading import Flag, load_scenario
from game.workshop.runs.progress import progress_bar
from game.workshop.sweep.running import default_workers
from timestep_lab import POLICIES, SchedulerSettings

HELP = "run a real game's frame-time capture (PresentMon, CapFrameX, MangoHud) through the policies"

_SETTING_FLAGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("--max-steps", ("scheduler", "max_steps")),
    ("--max-frame-ms", ("scheduler", "max_frame_ms")),
    ("--max-backlog-ms", ("scheduler", "max_backlog_ms")),
    ("--time-scale", ("scheduler", "time_scale")),
)
"""The scheduler's knobs that mean something open loop (a step cost or a render rate does not:
the capture's frames hold their work already), checked as `simulate` checks them. Delta-time
conditioning is not among them yet: the open-loop runs count each frame as measured (`raw`),
which is what lets them skip the scheduler's per-frame path (`open_loop`)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        type=file_path,
        nargs="+",
        metavar="PATH",
        help="the capture to read; or folders, patterns (quoted: 'a/**/*.csv'), several files",
    )
    parser.add_argument(
        "--process",
        metavar="NAME|PID",
        help="the process to keep (default: the one with most rows, not the compositor dwm.exe)",
    )
    parser.add_argument(
        "--swapchain", metavar="ADDR", help="the swap chain to keep (default: its most rows)"
    )
    parser.add_argument(
        "--allow-damaged",
        action="store_true",
        help="read a capture even when more than half its kept rows are damaged",
    )
    parser.add_argument(
        "--column",
        choices=get_args(IntervalColumn),
        default="presents",
        help="each frame's time: between presents (default), display changes or simulation starts",
    )
    parser.add_argument("--hz", default="60", metavar="LIST", help="tick rates (default 60)")
    parser.add_argument(
        "--policies",
        default=",".join(POLICIES),
        metavar="A,B,...",
        help=f"policies (default all: {', '.join(POLICIES)})",
    )
    parser.add_argument("--max-steps", type=whole_number, help="catch-up cap M (default 5)")
    parser.add_argument("--max-frame-ms", help="max frame F in ms (default 250)")
    parser.add_argument("--max-backlog-ms", help="max backlog B in ms (default 1000)")
    parser.add_argument("--time-scale", help="time scale, e.g. 1/8, 0.5, 2 (default 1)")
    parser.add_argument(
        "--headroom-frames",
        type=whole_number,
        default=HEADROOM_FRAMES,
        metavar="N",
        help=f"frames the headroom's runs take (the heaviest stretch; default {HEADROOM_FRAMES:,}"
        ", 0: no headroom)",
    )
    parser.add_argument("--workers", type=whole_number, metavar="N", help="processes (all cores)")
    add_cluster_argument(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per rate and policy")
    parser.add_argument(
        "--out", type=file_path, metavar="DIR", help="write frames.csv and the figures"
    )
    parser.add_argument(
        "--figures", action="store_true", help="a batch: each file's figures too (in its folder)"
    )
    add_theme_argument(parser)
    add_display_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from game.commands.options import parse_policies

    policies = parse_policies(args.policies)
    rates = tick_rates(args)
    if args.headroom_frames < 0:
        raise BadInput.error(f"--headroom-frames must be at least 0 (got {args.headroom_frames})")
    workers = default_workers() if args.workers is None else args.workers
    if workers < 1:
        raise BadInput.error(f"--workers must be at least 1 (got {workers})")
    display_options(args)  # its flags checked before the file is read, as every flag is
    refuse_headroom_work(args.headroom_frames, len(rates), len(policies))
    if is_batch(args.paths) or args.cluster is not None:
        from game.commands.capture_batch import run_batch

        return run_batch(args, rates, policies, workers)
    args.file = args.paths[0]
    names = capture_outputs(rates)
    Outputs([("FILE", args.file)]).folder("--out", args.out, names)  # before the file is read
    return run_on(open_file(args), args, rates, policies, workers)


def run_on(
    capture: Capture,
    args: argparse.Namespace,
    rates: Sequence[SchedulerSettings],
    policies: Sequence[str],
    workers: int,
) -> int:
    """The command once its flags are checked and its capture is open (a test hands one in)."""
    refuse_no_frames(capture.info)
    refuse_run_work(capture.info.path, capture.info.frames, len(rates), len(policies))
    options = display_options(args)
    out = output_directory(args.out) if args.out is not None else None
    columns = read_with_progress(capture)  # the policies' runs and the display side share it
    times = FrameTimes.of(columns)
    asked = Analysis(rates, policies, args.headroom_frames, out is not None, workers)
    runs = len(rates) * len(policies) * (2 if args.headroom_frames else 1)
    with progress_bar(runs, "runs") as done:
        results = analyse(times, asked, done)
    display = run_display_side(DisplayColumns.of(columns), capture.info, options)
    if args.json:
        for row in results:
            for result in row:
                record = json_record(result.figures, result.headroom, capture.info)
                sys.stdout.write(json.dumps(add_display_record(record, display)) + "\n")
    else:
        sys.stdout.write(report_text(capture, times, results, args.headroom_frames > 0))
        sys.stdout.write(display_lines(display, len(times)))
    if out is not None:
        written = write_outputs(out, capture, times, results, args.theme)
        written += write_display_outputs(out, display)
        if not args.json:
            sys.stdout.write("wrote " + ", ".join(str(path) for path in written) + "\n")
    return 0


def tick_rates(args: argparse.Namespace) -> list[SchedulerSettings]:
    """Each `--hz` rate's settings, with the other knobs given, checked as `simulate` does."""
    texts = [text.strip() for text in args.hz.split(",")]
    if not all(texts):
        raise BadInput.error(f"--hz must be tick rates separated by commas (got {args.hz!r})")
    given = [
        Flag(flag, key, getattr(args, flag[2:].replace("-", "_")))
        for flag, key in _SETTING_FLAGS
        if getattr(args, flag[2:].replace("-", "_")) is not None
    ]
    rates = []
    for text in texts:
        flags = [Flag("--hz", ("scheduler", "hz"), text), *given]
        scenario = load_scenario(None, flags, timeline=False)  # no run of seconds: the capture's
        rates.append(scenario.scheduler.settings())
    if len({rate.step_ns for rate in rates}) != len(rates):
        raise BadInput.error(f"--hz names a tick rate twice (got {args.hz!r})")
    return rates


def open_file(args: argparse.Namespace) -> Capture:
    """The capture `FILE` holds (the reader says in one line what it cannot read)."""
    from game.capture.reading import open_capture

    column: IntervalColumn = args.column
    try:
        megabytes = Path(args.file).stat().st_size / 1e6
    except OSError:
        megabytes = 0.0  # the reader says why in one line
    with progress_bar(round(megabytes), "MB read") as done:
        return open_capture(
            args.file,
            process=args.process,
            swapchain=args.swapchain,
            column=column,
            done=lambda read: done(round(read / 1e6)),
            allow_damaged=args.allow_damaged,
        )


def refuse_no_frames(info: CaptureInfo) -> None:
    """One line and exit 2 when no row of the capture made a frame, with what was skipped."""
    if info.frames == 0:
        skipped = ", ".join(f"{why} {n:,}" for why, n in info.skipped.items() if n)
        raise BadInput(
            f"{info.path}: no frames to run ({info.rows:,} rows"
            + (f"; skipped: {skipped})" if skipped else ")")
        )


def read_with_progress(capture: Capture) -> FrameColumns:
    with progress_bar(capture.info.frames, "frames read") as done:
        return frame_columns(capture, done)


def report_text(
    capture: Capture,
    times: FrameTimes,
    results: Sequence[Sequence[PolicyResult]],
    headroom: bool,
) -> str:
    """The text report: the capture's heading, a table per tick rate, what the columns mean."""
    tables = [
        rate_table(row[0].settings, [(result.figures, result.headroom) for result in row])
        for row in results
    ]
    return (
        heading(capture.info) + "".join(tables) + footnotes(headroom, hitch_rule(times.elapsed_ns))
    )


def capture_outputs(rates: Sequence[SchedulerSettings]) -> list[str]:
    """The files `--out` writes: the per-frame CSV, a figure (PNG, SVG) per tick rate, and the
    display side's CSV (where it runs)."""
    from game.workshop.captures.frames_csv import figure_stem

    stems = [figure_stem(rate) for rate in rates]
    figures = (f"{stem}.{kind}" for stem in stems for kind in ("png", "svg"))
    return ["frames.csv", *figures, DISPLAY_CSV]


def write_outputs(
    out: Path,
    capture: Capture,
    times: FrameTimes,
    results: Sequence[Sequence[PolicyResult]],
    theme: str,
) -> list[Path]:
    # matplotlib is imported only when a figure is asked for: it takes a second to load.
    from game.workshop.captures.figure import capture_figure
    from game.workshop.captures.frames_csv import figure_stem, write_frames_csv
    from game.workshop.figures.plotting import THEMES

    written = [write_frames_csv(out / "frames.csv", times, results)]
    for row in results:
        png = out / f"{figure_stem(row[0].settings)}.png"
        written += capture_figure(png, capture.info, times, row, THEMES[theme])
    return written
