"""Race play-outs: how many own turns a hand needs to get home against a sampled stock.

Heads-up rummy is a race: the round is won by whoever goes out (melding games) or knocks first
(knock games). :class:`~rummykit.bots.search.SearchBot` therefore values a candidate move by the
number of own turns the hand then needs to get home, played forward on a determinized stock: a
sequence of distinct cards drawn from those the seat cannot see (:func:`~rummykit.determinize.
unseen_cards`), which is exactly the stock order of a determinization seen from this seat.

The play-outs run on plain card lists and call the solver directly, without the round engine, so a
decision can afford hundreds of them (a Viennese play-out of eight turns is eight
:func:`~rummykit.solver.best_discards` calls, most of them cached):

* :func:`knock_race`: draw, then call Rummy or knock as soon as the hand allows (RULES.md §4.4–4.5),
  else discard the card that leaves the least deadwood. Given the ``live`` cards (those the seat
  cannot see: they may still come), it is *draw-aware*: among the discards leaving the least
  deadwood (or little more, :data:`OUT_MARGIN`) it keeps the hand with the least deadwood less
  :data:`OUT_WEIGHT` per live out (:func:`meld_outs`), then sheds the card worth most.
  The play-out never reads its own stock to choose: only which cards are unseen, less those it has
  drawn since.
* :func:`meld_race`: draw, open as soon as the best opening reaches ``opening_min_points``
  (RULES.md §3.7), later lay every meld and every lay-off the table takes (§3.9–3.10, not on the
  opening turn unless ``layoff_on_opening_turn``), go out when at most the discard is left (§3.12),
  else discard the card that leaves the least deadwood.

A hand that is not home after the horizon is charged the horizon plus one turn plus its points left
over a rate of points shed per turn (and, still closed, one more turn per opening it lacks), so that
every sample orders the candidates.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit import solver
from rummykit.bots.greedy import cheapest_shed, deadwood, without
from rummykit.cards import JOKER_CODE, NUM_RANKS, NUM_SUITS
from rummykit.knocking import knock_allowed
from rummykit.melds import Meld, position_bounds
from rummykit.rules import Rules

KNOCK_POINTS_PER_TURN: Final = 8.0
"""Deadwood a knock-game hand sheds per turn, roughly: converts what is left at the horizon into turns."""
MELD_POINTS_PER_TURN: Final = 12.0
"""The same for a melding-game hand."""
CLOSED_TURNS: Final = 2.0
"""Extra turns charged at the horizon to a hand that has not opened yet."""


def shed_card(rules: Rules, hand: Sequence[int], barred: int | None = None) -> int:
    """The card a race hand discards: among those leaving the least deadwood the one worth most,
    never a joker or the ``barred`` card (the discard just taken) while anything else may go."""
    shed = cheapest_shed(rules, hand, barred)
    if shed is not None:
        return shed
    usable = [c for c in hand if c != barred and c != JOKER_CODE] or [c for c in hand if c != barred]
    return max(usable or hand, key=lambda c: (rules.card_points(c), c))


OUT_MARGIN: Final = 4
"""Draw-aware races: the most deadwood above the least a discard may leave to keep more live outs."""
OUT_WEIGHT: Final = 2.0
"""Draw-aware races: deadwood points one live out is worth when choosing the discard."""
SUIT_RANKS: Final = (1 << NUM_RANKS) - 1
"""The thirteen rank bits of one suit in a mask of card codes (``suit * 13 + rank - 1``)."""


def card_mask(cards: Iterable[int]) -> int:
    """The natural cards of ``cards`` as a mask over card codes (jokers left out)."""
    mask = 0
    for c in cards:
        if c != JOKER_CODE:
            mask |= 1 << c
    return mask


def _check_codes(stocks: Sequence[Sequence[int]], live: Collection[int] | None) -> None:
    """Refuse, once per batch of pure play-outs, a code that is no card's in the stocks or ``live``,
    as the compiled race kernels refuse it (:func:`card_mask`, run per draw, does not check)."""
    for cards in (*stocks, live or ()):
        for c in cards:
            if not 0 <= c <= JOKER_CODE:
                raise ValueError(f"no card has code {c}: codes run from 0 to {JOKER_CODE}")


def out_mask(rules: Rules, held: int) -> int:
    """The card codes that would form a meld of three with two natural cards of the ``held`` mask:
    two suited neighbours on run positions the rules allow (an ace low and, with
    ``ace_high_in_runs``, high), or ``set_size_min - 1`` cards of the rank (of other suits when
    ``set_distinct_suits``). A card that extends a held meld is one of them. Jokers are not counted."""
    lo, hi = position_bounds(rules)
    valid = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)
    outs = 0
    for suit in range(NUM_SUITS):
        ranks = (held >> (NUM_RANKS * suit)) & SUIT_RANKS
        pos = ((ranks << 1) | ((ranks & 1) << NUM_RANKS + 1)) & valid  # bit p: position p, the ace 1 and 14
        near = (((pos >> 1) & (pos >> 2)) | ((pos << 1) & (pos >> 1)) | ((pos << 1) & (pos << 2))) & valid
        outs |= (((near >> 1) | (near >> NUM_RANKS + 1)) & SUIT_RANKS) << (NUM_RANKS * suit)
    need = rules.set_size_min - 1
    for rank in range(NUM_RANKS):
        suits = [(held >> (NUM_RANKS * s + rank)) & 1 for s in range(NUM_SUITS)]
        count = sum(suits)
        for s in range(NUM_SUITS):
            if count - (suits[s] if rules.set_distinct_suits else 0) >= need:
                outs |= 1 << (NUM_RANKS * s + rank)
    return outs


def meld_outs(rules: Rules, hand: Sequence[int], live: int) -> int:
    """How many cards of the ``live`` mask would form a meld of three with ``hand`` (:func:`out_mask`)."""
    return (out_mask(rules, card_mask(hand)) & live).bit_count()


def race_shed(rules: Rules, hand: Sequence[int], live: int | None) -> int:
    """The card a knock-race hand discards: :func:`shed_card`, or with ``live`` (the mask of the
    cards that may still come) the natural card whose discard leaves at most :data:`OUT_MARGIN`
    more than the least deadwood and the least deadwood less :data:`OUT_WEIGHT` per live out
    (:func:`meld_outs`), then the one worth most."""
    if live is None:
        return shed_card(rules, hand)
    low, _ = solver.best_discards(hand, rules)
    best: tuple[float, int, int] | None = None
    for c in set(hand):
        if c == JOKER_CODE:
            continue
        rest = without(hand, (c,))
        left = deadwood(rest, rules)
        if left > low + OUT_MARGIN:
            continue
        key = (OUT_WEIGHT * meld_outs(rules, rest, live) - left, rules.card_points(c), c)
        if best is None or key > best:
            best = key
    return shed_card(rules, hand) if best is None else best[2]


def knock_home(rules: Rules, hand: Sequence[int]) -> bool:
    """Whether a knock-game hand after its draw can call Rummy or knock (RULES.md §4.4–4.5)."""
    deadwood, _ = solver.best_discards(hand, rules)
    return deadwood == 0 or knock_allowed(deadwood, rules.knock_threshold or 0, rules.knock_comparison)


def knock_race(
    rules: Rules, hand: Sequence[int], draws: Sequence[int], live: Collection[int] | None = None
) -> float:
    """Own turns until ``hand`` (10 cards, after its discard) can call Rummy or knock, drawing
    ``draws`` in order; not home after ``len(draws)`` turns: the estimate described above.
    ``live``: the cards that may still come (draw-aware discards, see the module docstring)."""
    cards = list(hand)
    pool = None if live is None else card_mask(live)
    for turn, card in enumerate(draws, start=1):
        cards.append(card)
        if knock_home(rules, cards):
            return float(turn)
        if pool is not None:
            pool &= ~card_mask((card,))
        cards.remove(race_shed(rules, cards, pool))
    return len(draws) + 1 + deadwood(cards, rules) / KNOCK_POINTS_PER_TURN


def knock_races(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    stocks: Sequence[Sequence[int]],
    draws: int,
    live: Collection[int] | None = None,
) -> list[list[float]]:
    """:func:`knock_race` of every hand on the first ``draws`` cards of every stock, a row per stock
    (``live``: draw-aware discards, see :func:`knock_race`).

    On the compiled solver backend the whole batch is played in native code without the GIL (on
    both cores); the answers are the same as the Python play-outs'.
    """
    rows = solver.backend.current.knock_races(
        rules, hands, stocks, draws, KNOCK_POINTS_PER_TURN, live, OUT_MARGIN, OUT_WEIGHT
    )
    if rows is not None:
        return rows
    _check_codes(stocks, live)
    return [[knock_race(rules, hand, stock[:draws], live) for hand in hands] for stock in stocks]


def knock_draw_races(
    rules: Rules, hand: Sequence[int], stocks: Sequence[Sequence[int]], live: Collection[int] | None = None
) -> list[float]:
    """Knock games: :func:`race_after_draw` of ``hand`` drawing each stock's first card from the stock
    and then the rest of that stock (non-empty stocks of one length; ``live``: draw-aware discards,
    see :func:`knock_race`).

    Drawing ``stock[0]`` and racing on is :func:`knock_race` on the whole stock less the turn of that
    draw (exactly: turns and the estimate past the horizon are small binary fractions).
    """
    if not stocks:
        return []
    rows = solver.backend.current.knock_races(
        rules, [hand], stocks, len(stocks[0]), KNOCK_POINTS_PER_TURN, live, OUT_MARGIN, OUT_WEIGHT
    )
    if rows is not None:
        return [row[0] - 1.0 for row in rows]
    _check_codes(stocks, live)
    if live is not None:
        return [knock_race(rules, hand, stock, live) - 1.0 for stock in stocks]
    return [race_after_draw(rules, hand, False, (), stock[0], stock[1:], taken=False) for stock in stocks]


@dataclass(frozen=True, slots=True)
class MeldHand:
    """A melding-game seat in a race: its cards, whether it has opened, and the table melds."""

    cards: tuple[int, ...]
    opened: bool
    table: tuple[Meld, ...]


def lay_opening(rules: Rules, cards: list[int]) -> list[Meld]:
    """The opening a race hand lays (RULES.md §3.7): the best opening once it reaches
    ``opening_min_points``, its cards taken out of ``cards``; empty when the hand cannot open."""
    keep_one = rules.going_out_requires_discard
    need = rules.opening_min_points or 0
    if need and solver.max_opening_value(cards, rules, keep_one=keep_one) < need:
        return []
    opening: Sequence[Meld] = solver.best_opening(cards, rules, keep_one=keep_one) or []
    for meld in opening:
        for c in meld.cards:
            cards.remove(c)
    return list(opening)


def meld_turn(rules: Rules, state: MeldHand, card: int, barred: int | None = None) -> MeldHand | None:
    """One own turn after drawing ``card`` (``barred``: it was the taken discard and may not go back).

    Returns the hand after its discard, or ``None`` when the seat goes out in this turn.
    """
    cards = [*state.cards, card]
    table = list(state.table)
    opened = state.opened
    keep_one = rules.going_out_requires_discard
    opened_now = False
    if not opened:
        opening = lay_opening(rules, cards)
        if opening:
            table += opening
            opened = opened_now = True
    else:
        for meld in solver.best_arrangement(cards, rules).melds:
            if keep_one and len(cards) <= len(meld.cards):
                break
            for c in meld.cards:
                cards.remove(c)
            table.append(meld)
    if opened and table and cards and (not opened_now or rules.layoff_on_opening_turn):
        for c, index, end in solver.layoff_chain(cards, table, rules):
            if keep_one and len(cards) <= 1:
                break
            table[index] = table[index].with_layoff(c, rules, end)
            cards.remove(c)
    if opened and (not cards or (len(cards) == 1 and cards[0] != barred)):
        return None
    cards.remove(shed_card(rules, cards, barred))
    return MeldHand(tuple(cards), opened, tuple(table))


def _race_options(rules: Rules) -> tuple[int, bool, bool, bool, float, float]:
    """What a compiled melding race reads of the rules (:meth:`rummykit.solver.backend.Backend.meld_race`)."""
    return (
        rules.opening_min_points or 0,
        rules.opening_scope == "single_meld",
        rules.going_out_requires_discard,
        rules.layoff_on_opening_turn,
        MELD_POINTS_PER_TURN,
        CLOSED_TURNS,
    )


def meld_race(rules: Rules, state: MeldHand, draws: Sequence[int]) -> float:
    """Own turns until the seat goes out, drawing ``draws`` in order (estimate past the horizon).

    On the compiled solver backend the whole play-out runs in native code (same answers).
    """
    seat = (state.cards, state.opened, state.table)
    found = solver.backend.current.meld_race(rules, seat, None, None, draws, _race_options(rules))
    if found is not None:
        return found
    current = state
    for turn, card in enumerate(draws, start=1):
        after = meld_turn(rules, current, card)
        if after is None:
            return float(turn)
        current = after
    left = deadwood(current.cards, rules)
    return len(draws) + 1 + left / MELD_POINTS_PER_TURN + (0.0 if current.opened else CLOSED_TURNS)


def race_after_draw(
    rules: Rules,
    cards: Sequence[int],
    opened: bool,
    table: Sequence[Meld],
    card: int,
    draws: Sequence[int],
    taken: bool,
) -> float:
    """The race of a hand that draws ``card`` now (``taken``: from the discard pile, so it may not
    be discarded again this turn) and then ``draws``; 0 when this turn already gets it home."""
    barred = card if taken and not rules.may_discard_taken_discard else None
    if rules.is_knock_game:
        hand = [*cards, card]
        if knock_home(rules, hand):
            return 0.0
        hand.remove(shed_card(rules, hand, barred))
        return knock_race(rules, hand, draws)
    race = _race_options(rules)
    found = solver.backend.current.meld_race(rules, (cards, opened, table), card, barred, draws, race)
    if found is not None:
        return found
    after = meld_turn(rules, MeldHand(tuple(cards), opened, tuple(table)), card, barred)
    if after is None:
        return 0.0
    return meld_race(rules, after, draws)


__all__ = [
    "MeldHand",
    "card_mask",
    "knock_draw_races",
    "knock_home",
    "knock_race",
    "knock_races",
    "lay_opening",
    "meld_outs",
    "meld_race",
    "meld_turn",
    "out_mask",
    "race_after_draw",
    "race_shed",
    "shed_card",
]
