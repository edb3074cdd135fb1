"""`--input-script` and `--input-models` for `simulate` and `compare`: one run per input model.

The avatar's keys do not change when frames begin, so every model sees the very same frames and
the very same key edges; only what their ticks consume differs. Each model gets its own run of
the scenario (with `input.model` set to it), and the counters are reported side by side:

    python -m game simulate --hz 30 --render-fps 144 --input-script taps.txt \
        --input-models frame-edge,latched --json
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from game.arguments import file_path
from game.errors import BadInput
from game.vocabulary import INPUT_MODEL_NAMES
from game.workshop.files.input_script import load_input_script
from game.workshop.files.recording import SessionRecorder
from game.workshop.files.scenario import Scenario
from game.workshop.files.timeline import KeyEdge
from game.workshop.runs.runner import RunResult
from game.workshop.runs.simulation import in_input_lab, run_scenario, tick_phase, tick_phase_text

COUNTERS = ("presses", "seen", "lost", "doubled", "merged")


@dataclass(frozen=True, slots=True)
class InputRuns:
    """A scenario run once per input model, on the same key edges."""

    results: tuple[tuple[str, RunResult], ...]
    tick_phase: Fraction = Fraction(0)
    """Where the runs' steady frames ended within a tick, in steps (`clock.tick_phase`)."""

    @property
    def main(self) -> RunResult:
        """The first model's run: its frames are every run's frames."""
        return self.results[0][1]

    def summary(self) -> dict[str, dict[str, int]]:
        return {model: result.inputs.record() for model, result in self.results}

    def frame_inputs(self, index: int) -> dict[str, dict[str, int]]:
        """Each model's counters after frame number `index + 1`."""
        return {model: result.frames[index].inputs.record() for model, result in self.results}

    def csv_columns(self) -> list[str]:
        return [f"{model}.{counter}" for model, _ in self.results for counter in COUNTERS]

    def csv_cells(self, index: int) -> list[int]:
        return [
            result.frames[index].inputs.record()[counter]
            for _, result in self.results
            for counter in COUNTERS
        ]

    def table(self) -> str:
        """The tick phase, then the counters, one row per model, aligned for a terminal."""
        rows: list[tuple[str, ...]] = [("model", *COUNTERS)]
        rows += [
            (model, *(str(result.inputs.record()[c]) for c in COUNTERS))
            for model, result in self.results
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        return (
            tick_phase_text(self.tick_phase)
            + "\n"
            + "".join(
                "  ".join(
                    cell.rjust(w) if i else cell.ljust(w)
                    for i, (cell, w) in enumerate(zip(row, widths, strict=True))
                ).rstrip()
                + "\n"
                for row in rows
            )
        )


def add_input_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--input-script",
        type=file_path,
        metavar="FILE",
        help="the avatar's key presses at wall times (taps, holds, a random tapper)",
    )
    parser.add_argument(
        "--input-models",
        metavar="A,B,...",
        help=f"run once per input model and report each one's counters "
        f"(any of {', '.join(INPUT_MODEL_NAMES)})",
    )


def parse_input_models(text: str) -> list[str]:
    """The models named in `text`, in order; each known, none twice."""
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise BadInput.error(f"--input-models must be names separated by commas (got {text!r})")
    for name in names:
        if name not in INPUT_MODEL_NAMES:
            raise BadInput.error(
                f"--input-models: unknown input model {name!r} "
                f"(known: {', '.join(INPUT_MODEL_NAMES)})"
            )
    if len(set(names)) != len(names):
        raise BadInput.error(f"--input-models names a model twice (got {text!r})")
    return names


def wanted(args: argparse.Namespace) -> bool:
    return args.input_script is not None or args.input_models is not None


def input_model_count(args: argparse.Namespace) -> int:
    """How many runs `--input-models` asks for of each scenario (1 when it is not given)."""
    return len(parse_input_models(args.input_models)) if args.input_models is not None else 1


def run_input_models(
    scenario: Scenario,
    args: argparse.Namespace,
    models: Sequence[str] | None = None,
    recorder: SessionRecorder | None = None,
) -> InputRuns:
    """Run `scenario` once per model asked for (the scenario's own model if none was), in the
    input lab (`in_input_lab`: at the tick phase, mid-tick unless set); a `recorder` records
    the first model's run."""
    scenario = in_input_lab(scenario)
    names = models or (
        parse_input_models(args.input_models)
        if args.input_models is not None
        else [scenario.input.model]
    )
    edges: tuple[KeyEdge, ...] = ()
    if args.input_script is not None:
        edges = load_input_script(args.input_script).timeline(scenario.seconds)
    results = []
    for index, name in enumerate(names):
        chosen = scenario.model_copy(
            update={"input": scenario.input.model_copy(update={"model": name})}
        )
        record = recorder if index == 0 else None
        results.append((name, run_scenario(chosen, key_edges=edges, recorder=record)))
    return InputRuns(tuple(results), tick_phase(scenario))
