"""German legal actions are built legal by construction: every offered action must pass the full
check of :meth:`Round.check`, and the lay-off targets the engine reads from its per-table facts must
be the solver's. Random rounds that prefer table actions (openings, melds, lay-offs, joker
exchanges) over the rule variants that change what is built by construction, on both solver
backends."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit import Round, Rules, solver
from rummykit.actions import LayOff, MeldAction, Open, Swap
from rummykit.cards import Hand, parse_cards
from rummykit.errors import IllegalActionError
from rummykit.melding import _layoff_targets
from rummykit.melds import Meld
from rummykit.solver import backend
from rummykit.views import Phase, TableMeld

VARIANTS = {
    "german": {},
    "german_dskv": {},
    "scala40": {},
    "basic": {},
    "german, freed joker to hand": {"exchanged_joker_destination": "hand"},
    "german, freed joker anywhere": {"exchanged_joker_destination": "any_meld_same_turn"},
    "german, keep a card": {"going_out_requires_discard": True},
    "german, complete sets of four": {"set_joker_exchange": "complete_four_only"},
    "german, taken discard must be laid": {"discard_pickup_requires_meld": True},
}
TABLE_ACTIONS = (Open, MeldAction, LayOff, Swap)


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("backend_name", sorted(backend.available()))
def test_offered_actions_pass_the_check(name: str, backend_name: str) -> None:
    rules = Rules.preset(name.split(",")[0])
    if VARIANTS[name]:
        rules = rules.replace(**VARIANTS[name])
    players = 4 if rules.name == "german_dskv" else 3
    rng = random.Random(name)
    offered = {kind: 0 for kind in TABLE_ACTIONS}
    with backend.use(backend_name):
        for seed in range(4):
            rnd = Round.new(rules, players, seed=seed)
            while not rnd.is_over:
                legal = rnd.legal_actions()
                for action in legal:
                    assert rnd.is_legal(action), f"{name}: {action} offered but illegal"
                    offered[type(action)] = offered.get(type(action), 0) + 1
                state = rnd.state()
                if state.phase is Phase.PLAY:
                    cards = state.hands[state.to_move].cards()
                    table = [tm.meld for tm in state.melds]
                    assert _layoff_targets(cards, state) == solver.layoff_targets(cards, table, rules)
                table_actions = [a for a in legal if isinstance(a, TABLE_ACTIONS)]
                rnd.apply(rng.choice(table_actions if table_actions and rng.random() < 0.7 else legal))
    assert offered[Open] and offered[LayOff] and offered[Swap], offered  # the rounds reached the table


@pytest.mark.parametrize("keep_one", [False, True])
def test_exchange_that_lays_the_whole_hand_is_offered_only_without_a_card_to_keep(keep_one: bool) -> None:
    # 8H frees the joker of 7H JK 9H; the new meld 5S 6S JK then takes every card left: that goes
    # out, unless going_out_requires_discard keeps a card back for the discard.
    rules = Rules.preset("german").replace(going_out_requires_discard=keep_one)
    dealt = Round.new(rules, 3, seed=1).state()
    state = dataclasses.replace(
        dealt,
        hands=[Hand(parse_cards("8H 5S 6S")), *dealt.hands[1:]],
        melds=[TableMeld(Meld.parse("7H JK 9H", rules), 1)],
        opened_turn=[2, 1, None],
        to_move=0,
        phase=Phase.PLAY,
        turn=6,
    )
    rnd = Round.from_state(state)
    swaps = [str(a) for a in rnd.legal_actions() if isinstance(a, Swap)]
    assert all(rnd.is_legal(a) for a in rnd.legal_actions())
    assert ("swap 8H on 1 then meld 5S 6S JK" in swaps) is not keep_one


def test_an_action_added_to_the_offered_list_is_still_checked() -> None:
    rnd = Round.new(Rules.preset("german"), 3, seed=4)
    rnd.apply(rnd.legal_actions()[0])  # draw
    legal = rnd.legal_actions()
    stranger = LayOff(rnd.state().hands[rnd.to_move].cards()[0], 1)  # there is no table meld yet
    legal.append(stranger)
    with pytest.raises(IllegalActionError):
        rnd.apply(stranger)
