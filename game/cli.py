"""`python -m game`: the command line.

Without a subcommand it plays the game; the subcommands are the workshop tools. Every command
reports bad input as one line on stderr and exits with status 2, never with a traceback.
Installed (pip, pipx, the one-file bundle) it is `timestep-lab`, the same commands with the same
output; `--version` says which version, where its files are and where the licences are.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import sys
from collections.abc import Sequence
from importlib import import_module, metadata
from pathlib import Path
from typing import NoReturn, Protocol, cast

from game.errors import EXIT_BAD_INPUT, BadInput
from game.limits import MAX_PROBLEM_LINES
from game.printable import printable
from game.resources import BUNDLED, INSTALLED, LICENCES, ROOT
from game.stopping import POINTS, STOP_AT, Stopped, stop_point, stops_cleanly, unknown_stop_point
from game.worker_pool import EXIT_WORKER_DIED, WorkerDied


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser that reports problems as one `error:` line (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise BadInput.error(message)


class Command(Protocol):
    """A subcommand module: a one-line help, its arguments, and what it runs."""

    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


COMMAND_NAMES = (
    "play",
    "schedule",
    "lab",
    "simulate",
    "scenarios",
    "compare",
    "sweep",
    "replay",
    "inputs",
    "clip",
    "handout",
    "judder",
    "lessons",
    "capture",
)
"""The subcommands, in the order `--help` lists them; each is the module `game.commands.NAME`."""


def _commands(names: Sequence[str] = COMMAND_NAMES) -> dict[str, Command]:
    """The command modules by name. Imported only when asked for: a command loads its own
    module and what that needs (a numpy- and pydantic-free `schedule` starts in a tenth of a
    second), and only `--help` and `--version` load them all."""
    return {name: cast(Command, import_module(f"game.commands.{name}")) for name in names}


DISTRIBUTION = "timestep-lab"
"""The name pip, pipx and the bundle know the game by; its version is pyproject.toml's."""


def program_name() -> str:
    """What the user typed: `python -m game`, or `timestep-lab` (installed or bundled)."""
    typed = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "python -m game" if typed in ("", "__main__.py", "-c") else Path(typed).stem


def version_text() -> str:
    """`--version`: the version, where the game's files are, and where each licence is."""
    if BUNDLED:
        files = "inside this one-file bundle, unpacked there while it runs"
    else:
        files = "installed" if INSTALLED else "a checkout"
    lines = [
        f"{DISTRIBUTION} {metadata.version(DISTRIBUTION)} (Python {platform.python_version()})",
        f"files: {ROOT} ({files})",
        "licences (`--licences` prints them in full):",
        *(f"  {licence.covers}: {licence.path}" for licence in LICENCES),
    ]
    return "\n".join(lines)


def licences_text() -> str:
    """`--licences`: every licence that travels with the game, in full, each under its name."""
    return "\n\n".join(
        f"==> {licence.covers} ({licence.path.name})\n\n{licence.path.read_text(encoding='utf-8')}"
        for licence in LICENCES
    )


class _Print(argparse.Action):
    """A flag that prints a text as it is and exits: argparse's `version` action re-wraps its
    lines. `const` is the function that makes the text, called only when the flag is given."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(self.const())
        parser.exit()


def build_parser(commands: dict[str, Command]) -> CliParser:
    parser = CliParser(
        prog=program_name(),
        description="Timestep Lab: the fixed-timestep game loop, visible and playable. "
        "Without a command, it plays the game (same options as `play`).",
    )
    parser.add_argument(
        "--version",
        action=_Print,
        nargs=0,
        const=version_text,
        help="say the version, where the game's files are and where the licences are",
    )
    parser.add_argument(
        "--licences",
        action=_Print,
        nargs=0,
        const=licences_text,
        help="print the licences that travel with the game (the font's, ffmpeg's)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, command in commands.items():
        sub = subparsers.add_parser(name, help=command.HELP, description=command.HELP)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def print_problems(lines: Sequence[str]) -> None:
    """The problems on stderr, one a line: the first `MAX_PROBLEM_LINES`, then how many more (a
    file of a thousand bad entries needs fixing, not a thousand lines). Each is printable
    (`game.printable`): one problem, one line, and no terminal control, even when a file name,
    a value or a name read from a file holds a line break or an escape sequence."""
    for line in lines[:MAX_PROBLEM_LINES]:
        print(printable(line), file=sys.stderr)
    if len(lines) > MAX_PROBLEM_LINES:
        more = len(lines) - MAX_PROBLEM_LINES
        print(f"... and {more:,} more problem{'s' if more > 1 else ''}", file=sys.stderr)


def _command_name(args_in: Sequence[str]) -> str:
    """`python -m game sweep`, for the one line a stopped command prints."""
    return f"{program_name()} {args_in[0]}" if args_in else program_name()


def _say(line: str) -> None:
    """One line on stderr, if there is still a terminal to print it on (SIGHUP closed it)."""
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def _check_stop_point() -> None:
    """A stop point that does not exist is a typo: nothing would ever wait there."""
    if (name := unknown_stop_point()) is not None:
        raise BadInput(
            f"error: {STOP_AT}={name!r} names no stop point (one of: {', '.join(POINTS)})"
        )


_OWN_FLAGS = ("-h", "--help", "--version", "--licences")
"""The flags of the command line itself; anything else without a command is the game's."""


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    try:
        if not args_in or (args_in[0] not in COMMAND_NAMES and args_in[0] not in _OWN_FLAGS):
            args_in.insert(0, "play")
        parser = build_parser(
            _commands([args_in[0]] if args_in[0] in COMMAND_NAMES else COMMAND_NAMES)
        )
        with stops_cleanly():  # every command: see game.stopping
            _check_stop_point()
            args = parser.parse_args(args_in)
            code: int = args.run(args)
        stop_point("done")
        return code
    except BadInput as problem:
        print_problems(problem.lines)
        return EXIT_BAD_INPUT
    except Stopped as stop:
        _say(stop.line(_command_name(args_in)))
        return stop.exit_code
    except WorkerDied as died:
        _say(died.line(_command_name(args_in)))
        return EXIT_WORKER_DIED
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head`: stop quietly, as command-line tools do.
        sys.stderr.close()
        return 0
