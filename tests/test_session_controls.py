"""Controls: what each key does to the live settings, as pure transitions."""

from fractions import Fraction

import pytest

from game.session.controls import Act, Action, Controls
from timestep_lab import AlphaMode


def after(controls: Controls, act: Act, number: int = 0) -> Controls:
    return controls.after(Action(act, number=number))


def test_tab_cycles_the_policies_in_key_order_and_wraps() -> None:
    seen = []
    controls = Controls(policies=("uncapped",))
    for _ in range(6):
        controls = after(controls, Act.NEXT_POLICY)
        seen.append(controls.policies[0])
    assert seen == ["clamp", "drop", "reset", "backlog", "variable", "uncapped"]
    assert after(controls, Act.PREVIOUS_POLICY).policies == ("variable",)


@pytest.mark.parametrize(
    ("number", "policy"),
    [(1, "uncapped"), (2, "clamp"), (3, "drop"), (4, "reset"), (5, "backlog"), (6, "variable")],
)
def test_number_keys_pick_a_policy(number: int, policy: str) -> None:
    assert after(Controls(), Act.SET_POLICY, number).policies == (policy,)


def test_time_scale_moves_along_its_ladder_and_stops_at_the_ends() -> None:
    controls = Controls()
    scales = []
    for _ in range(4):
        controls = after(controls, Act.SLOWER)
        scales.append(controls.time_scale)
    assert scales == [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)]
    for _ in range(6):
        controls = after(controls, Act.FASTER)
    assert controls.time_scale == Fraction(4)


def test_step_cost_climbs_through_the_60_hz_step() -> None:
    controls = Controls()
    costs = []
    for _ in range(11):
        controls = after(controls, Act.MORE_COST)
        costs.append(int(controls.step_cost_ms))
    assert costs == [1, 2, 4, 8, 12, 16, 20, 25, 30, 40, 40]
    assert controls.step_cost_ns == 40_000_000
    assert after(controls, Act.LESS_COST).step_cost_ms == 30


def test_the_catch_up_cap_moves_by_one_and_never_below_1() -> None:
    assert after(Controls(max_steps=1), Act.FEWER_CATCH_UP).max_steps == 1
    assert after(Controls(), Act.MORE_CATCH_UP).max_steps == 6
    assert after(Controls(max_steps=50), Act.MORE_CATCH_UP).max_steps == 51


def test_a_value_between_rungs_moves_to_its_neighbour() -> None:
    assert after(Controls(step_cost_ms=Fraction(3)), Act.MORE_COST).step_cost_ms == 4
    assert after(Controls(step_cost_ms=Fraction(3)), Act.LESS_COST).step_cost_ms == 2
    assert after(Controls(time_scale=Fraction(3, 2)), Act.FASTER).time_scale == 2
    assert after(Controls(time_scale=Fraction(8)), Act.SLOWER).time_scale == 4
    assert after(Controls(hz=Fraction(5994, 100)), Act.CYCLE_TICK_RATE).hz == 60


def test_cycles_for_modes_rates_and_caps() -> None:
    controls = Controls()
    assert after(controls, Act.CYCLE_INTERPOLATION).interpolation == "extrapolate"
    assert after(controls, Act.CYCLE_ALPHA).alpha_mode is AlphaMode.NAIVE
    assert after(controls, Act.CYCLE_INTEGRATOR).integrator == "verlet"
    assert after(controls, Act.CYCLE_TICK_RATE).hz == 120
    assert after(Controls(hz=Fraction(120)), Act.CYCLE_TICK_RATE).hz == 10
    assert after(controls, Act.CYCLE_FPS_CAP).fps_cap == 165
    assert after(Controls(fps_cap=0), Act.CYCLE_FPS_CAP).fps_cap == 30


def test_toggles_flip_one_setting_each() -> None:
    controls = Controls()
    assert after(controls, Act.TOGGLE_GRAPHS).graphs is False
    assert after(controls, Act.TOGGLE_HELP).help is True
    assert after(controls, Act.TOGGLE_PRESENTATION).presentation is True
    assert after(controls, Act.TOGGLE_GHOST).ghost is True
    assert after(controls, Act.TOGGLE_MARKERS).tick_markers is True
    assert after(controls, Act.TOGGLE_TRAILS).trails is True


def test_split_adds_a_second_lane_whose_policy_keys_are_separate() -> None:
    split = after(Controls(), Act.TOGGLE_SPLIT)
    assert split.policies == ("drop", "uncapped")
    right = after(split, Act.SWITCH_LANE)
    assert after(right, Act.SET_POLICY, 5).policies == ("drop", "backlog")
    assert after(split, Act.TOGGLE_SPLIT).policies == ("drop",)


def test_actions_that_are_not_about_controls_change_nothing() -> None:
    controls = Controls()
    for act in (Act.FIRE, Act.STALL, Act.QUIT, Act.SCREENSHOT, Act.RESET, Act.SINGLE_STEP):
        assert controls.after(Action(act)) is controls


def test_pause_is_a_control_like_the_others() -> None:
    paused = Controls().after(Action(Act.TOGGLE_PAUSE))
    assert paused.paused is True
    assert paused.after(Action(Act.TOGGLE_PAUSE)).paused is False


def test_a_bad_policy_number_is_refused() -> None:
    with pytest.raises(ValueError, match="policy number must be 1-6"):
        after(Controls(), Act.SET_POLICY, 7)
