"""SearchBot: determinized Monte Carlo search over the decisions that shape a hand.

Information-set Monte Carlo after Cowling, Powley and Whitehouse (2012), in its flat form with a
race play-out: the bot only ever reads its seat's :class:`~rummykit.views.PlayerView`. For each of
``determinizations`` samples it deals the hidden cards at random consistently with the view
(:func:`rummykit.determinize.sample_round`: own hand, table, discard history, cards seen taken from
the discard pile, card counts) and tries every candidate action in that same sample (common random
numbers: every candidate meets the same hidden cards and the same stock). After the candidate the
hand is played forward with the greedy policy for this seat for at most ``horizon`` own turns, while
the other seats only draw and throw the drawn card back (a race against the sampled stock, cheap and
of low variance). The cost of a play-out is the number of own turns until this seat is home (gone
out, knocked or called Rummy), or the horizon plus the points left in hand converted to turns; a
discard that the next seat's sampled hand would take from the pile costs half a turn more. The
candidate with the lowest mean cost wins; ties go to the greedy order.

Candidates: ``draw`` and ``take`` in the draw phase; at the end of a turn the ``candidates`` best
discards by the greedy score. Rummy calls and knocks are made as soon as allowed, and the melding
steps of a turn (open, meld, lay off, exchange jokers) follow the greedy policy.

``Budget(playout="hand")`` plays every sample to the end of the hand instead, with the greedy policy
for *every* seat (:func:`play_to_end`; built actions, no legal-move enumeration), values a play-out by
the bot's points minus the best other seat's (or win/draw/loss, ``value="win"``), searches the greedy
action (open, meld, lay off, knock) against the best discards, and replaces greedy's choice only when
a candidate's paired advantage exceeds ``margin`` standard errors. Measured against greedy over 500
rounds per game it won fewer rounds than the race (README, "Measured ladder"), so the levels keep the
race.

Budgets are iteration counts, so a seeded game gives the same moves on any machine or process
pool; ``time_limit`` (seconds per move) can cap a move as well, at the cost of that determinism.
Levels: ``easy`` 8 samples × horizon 4 × 3 discards, ``medium`` 24 × 6 × 4, ``hard`` 64 × 8 × 6
(see :data:`LEVELS`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from rummykit import solver
from rummykit.actions import Action, BuyBack, CallRummy, Decline, Discard, Draw, Knock, TakeDiscard
from rummykit.bots.base import MatchView
from rummykit.bots.greedy import (
    Situation,
    buyback_pays,
    deadwood,
    discard_scores,
    policy_action,
    should_take,
)
from rummykit.cards import Card
from rummykit.determinize import sample_round
from rummykit.errors import IllegalActionError
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView

MAX_ROLLOUT_ACTIONS: Final = 400
"""Safety bound on the actions of one play-out (a horizon of turns is normally reached long before)."""
MAX_HAND_ACTIONS: Final = 1000
"""Safety bound on the actions of a play-out to the end of the hand."""
DISCARD_WINDOW: Final = 50.0
"""Discards scored this much worse than greedy's best are never searched (jokers)."""

Playout = Literal["race", "hand"]
Value = Literal["points", "win"]


@dataclass(frozen=True, slots=True)
class Budget:
    """Search effort per decision."""

    determinizations: int
    """Samples of the hidden cards; every candidate is played out once in each."""
    horizon: int
    """Turns played forward after the candidate before the position is estimated."""
    candidates: int
    """Discards considered (the best by the greedy score)."""
    time_limit: float | None = None
    """Optional cap in seconds per decision (makes the bot depend on the machine's speed)."""
    playout: Playout = "race"
    """``race``: own turns to get home within ``horizon``; ``hand``: the hand played to its end by the
    greedy policy for every seat (``horizon`` unused)."""
    value: Value = "points"
    """``hand`` play-outs: the point margin, or win/draw/loss with the margin as tie-break."""
    margin: float = 1.5
    """``hand`` play-outs: standard errors by which a candidate must beat greedy's choice."""


