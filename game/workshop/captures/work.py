"""How much work one `capture` command asks for, checked before it is done.

A capture has no seconds to run: its work is its frames, run open loop under each policy at each
tick rate (`MAX_CAPTURE_RUN_FRAMES`), and the headroom's closed-loop runs on its heaviest
stretch (`MAX_HEADROOM_RUN_FRAMES`). Each is checked and worded for `capture`: the headroom's
from the flags alone, before the file is read; the runs' once the file says how many frames it
keeps, before any is run.
"""

from __future__ import annotations

from game.errors import BadInput
from game.limits import MAX_CAPTURE_RUN_FRAMES, MAX_HEADROOM_RUN_FRAMES


def _times(rates: int, policies: int) -> str:
    rate_word = "tick rate" if rates == 1 else "tick rates"
    policy_word = "policy" if policies == 1 else "policies"
    return f"{rates:,} {rate_word} x {policies:,} {policy_word}"


def refuse_headroom_work(headroom_frames: int, rates: int, policies: int) -> None:
    """One line and exit 2 when the headroom's runs would take more frames than the limit."""
    frames = headroom_frames * rates * policies
    if frames > MAX_HEADROOM_RUN_FRAMES:
        raise BadInput.error(
            f"--headroom-frames {headroom_frames:,} x {_times(rates, policies)} is "
            f"{frames:,} frames for the headroom's runs to take, more than "
            f"{MAX_HEADROOM_RUN_FRAMES:,} (the limit): fewer frames, rates or policies "
            "(--headroom-frames 0 skips it)"
        )


def refuse_run_work(path: str, frames: int, rates: int, policies: int) -> None:
    """One line and exit 2 when the open-loop runs would take more frames than the limit."""
    total = frames * rates * policies
    if total > MAX_CAPTURE_RUN_FRAMES:
        raise BadInput(
            f"{path}: {frames:,} frames x {_times(rates, policies)} is {total:,} frames to run, "
            f"more than {MAX_CAPTURE_RUN_FRAMES:,} (the limit for a capture): fewer rates or "
            "policies, or a shorter capture"
        )
