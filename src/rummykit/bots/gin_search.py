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
* ``knock`` as soon as the hand allows it, and gin's other decisions (the wall, the knocker's
  discard and melds, the defender's lay-offs and melds) as greedy plays them
  (:func:`~rummykit.bots.gin_play.gin_action`).

In every other game it is :class:`~rummykit.bots.search.SearchBot` unchanged. ``make_bot("search")``
builds :class:`CombinedSearchBot`, which hands gin hands to it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Final

from rummykit.actions import Action, Discard, Draw, KnockDeclare, Pass, TakeDiscard
from rummykit.bots.gin_feed import feed_chances, hidden_hands
from rummykit.bots.gin_model import GinMemory, opponent_hands, posterior_hands, resample, wants_card
from rummykit.bots.gin_play import gin_action, gin_info
from rummykit.bots.greedy import discard_scores, without
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.race import knock_draw_races, knock_home, knock_races
from rummykit.bots.search import TAKE_DISCARDS, SearchBot
from rummykit.cards import Card
from rummykit.determinize import unseen_cards
from rummykit.rules import Rules
from rummykit.views import Phase, PlayerView

FEED_WEIGHT: Final = float(os.environ.get("RK_GIN_FEED", "0.1"))
"""Chance of knocking first given up for a discard the opponent surely melds.
Against OpenSpiel's simple bot (1,500 games, seed 1, medium) 0.1 won as often as no charge (56.8 %),
with more points per game (+3.1 against +2.4)."""
GIN_DISCOUNT: Final = float(os.environ.get("RK_GIN_DISCOUNT", "0.85"))
"""The chance that the opponent has not knocked yet after each further own turn (a race of ``t``
turns is worth ``GIN_DISCOUNT ** t``, see :data:`~rummykit.bots.search.DISCOUNT`)."""
EXTRA_CANDIDATES: Final = 2
"""Discards searched beyond the level's ``candidates``: a safe discard is often not among the
cheapest by deadwood."""


MODEL_SAMPLES: Final = int(os.environ.get("RK_GIN_SAMPLES", "160"))
PARTICLES: Final = 48
MODE: Final = os.environ.get("RK_GIN_MODE", "model")
STEPS: Final = int(os.environ.get("RK_GIN_STEPS", "8"))


