"""`python -m bench --write`: a section measured afresh keeps what was written by hand under it.

BENCHMARKS.md is half measurement, half account: how a figure was measured, what each saving
was and cost. The account sits below a marker line (`bench.__main__.BY_HAND`) in its section;
the tables above it are the suites', remade by every `--write`.
"""

from __future__ import annotations

from pathlib import Path

from bench.__main__ import BY_HAND, _merged

OLD = f"""# Benchmarks

header

## Speed: a frame

| what | time |
|---|---|
| frame | 9 us |

A note the suite writes.

{BY_HAND}

Measured on a quiet day; the saving was one line.

## Memory: a run

| what | peak |
|---|---|
| run | 50 MB |

## Day run: 24 hours

| what | time |
|---|---|
| day | 800 s |
"""

FRESH_SPEED = """## Speed: a frame

| what | time |
|---|---|
| frame | 7 us |

A note the suite writes.
"""


def sections(text: str) -> list[str]:
    return ["## " + chunk for chunk in text.split("\n## ")[1:]]


def test_a_section_measured_again_keeps_its_text_by_hand_under_the_new_table() -> None:
    merged = _merged(OLD, [("Speed: a frame", FRESH_SPEED)], everything=False)
    speed, memory, day = sections(merged)
    assert speed == (
        FRESH_SPEED + f"\n{BY_HAND}\n\nMeasured on a quiet day; the saving was one line.\n"
    )
    assert "| frame | 9 us |" not in merged
    assert memory == sections(OLD)[1]  # not measured: as it was
    assert day == sections(OLD)[2]


def test_a_full_run_remakes_every_section_but_keeps_the_text_by_hand_and_the_opt_in_ones() -> None:
    fresh_memory = "## Memory: a run\n\n| what | peak |\n|---|---|\n| run | 48 MB |\n"
    new = [("Speed: a frame", FRESH_SPEED), ("Memory: a run", fresh_memory)]
    day, speed, memory = sections(_merged(OLD, new, everything=True))
    assert day == sections(OLD)[2]  # an opt-in suite's, kept on a full run
    assert speed.endswith("Measured on a quiet day; the saving was one line.\n")
    assert "| frame | 7 us |" in speed
    assert memory == fresh_memory  # nothing by hand: just the suite's


def test_every_section_of_benchmarks_md_with_an_account_has_it_below_the_marker() -> None:
    # The sections whose text goes on after the suite's notes keep it under `BY_HAND`; a
    # section without the marker is the suite's alone, and `--write` remakes all of it.
    report = (Path(__file__).resolve().parents[1] / "BENCHMARKS.md").read_text(encoding="utf-8")
    marked = [section.split("\n", 1)[0] for section in sections(report) if BY_HAND in section]
    assert "## Workshop: a 10-minute headless simulation" in marked
    assert "## Frame: the whole frame at 1,000 fps of virtual time" in marked
    assert all(section.count(BY_HAND) <= 1 for section in sections(report))
