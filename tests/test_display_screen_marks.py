"""A screen you do not have, as marks: where a ball is shown at each refresh, exactly."""

from __future__ import annotations

from fractions import Fraction

from game.display.screen_marks import NO_MARKS, ScreenMarks, screen_marks


def test_a_frame_per_refresh_gives_even_marks_on_both_rows() -> None:
    refreshes = [0, 10, 20, 30]
    drawn = [100, 110, 120, 130]  # 100 ns of latency: not judder
    marks = screen_marks(refreshes, drawn, Fraction(1), 31)
    assert marks == ScreenMarks((0, 10, 20, 30), (0, 10, 20, 30), (0, 0, 0, 0))


def test_a_held_frame_stacks_and_the_next_one_jumps() -> None:
    # every frame shown for two refreshes: the ball stays, then moves twice as far
    marks = screen_marks([0, 10, 20, 30], [0, 0, 20, 20], Fraction(1), 31)
    assert marks.even_px == (0, 10, 20, 30)
    assert marks.shown_px == (5, 5, 25, 25)  # centred on the even row
    assert marks.stacked == (0, 1, 0, 1)


def test_60_hz_ticks_on_a_165_hz_screen_stack_by_three_and_jump_by_2_75_refreshes() -> None:
    # 165 Hz refreshes (1e9/165 ns, floored) showing 60 Hz ticks as they are: each refresh shows
    # the newest tick at or before it. A tick lasts 2.75 refreshes; at this phase the twelfth
    # refresh lands a third of a ns before the fifth tick, so the first four ticks hold three each
    period = Fraction(10**9, 165)
    refreshes = [int(k * period) for k in range(13)]
    tick = Fraction(10**9, 60)
    drawn = [int((r // tick) * tick) for r in refreshes]
    assert drawn[9:] == [50_000_000, 50_000_000, 50_000_000, 66_666_666]
    marks = screen_marks(refreshes, drawn, Fraction(1), 241)
    assert marks.even_px == tuple(range(0, 241, 20))  # 20 px a refresh: smooth
    assert marks.shown_px == (26, 26, 26, 81, 81, 81, 136, 136, 136, 191, 191, 191, 246)
    assert marks.stacked == (0, 1, 2) * 4 + (0,)  # held three refreshes, then 55 px on


def test_slow_motion_of_the_simulation_is_taken_out_of_the_drawn_time() -> None:
    # at a time scale of 1/2 the drawn (simulated) time moves half as fast as the wall
    marks = screen_marks([0, 10, 20, 30], [0, 5, 10, 15], Fraction(1, 2), 31)
    assert marks.shown_px == marks.even_px == (0, 10, 20, 30)


def test_too_few_refreshes_give_no_marks() -> None:
    assert screen_marks([5], [5], Fraction(1), 100) == NO_MARKS
    assert screen_marks([], [], Fraction(1), 100) == NO_MARKS
    assert screen_marks([5, 5], [5, 5], Fraction(1), 100) == NO_MARKS
