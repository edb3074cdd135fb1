"""One word, one meaning: the names of the code agree with the documentation's glossary.

The glossary (docs/code.md, "Reading the code") gives each word one meaning. A public name that
uses a word in another sense is the start of two meanings, so these tests read every name the
code declares (modules, classes, functions and methods, their parameters, module and class
constants and fields, attributes set on `self`) and fail on:

- **replay** outside the recording code: a replay is a recording run again; W's slow look back
  is a *rewatch*.
- **command** for the world's tick-stamped changes: those are *orders*; a command is only a
  command of the command line, and only `game/commands/` is a package of that name.
- **lane** for a number: a lane is a `Lane`; the number of one is a `lane_index`.
- **split screen** spelt as `len(policies) == 2` anywhere but the `split` property that names it.
- **now** for anything but a clock's reading, and a **frame source** named `*Clock` that cannot
  be read or `*Frames` that can.
- a word whose misuse a name shows on its own (`NAMED_RULES`): a tick's length called `tick_ns`,
  kept time called a leftover, dropped time called lost, alpha in the world's stepping, a
  `*Policy`, `*Conditioning`, `*Plan`, `*Knob...` or `*Order` class outside its place, the
  rewatch outside the game.

Every other glossary word's line says why no rule can check it.

And on the glossary itself: each word has one line, and the package map in `game/__init__.py`
names every folder and every command.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
LIBRARY = ROOT / "timestep_lab"
READING_THE_CODE = (ROOT / "docs" / "code.md").read_text(encoding="utf-8")

RECORDING_CODE = (
    "game/commands/replay.py",
    "game/workshop/files/recording.py",
    "game/workshop/files/replay_file.py",
    "game/limits.py",
)
"""Where "replay" means what the glossary says: the `replay` command, the recording it reads,
and the limit on the frames it may take."""
COMMAND_LINE = ("game/cli.py", "game/commands/")
WORLD_ORDERS = (
    "game/world/",
    "game/session/",
    "game/workshop/runs/",
    "game/workshop/files/recording.py",
)
"""Where a "command" could only be the world's order: nothing here is about the command line."""
GLOSSARY_WORDS = (
    "tick", "step", "frame", "plan", "policy", "carried / remainder / backlog", "dropped", "spiral",
    "alpha", "conditioning", "knob", "frame source", "now", "lane", "split screen", "order",
    "command",
    "input", "recording", "replay", "rewatch", "rewind", "re-simulate", "scenario", "lesson",
    "capture", "peer", "link", "match", "desync",
)  # fmt: skip


def declared_names(tree: ast.Module) -> Iterator[tuple[int, str, str]]:
    """(line, kind, name) of every name the module declares for others to read."""

    def targets(node: ast.AST) -> Iterator[ast.expr]:
        if isinstance(node, ast.Assign):
            yield from node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            yield node.target

    def body_names(body: list[ast.stmt], kind: str) -> Iterator[tuple[int, str, str]]:
        for node in body:
            for target in targets(node):
                if isinstance(target, ast.Name):
                    yield node.lineno, kind, target.id

    yield from body_names(tree.body, "constant")
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            yield node.lineno, "class", node.name
            yield from body_names(node.body, "field")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.lineno, "function", node.name
            arguments = node.args
            for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
                yield argument.lineno, "parameter", argument.arg
        else:
            for target in targets(node):
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                ):
                    yield target.lineno, "attribute", target.attr


def int_lanes(tree: ast.Module) -> Iterator[int]:
    """Lines of parameters called `lane` that hold a number."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.arg)
            and node.arg == "lane"
            and node.annotation is not None
            and ast.unparse(node.annotation) == "int"
        ):
            yield node.lineno


def split_spelt_out(tree: ast.Module) -> Iterator[int]:
    """Lines that compare `len(...policies)` with 2 outside a function named `split`."""
    inside_split = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name == "split"
        for child in ast.walk(node)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Compare)
            and id(node) not in inside_split
            and isinstance(node.left, ast.Call)
            and isinstance(node.left.func, ast.Name)
            and node.left.func.id == "len"
            and node.left.args
            and ast.unparse(node.left.args[0]).split(".")[-1] == "policies"
            and any(isinstance(c, ast.Constant) and c.value == 2 for c in node.comparators)
        ):
            yield node.lineno


def two_nows(path: str, tree: ast.Module) -> Iterator[str]:
    """ "now" is a clock's reading, `now_ns()`: a method or attribute called `now` (a frame
    source's position is `end_ns`) is its second meaning."""
    for line, kind, name in declared_names(tree):
        if name == "now" and kind in ("function", "attribute", "field"):
            yield f"{path}:{line}: {kind} now"


