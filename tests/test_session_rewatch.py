"""The rewatch (W): the last 2 s of drawn frames, in a bounded ring, rewatched 10x slower
with the live session paused, so that no time is billed while the room watches."""

from __future__ import annotations

from game.session.controls import Controls, ControlsChange
from game.session.rewatch import (
    CLIP_NS,
    RING_FRAMES,
    DrawnFrame,
    Rewatch,
    clip_of,
)
from game.session.session import LabSession
from game.world.world import demo_world
from tests.helpers import ms
from tests.test_hud_stats import READOUT

VIEW = demo_world().view()


def drawn(*at_ms: int, lanes: int = 1) -> tuple[DrawnFrame, ...]:
    return tuple(DrawnFrame(ms(at), (VIEW,) * lanes, READOUT) for at in at_ms)


def test_ring_frames_is_two_seconds_at_the_highest_render_cap() -> None:
    assert RING_FRAMES == 480  # 2 s at 240 fps
    rewatch = Rewatch()
    for frame in drawn(*range(0, 5_000, 5)):
        rewatch.keep(frame)
    assert (rewatch.capacity, rewatch.frames_kept) == (480, 480)


def test_a_clip_is_the_last_two_seconds_of_pictures_before_w() -> None:
    clip = clip_of(drawn(*range(0, 3_001, 10)), ms(3_010), lanes=1)
    assert len(clip) == 200
    assert (clip[0].frame.at_ns, clip[0].ago_ns, clip[-1].held_ns) == (ms(1_010), ms(2_000), ms(10))
    assert sum(entry.shown_ns for entry in clip) == CLIP_NS


def test_a_stall_is_held_for_at_most_100_ms_of_the_clip() -> None:
    frames = drawn(*range(0, 1_001, 10), *range(3_000, 3_101, 10))
    clip = clip_of(frames, ms(3_110), lanes=1)
    stalled = next(entry for entry in clip if entry.frame.at_ns == ms(1_000))
    assert (stalled.held_ns, stalled.shown_ns) == (ms(2_000), ms(100))
    assert (len(clip), clip[0].ago_ns) == (112, ms(3_110))  # all of it: 1.21 s once shown
    assert sum(entry.shown_ns for entry in clip) == ms(1_210)


def test_a_clip_stops_where_the_screen_was_split_or_joined() -> None:
    frames = drawn(0, 10, 20, lanes=1) + drawn(30, 40, lanes=2)
    assert [entry.frame.at_ns for entry in clip_of(frames, ms(50), lanes=2)] == [ms(30), ms(40)]


def test_w_pauses_the_session_and_the_end_of_the_clip_resumes_it() -> None:
    session = LabSession(Controls(), demo_world)
    rewatch = Rewatch()
    for frame in drawn(0, 10, 20):
        rewatch.keep(frame)
    assert rewatch.start(ms(30), session) is None
    assert rewatch.playing and session.controls.paused
    shown = rewatch.readout()
    assert shown is not None and shown.caption == "REWATCH x1/10 (W: back to live): 0.03 s before W"
    rewatch.keep(drawn(40)[0])  # the rewatch is not recorded
    assert rewatch.frames_kept == 3
    rewatch.advance(ms(299), session)  # 30 ms of pictures take 300 ms at 1/10 speed
    assert rewatch.playing
    rewatch.advance(ms(1), session)
    assert not rewatch.playing and not session.controls.paused
    assert session.lanes[0].books.scaled_ns == 0  # no time was billed: nothing ran


def test_a_session_paused_before_the_replay_stays_paused_after_it() -> None:
    session = LabSession(Controls(), demo_world)
    session.change(ControlsChange(paused=True))
    rewatch = Rewatch()
    rewatch.keep(drawn(0)[0])
    rewatch.start(ms(10), session)
    rewatch.stop(session)
    assert session.controls.paused and rewatch.frames_kept == 0


def test_nothing_drawn_yet_is_nothing_to_rewatch() -> None:
    session = LabSession(Controls(), demo_world)
    assert Rewatch().start(0, session) == "nothing to rewatch yet"
    assert not session.controls.paused
