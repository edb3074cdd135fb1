"""Sphinx's settings for the documentation site: the Markdown pages of `docs/`, built by
`make docs` into `build/docs` (MyST reads the Markdown, Furo draws it).

Nothing is fetched at build time: no intersphinx, no theme or font from the network. The pages
stay plain Markdown that reads on a code host too; two small transforms below let the site
resolve what a code host resolves by itself.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.transforms import Transform
from sphinx import addnodes

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # autodoc imports the game from this checkout

project = "Timestep Lab"
author = "the Timestep Lab authors"
html_title = "Timestep Lab"
html_show_copyright = False
html_show_sourcelink = False

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns: list[str] = []
html_theme = "furo"
highlight_language = "text"  # a code block without a language is shown as it is

# Every heading down to ### gets its GitHub-style anchor, so `page.md#a-heading` is checked.
myst_heading_anchors = 3

# Broken references are errors (`make docs` runs with -W -n). The standard library's types in
# the scheduler's signatures have no page here (no intersphinx: nothing is fetched).
nitpicky = True
nitpick_ignore_regex = [
    ("py:class", r"(collections|collections\.abc|fractions|typing|enum|decimal)\..*"),
    ("py:class", r"Fraction|deque|NamedTuple|Protocol|StrEnum|Enum"),
]

# The docstrings write `name` for code, as Markdown does.
default_role = "literal"
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
add_module_names = False

OUTSIDE_PAGES = {
    ROOT / "README": "readme",
    ROOT / "BENCHMARKS": "benchmarks",
    ROOT / "assets" / "README": "assets",
}
"""Markdown files that stay at the top of the repository (code reads or writes them there),
each with the page of the site that includes it: a link to `../BENCHMARKS.md` leads there."""

HTML_ANCHOR = re.compile(r'<a id="([^"]+)">(</a>)?\s*')


class HtmlAnchors(Transform):
    """`<a id="NAME"></a>` (as `references.md` marks its sections) becomes a target that
    `references.md#NAME` links can reach; MyST passes raw HTML through unread."""

    default_priority = 200

    def apply(self, **kwargs: Any) -> None:
        for raw in list(self.document.findall(nodes.raw)):
            found = HTML_ANCHOR.fullmatch(raw.astext())
            if raw.get("format") != "html" or found is None:
                continue
            closing = raw.next_node(descend=False, siblings=True)
            if found[2] is None and isinstance(closing, nodes.raw) and closing.astext() == "</a>":
                closing.parent.remove(closing)
            name = found[1]
            target: nodes.Element = nodes.target("", "", ids=[name], names=[name])
            if name in self.document.ids:  # a heading of that name has the id already
                target = nodes.inline()
            else:
                self.document.note_explicit_target(target)
            parent = raw.parent
            if isinstance(parent, nodes.paragraph) and len(parent) == 1:
                parent.replace_self(target)
            else:
                raw.replace_self(target)


class OutsidePages(Transform):
    """A link to a Markdown file of `OUTSIDE_PAGES` leads to its page in the site."""

    default_priority = 200

    def apply(self, **kwargs: Any) -> None:
        pages = {str(path): page for path, page in OUTSIDE_PAGES.items()}
        for ref in self.document.findall(addnodes.pending_xref):
            if ref.get("refdomain") == "doc" and ref.get("reftarget") in pages:
                ref["reftarget"] = pages[ref["reftarget"]]


class FolderLinks(Transform):
    """A link to a folder of the repository (`../configs/lessons/`), which a code host lists,
    is its text alone in the site; a link to a folder that does not exist is still an error."""

    default_priority = 200

    def apply(self, **kwargs: Any) -> None:
        here = Path(self.document["source"]).parent
        for ref in list(self.document.findall(addnodes.pending_xref)):
            target = ref.get("reftarget", "")
            if ref.get("refdomain") is None and target.endswith("/") and (here / target).is_dir():
                ref.replace_self(ref.children)


LINK = re.compile(r"(\]\()([^)\s#]*)(#[^)\s]*)?(\))")
"""A Markdown link's target, in two parts: the path, and the #anchor."""


def rebase_links(app: Any, relative_path: Path, parent: str, content: list[str]) -> None:
    """An included Markdown file outside `docs/` (the README) links relative to its own folder:
    its links are rewritten relative to `docs/`, where the page that includes it is."""
    folder = (DOCS / relative_path).parent.resolve()
    if folder == DOCS or relative_path.suffix != ".md":
        return

    def rebased(link: re.Match[str]) -> str:
        path = link[2]
        if not path or re.match(r"[a-z][a-z0-9+.-]*:|/", path):
            return link[0]  # a URL, an absolute path or an anchor alone
        new = os.path.relpath(folder / path, DOCS) + ("/" if path.endswith("/") else "")
        return f"{link[1]}{new}{link[3] or ''}{link[4]}"

    content[0] = LINK.sub(rebased, content[0])


def setup(app: Any) -> dict[str, bool]:
    app.add_transform(HtmlAnchors)
    app.add_transform(OutsidePages)
    app.add_transform(FolderLinks)
    app.connect("include-read", rebase_links)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
