"""Determinizations whose opponents are as strong as the knock game's opponents really are.

Every sampler of the search (:func:`~rummykit.bots.inference.sample_hidden`, the particle filter)
deals a knock-game opponent hands far weaker than it holds: in Viennese heads-up, after four of its
turns greedy's least deadwood is 27 on average and below 15 in 30 % of the decisions, where
``sample_hidden`` deals 44 and 8 % (docs/strength.md). The races barely read that hand, but a
duel play-out (:mod:`rummykit.bots.knock_duel`) takes it at its word: a too-weak opponent makes the
search wait and feed too long.

:class:`CalibratedSampler` corrects the strength by sampling importance resampling (Rubin 1988): per
decision it deals a pool of :data:`POOL` determinizations from its base sampler, weights each by
``p_true(b | t) / p_base(b | t)`` per opponent (``t``: the turns the opponent has played, the races'
clock ``view.turn // seats``, capped at :data:`MAX_TURN`; ``b``: the bucket of the least deadwood
dealt to it, :data:`BUCKET` points wide up to :data:`BUCKETS`; the product over the opponents), and
hands out determinizations drawn from the pool by weight. ``p_true`` is the least deadwood of the
opponent's real hand at the viewer's draw decisions, ``p_base`` that of the hands ``sample_hidden``
deals at the same decisions, both counted in :data:`TRUE_COUNTS` and :data:`SAMPLED_COUNTS` by
``benchmarks/strength.py`` (greedy against greedy). The ratios are smoothed (:data:`PRIOR` counts
per bucket) and capped at :data:`MAX_RATIO`.

Why reweighting and not a search for strong hands: every determinization handed out is one the base
sampler dealt, so it never holds a card the viewer has seen, holds the cards an opponent is known to
hold, and keeps the base sampler's evidence (the partners of taken, passed and discarded cards) and
behaviour redraws; only the mix of strengths changes, and within a decision the evidence still
decides which hands are stronger than the marginal (the ratio is of marginals over the turns played,
so an opponent the evidence shows strong stays stronger than the average). A hill-climb that trades
cards in from the unseen pool towards a target deadwood would overwrite the evidence's weights with
whatever cards lower the deadwood fastest. Rejection would deal the same hands at
:data:`MAX_RATIO` draws of the base sampler per determinization instead of ``POOL / N``.

Measured (docs/strength.md): on the decisions of ``benchmarks/reading.py`` the calibrated
hands have a least deadwood of 30.6 (true 27.0, ``sample_hidden`` 43.6) and are below 15 in 25 % of
them (true 30 %, ``sample_hidden`` 8 %), at 48 ms CPU per decision. Hard with duel play-outs on them
(300 Viennese rounds against greedy, seed 9200) gained +1.3 ± 2.9 points per round over duels on
``sample_hidden``'s hands and stayed below the race (-1.5 ± 2.6); the race on them was unchanged
(+0.1 ± 2.0). Even each opponent's true strength (its true deadwood bucket, cards guessed) did
not help the duels (-0.5 ± 2.7 points): they need the cards. So no bot uses it by default.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from rummykit import solver
from rummykit.bots.inference import Sampler, TableMemory, sample_hidden
from rummykit.views import Phase, PlayerView

BUCKET: Final = 5
"""Width of a least-deadwood bucket, in points."""
BUCKETS: Final = 13
"""Buckets of least deadwood: ``[0, 5)``, ``[5, 10)``, ... and the last one open (60 and more)."""
MAX_TURN: Final = 12
"""Turns played from which on the counts are pooled (the last row of the tables)."""
PRIOR: Final = 2.0
"""Pseudo-counts added to every bucket of both tables before the ratio is taken."""
MAX_RATIO: Final = 8.0
"""Cap of one opponent's weight (a bucket the base sampler almost never deals)."""
POOL: Final = 800
"""Determinizations the base sampler deals per decision (twice hard's 400)."""