LEVELS: Final[dict[str, Budget]] = {
    "easy": Budget(determinizations=8, horizon=4, candidates=3),
    "medium": Budget(determinizations=24, horizon=6, candidates=4),
    "hard": Budget(determinizations=64, horizon=8, candidates=6),
}
DEFAULT_LEVEL: Final = "medium"
KNOCK_POINTS_PER_TURN: Final = 8.0
MELD_POINTS_PER_TURN: Final = 12.0
"""Exposure points a hand sheds in a turn, roughly: converts what is left at the horizon into turns."""
FEED_COST: Final = 0.5
"""Turns charged for a discard the next player would take."""


class SearchBot:
    """Determinized Monte Carlo search (see the module docstring)."""

    def __init__(self, level: str | None = None, budget: Budget | None = None) -> None:
        self.level = level or DEFAULT_LEVEL
        self.budget = budget or LEVELS[self.level]
        self.name = "search" if level is None and budget is None else f"search:{self.level}"
        self.searches = 0
        """Decisions that were searched (more than one candidate)."""
        self.playouts = 0
        """Play-outs run so far (a machine-independent measure of the effort)."""

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if any(isinstance(a, (BuyBack, Decline)) for a in legal):
            return Decline() if Decline() in legal else legal[0]
        situation = Situation.from_view(view)
        greedy = policy_action(situation, legal)
        if self.budget.playout == "hand":
            candidates = self.hand_candidates(situation, legal, greedy)
        else:
            candidates = self.candidates(situation, legal, greedy)
        if len(candidates) <= 1:
            return greedy
        self.searches += 1
        if self.budget.playout == "hand":
            return self.search_hand(view, candidates, rng)
        return self.search(view, candidates, rng)

    def choose_match(self, mv: MatchView, legal: Sequence[Action], rng: random.Random) -> Action:
        want = BuyBack() if buyback_pays(mv) else Decline()
        return want if want in legal else legal[0]

    def candidates(self, s: Situation, legal: Sequence[Action], greedy: Action) -> list[Action]:
        """The actions worth searching, greedy's choice first; one action means no search."""
        if s.phase is Phase.DRAW:
            order: list[Action] = [greedy] + [a for a in (Draw(), TakeDiscard()) if a != greedy]
            return [a for a in order if a in legal]
        if isinstance(greedy, (CallRummy, Knock)) or not isinstance(greedy, Discard):
            return [greedy]
        allowed = [a.card for a in legal if isinstance(a, Discard)]
        scores = discard_scores(list(s.hand), s.rules, allowed)
        ranked = sorted(scores, key=lambda c: (scores[c], c))
        picked = [c for c in ranked if scores[c] < scores[ranked[0]] + 50][: self.budget.candidates]
        return [Discard(Card(c)) for c in picked]

    def hand_candidates(self, s: Situation, legal: Sequence[Action], greedy: Action) -> list[Action]:
        """``hand`` play-outs: draw/take, or greedy's action against the best discards."""
        if s.phase is Phase.DRAW:
            order: list[Action] = [greedy] + [a for a in (Draw(), TakeDiscard()) if a != greedy]
            return [a for a in order if a in legal]
        if isinstance(greedy, CallRummy):
            return [greedy]
        allowed = [a.card for a in legal if isinstance(a, Discard)]
        if not allowed:
            return [greedy]
        scores = discard_scores(list(s.hand), s.rules, allowed)
        ranked = sorted(scores, key=lambda c: (scores[c], c))
        picked = [c for c in ranked if scores[c] < scores[ranked[0]] + DISCARD_WINDOW]
        out = [greedy]
        for c in picked:
            if len(out) > self.budget.candidates:
                break
            if Discard(Card(c)) != greedy:
                out.append(Discard(Card(c)))
        return out

    def search_hand(self, view: PlayerView, candidates: Sequence[Action], rng: random.Random) -> Action:
        """The candidate with the best mean play-out, if it beats the greedy choice (the first) by
        ``margin`` standard errors of the paired differences; else the greedy choice."""
        budget = self.budget
        values: list[list[float]] = [[] for _ in candidates]
        start = time.perf_counter()
        for _ in range(budget.determinizations):
            world = sample_round(view, rng)
            seed = world.seed
            for i, action in enumerate(candidates):
                rnd = world.copy()
                rnd.reseed(seed)  # the same reshuffles for every candidate
                values[i].append(self.playout_hand(rnd, view.seat, action, budget.value))
            if budget.time_limit is not None and time.perf_counter() - start > budget.time_limit:
                break
        return candidates[pick(values, budget.margin)]

    def playout_hand(self, rnd: Round, seat: int, first: Action, value: Value = "points") -> float:
        """Worth of ``first`` for ``seat``: the hand played to its end by the greedy policy."""
        self.playouts += 1
        try:
            rnd.apply(first)
        except IllegalActionError:
            return float("-inf")
        play_to_end(rnd)
        return outcome(rnd, seat, value)

    def search(self, view: PlayerView, candidates: Sequence[Action], rng: random.Random) -> Action:
        budget = self.budget
        costs = [0.0] * len(candidates)
        start = time.perf_counter()
        for _ in range(budget.determinizations):
            world = sample_round(view, rng)
            seed = rng.randrange(2**32)
            for i, action in enumerate(candidates):
                rnd = world.copy()
                rnd.reseed(seed)  # the same reshuffles for every candidate
                costs[i] += self.playout(rnd, view.seat, action, random.Random(seed))
            if budget.time_limit is not None and time.perf_counter() - start > budget.time_limit:
                break
        best = min(range(len(candidates)), key=lambda i: (costs[i], i))
        return candidates[best]

    def playout(self, rnd: Round, seat: int, first: Action, rng: random.Random) -> float:
        """Race cost for ``seat`` of ``first``: the own turns until the hand is won (gone out,
        knocked, Rummy), or the horizon plus the exposure left in hand converted to turns.

        The other seats only draw and throw the drawn card back, so the play-out measures how fast
        this hand gets home against the sampled stock; feeding them a useful discard costs extra.
        """
        self.playouts += 1
        cost = 0.0
        rules = rnd.rules
        if isinstance(first, Discard):
            cost += FEED_COST * _feeds(rnd, seat, first.card)
        try:
            rnd.apply(first)
        except IllegalActionError:
            return float("inf")
        own_turns = 1 if rnd.to_move != seat else 0
        steps = 0
        while steps < MAX_ROLLOUT_ACTIONS:
            if _finished(rnd, seat):
                return cost + own_turns
            if rnd.is_over or own_turns >= self.budget.horizon:
                break
            steps += 1
            mover = rnd.to_move
            try:
                if mover == seat:
                    rnd.apply(policy_action(Situation.from_round(rnd), quick=True))
                    if rnd.to_move != seat:
                        own_turns += 1
                elif rnd.phase is Phase.DRAW:
                    event = rnd.apply(Draw())
                    if event.card is not None and not rnd.is_over:
                        rnd.apply(Discard(event.card))
                else:
                    rnd.apply(policy_action(Situation.from_round(rnd), quick=True))
            except IllegalActionError:
                rnd.apply(rng.choice(rnd.legal_actions()))
        # Not home within the horizon (or someone else finished, or the stock ran out): the turns
        # still needed are estimated from the points left in hand.
        return cost + self.budget.horizon + 1 + exposure(rnd, seat) / _points_per_turn(rules)


