"""`python -m bench [--quick] [--only NAME] [--write]`: run the benchmarks, print Markdown.

With `--write`, the results replace BENCHMARKS.md (with the command that produced them).
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import platform
import sys
from pathlib import Path

SUITES = ["scheduler", "pacer", "world", "hud", "render", "loop", "workshop"]
"""Modules `bench.bench_<name>`, each with `run(quick: bool) -> list[Section]`."""


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument("--only", choices=SUITES, action="append", help="run only these suites")
    parser.add_argument("--write", action="store_true", help="rewrite BENCHMARKS.md")
    args = parser.parse_args()
    parts = [
        "# Benchmarks",
        "",
        f"Produced by `make bench ARGS=--write` (`python -m bench --write`) on "
        f"{datetime.date.today().isoformat()}, Python {platform.python_version()}, "
        f"{platform.machine()}, a shared 2-core machine: read the medians and the ratios, "
        "not the last digit.",
        "",
    ]
    for name in args.only or SUITES:
        module = importlib.import_module(f"bench.bench_{name}")
        for section in module.run(args.quick):
            text = section.markdown()
            print(text, flush=True)
            parts.append(text)
    if args.write:
        Path("BENCHMARKS.md").write_text("\n".join(parts))
        print("wrote BENCHMARKS.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
