"""Options several commands share, read in one place: a command imports these, never another
command (`tests/test_architecture.py` checks it).

- `--policies A,B,...` (`compare`, `sweep`, `capture`), and the scenario a list of policies
  cannot run (one that switches the policy by itself);
- `--lesson-dir DIR` (`play`, `clip`, `lessons`): a folder of one's own lessons.
"""

from __future__ import annotations

import argparse
import sys

from game.arguments import file_path
from game.config.exact import decimal_text
from game.errors import BadInput
from game.workshop.files.lessons import Lesson, load_lessons
from game.workshop.files.scenario import Scenario
from timestep_lab import POLICIES


def parse_policies(text: str) -> list[str]:
    """The policies named in `text`, in order; each known, none twice."""
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise BadInput.error(f"--policies must be names separated by commas (got {text!r})")
    for name in names:
        if name not in POLICIES:
            raise BadInput.error(
                f"--policies: unknown policy {name!r} (known: {', '.join(POLICIES)})"
            )
    if len(set(names)) != len(names):
        raise BadInput.error(f"--policies names a policy twice (got {text!r})")
    return names


def refuse_policy_changes(scenario: Scenario, command: str) -> None:
    """A scenario that switches policy by itself would compare nothing: say so."""
    for change in scenario.changes:
        if change.policy is not None:
            raise BadInput.error(
                f"--scenario changes the policy at {decimal_text(change.at)} s; {command} runs "
                "each policy for the whole scenario, so give it one without policy changes"
            )


def add_lesson_dir(parser: argparse.ArgumentParser) -> None:
    """`--lesson-dir DIR`, shared with the game (`play`): read by `chosen_lessons`."""
    parser.add_argument(
        "--lesson-dir",
        type=file_path,
        metavar="DIR",
        help="a folder of your own lessons, played instead of the packaged ones",
    )


def chosen_lessons(args: argparse.Namespace) -> tuple[Lesson, ...] | None:
    """The lessons of `--lesson-dir`, read now (a bad file: exit 2 before anything runs), or
    None for the packaged ones."""
    return load_lessons(args.lesson_dir) if args.lesson_dir is not None else None


def say_what_was_left_out(scenario: Scenario) -> None:
    """`--seconds` shorter than the scenario runs its first seconds: one line on stderr says what
    that left out, so a shortened demo never passes for the whole one."""
    if scenario.left_out:
        print(scenario.left_out.line(), file=sys.stderr)


def add_cluster_argument(parser: argparse.ArgumentParser) -> None:
    """`--cluster ADDRESS`: the jobs on a Dask distributed scheduler (`game.cluster`)."""
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run the jobs on the Dask scheduler at ADDRESS (tcp://HOST:8786; needs the "
        "[cluster] extra) instead of this machine's cores",
    )
