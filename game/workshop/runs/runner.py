"""`run_headless`: the game's own frame loop, with a frame source where the player would be.

Every frame does what the real loop does, in the same order:

    the source says how long the frame lasts, given what the last one ran (`next_frame`)
    at the frame boundary: carry out what is due (knobs turned, pause, tick-stamped inputs)
    frame = session.begin(duration); run its ticks one by one; frame.finish()
    the frame's work (render cost + its ticks x step cost), then its report

With a remote peer (`LabSession.connect`, a scenario's `[network]`), the ticks rollback ran
again in the frame are work too: each costs a whole step, in the next frame's length.

The only difference is where the duration comes from (`timestep_lab.FrameSource`): a `VirtualClock`
computes it, so a run is identical on every laptop and never sleeps; a `DisplayedFrames` adds a
display's swap chain; `RecordedFrames` plays back a list of lengths. Tick-stamped events are
applied right before their tick runs, in the middle of a frame if need be (that is what makes a
run independent of the render rate). A tick-rate change at a tick in the middle of a frame
waits, like any change of how time is handled, for the frame to finish: the session stops the
frame at that tick, the scheduler's `settle` puts the unrun ticks back, exactly, and the change
is made before the next frame.

The spiral, precisely. One rule, `game.session.spiral.SpiralRule`, says what a spiral is and on
which frames one starts and is over, for the game's banner and for every run; `spirals` lists
those it saw in lane 0. `spiral`, the run's verdict, is true when one was still going on as the
run ended: the rule is on at the last frame; or the runaway guard stopped the run (one frame's
work alone, render cost + its ticks x step cost, passed `RUNAWAY_WORK_NS`, 10 s: `uncapped` at
20 ms per 16.7 ms tick grows x 1.2 a frame and would otherwise run ever longer frames to the
end); or, for a slow spiral too slow for the rule's frame-to-frame climb (16.7 ms per 16.667 ms
tick grows 0.2% a frame), the frames and the ticks they owed kept growing over the run's whole
second half (`game.workshop.runs.growth.GrowthWatch`). A capped policy under the same load
levels off at its cap: flat ticks, no runaway, equal last quarters, so its `spiral` is false.

Memory does not grow with the run: each `FrameReport` is handed to `sink` (if given) as it is
made, and only the last `keep` of them are kept in `RunResult.frames` (all of them when `keep`
is None, for the short runs that tests and comparisons look at frame by frame); the totals
(longest frame, the growth watch) are running sums.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Protocol, TypeVar

from game.session.controls import Act, Action, ControlsChange
from game.session.frame import Frame
from game.session.rollback_books import NO_ROLLBACK
from game.session.session import LabSession
from game.session.spiral import SpiralLog
from game.stopping import STOPS, clean_point, holding_stops, stop_point
from game.workshop.files.timeline import (
    LinkChange,
    PlayerInput,
    RecordedOrder,
    RemoteArrival,
    SettingsChange,
    TickEvent,
    TickRateChange,
    Timeline,
)
from game.workshop.runs.collector import collector_paused
from game.workshop.runs.growth import GrowthWatch
from game.workshop.runs.reports import FrameReport, FrameSink, RunResult
from timestep_lab import NS_PER_MS, NS_PER_SECOND, FrameRan, FrameSource, StepPlan

__all__ = [
    "RUNAWAY_WORK_NS",
    "FrameReport",
    "FrameSink",
    "HeadlessSource",
    "RunResult",
    "run_headless",
]
"""What the runs import from here (`FrameReport` and `RunResult` live in `reports.py`)."""

_made = tuple.__new__
"""`_made(Record, values)` is `Record(*values)` without the call to the NamedTuple's `__new__`, as
the scheduler makes its plans: a run makes a report and a `FrameRan` every frame (BENCHMARKS.md)."""

_NEVER = math.inf
"""When an event list has nothing left: later than any time or tick (compared, never stored)."""
T = TypeVar("T")


def _due_at(events: Sequence[T], index: int, when: Callable[[T], float]) -> float:
    """`when(events[index])`: when the next event of a list may be due; `_NEVER` past its end."""
    return when(events[index]) if index < len(events) else _NEVER


RUNAWAY_WORK_NS = 10 * NS_PER_SECOND
"""A frame whose work alone takes longer than this ends the run: the loop is past saving."""


class HeadlessSource(FrameSource, Protocol):
    """The `FrameSource` of a headless run (`timestep_lab.FrameSource` says what crosses the seam),
    with the two render knobs a scenario turns: its changes set the render rate and cost, and
    the render cost counts in each frame's work (the input lab's flip, the runaway guard). A
    `VirtualClock` and a `DisplayedFrames` model them; `RecordedFrames` has none to turn."""

    @property
    def render_cost_ns(self) -> Fraction | int: ...

    def set_render(
        self, render_fps: Fraction | int | None = None, render_cost_ns: Fraction | int | None = None
    ) -> None: ...


def run_headless(
    session: LabSession,
    source: HeadlessSource,
    timeline: Timeline | None = None,
    *,
    until_ns: Fraction | int | None = None,
    until_tick: int | None = None,
    sink: FrameSink | None = None,
    keep: int | None = None,
) -> RunResult:
    """Drive `session` frame by frame on `source` until the next frame would end after
    `until_ns`, or until lane 0's world reaches tick `until_tick` (exactly: the frame stops
    there), or until the source has no frame left.

    Give at least one of the two ends. Each frame's report goes to `sink` as it is made; the
    result keeps the last `keep` frames (every frame when None). The session and the source are
    left as the run leaves them (the session's own hooks hear every order and tick-rate
    change, as in the game).
    """
    if until_ns is None and until_tick is None:
        raise ValueError("a headless run needs an end: until_ns, until_tick or both")
    if until_tick is not None and until_tick < session.lanes[0].world.tick:
        raise ValueError(f"the world is already past tick {until_tick}")
    if keep is not None and keep < 0:
        raise ValueError(f"keep must be at least 0 (got {keep})")
    frames: deque[FrameReport] = deque(maxlen=keep)
    with collector_paused(), holding_stops():
        return _HeadlessRun(session, source, timeline or Timeline()).run(
            _exact_end(until_ns), until_tick, sink, frames
        )


def _exact_end(until_ns: Fraction | int | None) -> Fraction | int | None:
    """The run's end as the source compares it every frame: an `int` when it is a whole ns
    (whose `numerator` and `denominator` are plain attributes, where a `Fraction`'s are Python
    properties, two calls a frame)."""
    if until_ns is None:
        return None
    exact = Fraction(until_ns)
    return exact.numerator if exact.denominator == 1 else exact


class _HeadlessRun:
    """The state of one run: where it is in each list of events, and in time."""

    def __init__(self, session: LabSession, source: HeadlessSource, timeline: Timeline) -> None:
        self.session = session
        self.source = source
        self.timeline = timeline
        self.next_change = 0
        self.next_stall = 0
        self.next_event = 0
        self.next_edge = 0
        self.until_tick: int | None = None
        self.now_ns = 0
        """Where the last frame ended, in whole ns: the sum of the frames' lengths."""
        self._source_ns = math.floor(source.end_ns)  # moved on by each frame's length, exactly
        self._render_work = self._render_work_now()
        self._step_cost: tuple[object, Fraction | int] = (None, 0)
        """The controls the step cost was last read from, and that cost per tick, exact ns."""
        self.rollback = session.rollback
        # When the next event of each list may be due, so that a frame with none due asks
        # nothing (most frames): a time floored to whole ns (an event is due at or after its
        # floor), a tick; `_NEVER` once a list is done. Each list's method moves its own on.
        self._edge_due_ns: float = _NEVER
        self._change_due_ns: float = _NEVER
        self._stall_due_ns: float = _NEVER
        self._event_due_tick: float = _NEVER
        self._next_due()

    def run(
        self,
        until_ns: Fraction | int | None,
        until_tick: int | None,
        sink: FrameSink | None,
        frames: deque[FrameReport],
    ) -> RunResult:
        """The frames, in order: the source says how long the next one lasts, given what the
        last one ran; the frame runs; its work is counted; it is reported."""
        self.until_tick = until_tick
        lane = self.session.lanes[0]
        growth = GrowthWatch()
        count = max_frame_ns = 0
        runaway = False
        spirals = SpiralLog()
        self._apply_changes()
        self._apply_tick_events()
        ran = FrameRan(stall_ns=self._take_stalls())  # nothing ran yet; a stall may be due at 0
        stop_point("run")
        while until_tick is None or lane.world.tick < until_tick:
            if STOPS.pending:  # a stop signal waited for this frame's end: a tick boundary
                clean_point()
            elapsed = self.source.next_frame(ran, until_ns)
            if elapsed is None:
                break
            now_ns = self.now_ns = self.now_ns + elapsed
            self._source_ns += elapsed
            plan = self._frame(elapsed)
            ran, runaway = self._frame_ends(plan, now_ns)
            count += 1
            counts = self.session.inputs.lanes[0].counts
            rollback = NO_ROLLBACK if self.rollback is None else self.rollback.last_frame
            lag = lane.books.lag_parts
            report = _made(FrameReport, (count, plan, now_ns, lag, counts, rollback))
            frames.append(report)
            if sink is not None:
                sink(report)
            if plan.elapsed_ns > max_frame_ns:
                max_frame_ns = plan.elapsed_ns
            spiral = lane.spiral
            growth.add(now_ns, plan.elapsed_ns, spiral.last.owed)
            spirals.saw(count, spiral.on)
            if plan.paused and until_ns is None and self.next_change == len(self.timeline.changes):
                raise ValueError(f"paused for good: tick {until_tick} can never be reached")
            if runaway:
                break
        return self._result(frames, max_frame_ns, runaway, growth.growing(), spirals)

    def _frame(self, elapsed: int) -> StepPlan:
        """One frame at its boundary: the keys, knobs and inputs due, then its ticks one by one
        (each tick's inputs right before it), and lane 0's plan once it finishes."""
        if self.now_ns >= self._edge_due_ns:
            self._feed_edges()
        if self._source_ns >= self._change_due_ns:
            self._apply_changes()
        if self.session.lanes[0].world.tick >= self._event_due_tick:
            self._apply_tick_events()
        frame = self.session.begin(elapsed)
        if self.until_tick is None and self.next_event == len(self.timeline.tick_events):
            while frame.next_tick():  # nothing left to stop at or apply between ticks: most runs
                pass
        else:
            while self._may_run(frame) and frame.next_tick():
                if self.session.lanes[0].world.tick >= self._event_due_tick:
                    self._apply_tick_events()
        return frame.finish()[0]

    def _frame_ends(self, plan: StepPlan, now_ns: int) -> tuple[FrameRan, bool]:
        """What the frame ran, with any stall due by now, for the source's next frame; and
        whether its work (render cost + its ticks x step cost) ran away. Its picture is flipped
        once that work is done, each tick costing its whole ns (the input lab's press-to-flip)."""
        controls = self.session.controls
        steps = plan.ledger.steps
        if self.rollback is not None:  # re-simulated ticks cost a whole step each
            steps += self.rollback.last_frame.resimulated
        read_from, step_cost = self._step_cost
        if read_from is not controls:  # the controls changed (a new value each time)
            step_cost = controls.step_cost_ms * NS_PER_MS if controls.step_cost_ms else 0
            self._step_cost = (controls, step_cost)
        if steps and step_cost:
            render_cost = self.source.render_cost_ns
            self.session.inputs.flipped(now_ns + int(render_cost + steps * controls.step_cost_ns))
            runaway = render_cost + steps * step_cost > RUNAWAY_WORK_NS
        else:  # the render cost alone: its whole ns and its verdict were worked out on change
            render_ns, runaway = self._render_work
            self.session.inputs.flipped(now_ns + render_ns)
        stall_ns = self._take_stalls() if self._source_ns >= self._stall_due_ns else 0
        return _made(FrameRan, (steps, step_cost, stall_ns)), runaway

    def _render_work_now(self) -> tuple[int, bool]:
        """The render cost in whole ns, and whether it alone runs away: asked when it changes,
        as most frames' work is that alone (a `Fraction` compared every frame costs)."""
        cost = self.source.render_cost_ns
        return int(cost), cost > RUNAWAY_WORK_NS

    def _result(
        self, frames: deque[FrameReport], max_ns: int, runaway: bool, slow: bool, log: SpiralLog
    ) -> RunResult:
        lane = self.session.lanes[0]
        return RunResult(
            frames=tuple(frames),
            books=lane.books.summary(),
            tick=lane.world.tick,
            state_hash=lane.world.state_hash(),
            max_frame_ns=max_ns,
            spiral=runaway or slow or lane.spiral.on,
            runaway=runaway,
            lag_ns=lane.lag_ns,
            inputs=self.session.inputs.lanes[0].counts,
            non_finite_tick=lane.world.non_finite_tick,
            spirals=log.spans(),
            rollback=None if self.rollback is None else self.rollback.totals,
        )

    # -- wall-clock events, at frame boundaries ---------------------------------------------------

    def _next_due(self) -> None:
        """When the next event of each list may be due (see `__init__`)."""
        line = self.timeline
        self._edge_due_ns = _due_at(line.key_edges, self.next_edge, lambda edge: edge.at_ns)
        self._change_due_ns = _due_at(line.changes, self.next_change, lambda c: math.floor(c.at_ns))
        self._stall_due_ns = _due_at(line.stalls, self.next_stall, lambda s: math.floor(s.at_ns))
        self._event_due_tick = _due_at(line.tick_events, self.next_event, lambda e: e.tick)

    def _apply_changes(self) -> None:
        changes = self.timeline.changes
        while self.next_change < len(changes) and self._due(changes[self.next_change].at_ns):
            self._change(changes[self.next_change])
            self.next_change += 1
        self._next_due()

    def _change(self, change: SettingsChange) -> None:
        """Turn the knobs through the session, as a key press does: a scheduler is reconfigured
        between frames, with its carried time and its conditioning account kept as they are.
        The clock's own knobs (`render_fps`, `render_cost_ms`) go to the clock."""
        self.session.change(change.controls())
        cost = None if change.render_cost_ms is None else change.render_cost_ms * NS_PER_MS
        self.source.set_render(change.render_fps, cost)
        self._render_work = self._render_work_now()

    def _due(self, at_ns: Fraction | int) -> bool:
        """`at_ns <= source.end_ns`; a whole-ns time is due exactly when it is at most `end_ns`
        floored, an integer comparison (`end_ns` is a `Fraction` made and compared)."""
        if at_ns.denominator == 1:
            return at_ns.numerator <= self._source_ns
        return at_ns <= self.source.end_ns

    def _take_stalls(self) -> Fraction | int:
        stalls = self.timeline.stalls
        total: Fraction | int = 0
        while self.next_stall < len(stalls) and self._due(stalls[self.next_stall].at_ns):
            total += stalls[self.next_stall].length_ns
            self.next_stall += 1
        self._next_due()
        return total

    def _feed_edges(self) -> None:
        """Hand the session the avatar's key edges up to this frame boundary, as the game's loop
        reads its keys when a frame begins."""
        edges = self.timeline.key_edges
        while self.next_edge < len(edges) and edges[self.next_edge].at_ns <= self.now_ns:
            edge = edges[self.next_edge]
            self.session.inputs.edge(edge.button, edge.down, edge.at_ns)
            self.next_edge += 1
        self._next_due()

    # -- tick-stamped events, right before their tick ---------------------------------------------

    def _may_run(self, frame: Frame) -> bool:
        """A run that ends on a tick stops its last frame exactly there."""
        if self.until_tick is not None and self.session.lanes[0].world.tick >= self.until_tick:
            frame.stop()
        return not frame.stopped

    def _apply_tick_events(self) -> None:
        """Apply the events due at lane 0's next tick, before it runs. A change of how time is
        handled (the tick rate) stops the open frame there and is made once it finishes."""
        events = self.timeline.tick_events
        tick = self.session.lanes[0].world.tick
        while self.next_event < len(events) and events[self.next_event].tick <= tick:
            self._apply(events[self.next_event])
            self.next_event += 1
        self._next_due()

    def _apply(self, event: TickEvent) -> None:
        session = self.session
        match event:
            case PlayerInput(action="fire", x=x, y=y):
                session.apply(Action(Act.FIRE, x=x, y=y))
            case PlayerInput(action="reset"):
                session.apply(Action(Act.RESET))
            case PlayerInput(action="integrator", integrator=name) if name is not None:
                session.change(ControlsChange(integrator=name))
            case RecordedOrder(order=order):
                session.submit_recorded(order)
            case TickRateChange(hz=hz):
                session.change(ControlsChange(hz=hz))
            case RemoteArrival(arrival=arrival):
                session.remote_inputs([arrival])
            case LinkChange(settings=settings):
                session.reconnect(settings)
            case _:
                raise ValueError(f"cannot apply {event!r}")
