"""TOML text and tables held to the game's limits before anything recursive or unbounded sees them.

`tomllib` reads nested arrays and inline tables by recursion, and so do the lines that show a
bad value and the merging of `--set` overrides: some 490 nested brackets crash the parser, some
330 crash the messages, each with a `RecursionError`. A decimal number of more than 4,300 digits
makes `int()` raise a `ValueError` inside the parser. So:

- `text_problem` scans the text once, before parsing (linear: each string or comment is skipped
  in one regex match), for brackets nested deeper than `MAX_NESTING` and for numbers longer than
  `MAX_DIGITS`; strings and comments are skipped, so `caption = "press [ and ]"` counts nothing.
- `data_problem` walks the parsed tables once, without recursion, because dotted keys
  (`a.b.c = 1`) nest tables too and a hex number (`0xfff...`) has no digit limit in `int()`.
"""

from __future__ import annotations

import re
from typing import Any

from game.config.problems import Key, Problem
from game.limits import MAX_DIGITS, MAX_NESTING

_TOKENS = re.compile(
    r"""
      \#[^\n]*                                   # a comment
    | \"\"\"(?:\\.|.)*?(?:\"\"\"|\Z)             # a multi-line string, to its end or the file's
    | '''.*?(?:'''|\Z)                           # a multi-line literal string
    | "(?:\\.|[^"\\\n])*(?:"|$)?                 # a string, to its end or the line's
    | '[^'\n]*(?:'|$)                            # a literal string
    | (?P<open>[\[{])
    | (?P<close>[\]}])
    | (?P<number>[0-9][0-9_]*)
    """,
    re.VERBOSE | re.DOTALL | re.MULTILINE,
)
"""Each alternative matches wherever it starts (an unterminated string runs to the end of its
line or of the file), so no match is ever retried from inside another: one pass, linear time."""

DEEP = f"tables and arrays nested more than {MAX_NESTING} deep (the limit)"
LONG = f"a number with more than {MAX_DIGITS} digits (the limit)"
_LARGEST = 10**MAX_DIGITS


def text_problem(text: str) -> tuple[int, str] | None:
    """The line of the first thing in `text` that goes past a limit and what it is, or None."""
    depth = 0
    for token in _TOKENS.finditer(text):
        if token["open"]:
            depth += 1
            if depth > MAX_NESTING:
                return _line(text, token.start()), DEEP
        elif token["close"]:
            depth = max(0, depth - 1)
        elif token["number"]:
            digits = token["number"]
            if len(digits) - digits.count("_") > MAX_DIGITS:
                return _line(text, token.start()), LONG
    return None


def data_problem(data: dict[str, Any]) -> Problem | None:
    """The first value in the parsed tables that goes past a limit, or None."""
    stack: list[tuple[Key, object, int]] = [((), data, 0)]
    while stack:
        key, value, depth = stack.pop()
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and not -_LARGEST < value < _LARGEST:
            return Problem(key, f"has more than {MAX_DIGITS} digits (the limit)")
        if isinstance(value, dict | list):
            if depth > MAX_NESTING:
                return Problem(
                    key, f"nests tables or arrays more than {MAX_NESTING} deep (the limit)"
                )
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend(((*key, name), item, depth + 1) for name, item in items)
    return None


def _line(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1
