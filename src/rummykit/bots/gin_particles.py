"""Reading the opponent's gin hand from the hand's history: a particle filter (RULES.md §5.4).

Heads-up gin hides the opponent's ten cards, but every one of its moves is public: whether it took
the first upcard, whether it took each upcard or drew from the stock, which card it discarded, and
that it did not knock. :class:`GinHistory` (one per seat, kept across that seat's decisions of a
hand) reconstructs those moves from one own decision to the next, the way
:class:`~rummykit.bots.inference.TableMemory` reads the discard pile as a stack, but in order and
with gin's first-upcard phase. :func:`filter_hands` then runs a sequential-importance-resampling
filter over the opponent's hand, from the deal to now:

* the cards that can have come to the opponent from the deal or the stock are the cards this seat
  cannot see now and the opponent's discards that this seat had never seen before they were thrown
  (``fresh``): every card this seat held, drew or saw as the first upcard was never dealt to the
  opponent nor drawn by it;
* a particle starts with a dealt hand: the fresh cards it threw before its first stock draw (it must
  have been dealt them) and cards drawn uniformly from the rest;
* each stock draw is uniform over the cards still possible; when the particle lacks a fresh card
  that it throws before its next stock draw, the draw is that card, and the particle's weight takes
  the chance of that draw (one over the cards possible); a particle that would need two is dropped;
* each decision multiplies the weight by its likelihood under :class:`OpponentModel`, a soft
  deadwood-minimising player (the rule of OpenSpiel's simple bot, :func:`~.gin_duel.opponent_takes`
  and :func:`~.gin_duel.opponent_discard`): the rule's choice has ``1 − slip``, any other choice
  shares ``slip``; a hand that could knock and did not weighs ``knock_slip``;
* when the effective sample size falls below half the particles they are resampled (systematic).

The filter is rerun from the deal at every decision it is asked for (a particle may not hold a card
this seat has seen since), so it is exact for the model up to the particle count. Against another
deadwood-minimising opponent (greedy) the model is blunter but still right about what melds and what
knocks. :func:`particle_opponents` gives the particles as duel samples
(:data:`~.gin_duel.OpponentSampler`); without a usable history it falls back to
:func:`~.gin_duel.sampled_opponents`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rummykit import solver
from rummykit.actions import Action, Discard, Pass
from rummykit.bots.gin_duel import OpponentSample, opponent_takes, sampled_opponents
from rummykit.bots.race import knock_home
from rummykit.cards import NUM_RANKS
from rummykit.determinize import unseen_cards
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView

PARTICLES: Final = 1000
"""Particles per filter run (the duels then use as many samples as the search level asks)."""
RESAMPLE_SHARE: Final = 0.5
"""Resample when the effective sample size falls below this share of the particles."""
MOVES: Final = 0
"""Metropolis moves per particle after the last resampling (resample-move)."""
SWAP_SHARE: Final = 0.3
"""Share of the moves that swap two of a particle's cards between deal and draws."""
HAND_SIZE: Final = 10


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """A soft deadwood-minimising opponent: it takes, discards and knocks by the simple bot's rule
    but for a ``take_slip`` (the other of take and pass), ``tie_slip`` (another card that leaves the
    least deadwood, not the highest-ranked), ``discard_slip`` (a card that leaves more) and
    ``knock_slip`` (not knocking when able). OpenSpiel's bot, against the rule, on 1,000 of its
    decisions (seed 11): 2 of 469 take-or-pass decisions and 2 of 600 discards were slips; its
    choice among equally ranked cards (64 discards) is not modelled, they share.
    """

    take_slip: float = 0.01
    tie_slip: float = 0.01
    discard_slip: float = 0.001
    knock_slip: float = 0.001


MODEL: Final = OpponentModel()


@dataclass(frozen=True, slots=True)
class OpponentTurn:
    """One move of the opponent: it saw ``top`` (``None``: it had to draw, both passed the first
    upcard) and took it or drew from the stock, then discarded ``discard``; or, with ``discard``
    ``None``, it passed the first upcard (no draw)."""

    top: int | None
    took: bool
    discard: int | None


