"""What a match refuses: anything that would change one world and not the other.

Two games in a match (`--host`, `--join`) keep one world between them only because each runs the
same ticks with the same inputs, and the only inputs they exchange are the two avatars' moves.
So, while a match runs, whatever else would reach a world or decide what a tick computes is
refused with a message: firing (Space, a click), reset, the cannon's switch, teleports, single
steps, and the controls below. What decides only *when* ticks run or how they look stays each
player's own: the policy (except `variable`, whose steps are as long as the frames), the
interpolation, the HUD, the render cap, the tick's CPU cost. A lesson step that asks for
`network = "peer"` is let through: the match's peer is the real one it asks for.
"""

from __future__ import annotations

from game.network.settings import REAL_PEER
from game.session.controls import Act, Controls

REFUSED_ACTS = {
    Act.FIRE: "firing",
    Act.RESET: "reset",
    Act.TOGGLE_CANNON: "the cannon's switch",
    Act.SINGLE_STEP: "single steps",
}
"""Actions that would reach one world only, and how a refusal names them."""

WORLD_CONTROLS = {
    "hz": "the tick rate",
    "integrator": "the integrator",
    "paused": "pause",
    "time_scale": "the time scale",
    "clock": "the lesson clock",
    "network": "the network controls (the match is the link)",
    "latency_ms": "the network controls (the match is the link)",
    "input_delay": "the input delay",
    "prediction_window": "the prediction window",
    "time_sync": "time sync",
    "remote_late_ms": "the network controls (the match is the link)",
    "remote_flips_per_s": "the network controls (the match is the link)",
}
"""Controls that change what a tick computes, or when the two games' ticks run."""


def refusal(what: str) -> str:
    """The message a refused request shows."""
    return f"refused in a match: {what} would change this world and not the other"


def refused_act(act: Act) -> str | None:
    return refusal(REFUSED_ACTS[act]) if act in REFUSED_ACTS else None


def refused_controls(old: Controls, new: Controls) -> str | None:
    """Why turning `old` into `new` is refused in a match, or None when it may be."""
    if new.split != old.split:
        return refusal("split screen")
    if "variable" in new.policies and "variable" not in old.policies:
        return refusal("the variable policy")
    for name, what in WORLD_CONTROLS.items():
        if getattr(new, name) != getattr(old, name):
            if name == "network" and new.network == REAL_PEER:
                continue  # "peer": the match's peer is the one asked for (`REAL_PEER`)
            return refusal(what)
    return None
