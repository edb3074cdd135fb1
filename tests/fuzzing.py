"""Shared pieces of the fuzz suites: how a command is run in-process, what a clean ending is, and
strategies for the junk people (and damaged files) hand the game.

A clean ending is an exit status of 0, 1 or 2, and on 2 a few lines on stderr, each one problem,
no traceback. In-process, an exception that escapes `main` fails the test with its traceback,
which is exactly what the suites look for.

The suites are deterministic by default (`derandomize`), so `make test` always runs the same
cases in well under a minute; `TIMESTEP_FUZZ=explore make test` draws new cases, twenty times as
many, to go looking for more.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import io
import math
import os
import shutil
import tempfile
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from game import limits
from game.cli import main
from game.limits import MAX_PROBLEM_LINES

EXPLORE = os.environ.get("TIMESTEP_FUZZ") == "explore"

SMALL_LIMITS = (
    ("MAX_RUN_TICKS", 60_000), ("MAX_RUN_FRAMES", 100_000), ("MAX_REPLAY_FRAMES", 100_000),
    ("MAX_SWEEP_RUNS", 20_000),
)  # fmt: skip
"""The run limits the suites run under: junk like `--seconds 3601` is a real hour's run under
the game's own limits (which guard against typos, not work), and a suite must stay quick."""


