"""A scenario's `[[changes]]` switching delta-time conditioning mid-run, as the U key does.

Most runs here are frames of exactly 16.9 ms (a 16.9 ms render cost, at most 1000 fps) at 60 Hz
ticks on a 60 Hz refresh: Glaiel's measured delta. `snap` counts one refresh period instead
(16,666,667 or 16,666,666 ns on the exact grid) and keeps the 233,333 ns it did not count in the
conditioning account, until the account would pass the 1 ms tolerance and is paid back whole.
Frame n ends at n x 16.9 ms, so a change at 0.0845 s falls exactly on frame 5's end.

The switch is the live game's: the session reconfigures the scheduler between two frames and
the new mode inherits the account as it stands. Nothing is made or lost: every frame balances
with `==`, and each frame's account in is the last frame's account out, across the switch too.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.from_config import session_from
from game.knobs import Move
from game.session.controls import Action
from game.vocabulary import CONDITIONING_NAMES
from game.workshop.clips.cues import ScenarioCues
from game.workshop.files.recording import SessionRecorder
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import load_scenario
from game.workshop.files.timeline import SettingsChange
from game.workshop.runs.runner import RunResult
from game.workshop.runs.simulation import run_scenario, scenario_config
from timestep_lab import NS_PER_MS, NS_PER_SECOND

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"
RAW = (16_900_000, 0)
"""(counted ns, account out) of a raw 16.9 ms frame with nothing in the account."""
SNAPPED = [(16_666_667, 233_333), (16_666_667, 466_666), (16_666_666, 700_000),
           (16_666_667, 933_333), (17_833_333, 0)]  # fmt: skip
"""Five snapped 16.9 ms frames from an empty account: the fifth would leave 1.166 ms in it,
more than the tolerance, so it counts the frame and the account whole."""


def scenario(
    first: str,
    *changes: tuple[str, str] | dict[str, str],
    seconds: str = "0.3",
    **clock: object,
) -> Scenario:
    """16.9 ms frames at 60 Hz, starting in `first`, switched by `(at, mode)` changes (or turned
    by a change written out as a table)."""
    return Scenario.model_validate(
        {
            "seconds": seconds,
            "scheduler": {"hz": 60, "conditioning": first},
            "clock": {"render_fps": 1000, "render_cost_ms": "16.9", **clock},
            "changes": [
                change if isinstance(change, dict) else {"at": change[0], "conditioning": change[1]}
                for change in changes
            ],
        }
    )


def accounts(result: RunResult, frames: int = 10) -> list[tuple[int, int]]:
    """(counted ns, conditioning account out) of the first `frames` frames."""
    return [
        (frame.plan.counted_ns, frame.plan.conditioning_carry_ns)
        for frame in result.frames[:frames]
    ]


def assert_nothing_made_or_lost(result: RunResult) -> None:
    """Every frame balances with `==`, the account flows from each frame into the next (a switch
    neither empties nor refills it), and the books over the run balance to the grain."""
    carried = 0
    for frame in result.frames:
        plan = frame.plan
        assert plan.balances, frame.number
        assert plan.conditioning_carry_in_ns == carried, frame.number
        assert plan.conditioning_carry_in_ns + plan.elapsed_ns == (
            plan.counted_ns + plan.conditioning_carry_ns
        )
        carried = plan.conditioning_carry_ns
    books = result.books
    assert books["ledger_ok"] is True
    assert books["conditioning_carry_ns"] == carried


def test_a_change_entry_becomes_a_settings_change_with_the_mode() -> None:
    (change,) = scenario("raw", ("2.5", "snap")).timeline().changes
    assert change == SettingsChange(Fraction(2_500_000_000), conditioning="snap")


@pytest.mark.parametrize(
    ("at", "first_snapped"),
    [
        ("0.0845", 5),  # exactly frame 5's end: planned with snap already
        ("0.08450001", 6),  # 10 ns later: the next boundary, frame 6's end
        ("0.1", 6),
        ("0.1014", 6),
        ("0.1015", 7),
    ],
)
def test_raw_to_snap_applies_to_the_first_frame_that_ends_at_or_after_the_second(
    at: str, first_snapped: int
) -> None:
    # As every other change: a key pressed during a frame is read at its end, and the plan made
    # there (for the frame that just ended) is made under the new mode.
    result = run_scenario(scenario("raw", (at, "snap")))
    assert accounts(result) == [RAW] * (first_snapped - 1) + (SNAPPED * 2)[: 11 - first_snapped]
    assert_nothing_made_or_lost(result)


def test_snap_to_raw_pays_the_account_back_in_the_first_raw_frame() -> None:
    # After three snapped frames 0.7 ms is in the account; raw counts it with frame 4's 16.9 ms.
    result = run_scenario(scenario("snap", ("0.0676", "raw")))
    assert accounts(result, 6) == [*SNAPPED[:3], (17_600_000, 0), RAW, RAW]
    assert result.frames[3].plan.conditioning_carry_in_ns == 700_000
    assert_nothing_made_or_lost(result)


@pytest.mark.parametrize(
    ("mode", "after_switch"),
    [
        # godot has no ticks-per-frame history yet (snap kept none): it runs the natural tick
        # count and so counts the frame and the account whole, as raw does.
        ("godot", [(17_600_000, 0), RAW]),
        # average starts with the last delta in its window and counts 1/4 of the frame, minus the
        # uncounted 3/4 of the one before: it holds back, the account grows to the window's
        # (N-1)/2 x 16.9 = 25.35 ms and stays there.
        ("average", [(4_925_000, 12_675_000), (8_450_000, 21_125_000),
                     (12_675_000, 25_350_000), (16_900_000, 25_350_000)]),
    ],
)  # fmt: skip
def test_snap_to_another_mode_hands_it_the_account(
    mode: str, after_switch: list[tuple[int, int]]
) -> None:
    result = run_scenario(scenario("snap", ("0.0676", mode)))
    assert accounts(result, 3 + len(after_switch)) == [*SNAPPED[:3], *after_switch]
    assert_nothing_made_or_lost(result)


def test_raw_to_average_fills_the_window_as_at_the_start_of_a_run() -> None:
    # A fresh window, as when the game starts in average: 1/4, 2/4, 3/4 of a frame counted, so
    # frames 6 and 7 run no tick. The time is in the account, not lost: frame 8 runs its tick
    # and the run ends with 25.35 ms still to count.
    result = run_scenario(scenario("raw", ("0.1014", "average")))
    plans = [frame.plan for frame in result.frames[4:9]]
    assert [(plan.steps, plan.counted_ns) for plan in plans] == [
        (1, 16_900_000), (0, 4_225_000), (0, 8_450_000), (1, 12_675_000), (1, 16_900_000),
    ]  # fmt: skip
    assert result.books["conditioning_carry_ns"] == 25_350_000
    assert_nothing_made_or_lost(result)


@pytest.mark.parametrize("second", CONDITIONING_NAMES)
@pytest.mark.parametrize("first", CONDITIONING_NAMES)
def test_the_headless_switch_is_the_live_games_u_key(first: str, second: str) -> None:
    """The same measured frames played on a session by hand, with U pressed before the frame
    that ends at the change's second (U cycles raw, snap, average, godot), give the same plans."""
    headless = run_scenario(scenario(first, ("0.0676", second), jitter_ms="0.8", jitter_seed=3))
    live = session_from(scenario_config(scenario(first)))
    presses = (CONDITIONING_NAMES.index(second) - CONDITIONING_NAMES.index(first)) % 4
    for frame in headless.frames:
        if frame.number == 4:
            for _ in range(presses):
                live.apply(Action.turn("scheduler.conditioning", Move.NEXT))
        (plan,) = live.play_frame(frame.plan.elapsed_ns)
        assert plan == frame.plan, frame.number
    assert live.lanes[0].scheduler.settings.conditioning == second


