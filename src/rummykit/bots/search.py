"""SearchBot: determinized Monte Carlo over race play-outs, with melding-game tactics.

This is the earlier search, kept unchanged as a frozen baseline: the bot kind ``search-v1``
(``make_bot("search-v1:medium")``) against which the ladder measures the information-set search
of :mod:`rummykit.bots.ismcts` (the kind ``search``). Its races count only the bot's own turns: the
opponents never act in them.

Information-set Monte Carlo after Cowling, Powley and Whitehouse (2012), in its flat form. The bot
reads only its seat's :class:`~rummykit.views.PlayerView`. Heads-up rummy is a race (the round goes
to whoever goes out or knocks first), so a candidate move is valued by the own turns the hand then
needs to get home (:mod:`rummykit.bots.race`), turned into the chance of getting home first by a
discount per turn (:data:`DISCOUNT`). Each of ``determinizations`` samples is a stock order
consistent with the view: distinct cards drawn at random from those the seat cannot see
(:func:`~rummykit.determinize.unseen_cards`: not in its hand, on the table, in the discard pile, or
seen taken by another seat and still held). Every candidate is raced on the same samples (common
random numbers), so the comparison between candidates carries little noise; the candidate with the
best total wins, ties going to the greedy order.

Searched decisions:

* **draw** (both families): take the top discard or draw from the stock. Taking in a knock game is
  raced with the best three discards it allows (by the greedy score), the best of them counting.
* **discard** (knock games): the ``candidates`` best discards by the greedy score.

The extra turn after someone knocks (knock games) is played for the least deadwood expected at the
showdown (:func:`last_turn`). Everything else follows the greedy policy (:mod:`rummykit.bots.greedy`):
Rummy calls and knocks as soon as allowed; in the melding games the opening, lay-offs and joker
exchanges, changed by the tactics of :mod:`rummykit.bots.tactics` (open small, hold melds, discard
what will not find a place). A race in a melding game sees neither the opponent's future melds nor
its discards, so there only the draw is raced.

Budgets are iteration counts, so a seeded game gives the same moves on any machine or process
pool; ``time_limit`` (seconds per move) can cap a decision as well, at the cost of that determinism.
Levels (:data:`LEVELS`): ``easy`` 20 samples × horizon 6 × 3 discards, ``medium`` 100 × 8 × 6,
``hard`` 300 × 10 × 8. Their strength against the other bots is measured, not stated here: see the
docs/strength.md, and ``rummykit arena``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit import solver
from rummykit.actions import Action, BuyBack, Decline, Discard, Draw, Open, TakeDiscard
from rummykit.bots.base import MatchView
from rummykit.bots.gin_play import gin_action
from rummykit.bots.greedy import Situation, buyback_pays, discard_scores, policy_action, without
from rummykit.bots.race import knock_draw_races, knock_home, knock_race, knock_races, race_after_draw
from rummykit.bots.tactics import closed_discard, hold_melds, placement_discard, small_opening
from rummykit.cards import Card
from rummykit.determinize import unseen_cards
from rummykit.views import Phase, PlayerView

DISCARD_WINDOW: Final = 50.0
"""Discards scored this much worse than greedy's best are never searched (jokers)."""
DISCOUNT: Final = 0.85
"""The chance that the opponent is still not home after each further own turn.

A candidate is valued by the mean of ``DISCOUNT ** turns`` over the samples, its chance of getting
home before an opponent who gets home in any given turn with probability ``1 - DISCOUNT``, rather
than by the mean number of turns: a hand that is often quick beats one that is steadily slower,
because a slow finish loses the race whatever its exact length. On the same 500 Viennese deals
against greedy: 0.85 won 60.7 %, 0.75 59.1 %, the mean number of turns 58.9 % (German Rummy: 60.2 % with
0.85, 60.4 % with the mean number of turns, the same within the noise).
"""
TAKE_DISCARDS: Final = 3
"""Knock games: discards raced after taking the top discard."""


