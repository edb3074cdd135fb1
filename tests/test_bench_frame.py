"""The frame benchmark's ratios: medians of turn-by-turn ratios, not ratios of pooled medians.

A load that comes and goes during the run lands on neighbouring turns of every variant alike;
comparing each turn with the default scene's turn of the same round cancels it, where pooling
every frame first would let a busy stretch of one variant's turns move its median.
"""

from __future__ import annotations

from bench.bench_frame import Turns, _turn_rows
from bench.harness import Section

MS = 1_000_000


def turns(label: str, medians_ms: list[float]) -> Turns:
    """A variant whose every turn is three frames of the given CPU time."""
    never_run = Turns(label, take_turn=lambda frames: ([], []))
    for median in medians_ms:
        frame = round(median * MS)
        never_run.wall_ns.append([frame] * 3)
        never_run.cpu_ns.append([frame] * 3)
    return never_run


def table() -> Section:
    section = Section(title="frame", intro="", columns=[])
    _turn_rows(
        section,
        [
            turns("baseline", [0.5, 0.5, 0.5]),
            turns("default", [1.0, 2.0, 4.0]),
            turns("split", [1.6, 2.2, 6.0]),
            turns("presentation", [1.0, 2.0, 6.0]),
        ],
    )
    return section


def test_each_variant_is_compared_turn_by_turn_and_the_median_of_the_ratios_kept() -> None:
    # split: 1.6x, 1.1x, 1.5x turn by turn -> 1.5x (its pooled median, 2.2 ms against 2.0, is
    # only 1.1x); the default scene: 2x, 4x, 8x the blit + flip -> 4x.
    assert table().rows == [
        ["baseline", "9", "0.500 ms", "0.500 ms", "0.500 ms", "1.0x", "", ""],
        ["default", "9", "2.000 ms", "2.000 ms", "4.000 ms", "4.0x", "1.00x", "met"],
        ["split", "9", "2.200 ms", "2.200 ms", "6.000 ms", "4.4x", "1.50x", "met"],
        ["presentation", "9", "2.000 ms", "2.000 ms", "6.000 ms", "4.0x", "1.00x", "met"],
    ]


def test_the_notes_give_the_middle_80_percent_of_the_turn_by_turn_ratios() -> None:
    spreads = table().notes[0].split(". ")[0]
    assert spreads == (
        "Turn by turn, the middle 80% of the ratios to the default scene: "
        "split 1.18x-1.58x; presentation 1.00x-1.40x"
    )