def _points_per_turn(rules: Rules) -> float:
    return KNOCK_POINTS_PER_TURN if rules.is_knock_game else MELD_POINTS_PER_TURN


def _finished(rnd: Round, seat: int) -> bool:
    if rnd.knocker == seat:
        return True
    result = rnd.result
    return result is not None and result.winner == seat and result.scored


def _feeds(rnd: Round, seat: int, card: Card) -> int:
    """Whether the next seat (sampled hand) would take ``card`` from the discard pile."""
    nxt = rnd.next_seat(seat)
    hand = tuple(rnd.hands[nxt])
    opened_turn = rnd.opened_turn[nxt]
    s = Situation(
        rules=rnd.rules,
        hand=hand,
        phase=Phase.DRAW,
        top=card,
        taken=None,
        must_lay=None,
        table=tuple(tm.meld for tm in rnd.table),
        opened=opened_turn is not None,
        may_lay_off=opened_turn is not None,
        may_exchange=False,
        extra_turn=False,
    )
    return 1 if should_take(s) else 0


def exposure(rnd: Round, seat: int) -> float:
    """Points ``seat`` would roughly pay if the hand ended now, counting what it could still meld."""
    rules = rnd.rules
    cards = list(rnd.hands[seat])
    if not cards:
        return 0.0
    if rules.is_knock_game:
        if len(cards) > rules.hand_size:
            return float(solver.best_discards(cards, rules)[0])
        return float(solver.min_deadwood(cards, rules))
    dead = solver.min_deadwood(cards, rules)
    if rnd.opened_turn[seat] is None and rules.opening_min_points:
        value = solver.max_opening_value(cards, rules, keep_one=rules.going_out_requires_discard)
        if value < rules.opening_min_points:
            # Still closed: the melds in hand count only in part until the opening is in reach.
            full = sum(rules.card_points(c) for c in cards)
            share = value / rules.opening_min_points
            return float(full - (full - dead) * share)
    return float(dead)


