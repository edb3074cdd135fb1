"""`python -m game simulate`: the game's pipeline on a virtual clock, no window, no sleeping.

Each frame's wall time is computed, not measured (see `game.clock.virtual`), so the same command
gives the same frames, ticks and state hash on every machine, and a step cost above the step
makes the `uncapped` policy spiral here exactly as it does in the game.

    python -m game simulate --policy uncapped --step-cost-ms 20 --seconds 5
    python -m game simulate --scenario configs/scenarios/single_stall.toml --out figures/stall
    python -m game simulate --render-fps 30 --stall 2:200 --stall 4:200 --json

`--input-script FILE` plays the avatar's key presses (taps, holds, a seeded random tapper: see
`game.workshop.files.input_script`) and `--input-models A,B` runs once per input model; the counters
(presses, seen, lost, doubled, merged) are printed, added to each `--json` frame and to the
summary as `"inputs": {MODEL: {...}}`, and to `frames.csv` as `MODEL.COUNTER` columns.

Frames are streamed, never all held: `--json` prints each frame as it is made, `frames.csv` gets
its row then, and the timeline is drawn from at most 20,000 points (`SeriesBuilder`), so a run at
the frame limit (100 s at 1000 fps) takes no more memory than a 10 s one.

`--json` prints one object per frame (the `schedule` explainer's keys plus `wall_ns` and
`frame_ns`), then `{"summary": {...}}` (the explainer's summary keys plus `state_hash`,
`max_frame_ns`, `spiral`, `lag_ns` and `runaway`). `--out DIR` writes `frames.csv`,
`summary.json` and `timeline.png` with `timeline.svg` (`--theme dark` for a projector in a dark
room). `--record FILE` records the run for `python -m game replay`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from game.arguments import file_path
from game.commands.options import say_what_was_left_out
from game.display.judder import JudderReport
from game.display.vrr import VrrCounts
from game.errors import BadInput
from game.workshop.figures.frame_series import SeriesBuilder
from game.workshop.files.frame_log import add_frame_log_argument, frame_log_file
from game.workshop.files.output import Outputs, add_theme_argument, written_whole
from game.workshop.files.recording import SessionRecorder
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import (
    add_scenario_arguments,
    chosen_scenario,
    flags_from_args,
    load_scenario,
    scenario_line,
)
from game.workshop.runs.input_runs import (
    InputRuns,
    add_input_arguments,
    input_model_runs,
    wanted,
)
from game.workshop.runs.progress import progress_bar, wall_seconds
from game.workshop.runs.runner import FrameReport, RunResult
from game.workshop.runs.simulation import UnfinishedRun, run_scenario, scenario_config
from game.workshop.tables.frames import (
    Bucket,
    BucketCounter,
    bucket_table,
    frames_csv_writer,
    settings_text,
    totals_text,
)

HELP = "run the game headless on a virtual clock: deterministic frames, stalls and scenarios"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_scenario_arguments(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per frame per line")
    parser.add_argument(
        "--out",
        type=file_path,
        metavar="DIR",
        help="write frames.csv, summary.json, timeline.png/svg",
    )
    add_theme_argument(parser)
    parser.add_argument(
        "--record", type=file_path, metavar="FILE", help="record the run for replay"
    )
    add_input_arguments(parser)
    add_frame_log_argument(parser)


OUT_FILES = ("frames.csv", "summary.json", "timeline.png", "timeline.svg")


def run(args: argparse.Namespace) -> int:
    flags = flags_from_args(args)
    scenario_file = chosen_scenario(args)
    scenario = load_scenario(scenario_file, flags)
    say_what_was_left_out(scenario)
    outputs = Outputs([("--scenario", scenario_file), ("--input-script", args.input_script)])
    outputs.file("--record", args.record)
    outputs.file("--frame-log", args.frame_log)
    out = outputs.folder("--out", args.out, OUT_FILES)
    recorder = None
    if args.record is not None:
        recorder = SessionRecorder(scenario_config(scenario), args.record, scenario.network)
    title = scenario.heading(scenario_file, "simulate")
    with contextlib.ExitStack() as files:
        sinks = _Sinks(scenario, args.json, out, files)
        frame_log = files.enter_context(frame_log_file(args.frame_log))
        try:
            inputs = input_model_runs(scenario, args) if wanted(args) else None
            sinks.start(inputs)
            runs = 1 if inputs is None else len(inputs.names)
            seconds = float(scenario.seconds)
            with progress_bar(seconds * runs, "simulated wall seconds") as done:
                if inputs is not None:

                    def logged(frame: FrameReport) -> None:
                        sinks(frame)
                        if frame_log is not None:
                            frame_log.frame(frame.frame_ns)

                    per_frame = args.json or out is not None
                    result = inputs.run(
                        sink=logged, recorder=recorder, per_frame=per_frame, progress=done
                    )
                else:
                    seen = wall_seconds(done)

                    def sink(frame: FrameReport) -> None:
                        sinks(frame)
                        seen(frame.number, frame.wall_ns)

                    result = run_scenario(
                        scenario, recorder=recorder, sink=sink, keep=0, frame_log=frame_log
                    )
        except UnfinishedRun as cut:
            raise BadInput(scenario_line(cut.problem, scenario_file, flags)) from None
    if args.json:
        summary = _summary(result, inputs)
        if scenario.left_out:
            summary["left_out"] = scenario.left_out.record()
        sys.stdout.write(json.dumps({"summary": summary}) + "\n")
    else:
        _print_readable(scenario, result, title, sinks.buckets.rows())
        if inputs is not None:
            sys.stdout.write("\n" + inputs.table())
    if out is not None:
        written = _write_outputs(out, scenario, result, title, args.theme, inputs, sinks)
        if not args.json:
            print("wrote " + ", ".join(str(path) for path in written))
    if args.frame_log is not None and not args.json:
        print(f"wrote {args.frame_log}: the run's frames as a PresentMon 1.x capture")
    return 0


class _Sinks:
    """Where each frame goes as it is made: a JSON line (`--json`), a row of `frames.csv` and a
    point of the timeline (`--out`), the per-second table (text). Nothing keeps every frame."""

    def __init__(
        self, scenario: Scenario, as_json: bool, out: Path | None, files: contextlib.ExitStack
    ) -> None:
        self.as_json, self.out, self.files = as_json, out, files
        self.buckets = BucketCounter(scenario.seconds)
        self.series = SeriesBuilder()
        self.inputs: InputRuns | None = None
        self.index = 0
        self.row: Callable[[FrameReport, Sequence[int]], None] | None = None

    def start(self, inputs: InputRuns | None) -> None:
        """Open `frames.csv` (written whole or not at all: `written_whole`) once the run's
        columns are known."""
        self.inputs = inputs
        if self.out is not None:
            csv = self.out / "frames.csv"
            partial = self.files.enter_context(written_whole(csv, "--out"))
            file = self.files.enter_context(partial.open("w", newline="", encoding="utf-8"))
            self.row = frames_csv_writer(file, inputs.csv_columns() if inputs is not None else ())

    def __call__(self, frame: FrameReport) -> None:
        index, inputs = self.index, self.inputs
        self.index += 1
        if self.as_json:
            record: dict[str, object] = dict(frame.record())
            if inputs is not None:
                record["inputs"] = inputs.frame_inputs(index, frame)
            sys.stdout.write(json.dumps(record) + "\n")
        else:
            self.buckets(frame)
        if self.row is not None:
            self.row(frame, inputs.csv_cells(index, frame) if inputs is not None else ())
            self.series(frame)


def _summary(result: RunResult, inputs: InputRuns | None) -> dict[str, object]:
    summary: dict[str, object] = dict(result.summary())
    if inputs is not None:
        summary["inputs"] = inputs.summary()
    return summary


def _print_readable(scenario: Scenario, result: RunResult, title: str, rows: list[Bucket]) -> None:
    out = sys.stdout
    out.write(f"{title}\n")
    if scenario.about:
        out.write(f"{scenario.about}\n")
    out.write(settings_text(scenario, scenario.scheduler.settings()) + "\n\n")
    out.write(bucket_table(rows) + "\n")
    out.write(totals_text(result))
    if result.judder is not None and scenario.display is not None:
        out.write(judder_text(result.judder, scenario.display.settings().describe()))
    if result.vrr is not None:
        out.write(vrr_text(result.vrr))


def judder_text(report: JudderReport, display: str) -> str:
    """The judder meter's lines under the totals (a run with a `[display]`)."""
    return (
        f"display {display}: judder {report.judder_pct:.3f} %, position error "
        f"{report.position_error_ms:.3f} ms ({report.position_error_m:.4f} m at the cannon's "
        f"horizontal speed), latency {report.latency_ms:.3f} ms over {report.refreshes} refreshes\n"
        f"ticks per refresh {report.cadence or '-'}; refreshes per tick {report.holds or '-'}\n"
    )


def vrr_text(counts: VrrCounts) -> str:
    """The VRR panel's line: its repeats, and the frames shown late because one was scanning."""
    lfc = "on" if counts.lfc else "off"
    return (
        f"VRR panel, LFC {lfc}: repeats {counts.repeats}, collisions {counts.collisions} "
        "(frames that came during a repeat's scan-out and were shown late)\n"
    )


def _write_outputs(
    out: Path,
    scenario: Scenario,
    result: RunResult,
    title: str,
    theme: str,
    inputs: InputRuns | None,
    sinks: _Sinks,
) -> list[Path]:
    # matplotlib is imported only when a figure is asked for: it takes a second to load.
    from game.workshop.figures.plotting import THEMES
    from game.workshop.figures.slides import timeline_figure

    summary_json = out / "summary.json"
    with written_whole(summary_json, "--out") as partial:
        summary = {"summary": _summary(result, inputs)}
        partial.write_text(json.dumps(summary, indent=2) + "\n")
    series = sinks.series.series()
    figures = timeline_figure(out / "timeline.png", result, scenario, title, THEMES[theme], series)
    return [out / "frames.csv", summary_json, *figures]
