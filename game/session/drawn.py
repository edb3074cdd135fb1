"""`drawn_time_ns`: the simulated time a frame's picture shows, for the judder meters.

Both meters need it, the headless one (`game.workshop.runs.display_run`) and the live one beside the
game (`game.app.judder_watch`), and it depends on the plan and the picture mode only: it lives
here, below both.
"""

from __future__ import annotations

from fractions import Fraction

from game.world.render_view import InterpolationMode
from timestep_lab import StepPlan


def drawn_time_ns(plan: StepPlan, interpolation: str) -> Fraction:
    """The simulated time the frame's picture shows, exactly (alpha as remainder / step)."""
    if interpolation == InterpolationMode.OFF:
        return plan.sim_time_ns
    return plan.alpha_time_ns(1 if interpolation == InterpolationMode.INTERPOLATE else 0)


def drawn_whole_ns(plan: StepPlan, interpolation: str) -> int:
    """`drawn_time_ns` rounded to whole ns as `round_ns` rounds it (halves away from zero),
    worked out in integers from the plan's ledger: the live meter asks it of every lane every
    frame, where two `Fraction`s (each reduced by a gcd) cost more than the rest of its work.
    The same quotient as `StepPlan.alpha_time_ns`, left unreduced: rounding does not care."""
    ledger = plan.ledger
    grains, over = ledger.sim_time, ledger.grains_per_ns
    if interpolation != InterpolationMode.OFF:
        grains -= ledger.dt if interpolation == InterpolationMode.INTERPOLATE else 0
        if ledger.dt == ledger.step:
            grains += ledger.remainder
        else:  # variable: alpha x dt is remainder x dt / step
            grains = grains * ledger.step + ledger.remainder * ledger.dt
            over *= ledger.step
    rounded = (abs(grains) * 2 + over) // (2 * over)
    return rounded if grains >= 0 else -rounded
