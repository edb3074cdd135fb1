"""Why the code looks like this: the small choices made for speed, each beside its alternative.

Docstrings say what a piece of code does and why in a sentence; when the why is speed, the
figure lives here. Each row times the code as written against the obvious alternative, in the
same run, on SDL's dummy video driver where pixels are involved. Choices measured elsewhere in
BENCHMARKS.md are listed under the table with the section that measures them.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field, make_dataclass
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pygame

from bench.harness import Section, median_ns_per_call, ms, us
from game.hud.hud_colours import Meaning
from game.hud.plate import make_plate
from game.hud.rows import Cell
from game.view.stage import paint_backdrop
from game.world.render_view import TAU
from game.world.settings import WorldSettings
from game.world.world import _wrap_angles
from timestep_lab import INDICATORS, ConditioningAccount, Ledger, StepPlan

SCREEN = (1280, 720)
GRAPHS = (560, 330)
"""About the size of the HUD's graphs in a 1280x720 window."""
PLATE = (500, 600)
ANGLES = 11_000
"""One angle per body of the world benchmark (10,000 projectiles and 1,000 springs)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One row: the module, what it does, and the two ways timed."""

    module: str
    choice: str
    chosen: Callable[[], object]
    alternative: str
    other: Callable[[], object]
    number: int


def _frozen_twin(fields: tuple[str, ...], defaults: dict[str, Any]) -> type:
    """A frozen, slotted dataclass with the same fields and defaults: the road not taken."""
    spec = [
        (name, Any, field(default=defaults[name])) if name in defaults else name for name in fields
    ]
    return make_dataclass("Twin", spec, frozen=True, slots=True)


def _interleaved(
    first: Callable[[], object], second: Callable[[], object], *, number: int, repeat: int
) -> tuple[float, float]:
    """Median time per call of each, their batches taking turns so that load hits both alike."""
    firsts, seconds = [], []
    for _ in range(repeat):
        firsts.append(median_ns_per_call(first, number=number, repeat=1))
        seconds.append(median_ns_per_call(second, number=number, repeat=1))
    return statistics.median(firsts), statistics.median(seconds)


def _plan_makers() -> tuple[Callable[[], object], Callable[[], object], Callable[[], object]]:
    """A plan made as the scheduler makes one every frame (its ledger, its conditioning account
    and the plan, each with `tuple.__new__`; the lights from the table of eight), then with the
    NamedTuples' own constructors, then as frozen, slotted dataclasses of the same fields."""
    ledger_values = tuple(range(len(Ledger._fields)))
    account_values = (0, 6_944_444, 6_944_444, 0)
    lights = INDICATORS[False, False, False]
    made = tuple.__new__
    ledger_twin = _frozen_twin(Ledger._fields, {})
    account_twin = _frozen_twin(ConditioningAccount._fields, {})
    plan_twin = _frozen_twin(StepPlan._fields, {})

    def as_written() -> object:
        ledger = made(Ledger, ledger_values)
        account = made(ConditioningAccount, account_values)
        return made(StepPlan, (0.5, 1, 6_944_444, ledger, account, lights))

    def constructed() -> object:
        ledger = Ledger(*ledger_values)
        account = ConditioningAccount(*account_values)
        return StepPlan(0.5, 1, 6_944_444, ledger, account, lights)

    def dataclasses() -> object:
        ledger = ledger_twin(*ledger_values)
        account = account_twin(*account_values)
        return plan_twin(0.5, 1, 6_944_444, ledger, account, lights)

    return as_written, constructed, dataclasses


def _choices(screen: pygame.Surface) -> list[Choice]:
    return [*_record_choices(), *_kept_work_choices(screen)]


def _record_choices() -> list[Choice]:
    """Values made every frame: NamedTuples, beside frozen, slotted dataclasses."""
    plan_as_written, plan_constructed, plan_dataclasses = _plan_makers()
    cell_twin = _frozen_twin(Cell._fields, Cell._field_defaults)
    return [
        Choice(
            "timestep_lab/_plan.py",
            "`StepPlan` and its parts are NamedTuples (a plan, its ledger and account a frame)",
            plan_as_written,
            "frozen, slotted dataclasses",
            plan_dataclasses,
            20_000,
        ),
        Choice(
            "timestep_lab/_scheduler.py",
            "the plan's parts made with `tuple.__new__` (`_made`)",
            plan_as_written,
            "their own constructors, `Ledger(...)`",
            plan_constructed,
            20_000,
        ),
        Choice(
            "game/hud/rows.py",
            "`Cell` (and `Row`, `Group`) are NamedTuples, some eighty a frame",
            lambda: Cell("0.750", Meaning.OK),
            "a frozen, slotted dataclass",
            lambda: cell_twin("0.750", Meaning.OK),
            20_000,
        ),
    ]