def pick(values: Sequence[Sequence[float]], margin: float) -> int:
    """Index of the chosen candidate: the best mean among those whose paired advantage over the first
    (the greedy choice) exceeds ``margin`` standard errors; 0 when none does."""
    base = values[0]
    n = len(base)
    best, best_mean = 0, 0.0
    for i in range(1, len(values)):
        diffs = [a - b for a, b in zip(values[i], base, strict=True)]
        if any(d != d or abs(d) == float("inf") for d in diffs):
            continue
        mean = sum(diffs) / n
        if mean <= best_mean:
            continue
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        if mean > margin * (var / n) ** 0.5:
            best, best_mean = i, mean
    return best


def play_to_end(rnd: Round, limit: int = MAX_HAND_ACTIONS) -> None:
    """Play ``rnd`` to the end of the hand with the greedy policy for every seat."""
    steps = 0
    while not rnd.is_over and steps < limit:
        steps += 1
        action = playout_action(rnd)
        try:
            rnd.apply(action)
        except IllegalActionError:
            rnd.apply(rnd.legal_actions()[0])


def playout_action(rnd: Round) -> Action:
    """The greedy action of the seat to move (built directly; the knock-game draw decision uses
    :func:`fast_should_take`, which decides exactly as :func:`~rummykit.bots.greedy.should_take`)."""
    s = Situation.from_round(rnd)
    if s.phase is Phase.DRAW and s.rules.is_knock_game:
        return TakeDiscard() if fast_should_take(s) else Draw()
    return policy_action(s, quick=True)


def fast_should_take(s: Situation) -> bool:
    """Knock games: :func:`~rummykit.bots.greedy.should_take` in one solver call.

    Greedy takes the discard when some discard other than it leaves less deadwood than the hand has
    now. Discarding the taken card itself (or another copy of it) leaves exactly the current deadwood,
    so that is the case exactly when the best discard of hand plus card beats the current deadwood.
    """
    top = s.top
    if top is None:
        return False
    hand = list(s.hand)
    if not hand:
        return False
    return solver.best_discards([*hand, top], s.rules)[0] < deadwood(hand, s.rules)


def outcome(rnd: Round, seat: int, value: Value = "points") -> float:
    """``seat``'s points of the finished hand minus the best of the other seats (0 if unscored)."""
    result = rnd.result
    if result is None or not result.scored:
        return 0.0
    points = result.points
    others = [points[s] for s in rnd.active if s != seat]
    margin = float(points[seat] - max(others)) if others else 0.0
    if value == "win":
        return (margin > 0) - (margin < 0) + margin / 1000.0
    return margin
