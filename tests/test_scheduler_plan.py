"""A `StepPlan` is made of named parts: its ledger, its conditioning account and its lights."""

from fractions import Fraction

from timestep_lab import (
    INDICATORS,
    ConditioningAccount,
    FixedStepScheduler,
    Indicators,
    Ledger,
    SchedulerSettings,
)

STEP_GRAINS = 50_000_000
"""At 60 Hz the step is 50,000,000/3 ns: 50,000,000 grains of 1/3 ns."""


def test_a_plan_under_drop_holds_the_terms_of_its_ledger_in_grains() -> None:
    clock = FixedStepScheduler(SchedulerSettings.at_hz(60, policy="drop", max_steps=2))
    plan = clock.advance(50_000_000)  # three steps of time, two allowed: one dropped
    assert plan.ledger == Ledger(
        carried_in=0,
        scaled=3 * STEP_GRAINS,
        granted=0,
        steps=2,
        dt=STEP_GRAINS,
        dropped=STEP_GRAINS,
        carried_out=0,
        step=STEP_GRAINS,
        sim_time=2 * STEP_GRAINS,
        grains_per_ns=3,
    )
    assert plan.account == ConditioningAccount(
        carry_in_ns=0, measured_ns=50_000_000, counted_ns=50_000_000, carry_out_ns=0
    )
    assert plan.indicators == Indicators(overloaded=False, strained=True, paused=False)
    assert (plan.steps, plan.dropped_ns, plan.tick) == (2, Fraction(50_000_000, 3), 2)
    assert plan.ledger.balances and plan.account.balances and plan.balances


def test_settle_hands_the_unrun_steps_back_to_the_ledger_as_carried_time() -> None:
    clock = FixedStepScheduler(SchedulerSettings.at_hz(60, policy="uncapped"))
    clock.advance(55_000_000)  # three steps and 5,000,000 ns (15,000,000 grains) over
    revised = clock.settle(1)
    assert revised.ledger.steps == 1
    assert revised.ledger.carried_out == 2 * STEP_GRAINS + 15_000_000
    assert (revised.backlog_steps, revised.ledger.remainder) == (2, 15_000_000)
    assert revised.ledger.sim_time == STEP_GRAINS
    assert (revised.tick, revised.alpha) == (1, 0.3)
    assert revised.balances
    assert clock.carried_ns == Fraction(2 * STEP_GRAINS + 15_000_000, 3)


def test_a_paused_frame_measures_nothing_and_its_lights_say_paused() -> None:
    clock = FixedStepScheduler(SchedulerSettings.at_hz(60))
    clock.pause()
    plan = clock.advance(16_000_000)
    assert plan.account == ConditioningAccount(0, 0, 0, 0)
    assert plan.indicators is INDICATORS[False, False, True]
    assert (plan.steps, plan.elapsed_ns, plan.balances) == (0, 16_000_000, True)
