"""The handout: one static `index.html` a workshop can hand out, built from what the repo runs.

The page holds every lesson step (its caption, keys, the clip of its demo and the command that
films it, and under the clip each figure the caption claims beside what that run measured), the
reference articles' claims with the commands that reproduce their figures and those commands'
real output, and the policy comparisons. It is plain HTML with relative links: no server, no
network, opened from `file://` or a USB stick. Its one script only checks that every picture
and clip loaded, and says so on the page if one did not.

`docs/references.md` is read, not copied: each section's heading, its "What it claims"
paragraph, and every `python -m game schedule|lab` command it shows, so the handout follows the
references page when it changes.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from game.workshop.claims.check import ClaimResult

RUNNABLE = ("schedule", "lab")
"""The commands the handout runs to show their output: quick, and they write no files."""
_COMMAND = re.compile(r"python -m game ((?:schedule|lab)\b[^`#\n]*)")
MAX_OUTPUT_LINES = 16
CLIP_WIDTH = 960
"""How wide the page shows a clip, in CSS pixels: the handout films its clips at this width."""


@dataclass(frozen=True, slots=True)
class Shown:
    """A command and what it printed."""

    command: str
    output: str


@dataclass(frozen=True, slots=True)
class ReferenceSection:
    anchor: str
    title: str
    claims: str
    commands: tuple[str, ...]
    """`schedule ...` / `lab ...`: what follows `python -m game `."""


@dataclass(frozen=True, slots=True)
class StepClip:
    lesson: int
    title: str
    step: int
    caption: str
    keys: str
    clip: str
    """The clip's path, relative to the page."""
    command: str
    claims: tuple[ClaimResult, ...] = ()
    """What the caption claims, measured from the run the clip shows."""


@dataclass(frozen=True, slots=True)
class Comparison:
    title: str
    command: str
    table: str
    figure: str
    """The figure's path, relative to the page."""


@dataclass(frozen=True, slots=True)
class Figure:
    title: str
    path: str
    command: str


def reference_sections(text: str) -> list[ReferenceSection]:
    """The sections of `docs/references.md` that open with an anchor and a `##` heading."""
    sections = []
    for chunk in re.split(r'<a id="', text)[1:]:
        anchor, _, body = chunk.partition('"></a>')
        heading = re.search(r"^## (.+)$", body, re.MULTILINE)
        if heading is None:
            continue
        claims = re.search(r"\*\*What it claims\.\*\* (.+?)(?:\n\n|$)", body, re.DOTALL)
        commands: list[str] = []
        for found in _COMMAND.finditer(body):
            command = " ".join(found.group(1).split())
            if command not in commands and "--plot" not in command:
                commands.append(command)
        sections.append(
            ReferenceSection(
                anchor=anchor,
                title=heading.group(1).strip(),
                claims=" ".join(claims.group(1).split()) if claims else "",
                commands=tuple(commands),
            )
        )
    return sections


def trimmed(output: str, lines: int = MAX_OUTPUT_LINES) -> str:
    """At most `lines` lines: the head, an ellipsis, and the last two (the ledger line)."""
    rows = output.rstrip("\n").splitlines()
    if len(rows) <= lines:
        return "\n".join(rows)
    return "\n".join([*rows[: lines - 3], "    ...", *rows[-2:]])


def _inline(text: str) -> str:
    """The little Markdown the references use inline: `code` and **bold**."""
    escaped = html.escape(text)
    escaped = re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", escaped)


def _command(text: str) -> str:
    return f"<pre class=cmd>$ python -m game {html.escape(text)}</pre>"


STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #1b1f2a; background: #fbfbf8; }
h1, h2, h3 { line-height: 1.2; } h2 { border-bottom: 2px solid #d9dde6; padding-bottom: .2em; }
pre { background: #10141f; color: #e4e8f0; padding: .7em 1em; overflow-x: auto; font-size: 13px; }
pre.cmd { background: #e8ecf4; color: #10141f; }
video, img { max-width: 100%; border: 1px solid #c9cfdb; background: #0a0d16; }
.step { margin: 1.5em 0 2.5em; } .keys { color: #5a6275; }
table.claims { border-collapse: collapse; margin: .5em 0; font-size: 14px; }
table.claims td, table.claims th { padding: .2em .8em; border-bottom: 1px solid #d9dde6;
  text-align: left; }
table.claims .differs { color: #8a1c16; font-weight: bold; }
#media-check.broken { background: #fde2e1; color: #8a1c16; padding: .5em 1em; }
nav a { margin-right: 1em; }
"""

MEDIA_CHECK = """
addEventListener("load", () => {
  const media = [...document.querySelectorAll("img, video")];
  const broken = new Set();
  const report = () => {
    const note = document.getElementById("media-check");
    note.dataset.checked = String(media.length);
    note.dataset.broken = String(broken.size);
    if (broken.size) {
      note.className = "broken";
      note.textContent = "Could not load: " + [...broken].join(", ") + ". Re-run the command.";
    }
  };
  let pending = media.length;
  const done = (element, ok) => {
    if (!ok) broken.add(element.getAttribute("src"));
    if (--pending === 0) report();
  };
  for (const element of media) {
    if (element.tagName === "IMG") {
      done(element, element.complete && element.naturalWidth > 0);
    } else if (element.readyState >= 1) {
      done(element, element.videoWidth > 0);
    } else if (element.error || element.networkState === HTMLMediaElement.NETWORK_NO_SOURCE) {
      done(element, false);
    } else {
      element.addEventListener("loadedmetadata", () => done(element, element.videoWidth > 0));
      element.addEventListener("error", () => done(element, false));
    }
  }
  if (media.length === 0) report();
});
"""


def claims_table(lesson: int, claims: tuple[ClaimResult, ...]) -> str:
    """Each claim of a step beside its measurement, and the command that checks them again."""
    if not claims:
        return ""
    rows = "".join(
        f"<tr><td>{html.escape(result.what())}</td><td>{html.escape(result.claimed())}</td>"
        f"<td>{html.escape(result.measurement())}</td>"
        + ("<td>ok</td>" if result.ok else '<td class="differs">differs</td>')
        + "</tr>"
        for result in claims
    )
    head = "<tr><th>figure</th><th>claimed</th><th>measured in this clip</th><th></th></tr>"
    again = _command(f"lessons --check --lesson {lesson}")
    return f"<table class=claims>{head}{rows}</table>{again}"


def page(
    steps: list[StepClip],
    references: list[tuple[ReferenceSection, list[Shown]]],
    comparisons: list[Comparison],
    figures: list[Figure],
    remake: str,
) -> str:
    """The whole `index.html`."""
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Timestep Lab: handout</title><style>{STYLE}</style></head><body>",
        "<h1>Timestep Lab: the fixed-timestep game loop</h1>",
        "<p>Every clip below is the game itself, filmed on a clock that only the game moves, "
        "so each one is the same on every run. Every output is what the command printed when "
        f"this page was made. Make the page again with:</p>{_command(remake)}",
        '<p id="media-check"></p>',
        '<nav><a href="#lessons">Lessons</a><a href="#references">References</a>'
        '<a href="#policies">Policies compared</a></nav>',
        '<h2 id="lessons">Lessons</h2>',
        "<p>In the game: <code>python -m game --lesson N</code>, N for the next step.</p>",
    ]
    current = None
    for step in steps:
        if step.lesson != current:
            current = step.lesson
            parts.append(f"<h3>Lesson {step.lesson}: {html.escape(step.title)}</h3>")
        parts.append(
            f'<div class=step id="lesson-{step.lesson}-step-{step.step}">'
            f"<p><strong>Step {step.step}.</strong> {html.escape(step.caption)} "
            f"<span class=keys>({html.escape(step.keys)})</span></p>"
            f'<video src="{html.escape(step.clip)}" controls loop muted autoplay playsinline '
            f'preload="auto" width="{CLIP_WIDTH}"></video>{_command(step.command)}'
            f"{claims_table(step.lesson, step.claims)}</div>"
        )
    parts.append('<h2 id="references">What the articles claim, reproduced</h2>')
    for section, shown in references:
        parts.append(f'<h3 id="{html.escape(section.anchor)}">{_inline(section.title)}</h3>')
        if section.claims:
            parts.append(f"<p>{_inline(section.claims)}</p>")
        for item in shown:
            parts.append(_command(item.command))
            parts.append(f"<pre>{html.escape(trimmed(item.output))}</pre>")
    for figure in figures:
        parts.append(
            f"<h3>{html.escape(figure.title)}</h3>"
            f'<img src="{html.escape(figure.path)}" alt="{html.escape(figure.title)}">'
            f"{_command(figure.command)}"
        )
    parts.append('<h2 id="policies">The overload policies compared</h2>')
    for comparison in comparisons:
        parts.append(
            f"<h3>{html.escape(comparison.title)}</h3>"
            f'<img src="{html.escape(comparison.figure)}" alt="{html.escape(comparison.title)}">'
            f"{_command(comparison.command)}<pre>{html.escape(comparison.table)}</pre>"
        )
    parts.append(f"<script>{MEDIA_CHECK}</script></body></html>")
    return "\n".join(parts) + "\n"
