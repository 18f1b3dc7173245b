"""A learned gin discard: honest features of each candidate scored by a fitted linear model.

Heads-up gin against a rule bot is a race to the knock (:mod:`.gin_search`), and what decides a
discard beyond the own race is whether the opponent takes the card and knocks. Reading the opponent's
hand card by card (:mod:`.gin_feed`, :mod:`.gin_particles`) holds only about a third of it, so this
module learns the decision instead: a teacher that sees the opponent's true hand (the search's duels
on it, ``benchmarks/vs_openspiel.py``'s ``+peek``) labels the discard decisions of the race, and a
conditional logit (a softmax over the candidates of one decision, linear in their features) is fitted
to its choices (``benchmarks/gin_distill.py``).

The features of a candidate discard (:data:`FEATURES`, :func:`discard_features`) use only what the seat
can see:

* ``race``, ``feed``: the race's chance of knocking first after the discard and the chance that the
  opponent can meld the card (:func:`~.gin_feed.feed_chances`), as :class:`~.gin_search.GinSearchBot`
  computes them; ``knock``: the share of hands drawn from the particle filter
  (:class:`~.gin_particles.ParticleReader`) that would take the card and knock at once;
* ``value``: the card's deadwood value / 10; ``rank_order``: its place in the greedy ranking / 10;
* ``taken_set``, ``taken_run``: the card has the rank of, or is within two ranks in the suit of, a
  card the opponent is known to hold (it took it from the pile); ``passed_*``: the same for upcards it
  passed on; ``thrown_*``: for cards it discarded;
* ``above_last``: the card ranks above the opponent's last discard (the simple bot throws its
  highest-ranked deadwood card, so its deadwood then held nothing higher);
* ``low_last_*``: ``feed``, ``race`` and ``knock`` times how low the opponent's last discard was
  ((10 − its value) / 10: after a low discard its deadwood is small);
* ``late_*``: ``race`` and ``feed`` times the share of the stock already drawn;
* ``duel``, ``pf_duel``: the mean duel against the simple bot's rule (:mod:`.gin_duel`) on opponent
  hands read from the view (:func:`~.gin_duel.sampled_opponents`) and on hands drawn from the
  particles (the ``+duel`` and ``+pf`` bots' values; the former where the particles have none).

The score of a candidate is the dot product of its features with :data:`DISCARD_WEIGHTS`; the
distilled discard is the candidate with the highest score (:func:`distilled_choice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.bots.gin_particles import GinHistory
from rummykit.cards import NUM_RANKS
from rummykit.views import PlayerView

FEATURES: Final = (
    "race",
    "feed",
    "knock",
    "value",
    "rank_order",
    "taken_set",
    "taken_run",
    "passed_set",
    "passed_run",
    "thrown_set",
    "thrown_run",
    "above_last",
    "low_last_feed",
    "low_last_race",
    "low_last_knock",
    "late_race",
    "late_feed",
    "duel",
    "pf_duel",
)
"""The names of a candidate's features, in the order of :func:`discard_features` (module docstring)."""

INITIAL_STOCK: Final = 31
"""Gin's stock after the deal (52 cards less two hands of ten and the first upcard)."""

DISCARD_WEIGHTS: Final[tuple[float, ...]] = (
    48.7575, 2.8620, 3.4511, -7.0158, -5.9840, 3.8122, -3.7702, 1.4133, 0.4938, 0.9808,
    -0.8579, 6.1425, -50.9517, -5.5152, 10.9593, 8.6273, -21.4638, 25.3725, 34.5228,
)  # fmt: skip
"""The coefficients of :data:`FEATURES`, fitted by ``benchmarks/gin_distill.py`` to the teacher's mean
value of the softmax's choices (``--objective value --l2 3e-3``): 2,000 games of ``search:hard`` against
OpenSpiel's simple bot on seed 100 (``collect --games 2000 --seed 100``), 10,611 discard decisions; the
8,452 with a teacher's preference of the deals not a multiple of 5 fitted, the 2,117 of the others held
out. Held out, the model's choice is one of the teacher's best in 36.8 % of the decisions (the race's
29.1 %) and worth +0.013 ± 0.004 of the teacher's duel value more than the race's."""


