"""`make lint`'s check that the settings are typed: mypy on each file here must report exactly one
error, `attr-defined`, on the line marked `# the typo`, and nothing else.

These files are left out of the main type check (they are wrong on purpose). A class whose
attributes a type checker cannot see (a `__getattr__` returning `Any`) would let the typo pass,
and this check fail.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mypy import api

HERE = Path(__file__).resolve().parent
MARK = "# the typo"


def problems(path: Path) -> list[str]:
    """What is wrong with mypy's verdict on `path` (nothing: it found the typo, and only it)."""
    marked = [n for n, line in enumerate(path.read_text().splitlines(), 1) if MARK in line]
    out, _, _ = api.run(["--strict", "--no-incremental", str(path)])
    errors = [line for line in out.splitlines() if ": error:" in line]
    expected = f"{path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}:"
    if len(marked) != 1:
        return [f"{path.name}: {len(marked)} lines marked {MARK!r}, not 1"]
    on_the_mark = errors[0].startswith(f"{expected}{marked[0]}:") if len(errors) == 1 else False
    if on_the_mark and errors[0].endswith("[attr-defined]"):
        return []
    return [f"{path.name}: wanted one attr-defined error on line {marked[0]}, got: {errors}"]


def main() -> int:
    files = sorted(path for path in HERE.glob("*_typo.py"))
    found = [problem for path in files for problem in problems(path)]
    for problem in found:
        print(problem, file=sys.stderr)
    if not found:
        print(f"each of {len(files)} typo files: one attr-defined error, on its marked line")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
