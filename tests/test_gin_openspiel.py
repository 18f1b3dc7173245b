"""rummykit's ``gin`` preset against OpenSpiel's ``gin_rummy``, move for move (skipped without pyspiel).

The default run plays 2,000 OpenSpiel-led and 500 rummykit-led games; ``RUMMYKIT_GIN_GAMES=10000`` (and
``RUMMYKIT_GIN_REVERSE=2000``) or ``python tests/gin_openspiel_diff.py`` plays the full count.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from rummykit.interop.openspiel_gin import (
    legal_action_ids,
    openspiel_params,
    round_from_history,
    rules_from_params,
    to_action,
)
from rummykit.rules import Rules

pyspiel = pytest.importorskip("pyspiel")
sys.path.insert(0, str(Path(__file__).parent))
import gin_openspiel_diff as diff  # noqa: E402

GAMES = int(os.environ.get("RUMMYKIT_GIN_GAMES", "2000"))
REVERSE = int(os.environ.get("RUMMYKIT_GIN_REVERSE", "500"))


@pytest.mark.parametrize("part", range(4))
def test_openspiel_games_play_move_for_move_in_rummykit(part: int) -> None:
    rules = Rules.preset("gin")
    tally = diff.Tally()
    for seed in range(part, GAMES, 4):
        tally.add(diff.openspiel_leads(pyspiel, seed, rules, check_history=seed % 25 == 0))
    assert tally.differences == []
    assert tally.games == len(range(part, GAMES, 4)) and tally.decisions > 40 * tally.games
    assert tally.endings["knock"] > 0 and tally.endings["wall"] > 0


def test_rummykit_games_replay_move_for_move_in_openspiel() -> None:
    rules = Rules.preset("gin")
    tally = diff.Tally()
    for seed in range(REVERSE):
        tally.add(diff.rummykit_leads(pyspiel, seed, rules))
    assert tally.differences == []
    assert tally.endings["knock"] + tally.endings["gin"] > 0


PARAMS = [{"oklahoma": True}, {"knock_card": 5, "gin_bonus": 20, "undercut_bonus": 10}]


@pytest.mark.parametrize("params", PARAMS)
def test_parameters_play_alike(params: dict[str, object]) -> None:
    rules = rules_from_params(params)
    assert openspiel_params(rules) == {**openspiel_params(Rules.preset("gin")), **params}
    tally = diff.Tally()
    for seed in range(60):
        tally.add(diff.openspiel_leads(pyspiel, seed, rules))
        tally.add(diff.rummykit_leads(pyspiel, seed, rules))
    assert tally.differences == []


def test_a_round_rebuilt_from_an_openspiel_history_offers_the_same_moves() -> None:
    game = pyspiel.load_game("gin_rummy")
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        rnd = round_from_history(state.history())
        assert legal_action_ids(rnd) == sorted(state.legal_actions())
        assert rnd.to_move == state.current_player()
        action = rng.choice(state.legal_actions())
        assert str(to_action(action, rnd)) in {str(a) for a in rnd.legal_actions()}
        state.apply_action(action)
