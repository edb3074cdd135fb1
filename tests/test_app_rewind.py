"""The rewind key, held in the real loop: time runs backwards, the books stay exact.

The loop is driven frame by frame on the dummy video driver with a `ManualClock`, as in
test_app_loop.py: at the default 144 fps cap a frame is 1/144 s, and at 60 Hz each tick is
50,000,000/3 ns, so held for a time T the world goes back exactly floor(T / step) ticks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import pygame
import pytest

from game.app.loop import GameLoop
from game.clock.manual import ManualClock
from game.session.lane import Lane
from game.session.rewind import REFUSED_WHILE_RECORDING, REWIND_TICKS, UNTIL_RELEASED
from tests.helpers import game_loop

STEP_NS = Fraction(50_000_000, 3)

LoopFactory = Callable[..., GameLoop]


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture
def make_loop(tmp_path: Path) -> LoopFactory:
    def build(*overrides: str, recording: bool = False) -> GameLoop:
        return game_loop(
            *overrides, clock=ManualClock(), screenshot_dir=tmp_path / "shots", lessons=False,
            on_order=(lambda lane, order: None) if recording else None,
        )  # fmt: skip

    return build


def backspace(down: bool) -> None:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    pygame.event.post(pygame.event.Event(kind, key=pygame.K_BACKSPACE, mod=0, unicode=""))


def books_agree(lane: Lane) -> bool:
    """Every frame balanced, the run balances, and the world's tick is what the books say."""
    books = lane.books
    return (
        books.ledger_ok
        and lane.scheduler.last_plan is not None
        and lane.scheduler.last_plan.balances
        and lane.world.tick == books.ticks - books.rewound_ticks
    )


def test_holding_backspace_runs_time_backwards_and_the_books_say_how_far(
    make_loop: LoopFactory,
) -> None:
    loop = make_loop()
    lane = loop.session.lanes[0]
    for _ in range(2 + 288):  # the pacer's first frame, then 2 s: 120 ticks
        loop.run_frame()
    start_tick, start_hash, paused_before = lane.world.tick, lane.world.state_hash(), 0
    assert (start_tick, lane.books.paused_ns) == (120, paused_before)
    backspace(down=True)
    for frame in range(1, 73):  # held for half a second of frames
        loop.run_frame()
        held_ns = lane.books.paused_ns  # each held frame is paused time, on the books
        back = int(held_ns // STEP_NS)
        assert loop.session.paused
        assert lane.world.tick == start_tick - back
        assert lane.books.rewound_ticks == back
        assert lane.rewind_alpha == float(start_tick - held_ns / STEP_NS - (lane.world.tick - 1))
        assert books_agree(lane), frame
    assert lane.books.paused_ns == 500 * 1_000_000  # 72 frames of 1/144 s
    assert (lane.world.tick, lane.books.rewound_ticks) == (90, 30)
    assert (
        loop.readout().caption == f"REWIND x1 to tick 90: 30 ticks (500 ms) back; {UNTIL_RELEASED}"
    )
    backspace(down=False)
    loop.run_frame()
    assert not loop.session.paused and lane.rewind_alpha is None
    assert loop.readout().caption == "rewound 30 ticks (500 ms): on from tick 90"
    while lane.world.tick < start_tick:  # the same ticks again, with the same (no) inputs
        loop.run_frame()
        assert books_agree(lane)
    assert lane.world.tick == start_tick
    assert lane.world.state_hash() == start_hash
    assert lane.books.ticks == 150  # 120 + the 30 run again


@pytest.mark.slow
def test_the_rewind_stops_at_the_oldest_tick_saved(make_loop: LoopFactory) -> None:
    loop = make_loop("scheduler.hz=120")
    lane = loop.session.lanes[0]
    for _ in range(1_000):  # about 6.9 s at 120 Hz: more ticks than the ring keeps
        loop.run_frame()
    assert lane.snapshots is not None and len(lane.snapshots) == REWIND_TICKS
    start_tick = lane.world.tick
    backspace(down=True)
    for _ in range(1_000):
        loop.run_frame()
        assert books_agree(lane)
    # The ring holds the tick the rewind started from and the 599 before it.
    assert lane.world.tick == lane.snapshots.oldest_tick == start_tick - (REWIND_TICKS - 1)
    assert lane.rewind_alpha == 1.0
    backspace(down=False)
    loop.run_frame()
    assert books_agree(lane)


def test_split_screen_rewinds_both_lanes_together(make_loop: LoopFactory) -> None:
    loop = make_loop()
    for _ in range(144):
        loop.run_frame()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=0, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_3, mod=0, unicode=""))
    for _ in range(144):
        loop.run_frame()
    first, second = loop.session.lanes
    ticks = (first.world.tick, second.world.tick)
    backspace(down=True)
    for _ in range(72):
        loop.run_frame()
        assert books_agree(first) and books_agree(second)
    assert (first.world.tick, second.world.tick) == (ticks[0] - 30, ticks[1] - 30)
    caption = loop.readout().caption
    assert "lane 1 30 ticks (500 ms), lane 2 30 ticks (500 ms)" in caption
    backspace(down=False)
    loop.run_frame()
    assert not loop.session.paused


def test_other_keys_wait_while_the_rewind_key_is_held(make_loop: LoopFactory) -> None:
    loop = make_loop()
    for _ in range(10):
        loop.run_frame()
    backspace(down=True)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1, mod=0, unicode=""))
    loop.run_frame()
    assert loop.session.controls.policies == ("drop",)
    assert loop.readout().caption == f"REWIND x1 to tick 3: 0 ticks (0 ms) back; {UNTIL_RELEASED}"


def test_the_rewind_is_refused_while_recording(make_loop: LoopFactory) -> None:
    loop = make_loop(recording=True)
    for _ in range(144):
        loop.run_frame()
    tick = loop.session.lanes[0].world.tick
    backspace(down=True)
    for _ in range(30):
        loop.run_frame()
    assert loop.session.lanes[0].world.tick > tick
    assert not loop.session.paused
    assert loop.readout().caption == REFUSED_WHILE_RECORDING