# BEGIN STRENGTH TABLES
TRUE_COUNTS: Final[tuple[tuple[int, ...], ...]] = (
    (0, 12, 28, 92, 126, 135, 181, 238, 403, 442, 381, 308, 1646),
    (0, 58, 124, 282, 410, 364, 454, 626, 848, 849, 723, 527, 2662),
    (0, 117, 299, 503, 566, 466, 568, 778, 830, 762, 565, 492, 1808),
    (0, 189, 498, 684, 628, 532, 643, 765, 814, 639, 430, 383, 1247),
    (0, 287, 687, 802, 649, 587, 631, 747, 668, 522, 343, 292, 835),
    (0, 377, 850, 855, 661, 567, 598, 655, 519, 395, 269, 217, 586),
    (0, 434, 938, 885, 636, 516, 553, 538, 404, 276, 206, 161, 411),
    (0, 468, 1010, 850, 564, 434, 490, 426, 284, 207, 169, 106, 286),
    (0, 510, 1034, 739, 462, 403, 400, 317, 229, 144, 125, 75, 196),
    (0, 508, 1031, 636, 393, 342, 298, 231, 154, 123, 98, 40, 139),
    (0, 489, 921, 566, 299, 260, 230, 161, 119, 82, 67, 40, 110),
    (0, 445, 816, 455, 234, 191, 156, 113, 96, 61, 34, 28, 83),
    (0, 2050, 3423, 1563, 689, 554, 402, 293, 267, 288, 208, 159, 604),
)
"""Draw decisions (either seat of greedy against greedy, viennese) per turns the other
seat has played (row) and bucket of its true least deadwood; made by
``python benchmarks/strength.py --rules viennese --hands 4000 --seed 7000 --samples 10 --write ...``."""
SAMPLED_COUNTS: Final[tuple[tuple[int, ...], ...]] = (
    (1, 28, 81, 289, 615, 986, 1181, 1737, 2856, 3976, 4026, 3298, 20846),
    (11, 114, 292, 862, 1909, 2683, 3009, 4014, 6709, 8901, 8827, 6903, 35036),
    (25, 181, 467, 1178, 2520, 3404, 3556, 4541, 6900, 9125, 8836, 6901, 29906),
    (24, 238, 505, 1482, 2933, 3888, 4145, 4923, 7133, 8974, 8435, 6482, 25358),
    (50, 291, 671, 1741, 3321, 4220, 4311, 5216, 7223, 8603, 7728, 6019, 21106),
    (61, 371, 869, 2030, 3595, 4308, 4363, 5323, 7103, 7875, 6842, 5274, 17476),
    (42, 427, 888, 2197, 3840, 4343, 4221, 5072, 6653, 7251, 6166, 4516, 13964),
    (68, 460, 942, 2206, 3824, 4110, 4068, 4860, 5979, 6264, 5324, 3811, 11024),
    (66, 502, 1051, 2326, 3565, 4002, 3774, 4476, 5195, 5288, 4243, 3111, 8741),
    (78, 506, 995, 2305, 3349, 3597, 3512, 3959, 4498, 4366, 3489, 2558, 6718),
    (75, 477, 1034, 2226, 3103, 3022, 3023, 3302, 3753, 3628, 2788, 2019, 4990),
    (74, 449, 923, 1862, 2663, 2588, 2476, 2776, 3082, 2735, 2092, 1527, 3873),
    (431, 2385, 5118, 9094, 11067, 10341, 9831, 10579, 10448, 8921, 7081, 5701, 14003),
)
"""The same decisions: the buckets of the hands ``sample_hidden`` dealt the other seat."""
# END STRENGTH TABLES


