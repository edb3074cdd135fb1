"""Guided lessons: every shipped lesson validates and plays; bad files are refused clearly."""

from fractions import Fraction
from pathlib import Path

import pytest

from game.config.loading import load_config
from game.errors import BadInput
from game.from_config import session_from
from game.session.controls import Controls
from game.workshop.files.lessons import LessonRun, StepSettings, find_lesson, load_lessons
from timestep_lab import AlphaMode

TOPICS = {
    1: "Variable dt",
    2: "without interpolation",
    3: "latency",
    4: "naive alpha",
    5: "spiral of death",
    6: "Drop vs backlog vs clamp vs reset",
    7: "Input in a fixed step",
    8: "Smooth is not the same as fixed",
    9: "Jittery deltas and snapping",
    10: "rollback spiral",
}


def test_the_shipped_lessons_validate_in_order() -> None:
    lessons = load_lessons()
    assert [lesson.number for lesson in lessons] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    for lesson in lessons:
        assert TOPICS[lesson.number] in lesson.title


def test_every_step_of_every_lesson_plays_in_a_session() -> None:
    for lesson in load_lessons():
        session = session_from(load_config(None))
        run: LessonRun | None = LessonRun(lesson)
        while run is not None:
            session.set_controls(run.current.settings.applied_to(session.controls))
            for _ in range(30):
                session.play_frame(6_944_444)
            assert all(lane.books.ledger_ok for lane in session.lanes)
            run = run.advanced()


def test_lesson_4_sets_the_step_cap_articles_case() -> None:
    step = find_lesson(load_lessons(), 4).steps[0]
    controls = step.settings.applied_to(Controls())
    assert (controls.policies, controls.hz, controls.max_steps, controls.alpha_mode) == (
        ("backlog",),
        Fraction(50),
        4,
        AlphaMode.NAIVE,
    )


def test_a_second_policy_splits_the_screen_and_split_false_joins_it() -> None:
    split = StepSettings(policy="drop", second_policy="clamp").applied_to(Controls())
    assert split.policies == ("drop", "clamp")
    joined = StepSettings(split=False).applied_to(split)
    assert (joined.policies, joined.focus_lane) == (("drop",), 0)


def test_split_true_splits_the_screen_as_v_would() -> None:
    split = StepSettings(split=True, policy="drop").applied_to(Controls())
    assert split.policies == ("drop", "uncapped")
    assert StepSettings(split=True).applied_to(split).policies == ("drop", "uncapped")


def test_settings_left_out_stay_as_the_player_had_them() -> None:
    mine = Controls(hz=Fraction(120), trails=True, step_cost_ms=Fraction(8))
    assert StepSettings(interpolation="off").applied_to(mine) == Controls(
        hz=Fraction(120), trails=True, step_cost_ms=Fraction(8), interpolation="off"
    )


def test_the_caption_says_where_you_are_and_what_to_press() -> None:
    run = LessonRun(find_lesson(load_lessons(), 2))
    assert run.caption().startswith("Lesson 2, step 1/2: Ten ticks a second")
    assert run.caption().endswith("then press I to interpolate; N: next step]")
    last = run.advanced()
    assert last is not None and last.caption().endswith("N: end the lesson]")
    assert last.advanced() is None


