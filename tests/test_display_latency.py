"""The display's share of input-to-photon latency: exact headless, estimated live."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.clock.virtual import VirtualClock
from game.config.model import GameConfig
from game.display.latency import estimated_to_photons, frame_to_photons
from game.display.model import DisplaySettings, Presented, VirtualDisplay
from game.from_config import session_from
from game.workshop.runs.display_run import DisplayedFrames
from game.workshop.runs.runner import run_headless

MS = 1_000_000


def test_a_frame_s_road_to_the_photons_in_four_parts() -> None:
    # Started at 0, drawn by 3 ms, held by the pacer to 5 ms, blocked by the queue to 16 ms,
    # shown at the 33 ms vblank.
    presented = Presented(Fraction(5 * MS), Fraction(16 * MS), Fraction(33 * MS))
    latency = frame_to_photons(Fraction(0), Fraction(3 * MS), Fraction(5 * MS), presented)
    assert latency.parts() == {
        "render": 3 * MS,
        "pacer": 2 * MS,
        "queue": 11 * MS,
        "vblank": 17 * MS,
    }
    assert latency.total_ns == 33 * MS
    assert not latency.estimated


def test_times_out_of_order_are_refused() -> None:
    presented = Presented(Fraction(5 * MS), Fraction(5 * MS), Fraction(10 * MS))
    with pytest.raises(ValueError, match="in order"):
        frame_to_photons(Fraction(4 * MS), Fraction(3 * MS), Fraction(5 * MS), presented)


def test_the_live_estimate_says_it_is_one() -> None:
    latency = estimated_to_photons(3 * MS, 2 * MS, Fraction(60), vsync=True, queued_frames=1)
    assert latency.parts() == {
        "render": 3 * MS, "pacer": 2 * MS,
        "queue": Fraction(50 * MS, 3), "vblank": Fraction(25 * MS, 3),
    }  # fmt: skip
    assert latency.estimated


def test_a_vsynced_headless_run_records_every_frame_s_latency() -> None:
    # 60 Hz, queue of two, the loop uncapped with 2 ms of work: once the queue is full, every
    # frame is drawn in 2 ms, blocked until a vblank frees a slot, and shown two vblanks later.
    clock = VirtualClock(1000, 2 * MS)
    shown = DisplayedFrames(clock, VirtualDisplay(DisplaySettings()))
    session = session_from(GameConfig())
    run_headless(session, shown, until_ns=10**9, sink=shown.hearing(session))
    steady = shown.latencies[10]
    period = Fraction(50 * MS, 3)
    assert (steady.render_ns, steady.pacer_ns) == (2 * MS, 0)
    assert steady.queue_ns == period - 2 * MS
    assert steady.vblank_ns == 2 * period


def test_a_flip_leads_to_the_photons_of_the_frame_presented_then() -> None:
    # The input lab's latency ends at a flip; the display adds the wait to the vblank.
    clock = VirtualClock(1000, 2 * MS)
    shown = DisplayedFrames(clock, VirtualDisplay(DisplaySettings()))
    session = session_from(GameConfig())
    run_headless(session, shown, until_ns=10**9, sink=shown.hearing(session))
    road = shown.latencies[20]
    presented = shown.presented[20]
    flip = presented.ready_ns - 1
    assert shown.photon_ns(flip) == presented.shown_ns
    assert shown.photon_ns(presented.ready_ns) == presented.shown_ns
    assert road.total_ns == presented.shown_ns - (
        presented.ready_ns - road.render_ns - road.pacer_ns
    )
    assert shown.photon_ns(10**12) is None
