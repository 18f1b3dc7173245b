"""Determinization: a full round consistent with what one seat can see.

Search bots (information-set Monte Carlo, Cowling, Powley and Whitehouse 2012) sample the hidden
cards: the other hands and the stock. :func:`sample_round` deals every card the viewer cannot see at
random, keeping what is public: the table, the discard pile, the hand sizes, the cards everybody saw a
player take from the discard pile and still hold (``PlayerView.known_cards``) and any shown hand.
The result is an ordinary :class:`~rummykit.round.Round` that can be played forward; it has no
record (its deck is not the real one).
"""

from __future__ import annotations

import random
from collections import Counter

from rummykit.cards import Card, Hand, build_deck
from rummykit.family import family_for
from rummykit.round import Round
from rummykit.views import PlayerView


def unseen_cards(view: PlayerView) -> list[Card]:
    """Cards the viewer cannot place: in other hands (beyond known ones) or in the stock."""
    rules = view.rules
    pool = Counter(build_deck(rules.num_decks, rules.jokers_total))
    pool.subtract(view.hand)
    for tm in view.melds:
        pool.subtract(tm.meld.cards)
    pool.subtract(view.discard_pile)
    for seat, shown in enumerate(view.revealed):
        if seat == view.seat:
            continue
        pool.subtract(shown if shown is not None else view.known_cards[seat])
    return sorted(pool.elements())


def sample_round(view: PlayerView, rng: random.Random) -> Round:
    """A round in the viewer's information set, hidden cards dealt at random with ``rng``.

    Raises:
        ValueError: the view is of a finished hand (nothing is hidden any more).
    """
    if view.result is not None:
        raise ValueError("the hand is over: nothing to sample")
    pool = unseen_cards(view)
    rng.shuffle(pool)
    seats = len(view.hand_sizes)
    hands = [Hand() for _ in range(seats)]
    for seat in range(seats):
        if seat == view.seat:
            hands[seat] = Hand(view.hand)
            continue
        shown = view.revealed[seat]
        fixed = list(shown if shown is not None else view.known_cards[seat])
        need = view.hand_sizes[seat] - len(fixed)
        hands[seat] = Hand(fixed + pool[:need])
        del pool[:need]
    rnd = Round.__new__(Round)
    rnd.rules = view.rules
    rnd.seats = seats
    rnd.dealer = view.dealer
    rnd.active = view.active_seats
    rnd.in_play = view.in_play
    rnd.hands = hands
    rnd.stock = pool[: view.stock_size]
    rnd.discard_pile = list(view.discard_pile)
    rnd.face_down = None
    rnd.table = list(view.melds)
    rnd.opened_turn = list(view.opened_turn)
    rnd.to_move = view.to_move
    rnd.phase = view.phase
    rnd.turn = view.turn
    rnd.taken = view.taken_discard
    rnd.pending_taken = view.must_lay
    rnd.rebuilds = view.stock_rebuilds
    rnd.knocker = view.knocker
    rnd.knock_deadwood = None
    rnd.extra_turns = list(view.extra_turns)
    rnd.known = [Hand(k) for k in view.known_cards]
    rnd.history = []
    rnd.result = None
    rnd.deck = ()
    rnd.seed = rng.randrange(2**32)
    rnd._rng = random.Random(rnd.seed)
    rnd._family = family_for(view.rules)
    return rnd
