"""The frame-edge formula, checked against counted taps on the whole grid, exactly.

A tap pressed during frame k is read when frame k+1 starts and every tick of frame k+1 acts on
it: lost when that frame runs no tick, doubled when it runs two or more. One tap in the middle
of every frame of a steady run must therefore be lost, seen or doubled exactly as often as the
frames run 0, 1 or 2+ ticks, for every tick rate and render rate of the table in docs/input.md.
"""

from fractions import Fraction

import pytest

from game.vocabulary import TICK_RATES
from game.workshop.tables.frame_edge import (
    GRID_FPS,
    frame_edge_shares,
    grid_run,
    grid_table,
    one_tap_per_frame,
)

GRID = [(hz, fps) for hz in TICK_RATES for fps in GRID_FPS]


@pytest.mark.parametrize(("hz", "fps"), GRID, ids=[f"{h}Hz-{f}fps" for h, f in GRID])
def test_frame_edge_loses_and_doubles_exactly_what_the_formula_says(hz: Fraction, fps: int) -> None:
    frames = grid_run(hz, fps, seconds=2).frames
    taps = one_tap_per_frame(frames)
    run = grid_run(hz, fps, taps, seconds=2)
    assert [f.plan.steps for f in run.frames] == [f.plan.steps for f in frames]  # same frames
    steps = [frame.plan.steps for frame in frames]
    assert run.inputs.presses == len(frames)
    assert run.inputs.lost == steps.count(0)
    assert run.inputs.seen == steps.count(1)
    assert run.inputs.doubled == sum(1 for n in steps if n >= 2)
    assert run.inputs.merged == 0


@pytest.mark.parametrize("model", ["counted", "stamped"])
@pytest.mark.parametrize(("hz", "fps"), [(Fraction(30), 144), (Fraction(60), 30)])
def test_counted_and_stamped_see_every_tap_once(model: str, hz: Fraction, fps: int) -> None:
    frames = grid_run(hz, fps, seconds=2).frames
    run = grid_run(hz, fps, one_tap_per_frame(frames), model, seconds=2)
    counts = run.inputs
    assert (counts.presses, counts.lost, counts.doubled, counts.merged) == (len(frames), 0, 0, 0)
    assert counts.pending <= 6  # only the taps of the last tick's span still wait for a tick


def test_latched_loses_and_doubles_nothing_but_merges_taps_within_one_tick() -> None:
    frames = grid_run(Fraction(30), 144, seconds=2).frames
    run = grid_run(Fraction(30), 144, one_tap_per_frame(frames), "latched", seconds=2)
    ticks_that_took_taps = sum(1 for f in frames[1:] if f.plan.steps)  # frame 1 read no tap
    counts = run.inputs
    assert (counts.lost, counts.doubled) == (0, 0)
    assert counts.seen == ticks_that_took_taps
    assert counts.merged == len(frames) - ticks_that_took_taps - counts.pending


def test_tick_poll_never_doubles_and_loses_only_taps_between_two_ticks() -> None:
    frames = grid_run(Fraction(60), 30, seconds=2).frames
    held = grid_run(Fraction(60), 30, one_tap_per_frame(frames, 20_000_000), "tick-poll", seconds=2)
    # Held 20 ms from the middle of a 33 ms frame: down when the next frame's two ticks run, and
    # acted on once. Only the first tap is lost: the half-step stall makes frame 1 41.7 ms long,
    # so its tap is down and up again before the boundary reads it.
    assert (held.inputs.seen, held.inputs.lost, held.inputs.doubled) == (len(frames) - 1, 1, 0)
    instant = grid_run(Fraction(60), 30, one_tap_per_frame(frames), "tick-poll", seconds=2)
    assert instant.inputs.lost == instant.inputs.presses == len(frames)  # never down at a tick


def test_the_shares_in_the_issue_thirty_hertz_at_144_fps_and_sixty_at_30() -> None:
    lost, doubled = frame_edge_shares(grid_run(Fraction(30), 144).frames[1:])
    assert abs(lost - Fraction(19, 24)) < Fraction(1, 1000) and doubled == 0
    # 19 of every 24 frames run no tick: about three taps in four are lost (to the table's
    # precision: the run is not a whole number of 24-frame periods)
    lost, doubled = frame_edge_shares(grid_run(Fraction(60), 30).frames[1:])
    assert (lost, doubled) == (0, 1)  # every frame runs two ticks: every tap doubles


@pytest.mark.slow
def test_the_input_page_holds_the_table_the_command_prints() -> None:
    from tests.test_readme import page

    assert grid_table() in page("input")
