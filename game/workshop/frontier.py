"""The spiral's frontier: the step cost beyond which the loop can no longer keep up.

Symbols, all exact, from a scenario's steady settings: h the step (1/hz), R the time scale,
r the render cost, b = 1/render_fps the frame budget, c the step cost (the wall time one tick
takes to run), M the catch-up cap, F the max frame.

A frame lasts as long as the work of the ticks the frame before it ran, and never less than the
budget (this is `VirtualClock`'s formula, and the real loop's behaviour):

    T = max(b, r + n c)        n = ticks the previous frame ran

and hands the scheduler R T of simulated time. Keeping up means the ticks run simulate, frame
after frame, as much time as the frames last: n h = R T on average. So the load settles where
n = R (r + n c) / h, at n* = R r / (h - R c); the map n -> R (r + n c) / h has slope R c / h,
below 1 exactly when R c < h, so the load goes to n* and stays there.

A policy can run at most K ticks in a frame (it can simulate at most K h of it). It keeps up iff
a frame that runs all K ticks is paid for by them:

    R max(b, r + K c) <= K h,   that is   R b <= K h   and   c <= c* = h / R - r / K

Below c*, n* <= K: the cap is never reached for long. Above it, a frame of K ticks lasts
r + K c > K h / R: it simulates less than it lasts, every frame falls further behind, and the
policy drops the difference (`drop`, `reset`, `clamp`), owes it until B overflows (`backlog`),
or, with no cap, runs ever more ticks, each costing more than it simulates: the spiral.

The budget b is not the limit: frames may last longer than 1/render_fps and the loop still keeps
up, at a lower frame rate. The limit is the time K ticks simulate, K h. b only matters when even
free ticks cannot keep up with one frame at the render rate (R b > K h: 30 fps with M = 1 at
60 Hz).

K per policy: `drop` and `backlog`, M; `reset`, M but never more than F holds (min(M, F / h));
`clamp`, F / h (it counts at most F of a frame, so at most F of simulated time per frame);
`uncapped`, no cap: c* = h / R, and since n* is infinite there, c must stay below it (with
r > 0); `variable`, one step of at most F per frame: R max(b, r + c) <= F, so c* = F / R - r.

Worked example, `configs/scenarios/spiral_map.toml` (60 Hz, 144 fps, r = 2 ms, R = 1):
h = 50/3 ms, so c* = 50/3 - 2/M ms: 14.667 (M = 1), 15.667 (2), 16 exactly (3), 16.267 (5),
16.417 (8), and 16.667 without a cap. At M = 3 and c = 16 ms a frame of 3 ticks lasts
2 + 48 = 50 ms, exactly the 3 x 16.667 ms it simulates: on the frontier, and still keeping up.

Jitter and stalls are not in the formula: it is about a steady load.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from game.clock.units import NS_PER_MS, NS_PER_SECOND
from game.workshop.scenario import Scenario

POLICIES_WITHOUT_A_CAP = ("uncapped",)
FORMULAS = {
    "uncapped": "c* = h / R: a tick must cost less than it simulates",
    "clamp": "c* = h / R - r / K with K = F / h",
    "drop": "c* = h / R - r / M",
    "reset": "c* = h / R - r / K with K = min(M, F / h)",
    "backlog": "c* = h / R - r / M",
    "variable": "c* = F / R - r: one step of up to F per frame",
}
"""Each policy's frontier, as the figures write it (symbols as in this module)."""


@dataclass(frozen=True, slots=True)
class Frontier:
    """What the theory says about one scenario's steady load, under its policy."""

    cost_ns: Fraction | None
    """c*: the highest step cost that keeps up, or None when not even free ticks keep up."""
    strict: bool
    """The frontier itself does not keep up (no cap: the load would be infinite there)."""

    def fits(self, cost_ns: Fraction) -> bool:
        """Whether a tick costing `cost_ns` keeps up, by the theory."""
        if self.cost_ns is None:
            return False
        return cost_ns < self.cost_ns if self.strict else cost_ns <= self.cost_ns

    @property
    def cost_ms(self) -> Fraction | None:
        return None if self.cost_ns is None else self.cost_ns / NS_PER_MS


def most_ticks(scenario: Scenario) -> Fraction | None:
    """K: the most ticks the scenario's policy runs in one frame (None: no cap)."""
    settings = scenario.scheduler
    policy = settings.policy
    if policy in POLICIES_WITHOUT_A_CAP:
        return None
    frame_steps = settings.max_frame_ns / settings.step_ns
    if policy == "clamp":
        return frame_steps
    if policy == "reset":
        return min(Fraction(settings.max_steps), frame_steps)
    return Fraction(settings.max_steps)


def frontier(scenario: Scenario) -> Frontier:
    """c* for `scenario`'s policy at its starting settings (see the module for the derivation)."""
    settings = scenario.scheduler
    h = settings.step_ns
    scale = settings.time_scale
    r = scenario.clock.render_cost_ms * NS_PER_MS
    b = NS_PER_SECOND / scenario.clock.render_fps
    if settings.policy == "variable":
        most = settings.max_frame_ns  # one step a frame, of at most F
        per_frame = Fraction(1)
    else:
        ticks = most_ticks(scenario)
        if ticks is None:
            return Frontier(h / scale, strict=True)
        most, per_frame = ticks * h, ticks
    cost = (most / scale - r) / per_frame
    if scale * b > most or cost < 0:
        return Frontier(None, strict=False)
    return Frontier(cost, strict=False)
