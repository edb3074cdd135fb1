"""What the stats panel says: a `Readout` turned into grouped rows of text, with no pixels.

The SCHEDULER, DROPPED TIME, TIME, MODEL and RENDER groups are here, the INPUT rows beside them
(`input_rows`), as the DISPLAY and NETWORK rows are (`display_rows`, `network_rows`); what a row
is, and which rows go when the window is short, is `game.hud.rows`. Numbers that change every
frame are written at a fixed precision ("0.750", "16.67 ms"), which reads steadily on screen and
lets the text cache find the same strings again.
"""

from __future__ import annotations

from collections.abc import Callable

from game.hud.hud_colours import Meaning
from game.hud.input_rows import input_rows
from game.hud.numbers import count_of, ms_or_s
from game.hud.rows import DETAIL, ESSENTIAL, IMPORTANT, USEFUL, Cell, Group, Row
from game.session.readout import LaneReadout, Readout


def stat_groups(readout: Readout) -> tuple[Group, ...]:
    """Everything the panel shows for this frame, in reading order."""
    lanes = readout.lanes
    groups = (
        Group("SCHEDULER", _scheduler_rows(lanes)),
        Group("DROPPED TIME", _dropped_rows(lanes)),
        Group("TIME", _books_since(readout) + _time_rows(lanes)),
        Group("INPUT", input_rows(lanes)),
        Group("MODEL", _model_rows(readout)),
        Group("RENDER", _render_rows(readout)),
    )
    return tuple(group for group in groups if group.rows)


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
