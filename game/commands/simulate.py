"""`python -m game simulate`: the game's pipeline on a virtual clock, no window, no sleeping.

Each frame's wall time is computed, not measured (see `game.clock.virtual`), so the same command
gives the same frames, ticks and state hash on every machine, and a step cost above the step
makes the `uncapped` policy spiral here exactly as it does in the game.

    python -m game simulate --policy uncapped --step-cost-ms 20 --seconds 5
    python -m game simulate --scenario configs/scenarios/single_stall.toml --out figures/stall
    python -m game simulate --render-fps 30 --stall 2:200 --stall 4:200 --json

`--input-script FILE` plays the avatar's key presses (taps, holds, a seeded random tapper: see
`game.workshop.input_script`) and `--input-models A,B` runs once per input model; the counters
(presses, seen, lost, doubled, merged) are printed, added to each `--json` frame and to the
summary as `"inputs": {MODEL: {...}}`, and to `frames.csv` as `MODEL.COUNTER` columns.

`--json` prints one object per frame (the `schedule` explainer's keys plus `wall_ns` and
`frame_ns`), then `{"summary": {...}}` (the explainer's summary keys plus `state_hash`,
`max_frame_ns`, `spiral`, `lag_ns` and `runaway`). `--out DIR` writes `frames.csv`,
`summary.json` and `timeline.png` with `timeline.svg` (`--theme dark` for a projector in a dark
room). `--record FILE` records the run for `python -m game replay`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from game.arguments import file_path
from game.display.judder import JudderReport
from game.errors import BadInput
from game.workshop.input_runs import InputRuns, add_input_arguments, run_input_models, wanted
from game.workshop.output import (
    add_theme_argument,
    output_directory,
    refuse_overwriting_inputs,
    written_whole,
)
from game.workshop.recording import SessionRecorder
from game.workshop.runner import RunResult
from game.workshop.scenario import Scenario
from game.workshop.scenario_loading import (
    add_scenario_arguments,
    flags_from_args,
    load_scenario,
    scenario_line,
)
from game.workshop.simulation import UnfinishedRun, run_scenario, scenario_config
from game.workshop.tables import (
    bucket_table,
    buckets,
    settings_text,
    totals_text,
    write_frames_csv,
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


OUT_FILES = ("frames.csv", "summary.json", "timeline.png", "timeline.svg")


def run(args: argparse.Namespace) -> int:
    flags = flags_from_args(args)
    scenario = load_scenario(args.scenario, flags)
    outputs = [("--out", args.out / name) for name in OUT_FILES] if args.out is not None else []
    refuse_overwriting_inputs(
        [("--record", args.record), *outputs],
        [("--scenario", args.scenario), ("--input-script", args.input_script)],
    )
    out = output_directory(args.out) if args.out is not None else None
    recorder = None
    if args.record is not None:
        recorder = SessionRecorder(scenario_config(scenario), args.record)
    try:
        inputs = run_input_models(scenario, args, recorder=recorder) if wanted(args) else None
        result = inputs.main if inputs is not None else run_scenario(scenario, recorder=recorder)
    except UnfinishedRun as cut:
        raise BadInput(scenario_line(cut.problem, args.scenario, flags)) from None
    title = scenario.heading(args.scenario, "simulate")
    if args.json:
        _print_json(result, inputs)
    else:
        _print_readable(scenario, result, title)
        if inputs is not None:
            sys.stdout.write("\n" + inputs.table())
    if out is not None:
        written = _write_outputs(out, scenario, result, title, args.theme, inputs)
        if not args.json:
            print("wrote " + ", ".join(str(path) for path in written))
    return 0


def _summary(result: RunResult, inputs: InputRuns | None) -> dict[str, object]:
    summary: dict[str, object] = dict(result.summary())
    if inputs is not None:
        summary["inputs"] = inputs.summary()
    return summary


def _print_json(result: RunResult, inputs: InputRuns | None) -> None:
    out = sys.stdout
    for index, frame in enumerate(result.frames):
        record: dict[str, object] = dict(frame.record())
        if inputs is not None:
            record["inputs"] = inputs.frame_inputs(index)
        out.write(json.dumps(record) + "\n")
    out.write(json.dumps({"summary": _summary(result, inputs)}) + "\n")


def _print_readable(scenario: Scenario, result: RunResult, title: str) -> None:
    out = sys.stdout
    out.write(f"{title}\n")
    if scenario.about:
        out.write(f"{scenario.about}\n")
    out.write(settings_text(scenario, scenario.scheduler.settings()) + "\n\n")
    out.write(bucket_table(buckets(result.frames, scenario.seconds)) + "\n")
    out.write(totals_text(result))
    if result.judder is not None and scenario.display is not None:
        out.write(judder_text(result.judder, scenario.display.settings().describe()))


def judder_text(report: JudderReport, display: str) -> str:
    """The judder meter's lines under the totals (a run with a `[display]`)."""
    return (
        f"display {display}: judder {report.judder_pct:.3f} %, position error "
        f"{report.position_error_ms:.3f} ms ({report.position_error_m:.4f} m at the cannon's "
        f"horizontal speed), latency {report.latency_ms:.3f} ms over {report.refreshes} refreshes\n"
        f"ticks per refresh {report.cadence or '-'}; refreshes per tick {report.holds or '-'}\n"
    )


def _write_outputs(
    out: Path,
    scenario: Scenario,
    result: RunResult,
    title: str,
    theme: str,
    inputs: InputRuns | None,
) -> list[Path]:
    # matplotlib is imported only when a figure is asked for: it takes a second to load.
    from game.workshop.figures import timeline_figure
    from game.workshop.plotting import THEMES

    frames_csv, summary_json = out / "frames.csv", out / "summary.json"
    with written_whole(frames_csv) as partial:
        if inputs is not None:
            write_frames_csv(partial, result.frames, inputs.csv_columns(), inputs.csv_cells)
        else:
            write_frames_csv(partial, result.frames)
    with written_whole(summary_json) as partial:
        summary = {"summary": _summary(result, inputs)}
        partial.write_text(json.dumps(summary, indent=2) + "\n")
    figures = timeline_figure(out / "timeline.png", result, scenario, title, THEMES[theme])
    return [frames_csv, summary_json, *figures]
