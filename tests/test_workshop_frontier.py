"""The frontier's theory on worked examples (`game/workshop/sweep/frontier.py` derives it):
a policy that runs at most K ticks a frame keeps up iff R max(b, r + K c) <= K h, that is
c <= c* = h / R - r / K (and R b <= K h).

The base is `spiral_map.toml`: 60 Hz (h = 50/3 ms), 144 fps, render cost r = 2 ms, R = 1.
"""

from fractions import Fraction
from pathlib import Path

import pytest

from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import Flag, load_scenario
from game.workshop.runs.simulation import run_scenario
from game.workshop.sweep.frontier import FALLS_BEHIND, KEEPS_UP, ON_THE_FRONTIER, frontier
from game.workshop.sweep.running import measure

MAP = Path(__file__).resolve().parents[1] / "configs" / "scenarios" / "spiral_map.toml"
KEYS = {
    "policy": ("scheduler", "policy"),
    "max_steps": ("scheduler", "max_steps"),
    "time_scale": ("scheduler", "time_scale"),
    "render_fps": ("clock", "render_fps"),
    "step_cost_ms": ("load", "step_cost_ms"),
    "seconds": ("seconds",),
}


def scenario(**settings: object) -> Scenario:
    return load_scenario(MAP, [Flag(name, KEYS[name], value) for name, value in settings.items()])


def c_star_ms(**settings: object) -> Fraction | None:
    return frontier(scenario(**settings)).cost_ms


@pytest.mark.parametrize(
    ("max_steps", "c_star"),
    [
        (1, Fraction(44, 3)),  # 50/3 - 2: 14.667 ms
        (2, Fraction(47, 3)),  # 50/3 - 1: 15.667 ms
        (3, Fraction(16)),  # 50/3 - 2/3: exactly 16 ms
        (5, Fraction(244, 15)),  # 50/3 - 2/5: 16.267 ms
        (8, Fraction(197, 12)),  # 50/3 - 1/4: 16.417 ms
    ],
)
def test_drop_and_backlog_fit_m_ticks_of_c_in_the_time_they_simulate(
    max_steps: int, c_star: Fraction
) -> None:
    assert c_star_ms(policy="drop", max_steps=max_steps) == c_star
    assert c_star_ms(policy="backlog", max_steps=max_steps) == c_star


def test_without_a_cap_a_tick_must_cost_less_than_it_simulates() -> None:
    theory = frontier(scenario(policy="uncapped"))
    assert theory.cost_ms == Fraction(50, 3)
    assert theory.verdict(Fraction(16_666_666)) == KEEPS_UP
    assert theory.verdict(Fraction(50_000_000, 3)) == FALLS_BEHIND  # an infinite load there


def test_clamp_and_reset_are_capped_by_the_max_frame() -> None:
    # F = 250 ms holds K = 15 ticks: c* = 50/3 - 2/15 = 248/15 ms.
    assert c_star_ms(policy="clamp") == Fraction(248, 15)
    assert c_star_ms(policy="reset", max_steps=20) == Fraction(248, 15)
    assert c_star_ms(policy="reset", max_steps=5) == Fraction(244, 15)


def test_variable_runs_one_step_of_up_to_f() -> None:
    assert c_star_ms(policy="variable") == Fraction(248)  # 250 - 2


def test_slow_motion_needs_ticks_half_as_often() -> None:
    # R = 1/2: c* = 2h - r / M = 100/3 - 2/5 = 494/15 ms.
    assert c_star_ms(policy="drop", time_scale="1/2") == Fraction(494, 15)


def test_when_one_frame_at_the_render_rate_needs_more_than_k_ticks_nothing_fits() -> None:
    # 30 fps frames are 33.3 ms: two 60 Hz ticks, and M = 1 runs one.
    theory = frontier(scenario(policy="drop", max_steps=1, render_fps=30))
    assert theory.cost_ns is None and theory.verdict(Fraction(0)) == FALLS_BEHIND
    assert c_star_ms(policy="drop", max_steps=2, render_fps=30) == Fraction(47, 3)


@pytest.mark.parametrize(
    ("cost", "theory", "keeps_up", "dropped_ns"),
    [
        ("15.9", KEEPS_UP, True, 0),
        ("16", ON_THE_FRONTIER, True, 0),
        ("16.5", FALLS_BEHIND, False, 266_666_667),
    ],
)
def test_on_the_frontier_the_loop_keeps_up_exactly_and_past_it_falls_behind(
    cost: str, theory: str, keeps_up: bool, dropped_ns: int
) -> None:
    # M = 3 at c = 16 ms: 2 + 3 x 16 = 50 ms a frame, exactly the 3 x 50/3 ms it simulates, and
    # 50 ms is a whole number of ns, so every frame is exactly that: no tick is ever dropped.
    # At 16.5 ms each 51.5 ms frame loses 1.5 ms: in 10 s (some 194 frames, 291 ms) `drop` has
    # dropped 16 whole ticks, 266.667 ms, and carries the rest.
    chosen = scenario(policy="drop", max_steps=3, step_cost_ms=cost, seconds=10)
    result = run_scenario(chosen)
    measured = measure(result, chosen.until_ns, chosen.scheduler.step_ns)
    assert frontier(chosen).verdict(Fraction(cost) * 1_000_000) == theory
    assert measured.keeps_up is keeps_up
    assert result.books["dropped_ns"] == dropped_ns


def test_on_the_frontier_whole_nanoseconds_decide() -> None:
    # 30 fps with M = 2 at 60 Hz: R b = K h, but 1/30 s is 33,333,333 1/3 ns; handed over as
    # 33,333,333 or 33,333,334 ns, every third frame owes 3 ticks and `drop` drops one.
    chosen = scenario(policy="drop", max_steps=2, render_fps=30, seconds=10)
    result = run_scenario(chosen)
    assert frontier(chosen).verdict(Fraction(0)) == ON_THE_FRONTIER
    assert not measure(result, chosen.until_ns, chosen.scheduler.step_ns).keeps_up
    assert result.books["dropped_ns"] == 1_666_666_667  # 100 ticks of 300 frames, rounded ns
