"""`python -m game lessons [--check] [--lesson N] [--json]`: the lessons, and proof of their claims.

    python -m game lessons                     # the lessons, their steps and claims
    python -m game lessons --check             # every step's demo played, each claim measured
    python -m game lessons --check --lesson 8 --json
    python -m game lessons --check --lesson-dir my_lessons   # your own lessons' claims

`--check` plays each step's demo (`[steps.demo]`: its keys at their seconds) in the real game,
headless, on the lesson clock (`game.app.demo`: the step's frame-rate cap sets the frame
lengths, step cost is counted, not burned), measures every figure its caption claims
(`[[steps.claims]]`) and prints the claim beside the measurement, one line per claim (`--json`:
one object per claim). The exit status is 1 if any measurement differs from its claim by more
than the claim's tolerance; the check gives the same figures on every machine.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from game.arguments import whole_number
from game.commands.options import add_lesson_dir
from game.errors import BadInput
from game.printable import printable
from game.worker_pool import worker_pool
from game.workshop.claims.check import ClaimResult, check_step
from game.workshop.files.lessons import LESSONS_DIR, Lesson, find_lesson, load_lessons

HELP = "list the lessons; --check plays every step's demo and measures the figures it claims"
EXIT_CLAIM_DIFFERS = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:

    add = parser.add_argument
    add("--check", action="store_true", help="play each step's demo and measure its claims")
    add("--lesson", type=whole_number, metavar="N", help="only lesson N")
    add_lesson_dir(parser)
    add("--json", action="store_true", help="with --check: one JSON object per claim")
    add(
        "--workers",
        type=whole_number,
        default=None,
        metavar="N",
        help="with --check: lessons checked at once (default: one per core)",
    )


def check_lesson(lesson: Lesson) -> list[ClaimResult]:
    """Every claim of every step of `lesson`, measured from the step's demo."""
    # The dummy driver must be chosen before pygame starts: the check needs no screen.
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from game.app.demo import play_demo

    results: list[ClaimResult] = []
    for number, step in enumerate(lesson.steps, start=1):
        if step.demo is None or not step.claims:
            continue
        played = play_demo(lesson, number)
        results.extend(check_step(lesson.number, number, step.claims, played.frames))
    return results


def _checked(job: tuple[Path, int]) -> list[ClaimResult]:
    """One lesson's results, in a worker process (module level, so it can be sent there): the
    lesson numbered `job[1]` of the folder `job[0]`."""
    folder, number = job
    return check_lesson(find_lesson(load_lessons(folder), number))


def check_lessons(
    lessons: tuple[Lesson, ...], workers: int, folder: Path = LESSONS_DIR
) -> list[ClaimResult]:
    """Every lesson's results, in lesson order: each lesson's demos are one job (the workers
    read the lessons again from `folder`)."""
    jobs = [(folder, lesson.number) for lesson in lessons]
    if workers <= 1 or len(jobs) == 1:
        return [result for lesson in lessons for result in check_lesson(lesson)]
    with worker_pool(min(workers, len(jobs))) as pool:
        return [result for results in pool.map(_checked, jobs) for result in results]


def listing(lessons: tuple[Lesson, ...]) -> list[str]:
    """Each lesson's title, and each step's claims in words."""
    lines = []
    for lesson in lessons:
        lines.append(f"lesson {lesson.number}: {printable(lesson.title)}")
        for number, step in enumerate(lesson.steps, start=1):
            claims = [ClaimResult(lesson.number, number, c, None) for c in step.claims]
            said = ", ".join(f"{claim.what()} {claim.claimed()}" for claim in claims)
            lines.append(f"  step {number}: {said or 'claims no figure'}")
    return lines


def _check_flags(args: argparse.Namespace) -> None:
    """Refuse, in one line and before any lesson is read, flags that say nothing without
    `--check` and a number of workers that is no number of processes."""
    for flag, given in (("--json", args.json), ("--workers", args.workers is not None)):
        if given and not args.check:
            raise BadInput.error(f"{flag} needs --check (it says how the claims are checked)")
    if args.workers is not None and args.workers < 1:
        raise BadInput.error(f"--workers must be at least 1 (got {args.workers})")


def run(args: argparse.Namespace) -> int:
    _check_flags(args)
    folder = args.lesson_dir if args.lesson_dir is not None else LESSONS_DIR
    lessons = load_lessons(folder)
    if args.lesson is not None:
        lessons = (find_lesson(lessons, args.lesson),)
    if not args.check:
        print("\n".join(listing(lessons)))
        return 0
    workers = args.workers if args.workers is not None else os.cpu_count() or 1
    results = check_lessons(lessons, workers, folder)
    for result in results:
        print(json.dumps(result.record()) if args.json else result.line(), flush=True)
    if not args.json:
        held = sum(result.ok for result in results)
        print(f"{held} of {len(results)} claims hold")
    return 0 if all(result.ok for result in results) else EXIT_CLAIM_DIFFERS
