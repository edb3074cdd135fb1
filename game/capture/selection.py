"""Which process and swap chain of a capture are kept, and how every other row is counted.

PresentMon records every process that presents while it runs, so one file interleaves the game
with the desktop compositor, a launcher, a browser: each (process, swap chain) is its own stream
of frames, and mixing two would invent frame times nobody had. One is kept:

- `--process NAME|PID` keeps that process: all digits is a process id, anything else a name
  (`game.exe`, matched without regard to case, as Windows names are);
- `--swapchain ADDR` keeps that swap chain (`0x...`, leading zeros optional);
- of what is left, the process with the most rows is kept, and of its swap chains the one with
  the most rows (the first in the file on a tie); with neither option that choice is said to be
  the default (`chosen_by_default`), and the report lists the other (process, swap chain) pairs
  with the most rows (`candidates`), so that a wrong guess is one flag away.

**Not the compositor.** The desktop compositor (`dwm.exe`, matched without regard to case)
presents on every refresh while anything on screen changes, so in a capture of a windowed game
it often has more rows than the game itself. The default passes it over: it is kept only when
nothing else presents (or when `--process` asks for it).

Every row of another process counts as "other process", of the same process but another swap
chain as "other swap chain".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from game.capture.frame import Candidate
from game.errors import BadInput

ChainKey = tuple[str, str, str]
"""(Application, ProcessID, SwapChainAddress) as written in the file."""
COMPOSITOR = "dwm.exe"
"""Windows' desktop compositor, passed over by the default (the module's "Not the compositor")."""
CANDIDATES = 5
"""Other (process, swap chain) pairs a default choice lists."""


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
    running = [tally for tally in tallies if matches(tally.key, process, swapchain)]
    if not running:
        asked = " ".join(
            f"{flag} {value}"
            for flag, value in (("--process", process), ("--swapchain", swapchain))
            if value is not None
        )
        chains = sorted(tallies, key=lambda tally: -tally.rows)[:5]
        present = ", ".join(f"{t.process} swap chain {t.key[2]}" for t in chains)
        more = f" and {len(tallies) - len(chains)} more" if len(tallies) > len(chains) else ""
        raise BadInput(f"{path}: nothing matches {asked}; the capture has {present}{more}")
    if process is None:
        games = [tally for tally in running if not _compositor(tally)]
        running = games or running
    processes: dict[tuple[str, str], int] = {}
    for tally in running:
        processes[tally.key[:2]] = processes.get(tally.key[:2], 0) + tally.rows
    busiest = max(processes, key=processes.__getitem__)  # max keeps the first of equals
    return max((tally for tally in running if tally.key[:2] == busiest), key=_rows)


def _rows(tally: ChainTally) -> int:
    return tally.rows


def _compositor(tally: ChainTally) -> bool:
    return tally.key[0].strip().lower() == COMPOSITOR


def candidates(tallies: list[ChainTally], chosen: ChainTally) -> tuple[Candidate, ...]:
    """Up to `CANDIDATES` other (process, swap chain) pairs, most rows first (the first in the
    file on a tie): what a default choice could have been."""
    others = sorted((tally for tally in tallies if tally is not chosen), key=lambda t: -t.rows)
    return tuple(Candidate(t.process, t.key[2], t.rows) for t in others[:CANDIDATES])


def skipped_rows(tallies: list[ChainTally], chosen: ChainTally, unplaced: int) -> dict[str, int]:
    """Every row not kept, by reason: the other chains', the kept chain's own, and the truncated
    lines that name no chain (`unplaced`)."""
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
    if unplaced:
        skipped["truncated line"] = skipped.get("truncated line", 0) + unplaced
    return skipped


def describe_skips(skipped: dict[str, int]) -> str:
    """`not displayed 12, missing value 3`, largest first: what a "no frames" line says."""
    ordered = sorted(skipped.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{reason} {count}" for reason, count in ordered)
