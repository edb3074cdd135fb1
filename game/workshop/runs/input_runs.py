"""`--input-script` and `--input-models` for `simulate` and `compare`: one run per input model.

The avatar's keys do not change when frames begin, so every model sees the very same frames and
the very same key edges; only what their ticks consume differs. Each model gets its own run of
the scenario (with `input.model` set to it), and the counters are reported side by side:

    python -m game simulate --hz 30 --render-fps 144 --input-script taps.txt \
        --input-models frame-edge,latched --json
"""

from __future__ import annotations

import argparse
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from game.arguments import file_path
from game.errors import BadInput
from game.vocabulary import INPUT_MODEL_NAMES
from game.workshop.files.input_script import load_input_script
from game.workshop.files.recording import SessionRecorder
from game.workshop.files.scenario import Scenario
from game.workshop.files.timeline import KeyEdge
from game.workshop.runs.progress import wall_seconds
from game.workshop.runs.runner import FrameReport, FrameSink, RunResult
from game.workshop.runs.simulation import in_input_lab, run_scenario, tick_phase, tick_phase_text

COUNTERS = ("presses", "seen", "lost", "doubled", "merged")


@dataclass(slots=True)
class InputRuns:
    """A scenario run once per input model, on the same key edges.

    The models run one after another, the first one last: the others keep only their five
    counters after each frame, and only when a per-frame output asks for them (`run`'s
    `per_frame`); the first streams its frames to the caller's sink, which reads the others'
    counters for the same frame (every model sees the same frames). No run holds its frames, so
    an hour of five models costs five runs' time and, without per-frame output, one run's memory.
    """

    scenario: Scenario
    names: tuple[str, ...]
    edges: tuple[KeyEdge, ...]
    tick_phase: Fraction
    results: tuple[tuple[str, RunResult], ...] = ()
    """Each model's result, in the order the models were named (after `run`)."""
    _counters: dict[str, array[int]] = field(default_factory=dict)
    """The other models' counters, `len(COUNTERS)` a frame (with `per_frame`)."""

    def run(
        self,
        *,
        sink: FrameSink | None = None,
        recorder: SessionRecorder | None = None,
        per_frame: bool = False,
        progress: Callable[[float], None] | None = None,
    ) -> RunResult:
        """Run every model; the first one's frames go to `sink` and to `recorder`. `progress`
        moves a bar counting simulated wall seconds over all the runs."""
        seconds = float(self.scenario.seconds)
        done = progress or (lambda completed: None)
        results: dict[str, RunResult] = {}
        for order, name in enumerate((*self.names[1:], self.names[0])):
            first = name == self.names[0]
            counters = self._counters.setdefault(name, array("q")) if per_frame else None
            each = _each_frame(
                wall_seconds(done, order * seconds), sink if first else None, counters
            )
            results[name] = run_scenario(
                self._with_model(name),
                key_edges=self.edges,
                recorder=recorder if first else None,
                sink=each,
                keep=0,
            )
        self.results = tuple((name, results[name]) for name in self.names)
        return self.main

    def _with_model(self, name: str) -> Scenario:
        scenario = self.scenario
        return scenario.model_copy(
            update={"input": scenario.input.model_copy(update={"model": name})}
        )

    @property
    def main(self) -> RunResult:
        """The first model's run: its frames are every run's frames."""
        return self.results[0][1]

    def summary(self) -> dict[str, dict[str, int]]:
        return {model: result.inputs.record() for model, result in self.results}

    def frame_inputs(self, index: int, frame: FrameReport) -> dict[str, dict[str, int]]:
        """Each model's counters after frame number `index + 1` (`frame`: the first model's)."""
        return {
            name: dict(zip(COUNTERS, self._frame_counters(name, index, frame), strict=True))
            for name in self.names
        }

    def csv_columns(self) -> list[str]:
        return [f"{model}.{counter}" for model in self.names for counter in COUNTERS]

    def csv_cells(self, index: int, frame: FrameReport) -> list[int]:
        return [value for name in self.names for value in self._frame_counters(name, index, frame)]

    def _frame_counters(self, name: str, index: int, frame: FrameReport) -> Sequence[int]:
        if name == self.names[0]:
            record = frame.inputs.record()
            return [record[counter] for counter in COUNTERS]
        width = len(COUNTERS)
        return self._counters[name][index * width : (index + 1) * width]

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


def _each_frame(
    seen: Callable[[int, int], None], sink: FrameSink | None, counters: array[int] | None
) -> FrameSink:
    """What one model's run does with each frame: moves the bar, then streams the frame to
    `sink` (the first model) or keeps its counters (the others, when asked for)."""

    def each(frame: FrameReport) -> None:
        seen(frame.number, frame.wall_ns)
        if sink is not None:
            sink(frame)
        elif counters is not None:
            record = frame.inputs.record()
            counters.extend(record[counter] for counter in COUNTERS)

    return each


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


def input_model_runs(
    scenario: Scenario, args: argparse.Namespace, models: Sequence[str] | None = None
) -> InputRuns:
    """The runs of `scenario` for each model asked for (the scenario's own model if none was),
    in the input lab (`in_input_lab`: at the tick phase, mid-tick unless set), ready to `run`."""
    scenario = in_input_lab(scenario)
    names = models or (
        parse_input_models(args.input_models)
        if args.input_models is not None
        else [scenario.input.model]
    )
    edges: tuple[KeyEdge, ...] = ()
    if args.input_script is not None:
        edges = load_input_script(args.input_script).timeline(scenario.seconds)
    return InputRuns(scenario, tuple(names), edges, tick_phase(scenario))


def run_input_models(
    scenario: Scenario, args: argparse.Namespace, models: Sequence[str] | None = None
) -> InputRuns:
    """`input_model_runs`, run, for their counters (`InputRuns.table`, `summary`)."""
    runs = input_model_runs(scenario, args, models)
    runs.run()
    return runs
