"""Record: the typed replays of a round record and a match record."""

from __future__ import annotations

import pytest

import rummykit as rk


def test_typed_replays_say_which_game_they_return() -> None:
    rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=3)
    record = rk.Record.from_round(rnd)
    assert record.replay_round().view(0) == rnd.view(0)
    match = rk.Match.new(rk.Rules.preset("viennese"), players=2, seed=3)
    assert rk.Record.from_match(match).replay_match().seed == 3
    with pytest.raises(rk.NotationError, match="replay_match"):
        rk.Record.from_match(match).replay_round()
    with pytest.raises(rk.NotationError, match="replay_round"):
        record.replay_match()
