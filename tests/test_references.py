"""docs/references.md is where the code's citations lead: every anchor cited must be there."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCES = (ROOT / "docs" / "references.md").read_text(encoding="utf-8")
CITATION = re.compile(r"references\.md#([a-z0-9-]+)")
SOURCES = [
    *sorted((ROOT / "game").rglob("*.py")),
    *sorted((ROOT / "tests").rglob("*.py")),
    *sorted((ROOT / "configs").rglob("*.toml")),
    ROOT / "README.md",
    ROOT / "BENCHMARKS.md",
    *sorted((ROOT / "docs").glob("*.md")),
]


def anchors() -> set[str]:
    return set(re.findall(r'<a id="([a-z0-9-]+)"></a>', REFERENCES))


def test_every_cited_anchor_exists() -> None:
    cited = {
        (path.relative_to(ROOT).as_posix(), anchor)
        for path in SOURCES
        for anchor in CITATION.findall(path.read_text(encoding="utf-8"))
    }
    assert cited  # the code does cite the references
    assert {(path, anchor) for path, anchor in cited if anchor not in anchors()} == set()


def test_the_table_of_contents_lists_every_anchor() -> None:
    listed = set(re.findall(r"\[`#([a-z0-9-]+)`\]\(#\1\)", REFERENCES))
    assert listed == {"step-cap", "three-layers", "accumulator", "projectile-spring",
                      "worked-example", "engines", "rollback"}  # fmt: skip
    assert listed <= anchors()
