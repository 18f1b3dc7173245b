"""Knock-game decisions on determinizations that include the opponents' hands.

In a knock game (RULES.md §4) the hand goes to whoever calls Rummy or knocks first, and a knock is
decided at the showdown after the other seats' extra turns. Each :class:`Sample` holds one
determinization from the bot's view: every opponent's hand (dealt by
:func:`~rummykit.bots.inference.sample_hidden`, biased by what the opponent was seen doing) and the
draws of every seat.

* **Discards** (:func:`race_values`): the race of :mod:`rummykit.bots.search`, valued by the chance
  of getting home before the opponents (:func:`survival`: an opponent's chance of getting home in
  its next turn grows with the turns it has played, :data:`OPPONENT_HAZARD`, instead of the
  constant ``1 - DISCOUNT`` of search-v1), charged one turn on the samples where the discard
  completes a meld of the next seat's hand (:func:`completes`): that is what a discard gives
  away. Charging every discard the next seat would take (:func:`takes`, which includes a low card
  that merely replaces a high one) cost about 7 points of rounds won on the same 300 Viennese
  rounds against greedy (56.2 % against 63.5 %, and +2.3 against +6.5 points per round).
* **Draws** (:func:`take_values`): the same race for taking the top discard or drawing.
* **A knock** (:func:`knock_value`) is weighed against waiting a turn for a better one
  (:func:`wait_value`: the opponents play a turn and may get home first, the next seat may take the
  discard, then the bot knocks with what it draws), both scored as the showdown after every
  opponent's extra turn (``knock_extra_turn``), in points: the opponents' mean deadwood less the
  knocker's, plus a bonus for the best hand.

Each seat draws from its own sequence of the sampled stock (:func:`deal_draws`, dealt round the
table: the same distribution as one pile of unknown order), so a candidate that changes who draws
from the stock leaves everybody else's draws unchanged, and every candidate is compared on the same
draws. The races run on the compiled solver when it is built (:func:`~rummykit.bots.race.knock_races`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit import solver
from rummykit.bots.race import knock_draw_races, knock_races
from rummykit.bots.search import DISCOUNT
from rummykit.knocking import knock_allowed
from rummykit.rules import Rules

ShowdownTerm = Callable[[float, Sequence[float]], float]
"""What a showdown adds to a hand's utility for the match, given the bot's bad points and each
opponent's (in the order of :attr:`Sample.opponents`): :meth:`rummykit.bots.stakes.Stakes.showdown_term`."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One determinization seen from the bot: each opponent's hand and draws, and the bot's draws.

    ``opponents`` is in turn order from the seat after the bot; ``draws`` are in drawing order.
    """

    mine: tuple[int, ...]
    opponents: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


def deal_draws(stock: Sequence[int], seats: int) -> list[list[int]]:
    """The stock dealt card by card into one draw sequence per seat, the bot's first."""
    return [list(stock[i::seats]) for i in range(seats)]


def takes(rules: Rules, hand: Sequence[int], card: int) -> bool:
    """Whether a seat holding ``hand`` takes ``card`` from the discard pile: some discard then
    leaves less deadwood (the greedy rule)."""
    d, best = solver.best_discards([*hand, card], rules)
    return d < solver.min_deadwood(hand, rules) and any(c != card for c in best)


def completes(rules: Rules, hand: Sequence[int], card: int) -> bool:
    """Whether ``card`` joins a meld of ``hand`` (the best arrangement of the hand with it melds it)
    and so lowers the hand's deadwood: a discard that speeds the next seat's race."""
    cards = [*hand, card]
    loose = solver.best_arrangement(cards, rules).deadwood_cards
    return sum(1 for c in loose if c == card) < sum(1 for c in cards if c == card)


FeedRule = Callable[[Rules, Sequence[int], int], bool]

