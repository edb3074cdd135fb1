"""The DISPLAY group's "to photons" row, driven end to end: real key events through the real loop.

The loop runs on the dummy video driver with a `ManualClock`, so every time below is exact:

    50 Hz ticks (20 ms steps), each costing 1 ms of CPU (a busy wait: the clock moves)
    the render rate uncapped, and 7 ms between a frame's flip and the next frame's start
    a 1920 x 1080 window, where the panel has room for every DISPLAY row

So the frames start at 0, 7, 14, 21 (one tick), 29, 36, 43 (one tick), 51, ... 88, 95, 102 (one
tick), 110 ms: about 140 fps, and most frames run no tick. A frame reads its keys as it starts,
and flips once its ticks have run (nothing else moves the clock). What the HUD drew is taken from
the stats panel itself: the DISPLAY group it built for each frame's picture.

The row's text is the input lab's press-to-flip latency (wait for the tick, interpolation, tick to
flip) plus the display's expected share (`estimated_to_photons`: half a refresh to the scan-out,
one refresh more per queued frame with vsync), marked "(est.)".
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import pygame
import pytest

import game.hud.panel
from game.app.loop import GameLoop
from game.clock.manual import ManualClock
from game.display.latency import estimated_to_photons
from game.hud.display_rows import display_group
from game.hud.rows import Group
from game.session.readout import Readout
from tests.helpers import game_loop
from timestep_lab import NS_PER_MS

MS = NS_PER_MS
STEP_NS = 20 * MS
GAP_NS = 7 * MS
"""From a frame's flip to the next frame's start (the pacer is uncapped: it waits for nothing)."""
SCENE = (
    "scheduler.hz=50",
    "load.step_cost_ms=1",
    "render.fps_cap=0",
    "render.width=1920",
    "render.height=1080",
)
FRAMES = 18
PRESS_FRAME = 12
"""Starts at 88 ms and runs no tick; neither does the next (95 ms); the one after (102 ms) does."""

Edge = tuple[int, int]
"""A pygame event type (KEYDOWN or KEYUP) and its key."""
UP_DOWN: Edge = (pygame.KEYDOWN, pygame.K_UP)
UP_UP: Edge = (pygame.KEYUP, pygame.K_UP)
TAP_AT_PRESS_FRAME: Mapping[int, Sequence[Edge]] = {
    PRESS_FRAME: (UP_DOWN,),
    PRESS_FRAME + 1: (UP_UP,),
}
"""Up (jump) held for 7 ms, from 88 to 95 ms: a tap shorter than a tick."""


@dataclass(frozen=True, slots=True)
class Drawn:
    """One frame, as the manual clock saw it and as its HUD drew the "to photons" row."""

    start_ns: int
    """When the frame began (and read its keys)."""
    ticks: int
    flip_ns: int
    to_photons: str | None
    """The row's cell in the frame's picture (drawn before its flip); None: no row yet."""


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture
def panels(monkeypatch: pytest.MonkeyPatch) -> list[Group]:
    """Every DISPLAY group the stats panel builds, in order (the panel's own call, spied on)."""
    built: list[Group] = []

    def spy(readout: Readout) -> Group:
        group = display_group(readout)
        built.append(group)
        return group

    monkeypatch.setattr(game.hud.panel, "display_group", spy)
    return built


def desktop_reports(monkeypatch: pytest.MonkeyPatch, rates: list[int]) -> None:
    """What pygame-ce will say the monitors' refresh rates are (0: it could not tell)."""
    monkeypatch.setattr(pygame.display, "get_desktop_refresh_rates", lambda: rates)


def cell(group: Group, label: str) -> str | None:
    for row in group.rows:
        if row.label == label:
            (only,) = row.cells
            return only.text
    return None


def play(
    panels: list[Group], *overrides: str, keys: Mapping[int, Sequence[Edge]]
) -> tuple[GameLoop, list[Drawn]]:
    """`FRAMES` frames of the real loop, posting `keys[n]` just before frame n reads its events."""
    clock = ManualClock()
    loop = game_loop(*SCENE, *overrides, clock=clock)
    frames = []
    for number in range(FRAMES):
        start = clock.now_ns()
        for kind, key in keys.get(number, ()):
            pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode=""))
        loop.run_frame()
        # Uncapped, nothing moves the clock after the flip: the clock reads the flip time.
        ticks = loop.last_plans[0].steps
        frames.append(Drawn(start, ticks, clock.now_ns(), cell(panels[-1], "to photons")))
        clock.move_on(GAP_NS)
    return loop, frames


def latched_tap(panels: list[Group], *, vsync: bool) -> tuple[GameLoop, list[Drawn]]:
    """The 7 ms tap at 88 ms under the `latched` model, with vsync asked for or not."""
    vsync_setting = f"render.vsync={'true' if vsync else 'false'}"
    loop, frames = play(panels, "input.model=latched", vsync_setting, keys=TAP_AT_PRESS_FRAME)
    assert loop.window.vsync_active is vsync  # the window did what the config asked
    return loop, frames