class GinSearchBot(SearchBot):
    """:class:`SearchBot` that also plays gin (see the module docstring)."""

    def __init__(self, level: str | None = None) -> None:
        super().__init__(level)
        self.memories: dict[int, GinMemory] = {}
        self._particles: tuple[tuple[int, int, int], list[int]] | None = None
        self._wanted: dict[tuple[int, int], bool] = {}

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.gin is None:
            return super().choose(view, legal, rng)
        memory = self.memories.setdefault(view.seat, GinMemory())
        memory.observe(view)
        action = self._choose_gin(view, legal, rng)
        memory.acted(view, action)
        return action

    def particles(self, view: PlayerView, rng: random.Random) -> list[int]:
        """Sampled opponent hands (bit masks), drawn by the opponent model (:mod:`.gin_model`),
        once per own turn."""
        memory = self.memories.setdefault(view.seat, GinMemory())
        key = (view.seat, view.stock_size, len(memory.turns))
        if self._particles is not None and self._particles[0] == key:
            return self._particles[1]
        turns = memory.turns if MODE != "uniform" else []
        if STEPS:
            out = posterior_hands(view, turns, rng, PARTICLES, STEPS)
        else:
            out = resample(
                opponent_hands(view, turns, rng, MODEL_SAMPLES if turns else PARTICLES), PARTICLES, rng
            )
        self._particles = (key, out)
        return out

    def _gin_stocks(self, view: PlayerView, rng: random.Random) -> list[list[int]]:
        """Sampled stock orders without the cards of sampled opponent hands."""
        if MODE == "old":
            return self._stocks(view, rng)
        pool: list[int] = list(unseen_cards(view))
        hands = self.particles(view, rng)
        size = self.budget.horizon + 1
        out = []
        for i in range(self.budget.determinizations):
            held = hands[i % len(hands)]
            free = [c for c in pool if not held >> c & 1]
            out.append(rng.sample(free, min(size, len(free))))
        return out

    def _duel_stocks(self, view: PlayerView, rng: random.Random) -> list[tuple[int, list[int]]]:
        """Sampled (opponent hand, stock order) pairs: the hands by the opponent model, each stock
        drawn from the unseen cards outside its hand, long enough for both seats' races."""
        pool: list[int] = list(unseen_cards(view))
        hands = self.particles(view, rng)
        size = 2 * (self.budget.horizon + 1)
        out = []
        for i in range(self.budget.determinizations):
            held = hands[i % len(hands)]
            free = [c for c in pool if not held >> c & 1]
            out.append((held, rng.sample(free, min(size, len(free)))))
        return out

    def _opponent_turns(
        self, view: PlayerView, pairs: Sequence[tuple[int, list[int]]], first: int | None, mine: bool
    ) -> tuple[list[float], list[bool]]:
        """Per sampled pair, the opponent's turns to a knock and whether it took ``first`` (our
        discard, ``None``: none to take). It takes ``first`` when its hand wants it, then draws the
        odd stock cards; otherwise it draws the even ones (``mine``: the odd ones, after our draw)."""
        rules = view.rules
        knock_card = gin_info(view).knock_card
        groups: dict[tuple[int, bool], list[int]] = {}
        takes = [False] * len(pairs)
        for i, (hand, _) in enumerate(pairs):
            takes[i] = first is not None and self._wants(rules, hand, first, knock_card)
            groups.setdefault((hand, takes[i]), []).append(i)
        out = [0.0] * len(pairs)
        for (hand, took), idx in groups.items():
            cards = [c for c in range(52) if hand >> c & 1]
            if took and first is not None:
                stocks = [[first, *pairs[i][1][1::2]] for i in idx]
            else:
                stocks = [pairs[i][1][1::2] if mine else pairs[i][1][0::2] for i in idx]
            rows = knock_races(rules, [cards], stocks, self.budget.horizon)
            for i, row in zip(idx, rows, strict=True):
                out[i] = row[0]
        self.playouts += len(pairs)
        return out, takes

    def _wants(self, rules: Rules, hand: int, card: int, knock_card: int) -> bool:
        key = (hand, card)
        known = self._wanted.get(key)
        if known is None:
            known = self._wanted[key] = wants_card(rules, hand, card, knock_card)
        return known

    def _duel_discards(
        self, view: PlayerView, hands: Sequence[Sequence[int]], discards: Sequence[int], rng: random.Random
    ) -> list[float]:
        """Per own ten-card hand after discarding ``discards[k]``: the share of sampled deals in
        which it knocks before the opponent."""
        rules = view.rules
        pairs = self._duel_stocks(view, rng)
        if not pairs or len(pairs[0][1]) < 2:
            return [0.0] * len(hands)
        self._wanted = {}
        wins = [0.0] * len(hands)
        for k, card in enumerate(discards):
            theirs, takes = self._opponent_turns(view, pairs, card, False)
            ours = [stock[0::2] if takes[i] else stock[1::2] for i, (_, stock) in enumerate(pairs)]
            rows = knock_races(rules, [hands[k]], ours, self.budget.horizon)
            wins[k] = sum(1.0 for i, row in enumerate(rows) if row[0] < theirs[i]) / len(pairs)
        self.playouts += len(hands) * len(pairs)
        return wins

    def _duel_draw(self, view: PlayerView, hand: Sequence[int], rng: random.Random) -> float:
        """The share of sampled deals in which ``hand`` knocks before the opponent after drawing
        from the stock."""
        pairs = self._duel_stocks(view, rng)
        if not pairs or len(pairs[0][1]) < 2:
            return 0.0
        theirs, _ = self._opponent_turns(view, pairs, None, True)
        ours = knock_draw_races(view.rules, hand, [stock[0::2] for _, stock in pairs])
        return sum(1.0 for i, t in enumerate(ours) if t < theirs[i]) / len(pairs)

    def _choose_gin(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if view.phase in (Phase.DRAW, Phase.FIRST_UPCARD) and TakeDiscard() in legal:
            if self.take_upcard(view, rng):
                return TakeDiscard()
            return Draw() if Draw() in legal else Pass()
        if view.phase is Phase.DISCARD:
            greedy = gin_action(view, legal)
            if isinstance(greedy, KnockDeclare):
                return greedy
            return self.gin_discard(view, legal, rng)
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
        if knock_home(rules, with_top):
            return True
        allowed = [c for c in set(hand) if c != top or rules.may_discard_taken_discard]
        scores = discard_scores(with_top, rules, allowed)
        ranked = sorted(scores, key=lambda c: (scores[c], c))
        stocks = [s for s in self._gin_stocks(view, rng) if s]
        if not stocks:
            return True
        if MODE == "duel":
            options = ranked[:TAKE_DISCARDS]
            take = max(self._duel_discards(view, [without(with_top, (c,)) for c in options], options, rng))
            return take > self._duel_draw(view, hand, rng)
        take = max(self._races(rules, [without(with_top, (c,)) for c in ranked[:TAKE_DISCARDS]], stocks))
        draws = knock_draw_races(rules, hand, stocks)
        draw: float = sum(GIN_DISCOUNT**turns for turns in draws) / len(draws)
        return take > draw

    def gin_discard(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        """The discard, among the best few by the greedy score, with the best chance of knocking
        first: its race home less :data:`FEED_WEIGHT` times the chance that the opponent can meld it
        (:func:`~.gin_feed.feed_chances`)."""
        rules = view.rules
        hand: list[int] = list(view.hand)
        allowed = [a.card for a in legal if isinstance(a, Discard)]
        scores = discard_scores(hand, rules, allowed)
        ranked = sorted(scores, key=lambda c: (scores[c], c))
        picked = ranked[: self.budget.candidates + EXTRA_CANDIDATES]
        if len(picked) == 1:
            return Discard(Card(picked[0]))
        self.searches += 1
        if MODE == "duel":
            wins = self._duel_discards(view, [without(hand, (card,)) for card in picked], picked, rng)
            best = min(range(len(picked)), key=lambda i: (-wins[i], i))
            return Discard(Card(picked[best]))
        chances = self._races(rules, [without(hand, (card,)) for card in picked], self._gin_stocks(view, rng))
        if MODE == "old":
            feeds = feed_chances(picked, hidden_hands(view, rng)) if FEED_WEIGHT else [0.0] * len(picked)
        else:
            feeds = self.take_chances(view, picked, rng)
        values = [chances[i] - FEED_WEIGHT * feeds[i] for i in range(len(picked))]
        best = min(range(len(picked)), key=lambda i: (-values[i], i))
        return Discard(Card(picked[best]))

    def take_chances(self, view: PlayerView, cards: Sequence[int], rng: random.Random) -> list[float]:
        """For each of ``cards``, the share of sampled opponent hands that would take it."""
        hands = self.particles(view, rng)
        knock_card = gin_info(view).knock_card
        return [sum(wants_card(view.rules, h, c, knock_card) for h in hands) / len(hands) for c in cards]


class CombinedSearchBot(IsmctsBot):
    """The ``search`` bot: information-set search (:class:`IsmctsBot`) in every game, except that a gin
    hand is played by :class:`GinSearchBot` (gin's own first-upcard, meld and lay-off phases; the bot
    measured against OpenSpiel's)."""

    def __init__(self, level: str | None = None) -> None:
        super().__init__(level)
        self.gin_search = GinSearchBot(level)

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.gin is not None:
            return self.gin_search.choose(view, legal, rng)
        return super().choose(view, legal, rng)
