"""The rollback map: how long its runs must be for every verdict to be final.

docs/rollback.md shows the rollback frontier `sweep` maps (`configs/scenarios/rollback_map.toml`:
latency x step cost, every prediction wrong). A run "keeps up" when no frame of its second half
outlasts the step; near the frontier the frames drift into place for a while, so a run too
short can end before they settle and give the wrong verdict. The old limits cut the runs at
2.5 s. Here the 20 x 20 map is run at 2.5 s and at twice the length; if no run's verdict changes,
the length is halved while that still holds, else doubled until it does: the shortest length at
which doubling changes no verdict is the map's, and the theory's frontier is compared with it run
by run. Each map is one `python -m game sweep` on both cores.
"""

from __future__ import annotations

import csv
import tempfile
from fractions import Fraction
from pathlib import Path

from bench.harness import Section
from bench.long_runs import run_cost
from game.config.exact import decimal_text

AXES = "--vary network.latency_ms=0:133:7 --vary load.step_cost_ms=0.5:10:0.5"
COMMAND = "sweep --scenario {scenario} --policies uncapped {axes} --seconds {seconds} --out {out}"
SCENARIO = Path(__file__).resolve().parents[1] / "configs/scenarios/rollback_map.toml"
FIRST_S = Fraction(5, 2)
LONGEST_S = Fraction(80)
SHORTEST_S = Fraction(5, 16)
CHECKED_S = Fraction(40)
"""The length at which the runs that differ from the theory are run once more."""


def verdicts(
    folder: Path, seconds: Fraction, axes: str = AXES
) -> tuple[dict[tuple[str, str], tuple[str, str]], float]:
    """Each run's (measured, theory) verdict by its (latency, step cost), and the sweep's CPU."""
    out = folder / f"map_{decimal_text(seconds)}"
    command = COMMAND.format(scenario=SCENARIO, axes=axes, seconds=decimal_text(seconds), out=out)
    cost = run_cost(command, folder)
    with (out / "sweep.csv").open(newline="") as rows:
        found = {
            (row["network.latency_ms"], row["load.step_cost_ms"]): (
                row["keeps_up"],
                row["theory_keeps_up"],
            )
            for row in csv.DictReader(rows)
        }
    return found, cost.cpu_s


def run(quick: bool) -> list[Section]:
    folder = Path(tempfile.mkdtemp(prefix="bench-rollback-map-"))
    section = Section(
        title="Rollback map: the run length at which every verdict is final",
        intro=(
            "`python -m bench --only rollback_map`: the 20 x 20 map of docs/rollback.md "
            f"(`{AXES}`, 400 runs under `uncapped`) at a length and at twice it, the length "
            "halved while no run's verdict (keeps up or not) changes when it is doubled (or "
            "doubled until none does): the shortest such length is the map's."
        ),
        columns=["run length", "CPU", "verdicts changed at twice the length", "theory agrees"],
    )
    maps: dict[Fraction, tuple[dict[tuple[str, str], tuple[str, str]], float]] = {}

    def final_at(seconds: Fraction) -> bool:
        """Whether no verdict of the map at `seconds` changes at twice the length (a row)."""
        for length in (seconds, seconds * 2):
            if length not in maps:
                maps[length] = verdicts(folder, length)
        (found, cpu), (longer, _) = maps[seconds], maps[seconds * 2]
        changed = sorted(key for key in found if found[key][0] != longer[key][0])
        agree = sum(measured == theory for measured, theory in found.values())
        where = ", ".join(f"{latency} ms x {cost} ms" for latency, cost in changed[:8])
        section.add(
            f"{decimal_text(seconds)} s",
            f"{cpu:.0f} s",
            f"{len(changed)}"
            + (f" ({where}{', ...' if len(changed) > 8 else ''})" if changed else ""),
            f"{agree} of {len(found)}",
        )
        return not changed

    seconds = FIRST_S
    if final_at(seconds):  # then the shortest such length: halve while it stays final
        while not quick and seconds / 2 >= SHORTEST_S and final_at(seconds / 2):
            seconds /= 2
    else:  # or the first length that is: double until it is
        while not quick and seconds * 2 < LONGEST_S and not final_at(seconds * 2):
            seconds *= 2
        seconds *= 2
    found = maps[seconds][0]
    disagree = sorted(key for key, (measured, theory) in found.items() if measured != theory)
    section.notes.append(
        f"The map's length: {decimal_text(seconds)} s (no verdict changes at "
        f"{decimal_text(seconds * 2)} s). Where theory and measurement still differ there: "
        + (", ".join(f"{latency} ms x {cost} ms" for latency, cost in disagree) or "nowhere")
        + "."
    )
    if disagree and not quick:
        latencies = ",".join(sorted({latency for latency, _ in disagree}, key=float))
        costs = ",".join(sorted({cost for _, cost in disagree}, key=float))
        axes = f"--vary network.latency_ms={latencies} --vary load.step_cost_ms={costs}"
        checked, _ = verdicts(folder, CHECKED_S, axes)
        same = sum(checked[key][0] == found[key][0] for key in disagree)
        section.notes.append(
            f"The same {len(disagree)} runs at {decimal_text(CHECKED_S)} s: {same} give the same "
            "verdict (docs/rollback.md says why the theory's floor frontier misses them)."
        )
    return [section]
