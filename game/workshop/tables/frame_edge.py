"""The frame-edge formula: which share of taps is lost or doubled, from the frames alone.

Under `frame-edge`, a tap pressed during frame k is read when frame k+1 starts, and every tick
of frame k+1 acts on it. So for taps placed uniformly in time:

    lost share    = sum(duration(k) for k where frame k+1 runs no tick)     / total time
    doubled share = sum(duration(k) for k where frame k+1 runs 2 ticks or more) / total time

`python -m game inputs --table` prints that share for the grid of tick rates and render rates
(docs/input.md's table); `tests/test_input_grid.py` checks it against counted taps, exactly.

The runs are the input lab's, at the virtual clock's tick phase of half a step
(`clock.tick_phase`, its default): a loop and its ticks do not start in phase, and a frame
boundary that fell exactly on a tick boundary would turn on a rounding of the clock (at 60 Hz
and 30 fps, 1, 2, 3 ticks a frame instead of 2: `--tick-phase 0` shows it).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from game.config.model import SchedulerSection
from game.vocabulary import TICK_RATES
from game.workshop.files.scenario import ClockSection, Scenario
from game.workshop.files.timeline import KeyEdge
from game.workshop.runs.runner import FrameReport, RunResult
from game.workshop.runs.simulation import in_input_lab, run_scenario

GRID_FPS: tuple[int, ...] = (30, 60, 144, 240)
GRID_SECONDS = 10


def grid_scenario(hz: Fraction, fps: int, seconds: int = GRID_SECONDS) -> Scenario:
    """Steady frames at `fps`, ticks at `hz`, in the input lab (see the module)."""
    return in_input_lab(
        Scenario(
            seconds=Fraction(seconds),
            scheduler=SchedulerSection(hz=hz),
            clock=ClockSection(render_fps=Fraction(fps)),
        )
    )


def grid_run(
    hz: Fraction,
    fps: int,
    key_edges: tuple[KeyEdge, ...] = (),
    model: str = "frame-edge",
    seconds: int = GRID_SECONDS,
) -> RunResult:
    scenario = grid_scenario(hz, fps, seconds)
    scenario = scenario.model_copy(
        update={"input": scenario.input.model_copy(update={"model": model})}
    )
    return run_scenario(scenario, key_edges=key_edges)


def frame_edge_shares(frames: Sequence[FrameReport]) -> tuple[Fraction, Fraction]:
    """(lost, doubled) shares of uniformly placed taps, by the formula.

    A frame report's `frame_ns` is the wall time measured when the frame begins: the duration
    of the frame before it (frame k), during which the tap was pressed; its steps are what that
    frame (k+1) runs. So one report holds both halves of the formula.
    """
    total = lost = doubled = 0
    for frame in frames:
        total += frame.frame_ns
        if frame.plan.steps == 0:
            lost += frame.frame_ns
        elif frame.plan.steps >= 2:
            doubled += frame.frame_ns
    if not total:
        return Fraction(0), Fraction(0)
    return Fraction(lost, total), Fraction(doubled, total)


def _percent(share: Fraction) -> str:
    return f"{float(share * 100):.1f}%"


def grid_table() -> str:
    """The input page's table: frame-edge's lost / doubled shares, tick rate by render rate."""
    header = "| ticks \\ frames | " + " | ".join(f"{fps} fps" for fps in GRID_FPS) + " |"
    lines = [header, "|---|" + "---|" * len(GRID_FPS)]
    for hz in TICK_RATES:
        cells = []
        for fps in GRID_FPS:
            lost, doubled = frame_edge_shares(grid_run(hz, fps).frames[1:])  # the steady ones
            cells.append(f"{_percent(lost)} lost, {_percent(doubled)} doubled")
        lines.append(f"| {hz} Hz | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def one_tap_per_frame(frames: Sequence[FrameReport], hold_ns: int = 0) -> tuple[KeyEdge, ...]:
    """A jump tap in the middle of every frame (a grid run's frames, replayed with taps)."""
    edges: list[KeyEdge] = []
    start = 0
    for frame in frames:
        at = start + frame.frame_ns // 2
        edges += [KeyEdge(at, "jump", True), KeyEdge(at + hold_ns, "jump", False)]
        start = frame.wall_ns
    return tuple(edges)
