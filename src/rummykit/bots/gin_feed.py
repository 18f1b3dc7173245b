"""Feeding in Gin Rummy: the chance that the opponent can use a discard (RULES.md §5.4).

Heads-up gin is a race to the knock, and the card a player discards is the only card the opponent
may take instead of a blind stock draw. A discard that completes a meld in the opponent's hand gives
it a free step of its race, so the search bot (:mod:`.gin_search`) charges every candidate discard
with :func:`feed_chances`: the chance that the card forms a meld with the opponent's hidden hand.

The opponent's hand is sampled from what this seat cannot see (:func:`hidden_hands`): the cards it
is known to hold (discards it took and still holds) and random unseen cards for the rest. Every card
in the discard pile is one the opponent did not keep (it discarded it, or drew from the stock while
it lay on top), so a sample in which a pile card would form a meld is less likely: its weight is
multiplied by :data:`PILE_LIKELIHOOD` for each such pile card. A card forms a meld with a hand when
two cards of the hand make a set (same rank) or a run (same suit, consecutive ranks, ace low) with it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from rummykit.cards import NUM_RANKS
from rummykit.determinize import unseen_cards
from rummykit.gin_melds import mask_of
from rummykit.views import PlayerView

PILE_LIKELIHOOD: Final = 0.35
"""Weight factor of a sampled opponent hand for each discard-pile card it would have melded."""
SAMPLES: Final = 48
"""Sampled opponent hands per decision."""


def _partners(card: int) -> tuple[int, ...]:
    """Bit masks of the card pairs that make a three-card meld with ``card``."""
    suit, rank = divmod(card, NUM_RANKS)
    others = [s * NUM_RANKS + rank for s in range(4) if s != suit]
    pairs = [1 << a | 1 << b for i, a in enumerate(others) for b in others[i + 1 :]]
    for ranks in ((rank - 2, rank - 1), (rank - 1, rank + 1), (rank + 1, rank + 2)):
        if all(0 <= r < NUM_RANKS for r in ranks):
            pairs.append(mask_of(suit * NUM_RANKS + r for r in ranks))
    return tuple(pairs)


PARTNERS: Final = tuple(_partners(c) for c in range(4 * NUM_RANKS))
"""Per card code, the masks of the card pairs that complete a three-card meld with it."""


def melds_with(card: int, hand: int) -> bool:
    """Whether ``card`` forms a set or a run with two cards of ``hand`` (a bit mask)."""
    return any(hand & pair == pair for pair in PARTNERS[card])


def hidden_hands(view: PlayerView, rng: random.Random, samples: int = SAMPLES) -> list[tuple[int, float]]:
    """Sampled hands of the opponent (bit masks) with their weights (see the module docstring)."""
    opponent = 1 - view.seat
    known = mask_of(view.known_cards[opponent]) if view.known_cards else 0
    size = view.hand_sizes[opponent] - bin(known).count("1")
    pool: list[int] = list(unseen_cards(view))
    pile = list(view.discard_pile)
    hands: list[tuple[int, float]] = []
    for _ in range(samples):
        hand = known | mask_of(rng.sample(pool, min(size, len(pool))) if size > 0 else ())
        weight = 1.0
        for card in pile:
            if melds_with(card, hand):
                weight *= PILE_LIKELIHOOD
        hands.append((hand, weight))
    return hands


def feed_chances(cards: Sequence[int], hands: Sequence[tuple[int, float]]) -> list[float]:
    """For each of ``cards``, the weighted share of the sampled opponent ``hands`` it melds with."""
    total = sum(w for _, w in hands)
    if total <= 0:
        return [0.0 for _ in cards]
    return [sum(w for hand, w in hands if melds_with(card, hand)) / total for card in cards]

