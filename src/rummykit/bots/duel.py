"""Knock-game duels: the bot's race home against every opponent's, on one determinization.

In a knock game (RULES.md §4) the hand goes to whoever calls Rummy or knocks first, and a knock is
decided at the showdown after the other seats' extra turns. :mod:`rummykit.bots.race` counts the
own turns a hand needs to get home on a sampled stock; a duel also races every opponent's sampled
hand (:func:`~rummykit.bots.inference.sample_hidden`, biased by what it was seen doing) on its own
draws, and the bot wins the sample when it gets home in fewer turns than every opponent (each
opponent moves before the bot's next turn, so an equal count loses). A duel is worth points, as a
play-out of :mod:`rummykit.bots.rollout` is: the win bonus plus the deadwood the opponents would be
caught with, or minus the bonus and the deadwood the bot keeps (:func:`duel_score`).

* **What a discard gives away**: the next seat may take the bot's discard; it does when the card
  lowers its deadwood (the greedy rule), and its race then starts from that hand.
* **A knock** is scored as the showdown after the extra turns (``knock_extra_turn``): each opponent
  takes the knock card when it helps (the next seat only, when it lies face up) or draws, sheds to
  its least deadwood, and the knocker wins when every opponent is left with more deadwood than the
  knocker's (equal: a shared win).

Each seat draws from its own sequence of the sampled stock (dealt round the table in turn order:
the same distribution as one pile of unknown order), so a candidate that changes who draws from the
stock leaves everybody else's draws unchanged, and every candidate is compared on the same draws.
The races run on the compiled solver when it is built (:func:`~rummykit.bots.race.knock_races`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit import solver
from rummykit.bots.race import KNOCK_POINTS_PER_TURN, knock_races, shed_card
from rummykit.cards import JOKER_CODE
from rummykit.knocking import knock_allowed
from rummykit.rules import Rules


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


def race_from_draw(
    rules: Rules, hand: Sequence[int], card: int, draws: Sequence[int], taken: bool
) -> tuple[float, int]:
    """Own turns to get home for a seat that now draws ``card`` (this turn counts as 1), then
    ``draws`` (the estimate of :func:`~rummykit.bots.race.knock_race` past the horizon), and the
    deadwood it keeps after this turn's discard."""
    cards = [*hand, card]
    d, best = solver.best_discards(cards, rules)
    if d == 0 or knock_allowed(d, rules.knock_threshold or 0, rules.knock_comparison):
        return 1.0, d
    barred = card if taken and not rules.may_discard_taken_discard else None
    usable: list[int] = [c for c in best if c != barred]
    if not usable:
        usable = [c for c in cards if c != barred]
        d = -1
    cards.remove(max(usable, key=lambda c: (rules.card_points(c), c)))
    if d < 0:
        d = solver.min_deadwood(cards, rules)
    return 1.0 + quick_race(rules, cards, draws, d), d


_ORDERS: dict[int, tuple[Rules, list[int]]] = {}


def _shed_order(rules: Rules) -> list[int]:
    """Per card code a key that orders sheds as the race does: by points, then by code (kept per
    rules object: hashing a rule set costs more than a race turn)."""
    entry = _ORDERS.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    if len(_ORDERS) > 64:
        _ORDERS.clear()
    order = [rules.card_points(c) * 64 + c for c in range(JOKER_CODE + 1)]
    _ORDERS[id(rules)] = (rules, order)
    return order


def quick_race(rules: Rules, hand: Sequence[int], draws: Sequence[int], deadwood: int | None = None) -> float:
    """:func:`~rummykit.bots.race.knock_race` with one solver call per turn (the same answers):
    ``deadwood`` is the hand's, when known."""
    cards = list(hand)
    threshold = rules.knock_threshold or 0
    left = deadwood
    order = _shed_order(rules)
    for turn, card in enumerate(draws, start=1):
        cards.append(card)
        d, best = solver.best_discards(cards, rules)
        if d == 0 or knock_allowed(d, threshold, rules.knock_comparison):
            return float(turn)
        usable = [c for c in best if c != JOKER_CODE]
        if usable:
            cards.remove(max(usable, key=order.__getitem__))
            left = d
        else:
            cards.remove(shed_card(rules, cards))
            left = None
    if left is None:
        left = solver.min_deadwood(cards, rules)
    return len(draws) + 1 + left / KNOCK_POINTS_PER_TURN


