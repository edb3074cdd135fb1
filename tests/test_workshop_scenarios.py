"""Scenario files: every shipped one runs; bad ones get one exact line per problem."""

from fractions import Fraction
from pathlib import Path

import pytest

from game.errors import BadInput
from game.workshop.files.scenario_loading import Flag, load_scenario
from game.workshop.files.timeline import PlayerInput, SettingsChange, Stall
from game.workshop.runs.simulation import run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"
SHIPPED = sorted(SCENARIOS.glob("*.toml"))


def test_the_workshop_scenarios_are_shipped() -> None:
    assert {path.stem for path in SHIPPED} >= {
        "steady_144", "single_stall", "repeated_stalls", "heavy_jitter", "spiral",
        "slow_motion", "long_pause", "heartbeat_snap",
    }  # fmt: skip


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.stem)
def test_every_shipped_scenario_validates_and_runs(path: Path) -> None:
    assert load_scenario(path).title
    # 1.5 s of it, without its stalls: a stall that would end after the run is refused.
    no_stalls = Flag("--stall", ("stalls",), [])
    scenario = load_scenario(path, [Flag("--seconds", ("seconds",), "1.5"), no_stalls])
    result = run_scenario(scenario)
    assert result.books["ledger_ok"] is True
    assert result.books["wall_ns"] <= 1_500_000_000


def test_a_scenario_becomes_wall_clock_events_and_tick_stamped_inputs() -> None:
    scenario = load_scenario(SCENARIOS / "steady_144.toml")
    timeline = scenario.timeline()
    assert timeline.tick_events == (
        PlayerInput(60, "fire"),
        PlayerInput(150, "fire", x=24.0, y=4.0),
        PlayerInput(240, "integrator", integrator="explicit"),
        PlayerInput(420, "reset"),
    )
    stalls = load_scenario(SCENARIOS / "repeated_stalls.toml").timeline().stalls
    assert stalls[0] == Stall(Fraction(1_500_000_000), Fraction(150_000_000))
    changes = load_scenario(SCENARIOS / "slow_motion.toml").timeline().changes
    assert changes[0] == SettingsChange(Fraction(4_000_000_000), time_scale=Fraction(1, 4))


def test_an_input_lands_on_tick_floor_of_sim_second_times_hz(tmp_path: Path) -> None:
    path = tmp_path / "inputs.toml"
    path.write_text('[scheduler]\nhz = 59.94\n[[inputs]]\nsim_second = 1.5\naction = "fire"\n')
    (event,) = load_scenario(path).timeline().tick_events
    assert event.tick == 89  # 1.5 x 59.94 = 89.91


def test_flags_override_the_file_and_a_stall_flag_replaces_its_stalls() -> None:
    flags = [
        Flag("--policy", ("scheduler", "policy"), "uncapped"),
        Flag("--render-fps", ("clock", "render_fps"), "59.94"),
        Flag("--stall", ("stalls",), [{"at": "0.5", "ms": "40"}], items=("0.5:40",)),
    ]
    scenario = load_scenario(SCENARIOS / "repeated_stalls.toml", flags)
    assert scenario.scheduler.policy == "uncapped"
    assert scenario.scheduler.max_backlog_ms == 1000  # the file's, untouched
    assert scenario.clock.render_fps == Fraction(5994, 100)
    assert scenario.timeline().stalls == (Stall(Fraction(500_000_000), Fraction(40_000_000)),)


