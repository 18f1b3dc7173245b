"""Melding-game tactics of the search bot: small openings, held melds, placement discards."""

from __future__ import annotations

import dataclasses
import random

import rummykit as rk
from rummykit.actions import Discard, Draw, MeldAction, Open
from rummykit.bots import SearchBot
from rummykit.bots.tactics import can_go_out, feeds_table, forms_meld, placement_scores
from rummykit.cards import parse_cards
from rummykit.melds import Meld
from rummykit.testing import arrange_deck

GERMAN = rk.Rules.preset("german")
OPENER = "KH KD KC QS QH QD 2C 3C 4C 5D 9S 7H 8D"
"""Three melds: two sets of 30 and a run of 9; no other card pairs up except 9S with the 10S drawn."""
FILLER = "3D 7D JD 4H 8H 5S 9H KS AD 6C 10C 2S JS"
"""No meld, and nothing that melds with the opener's cards."""


def cards(text: str) -> list[int]:
    return list(parse_cards(text))


def opener_round() -> rk.Round:
    """Seat 1 (forehand) holds ``OPENER`` and draws 10S."""
    deck = arrange_deck(GERMAN, 2, [FILLER, OPENER], dealer=0, upcard="6S", stock="10S")
    rnd = rk.Round.new(GERMAN, 2, deck=deck, dealer=0, seed=1)
    assert rnd.to_move == 1
    rnd.apply(Draw())
    return rnd


def choose(rnd: rk.Round) -> rk.actions.Action:
    return SearchBot().choose(rnd.view(rnd.to_move), rnd.legal_actions(), random.Random(0))


def test_search_opens_with_the_fewest_cards_that_reach_the_minimum() -> None:
    rnd = opener_round()
    best = [a for a in rnd.legal_actions() if isinstance(a, Open)]
    assert max(len(a.cards) for a in best) == 9  # greedy would show all three melds
    choice = choose(rnd)
    assert isinstance(choice, Open) and rnd.is_legal(choice)
    assert sorted(map(str, choice.cards)) == sorted(["KH", "KD", "KC", "QS", "QH", "QD"])


def test_search_holds_the_further_meld_and_discards_an_unplaceable_card() -> None:
    rnd = opener_round()
    rnd.apply(choose(rnd))
    assert any(isinstance(a, MeldAction) for a in rnd.legal_actions())  # 2C 3C 4C could go down
    choice = choose(rnd)
    assert isinstance(choice, Discard)
    assert str(choice.card) not in {"2C", "3C", "4C", "9S", "10S"}  # meld kept, 9S–10S kept together


def test_placement_scores_keep_partners_and_melds() -> None:
    rnd = opener_round()
    rnd.apply(choose(rnd))
    view = rnd.view(1)
    scores = placement_scores(view, [c for c in view.hand])
    by_face = {str(c): s for c, s in scores.items()}
    assert by_face["2C"] > by_face["10S"] > by_face["7H"]
    assert by_face["9S"] > by_face["5D"]


def test_feeds_table_once_the_next_seat_has_opened() -> None:
    rnd = opener_round()
    view_before = rnd.view(0)
    assert not feeds_table(GERMAN, cards("KS")[0], view_before)  # nobody has opened
    rnd.apply(choose(rnd))
    view = rnd.view(0)
    assert feeds_table(GERMAN, cards("KS")[0], view)  # the fourth king fits seat 1's set
    assert not feeds_table(GERMAN, cards("5S")[0], view)


def test_can_go_out_counts_melds_lay_offs_and_the_final_discard() -> None:
    assert can_go_out(GERMAN, cards("2C 3C 4C 9S"), [], False)
    assert not can_go_out(GERMAN, cards("2C 3C 4C 9S 8D"), [], False)
    table = [Meld.parse("10S JS QS", GERMAN)]
    assert can_go_out(GERMAN, cards("2C 3C 4C 9S 8D"), table, True)
    assert not can_go_out(GERMAN, cards("2C 3C 4C 9S 8D"), table, False)


def test_forms_meld_knows_sets_and_runs_with_the_ace_at_either_end() -> None:
    assert forms_meld(*cards("QH KH AH")) and forms_meld(*cards("AH 2H 3H"))
    assert not forms_meld(*cards("KH AH 2H"))  # no wrap-around
    assert forms_meld(*cards("5H 5D 5C")) and not forms_meld(*cards("5H 5H 5D"))
    assert not forms_meld(*cards("5H 6D 7H"))


def _opened_with_a_closed_set(opponent_cards: int) -> rk.views.PlayerView:
    """Seat 1 has opened (kings and queens on the table) and holds a set of four kings, which takes
    no lay-off, and five loose cards; seat 0 has opened too and holds ``opponent_cards`` cards."""
    rnd = opener_round()
    rnd.apply(choose(rnd))
    view = rnd.view(1)
    hand = tuple(parse_cards("KC KD KH KS 5D 9S 7H 8D 2S"))
    sizes = (opponent_cards, len(hand))
    return dataclasses.replace(view, hand=hand, hand_sizes=sizes, opened_turn=(1, view.opened_turn[1]))


def test_a_holding_seat_keeps_its_melds_in_the_play_out() -> None:
    """In a table play-out the bot's seat holds its further melds (laying off only loose cards)
    unless told to lay them; every other seat lays them at once."""
    from rummykit.bots.inference import sample_hidden
    from rummykit.bots.rollout import TablePlay

    view = _opened_with_a_closed_set(9)
    hands, stock = sample_hidden(view, random.Random(3))
    base = TablePlay.start(view, hands, stock)
    base.hold_seat, base.hold_until = 1, 6
    kings = set(cards("KC KD KH KS"))
    for lay in (False, True):
        play = base.copy()
        assert not play.meld_step(1, [int(c) for c in view.hand], None, lay=lay)
        held = kings <= set(play.hands[1])
        assert held is not lay
        assert len(play.table) == len(base.table) + (1 if lay else 0)
        assert len(play.hands[1]) == len(view.hand) - 1 - (4 if lay else 0)


def test_search_lays_a_meld_that_only_costs_points_when_an_opponent_is_about_to_go_out() -> None:
    """Four kings take no lay-off, so laying them gives the opponent nothing, while holding them
    costs 40 points if the opponent (one card left) goes out in its coming turn: the play-outs lay."""
    from rummykit.bots.inference import TableMemory
    from rummykit.bots.ismcts import IsmctsBot
    from rummykit.bots.search import Budget

    view = _opened_with_a_closed_set(1)
    lay = MeldAction((tuple(parse_cards("KC KD KH KS")),))
    hold = Discard(parse_cards("2S")[0])
    bot = IsmctsBot(budget=Budget(determinizations=40, horizon=4, candidates=3))
    laid, held = bot.lay_values(view, random.Random(0), TableMemory())
    assert laid > held
    assert bot.lay_or_hold(view, lay, hold, random.Random(0), TableMemory()) == lay
