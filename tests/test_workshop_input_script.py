"""Input scripts: taps, holds and a seeded random tapper read exactly; a bad line is one line."""

from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.errors import BadInput
from game.workshop.files.input_script import parse_input_script
from game.workshop.files.timeline import KeyEdge

MS = 1_000_000


def test_taps_and_holds_become_edges_at_exact_wall_times() -> None:
    script = parse_input_script("500 tap jump\n800 tap dash 12.5\n1000 hold right 400\n", "s")
    assert script.timeline(Fraction(2)) == (
        KeyEdge(500 * MS, "jump", True),
        KeyEdge(530 * MS, "jump", False),  # a tap holds 30 ms unless told
        KeyEdge(800 * MS, "dash", True),
        KeyEdge(812_500_000, "dash", False),
        KeyEdge(1000 * MS, "right", True),
        KeyEdge(1400 * MS, "right", False),
    )


def test_a_random_tapper_places_rate_x_seconds_taps_the_same_way_every_time() -> None:
    script = parse_input_script("random jump 4/s seed 7 hold 20\n", "s")
    edges = script.timeline(Fraction(10))
    assert len(edges) == 80
    assert edges == parse_input_script("random jump 4/s seed 7 hold 20", "s").timeline(Fraction(10))
    assert edges != parse_input_script("random jump 4/s seed 8 hold 20", "s").timeline(Fraction(10))
    assert all(0 <= edge.at_ns < 10_020 * MS for edge in edges)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("100 tap jmup", "unknown button 'jmup' (known: jump, dash)"),
        ("soon tap jump", "the time must be milliseconds like 500 or 12.5"),
        ("100 hold left", "a hold is 'MS hold BUTTON HOLD_MS'"),
        ("100 press jump", "a line is 'MS tap BUTTON [MS]', 'MS hold BUTTON MS' or 'random ...'"),
        ("random jump fast", "the rate must be taps a second, like 4/s"),
        ("random jump 0/s", "the rate must be above 0 and at most 1000/s"),
        ("random jump 2/s seed x", "the seed must be a whole number"),
    ],
)
def test_a_bad_line_is_refused_with_its_file_line_and_text(line: str, message: str) -> None:
    with pytest.raises(BadInput) as refused:
        parse_input_script(f"# keys\n\n{line}\n", "keys.txt")
    assert refused.value.lines == (f"keys.txt:3: {message} (got {line!r})",)


def test_simulate_refuses_a_bad_script_or_model_with_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "keys.txt"
    script.write_text("100 tap jump\n200 tap jmup\n")
    assert main(["simulate", "--input-script", str(script)]) == 2
    err = capsys.readouterr().err
    assert err == f"{script}:2: unknown button 'jmup' (known: jump, dash) (got '200 tap jmup')\n"
    assert main(["simulate", "--input-models", "frame-edge,psychic"]) == 2
    assert capsys.readouterr().err == (
        "error: --input-models: unknown input model 'psychic' "
        "(known: frame-edge, tick-poll, latched, counted, stamped)\n"
    )


@pytest.mark.slow
def test_simulate_reports_each_models_counters_in_json_and_frames_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import csv
    import json

    script = tmp_path / "keys.txt"
    script.write_text("random jump 5/s seed 3\n")
    args = ["simulate", "--hz", "60", "--render-fps", "30", "--seconds", "4",
            "--input-script", str(script), "--input-models", "frame-edge,counted"]  # fmt: skip
    assert main([*args, "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    summary = lines[-1]["summary"]["inputs"]
    # 20 taps; three start while the one before is still held (30 ms), so they are no press
    assert summary["frame-edge"]["presses"] == summary["counted"]["presses"] == 17
    assert summary["counted"] == {"presses": 17, "seen": 17, "lost": 0, "doubled": 0, "merged": 0}
    assert summary["frame-edge"]["doubled"] + summary["frame-edge"]["seen"] == 17
    assert lines[-2]["inputs"] == summary
    assert main([*args, "--out", str(tmp_path / "out")]) == 0
    rows = list(csv.DictReader((tmp_path / "out" / "frames.csv").open()))
    assert rows[-1]["counted.seen"] == "17" and rows[-1]["frame-edge.presses"] == "17"
