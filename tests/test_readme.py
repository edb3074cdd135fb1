"""The README is short, and the documentation tells the truth.

The README is read in five minutes: at most 250 lines, no paragraph over 8 lines, the two set-up
commands first, its picture made by a committed script that the docs name. The reference lives
in `docs/`, one topic a page: every key, command and flag the code has is on the page that holds
such lists, and every page is on the map. (`make docs` builds the pages and checks every link.)
"""

import argparse
import re
from pathlib import Path

import pytest

from game import limits, stopping
from game.app.keymap import HELP_ROWS
from game.app.script import load_script
from game.cli import _commands, build_parser
from game.file_reading import size_text
from game.workshop.clips import files as clips
from game.workshop.files.lessons import load_lessons

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")

MAX_README_LINES = 250
MAX_PARAGRAPH_LINES = 8
"""The package the API page documents, module by module."""


def page(name: str) -> str:
    """The text of `docs/NAME.md`."""
    return (DOCS / f"{name}.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """From the heading line `heading` to the next heading of the same or a higher level (a
    line in a code block is never a heading)."""
    level = len(heading.split(" ", 1)[0])
    lines = text.splitlines(keepends=True)
    start = lines.index(f"{heading}\n")
    fenced = False
    for end in range(start + 1, len(lines)):
        if lines[end].lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(rf"#{{1,{level}}} ", lines[end]):
            return "".join(lines[start:end])
    return "".join(lines[start:])


def paragraphs(text: str) -> list[list[str]]:
    """The prose of a Markdown text, paragraph by paragraph: runs of lines outside code blocks,
    tables and headings; each list item is a paragraph of its own."""
    found: list[list[str]] = []
    current: list[str] = []
    fenced = False
    for line in text.splitlines():
        starts_fence = line.lstrip().startswith("```")
        code = fenced or starts_fence or (not current and line.startswith("    "))
        if starts_fence:
            fenced = not fenced
        if code or not line.strip() or line.startswith(("|", "#")):
            current = []
            continue
        if re.match(r"\s*([-*]|\d+\.) ", line) or not current:
            current = []
            found.append(current)
        current.append(line)
    return found


def markdown_pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


# -- the README ------------------------------------------------------------------------------


def test_the_readme_is_at_most_250_lines() -> None:
    assert len(README.splitlines()) <= MAX_README_LINES


@pytest.mark.parametrize("path", [ROOT / "README.md", *markdown_pages()], ids=lambda p: p.name)
def test_no_paragraph_is_over_8_lines(path: Path) -> None:
    if path.name == "references.md":
        pytest.skip("the references keep each article's claims whole, as `handout` reads them")
    long = [p[0] for p in paragraphs(path.read_text(encoding="utf-8")) if len(p) > 8]
    assert long == []


def test_paragraphs_are_counted_as_a_reader_sees_them() -> None:
    text = "a\nb\n\n- c\n  d\n- e\n\n| f |\n|---|\n\n```\ng\n\nh\n```\n    i\n\n## j\nk\n"
    assert paragraphs(text) == [["a", "b"], ["- c", "  d"], ["- e"], ["k"]]


def test_the_two_set_up_commands_come_first() -> None:
    assert README.index("make run") < README.index("## ")
    assert README.index("make test") < README.index("## ")


def test_the_readme_keys_are_rows_of_the_help() -> None:
    rows = section(README, "## The keys that matter").splitlines()
    listed = [row for row in rows if row.startswith("| ") and row != "| keys | what they do |"]
    assert 12 <= len(listed) <= 14  # the dozen that matter, word for word as the help says
    assert [row for row in listed if row not in {f"| {k} | {d} |" for k, d in HELP_ROWS}] == []


def test_the_readme_lists_every_lesson_by_its_title() -> None:
    table = section(README, "## The lessons")
    for lesson in load_lessons():
        assert f"| {lesson.number} | {lesson.title} |" in table


def test_the_readme_picture_is_made_by_the_script_the_docs_name() -> None:
    (picture,) = re.findall(r"^!\[[^\]]*\]\(([^)]+)\)$", README, re.MULTILINE)
    assert (ROOT / picture).is_file()
    how = section(page("commands"), "### The README's picture")
    (command,) = [line for line in how.splitlines() if "--screenshot" in line]
    script = re.search(r"--script (\S+)", command)
    shot = re.search(r"--screenshot (\S+)", command)
    assert script is not None and shot is not None
    assert shot[1] == picture
    assert load_script(ROOT / script[1])  # it exists and every line of it parses
    assert f"[`{script[1]}`]({script[1]})" in README  # the README names it too


def test_the_readme_links_lead_to_files_that_exist() -> None:
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert local
    assert [t for t in local if not (ROOT / t).exists()] == []


# -- the pages of docs/ ----------------------------------------------------------------------


INCLUDED = {"readme": "../README.md", "benchmarks": "../BENCHMARKS.md",
            "assets": "../assets/README.md"}  # fmt: skip
"""The pages that show a file kept outside `docs/`, and the link that leads to each."""


def test_every_page_is_on_the_map() -> None:
    index = page("index")
    tree = index.split("```{toctree}\n", 1)[1].split("```", 1)[0].splitlines()
    entries = [re.sub(r".*<(.+)>$", r"\1", e) for e in tree if e and not e.startswith(":")]
    pages = [p.stem for p in markdown_pages() if p.stem != "index"]
    assert sorted(entries) == sorted(pages)  # in the site's table of contents
    for name in pages:  # and in the map a reader of the page sees
        assert f"]({INCLUDED.get(name, f'{name}.md')})" in index, name


def test_every_key_row_of_the_help_is_on_the_keys_page() -> None:
    keys = page("keys")
    for keys_, description in HELP_ROWS:
        assert f"| {keys_} | {description} |" in keys


def command_sections() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser(_commands())
    (subcommands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(subcommands.choices)


@pytest.mark.parametrize("name", sorted(command_sections()))
def test_every_command_has_a_section_with_every_flag(name: str) -> None:
    text = section(page("commands"), f"## {name}")
    assert f"python -m game {'[play]' if name == 'play' else name}" in text
    flags = [
        option
        for action in command_sections()[name]._actions
        for option in action.option_strings
        if option not in ("-h", "--help")
    ]
    assert [flag for flag in flags if not re.search(rf"{re.escape(flag)}(?![\w-])", text)] == []


def test_the_commands_page_lists_every_command_and_the_global_flags() -> None:
    text = page("commands")
    for name in command_sections():
        assert f"| [`{name}`](#{name}) |" in text
    assert "python -m game --version" in text and "python -m game --licences" in text


def test_the_limits_table_states_the_limits_the_code_enforces() -> None:
    table = page("limits").split("\n## ")[0]
    rows = [row for row in table.splitlines() if row.startswith("| ") and "| what |" not in row]
    stated = [row.rsplit("|", 2)[1].strip() for row in rows]  # the last column
    assert stated == [
        size_text(limits.MAX_TEXT_FILE_BYTES),
        size_text(limits.MAX_RECORDING_LINE_BYTES),
        str(limits.MAX_NESTING),
        str(limits.MAX_DIGITS),
        f"{limits.MAX_RUN_TICKS:,}",
        f"{limits.MAX_RUN_FRAMES:,}",
        f"{limits.MAX_REPLAY_FRAMES:,}",
        f"{limits.MAX_SWEEP_RUNS:,}",
        str(limits.MAX_VARY_AXES),
        f"{limits.MAX_CANNON_PERIOD_TICKS:,}",
        f"{limits.MAX_SCHEDULE_FRAMES:,}",
        str(limits.MAX_JUDDER_ROWS),
        f"{clips.MAX_PICTURES:,}",
        str(clips.MAX_MEGAPIXELS),
        str(limits.MAX_PROBLEM_LINES),
        size_text(limits.MAX_CAPTURE_BYTES),
        f"{limits.MAX_CAPTURE_ROWS:,}",
        f"{limits.MAX_CAPTURE_RUN_FRAMES:,}",
        f"{limits.MAX_HEADROOM_RUN_FRAMES:,}",
        f"{limits.MAX_CAPTURE_FILES:,}",
        size_text(limits.MAX_CAPTURE_LINE_BYTES),
        size_text(limits.MAX_CAPFRAMEX_BYTES),
        f"{limits.MAX_CAPFRAMEX_ROWS:,}",
        size_text(limits.MAX_SESSION_OUTLINE_BYTES),
    ]


def test_the_stop_points_are_the_ones_the_code_has() -> None:
    rows = [row for row in page("stopping").splitlines() if row.startswith("| `")]
    assert tuple(row.split("`")[1] for row in rows) == stopping.POINTS


def test_the_api_page_documents_the_library_s_public_names() -> None:
    assert re.findall(r"^\.\. automodule:: (\S+)$", page("api"), re.M) == ["timestep_lab"]
    assert "   :members:\n   :imported-members:" in page("api")
