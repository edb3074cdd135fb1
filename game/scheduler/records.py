"""The JSON shape of a frame: the contract shared by `schedule --json` and `simulate --json`.

Exact values are rounded to whole nanoseconds only here, at the edge, for printing.
"""

from __future__ import annotations

from timestep_lab import StepPlan, round_ns

FRAME_KEYS = (
    "frame",
    "elapsed_ns",
    "steps",
    "dt_ns",
    "dropped_ns",
    "remainder_ns",
    "backlog_steps",
    "alpha",
    "tick",
    "sim_time_ns",
    "overloaded",
    "paused",
    "counted_ns",
    "conditioning_carry_ns",
)


def frame_record(frame: int, plan: StepPlan) -> dict[str, int | float | bool]:
    """One frame as a flat JSON object with exactly `FRAME_KEYS` (frame is 1-based)."""
    return {
        "frame": frame,
        "elapsed_ns": plan.elapsed_ns,
        "steps": plan.steps,
        "dt_ns": round_ns(plan.dt_ns),
        "dropped_ns": round_ns(plan.dropped_ns),
        "remainder_ns": round_ns(plan.remainder_ns),
        "backlog_steps": plan.backlog_steps,
        "alpha": plan.alpha,
        "tick": plan.tick,
        "sim_time_ns": round_ns(plan.sim_time_ns),
        "overloaded": plan.overloaded,
        "paused": plan.paused,
        "counted_ns": plan.counted_ns,
        "conditioning_carry_ns": plan.conditioning_carry_ns,
    }