@dataclass(frozen=True, slots=True)
class Budget:
    """Search effort per decision."""

    determinizations: int
    """Sampled stock orders; every candidate is raced once on each."""
    horizon: int
    """Own turns raced after the candidate before the rest is estimated from the points in hand."""
    candidates: int
    """Discards searched in the knock games (the best by the greedy score)."""
    time_limit: float | None = None
    """Optional cap in seconds per decision (makes the bot depend on the machine's speed)."""


LEVELS: Final[dict[str, Budget]] = {
    "easy": Budget(determinizations=20, horizon=6, candidates=3),
    "medium": Budget(determinizations=100, horizon=8, candidates=6),
    "hard": Budget(determinizations=300, horizon=10, candidates=8),
}
DEFAULT_LEVEL: Final = "medium"


def last_turn(view: PlayerView, legal: Sequence[Action]) -> Action:
    """Knock games, the extra turn after someone knocked: leave the least deadwood expected.

    The hand is scored at the showdown whatever happens (RULES.md §4.5), so the top discard is taken
    when the best hand it allows has less deadwood than a stock card gives on average (every unseen
    card equally likely), and the discard is the card that leaves the least deadwood: links to future
    melds are worth nothing now.
    """
    rules = view.rules
    hand: list[int] = list(view.hand)
    if view.phase is Phase.DRAW:
        top = view.top_discard
        if top is None or TakeDiscard() not in legal:
            return Draw() if Draw() in legal else legal[0]
        if Draw() not in legal:
            return TakeDiscard()
        with_top = [*hand, top]
        kept = [
            solver.min_deadwood(without(with_top, (card,)), rules)
            for card in set(hand)
            if card != top or rules.may_discard_taken_discard
        ]
        pool = unseen_cards(view)
        if not kept or not pool:
            return Draw()
        taken = min(kept)
        drawn = sum(solver.best_discards([*hand, card], rules)[0] for card in pool) / len(pool)
        return TakeDiscard() if taken < drawn else Draw()
    discards = [a for a in legal if isinstance(a, Discard)]
    if not discards:
        return legal[0]
    return min(discards, key=lambda a: (solver.min_deadwood(without(hand, (a.card,)), rules), -a.card))


