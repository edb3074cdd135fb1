"""The docs' example, "The scheduler in your own game", runs: a pygame loop on `timestep_lab`
alone, for 120 frames on SDL's dummy driver, whose every frame balances."""

from __future__ import annotations

import ast
import runpy
from fractions import Fraction
from pathlib import Path

from timestep_lab import TimeBooks

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "fixed_step_pygame.py"


def test_the_example_imports_only_pygame_and_the_library() -> None:
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    imported = {
        name.split(".")[0]
        for node in ast.walk(tree)
        for name in (
            [alias.name for alias in node.names] if isinstance(node, ast.Import)
            else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        )
    }  # fmt: skip
    assert imported == {"__future__", "time", "pygame", "timestep_lab"}


def test_the_example_runs_120_frames_and_every_one_balances() -> None:
    run = runpy.run_path(str(EXAMPLE))["run"]
    books: TimeBooks = run(frames=120)
    assert (books.frames, books.every_frame_balanced, books.ledger_ok) == (120, True, True)
    assert books.stepped_ns == books.ticks * Fraction(1_000_000_000, 60)
    assert books.sim_time_ns == books.stepped_ns