OPPONENT_HAZARD: Final = (0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.11, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19)
"""Knock games: the chance that an opponent gets home (knocks or calls Rummy) in its ``t``-th turn of
the hand (``t`` = 1, 2, …), given that it has not yet; every later turn the last value.

Read off the lengths of heads-up Viennese hands between the search bots (``search:medium`` and
variants against ``search-v1:medium``, seed 501): the share of the hands still on that end in a
seat's ``t``-th turn, split between the two seats (``1 - sqrt(1 - share)``), smoothed. Measured on
2,400 such hands: under 3 % in each of the first three turns, 6-8 % in the fifth and sixth, 12-17 % in the
seventh to tenth, 19-22 % later (the table stays at 19 %). search-v1's constant discount (0.85 per
turn, :data:`~rummykit.bots.search.DISCOUNT`) is the hazard of the middle of a hand: early on it
makes a fast but unlikely finish look worth more than a slower sure one, although the opponent is
still far from home. On the same 1,000 Viennese rounds against ``search-v1:medium`` (medium, seed
501): docs/strength.md."""
_CUMULATIVE: Final = tuple(itertools.accumulate((-math.log(1.0 - h) for h in OPPONENT_HAZARD), initial=0.0))
"""The cumulative hazard over the first ``t`` opponent turns, ``t`` = 0 … ``len(OPPONENT_HAZARD)``."""
_LATE_RATE: Final = -math.log(1.0 - OPPONENT_HAZARD[-1])


def _cumulative_hazard(turns: float) -> float:
    """The cumulative hazard over the first ``turns`` opponent turns (linear between whole turns)."""
    last = len(OPPONENT_HAZARD)
    if turns >= last:
        return _CUMULATIVE[last] + _LATE_RATE * (turns - last)
    whole = int(turns)
    return _CUMULATIVE[whole] + (_CUMULATIVE[whole + 1] - _CUMULATIVE[whole]) * (turns - whole)


def race_worth(played: int | None) -> Callable[[float], float]:
    """What getting home in ``turns`` more own turns is worth against an opponent who has played
    ``played`` turns of the hand: the chance that it is still not home by then (:func:`survival`),
    or with ``played`` ``None`` search-v1's ``DISCOUNT ** turns``. Built once per decision: the
    valuations call it for every candidate on every sample."""
    if played is None:
        return lambda turns: DISCOUNT**turns
    start = max(0, played)
    before = _cumulative_hazard(start)
    return lambda turns: math.exp(before - _cumulative_hazard(start + turns))


def survival(played: int, turns: float) -> float:
    """The chance that an opponent who has played ``played`` turns of the hand is still not home
    after ``turns`` more (:data:`OPPONENT_HAZARD`; a fractional ``turns``, the estimate of a race past
    its horizon, is interpolated): what getting home in ``turns`` own turns is worth."""
    return race_worth(played)(turns)


def race_values(
    rules: Rules,
    rests: Sequence[Sequence[int]],
    cards: Sequence[int],
    samples: Sequence[Sample],
    horizon: int,
    feeds: FeedRule | None = completes,
    played: int | None = None,
) -> list[float]:
    """Summed values of discarding ``cards[i]`` (leaving ``rests[i]``) over the samples: the chance
    of getting home before an opponent who has played ``played`` turns (:func:`survival`; ``None``:
    search-v1's ``DISCOUNT ** turns``, an opponent who gets there in any turn with chance
    ``1 - DISCOUNT``), one turn worse on the samples where the discard ``feeds`` the next seat (by
    default: it :func:`completes` a meld of that seat's sampled hand, so it gets home a turn sooner,
    as far as the race can tell; ``None``: no charge)."""
    rows = knock_races(rules, rests, [s.mine[:horizon] for s in samples], horizon)
    worth = race_worth(played)
    totals = [0.0] * len(rests)
    for sample, row in zip(samples, rows, strict=True):
        first = sample.opponents[0][0] if sample.opponents else None
        for i, turns in enumerate(row):
            fed = first is not None and feeds is not None and feeds(rules, first, cards[i])
            totals[i] += worth(turns + (1 if fed else 0))
    return totals


def take_values(
    rules: Rules,
    take_rests: Sequence[Sequence[int]],
    hand: Sequence[int],
    samples: Sequence[Sample],
    horizon: int,
    played: int | None = None,
) -> tuple[float, float]:
    """Summed race values (as :func:`race_values`) of taking the top discard (the best of
    ``take_rests``, the hands after the discards it allows) and of drawing the bot's next stock card
    instead."""
    rows = knock_races(rules, take_rests, [s.mine[:horizon] for s in samples], horizon)
    worth = race_worth(played)
    take = [0.0] * len(take_rests)
    for row in rows:
        for i, turns in enumerate(row):
            take[i] += worth(turns)
    draws = [s.mine[: horizon + 1] for s in samples if s.mine]
    draw = sum(map(worth, knock_draw_races(rules, hand, draws)))
    return max(take, default=0.0), draw