def misnamed_sources(trees: list[tuple[str, ast.Module]]) -> list[str]:
    """A time source that can be read (`now_ns`) and hands out frames (`next_frame`) is a
    `*Clock`; one that only hands out frames is a `*Frames`. A class has what it defines and
    what its bases (by name, in the scanned code) define; a `now_ns` that only raises
    `NotImplementedError` is not a reading, and a protocol is neither."""
    classes: dict[str, tuple[str, list[str], set[str], int]] = {}
    for path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                defined = {
                    item.name
                    for item in node.body
                    if isinstance(item, ast.FunctionDef) and not _abstract(item)
                }
                bases = [ast.unparse(base) for base in node.bases]
                classes[node.name] = (path, bases, defined, node.lineno)

    def has(name: str, method: str) -> bool:
        if name not in classes:
            return False
        _, bases, defined, _ = classes[name]
        return method in defined or any(has(base, method) for base in bases)

    found = []
    for name, (path, bases, _, line) in classes.items():
        if not has(name, "next_frame") or any(base.endswith("Protocol") for base in bases):
            continue
        wanted = "Clock" if has(name, "now_ns") else "Frames"
        if not name.endswith(wanted):
            found.append(f"{path}:{line}: class {name} (wants *{wanted})")
    return found


def _abstract(function: ast.FunctionDef) -> bool:
    body = [item for item in function.body if not isinstance(item, ast.Expr)]
    return len(body) == 1 and isinstance(body[0], ast.Raise)


def sources() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted([*LIBRARY.rglob("*.py"), *GAME.rglob("*.py")]):
        relative = path.relative_to(ROOT).as_posix()
        yield relative, ast.parse(path.read_text(encoding="utf-8"), relative)


def within(path: str, places: tuple[str, ...]) -> bool:
    return any(
        path == place or (place.endswith("/") and path.startswith(place)) for place in places
    )


NAMED_RULES: dict[str, tuple[re.Pattern[str], tuple[str, ...]]] = {
    "tick": (re.compile(r"(^|_)ticks?_(ns|ms|s|seconds|length|duration)$"), ()),
    "step": (re.compile(r"(^|_)(steps_(ns|ms)|step_count|n_steps|num_steps)$"), ()),
    "carried / remainder / backlog": (
        re.compile(r"leftover|accumulat|residual|surplus", re.IGNORECASE),
        ("game/", "timestep_lab/_units.py"),
    ),
    "dropped": (re.compile(r"lost|discard|wasted|skipped", re.IGNORECASE), ("game/",)),
    "alpha": (
        re.compile(r"alpha", re.IGNORECASE),
        (
            "timestep_lab/",
            "game/world/render_view.py",
            "game/world/world.py",
            "game/world/avatar.py",  # its pose, where it is drawn
            "game/session/",
            "game/view/",
            "game/hud/",
            "game/app/",
            "game/workshop/",
            "game/commands/",
            "game/config/",
            "game/knobs/",
            "game/vocabulary.py",
            "game/display/",
        ),
    ),
    "policy": (re.compile(r"^\w+Policy$"), ("timestep_lab/_policies.py",)),
    "conditioning": (re.compile(r"^\w+Conditioning$"), ("timestep_lab/_conditioning.py",)),
    "plan": (re.compile(r"^\w+Plan$"), ("timestep_lab/_plan.py",)),
    "knob": (re.compile(r"^[A-Z]\w*Knob"), ("game/knobs/", "game/config/knob_types.py")),
    "order": (
        re.compile(r"^[A-Z]\w*Order$"),
        ("game/world/orders.py", "game/workshop/files/timeline.py"),
    ),
    "rewatch": (
        re.compile(r"rewatch", re.IGNORECASE),
        (
            "game/session/rewatch.py",
            "game/session/history.py",
            "game/session/controls.py",
            "game/app/",
        ),
    ),
}
"""A word's rule, where a name alone can break it: a name that matches the pattern, declared
anywhere but the places listed (paths, or folders ending in "/"), uses the word in another
sense. The glossary says what each means."""
NAMED_RULE_SAYS = {
    "tick": "a tick is one update, counted; its length is the step, its time `*_at_ns`",
    "step": "`step` is a tick's length; the ticks a plan runs are `steps`",
    "carried / remainder / backlog": "the scheduler's kept time is carried, remainder, backlog",
    "dropped": "the scheduler's time thrown away is dropped",
    "alpha": "alpha is for drawing: the world's stepping never sees it",
    "policy": "a policy is one of the six: `*Policy` only beside them",
    "conditioning": "conditioning is the scheduler's: `*Conditioning` only beside it",
    "plan": "a plan is the scheduler's `StepPlan`",
    "knob": "a knob is a row of the table: a class named for it lives where the table is read",
    "order": "an order is the world's tick-stamped change, `Order`, or one recorded",
    "rewatch": "the rewatch is W's look back at drawn frames, in the game only",
}


