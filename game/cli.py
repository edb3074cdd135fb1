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
    from game.commands import lab, schedule

    return {"schedule": schedule, "lab": lab}


def build_parser() -> CliParser:
    commands = _commands()
    parser = CliParser(
        prog="python -m game",
        description="Timestep Lab: the fixed-timestep game loop, visible and playable.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, command in commands.items():
        sub = subparsers.add_parser(name, help=command.HELP, description=command.HELP)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args = parser.parse_args(args_in)
        if getattr(args, "run", None) is None:
            parser.print_help()
            return 0
        code: int = args.run(args)
        return code
    except BadInput as problem:
        for line in problem.lines:
            print(line, file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head`: stop quietly, as command-line tools do.
        sys.stderr.close()
        return 0
