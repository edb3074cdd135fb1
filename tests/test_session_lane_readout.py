"""The HUD's lane figures: each float is the exact value divided once, as a `Fraction` gives it.

`LaneReadouts` divides numerators and denominators instead of building `Fraction`s; these
worked examples run lanes under awkward exact settings (7 Hz, a time scale of 1/3, dropped and
carried time, a pause, restarted books) and compare every figure with the `Fraction` formula.
"""

from fractions import Fraction

from game.session.frame import Frame
from game.session.lane import Lane
from game.session.lane_readout import LaneReadouts, over
from game.world.world import demo_world
from tests.helpers import ms
from timestep_lab import NS_PER_MS, NS_PER_SECOND, SchedulerSettings


def ms_of(exact: Fraction | int) -> float:
    return float(Fraction(exact) / NS_PER_MS)


def played(lane: Lane, *frames_ns: int) -> Lane:
    for elapsed_ns in frames_ns:
        frame = Frame([lane], elapsed_ns, on_finish=lambda frame: None)
        while frame.next_tick():
            pass
        frame.finish()
    return lane


def test_over_is_the_float_of_the_exact_quotient() -> None:
    for exact in (Fraction(50_000_000, 3), Fraction(1, 7), 123_456_789, Fraction(-5, 3), 0):
        assert over(exact, NS_PER_MS) == float(Fraction(exact) / NS_PER_MS)
    assert over(Fraction(10**30 + 1, 3), NS_PER_SECOND) == float(Fraction(10**30 + 1, 3) / 10**9)


def test_every_figure_is_the_fraction_formula_at_7_hz_and_a_third_of_the_speed() -> None:
    settings = SchedulerSettings.at_hz(7, max_steps=2, time_scale=Fraction(1, 3))
    lane = played(Lane(settings, demo_world()), ms(25), ms(900), ms(3), ms(1_333))
    shown = LaneReadouts().of(lane, focused=False)
    books, plan = lane.books, lane.scheduler.last_plan
    assert plan is not None and books.dropped_ns > 0
    assert shown.hz == float(Fraction(7)) == 7.0
    assert shown.step_ms == ms_of(settings.step_ns)
    assert (shown.max_frame_ms, shown.max_backlog_ms) == (250.0, 1000.0)
    assert shown.remainder_ms == ms_of(plan.remainder_ns)
    assert shown.dt_ms == ms_of(plan.dt_ns)
    assert shown.dropped_frame_ms == ms_of(plan.dropped_ns)
    assert shown.dropped_total_ms == ms_of(books.dropped_ns)
    assert shown.lag_ms == ms_of(lane.lag_ns)
    assert shown.sim_time_s == float(books.sim_time_ns / NS_PER_SECOND)
    assert shown.owed_time_s == float((books.scaled_ns + books.granted_ns) / NS_PER_SECOND)
    assert shown.time_scale == "1/3"


def test_restarted_books_and_single_steps_while_paused_read_the_same_way() -> None:
    lane = played(Lane(SchedulerSettings.at_hz(60), demo_world()), ms(40), ms(17))
    lane.restart_books()
    lane.scheduler.pause()
    lane.single_step()
    played(lane, ms(10))
    shown = LaneReadouts().of(lane, focused=True)
    books = lane.books
    assert books.granted_ns == Fraction(50_000_000, 3)
    assert shown.owed_time_s == float((books.scaled_ns + books.granted_ns) / NS_PER_SECOND)
    assert shown.sim_time_s == float(books.sim_time_ns / NS_PER_SECOND) == 1 / 60
    assert (shown.paused, shown.focused) == (True, True)


def test_the_settings_figures_are_worked_out_again_when_the_settings_change() -> None:
    readouts = LaneReadouts()
    lane = Lane(SchedulerSettings.at_hz(60), demo_world())
    assert readouts.of(lane, focused=False).hz == 60.0
    lane.scheduler.reconfigure(SchedulerSettings.at_hz(144))
    assert readouts.of(lane, focused=False).hz == 144.0
    assert readouts.figures(lane.scheduler.settings) is readouts.figures(lane.scheduler.settings)