def on_screen(loop: GameLoop) -> tuple[str, ...]:
    """The rows the stats panel found room for, by label."""
    return loop.hud.parts_at(loop.hud.scale).panel.labels


def shown_ms(text: str) -> Decimal:
    """The number in a "~N.N ms (est.)" cell."""
    assert text.startswith("~") and text.endswith(" ms (est.)"), text
    return Decimal(text.removeprefix("~").removesuffix(" ms (est.)"))


@pytest.mark.filterwarnings("ignore:no fast renderer available")  # SDL's dummy driver, vsync on
@pytest.mark.parametrize(("vsync", "text"), [(False, "~41.3 ms (est.)"), (True, "~58.0 ms (est.)")])
def test_a_latched_press_shows_its_latency_plus_the_guessed_display_share_once_flipped(
    monkeypatch: pytest.MonkeyPatch, panels: list[Group], vsync: bool, text: str
) -> None:
    # The press is read at 88 ms by a frame that runs no tick; `latched` keeps it for the tick
    # of the 102 ms frame, which flips at 103 ms; the picture after that flip shows the row.
    desktop_reports(monkeypatch, [0])  # a virtual X server: the game guesses 60 Hz
    loop, frames = latched_tap(panels, vsync=vsync)
    assert cell(panels[-1], "refresh") == "60 Hz (guess)"
    assert "to photons" in on_screen(loop)

    press = frames[PRESS_FRAME]
    consumer = next(frame for frame in frames[PRESS_FRAME:] if frame.ticks)
    assert (press.start_ns, consumer.start_ns, consumer.flip_ns) == (88 * MS, 102 * MS, 103 * MS)
    wait = consumer.start_ns - press.start_ns
    # The clock's 0 is the scheduler's: with nothing dropped, the remainder after the 102 ms
    # frame is 102 mod 20 = 2 ms, and the interpolated picture is the other 18 ms of a step
    # behind the tick that jumped.
    interpolation = STEP_NS - consumer.start_ns % STEP_NS
    to_flip = consumer.flip_ns - consumer.start_ns
    display = estimated_to_photons(0, 0, Fraction(60), vsync=vsync, queued_frames=int(vsync))
    total = wait + interpolation + to_flip + display.total_ns
    assert f"~{float(total) / 1e6:.1f} ms (est.)" == text

    shown = frames.index(consumer) + 1
    assert [frame.to_photons for frame in frames[PRESS_FRAME - 1 :]] == (
        ["-"] * (shown - PRESS_FRAME + 1) + [text] * (FRAMES - shown)
    )
    drawn = frames[-1].to_photons
    assert drawn is not None and drawn.endswith(" (est.)")


def test_a_tap_the_frame_edge_model_loses_shows_a_dash_not_the_previous_press(
    monkeypatch: pytest.MonkeyPatch, panels: list[Group]
) -> None:
    # frame-edge: the first tap is read at 43 ms by a frame that runs a tick (seen: 0 wait,
    # 17 ms of interpolation, 1 ms to the flip, 8.3 ms to the 60 Hz scan-out). The second is
    # read at 88 ms by a frame that runs no tick: its just-pressed flag is cleared unseen, the
    # press is lost when that frame ends, before its picture is drawn.
    desktop_reports(monkeypatch, [0])
    keys = {6: (UP_DOWN,), 7: (UP_UP,), **TAP_AT_PRESS_FRAME}
    loop, frames = play(panels, "input.model=frame-edge", keys=keys)
    assert (frames[6].ticks, frames[PRESS_FRAME].ticks) == (1, 0)
    counts = loop.session.inputs.readouts()[0].counts
    assert (counts.presses, counts.seen, counts.lost) == (2, 1, 1)

    cells = [frame.to_photons for frame in frames]
    assert cells[6:] == ["-"] + ["~26.3 ms (est.)"] * 5 + ["-"] * (FRAMES - PRESS_FRAME)


@pytest.mark.filterwarnings("ignore:no fast renderer available")
def test_vsync_adds_exactly_one_refresh_for_the_queued_frame(
    monkeypatch: pytest.MonkeyPatch, panels: list[Group]
) -> None:
    # A 100 Hz display, read from pygame: the same press costs 33 ms to the flip (14 + 18 + 1),
    # then half a refresh (5 ms) to the scan-out; with vsync, one queued frame more (10 ms).
    desktop_reports(monkeypatch, [100])
    shown: dict[bool, str | None] = {}
    for vsync in (False, True):
        _, frames = latched_tap(panels, vsync=vsync)
        assert cell(panels[-1], "refresh") == "100 Hz"
        shown[vsync] = frames[-1].to_photons
    assert shown == {False: "~38.0 ms (est.)", True: "~48.0 ms (est.)"}

    queued = estimated_to_photons(0, 0, Fraction(100), vsync=True, queued_frames=1).queue_ns
    assert queued == 10 * MS  # one refresh of 100 Hz
    with_vsync, without = (shown_ms(shown[vsync] or "") for vsync in (True, False))
    assert (with_vsync - without) * MS == queued