def test_every_frame_balances_across_switches_under_jitter_and_a_time_scale() -> None:
    # Four seconds of jittered frames through every mode and back, in slow motion from 2.5 s
    # (a time scale of 1/7 makes the grain finer mid-run): the account flows on unbroken.
    changes: list[tuple[str, str] | dict[str, str]] = [
        ("0.5", "snap"), ("1", "average"), ("1.5", "godot"), ("2", "raw"), ("2.5", "average"),
        {"at": "2.5", "time_scale": "1/7"}, ("3", "snap"), ("3.5", "godot"),
    ]  # fmt: skip
    result = run_scenario(scenario("raw", *changes, seconds="4", jitter_ms="1.5", jitter_seed=11))
    assert_nothing_made_or_lost(result)
    assert any(frame.plan.conditioning_carry_ns != 0 for frame in result.frames)
    measured = result.books["wall_ns"]
    counted = sum(frame.plan.counted_ns for frame in result.frames)
    assert measured == counted + result.books["conditioning_carry_ns"]


def test_the_heartbeat_scenario_runs_0_or_2_ticks_raw_and_1_once_snapped() -> None:
    # One simulate run shows both halves: the same noisy deltas, raw then snap from 5 s.
    result = run_scenario(load_scenario(SCENARIOS / "heartbeat_snap.toml"))
    ticks: dict[bool, Counter[int]] = {False: Counter(), True: Counter()}
    for frame in result.frames:
        ticks[frame.wall_ns >= 5 * NS_PER_SECOND][frame.plan.steps] += 1
    assert ticks[False] == {0: 67, 1: 172, 2: 63}  # the heartbeat (the first 3 fill the queue)
    assert ticks[True] == {1: 301}
    snapped = [frame.plan for frame in result.frames if frame.wall_ns >= 5 * NS_PER_SECOND]
    assert max(abs(plan.conditioning_carry_ns) for plan in snapped) <= NS_PER_MS + 1
    assert_nothing_made_or_lost(result)


