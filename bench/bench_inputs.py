"""The input lab's cost per frame: the session's frames with the avatar and its input models,
beside the same frames without them.

Both sides play the default session at 60 Hz ticks and 144 fps (a frame every 6.94 ms), one
frame per call, headless: `begin`, its ticks, `finish`, and the flip. The input side also gets a
jump tap every 36 frames (4 a second), a dash every 144 and the run key held half the time, and
builds the lanes' HUD readout each frame (the counters and the 2 s press timeline), as the game
does. The baseline has no avatar in its scene and a desk that does nothing. The budget: the input
handling costs at most 20 us per frame, under every model.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar

from bench.harness import Section, us, verdict
from game.config.model import GameConfig
from game.from_config import session_from
from game.session.session import LabSession
from game.vocabulary import INPUT_MODEL_NAMES

FRAME_NS = 6_944_444
BUDGET_NS = 20_000


class _NoInputs:
    """A desk that hears everything and does nothing: the frame without an input lab."""

    lanes: ClassVar[list[Any]] = []

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None

    def readouts(self) -> tuple[None, ...]:
        return (None,)


def _session(model: str | None) -> LabSession:
    session = session_from(GameConfig())
    if model is None:
        for lane in session.lanes:
            lane.world._avatar = None
        session.inputs = _NoInputs()  # type: ignore[assignment]
    else:
        session.set_controls(replace(session.controls, input_models=(model, "latched")))
    return session


def _player(session: LabSession, keys: bool) -> Callable[[], object]:
    frames = 0
    now = 0

    def frame() -> object:
        nonlocal frames, now
        frames += 1
        now += FRAME_NS
        desk = session.inputs
        if keys:
            if frames % 36 == 0:
                desk.edge("jump", True, now - 3_000_000)
                desk.edge("jump", False, now - 1_000_000)
            if frames % 144 == 0:
                desk.edge("dash", True, now - 2_000_000)
                desk.edge("dash", False, now - 1_000_000)
            if frames % 150 == 0:
                desk.edge("right", frames % 300 == 0, now)
        session.play_frame(FRAME_NS)
        desk.flipped(now)
        return session.lane_readouts()

    return frame


def _per_call(fn: Callable[[], object], number: int) -> float:
    start = time.perf_counter_ns()
    for _ in range(number):
        fn()
    return (time.perf_counter_ns() - start) / number


def run(quick: bool) -> list[Section]:
    number, repeat = (144, 5) if quick else (144, 101)
    section = Section(
        "Input lab: per frame, beside the frame without the avatar",
        " ".join(__doc__.split("\n\n")[1].split()) if __doc__ else "",
        ["frame", "per frame (fastest batch)", "input handling", "budget 20 us"],
        notes=[
            "Batches with the input lab alternate with batches of the baseline, and each side "
            "keeps its fastest batch: on a shared 2-core machine under a load of 7, the drift "
            "between two medians is larger than the figure itself, while the fastest batch of "
            "each is the one the other processes disturbed least."
        ],
    )
    baseline = _player(_session(None), keys=False)
    players = {model: _player(_session(model), keys=True) for model in INPUT_MODEL_NAMES}
    for fn in (baseline, *players.values()):
        _per_call(fn, 1_440)  # warm up: 10 s of frames fill the histories the readouts read
    bases: list[float] = []
    costs: dict[str, list[float]] = {model: [] for model in players}
    for _ in range(repeat):
        for model, player in players.items():
            bases.append(_per_call(baseline, number))
            costs[model].append(_per_call(player, number))
    base = min(bases)
    section.add("without the avatar (baseline)", us(base), "-", "-")
    for model in players:
        cost = min(costs[model])
        extra = cost - base
        section.add(f"avatar + {model}", us(cost), us(extra), verdict(extra <= BUDGET_NS))
    return [section]
