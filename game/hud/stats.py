"""What the stats panel says: a `Readout` turned into grouped rows of text, with no pixels.

This is the panel's whole vocabulary. Each row is a label and one cell per lane (or a single
cell for a value of the render loop), and each cell says how to read it (`Meaning`). Numbers that
change every frame are written at a fixed precision ("0.750", "16.67 ms"), which reads steadily
on screen and lets the text cache find the same strings again.

When the window is too short for everything, rows go one at a time, least important first
(`DETAIL`, then `USEFUL`, ...), and among equals the lowest on the panel first; the `ESSENTIAL`
rows, the ones every lesson is about, go after those, and the rows that must show
(`must_show`: the ones the lesson step watches, and the paused state) last of all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from game.hud.hud_colours import Meaning
from game.hud.numbers import count_of, ms_or_s
from game.session.input_readout import Fate, InputReadout
from game.session.readout import LaneReadout, Readout

MUST_SHOW = 0
"""Above every priority: the rows `must_show` names."""
ESSENTIAL = 1
IMPORTANT = 2
USEFUL = 3
DETAIL = 4

Position = tuple[int, int]
"""A row's place: (group index, row index within the group)."""


class Cell(NamedTuple):
    """One value as shown: its text, how to read it, and how to draw it.

    `Cell`, `Row` and `Group` are NamedTuples rather than frozen dataclasses because the panel
    builds some eighty of them every frame (the figure: BENCHMARKS.md, "Why the code looks like
    this").
    """

    text: str
    meaning: Meaning = Meaning.PLAIN
    bar: float | None = None
    """Also draw this value as a bar with a 0..1 track; above 1 the bar overflows the track."""
    badge: bool = False
    """Draw the text on a filled badge of its colour, to be seen from across the room."""

    @property
    def overflows(self) -> bool:
        return self.bar is not None and self.bar >= 1.0


class Row(NamedTuple):
    """A label and its values: one cell per lane, or one cell for the whole game."""

    label: str
    cells: tuple[Cell, ...]
    priority: int = ESSENTIAL
    strong: bool = False
    """Set in bold (the policy: the first thing to read in each lane)."""


class Group(NamedTuple):
    """Rows about one thing, under a heading."""

    title: str
    rows: tuple[Row, ...]


def stat_groups(readout: Readout) -> tuple[Group, ...]:
    """Everything the panel shows for this frame, in reading order."""
    lanes = readout.lanes
    groups = (
        Group("SCHEDULER", _scheduler_rows(lanes)),
        Group("DROPPED TIME", _dropped_rows(lanes)),
        Group("TIME", _books_since(readout) + _time_rows(lanes)),
        Group("INPUT", _input_rows(lanes)),
        Group("MODEL", _model_rows(readout)),
        Group("RENDER", _render_rows(readout)),
    )
    return tuple(group for group in groups if group.rows)


def must_show(readout: Readout) -> frozenset[str]:
    """The rows the panel keeps before every other: the ones the lesson step watches (its
    caption talks about them), and the state row while a lane is paused or blew up (a room
    must see why the picture stands still)."""
    stopped = any(lane.paused or lane.non_finite_tick is not None for lane in readout.lanes)
    return frozenset(readout.watch) | ({"state"} if stopped else frozenset())


def rows_to_keep(
    groups: tuple[Group, ...],
    fits: Callable[[tuple[Group, ...]], bool],
    must: frozenset[str] = frozenset(),
) -> frozenset[Position]:
    """The rows to show: all of them if they fit, else without the least important ones.

    Rows are dropped one at a time, highest `priority` number first and, among equals, the
    lowest on the panel first, until `fits` accepts what is left (or nothing is left); the
    rows labelled in `must` count as `MUST_SHOW`, so they go last.
    """

    def priority(p: Position) -> tuple[int, Position]:
        row = groups[p[0]].rows[p[1]]
        return (MUST_SHOW if row.label in must else row.priority, p)

    kept = {(g, r) for g, group in enumerate(groups) for r in range(len(group.rows))}
    order = sorted(kept, key=priority, reverse=True)
    for position in order:
        if fits(select(groups, kept)):
            break
        kept.discard(position)
    return frozenset(kept)


