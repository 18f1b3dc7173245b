"""What a hand's result is worth for the match: the search's utilities weighed by the match state.

A search that scores a hand by its points plays every hand as if it were the only one. The match
decides otherwise, and a player reads the score sheet before a knock:

* **The last hand of a fixed series** (``match_end = fixed_hands``, RULES.md §3.15: the lowest
  cumulative minus points win, ties share): only the order of the final totals counts. A seat that
  leads by 30 need not win the hand, only lose it by less than 30; a seat behind by 30 must go out
  while the others still hold more than 30. :meth:`Stakes.hand_term` adds :data:`MATCH_BONUS` (shared
  on a tie) to a play-out that leaves the seat with the best final score, so the search plays for the
  match and the hand's points only break what the match leaves equal. Equal finals are broken as
  ``match_tiebreak`` breaks them: by the hands won, the hand's winner (the seat a play-out has go
  out) counting one more, or by the hand's own points (``best_last_hand``, where every tied seat
  plays the hand; one sitting it out, as the DSkV's dealer, would be compared on an earlier hand the
  play-out does not know, and those ties are taken as shared).
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
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.rules import Rules
from rummykit.views import MatchView

MATCH_BONUS: Final = 100.0
"""Points of the hand that winning the match is worth more than losing it: far more than any hand's
points, so the match decides and the points break ties."""
HAND_LOSS_SHARES: Final = (
    (2, 0.0), (3, 0.2), (4, 0.25), (6, 0.35), (9, 0.5), (12, 0.6), (16, 0.7), (19, 0.75), (22, 0.8),
    (28, 0.85), (40, 0.9), (79, 0.95), (290, 1.0),
)
"""German Rummy heads-up: the share of hands lost by fewer than so many points (knots of the
distribution, linear between them), from 3,000 hands of greedy against greedy: half of the hands are
lost by fewer than 9 points, one in ten by 40 or more (a Hand-Rommé doubles)."""


def lead_equity(lead: float) -> float:
    """The chance of winning a heads-up German series with one hand left to play from ``lead`` points
    ahead (the hand's winner scores nothing, the loser pays, :data:`HAND_LOSS_SHARES`; each side
    taken to win the hand half of the time): 0.5 level, 0.75 with a lead of 9, 0.95 with 40."""
    margin = abs(lead)
    share = 1.0
    for (x0, y0), (x1, y1) in itertools.pairwise(HAND_LOSS_SHARES):
        if margin < x1:
            share = y0 + (y1 - y0) * max(0.0, margin - x0) / (x1 - x0)
            break
    return 0.5 + (0.5 * share if lead > 0 else -0.5 * share)


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
    one_left: bool = False
    """A heads-up German series with one hand after this one: :meth:`hand_term` values the lead the
    hand leaves by :func:`lead_equity`."""
    tiebreak: str = "share"
    """The rules' ``match_tiebreak``: how the last hand's equal finals are broken."""
    hands_won: tuple[int, ...] = ()
    """Hands each seat has won before this one (``most_hands_won``)."""

    @classmethod
    def of(cls, mv: MatchView, lead_equity: bool = False) -> Stakes | None:
        """The stakes of ``mv``'s seat, or ``None`` when the hand is not decisive: a fixed series
        with hands still to come (with ``lead_equity``, a heads-up melding series with one more hand
        to come is weighed by :func:`lead_equity`), or a match format this module does not weigh."""
        rules = mv.rules
        seats = list(mv.active_seats)
        if mv.seat not in seats:
            return None
        me = seats.index(mv.seat)
        others = tuple(seats[me + 1 :] + seats[:me])
        rubber = rules.match_end == "elimination_last_survivor" and mv.threshold is not None
        last_hand = rules.match_end == "fixed_hands" and mv.hands_left == 0
        one_left = (
            lead_equity
            and rules.match_end == "fixed_hands"
            and rules.family == "melding"
            and mv.hands_left == 1
            and len(seats) == 2
        )
        if not (rubber or last_hand or one_left) or not mv.scores:
            return None
        threshold = mv.threshold if rubber else None
        tiebreak = "share" if rules.not_applicable("match_tiebreak") else rules.match_tiebreak
        return cls(
            mv.seat, last_hand, mv.scores, mv.totals, threshold, others, one_left, tiebreak, mv.hands_won
        )

    def hand_term(self, points: Mapping[int, float]) -> float:
        """The last hand of a series: :data:`MATCH_BONUS` shared among the seats whose final score
        (their score so far plus ``points``, the hand's points per seat as a play-out scores them; a
        seat sitting the hand out keeps its score) is the best and that :attr:`tiebreak` keeps, if
        this seat is one of them; with one hand left after this one, :data:`MATCH_BONUS` times the
        :func:`lead_equity` of the lead it leaves; 0 in any other hand."""
        if self.one_left:
            finals = {s: self.scores[s] + p for s, p in points.items()}
            lead = finals[self.seat] - max(v for s, v in finals.items() if s != self.seat)
            return MATCH_BONUS * lead_equity(lead)
        if not self.last_hand:
            return 0.0
        finals = {s: v + points.get(s, 0.0) for s, v in enumerate(self.scores)}
        best = max(finals.values())
        winners = self._tie_broken([s for s, v in finals.items() if v == best], points)
        return MATCH_BONUS / len(winners) if self.seat in winners else 0.0

    def _tie_broken(self, tied: list[int], points: Mapping[int, float]) -> list[int]:
        """The seats of ``tied`` that :attr:`tiebreak` keeps once the hand scores ``points``."""
        if len(tied) < 2 or self.tiebreak == "share":
            return tied
        key: dict[int, float]
        if self.tiebreak == "most_hands_won":
            if len(self.hands_won) != len(self.scores):
                return tied
            out = went_out(points)
            key = {s: self.hands_won[s] + (s == out) for s in tied}
        elif all(s in points for s in tied):  # best_last_hand: this hand, where all of them play it
            key = {s: points[s] for s in tied}
        else:
            return tied
        best = max(key.values())
        return [s for s in tied if key[s] == best]

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


def went_out(points: Mapping[int, float]) -> int | None:
    """The seat a melding play-out's ``points`` have go out: the one seat with the most points, when
    it lost none (it scores 0 or collects, the others pay); ``None`` for a hand nobody finished
    (every seat's estimate is a loss) or a tie."""
    if not points:
        return None
    best = max(points.values())
    leaders = [s for s, p in points.items() if p == best]
    return leaders[0] if len(leaders) == 1 and best >= 0 else None


@functools.lru_cache(maxsize=64)
def _capped(rules: Rules, threshold: int) -> Rules:
    """``rules`` with ``knock_threshold`` lowered to ``threshold`` (cached: the solver's caches are
    keyed by the rule set). A threshold that admits no knock (1 under ``lt``, 0) is written as the
    rules write it, ``knock_threshold = 0``: Rummy only, no knock compared."""
    if threshold <= (1 if rules.knock_comparison == "lt" else 0):
        return rules.replace(knock_threshold=0, knock_comparison="lt")
    return rules.replace(knock_threshold=threshold)


__all__ = ["HAND_LOSS_SHARES", "MATCH_BONUS", "Stakes", "lead_equity", "went_out"]
