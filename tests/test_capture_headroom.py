"""Headroom: the added step cost at which a policy stops keeping up with a capture's frames."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from game.workshop.captures.headroom import (
    RESOLUTION_NS,
    LoadedCaptureFrames,
    find_headroom,
    heaviest_stretch,
)
from timestep_lab import NOTHING_RAN, FrameRan, SchedulerSettings

MS = 1_000_000


def test_a_frame_under_load_lasts_its_captured_time_plus_the_ticks_before_it() -> None:
    source = LoadedCaptureFrames([10 * MS, 7 * MS, 5 * MS])
    assert source.next_frame(NOTHING_RAN) == 10 * MS
    assert source.next_frame(FrameRan(3, 2 * MS)) == 13 * MS
    assert source.next_frame(FrameRan(1, 2 * MS), until_ns=20 * MS) is None  # 23 + 7 > 20
    assert source.next_frame(FrameRan(0, 2 * MS)) == 5 * MS
    assert (source.next_frame(NOTHING_RAN), source.end_ns) == (None, 28 * MS)


@pytest.mark.parametrize("policy", ["uncapped", "clamp", "drop", "reset", "backlog"])
def test_steady_frames_meet_the_frontiers_step_cost(policy: str) -> None:
    """Steady 10 ms frames at 60 Hz with M = 5: K = 5 ticks pay for themselves while
    10 + 5 c <= 5 h, so c* = h - 10 / 5 = 44/3 ms (`game.workshop.sweep.frontier`). Every
    fixed-step policy strains once more than M ticks are due, so each finds it, to within the
    1% of frames it may strain on, and the runs on each side say so."""
    found = find_headroom(
        np.full(600, 10 * MS, np.int64), SchedulerSettings.at_hz(60, policy=policy)
    )
    assert found.below is not None and found.above is not None
    assert found.below.keeps_up and not found.above.keeps_up
    assert found.above.step_cost_ns == found.below.step_cost_ns + RESOLUTION_NS
    assert found.headroom_ns is not None
    assert abs(found.headroom_ns - Fraction(44 * MS, 3)) <= 5 * RESOLUTION_NS


def test_variable_runs_out_of_room_when_a_frame_is_due_more_than_m_steps() -> None:
    """One tick a frame costs c: a 10 ms frame then lasts 10 + c, strained once it holds more
    than M = 5 steps (the scheduler's light): at 10 + c >= 6 h = 100 ms."""
    found = find_headroom(
        np.full(600, 10 * MS, np.int64), SchedulerSettings.at_hz(60, policy="variable")
    )
    assert found.headroom_ns == 90 * MS - RESOLUTION_NS


def test_the_heaviest_stretch_is_the_frames_that_last_longest_together() -> None:
    frames = np.array([5, 5, 9, 1, 8, 8, 2], np.int64)
    assert heaviest_stretch(frames, 2).tolist() == [8, 8]
    assert heaviest_stretch(frames, 3).tolist() == [5, 5, 9]  # 19 against 18, 18, 17, 18
    assert heaviest_stretch(frames, 10).tolist() == frames.tolist()


def test_at_half_speed_a_tick_may_cost_twice_as_much() -> None:
    """At a time scale R = 1/2 a tick simulates h of game time in h / R of wall time: c* =
    h / R - 10 ms / 5 = 94/3 ms (31.333 ms). Above it the frames owe a tick more only every
    so often, half as often as at full speed, so 600 frames strain on their 1% a little further
    above it: 31.41 ms."""
    settings = SchedulerSettings.at_hz(60, policy="drop", time_scale=Fraction(1, 2))
    found = find_headroom(np.full(600, 10 * MS, np.int64), settings)
    assert found.headroom_ns is not None
    assert found.headroom_ns == 31_410_000
    assert 0 <= found.headroom_ns - Fraction(94 * MS, 3) <= 10 * RESOLUTION_NS
