"""The project's non-negotiables, checked on the source itself.

- A library of its own: `timestep_lab`, the exact fixed-step core, imports nothing but Python's
  standard library (no `game`, no pygame, no numpy); its modules are private behind the names
  its `__all__` lists, and the game imports only those, as any user would.
- One owner of time: only `game/clock/wall.py` reads a clock. Everything else is handed
  durations or a `Clock`, which is what lets tests and the headless tools run on exact time.
- A pure core: everything in `game/` but the pixels (`game/view`, `game/hud`, `game/app`, and the
  `play` command's `run`, which imports them lazily) runs without pygame, so the scheduler, the
  world and the workshop tools are tested without a display and load fast on the command line.
- Data flows one way: the app drives the session, which drives the scheduler and the world. Each
  package sits on a layer (`LAYERS`) and imports only from the layers below it: the world and
  the scheduler never reach up into the layers that drive or draw them, nothing below `app/`
  calls into the app, `config` and `session` do not know each other, and no modules import
  each other in a circle.
- One name, one meaning: no two public classes in `game/` share a name.
- Small modules: none over 400 lines, so every one can be read in one sitting in a workshop;
  small functions: none over 60 lines, in `game/` and in `bench/`; and the game loop
  (`game/app/loop.py`) at most 250 lines, so it reads as the frame, in order, and what is not
  the frame (the app's own actions, the readout) lives beside it.

The source is read with `ast`, so a comment or a docstring that names `perf_counter_ns` or
`pygame` (many do, to explain why not) does not count; only code does.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.commands import HANG_S

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"
LIBRARY = ROOT / "timestep_lab"
CLOCK_OWNER = "game/clock/wall.py"
PIXEL_PACKAGES = ("game.view", "game.hud", "game.app")
PIXEL_IMPORTS = ("pygame", *PIXEL_PACKAGES)
LAZY_PIXEL_IMPORTS = {
    ("game/commands/play.py", "run"),
    ("game/commands/clip.py", "make_clip"),
    ("game/commands/clip.py", "film_demo"),
    ("game/commands/lessons.py", "check_lesson"),
}
"""(module, function): the places pure code may import the pixels, when it runs the game."""
CORE = ("game/world/", "timestep_lab/")
ABOVE_THE_CORE = (*PIXEL_PACKAGES, "game.session", "game.workshop", "game.commands", "game.cli")
CLOCK_READERS = frozenset(
    {"perf_counter_ns", "perf_counter", "monotonic", "monotonic_ns", "time", "time_ns"}
    | {"process_time", "process_time_ns", "thread_time", "thread_time_ns"}
)
"""Everything in the `time` module that reads a clock (`sleep` only lets time pass)."""
MAX_LINES = 400
LOOP = "game/app/loop.py"
MAX_LOOP_LINES = 250
MAX_FUNCTION_LINES = 60
"""From the `def` line to the last line of the body (decorators not counted), as `ast` says."""
LAYERS: tuple[tuple[str, ...], ...] = (
    ("timestep_lab",),
    ("game.errors", "game.limits", "game.printable", "game.resources", "game.stopping"),
    ("game.worker_pool",),
    ("game.cluster",),
    ("game.jobs",),
    ("game.clock", "game.file_reading"),
    ("game.arguments",),
    ("game.scheduler", "game.display", "game.capture", "game.network"),
    ("game.world",),
    ("game.vocabulary",),
    ("game.knobs",),
    ("game.session", "game.config"),
    ("game.from_config",),
    ("game.view", "game.hud"),
    ("game.workshop",),
    ("game.app",),
    ("game.commands",),
    ("game.cli",),
    ("game.__main__", "game"),
)
"""Lowest first. A module imports its own package, or packages on lower layers; two packages on
one layer are independent of each other."""


@dataclass(frozen=True, slots=True)
class Module:
    path: str
    """Relative to the repository, with forward slashes: `game/clock/wall.py`."""
    name: str
    """Dotted: `game.clock.wall` (a package's `__init__.py` is the package)."""
    tree: ast.Module
    lines: int

    @property
    def package(self) -> str:
        return self.name if self.path.endswith("__init__.py") else self.name.rpartition(".")[0]

    @property
    def pure(self) -> bool:
        return not self.name.startswith(PIXEL_PACKAGES)


def read_module(path: Path) -> Module:
    relative = path.relative_to(ROOT).as_posix()
    parts = relative.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    text = path.read_text(encoding="utf-8")
    return Module(relative, ".".join(parts), ast.parse(text, relative), len(text.splitlines()))


MODULES = [read_module(path) for path in sorted([*LIBRARY.rglob("*.py"), *GAME.rglob("*.py")])]
LIBRARY_MODULES = [module for module in MODULES if module.path.startswith("timestep_lab/")]
PURE = [module for module in MODULES if module.pure]
BENCH = [read_module(path) for path in sorted((ROOT / "bench").rglob("*.py"))]


def clock_reads(tree: ast.Module) -> list[int]:
    """Lines of code that use a clock reader of the `time` module, under any alias."""
    aliases = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "time"
    }
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "time":
            if any(alias.name in CLOCK_READERS for alias in node.names):
                hits.append(node.lineno)
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in CLOCK_READERS
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
        ):
            hits.append(node.lineno)
    return sorted(hits)


