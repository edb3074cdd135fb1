"""Which process and swap chain of a capture are kept, and how every other row is counted.

PresentMon records every process that presents while it runs, so one file interleaves the game
with the desktop compositor, a launcher, a browser: each (process, swap chain) is its own stream
of frames, and mixing two would invent frame times nobody had. One is kept:

- `--process NAME|PID` keeps that process: all digits is a process id, anything else a name
  (`game.exe`, matched without regard to case, as Windows names are);
- `--swapchain ADDR` keeps that swap chain (`0x...`, leading zeros optional);
- of what is left, the (process, swap chain) with the most rows is kept (the first in the file on
  a tie); with neither option that choice is said to be the default (`chosen_by_default`).

Every row of another process counts as "other process", of the same process but another swap
chain as "other swap chain".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from game.errors import BadInput

ChainKey = tuple[str, str, str]
"""(Application, ProcessID, SwapChainAddress) as written in the file."""


@dataclass(slots=True)
class ChainTally:
    """One (process, swap chain)'s rows: how many, and what each became ("" is a frame)."""

    key: ChainKey
    rows: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)

    @property
    def frames(self) -> int:
        return self.outcomes.get("", 0)

    @property
    def process(self) -> str:
        """`game.exe (4712)`."""
        return f"{self.key[0]} ({self.key[1]})"


def _address(text: str) -> int | str:
    """A swap chain address as a number when it is hex, so `0x1F` matches `0x000000000000001F`."""
    try:
        return int(text, 16)
    except ValueError:
        return text.strip().lower()


def matches(key: ChainKey, process: str | None, swapchain: str | None) -> bool:
    """Whether a chain is left in the running by `--process` and `--swapchain` (None: any)."""
    if process is not None:
        wanted = process.strip()
        if wanted.isdigit() and wanted.isascii():
            if key[1].strip() != str(int(wanted)):
                return False
        elif key[0].strip().lower() != wanted.lower():
            return False
    return swapchain is None or _address(key[2]) == _address(swapchain)


def choose_chain(
    path: Path, tallies: list[ChainTally], process: str | None, swapchain: str | None
) -> ChainTally:
    """The kept chain (the module's rules); `BadInput` when none matches the options."""
    if not tallies:
        raise BadInput(f"{path}: no frames: the capture has no rows")
    candidates = [tally for tally in tallies if matches(tally.key, process, swapchain)]
    if not candidates:
        asked = " ".join(
            f"{flag} {value}"
            for flag, value in (("--process", process), ("--swapchain", swapchain))
            if value is not None
        )
        chains = sorted(tallies, key=lambda tally: -tally.rows)[:5]
        present = ", ".join(f"{t.process} swap chain {t.key[2]}" for t in chains)
        more = f" and {len(tallies) - len(chains)} more" if len(tallies) > len(chains) else ""
        raise BadInput(f"{path}: nothing matches {asked}; the capture has {present}{more}")
    return max(candidates, key=lambda tally: tally.rows)  # max keeps the first of equals


def skipped_rows(tallies: list[ChainTally], chosen: ChainTally, truncated: int) -> dict[str, int]:
    """Every row not kept, by reason: the other chains', the kept chain's own, truncated lines."""
    skipped: dict[str, int] = {}
    for tally in tallies:
        if tally is chosen:
            continue
        same_process = tally.key[:2] == chosen.key[:2]
        reason = "other swap chain" if same_process else "other process"
        skipped[reason] = skipped.get(reason, 0) + tally.rows
    for reason, count in chosen.outcomes.items():
        if reason:
            skipped[reason] = skipped.get(reason, 0) + count
    if truncated:
        skipped["truncated line"] = truncated
    return skipped


def describe_skips(skipped: dict[str, int]) -> str:
    """`not displayed 12, missing value 3`, largest first: what a "no frames" line says."""
    ordered = sorted(skipped.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{reason} {count}" for reason, count in ordered)
