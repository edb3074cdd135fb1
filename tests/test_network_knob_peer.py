"""The `network` knob takes false, true (the simulated peer) or "peer": a match's real peer when
there is one, the simulated one otherwise, so a lesson step can play the room's neighbour.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from game.config.loading import load_config
from game.from_config import session_from
from game.session.controls import ControlsChange
from game.workshop.files.lessons import StepSettings
from tests.test_match_refusals import match_pair, played


@pytest.mark.parametrize("value", [False, True, "peer"])
def test_a_lesson_step_takes_off_the_simulated_peer_or_a_real_one(value: bool | str) -> None:
    assert StepSettings.model_validate({"network": value}).network == value


@pytest.mark.parametrize("value", ["yes", "Peer", 1, 0])
def test_a_lesson_step_refuses_any_other_network(value: object) -> None:
    with pytest.raises(ValidationError, match="network"):
        StepSettings.model_validate({"network": value})


def test_without_a_match_peer_plays_the_simulated_peer_as_true_does() -> None:
    for value in (True, "peer"):
        session = session_from(load_config(None, ()))
        session.change(ControlsChange(network=value))
        assert session.rollback is not None and not session.in_match
        assert session.controls.network == value
        session.change(ControlsChange(network=False))
        assert session.rollback is None


def test_in_a_match_peer_keeps_the_match_and_true_is_refused() -> None:
    host, _ = match_pair()
    matched = host.rollback
    host.change(ControlsChange(network=True))  # the simulated peer would end the match
    assert (host.controls.network, host.rollback) == (False, matched)
    host.change(ControlsChange(network="peer"))
    assert (host.controls.network, host.rollback) == ("peer", matched)
    assert host.in_match


def test_a_peer_step_in_a_match_changes_neither_world() -> None:
    untouched = played(None)
    asked = played(lambda session: session.change(ControlsChange(network="peer")))
    assert asked == untouched and asked[0] == asked[1]
