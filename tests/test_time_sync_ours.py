"""Time sync on our side: the remote joined late, we are the peer ahead, and we wait or stretch.

With `remote_late_ms = 100` at 60 Hz the remote's ticks run 6 behind ours (100 ms / 16.667 ms).
`wait` holds back exactly the ticks GGPO's rule recommends (half the gap between the two
averages, +6 and -6: 6), their time dropped on the books; `stretch` makes each tick 11/10 of the
step (lane 0's time scale 10/11) while the averages put us a whole tick ahead. At
`remote_late_ms = 0` neither acts, and every existing run is what it was.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from game.cli import main
from game.config.loading import load_config
from game.from_config import session_from
from game.session.controls import Controls
from game.workshop.files.scenario_loading import load_scenario
from game.workshop.runs.reports import FrameReport
from game.workshop.runs.simulation import run_scenario
from tests.helpers import recorded_run, replayed_at
from timestep_lab import NS_PER_MS, FixedStepScheduler, SchedulerSettings, hz_to_step_ns

H_NS = hz_to_step_ns(60)
SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"


def test_a_hold_drops_exactly_the_held_ticks_and_the_ledger_balances() -> None:
    scheduler = FixedStepScheduler(SchedulerSettings(step_ns=H_NS))
    scheduler.hold(2)
    plan = scheduler.advance(3 * 16_666_667)  # 3 steps and 1 ns
    assert (plan.steps, plan.dropped_ns, plan.remainder_ns) == (1, 2 * H_NS, Fraction(1))
    assert plan.balances and not plan.indicators.strained  # a wait is not an overload
    assert (scheduler.held_ticks, scheduler.tick, scheduler.sim_time_ns) == (0, 1, H_NS)
    scheduler.hold(5)
    assert scheduler.advance(0).steps == 0 and scheduler.held_ticks == 5  # no tick: none held
    with pytest.raises(ValueError, match="at least 0"):
        scheduler.hold(-1)


def frames_of(name: str, **network: object) -> tuple[list[FrameReport], Any]:
    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    if network:
        assert scenario.network is not None
        scenario = scenario.model_copy(
            update={"network": scenario.network.model_copy(update=network)}
        )
    frames: list[FrameReport] = []
    result = run_scenario(scenario, sink=frames.append)
    return frames, result


def test_the_wait_freezes_exactly_the_recommended_ticks_and_every_frame_balances() -> None:
    frames, result = frames_of("rollback_wait")
    held = [(frame.number, frame.rollback.held, frame.plan.steps) for frame in frames]
    waiting = [(index, ticks, steps) for index, ticks, steps in held if ticks]
    assert [(ticks, steps) for _, ticks, steps in waiting] == [(1, 0)] * 6  # 6 frames, no tick
    assert [index for index, _, _ in waiting] == list(range(waiting[0][0], waiting[0][0] + 6))
    for frame in frames:
        assert frame.plan.balances
        assert frame.plan.dropped_ns == frame.rollback.held * H_NS  # the wait's, nothing else
    assert result.books["dropped_ns"] == 100 * NS_PER_MS  # 6 ticks of 16.667 ms, exactly
    assert result.books["ledger_ok"] is True
    assert result.rollback.held_ticks == 6 and result.rollback.stretched_frames == 0
    assert result.judder.judder_pct == 16.258  # 6 of 228 refreshes stood still: -100 % each


def test_the_stretch_makes_each_tick_exactly_eleven_tenths_of_the_step() -> None:
    frames, result = frames_of("rollback_stretch")
    stretched = [frame for frame in frames if frame.rollback.stretched]
    assert len(stretched) == result.rollback.stretched_frames == 75
    for frame in frames:
        plan = frame.plan
        scale = Fraction(10, 11) if frame.rollback.stretched else Fraction(1)
        assert plan.scaled_ns == plan.account.counted_ns * scale  # a tick is 11/10 of the wall
        assert plan.balances and plan.dropped_ns == 0  # no frame stands still
    wall = sum(frame.plan.elapsed_ns for frame in stretched)
    assert result.books["wall_ns"] - result.books["scaled_ns"] == round(Fraction(wall, 11))
    assert result.rollback.held_ticks == 0
    assert result.judder.judder_pct == 5.155  # 73 refreshes 9.09 % slow, none frozen


def test_without_a_late_remote_our_time_sync_never_acts() -> None:
    """rollback_map as it ran before there was a late remote: the same hash, books, figures;
    and under wait or stretch, exactly what it is under none."""
    runs = {
        mode: frames_of("rollback_map", time_sync=mode)[1] for mode in ("none", "wait", "stretch")
    }
    before = runs["none"]
    assert before.state_hash == ("b706d9188737c94fe64ddb48347c32b419dda52987fbbf4b33bfc4b977d6e27a")
    assert (before.tick, before.books["dropped_ns"], before.max_frame_ns) == (179, 0, 16833333)
    assert (before.rollback.resimulated_ticks, before.rollback.prediction_misses) == (1038, 173)
    for mode in ("wait", "stretch"):
        assert runs[mode].state_hash == before.state_hash
        assert runs[mode].books == before.books
        assert runs[mode].rollback.summary() == before.rollback.summary()


@pytest.mark.parametrize("time_sync", ["wait", "stretch"])
def test_a_recording_of_a_late_remote_replays_to_its_hash_at_30_and_240_fps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], time_sync: str
) -> None:
    record = tmp_path / "late.replay"
    header = recorded_run(
        tmp_path / "late.toml",
        "seconds = 5\n[clock]\nrender_fps = 60\n[network]\nlatency_ms = 50\njitter_ms = 10\n"
        f'loss = 0.05\nprediction_window = 20\ntime_sync = "{time_sync}"\nseed = 4\n'
        "remote_late_ms = 100\nremote_flips_per_s = 6\n",
        record,
    )[0]
    assert f'"time_sync": "{time_sync}"' in header and '"remote_late_ms": "100"' in header
    said = capsys.readouterr().out
    assert ("ticks held by time sync's wait" in said) == (time_sync == "wait")
    assert ("frames stretched" in said) == (time_sync == "stretch")
    assert replayed_at(record, ("30", "240")) == [
        "matches the recording (replayed at 30 fps)",
        "matches the recording (replayed at 240 fps)",
    ]


@pytest.mark.parametrize("value", ["-1", "10001", '"late"'])
def test_a_late_start_outside_its_range_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text(f"seconds = 1\n[network]\nremote_late_ms = {value}\n", encoding="utf-8")
    assert main(["simulate", "--scenario", str(scenario)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert "network.remote_late_ms" in error


def test_in_the_game_a_lesson_s_late_remote_makes_the_session_wait_and_the_hud_say_so() -> None:
    controls = Controls(
        policies=("drop",), network=True, latency_ms=Fraction(50), prediction_window=20,
        time_sync="wait", remote_late_ms=Fraction(100), remote_flips_per_s=Fraction(0),
    )  # fmt: skip
    session = session_from(load_config(None, ()))
    session.set_controls(controls)  # as a lesson step sets them: a new connection
    rollback = session.rollback
    assert rollback is not None and rollback.peer is not None
    held, waiting_seen = [], False
    for frame in range(120):
        steps = session.play_frame(16_666_667 if frame % 3 else 16_666_666)[0].steps
        held.append((rollback.last_frame.held, steps))
        waiting_seen = waiting_seen or rollback.readout().waiting
    assert sum(ticks for ticks, _ in held) == 6 and waiting_seen
    assert all(steps == 0 for ticks, steps in held if ticks)
    assert session.lanes[0].books.ledger_ok
    assert rollback.readout().held_total == 6 and not rollback.readout().waiting
