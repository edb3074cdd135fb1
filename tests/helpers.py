"""Small helpers shared by the tests: exact milliseconds, a scheduler factory, the real game loop
driven by a test (a clock that presses keys in the middle of a frame), and the session's books
check. pygame is imported only by the helpers that drive the loop, so a pure test stays pure."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from game.clock.manual import ManualClock
from game.config.loading import load_config
from game.from_config import session_from
from game.network.time_sync import STRETCH
from game.session.player_orders import OrderLog
from game.session.session import LabSession
from game.workshop.files.lessons import Lesson, load_lessons
from timestep_lab import NS_PER_MS, FixedStepScheduler, SchedulerSettings

if TYPE_CHECKING:
    from game.app.loop import GameLoop


def ms(value: int | str) -> int:
    """Whole nanoseconds from milliseconds, exactly (`ms("16.667")` is 16_667_000)."""
    exact = Fraction(str(value)) * 1_000_000
    assert exact.denominator == 1
    return exact.numerator


def scheduler(
    *, step_ms: int | str = 20, initial_ms: int | str = 0, **settings: object
) -> FixedStepScheduler:
    """A scheduler with a step in ms (20 ms by default: round numbers, as in docs/references.md)."""
    values = SchedulerSettings(step_ns=Fraction(ms(step_ms)), **settings)  # type: ignore[arg-type]
    return FixedStepScheduler(values, initial_remainder_ns=ms(initial_ms))


# -- the real game loop, driven by a test -------------------------------------------------------

HICCUP_NS = 100 * NS_PER_MS
"""How much longer a tick takes when `KeyClock` presses keys after it: the loop's poll interval
(`POLL_EVERY_NS`), so the loop reads the keyboard right after that tick."""

Key = tuple[int, int]
"""A key and the modifiers held with it (`pygame.KMOD_SHIFT`, `pygame.KMOD_CTRL` or 0)."""


def post_keys(keys: Sequence[Key]) -> None:
    """Put key presses (down, then up) in pygame's event queue, as a player's keyboard would."""
    import pygame

    for key, mods in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mods, unicode=""))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mods, unicode=""))


class KeyClock(ManualClock):
    """A `ManualClock` that presses keys in the middle of a frame, between two of its ticks, or
    during a stall.

    `press_mid_frame(group, ...)` arms it. After a tick's CPU cost (the loop's busy wait: the
    step cost must not be 0), once the event queue is empty, it presses the next group of keys.
    With `hiccup` that tick also takes `HICCUP_NS` longer, so the loop reads the group right
    there: the first group after the frame's first tick, the next after its second, and so on.
    Without it, the loop reads each group at its own next poll (every 100 ms of stepping).
    """

    def __init__(self) -> None:
        super().__init__()
        self._groups: list[Sequence[Key]] = []
        self._hiccup = True
        self._in_stall: Sequence[Key] = ()

    def press_mid_frame(self, *groups: Sequence[Key], hiccup: bool = True) -> None:
        self._groups = list(groups)
        self._hiccup = hiccup

    def press_during_stall(self, *keys: Key) -> None:
        """Press `keys` while the loop is blocked in its next stall (S, Shift+S, Ctrl+S)."""
        self._in_stall = keys

    def block_ns(self, ns: int) -> None:
        super().block_ns(ns)
        keys, self._in_stall = self._in_stall, ()
        post_keys(keys)

    @property
    def pressing(self) -> bool:
        """Some armed keys have not been pressed yet."""
        return bool(self._groups)

    def busy_wait_ns(self, ns: int) -> None:
        import pygame

        super().busy_wait_ns(ns)
        if self._groups and not pygame.event.peek():
            if self._hiccup:
                self.move_on(HICCUP_NS)
            post_keys(self._groups.pop(0))


@cache
def shipped_lessons() -> tuple[Lesson, ...]:
    """The lessons in `configs/lessons/`, read once for the whole run."""
    return load_lessons()


def game_loop(
    *overrides: str,
    clock: ManualClock | None = None,
    screenshot_dir: Path = Path("screenshots"),
    warm_up: bool = True,
    lessons: bool = True,
    script: str = "",
    on_order: OrderLog | None = None,
) -> GameLoop:
    """The real game loop (the dummy video driver), its event queue empty; `overrides` are
    `--set` settings, and the window asks for vsync when they say so (as `play` does). With
    `lessons` it has the shipped lessons; `script` is a script's text (`--script`); `on_order`
    logs the orders, as a recording does. Without `warm_up` its first frame starts at the
    clock's 0 and nothing has been drawn yet (a test saves a draw, or changes the loop first)."""
    import pygame

    from game.app.lesson_guide import LessonGuide
    from game.app.loop import GameLoop
    from game.app.loop_options import LoopOptions
    from game.app.script import parse_script
    from game.app.window import Window

    config = load_config(None, overrides)
    render = config.render
    window = Window(render.width, render.height, fullscreen=False, vsync=render.vsync)
    options = LoopOptions(
        print_hash=False, screenshot_dir=screenshot_dir, script=parse_script(script, "test script")
    )
    pygame.event.clear()
    session = session_from(config, on_order=on_order)
    guide = LessonGuide(shipped_lessons()) if lessons else None
    loop = GameLoop(session, window, clock or KeyClock(), options, lessons=guide)
    if warm_up:
        loop.warm_up()
    return loop


