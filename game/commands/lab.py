"""`python -m game lab [--json] [--plot DIR]`: the projectile-and-spring article, rerun here.

The article (docs/references.md#projectile-spring) gives three results; each is recomputed by the
game's own code rather than a separate script:

- the projectile error after 2 s at 30, 60 and 120 Hz, for each integrator (float32, as the
  article);
- the spring's energy drift after 10,000 ticks at 60 Hz, for each integrator (float64, as the
  article);
- the catch-up case: a 200 ms frame at 60 Hz with a cap of 5, planned by the real scheduler and
  run on a real world: 5 ticks run, 7 whole ticks dropped, nothing left over.

    python -m game lab
    python -m game lab --json
    python -m game lab --plot figures/
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from fractions import Fraction

from game.arguments import file_path
from game.workshop.files.output import Outputs
from game.world.experiments import (
    PROJECTILE_PRECISION,
    PROJECTILE_RATES,
    SPRING_PRECISION,
    projectile_error,
    spring_energy_drift,
)
from game.world.integrators import INTEGRATORS
from game.world.world import demo_world
from timestep_lab import NS_PER_MS, FixedStepScheduler, SchedulerSettings

HELP = (
    "rerun the projectile-and-spring article's projectile, spring and catch-up experiments "
    "with this world's code"
)

STALL_MS = 200
CATCH_UP_HZ = 60
CATCH_UP_CAP = 5
FIGURE_FILES = ("projectile.png", "projectile.svg", "spring_energy.png", "spring_energy.svg")
"""What `--plot DIR` writes there (`game.commands.lab_plots`)."""
PNG_FIGURES = FIGURE_FILES[::2]
"""The same figures without their SVGs (what the handout's page shows)."""
OTHER_PRECISION = {"float32": "float64", "float64": "float32"}


@dataclass(frozen=True, slots=True)
class CatchUp:
    """What one long frame did: ticks run on the world, whole ticks dropped, time carried."""

    executed: int
    dropped_ticks: int
    remainder_ns: Fraction


def catch_up() -> CatchUp:
    """Hand the real scheduler a 200 ms frame at 60 Hz, cap 5, and run its plan on a world."""
    scheduler = FixedStepScheduler(SchedulerSettings.at_hz(CATCH_UP_HZ, max_steps=CATCH_UP_CAP))
    plan = scheduler.advance(STALL_MS * NS_PER_MS)
    world = demo_world()
    for _ in range(plan.steps):
        world.step(plan.dt_seconds)
    return CatchUp(world.tick, plan.dropped_steps, plan.remainder_ns)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object, no table")
    parser.add_argument(
        "--plot", type=file_path, metavar="DIR", help="also write the figures (PNG, SVG) into DIR"
    )


def run(args: argparse.Namespace) -> int:
    figures = Outputs().folder("--plot", args.plot, FIGURE_FILES)
    stall = catch_up()
    if args.json:
        sys.stdout.write(json.dumps(lab_record(stall)) + "\n")
    else:
        sys.stdout.write(lab_table(stall))
    if figures is not None:
        from game.commands.lab_plots import write_figures  # matplotlib only when asked for

        for path in write_figures(figures):
            print(f"wrote {path}", file=sys.stderr)
    return 0


def lab_record(stall: CatchUp) -> dict[str, object]:
    """The JSON contract: projectile_error_m, spring_energy_drift, catchup; nothing else."""
    remainder = stall.remainder_ns
    return {
        "projectile_error_m": {
            name: {str(hz): projectile_error(name, hz) for hz in PROJECTILE_RATES}
            for name in INTEGRATORS
        },
        "spring_energy_drift": {name: spring_energy_drift(name) for name in INTEGRATORS},
        "catchup": {
            "executed": stall.executed,
            "dropped_ticks": stall.dropped_ticks,
            "remainder_ns": int(remainder) if remainder.denominator == 1 else float(remainder),
        },
    }


def lab_table(stall: CatchUp) -> str:
    other_projectile = OTHER_PRECISION[PROJECTILE_PRECISION]
    other_spring = OTHER_PRECISION[SPRING_PRECISION]
    lines = [
        "The projectile-and-spring article (docs/references.md#projectile-spring),",
        "rerun with this world's step code",
        "",
        "Projectile from (0, 0) at (10, 15) m/s, g = 9.81 m/s^2, after 2 s:",
        "distance from the exact parabola, m",
    ]
    for precision in (PROJECTILE_PRECISION, other_projectile):
        role = "as the article" if precision == PROJECTILE_PRECISION else "for comparison"
        lines.append(f"  {precision} world ({role})")
        lines.append("    integrator    " + "".join(f"{hz:>7} Hz" for hz in PROJECTILE_RATES))
        for name in INTEGRATORS:
            errors = "".join(
                f"{projectile_error(name, hz, precision):>10.6f}" for hz in PROJECTILE_RATES
            )
            lines.append(f"    {name:<14}{errors}")
    lines += [
        "  In float64 both Eulers miss by exactly g*h*T/2 (0.327000 m at 30 Hz): the article's",
        "  last digits are float32 rounding. Verlet is exact for constant gravity.",
        "",
        "Spring k = 10 N/m, m = 1 kg, released 1 m from rest, 10,000 ticks at 60 Hz:",
        "energy drift |E_end / E_0 - 1| (sampled every 100 ticks)",
        f"    integrator    {SPRING_PRECISION + ' (as the article)':>24}{other_spring:>12}",
    ]
    for name in INTEGRATORS:
        lines.append(
            f"    {name:<14}{spring_energy_drift(name):>24.6g}"
            f"{spring_energy_drift(name, other_spring):>12.6g}"
        )
    lines += [
        "",
        f"Catch-up: one {STALL_MS} ms frame at {CATCH_UP_HZ} Hz, cap {CATCH_UP_CAP} "
        "(the real scheduler, policy drop):",
        f"    {stall.executed} ticks run, {stall.dropped_ticks} whole ticks dropped, "
        f"remainder {stall.remainder_ns} ns",
    ]
    return "\n".join(lines) + "\n"
