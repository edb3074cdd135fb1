"""Fuzzing every file the game reads and every `--set`: configs, scenarios, lessons, scripts and
damaged recordings. Each case is accepted or refused in a few clean lines (see `fuzzing`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from game.app.key_names import KEY_CODES
from game.app.script import parse_script
from game.config.loading import load_config
from game.config.model import GameConfig
from game.errors import BadInput
from game.from_config import session_from
from game.workshop.files.lessons import Lesson, LessonStep, StepSettings, load_lessons
from game.workshop.files.scenario import ChangeEntry, InputEntry, Scenario, StallEntry
from tests.fuzzing import (
    assert_clean,
    fuzz,
    junk,
    model_fields,
    model_sections,
    run,
    scratch,
    small_limits,
    small_numbers,
    table_lines,
    toml_text,
    toml_value,
    values,
)

WORK = scratch("files")
"""One folder for every case's files (hypothesis runs many cases in one test call)."""


@pytest.fixture(autouse=True, scope="module")
def _small_limits() -> Iterator[None]:
    with small_limits():
        yield


def written(name: str, text: str | bytes) -> Path:
    path = WORK / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


# -- configs and --set -----------------------------------------------------------------------------

configs = toml_text(model_sections(GameConfig))


@pytest.mark.slow
@fuzz(80)
@given(configs)
def test_any_config_file_is_taken_or_refused_in_clean_lines(text: str) -> None:
    path = written("config.toml", text)
    try:
        load_config(path)
        event("accepted")
    except BadInput as refused:
        event("refused")
        assert len(refused.lines) >= 1
        assert all(line.startswith((f"{path}: ", "command line: ")) for line in refused.lines)


@fuzz(10)
@given(configs)
def test_any_config_file_plays_or_is_refused_by_the_game(text: str) -> None:
    assert_clean(run(["--config", str(written("game.toml", text)), "--frames", "1"]))


SETTING_VALUES = {
    f"{section}.{name}": plausible
    for section, fields in model_sections(GameConfig).items()
    if section
    for name, plausible in fields.items()
}
known_setting = st.sampled_from(sorted(SETTING_VALUES)).flatmap(
    lambda key: SETTING_VALUES[key].map(lambda value: f"{key}={toml_value(value)}")
)
any_setting = st.tuples(junk, st.one_of(values.map(toml_value), junk, small_numbers)).map(
    lambda pair: f"{pair[0]}={pair[1]}"
)


@fuzz(120)
@given(st.lists(st.one_of(known_setting, known_setting, any_setting, junk), min_size=1, max_size=3))
def test_any_set_is_taken_or_refused_in_clean_lines(overrides: list[str]) -> None:
    try:
        load_config(None, overrides)
        event("accepted")
    except BadInput as refused:
        event("refused")
        assert all(line.startswith("command line: ") for line in refused.lines), refused.lines


# -- scenarios -------------------------------------------------------------------------------------

scenarios = toml_text(
    model_sections(Scenario),
    {
        "stalls": model_fields(StallEntry),
        "changes": model_fields(ChangeEntry),
        "inputs": model_fields(InputEntry),
    },
)


@pytest.mark.slow
@fuzz(60)
@given(scenarios)
def test_any_scenario_runs_or_is_refused_in_clean_lines(text: str) -> None:
    path = written("scenario.toml", text)
    assert_clean(run(["simulate", "--scenario", str(path), "--seconds", "0.2"]))


@fuzz(15)
@given(scenarios)
def test_any_scenario_compares_or_is_refused_in_clean_lines(text: str) -> None:
    path = written("compare.toml", text)
    args = ["compare", "--scenario", str(path), "--seconds", "0.2", "--policies", "drop,uncapped"]
    assert_clean(run(args))


# -- lessons ---------------------------------------------------------------------------------------


def _lesson(parts: tuple[list[str], list[list[str]], list[str]]) -> str:
    top, steps, tail = parts
    lines = list(top)
    for step in steps:
        lines += ["[[steps]]", *step]
    return "\n".join([*lines, *tail]) + "\n"


step_lines = st.tuples(
    table_lines(model_fields(LessonStep), required=("caption", "keys")),
    table_lines(model_fields(StepSettings)),
)
words = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1, max_size=30
)
good_step = st.tuples(words, words, table_lines(model_fields(StepSettings))).map(
    lambda step: [f"caption = {toml_value(step[0])}", f"keys = {toml_value(step[1])}",
                  "[steps.settings]", *step[2]]
)  # fmt: skip
good_lessons = st.tuples(
    st.tuples(st.integers(1, 99), words).map(
        lambda top: [f"number = {top[0]}", f"title = {toml_value(top[1])}"]
    ),
    st.lists(good_step, min_size=1, max_size=3),
    st.just([]),
).map(_lesson)
"""Lessons that load, so that their settings are played: any of them may be out of range."""
lessons = st.tuples(
    table_lines(model_fields(Lesson), required=("number", "title")),
    st.lists(step_lines.map(lambda step: [*step[0], "[steps.settings]", *step[1]]), max_size=3),
    st.one_of(st.just([]), st.just([]), st.lists(junk, max_size=1)),
).map(_lesson)