@contextlib.contextmanager
def small_limits() -> Iterator[None]:
    """`SMALL_LIMITS` in force, for a whole suite (`game.limits` is read at each call)."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in SMALL_LIMITS:
            patch.setattr(limits, name, value)
        yield


def scratch(name: str) -> Path:
    """A new temporary folder for a suite's files, removed when the test run ends (a hypothesis
    test makes many cases in one call, so pytest's per-test `tmp_path` does not fit)."""
    folder = Path(tempfile.mkdtemp(prefix=f"timestep-fuzz-{name}-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


SANDBOX = scratch("cwd")
"""The folder commands run in: a junk relative path (`--out 0x10`) lands here, not in the
checkout. Junk is never an absolute path (see `junk`)."""


def fuzz(examples: int) -> settings:
    """`examples` cases (twenty times as many when exploring). No case has a deadline: a suite
    looks for endings that are not clean, and how long a case takes on this machine is none of
    its business (`make bench` measures speed)."""
    return settings(
        max_examples=examples * (20 if EXPLORE else 1),
        deadline=None,
        derandomize=not EXPLORE,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@dataclass(frozen=True, slots=True)
class Ending:
    code: int
    out: str
    err: str


def run(args: list[str]) -> Ending:
    """`python -m game ARGS`, in this process, in `SANDBOX`, with its output captured."""
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.chdir(SANDBOX),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main(args)
        except SystemExit as done:  # --help
            code = done.code if isinstance(done.code, int) else 2
    return Ending(code, out.getvalue(), err.getvalue())


def assert_clean(ending: Ending) -> None:
    """Exit 0, 1 or 2; a refusal is a few problem lines on stderr and nothing on stdout."""
    assert ending.code in (0, 1, 2), ending
    event(f"exit {ending.code}")  # `pytest --hypothesis-show-statistics` shows the mix
    assert "Traceback" not in ending.err
    if ending.code == 2:
        lines = ending.err.splitlines()
        assert 1 <= len(lines) <= MAX_PROBLEM_LINES + 1, ending.err
        assert all(line.strip() for line in lines), ending.err


JUNK_WORDS = (
    "", " ", "0", "1", "-1", "0.5", "1/8", "1/0", "abc", "\u0663", "1e3", "nan", "inf", "-0",
    "0x10", "9" * 30, "9" * 150, "1_000", "16.7x3", "3x0", "pause", "resume", "uncapped", "drop",
    "true", "[]", "{}", "'", '"', "\\", "a\u0000b", "\u202e", "\U0001f600", "=", "a=b", "a/../b",
)  # fmt: skip
"""Words that have broken parsers before: other scripts' digits, huge and empty numbers..."""

junk = st.one_of(
    st.sampled_from(JUNK_WORDS), st.text(max_size=10).map(lambda text: text.lstrip("/"))
)
"""Junk words; never an absolute path, so that no output can land outside `SANDBOX`."""
small_numbers = st.one_of(
    st.integers(-2, 200).map(str),
    st.sampled_from(["0.5", "16.667", "59.94", "1/8", "0.001", ".5", "5."]),
)


# -- TOML text -------------------------------------------------------------------------------------


def toml_string(text: str) -> str:
    """`text` as a TOML basic string: quotes, backslashes and control characters escaped."""
    escaped = "".join(
        "\\" + char
        if char in '"\\'
        else f"\\u{ord(char):04x}"
        if ord(char) < 32 or ord(char) == 127
        else char
        for char in text
    )
    return f'"{escaped}"'


def toml_value(value: Any) -> str:
    """A value written the way TOML writes it (inline tables and arrays for containers)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
        )
    raise TypeError(value)


scalars = st.one_of(
    st.integers(-(10**6), 10**6),
    st.integers(min_value=-(10**120), max_value=10**120),
    st.floats(),
    st.booleans(),
    st.text(max_size=12),
    st.sampled_from(["59.94", "1/8", "16.7", "uncapped", "drop", "verlet", "fire", "0", "-5"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def raw_lines() -> st.SearchStrategy[str]:
    """Lines no well-meaning writer produces: deep nesting, long numbers, junk."""
    depth = st.integers(0, 80)
    return st.one_of(
        depth.map(lambda n: "deep = " + "[" * n + "]" * n),
        depth.map(lambda n: "deep = " + "{a = " * n + "1" + "}" * n),
        depth.map(lambda n: "a" + ".a" * n + " = 1"),
        st.integers(1, 5000).map(lambda n: "seed = " + "7" * n),
        st.integers(1, 5000).map(lambda n: "seed = 0x" + "f" * n),
        st.text(max_size=40),
    )


def table_lines(
    fields: dict[str, st.SearchStrategy[Any]], required: tuple[str, ...] = ()
) -> st.SearchStrategy[list[str]]:
    """`key = value` lines, the keys mostly from `fields` with their likely values (and now and
    then anything), the `required` ones nearly always."""
    unknown = st.tuples(st.text(min_size=1, max_size=8), values)
    pairs = unknown
    if fields:
        known = st.sampled_from(sorted(fields)).flatmap(
            lambda key: _likely(fields[key]).map(lambda value: (key, value))
        )
        pairs = st.one_of(known, known, known, known, unknown)
    musts: list[st.SearchStrategy[list[tuple[str, Any]]]] = [
        st.one_of(*[_likely(fields[key]).map(functools.partial(_pair, key))] * 4, st.just([]))
        for key in required
    ]
    chosen = st.tuples(st.tuples(*musts), st.lists(pairs, max_size=4)).map(
        lambda both: [*(pair for must in both[0] for pair in must), *both[1]]
    )
    return chosen.map(
        lambda pairs: [f"{toml_string(key)} = {toml_value(value)}" for key, value in _once(pairs)]
    )


def _once(pairs: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The first pair for each key: a key set twice is a TOML error that would hide the rest."""
    return list({key: (key, value) for key, value in reversed(pairs)}.values())[::-1]


def _pair(key: str, value: Any) -> list[tuple[str, Any]]:
    return [(key, value)]


def _likely(field: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(field, field, field, values)


def _lines(chunks: tuple[list[str], ...] | list[list[str]]) -> list[str]:
    return [line for chunk in chunks for line in chunk]


def _section(name: str, fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[list[str]]:
    header = [f"[{name}]"] if name else []
    present = table_lines(fields).map(lambda lines: [*header, *lines])
    return st.one_of(st.just([]), present)


def _array(name: str, fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[list[str]]:
    entry = table_lines(fields).map(lambda lines: [f"[[{name}]]", *lines])
    return st.lists(entry, max_size=3).map(_lines)


def toml_text(
    sections: dict[str, dict[str, st.SearchStrategy[Any]]],
    arrays: dict[str, dict[str, st.SearchStrategy[Any]]] | None = None,
) -> st.SearchStrategy[str]:
    """A TOML file: top-level keys (section "", first), [sections], [[arrays]], raw junk lines."""
    parts = [_section(name, fields) for name, fields in sections.items()]
    parts += [_array(name, fields) for name, fields in (arrays or {}).items()]
    parts.append(st.one_of(st.just([]), st.just([]), st.lists(raw_lines(), min_size=1, max_size=2)))
    return st.tuples(*parts).map(lambda chunks: "\n".join(_lines(chunks)) + "\n")


def plausible(annotation: Any) -> st.SearchStrategy[Any]:
    """Values a model field of this type would likely take, near and past its bounds."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return st.sampled_from(typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return st.one_of([plausible(arg) for arg in typing.get_args(annotation)])
    if origin is typing.Annotated:
        return plausible(typing.get_args(annotation)[0])
    if annotation is type(None):  # TOML has no null: a setting left out is the None
        return st.nothing()
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return st.one_of(st.integers(1, 9), st.integers(1, 9), st.integers(-2, 300))
    if annotation is float:
        return st.floats(-5, 100)
    if annotation is Fraction:
        return st.one_of(
            st.integers(0, 300), st.floats(0, 300), st.sampled_from(["59.94", "1/8", "0.5", "2"])
        )
    if annotation is str:
        return st.sampled_from(["drop", "uncapped", "clamp", "t", "", "x" * 500])
    return values


def model_fields(model: type[BaseModel]) -> dict[str, st.SearchStrategy[Any]]:
    """Each field of `model` that is a value (not a section or a list) with `plausible` values."""
    fields = {}
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            continue
        if typing.get_origin(annotation) is tuple:
            continue
        fields[name] = plausible(annotation)
    return fields


def model_sections(model: type[BaseModel]) -> dict[str, dict[str, st.SearchStrategy[Any]]]:
    """The model's top-level fields (section "") and each nested section's, for `toml_text`."""
    sections = {"": model_fields(model)}
    for name, field in model.model_fields.items():
        for kind in (field.annotation, *get_args(field.annotation)):  # `Section | None` too
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                sections[name] = model_fields(kind)
                break
    return sections
