"""`python -m game schedule`: the scheduler explainer.

Feed it frame times and it prints, frame by frame, what the scheduler decided: how many ticks
ran, what was dropped, what is carried, the alpha and the overload light; then the totals and the
ledger check. It is both a workshop tool (put a stall on a slide) and the test contract.

    python -m game schedule --hz 50 --max-steps 4 --initial-remainder-ms 15 200
    python -m game schedule --policy uncapped 16.667x600 250 pause 1000 resume 16.667 --json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from game.arguments import whole_number
from game.clock.units import format_ms, parse_decimal, parse_ms, parse_ratio, shown, whole_ns
from game.errors import BadInput
from game.limits import MAX_SCHEDULE_FRAMES
from game.scheduler.records import frame_record
from game.stopping import stop_point
from game.workshop.runs.progress import every_frames, progress_bar
from timestep_lab import (
    CONDITIONERS,
    MAX_ELAPSED_NS,
    NS_PER_MS,
    POLICIES,
    AlphaMode,
    FixedStepScheduler,
    SchedulerSettings,
    StepPlan,
    TimeBooks,
    hz_to_step_ns,
)

HELP = "explain frame by frame how the scheduler splits frame times into fixed ticks"

_REPEAT = re.compile(r"(?P<value>[^x]+)x(?P<count>[0-9]+)")


@dataclass(frozen=True, slots=True)
class FrameRun:
    """`count` frames of `elapsed_ns` each, or a pause/resume marker (count 0)."""

    elapsed_ns: int = 0
    count: int = 1
    toggle: str = ""


def parse_frames(tokens: list[str]) -> list[FrameRun]:
    """Read FRAME tokens: `16.667`, `16.667x600`, `pause`, `resume`. Refuse anything else.

    Every token is checked before the first row is printed, so a bad one at the end of a long
    list is one line, not a table cut short by a traceback.
    """
    runs: list[FrameRun] = []
    total = 0
    paused = False
    for token in tokens:
        word = token.strip().lower()
        if word in ("pause", "resume"):
            if paused == (word == "pause"):
                already = "the frames are already paused" if paused else "nothing is paused"
                raise BadInput.error(f"bad frame {shown(token)}: {already}")
            paused = word == "pause"
            runs.append(FrameRun(count=0, toggle=word))
            continue
        elapsed, count = _frame_run(token, word)
        total += count
        if total > MAX_SCHEDULE_FRAMES:
            raise BadInput.error(f"too many frames (more than {MAX_SCHEDULE_FRAMES:,})")
        runs.append(FrameRun(elapsed, count))
    return runs


def _frame_run(token: str, word: str) -> tuple[int, int]:
    """(elapsed ns, count) of `16.667` or `16.667x600`; the count 1 to `MAX_SCHEDULE_FRAMES`."""
    match = _REPEAT.fullmatch(word)
    value, count_text = (match["value"], match["count"]) if match else (word, "1")
    try:
        elapsed = whole_ns(parse_ms(value, what="frame"), what=f"frame {token!r}")
    except ValueError as problem:
        raise BadInput.error(f"bad frame {shown(token)}: {problem}") from None
    if elapsed > MAX_ELAPSED_NS:
        raise BadInput.error(
            f"bad frame {shown(token)}: a frame lasts at most a year "
            f"({MAX_ELAPSED_NS // NS_PER_MS:,} ms)"
        )
    count = int(count_text) if len(count_text) <= 9 else MAX_SCHEDULE_FRAMES + 1
    if count < 1:
        raise BadInput.error(f"bad frame {shown(token)}: the repeat count must be at least 1")
    if match and elapsed == 0:
        raise BadInput.error(
            f"bad frame {shown(token)}: {count:,} frames of 0 ms; a repeated frame must last "
            "more than 0 ms (frame times are decimal ms, never hex)"
        )
    return elapsed, count


def add_arguments(parser: argparse.ArgumentParser) -> None:
    step = parser.add_mutually_exclusive_group()
    step.add_argument("--hz", default=None, help="tick rate, exact (default 60)")
    step.add_argument("--step-ms", default=None, help="step length in ms, exact (e.g. 20)")
    parser.add_argument("--policy", default="drop", help=f"one of: {', '.join(POLICIES)}")
    parser.add_argument(
        "--max-steps", type=whole_number, default=5, help="catch-up cap M (default 5)"
    )
    parser.add_argument("--max-frame-ms", default="250", help="max frame F in ms (default 250)")
    parser.add_argument(
        "--max-backlog-ms", default="1000", help="max backlog B in ms (default 1000)"
    )
    parser.add_argument("--time-scale", default="1", help="time scale, e.g. 1/8, 0.5, 2")
    parser.add_argument(
        "--alpha",
        default="correct",
        choices=[mode.value for mode in AlphaMode],
        help="alpha mode (default correct)",
    )
    parser.add_argument(
        "--initial-remainder-ms", default="0", help="time carried in before frame 1 (ms)"
    )
    parser.add_argument(
        "--conditioning",
        default="raw",
        choices=list(CONDITIONERS),
        help="what the measured delta goes through first (default raw)",
    )
    parser.add_argument(
        "--refresh-hz", default="60", help="the display's refresh rate, exact (snap's unit)"
    )
    parser.add_argument(
        "--snap-tolerance-ms", default="1", help="how close to whole periods snap acts (ms)"
    )
    parser.add_argument("--average-frames", type=int, default=4, help="N for average")
    parser.add_argument("--jitter-fix", default="0.5", help="godot's share of a step (0-2)")
    parser.add_argument("--json", action="store_true", help="one JSON object per frame per line")
    parser.add_argument(
        "frames",
        nargs="+",
        metavar="FRAME",
        help="a frame time in ms (16.667), VALUExCOUNT (16.667x600), pause or resume",
    )


def settings_from_args(args: argparse.Namespace) -> SchedulerSettings:
    """Build validated scheduler settings from the shared flags; bad values raise BadInput."""
    try:
        if args.step_ms is not None:
            step_ns = parse_ms(args.step_ms, what="--step-ms")
        else:
            hz = parse_decimal(args.hz or "60", what="--hz")
            if hz == 0:
                raise ValueError("--hz must be positive (got 0)")
            step_ns = hz_to_step_ns(hz)
        return SchedulerSettings(
            step_ns=step_ns,
            policy=args.policy,
            max_steps=args.max_steps,
            max_frame_ns=parse_ms(args.max_frame_ms, what="--max-frame-ms"),
            max_backlog_ns=parse_ms(args.max_backlog_ms, what="--max-backlog-ms"),
            time_scale=parse_ratio(args.time_scale, what="--time-scale"),
            alpha_mode=AlphaMode(args.alpha),
            **_conditioning_settings(args),  # type: ignore[arg-type]
        )
    except (ValueError, TypeError) as problem:
        raise BadInput.error(str(problem)) from None


def _conditioning_settings(args: argparse.Namespace) -> dict[str, object]:
    """The conditioning flags as `SchedulerSettings` fields (absent flags keep the defaults)."""
    if getattr(args, "conditioning", None) is None:
        return {}
    refresh = parse_decimal(args.refresh_hz, what="--refresh-hz")
    if refresh == 0:
        raise ValueError("--refresh-hz must be positive (got 0)")
    return {
        "conditioning": args.conditioning,
        "refresh_ns": hz_to_step_ns(refresh),
        "snap_tolerance_ns": parse_ms(args.snap_tolerance_ms, what="--snap-tolerance-ms"),
        "average_frames": args.average_frames,
        "jitter_fix": parse_ratio(args.jitter_fix, what="--jitter-fix"),
    }


def run_frames(scheduler: FixedStepScheduler, runs: list[FrameRun]) -> Iterator[StepPlan]:
    """Feed the frames to the scheduler, pausing and resuming where the markers say."""
    for frame_run in runs:
        if frame_run.toggle == "pause":
            scheduler.pause()
        elif frame_run.toggle == "resume":
            scheduler.resume()
        for _ in range(frame_run.count):
            yield scheduler.advance(frame_run.elapsed_ns)


def run(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    runs = parse_frames(args.frames)
    try:
        initial = parse_ms(args.initial_remainder_ms, what="--initial-remainder-ms")
        scheduler = FixedStepScheduler(settings, initial_remainder_ns=initial)
    except (ValueError, TypeError) as problem:
        raise BadInput.error(str(problem)) from None
    books = TimeBooks(initial)
    conditioned = settings.conditioning != "raw"
    if not args.json:
        sys.stdout.write(_settings_line(settings, initial) + "\n")
        sys.stdout.write((f"{_HEADER:<91}{_CONDITIONED}" if conditioned else _HEADER) + "\n")
    sys.stdout.flush()
    stop_point("rows")
    total = sum(frame_run.count for frame_run in runs)
    with progress_bar(total, "frames") as done:
        told = every_frames(done)
        for number, plan in enumerate(run_frames(scheduler, runs), start=1):
            books.record(plan)
            row = (
                json.dumps(frame_record(number, plan))
                if args.json
                else _row(number, plan, conditioned)
            )
            sys.stdout.write(row + "\n")  # sys.stdout each time: a bar takes its lines above it
            told(number, number)
    if args.json:
        sys.stdout.write(json.dumps({"summary": books.summary()}) + "\n")
    else:
        sys.stdout.write(_totals(books, conditioned))
    return 0


# -- the readable table --------------------------------------------------------------------------

_HEADER = (
    f"{'frame':>7} {'elapsed ms':>11} {'steps':>6} {'dropped ms':>11} {'remainder ms':>13} "
    f"{'backlog':>8} {'alpha':>8} {'tick':>8}  overloaded"
)
_CONDITIONED = f" {'counted ms':>11} {'carry ms':>9}"


def _row(number: int, plan: StepPlan, conditioned: bool) -> str:
    light = "YES" if plan.overloaded else "no"
    if plan.paused:
        light += " (paused)"
    row = (
        f"{number:>7} {format_ms(plan.elapsed_ns):>11} {plan.steps:>6} "
        f"{format_ms(plan.dropped_ns):>11} {format_ms(plan.remainder_ns):>13} "
        f"{plan.backlog_steps:>8} {plan.alpha:>8.4f} {plan.tick:>8}  {light}"
    )
    if conditioned:
        row = (
            f"{row:<91}{format_ms(plan.counted_ns):>11} {format_ms(plan.conditioning_carry_ns):>9}"
        )
    return row


def _settings_line(settings: SchedulerSettings, initial_ns: Fraction) -> str:
    return (
        f"policy {settings.policy}: {POLICIES[settings.policy].summary}\n"
        f"step h = {_exact(settings.step_ns)} ns ({format_ms(settings.step_ns)} ms, "
        f"{float(settings.hz):g} Hz), M = {settings.max_steps}, "
        f"F = {format_ms(settings.max_frame_ns, 1)} ms, "
        f"B = {format_ms(settings.max_backlog_ns, 1)} ms, "
        f"time scale {settings.time_scale}, alpha {settings.alpha_mode.value}, "
        f"carried in {format_ms(initial_ns)} ms"
    ) + (
        f"\nconditioning {settings.conditioning}: {CONDITIONERS[settings.conditioning].summary} "
        f"(refresh {format_ms(settings.refresh_ns)} ms, snap tolerance "
        f"{format_ms(settings.snap_tolerance_ns)} ms, N = {settings.average_frames}, "
        f"jitter fix {settings.jitter_fix})"
        if settings.conditioning != "raw"
        else ""
    )


def _exact(ns: Fraction) -> str:
    """Exact nanoseconds: `16666666 2/3` style, so the audience sees there is no rounding."""
    whole, part = divmod(ns, 1)
    if part == 0:
        return f"{int(whole):_}"
    return f"{int(whole):_} {part.numerator}/{part.denominator}"


def _totals(books: TimeBooks, conditioned: bool) -> str:
    verdict = "balanced" if books.ledger_ok else "DOES NOT BALANCE"
    return (
        f"frames {books.frames}, ticks {books.ticks}, wall {format_ms(books.wall_ns)} ms "
        f"(paused {format_ms(books.paused_ns)} ms), scaled {format_ms(books.scaled_ns)} ms, "
        f"simulated {format_ms(books.sim_time_ns)} ms, dropped {format_ms(books.dropped_ns)} ms\n"
        f"carried out: remainder {format_ms(books.remainder_ns)} ms + "
        f"{books.backlog_steps} backlog steps\n"
        + _conditioning_ledger(books, conditioned)
        + f"ledger (exact ns): carried in {_exact(books.initial_carried_ns)} + scaled "
        f"{_exact(books.scaled_ns)} + single steps {_exact(books.granted_ns)} = simulated "
        f"{_exact(books.stepped_ns)} + dropped {_exact(books.dropped_ns)} + carried out "
        f"{_exact(books.carried_ns)}: {verdict}\n"
    )


def _conditioning_ledger(books: TimeBooks, conditioned: bool) -> str:
    """The conditioning account's line: measured = counted + carry (shown when conditioned)."""
    if not conditioned:
        return ""
    return (
        f"conditioning (exact ns): measured {books.wall_ns - books.paused_ns:_} = counted "
        f"{books.counted_ns:_} + conditioning carry {books.conditioning_carry_ns:_}\n"
    )