def bucket(deadwood: int) -> int:
    """The bucket of a least deadwood."""
    return min(BUCKETS - 1, deadwood // BUCKET)


def ratios(
    true_counts: Sequence[Sequence[int]] = TRUE_COUNTS,
    sampled_counts: Sequence[Sequence[int]] = SAMPLED_COUNTS,
) -> tuple[tuple[float, ...], ...]:
    """Per turns played and bucket, ``p_true / p_base`` from the counts (smoothed, capped)."""
    out = []
    for truth, dealt in zip(true_counts, sampled_counts, strict=True):
        t_total = sum(truth) + PRIOR * len(truth)
        d_total = sum(dealt) + PRIOR * len(dealt)
        out.append(
            tuple(
                min(MAX_RATIO, ((t + PRIOR) / t_total) / ((d + PRIOR) / d_total))
                for t, d in zip(truth, dealt, strict=True)
            )
        )
    return tuple(out)


RATIOS: Final = ratios()
"""The weight of an opponent hand per turns played (``0..MAX_TURN``) and bucket."""


def played(view: PlayerView) -> int:
    """The turns each opponent has played this hand, as the tables count them (capped)."""
    return min(MAX_TURN, view.turn // len(view.active_seats))


class CalibratedSampler:
    """A :class:`~rummykit.bots.inference.Sampler` dealing the ``base`` sampler's determinizations
    resampled towards the opponents' true strength (see the module docstring); in other games than
    the knock family (and once the hand is over) it deals as ``base`` does.

    ``IsmctsBot.sampler = CalibratedSampler()``. The pool of a decision is dealt at its first call
    (a decision: the seat, the hand of its memory, the turn, the cards in hand, the discard pile's
    and the stock's sizes); every call draws one of its determinizations by weight, with
    replacement, from the ``rng`` it is given, so a seeded search deals the same ones.
    """

    def __init__(
        self,
        base: Sampler = sample_hidden,
        pool: int = POOL,
        table: tuple[tuple[float, ...], ...] = RATIOS,
    ) -> None:
        self.base = base
        self.pool = pool
        self.table = table
        self._key: tuple[int, ...] | None = None
        self._memory: TableMemory | None = None
        """The memory of the cached pool's decision, held (not its ``id``, which a new memory could
        reuse once the old one is gone)."""
        self._dealt: list[tuple[dict[int, list[int]], list[int]]] = []
        self._cum: list[float] = []

    def weight(self, view: PlayerView, hands: dict[int, list[int]]) -> float:
        """The importance weight of the opponents' ``hands`` dealt at ``view``."""
        row = self.table[played(view)]
        w = 1.0
        for seat, hand in hands.items():
            if view.revealed[seat] is None and hand:
                w *= row[bucket(solver.min_deadwood(hand, view.rules))]
        return w

    def __call__(
        self,
        view: PlayerView,
        rng: random.Random,
        memory: TableMemory | None = None,
        behaviour: bool = True,
        weights: dict[int, list[float]] | None = None,
        unseen: Sequence[int] | None = None,
    ) -> tuple[dict[int, list[int]], list[int]]:
        if view.rules.family != "knock" or view.phase is Phase.OVER:
            return self.base(view, rng, memory, behaviour, weights, unseen)
        key = (
            view.seat,
            memory.hands if memory is not None else -1,
            view.dealer,
            view.turn,
            len(view.hand),
            len(view.discard_pile),
            view.stock_size,
        )
        if key != self._key or memory is not self._memory:
            self._key = key
            self._memory = memory
            self._dealt = [self.base(view, rng, memory, behaviour, weights, unseen) for _ in range(self.pool)]
            total = 0.0
            self._cum = []
            for hands, _ in self._dealt:
                total += self.weight(view, hands)
                self._cum.append(total)
            if total <= 0.0:  # every dealt hand ruled out: keep the base sampler's mix
                self._cum = [float(i + 1) for i in range(len(self._dealt))]
        hands, stock = rng.choices(self._dealt, cum_weights=self._cum)[0]
        return {s: list(h) for s, h in hands.items()}, list(stock)


__all__ = [
    "BUCKET",
    "BUCKETS",
    "MAX_RATIO",
    "MAX_TURN",
    "POOL",
    "RATIOS",
    "CalibratedSampler",
    "bucket",
    "played",
    "ratios",
]