@dataclass
class GinHistory:
    """The opponent's moves in one gin hand as one seat saw them (see the module docstring).

    Call :meth:`observe` with every view the seat decides on and :meth:`acted` with its choice. A
    stretch that cannot be read (anything but heads-up gin's usual moves) makes the history unusable
    (``broken``) for the rest of the hand: the history never guesses.
    """

    turns: list[OpponentTurn] = field(default_factory=list)
    seen: set[int] = field(default_factory=set)
    """Cards this seat held, drew or saw as the first upcard."""
    fresh: list[int] = field(default_factory=list)
    """The opponent's discards that this seat had not seen before they were thrown, in order."""
    broken: bool = False
    _key: tuple[int, int] | None = None
    _turn: int = -1
    _after: tuple[list[int], str, int] | None = None
    """After this seat's last turn-ending move: the pile, the move (``discard`` or ``pass``) and the
    first-upcard passes before it."""

    def reset(self) -> None:
        self.turns, self.seen, self.fresh, self.broken, self._after = [], set(), [], False, None

    def _discarded(self, card: int) -> None:
        if card not in self.seen and card not in self.fresh:
            self.fresh.append(card)

    def observe(self, view: PlayerView) -> None:
        """Read a view of this seat's decision: what the opponent did since its last one."""
        key = (view.seat, view.dealer)
        if key != self._key or view.turn < self._turn:
            self.reset()
            self._key = key
        self._turn = view.turn
        if view.gin is None or len(view.active_seats) != 2:
            self.broken = True
            return
        after, self._after = self._after, None
        if not self.broken and view.knocker is None:
            self._read(view, after)
        if not self.broken:
            self.seen.update(c for c in map(int, view.hand) if c not in self.fresh)

    def _read(self, view: PlayerView, after: tuple[list[int], str, int] | None) -> None:
        gin = view.gin
        assert gin is not None
        pile = [int(c) for c in view.discard_pile]
        known = [int(c) for c in view.known_cards[1 - view.seat]] if view.known_cards else []
        if after is None:
            if self.turns or self.seen:  # a later decision without a turn of this seat before it
                if view.phase is Phase.DISCARD:
                    return  # the second decision of this seat's turn: nothing happened
                self.broken = True
                return
            # The hand's first decision of this seat.
            if view.phase is Phase.FIRST_UPCARD and gin.upcard_passes == 0 and len(pile) == 1:
                self.seen.add(pile[0])
            elif view.phase is Phase.FIRST_UPCARD and gin.upcard_passes == 1 and len(pile) == 1:
                self.seen.add(pile[0])
                self.turns.append(OpponentTurn(pile[0], False, None))
            elif view.phase is Phase.DRAW and len(pile) == 1 and len(known) == 1:
                self.seen.add(known[0])  # it took the first upcard and threw the top card
                self.turns.append(OpponentTurn(known[0], True, pile[0]))
                self._discarded(pile[0])
            else:
                self.broken = True
            return
        before, move, passes = after
        if move == "pass" and passes == 0:  # this seat passed the first upcard; then the opponent
            if view.phase is Phase.FIRST_UPCARD and gin.upcard_passes == 2 and pile == before:
                self.turns.append(OpponentTurn(before[-1], False, None))
            elif view.phase is Phase.DRAW and len(pile) == 1 and known == [before[-1]]:
                self.turns.append(OpponentTurn(before[-1], True, pile[0]))
                self._discarded(pile[0])
            else:
                self.broken = True
        elif move == "pass":  # both passed: the opponent had to draw
            if view.phase is Phase.DRAW and len(pile) == len(before) + 1 and pile[:-1] == before:
                self.turns.append(OpponentTurn(None, False, pile[-1]))
                self._discarded(pile[-1])
            else:
                self.broken = True
        elif view.phase in (Phase.DRAW, Phase.WALL) and pile[:-1] == before:
            self.turns.append(OpponentTurn(before[-1], False, pile[-1]))
            self._discarded(pile[-1])
        elif view.phase in (Phase.DRAW, Phase.WALL) and pile[:-1] == before[:-1] and before[-1] in known:
            self.turns.append(OpponentTurn(before[-1], True, pile[-1]))
            self._discarded(pile[-1])
        else:
            self.broken = True

    def acted(self, view: PlayerView, action: Action) -> None:
        """This seat chose ``action`` in ``view``: a discard or a first-upcard pass ends its move."""
        if self.broken or view.gin is None:
            return
        pile = [int(c) for c in view.discard_pile]
        if isinstance(action, Discard) and view.phase is Phase.DISCARD:
            self._after = ([*pile, int(action.card)], "discard", 0)
        elif isinstance(action, Pass) and view.phase is Phase.FIRST_UPCARD:
            self._after = (pile, "pass", view.gin.upcard_passes)