def unbalanced_lanes(session: LabSession) -> list[str]:
    """Every way the session's time does not add up, one line each; `[]` is the invariant:
    each lane's books balance with `==` (every frame and the whole run), its world, scheduler and
    books agree on the tick, and no frame is left open."""
    problems = []
    for number, lane in enumerate(session.lanes, start=1):
        books = lane.books
        if not books.every_frame_balanced:
            problems.append(f"lane {number}: a frame did not balance")
        if not books.ledger_ok:
            problems.append(f"lane {number}: the run's ledger does not balance")
        ticks = (lane.world.tick, lane.scheduler.tick)
        if len(set(ticks)) != 1:
            problems.append(f"lane {number}: world and scheduler ticks {ticks}")
    if session.frame_open:
        problems.append("a frame was left open")
    return problems


def lanes_out_of_step(session: LabSession) -> list[str]:
    """Where the lanes do not do what the session's controls say, one line each (`[]`: they all
    do): one lane per policy, each scheduler with its policy, the tick rate, M, the time scale
    and the alpha mode, paused when the controls are."""
    controls = session.controls
    problems = []
    if len(session.lanes) != len(controls.policies):
        problems.append(f"{len(session.lanes)} lanes for the policies {controls.policies}")
    pairs = zip(session.lanes, controls.policies, strict=False)  # a missing lane is told above
    for number, (lane, policy) in enumerate(pairs, start=1):
        settings = lane.scheduler.settings
        time_scale = settings.time_scale
        rollback = session.rollback if number == 1 else None
        if rollback is not None and rollback.pace.stretching:  # time sync slows lane 0's ticks
            time_scale *= STRETCH
        found = (settings.policy, settings.hz, settings.max_steps, time_scale,
                 settings.alpha_mode, lane.scheduler.paused)  # fmt: skip
        wanted = (policy, controls.hz, controls.max_steps, controls.time_scale,
                  controls.alpha_mode, controls.paused)  # fmt: skip
        if found != wanted:
            problems.append(f"lane {number}: the scheduler has {found}, the controls {wanted}")
    return problems


def recorded_run(scenario: Path, text: str, record: Path) -> list[str]:
    """`text` written to `scenario` and run by `simulate --record record`: the recording's
    lines (what `simulate` printed is left for the test to read)."""
    from game.cli import main

    scenario.write_text(text, encoding="utf-8")
    assert main(["simulate", "--scenario", str(scenario), "--record", str(record)]) == 0
    return record.read_text(encoding="utf-8").splitlines()


def replayed_at(record: Path, rates: Sequence[str]) -> list[str]:
    """What `replay` says of `record` at each render rate in `rates`: its last line each time
    (`matches the recording (replayed at N fps)` when it does). Prints nothing of its own."""
    import contextlib
    import io

    from game.cli import main

    verdicts = []
    for fps in rates:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            assert main(["replay", str(record), "--render-fps", fps]) == 0
        verdicts.append(printed.getvalue().splitlines()[-1])
    return verdicts
