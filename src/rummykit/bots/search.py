"""SearchBot: determinized Monte Carlo search played to the end of the hand.

Information-set Monte Carlo after Cowling, Powley and Whitehouse (2012), in its flat form: the bot only
ever reads its seat's :class:`~rummykit.views.PlayerView`. For each of ``determinizations`` samples it
deals the hidden cards at random consistently with the view (:func:`rummykit.determinize.sample_round`:
own hand, table, discard history, cards seen taken from the discard pile, card counts) and tries every
candidate action in that same sample with the same reshuffles (common random numbers: every candidate
meets the same hidden cards and the same stock). After the candidate the hand is played to its end with
the greedy policy for *every* seat (:func:`rummykit.bots.greedy.policy_action` building its own
action, without enumerating the legal actions), so the play-out sees the opponents draw, take, meld,
knock and go out as they would. A play-out is worth the bot's points of the hand minus the best points
of the other seats (:data:`VALUES` also offers ``win``: +1/0/-1 with the point margin as a tie-break);
the candidate with the best mean wins, ties going to the greedy order.

Candidates: ``draw`` and ``take`` in the draw phase; in the rest of the turn the greedy action (open,
meld, lay off, exchange a joker, knock, or its discard) against the ``candidates`` best discards by the
greedy score, so holding back an opening or a meld, or playing on instead of knocking, are weighed too.
A Rummy call is always made.

Budgets are iteration counts, so a seeded game gives the same moves on any machine or process pool;
``time_limit`` (seconds per move) can cap a move as well, at the cost of that determinism.
Levels: ``easy`` 8 samples × 2 discards, ``medium`` 20 × 3, ``hard`` 48 × 5 (see :data:`LEVELS`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from rummykit import solver
from rummykit.actions import Action, BuyBack, CallRummy, Decline, Discard, Draw, TakeDiscard
from rummykit.bots.base import MatchView
from rummykit.bots.greedy import Situation, buyback_pays, deadwood, discard_scores, policy_action
from rummykit.cards import Card
from rummykit.determinize import sample_round
from rummykit.errors import IllegalActionError
from rummykit.round import Round
from rummykit.views import Phase, PlayerView

MAX_PLAYOUT_ACTIONS: Final = 1000
"""Safety bound on the actions of one play-out (a hand normally ends long before)."""
DISCARD_WINDOW: Final = 50.0
"""Discards whose greedy score is this much worse than the best are never searched (jokers)."""

Value = Literal["points", "win"]
VALUES: Final = ("points", "win")


@dataclass(frozen=True, slots=True)
class Budget:
    """Search effort per decision."""

    determinizations: int
    """Samples of the hidden cards; every candidate is played out once in each."""
    candidates: int
    """Discards considered besides the greedy action (the best by the greedy score)."""
    value: Value = "points"
    """What a play-out is worth: the point margin, or win/draw/loss with the margin as tie-break."""
    margin: float = 1.5
    """Standard errors by which another candidate must beat the greedy choice to be played."""
    time_limit: float | None = None
    """Optional cap in seconds per decision (makes the bot depend on the machine's speed)."""


LEVELS: Final[dict[str, Budget]] = {
    "easy": Budget(determinizations=8, candidates=2),
    "medium": Budget(determinizations=20, candidates=3),
    "hard": Budget(determinizations=48, candidates=5),
}
DEFAULT_LEVEL: Final = "medium"


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
        candidates = self.candidates(situation, legal, greedy)
        if len(candidates) <= 1:
            return greedy
        self.searches += 1
        return self.search(view, candidates, rng)

    def choose_match(self, mv: MatchView, legal: Sequence[Action], rng: random.Random) -> Action:
        want = BuyBack() if buyback_pays(mv) else Decline()
        return want if want in legal else legal[0]

    def candidates(self, s: Situation, legal: Sequence[Action], greedy: Action) -> list[Action]:
        """The actions worth searching, greedy's choice first; one action means no search."""
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

    def search(self, view: PlayerView, candidates: Sequence[Action], rng: random.Random) -> Action:
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
                rnd._rng = random.Random(seed)  # the same reshuffles for every candidate
                values[i].append(self.playout(rnd, view.seat, action, budget.value))
            if budget.time_limit is not None and time.perf_counter() - start > budget.time_limit:
                break
        return candidates[pick(values, budget.margin)]

    def playout(self, rnd: Round, seat: int, first: Action, value: Value = "points") -> float:
        """Worth of ``first`` for ``seat``: the hand played to its end by the greedy policy."""
        self.playouts += 1
        try:
            rnd.apply(first)
        except IllegalActionError:
            return float("-inf")
        play_to_end(rnd)
        return outcome(rnd, seat, value)


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


def play_to_end(rnd: Round, limit: int = MAX_PLAYOUT_ACTIONS) -> None:
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


__all__ = [
    "LEVELS",
    "VALUES",
    "Budget",
    "SearchBot",
    "fast_should_take",
    "outcome",
    "play_to_end",
    "playout_action",
]