def select(
    groups: tuple[Group, ...], kept: frozenset[Position] | set[Position]
) -> tuple[Group, ...]:
    """Only the rows at `kept` positions; a group left without rows goes, heading and all."""
    chosen = (
        Group(group.title, tuple(row for r, row in enumerate(group.rows) if (g, r) in kept))
        for g, group in enumerate(groups)
    )
    return tuple(group for group in chosen if group.rows)


def _per_lane(
    label: str,
    lanes: tuple[LaneReadout, ...],
    cell: Callable[[LaneReadout], Cell],
    priority: int = ESSENTIAL,
    *,
    strong: bool = False,
) -> Row:
    if len(lanes) == 1:  # the usual case, some twenty rows a frame: no generator
        return Row(label, (cell(lanes[0]),), priority, strong)
    if len(lanes) == 2:  # split screen: no list either
        return Row(label, (cell(lanes[0]), cell(lanes[1])), priority, strong)
    return Row(label, tuple([cell(lane) for lane in lanes]), priority, strong)


def _scheduler_rows(lanes: tuple[LaneReadout, ...]) -> tuple[Row, ...]:
    return (
        _per_lane("status", lanes, _status),
        _per_lane("policy", lanes, _policy, strong=True),
        _per_lane("tick rate", lanes, _tick_rate, IMPORTANT),
        _per_lane("cap M", lanes, lambda lane: Cell(count_of(lane.max_steps, "step")), USEFUL),
        _per_lane("F / B", lanes, _frame_and_backlog_limits, DETAIL),
        _per_lane("steps", lanes, _steps),
        _per_lane("alpha", lanes, _alpha),
        _per_lane("remainder", lanes, lambda lane: Cell(f"{lane.remainder_ms:.3f} ms"), DETAIL),
        _per_lane("backlog", lanes, _backlog, USEFUL),
    )


def _dropped_rows(lanes: tuple[LaneReadout, ...]) -> tuple[Row, ...]:
    return (
        _per_lane("this frame", lanes, lambda lane: _losing(lane.dropped_frame_ms), IMPORTANT),
        _per_lane("last 1 s", lanes, lambda lane: _losing(lane.dropped_last_second_ms), USEFUL),
        _per_lane("total", lanes, lambda lane: Cell(ms_or_s(lane.dropped_total_ms)), DETAIL),
    )


def _time_rows(lanes: tuple[LaneReadout, ...]) -> tuple[Row, ...]:
    return (
        _per_lane("tick", lanes, lambda lane: Cell(f"{lane.tick:,}"), DETAIL),
        _per_lane("sim / wall", lanes, _sim_and_wall, DETAIL),
        *(
            (_per_lane("owed", lanes, _owed, DETAIL),)
            if any(lane.time_scale != "1" or lane.paused for lane in lanes)
            else ()
        ),
        _per_lane("lag", lanes, _lag, USEFUL),
        _per_lane("time scale", lanes, _time_scale, USEFUL),
        _per_lane("state", lanes, _run_state, USEFUL),
    )


def _input_rows(lanes: tuple[LaneReadout, ...]) -> tuple[Row, ...]:
    """The input lab's counters (none without one): every press is seen once, doubled, merged,
    lost, or still waiting for a tick."""
    inputs = [lane.inputs for lane in lanes]
    if not all(inputs):
        return ()
    labs = tuple(lab for lab in inputs if lab is not None)

    def row(label: str, cell: Callable[[InputReadout], Cell], priority: int) -> Row:
        return Row(label, tuple(cell(lab) for lab in labs), priority)

    return (
        Row("input model", tuple(Cell(lab.model) for lab in labs), IMPORTANT, strong=True),
        row("presses · seen", _presses, IMPORTANT),
        row("lost / doubled", _lost_and_doubled, ESSENTIAL),
        row("merged", lambda lab: _counter(lab.counts.merged, Meaning.STRAINED), USEFUL),
        row("last press", _last_press, IMPORTANT),
        row("wait+interp+flip", _latency_parts, USEFUL),
    )


def _books_since(readout: Readout) -> tuple[Row, ...]:
    """When a lesson step restarted the books, the totals count from there: say so."""
    if not readout.books_since:
        return ()
    return (Row("counted from", (Cell(readout.books_since, Meaning.OK),), IMPORTANT),)