class SearchBot:
    """Determinized Monte Carlo search (see the module docstring)."""

    def __init__(self, level: str | None = None, budget: Budget | None = None) -> None:
        self.level = level or DEFAULT_LEVEL
        self.budget = budget or LEVELS[self.level]
        self.name = "search" if level is None and budget is None else f"search:{self.level}"
        self.searches = 0
        """Decisions that were searched."""
        self.playouts = 0
        """Race play-outs run so far (a machine-independent measure of the effort)."""

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if any(isinstance(a, (BuyBack, Decline)) for a in legal):
            return Decline() if Decline() in legal else legal[0]
        if view.gin is not None:  # this frozen search predates gin: it plays gin as greedy does
            return gin_action(view, legal)
        if view.rules.is_knock_game and view.knocker is not None:
            return last_turn(view, legal)
        situation = Situation.from_view(view)
        greedy = policy_action(situation, legal)
        if view.phase is Phase.DRAW:
            if TakeDiscard() in legal and Draw() in legal:
                return self.search_draw(view, rng)
            return greedy
        if view.rules.is_knock_game:
            if isinstance(greedy, Discard):
                return self.search_discard(view, legal, rng)
            return greedy
        if isinstance(greedy, Open):
            return small_opening(view, rng) or greedy
        choice = hold_melds(situation, view, legal, greedy)
        if isinstance(choice, Discard):
            allowed = [a.card for a in legal if isinstance(a, Discard)]
            return placement_discard(view, allowed) if situation.opened else closed_discard(view, allowed)
        return choice

    def choose_match(self, mv: MatchView, legal: Sequence[Action], rng: random.Random) -> Action:
        want = BuyBack() if buyback_pays(mv) else Decline()
        return want if want in legal else legal[0]

    def _stocks(self, view: PlayerView, rng: random.Random) -> list[list[int]]:
        """The sampled stock orders: ``horizon + 1`` distinct unseen cards each."""
        pool: list[int] = list(unseen_cards(view))
        size = min(len(pool), self.budget.horizon + 1)
        return [rng.sample(pool, size) for _ in range(self.budget.determinizations)]

    def _out_of_time(self, start: float) -> bool:
        limit = self.budget.time_limit
        return limit is not None and time.perf_counter() - start > limit

    def search_draw(self, view: PlayerView, rng: random.Random) -> Action:
        """Take the top discard or draw from the stock, whichever races home sooner."""
        rules = view.rules
        top = view.top_discard
        if top is None:
            return Draw()
        self.searches += 1
        hand: list[int] = list(view.hand)
        seat = view.seat
        opened = view.opened_turn[seat] is not None
        table = [tm.meld for tm in view.melds]
        horizon = self.budget.horizon
        take_options: list[list[int]] = []
        if rules.is_knock_game:
            with_top: list[int] = [*hand, top]
            if knock_home(rules, with_top):
                return TakeDiscard()
            allowed = [c for c in set(hand) if c != top or rules.may_discard_taken_discard]
            scores = discard_scores(with_top, rules, allowed)
            for card in sorted(scores, key=lambda c: (scores[c], c))[:TAKE_DISCARDS]:
                take_options.append(without(with_top, (card,)))
        take = [0.0] * max(1, len(take_options))
        draw = 0.0
        stocks = self._stocks(view, rng)
        if take_options and self.budget.time_limit is None:
            # Knock games: the whole batch at once (native code when built), summed in the loop's order.
            for row in knock_races(rules, take_options, stocks, horizon):
                for i, turns in enumerate(row):
                    take[i] += DISCOUNT**turns
            for turns in knock_draw_races(rules, hand, [s for s in stocks if s]):
                draw += DISCOUNT**turns
            self.playouts += len(stocks) * (len(take) + 1)
            return TakeDiscard() if max(take) > draw else Draw()
        start = time.perf_counter()
        for stock in stocks:
            if take_options:
                for i, rest in enumerate(take_options):
                    take[i] += DISCOUNT ** knock_race(rules, rest, stock[:horizon])
            else:
                turns = race_after_draw(rules, hand, opened, table, top, stock[:horizon], taken=True)
                take[0] += DISCOUNT**turns
            if stock:
                turns = race_after_draw(rules, hand, opened, table, stock[0], stock[1:], taken=False)
                draw += DISCOUNT**turns
            self.playouts += len(take) + 1
            if self._out_of_time(start):
                break
        return TakeDiscard() if max(take) > draw else Draw()

    def search_discard(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        """Knock games: the discard, among the best few by the greedy score, that races home soonest."""
        rules = view.rules
        hand: list[int] = list(view.hand)
        allowed = [a.card for a in legal if isinstance(a, Discard)]
        scores = discard_scores(hand, rules, allowed)
        ranked = sorted(scores, key=lambda c: (scores[c], c))
        picked = [c for c in ranked if scores[c] < scores[ranked[0]] + DISCARD_WINDOW]
        picked = picked[: self.budget.candidates]
        if len(picked) == 1:
            return Discard(Card(picked[0]))
        self.searches += 1
        rests = [without(hand, (card,)) for card in picked]
        chances = [0.0] * len(picked)
        horizon = self.budget.horizon
        stocks = self._stocks(view, rng)
        if self.budget.time_limit is None:
            for row in knock_races(rules, rests, stocks, horizon):
                for i, turns in enumerate(row):
                    chances[i] += DISCOUNT**turns
            self.playouts += len(rests) * len(stocks)
        else:
            start = time.perf_counter()
            for stock in stocks:
                for i, rest in enumerate(rests):
                    chances[i] += DISCOUNT ** knock_race(rules, rest, stock[:horizon])
                self.playouts += len(rests)
                if self._out_of_time(start):
                    break
        best = min(range(len(picked)), key=lambda i: (-chances[i], i))
        return Discard(Card(picked[best]))
