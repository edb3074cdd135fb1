"""The NETWORK rows: rollback's books on screen, only in a session against a remote peer."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pygame
import pytest

from game.hud.hud import Hud
from game.hud.hud_colours import Meaning
from game.hud.network_rows import depth_strip, network_groups, time_sync_cell
from game.session.history import FrameHistory
from game.session.readout import MatchReadout, NetworkReadout
from tests.test_hud_stats import lane, readout

NETWORK = NetworkReadout(
    latency_ms=100.0, input_delay=0, prediction_window=8, new_ticks=1, resimulated=6, depth=6,
    depths=(6, 6, 7, 6, 12), resimulated_total=168, max_depth=7, misses=24, window_stalls=0,
    desyncs=0,
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def test_the_rows_say_the_frames_new_and_rerun_ticks_and_the_runs_totals() -> None:
    (group,) = network_groups(readout(network=NETWORK))
    said = {row.label: row.cells[0].text for row in group.rows}
    assert group.title == "NETWORK"
    assert said == {
        "latency": "100 ms · delay 0 · window 8",
        "time sync": "none",
        "new ticks": "1",
        "re-simulated": "6 (total 168)",
        "rollback depth": "6 (max 7)",
        "depth/frame": "6676+",
        "pred. misses": "24",
        "window stalls": "0",
    }


def test_the_time_sync_row_says_when_we_wait_or_stretch_in_amber() -> None:
    def said(**shown: Any) -> tuple[str, Meaning]:
        cell = time_sync_cell(dataclasses.replace(NETWORK, **shown))
        return cell.text, cell.meaning

    assert said(time_sync="wait", waiting=True, held_total=6) == (
        "wait: WAITING (6 ticks held)",
        Meaning.STRAINED,
    )
    assert said(time_sync="wait", held_total=6) == ("wait: 6 ticks held", Meaning.PLAIN)
    assert said(time_sync="stretch", stretching=True, stretched_total=41) == (
        "stretch: STRETCHING (41 frames)",
        Meaning.STRAINED,
    )
    assert said(time_sync="stretch", stretched_total=77) == (
        "stretch: 77 frames stretched",
        Meaning.PLAIN,
    )


def test_without_a_remote_peer_there_is_no_network_group() -> None:
    assert network_groups(readout()) == ()


def test_the_depth_strip_is_a_digit_a_frame_and_a_plus_past_nine() -> None:
    assert depth_strip((0, 1, 9, 10, 42)) == "019++"
    assert depth_strip(()) == ""


def test_the_hud_draws_the_rows_only_with_a_network() -> None:
    hud, surface = Hud(), pygame.Surface((1920, 1080))
    plain = readout(lanes=(lane(),))
    hud.draw(surface, plain, (FrameHistory(),))
    assert "re-simulated" not in hud.layout.rows
    hud.draw(surface, dataclasses.replace(plain, network=NETWORK), (FrameHistory(),))
    assert {"new ticks", "re-simulated", "rollback depth", "window stalls"} <= set(hud.layout.rows)


def test_against_a_real_peer_the_rows_add_what_was_measured() -> None:
    measured = MatchReadout(sent=900, lost=3, late=412, confirmed=596, ahead=Fraction(-1, 2))
    shown = dataclasses.replace(NETWORK, latency_ms=0.4, match=measured)
    (group,) = network_groups(readout(network=shown))
    said = {row.label: row.cells[0].text for row in group.rows}
    assert said["latency"] == "0.4 ms · delay 0 · window 8"
    assert (said["packets"], said["confirmed"]) == (
        "sent 900 · lost 3 · late 412",
        "tick 596 · ahead -0.5",
    )
    (plain,) = network_groups(readout(network=NETWORK))
    assert "packets" not in {row.label for row in plain.rows}  # the simulated peer's: as before
