"""What a hand's result is worth for the match: the search's utilities weighed by the match state.

A search that scores a hand by its points plays every hand as if it were the only one. The match
decides otherwise, and a player reads the score sheet before a knock:

* **The last hand of a fixed series** (``match_end = fixed_hands``, RULES.md §3.15: the lowest
  cumulative minus points win, ties share): only the order of the final totals counts. A seat that
  leads by 30 need not win the hand, only lose it by less than 30; a seat behind by 30 must go out
  while the others still hold more than 30. :meth:`Stakes.hand_term` adds :data:`MATCH_BONUS` (shared
  on a tie) to a play-out that leaves the seat with the best final score, so the search plays for the
  match and the hand's points only break what the match leaves equal.
* **A rubber to elimination** (``match_end = elimination_last_survivor``, RULES.md §4.8: a seat
  whose cumulative bad points reach the threshold is out, the last one in wins, and when the last
  ones all cross in the same hand the lowest total wins, D19): :meth:`Stakes.showdown_term` adds
  :data:`MATCH_BONUS` to a showdown that ends the rubber in the seat's favour (shared on a tie) and
  takes it away from one that eliminates the seat, and :meth:`Stakes.race_rules` lowers the knock
  threshold of the seat's own races to the knocks that keep it in: at 97 with a threshold of 101, a
  knock with 4 left is the end of the rubber, and only a knock with at most 3 (or a Rummy) is home.

Earlier hands of a series, and match formats without a decisive hand in sight, are played for points
as before (:meth:`Stakes.of` returns ``None``): over several hands the points are what the match
adds up.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.rules import Rules
from rummykit.views import MatchView

MATCH_BONUS: Final = 100.0
"""Points of the hand that winning the match is worth more than losing it: far more than any hand's
points, so the match decides and the points break ties."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """The match state one seat's decision is weighed by (see the module docstring).

    ``scores`` are cumulative points per seat, higher better (plus less minus points);
    ``totals`` are cumulative bad points per seat (the rubber's); ``others`` are the seats still in,
    in turn order from the seat after ``seat`` (the order of a knock-game sample's opponents).
    """

    seat: int
    last_hand: bool
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    threshold: int | None
    others: tuple[int, ...]

    @classmethod
    def of(cls, mv: MatchView) -> Stakes | None:
        """The stakes of ``mv``'s seat, or ``None`` when the hand is not decisive: a fixed series
        with hands still to come, or a match format this module does not weigh."""
        rules = mv.rules
        seats = list(mv.active_seats)
        if mv.seat not in seats:
            return None
        me = seats.index(mv.seat)
        others = tuple(seats[me + 1 :] + seats[:me])
        rubber = rules.match_end == "elimination_last_survivor" and mv.threshold is not None
        last_hand = rules.match_end == "fixed_hands" and mv.hands_left == 0
        if not (rubber or last_hand) or not mv.scores:
            return None
        return cls(mv.seat, last_hand, mv.scores, mv.totals, mv.threshold if rubber else None, others)

    def hand_term(self, points: Mapping[int, float]) -> float:
        """The last hand of a series: :data:`MATCH_BONUS` shared among the seats whose final score
        (their score so far plus ``points``, the hand's points per seat as a play-out scores them) is
        the best, if this seat is one of them; 0 in any other hand."""
        if not self.last_hand:
            return 0.0
        finals = {s: self.scores[s] + p for s, p in points.items()}
        best = max(finals.values())
        if finals.get(self.seat, best - 1) != best:
            return 0.0
        return MATCH_BONUS / sum(1 for v in finals.values() if v == best)

    def showdown_term(self, own: float, left: Sequence[float]) -> float:
        """A rubber's showdown with ``own`` bad points for this seat and ``left`` for each of
        :attr:`others`: +:data:`MATCH_BONUS` (shared on equal lowest totals) when it ends the rubber
        with this seat the winner, -:data:`MATCH_BONUS` when it eliminates this seat without, 0 when
        the rubber goes on for this seat."""
        if self.threshold is None:
            return 0.0
        finals = {self.seat: self.totals[self.seat] + own}
        for s, d in zip(self.others, left, strict=False):
            finals[s] = self.totals[s] + d
        survivors = [s for s, v in finals.items() if v < self.threshold]
        if survivors == [self.seat]:
            return MATCH_BONUS
        if survivors:
            return 0.0 if self.seat in survivors else -MATCH_BONUS
        lowest = min(finals.values())
        if finals[self.seat] != lowest:
            return -MATCH_BONUS
        return MATCH_BONUS / sum(1 for v in finals.values() if v == lowest)

    def race_rules(self, rules: Rules) -> Rules:
        """``rules`` with the knock threshold lowered, for this seat's own races, to the knocks that
        leave it below the elimination threshold (a Rummy, with no bad points, always does)."""
        if self.threshold is None or rules.knock_threshold is None:
            return rules
        room = self.threshold - self.totals[self.seat]
        # A knock keeps the seat in when its deadwood d < room.
        cap = room if rules.knock_comparison == "lt" else room - 1
        if cap >= rules.knock_threshold:
            return rules
        return _capped(rules, max(0, cap))


@functools.lru_cache(maxsize=64)
def _capped(rules: Rules, threshold: int) -> Rules:
    """``rules`` with ``knock_threshold`` lowered to ``threshold`` (cached: the solver's caches are
    keyed by the rule set)."""
    return rules.replace(knock_threshold=threshold)


def match_stakes(mv: MatchView | None) -> Stakes | None:
    """:meth:`Stakes.of` for a view that may be missing (a hand played outside a match)."""
    return None if mv is None else Stakes.of(mv)


__all__ = ["MATCH_BONUS", "Stakes", "match_stakes"]
