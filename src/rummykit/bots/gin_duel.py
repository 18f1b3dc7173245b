"""Duel play-outs of Gin Rummy (RULES.md §5.4): both seats race, the opponent by a known rule.

The race play-out (:func:`~rummykit.bots.race.knock_race`) counts how many stock draws one hand needs
to knock; it ignores the opponent. A duel plays the hand out against an opponent hand too, turn by
turn from the same sampled stock, and is won by the seat that knocks first. Both seats see each
other's discards, so a discard can feed the opponent's knock and the opponent's discards are outs of
this seat. The opponent plays the rule of OpenSpiel's simple gin bot (the policy gin research
measures against, ``simple_gin_rummy_bot.cc``): knock as soon as the least deadwood after a discard
is within the knock card; take the upcard when that allows a knock or when the upcard would be
melded; discard the highest-ranked card among its deadwood. The opponent's hand is a sample of what
this seat cannot see (:mod:`~rummykit.bots.gin_search` builds the samples), never its real cards.

The rules of a duel, seat by seat:

* **the opponent** (:func:`opponent_takes`, :func:`opponent_discard`): take the upcard when the least
  deadwood of the eleven cards after the best discard is within the knock card, or when the upcard is
  melded in every arrangement of the eleven cards with the least deadwood (the simple bot asks one
  such arrangement; "every" makes the answer independent of how ties between arrangements are
  broken); otherwise draw from the stock. Knock when the least deadwood after a discard is within the
  knock card. Otherwise discard the highest-ranked card (then the highest code) among the cards whose
  discard leaves the least deadwood, never the card just taken.
* **this seat**: the same take rule; knock when allowed; otherwise discard, among the cards whose
  discard leaves the least deadwood, the one worth most (never the card just taken).
* the stock holds only the cards that may be drawn before the wall (two cards left): a duel that runs
  out of it, or past :data:`DUEL_TURNS` turns of this seat, is a draw.

A duel is worth 1 when this seat knocks first, 0 when the opponent does and :data:`DRAWN` otherwise.
On the compiled solver backend every duel of a decision runs in native code (the same answers).

:class:`~rummykit.bots.gin_search.GinSearchBot` chooses its discards by duels when it is given a source
of opponent hands (:data:`OpponentSampler`). :func:`sampled_opponents` is the honest one: hands read
from what this seat has seen (:func:`sampled_opponents` says how). ``benchmarks/vs_openspiel.py`` also
plays it with the opponent's true hand, to measure what knowing it would be worth (docs/strength.md,
"Gin against OpenSpiel's simple bot"). The default bot races without duels: against OpenSpiel's bot, duels on
sampled hands did not win more games than the race.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from rummykit import solver
from rummykit.bots.gin_feed import PILE_LIKELIHOOD, melds_with
from rummykit.bots.greedy import cheapest_shed
from rummykit.bots.race import knock_home
from rummykit.cards import JOKER_CODE, NUM_RANKS
from rummykit.determinize import unseen_cards
from rummykit.gin_melds import mask_of
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView

DUEL_TURNS: Final = 16
"""The most turns of this seat a duel plays before it counts as drawn."""
DRAWN: Final = 0.5
"""The value of a duel nobody won (dead hand at the wall, or past :data:`DUEL_TURNS`)."""
INITIAL_STOCK: Final = 31
"""Gin's stock after the deal: 52 cards less two hands of ten and the first upcard."""
AGE_TURNS: Final = 8
"""The most simulated turns of the opponent behind a sampled hand (:func:`sampled_opponents`). Hands
without them (fresh random hands) are far slower than the real opponent's: duels on such hands won
7 points of percent fewer games than on played-forward ones (400 games, the same deals)."""
AGE_EXTRA: Final = 3
"""Simulated turns beyond the opponent's stock draws so far (it also takes discards)."""
AGE_TRIES: Final = 8
"""Hands tried per sample until one is consistent with the opponent's play (else the last is kept)."""

OpponentSample = tuple[list[int], list[int], float]
"""A sampled opponent: its ten cards, the stock before the wall in drawing order, and a weight."""
OpponentSampler = Callable[[PlayerView, random.Random, int], list[OpponentSample]]
"""A source of ``n`` opponent samples for a view (:func:`sampled_opponents`, or a benchmark's peek)."""


