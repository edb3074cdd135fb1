"""The judder table: tick rate x refresh rate x interpolation x conditioning, one run per row.

Each row is a short headless run on the virtual display (vsync, a queue of two, the loop
uncapped and 1 ms a frame) whose wake-up is late by up to `wake_jitter_ms` at random (seeded):
the measured-delta noise of a real vsynced loop. The judder meter (`game.display.judder`)
gives each row its figures; a row without vsync is the mean over eight phases of the display
(`PHASES`). `python -m game judder` prints it; docs/display.md carries it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from game.config.exact import decimal_text
from game.display.judder import JudderReport
from game.workshop.files.scenario import Scenario
from game.workshop.runs.simulation import run_scenario

TICK_RATES = (Fraction(60), Fraction(64))
REFRESHES = (Fraction(60), Fraction(144), Fraction(165))
INTERPOLATIONS = ("off", "interpolate")
CONDITIONINGS = ("raw", "snap", "average", "godot")
PHASES = tuple(Fraction(2 * index + 1, 16) for index in range(8))
"""Without vsync, where the vblanks fall against the loop's frames decides which refresh first
shows a tick: a loop capped at 72 fps on a 60 Hz screen shows one tick per refresh for some
phases and 0-2-1 for others. Those rows are the mean over eight phases."""


@dataclass(frozen=True, slots=True)
class JudderRow:
    hz: Fraction
    refresh_hz: Fraction
    render_fps: Fraction
    interpolation: str
    conditioning: str
    report: JudderReport

    def record(self) -> dict[str, float | int | str]:
        return {
            "hz": decimal_text(self.hz),
            "refresh_hz": decimal_text(self.refresh_hz),
            "render_fps": decimal_text(self.render_fps),
            "interpolation": self.interpolation,
            "conditioning": self.conditioning,
            **self.report.row(),
        }


def judder_scenario(
    hz: Fraction,
    refresh_hz: Fraction,
    interpolation: str,
    conditioning: str,
    *,
    seconds: Fraction = Fraction(5),
    wake_jitter_ms: Fraction = Fraction(1, 2),
    render_fps: Fraction = Fraction(1000),
    vsync: bool = True,
    phase: Fraction = Fraction(37, 100),
) -> Scenario:
    """One row's run, as a scenario."""
    return Scenario.model_validate(
        {
            "title": f"{decimal_text(hz)} Hz on {decimal_text(refresh_hz)} Hz",
            "seconds": seconds,
            "scheduler": {"hz": hz, "conditioning": conditioning},
            "clock": {
                "render_fps": render_fps,
                "render_cost_ms": 1,
                "jitter_ms": wake_jitter_ms,
                "jitter_seed": 7,
            },
            "display": {
                "refresh_hz": refresh_hz,
                "interpolation": interpolation,
                "vsync": vsync,
                "phase": phase,
            },
            "world": {"cannon_period_ticks": 0},
        },
        strict=False,
    )


def judder_rows(
    *,
    seconds: Fraction = Fraction(5),
    wake_jitter_ms: Fraction = Fraction(1, 2),
    tick_rates: tuple[Fraction, ...] = TICK_RATES,
    refreshes: tuple[Fraction, ...] = REFRESHES,
    interpolations: tuple[str, ...] = INTERPOLATIONS,
    conditionings: tuple[str, ...] = CONDITIONINGS,
    render_rates: tuple[Fraction, ...] = (Fraction(1000),),
    vsync: bool = True,
) -> Iterator[JudderRow]:
    """Every combination, in table order. `render_rates` are the loop's caps (1000: as fast
    as the display lets it, with vsync)."""
    for hz in tick_rates:
        for refresh in refreshes:
            for fps in render_rates:
                for interpolation in interpolations:
                    for conditioning in conditionings:
                        reports = [
                            _report(
                                judder_scenario(
                                    hz,
                                    refresh,
                                    interpolation,
                                    conditioning,
                                    seconds=seconds,
                                    wake_jitter_ms=wake_jitter_ms,
                                    render_fps=fps,
                                    vsync=vsync,
                                    phase=phase,
                                )
                            )
                            for phase in (PHASES if not vsync else (Fraction(37, 100),))
                        ]
                        yield JudderRow(
                            hz, refresh, fps, interpolation, conditioning, _mean(reports)
                        )


def _report(scenario: Scenario) -> JudderReport:
    report = run_scenario(scenario).judder
    assert report is not None
    return report


def _mean(reports: list[JudderReport]) -> JudderReport:
    """The mean figures over runs that differ only in the display's phase (the cadence and holds
    of the first)."""
    if len(reports) == 1:
        return reports[0]
    count = len(reports)
    return replace(
        reports[0],
        latency_ms=round(sum(r.latency_ms for r in reports) / count, 3),
        position_error_ms=round(sum(r.position_error_ms for r in reports) / count, 3),
        position_error_m=round(sum(r.position_error_m for r in reports) / count, 6),
        judder_pct=round(sum(r.judder_pct for r in reports) / count, 3),
    )


HEADER = (
    "| tick Hz | refresh Hz | render cap | interpolation | conditioning | judder % "
    "| position error ms | latency ms | ticks per refresh | refreshes per tick |"
)
RULE = "|---:|---:|---:|---|---|---:|---:|---:|---|---|"


def markdown_row(row: JudderRow) -> str:
    report = row.report
    cap = "vsync" if row.render_fps >= 1000 else decimal_text(row.render_fps)
    return (
        f"| {decimal_text(row.hz)} | {decimal_text(row.refresh_hz)} | {cap} | {row.interpolation} "
        f"| {row.conditioning} | {report.judder_pct:.1f} | {report.position_error_ms:.3f} "
        f"| {report.latency_ms:.1f} | {report.cadence[-12:] or '-'} | {report.holds or '-'} |"
    )
