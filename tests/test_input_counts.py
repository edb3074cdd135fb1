"""The input counters are invariants: every press is seen, doubled, merged, lost or still
pending, under every model, at any tap rate and after any stall.

presses = seen + doubled + merged + lost + pending, where `seen` counts the presses acted on
exactly once and `doubled` those acted on more than once (together: every press some tick acted
on). Once a few frames have run with no new press, nothing is pending. The lab keeps only the
last `KEPT_PRESSES` press records for its timeline; the counters must not depend on them.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.cli import main
from game.config.model import GameConfig
from game.from_config import session_from
from game.session.input_lab import KEPT_PRESSES
from game.session.input_readout import InputCounts
from game.session.session import LabSession
from game.vocabulary import INPUT_MODEL_NAMES

MS = 1_000_000


class Tapper:
    """A session with one input model, fed bursts of taps between frames."""

    def __init__(self, model: str) -> None:
        self.session: LabSession = session_from(GameConfig())
        self.session.set_controls(replace(self.session.controls, input_models=(model, model)))
        self.now_ns = 0

    def burst(self, taps: int, button: str) -> None:
        """`taps` taps of `button`, a nanosecond each, spread over the last frame's end."""
        for index in range(taps):
            at = max(0, self.now_ns - taps + index)
            self.session.inputs.edge(button, True, at)
            self.session.inputs.edge(button, False, at)

    def frame(self, ns: int) -> None:
        self.now_ns += ns
        self.session.play_frame(ns)
        self.session.inputs.flipped(self.now_ns)

    @property
    def counts(self) -> InputCounts:
        return self.session.inputs.lanes[0].counts


def assert_every_press_has_one_fate(counts: InputCounts) -> None:
    assert min(counts) >= 0 and counts.pending >= 0, counts
    assert counts.presses == (
        counts.seen + counts.doubled + counts.merged + counts.lost + counts.pending
    )


frames = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=3_000),  # taps before the frame: bursts in one tick
        st.sampled_from(["jump", "dash"]),
        st.one_of(  # the frame: a usual one, a tick-less one, or a stall of up to 5 s
            st.integers(min_value=1 * MS, max_value=40 * MS),
            st.integers(min_value=1_000, max_value=MS),
            st.integers(min_value=200 * MS, max_value=5_000 * MS),
        ),
    ),
    min_size=1,
    max_size=12,
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(model=st.sampled_from(INPUT_MODEL_NAMES), played=frames)
def test_every_press_has_exactly_one_fate_at_any_rate_and_after_any_stall(
    model: str, played: list[tuple[int, str, int]]
) -> None:
    tapper = Tapper(model)
    for taps, button, frame_ns in played:
        tapper.burst(taps, button)
        tapper.frame(frame_ns)
        assert_every_press_has_one_fate(tapper.counts)
    for _ in range(3):  # frames of two ticks with no new press: every fate is settled
        tapper.frame(34 * MS)
    counts = tapper.counts
    assert_every_press_has_one_fate(counts)
    assert counts.pending == 0
    assert counts.presses == sum(taps for taps, _, _ in played)
    if model in ("counted", "stamped"):  # nothing lost, doubled or merged: every press seen
        assert counts.seen == counts.presses


@pytest.mark.parametrize("model", INPUT_MODEL_NAMES)
def test_a_burst_far_larger_than_the_kept_records_is_counted_whole(model: str) -> None:
    tapper = Tapper(model)
    tapper.frame(10 * MS)
    tapper.burst(10 * KEPT_PRESSES, "jump")  # all of them in one tick's span
    tapper.frame(20 * MS)  # one tick
    tapper.frame(20 * MS)
    counts = tapper.counts
    expected = {
        "frame-edge": (2560, 1, 0, 0, 2559),  # one flag for the frame: the rest merge into it
        "tick-poll": (2560, 0, 2560, 0, 0),  # every tap came up before a tick looked
        "latched": (2560, 1, 0, 0, 2559),
        "counted": (2560, 2560, 0, 0, 0),
        "stamped": (2560, 2560, 0, 0, 0),
    }
    assert tuple(counts) == expected[model]


def test_reproduction_7_a_stall_under_a_thousand_taps_a_second_loses_no_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "taps.txt"
    script.write_text("random jump 1000/s seed 1\n")
    args = ["simulate", "--seconds", "5", "--stall", "2:1000", "--input-script", str(script)]
    assert main([*args, "--input-models", "counted,frame-edge", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]["inputs"]
    counted, frame_edge = summary["counted"], summary["frame-edge"]
    assert counted["presses"] > 2 * KEPT_PRESSES
    assert counted == {**counted, "lost": 0, "doubled": 0, "merged": 0}
    assert counted["presses"] - counted["seen"] <= 1  # the last tap may still wait for a tick
    settled = sum(frame_edge[key] for key in ("seen", "lost", "doubled", "merged"))
    assert frame_edge["presses"] - settled <= 1
