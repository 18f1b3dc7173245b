"""The search bot: information-set Monte Carlo over the whole table, with inference from the table.

Information-set Monte Carlo (Cowling, Powley and Whitehouse 2012) in its determinized root form
(every candidate move of the decision valued on the same sampled determinizations, common random
numbers): the bot reads only its seat's :class:`~rummykit.views.PlayerView`; each determinization
deals what it cannot see (:func:`~rummykit.bots.inference.sample_hidden`: the other hands with
weights learnt from the table by a :class:`~rummykit.bots.inference.TableMemory`, redrawn when they
contradict what the opponent did, and the stock), so the opponents' replies are played from hands
that fit their play, by a policy that reads only their own cards and the table.

* **Melding games** (:mod:`rummykit.bots.rollout`): a candidate is applied and the hand played on
  with every seat acting (:class:`~rummykit.bots.rollout.TablePlay`): the opponents take the bot's
  discards when these help them, lay off on every meld, open and go out. A candidate's value is
  the mean of the points of the hand for the bot less the opponents' mean points, plus
  :data:`WIN_BONUS` for finishing best (:func:`~rummykit.bots.rollout.utility`): points kept in
  hand when an opponent goes out, and a discard that feeds an opponent, cost what the game charges.
  Searched: the draw and the ``candidates`` best discards by the tactics' scores, spent by one step
  of successive halving (Karnin, Koren and Somekh 2013: every candidate on the first half of the
  determinizations, the better half on the second half too).
* **Knock games** (:mod:`rummykit.bots.duel`): the draw and the ``candidates`` best discards by the
  greedy score are raced home (:mod:`rummykit.bots.race`), valued by the chance that the opponents
  are not home by then given the turns they have played (:func:`~rummykit.bots.duel.survival`),
  a discard charged a turn on the determinizations where it completes a meld of the next seat's
  hand; when a knock is allowed,
  knocking now and waiting a turn are both scored as the showdown after every opponent's extra
  turn. A Rummy call is always made. With :attr:`IsmctsBot.knock_duels` the draw and the discard
  or knock are valued instead by duel play-outs of every seat to the end of the hand, in points
  (:mod:`rummykit.bots.knock_duel`; off by default). With :attr:`IsmctsBot.distilled` a discard with
  no knock allowed is the candidate with the best learned score of :mod:`rummykit.bots.distill`
  (fitted to the choices of duels on the opponent's true hand; off by default, not better).
  Families without a fast play-out (see :func:`~rummykit.bots.rollout.fast_family`) play the whole
  table through the round engine as the melding games do.

The extra turn after a knock is played for the least deadwood at the showdown
(:func:`~rummykit.bots.search.last_turn`); the opening and lay-offs of the melding games follow the
tactics of :mod:`rummykit.bots.tactics` (open small, hold melds back) until an opponent is down to
:data:`CLOSING_HAND` cards, and from then on lay everything, as held melds count as minus points.
Whether to lay a further meld that does not take the hand out is searched as well
(:meth:`IsmctsBot.lay_or_hold`): laying it and holding it are played out on the same
determinizations and valued by the points of the hand, the bot's own later turns holding by that
rule, so a meld is laid when the opponents' chance of going out makes it dearer in hand than the
lay-offs it would give them.

In a match (:meth:`IsmctsBot.follow_match`, called by :func:`~rummykit.bots.base.match_action`) a hand
that decides the match is played for the match (:mod:`rummykit.bots.stakes`): the play-outs of the
last hand of a series are worth :data:`~rummykit.bots.stakes.MATCH_BONUS` more when the bot ends the
series ahead, a rubber's knock-or-wait showdowns that end the rubber are worth as much for or against
it, and its races count as home only the knocks that keep it in the rubber.

Budgets are iteration counts (play-outs), so a seeded game gives the same moves on any machine;
``time_limit`` can cap a decision as well, at the cost of that determinism. The levels and their
measured strength and time per move: docs/strength.md.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final

from rummykit import solver
from rummykit.actions import (
    Action,
    BuyBack,
    CallRummy,
    Decline,
    Discard,
    Draw,
    Knock,
    MeldAction,
    Open,
    TakeDiscard,
)
from rummykit.bots.base import MatchView, SeatPast
from rummykit.bots.distill import (
    DISCARD_WEIGHTS,
    DISTILL_DUELS,
    FeedCount,
    discard_features,
    model_rows,
    scores,
)
from rummykit.bots.duel import (
    FeedRule,
    Sample,
    completes,
    deal_draws,
    knock_value,
    race_values,
    take_values,
    wait_value,
)
from rummykit.bots.greedy import Situation, buyback_pays, discard_scores, policy_action, without
from rummykit.bots.inference import Sampler, TableMemory, sample_hidden, seat_weights
from rummykit.bots.knock_duel import discard_duel_values, draw_duel_values
from rummykit.bots.race import knock_home
from rummykit.bots.rollout import TablePlay, engine_rollout, engine_round, fast_family, utility
from rummykit.bots.search import TAKE_DISCARDS, Budget, last_turn
from rummykit.bots.stakes import Stakes
from rummykit.bots.tactics import (
    TABLE_FEED_CHARGE,
    feeds_table,
    hold_melds,
    placement_scores,
    small_opening,
)
from rummykit.cards import Card
from rummykit.determinize import unseen_cards
from rummykit.melding_conditions import taken_stays_barred
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView

WIN_BONUS: Final = 10.0
"""Points a play-out is worth more to the seat(s) with the best points of the hand."""
DISCARD_WINDOW: Final = 50.0
"""Discards scored this much worse than the best are never searched (jokers)."""
CLOSING_HAND: Final = 6
"""Melding games: once an opponent holds this many cards or fewer, the bot opens with every meld it
can and lays further melds at once (the tactics of :mod:`rummykit.bots.tactics` hold them back)."""
ENGINE_ACTIONS: Final = 60
"""Actions of an engine play-out (families without a fast play-out) before it is estimated."""

LEVELS: Final[dict[str, Budget]] = {
    "easy": Budget(determinizations=30, horizon=6, candidates=3),
    "medium": Budget(determinizations=100, horizon=8, candidates=6),
    "hard": Budget(determinizations=400, horizon=10, candidates=8),
}
"""Knock games: determinizations per decision (every candidate is valued on all of them),
the own turns a race runs before it is estimated, and the discards searched."""
MELD_LEVELS: Final[dict[str, Budget]] = {
    "easy": Budget(determinizations=12, horizon=5, candidates=3),
    "medium": Budget(determinizations=40, horizon=8, candidates=5),
    "hard": Budget(determinizations=120, horizon=10, candidates=6),
}
"""Melding games and engine play-outs (whole-table play-outs, dearer): determinizations per
decision (the first half for every candidate, the second for the better half), the turns per seat a
play-out runs before it is estimated, and the discards searched."""
DUEL_DETERMINIZATIONS: Final[dict[str, int]] = {"easy": 20, "medium": 50, "hard": 150}
"""Knock games with ``knock_duels``: the determinizations a decision plays duels on (the first of
the decision's), per level: a duel plays every seat to the end of the hand, far dearer than a race."""
DEFAULT_LEVEL: Final = "medium"


class IsmctsBot:
    """Determinized information-set search over the whole table (see the module docstring)."""

    def __init__(
        self, level: str | None = None, budget: Budget | None = None, win_bonus: float = WIN_BONUS
    ) -> None:
        self.level = level or DEFAULT_LEVEL
        self.fixed = budget
        self.budget = budget or LEVELS[self.level]
        """The budget of the last decision (knock games' until the first one)."""
        self.name = "search" if level is None and budget is None else f"search:{self.level}"
        self.win_bonus = win_bonus
        self.hold = True
        """Melding games: hold further melds back until they take the hand out (the tactic of
        :func:`~rummykit.bots.tactics.hold_melds`)."""
        self.closing_hand = CLOSING_HAND
        self.lay_search = True
        """Melding games: decide laying or holding a further meld by play-outs (:meth:`lay_or_hold`)
        instead of by the holding tactic and the closing rule alone."""
        self.feeds: FeedRule | None = completes
        """Knock games: which discards count as feeding the next seat (see
        :func:`~rummykit.bots.duel.race_values`)."""
        self.opponent_hazard = True
        """Knock games: value a race by the chance that the opponents, given the turns they have
        played, are not home yet (:func:`~rummykit.bots.duel.survival`); off: search-v1's constant
        discount per turn."""
        self.sampler: Sampler = sample_hidden
        """Deals the determinizations (the opponents' hands and the stock) from the bot's view and
        memory; :class:`~rummykit.bots.particles.ParticleSampler` deals them from a particle filter
        (not better, measured: docs/strength.md); ``benchmarks/ceiling.py`` swaps in the true
        cards to measure what knowing them is worth."""
        self.known_stock = False
        """Melding games: the sampler deals the true stock order (``benchmarks/ceiling.py``), so the
        play-outs draw it as one pile whoever draws (:meth:`TablePlay.start`, ``one_pile``). The
        knock games' races keep one draw sequence per seat."""
        self.greedy_playouts = False
        """Melding games: the play-outs discard and exchange jokers as greedy does
        (:attr:`TablePlay.greedy`): closer to greedy's play, twice the CPU, not stronger (measured)."""
        self.knock_duels = False
        """Knock games: value the draw and the discard or knock by duel play-outs of every seat in
        points (:mod:`rummykit.bots.knock_duel`) instead of the race and the knock-or-wait showdowns."""
        self.distilled = False
        """Knock games: a discard with no knock allowed is the candidate with the best learned score
        (:mod:`rummykit.bots.distill`: a conditional logit over honest features, fitted to the choices
        of duels on the opponent's true hand) instead of the best race."""
        self.discard_weights: tuple[float, ...] = DISCARD_WEIGHTS
        """The weights :attr:`distilled` scores with."""
        self.distill_margin = 0.0
        """:attr:`distilled`: the learned score by which a candidate must beat the race's choice to
        be played instead (in the duels' points, :mod:`rummykit.bots.distill`); 0: the best score."""
        self.distill_duels = DISTILL_DUELS[self.level]
        """The determinizations the learned discard's ``duel`` feature plays duels on."""
        self.duel_determinizations = DUEL_DETERMINIZATIONS[self.level]
        """Knock games with :attr:`knock_duels`: the determinizations a decision plays duels on."""
        self.match_aware = True
        """Weigh a hand's results by the match when :func:`~rummykit.bots.base.match_action` shows
        the match (:mod:`rummykit.bots.stakes`): the last hand of a series played for the match,
        a rubber's showdowns for the rubber and its races home by the knocks that keep the bot in."""
        self.lead_equity = False
        """With :attr:`match_aware`: the hand before the last of a heads-up German series is valued
        by the chance its lead gives of winning the series (:func:`~rummykit.bots.stakes.lead_equity`)."""
        self.stakes: Stakes | None = None
        """The match stakes of the decision being made (``None``: played for the hand's points)."""
        self._next_stakes: Stakes | None = None
        self.memories: dict[int, TableMemory] = {}
        """The evidence gathered per seat this bot plays (one bot may sit in several seats)."""
        self.searches = 0
        """Decisions that were searched."""
        self.playouts = 0
        """Play-outs run so far (a machine-independent measure of the effort)."""

    def memory(self, seat: int) -> TableMemory:
        return self.memories.setdefault(seat, TableMemory())

    def catch_up(self, past: SeatPast | None, view: PlayerView) -> None:
        """Rebuild the memory of ``view``'s seat as :meth:`choose` would have left it after deciding
        every one of ``past`` (the seat's earlier decisions of the hand, each the view it decided from
        and the action taken): the memory reads nothing else and draws no random numbers, so it is
        then exactly that of a bot that played them (a resumed game, an undo, a fresh copy of the
        bot). ``None`` (a hand that cannot be replayed from its deal) leaves it knowing nothing of
        the hand. :func:`~rummykit.bots.base.match_action` calls this when the bot has not made
        those decisions itself."""
        memory = self.memory(view.seat)
        memory.restart()
        for seen, action in past or ():
            memory.observe(seen)
            memory.acted(seen, action)

    def new_game(self) -> None:
        """Forget every seat's memory: the next decision begins a new game
        (:func:`~rummykit.bots.base.new_game`)."""
        self.memories = {}

    def utility(self, points: dict[int, float], seat: int) -> float:
        """A play-out's worth to ``seat``: :func:`~rummykit.bots.rollout.utility`, plus what it does
        to the match in the last hand of a series (and with :attr:`lead_equity` the one before it:
        :meth:`Stakes.hand_term`)."""
        value = utility(points, seat, self.win_bonus)
        return value if self.stakes is None else value + self.stakes.hand_term(points)

    def race_rules(self, view: PlayerView) -> Rules:
        """Knock games: the rules the bot's own races run by (in a rubber, only the knocks that keep
        it in are home: :meth:`Stakes.race_rules`)."""
        return view.rules if self.stakes is None else self.stakes.race_rules(view.rules)

    def follow_match(self, mv: MatchView) -> None:
        """Show the bot the match of its next decision (one decision: a decision made without the
        match shown is played for the hand's points)."""
        self._next_stakes = Stakes.of(mv, self.lead_equity) if self.match_aware else None

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        self.stakes, self._next_stakes = self._next_stakes, None
        if self.stakes is not None and self.stakes.seat != view.seat:
            self.stakes = None
        memory = self.memory(view.seat)
        memory.observe(view)
        if self.fixed is None:
            duel = view.rules.family == "knock" and fast_family(view.rules)
            self.budget = (LEVELS if duel else MELD_LEVELS)[self.level]
        action = self._choose(view, legal, rng, memory)
        memory.acted(view, action)
        return action

    def choose_match(self, mv: MatchView, legal: Sequence[Action], rng: random.Random) -> Action:
        want = BuyBack() if buyback_pays(mv) else Decline()
        return want if want in legal else legal[0]

    def _choose(
        self, view: PlayerView, legal: Sequence[Action], rng: random.Random, memory: TableMemory
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        if any(isinstance(a, (BuyBack, Decline)) for a in legal):
            return Decline() if Decline() in legal else legal[0]
        rules = view.rules
        if rules.is_knock_game and view.knocker is not None:
            return last_turn(view, legal)
        situation = Situation.from_view(view)
        greedy = policy_action(situation, legal)
        duel = rules.family == "knock" and fast_family(rules)
        if view.phase is Phase.DRAW:
            if TakeDiscard() in legal and Draw() in legal:
                if duel:
                    return self.duel_draw(view, rng, memory)
                return self.search(view, [TakeDiscard(), Draw()], rng, memory)
            return greedy
        if rules.is_knock_game:
            rummy = [a for a in legal if isinstance(a, CallRummy)]
            if rummy:
                return rummy[0]
            candidates = self.knock_candidates(view, legal, greedy)
            if duel:
                return self.duel_discard(view, candidates, rng, memory)
            return self.search(view, candidates, rng, memory)
        # Showing little pays while the opponents are far from going out; a meld kept in hand
        # counts as minus points when one of them goes out, so near the end everything is laid.
        closing = min(view.hand_sizes[s] for s in view.active_seats if s != view.seat) <= self.closing_hand
        if isinstance(greedy, Open):
            return (None if closing else small_opening(view, rng)) or greedy
        holding = self.hold and not closing
        searching = self.lay_search and isinstance(greedy, MeldAction) and situation.must_lay is None
        held = hold_melds(situation, view, legal, greedy) if holding or searching else greedy
        choice = held if holding else greedy
        if searching and held is not greedy:
            choice = self.lay_or_hold(view, greedy, held, rng, memory)
        if isinstance(choice, Discard):
            return self.search(view, self.meld_candidates(view, legal, situation.opened), rng, memory)
        return choice

    def knock_candidates(self, view: PlayerView, legal: Sequence[Action], greedy: Action) -> list[Action]:
        """The knock greedy would make (if any) and the best discards by the greedy score."""
        rules = view.rules
        hand: list[int] = list(view.hand)
        out: list[Action] = []
        knocks = [a for a in legal if isinstance(a, Knock)]
        if knocks:
            out.append(
                min(knocks, key=lambda a: (solver.min_deadwood(without(hand, (a.card,)), rules), -a.card))
            )
        allowed = [a.card for a in legal if isinstance(a, Discard)]
        if allowed:
            scores = discard_scores(hand, rules, allowed)
            ranked = sorted(scores, key=lambda c: (scores[c], c))
            picked = [c for c in ranked if scores[c] < scores[ranked[0]] + DISCARD_WINDOW]
            out += [Discard(Card(c)) for c in picked[: self.budget.candidates]]
        return out or [greedy]

    def meld_candidates(self, view: PlayerView, legal: Sequence[Action], opened: bool) -> list[Action]:
        """The best discards by the tactics' scores (placement once opened, greedy's before, the table
        charge both times)."""
        rules = view.rules
        allowed = [a.card for a in legal if isinstance(a, Discard)]
        if opened:
            scores = placement_scores(view, allowed)
        else:
            scores = discard_scores(list(view.hand), rules, allowed)
            for card in scores:
                if feeds_table(rules, card, view):
                    scores[card] += TABLE_FEED_CHARGE
        ranked = sorted(scores, key=lambda c: (scores[c], c))
        picked = [c for c in ranked if scores[c] < scores[ranked[0]] + DISCARD_WINDOW]
        return [Discard(Card(c)) for c in picked[: self.budget.candidates]]

    def played(self, view: PlayerView) -> int | None:
        """Knock games: the turns each opponent has played this hand (the races' clock, see
        :attr:`opponent_hazard`), or ``None`` for the constant discount."""
        return view.turn // len(view.active_seats) if self.opponent_hazard else None

    def duel_samples(self, view: PlayerView, rng: random.Random, memory: TableMemory) -> list[Sample]:
        """The determinizations of a knock-game decision (see :mod:`rummykit.bots.duel`)."""
        weights = seat_weights(view, memory)
        unseen = [int(c) for c in unseen_cards(view)]
        seats = list(view.active_seats)
        me = seats.index(view.seat)
        others = seats[me + 1 :] + seats[:me]
        out: list[Sample] = []
        for _ in range(self.budget.determinizations):
            hands, stock = self.sampler(view, rng, memory, weights=weights, unseen=unseen)
            draws = deal_draws(stock[: view.stock_size], len(seats))
            out.append(
                Sample(
                    tuple(draws[0]),
                    tuple((tuple(hands[s]), tuple(draws[i + 1])) for i, s in enumerate(others)),
                )
            )
        return out

    def duel_draw(self, view: PlayerView, rng: random.Random, memory: TableMemory) -> Action:
        """Knock games: take the top discard or draw, whichever races home sooner."""
        rules = self.race_rules(view)
        top = view.top_discard
        hand: list[int] = list(view.hand)
        if top is None:
            return Draw()
        with_top: list[int] = [*hand, top]
        if knock_home(rules, with_top):
            return TakeDiscard()
        self.searches += 1
        allowed = [c for c in set(hand) if c != top or rules.may_discard_taken_discard]
        scores = discard_scores(with_top, rules, allowed)
        rests = [
            without(with_top, (c,)) for c in sorted(scores, key=lambda c: (scores[c], c))[:TAKE_DISCARDS]
        ]
        samples = self.duel_samples(view, rng, memory)
        if self.knock_duels:
            pile = [int(c) for c in view.discard_pile]
            samples = samples[: self.duel_determinizations]
            take, draw = draw_duel_values(rules, hand, samples, pile, self.win_bonus)
            self.playouts += 2 * len(samples)
            return TakeDiscard() if take > draw else Draw()
        take, draw = take_values(rules, rests, hand, samples, self.budget.horizon, self.played(view))
        self.playouts += len(samples) * (len(rests) + 1)
        return TakeDiscard() if take > draw else Draw()

    def duel_discard(
        self, view: PlayerView, candidates: list[Action], rng: random.Random, memory: TableMemory
    ) -> Action:
        """Knock games: the best knock or discard (ties: the earlier candidate)."""
        if len(candidates) == 1:
            return candidates[0]
        self.searches += 1
        rules = view.rules
        race_rules = self.race_rules(view)
        term = None if self.stakes is None else self.stakes.showdown_term
        hand: list[int] = list(view.hand)
        samples = self.duel_samples(view, rng, memory)
        if self.knock_duels and all(isinstance(a, (Discard, Knock)) for a in candidates):
            choices = [(int(a.card), isinstance(a, Knock)) for a in candidates]  # type: ignore[attr-defined]
            pile = [int(c) for c in view.discard_pile]
            samples = samples[: self.duel_determinizations]
            duels = discard_duel_values(rules, hand, choices, samples, pile, self.win_bonus)
            self.playouts += len(samples) * len(candidates)
            return candidates[max(range(len(candidates)), key=lambda i: (duels[i], -i))]
        discards = [a for a in candidates if isinstance(a, Discard)]
        cards = [int(a.card) for a in discards]
        knocks = [a for a in candidates if isinstance(a, Knock)]
        if self.distilled and not knocks:
            races, rows = self.distill_rows(view, memory, cards, samples)
            race = max(range(len(cards)), key=lambda i: (races[i], -i))
            learned = scores(model_rows(rows), self.discard_weights)
            pick = max(range(len(cards)), key=lambda i: (learned[i], -i))
            return discards[pick if learned[pick] > learned[race] + self.distill_margin else race]
        rests = [without(hand, (c,)) for c in cards]
        races = race_values(
            race_rules, rests, cards, samples, self.budget.horizon, self.feeds, self.played(view)
        )
        values: dict[Action, float] = dict(zip(discards, races, strict=True))
        self.playouts += len(samples) * len(candidates)
        if knocks:
            # Knock now, or wait a turn for a better knock: both valued as showdowns.
            for knock in knocks:
                d = solver.min_deadwood(without(hand, (knock.card,)), rules)
                values[knock] = knock_value(
                    rules, int(knock.card), d, samples, rules.knock_discard_face_up, self.win_bonus, term
                )
            for discard, c in zip(discards, cards, strict=True):
                values[discard] = wait_value(rules, without(hand, (c,)), c, samples, self.win_bonus, term)
        return min(candidates, key=lambda a: (-values[a], candidates.index(a)))

    def distill_rows(
        self, view: PlayerView, memory: TableMemory, cards: Sequence[int], samples: Sequence[Sample]
    ) -> tuple[list[float], list[list[float]]]:
        """Knock games: the race's summed value of discarding each of ``cards`` on ``samples`` (as
        :meth:`duel_discard` values it) and each discard's row of honest features
        (:func:`~rummykit.bots.distill.discard_features`)."""
        rules = view.rules
        hand: list[int] = list(view.hand)
        count = FeedCount(self.feeds)
        rests = [without(hand, (c,)) for c in cards]
        races = race_values(rules, rests, cards, samples, self.budget.horizon, count, self.played(view))
        pile = [int(c) for c in view.discard_pile]
        duelled = samples[: self.distill_duels]
        choices = [(c, False) for c in cards]
        duels = discard_duel_values(rules, hand, choices, duelled, pile, self.win_bonus)
        self.playouts += (len(samples) + len(duelled)) * len(cards)
        n, m = max(1, len(samples)), max(1, len(duelled))
        rows = discard_features(
            view,
            memory,
            cards,
            [r / n for r in races],
            [count.share(c) for c in cards],
            [d / m for d in duels],
        )
        return races, rows

    def search(
        self, view: PlayerView, candidates: list[Action], rng: random.Random, memory: TableMemory
    ) -> Action:
        """The candidate with the best mean utility, by successive halving over determinizations."""
        if len(candidates) == 1:
            return candidates[0]
        self.searches += 1
        budget = self.budget
        start = time.perf_counter()
        weights = seat_weights(view, memory)
        unseen = [int(c) for c in unseen_cards(view)]
        samples = [
            self.sampler(view, rng, memory, weights=weights, unseen=unseen)
            for _ in range(budget.determinizations)
        ]
        fast = fast_family(view.rules)
        turns = budget.horizon * len(view.active_seats)
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        alive = list(range(len(candidates)))
        half = budget.determinizations // 2 if len(candidates) > 2 else budget.determinizations
        for part in (samples[:half], samples[half:]):
            for hands, stock in part:
                base = TablePlay.start(view, hands, stock, self.known_stock) if fast else None
                if base is not None:
                    base.greedy = self.greedy_playouts
                for i in alive:
                    if base is not None:
                        points = self.fast_playout(view, base.copy(), candidates[i], turns)
                    else:
                        rnd = engine_round(view, hands, list(stock), rng)
                        points = engine_rollout(rnd, candidates[i], ENGINE_ACTIONS)
                    totals[i] += self.utility(points, view.seat)
                    counts[i] += 1
                    self.playouts += 1
                if budget.time_limit is not None and time.perf_counter() - start > budget.time_limit:
                    break
            # Successive halving: the better half of the candidates goes on to the other samples.
            alive.sort(key=lambda i: (-totals[i] / max(1, counts[i]), i))
            alive = alive[: max(2, (len(alive) + 1) // 2)]
            if budget.time_limit is not None and time.perf_counter() - start > budget.time_limit:
                break
        best = min(alive, key=lambda i: (-totals[i] / max(1, counts[i]), i))
        return candidates[best]

    def lay_or_hold(
        self, view: PlayerView, lay: Action, hold: Action, rng: random.Random, memory: TableMemory
    ) -> Action:
        """Melding games, a further meld that does not take the hand out: ``lay`` it (greedy's
        action) or ``hold`` it, whichever scores more points in table play-outs (:meth:`lay_values`;
        equal values: lay, as greedy does)."""
        laid, held = self.lay_values(view, rng, memory)
        return lay if laid >= held else hold

    def lay_values(self, view: PlayerView, rng: random.Random, memory: TableMemory) -> tuple[float, float]:
        """Summed utilities of laying the melds of the best arrangement now and of holding them.

        On each determinization the rest of this turn is played both ways (every meld laid, or only
        loose cards laid off), then the hand is played on by every seat, the bot holding its melds by
        its own rule (:attr:`TablePlay.hold_seat`): laying shows the opponents places to lay off;
        holding keeps the melds' points in hand if an opponent goes out.
        """
        self.searches += 1
        rules = view.rules
        weights = seat_weights(view, memory)
        unseen = [int(c) for c in unseen_cards(view)]
        me = view.seat
        taken = view.taken_discard
        opened_now = bool(view.opened_turn) and view.opened_turn[me] == view.turn
        barred = None if taken is None or not taken_stays_barred(rules, opened_now) else int(taken)
        turns = self.budget.horizon * len(view.active_seats)
        totals = [0.0, 0.0]
        for _ in range(self.budget.determinizations):
            hands, stock = self.sampler(view, rng, memory, weights=weights, unseen=unseen)
            base = TablePlay.start(view, hands, stock, self.known_stock)
            base.hold_seat, base.hold_until = me, self.closing_hand
            base.greedy = self.greedy_playouts
            for i, laid in enumerate((True, False)):
                play = base.copy()
                cards = [int(c) for c in view.hand]
                if play.meld_step(me, cards, barred, lay=laid):
                    play.hands[me] = []
                    points = play.went_out(me, hand_romme=False)
                else:
                    points = play.play(play.next_seat(me), turns)
                totals[i] += self.utility(points, me)
                self.playouts += 1
        return totals[0], totals[1]

    @staticmethod
    def fast_playout(view: PlayerView, play: TablePlay, action: Action, turns: int) -> dict[int, float]:
        """Apply the root ``action`` to a fast play-out and play on."""
        me = view.seat
        if isinstance(action, (TakeDiscard, Draw)):
            return play.play(me, turns, take=isinstance(action, TakeDiscard))
        rules = view.rules
        if isinstance(action, Knock):
            hand = play.hands[me]
            d = solver.min_deadwood(without(hand, (action.card,)), rules)
            return play.knock(me, int(action.card), d)
        assert isinstance(action, Discard)
        hand = play.hands[me]
        hand.remove(int(action.card))
        play.pile.append(int(action.card))
        play.deadwood[me] = None
        if not hand and rules.family != "knock":
            return play.went_out(me, hand_romme=False)
        return play.play(play.next_seat(me), turns)


__all__ = ["DEFAULT_LEVEL", "DUEL_DETERMINIZATIONS", "LEVELS", "MELD_LEVELS", "WIN_BONUS", "IsmctsBot"]
