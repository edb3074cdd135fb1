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

On the frontier itself (equality) there is no slack: the loop keeps up only if every frame is
exactly K h long. Any jitter breaks it, even the clock's whole nanoseconds: at 30 fps with M = 2
at 60 Hz (R b = K h) frames of 33,333,333 1/3 ns are handed over as 33,333,333 or 33,333,334,
and now and then one owes 3 ticks, which `drop` throws away. The theory calls such a run
neither way (`ON_THE_FRONTIER`).

Worked example, `configs/scenarios/spiral_map.toml` (60 Hz, 144 fps, r = 2 ms, R = 1):
h = 50/3 ms, so c* = 50/3 - 2/M ms: 14.667 (M = 1), 15.667 (2), 16 exactly (3), 16.267 (5),
16.417 (8), and 16.667 without a cap. At M = 3 and c = 16 ms a frame of 3 ticks lasts
2 + 48 = 50 ms, exactly the 3 x 16.667 ms it simulates: on the frontier, and as 50 ms is a whole
number of nanoseconds, every frame is exactly that long and the loop keeps up.

Jitter and stalls are not in the formula: it is about a steady load.

Rollback (a scenario's `[network]`). When every prediction is wrong (the remote player flips
its input at least once a tick), each frame rolls back to the input that arrived first in it and
runs every tick since again before its new one. How far back depends on where the frames fall
within a tick: ceil(latency / h) - input_delay ticks for frames that start just past a tick,
floor(latency / h) - input_delay for frames that start just before one (the same at a whole
number of steps). Rendering at the tick rate, one new tick a frame, the frame's work is
r + (1 + R) c. A loop whose frames outlast the step drifts later into the tick, its rollbacks
get shallower, and it settles at the tick rate if it can: it stays there while

    T (r + (1 + R) c) <= h   with R = floor(latency / h) - input_delay,
    c* = (h / T - r) / (1 + R)

whatever the policy (the R ticks are owed already; the cap is on new ones). Past it the frames
outlast the step for good: `uncapped` renders slower and runs more ticks a frame; a capped
policy drops time, falls behind the remote, and so rolls back less (it has added the latency to
itself). So the sweep measures a network scenario by its frames: it keeps up when no frame of
its second half outlasts the step (`game.workshop.sweep.running`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from game.workshop.files.scenario import Scenario
from timestep_lab import NS_PER_MS, NS_PER_SECOND

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
ROLLBACK_FORMULA = "(1 + R) c + r <= h, R = floor(latency / h) - input delay"
"""A network scenario's frontier, whatever the policy: one new tick a frame, at the tick rate."""


KEEPS_UP = "yes"
FALLS_BEHIND = "no"
ON_THE_FRONTIER = "edge"
"""The theory's three answers (as `sweep.csv` writes them): keeps up, falls behind, or exactly
on the frontier, where it has no slack and the clock's whole nanoseconds decide."""


@dataclass(frozen=True, slots=True)
class Frontier:
    """What the theory says about one scenario's steady load, under its policy."""

    step_ns: Fraction
    time_scale: Fraction
    render_cost_ns: Fraction
    budget_ns: Fraction
    most_sim_ns: Fraction | None
    """The most simulated time a frame may take (K h; F for `variable`); None: no cap."""
    ticks_then: Fraction
    """The ticks a frame runs when it takes that much (K; 1 for `variable`)."""
    resimulated: int | None = None
    """R, the ticks each frame runs again after a rollback, in a network scenario: the frontier
    is then the tick rate's, (1 + R) c + r <= h (None without `[network]`)."""

    def verdict(self, cost_ns: Fraction) -> str:
        """`KEEPS_UP`, `ON_THE_FRONTIER` or `FALLS_BEHIND` for ticks that cost `cost_ns`."""
        if self.resimulated is not None:  # one new tick a frame, at the tick rate
            frame = self.time_scale * (self.render_cost_ns + (1 + self.resimulated) * cost_ns)
            if frame == self.step_ns:
                return ON_THE_FRONTIER
            return KEEPS_UP if frame < self.step_ns else FALLS_BEHIND
        if self.most_sim_ns is None:  # no cap: ticks must cost less than they simulate
            return KEEPS_UP if self.time_scale * cost_ns < self.step_ns else FALLS_BEHIND
        work = self.render_cost_ns + self.ticks_then * cost_ns
        needed = self.time_scale * max(self.budget_ns, work)
        if needed == self.most_sim_ns:
            return ON_THE_FRONTIER
        return KEEPS_UP if needed < self.most_sim_ns else FALLS_BEHIND

    def fits(self, cost_ns: Fraction) -> bool:
        """Whether ticks costing `cost_ns` keep up in exact arithmetic (the frontier included)."""
        return self.verdict(cost_ns) != FALLS_BEHIND

    @property
    def cost_ns(self) -> Fraction | None:
        """c*: the highest step cost that keeps up, or None when not even free ticks do."""
        if self.resimulated is not None:
            cost = (self.step_ns / self.time_scale - self.render_cost_ns) / (1 + self.resimulated)
            return cost if cost >= 0 else None
        if self.most_sim_ns is None:
            return self.step_ns / self.time_scale
        cost = (self.most_sim_ns / self.time_scale - self.render_cost_ns) / self.ticks_then
        if self.time_scale * self.budget_ns > self.most_sim_ns or cost < 0:
            return None
        return cost

    @property
    def cost_ms(self) -> Fraction | None:
        cost = self.cost_ns
        return None if cost is None else cost / NS_PER_MS


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
    """The theory for `scenario`'s policy at its starting settings (derived in the module)."""
    settings = scenario.scheduler
    h = settings.step_ns
    most: Fraction | None
    if settings.policy == "variable":
        most, ticks = settings.max_frame_ns, Fraction(1)  # one step a frame, of at most F
    else:
        cap = most_ticks(scenario)
        most, ticks = (None, Fraction(0)) if cap is None else (cap * h, cap)
    return Frontier(
        step_ns=h,
        time_scale=settings.time_scale,
        render_cost_ns=scenario.clock.render_cost_ms * NS_PER_MS,
        budget_ns=NS_PER_SECOND / scenario.clock.render_fps,
        most_sim_ns=most,
        ticks_then=ticks,
        resimulated=rollback_depth(scenario),
    )


def rollback_depth(scenario: Scenario) -> int | None:
    """R = floor(latency / h) - input_delay in a network scenario, the depth a loop settles at
    (None without one); the theory assumes every prediction is wrong (`remote_flips_per_s` at
    least the tick rate)."""
    network = scenario.network
    settings = scenario.scheduler
    if network is None:
        return None
    latency_ticks = network.latency_ms * NS_PER_MS / settings.step_ns
    return max(0, math.floor(latency_ticks) - network.input_delay)
