"""`[display]` in a scenario: the virtual display at the end of the headless loop.

    [display]
    refresh_hz = 144         # exact: 59.94 is 5994/100 Hz (1 to 1000 Hz)
    vsync = true             # false: frames are shown at once, torn
    present_mode = "queue"   # "latest": newest frame at each vblank; "immediate": vsync = false
    queue_depth = 2          # frames the swap chain holds before present blocks (1-3)
    vrr_min_hz = 48          # optional variable-refresh range; it must contain refresh_hz
    vrr_max_hz = 144
    lfc = true               # below the range, show each frame m times (needs max >= 2 x min)
    phase = 0.37             # where in a refresh the loop starts (see game.display.model)
    interpolation = "off"    # how the frames place bodies between ticks (as [render] does)

`lfc` left out means on wherever the range allows it, as drivers ship it; a 48-75 Hz panel then
repeats frames on its own at 1/min. Asking for `lfc = true` on such a panel is an error.

`present_mode` left out follows `vsync` (`queue`, or `immediate` without vsync); `latest` is the
mailbox or compositor mode (`game.display.model`), and needs vsync and no VRR range.

A scenario without `[display]` runs as before: frames end when their work and the render cap
say, and nothing is shown anywhere.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Self

from pydantic import model_validator

from game.config.exact import decimal_text
from game.config.knob_fields import field_type
from game.config.model import InterpolationName
from game.config.problems import NOTHING, SettingError
from game.config.section import Section
from game.display.model import DisplaySettings, PresentMode
from game.display.vrr import lfc_fits
from game.knobs import knob_at

RefreshHz = field_type(knob_at("display.refresh_hz"))
"""A refresh rate, exact, within the knob table's range (1 to 1000 Hz)."""


class DisplaySection(Section):
    """`[display]`: refresh, vsync, the present queue and an optional VRR range."""

    refresh_hz: RefreshHz = Fraction(60)  # type: ignore[valid-type]
    """How often the panel refreshes, exactly."""
    vsync: bool = True
    """Wait for a vblank to show a frame (false: at once, with tearing)."""
    present_mode: PresentMode | None = None
    """How the swap chain takes a frame (unset: `queue`, or `immediate` without vsync)."""
    queue_depth: field_type(knob_at("display.queue_depth")) = 2  # type: ignore[valid-type]
    """Finished frames the swap chain may hold; one more makes `present` block."""
    vrr_min_hz: RefreshHz | None = None  # type: ignore[valid-type]
    """The lowest rate of a variable-refresh panel (with vrr_max_hz)."""
    vrr_max_hz: RefreshHz | None = None  # type: ignore[valid-type]
    """The highest rate of a variable-refresh panel (with vrr_min_hz)."""
    lfc: bool | None = None
    """Low framerate compensation below the VRR range (unset: on where the range allows)."""
    phase: field_type(knob_at("display.phase")) = Fraction(37, 100)  # type: ignore[valid-type]
    """Where in a refresh period the loop starts (0 to 0.99)."""
    interpolation: InterpolationName = "interpolate"
    """How the frames shown place bodies between two ticks (the game's `render.interpolation`)."""

    @model_validator(mode="after")
    def _range_holds_the_refresh(self) -> Self:
        low, high = self.vrr_min_hz, self.vrr_max_hz
        if (low is None) != (high is None):
            missing = "vrr_max_hz" if high is None else "vrr_min_hz"
            raise SettingError(missing, "is needed too: a VRR range has two ends", NOTHING)
        if low is not None and high is not None and not low <= self.refresh_hz <= high:
            raise SettingError(
                "vrr_min_hz",
                f"and vrr_max_hz ({decimal_text(high)}) must contain refresh_hz "
                f"({decimal_text(self.refresh_hz)})",
                low,
                involves=("vrr_max_hz", "refresh_hz"),
            )
        return self

    @model_validator(mode="after")
    def _present_mode_fits(self) -> Self:
        """`latest` shows frames on the vblank grid, and `immediate` is vsync off."""
        mode = self.present_mode
        if mode == "latest" and (not self.vsync or self.vrr_min_hz is not None):
            raise SettingError(
                "present_mode",
                "latest shows frames on the vblank grid: it needs vsync = true and no VRR range",
                mode,
                involves=("vsync", "vrr_min_hz"),
            )
        if mode == "immediate" and self.vsync and "vsync" in self.model_fields_set:
            raise SettingError(
                "present_mode",
                "immediate is vsync off: it contradicts vsync = true",
                mode,
                involves=("vsync",),
            )
        return self

    @model_validator(mode="after")
    def _lfc_fits_the_range(self) -> Self:
        """LFC needs a range to work below, and one where m repeats always fit (max >= 2 x min);
        left out, it is simply on where it fits."""
        low, high = self.vrr_min_hz, self.vrr_max_hz
        if self.lfc is None:
            return self
        if low is None or high is None:
            raise SettingError(
                "lfc",
                "applies only to a VRR range (vrr_min_hz and vrr_max_hz)",
                self.lfc,
                involves=("vrr_min_hz", "vrr_max_hz"),
            )
        if self.lfc and not lfc_fits(low, high):
            raise SettingError(
                "lfc",
                f"needs vrr_max_hz ({decimal_text(high)}) at least twice vrr_min_hz "
                f"({decimal_text(low)}) to repeat frames within the range",
                self.lfc,
                involves=("vrr_min_hz", "vrr_max_hz"),
            )
        return self

    def settings(self) -> DisplaySettings:
        return DisplaySettings(
            refresh_hz=self.refresh_hz,
            vsync=self.vsync,
            queue_depth=self.queue_depth,
            vrr_min_hz=self.vrr_min_hz,
            vrr_max_hz=self.vrr_max_hz,
            phase=self.phase,
            lfc=self.lfc is not False,
            present_mode=self.present_mode or "queue",
        )