def test_an_unknown_lesson_number_is_one_error_line() -> None:
    with pytest.raises(BadInput) as refused:
        find_lesson(load_lessons(), 99)
    assert refused.value.lines == (
        "error: there is no lesson 99 (the lessons are 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)",
    )


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('number = 1\ntitle = "x"\nsteps = []\n', "[steps] must not be empty (got [])"),
        (
            'number = 1\ntitle = "x"\n[[steps]]\ncaption = "c"\nkeys = "k"\n'
            '[steps.settings]\npolicy = "turbo"\n',
            "[steps[1].settings.policy] must be one of",
        ),
        (
            'number = 1\ntitle = "x"\n[[steps]]\ncaption = "c"\nkeys = "k"\nwobble = 1\n',
            "[steps[1].wobble] unknown setting (got 1)",
        ),
        (
            'number = 0\ntitle = "x"\n[[steps]]\ncaption = "c"\nkeys = "k"\n',
            "[number] must be at least 1 (got 0)",
        ),
        (
            'number = 1\ntitle = "x"\n[[steps]]\ncaption = "c"\nkeys = "k"\n'
            'press = ["e", "hyper+x"]\n',
            "[steps[1].press[2]] must be a key name like 'e', 'period' or 'shift+s' (modifiers "
            "'shift' or 'ctrl') (got 'hyper+x')",
        ),
        (
            'number = 1\ntitle = "x"\n[[steps]]\ncaption = "c"\nkeys = "k"\n'
            "[steps.expect]\nwobble = 1\n",
            "[steps[1].expect.wobble] unknown setting (got 1)",
        ),
        (
            'number = 1\ntitle = "x"\n[[steps]]\ncaption = "c"\nkeys = "k"\n'
            'watch = ["judder", "jitter"]\n',
            "[steps[1].watch[2]] must be one of 'status', 'policy', ",
        ),
        (
            'number = 1\ntitle = "x"\n[[steps]]\ncaption = "c"\nkeys = "k"\nfire = "yes"\n',
            "[steps[1].fire] must be true or false (got 'yes')",
        ),
    ],
)
def test_a_bad_lesson_file_is_refused_with_its_file_and_key(
    tmp_path: Path, text: str, line: str
) -> None:
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises(BadInput) as refused:
        load_lessons(tmp_path)
    assert len(refused.value.lines) == 1
    assert refused.value.lines[0].startswith(f"{tmp_path / 'bad.toml'}: ")
    assert line in refused.value.lines[0]


def test_two_lessons_with_one_number_are_refused(tmp_path: Path) -> None:
    lesson = 'number = 3\ntitle = "x"\n[[steps]]\ncaption = "c"\nkeys = "k"\n'
    (tmp_path / "a.toml").write_text(lesson)
    (tmp_path / "b.toml").write_text(lesson)
    with pytest.raises(BadInput, match="lesson numbers must be unique"):
        load_lessons(tmp_path)


def test_lesson_7_plays_frame_edge_at_30_hz_and_144_fps_then_30_fps_at_60_hz() -> None:
    lesson = find_lesson(load_lessons(), 7)
    controls = Controls()
    run: LessonRun | None = LessonRun(lesson)
    seen = []
    while run is not None:
        controls = run.current.settings.applied_to(controls)
        seen.append(
            (controls.hz, controls.fps_cap, controls.input_models[: len(controls.policies)])
        )
        run = run.advanced()
    assert seen[0] == (Fraction(30), 144, ("frame-edge",))
    assert seen[1] == (Fraction(60), 30, ("frame-edge",))
    assert ("latched",) in [models for _, _, models in seen]
    assert ("counted",) in [models for _, _, models in seen]
    assert seen[-2][2] == ("frame-edge", "latched")  # the split screen: the bug beside a fix


def test_the_live_lesson_clock_wobbles_as_much_as_the_claims_check_does() -> None:
    """A step whose demo wobbles (lessons 8 and 9: judder of about 3 %, a snap with something to
    snap) sets the same wobble for the room (`jitter_ms`), on the lesson clock."""
    wobbling = []
    for lesson in load_lessons():
        for index, step in enumerate(lesson.steps):
            controls = LessonRun(lesson, index).controls(Controls())
            demo_jitter = step.demo.jitter_ms if step.demo is not None else Fraction(0)
            assert controls.lesson_jitter_ms == demo_jitter, (lesson.number, index + 1)
            if demo_jitter:
                assert controls.clock == "lesson", (lesson.number, index + 1)
                wobbling.append((lesson.number, index + 1))
    assert wobbling == [(8, 1), (8, 2), (8, 3), (9, 1), (9, 2), (9, 3)]
