"""The remote peer in the real loop: `;` connects, `'` steps the latency, rollback's ticks cost
real work, the rewind is refused, split screen runs without the peer.

The loop runs frame by frame on the dummy video driver with a `ManualClock` (as in
test_app_loop.py), at the default 144 fps cap and 60 Hz, with the step cost at 2 ms. The clock
below tells the loop's own busy waits (the ticks' work) from the pacer's (waiting for the
frame's deadline), so the work can be checked to the nanosecond.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pygame
import pytest

from game.app.loop import GameLoop
from game.clock.manual import ManualClock
from game.clock.wall import Clock
from game.session.rewind import REFUSED_ONLINE
from tests.helpers import game_loop

COST_NS = 2_000_000


class WorkClock(ManualClock):
    """A manual clock that adds up the busy waits made outside the pacer: the ticks' work."""

    def __init__(self) -> None:
        super().__init__()
        self.work_ns = 0
        self.pacing = False

    def busy_wait_ns(self, ns: int) -> None:
        if not self.pacing:
            self.work_ns += ns
        super().busy_wait_ns(ns)


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture
def loop(tmp_path: Path) -> GameLoop:
    clock = WorkClock()
    built = game_loop(
        "load.step_cost_ms=2", clock=clock, screenshot_dir=tmp_path / "shots", warm_up=False,
        lessons=False,
    )  # fmt: skip
    wait = built.pacer.wait

    def pacing(on: Clock) -> int:
        clock.pacing = True
        try:
            return wait(on)
        finally:
            clock.pacing = False

    built.pacer.wait = pacing  # type: ignore[method-assign, assignment]
    built.warm_up()
    return built


def press(key: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))


def frames(loop: GameLoop, count: int) -> None:
    for _ in range(count):
        loop.run_frame()


@pytest.mark.slow
def test_the_network_key_connects_lane_0_and_every_rerun_tick_costs_a_step(
    loop: GameLoop,
) -> None:
    session, clock = loop.session, loop.clock
    assert isinstance(clock, WorkClock)
    frames(loop, 100)
    assert (session.rollback, loop.readout().network) == (None, None)  # no NETWORK rows
    press(pygame.K_SEMICOLON)
    frames(loop, 1)
    rollback = session.rollback
    assert rollback is not None
    assert (rollback.origin, rollback.settings.latency_ns) == (40, 100_000_000)
    lane = session.lanes[0]
    ticks_before, work_before = lane.books.ticks, clock.work_ns
    frames(loop, 1440)  # 10 s at 144 fps
    new_ticks = lane.books.ticks - ticks_before
    totals = rollback.totals
    assert (new_ticks, totals.resimulated_ticks, totals.max_depth) == (611, 168, 7)
    assert (totals.prediction_misses, totals.window_stalls, totals.desyncs) == (24, 0, 0)
    assert clock.work_ns - work_before == (new_ticks + totals.resimulated_ticks) * COST_NS
    assert lane.books.ledger_ok
    shown = loop.readout().network
    assert shown is not None
    assert (shown.resimulated_total, shown.max_depth, shown.misses) == (168, 7, 24)
    assert len(shown.depths) == 24


def test_the_latency_key_connects_again_from_the_tick_the_world_is_at(loop: GameLoop) -> None:
    session = loop.session
    press(pygame.K_SEMICOLON)
    frames(loop, 60)
    first, tick = session.rollback, session.lanes[0].world.tick
    press(pygame.K_QUOTE)  # read before the next frame begins: connected at `tick`
    frames(loop, 1)
    second = session.rollback
    assert first is not None and second is not None and second is not first
    assert (second.settings.latency_ns, second.origin) == (125_000_000, tick)
    press(pygame.K_QUOTE, pygame.KMOD_SHIFT)
    press(pygame.K_QUOTE, pygame.KMOD_SHIFT)
    frames(loop, 1)
    assert session.controls.latency_ms == Fraction(75)
    press(pygame.K_SEMICOLON)
    frames(loop, 1)
    assert session.rollback is None


def test_the_rewind_is_refused_against_a_remote_peer(loop: GameLoop) -> None:
    session = loop.session
    press(pygame.K_SEMICOLON)
    frames(loop, 150)
    tick = session.lanes[0].world.tick
    press(pygame.K_BACKSPACE)
    frames(loop, 1)
    assert loop.dispatcher.message.at(loop.clock.now_ns()) == REFUSED_ONLINE
    assert not loop.dispatcher.rewind.held
    frames(loop, 72)
    assert session.lanes[0].world.tick == tick + 31  # 73 frames of 1/144 s on: forward


def test_split_screen_runs_without_the_peer_and_brings_it_back(loop: GameLoop) -> None:
    session = loop.session
    press(pygame.K_SEMICOLON)
    frames(loop, 10)
    assert session.rollback is not None
    press(pygame.K_v)
    frames(loop, 10)
    assert (len(session.lanes), session.rollback) == (2, None)
    press(pygame.K_v)
    frames(loop, 1)
    assert len(session.lanes) == 1
    assert session.rollback is not None
