"""`python -m game`: the command line.

Without a subcommand it plays the game; the subcommands are the workshop tools. Every command
reports bad input as one line on stderr and exits with status 2, never with a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn, Protocol

from game.errors import EXIT_BAD_INPUT, BadInput
from game.limits import MAX_PROBLEM_LINES


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser that reports problems as one `error:` line (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise BadInput.error(message)


class Command(Protocol):
    """A subcommand module: a one-line help, its arguments, and what it runs."""

    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def _commands() -> dict[str, Command]:
    # Imported here so that `--help` and each command load only what they need.
    from game.commands import (
        clip,
        compare,
        handout,
        inputs,
        judder,
        lab,
        lessons,
        play,
        replay,
        schedule,
        simulate,
        sweep,
    )  # fmt: skip

    return {
        "play": play,
        "schedule": schedule,
        "lab": lab,
        "simulate": simulate,
        "compare": compare,
        "sweep": sweep,
        "replay": replay,
        "inputs": inputs,
        "clip": clip,
        "handout": handout,
        "judder": judder,
        "lessons": lessons,
    }


def build_parser(commands: dict[str, Command]) -> CliParser:
    parser = CliParser(
        prog="python -m game",
        description="Timestep Lab: the fixed-timestep game loop, visible and playable. "
        "Without a command, it plays the game (same options as `play`).",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, command in commands.items():
        sub = subparsers.add_parser(name, help=command.HELP, description=command.HELP)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


_LINE_BREAKS = {ord(char): repr(char)[1:-1] for char in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}
"""Every character `str.splitlines` breaks at, written as its escape: one problem, one line, even
when a file name or a value holds a line break."""


def print_problems(lines: Sequence[str]) -> None:
    """The problems on stderr, one a line: the first `MAX_PROBLEM_LINES`, then how many more (a
    file of a thousand bad entries needs fixing, not a thousand lines)."""
    for line in lines[:MAX_PROBLEM_LINES]:
        print(line.translate(_LINE_BREAKS), file=sys.stderr)
    if len(lines) > MAX_PROBLEM_LINES:
        more = len(lines) - MAX_PROBLEM_LINES
        print(f"... and {more:,} more problem{'s' if more > 1 else ''}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    try:
        commands = _commands()
        parser = build_parser(commands)
        if not args_in or (args_in[0] not in commands and args_in[0] not in ("-h", "--help")):
            args_in.insert(0, "play")
        args = parser.parse_args(args_in)
        code: int = args.run(args)
        return code
    except BadInput as problem:
        print_problems(problem.lines)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head`: stop quietly, as command-line tools do.
        sys.stderr.close()
        return 0
