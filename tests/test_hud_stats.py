"""What the stats panel says: a Readout turned into labelled, coloured rows (no pixels).

This module also holds the sample readout (`LANE`, `READOUT`, `readout()`) the other HUD tests
start from: a calm game at 60 Hz and 60 fps, one lane, `drop` policy.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys

from game.hud.hud_colours import Meaning
from game.hud.rows import DETAIL, ESSENTIAL, Cell, Group, Row, rows_to_keep, select
from game.hud.stats import stat_groups
from game.session.readout import LaneReadout, Readout

LANE = LaneReadout(
    policy="drop",
    hz=60.0,
    step_ms=50 / 3,
    max_steps=5,
    max_frame_ms=250.0,
    max_backlog_ms=1000.0,
    steps=1,
    alpha=0.75,
    remainder_ms=12.5,
    backlog_steps=0,
    dropped_frame_ms=0.0,
    dropped_last_second_ms=0.0,
    dropped_total_ms=0.0,
    tick=1234,
    sim_time_s=20.566,
    wall_time_s=20.58,
    owed_time_s=20.58,
    lag_ms=12.5,
    time_scale="1",
    paused=False,
    overloaded=False,
    spiral=False,
    alpha_mode="correct",
    integrator="semi-implicit Euler",
    bodies=240,
)

READOUT = Readout(
    lanes=(LANE,),
    fps=60.0,
    frame_ms=16.7,
    work_ms=3.2,
    frame_budget_ms=1000 / 60,
    render_cap="60",
    vsync=False,
    step_cost_ms=0.0,
    interpolation="interpolate",
    presentation=False,
    show_graphs=True,
    show_help=False,
)


def readout(*, lanes: tuple[LaneReadout, ...] | None = None, **changes: object) -> Readout:
    """`READOUT` with some fields changed; `lane(...)` builds changed lanes."""
    changed = dataclasses.replace(READOUT, **changes)  # type: ignore[arg-type]
    return dataclasses.replace(changed, lanes=lanes) if lanes is not None else changed


def lane(**changes: object) -> LaneReadout:
    return dataclasses.replace(LANE, **changes)  # type: ignore[arg-type]


def table(groups: tuple[Group, ...]) -> list[tuple[str, str, tuple[tuple[str, Meaning], ...]]]:
    """(group, label, ((text, meaning) per cell)) for every row, in reading order."""
    return [
        (group.title, row.label, tuple((cell.text, cell.meaning) for cell in row.cells))
        for group in groups
        for row in group.rows
    ]


def cell(label: str, r: Readout, index: int = 0) -> Cell:
    for group in stat_groups(r):
        for row in group.rows:
            if row.label == label:
                return row.cells[index]
    raise AssertionError(f"no row labelled {label!r}")


P, OK, STRAINED, BAD = Meaning.PLAIN, Meaning.OK, Meaning.STRAINED, Meaning.BAD


def test_a_calm_game_reads_as_this_table() -> None:
    assert table(stat_groups(READOUT)) == [
        ("SCHEDULER", "status", (("keeping up", OK),)),
        ("SCHEDULER", "policy", (("drop", P),)),
        ("SCHEDULER", "tick rate", (("60 Hz · 16.667 ms", P),)),
        ("SCHEDULER", "cap M", (("5 steps", P),)),
        ("SCHEDULER", "F / B", (("250 ms / 1 s", P),)),
        ("SCHEDULER", "steps", (("1", P),)),
        ("SCHEDULER", "alpha", (("0.750", P),)),
        ("SCHEDULER", "remainder", (("12.500 ms", P),)),
        ("SCHEDULER", "backlog", (("0 steps", P),)),
        ("DROPPED TIME", "this frame", (("0.0 ms", P),)),
        ("DROPPED TIME", "last 1 s", (("0.0 ms", P),)),
        ("DROPPED TIME", "total", (("0.0 ms", P),)),
        ("TIME", "tick", (("1,234", P),)),
        ("TIME", "sim / wall", (("20.57 / 20.58 s", P),)),
        ("TIME", "lag", (("12.5 ms", P),)),
        ("TIME", "time scale", (("\N{MULTIPLICATION SIGN}1", P),)),
        ("TIME", "state", (("running", P),)),
        ("MODEL", "interpolation", (("interpolate", P),)),
        ("MODEL", "alpha mode", (("correct", P),)),
        ("MODEL", "integrator", (("semi-implicit Euler", P),)),
        ("MODEL", "bodies", (("240", P),)),
        ("RENDER", "fps", (("60.0", OK),)),
        ("RENDER", "render cap", (("60 fps", P),)),
        ("RENDER", "frame", (("16.70 ms", P),)),
        ("RENDER", "work", (("3.20 ms", P),)),
        ("RENDER", "step cost", (("0.0 ms", P),)),
    ]


def test_alpha_is_written_to_three_decimals_with_a_bar() -> None:
    assert cell("alpha", readout(lanes=(lane(alpha=0.75),))) == Cell("0.750", P, bar=0.75)
    assert cell("alpha", readout(lanes=(lane(alpha=0.0),))) == Cell("0.000", P, bar=0.0)


def test_naive_alpha_above_one_is_shown_as_an_overflowing_red_bar() -> None:
    shown = cell("alpha", readout(lanes=(lane(alpha=6.75, alpha_mode="naive"),)))
    assert shown == Cell("6.750", BAD, bar=6.75)
    assert shown.overflows
    assert not cell("alpha", READOUT).overflows
    assert cell("alpha mode", readout(lanes=(lane(alpha_mode="naive"),))) == Cell("naive", STRAINED)


def test_dropped_time_is_red_this_frame_and_last_second_and_plain_in_total() -> None:
    dropping = readout(
        lanes=(lane(dropped_frame_ms=120.0, dropped_last_second_ms=250.0, dropped_total_ms=3250.0),)
    )
    assert cell("this frame", dropping) == Cell("120.0 ms", BAD)
    assert cell("last 1 s", dropping) == Cell("250.0 ms", BAD)
    assert cell("total", dropping) == Cell("3.25 s", P)


def test_overloaded_is_a_red_badge_shown_only_when_overloaded() -> None:
    overloaded = readout(lanes=(lane(overloaded=True),))
    assert cell("status", overloaded) == Cell("OVERLOADED", BAD, badge=True)
    assert cell("status", READOUT) == Cell("keeping up", OK)
    calm_texts = [text for _, _, cells in table(stat_groups(READOUT)) for text, _ in cells]
    assert not any("OVERLOADED" in text for text in calm_texts)


def test_steps_are_amber_at_the_cap_and_red_beyond_it() -> None:
    assert cell("steps", readout(lanes=(lane(steps=4),))) == Cell("4", P)
    assert cell("steps", readout(lanes=(lane(steps=5),))) == Cell("5", STRAINED)
    assert cell("steps", readout(lanes=(lane(steps=23, policy="uncapped"),))) == Cell("23", BAD)


def test_backlog_lag_and_pause_are_amber() -> None:
    assert cell("backlog", readout(lanes=(lane(backlog_steps=1),))) == Cell("1 step", STRAINED)
    assert cell("lag", readout(lanes=(lane(lag_ms=412.0),))) == Cell("412.0 ms", STRAINED)
    assert cell("lag", readout(lanes=(lane(lag_ms=1500.0),))) == Cell("1.50 s", STRAINED)
    assert cell("state", readout(lanes=(lane(paused=True),))) == Cell("PAUSED", STRAINED)
    assert cell("time scale", readout(lanes=(lane(time_scale="1/8"),))) == Cell(
        "\N{MULTIPLICATION SIGN}1/8", P
    )


def test_fps_is_judged_against_the_render_cap() -> None:
    assert cell("fps", readout(fps=58.0)) == Cell("58.0", OK)
    assert cell("fps", readout(fps=50.0)) == Cell("50.0", STRAINED)
    assert cell("fps", readout(fps=4.2)) == Cell("4.2", BAD)
    uncapped = readout(fps=900.0, frame_budget_ms=0.0, render_cap="uncapped")
    assert cell("fps", uncapped) == Cell("900.0", P)
    assert cell("render cap", uncapped) == Cell("uncapped", P)
    assert cell("render cap", readout(vsync=True)) == Cell("60 fps · vsync", P)


def test_frame_and_work_times_are_judged_against_the_frame_budget() -> None:
    assert cell("frame", readout(frame_ms=25.0)) == Cell("25.00 ms", STRAINED)
    assert cell("frame", readout(frame_ms=380.5)) == Cell("380.50 ms", BAD)
    assert cell("work", readout(work_ms=15.0)) == Cell("15.00 ms", STRAINED)
    assert cell("work", readout(work_ms=20.0)) == Cell("20.00 ms", BAD)


def test_a_step_cost_at_or_above_the_step_is_red() -> None:
    assert cell("step cost", readout(step_cost_ms=4.0)) == Cell("4.0 ms", P)
    assert cell("step cost", readout(step_cost_ms=10.0)) == Cell("10.0 ms", STRAINED)
    assert cell("step cost", readout(step_cost_ms=24.0)) == Cell("24.0 ms", BAD)


def test_two_lanes_give_one_cell_per_lane_and_one_for_the_render_loop() -> None:
    two = readout(lanes=(lane(policy="drop"), lane(policy="uncapped", overloaded=True)))
    rows = {row.label: row for group in stat_groups(two) for row in group.rows}
    assert rows["policy"].cells == (Cell("drop"), Cell("uncapped"))
    assert rows["status"].cells == (
        Cell("keeping up", OK),
        Cell("OVERLOADED", BAD, badge=True),
    )
    assert len(rows["fps"].cells) == 1
    assert len(rows["interpolation"].cells) == 1


def test_rows_are_dropped_least_important_and_lowest_first() -> None:
    groups = (
        Group("A", (Row("a1", (Cell("1"),)), Row("a2", (Cell("2"),), DETAIL))),
        Group("B", (Row("b1", (Cell("3"),), DETAIL), Row("b2", (Cell("4"),), ESSENTIAL))),
    )

    def at_most(rows: int) -> frozenset[tuple[int, int]]:
        return rows_to_keep(groups, lambda shown: sum(len(g.rows) for g in shown) <= rows)

    assert at_most(4) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert at_most(3) == {(0, 0), (0, 1), (1, 1)}  # b1: a detail, lower than a2
    assert at_most(2) == {(0, 0), (1, 1)}
    assert at_most(1) == {(0, 0)}
    assert at_most(0) == frozenset()
    assert [g.title for g in select(groups, at_most(1))] == ["A"]  # B left without rows


def test_the_words_of_the_hud_are_computed_without_pygame() -> None:
    code = (
        "import sys, game.hud.stats, game.hud.rows, game.hud.graph_bins, game.hud.hud_colours; "
        "print('pygame' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
