"""`CapturedClock`: the live loop paced to a capture's frames, on a `ManualClock`, exactly.

Each frame hands the scheduler the capture's length; the real clock is waited out to that
length; a frame the laptop drew too slowly is stretched (counted) while the plans stay the
capture's; at its end the capture plays again from its first frame.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from game.app.loop import GameLoop
from game.app.loop_options import LoopOptions
from game.app.window import Window
from game.clock.captured import CapturedClock
from game.clock.manual import ManualClock
from game.config.loading import load_config
from game.from_config import session_from

MS = 1_000_000
HITCH = (16_666_667, 16_666_666, 277 * MS, 16_666_667)


def captured(clock: ManualClock, *, loop: bool = True) -> CapturedClock:
    return CapturedClock(clock, lambda: HITCH, name="hitch.csv", count=len(HITCH), loop=loop)


def test_each_frame_lasts_its_captured_length_and_is_waited_out_on_the_real_clock() -> None:
    real = ManualClock()
    clock = captured(real)
    clock.start_frames()
    real.move_on(5 * MS)  # the frame's work
    assert clock.wait_out_frame() == 16_666_667 - 5 * MS
    assert real.now_ns() == 16_666_667
    assert clock.next_frame() == 16_666_667
    assert clock.wait_out_frame() == 16_666_666
    assert clock.next_frame() == 16_666_666
    assert real.slept_ns + real.spun_ns == 33_333_333 - 5 * MS  # slept, then spun the last ms
    assert (clock.end_ns, clock.stretched) == (33_333_333, 0)


def test_a_frame_longer_than_its_capture_is_stretched_and_counted_but_keeps_its_length() -> None:
    real = ManualClock()
    clock = captured(real)
    clock.start_frames()
    real.move_on(20 * MS)  # this laptop needs 20 ms a frame: the 16.7 ms frame is stretched
    assert clock.now_ns() == 16_666_667  # the capture's time never passes the frame's end
    assert clock.wait_out_frame() == 0
    assert clock.next_frame() == 16_666_667
    assert (clock.stretched, clock.stretched_ns) == (1, 20 * MS - 16_666_667)
    real.move_on(20 * MS)
    clock.wait_out_frame()
    assert clock.next_frame() == 16_666_666
    real.move_on(20 * MS)
    clock.wait_out_frame()  # the hitch: 277 ms in real time, the laptop's 20 ms and a wait
    assert clock.next_frame() == 277 * MS
    assert clock.stretched == 2
    assert clock.row_text() == "hitch.csv \N{MIDDLE DOT} 4/4 \N{MIDDLE DOT} stretched 2 (7 ms)"


def test_a_stall_lengthens_the_frame_in_flight() -> None:
    real = ManualClock()
    clock = captured(real)
    clock.start_frames()
    clock.block_ns(200 * MS)
    clock.wait_out_frame()
    assert clock.next_frame() == 216_666_667
    assert (real.blocked_ns, clock.stretched) == (200 * MS, 0)


def test_at_its_end_the_capture_plays_again_or_stops() -> None:
    looping, once = captured(ManualClock()), captured(ManualClock(), loop=False)
    assert [looping.next_frame() for _ in range(6)] == [*HITCH, *HITCH[:2]]
    assert (looping.passes, looping.position) == (2, 3)
    assert "round 2" in looping.row_text()
    assert [once.next_frame() for _ in range(5)] == [*HITCH, None]


def test_no_frame_is_begun_past_until_ns() -> None:
    clock = captured(ManualClock())
    assert clock.next_frame(until_ns=20 * MS) == 16_666_667
    assert clock.next_frame(until_ns=20 * MS) is None
    assert clock.end_ns == 16_666_667


@pytest.fixture(scope="module")
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.mark.usefixtures("_pygame")
def test_the_game_loop_plans_the_captures_frames_in_both_lanes_and_names_it_on_the_hud() -> None:
    config = load_config(None, ["render.width=640", "render.height=360"])
    window = Window(640, 360, fullscreen=False, vsync=False)
    real = ManualClock()
    options = LoopOptions(print_hash=False)
    session = session_from(config)
    pygame.event.clear()
    loop = GameLoop(session, window, captured(real, loop=False), options)
    loop.warm_up()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=0, unicode=""))
    plans = []
    while loop.run_frame():
        plans.append(loop.last_plans)
    assert [lane_plans[0].elapsed_ns for lane_plans in plans] == list(HITCH)
    assert [len(lane_plans) for lane_plans in plans] == [2, 2, 2, 2]  # V: both lanes, same frames
    assert [lane_plans[1].elapsed_ns for lane_plans in plans] == list(HITCH)
    hitch = plans[2][0]  # drop: 277 ms and the carried remainder are 17 steps; it runs M = 5
    assert (hitch.steps, hitch.dropped_steps, hitch.dropped_ns) == (5, 12, 200 * MS)
    assert loop.readout().capture.startswith("hitch.csv \N{MIDDLE DOT} 4/4")


def test_a_long_frame_is_waited_out_in_slices_and_a_quit_ends_the_wait_at_once() -> None:
    """A 30 s frame (a loading screen): the wait sleeps 50 ms at a time and asks the loop after
    each slice; once it says the game is quitting (a stop signal, the close button), the wait
    ends there, not 30 s later."""
    real = ManualClock()
    clock = CapturedClock(real, lambda: (30_000 * MS, 16 * MS), name="load.csv", count=2)
    clock.start_frames()
    asked: list[int] = []

    def between() -> bool:
        asked.append(real.now_ns())
        return len(asked) == 3

    assert clock.wait_out_frame(between) == 150 * MS
    assert asked == [50 * MS, 100 * MS, 150 * MS]
    assert clock.wait_out_frame(lambda: False) == 30_000 * MS - 150 * MS
    assert (real.sleeps, real.spun_ns) == (3 + 597, 1 * MS)  # the last slice, less the spun ms
    assert clock.next_frame() == 30_000 * MS  # the capture's length all the same
