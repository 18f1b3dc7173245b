"""German legal actions are built legal by construction: every offered action must pass the full
check of :meth:`Round.check`, and the lay-off targets the engine reads from its per-table facts must
be the solver's. Random rounds that prefer table actions (openings, melds, lay-offs, joker
exchanges) over the rule variants that change what is built by construction, on both solver
backends."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit import Action, Round, Rules, solver
from rummykit.actions import LayOff, MeldAction, Open, Swap
from rummykit.cards import Hand, parse_cards
from rummykit.errors import IllegalActionError
from rummykit.melding_table import table_layoff_targets
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
                    assert table_layoff_targets(cards, state) == solver.layoff_targets(cards, table, rules)
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


@pytest.mark.parametrize("destination", ["new_meld_same_turn", "any_meld_same_turn", "hand"])
@pytest.mark.parametrize("keep_one", [False, True])
def test_no_exchange_is_offered_that_leaves_only_the_taken_discard(destination: str, keep_one: bool) -> None:
    """D15: 6H frees the joker of 5H JK 7H, and a meld of the joker with the spades would leave only
    9D, the card just taken: not offered, refused; every offered action passes the check."""
    rules = Rules.preset("german").replace(
        exchanged_joker_destination=destination, going_out_requires_discard=keep_one
    )
    dealt = Round.new(rules, 2, seed=1).state()
    spades = "2S 3S 4S 5S 6S 7S" if keep_one else "2S 3S 4S 5S 6S"
    state = dataclasses.replace(
        dealt,
        hands=[Hand(parse_cards(f"6H 9D {spades}")), dealt.hands[1]],
        melds=[TableMeld(Meld.parse("5H JK 7H", rules), 1)],
        opened_turn=[0, 1],
        to_move=0,
        phase=Phase.PLAY,
        turn=4,
        taken_discard=parse_cards("9D")[0],
        must_lay=None,
    )
    rnd = Round.from_state(state)
    legal = rnd.legal_actions()
    assert all(rnd.is_legal(a) for a in legal), [str(a) for a in legal if not rnd.is_legal(a)]
    lone = f"swap 6H on 1 then meld {spades} JK"
    assert lone not in {str(a) for a in legal}
    if destination != "hand":
        with pytest.raises(IllegalActionError, match="would leave only 9D"):
            rnd.check(Action.parse(lone))


def test_the_best_opening_that_keeps_a_card_is_offered_when_the_best_would_leave_the_taken_one() -> None:
    """The best opening lays all 13 cards but the 9D just taken, which may not be discarded (D15):
    the best opening that keeps another card is offered instead, so the player can still open."""
    from rummykit.testing import arrange_deck

    rules = Rules.preset("german")
    hand = "2C 3C 4C 5H 5S 5D 6S 6H 6D 7C 8C 9C 10C"
    deck = arrange_deck(rules, 2, ["AS 2S 3S 4S 7S 8S 9S JS QS KS 7D 8D JD", hand], upcard="9D")
    rnd = Round.new(rules, 2, deck=deck)
    rnd.apply("take")
    openings = [a for a in rnd.legal_actions() if isinstance(a, Open)]
    assert openings and all(rnd.is_legal(a) for a in openings)
    best = max(openings, key=lambda a: sum(len(m) for m in a.melds))
    assert sum(len(m) for m in best.melds) == 12  # every card but one of the others and the 9D
    rnd.apply(best)
    assert len(rnd.view(1).hand) == 2 and parse_cards("9D")[0] in rnd.view(1).hand
