"""Delta-time conditioning: worked examples per mode, and a day of frames on the books.

Each mode moves measured time between frames through one account, the conditioning carry, and
every frame balances with `==`: carry in + measured == counted + carry out.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction

import pytest

from game.scheduler.carry_bounds import carry_bound, vsync_frames
from tests.helpers import ms
from timestep_lab import (
    CONDITIONERS,
    NS_PER_SECOND,
    FixedStepScheduler,
    SchedulerSettings,
    TimeBooks,
    hz_to_step_ns,
)

H60 = hz_to_step_ns(60)


def run(
    mode: str, frames_ms: list[str], initial_ms: str = "0", **settings: object
) -> list[tuple[int, int, int]]:
    """(steps, counted ns, carry ns) per frame at 60 Hz, 60 Hz refresh."""
    scheduler = FixedStepScheduler(
        SchedulerSettings(conditioning=mode, **settings),  # type: ignore[arg-type]
        initial_remainder_ns=ms(initial_ms),
    )
    rows = []
    for frame in frames_ms:
        plan = scheduler.advance(ms(frame))
        assert plan.balances
        rows.append((plan.steps, plan.counted_ns, plan.conditioning_carry_ns))
    return rows


def test_raw_counts_what_was_measured() -> None:
    assert run("raw", ["16.9", "16.4"]) == [(1, 16_900_000, 0), (0, 16_400_000, 0)]


def test_snap_counts_whole_refresh_periods_and_carries_the_difference() -> None:
    # Glaiel's case: vsynced frames measured around 16.667 ms all count one period: one tick
    # each, where raw runs 1, 0 and 2. A 25 ms frame is 1.5 periods: not snapped, counted whole
    # with the carry, which empties the account.
    assert run("snap", ["16.9", "16.4", "17", "25"]) == [
        (1, 16_666_667, 233_333),
        (1, 16_666_667, -33_334),
        (1, 16_666_666, 300_000),
        (1, 25_300_000, 0),
    ]
    assert [steps for steps, _, _ in run("raw", ["16.9", "16.4", "17"])] == [1, 0, 2]


def test_snap_on_the_exact_grid_runs_one_tick_per_vblank() -> None:
    # Three vblanks at 60 Hz are 50 ms exactly; the counts are whole ns, rounded up on the grid.
    rows = run("snap", ["16.666666", "16.666667", "16.666667"])
    assert [steps for steps, _, _ in rows] == [1, 1, 1]
    assert sum(counted for _, counted, _ in rows) == 50_000_000


def test_average_spreads_a_stall_over_n_frames_and_carries_the_unaveraged_part() -> None:
    rows = run("average", ["10", "10", "10", "50", "10", "10", "10", "10"], step_ns=ms(10))
    assert [counted for _, counted, _ in rows] == [
        2_500_000, 5_000_000, 7_500_000, 20_000_000, 20_000_000, 20_000_000, 20_000_000,
        10_000_000,
    ]  # fmt: skip
    # The account holds what the window has not counted: 3/4, 2/4, 1/4 of the last three.
    assert rows[-1][2] == 15_000_000


def test_godot_keeps_one_tick_a_frame_and_pays_the_time_back() -> None:
    # 0.5 ms carried in (0.501 ms after three frames of 16.667): a 15.9 ms frame would run no
    # tick; the jitter fix counts 0.266 ms more so that it runs one, as the frames before did,
    # and the next frame pays it back.
    rows = run("godot", ["16.667", "16.667", "16.667", "15.9", "17.4"], initial_ms="0.5")
    assert [steps for steps, _, _ in rows] == [1, 1, 1, 1, 1]
    assert rows[3] == (1, 16_165_667, -265_667)
    assert rows[4] == (1, 17_134_333, 0)
    assert [steps for steps, _, _ in run("raw", ["16.667"] * 3 + ["15.9"], "0.5")][-1] == 0


def test_godot_moves_at_most_jitter_fix_steps() -> None:
    # 9 ms after 0.5 ms carried is 7.17 ms short of a tick, within half a step (8.33 ms):
    # moved. 7 ms is 9.17 ms short: too far, it runs no tick and moves nothing.
    moved = run("godot", ["16.667", "16.667", "9"], initial_ms="0.5")[-1]
    assert moved == (1, 16_166_000, -7_166_000)
    assert run("godot", ["16.667", "16.667", "7"], initial_ms="0.5")[-1] == (0, 7_000_000, 0)


def test_switching_mode_keeps_the_account_and_raw_pays_it_back() -> None:
    scheduler = FixedStepScheduler(SchedulerSettings(conditioning="snap"))
    books = TimeBooks()
    books.record(scheduler.advance(ms("16.9")))
    assert scheduler.conditioning_carry_ns == 233_333
    scheduler.reconfigure(SchedulerSettings(conditioning="raw"))
    plan = scheduler.advance(ms("16.667"))
    books.record(plan)
    assert (plan.counted_ns, plan.conditioning_carry_ns) == (16_900_333, 0)
    assert books.ledger_ok


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(CONDITIONERS))
def test_a_day_of_frames_balances_every_frame_and_the_account_stays_bounded(mode: str) -> None:
    # 24 h of wall time, kept fast by scaling the whole picture down 60 times: a display at
    # 1 Hz and a 1.001 Hz tick (60.06 Hz on 60 Hz), 86,400 frames; the wake-up noise is up to 2%
    # of a frame and every 3,600th frame stalls for 5 s. The rules are the same at any scale.
    settings = SchedulerSettings(
        step_ns=hz_to_step_ns(Fraction(1001, 1000)),
        max_frame_ns=Fraction(10 * NS_PER_SECOND),
        conditioning=mode,
        refresh_ns=hz_to_step_ns(1),
        snap_tolerance_ns=Fraction(60_000_000),
    )
    scheduler = FixedStepScheduler(settings)
    books = TimeBooks()
    recent: deque[int] = deque(maxlen=settings.average_frames - 1)
    worst = 0
    for measured in vsync_frames(Fraction(1), 86_400, 20_000_000, 3_600, 5 * NS_PER_SECOND):
        plan = scheduler.advance(measured)
        recent.append(measured)
        assert plan.balances
        books.record(plan)
        carry = abs(plan.conditioning_carry_ns)
        assert carry <= carry_bound(mode, settings, recent)
        worst = max(worst, carry)
    assert books.ledger_ok
    assert books.wall_ns - books.paused_ns == books.counted_ns + books.conditioning_carry_ns
    assert books.wall_ns >= 86_400 * NS_PER_SECOND
    if mode != "raw":
        assert worst > 0  # the account was used, not bypassed


@pytest.mark.slow
def test_snap_and_godot_steady_the_ticks_of_a_jittery_59_94_hz_display() -> None:
    # Ten minutes at 59.94 Hz with up to 1 ms of wake-up noise, 60 Hz ticks: raw runs 0 or 2
    # ticks in many frames while the phase crosses a tick boundary; snap and godot hardly any.
    uneven = {}
    for mode in ("raw", "snap", "godot"):
        scheduler = FixedStepScheduler(
            SchedulerSettings(conditioning=mode, refresh_ns=hz_to_step_ns(Fraction("59.94")))
        )
        steps = [
            scheduler.advance(measured).steps
            for measured in vsync_frames(Fraction("59.94"), 600, 1_000_000, 10**9, 0)
        ]
        uneven[mode] = sum(1 for count in steps if count != 1)
    assert uneven["raw"] > 10 * uneven["snap"]
    assert uneven["raw"] > 10 * uneven["godot"]
