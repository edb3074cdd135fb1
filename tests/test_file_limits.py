"""Every file and TOML text is held to the stated limits (`game.limits`) before it is trusted:
size, nesting and digits each end in one line that says which limit, never in a traceback."""

from pathlib import Path

import pytest

from game.cli import main
from game.config.loading import load_config
from game.config.overrides import parse_override
from game.config.problems import Problem
from game.config.toml_files import parse_toml
from game.config.toml_limits import text_problem
from game.errors import BadInput
from game.file_reading import read_text, size_text
from game.limits import MAX_DIGITS, MAX_NESTING, MAX_PROBLEM_LINES, MAX_TEXT_FILE_BYTES

DEEP = "tables and arrays nested more than 32 deep (the limit)"
LONG = "a number with more than 100 digits (the limit)"


def refusal(text: str) -> tuple[str, ...]:
    with pytest.raises(BadInput) as refused:
        parse_toml(text, "f.toml")
    return refused.value.lines


def test_the_limits_are_the_ones_the_limits_page_states() -> None:
    assert (MAX_TEXT_FILE_BYTES, MAX_NESTING, MAX_DIGITS) == (1024 * 1024, 32, 100)
    assert size_text(MAX_TEXT_FILE_BYTES) == "1 MiB"
    assert size_text(1000) == "1,000 bytes"


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * MAX_TEXT_FILE_BYTES)
    assert len(read_text(path, "a TOML file")) == MAX_TEXT_FILE_BYTES
    path.write_bytes(b"#" * (MAX_TEXT_FILE_BYTES + 1))
    with pytest.raises(BadInput) as refused:
        read_text(path, "a TOML file")
    assert refused.value.lines == (f"{path}: too large for a TOML file (more than 1 MiB)",)


def test_an_endless_device_is_refused_after_reading_one_byte_past_the_limit() -> None:
    with pytest.raises(BadInput) as refused:
        load_config(Path("/dev/zero"))
    assert refused.value.lines == ("/dev/zero: too large for a TOML file (more than 1 MiB)",)


def test_a_name_with_a_nul_character_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as refused:
        read_text(Path("a\0b.toml"), "a TOML file")
    assert refused.value.lines == ("PosixPath('a\\x00b.toml'): cannot read: embedded null byte",)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a = " + "[" * 33 + "]" * 33, f"f.toml: refused at line 1: {DEEP}"),
        ("a = 1\nb = " + "{c = " * 40 + "1" + "}" * 40, f"f.toml: refused at line 2: {DEEP}"),
        ("a = " + "[" * 600, f"f.toml: refused at line 1: {DEEP}"),  # past tomllib's recursion
        ("seed = " + "1" * 101, f"f.toml: refused at line 1: {LONG}"),
        ("seed = " + "1_" * 100 + "1", f"f.toml: refused at line 1: {LONG}"),
        ("seed = " + "1" * 5000, f"f.toml: refused at line 1: {LONG}"),  # past int()'s 4,300
        ("seed = 0x" + "f" * 5000, "f.toml: [seed] has more than 100 digits (the limit)"),
        ("a" + ".a" * 40 + " = 1",
         "f.toml: [a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a...] nests tables "
         "or arrays more than 32 deep (the limit)"),
    ],
)  # fmt: skip
def test_nesting_and_long_numbers_are_refused_with_their_limit(text: str, line: str) -> None:
    assert refusal(text) == (line,)


def test_the_limits_themselves_are_allowed() -> None:
    assert parse_toml("a = " + "[" * 32 + "]" * 32, "f.toml")["a"] is not None
    assert parse_toml("seed = " + "9" * 100, "f.toml") == {"seed": int("9" * 100)}
    assert parse_toml("x = 0.5\nstamp = 1979-05-27T07:32:00Z", "f.toml")["x"] == 0.5


@pytest.mark.parametrize(
    "text",
    [
        'caption = "' + "[" * 100 + '"',
        "caption = '" + "{" * 100 + "'",
        'caption = """\n' + "[" * 100 + '\n"""',
        "caption = '''\n" + "[" * 100 + "\n'''",
        "# " + "[" * 100 + " " + "1" * 200,
        'hash = "' + "1" * 200 + '"',
        'caption = "a \\" [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ \\\\"',
    ],
)
def test_brackets_and_digits_in_strings_and_comments_count_for_nothing(text: str) -> None:
    assert text_problem(text) is None


def test_an_unterminated_string_is_left_to_the_parser() -> None:
    assert refusal('caption = "[[[') == (
        "f.toml: not valid TOML: Unterminated string (at end of document)",
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("a" + ".a" * 40 + "=1", Problem((), "a key of more than 32 parts (the limit)",
                                         "a" + ".a" * 40)),
        ("a.b=" + "[" * 40 + "]" * 40, Problem(("a", "b"), f"refused: {DEEP}")),
        ("a.b=" + "9" * 200, Problem(("a", "b"), f"refused: {LONG}")),
        ("a.b={" + "c." * 40 + "d=1}",
         Problem(("a", "b"), "nests tables or arrays more than 32 deep (the limit)")),
    ],
)  # fmt: skip
def test_a_setting_from_the_command_line_is_held_to_the_same_limits(
    text: str, problem: Problem
) -> None:
    assert parse_override(text) == problem


def test_a_long_key_is_cut_short_in_its_line() -> None:
    line = Problem(("k" * 200,), "unknown setting", 1).line("f.toml")
    assert line == "f.toml: [" + "k" * 57 + "...] unknown setting (got 1)"


def test_a_file_full_of_problems_prints_twenty_lines_and_counts_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "many.toml"
    scenario.write_text("stalls = [" + ", ".join(["{at = 1, ms = 0}"] * 25) + "]\n")
    assert main(["simulate", "--scenario", str(scenario)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[:2] == [
        f"{scenario}: [stalls[1].ms] must be more than 0 (got 0)",
        f"{scenario}: [stalls[2].ms] must be more than 0 (got 0)",
    ]
    assert len(lines) == MAX_PROBLEM_LINES + 1 == 21
    assert lines[-1] == "... and 5 more problems"


def test_a_key_with_a_line_break_is_quoted_and_a_problem_stays_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "odd.toml"
    scenario.write_text('[[inputs]]\n"\\r" = 1\naction = {"a.b" = 0}\nsim_second = 1\n')
    assert main(["simulate", "--scenario", str(scenario)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{scenario}: [inputs[1].action] must be one of 'fire', 'reset' or 'integrator' "
        "(got {'a.b' = 0})",
        f"{scenario}: [inputs[1].'\\r'] unknown setting (got 1)",
    ]


def test_a_file_name_with_a_line_break_stays_on_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", "--scenario", str(tmp_path / "a\nb.toml")]) == 2
    assert capsys.readouterr().err == f"{tmp_path}/a\\nb.toml: file not found\n"
