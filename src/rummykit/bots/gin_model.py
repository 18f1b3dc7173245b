"""What the gin opponent's play says about its hand (RULES.md §5.4): an opponent model.

Heads-up gin shows little: the opponent's discards, the upcards it took or left, and whether it has
knocked. Each of these is a choice, and a player who keeps its deadwood low makes them in a known way.
:func:`opponent_hands` samples the opponent's hand so that it agrees with how the opponent played,
under this model of a **deadwood-minimising player**:

* **upcard** (first upcard or draw): it takes the upcard when the card ends up in a meld (the
  least deadwood of the hand with it is below the hand's deadwood plus the card's value) or when
  taking it allows a knock, and leaves it otherwise (:func:`wants_card`). A choice against that
  rule keeps :data:`TAKE_MISS` (take) or :data:`PASS_MISS` (leave) of a sample's weight.
* **discard**: it throws the card that leaves the least deadwood; a discard that leaves ``g`` more
  points of deadwood than the best one keeps ``exp(-DISCARD_SHARPNESS * g)`` of the weight (a
  discarded ten says its other loose cards are no higher; a card from a meld is very unlikely).
* **knock**: it knocks as soon as its deadwood allows; each discard made although the hand allowed a
  knock keeps :data:`KNOCK_MISS` of the weight.

The hand a sample holds at each earlier turn follows from the hand now by undoing the turns from the
last one back (:func:`_weigh`): add back the card discarded, take out the card drawn. A taken upcard
is known; a stock card is any card of the hand then that did not come from the discard pile, and it
is picked uniformly, which is exactly the prior (every card the opponent got from the deal or the
stock is alike to this seat). So a sample is drawn from the prior (the opponent's known taken cards
plus random unseen cards) and weighted by the likelihood of its recorded turns: importance sampling.

The turns come from :class:`GinMemory`, which a bot feeds with every view it decides on and every
action it takes: between two own turns of a heads-up hand the opponent took the top discard or not
and discarded one card, which the discard pile shows.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rummykit import solver
from rummykit.actions import Action, Discard, Pass
from rummykit.determinize import unseen_cards
from rummykit.gin import values_of
from rummykit.gin_melds import mask_of
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView

TAKE_MISS: Final = 0.02
"""Weight kept by a sample in which the opponent took an upcard it had no use for."""
PASS_MISS: Final = 0.02
"""Weight kept by a sample in which the opponent left an upcard that would have melded."""
DISCARD_SHARPNESS: Final = 3.0
"""Per point of deadwood a discard leaves above the best discard, the log-weight a sample loses."""
KNOCK_MISS: Final = 0.01
"""Weight kept by a sample for each discard made where it could have knocked."""
MAX_TURNS: Final = 12
"""Opponent turns weighed, the latest ones (older turns say less about the hand now)."""


@dataclass(frozen=True, slots=True)
class OpponentTurn:
    """One opponent turn: the upcard it was offered (``None``: it had to draw from the stock),
    whether it took it, and the card it discarded (``None``: it passed the first upcard)."""

    offered: int | None
    took: bool
    discard: int | None


@dataclass
class GinMemory:
    """The opponent's turns of one heads-up gin hand, read from one seat's views.

    Call :meth:`observe` with every view the seat decides on and :meth:`acted` with its action. A
    stretch between two own turns that the discard pile does not explain stops the record for the
    hand (it never guesses); a new hand (another dealer, a fuller stock) starts a new one.
    """

    turns: list[OpponentTurn] = field(default_factory=list)
    broken: bool = False
    _key: tuple[int, int] | None = None
    _stock: int = -1
    _pending: tuple[tuple[int, ...], bool] | None = None
    _started: bool = False

    def reset(self) -> None:
        self.turns = []
        self.broken = False
        self._pending = None
        self._started = False

    def observe(self, view: PlayerView) -> None:
        """Learn the opponent's turns since this seat's last one from ``view``."""
        key = (view.seat, view.dealer)
        if key != self._key or view.stock_size > self._stock:
            self.reset()
            self._key = key
        self._stock = view.stock_size
        if self.broken or view.knocker is not None or len(view.hand_sizes) != 2:
            self._pending = None
            return
        pile = tuple(int(c) for c in view.discard_pile)
        pending, self._pending = self._pending, None
        if pending is None:
            if not self._started:
                self._started = True
                self._opening(view, pile)
            return
        before, forced = pending
        if pile == before and before:
            self.turns.append(OpponentTurn(before[-1], False, None))
        elif len(pile) == len(before) + 1 and pile[:-1] == before:
            self.turns.append(OpponentTurn(None if forced or not before else before[-1], False, pile[-1]))
        elif before and len(pile) == len(before) and pile[:-1] == before[:-1]:
            self.turns.append(OpponentTurn(before[-1], True, pile[-1]))
        else:
            self.broken = True

    def _opening(self, view: PlayerView, pile: tuple[int, ...]) -> None:
        """The first view of the hand: the dealer may have seen the non-dealer pass or take the
        first upcard."""
        if view.seat != view.dealer or view.gin is None:
            return
        known = [int(c) for c in view.known_cards[1 - view.seat]] if view.known_cards else []
        if view.phase is Phase.FIRST_UPCARD and view.gin.upcard_passes == 1 and pile:
            self.turns.append(OpponentTurn(pile[-1], False, None))
        elif len(pile) == 1 and len(known) == 1:
            self.turns.append(OpponentTurn(known[0], True, pile[-1]))

    def acted(self, view: PlayerView, action: Action) -> None:
        """This seat chose ``action`` in ``view``: remember the pile when its turn ends."""
        self._started = True
        pile = tuple(int(c) for c in view.discard_pile)
        if isinstance(action, Discard) and view.phase is Phase.DISCARD:
            self._pending = ((*pile, int(action.card)), False)
        elif isinstance(action, Pass) and view.phase is Phase.FIRST_UPCARD:
            forced = view.gin is not None and view.gin.upcard_passes == 1
            self._pending = (pile, forced)


def wants_card(rules: Rules, hand: int, card: int, knock_card: int) -> bool:
    """Whether a deadwood-minimising player holding ``hand`` (a bit mask of ten cards) takes ``card``:
    it ends up in a meld, or it allows a knock."""
    values = values_of(rules)
    cards = _cards(hand)
    with_card = [*cards, card]
    if solver.min_deadwood(with_card, rules) < solver.min_deadwood(cards, rules) + values[card]:
        return True
    return solver.best_discards(with_card, rules)[0] <= knock_card


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _discard_weight(rules: Rules, eleven: int, card: int, knock_card: int) -> float:
    """Likelihood that a deadwood-minimising player holding ``eleven`` discards ``card``."""
    cards = _cards(eleven)
    best, discards = solver.best_discards(cards, rules)
    weight = KNOCK_MISS if best <= knock_card else 1.0
    if card in discards:
        return weight
    left = solver.min_deadwood([c for c in cards if c != card], rules)
    return weight * math.exp(-DISCARD_SHARPNESS * (left - best))


def _weigh(
    rules: Rules,
    hand: int,
    turns: Sequence[OpponentTurn],
    taken_before: Sequence[int],
    knock_card: int,
    rng: random.Random,
) -> float:
    """Likelihood of ``turns`` (oldest first) for an opponent holding ``hand`` now; ``taken_before[k]``
    is the mask of upcards it took before turn ``k``."""
    weight = 1.0
    now = hand
    for k in range(len(turns) - 1, -1, -1):
        turn = turns[k]
        before = now
        if turn.discard is not None:
            eleven = now | 1 << turn.discard
            weight *= _discard_weight(rules, eleven, turn.discard, knock_card)
            if turn.took and turn.offered is not None:
                if not eleven >> turn.offered & 1:
                    return 0.0
                drawn = turn.offered
            else:
                choices = _cards(eleven & ~taken_before[k])
                if not choices:
                    return 0.0
                drawn = rng.choice(choices)
            before = eleven & ~(1 << drawn)
        if turn.offered is not None and weight > 0.0:
            wanted = wants_card(rules, before, turn.offered, knock_card)
            if turn.took != wanted:
                weight *= TAKE_MISS if turn.took else PASS_MISS
        now = before
    return weight


class _Model:
    """The evidence of one decision: what a sampled hand is drawn from and weighed against."""

    def __init__(self, view: PlayerView, turns: Sequence[OpponentTurn]) -> None:
        opponent = 1 - view.seat
        self.rules = view.rules
        self.known = mask_of(view.known_cards[opponent]) if view.known_cards else 0
        self.size = view.hand_sizes[opponent] - bin(self.known).count("1")
        self.pool: list[int] = [int(c) for c in unseen_cards(view)]
        self.knock_card = view.gin.knock_card if view.gin is not None else view.rules.knock_threshold or 0
        self.turns = list(turns[-MAX_TURNS:])
        taken = 0
        for turn in turns[: len(turns) - len(self.turns)]:
            if turn.took and turn.offered is not None:
                taken |= 1 << turn.offered
        self.taken_before: list[int] = []
        for turn in self.turns:
            self.taken_before.append(taken)
            if turn.took and turn.offered is not None:
                taken |= 1 << turn.offered

    def draw(self, rng: random.Random) -> int:
        """A hand from the prior: the known cards and random unseen ones."""
        size = min(self.size, len(self.pool))
        return self.known | mask_of(rng.sample(self.pool, size) if size > 0 else ())

    def weigh(self, hand: int, rng: random.Random) -> float:
        if not self.turns:
            return 1.0
        return _weigh(self.rules, hand, self.turns, self.taken_before, self.knock_card, rng)

    def swap(self, hand: int, rng: random.Random) -> int:
        """``hand`` with one of its unknown cards swapped for another unseen card (a symmetric move)."""
        free = hand & ~self.known
        if not free or self.size >= len(self.pool):
            return hand
        out = rng.choice([c for c in self.pool if free >> c & 1])
        into = rng.choice([c for c in self.pool if not hand >> c & 1])
        return hand & ~(1 << out) | 1 << into


def opponent_hands(
    view: PlayerView, turns: Sequence[OpponentTurn], rng: random.Random, samples: int
) -> list[tuple[int, float]]:
    """Sampled hands of the heads-up opponent (bit masks) with their weights (module docstring).
    Without recorded ``turns`` every sample weighs 1."""
    model = _Model(view, turns)
    hands: list[tuple[int, float]] = []
    for _ in range(samples):
        hand = model.draw(rng)
        hands.append((hand, model.weigh(hand, rng)))
    return hands


def posterior_hands(
    view: PlayerView, turns: Sequence[OpponentTurn], rng: random.Random, count: int, steps: int
) -> list[int]:
    """``count`` hands of the heads-up opponent drawn by the opponent model: weighted samples
    (:func:`opponent_hands`) resampled, then each moved by ``steps`` Metropolis swaps of one card (the
    evidence can be too strong for the prior's samples alone: after a low discard, hardly any random
    hand lacks a loose high card)."""
    model = _Model(view, turns)
    hands: list[tuple[int, float]] = []
    for _ in range(2 * count):
        hand = model.draw(rng)
        hands.append((hand, model.weigh(hand, rng)))
    if not model.turns:
        return [h for h, _ in hands[:count]]
    weights = {h: w for h, w in hands}
    out: list[int] = []
    for hand in resample(hands, count, rng):
        weight = weights.get(hand, 0.0)
        for _ in range(steps):
            moved = model.swap(hand, rng)
            new = model.weigh(moved, rng)
            if new >= weight or rng.random() * weight < new:
                hand, weight = moved, new
        out.append(hand)
    return out


def resample(hands: Sequence[tuple[int, float]], count: int, rng: random.Random) -> list[int]:
    """``count`` hands drawn from the weighted ``hands`` (systematic resampling); the unweighted
    hands when every weight is 0."""
    total = sum(w for _, w in hands)
    if total <= 0.0:
        return [h for h, _ in hands[:count]]
    step = total / count
    point = rng.random() * step
    out: list[int] = []
    acc = 0.0
    for hand, w in hands:
        acc += w
        while point < acc and len(out) < count:
            out.append(hand)
            point += step
    while len(out) < count:
        out.append(hands[-1][0])
    return out