def problems(path: Path, text: str, flags: list[Flag] | None = None) -> tuple[str, ...]:
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as refused:
        load_scenario(path, flags or [])
    return refused.value.lines


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("seconds = 0", "[seconds] must be more than 0 (got 0)"),
        ("seconds = 31536001", "[seconds] must be at most 31536000 (got 31536001)"),
        ("secnds = 5", "[secnds] unknown setting, did you mean seconds? (got 5)"),
        ("[clock]\nrender_fps = 0", "[clock.render_fps] must be at least 1 (got 0)"),
        ('[clock]\njitter_ms = "lots"',
         "[clock.jitter_ms] must be a number like 16.7 (got 'lots')"),
        ('[scheduler]\npolicy = "panic"',
         "[scheduler.policy] must be one of 'uncapped', 'clamp', 'drop', 'reset', 'backlog' or "
         "'variable' (got 'panic')"),
        ("[[stalls]]\nat = 1", "[stalls[1].ms] is required"),
        ("[[stalls]]\nat = -1\nms = 5", "[stalls[1].at] must be at least 0 (got -1)"),
        ("[[changes]]\nat = 2",
         "[changes[1].at] a change needs at least one setting besides at, such as policy (got 2)"),
        ("[[changes]]\nat = 2\nhz = 2",
         "[changes[1].hz] makes the step 500 ms, longer than scheduler.max_frame_ms (250) (got 2)"),
        ("[[changes]]\nat = 2\npaused = 1", "[changes[1].paused] must be true or false (got 1)"),
        ('[[inputs]]\nsim_second = 1\naction = "jump"',
         "[inputs[1].action] must be one of 'fire', 'reset' or 'integrator' (got 'jump')"),
        ('[[inputs]]\nsim_second = 1\naction = "integrator"',
         "[inputs[1].integrator] is required by action 'integrator'"),
        ('[[inputs]]\nsim_second = 1\naction = "fire"\nx = 3',
         "[inputs[1].y] is needed too: a target is a point, x and y"),
        ('[[inputs]]\nsim_second = 1\naction = "reset"\nx = 3\ny = 4',
         "[inputs[1].x] is only for action 'fire' (the action is 'reset') (got 3.0)"),
        ('[[inputs]]\nsim_second = 1\naction = "fire"\nx = nan\ny = 4',
         "[inputs[1].x] must be a finite number (got nan)"),
        ("stalls = 5", "[stalls] must be a list (got 5)"),
    ],
)  # fmt: skip
def test_a_bad_scenario_gets_one_exact_line(tmp_path: Path, text: str, line: str) -> None:
    path = tmp_path / "bad.toml"
    assert problems(path, text) == (f"{path}: {line}",)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    assert problems(path, "seconds = 0\n[clock]\nrender_fps = 0\n") == (
        f"{path}: [seconds] must be more than 0 (got 0)",
        f"{path}: [clock.render_fps] must be at least 1 (got 0)",
    )


def test_an_unreadable_scenario_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    assert problems(tmp_path / "bad.toml", "seconds = [")[0].startswith(
        f"{tmp_path / 'bad.toml'}: not valid TOML: "
    )
    with pytest.raises(BadInput) as refused:
        load_scenario(missing)
    assert refused.value.lines == (f"{missing}: file not found",)


@pytest.mark.parametrize(
    ("flag", "line"),
    [
        (Flag("--hz", ("scheduler", "hz"), "sixty"),
         "error: --hz must be a number like 60 or 59.94 (got 'sixty')"),
        (Flag("--max-steps", ("scheduler", "max_steps"), 0),
         "error: --max-steps must be at least 1 (got 0)"),
        (Flag("--policy", ("scheduler", "policy"), "panic"),
         "error: --policy must be one of 'uncapped', 'clamp', 'drop', 'reset', 'backlog' or "
         "'variable' (got 'panic')"),
        (Flag("--hz", ("scheduler", "hz"), "1"),
         "error: --hz: scheduler.max_frame_ms must be at least one step, 1000 ms at 1 Hz "
         "(got 250)"),
        (Flag("--stall", ("stalls",), [{"at": "2", "ms": "0"}], items=("2:0",)),
         "error: --stall 2:0: ms must be more than 0 (got '0')"),
    ],
)  # fmt: skip
def test_a_bad_flag_is_blamed_on_the_flag(flag: Flag, line: str) -> None:
    with pytest.raises(BadInput) as refused:
        load_scenario(None, [flag])
    assert refused.value.lines == (line,)
