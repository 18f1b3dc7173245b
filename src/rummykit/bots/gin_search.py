"""The search bot in Gin Rummy (RULES.md §5.4): a race to the knock.

Heads-up gin goes to whoever knocks first, so :class:`GinSearchBot` plays the decisions that set
the pace by race play-outs (:mod:`rummykit.bots.race`, in native code when built):

* **draw and first upcard**: take the upcard when the race to a knock with it (and the best of the
  few discards it allows) is quicker than with an unknown stock card (:meth:`GinSearchBot.take_upcard`);
  a take that allows a knock at once is always made.
* **discard**: among the best few by the greedy score, the one with the best chance of knocking
  first by this seat's race (:data:`GIN_DISCOUNT` per turn) less :data:`FEED_WEIGHT` times the chance
  that the opponent can meld the card (:func:`~rummykit.bots.gin_feed.feed_chances`: sampled
  opponent hands holding the cards it is known to have taken, a hand that would have melded a card of
  the discard pile weighing less).
* with a source of opponent hands (``opponents``, :data:`~rummykit.bots.gin_duel.OpponentSampler`),
  the discard is instead the candidate with the best mean duel against those hands
  (:mod:`~rummykit.bots.gin_duel`); off by default (see that module).
* with a ``reader`` (:class:`~rummykit.bots.gin_particles.ParticleReader`, the particle filter over
  the opponent's hand), the race's discard is instead worth its race times the chance that the
  opponent cannot take the card and knock at once, less :data:`FEED_WEIGHT` times the chance that it
  melds it, both over :data:`READ_HANDS` hands drawn from the particles; off by default.
* ``distilled`` (the default at the levels of :data:`DISTILLED_LEVELS`): the discard is the race's
  candidate with the best score of the model fitted to the discards of a search that sees the
  opponent's hand (:mod:`~rummykit.bots.gin_distill`: the race, the feed charge, duels against the
  simple bot's rule on read and on particle hands, the particles' take-and-knock chance and what the
  opponent took, passed and threw). Against OpenSpiel's simple bot it won 6.9 points of percent more
  games than the race at hard (2,000 games, the same deals; docs/strength.md).
* ``knock`` as soon as the hand allows it, and gin's other decisions (the wall, the knocker's
  discard and melds, the defender's lay-offs and melds) as greedy plays them
  (:func:`~rummykit.bots.gin_play.gin_action`).

In every other game it is :class:`~rummykit.bots.search.SearchBot` unchanged. ``make_bot("search")``
builds :class:`CombinedSearchBot`, which hands gin hands to it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from rummykit.actions import Action, Discard, Draw, KnockDeclare, Pass, TakeDiscard
from rummykit.bots.base import SeatPast
from rummykit.bots.gin_distill import (
    DISCARD_WEIGHTS,
    FEATURES,
    discard_features,
    distilled_choice,
    read_history,
)
from rummykit.bots.gin_duel import OpponentSampler, duel_values, sampled_opponents
from rummykit.bots.gin_feed import feed_chances, hidden_hands
from rummykit.bots.gin_particles import GinHistory, ParticleReader
from rummykit.bots.gin_play import gin_action, live_discards
from rummykit.bots.greedy import discard_scores, without
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.race import knock_draw_races, knock_home, knock_races
from rummykit.bots.search import TAKE_DISCARDS, Budget, SearchBot
from rummykit.cards import Card
from rummykit.gin import big_gin_hand
from rummykit.gin_melds import mask_of
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView

FEED_WEIGHT: Final = 0.1
"""Chance of knocking first given up for a discard the opponent surely melds.
Against OpenSpiel's simple bot (1,500 games, seed 1, medium) 0.1 won as often as no charge (56.8 %),
with more points per game (+3.1 against +2.4)."""
GIN_DISCOUNT: Final = 0.85
"""The chance that the opponent has not knocked yet after each further own turn (a race of ``t``
turns is worth ``GIN_DISCOUNT ** t``, see :data:`~rummykit.bots.search.DISCOUNT`)."""
READ_HANDS: Final = 200
"""Opponent hands drawn from the particle filter for the race's charges (``reader``)."""
DISTILLED_LEVELS: Final = ("medium", "hard")
"""The levels whose discards are distilled by default (``GinSearchBot(distilled=None)``); easy keeps
the plain race (a few milliseconds per move)."""
EXTRA_CANDIDATES: Final = 2
"""Discards searched beyond the level's ``candidates``: a safe discard is often not among the
cheapest by deadwood."""