def long_functions(tree: ast.Module) -> list[tuple[int, str, int]]:
    """(line, dotted name, length in lines) of every function or method, nested ones too, that
    is longer than `MAX_FUNCTION_LINES`; a method is named `Class.method`."""
    found: list[tuple[int, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = prefix + child.name
                length = (child.end_lineno or child.lineno) - child.lineno + 1
                if not isinstance(child, ast.ClassDef) and length > MAX_FUNCTION_LINES:
                    found.append((child.lineno, name, length))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


@dataclass(frozen=True, slots=True)
class Imported:
    module: str
    """Absolute and dotted, relative imports resolved: `from .plan import X` in
    `game.scheduler.scheduler` is `game.scheduler.plan`."""
    line: int
    function: str | None
    """The outermost function the import sits in, or None at module level."""


def imports(module: Module) -> list[Imported]:
    found: list[Imported] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            inside = function
            if function is None and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inside = child.name
            if isinstance(child, ast.Import):
                found.extend(Imported(alias.name, child.lineno, inside) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    package = module.package.split(".")
                    anchor = ".".join(package[: len(package) - child.level + 1])
                    base = f"{anchor}.{base}" if base else anchor
                found.append(Imported(base, child.lineno, inside))
            visit(child, inside)

    visit(module.tree, None)
    return found


def within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


def listing(offences: list[str]) -> str:
    return "\n  " + "\n  ".join(offences)


# -- the scanners themselves ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        ('"""Uses time.perf_counter_ns()."""\n# time.monotonic() here\nx = "time.time()"\n', []),
        ("import time\n\nnow = time.perf_counter_ns()\n", [3]),
        ("import time as t\nstart = t.monotonic()\nend = t.time()\n", [2, 3]),
        ("from time import perf_counter as pc\n", [1]),
        ("from time import sleep\nimport time\ntime.sleep(1)\n", []),
        ("import datetime\nclock = datetime.time(12)\n", []),
    ],
    ids=["docstring-comment-string", "call", "alias", "from-import", "sleep", "other-module"],
)
def test_the_clock_scan_sees_code_under_any_alias_and_ignores_prose(
    source: str, lines: list[int]
) -> None:
    assert clock_reads(ast.parse(source)) == lines


def test_the_import_scan_resolves_relative_imports_and_finds_lazy_ones() -> None:
    source = textwrap.dedent(
        """
        from . import plan
        from .plan import StepPlan
        import numpy as np

        def run() -> None:
            import pygame
        """
    )
    module = Module("game/scheduler/scheduler.py", "game.scheduler.scheduler", ast.parse(source), 7)
    assert imports(module) == [
        Imported("game.scheduler", 2, None),
        Imported("game.scheduler.plan", 3, None),
        Imported("numpy", 4, None),
        Imported("pygame", 7, "run"),
    ]


def test_the_length_scan_counts_from_def_to_last_line_and_names_methods() -> None:
    body = "".join(f"    x = {n}\n" for n in range(MAX_FUNCTION_LINES - 1))
    source = (
        f"def fits():\n{body}"
        f"@decorated\ndef over():\n{body}    y = 0\n"
        f"class Loop:\n    def run(self):\n{textwrap.indent(body, '    ')}        y = 0\n"
        f"        def inner():\n{textwrap.indent(body, '        ')}            y = 0\n"
    )
    # `fits` is 60 lines (1-60); `over` 61 (62-122, its decorator on 61 not counted); the class
    # opens on 123; `run` is 122 lines (124-245), `inner`, inside it, 61 (185-245).
    assert long_functions(ast.parse(source)) == [
        (62, "over", 61),
        (124, "Loop.run", 122),
        (185, "Loop.run.inner", 61),
    ]


def test_the_scan_covers_the_whole_game_package() -> None:
    names = {module.name for module in MODULES}
    assert {"game", "game.clock.wall", "game.world.world", "game.app.loop"} <= names
    assert "game.app.loop" not in {module.name for module in PURE}
    assert "game.commands.play" in {module.name for module in PURE}


# -- the rules ------------------------------------------------------------------------------------


def test_only_the_wall_clock_module_reads_the_time() -> None:
    readers = {module.path: clock_reads(module.tree) for module in MODULES}
    offences = [
        f"{path}:{line}" for path, lines in readers.items() if path != CLOCK_OWNER for line in lines
    ]
    assert offences == [], "read a clock outside " + CLOCK_OWNER + listing(offences)
    assert readers[CLOCK_OWNER], f"{CLOCK_OWNER} no longer reads the clock: is the scan broken?"


def test_pure_modules_import_pixels_only_where_the_game_is_run() -> None:
    offences = [
        f"{module.path}:{imported.line}: {imported.module}"
        + (f" (in {imported.function})" if imported.function else "")
        for module in PURE
        for imported in imports(module)
        if within(imported.module, PIXEL_IMPORTS)
        and (module.path, imported.function) not in LAZY_PIXEL_IMPORTS
    ]
    assert offences == [], "pure modules importing pygame or the pixels:" + listing(offences)


@pytest.mark.slow
def test_importing_every_pure_module_does_not_load_pygame() -> None:
    """In a fresh interpreter, so nothing another test imported can hide or cause a load."""
    names = [module.name for module in PURE if not module.name.endswith("__main__")]
    probe = textwrap.dedent(
        f"""
        import importlib, sys
        for name in {names!r}:
            importlib.import_module(name)
            loaded = sorted(m for m in sys.modules if m in ("pygame", *{PIXEL_PACKAGES!r}))
            if loaded:
                print(f"importing {{name}} loaded {{', '.join(loaded)}}")
                break
        print(len({names!r}), "modules imported")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=HANG_S
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{len(names)} modules imported", done.stdout


def test_the_library_imports_only_the_standard_library_and_itself() -> None:
    outside = {
        f"{module.path}:{imported.line}: {imported.module}"
        for module in LIBRARY_MODULES
        for imported in imports(module)
        if imported.module.split(".")[0] not in sys.stdlib_module_names
        and not within(imported.module, ("timestep_lab",))
    }
    assert sorted(outside) == [], "timestep_lab importing beyond the standard library:" + listing(
        sorted(outside)
    )
    assert {module.name for module in LIBRARY_MODULES} >= {"timestep_lab", "timestep_lab._units"}


def test_the_library_s_modules_are_private_and_its_names_are_its_all() -> None:
    import timestep_lab

    public = [module.name for module in LIBRARY_MODULES if module.name != "timestep_lab"]
    assert [name for name in public if not name.rpartition(".")[2].startswith("_")] == []
    defined = {name for name in vars(timestep_lab) if not name.startswith("_")}
    assert sorted(defined - {"annotations"}) == sorted(timestep_lab.__all__)


def test_the_game_imports_the_library_as_a_user_would() -> None:
    offences = [
        f"{module.path}:{imported.line}: {imported.module}"
        for module in [*MODULES, *BENCH]
        if not within(module.name, ("timestep_lab",))
        for imported in imports(module)
        if within(imported.module, ("timestep_lab",)) and imported.module != "timestep_lab"
    ]
    assert offences == [], "private modules of timestep_lab imported:" + listing(offences)


def test_the_world_and_the_scheduler_never_import_the_layers_above_them() -> None:
    offences = [
        f"{module.path}:{imported.line}: {imported.module}"
        for module in MODULES
        if module.path.startswith(CORE)
        for imported in imports(module)
        if within(imported.module, ("pygame", *ABOVE_THE_CORE))
    ]
    assert offences == [], "the core reaching up:" + listing(offences)


def test_no_module_is_over_400_lines() -> None:
    offenders = [
        f"{module.path}: {module.lines} lines" for module in MODULES if module.lines > MAX_LINES
    ]
    assert offenders == [], f"over {MAX_LINES} lines, split them:" + listing(offenders)


def test_the_game_loop_is_at_most_250_lines() -> None:
    (loop,) = [module for module in MODULES if module.path == LOOP]
    assert loop.lines <= MAX_LOOP_LINES, (
        f"{LOOP} is {loop.lines} lines: keep it the frame, in order; what is not the frame goes "
        "beside it (game/app/dispatcher.py, game/app/readout_builder.py)"
    )


def test_no_function_in_the_game_or_the_benchmarks_is_over_60_lines() -> None:
    offenders = [
        f"{module.path}:{line}: {name}, {length} lines"
        for module in MODULES + BENCH
        for line, name, length in long_functions(module.tree)
    ]
    assert offenders == [], f"over {MAX_FUNCTION_LINES} lines, split them:" + listing(offenders)


def layer_and_package(name: str) -> tuple[int, str]:
    """The layer a dotted module name sits on, and the package that puts it there."""
    best: tuple[int, str] | None = None
    for index, packages in enumerate(LAYERS):
        for package in packages:
            if within(name, (package,)) and (best is None or len(package) > len(best[1])):
                best = (index, package)
    assert best is not None, f"{name} is on no layer: add it to LAYERS"
    return best


def test_every_module_is_on_a_layer() -> None:
    unplaced = [m.name for m in MODULES if not any(within(m.name, p) for p in LAYERS)]
    assert unplaced == []


def test_imports_only_go_down_the_layers() -> None:
    offences = []
    for module in MODULES:
        layer, package = layer_and_package(module.name)
        for imported in imports(module):
            if not within(imported.module, ("game", "timestep_lab")) or imported.module == "game":
                continue
            their_layer, their_package = layer_and_package(imported.module)
            if their_package != package and their_layer >= layer:
                if (module.path, imported.function) in LAZY_PIXEL_IMPORTS:
                    continue
                offences.append(f"{module.path}:{imported.line}: {imported.module}")
    assert offences == [], "imports that go up or sideways:" + listing(offences)


def test_nothing_below_the_app_imports_the_app() -> None:
    offences = [
        f"{module.path}:{imported.line}: {imported.module}"
        for module in MODULES
        if not within(module.name, ("game.app",))
        for imported in imports(module)
        if within(imported.module, ("game.app",))
        and (module.path, imported.function) not in LAZY_PIXEL_IMPORTS
    ]
    assert offences == [], "the app is called into from below:" + listing(offences)


def test_no_modules_import_each_other_in_a_circle() -> None:
    """Module-level imports and those inside functions alike (a lazy import hides a circle,
    it does not remove it); `TYPE_CHECKING` blocks count too."""
    names = {module.name for module in MODULES}
    edges = {
        module.name: sorted(
            {
                target
                for imported in imports(module)
                for target in (imported.module,)
                if target in names and target != module.name and target != module.package
            }
        )
        for module in MODULES
    }
    circles: list[str] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in edges[name]:
            if state.get(target) == 1:
                circles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(names):
        if name not in state:
            visit(name, [name])
    assert circles == [], "import circles:" + listing(circles)


def test_no_two_public_classes_share_a_name() -> None:
    where: dict[str, list[str]] = {}
    for module in MODULES:
        for node in module.tree.body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(module.path)
    repeated = [f"{name}: {', '.join(paths)}" for name, paths in where.items() if len(paths) > 1]
    assert repeated == [], "one name, two meanings:" + listing(repeated)


WORKSHOP_FOLDERS = (
    "files", "runs", "tables", "figures", "captures", "sweep", "claims", "clips", "handout",
)  # fmt: skip
"""The workshop's folders, lowest first, as `game/workshop/__init__.py` lists them: each imports
only from the folders before it, so between two folders the imports go one way."""


def workshop_folder(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["game", "workshop"] else None


def test_the_workshop_s_folders_import_one_way() -> None:
    folders = {workshop_folder(module.name) for module in MODULES} - {None}
    assert folders == set(WORKSHOP_FOLDERS), "a folder to place in WORKSHOP_FOLDERS"
    offences = [
        f"{module.path}:{imported.line}: {imported.module}"
        for module in MODULES
        if (folder := workshop_folder(module.name)) is not None
        for imported in imports(module)
        if (theirs := workshop_folder(imported.module)) is not None and theirs != folder
        if WORKSHOP_FOLDERS.index(theirs) > WORKSHOP_FOLDERS.index(folder)
    ]
    assert offences == [], "a workshop folder importing one listed after it:" + listing(offences)


COMPOSED_OF_COMMANDS = ("game.commands.handout",)
"""The page made of the other commands' output, which runs them; no other command imports one."""


def test_a_command_imports_no_other_command_but_shared_options() -> None:
    from game.cli import COMMAND_NAMES

    commands = {f"game.commands.{name}" for name in COMMAND_NAMES}
    offences = [
        f"{module.path}:{imported.line}: {imported.module}"
        for module in MODULES
        if module.name in commands and module.name not in COMPOSED_OF_COMMANDS
        for imported in imports(module)
        if any(within(imported.module, (command,)) for command in commands - {module.name})
        or (imported.module == "game.commands" and imported.module != module.name)
    ]
    assert offences == [], "a command importing another (share it in options):" + listing(offences)
