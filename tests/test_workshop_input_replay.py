"""Avatar presses are recorded like every command, and replay exactly at any render rate, under
every input model: the record holds what each tick consumed, not the keys."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.vocabulary import INPUT_MODEL_NAMES
from game.workshop.files.input_script import parse_input_script
from game.workshop.files.recording import SessionRecorder
from game.workshop.files.scenario import ClockSection, Scenario
from game.workshop.runs.simulation import run_scenario, scenario_config

KEYS = """
random jump 3/s seed 11
random dash 1/s seed 12
400   hold right 900
1500  hold left 300
"""


@pytest.mark.parametrize("model", INPUT_MODEL_NAMES)
def test_a_session_with_presses_replays_to_its_hash_at_30_144_and_240_fps(
    model: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = Scenario(seconds=Fraction(4), clock=ClockSection(render_fps=Fraction(144)))
    scenario = scenario.model_copy(
        update={"input": scenario.input.model_copy(update={"model": model})}
    )
    edges = parse_input_script(KEYS, "keys").timeline(scenario.seconds)
    path = tmp_path / "played.replay"
    live = run_scenario(
        scenario, recorder=SessionRecorder(scenario_config(scenario), path), key_edges=edges
    )
    assert live.inputs.presses > 10
    assert '"command": "avatar_input"' in path.read_text()
    for fps in ("30", "144", "240"):
        assert main(["replay", str(path), "--render-fps", fps]) == 0
        out = capsys.readouterr().out
        assert f"final tick {live.tick} state {live.state_hash}" in out


def test_the_models_make_different_worlds_from_the_same_keys() -> None:
    scenario = Scenario(seconds=Fraction(3), clock=ClockSection(render_fps=Fraction(144)))
    edges = parse_input_script(KEYS, "keys").timeline(scenario.seconds)
    hashes = {
        run_scenario(
            scenario.model_copy(update={"input": scenario.input.model_copy(update={"model": m})}),
            key_edges=edges,
        ).state_hash
        for m in ("frame-edge", "counted")
    }
    assert len(hashes) == 2


def test_an_edited_avatar_input_line_fails_the_record_hash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = Scenario(seconds=Fraction(2), clock=ClockSection(render_fps=Fraction(144)))
    edges = parse_input_script(KEYS, "keys").timeline(scenario.seconds)
    path = tmp_path / "played.replay"
    run_scenario(
        scenario, recorder=SessionRecorder(scenario_config(scenario), path), key_edges=edges
    )
    lines = path.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"command": "avatar_input"' in line)
    record = json.loads(lines[index])
    lines[index] = json.dumps({**record, "dashes": record["dashes"] + 1})
    path.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(path)]) == 1
    assert "its lines were changed after it was recorded" in capsys.readouterr().out