class GinSearchBot(SearchBot):
    """:class:`SearchBot` that also plays gin (see the module docstring); ``opponents``: discards by
    duels against these opponent samples, ``determinizations`` of them per decision; ``reader``: the
    race's discards charged by the particle filter's reading instead (:meth:`gin_discard`);
    ``distilled``: the race's candidates scored by the fitted model (:mod:`~.gin_distill`; ``None``:
    at a level of :data:`DISTILLED_LEVELS` without a custom budget, duels or reader), whose
    coefficients are ``weights`` (one per :data:`~.gin_distill.FEATURES`; by default
    :data:`~.gin_distill.DISCARD_WEIGHTS`; other ones are candidates measured against them). A
    :class:`~rummykit.bots.gin_particles.ParticleReader` (``tracker``) is shown every decision of the
    hand."""

    def __init__(
        self,
        level: str | None = None,
        budget: Budget | None = None,
        opponents: OpponentSampler | None = None,
        reader: ParticleReader | None = None,
        distilled: bool | None = None,
        weights: Sequence[float] = DISCARD_WEIGHTS,
    ) -> None:
        super().__init__(level, budget)
        if len(weights) != len(FEATURES):
            raise ValueError(f"{len(weights)} weights for {len(FEATURES)} features")
        self.weights = tuple(weights)
        self.opponents = opponents
        self.reader = reader
        if distilled is None:
            distilled = (
                self.level in DISTILLED_LEVELS and budget is None and opponents is None and reader is None
            )
        self.distilled = distilled
        self.tracker: ParticleReader | None = (
            self.opponents
            if isinstance(self.opponents, ParticleReader)
            else reader or (ParticleReader() if distilled else None)
        )

    def recalls(self, view: PlayerView) -> bool:
        """Whether a copy of the bot must be shown the hand so far before it decides from ``view``:
        in gin, where the ``tracker`` reads the hand's history."""
        return self.tracker is not None and view.gin is not None

    def recall(self, past: SeatPast | None) -> None:
        """Rebuild the ``tracker``'s memory of the hand from the seat's earlier decisions (``past``,
        each the view it decided from and the action it took), as :meth:`choose` would have shown
        them. ``None`` (a hand that cannot be replayed from its deal) leaves the memory broken, and
        the discards fall back to what the view alone says."""
        tracker = self.tracker
        if tracker is None:
            return
        tracker.history = GinHistory()
        if past is None:
            tracker.history.broken = True
            return
        for view, action in past:
            tracker.observe(view)
            tracker.acted(view, action)

    def new_game(self) -> None:
        """Forget the ``tracker``'s memory of the last hand: the next decision begins a new game
        (:func:`~rummykit.bots.base.new_game`)."""
        if self.tracker is not None:
            self.tracker.history = GinHistory()

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        reader = self.tracker
        if reader is not None and view.gin is not None:
            reader.observe(view)
        action = self._choose(view, legal, rng)
        if reader is not None and view.gin is not None:
            reader.acted(view, action)
        return action

    def _choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.gin is None or len(legal) == 1:
            return super().choose(view, legal, rng)
        if view.phase in (Phase.DRAW, Phase.FIRST_UPCARD) and TakeDiscard() in legal:
            if self.take_upcard(view, rng):
                return TakeDiscard()
            return Draw() if Draw() in legal else Pass()
        if view.phase is Phase.DISCARD:
            greedy = gin_action(view, legal)
            if isinstance(greedy, KnockDeclare):
                return greedy
            return self.gin_discard(view, live_discards(view, legal), rng)
        return gin_action(view, legal)

    def _races(self, rules: Rules, hands: Sequence[Sequence[int]], stocks: list[list[int]]) -> list[float]:
        """Per hand of ten cards, the mean of ``GIN_DISCOUNT ** turns`` to a knock over the sampled
        ``stocks`` (the same stocks for every hand)."""
        chances = [0.0] * len(hands)
        for row in knock_races(rules, hands, stocks, self.budget.horizon):
            for i, turns in enumerate(row):
                chances[i] += GIN_DISCOUNT**turns
        self.playouts += len(hands) * len(stocks)
        return [c / max(1, len(stocks)) for c in chances]

    def take_upcard(self, view: PlayerView, rng: random.Random) -> bool:
        """Take the upcard (first upcard or draw) when, with the best of the few discards it allows,
        the race to a knock is quicker than after an unknown stock card: the stock card is
        raced as the first card of every sampled stock. A take that allows a knock at once is
        always made."""
        rules = view.rules
        top = view.top_discard
        if top is None:
            return False
        self.searches += 1
        hand: list[int] = list(view.hand)
        with_top = [*hand, top]
        if knock_home(rules, with_top) or big_gin_hand(mask_of(with_top), rules):
            return True
        allowed = [c for c in set(hand) if c != top or rules.may_discard_taken_discard]
        scores = discard_scores(with_top, rules, allowed)
        ranked = sorted(scores, key=lambda c: (scores[c], c))
        stocks = [s for s in self._stocks(view, rng) if s]
        if not stocks:
            return True
        take = max(self._races(rules, [without(with_top, (c,)) for c in ranked[:TAKE_DISCARDS]], stocks))
        draws = knock_draw_races(rules, hand, stocks)
        draw: float = sum(GIN_DISCOUNT**turns for turns in draws) / len(draws)
        return take > draw

    def discard_candidates(self, view: PlayerView, legal: Sequence[Action]) -> list[int]:
        """The discards searched: the best few by the greedy score (best first) and
        :data:`EXTRA_CANDIDATES` more."""
        allowed = [a.card for a in legal if isinstance(a, Discard)]
        scores = discard_scores(list(view.hand), view.rules, allowed)
        ranked = sorted(scores, key=lambda c: (scores[c], c))
        return ranked[: self.budget.candidates + EXTRA_CANDIDATES]

    def race_values(
        self, view: PlayerView, picked: Sequence[int], rng: random.Random
    ) -> tuple[list[float], list[float]]:
        """Per candidate of ``picked``: its race home and the chance that the opponent can meld it
        (:func:`~.gin_feed.feed_chances`, zeros without a :data:`FEED_WEIGHT`)."""
        hand: list[int] = list(view.hand)
        chances = self._races(
            view.rules, [without(hand, (card,)) for card in picked], self._stocks(view, rng)
        )
        feeds = feed_chances(picked, hidden_hands(view, rng)) if FEED_WEIGHT else [0.0] * len(picked)
        return chances, feeds

    def distilled_features(
        self,
        view: PlayerView,
        picked: Sequence[int],
        races: Sequence[float],
        feeds: Sequence[float],
        rng: random.Random,
    ) -> list[list[float]]:
        """The :func:`~.gin_distill.discard_features` of ``picked``: the take-and-knock chances and
        the duels over :data:`READ_HANDS` hands from the ``tracker``'s particles (the duels over
        :func:`~.gin_duel.sampled_opponents` when it has none, the chances then zero)."""
        rules = view.rules
        tracker = self.tracker
        read = tracker.read(view, rng, READ_HANDS) if tracker is not None else []
        knocks = [
            sum(knock_home(rules, [*h, c]) for h, _, _ in read) / len(read) if read else 0.0 for c in picked
        ]
        hand: list[int] = list(view.hand)
        options = [(without(hand, (card,)), card) for card in picked]
        duels = duel_values(rules, options, sampled_opponents(view, rng, READ_HANDS))
        pf_duels = duel_values(rules, options, read) if read else duels
        self.playouts += len(picked) * (READ_HANDS + len(read))
        reading = read_history(view, tracker.history if tracker is not None else None)
        return discard_features(view, picked, races, feeds, knocks, reading, duels, pf_duels)

    def gin_discard(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        """The discard, among the best few by the greedy score, with the best chance of knocking
        first: its race home less :data:`FEED_WEIGHT` times the chance that the opponent can meld it
        (:func:`~.gin_feed.feed_chances`); or by duels, the particles' charges or the distilled model
        (the class docstring)."""
        rules = view.rules
        hand: list[int] = list(view.hand)
        picked = self.discard_candidates(view, legal)
        if len(picked) == 1:
            return Discard(Card(picked[0]))
        self.searches += 1
        if self.opponents is not None:
            samples = self.opponents(view, rng, self.budget.determinizations)
            self.playouts += len(picked) * len(samples)
            duels = duel_values(rules, [(without(hand, (card,)), card) for card in picked], samples)
            return Discard(Card(picked[min(range(len(picked)), key=lambda i: (-duels[i], i))]))
        if self.reader is not None:
            chances = self._races(rules, [without(hand, (card,)) for card in picked], self._stocks(view, rng))
            read = self.reader.sample_hands(view, rng, READ_HANDS)
            if read:
                # The race is won only if the opponent cannot take the card and knock at once.
                masks = [(mask_of(h), 1.0) for h in read]
                feeds = feed_chances(picked, masks)
                knocks = [sum(knock_home(rules, [*h, c]) for h in read) / len(read) for c in picked]
                values = [chances[i] * (1.0 - knocks[i]) - FEED_WEIGHT * feeds[i] for i in range(len(picked))]
                return Discard(Card(picked[min(range(len(picked)), key=lambda i: (-values[i], i))]))
            feeds = feed_chances(picked, hidden_hands(view, rng)) if FEED_WEIGHT else [0.0] * len(picked)
        else:
            chances, feeds = self.race_values(view, picked, rng)
        if self.distilled:
            features = self.distilled_features(view, picked, chances, feeds, rng)
            return Discard(Card(picked[distilled_choice(features, self.weights)]))
        return Discard(Card(picked[race_choice(chances, feeds)]))


def race_choice(chances: Sequence[float], feeds: Sequence[float]) -> int:
    """The race's discard: the candidate with the best race less :data:`FEED_WEIGHT` times its feed
    chance (the first of equal ones)."""
    values = [chances[i] - FEED_WEIGHT * feeds[i] for i in range(len(chances))]
    return min(range(len(values)), key=lambda i: (-values[i], i))


class CombinedSearchBot(IsmctsBot):
    """The ``search`` bot: information-set search (:class:`IsmctsBot`) in every game, except that a gin
    hand is played by :class:`GinSearchBot` (gin's own first-upcard, meld and lay-off phases; the bot
    measured against OpenSpiel's)."""

    def __init__(self, level: str | None = None) -> None:
        super().__init__(level)
        self.gin_search = GinSearchBot(level)

    def recalls(self, view: PlayerView) -> bool:
        """A gin hand's memory (:meth:`GinSearchBot.recalls`); the other games read the view alone."""
        return self.gin_search.recalls(view)

    def recall(self, past: SeatPast | None) -> None:
        """A gin hand's memory (:meth:`GinSearchBot.recall`)."""
        self.gin_search.recall(past)

    def new_game(self) -> None:
        """Forget the memories of both searches (:meth:`IsmctsBot.new_game`,
        :meth:`GinSearchBot.new_game`)."""
        super().new_game()
        self.gin_search.new_game()

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.gin is not None:
            return self.gin_search.choose(view, legal, rng)
        return super().choose(view, legal, rng)
