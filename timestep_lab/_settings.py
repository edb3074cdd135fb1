"""The knobs of the scheduler, validated once, as one frozen value.

A player can change any of them between two frames (see `FixedStepScheduler.reconfigure`), so
they live in a single immutable value: swapping it is atomic, and a rejected value never reaches
the scheduler.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from timestep_lab._units import NS_PER_MS, NS_PER_SECOND, hz_to_step_ns

# Beyond these the settings are not a game any more but a typo; refuse them clearly.
MIN_STEP_NS = Fraction(NS_PER_SECOND, 10_000)  # 10 kHz
MAX_STEP_NS = Fraction(10 * NS_PER_SECOND)  # one tick per 10 s
MAX_CATCH_UP_STEPS = 10_000
MAX_FRAME_LIMIT_NS = Fraction(3_600 * NS_PER_SECOND)
MAX_BACKLOG_LIMIT_NS = Fraction(3_600 * NS_PER_SECOND)
MAX_TIME_SCALE = Fraction(64)
MAX_OVERLOAD_FRAMES = 1_000
DEFAULT_STEP_NS = hz_to_step_ns(60)
MIN_REFRESH_NS = Fraction(NS_PER_SECOND, 1_000)  # a 1 kHz display
MAX_REFRESH_NS = Fraction(NS_PER_SECOND)  # a 1 Hz display
MAX_AVERAGE_FRAMES = 120
MAX_JITTER_FIX = Fraction(2)


class AlphaMode(StrEnum):
    """How the interpolation factor is computed after the steps of a frame."""

    CORRECT = "correct"
    """Sub-step remainder / step: always in [0, 1)."""
    NAIVE = "naive"
    """Everything carried / step: the bug that lets alpha reach 6.75 and extrapolate."""


def exact_duration(value: object, name: str) -> Fraction:
    """Accept an int or a Fraction of nanoseconds; refuse floats, bools and anything else."""
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise TypeError(
            f"{name} must be an int or Fraction of nanoseconds, not {type(value).__name__} "
            f"(got {value!r})"
        )
    return Fraction(value)


def exact_count(value: object, name: str) -> int:
    """Accept a plain int (not a bool, not a float)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__} (got {value!r})")
    return value


