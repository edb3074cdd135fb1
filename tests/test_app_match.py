"""The game's own refusals in a match (`game.app.dispatcher`): the rewind, the rewatch and the
window losing focus, each of which would pause or rewind one world and not the other.

The loop plays a match over an in-memory wire whose far end no one plays (the refusals are the
app's; `test_match_udp.py` plays real ones), on a manual clock.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from game.app.loop import GameLoop
from game.clock.manual import ManualClock
from game.network.settings import NetworkSettings
from game.session.match_rules import refusal
from game.session.rollback import Rollback
from game.session.sides import MatchSides
from tests.helpers import game_loop
from tests.test_match_refusals import Wire


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture
def loop() -> GameLoop:
    """The game, hosting a match (its first avatar is ours), 30 frames in."""
    built = game_loop(clock=ManualClock(), warm_up=False, lessons=False)
    world = built.session.lanes[0].world
    world.add_joiner()
    sides = MatchSides(host=True, input_delay=0)
    built.session.connect(Rollback.matched(world, NetworkSettings(), Wire(), sides, 8))
    built.warm_up()
    for _ in range(30):
        built.run_frame()
    return built


def said(loop: GameLoop) -> str:
    return loop.dispatcher.message.at(loop.clock.now_ns())


def post(kind: int, **values: int | str) -> None:
    pygame.event.post(pygame.event.Event(kind, values))


def test_the_rewind_key_is_refused_and_the_world_goes_on(loop: GameLoop) -> None:
    world = loop.session.lanes[0].world
    post(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="")
    before = world.tick
    loop.run_frame()
    assert said(loop) == refusal("rewind")
    assert not loop.dispatcher.rewind.held and world.tick >= before


def test_the_rewatch_is_refused_for_it_would_pause(loop: GameLoop) -> None:
    post(pygame.KEYDOWN, key=pygame.K_w, mod=0, unicode="")
    loop.run_frame()
    assert said(loop) == refusal("the rewatch's pause")
    assert not loop.rewatch.playing and not loop.session.paused


def test_losing_the_window_s_focus_does_not_pause_a_match(loop: GameLoop) -> None:
    post(pygame.WINDOWFOCUSLOST)
    loop.run_frame()
    assert not loop.session.wanted_controls.paused
    assert said(loop) == ""