def test_a_clip_hands_the_switch_to_the_game_loop_as_a_controls_change() -> None:
    cues = ScenarioCues(scenario("raw", ("2", "godot")))
    assert cues.changes_due(1_999_999_999) == []
    (change,) = cues.changes_due(2_000_000_000)
    assert change.conditioning == ("godot", "godot")


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        ('conditioning = "smooth"',
         "[changes[2].conditioning] must be one of 'raw', 'snap', 'average' or 'godot' "
         "(got 'smooth')"),
        ("conditioning = 2", "[changes[2].conditioning] must be text in quotes (got 2)"),
        # The mode's parameters are [scheduler]'s for the whole run: no key turns them.
        ('conditioning = "average"\naverage_frames = 8',
         "[changes[2].average_frames] unknown setting (got 8)"),
    ],
)  # fmt: skip
def test_a_bad_conditioning_change_is_one_line_naming_file_key_and_value_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], entry: str, line: str
) -> None:
    path = tmp_path / "switch.toml"
    path.write_text(f'[[changes]]\nat = 1\npolicy = "drop"\n\n[[changes]]\nat = 2\n{entry}\n')
    assert main(["simulate", "--scenario", str(path)]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err.splitlines()) == ("", [f"{path}: {line}"])


def test_a_run_with_switches_is_the_same_run_every_time() -> None:
    switched = scenario("raw", ("0.5", "snap"), ("1", "godot"), seconds="2", jitter_ms="1")
    first, again = run_scenario(switched), run_scenario(switched)
    assert [frame.record() for frame in first.frames] == [frame.record() for frame in again.frames]
    assert (first.state_hash, first.tick) == (again.state_hash, again.tick)


@pytest.mark.parametrize("fps", ["30", "240"])
def test_a_recorded_run_with_switches_replays_to_its_state_at_any_render_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fps: str
) -> None:
    # Conditioning decides which frame runs a tick, never what a tick does: the recording keeps
    # the commands by tick, so the replay needs no conditioning to end in the same state.
    path = tmp_path / "switch.toml"
    path.write_text(
        'seconds = 3\n[scheduler]\nconditioning = "snap"\n'
        "[clock]\nrender_fps = 144\njitter_ms = 2\njitter_seed = 9\n"
        '[[changes]]\nat = 1\nconditioning = "average"\n'
        '[[changes]]\nat = 2\nconditioning = "raw"\n'
        '[[inputs]]\nsim_second = 0.5\naction = "fire"\n'
        '[[inputs]]\nsim_second = 1.2\naction = "fire"\nx = 20\ny = 6\n'
    )
    loaded = load_scenario(path)
    record = tmp_path / "switch.replay"
    live = run_scenario(loaded, recorder=SessionRecorder(scenario_config(loaded), record))
    assert main(["replay", str(record), "--render-fps", fps]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"final tick {live.tick} state {live.state_hash}",
        f"matches the recording (replayed at {fps} fps)",
    ]
