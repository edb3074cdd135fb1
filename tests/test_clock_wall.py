"""The wall clock: the only reader of real time, and waits that never end early.

Real time on a shared machine is noisy, so these tests assert only what the OS guarantees (a
wait lasts at least as long as asked, the clock never runs backwards). How close to the
deadline the waits end is measured by the pacer benchmark, not asserted here.
"""

import ast
from pathlib import Path

import pytest

from game.clock.wall import BLOCK_SPIN_NS, WallClock, check_duration
from timestep_lab import NS_PER_MS

GAME = Path(__file__).resolve().parent.parent / "game"

# Reading or waiting on real time, from the standard library or from pygame.
REAL_TIME = {
    *(f"time.{name}" for name in ("perf_counter", "perf_counter_ns", "monotonic", "sleep")),
    *(f"pygame.time.{name}" for name in ("get_ticks", "Clock", "delay", "wait")),
}


def dotted(node: ast.expr) -> str:
    """`pygame.time.Clock` for the expression that spells it; "?" for anything not a name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    return "?"


def real_time_uses(path: Path) -> list[str]:
    """Every use of a `REAL_TIME` function in a file, whether reached by attribute or import."""
    uses = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Attribute) and dotted(node) in REAL_TIME:
            uses.append(dotted(node))
        if isinstance(node, ast.ImportFrom) and node.module in ("time", "pygame.time"):
            uses.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return uses


SUPERVISION = (GAME / "stopping.py", GAME / "worker_pool.py")
"""The other modules that wait on real time, and only to sleep: a command waiting at a stop
point looks for a signal now and then; a stopped command gives its worker processes a grace
period, and a worker looks for its parent now and then. No game time is read there, and nothing
they wait for reaches a frame."""


def test_only_the_wall_clock_module_reads_or_waits_on_real_time() -> None:
    offenders = {
        str(path.relative_to(GAME)): uses
        for path in sorted(GAME.rglob("*.py"))
        if (uses := real_time_uses(path)) and path != GAME / "clock" / "wall.py"
        if not (path in SUPERVISION and set(uses) == {"time.sleep"})
    }
    assert offenders == {}
    assert "time.perf_counter_ns" in real_time_uses(GAME / "clock" / "wall.py")


def test_now_is_an_integer_count_of_nanoseconds_that_never_runs_backwards() -> None:
    clock = WallClock()
    readings = [clock.now_ns() for _ in range(1_000)]
    assert all(type(reading) is int for reading in readings)
    assert readings == sorted(readings)


@pytest.mark.parametrize("ns", [0, 1, 250_000, 3 * NS_PER_MS])
def test_a_busy_wait_lasts_at_least_as_long_as_asked(ns: int) -> None:
    clock = WallClock()
    start = clock.now_ns()
    clock.busy_wait_ns(ns)
    assert clock.now_ns() - start >= ns


@pytest.mark.parametrize("ns", [0, 1_000, BLOCK_SPIN_NS // 2, BLOCK_SPIN_NS + 3 * NS_PER_MS])
def test_a_stall_lasts_at_least_as_long_as_asked_whether_it_only_spins_or_sleeps_first(
    ns: int,
) -> None:
    clock = WallClock()
    start = clock.now_ns()
    clock.block_ns(ns)
    assert clock.now_ns() - start >= ns


@pytest.mark.parametrize("ns", [0, 2 * NS_PER_MS])
def test_a_sleep_lasts_at_least_as_long_as_asked(ns: int) -> None:
    clock = WallClock()
    start = clock.now_ns()
    clock.sleep_ns(ns)
    assert clock.now_ns() - start >= ns


@pytest.mark.parametrize("wait", ["sleep_ns", "busy_wait_ns", "block_ns"])
def test_a_negative_duration_is_refused_before_any_waiting(wait: str) -> None:
    with pytest.raises(ValueError, match=r"cannot be negative \(got -1 ns\)"):
        getattr(WallClock(), wait)(-1)


@pytest.mark.parametrize(
    ("value", "kind"), [(0.5, "float"), (True, "bool"), ("5", "str"), (None, "NoneType")]
)
def test_a_duration_must_be_an_int_of_nanoseconds(value: object, kind: str) -> None:
    with pytest.raises(TypeError, match=f"sleep must be an int of nanoseconds, not {kind}"):
        check_duration(value, "sleep")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=f"busy wait must be an int of nanoseconds, not {kind}"):
        WallClock().busy_wait_ns(value)  # type: ignore[arg-type]
