"""The benchmarks stand on the game alone: nothing in `bench/` imports from `tests/`.

A benchmark that borrowed a test's helper would break when the test is reworded, and would
measure whatever the test happens to do today; what both need lives in `game/` (for instance
`game.scheduler.carry_bounds`, the day's frames and the conditioning carry bound).
"""

from __future__ import annotations

import ast
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def imported_modules(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return names


def test_the_scan_finds_both_kinds_of_import() -> None:
    tree = ast.parse("import tests.helpers\nfrom tests.fuzzing import junk\nfrom game import cli\n")
    assert imported_modules(tree) == ["tests.helpers", "tests.fuzzing", "game"]


def test_no_benchmark_imports_the_tests() -> None:
    offences = [
        f"{path.name}: {name}"
        for path in sorted(BENCH.glob("*.py"))
        for name in imported_modules(ast.parse(path.read_text(encoding="utf-8")))
        if name == "tests" or name.startswith("tests.")
    ]
    assert offences == []
