"""Controls: what each key does to the live settings, as pure transitions."""

from fractions import Fraction

import pytest

from game.knobs import Move
from game.session.controls import Act, Action, Controls
from timestep_lab import AlphaMode


def after(controls: Controls, knob: str, move: Move, number: int = 0) -> Controls:
    """The controls once the key that makes `move` on `knob` is pressed."""
    return controls.after(Action.turn(knob, move, number))


def test_tab_cycles_the_policies_in_key_order_and_wraps() -> None:
    seen = []
    controls = Controls(policies=("uncapped",))
    for _ in range(6):
        controls = after(controls, "scheduler.policy", Move.NEXT)
        seen.append(controls.policies[0])
    assert seen == ["clamp", "drop", "reset", "backlog", "variable", "uncapped"]
    assert after(controls, "scheduler.policy", Move.PREVIOUS).policies == ("variable",)


@pytest.mark.parametrize(
    ("number", "policy"),
    [(1, "uncapped"), (2, "clamp"), (3, "drop"), (4, "reset"), (5, "backlog"), (6, "variable")],
)
def test_number_keys_pick_a_policy(number: int, policy: str) -> None:
    assert after(Controls(), "scheduler.policy", Move.PICK, number).policies == (policy,)


def test_time_scale_moves_along_its_ladder_and_stops_at_the_ends() -> None:
    controls = Controls()
    scales = []
    for _ in range(4):
        controls = after(controls, "scheduler.time_scale", Move.DOWN)
        scales.append(controls.time_scale)
    assert scales == [Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 8)]
    for _ in range(6):
        controls = after(controls, "scheduler.time_scale", Move.UP)
    assert controls.time_scale == Fraction(4)


def test_step_cost_climbs_through_the_60_hz_step() -> None:
    controls = Controls()
    costs = []
    for _ in range(11):
        controls = after(controls, "load.step_cost_ms", Move.UP)
        costs.append(int(controls.step_cost_ms))
    assert costs == [1, 2, 4, 8, 12, 16, 20, 25, 30, 40, 40]
    assert controls.step_cost_ns == 40_000_000
    assert after(controls, "load.step_cost_ms", Move.DOWN).step_cost_ms == 30


def test_the_catch_up_cap_moves_by_one_and_never_below_1() -> None:
    assert after(Controls(max_steps=1), "scheduler.max_steps", Move.DOWN).max_steps == 1
    assert after(Controls(), "scheduler.max_steps", Move.UP).max_steps == 6
    assert after(Controls(max_steps=50), "scheduler.max_steps", Move.UP).max_steps == 51


def test_a_value_between_rungs_moves_to_its_neighbour() -> None:
    assert after(Controls(step_cost_ms=Fraction(3)), "load.step_cost_ms", Move.UP).step_cost_ms == 4
    assert (
        after(Controls(step_cost_ms=Fraction(3)), "load.step_cost_ms", Move.DOWN).step_cost_ms == 2
    )
    assert (
        after(Controls(time_scale=Fraction(3, 2)), "scheduler.time_scale", Move.UP).time_scale == 2
    )
    assert (
        after(Controls(time_scale=Fraction(8)), "scheduler.time_scale", Move.DOWN).time_scale == 4
    )
    assert after(Controls(hz=Fraction(5994, 100)), "scheduler.hz", Move.NEXT).hz == 60


def test_cycles_for_modes_rates_and_caps() -> None:
    controls = Controls()
    assert after(controls, "render.interpolation", Move.NEXT).interpolation == "extrapolate"
    assert after(controls, "scheduler.alpha", Move.NEXT).alpha_mode is AlphaMode.NAIVE
    assert after(controls, "world.integrator", Move.NEXT).integrator == "verlet"
    assert after(controls, "scheduler.hz", Move.NEXT).hz == 120
    assert after(Controls(hz=Fraction(120)), "scheduler.hz", Move.NEXT).hz == 10
    assert after(controls, "render.fps_cap", Move.NEXT).fps_cap == 165
    assert after(Controls(fps_cap=0), "render.fps_cap", Move.NEXT).fps_cap == 30


def test_toggles_flip_one_setting_each() -> None:
    controls = Controls()
    assert after(controls, "hud.graphs", Move.FLIP).graphs is False
    assert after(controls, "hud.help", Move.FLIP).help is True
    assert after(controls, "hud.presentation", Move.FLIP).presentation is True
    assert after(controls, "overlays.ghost", Move.FLIP).ghost is True
    assert after(controls, "overlays.tick_markers", Move.FLIP).tick_markers is True
    assert after(controls, "overlays.trails", Move.FLIP).trails is True


def test_split_adds_a_second_lane_whose_policy_keys_are_separate() -> None:
    split = Controls().after(Action(Act.TOGGLE_SPLIT))
    assert split.policies == ("drop", "uncapped")
    right = after(split, "live.focus_lane", Move.NEXT)
    assert after(right, "scheduler.policy", Move.PICK, 5).policies == ("drop", "backlog")
    assert split.after(Action(Act.TOGGLE_SPLIT)).policies == ("drop",)


def test_actions_that_are_not_about_controls_change_nothing() -> None:
    controls = Controls()
    for act in (Act.FIRE, Act.STALL, Act.QUIT, Act.SCREENSHOT, Act.RESET, Act.SINGLE_STEP):
        assert controls.after(Action(act)) is controls


def test_pause_is_a_control_like_the_others() -> None:
    paused = Controls().after(Action.turn("live.paused", Move.FLIP))
    assert paused.paused is True
    assert paused.after(Action.turn("live.paused", Move.FLIP)).paused is False


def test_a_bad_policy_number_is_refused() -> None:
    with pytest.raises(ValueError, match=r"scheduler.policy: the rung must be 1-6 \(got 7\)"):
        after(Controls(), "scheduler.policy", Move.PICK, 7)
