"""Table play-outs of the melding games (:class:`rummykit.bots.rollout.TablePlay`): arranged hands
whose turn must be played as the greedy bot plays it (its discard, its joker exchanges) when the
play-out is told to (``greedy``), and the stock drawn as one pile when it is known."""

from __future__ import annotations

import dataclasses

import rummykit as rk
from rummykit.bots.greedy import best_discard, cheapest_shed
from rummykit.bots.rollout import TablePlay
from rummykit.cards import JOKER_CODE, parse_cards
from rummykit.melds import Meld

GERMAN = rk.Rules.preset("german")


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def table_play(
    rules: rk.Rules, hand: str, table: list[str], opened: bool, draw: str, greedy: bool = True
) -> TablePlay:
    """Seat 0 to play holding ``hand`` (opened or not) and drawing ``draw``; seat 1 opened with
    loose cards; ``table`` the melds on the table; every seat playing greedy's moves or not."""
    return TablePlay(
        rules=rules,
        seats=[0, 1],
        hands={0: cards(hand), 1: cards("2C 9D 4S 6H QC")},
        stock={0: cards(draw), 1: cards("3S 3H 3D")},
        pile=cards("KS"),
        opened={0: opened, 1: True},
        table=[Meld.from_cards(parse_cards(m), rules) for m in table],
        deadwood={0: None, 1: None},
        greedy=greedy,
    )


def test_play_out_exchanges_a_table_joker_that_completes_a_new_meld() -> None:
    """The 8H replaces the joker of 7H JK 9H; the freed joker melds with 5S 5D at once (German lays
    it in a new meld the same turn), as greedy's joker exchange does."""
    play = table_play(GERMAN, "8H 5S 5D KC 2D", ["7H JK 9H", "AS AD AC"], True, "4C")
    assert play.meld_turn(0, take=False) is None
    assert sorted(play.table[0].cards) == sorted(cards("7H 8H 9H"))
    assert any(sorted(m.cards) == sorted(cards("5S 5D JK")) for m in play.table[2:])
    assert sorted(play.hands[0]) == sorted(cards("2D 4C"))  # KC shed


def test_play_out_keeps_a_natural_when_the_freed_joker_would_not_meld() -> None:
    """Nothing in hand melds with a freed joker: no exchange (it would have to be laid this turn)."""
    play = table_play(GERMAN, "8H 5S 10D KC 2D", ["7H JK 9H", "AS AD AC"], True, "4C")
    assert play.meld_turn(0, take=False) is None
    assert JOKER_CODE in play.table[0].cards
    assert JOKER_CODE not in play.hands[0]


def test_play_out_exchange_needs_the_option_and_an_earlier_opening() -> None:
    """Without ``joker_exchange``, before the seat has opened, or in the default play-out (which
    makes no exchange), the joker stays on the table."""
    no_exchange = dataclasses.replace(GERMAN, joker_exchange=False)
    for r, opened, greedy in ((no_exchange, True, True), (GERMAN, False, True), (GERMAN, True, False)):
        play = table_play(r, "8H 5S 5D KC 2D", ["7H JK 9H", "AS AD AC"], opened, "4C", greedy)
        play.meld_turn(0, take=False)
        assert JOKER_CODE in play.table[0].cards


def test_play_out_discards_as_greedy_before_opening() -> None:
    """A closed hand sheds greedy's discard (which keeps cards that link into melds), not merely the
    card that leaves the least deadwood, as the default play-out does."""
    hand = "KH QH 9C 4D 2S 7C 5S"
    after = [*cards(hand), *cards("JD")]
    greedy = best_discard(after, GERMAN, sorted(set(after)))
    cheapest = cheapest_shed(GERMAN, after)
    assert greedy != cheapest
    for mimic, shed in ((True, greedy), (False, cheapest)):
        play = table_play(GERMAN, hand, ["AS AD AC"], False, "JD", mimic)
        play.meld_turn(0, take=False)
        assert play.pile[-1] == shed


def test_a_known_stock_is_drawn_as_one_pile_whoever_draws() -> None:
    """With ``one_pile`` the seat after a seat that took the discard draws the next stock card (the
    real order), in every copy of the play-out; without it each seat has its own sequence."""
    rnd = rk.Round.new(GERMAN, 2, seed=5)
    me = rnd.to_move
    other = 1 - me
    view = rnd.view(me)
    assert view.discard_pile
    stock = [int(c) for c in reversed(rnd.stock)]  # the next card drawn first
    hands = {other: [int(c) for c in rnd.hands[other]]}
    for one_pile in (True, False):
        play = TablePlay.start(view, hands, stock, one_pile).copy()
        assert (play.stock[me] is play.stock[other]) is one_pile
        play.meld_turn(me, take=True)
        assert play.stock[other][-1] == (stock[0] if one_pile else stock[1])
        play.meld_turn(other, take=False)
        assert play.stock[me][-1] == (stock[1] if one_pile else stock[0])
