"""The present modes: the queue (vsync), latest frame wins (mailbox, composed) and immediate
(tearing), frame by frame and for a whole open-loop run at once, exactly."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from game.cli import main
from game.display.model import (
    PRESENT_MODES,
    DisplaySettings,
    PresentMode,
    VirtualDisplay,
    reached_screen,
)
from game.workshop.files.display_section import DisplaySection
from game.workshop.files.scenario import Scenario
from game.workshop.runs.runner import RunResult
from game.workshop.runs.simulation import run_scenario

P60 = Fraction(50_000_000, 3)  # one refresh at 60 Hz, ns
MS = 1_000_000


def test_latest_frame_wins_shows_the_newest_frame_at_each_vblank() -> None:
    # Vblanks at P, 2P, 3P (phase 0). Frames ready at 2 and 10 ms are both due at P: the one at
    # 10 ms replaces the one at 2 ms, which is never shown; the one at 20 ms is shown at 2P.
    display = VirtualDisplay(DisplaySettings(phase=Fraction(0), present_mode="latest"))
    presented = [display.present(Fraction(ms * MS)) for ms in (2, 10, 20)]
    assert [p.shown_ns for p in presented] == [P60, P60, 2 * P60]
    assert display.replaced == 1
    shown = np.array([int(p.shown_ns * 3) for p in presented], dtype=np.int64)
    assert reached_screen(shown).tolist() == [False, True, True]


def test_latest_frame_wins_never_blocks_the_loop() -> None:
    # A queue of one would hold the second frame until P; the mailbox takes it at once.
    display = VirtualDisplay(DisplaySettings(phase=Fraction(0), present_mode="latest"))
    frames = [display.present(Fraction(ms * MS)) for ms in (1, 2, 3, 4)]
    assert [frame.blocked_ns for frame in frames] == [0, 0, 0, 0]
    assert display.replaced == 3


def test_immediate_is_vsync_off_and_each_spelling_sets_the_other() -> None:
    immediate = DisplaySettings(present_mode="immediate")
    assert (immediate.vsync, immediate.describe()) == (False, "60 Hz no vsync")
    assert DisplaySettings(vsync=False).present_mode == "immediate"
    shown = VirtualDisplay(immediate).present(Fraction(7_000_001))
    assert (shown.resumed_ns, shown.shown_ns) == (7_000_001, 7_000_001)
    latest = DisplaySettings(refresh_hz=Fraction(144), present_mode="latest")
    assert latest.describe() == "144 Hz vsync, latest frame wins"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"vsync": False, "present_mode": "latest"}, "it needs vsync, no VRR"),
        (
            {"vrr_min_hz": Fraction(48), "vrr_max_hz": Fraction(144), "present_mode": "latest"},
            "it needs vsync, no VRR",
        ),
        ({"present_mode": "fifo"}, "present mode must be one of queue, latest, immediate"),
    ],
)
def test_modes_that_cannot_be_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DisplaySettings(**settings)  # type: ignore[arg-type]


def test_reached_screen_in_the_queue_and_immediate_modes_is_every_frame() -> None:
    assert reached_screen(np.array([5, 9, 12], dtype=np.int64)).tolist() == [True] * 3
    assert reached_screen(np.array([], dtype=np.int64)).tolist() == []


@pytest.mark.parametrize("mode", PRESENT_MODES)
def test_an_open_loop_run_at_once_says_what_present_says_frame_by_frame(mode: PresentMode) -> None:
    # 2,000 frames near 120 fps (8.3 ms +- 3 ms, and a few 40 ms hitches) on 59.94 Hz: the
    # arrays give every frame's shown time exactly as `present` does, in the grid's units.
    rng = random.Random(18)
    ready, now = [], 0
    for _ in range(2_000):
        now += 8_333_333 + rng.randint(-3 * MS, 3 * MS) + (40 * MS if rng.random() < 0.01 else 0)
        ready.append(now)
    settings = DisplaySettings(refresh_hz=Fraction(5994, 100), present_mode=mode)
    one_by_one = VirtualDisplay(settings)
    expected = [one_by_one.present(Fraction(ns)).shown_ns for ns in ready]
    at_once = VirtualDisplay(settings)
    units = at_once.present_open_loop(np.array(ready, dtype=np.int64))
    assert [Fraction(int(unit), at_once.units_per_ns) for unit in units] == expected


def test_an_open_loop_queue_shows_every_frame_one_refresh_apart_once_it_falls_behind() -> None:
    # Three frames 1 ms apart: the queue shows them at P, 2P and 3P (it never drops one).
    display = VirtualDisplay(DisplaySettings(phase=Fraction(0)))
    units = display.present_open_loop(np.array([MS, 2 * MS, 3 * MS], dtype=np.int64))
    assert [Fraction(int(unit), display.units_per_ns) for unit in units] == [
        P60,
        2 * P60,
        3 * P60,
    ]


def run(fps: int, mode: PresentMode) -> RunResult:
    """5 s of 60 Hz ticks, interpolated, the loop capped at `fps`, on a 60 Hz display."""
    scenario = Scenario.model_validate(
        {
            "seconds": 5,
            "scheduler": {"hz": 60},
            "clock": {"render_fps": fps, "render_cost_ms": 1},
            "display": {"refresh_hz": "60", "interpolation": "interpolate", "present_mode": mode},
        },
        strict=False,
    )
    return run_scenario(scenario)


def test_at_120_fps_latest_frame_wins_shows_every_other_frame_sooner_than_the_queue() -> None:
    # The queue holds a 120 fps loop to the refresh (302 frames in 5 s) and the picture is
    # 66.7 ms old when it is shown; the mailbox lets it run (600 frames), every other one is
    # shown, and the picture is 27.2 ms old. Both move evenly: no judder.
    queue, latest = run(120, "queue"), run(120, "latest")
    assert (queue.books["frames"], latest.books["frames"]) == (302, 600)
    assert queue.judder is not None and latest.judder is not None
    assert (queue.judder.latency_ms, latest.judder.latency_ms) == (66.667, 27.167)
    assert (queue.judder.judder_pct, latest.judder.judder_pct) == (0.0, 0.0)


def test_at_144_fps_latest_frame_wins_judders() -> None:
    # 2.4 frames a refresh: the shown frame is 2 or 3 frames on, 13.9 or 20.8 ms of motion.
    judder = run(144, "latest").judder
    assert judder is not None
    assert judder.judder_pct == 20.412


def test_a_scenario_names_the_present_mode() -> None:
    assert DisplaySection().settings().present_mode == "queue"
    assert DisplaySection(vsync=False).settings().present_mode == "immediate"
    assert DisplaySection(present_mode="latest").settings().present_mode == "latest"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('vsync = false\npresent_mode = "latest"',
         "[display.present_mode] latest shows frames on the vblank grid: it needs vsync = true "
         "and no VRR range (got 'latest')"),
        ('vsync = true\npresent_mode = "immediate"',
         "[display.present_mode] immediate is vsync off: it contradicts vsync = true "
         "(got 'immediate')"),
        ('present_mode = "mailbox"',
         "[display.present_mode] must be one of 'queue', 'latest' or 'immediate' "
         "(got 'mailbox')"),
    ],
)  # fmt: skip
def test_a_present_mode_that_cannot_be_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f"[display]\n{text}\n", encoding="utf-8")
    assert main(["simulate", "--scenario", str(path)]) == 2
    assert capsys.readouterr().err == f"{path}: {line}\n"