def opponent_turns(
    rules: Rules, sample: Sample, horizon: int, offered: int | None
) -> list[tuple[float, int]]:
    """Each opponent's turns to get home and deadwood after its next turn; the first opponent is
    ``offered`` the bot's discard."""
    out: list[tuple[float, int]] = []
    for i, (hand, draws) in enumerate(sample.opponents):
        if i == 0 and offered is not None and takes(rules, hand, offered):
            out.append(race_from_draw(rules, hand, offered, draws[: horizon - 1], taken=True))
        elif draws:
            out.append(race_from_draw(rules, hand, draws[0], draws[1:horizon], taken=False))
        else:
            out.append((float(horizon + 1), solver.min_deadwood(hand, rules)))
    return out


def duel_score(
    rules: Rules, mine: float, kept: int, theirs: Sequence[tuple[float, int]], win_bonus: float
) -> float:
    """What the duel is worth to the bot, in points (as :func:`~rummykit.bots.rollout.utility`
    scores a finished hand). When it gets home before every opponent (each moves first: an equal
    count loses): ``win_bonus`` plus the opponents' mean deadwood after their next turn (what they
    would be caught with) less the deadwood the bot would knock with (what it keeps now, at most the
    largest knock allowed); otherwise minus ``win_bonus`` and the deadwood ``kept``."""
    if all(mine < t for t, _ in theirs):
        most = max(0, (rules.knock_threshold or 0) - (1 if rules.knock_comparison == "lt" else 0))
        return win_bonus + sum(d for _, d in theirs) / max(1, len(theirs)) - min(kept, most)
    return -win_bonus - kept


def discard_values(
    rules: Rules,
    rests: Sequence[Sequence[int]],
    cards: Sequence[int],
    samples: Sequence[Sample],
    horizon: int,
    win_bonus: float,
) -> list[float]:
    """Summed duel scores of discarding ``cards[i]`` (leaving ``rests[i]``) over the samples."""
    rows = knock_races(rules, rests, [s.mine[:horizon] for s in samples], horizon)
    kept = [solver.min_deadwood(rest, rules) for rest in rests]
    totals = [0.0] * len(rests)
    for sample, row in zip(samples, rows, strict=True):
        plain = opponent_turns(rules, sample, horizon, None)
        first = sample.opponents[0][0] if sample.opponents else ()
        for i, mine in enumerate(row):
            theirs = plain
            if first and takes(rules, first, cards[i]):
                theirs = opponent_turns(rules, sample, horizon, cards[i])
            totals[i] += duel_score(rules, mine, kept[i], theirs, win_bonus)
    return totals


def draw_values(
    rules: Rules,
    take_rests: Sequence[Sequence[int]],
    hand: Sequence[int],
    samples: Sequence[Sample],
    horizon: int,
    win_bonus: float,
) -> tuple[float, float]:
    """Summed duel scores of taking the top discard (the best over the samples of ``take_rests``, the
    hands after the discards it allows) and of drawing from the stock (the bot's first draw)."""
    takes_ = [0.0] * len(take_rests)
    draw = 0.0
    mine_take = (
        knock_races(rules, take_rests, [s.mine[:horizon] for s in samples], horizon) if take_rests else []
    )
    kept = [solver.min_deadwood(rest, rules) for rest in take_rests]
    for k, sample in enumerate(samples):
        theirs = opponent_turns(rules, sample, horizon, None)
        for i, mine_t in enumerate(mine_take[k] if take_rests else ()):
            takes_[i] += duel_score(rules, mine_t, kept[i], theirs, win_bonus)
        if sample.mine:
            turns, left = race_from_draw(
                rules, hand, sample.mine[0], sample.mine[1 : horizon + 1], taken=False
            )
            draw += duel_score(rules, turns - 1.0, left, theirs, win_bonus)
    return max(takes_, default=0.0), draw


def knock_value(
    rules: Rules, card: int, deadwood: int, samples: Sequence[Sample], face_up: bool, win_bonus: float
) -> float:
    """Summed showdown utilities of knocking now with ``deadwood`` left, discarding ``card``: the
    opponents' mean deadwood at the showdown less the knocker's, plus ``win_bonus`` for the best
    (shared when equal), as :func:`~rummykit.bots.rollout.utility` scores a finished hand."""
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
    return total


__all__ = [
    "Sample",
    "deal_draws",
    "discard_values",
    "draw_values",
    "duel_score",
    "knock_value",
    "opponent_turns",
    "race_from_draw",
    "takes",
]