@dataclass(frozen=True, slots=True)
class SchedulerSettings:
    """Step h, catch-up cap M, max frame F, max backlog B, time scale, policy and alpha mode.

    All durations are exact nanoseconds (int or Fraction). Build from a tick rate with
    `SchedulerSettings.at_hz(60)`: 1/60 s is 50,000,000/3 ns, not 16 ms and not 16.666 ms.
    """

    step_ns: Fraction = DEFAULT_STEP_NS
    policy: str = "drop"
    max_steps: int = 5
    max_frame_ns: Fraction = Fraction(250 * NS_PER_MS)
    max_backlog_ns: Fraction = Fraction(NS_PER_SECOND)
    time_scale: Fraction = Fraction(1)
    alpha_mode: AlphaMode = AlphaMode.CORRECT
    overload_frames: int = 3
    """Consecutive strained frames before the overload indicator lights up."""
    conditioning: str = "raw"
    """What the measured delta goes through before it is counted (`CONDITIONERS`)."""
    refresh_ns: Fraction = DEFAULT_STEP_NS
    """The display's refresh period: the unit `snap` counts in."""
    snap_tolerance_ns: Fraction = Fraction(NS_PER_MS)
    """How far from a whole number of refresh periods a delta may be and still snap."""
    average_frames: int = 4
    """N, the frames `average` takes the mean of."""
    jitter_fix: Fraction = Fraction(1, 2)
    """How much of a step `godot` may move between frames (Godot's default is 0.5)."""

    def __post_init__(self) -> None:
        # Local import: the policy registry imports nothing from here but lives beside it.
        from timestep_lab._policies import POLICIES

        step = exact_duration(self.step_ns, "step_ns")
        if not MIN_STEP_NS <= step <= MAX_STEP_NS:
            raise ValueError(
                f"step must be between 0.1 ms and 10 s (got {float(step) / NS_PER_MS} ms)"
            )
        if not isinstance(self.policy, str) or self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)} (got {self.policy!r})")
        steps = exact_count(self.max_steps, "max_steps")
        if not 1 <= steps <= MAX_CATCH_UP_STEPS:
            raise ValueError(f"max_steps must be between 1 and {MAX_CATCH_UP_STEPS} (got {steps})")
        frame = exact_duration(self.max_frame_ns, "max_frame_ns")
        if not step <= frame <= MAX_FRAME_LIMIT_NS:
            raise ValueError(
                "max frame must be at least one step and at most 1 hour "
                f"(got {float(frame) / NS_PER_MS} ms, step {float(step) / NS_PER_MS} ms)"
            )
        backlog = exact_duration(self.max_backlog_ns, "max_backlog_ns")
        if not 0 <= backlog <= MAX_BACKLOG_LIMIT_NS:
            raise ValueError(
                f"max backlog must be between 0 and 1 hour (got {float(backlog) / NS_PER_MS} ms)"
            )
        scale = self.time_scale
        if isinstance(scale, bool) or not isinstance(scale, int | Fraction):
            raise TypeError(
                f"time_scale must be an int or Fraction, not {type(scale).__name__} (got {scale!r})"
            )
        if not 0 < scale <= MAX_TIME_SCALE:
            raise ValueError(f"time scale must be in (0, 64] (got {scale})")
        if not isinstance(self.alpha_mode, AlphaMode):
            try:
                mode = AlphaMode(self.alpha_mode)
            except ValueError:
                raise ValueError(
                    f"alpha mode must be 'correct' or 'naive' (got {self.alpha_mode!r})"
                ) from None
            object.__setattr__(self, "alpha_mode", mode)
        frames = exact_count(self.overload_frames, "overload_frames")
        if not 1 <= frames <= MAX_OVERLOAD_FRAMES:
            raise ValueError(
                f"overload_frames must be between 1 and {MAX_OVERLOAD_FRAMES} (got {frames})"
            )
        self._check_conditioning()
        # Normalise ints to Fractions so equal settings compare equal.
        object.__setattr__(self, "step_ns", step)
        object.__setattr__(self, "max_frame_ns", frame)
        object.__setattr__(self, "max_backlog_ns", backlog)
        object.__setattr__(self, "time_scale", Fraction(scale))

    def _check_conditioning(self) -> None:
        from timestep_lab._conditioning import CONDITIONERS

        if not isinstance(self.conditioning, str) or self.conditioning not in CONDITIONERS:
            raise ValueError(
                f"conditioning must be one of {', '.join(CONDITIONERS)} (got {self.conditioning!r})"
            )
        refresh = exact_duration(self.refresh_ns, "refresh_ns")
        if not MIN_REFRESH_NS <= refresh <= MAX_REFRESH_NS:
            raise ValueError(
                f"refresh must be between 1 and 1000 Hz (got a period of {refresh} ns)"
            )
        tolerance = exact_duration(self.snap_tolerance_ns, "snap_tolerance_ns")
        if not 0 <= tolerance <= refresh / 2:
            raise ValueError(
                "the snap tolerance must be between 0 and half a refresh period "
                f"(got {float(tolerance) / NS_PER_MS} ms)"
            )
        frames = exact_count(self.average_frames, "average_frames")
        if not 1 <= frames <= MAX_AVERAGE_FRAMES:
            raise ValueError(
                f"average_frames must be between 1 and {MAX_AVERAGE_FRAMES} (got {frames})"
            )
        fix = exact_duration(self.jitter_fix, "jitter_fix")
        if not 0 <= fix <= MAX_JITTER_FIX:
            raise ValueError(f"jitter_fix must be between 0 and 2 (got {fix})")
        object.__setattr__(self, "refresh_ns", refresh)
        object.__setattr__(self, "snap_tolerance_ns", tolerance)
        object.__setattr__(self, "jitter_fix", fix)

    @classmethod
    def at_hz(cls, hz: int | Fraction, **changes: object) -> SchedulerSettings:
        """Settings whose step is exactly 1/hz seconds."""
        if isinstance(hz, bool) or not isinstance(hz, int | Fraction):
            raise TypeError(f"hz must be an int or Fraction, not {type(hz).__name__} (got {hz!r})")
        if hz <= 0:
            raise ValueError(f"hz must be positive (got {hz})")
        return cls(step_ns=hz_to_step_ns(hz), **changes)  # type: ignore[arg-type]

    def with_changes(self, **changes: object) -> SchedulerSettings:
        """A copy with some knobs turned, validated like a new value."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def hz(self) -> Fraction:
        """Ticks per second, exactly."""
        return NS_PER_SECOND / self.step_ns
