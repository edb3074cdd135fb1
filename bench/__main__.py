"""`python -m bench [--quick] [--only NAME]... [--write]`: run the benchmarks, print Markdown.

With `--write`, the results go into BENCHMARKS.md: a full run rewrites it; a run of some suites
(`--only`) replaces just their sections, so one figure can be remeasured without the others.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import platform
import sys
from pathlib import Path

SUITES = [
    "scheduler", "pacer", "world", "hud", "render", "loop", "workshop", "choices", "clip", "sweep",
    "inputs", "memory", "day", "frame", "snapshots", "limits", "long_runs", "rollback_map",
    "capture",
]  # fmt: skip
"""Modules `bench.bench_<name>`, each with `run(quick: bool) -> list[Section]`."""
OPT_IN = ["day-run"]
"""Suites `make bench` leaves out (too long for every run): only with `--only` (`day-run` is
`bench.bench_day_run`). A full `--write` keeps their sections as they were."""

REPORT = Path("BENCHMARKS.md")


def _header() -> str:
    return (
        "# Benchmarks\n\n"
        "Produced by `make bench ARGS=--write` (`python -m bench --write`; one suite: "
        "`python -m bench --only NAME --write`), last on "
        f"{datetime.date.today().isoformat()}, Python {platform.python_version()}, "
        f"{platform.machine()}, a shared 2-core machine: read the medians and the ratios, "
        "not the last digit. A section's tables are remade by each `--write`; the text under "
        "its `written by hand` line (how a figure was measured, what a saving cost) is kept.\n"
    )


def _sections(text: str) -> list[tuple[str, str]]:
    """A report's sections, as (title line, whole text), in order; the header is dropped."""
    chunks = text.split("\n## ")[1:]
    return [(chunk.split("\n", 1)[0], "## " + chunk.rstrip("\n") + "\n") for chunk in chunks]


OPT_IN_TITLES = ("Day run:",)
"""The titles of the opt-in suites' sections."""


BY_HAND = "<!-- written by hand: `--write` keeps what follows in this section -->"
"""The line in a section of BENCHMARKS.md after which its text is an engineer's, not a suite's:
how a figure was measured, what each saving was and cost. A section measured afresh keeps it."""


def _with_notes(fresh: str, old: str) -> str:
    """A section measured afresh, followed by what was written by hand in its old text."""
    at = old.find(BY_HAND)
    return fresh if at < 0 else fresh + "\n" + old[at:]


def _merged(old: str, new: list[tuple[str, str]], everything: bool) -> str:
    """The new sections in place of the old ones with the same titles, each keeping the text
    written by hand under its old table (`BY_HAND`); the other sections kept as they were (on
    a full run, only the opt-in suites': every other one is measured afresh)."""
    fresh = dict(new)
    old_sections = _sections(old)
    by_title = dict(old_sections)
    kept = old_sections
    if everything:  # a full run: every section afresh, but the opt-in suites' kept as they were
        kept = [(title, text) for title, text in kept if title.startswith(OPT_IN_TITLES)]
    titles = {title for title, _ in kept}
    body = [_with_notes(fresh[title], text) if title in fresh else text for title, text in kept]
    body += [
        _with_notes(text, by_title.get(title, "")) for title, text in new if title not in titles
    ]
    return "\n".join([_header(), *body])


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument(
        "--only", choices=SUITES + OPT_IN, action="append", help="run only these suites"
    )
    parser.add_argument("--write", action="store_true", help="record the results in BENCHMARKS.md")
    args = parser.parse_args()
    new: list[tuple[str, str]] = []
    for name in args.only or SUITES:
        module = importlib.import_module(f"bench.bench_{name.replace('-', '_')}")
        for section in module.run(args.quick):
            text = section.markdown()
            print(text, flush=True)
            new.append((section.title, text))
    if args.write:
        old = REPORT.read_text(encoding="utf-8") if REPORT.exists() else ""
        REPORT.write_text(_merged(old, new, everything=not args.only), encoding="utf-8")
        print(f"wrote {REPORT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
