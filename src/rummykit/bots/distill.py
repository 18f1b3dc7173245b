"""A learned discard for the knock games: a conditional logit over honest features of each candidate.

The search's race (:func:`~rummykit.bots.duel.race_values`) decides a Viennese discard from its own
hand's speed and a feed charge on sampled opponent hands. Duels with the opponent's *true* hand
decide far better (docs/strength.md: 85.7 % of the rounds against greedy where the race
wins 71 %), but they need about half of the opponent's hidden cards, more than any reading gives.
This module learns the true-hand duel's choice directly from what the bot may know: every candidate
discard of a decision gets a vector of **honest** features (:func:`discard_features`, the names in
:data:`FEATURES`), and a conditional logit (McFadden 1974) gives candidate ``i`` the probability
``exp(w · x_i) / Σ_j exp(w · x_j)``; the bot plays the candidate with the highest score ``w · x``.

The features of discarding card ``c`` (leaving ``rest``) in a decision of this seat:

* ``race``: the race's value of the discard (the mean over the decision's determinizations of the
  chance of getting home first, feed charge included: what the search maximises);
* ``feed``: the share of the determinizations on which ``c`` completes a meld of the next seat's
  sampled hand (:func:`~rummykit.bots.duel.completes`);
* ``points``: ``c``'s deadwood value / 10; ``deadwood``: the least deadwood of ``rest`` / 10;
  ``outs``: the cards that may still come and would make a meld of three with ``rest``
  (:func:`~rummykit.bots.race.meld_outs`) / 10;
* ``took_rank`` / ``took_suit``: ``c`` has the rank of a card the next seat took from the discard
  pile, or lies in its suit within two ranks of one (it wanted that card for a meld);
  ``passed``: ``c`` could share a meld with a top discard it left lying (same rank or suit within
  two, :func:`~rummykit.bots.greedy.linked`); ``discarded``: the same with a card it threw away;
* ``joker``, ``ace``: the card is a joker, an ace;
* ``race_best``, ``race_scaled``, ``duel_best``: where the race and the duel place the candidate
  among the decision's (:func:`model_rows`);
* interactions with the stage of the hand: ``close`` is ``1 - v/10`` for the value ``v`` of the next
  seat's last discard (greedy sheds its costliest deadwood first, so a low discard means a hand
  near knocking; 0 before its first discard) and ``late`` the turns it has played / 10:
  ``points_close``, ``deadwood_close``, ``race_late``, ``feed_late``, ``points_late``.

:data:`DISCARD_WEIGHTS` are fitted by ``benchmarks/distill.py`` (see its docstring for the data:
heads-up Viennese, ``search:hard`` against greedy, labels from the duel on the true hand).
:attr:`~rummykit.bots.ismcts.IsmctsBot.distilled` plays them (off by default; docs/strength.md
for what it is worth). Plain Python: scoring is a dot product per candidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit import solver
from rummykit.bots.duel import FeedRule, completes
from rummykit.bots.greedy import linked
from rummykit.bots.inference import TableMemory
from rummykit.bots.race import card_mask, meld_outs
from rummykit.cards import JOKER_CODE, NUM_RANKS
from rummykit.determinize import unseen_cards
from rummykit.rules import Rules
from rummykit.views import PlayerView

BASE_FEATURES: Final = (
    "race",
    "duel",
    "feed",
    "points",
    "deadwood",
    "outs",
    "took_rank",
    "took_suit",
    "passed",
    "discarded",
    "joker",
    "ace",
    "points_close",
    "deadwood_close",
    "race_late",
    "feed_late",
    "points_late",
)
"""The names of a candidate's own features, in the order of :func:`discard_features`' rows."""
FEATURES: Final = (*BASE_FEATURES, "race_best", "race_scaled", "duel_best")
"""The model's features: :data:`BASE_FEATURES` and three that place a candidate's race and duel
among the decision's (:func:`model_rows`)."""
DISTILL_DUELS: Final[dict[str, int]] = {"easy": 10, "medium": 30, "hard": 50}
"""The determinizations (the first of the decision's) the ``duel`` feature plays duels on, per level."""

DISCARD_WEIGHTS: Final[tuple[float, ...]] = (
    13.3418,  # race
    2.5342,  # duel
    0.8468,  # feed
    -1.6142,  # points
    -1.6413,  # deadwood
    0.7985,  # outs
    0.6887,  # took_rank
    -0.6514,  # took_suit
    -0.0185,  # passed
    0.0635,  # discarded
    0.0000,  # joker
    0.4510,  # ace
    1.6078,  # points_close
    -1.3248,  # deadwood_close
    0.8623,  # race_late
    -1.0135,  # feed_late
    0.7245,  # points_late
    0.0030,  # race_best
    1.1001,  # race_scaled
    -0.2417,  # duel_best
)
"""The fitted weights of :data:`FEATURES`, in points of the duels' utility: the score ``w · x``
estimates a candidate's duel value on the opponent's true hand, up to a constant per decision.

Fitted by ``python benchmarks/distill.py collect --rounds 500 --seed 50000 --out FILE`` (heads-up
Viennese, ``search:hard`` against greedy, 250 deals with seats rotated: 4,006 discard decisions
with two candidates or more and no knock allowed, labelled by duels on the opponent's true hand) and
``python benchmarks/distill.py fit FILE --l2 0.001 --tau 30`` (soft labels: the softmax of the duel
values at temperature 30). On the decisions of the 63 deals held out from a fit on the others, the
model's pick is the oracle's in 31.7 % (the race's: 28.9 %) and loses 3.62 duel points to it (the
race's: 3.96)."""