def offences() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {
        "replay": [], "command": [], "lane": [], "split screen": [], "now": [], "frame source": [],
        **{word: [] for word in NAMED_RULES},
    }  # fmt: skip
    trees = list(sources())
    found["frame source"] += misnamed_sources(trees)
    for path, tree in trees:
        stem = path.removesuffix(".py").rpartition("/")[2]
        names = [(1, "module", stem), *declared_names(tree)]
        found["now"] += two_nows(path, tree)
        for line, kind, name in names:
            where = f"{path}:{line}: {kind} {name}"
            for word, (pattern, allowed) in NAMED_RULES.items():
                if pattern.search(name) and not within(path, allowed):
                    found[word].append(where)
            if "replay" in name.lower() and not within(path, RECORDING_CODE):
                found["replay"].append(where)
            said = name.lower().replace("command_line", "")
            if "command" in said and (
                within(path, WORLD_ORDERS) or (kind == "class" and not within(path, COMMAND_LINE))
            ):
                found["command"].append(where)
        if path.endswith("/commands/__init__.py") and path != "game/commands/__init__.py":
            found["command"].append(f"{path}: a second package called commands")
        if stem == "commands" and not path.startswith("game/commands/"):
            found["command"].append(f"{path}: a module called commands")
        found["lane"] += [f"{path}:{line}: lane: int" for line in int_lanes(tree)]
        found["split screen"] += [
            f"{path}:{line}: len(policies) == 2" for line in split_spelt_out(tree)
        ]
    return found


# -- the scanners themselves ----------------------------------------------------------------------


def test_the_scan_reads_every_kind_of_declared_name_and_no_prose() -> None:
    source = '''
"""A replay docstring names no one."""
MAX_REPLAY = 3
class InstantReplay:
    label: str = "replay"
    def start(self, lane: int, replay_speed: int) -> None:
        self.replay = lane
'''
    tree = ast.parse(source)
    assert [(kind, name) for _, kind, name in declared_names(tree)] == [
        ("constant", "MAX_REPLAY"),
        ("class", "InstantReplay"),
        ("field", "label"),
        ("function", "start"),
        ("parameter", "self"),
        ("parameter", "lane"),
        ("parameter", "replay_speed"),
        ("attribute", "replay"),
    ]
    assert list(int_lanes(tree)) == [6]


def test_the_split_scan_allows_only_the_property_that_names_it() -> None:
    source = """
class Controls:
    def split(self) -> bool:
        return len(self.policies) == 2
def drawn(controls) -> bool:
    return len(controls.policies) == 2 or len(controls.lanes) == 2
"""
    assert list(split_spelt_out(ast.parse(source))) == [6]


# -- the rules ------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("word", "meaning"),
    [
        ("replay", "a recording run again: W's look back is a rewatch"),
        ("command", "a command of the command line: the world's are orders"),
        ("lane", "a `Lane`: its number is a lane_index"),
        ("split screen", "the split screen is `Controls.split`"),
        ("now", "a clock's reading, `now_ns()`; where a frame source is, `end_ns`"),
        ("frame source", "a readable one is a `*Clock`, one that only hands out frames `*Frames`"),
        *NAMED_RULE_SAYS.items(),
    ],
)
def test_no_public_name_contradicts_the_glossary(word: str, meaning: str) -> None:
    found = offences()[word]
    assert found == [], f'"{word}" means {meaning}:\n  ' + "\n  ".join(found)


def test_the_glossary_gives_each_word_one_line() -> None:
    section = READING_THE_CODE[
        READING_THE_CODE.index("## Glossary") : READING_THE_CODE.index("## References")
    ]
    terms = re.findall(r"^- \*\*(.+?)\*\*:", section, flags=re.MULTILINE)
    assert sorted(terms) == sorted(GLOSSARY_WORDS)


def test_the_package_map_names_every_folder_and_every_command() -> None:
    import game

    text = game.__doc__ or ""
    folders = sorted(p.parent.name for p in GAME.glob("*/__init__.py"))
    assert [f for f in folders if f"{f}/" not in text] == []
    commands = sorted(
        p.stem
        for p in (GAME / "commands").glob("*.py")
        if "\nHELP = " in p.read_text(encoding="utf-8")
    )
    listed = text[text.index("commands/") :].split("\n\n")[0]
    assert [name for name in commands if not re.search(rf"\b{name}\b", listed)] == []


RULED = {
    "replay",
    "command",
    "lane",
    "split screen",
    "now",
    "frame source",
    *NAMED_RULES,
}
"""The glossary words a rule above checks; every other word's line says why none can."""


def test_every_glossary_word_has_a_rule_or_says_why_none_can_check_it() -> None:
    section = READING_THE_CODE[
        READING_THE_CODE.index("## Glossary") : READING_THE_CODE.index("## References")
    ]
    lines = dict(re.findall(r"^- \*\*(.+?)\*\*:(.*)$", section, flags=re.MULTILINE))
    unchecked = [word for word in GLOSSARY_WORDS if word not in RULED]
    assert [word for word in unchecked if "(No rule" not in lines[word]] == []
    assert set(RULED) <= set(GLOSSARY_WORDS)
