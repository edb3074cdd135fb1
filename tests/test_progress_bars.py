"""Every long command shows the progress bar of `game.workshop.runs.progress`, under its rule:
on a terminal only, once the work has run for `SHOW_AFTER_S`, moved as the work goes on, gone when
the work ends. Here the bar is told it is on a terminal and to show at once, and rich's bar is
watched: which bar started, how far it was moved, and that it stopped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.progress import Progress, TaskID

from game.cli import main
from game.workshop.runs import progress


class Watched:
    """What the bars did: one entry per bar started, with its label, its total and the last
    `completed` it was moved to; `stopped` counts the bars taken off the screen."""

    def __init__(self) -> None:
        self.started: list[tuple[str, float, float]] = []
        self.stopped = 0


@pytest.fixture
def bars(monkeypatch: pytest.MonkeyPatch) -> Iterator[Watched]:
    watched = Watched()
    update = Progress.update

    def start(self: Progress) -> None:
        task = self.tasks[0]
        watched.started.append((str(task.description), task.total or 0.0, task.completed))

    def moved(self: Progress, task_id: TaskID, **fields: Any) -> None:
        update(self, task_id, **fields)
        if watched.started:  # the bar on the screen: where it now stands
            label, total, _ = watched.started[-1]
            watched.started[-1] = (label, total, self.tasks[0].completed)

    def stop(self: Progress) -> None:
        watched.stopped += 1

    monkeypatch.setattr(progress, "on_a_terminal", lambda: True)
    monkeypatch.setattr(progress, "SHOW_AFTER_S", 0.0)
    monkeypatch.setattr(progress, "EVERY_FRAMES", 1)  # every frame moves the bar
    monkeypatch.setattr(Progress, "start", start)
    monkeypatch.setattr(Progress, "update", moved)
    monkeypatch.setattr(Progress, "stop", stop)
    yield watched


def test_simulate_counts_simulated_wall_seconds(bars: Watched) -> None:
    assert main(["simulate", "--seconds", "1", "--json"]) == 0
    assert (bars.started, bars.stopped) == ([("simulated wall seconds", 1, 1)], 1)


def test_compare_counts_the_seconds_of_every_policy(bars: Watched) -> None:
    assert main(["compare", "--seconds", "1", "--policies", "drop,clamp"]) == 0
    assert (bars.started, bars.stopped) == ([("simulated wall seconds", 2, 2)], 1)


def test_sweep_counts_runs(bars: Watched, tmp_path: Path) -> None:
    args = ["--seconds", "1", "--vary", "load.step_cost_ms=1,2", "--workers", "1"]
    args += ["--out", str(tmp_path / "sweep")]
    assert main(["sweep", *args]) == 0
    assert (bars.started, bars.stopped) == ([("runs", 2, 2)], 1)


def test_judder_counts_rows(bars: Watched) -> None:  # a row per tick rate and display mode
    assert main(["judder", "--hz", "60", "--refresh", "144"]) == 0
    assert (bars.started, bars.stopped) == ([("rows", 8, 8)], 1)


def test_schedule_counts_frames(bars: Watched) -> None:
    assert main(["schedule", "16", "17", "40"]) == 0
    assert (bars.started, bars.stopped) == ([("frames", 3, 3)], 1)


def test_replay_counts_ticks(bars: Watched, tmp_path: Path) -> None:
    recording = tmp_path / "run.jsonl"
    assert main(["simulate", "--seconds", "1", "--json", "--record", str(recording)]) == 0
    bars.started.clear()
    bars.stopped = 0
    assert main(["replay", str(recording)]) == 0
    assert (bars.started, bars.stopped) == ([("ticks replayed", 60, 60)], 1)


def test_simulate_with_input_models_counts_the_seconds_of_every_model(bars: Watched) -> None:
    args = ["--seconds", "1", "--input-models", "frame-edge,latched", "--json"]
    assert main(["simulate", *args]) == 0  # the input lab's last frame ends at 0.994444444 s
    assert (bars.started, bars.stopped) == ([("simulated wall seconds", 2, 1.994444444)], 1)