def _model_rows(readout: Readout) -> tuple[Row, ...]:
    lanes = readout.lanes
    return (
        Row("interpolation", (Cell(readout.interpolation),), USEFUL),
        _per_lane("alpha mode", lanes, _alpha_mode, USEFUL),
        _per_lane("integrator", lanes, lambda lane: Cell(lane.integrator), DETAIL),
        _per_lane("bodies", lanes, lambda lane: Cell(f"{lane.bodies:,}"), DETAIL),
    )


def _render_rows(readout: Readout) -> tuple[Row, ...]:
    cap = "uncapped" if readout.frame_budget_ms <= 0 else f"{readout.render_cap} fps"
    cap = "the capture's frames" if readout.capture else cap
    if readout.vsync:
        cap += " · vsync"
    return (
        *((Row("clock", (_clock(readout.clock),)),) if readout.clock else ()),
        *((Row("capture", (Cell(readout.capture),)),) if readout.capture else ()),
        Row("fps", (_fps(readout),), IMPORTANT),
        Row("render cap", (Cell(cap),), USEFUL),
        Row("frame", (_frame_time(readout),)),
        Row("work", (_work_time(readout),), USEFUL),
        Row("step cost", (_step_cost(readout),), IMPORTANT),
    )


# --- one cell each -------------------------------------------------------------------------


def _policy(lane: LaneReadout) -> Cell:
    """The policy; in split screen, the lane the policy keys change is marked with a pointer."""
    return Cell(f"> {lane.policy}" if lane.focused else lane.policy)


def _status(lane: LaneReadout) -> Cell:
    if lane.overloaded:
        return Cell("OVERLOADED", Meaning.BAD, badge=True)
    return Cell("keeping up", Meaning.OK)


def _tick_rate(lane: LaneReadout) -> Cell:
    """Under `variable` there is no fixed step: the tick is as long as the frame was."""
    if lane.variable:
        return Cell(f"dt {lane.dt_ms:.3f} ms (= the frame)", Meaning.STRAINED)
    return Cell(f"{lane.hz:g} Hz · {lane.step_ms:.3f} ms")


def _frame_and_backlog_limits(lane: LaneReadout) -> Cell:
    return Cell(
        f"{ms_or_s(lane.max_frame_ms, compact=True)} / {ms_or_s(lane.max_backlog_ms, compact=True)}"
    )


def _steps(lane: LaneReadout) -> Cell:
    """More steps than the cap M is the spiral in progress; exactly M is catching up hard."""
    if lane.steps > lane.max_steps:
        return Cell(str(lane.steps), Meaning.BAD)
    if lane.steps == lane.max_steps and lane.max_steps > 1:
        return Cell(str(lane.steps), Meaning.STRAINED)
    return Cell(str(lane.steps))


def _alpha(lane: LaneReadout) -> Cell:
    """Correct alpha lives in [0, 1). Naive alpha can pass 1: drawing a state that never was.
    Under `variable` the last tick ends at the frame, so there is nothing to blend: 1, calmly."""
    if lane.variable:
        return Cell("1 (nothing to blend)")
    meaning = Meaning.BAD if lane.alpha >= 1.0 else Meaning.PLAIN
    return Cell(f"{lane.alpha:.3f}", meaning, bar=max(0.0, lane.alpha))


def _backlog(lane: LaneReadout) -> Cell:
    meaning = Meaning.STRAINED if lane.backlog_steps > 0 else Meaning.PLAIN
    return Cell(count_of(lane.backlog_steps, "step"), meaning)


def _losing(dropped_ms: float) -> Cell:
    return Cell(f"{dropped_ms:.1f} ms", Meaning.BAD if dropped_ms > 0 else Meaning.PLAIN)


def _lag(lane: LaneReadout) -> Cell:
    """Up to one step behind is the remainder, by design; more means time was lost or owed."""
    behind = lane.lag_ms > lane.step_ms + 0.05
    return Cell(ms_or_s(lane.lag_ms), Meaning.STRAINED if behind else Meaning.PLAIN)


def _time_scale(lane: LaneReadout) -> Cell:
    return Cell(f"\N{MULTIPLICATION SIGN}{lane.time_scale}")


def _sim_and_wall(lane: LaneReadout) -> Cell:
    """Simulated and real wall time side by side (at a scale of 1 with no pause, the gap
    between them is the lag below)."""
    return Cell(f"{lane.sim_time_s:.2f} / {lane.wall_time_s:.2f} s")


