"""The virtual display: vblanks, the present queue, tearing and VRR, exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.display.model import DisplaySettings, VirtualDisplay

P60 = Fraction(50_000_000, 3)  # one refresh at 60 Hz, ns


def test_a_frame_waits_for_the_next_vblank() -> None:
    # The loop starts at phase 0: vblanks at P, 2P, 3P... A frame ready at 5 ms shows at P.
    display = VirtualDisplay(DisplaySettings(phase=Fraction(0)))
    shown = display.present(Fraction(5_000_000))
    assert (shown.resumed_ns, shown.shown_ns) == (5_000_000, P60)
    assert shown.waited_ns == P60 - 5_000_000


def test_a_full_queue_blocks_until_the_oldest_frame_is_shown() -> None:
    # Queue depth 2: two frames ready at 1 and 2 ms are queued for P and 2P; the third blocks
    # until P (the first goes on screen, a slot frees) and is shown at 3P.
    display = VirtualDisplay(DisplaySettings(phase=Fraction(0), queue_depth=2))
    first, second, third = (display.present(Fraction(ms * 1_000_000)) for ms in (1, 2, 3))
    assert [first.shown_ns, second.shown_ns, third.shown_ns] == [P60, 2 * P60, 3 * P60]
    assert (first.blocked_ns, second.blocked_ns) == (0, 0)
    assert third.resumed_ns == P60
    assert third.blocked_ns == P60 - 3_000_000


def test_queue_depth_one_blocks_on_the_second_frame() -> None:
    display = VirtualDisplay(DisplaySettings(phase=Fraction(0), queue_depth=1))
    display.present(Fraction(1_000_000))
    assert display.present(Fraction(2_000_000)).resumed_ns == P60


def test_the_phase_moves_the_vblank_grid() -> None:
    # Starting 0.37 of a refresh after a vblank, the first vblank comes 0.63 of a refresh in.
    display = VirtualDisplay(DisplaySettings(refresh_hz=Fraction(100)))
    assert display.present(Fraction(0)).shown_ns == 6_300_000


def test_without_vsync_a_frame_is_shown_at_once() -> None:
    display = VirtualDisplay(DisplaySettings(vsync=False))
    shown = display.present(Fraction(7_000_001))
    assert (shown.resumed_ns, shown.shown_ns) == (7_000_001, 7_000_001)


def test_vrr_shows_a_frame_when_it_arrives_within_the_range() -> None:
    # 48-144 Hz: a frame 10 ms after the last refresh is shown at once; one 2 ms after waits
    # for 1/144 s; one 50 ms after comes after the panel repeated the old frame at 1/48 s.
    display = VirtualDisplay(
        DisplaySettings(
            refresh_hz=Fraction(144), vrr_min_hz=Fraction(48), vrr_max_hz=Fraction(144),
            phase=Fraction(0),
        )
    )  # fmt: skip
    first = display.present(Fraction(10_000_000)).shown_ns
    assert first == 10_000_000
    assert display.present(first + 2_000_000).shown_ns == first + Fraction(1_000_000_000, 144)
    last = first + Fraction(1_000_000_000, 144)
    late = display.present(last + 50_000_000)
    assert late.shown_ns == last + 50_000_000
    assert display.repeats == 2  # at 1/48 s and 2/48 s after the last refresh


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"refresh_hz": Fraction(0)}, "refresh must be from 1 to 1000 Hz"),
        ({"queue_depth": 0}, "queue depth must be 1, 2 or 3"),
        (
            {"refresh_hz": Fraction(165), "vrr_min_hz": Fraction(48), "vrr_max_hz": Fraction(144)},
            "must contain the refresh rate",
        ),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DisplaySettings(**settings)  # type: ignore[arg-type]
