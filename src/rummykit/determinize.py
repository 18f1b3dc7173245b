"""Determinization: a full round consistent with what one seat can see.

Search bots (information-set Monte Carlo, Cowling, Powley and Whitehouse 2012) sample the hidden
cards: the other hands and the stock. :func:`sample_round` deals every card the viewer cannot see at
random, keeping what is public: the table, the discard pile, the hand sizes, the cards everybody saw a
player take from the discard pile and still hold (``PlayerView.known_cards``) and any shown hand.
The result is an ordinary :class:`~rummykit.round.Round`, built from a
:class:`~rummykit.state.RoundState`, that can be played forward; it has no record (its deck is not the
real one).
"""

from __future__ import annotations

import random
from collections import Counter

from rummykit.cards import Card, Hand, build_deck
from rummykit.round import Round
from rummykit.state import RoundState
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
    return round_of(view, hands, pool, rng)


def round_of(view: PlayerView, hands: list[Hand], stock: list[Card], rng: random.Random) -> Round:
    """The round of ``view`` with every seat's hand given (``hands``, the viewer's own included) and
    the stock order (``stock``, top first, cut to the view's stock size); the public rest as the view
    shows it, and a reshuffle seed drawn from ``rng``."""
    seed = rng.randrange(2**32)
    state = RoundState(
        rules=view.rules,
        seats=len(view.hand_sizes),
        dealer=view.dealer,
        in_play=view.in_play,
        active_seats=view.active_seats,
        hands=hands,
        stock=stock[: view.stock_size],
        discard_pile=list(view.discard_pile),
        melds=list(view.melds),
        opened_turn=list(view.opened_turn),
        placed_turn=list(view.placed_turn),  # made whole with the openings by Round.from_state
        to_move=view.to_move,
        phase=view.phase,
        turn=view.turn,
        rng=random.Random(seed),
        seed=seed,
        taken_discard=view.taken_discard,
        must_lay=view.must_lay,
        stock_rebuilds=view.stock_rebuilds,
        takes_in_a_row=view.takes_in_a_row,
        knocker=view.knocker,
        extra_turns=list(view.extra_turns),
        known_cards=[Hand(k) for k in view.known_cards],
        gin=view.gin,
    )
    return Round.from_state(state)
