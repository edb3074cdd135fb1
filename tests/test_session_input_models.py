"""The five input models as worked examples: presses in, what each tick acted on out.

60 Hz ticks (a step of 16,666,666 2/3 ns). Each example feeds key edges with their wall times
between frames, plays frames of a given length, and reads the counters and the avatar orders
the session stamped for each tick.
"""

from dataclasses import replace
from fractions import Fraction

import pytest

from game.config.model import GameConfig
from game.from_config import session_from
from game.session.input_models import FrameWindow
from game.session.session import LabSession
from game.world.avatar import AvatarInput
from game.world.orders import Order

MS = 1_000_000


class Played:
    """A session with one input model, and the avatar orders it stamped."""

    def __init__(self, model: str) -> None:
        self.orders: list[AvatarInput] = []
        self.session: LabSession = session_from(GameConfig(), on_order=self._heard)
        self.session.set_controls(replace(self.session.controls, input_models=(model, "latched")))
        self.now = 0

    def _heard(self, lane_index: int, order: Order) -> None:
        if isinstance(order, AvatarInput) and lane_index == 0:
            self.orders.append(order)

    def tap(self, at_ms: float, button: str = "jump", hold_ms: float = 1) -> None:
        self.session.inputs.edge(button, True, int(at_ms * MS))
        self.session.inputs.edge(button, False, int((at_ms + hold_ms) * MS))

    def frame(self, ms: float) -> int:
        """Play a frame of `ms`; returns the ticks it ran."""
        self.now += int(ms * MS)
        plan = self.session.play_frame(int(ms * MS))[0]
        self.session.inputs.flipped(self.now)
        return plan.steps

    @property
    def counts(self) -> tuple[int, int, int, int, int]:
        c = self.session.inputs.lanes[0].counts
        return c.presses, c.seen, c.lost, c.doubled, c.merged

    def jumps(self) -> list[tuple[int, int]]:
        return [(c.tick, c.jumps) for c in self.orders if c.jumps]


def test_frame_edge_loses_a_tap_read_by_a_frame_that_runs_no_tick() -> None:
    played = Played("frame-edge")
    played.tap(3)
    assert played.frame(7) == 0  # the flag is set for this frame, and no tick sees it
    assert played.counts == (1, 0, 1, 0, 0)
    assert played.jumps() == []


def test_frame_edge_doubles_a_tap_read_by_a_frame_that_runs_two_ticks() -> None:
    played = Played("frame-edge")
    played.tap(3)
    assert played.frame(34) == 2
    assert played.counts == (1, 0, 0, 1, 0)
    assert played.jumps() == [(0, 1), (1, 1)]  # both ticks jumped: twice as high


def test_frame_edge_merges_two_taps_of_one_frame_into_one_flag() -> None:
    played = Played("frame-edge")
    played.tap(2)
    played.tap(6)
    assert played.frame(17) == 1
    assert played.counts == (2, 1, 0, 0, 1)


def test_tick_poll_loses_a_tap_released_before_a_tick_reads_it() -> None:
    played = Played("tick-poll")
    played.tap(2, hold_ms=3)
    assert played.frame(17) == 1
    assert played.counts == (1, 0, 1, 0, 0)


def test_tick_poll_acts_once_on_a_key_held_across_two_ticks() -> None:
    played = Played("tick-poll")
    played.session.inputs.edge("jump", True, 2 * MS)
    assert played.frame(34) == 2
    assert played.counts == (1, 1, 0, 0, 0)
    assert played.jumps() == [(0, 1)]


def test_latched_keeps_a_tap_until_a_tick_takes_it_and_merges_two() -> None:
    played = Played("latched")
    played.tap(2)
    assert played.frame(7) == 0
    assert played.counts == (1, 0, 0, 0, 0)  # pending, not lost
    played.tap(9)
    assert played.frame(10) == 1
    assert played.counts == (2, 1, 0, 0, 1)
    assert played.jumps() == [(0, 1)]


def test_counted_hands_a_tick_every_press_since_the_last() -> None:
    played = Played("counted")
    played.tap(2)
    played.tap(9)
    assert played.frame(17) == 1
    assert played.counts == (2, 2, 0, 0, 0)
    assert played.jumps() == [(0, 2)]


def test_stamped_puts_each_press_on_the_tick_its_instant_falls_in() -> None:
    played = Played("stamped")
    played.tap(10)  # in tick 0's span, [0, 16.67) ms
    played.tap(20)  # in tick 1's span
    assert played.frame(25) == 1
    assert played.jumps() == [(0, 1)]
    assert played.counts == (2, 1, 0, 0, 0)  # tick 1 has not run yet
    assert played.frame(10) == 1
    assert played.jumps() == [(0, 1), (1, 1)]


def test_a_stamp_is_the_same_tick_at_any_frame_rate() -> None:
    step = Fraction(50 * MS, 3)
    window = FrameWindow(
        now_ns=25 * MS, next_tick=0, end_tick=1, carried_ns=25 * MS - step,
        step_ns=step, time_scale=Fraction(1),
    )  # fmt: skip
    assert window.tick_of(10 * MS) == (0, Fraction(10 * MS))
    assert window.tick_of(20 * MS) == (1, 20 * MS - step)
    assert window.tick_of(-5 * MS) == (0, 0)  # a tick already run is not re-stamped


def test_run_held_is_one_command_when_it_changes_not_one_per_tick() -> None:
    played = Played("latched")
    played.session.inputs.edge("right", True, 1 * MS)
    played.frame(50)
    played.session.inputs.edge("right", False, 55 * MS)
    played.frame(17)
    assert [(c.tick, c.run) for c in played.orders] == [(0, 1), (3, 0)]


def test_the_latency_of_a_press_is_its_wait_the_interpolation_and_the_flip() -> None:
    played = Played("latched")
    played.tap(2)
    played.frame(20)  # the tick runs at 20 ms; 3.33 ms of a step is carried
    readout = played.session.inputs.readouts()[0]
    assert readout.last_latency is not None
    assert readout.last_latency.wait_ns == 18 * MS
    assert readout.last_latency.interpolation_ns == 13_333_333  # (1 - alpha) of a step
    assert readout.last_latency.present_ns == 0  # flipped the moment the frame began


def test_changing_the_model_starts_its_counters_afresh() -> None:
    played = Played("frame-edge")
    played.tap(2)
    played.frame(7)
    assert played.counts[2] == 1
    played.session.set_controls(
        replace(played.session.controls, input_models=("counted", "latched"))
    )
    assert played.counts == (0, 0, 0, 0, 0)


def test_an_unknown_button_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown button 'fire'"):
        Played("latched").session.inputs.edge("fire", True, 0)