def _owed(lane: LaneReadout) -> Cell:
    """The wall time scaled by the time scale, pauses left out: what the simulation was owed.
    The lag is measured against this, not against the wall."""
    return Cell(f"{lane.owed_time_s:.2f} s")


def _run_state(lane: LaneReadout) -> Cell:
    """Paused, running, or blown up: an unstable integrator's infinite state is said plainly."""
    if lane.non_finite_tick is not None:
        return Cell(f"BLEW UP at tick {lane.non_finite_tick:,}", Meaning.BAD)
    return Cell("PAUSED", Meaning.STRAINED) if lane.paused else Cell("running")


def _alpha_mode(lane: LaneReadout) -> Cell:
    return Cell(lane.alpha_mode, Meaning.STRAINED if lane.alpha_mode == "naive" else Meaning.PLAIN)


def _clock(text: str) -> Cell:
    """The wall clock, plainly; the lesson clock in amber: what is shown is slowed down."""
    return Cell(text, Meaning.STRAINED if text.startswith("lesson") else Meaning.OK)


def _fps(readout: Readout) -> Cell:
    """Against the cap: at least 95% of it is holding, under 75% is failing."""
    text = f"{readout.fps:.1f}"
    if readout.frame_budget_ms <= 0:
        return Cell(text)
    share = readout.fps * readout.frame_budget_ms / 1000
    if share >= 0.95:
        return Cell(text, Meaning.OK)
    return Cell(text, Meaning.STRAINED if share >= 0.75 else Meaning.BAD)


def _frame_time(readout: Readout) -> Cell:
    text = f"{readout.frame_ms:.2f} ms"
    budget = readout.frame_budget_ms
    if budget <= 0 or readout.frame_ms <= 1.25 * budget:
        return Cell(text)
    return Cell(text, Meaning.STRAINED if readout.frame_ms <= 2 * budget else Meaning.BAD)


def _work_time(readout: Readout) -> Cell:
    """Work over the budget means the cap cannot be held, whatever the pacer does."""
    text = f"{readout.work_ms:.2f} ms"
    budget = readout.frame_budget_ms
    if budget <= 0 or readout.work_ms <= 0.8 * budget:
        return Cell(text)
    return Cell(text, Meaning.STRAINED if readout.work_ms <= budget else Meaning.BAD)


def _step_cost(readout: Readout) -> Cell:
    """A tick that costs as much as the time it simulates can never catch up: red."""
    text = f"{readout.step_cost_ms:.1f} ms"
    if not readout.lanes or readout.step_cost_ms <= 0:
        return Cell(text)
    step_ms = min(lane.step_ms for lane in readout.lanes)
    if readout.step_cost_ms >= step_ms:
        return Cell(text, Meaning.BAD)
    return Cell(text, Meaning.STRAINED if readout.step_cost_ms >= step_ms / 2 else Meaning.PLAIN)


def _presses(lab: InputReadout) -> Cell:
    return Cell(f"{lab.counts.presses:,} · {lab.counts.seen:,}")


def _lost_and_doubled(lab: InputReadout) -> Cell:
    """Any press lost or doubled is the bug the input lab is about: red."""
    lost, doubled = lab.counts.lost, lab.counts.doubled
    return Cell(f"{lost:,} / {doubled:,}", Meaning.BAD if lost or doubled else Meaning.OK)


def _counter(count: int, meaning: Meaning) -> Cell:
    return Cell(f"{count:,}", meaning if count else Meaning.PLAIN)


def _last_press(lab: InputReadout) -> Cell:
    """The latest press that was shown (its latency, press to flip) or lost."""
    if lab.last_fate is Fate.LOST:
        return Cell("LOST", Meaning.BAD, badge=True)
    if lab.last_latency is None:
        return Cell("-")
    text = f"{lab.last_latency.total_ns / 1e6:.1f} ms"
    return Cell(text + (" x2" if lab.last_fate is Fate.DOUBLED else ""))


def _latency_parts(lab: InputReadout) -> Cell:
    latency = lab.last_latency
    if latency is None or lab.last_fate is Fate.LOST:
        return Cell("-")
    parts = (latency.wait_ns, latency.interpolation_ns, latency.present_ns)
    return Cell("+".join(f"{part / 1e6:.1f}" for part in parts))
