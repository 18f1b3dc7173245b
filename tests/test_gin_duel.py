"""Gin duel play-outs: this seat against the simple-bot rule, on arranged hands and stocks."""

from __future__ import annotations

import random

import pytest

from rummykit.actions import Action, Discard
from rummykit.bots import Budget, GinSearchBot
from rummykit.bots.gin_duel import (
    DRAWN,
    DUEL_TURNS,
    OpponentSample,
    duel_values,
    gin_duel,
    gin_duels,
    last_opponent_discard,
    opponent_discard,
    opponent_takes,
    own_discard,
    sampled_opponents,
)
from rummykit.bots.race import knock_home
from rummykit.cards import parse_cards
from rummykit.determinize import unseen_cards
from rummykit.gin_melds import openspiel_card
from rummykit.interop.openspiel_gin import round_from_deal
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.solver import backend
from rummykit.views import PlayerView

GIN = Rules.preset("gin")


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def card(text: str) -> int:
    return cards(text)[0]


def test_the_opponent_takes_a_card_that_melds_or_knocks_and_nothing_else() -> None:
    hand = cards("5H 6H 9C 9D KS QS JD 2C 3D 4S")
    assert opponent_takes(GIN, hand, card("7H"))  # 5H 6H 7H
    assert opponent_takes(GIN, hand, card("9S"))  # a set of nines
    assert not opponent_takes(GIN, hand, card("KD"))  # a pair of kings is no meld
    assert not opponent_takes(GIN, hand, card("AC"))  # lower deadwood, but no meld and no knock
    low = cards("AH 2H 3H 4C 5C 6C 9S 9D 2S 3D")  # deadwood 23: an ace of clubs melds nothing...
    assert opponent_takes(GIN, low, card("9C"))  # ...a third nine leaves 5: a knock


def test_the_opponent_throws_its_highest_ranked_deadwood() -> None:
    # Deadwood KD, 10D, 7C, 8S, 5C: KD and 10D leave the least (ten points each); the king ranks higher.
    hand = cards("KD 9H 9S 9C 2H 3H 4H 7C 8S 10D 5C")
    assert opponent_discard(GIN, hand, None) == card("KD")
    assert opponent_discard(GIN, hand, card("KD")) == card("10D")  # the card just taken stays
    # This seat sheds the best discard worth most, ties to the higher code (the king).
    assert own_discard(GIN, hand, None) == card("KD")
    assert own_discard(GIN, hand, card("KD")) == card("10D")
    assert knock_home(GIN, cards("AH 2H 3H 4C 5C 6C 9S 9D 9C 2S KD"))  # 2 deadwood after throwing KD
    assert not knock_home(GIN, hand)


def test_the_opponents_predictable_discard_is_an_out() -> None:
    # The opponent draws 5C, melds nothing and throws its highest-ranked deadwood, KD: this seat holds
    # KH KC, takes it and knocks with AC 2C left (3). Without the king pair it draws 6S and does not.
    theirs = cards("KD 9H 9S 9C 2H 3H 4H 7C 8S 10D")
    stock = cards("5C 6S JH")
    assert gin_duel(GIN, cards("KH KC 2S 3S 4S 5D 6D 7D AC 2C"), card("QS"), theirs, stock) == 1.0
    assert gin_duel(GIN, cards("KH 8C 2S 3S 4S 5D 6D 7D AC 2C"), card("QS"), theirs, stock) == DRAWN


def test_a_discard_that_lets_the_opponent_knock_loses_the_duel() -> None:
    # Nines and a run: a third nine leaves KD QS, it throws KD and knocks with 10.
    theirs = cards("9H 9S 2H 3H 4H 5C 6C 7C KD QS")
    ours = cards("KH KC 2S 3S 4S 5D 6D 7D AC 10C")
    stock = cards("8H JC 2C QH")
    assert gin_duel(GIN, ours, card("9C"), theirs, stock) == 0.0
    # JD melds nothing there: it draws 8H and throws KD, which sets this seat's kings (a knock with 1).
    assert gin_duel(GIN, ours, card("JD"), theirs, stock) == 1.0
    # Drawing first from the stock: KD comes at once.
    assert gin_duel(GIN, ours, None, theirs, cards("KD 8H")) == 1.0


def test_a_duel_without_stock_or_past_its_turns_is_drawn() -> None:
    theirs = cards("9H 9S 2H 3H 4H 5C 6C 7C KD QS")
    ours = cards("KH KC 2S 3S 4S 5D 6D 7D AC 10C")
    assert gin_duel(GIN, ours, card("JD"), theirs, []) == DRAWN
    assert gin_duel(GIN, ours, None, theirs, []) == DRAWN
    assert DUEL_TURNS > 0


