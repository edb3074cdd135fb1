"""`python -m game handout --out DIR [--quick]`: a static page a workshop can hand out.

Writes `DIR/index.html` with every lesson step (its caption, the clip of its demo, the command
that films it, and each figure its caption claims beside what that very run measured), the
reference articles' claims with the `schedule` and `lab` commands that reproduce their
figures and those commands' real output, and the policy comparisons; the clips go in
`DIR/clips`, the figures in `DIR/figures`. The page needs no server and no network.

Everything is made in-process by the repository's own commands (`clip`, `schedule`, `lab`,
`compare`): the page cannot say something the code does not do. The clips are filmed in
parallel, one process per core, since each one is a whole run of the game. `--quick` films only
each lesson's first step, smaller, and leaves out the slowest figures.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import shlex
import sys
from collections.abc import Callable
from concurrent.futures import as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NoReturn

from game.arguments import file_path
from game.commands import compare, lab, schedule
from game.commands.clip import demo_seconds, film_demo
from game.errors import BadInput
from game.resources import REFERENCES, SCENARIOS
from game.stopping import Stopped
from game.worker_pool import WorkerPool, worker_pool
from game.workshop.claims.check import ClaimResult, check_step
from game.workshop.clips.files import clip_spec
from game.workshop.files.lessons import Lesson, find_lesson, load_lessons
from game.workshop.files.output import Outputs, written_whole
from game.workshop.handout.page import (
    CLIP_WIDTH,
    Comparison,
    Figure,
    ReferenceSection,
    Shown,
    StepClip,
    page,
    reference_sections,
)

HELP = "write a static handout page: every lesson with its clip, the references, the policies"
COMPARISONS = (
    ("single_stall", "uncapped,clamp,drop,reset,backlog"),
    ("spiral", "uncapped,clamp,drop,backlog"),
)


@dataclass(frozen=True, slots=True)
class ClipSettings:
    """How the lesson clips are filmed (each lasts as long as its step's demo)."""

    size: str
    fps: int
    every_step: bool


FULL = ClipSettings(size=f"{CLIP_WIDTH}x{CLIP_WIDTH * 9 // 16}", fps=30, every_step=True)
"""Filmed at the width the page shows a clip (`CLIP_WIDTH`), every pixel is shown as drawn, and
a clip costs half what one of 1280x720 did, shrunk by the browser (BENCHMARKS.md, "Limits")."""
QUICK = ClipSettings(size="640x360", fps=10, every_step=False)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", type=file_path, required=True, metavar="DIR", help="where to write"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="first step of each lesson only, 1 s clips, and no slow figures (a smoke run)",
    )


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise BadInput.error(message)


def _run_command(text: str) -> Shown:
    """Run `python -m game <text>` (schedule or lab) here, and keep what it printed."""
    words = shlex.split(text)
    modules = {"schedule": schedule, "lab": lab}
    parser = _Parser(prog=f"python -m game {words[0]}")
    modules[words[0]].add_arguments(parser)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            modules[words[0]].run(parser.parse_args(words[1:]))
    except BadInput as problem:
        out.write("\n".join(problem.lines) + "\n")
    return Shown(text, out.getvalue())


@functools.cache
def _lessons() -> tuple[Lesson, ...]:
    """The shipped lessons, read once per process: a worker films a dozen clips, and reading
    every lesson file again for each cost 0.1 s."""
    return load_lessons()


def _film_step(job: tuple[int, int, str, str, int]) -> tuple[str, list[ClaimResult]]:
    """One lesson step's demo, filmed, and its claims measured from that run, in a worker
    process (module level, so it can be sent there)."""
    number, step, out, size, fps = job
    lesson = find_lesson(_lessons(), number)
    spec = clip_spec(Path(out), size, fps, demo_seconds(lesson, step, fps))
    played = film_demo(lesson, step, spec, bar=False)
    return out, check_step(number, step, lesson.steps[step - 1].claims, played.frames)


def lesson_clips(
    out: Path, plan: ClipSettings, tell: Callable[[str], None], pool: WorkerPool
) -> list[StepClip]:
    """Film the lesson steps' demos in `pool`'s workers, and describe each one for the page,
    with the claims its run measured."""
    steps: dict[str, StepClip] = {}
    jobs: list[tuple[int, int, str, str, int]] = []
    for lesson in _lessons():
        chosen = lesson.steps if plan.every_step else lesson.steps[:1]
        for number, step in enumerate(chosen, start=1):
            name = f"clips/lesson-{lesson.number}-step-{number}.mp4"
            command = (
                f"clip --lesson {lesson.number} --step {number} --demo "
                f"--size {plan.size} --fps {plan.fps} --out {Path(name).name}"
            )
            steps[str(out / name)] = StepClip(
                lesson.number, lesson.title, number, step.caption, step.keys, name, command
            )
            jobs.append((lesson.number, number, str(out / name), plan.size, plan.fps))
    Outputs().folder("--out", out / "clips", [Path(name).name for name in steps])
    done = 0
    try:
        futures = [pool.submit(_film_step, job) for job in jobs]
        for future in as_completed(futures):
            path, claims = future.result()
            steps[path] = replace(steps[path], claims=tuple(claims))
            done += 1
            tell(f"clip {done}/{len(jobs)}: {Path(path).name}")
    except Stopped as stop:  # each clip is whole or absent; the page is not written
        if done:
            stop.kept.append(f"{done} of {len(jobs)} clips in {out / 'clips'} (no page)")
        raise
    return list(steps.values())