@pytest.mark.slow
@fuzz(80)
@given(st.one_of(lessons, good_lessons))
def test_any_lesson_loads_and_plays_or_is_refused_in_one_line(text: str) -> None:
    folder = WORK / "lessons"
    folder.mkdir(exist_ok=True)
    written("lessons/01_fuzzed.toml", text)
    try:
        loaded = load_lessons(folder)
    except BadInput as refused:
        event("refused")
        assert refused.lines[0].startswith(str(folder)), refused.lines
        return
    event("accepted")
    session = session_from(GameConfig())
    for lesson in loaded:  # what N does, step by step: no setting a lesson takes may crash it
        for step in lesson.steps:
            session.set_controls(step.settings.applied_to(session.controls))
            session.play_frame(50_000_000)


# -- scripts ---------------------------------------------------------------------------------------

script_lines = st.tuples(
    st.one_of(small_numbers, junk),
    st.one_of(
        st.sampled_from(sorted(KEY_CODES)),
        st.sampled_from(["shift+tab", "ctrl+s", "alt+q", "click"]),
        st.tuples(small_numbers, small_numbers).map(lambda xy: f"click {xy[0]} {xy[1]}"),
        junk,
    ),
    st.sampled_from(["", "  # a comment", " extra"]),
).map(lambda parts: " ".join(parts))


good_scripts = st.lists(
    st.tuples(
        st.integers(0, 5000),
        st.one_of(
            st.sampled_from(sorted(KEY_CODES)),
            st.tuples(st.integers(0, 40), st.integers(0, 20)).map(
                lambda xy: f"click {xy[0]} {xy[1]}"
            ),
        ),
    ),
    max_size=5,
).map(lambda presses: [f"{at} {what}" for at, what in sorted(presses)])


@fuzz(150)
@given(st.one_of(st.lists(st.one_of(script_lines, junk), max_size=6), good_scripts))
def test_any_script_is_read_or_refused_in_one_line(lines: list[str]) -> None:
    try:
        parse_script("\n".join(lines), "demo.txt")
        event("accepted")
    except BadInput as refused:
        event("refused")
        (line,) = refused.lines
        assert line.startswith("demo.txt:")


# -- recordings ------------------------------------------------------------------------------------

SESSION = """seconds = 1.5
[[changes]]
at = 0.7
hz = 30
[[inputs]]
sim_second = 0.2
action = "fire"
x = 20
y = 8
[[inputs]]
sim_second = 0.5
action = "integrator"
integrator = "verlet"
[[inputs]]
sim_second = 0.9
action = "reset"
"""


@functools.cache
def recording() -> bytes:
    """A short session with every kind of line: commands, a tick-rate change, the final line."""
    scenario = written("session.toml", SESSION)
    path = WORK / "session.replay"
    assert run(["simulate", "--scenario", str(scenario), "--record", str(path)]).code == 0
    return path.read_bytes()


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """The recording, truncated, with bytes flipped, lines reordered, repeated or dropped."""
    lines = recording().splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        kind = draw(st.sampled_from(["flip", "swap", "repeat", "drop", "truncate", "value"]))
        where = draw(st.integers(0, len(lines) - 1))
        if kind == "flip" and lines[where]:
            line = bytearray(lines[where])
            at = draw(st.integers(0, len(line) - 1))
            line[at] ^= 1 << draw(st.integers(0, 7))
            lines[where] = bytes(line)
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[where], lines[other] = lines[other], lines[where]
        elif kind == "repeat":
            lines.insert(where, lines[where])
        elif kind == "drop" and len(lines) > 1:
            del lines[where]
        elif kind == "truncate":
            lines[where] = lines[where][: draw(st.integers(0, len(lines[where])))]
            del lines[where + 1 :]
        elif kind == "value":
            record = _record(lines[where])
            if record:
                key = draw(st.sampled_from(sorted(record)))
                record[key] = draw(values)
                lines[where] = json.dumps(record).encode() + b"\n"
    return b"".join(lines)


def _record(line: bytes) -> dict[str, object] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) and record else None


@fuzz(80)
@given(damaged(), st.sampled_from(["30", "144", "1000"]))
def test_any_damaged_recording_replays_mismatches_or_is_refused(data: bytes, fps: str) -> None:
    path = written("damaged.replay", data)
    assert_clean(run(["replay", str(path), "--render-fps", fps]))


def test_the_undamaged_recording_replays_and_matches() -> None:
    path = written("whole.replay", recording())
    ending = run(["replay", str(path)])
    assert (ending.code, ending.out.splitlines()[-1]) == (
        0,
        "matches the recording (replayed at 144 fps)",
    )