def _kept_work_choices(screen: pygame.Surface) -> list[Choice]:
    """Work done once and kept (or done in place), beside the same work done every time."""
    graph_plate = make_plate(GRAPHS, 10)
    graph_picture = pygame.Surface(GRAPHS, pygame.SRCALPHA)

    def copy_pixels() -> None:
        pygame.surfarray.pixels2d(graph_picture)[...] = pygame.surfarray.pixels2d(graph_plate)

    angles = np.random.default_rng(5).uniform(-50.0, 50.0, ANGLES)
    scratch = np.empty_like(angles)
    turns = np.float64(TAU)

    settings = WorldSettings()
    backdrop = paint_backdrop(settings, *SCREEN)
    plate = make_plate(PLATE, 12)

    return [
        Choice(
            "game/hud/graphs.py",
            f"the graphs' plate copied into the kept picture ({GRAPHS[0]}x{GRAPHS[1]})",
            copy_pixels,
            "`Surface.copy()`, a new picture each time",
            graph_plate.copy,
            200,
        ),
        Choice(
            "game/world/world.py",
            f"`_wrap_angles`, {ANGLES:,} angles back into [0, 2 pi)",
            lambda: _wrap_angles(angles, scratch),
            "`np.remainder(angle, 2 pi, out=angle)`",
            lambda: np.remainder(angles, turns, out=angles),
            200,
        ),
        Choice(
            "game/view/stage.py",
            f"the backdrop painted once, blitted every frame ({SCREEN[0]}x{SCREEN[1]})",
            lambda: screen.blit(backdrop, (0, 0)),
            "painted every frame",
            lambda: screen.blit(paint_backdrop(settings, *SCREEN), (0, 0)),
            2,
        ),
        Choice(
            "game/hud/plate.py",
            f"a plate built once and kept, blitted every frame ({PLATE[0]}x{PLATE[1]})",
            lambda: screen.blit(plate, (0, 0)),
            "built and blitted every frame",
            lambda: screen.blit(make_plate(PLATE, 12), (0, 0)),
            50,
        ),
    ]


NOTES = [
    "Measured in the sections above:",
    "",
    "- `game/view/sprites.py`, sprites pre-rendered at 32 angles rather than "
    "`transform.rotate` per body per frame: the `transform.rotate` row of "
    '"Render: 5,000 projectiles, one whole frame".',
    "- `game/view/raster.py`, premultiplied sprites drawn with one `fblits` and "
    "`BLEND_PREMULTIPLIED`: the first row of the same table.",
    "- `game/world/render_view.py`, every float array of a view in one block: the note under "
    '"World: `view()`" (twelve separate arrays against one block).',
    "- `game/world/bodies.py`, the body columns of one dtype as rows of one block, and "
    "`game/world/snapshots.py`, each slot's views made once: the ratio column of "
    '"Snapshots: `SnapshotRing.save` vs `copy.deepcopy` of the world" (a save of 19 '
    "column copies, each slot indexed afresh, was 1/13 of a deepcopy under load).",
    "- `game/hud/text.py`, the cache of rendered text: the ratio column of "
    '"HUD: `Hud.draw` cost per frame", and the baseline row of '
    '"Loop: frame work with the default scene".',
    "- `timestep_lab/_overload.py` (the overload state kept when a frame changes nothing), "
    "`game/session/input_models.py` and `game/session/input_lab.py` (an idle tick or frame "
    "answered without building anything), `game/session/frame.py` and `game/session/lane.py` "
    "(a frame's step counts and final plans kept, the plan's parts read directly): the note "
    'under "Workshop: a 10-minute headless simulation".',
    "- `game/clock/virtual.py`, the virtual clock's times in whole units of 1/`_per_ns` ns, "
    "and `game/workshop/runs/runner.py`, the render cost's verdict worked out on change and "
    "event times compared in whole ns: the second pass's notes under \"Workshop: a 10-minute "
    'headless simulation".',
    "- `game/session/history.py` (a frame recorded as a tuple, its sample made when read), "
    "`game/workshop/runs/runner.py` (each event list's next due time kept; the report and "
    "`FrameRan` made with `tuple.__new__`), `game/session/lane.py` and `spiral.py` "
    "(`FrameLoad` and the rule's state the same way), `game/session/frame.py` (the ticks "
    "left counted), `timestep_lab/_books.py` and `game/workshop/runs/reports.py` (a frame's "
    "lag kept as a pair, its `Fraction` made when read): the issue 32 notes under "
    '"Workshop: a 10-minute headless simulation".',
    "- `game/workshop/runs/collector.py` (the collector back on without walking what the "
    "run made: frozen, then unfrozen into the oldest generation), `game/session/frame.py` "
    "(`Frame` with slots) and `game/session/input_lab.py` (the desk's frame end without "
    "`zip(strict=True)`, the flip times trimmed when read): the issue 32 notes of "
    '2026-12-04 under "Workshop: a 10-minute headless simulation".',
    "- `game/display/model.py`, the vblank grid in whole units of 1/D ns; "
    "`game/workshop/runs/display_run.py` and `game/workshop/runs/runner.py`, no `Fraction` "
    "operation "
    "a frame does not need, each frame's values as NamedTuples, and the cyclic garbage "
    'collector paused for a run: the "with display" column of "Workshop: 10 minutes with '
    'the display model" (15.6 s for judder_144 before them, on this machine).',
]
"""Where the other choices made for speed are measured: the sections they point to."""


def choices(screen: pygame.Surface, quick: bool) -> Section:
    repeat = 5 if quick else 31
    section = Section(
        title="Why the code looks like this",
        intro=(
            "Choices made for speed, each timed beside the obvious alternative: the median time "
            f"per call over {repeat} batches, the two taking turns. A docstring names the choice "
            "and its reason; the figure is here."
        ),
        columns=["module", "choice", "as written", "alternative", "its time", "ratio"],
    )
    for choice in _choices(screen):
        number = max(1, choice.number // 10) if quick else choice.number
        chosen, other = _interleaved(choice.chosen, choice.other, number=number, repeat=repeat)
        section.add(
            f"`{choice.module}`",
            choice.choice,
            _duration(chosen),
            choice.alternative,
            _duration(other),
            f"{other / chosen:.1f}x",
        )
    section.notes = list(NOTES)
    return section


def _duration(ns: float) -> str:
    return us(ns) if ns < 1_000_000 else ms(ns)


def run(quick: bool) -> list[Section]:
    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.display.set_mode(SCREEN)
        return [choices(screen, quick)]
    finally:
        pygame.display.quit()
