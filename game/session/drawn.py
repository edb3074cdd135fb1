"""`drawn_time_ns`: the simulated time a frame's picture shows, for the judder meters.

Both meters need it, the headless one (`game.workshop.runs.display_run`) and the live one beside the
game (`game.app.judder_watch`), and it depends on the plan and the picture mode only: it lives
here, below both.
"""

from __future__ import annotations

from fractions import Fraction

from game.scheduler.plan import StepPlan
from game.world.render_view import InterpolationMode


def drawn_time_ns(plan: StepPlan, interpolation: str) -> Fraction:
    """The simulated time the frame's picture shows, exactly (alpha as remainder / step)."""
    if interpolation == InterpolationMode.OFF:
        return plan.sim_time_ns
    return plan.alpha_time_ns(1 if interpolation == InterpolationMode.INTERPOLATE else 0)
