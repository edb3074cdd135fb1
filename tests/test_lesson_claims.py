"""Lessons that prove their claims: a step's demo and claims, the measurements, the check.

A step says what to play (`[steps.demo]`: keys at seconds of game time) and which figures its
caption claims (`[[steps.claims]]`); `python -m game lessons --check` plays every demo on the
lesson clock and sets each claim beside its measurement. The measurements are pure functions of
the demo's frames, so they are tested here on frames made by a real scheduler from known frame
times; the check itself runs every shipped lesson.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.commands import lessons as lessons_command
from game.commands.lessons import check_lesson
from game.config.toml_files import load_toml_model
from game.errors import BadInput
from game.session.input_readout import InputCounts
from game.session.rollback_books import RollbackFrame
from game.workshop.claims.check import ClaimResult, check_step, measured
from game.workshop.claims.record import DemoFrame
from game.workshop.files.lessons import Claim, Demo, DemoKey, Lesson, find_lesson, load_lessons
from game.workshop.handout.page import StepClip, page
from timestep_lab import FixedStepScheduler, SchedulerSettings, hz_to_step_ns, round_ns

MS = 1_000_000
LESSONS = load_lessons()

STEP = """
number = 4
title = "A stall"

[[steps]]
caption = "After a 2 s stall the naive alpha goes far above 1."
keys = "press Shift+S, then W"
press = ["shift+s", "w"]
[steps.settings]
alpha = "naive"
[steps.demo]
seconds = 3
jitter_ms = 0.5
keys = [{ at_s = 0.5, key = "shift+s" }]
[[steps.claims]]
measure = "alpha_max"
expected = 50
tolerance = 1
[[steps.claims]]
measure = "judder_pct"
expected = 130
tolerance = 10
lane = 2
from_s = 0.5
to_s = 2.4
refresh_hz = 165
"""


def lesson_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "04_stall.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_step_reads_its_demo_and_its_claims_exactly(tmp_path: Path) -> None:
    (step,) = load_toml_model(lesson_file(tmp_path, STEP), Lesson).steps
    assert step.demo == Demo(
        seconds=Fraction(3),
        keys=(DemoKey(at_s=Fraction(1, 2), key="shift+s"),),
        jitter_ms=Fraction(1, 2),
    )
    alpha, judder = step.claims
    assert (alpha.measure, alpha.expected, alpha.tolerance, alpha.lane) == ("alpha_max", 50, 1, 1)
    assert (alpha.from_s, alpha.to_s, alpha.refresh_hz) == (0, None, None)
    assert (judder.lane, judder.from_s, judder.to_s) == (2, Fraction(1, 2), Fraction(12, 5))
    assert judder.refresh_hz == Fraction(165)


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("refresh_hz = 165\n", "", "[steps[1].claims[2].refresh_hz] is needed by a judder figure"),
        ('key = "shift+s" }', 'key = "s" }', "[steps[1].demo] must press only keys of the step's"),
        ("at_s = 0.5,", "at_s = 3,", "[steps[1].demo.keys] must be in time order, each before"),
        ('"alpha_max"', '"speed"', "[steps[1].claims[1].measure] must be one of 'frame_ms',"),
        ("to_s = 2.4", "to_s = 0.5", "[steps[1].claims[2].to_s] must be after from_s"),
    ],
)  # fmt: skip
def test_a_bad_demo_or_claim_is_one_line(tmp_path: Path, old: str, new: str, says: str) -> None:
    path = lesson_file(tmp_path, STEP.replace(old, new))
    with pytest.raises(BadInput) as refused:
        load_toml_model(path, Lesson)
    (line,) = refused.value.lines
    assert line.startswith(f"{path}: {says}")


# -- the measurements, over frames a real scheduler planned ---------------------------------------


def demo_frames() -> list[DemoFrame]:
    """50 Hz, drop, M = 5: four 20 ms frames, a 200 ms stall (10 ticks owed: 5 run, 100 ms
    dropped), three 20 ms frames. Six taps: two seen before the stall, then one seen, three lost."""
    scheduler = FixedStepScheduler(
        SchedulerSettings(step_ns=hz_to_step_ns(50), policy="drop", max_steps=5)
    )
    frames, wall = [], 0
    for index, elapsed in enumerate([20 * MS] * 4 + [200 * MS] + [20 * MS] * 3):
        plan = scheduler.advance(elapsed)
        wall += elapsed
        taps = InputCounts(presses=2, seen=2) if index < 4 else InputCounts(6, 3, 3)
        frames.append(DemoFrame(wall, (plan,), (round_ns(plan.sim_time_ns),), (taps,)))
    return frames


def claim(measure: str, **where: object) -> Claim:
    return Claim(measure=measure, expected=0, tolerance=0, **where)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("measure", "where", "value"),
    [
        ("frame_ms", {}, 20.0),
        ("frame_ms_max", {}, 200.0),
        ("frame_growth", {}, 1.0),
        ("fps", {}, 23.529),  # 8 frames in 0.34 s
        ("step_ms", {}, 20.0),
        ("ticks_max", {}, 5.0),
        ("ticks_max", {"to_s": Fraction(8, 100)}, 1.0),
        ("ticks_off_pct", {}, 12.5),  # one frame in eight ran 5 ticks, not 1
        ("dropped_ms", {}, 100.0),
        ("dropped_ms", {"to_s": Fraction(8, 100)}, 0.0),
        ("alpha_max", {}, 0.0),
        ("latency_ms", {}, 0.0),  # drawn as they are, with no remainder: on time
        ("behind_ms_max", {}, 0.0),
        ("pictures_per_s", {}, 20.588),  # 7 new pictures in 0.34 s
        ("presses", {"from_s": Fraction(1, 10)}, 4.0),
        ("lost_pct", {"from_s": Fraction(1, 10)}, 75.0),
        ("lost_pct", {}, 50.0),
        ("doubled_pct", {}, 0.0),
        ("lost_pct", {"to_s": Fraction(8, 100)}, 0.0),
    ],
)  # fmt: skip
def test_each_measure_over_known_frames(
    measure: str, where: dict[str, object], value: float
) -> None:
    assert measured(demo_frames(), claim(measure, **where)) == value


def test_the_rollback_measures_read_lane_0s_rollback_frames() -> None:
    """The same frames against a remote peer: 6 ticks re-run a frame, 9 in the stall's frame
    (its deepest rollback), whose new ticks the full window stopped."""
    frames = [
        frame._replace(rollback=RollbackFrame(1, 9, 9, 2, True) if index == 4 else
                       RollbackFrame(1, 6, 6, 1, False))
        for index, frame in enumerate(demo_frames())
    ]  # fmt: skip
    assert measured(frames, claim("resimulated")) == 6.0
    assert measured(frames, claim("rollback_depth_max")) == 9.0
    assert measured(frames, claim("window_stalls")) == 1.0
    assert measured(frames, claim("window_stalls", to_s=Fraction(8, 100))) == 0.0
    assert measured(demo_frames(), claim("resimulated")) is None  # no remote peer


def test_a_figure_that_cannot_be_measured_is_none_and_never_holds() -> None:
    frames = demo_frames()
    judder = claim("judder_pct", refresh_hz=Fraction(60), to_s=Fraction(3, 100))
    assert measured(frames, judder) is None  # one frame: no refreshes to measure
    assert measured(frames, claim("lost_pct", lane=2)) is None  # no second lane
    (result,) = check_step(4, 1, [judder], frames)
    assert not result.ok
    assert result.line().endswith("claimed 0 +- 0 %, measured not measurable: DIFFERS")


def test_a_claim_holds_within_its_tolerance_and_says_so_in_one_line() -> None:
    frames = demo_frames()
    close = Claim(measure="dropped_ms", expected=99, tolerance=1, from_s=Fraction(1, 10))
    off = Claim(measure="dropped_ms", expected=98, tolerance=1, lane=1)
    held, differs = check_step(6, 2, [close, off], frames)
    assert held.line() == (
        "lesson 6 step 2: dropped_ms (from 0.1 s): claimed 99 +- 1 ms, measured 100 ms: ok"
    )
    assert (
        differs.line()
        == "lesson 6 step 2: dropped_ms: claimed 98 +- 1 ms, measured 100 ms: DIFFERS"
    )
    assert differs.record() == {
        "lesson": 6, "step": 2, "claim": "dropped_ms", "expected": 98.0, "tolerance": 1.0,
        "measured": 100.0, "ok": False, "unit": "ms", "lane": 1,
    }  # fmt: skip


# -- the check, on the real game ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("number", [lesson.number for lesson in LESSONS])
def test_every_claim_of_every_lesson_holds_on_the_lesson_clock(number: int) -> None:
    lesson = find_lesson(LESSONS, number)
    results = check_lesson(lesson)
    assert len(results) == sum(len(step.claims) for step in lesson.steps)
    assert [result.line() for result in results if not result.ok] == []


def test_every_step_has_a_demo_and_nearly_every_one_claims_a_figure() -> None:
    steps = [step for lesson in LESSONS for step in lesson.steps]
    assert all(step.demo is not None for step in steps)
    claiming = sum(bool(step.claims) for step in steps)
    assert claiming == len(steps) - 2  # lessons 6 and 7 end on a summary with V


def test_a_claim_that_differs_exits_1_with_its_json_object(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = find_lesson(LESSONS, 4)
    step = lesson.steps[0]
    wrong = Claim(measure="alpha_max", expected=2, tolerance=0.5)
    one_step = lesson.model_copy(update={"steps": (step.model_copy(update={"claims": (wrong,)}),)})
    monkeypatch.setattr(lessons_command, "load_lessons", lambda folder: (one_step,))
    assert main(["lessons", "--check", "--lesson", "4", "--json"]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line) == {
        "lesson": 4, "step": 1, "claim": "alpha_max", "expected": 2.0, "tolerance": 0.5,
        "measured": 50.1, "ok": False, "unit": "", "lane": 1,
    }  # fmt: skip


def test_an_unknown_lesson_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", "--check", "--lesson", "99"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == "error: there is no lesson 99 (the lessons are 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)"


def test_the_listing_names_each_steps_claims(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lessons", "--lesson", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "lesson 6: Drop vs backlog vs clamp vs reset"
    assert lines[2] == "  step 2: ticks_max 5 +- 0 ticks, ticks_max (lane 2) 15 +- 0 ticks"
    assert lines[4] == (
        "  step 4: dropped_ms 200 +- 1 ms, dropped_ms (lane 2) 0 +- 0 ms, "
        "backlog_max (lane 2) 12 +- 0 ticks"
    )
    assert lines[5] == "  step 5: claims no figure"


def test_the_handout_shows_each_claim_beside_its_measurement_under_the_clip() -> None:
    frames = demo_frames()
    lost = Claim(measure="lost_pct", expected=79, tolerance=5, from_s=Fraction(1, 10))
    (result,) = check_step(7, 1, [lost], frames)
    clip = StepClip(7, "Input", 1, "Taps are lost.", "tap Up", "clips/a.mp4", "clip ...", (result,))
    text = page([clip], [], [], [], "handout --out x")
    assert (
        "<tr><td>lost_pct (from 0.1 s)</td><td>79 +- 5 %</td><td>75 %</td><td>ok</td></tr>" in text
    )
    assert "$ python -m game lessons --check --lesson 7</pre>" in text
    assert isinstance(result, ClaimResult)


def test_the_measures_are_the_figures_the_vocabulary_lets_a_claim_name() -> None:
    from game.vocabulary import CLAIM_MEASURES, MEASURES_FOR_A_SCREEN
    from game.workshop.claims.measures import MEASURES

    assert tuple(MEASURES) == CLAIM_MEASURES
    assert {name for name, measure in MEASURES.items() if measure.needs_refresh} == (
        MEASURES_FOR_A_SCREEN
    )
