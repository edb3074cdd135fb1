"""Open-loop runs of a capture's frames: every frame exactly as `FixedStepScheduler` plans it.

`run_open_loop` computes stretches of plain frames all at once and hands the rest to the
policy's `allot`; these tests hold it to the scheduler itself, frame by frame, and to the
ledger's equation on every frame.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from game.workshop.captures.open_loop import Grain, run_open_loop
from timestep_lab import POLICIES, FixedStepScheduler, SchedulerSettings

MS = 1_000_000


def _game_with_hitches(count: int, seed: int) -> list[int]:
    """Frames of 1 to 20 ms, and one in ten a hitch of 20 to 300 ms."""
    rng = random.Random(seed)
    return [
        rng.randint(20 * MS, 300 * MS) if rng.random() < 0.1 else rng.randint(MS, 20 * MS)
        for _ in range(count)
    ]


def _same_as_the_scheduler(elapsed: list[int], settings: SchedulerSettings) -> None:
    run = run_open_loop(np.array(elapsed, dtype=np.int64), settings)
    scheduler = FixedStepScheduler(settings)
    per_ns = run.grain.per_ns
    for index, length in enumerate(elapsed):
        plan = scheduler.advance(length)
        assert (int(run.steps[index]), Fraction(int(run.dropped[index]), per_ns)) == (
            plan.steps,
            plan.dropped_ns,
        ), f"frame {index}"
        assert Fraction(int(run.carried[index]), per_ns) == plan.carried_out_ns, f"frame {index}"
        assert Fraction(int(run.dt[index]), per_ns) == plan.dt_ns, f"frame {index}"


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("hz", [Fraction(60), Fraction(144), Fraction(5994, 100), Fraction(13)])
def test_every_frame_is_planned_as_the_scheduler_plans_it(policy: str, hz: Fraction) -> None:
    settings = SchedulerSettings.at_hz(
        hz, policy=policy, max_frame_ns=Fraction(100 * MS), max_backlog_ns=Fraction(200 * MS)
    )
    _same_as_the_scheduler(_game_with_hitches(1_500, seed=int(hz)), settings)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_a_time_scale_and_a_cap_of_one_step(policy: str) -> None:
    settings = SchedulerSettings.at_hz(
        60, policy=policy, time_scale=Fraction(1, 3), max_steps=1, max_backlog_ns=Fraction(0)
    )
    _same_as_the_scheduler(_game_with_hitches(800, seed=7), settings)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_sums_too_large_for_int64_run_in_python_ints(policy: str) -> None:
    """Hour-long frames at 59.94 Hz: the running sum in grains passes 2**62."""
    hour = 3_600_000 * MS
    settings = SchedulerSettings.at_hz(
        Fraction(5994, 100), policy=policy, max_frame_ns=Fraction(hour), max_steps=10_000
    )
    elapsed = [hour - 1, 7 * MS, hour, hour // 3, 1] * 300
    assert sum(elapsed) * Grain.of(settings).scale > 2**62
    run = run_open_loop(np.array(elapsed, dtype=np.int64), settings)
    assert run.steps.dtype == object
    _same_as_the_scheduler(elapsed, settings)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_every_frame_balances(policy: str) -> None:
    settings = SchedulerSettings.at_hz(144, policy=policy)
    run = run_open_loop(np.array(_game_with_hitches(5_000, seed=3), np.int64), settings)
    assert run.balances().all()
    assert len(run.balances()) == 5_000


def test_a_plain_frame_runs_every_whole_step_and_carries_the_rest_under_every_fixed_policy() -> (
    None
):
    """The fact the stretches rest on: carried c < h, time x < M h and x <= F."""
    limits = Grain.of(SchedulerSettings.at_hz(60, max_frame_ns=Fraction(40 * MS))).limits
    h, plain = limits.step, 0
    rng = random.Random(5)
    for _ in range(20_000):
        carried, time = (
            rng.randrange(h),
            rng.randrange(min(limits.max_steps * h, limits.max_frame + 1)),
        )
        for policy in ("uncapped", "clamp", "drop", "reset", "backlog"):
            whole, rest = divmod(carried + time, h)
            assert tuple(POLICIES[policy].allot(carried, time, limits)) == (whole, h, 0, rest)
            plain += 1
    assert plain == 100_000


def test_a_hitch_under_drop_worked_through() -> None:
    """At 60 Hz (h = 50/3 ms), M = 5: 10 ms (carried), then a 100 ms hitch (with the 10 ms,
    110 ms: 6 steps and 10 ms; 5 run, 1 dropped, 10 ms carried), then 10 ms (20 ms: 1 step,
    10/3 ms carried)."""
    settings = SchedulerSettings.at_hz(60, policy="drop")
    run = run_open_loop(np.array([10 * MS, 100 * MS, 10 * MS], np.int64), settings)
    assert run.steps.tolist() == [0, 5, 1]
    assert [Fraction(int(d), run.grain.per_ns) for d in run.dropped] == [0, Fraction(50 * MS, 3), 0]
    assert [Fraction(int(c), run.grain.per_ns) for c in run.carried] == [
        10 * MS, 10 * MS, Fraction(10 * MS, 3)
    ]  # fmt: skip


@pytest.mark.parametrize("policy", ["drop", "backlog", "uncapped"])
def test_plain_frames_are_the_same_in_blocks_of_any_size(
    policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The plain frames are worked out a block at a time (to hold a few arrays of a block, not
    # of the capture); a block boundary inside a stretch, or between two, changes nothing.
    import game.workshop.captures.open_loop as open_loop

    settings = SchedulerSettings.at_hz(60, policy=policy)
    elapsed = np.array(_game_with_hitches(3_000, seed=5), dtype=np.int64)
    whole = run_open_loop(elapsed, settings)
    monkeypatch.setattr(open_loop, "BLOCK", 7)
    blocks = run_open_loop(elapsed, settings)
    for name in ("steps", "dropped", "carried"):
        assert getattr(blocks, name).tolist() == getattr(whole, name).tolist(), name
    assert blocks.balances().all()
