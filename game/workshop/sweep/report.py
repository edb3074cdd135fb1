"""A sweep's results as `sweep.csv` and as a short table, with the theory beside each run.

One CSV row per run: the varied values (exact decimals, as typed), the policy, what the run did
(see `game.workshop.sweep.running.Measures`) and what the frontier's theory says about it
(`game.workshop.sweep.frontier`): whether it keeps up (yes, no, or edge: exactly on the frontier,
where the theory calls it neither way), and the frontier step cost c*.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from game.clock.units import format_ms
from game.config.exact import decimal_text
from game.workshop.sweep.frontier import FALLS_BEHIND, KEEPS_UP, ON_THE_FRONTIER, Frontier
from game.workshop.sweep.grid import Axis, SweepCell
from game.workshop.sweep.running import CellRun, Measures

MEASURED_COLUMNS = (
    "policy",
    "spiral",
    "keeps_up",
    "theory_keeps_up",
    "frontier_ms",
    "dropped_pct",
    "max_frame_ms",
    "mean_lag_ms",
    "final_lag_ms",
    "frames",
    "ticks",
    "runaway",
)
SHOWN_DISAGREEMENTS = 5


@dataclass(frozen=True, slots=True)
class Run:
    """One run of a sweep: its cell, what it did, and what the theory says."""

    cell: SweepCell
    measures: Measures
    frontier: Frontier
    step_cost_ns: Fraction
    """The run's step cost: where it sits against the frontier's c*."""

    @property
    def theory(self) -> str:
        """`KEEPS_UP`, `FALLS_BEHIND` or `ON_THE_FRONTIER` (`game.workshop.sweep.frontier`)."""
        return self.frontier.verdict(self.step_cost_ns)

    @property
    def theory_keeps_up(self) -> bool:
        """The theory's side of the frontier (in exact arithmetic, the frontier keeps up)."""
        return self.theory != FALLS_BEHIND

    @property
    def on_the_frontier(self) -> bool:
        return self.theory == ON_THE_FRONTIER

    @property
    def agrees(self) -> bool:
        """The run did what the theory says (a run on the frontier agrees either way)."""
        return self.on_the_frontier or (self.theory == KEEPS_UP) == self.measures.keeps_up

    @property
    def verdict(self) -> int:
        """0 kept up, 1 fell behind (without a spiral), 2 spiralled."""
        if self.measures.spiral:
            return 2
        return 0 if self.measures.keeps_up else 1


def runs(cells: Sequence[SweepCell], ran: Sequence[CellRun]) -> list[Run]:
    """Each cell with what its run sent back (in the cells' order)."""
    return [
        Run(cell, each.measures, each.frontier, each.step_cost_ns)
        for cell, each in zip(cells, ran, strict=True)
    ]


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def csv_header(axes: Sequence[Axis]) -> list[str]:
    return [*(axis.name for axis in axes), *MEASURED_COLUMNS]


def csv_row(run: Run) -> list[str]:
    measured, cost = run.measures, run.frontier.cost_ns
    return [
        *(decimal_text(value) for value in run.cell.values),
        run.cell.policy,
        _yes(measured.spiral),
        _yes(measured.keeps_up),
        run.theory,
        "none" if cost is None else format_ms(cost),
        f"{float(measured.dropped_pct):.3f}",
        format_ms(measured.max_frame_ns),
        format_ms(measured.mean_lag_ns),
        format_ms(measured.final_lag_ns),
        str(measured.frames),
        str(measured.ticks),
        _yes(measured.runaway),
    ]


def write_csv(path: Path, axes: Sequence[Axis], every: Sequence[Run]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(csv_header(axes))
        writer.writerows(csv_row(run) for run in every)


def by_policy(every: Sequence[Run]) -> dict[str, list[Run]]:
    """The runs of each policy, in the order the policies were given."""
    grouped: dict[str, list[Run]] = {}
    for run in every:
        grouped.setdefault(run.cell.policy, []).append(run)
    return grouped


def agreement_text(policy_runs: Sequence[Run]) -> str:
    edge = sum(run.on_the_frontier for run in policy_runs)
    called = len(policy_runs) - edge
    agree = sum(run.agrees for run in policy_runs) - edge
    text = f"theory and measurement agree on {agree} of {called} runs"
    return text + (f" ({edge} exactly on the frontier)" if edge else "")


def summary_table(axes: Sequence[Axis], every: Sequence[Run]) -> str:
    """One line per policy (runs, kept up, fell behind, spirals, agreement with the theory),
    then the runs where theory and measurement disagree, a few per policy."""
    header = ("policy", "runs", "kept up", "fell behind", "spirals", "theory agrees", "on frontier")
    rows = []
    notes = []
    for policy, policy_runs in by_policy(every).items():
        verdicts = [run.verdict for run in policy_runs]
        edge = sum(run.on_the_frontier for run in policy_runs)
        agree = sum(run.agrees for run in policy_runs) - edge
        rows.append(
            (
                policy,
                str(len(policy_runs)),
                str(verdicts.count(0)),
                str(verdicts.count(1)),
                str(verdicts.count(2)),
                f"{agree}/{len(policy_runs) - edge}",
                str(edge),
            )
        )
        disagreeing = [run for run in policy_runs if not run.agrees]
        for run in disagreeing[:SHOWN_DISAGREEMENTS]:
            where = ", ".join(
                f"{axis.name}={decimal_text(value)}"
                for axis, value in zip(axes, run.cell.values, strict=True)
            )
            said = "keeps up" if run.theory == KEEPS_UP else "falls behind"
            notes.append(f"{policy}: at {where} the theory says it {said}; the run did not")
        if len(disagreeing) > SHOWN_DISAGREEMENTS:
            notes.append(f"{policy}: and {len(disagreeing) - SHOWN_DISAGREEMENTS} more (sweep.csv)")
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        )
        for cells in (header, *rows)
    ]
    return "\n".join([*lines, *notes]) + "\n"
