"""The rewatch (W): the last 2 s of drawn frames, in a bounded ring, rewatched 10x slower
with the live session paused, so that no time is billed while the room watches; from the first
strained frame in them, a catch-up frame's ticks one by one, the graphs as they stood then."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from game.session.controls import Controls, ControlsChange
from game.session.history import FrameHistory, FrameSample
from game.session.rewatch import (
    CLIP_NS,
    FILMED_PER_STRAIN,
    FILMS_KEPT,
    LABEL,
    MAX_FILMED_TICKS,
    RING_FRAMES,
    SLOWDOWN,
    TICK_SHOT_NS,
    ClipFrame,
    DrawnFrame,
    Rewatch,
    clip_of,
)
from game.session.session import LabSession
from game.world.world import demo_world
from tests.helpers import ms
from tests.test_hud_stats import READOUT
from timestep_lab import NS_PER_SECOND

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


# --- the moment: from the first strained frame, a catch-up's ticks one by one, the graphs then ---

STEP_60_HZ = Fraction(NS_PER_SECOND, 60)


class Played:
    """A session played frame by frame as the loop plays it, each picture kept for W."""

    def __init__(self, *policies: str) -> None:
        self.session = LabSession(Controls(policies=policies), demo_world)
        self.rewatch = Rewatch()
        self.now_ns = 0

    def frame(self, elapsed_ns: int) -> None:
        self.now_ns += elapsed_ns
        frame = self.session.begin(elapsed_ns)
        while frame.next_tick():
            self.rewatch.after_tick(frame, self.session.lanes)
        frame.finish()
        lanes = self.session.lane_readouts()
        views = tuple(lane.world.view() for lane in self.session.lanes)
        shown = dataclasses.replace(READOUT, lanes=lanes)
        self.rewatch.keep(DrawnFrame.of(self.now_ns, views, shown, self.session))

    def frames(self, count: int, elapsed_ns: int = round(STEP_60_HZ)) -> None:
        for _ in range(count):
            self.frame(elapsed_ns)

    def clip(self) -> tuple[ClipFrame, ...]:
        return clip_of(tuple(self.rewatch._ring), self.now_ns + ms(10), len(self.session.lanes))


def test_w_starts_at_the_first_strained_frame_not_two_seconds_before_it() -> None:
    game = Played("clamp")
    game.frames(60)
    game.frame(ms(2_000))  # a 2 s stall: clamp counts F = 250 ms of it, 15 ticks, drops the rest
    stall_ends = game.now_ns
    game.frames(30)
    clip = game.clip()
    assert clip[0].frame.at_ns == stall_ends and clip[0].frame.strained
    assert [shot.tick for shot in clip[:17]] == [*range(1, 16), 0, 0]
    assert clip[15].frame.readout.lanes[0].steps == 15
    assert len(clip) == 15 + 31  # the stall's ticks, its picture, the 30 frames after it


def test_with_no_strained_frame_w_starts_two_seconds_back() -> None:
    game = Played("clamp")
    game.frames(150)
    clip = game.clip()
    assert not any(shot.frame.strained or shot.tick for shot in clip)
    assert len(clip) == 120  # the last 10 ms before W, and 119 frames of 16.667 ms before it
    assert clip[0].ago_ns == ms(10) + 119 * round(STEP_60_HZ) <= CLIP_NS


def test_clamps_15_tick_frame_is_shown_tick_by_tick_each_labelled() -> None:
    game = Played("clamp")
    game.frames(10)
    before = game.session.lanes[0].world.tick
    game.frame(ms(2_000))
    game.frames(5)
    assert game.rewatch.start(game.now_ns + ms(10), game.session) is None
    captions, ticks = [], []
    for _ in range(16):
        shown = game.rewatch.readout()
        showing = game.rewatch.showing()
        assert shown is not None and showing is not None
        captions.append(shown.caption)
        ticks.append(showing.views[0].tick)
        game.rewatch.advance(SLOWDOWN * TICK_SHOT_NS, game.session)
    assert ms(20) == TICK_SHOT_NS  # 0.2 s a tick on screen: 15 ticks in 3 s
    ago = f"{LABEL}: 0.09 s before W"
    assert captions[:3] == [f"{ago}, tick 1 of 15", f"{ago}, tick 2 of 15", f"{ago}, tick 3 of 15"]
    assert captions[14] == f"{ago}, tick 15 of 15"
    assert captions[15] == ago  # then the picture the frame drew
    assert ticks == [before + n for n in range(1, 16)] + [before + 15]


def test_in_split_screen_each_lane_counts_its_own_ticks() -> None:
    game = Played("drop", "clamp")
    game.frames(10)
    game.frame(ms(2_000))
    shots = [shot for shot in game.clip() if shot.tick]
    assert len(shots) == 15
    assert shots[6].tick_label() == "lane 1 tick 5 of 5, lane 2 tick 7 of 15"
    lane_1, lane_2 = shots[6].views
    assert (lane_1.tick, lane_2.tick) == (shots[4].views[0].tick, shots[0].views[1].tick + 6)


def test_the_first_four_strained_frames_in_a_row_are_filmed() -> None:
    game = Played("drop")
    game.frames(10)
    game.frames(6, ms(200))  # 12 ticks owed each time, 5 run: strained, six times in a row
    game.frames(3, ms(34))  # 2 ticks a frame: calm
    game.frame(ms(200))  # a new strain
    filmed = [len(frame.ticks[0]) if frame.ticks else 0 for frame in game.rewatch._ring]
    assert FILMED_PER_STRAIN == 4
    assert filmed == [0] * 10 + [5, 5, 5, 5, 0, 0] + [0, 0, 0] + [5]


def test_a_frame_of_more_than_30_ticks_is_not_filmed() -> None:
    game = Played("uncapped")
    game.frames(10)
    game.frame(ms(600))  # 36 ticks
    assert MAX_FILMED_TICKS == 30
    assert [frame.ticks for frame in game.rewatch._ring][-1] == ()


def test_the_ring_keeps_the_last_sixteen_films() -> None:
    rewatch = Rewatch()
    for at in range(18):
        rewatch.keep(DrawnFrame(ms(at), (VIEW,), READOUT, strained=True, ticks=((VIEW, VIEW),)))
    assert FILMS_KEPT == 16
    assert [bool(frame.ticks) for frame in rewatch._ring] == [False] * 2 + [True] * 16


def test_the_graphs_and_the_hud_show_the_same_frame_of_the_rewatch() -> None:
    game = Played("clamp")
    game.frames(30)
    game.frame(ms(2_000))
    game.frames(20)
    assert game.rewatch.start(game.now_ns + ms(10), game.session) is None
    seen = []
    while game.rewatch.playing:
        shown, (history,) = game.rewatch.readout(), game.rewatch.histories()
        assert shown is not None
        newest = history.latest(1)
        lane = shown.lanes[0]
        seen.append((lane.wall_time_s, lane.steps))
        assert (history.newest_wall_s, int(newest.steps[0])) == (lane.wall_time_s, lane.steps)
        game.frames(1)  # the live game goes on, paused: its history grows meanwhile
        game.rewatch.advance(ms(50), game.session)
    assert seen[0][1] == 15 and len({wall for wall, _ in seen}) == 21  # every frame was seen


def test_a_history_as_of_a_past_frame_holds_what_the_ring_still_has_of_it() -> None:
    history = FrameHistory(capacity=4)
    for n in range(10):
        history.append(FrameSample(float(n), 16.7, n, 0.0, 0, False))
    then = history.as_of(8)  # frames 4 and 5 were written over by 8 and 9
    assert list(then.latest(4).wall_s) == [6.0, 7.0]
    assert (then.appended, then.newest_wall_s) == (2, 7.0)
    kept = history.copy()
    history.append(FrameSample(10.0, 16.7, 10, 0.0, 0, False))
    assert list(kept.latest(4).wall_s) == [6.0, 7.0, 8.0, 9.0]
