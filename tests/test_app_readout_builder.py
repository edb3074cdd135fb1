"""The HUD's readout: built once for each picture, in `ReadoutBuilder`, and drawn as built.

The real loop on a `ManualClock` and the dummy video driver, so every figure is exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from game.app.caption import MESSAGE_NS, StatusMessage
from game.clock.manual import ManualClock
from game.hud.hud import Hud
from game.session.readout import Readout
from tests.helpers import game_loop

MS = 1_000_000


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def test_a_message_stays_up_for_three_seconds_of_the_loops_clock() -> None:
    message = StatusMessage()
    assert message.at(0) == ""
    message.say("stalled the loop for 200 ms", now_ns=5 * MS)
    assert MESSAGE_NS == 3_000 * MS
    assert message.at(5 * MS + MESSAGE_NS - 1) == "stalled the loop for 200 ms"
    assert message.at(5 * MS + MESSAGE_NS) == ""


def test_each_frame_builds_one_readout_and_the_hud_paints_that_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = ManualClock()
    loop = game_loop(clock=clock)
    built: list[Readout] = []
    drawn: list[Readout] = []
    build = Readout.__init__
    paint = Hud.paint

    def counting(readout: Readout, *args: Any, **kwargs: Any) -> None:
        build(readout, *args, **kwargs)
        built.append(readout)

    def seen(hud: Hud, surface: pygame.Surface, readout: Readout, *args: Any, **kw: Any) -> None:
        drawn.append(readout)
        paint(hud, surface, readout, *args, **kw)

    monkeypatch.setattr(Readout, "__init__", counting)
    monkeypatch.setattr(Hud, "paint", seen)
    for _ in range(5):
        loop.run_frame()
        clock.move_on(10 * MS)
    assert len(built) == len(drawn) == 5
    assert all(made is shown for made, shown in zip(built, drawn, strict=True))


def test_the_readout_carries_the_live_judder_meters_display_rows() -> None:
    clock = ManualClock()
    loop = game_loop(clock=clock)
    for _ in range(3):
        loop.run_frame()
        clock.move_on(10 * MS)
    readout = loop.readout()
    assert readout.display is not None
    assert readout.display is loop.picture.judder.readout
    assert (readout.display.refresh_hz, len(readout.display.lanes)) == (60.0, 1)