def knock_value(
    rules: Rules,
    card: int,
    deadwood: int,
    samples: Sequence[Sample],
    face_up: bool,
    win_bonus: float,
    term: ShowdownTerm | None = None,
) -> float:
    """Summed showdown utilities of knocking now with ``deadwood`` left, discarding ``card``: the
    opponents' mean deadwood at the showdown less the knocker's, plus ``win_bonus`` for the best
    (shared when equal), as :func:`~rummykit.bots.rollout.utility` scores a finished hand, plus what
    ``term`` adds for the match."""
    total = 0.0
    for sample in samples:
        left: list[int] = []
        for i, (hand, draws) in enumerate(sample.opponents):
            if not rules.knock_extra_turn:
                left.append(solver.min_deadwood(hand, rules))
                continue
            if i == 0 and face_up and takes(rules, hand, card):
                drawn = card
            elif draws:
                drawn = draws[0]
            else:
                left.append(solver.min_deadwood(hand, rules))
                continue
            left.append(solver.best_discards([*hand, drawn], rules)[0])
        own = deadwood if rules.knocker_scores_own_deadwood else 0
        total += sum(left) / max(1, len(left)) - own
        if all(d > own for d in left):
            total += win_bonus
        elif all(d >= own for d in left):
            total += win_bonus / (1 + sum(1 for d in left if d == own))
        if term is not None:
            total += term(own, left)
    return total


def wait_value(
    rules: Rules,
    rest: Sequence[int],
    card: int,
    samples: Sequence[Sample],
    win_bonus: float,
    term: ShowdownTerm | None = None,
) -> float:
    """Summed utilities of not knocking now (discarding ``card``, keeping ``rest``) but knocking or
    calling Rummy in the next turn, on each sample: every opponent plays its turn (the next seat may
    take ``card``) and wins when it gets home; else the bot draws, keeps its least deadwood and
    knocks (or calls Rummy), and the showdown follows the opponents' extra turns. Compared with
    :func:`knock_value`, this is what waiting one turn for a better knock is worth. ``term`` adds
    what each showdown is worth for the match (an opponent's knock scored with the bot holding what
    it kept, the other opponents what they hold)."""
    threshold = rules.knock_threshold or 0
    kept = solver.min_deadwood(rest, rules)
    total = 0.0
    for sample in samples:
        hands: list[list[int]] = []
        home = False
        for i, (hand, draws) in enumerate(sample.opponents):
            if i == 0 and takes(rules, hand, card):
                drawn = card
            elif draws:
                drawn = draws[0]
            else:
                hands.append(list(hand))
                continue
            cards = [*hand, drawn]
            d, best = solver.best_discards(cards, rules)
            if d == 0 or knock_allowed(d, threshold, rules.knock_comparison):
                total += d - kept - win_bonus
                if term is not None:
                    held = [solver.min_deadwood(h, rules) for h, _ in sample.opponents]
                    total += term(kept, [d if j == i else x for j, x in enumerate(held)])
                home = True
                break
            cards.remove(best[-1])
            hands.append(cards)
        if home:
            continue
        if not sample.mine:
            held = [solver.min_deadwood(h, rules) for h in hands]
            total += sum(held) / max(1, len(held)) - kept
            if term is not None:
                total += term(kept, held)
            continue
        mine, _ = solver.best_discards([*rest, sample.mine[0]], rules)
        left = []
        for (_, draws), held in zip(sample.opponents, hands, strict=True):
            if mine == 0 or not rules.knock_extra_turn or len(draws) < 2:
                left.append(solver.min_deadwood(held, rules) * (rules.rummy_multiplier if mine == 0 else 1))
            else:
                left.append(solver.best_discards([*held, draws[1]], rules)[0])
        own = mine if rules.knocker_scores_own_deadwood else 0
        total += sum(left) / max(1, len(left)) - own
        if all(d > own for d in left):
            total += win_bonus
        elif all(d >= own for d in left):
            total += win_bonus / (1 + sum(1 for d in left if d == own))
        if term is not None:
            total += term(own, left)
    return total


__all__ = [
    "OPPONENT_HAZARD",
    "FeedRule",
    "Sample",
    "ShowdownTerm",
    "completes",
    "deal_draws",
    "knock_value",
    "race_values",
    "race_worth",
    "survival",
    "take_values",
    "takes",
    "wait_value",
]