def opponent_takes(rules: Rules, hand: Sequence[int], up: int) -> bool:
    """The simple bot's take rule (see the module docstring): the upcard allows a knock, or it is
    melded in every arrangement of the eleven cards with the least deadwood."""
    with_up = [*hand, up]
    if knock_home(rules, with_up):
        return True
    return solver.min_deadwood(with_up, rules) < solver.min_deadwood(hand, rules) + rules.card_points(up)


def opponent_discard(rules: Rules, cards: Sequence[int], barred: int | None) -> int:
    """The simple bot's discard from eleven cards: the highest-ranked (then highest-coded) card among
    those whose discard leaves the least deadwood, never ``barred`` while another card may go."""
    _, best = solver.best_discards(cards, rules)
    usable = [int(c) for c in best if c != barred] or [c for c in cards if c != barred]
    return max(usable, key=lambda c: (c % NUM_RANKS, c))


def own_discard(rules: Rules, cards: Sequence[int], barred: int | None) -> int:
    """This seat's discard from eleven cards: among those whose discard leaves the least deadwood the
    one worth most (then the highest code), never ``barred``; when only ``barred`` leaves the least,
    the other card whose discard leaves the least deadwood."""
    shed = cheapest_shed(rules, cards, barred)  # gin has no jokers
    if shed is not None:
        return shed
    others = sorted({c for c in cards if c != barred})

    def left(c: int) -> int:
        rest = list(cards)
        rest.remove(c)
        return solver.min_deadwood(rest, rules)

    return min(others, key=lambda c: (left(c), -rules.card_points(c), -c))


def gin_duel(
    rules: Rules, hand: Sequence[int], up: int | None, opponent: Sequence[int], stock: Sequence[int]
) -> float:
    """One duel (see the module docstring): this seat holds ``hand`` and has just discarded ``up``,
    the opponent (``opponent``, ten cards) moves first; or, with ``up`` ``None``, this seat moves first
    and draws from the stock. ``stock``: the cards that may be drawn before the wall, in order."""
    ours = list(hand)
    theirs = list(opponent)
    next_card = 0
    if up is None:
        if not stock:
            return DRAWN
        ours.append(stock[0])
        next_card = 1
        if knock_home(rules, ours):
            return 1.0
        up = own_discard(rules, ours, None)
        ours.remove(up)
    for _ in range(DUEL_TURNS):
        for cards, discard, won in ((theirs, opponent_discard, 0.0), (ours, own_discard, 1.0)):
            # A turn: take the upcard by the take rule, else draw; knock, else discard.
            if opponent_takes(rules, cards, up):
                cards.append(up)
                barred = None if rules.may_discard_taken_discard else up
            elif next_card < len(stock):
                cards.append(stock[next_card])
                next_card += 1
                barred = None
            else:
                return DRAWN
            if knock_home(rules, cards):
                return won
            up = discard(rules, cards, barred)
            cards.remove(up)
    return DRAWN


def gin_duels(
    rules: Rules,
    hands: Sequence[tuple[Sequence[int], int | None]],
    opponents: Sequence[Sequence[int]],
    stocks: Sequence[Sequence[int]],
) -> list[list[float]]:
    """:func:`gin_duel` of every ``(hand, up)`` against every sample (an opponent hand and its stock),
    a row per sample. On the compiled solver backend the batch runs in native code without the GIL."""
    if len(opponents) != len(stocks):
        raise ValueError("one stock per opponent hand")
    if any(up is not None and not 0 <= up < JOKER_CODE for _, up in hands):
        raise ValueError("an upcard must be a natural card")  # as the compiled duels refuse it
    barred_taken = not rules.may_discard_taken_discard
    rows = solver.backend.current.gin_duels(rules, hands, opponents, stocks, DUEL_TURNS, DRAWN, barred_taken)
    if rows is not None:
        return rows
    return [
        [gin_duel(rules, hand, up, opponent, stock) for hand, up in hands]
        for opponent, stock in zip(opponents, stocks, strict=True)
    ]


