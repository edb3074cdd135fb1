"""`MEASURES`: the figures a lesson step may claim, each one computed from the demo's frames.

A caption says "about three taps in four are lost" or "frames level off at 3 x 20 ms"; its step
then claims `lost_pct` about 75 or `frame_ms` about 61, and `python -m game lessons --check`
runs the step's demo and measures. Each measurement is a small pure function of a `DemoWindow` of
demo frames and a lane: the same frames give the same figure on every machine, because the
demo runs on a clock the game moves itself.

A figure that cannot be measured (a share of presses when none was made, a judder with fewer
than three refreshes) is None, and a claim on it fails.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from statistics import median

from game.display.live import REPORT_NS, LiveJudder
from game.vocabulary import MEASURES_FOR_A_SCREEN
from game.workshop.claims.record import DemoWindow
from timestep_lab import NS_PER_MS


@dataclass(frozen=True, slots=True)
class Subject:
    """What a measurement is taken of, besides the frames: a lane, and for judder a screen."""

    lane_index: int
    refresh_hz: Fraction | None = None
    """The screen a judder figure is measured for."""


MeasureFunction = Callable[[DemoWindow, Subject], float | None]


@dataclass(frozen=True, slots=True)
class Measure:
    """One figure a claim may name: its unit, what it is in words, and how it is computed."""

    name: str
    unit: str
    says: str
    compute: MeasureFunction

    @property
    def needs_refresh(self) -> bool:
        """Measured for a screen: its claim names the screen's refresh rate."""
        return self.name in MEASURES_FOR_A_SCREEN


def _ms(ns: Fraction | int) -> float:
    return float(Fraction(ns) / NS_PER_MS)


def _frame_ms(window: DemoWindow, subject: Subject) -> float | None:
    frames = [_ms(plan.elapsed_ns) for plan in window.plans(subject.lane_index)]
    return median(frames) if frames else None


def _frame_ms_max(window: DemoWindow, subject: Subject) -> float | None:
    frames = [_ms(plan.elapsed_ns) for plan in window.plans(subject.lane_index)]
    return max(frames) if frames else None


def _frame_growth(window: DemoWindow, subject: Subject) -> float | None:
    """The spiral's signature: each frame owes more ticks than the last, so it is longer."""
    frames = [plan.elapsed_ns for plan in window.plans(subject.lane_index)]
    ratios = [later / earlier for earlier, later in pairwise(frames) if earlier]
    return median(ratios) if ratios else None


def _fps(window: DemoWindow, subject: Subject) -> float | None:
    seconds = window.seconds
    return len(window.plans(subject.lane_index)) / float(seconds) if seconds else None


def _step_ms(window: DemoWindow, subject: Subject) -> float | None:
    steps = [_ms(plan.dt_ns) for plan in window.plans(subject.lane_index) if plan.steps]
    return median(steps) if steps else None


def _ticks_max(window: DemoWindow, subject: Subject) -> float | None:
    plans = window.plans(subject.lane_index)
    return float(max(plan.steps for plan in plans)) if plans else None


def _resimulated(window: DemoWindow, subject: Subject) -> float | None:
    """The typical frame's re-simulated ticks (lane 0's, against a remote peer)."""
    frames = window.rollbacks()
    return float(median(frame.resimulated for frame in frames)) if frames else None


def _rollback_depth_max(window: DemoWindow, subject: Subject) -> float | None:
    frames = window.rollbacks()
    return float(max(frame.depth for frame in frames)) if frames else None


def _window_stalls(window: DemoWindow, subject: Subject) -> float | None:
    frames = window.rollbacks()
    return float(sum(frame.window_stall for frame in frames)) if frames else None


def _ticks_off_pct(window: DemoWindow, subject: Subject) -> float | None:
    """How many frames ran other than the usual number of ticks: 0/2-tick frames among 1s."""
    counts = [plan.steps for plan in window.plans(subject.lane_index)]
    if not counts:
        return None
    usual = max(set(counts), key=counts.count)
    return 100 * sum(count != usual for count in counts) / len(counts)


def _dropped_ms(window: DemoWindow, subject: Subject) -> float | None:
    plans = window.plans(subject.lane_index)
    return _ms(sum((plan.dropped_ns for plan in plans), Fraction(0))) if plans else None


def _backlog_max(window: DemoWindow, subject: Subject) -> float | None:
    plans = window.plans(subject.lane_index)
    return float(max(plan.backlog_steps for plan in plans)) if plans else None


def _alpha_max(window: DemoWindow, subject: Subject) -> float | None:
    plans = window.plans(subject.lane_index)
    return max(plan.alpha for plan in plans) if plans else None


def _carry_ms_max(window: DemoWindow, subject: Subject) -> float | None:
    plans = window.plans(subject.lane_index)
    return max(abs(_ms(plan.conditioning_carry_ns)) for plan in plans) if plans else None


