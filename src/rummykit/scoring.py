"""Scoring a finished hand: going out (melding games) and the showdown (knock games).

Pure functions of the rules and the hands left; the round records their :class:`Score` in its
:class:`~rummykit.views.RoundResult`.

>>> from rummykit.cards import parse_cards
>>> from rummykit.rules import Rules
>>> score = going_out(Rules.preset("german"), [(), parse_cards("KH 5S")], winner=0, hand_romme=False)
>>> score.penalties, score.gains, score.multiplier
((0, 15), (0, 0), 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummykit import solver
from rummykit.rules import Rules
from rummykit.views import Arrangement, Termination


@dataclass(frozen=True, slots=True)
class Score:
    """Per-seat minus (or bad) points and plus points of a hand, the factor applied, and for a
    showdown every seat's arrangement (``None`` for seats that sat out)."""

    penalties: tuple[int, ...]
    gains: tuple[int, ...]
    multiplier: int
    arrangements: tuple[Arrangement | None, ...] = ()


def going_out(rules: Rules, hands: Sequence[Iterable[int]], winner: int, hand_romme: bool) -> Score:
    """Melding games (RULES.md §3.12, 3.14): every other seat's cards count ``penalty_value``, times
    ``hand_romme_multiplier`` when the winner put the whole hand on the table in the one turn it
    went out (Hand-Rommé; where lay-offs wait for the opening, the turn of the opening);
    under ``hand_scoring = winner_collects`` the winner gains their sum instead, and under
    ``winner_gets_sum`` the winner gains it as well (RULES.md §3.14: the losers keep their minus
    points, the winner records their sum as plus points)."""
    multiplier = rules.hand_romme_multiplier if hand_romme else 1
    values = [sum(rules.penalty_value(c) for c in h) * multiplier for h in hands]
    values[winner] = 0
    zeros = (0,) * len(values)
    scoring = rules.hand_scoring
    if scoring in ("winner_collects", "winner_gets_sum"):
        gains = [0] * len(values)
        gains[winner] = sum(values)
        penalties = zeros if scoring == "winner_collects" else tuple(values)
        return Score(penalties, tuple(gains), multiplier)
    return Score(tuple(values), zeros, multiplier)


def showdown(
    rules: Rules, hands: Sequence[Iterable[int]], active: Iterable[int], winner: int, termination: Termination
) -> Score:
    """Knock games (RULES.md §4.5–4.7): every active hand is arranged optimally by the solver and
    shown; the Rummy caller scores 0, the knocker their own deadwood (``knocker_scores_own_deadwood``),
    everybody else their minimum deadwood, times ``rummy_multiplier`` after a Rummy call."""
    seats = len(hands)
    arrangements: list[Arrangement | None] = [None] * seats
    penalties = [0] * seats
    multiplier = rules.rummy_multiplier if termination is Termination.RUMMY else 1
    for seat in active:
        best = solver.best_arrangement(list(hands[seat]), rules)
        arrangements[seat] = Arrangement(best.melds, best.deadwood_cards, best.deadwood)
        if seat == winner:
            own = best.deadwood if termination is Termination.KNOCK else 0
            penalties[seat] = own if rules.knocker_scores_own_deadwood else 0
        else:
            penalties[seat] = best.deadwood * multiplier
    return Score(tuple(penalties), (0,) * seats, multiplier, tuple(arrangements))