def last_opponent_discard(view: PlayerView) -> int | None:
    """The opponent's most recent discard, in this seat's turn: in the draw phase the upcard, in the
    discard phase the card this seat took or else the upcard, provided the opponent has discarded this
    hand (its first discard is made in the turn numbered like the count of first-upcard passes; turns
    alternate); ``None`` otherwise."""
    gin = view.gin
    if gin is None or view.to_move != view.seat or view.turn <= gin.upcard_passes:
        return None
    if view.phase not in (Phase.DRAW, Phase.DISCARD):
        return None
    taken = view.taken_discard if view.phase is Phase.DISCARD else None
    card = taken if taken is not None else view.top_discard
    return None if card is None else int(card)


def sampled_opponents(view: PlayerView, rng: random.Random, n: int) -> list[OpponentSample]:
    """``n`` opponent hands read from what this seat has seen, each with a stock and a weight.

    A hand is the cards the opponent is known to hold and random unseen cards, played forward by the
    simple bot's rule for as many turns as the opponent has drawn from the stock plus
    :data:`AGE_EXTRA` (at most :data:`AGE_TURNS`; each turn draws a random unseen card and throws
    :func:`opponent_discard`, never a known card): the real hand too has had those turns to improve.
    A hand is kept when on the way it never could have knocked and when, with the opponent's last
    discard back in it, it would have thrown that card and not knocked; up to :data:`AGE_TRIES`
    tries, else the last unplayed hand. Its weight falls by :data:`~.gin_feed.PILE_LIKELIHOOD` for
    each discard-pile card it would meld (the opponent did not keep it). The stock is the other
    unseen cards in random order, as many as may be drawn before the wall."""
    rules = view.rules
    opponent = 1 - view.seat
    known = [int(c) for c in view.known_cards[opponent]] if view.known_cards else []
    pool: list[int] = [int(c) for c in unseen_cards(view)]
    size = max(0, min(len(pool), view.hand_sizes[opponent] - len(known)))
    drawable = max(0, view.stock_size - rules.wall_stock_size)
    age = min(AGE_TURNS, max(0, (INITIAL_STOCK - view.stock_size) // 2 + AGE_EXTRA), len(pool) - size)
    last = last_opponent_discard(view)
    pile = [int(c) for c in view.discard_pile]
    samples: list[OpponentSample] = []
    for _ in range(n):
        cards: list[int] = []
        for _ in range(AGE_TRIES):
            rng.shuffle(pool)
            cards = known + pool[:size]
            kept = True
            for card in pool[size : size + age]:
                cards.append(card)
                if knock_home(rules, cards):
                    kept = False
                    break
                thrown = opponent_discard(rules, cards, None)
                if thrown in known:
                    thrown = max((c for c in cards if c not in known), key=lambda c: (c % NUM_RANKS, c))
                cards.remove(thrown)
            if kept and last is not None:
                before = [*cards, last]
                kept = not knock_home(rules, before) and opponent_discard(rules, before, None) == last
            if kept:
                break
        else:
            cards = known + pool[:size]
        held = set(cards)
        mask = mask_of(cards)
        weight = PILE_LIKELIHOOD ** sum(1 for card in pile if melds_with(card, mask))
        samples.append((cards, [c for c in pool if c not in held][:drawable], weight))
    return samples


def duel_values(
    rules: Rules, options: Sequence[tuple[Sequence[int], int | None]], samples: Sequence[OpponentSample]
) -> list[float]:
    """Per option (ten cards and the card just discarded, or ``None``: draw first), the weighted mean
    of its duels over ``samples`` (every option on the same samples)."""
    rows = gin_duels(rules, options, [s[0] for s in samples], [s[1] for s in samples])
    total = sum(s[2] for s in samples) or 1.0
    return [sum(row[i] * samples[k][2] for k, row in enumerate(rows)) / total for i in range(len(options))]


__all__ = [
    "AGE_EXTRA",
    "AGE_TRIES",
    "AGE_TURNS",
    "DRAWN",
    "DUEL_TURNS",
    "INITIAL_STOCK",
    "OpponentSample",
    "OpponentSampler",
    "duel_values",
    "gin_duel",
    "gin_duels",
    "last_opponent_discard",
    "opponent_discard",
    "opponent_takes",
    "own_discard",
    "sampled_opponents",
]
