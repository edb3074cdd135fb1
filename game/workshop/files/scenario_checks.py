"""Checks of a whole scenario before it runs: what one entry cannot check on its own, and the
work one run asks for.

A scenario's sections validate themselves (`game.workshop.files.scenario`); what they cannot see
is the file as a whole: a stall that would outlast the run, a timed change of tick rate that the
max frame cannot hold, a run so long that it is more likely a typo than a request. These are
checked here, once the file is read, so a run that cannot be done as asked is refused before it
starts, in the same one-line-per-problem form, with how long it would have taken.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

from game import limits
from game.config.exact import decimal_text
from game.config.problems import Problem
from game.workshop.files.scenario import Scenario
from timestep_lab import hz_to_step_ns


def timeline_problems(scenario: Scenario) -> list[Problem]:
    """Checks across the file that one entry cannot make on its own, so that a run that cannot be
    done as asked is refused before it starts instead of being cut short without a word.

    - A timed change of tick rate must leave the max frame at least one step long, as
      `[scheduler]` itself must; otherwise the scheduler would refuse it in the middle of the run.
    - A stall must end before the run does (a frame that would pass the end is never run).
    - The run may simulate at most `MAX_RUN_TICKS` ticks and take at most `MAX_RUN_FRAMES`
      frames (`run_size`): limits against a typo, not against work.
    """
    problems = [*_stalls_past_the_end(scenario), *_too_many_ticks(scenario)]
    frame_ns = scenario.scheduler.max_frame_ns
    for index, change in enumerate(scenario.changes):
        if change.hz is not None and hz_to_step_ns(change.hz) > frame_ns:
            step_ms = Fraction(math.ceil(1_000_000 / change.hz), 1000)
            problems.append(
                Problem(
                    ("changes", index, "hz"),
                    f"makes the step {decimal_text(step_ms)} ms, longer than "
                    f"scheduler.max_frame_ms ({decimal_text(scenario.scheduler.max_frame_ms)})",
                    change.hz,
                )
            )
    return problems


def _stalls_past_the_end(scenario: Scenario) -> list[Problem]:
    problems = []
    for index, stall in enumerate(scenario.stalls):
        end = stall.at + stall.ms / 1000
        if end >= scenario.seconds:
            problems.append(
                Problem(
                    ("stalls", index),
                    f"ends at {decimal_text(end)} s, not before the run's "
                    f"{decimal_text(scenario.seconds)} s: a stall must end before the run does",
                    involves=(("seconds",),),
                )
            )
    return problems


class RunSize(NamedTuple):
    """The most one run of a scenario can take, and the rates that bound it."""

    ticks: int
    """Ticks simulated, the re-simulated ones (`resimulated`) among them."""
    frames: int
    hz: Fraction
    time_scale: Fraction
    render_fps: Fraction
    resimulated: int = 0
    """Ticks a `[network]` run may simulate again (`NetworkSection.resimulated_at_most`): each
    costs a step, as a new tick does."""


def run_size(scenario: Scenario) -> RunSize:
    """No policy runs more ticks than the scaled wall time holds (seconds x time scale x hz), and
    no frame is shorter than 1 / render_fps, each at the largest value the run reaches; with
    vsync, no more frames than the panel refreshes, plus the queue's and the one being drawn.
    A `[network]` run may also simulate ticks again (a rollback), as many as its settings allow
    at most."""
    changes = scenario.changes
    hz = max([scenario.scheduler.hz, *(c.hz for c in changes if c.hz is not None)])
    scale = max([scenario.scheduler.time_scale, *(c.time_scale for c in changes if c.time_scale)])
    fps = max([scenario.clock.render_fps, *(c.render_fps for c in changes if c.render_fps)])
    ticks = math.ceil(scenario.seconds * scale * hz)
    display, queued = scenario.display, 0
    if display is not None and display.vsync:  # a full queue waits for a vblank to take a frame
        fps = min(fps, max(display.refresh_hz, display.vrr_max_hz or 0))
        queued = display.queue_depth + 1  # and the one being drawn
    network = scenario.network
    again = 0 if network is None else network.resimulated_at_most(ticks)
    frames = math.ceil(scenario.seconds * fps) + queued
    return RunSize(ticks + again, frames, hz, scale, fps, again)


def work_refusal(scenario: Scenario) -> str | None:
    """Why one run of `scenario` is beyond what any run may ask for (`MAX_RUN_TICKS`,
    `MAX_RUN_FRAMES`, each run on its own), with how long it would take here, or None."""
    size = run_size(scenario)
    seconds = f"{decimal_text(scenario.seconds)} s"
    took = limits.duration_text(limits.estimated_s(size.ticks, size.frames))
    if size.ticks > limits.MAX_RUN_TICKS:
        again = ""
        if size.resimulated:
            window = scenario.network.prediction_window if scenario.network else 0
            again = (
                f", and {size.resimulated:,} re-simulated: each tick may roll back its last "
                f"{window} (network.prediction_window)"
            )
        return (
            f"would simulate up to {size.ticks:,} ticks ({seconds} x time scale "
            f"{decimal_text(size.time_scale)} x {decimal_text(size.hz)} Hz{again}), about "
            f"{took} of CPU, more than {limits.MAX_RUN_TICKS:,} a run (the limit)"
        )
    if size.frames > limits.MAX_RUN_FRAMES:
        return (
            f"would take up to {size.frames:,} frames ({seconds} x "
            f"{decimal_text(size.render_fps)} fps), about {took} of CPU, more than "
            f"{limits.MAX_RUN_FRAMES:,} a run (the limit)"
        )
    return None


def _too_many_ticks(scenario: Scenario) -> list[Problem]:
    refusal = work_refusal(scenario)
    if refusal is None:
        return []
    return [
        Problem(
            ("seconds",),
            refusal,
            involves=(
                ("scheduler", "hz"),
                ("scheduler", "time_scale"),
                ("clock", "render_fps"),
                ("changes",),
            ),
        )
    ]