class FeedCount:
    """A feed rule for :func:`~rummykit.bots.duel.race_values` that counts, per discarded card, on how
    many determinizations the card :func:`~rummykit.bots.duel.completes` a meld of the next seat's
    hand; it answers as ``rule`` does (``None``: no charge) so the race is valued unchanged."""

    def __init__(self, rule: FeedRule | None) -> None:
        self.rule = rule
        self.fed: dict[int, int] = {}
        self.asked: dict[int, int] = {}

    def __call__(self, rules: Rules, hand: Sequence[int], card: int) -> bool:
        fed = completes(rules, hand, card)
        self.asked[card] = self.asked.get(card, 0) + 1
        self.fed[card] = self.fed.get(card, 0) + fed
        if self.rule is None:
            return False
        return fed if self.rule is completes else self.rule(rules, hand, card)

    def share(self, card: int) -> float:
        """The share of the determinizations on which ``card`` fed the next seat (0 when not asked)."""
        asked = self.asked.get(card, 0)
        return self.fed.get(card, 0) / asked if asked else 0.0


def next_seat(view: PlayerView) -> int | None:
    """The seat after this one in turn order (``None`` alone at the table)."""
    seats = list(view.active_seats)
    if len(seats) < 2:
        return None
    return seats[(seats.index(view.seat) + 1) % len(seats)]


def discard_features(
    view: PlayerView,
    memory: TableMemory,
    cards: Sequence[int],
    races: Sequence[float],
    feeds: Sequence[float],
    duels: Sequence[float],
) -> list[list[float]]:
    """One row of :data:`BASE_FEATURES` per candidate discard ``cards[i]`` from ``view.hand``, with the
    race's mean value ``races[i]``, feed share ``feeds[i]`` and mean duel utility ``duels[i]`` (see
    the module docstring)."""
    rules = view.rules
    hand = [int(c) for c in view.hand]
    opponent = next_seat(view)
    evidence = memory.of(opponent) if opponent is not None else None
    taken = evidence.taken if evidence else []
    passed = evidence.passed if evidence else []
    discarded = evidence.discarded if evidence else []
    last = discarded[-1] if discarded else None
    close = 0.0 if last is None else 1.0 - rules.card_points(last) / 10.0
    late = view.turn // max(1, len(view.active_seats)) / 10.0
    live = card_mask(int(c) for c in unseen_cards(view))
    rows: list[list[float]] = []
    for c, race, feed, duel in zip(cards, races, feeds, duels, strict=True):
        rest = list(hand)
        rest.remove(c)
        natural = c != JOKER_CODE
        points = rules.card_points(c) / 10.0
        left = solver.min_deadwood(rest, rules) / 10.0
        took_rank = natural and any(t != JOKER_CODE and t % NUM_RANKS == c % NUM_RANKS for t in taken)
        took_suit = natural and any(
            t != JOKER_CODE
            and t // NUM_RANKS == c // NUM_RANKS
            and t % NUM_RANKS != c % NUM_RANKS
            and linked(c, t)
            for t in taken
        )
        rows.append(
            [
                race,
                duel / 10.0,
                feed,
                points,
                left,
                meld_outs(rules, rest, live) / 10.0,
                float(took_rank),
                float(took_suit),
                float(natural and any(p != JOKER_CODE and linked(c, p) for p in passed)),
                float(natural and any(d != JOKER_CODE and linked(c, d) for d in discarded)),
                float(not natural),
                float(natural and c % NUM_RANKS == 0),
                points * close,
                left * close,
                race * late,
                feed * late,
                points * late,
            ]
        )
    return rows


def model_rows(rows: Sequence[Sequence[float]]) -> list[list[float]]:
    """The rows of :func:`discard_features` with the decision's relative columns added: ``race_best``
    (1 for the candidates with the decision's best race value), ``race_scaled`` (the race value
    less the best, over the spread of the decision's values: 0 for the best, -1 for the worst) and
    ``duel_best`` (1 for the candidates with the best duel utility)."""
    race, duel = BASE_FEATURES.index("race"), BASE_FEATURES.index("duel")
    values = [row[race] for row in rows]
    top = max(values, default=0.0)
    spread = top - min(values, default=0.0)
    duels = max((row[duel] for row in rows), default=0.0)
    return [
        [*row, float(v == top), (v - top) / spread if spread > 0 else 0.0, float(row[duel] == duels)]
        for row, v in zip(rows, values, strict=True)
    ]


def scores(rows: Sequence[Sequence[float]], weights: Sequence[float] = DISCARD_WEIGHTS) -> list[float]:
    """The learned score ``w · x`` of every candidate's feature row."""
    return [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]


def best(rows: Sequence[Sequence[float]], weights: Sequence[float] = DISCARD_WEIGHTS) -> int:
    """The index of the candidate with the highest learned score (ties: the earlier one)."""
    values = scores(rows, weights)
    return max(range(len(values)), key=lambda i: (values[i], -i))


__all__ = [
    "BASE_FEATURES",
    "DISCARD_WEIGHTS",
    "DISTILL_DUELS",
    "FEATURES",
    "FeedCount",
    "best",
    "discard_features",
    "model_rows",
    "next_seat",
    "scores",
]