def random_duels(seed: int) -> tuple[list[tuple[list[int], int | None]], list[list[int]], list[list[int]]]:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    ours, up = deck[:11], deck[11]
    hands: list[tuple[list[int], int | None]] = [
        (ours[:10], ours[10]),
        (ours[1:], ours[0]),
        (ours[:10], None),
    ]
    opponents, stocks = [], []
    rest = deck[12:]
    for _ in range(20):
        rng.shuffle(rest)
        opponents.append(rest[:10])
        stocks.append(rest[10 : 10 + rng.randrange(0, 30)])
    del up
    return hands, opponents, stocks


@pytest.mark.skipif(backend.native is None, reason="the compiled solver is not built")
@pytest.mark.parametrize("seed", range(6))
def test_compiled_duels_are_the_python_duels(seed: int) -> None:
    hands, opponents, stocks = random_duels(seed)
    with backend.use("python"):
        expected = gin_duels(GIN, hands, opponents, stocks)
    assert expected == [
        [gin_duel(GIN, h, up, o, s) for h, up in hands] for o, s in zip(opponents, stocks, strict=True)
    ]
    with backend.use("native"):
        assert gin_duels(GIN, hands, opponents, stocks) == expected  # 20 samples: two threads


def test_duels_need_a_stock_per_opponent() -> None:
    with pytest.raises(ValueError, match="one stock per opponent"):
        gin_duels(GIN, [(cards("KH KC 2S 3S 4S 5D 6D 7D AC 10C"), None)], [cards("9H 9S 2H")], [])


def deal(hand0: str, hand1: str, upcard: str, stock: str = "") -> Round:
    """A gin round (seat 0 acts first) dealt with these cards; the stock starts with ``stock``."""
    order = [*parse_cards(hand0), *parse_cards(hand1), *parse_cards(upcard), *parse_cards(stock)]
    return round_from_deal([openspiel_card(c) for c in order], GIN)


def play(rnd: Round, *actions: str) -> Round:
    for text in actions:
        rnd.apply(Action.parse(text))
    return rnd


def test_sampled_opponents_fit_what_this_seat_has_seen() -> None:
    # Seat 1 has drawn 5C and thrown KH: the sampled hands would have thrown it too (with it back in,
    # a king is their highest-ranked deadwood), never could have knocked, and leave a stock up to the wall.
    rnd = deal("AH 2H 3H 4H 5S 6S 7S 2C 3D KS", "KH KC 9C 10C 8D 4C 5D 6D 9S 10S", "JC", "QD 5C")
    play(rnd, "pass", "pass", "draw", "discard KS", "draw", "discard KH")
    view = rnd.view(0)
    assert last_opponent_discard(view) == card("KH")
    assert last_opponent_discard(rnd.view(1)) is None  # not this seat's turn
    samples = sampled_opponents(view, random.Random(4), 40)
    assert len(samples) == 40
    unseen = {int(c) for c in unseen_cards(view)}
    consistent = 0
    for theirs, stock, weight in samples:
        assert len(theirs) == 10 and set(theirs) <= unseen and not set(theirs) & set(stock)
        assert set(stock) <= unseen and len(stock) == view.stock_size - GIN.wall_stock_size
        assert 0 < weight <= 1
        before = [*theirs, card("KH")]
        consistent += not knock_home(GIN, before) and opponent_discard(GIN, before, None) == card("KH")
    assert consistent >= 36  # up to the tries per sample, every hand would have thrown KH


def test_search_discards_by_duels_against_the_given_opponent() -> None:
    # KS and QD are dead for this seat alike; an opponent holding two kings takes KS and knocks,
    # one holding two queens takes QD and knocks. The duel keeps the card that opponent wants.
    rnd = deal("AH 2H 3H 4H 5S 6S 7S 2C 3D KS", "KH KC 9C 10C 8D 4C 5D 6D 9S 10S", "JC", "QD")
    play(rnd, "pass", "pass", "draw")
    view = rnd.view(0)
    stock = cards("8D AC 9H 9D")  # the opponent draws 8D; this seat's AC then allows a knock
    for held, thrown in (("KH KC", "QD"), ("QH QC", "KS")):
        theirs = [*cards(held), *cards("8C 9C 10C 4D 5D 6D 2S 3S")]

        def fixed(
            v: PlayerView, rng: random.Random, n: int, theirs: list[int] = theirs
        ) -> list[OpponentSample]:
            return [(theirs, stock, 1.0)]

        kept = cards("AH 2H 3H 4H 5S 6S 7S 2C 3D QD")
        values = duel_values(GIN, [(kept, card("KS"))], fixed(view, random.Random(0), 1))
        assert values == [0.0 if held == "KH KC" else 1.0]
        bot = GinSearchBot(budget=Budget(determinizations=1, horizon=2, candidates=2), opponents=fixed)
        assert bot.choose(view, rnd.legal_actions(), random.Random(0)) == Discard(parse_cards(thrown)[0])