def _drawn(window: DemoWindow, subject: Subject) -> list[tuple[Fraction, int]]:
    """(the lane's newest simulated time, what its picture showed), frame by frame."""
    lane_index = subject.lane_index
    return [
        (frame.plans[lane_index].sim_time_ns, frame.drawn_ns[lane_index])
        for frame in window.frames
        if lane_index < len(frame.plans)
    ]


def _behind_ms_max(window: DemoWindow, subject: Subject) -> float | None:
    """How far the picture is behind the newest tick, at most (interpolation: one tick)."""
    drawn = _drawn(window, subject)
    return max(_ms(newest - shown) for newest, shown in drawn) if drawn else None


def _latency_ms(window: DemoWindow, subject: Subject) -> float | None:
    """How far the picture is behind the scheduler's now (the newest tick plus the remainder),
    on average: one tick interpolated, none extrapolated."""
    lane_index = subject.lane_index
    behind = [
        _ms(
            frame.plans[lane_index].sim_time_ns
            + frame.plans[lane_index].remainder_ns
            - frame.drawn_ns[lane_index]
        )
        for frame in window.frames
        if lane_index < len(frame.plans)
    ]
    return sum(behind) / len(behind) if behind else None


def _pictures_per_s(window: DemoWindow, subject: Subject) -> float | None:
    """How often the picture changes: the tick rate without interpolation, the frame rate
    with it."""
    shown = [picture for _, picture in _drawn(window, subject)]
    seconds = window.seconds
    if not shown or not seconds:
        return None
    changes = sum(later != earlier for earlier, later in pairwise(shown))
    return changes / float(seconds)


def _judder_pct(window: DemoWindow, subject: Subject) -> float | None:
    """What the live judder meter reads at the window's end on a `refresh_hz` screen: each
    picture handed over at the next frame's boundary, as the game's own meter has it."""
    assert subject.refresh_hz is not None
    lane_index = subject.lane_index
    frames = [frame for frame in window.frames if lane_index < len(frame.plans)]
    meter = LiveJudder(subject.refresh_hz)
    for shown, handed_over in pairwise(frames):
        meter.record(handed_over.wall_ns, shown.drawn_ns[lane_index], shown.plans[lane_index].tick)
    report = meter.report()
    return report.judder_pct if report.refreshes >= 3 else None


def _share(field: str) -> MeasureFunction:
    def share(window: DemoWindow, subject: Subject) -> float | None:
        counts = window.inputs(subject.lane_index)
        if not counts.presses:
            return None
        return 100 * int(getattr(counts, field)) / counts.presses

    return share


def _presses(window: DemoWindow, subject: Subject) -> float | None:
    return float(window.inputs(subject.lane_index).presses)


_JUDDER_SAYS = (
    f"judder on a screen of the claim's refresh rate, over the last {REPORT_NS // 10**9} s"
)

MEASURES: dict[str, Measure] = {
    measure.name: measure
    for measure in (
        Measure("frame_ms", "ms", "the typical (median) frame time", _frame_ms),
        Measure("frame_ms_max", "ms", "the longest frame", _frame_ms_max),
        Measure("frame_growth", "x", "each frame over the one before (median)", _frame_growth),
        Measure("fps", "fps", "frames per second", _fps),
        Measure("step_ms", "ms", "the length of each tick (median)", _step_ms),
        Measure("ticks_max", "ticks", "the most ticks run in one frame", _ticks_max),
        Measure("ticks_off_pct", "%", "frames that ran other than the usual ticks", _ticks_off_pct),
        Measure("dropped_ms", "ms", "time dropped, in total", _dropped_ms),
        Measure("resimulated", "ticks", "ticks re-simulated in a frame (median)", _resimulated),
        Measure("rollback_depth_max", "ticks", "the deepest rollback", _rollback_depth_max),
        Measure("window_stalls", "frames", "frames the prediction window stopped", _window_stalls),
        Measure("backlog_max", "ticks", "the largest backlog carried", _backlog_max),
        Measure("alpha_max", "", "the largest alpha drawn with", _alpha_max),
        Measure("carry_ms_max", "ms", "the largest conditioning carry", _carry_ms_max),
        Measure(
            "behind_ms_max", "ms", "the picture behind the newest tick, at most", _behind_ms_max
        ),
        Measure("latency_ms", "ms", "the picture behind the scheduler's now (mean)", _latency_ms),
        Measure("pictures_per_s", "/s", "how often the picture changes", _pictures_per_s),
        Measure("judder_pct", "%", _JUDDER_SAYS, _judder_pct),
        Measure("presses", "", "taps made", _presses),
        Measure("lost_pct", "%", "taps lost", _share("lost")),
        Measure("doubled_pct", "%", "taps doubled", _share("doubled")),
        Measure("merged_pct", "%", "taps merged into another", _share("merged")),
    )
}
"""Every figure a claim may name, by name."""
