"""Numbers and paths from the command line are read strictly: ASCII digits only, within the digit
limit, and no NUL in a path; each refusal names the flag, in one line."""

from argparse import ArgumentTypeError
from fractions import Fraction
from pathlib import Path

import pytest

from game.arguments import file_path, whole_number
from game.cli import main
from game.clock.units import parse_decimal, parse_ratio


@pytest.mark.parametrize(
    ("text", "value"), [("5", 5), ("-1", -1), ("0", 0), ("9" * 100, 10**100 - 1)]
)
def test_a_whole_number_is_ascii_digits_with_an_optional_minus(text: str, value: int) -> None:
    assert whole_number(text) == value


@pytest.mark.parametrize("text", ["٣", "1_000", " 5", "5 ", "+5", "5.0", "", "1" * 101, "0x10"])
def test_anything_else_is_not_a_whole_number(text: str) -> None:
    with pytest.raises(ArgumentTypeError, match="must be a whole number like 5"):
        whole_number(text)


def test_a_path_is_any_text_but_a_nul() -> None:
    assert file_path("out/run 1.toml") == Path("out/run 1.toml")
    with pytest.raises(ArgumentTypeError, match="a path cannot hold a NUL character"):
        file_path("a\0b")


def test_a_nul_in_a_path_flag_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--scenario", "a\0b"]) == 2
    assert capsys.readouterr().err == (
        "error: argument --scenario: a path cannot hold a NUL character (got 'a\\x00b')\n"
    )


@pytest.mark.parametrize("text", ["\u0663", "\u0661\u0666.\u0667", "16.7\u0663", "\u00b2"])
def test_decimals_take_ascii_digits_only(text: str) -> None:
    with pytest.raises(ValueError, match="must be a non-negative decimal number"):
        parse_decimal(text)
    with pytest.raises(ValueError, match=r"must be a decimal like 0\.125 or a ratio like 1/8"):
        parse_ratio(text)


def test_a_decimal_may_have_100_digits_and_no_more() -> None:
    assert parse_decimal("1" * 50 + "." + "5" * 50) == Fraction("1" * 50 + "." + "5" * 50)
    with pytest.raises(ValueError, match=r"^x has more than 100 digits \(got '1111"):
        parse_decimal("1" * 101, what="x")
    with pytest.raises(ValueError, match="has more than 100 digits"):
        parse_ratio("1/" + "1" * 100)