def _systematic(weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indices drawn in proportion to ``weights`` by systematic resampling."""
    total = sum(weights)
    step = total / count
    u = rng.random() * step
    out: list[int] = []
    acc = 0.0
    i = 0
    for k in range(count):
        target = u + k * step
        while acc + weights[i] < target and i < len(weights) - 1:
            acc += weights[i]
            i += 1
        out.append(i)
    return out


def discard_likelihood(
    rules: Rules, hand: Sequence[int], barred: int | None, card: int, model: OpponentModel
) -> float:
    """The chance that the modelled opponent throws ``card`` from ``hand`` (eleven cards): the rule's
    choices, the highest-ranked cards among those whose discard leaves the least deadwood (never
    ``barred``; equal ranks share), have ``1 − tie_slip − discard_slip``; the other cards leaving the
    least deadwood share ``tie_slip``, the rest ``discard_slip``."""
    _, best = solver.best_discards(hand, rules)
    usable = [int(c) for c in best if c != barred] or [c for c in hand if c != barred]
    top = max(c % NUM_RANKS for c in usable)
    chosen = sum(1 for c in usable if c % NUM_RANKS == top)
    if card in usable:
        if card % NUM_RANKS == top:
            return (1.0 - model.tie_slip - model.discard_slip) / chosen
        return model.tie_slip / (len(usable) - chosen)
    return model.discard_slip / max(1, len(hand) - len(usable) - (barred is not None))


def _turn_weight(
    rules: Rules, hand: list[int], turn: OpponentTurn, drawn: int | None, model: OpponentModel
) -> float:
    """The likelihood of ``turn`` for a particle holding ``hand`` (changed in place to the hand after
    it), ``drawn`` its stock card; 0 when the particle cannot have thrown the card it threw."""
    w = 1.0
    if turn.top is not None:
        w = 1.0 - model.take_slip if opponent_takes(rules, hand, turn.top) == turn.took else model.take_slip
    if turn.discard is None:  # a first-upcard pass
        return w
    barred = None
    if turn.took:
        assert turn.top is not None
        hand.append(turn.top)
        barred = None if rules.may_discard_taken_discard else turn.top
    else:
        assert drawn is not None
        hand.append(drawn)
    if turn.discard not in hand:
        return 0.0
    if knock_home(rules, hand):
        w *= model.knock_slip
    w *= discard_likelihood(rules, hand, barred, turn.discard, model)
    hand.remove(turn.discard)
    return w


def _replay(
    rules: Rules,
    turns: Sequence[OpponentTurn],
    dealt: Sequence[int],
    draws: Sequence[int],
    model: OpponentModel,
) -> tuple[float, list[int]]:
    """The likelihood of the whole history for a dealt hand and the stock cards drawn (one per draw
    turn, in order), and the hand it ends with."""
    hand = list(dealt)
    w = 1.0
    k = 0
    for turn in turns:
        drawn = None
        if not turn.took and turn.discard is not None:
            drawn = draws[k]
            k += 1
        w *= _turn_weight(rules, hand, turn, drawn, model)
        if w == 0.0:
            break
    return w, hand


def filter_hands(
    rules: Rules,
    turns: Sequence[OpponentTurn],
    fresh: Sequence[int],
    unseen: Sequence[int],
    rng: random.Random,
    particles: int = PARTICLES,
    model: OpponentModel = MODEL,
    moves: int = MOVES,
) -> list[tuple[list[int], float]]:
    """The opponent's hand now as weighted particles (hand, weight; the weights sum to 1), played
    from the deal through ``turns`` (see the module docstring), then ``moves`` Metropolis moves per
    particle. ``fresh``: its discards this seat had not seen before; ``unseen``: the cards this seat
    cannot place now. Empty when no particle fits the history."""
    pool = sorted(set(unseen) | set(fresh))
    pool_set = set(pool)
    # Fresh cards thrown in the turns up to (and before) each stock draw: they must be held by then.
    draw_turns = [i for i, t in enumerate(turns) if not t.took and t.discard is not None]
    first_draw = draw_turns[0] if draw_turns else len(turns)
    dealt = list(
        dict.fromkeys(
            t.discard for t in turns[:first_draw] if t.discard is not None and t.discard in pool_set
        )
    )
    if len(dealt) > HAND_SIZE or len(pool) < HAND_SIZE + len(draw_turns):
        return []
    needs: dict[int, list[int]] = {}
    for k, i in enumerate(draw_turns):
        end = draw_turns[k + 1] if k + 1 < len(draw_turns) else len(turns)
        needs[i] = [t.discard for t in turns[i:end] if t.discard is not None and t.discard in pool_set]
    rest = [c for c in pool if c not in set(dealt)]
    deals = [[*dealt, *rng.sample(rest, HAND_SIZE - len(dealt))] for _ in range(particles)]
    hands = [list(d) for d in deals]
    drawn: list[list[int]] = [[] for _ in range(particles)]
    weights = [1.0] * particles
    thrown: set[int] = set()
    for i, turn in enumerate(turns):
        for p in range(particles):
            if weights[p] == 0.0:
                continue
            hand = hands[p]
            card = None
            factor = 1.0
            if not turn.took and turn.discard is not None:
                missing = [c for c in needs[i] if c not in hand]
                held = set(hand)
                possible = len(pool) - len(thrown) - sum(1 for c in hand if c in pool_set)
                if len(missing) > 1 or possible <= 0:
                    weights[p] = 0.0
                    continue
                if missing:
                    card = missing[0]
                    factor = 1.0 / possible
                else:
                    while True:
                        card = pool[int(rng.random() * len(pool))]
                        if card not in held and card not in thrown:
                            break
                drawn[p].append(card)
            weights[p] *= factor * _turn_weight(rules, hand, turn, card, model)
        if turn.discard is not None and turn.discard in pool_set:
            thrown.add(turn.discard)
        total = sum(weights)
        if total <= 0.0:
            return []
        ess = total * total / sum(w * w for w in weights)
        if (ess < RESAMPLE_SHARE * particles and i + 1 < len(turns)) or (moves and i + 1 == len(turns)):
            picks = _systematic(weights, particles, rng)
            hands = [list(hands[k]) for k in picks]
            deals = [deals[k] for k in picks]
            drawn = [list(drawn[k]) for k in picks]
            weights = [1.0] * particles
    if moves and turns:
        _move(rules, turns, pool, deals, drawn, hands, weights, rng, model, moves)
    total = sum(weights)
    return [(hands[p], weights[p] / total) for p in range(particles) if weights[p] > 0.0]


def _move(
    rules: Rules,
    turns: Sequence[OpponentTurn],
    pool: Sequence[int],
    deals: list[list[int]],
    drawn: list[list[int]],
    hands: list[list[int]],
    weights: list[float],
    rng: random.Random,
    model: OpponentModel,
    moves: int,
) -> None:
    """Metropolis moves on every equally weighted particle (resample-move): replace one dealt or drawn
    card by a card of the pool the particle never held, or swap two of its cards between the deal
    and the draws (when it got a card); accepted by the ratio of the whole history's likelihoods
    (every valid history of deals and draws is equally likely before the moves are seen)."""
    equal = len(set(weights)) == 1
    for p in range(len(deals)):
        if weights[p] == 0.0 or not equal:
            continue
        deal, draws = list(deals[p]), list(drawn[p])
        current, hand = _replay(rules, turns, deal, draws, model)
        if current == 0.0:
            continue
        slots = len(deal) + len(draws)
        for _ in range(moves):
            new_deal, new_draws = list(deal), list(draws)
            a = int(rng.random() * slots)
            if draws and rng.random() < SWAP_SHARE:
                b = len(deal) + int(rng.random() * len(draws))
                if a == b:
                    continue
                ca = new_deal[a] if a < len(deal) else new_draws[a - len(deal)]
                cb = new_draws[b - len(deal)]
                if a < len(deal):
                    new_deal[a] = cb
                else:
                    new_draws[a - len(deal)] = cb
                new_draws[b - len(deal)] = ca
            else:
                used = set(deal) | set(draws)
                card = pool[int(rng.random() * len(pool))]
                if card in used:
                    continue
                if a < len(deal):
                    new_deal[a] = card
                else:
                    new_draws[a - len(deal)] = card
            proposed, new_hand = _replay(rules, turns, new_deal, new_draws, model)
            if proposed >= current or rng.random() * current < proposed:
                deal, draws, current, hand = new_deal, new_draws, proposed, new_hand
        deals[p], drawn[p], hands[p] = deal, draws, hand


@dataclass
class ParticleReader:
    """An :data:`~.gin_duel.OpponentSampler` with a memory: call :meth:`observe` and :meth:`acted`
    with every decision of the seat (:class:`~.gin_search.GinSearchBot` does), then ``reader(view,
    rng, n)`` gives ``n`` duel samples drawn from the filter's particles (systematic resampling), each
    with a stock shuffled from the other unseen cards; :func:`~.gin_duel.sampled_opponents` when the
    history cannot be read or no particle fits it."""

    particles: int = PARTICLES
    model: OpponentModel = MODEL
    history: GinHistory = field(default_factory=GinHistory)
    mix: float = 0.0
    """Share of the duel samples taken from :func:`~.gin_duel.sampled_opponents` instead (the
    particles then weigh as much per sample as those on average)."""
    fallbacks: int = 0
    """Calls answered by the fallback sampler."""

    def observe(self, view: PlayerView) -> None:
        self.history.observe(view)

    def acted(self, view: PlayerView, action: Action) -> None:
        self.history.acted(view, action)

    def hands(self, view: PlayerView, rng: random.Random) -> list[tuple[list[int], float]]:
        """The weighted particles of the opponent's hand now (empty when the history is unusable)."""
        h = self.history
        if h.broken or view.knocker is not None:
            return []
        unseen = [int(c) for c in unseen_cards(view)]
        found = filter_hands(view.rules, h.turns, h.fresh, unseen, rng, self.particles, self.model)
        opponent = 1 - view.seat
        known = {int(c) for c in view.known_cards[opponent]} if view.known_cards else set()
        allowed = known | set(unseen)
        size = view.hand_sizes[opponent]
        return [(hand, w) for hand, w in found if len(hand) == size and set(hand) <= allowed]

    def sample_hands(self, view: PlayerView, rng: random.Random, n: int) -> list[list[int]]:
        """``n`` opponent hands drawn from the particles (systematic resampling); empty when the
        history is unusable."""
        found = self.hands(view, rng)
        if not found:
            self.fallbacks += 1
            return []
        return [found[k][0] for k in _systematic([w for _, w in found], n, rng)]

    def __call__(self, view: PlayerView, rng: random.Random, n: int) -> list[OpponentSample]:
        found = self.hands(view, rng)
        if not found:
            self.fallbacks += 1
            return sampled_opponents(view, rng, n)
        aged = round(self.mix * n)
        samples: list[OpponentSample] = sampled_opponents(view, rng, aged) if aged else []
        total = sum(s[2] for s in samples)
        drawn = [found[k][0] for k in _systematic([w for _, w in found], n - aged, rng)]
        samples += with_stocks(view, drawn, rng, total / aged if aged else 1.0)
        return samples

    def read(self, view: PlayerView, rng: random.Random, n: int) -> list[OpponentSample]:
        """``n`` duel samples drawn from one run of the filter (hands by systematic resampling, each
        with a stock shuffled from the other unseen cards); empty when the history is unusable."""
        found = self.hands(view, rng)
        if not found:
            self.fallbacks += 1
            return []
        return with_stocks(view, [found[k][0] for k in _systematic([w for _, w in found], n, rng)], rng)


def with_stocks(
    view: PlayerView, hands: Sequence[Sequence[int]], rng: random.Random, weight: float = 1.0
) -> list[OpponentSample]:
    """Duel samples of opponent ``hands``: each with the other unseen cards shuffled as its stock (as
    many as may be drawn before the wall) and ``weight``."""
    unseen = [int(c) for c in unseen_cards(view)]
    drawable = max(0, view.stock_size - view.rules.wall_stock_size)
    samples: list[OpponentSample] = []
    for hand in hands:
        held = set(hand)
        stock = [c for c in unseen if c not in held]
        rng.shuffle(stock)
        samples.append((list(hand), stock[:drawable], weight))
    return samples


def held_share(hands: Sequence[tuple[Sequence[int], float]], truth: Sequence[int]) -> float:
    """The weighted mean share of ``truth`` (the opponent's real cards) that a particle holds: how
    well a reading of the hand fits it (1 for the true hand)."""
    real = set(truth)
    total = sum(w for _, w in hands)
    if not real or total <= 0.0:
        return math.nan
    return sum(w * len(real.intersection(h)) for h, w in hands) / (total * len(real))


__all__ = [
    "MODEL",
    "PARTICLES",
    "RESAMPLE_SHARE",
    "GinHistory",
    "OpponentModel",
    "OpponentTurn",
    "ParticleReader",
    "discard_likelihood",
    "filter_hands",
    "held_share",
    "with_stocks",
]
