"""What a seat's view shows is what that player may know: nothing of the cards it cannot see.

A differential check: the cards hidden from a seat (the other hands, less the cards everybody knows
they hold, and the stock) are dealt again at random, and the seat's view, its ``repr`` and its pickle
must not change. A view that read a hidden card anywhere (a field, a nested meld, the text a bot
might print) would differ on some of these positions.
"""

from __future__ import annotations

import pickle
import random

import pytest

import rummykit as rk
from rummykit.cards import Hand
from rummykit.rules import PRESET_NAMES

MOVES = 120
"""Moves per game checked (random play in a knock game rarely ends a hand)."""


def _hidden_dealt_again(rnd: rk.Round, seat: int, rng: random.Random) -> rk.Round:
    """``rnd`` with every card ``seat`` cannot see shuffled among the places it cannot see."""
    state = rnd.state()
    pool: list[rk.Card] = list(state.stock)
    kept: dict[int, tuple[list[rk.Card], int]] = {}
    for other in range(state.seats):
        if other == seat:
            continue
        known = list(state.known_cards[other]) if state.known_cards else []
        unknown = list(state.hands[other].without(known))
        kept[other] = (known, len(unknown))
        pool += unknown
    rng.shuffle(pool)
    for other, (known, count) in kept.items():
        state.hands[other] = Hand(known + pool[:count])
        pool = pool[count:]
    state.stock = pool
    state.deck = ()
    return rk.Round.from_state(state)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_view_shows_nothing_of_the_hidden_cards(preset: str) -> None:
    """Until a hand is shown (a knock, the end), every seat's view is the same whatever the hidden
    cards are, in every field, in its ``repr`` and in its pickle, and so are the actions offered to
    the seat to move."""
    rules = rk.Rules.preset(preset)
    rng = random.Random(preset)
    compared = 0
    for players in sorted({rules.min_players, min(4, rules.max_players)}):
        for game in range(3):
            rnd = rk.Round.new(rules, players, seed=game)
            for _ in range(MOVES):
                if rnd.is_over or rnd.view(0).knocker is not None:
                    break
                for seat in range(players):
                    dealt_again = _hidden_dealt_again(rnd, seat, rng)
                    view, other = rnd.view(seat), dealt_again.view(seat)
                    assert view == other and repr(view) == repr(other), (preset, players, game, seat)
                    assert pickle.dumps(view) == pickle.dumps(other)
                    if seat == rnd.to_move:  # what a bot is offered tells nothing hidden either
                        assert rnd.legal_actions() == dealt_again.legal_actions()
                    compared += 1
                rnd.apply(rng.choice(rnd.legal_actions()))
    assert compared > 100