def references() -> list[tuple[ReferenceSection, list[Shown]]]:
    """Each section of docs/references.md, with its commands run and their output kept."""
    sections = reference_sections(REFERENCES.read_text(encoding="utf-8"))
    return [(section, [_run_command(text) for text in section.commands]) for section in sections]


def lab_figures(out: Path) -> list[Figure]:
    """`lab --plot`'s figures, as PNG only (the page shows no SVG), drawn from the spring runs
    the references' `lab` has just made."""
    from game.commands.lab_plots import write_figures  # matplotlib only when asked for

    write_figures(Outputs().folder("--out", out / "figures" / "lab", lab.PNG_FIGURES), svg=False)
    return [
        Figure(title, f"figures/lab/{name}.png", "lab --plot figures/lab")
        for name, title in (
            ("projectile", "Projectile error per integrator and tick rate"),
            ("spring_energy", "Spring energy drift: explicit vs semi-implicit Euler"),
        )
    ]


def references_and_lab(
    out: Path, quick: bool
) -> tuple[list[tuple[ReferenceSection, list[Shown]]], list[Figure]]:
    """The references' commands, then the lab's figures, in one process: the figures' spring
    runs are those its `lab` command just ran (`game.world.experiments` keeps each one)."""
    return references(), [] if quick else lab_figures(out)


def comparison(out: Path, name: str, policies: str) -> Comparison:
    """`compare` on one scenario: its table and its figure."""
    folder = out / "figures" / f"compare-{name}"
    parser = _Parser(prog="python -m game compare")
    compare.add_arguments(parser)
    args = parser.parse_args(
        [
            "--scenario",
            str(SCENARIOS / f"{name}.toml"),
            "--policies",
            policies,
            "--out",
            str(folder),
        ]
    )
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        compare.run(args, svg=False)  # the page shows the PNG
    table = "".join(
        line for line in printed.getvalue().splitlines(True) if not line.startswith("wrote ")
    )
    command = f"compare --scenario {name} --policies {policies} --out out/{name}"
    figure = f"figures/{folder.name}/compare.png"
    return Comparison(table.splitlines()[0], command, table, figure)


def _figures_kept(folder: Path) -> list[str]:
    """The figure files a stopped handout's workers finished, in a few words: each was written
    under a temporary name and renamed whole, so what is there under its own name is kept."""
    whole = [path for path in folder.rglob("*") if path.is_file() and not path.name.startswith(".")]
    return [f"{len(whole)} figure files in {folder}"] if whole else []


def run(args: argparse.Namespace) -> int:
    out = Outputs().folder("--out", args.out, ["index.html"])
    figure_files = [
        *(f"lab/{name}" for name in lab.PNG_FIGURES),
        *(f"compare-{name}/{file}" for name, _ in COMPARISONS for file in compare.WITHOUT_SVG),
    ]
    Outputs().folder("--out", out / "figures", figure_files)  # now, not after the clips
    plan = QUICK if args.quick else FULL
    show = sys.stderr.isatty()

    def tell(message: str) -> None:
        if show:
            print(message, file=sys.stderr, flush=True)

    try:
        with worker_pool(os.cpu_count() or 1) as pool:
            # The page's other parts go first: each takes longer than a clip, and the clips
            # then fill both cores around them, where after the clips they would leave one idle.
            made = pool.submit(references_and_lab, out, args.quick)
            chosen = COMPARISONS[:1] if args.quick else COMPARISONS
            comparing = [pool.submit(comparison, out, n, policies) for n, policies in chosen]
            steps = lesson_clips(out, plan, tell, pool)
            tell("waiting for the references, the lab's figures and the comparisons")
            shown, figures = made.result()
            compared = [future.result() for future in comparing]
    except Stopped as stop:  # the workers are stopped: what they wrote is whole (`written_whole`)
        stop.kept.extend(_figures_kept(out / "figures"))
        raise
    remake = f"handout --out {args.out}" + (" --quick" if args.quick else "")
    index = out / "index.html"
    with written_whole(index, "--out") as partial:
        partial.write_text(page(steps, shown, compared, figures, remake), encoding="utf-8")
    print(f"wrote {index} ({len(steps)} clips): open it in a browser, no server needed")
    return 0
