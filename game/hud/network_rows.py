"""The NETWORK rows of the stats panel: rollback's books, frame by frame, against a remote peer.

Shown only in a session with a remote peer (`;`, or a lesson step). A frame's work is its new
ticks plus its re-simulated ones, each a whole step of CPU: the rows put the two side by side,
then how deep the frame rolled back, a strip of that depth over the last frames (one digit a
frame, the newest last: a steady 6 is a steady latency; climbing digits are the rollback
spiral), the run's prediction misses and window stalls, and what our own time sync is doing
(waiting: the picture stands still; stretching: it moves 10% slower). `panel` appends this
group after DISPLAY.
"""

from __future__ import annotations

from game.hud.hud_colours import Meaning
from game.hud.rows import DETAIL, IMPORTANT, USEFUL, Cell, Group, Row
from game.session.readout import NetworkReadout, Readout


def network_groups(readout: Readout) -> tuple[Group, ...]:
    """The NETWORK group, or nothing without a remote peer."""
    shown = readout.network
    if shown is None:
        return ()
    link = f"{shown.latency_ms:g} ms · delay {shown.input_delay} · window {shown.prediction_window}"
    rows = (
        Row("latency", (Cell(link),), USEFUL),
        Row("time sync", (time_sync_cell(shown),), USEFUL),
        Row("new ticks", (Cell(str(shown.new_ticks)),), IMPORTANT),
        Row("re-simulated", (_resimulated(shown),), IMPORTANT),
        Row("rollback depth", (Cell(f"{shown.depth} (max {shown.max_depth})"),), IMPORTANT),
        Row("depth/frame", (Cell(depth_strip(shown.depths) or "-"),), USEFUL),
        Row("pred. misses", (Cell(str(shown.misses)),), DETAIL),
        Row("window stalls", (_stalls(shown),), USEFUL),
        *_match_rows(shown),
    )
    return (Group("NETWORK", rows),)


def _match_rows(shown: NetworkReadout) -> tuple[Row, ...]:
    """Against a real peer, what was measured: the datagrams, and where the peer stands."""
    match = shown.match
    if match is None:
        return ()
    packets = f"sent {match.sent} · lost {match.lost} · late {match.late}"
    ahead = "" if match.ahead is None else f" · ahead {float(match.ahead):+.1f}"
    return (
        Row("packets", (Cell(packets),), USEFUL),
        Row("confirmed", (Cell(f"tick {match.confirmed}{ahead}"),), USEFUL),
    )


def depth_strip(depths: tuple[int, ...]) -> str:
    """One character a frame: its rollback depth, 0 to 9, and `+` for ten ticks or more."""
    return "".join(str(depth) if depth < 10 else "+" for depth in depths)


def _resimulated(shown: NetworkReadout) -> Cell:
    """The last frame's re-run ticks, and the run's: amber while a frame re-runs more ticks
    than it runs new ones (most of its work is the past)."""
    text = f"{shown.resimulated} (total {shown.resimulated_total})"
    heavy = shown.resimulated > max(1, shown.new_ticks)
    return Cell(text, Meaning.STRAINED if heavy else Meaning.PLAIN)


def _stalls(shown: NetworkReadout) -> Cell:
    return Cell(str(shown.window_stalls), Meaning.STRAINED if shown.window_stalls else Meaning.OK)


def time_sync_cell(shown: NetworkReadout) -> Cell:
    """Our time sync, amber while it acts: WAITING (ticks held back, the picture stands still)
    or STRETCHING (ticks 11/10 long, the motion 10% slower), with what it has done so far."""
    if shown.time_sync == "wait":
        held = f"{shown.held_total} ticks held"
        if shown.waiting:
            return Cell(f"wait: WAITING ({held})", Meaning.STRAINED)
        return Cell(f"wait: {held}")
    if shown.time_sync == "stretch":
        frames = f"{shown.stretched_total} frames"
        if shown.stretching:
            return Cell(f"stretch: STRETCHING ({frames})", Meaning.STRAINED)
        return Cell(f"stretch: {frames} stretched")
    return Cell(shown.time_sync)
