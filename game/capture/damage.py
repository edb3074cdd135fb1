"""Damaged rows: how many of the kept rows a capture lost to missing, unreadable or cut cells.

A row of the kept process and swap chain skipped as a "missing value", "not a number" or
"truncated line" is *damaged* (`frame.DAMAGE`): the tool wrote a frame there and the reader
could not read it. Rows of other processes or swap chains are no damage, nor are frames never
displayed (under `--column display`) or rows whose interval is zero: those are whole rows the
rules leave out. Damage is counted against the kept chain's rows (`CaptureInfo.chain_rows`):

- more than `WARN_ABOVE` (1 %): the report's first line says so, with the count per reason;
- more than `REFUSE_ABOVE` (half): the figures would describe what is left of a file, not the
  file, so it is refused as bad input in one line naming the commonest reason, unless
  `--allow-damaged` is given.
"""

from __future__ import annotations

from fractions import Fraction

from game.capture.frame import CaptureInfo
from game.errors import BadInput

WARN_ABOVE = Fraction(1, 100)
REFUSE_ABOVE = Fraction(1, 2)


def damage_share(info: CaptureInfo) -> Fraction:
    """The damaged rows' share of the kept chain's rows (0 for a capture with no rows)."""
    rows = info.chain_rows
    return Fraction(sum(info.damaged.values()), rows) if rows else Fraction(0)


def refuse_damage(info: CaptureInfo, *, allow: bool) -> None:
    """`BadInput` (one line) when more than half the kept rows are damaged, unless `allow`."""
    if allow or damage_share(info) <= REFUSE_ABOVE:
        return
    damaged = info.damaged
    reason = max(damaged, key=lambda name: (damaged[name], name))
    raise BadInput(
        f"{info.path}: {sum(damaged.values()):,} of the {info.chain_rows:,} rows of "
        f"{info.process} are damaged (the commonest: {reason}, {damaged[reason]:,}); "
        "--allow-damaged reads the rest"
    )


def damage_line(info: CaptureInfo) -> str | None:
    """The report's warning when more than 1 % of the kept rows are damaged, else None."""
    share = damage_share(info)
    if share <= WARN_ABOVE:
        return None
    damaged = info.damaged
    reasons = ", ".join(
        f"{reason} {count:,}" for reason, count in sorted(damaged.items(), key=lambda i: -i[1])
    )
    return (
        f"damaged: {sum(damaged.values()):,} of the {info.chain_rows:,} rows of {info.process} "
        f"({float(share * 100):.1f} %: {reasons}); the figures below leave them out"
    )