@dataclass(frozen=True, slots=True)
class Reading:
    """What the seat has seen the opponent do this hand: the cards it is known to hold (taken from
    the pile), the upcards it passed on, its discards in order."""

    taken: frozenset[int] = frozenset()
    passed: frozenset[int] = frozenset()
    thrown: tuple[int, ...] = ()

    @property
    def last_thrown(self) -> int | None:
        return self.thrown[-1] if self.thrown else None


def read_history(view: PlayerView, history: GinHistory | None) -> Reading:
    """The :class:`Reading` of ``view``: known cards from the view, passes and discards from the
    opponent's turns in ``history`` (none when it is missing or could not be read)."""
    opponent = 1 - view.seat
    taken = frozenset(int(c) for c in view.known_cards[opponent]) if view.known_cards else frozenset()
    if history is None or history.broken:
        return Reading(taken)
    passed = {t.top for t in history.turns if t.top is not None and not t.took}
    thrown = tuple(t.discard for t in history.turns if t.discard is not None)
    return Reading(taken, frozenset(passed) - taken, thrown)


def _near(card: int, cards: frozenset[int] | tuple[int, ...]) -> tuple[float, float]:
    """Whether ``card`` has the rank of one of ``cards`` (other suit), and whether it is within two
    ranks of one of them in its suit."""
    suit, rank = divmod(card, NUM_RANKS)
    same = run = False
    for other in cards:
        s, r = divmod(other, NUM_RANKS)
        if other == card:
            continue
        same = same or r == rank
        run = run or (s == suit and abs(r - rank) <= 2)
    return float(same), float(run)


def discard_features(
    view: PlayerView,
    picked: Sequence[int],
    races: Sequence[float],
    feeds: Sequence[float],
    knocks: Sequence[float],
    reading: Reading,
    duels: Sequence[float],
    pf_duels: Sequence[float],
) -> list[list[float]]:
    """Per candidate of ``picked`` (ranked by the greedy score, best first), its :data:`FEATURES`."""
    rules = view.rules
    last = reading.last_thrown
    low = (10 - rules.card_points(last)) / 10 if last is not None else 0.0
    last_rank = last % NUM_RANKS if last is not None else NUM_RANKS
    late = 1.0 - view.stock_size / INITIAL_STOCK
    rows: list[list[float]] = []
    for i, card in enumerate(picked):
        race, feed, knock = races[i], feeds[i], knocks[i]
        rows.append(
            [
                race,
                feed,
                knock,
                rules.card_points(card) / 10,
                i / 10,
                *_near(card, reading.taken),
                *_near(card, reading.passed),
                *_near(card, reading.thrown),
                float(card % NUM_RANKS > last_rank),
                low * feed,
                low * race,
                low * knock,
                late * race,
                late * feed,
                duels[i],
                pf_duels[i],
            ]
        )
    return rows


def scores(features: Sequence[Sequence[float]], weights: Sequence[float] = DISCARD_WEIGHTS) -> list[float]:
    """The model's score of each candidate: its features' dot product with ``weights``."""
    return [sum(w * x for w, x in zip(weights, row, strict=True)) for row in features]


def distilled_choice(features: Sequence[Sequence[float]], weights: Sequence[float] = DISCARD_WEIGHTS) -> int:
    """The index of the candidate with the highest score (the first of equal ones)."""
    values = scores(features, weights)
    return min(range(len(values)), key=lambda i: (-values[i], i))


__all__ = [
    "DISCARD_WEIGHTS",
    "FEATURES",
    "INITIAL_STOCK",
    "Reading",
    "discard_features",
    "distilled_choice",
    "read_history",
    "scores",
]
