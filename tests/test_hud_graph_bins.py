"""Binning the frame history into graph columns, and the graphs' y axis."""

from __future__ import annotations

from game.hud.graph_bins import axis_top, bin_frames
from game.session.history import FrameHistory, FrameSample


def history(*frames: tuple[float, int, float, bool]) -> FrameHistory:
    """Frames one after another from t = 0: (frame_ms, steps, dropped_ms, overloaded)."""
    recorded = FrameHistory()
    wall_s = 0.0
    for frame_ms, steps, dropped_ms, overloaded in frames:
        wall_s += frame_ms / 1000
        recorded.append(FrameSample(wall_s, frame_ms, steps, dropped_ms, 0, overloaded))
    return recorded


# Frame lengths below are whole binary fractions of a second (1/8, 1/64 s), so that frame ends
# fall exactly on bin edges where the test says they do.


def test_frames_as_long_as_a_bin_fill_one_bin_each() -> None:
    frames = [(125.0, i, 0.0, False) for i in range(8)]
    bins = bin_frames(history(*frames).window(1.0), seconds=1.0, count=8)
    assert bins.filled.all()
    assert bins.frame_ms.tolist() == [125.0] * 8
    assert bins.steps.tolist() == list(range(8))


def test_a_bin_shows_the_worst_of_the_short_frames_that_ended_in_it() -> None:
    short = (15.625, 1, 0.0, False)
    frames = [short] * 32 + [(31.25, 3, 5.0, True)] + [short] * 30
    bins = bin_frames(history(*frames).window(1.0), seconds=1.0, count=8)
    # The spike ran from 0.5 s to 0.53125 s: inside bin 4 (0.5 to 0.625 s).
    assert bins.frame_ms.tolist() == [15.625] * 4 + [31.25] + [15.625] * 3
    assert bins.steps.tolist() == [1] * 4 + [3] + [1] * 3
    assert bins.dropped_ms.tolist() == [0.0] * 4 + [5.0] + [0.0] * 3
    assert bins.overloaded.tolist() == [False] * 4 + [True] + [False] * 3


def test_a_long_frame_fills_every_bin_it_spans() -> None:
    frames = [(125.0, 1, 0.0, False)] * 3 + [(500.0, 24, 0.0, True)] + [(125.0, 1, 0.0, False)]
    bins = bin_frames(history(*frames).window(1.0), seconds=1.0, count=8)
    # The stall ran from 0.375 s to 0.875 s: bins 3, 4, 5 and 6.
    assert bins.frame_ms.tolist() == [125.0] * 3 + [500.0] * 4 + [125.0]
    assert bins.steps.tolist() == [1] * 3 + [24] * 4 + [1]
    assert bins.overloaded.tolist() == [False] * 3 + [True] * 4 + [False]


def test_bins_before_the_first_frame_are_empty() -> None:
    bins = bin_frames(history((100.0, 1, 0.0, False)).window(1.0), seconds=1.0, count=10)
    assert bins.filled.tolist() == [False] * 9 + [True]
    assert bins.frame_ms.tolist() == [0.0] * 9 + [100.0]


def test_bins_can_end_before_the_newest_frame_or_after_it() -> None:
    frames = [(125.0, i, 0.0, False) for i in range(8)]
    window = history(*frames).window(2.0)
    earlier = bin_frames(window, seconds=0.5, count=4, end=0.75)
    assert earlier.steps.tolist() == [2, 3, 4, 5]
    later = bin_frames(window, seconds=0.5, count=4, end=1.25)
    assert later.filled.tolist() == [True, True, False, False]
    assert later.steps.tolist() == [6, 7, 0, 0]


def test_no_history_gives_empty_bins() -> None:
    bins = bin_frames(FrameHistory().window(5.0), seconds=5.0, count=4)
    assert len(bins) == 4
    assert not bins.filled.any()


def test_the_axis_keeps_its_minimum_while_calm_and_grows_in_round_steps() -> None:
    assert axis_top(16.7, 50.0) == 50.0
    assert axis_top(50.0, 50.0) == 50.0
    assert axis_top(50.1, 50.0) == 100.0
    assert axis_top(87.3, 50.0) == 100.0
    assert axis_top(180.0, 50.0) == 200.0
    assert axis_top(380.5, 50.0) == 500.0
    assert axis_top(2_000.0, 50.0) == 2_000.0
    assert axis_top(2_001.0, 50.0) == 5_000.0
    assert axis_top(23.0, 10.0) == 50.0
