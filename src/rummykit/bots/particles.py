"""A particle filter over the opponents' hands: the search's determinizations from a replay of the hand.

Sequential importance resampling (Gordon, Salmond and Smith 1993; in card games e.g. Solinger,
Ware and Sturtevant 2019). A particle is one complete guess of every other seat's hand, played
forward from the deal through the ordered log of :class:`~rummykit.bots.inference.TableMemory`:

* **Deal**: the other hands are dealt at random from the cards that could have been in them: the
  deck less the viewer's own deal and the upcard (two decks: card codes repeat, so everything is a
  multiset).
* **The other seat's turn** (:class:`~rummykit.bots.inference.Turn`): its take-or-draw decision is
  weighted by the opponent model; a stock draw is dealt at random from the particle's stock (the
  cards no hand of the particle holds and the viewer has not seen), except when the particle lacks a
  card the seat laid or discarded this turn: then the draw must have been that card, and the weight
  is multiplied by the chance of drawing it. The cards it laid leave its hand (jokers it freed enter
  it), a seat that could have opened (melding games) but did not, or could have knocked (knock games)
  but did not, is weighted by :data:`WAIT_EPS`, and its discard by the model.
* **The viewer's stock draw** (:class:`~rummykit.bots.inference.OwnDraw`): weighted by the copies
  of the card the particle leaves in the stock.
* After each update the particle is made to fit the current view: the cards known to be held (taken
  from the pile), every hand's size and only cards the viewer cannot see; a card that does not fit
  is replaced by a random unseen one. This is also the fall-back where the log has a gap (a stretch
  the memory could not reconstruct: several opponents, a stock rebuild): the particle keeps its
  guesses, and what the view rules out is redealt at random.
* When the effective sample size falls below :data:`RESAMPLE_AT` of the particles, they are
  resampled (systematic resampling); when every weight vanishes, the particles are dealt afresh by
  :func:`~rummykit.bots.inference.sample_hidden`.
* Resampled copies are kept apart by roughening (one guessed card per seat exchanged at random,
  which does not keep the posterior) or, with ``moves`` (heads-up knock games), by a resample-move
  step (Gilks and Berzuini 2001): each particle keeps a :class:`Story` of where its guessed cards
  came from (dealt, or drawn from the stock in a logged turn) and the log-likelihood of each logged
  turn; a Metropolis-Hastings move exchanges one guessed card for a card of the particle's stock,
  scores again the turns that held it and accepts with the likelihood ratio (:meth:`ParticleFilter._move`).

The opponent model is a soft greedy player (:mod:`rummykit.bots.greedy`): it takes the top discard
as greedy would with probability ``1 - DRAW_EPS``; its discard is greedy's with probability
``1 - DISCARD_EPS``, otherwise drawn by a softmax of greedy's discard scores at
:data:`TEMPERATURE`; it knocks or opens as soon as it can with probability ``1 - WAIT_EPS``. So it
assumes an opponent that plays roughly like greedy: the search bots (whose candidates start from
greedy's scores) and greedy itself. The determinizations are particles drawn by weight, the stock
shuffled from what is left (:class:`ParticleSampler`, a :class:`~rummykit.bots.inference.Sampler`).

Measured (docs/strength.md; ``benchmarks/reading.py`` and ``benchmarks/ceiling.py``): on
the same Viennese decisions against greedy the particles hold 27 % of the opponent's true hidden
cards where the inference's sampler holds 25 % and uniform dealing 21 %, and their hands are nearer
greedy's true strength (least deadwood 37 against 44, true 27); but the search playing on them was
not stronger (600 paired Viennese rounds: -1.2 ± 1.7 points and -3.7 ± 4.2 % rounds won per round;
with the likelihoods squared, ``Model(power=2)``, -0.4 ± 1.6 points and -2.5 ± 3.8 %; 100 German
rounds: -3.0 ± 5.0 points, squared -3.7 ± 6.0), at 30-50 ms more CPU per move. So the search's
default sampler stays :func:`~rummykit.bots.inference.sample_hidden`. With four moves per
particle (likelihoods squared) the filter deals hands of greedy's true strength (least deadwood 28.2
against the true 27.0, 28 % of the hands below 15 against 30 %) and finds 31 % of its hidden cards,
at about 120 ms per decision (docs/strength.md); but the search playing on them was not
stronger (300 paired Viennese rounds against greedy: duels -2.7 ± 2.9 points and races -0.5 ± 2.3
against the race on ``sample_hidden``), so ``moves`` is 0 by default.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit import solver
from rummykit.bots.greedy import Situation, discard_scores, should_take
from rummykit.bots.inference import (
    OwnDraw,
    Stretch,
    TableMemory,
    Turn,
    sample_hidden,
    seat_weights,
)
from rummykit.cards import JOKER_CODE, build_deck
from rummykit.determinize import unseen_cards
from rummykit.knocking import knock_allowed
from rummykit.melding_conditions import taken_stays_barred
from rummykit.views import Phase, PlayerView

PARTICLES: Final = 400
"""Particles per seat and hand."""
DRAW_EPS: Final = 0.1
"""Chance that the modelled opponent takes or leaves the top discard against greedy's rule."""
DISCARD_EPS: Final = 0.3
"""Chance that its discard is drawn from the softmax of greedy's scores instead of greedy's own."""
TEMPERATURE: Final = 3.0
"""Softmax temperature of that draw, in points of greedy's discard score."""
WAIT_EPS: Final = 0.1
"""Chance that it does not open (melding games) or knock (knock games) when its hand allows it."""
POWER: Final = 1.0
"""Exponent of the action likelihoods (1: the model as it stands)."""
RESAMPLE_AT: Final = 0.5
"""Resample when the effective sample size falls below this share of the particles."""
OUT_OF_STOCK: Final = 0.05
"""The copies a particle is taken to leave in the stock when it holds every copy of the card the
viewer drew: it is repaired (:meth:`ParticleFilter._fit` deals the card's place anew) and kept at a
low weight rather than dropped, since resampled particles are few distinct hands."""
MOVES: Final = 0
"""Metropolis-Hastings moves per particle after each resampling (0: roughening instead)."""
IMPOSSIBLE: Final = -30.0
"""Log weight given to a particle the view rules out (kept, repaired, instead of dropped: if all of
them are ruled out, the repaired ones still stand)."""


@dataclass(frozen=True, slots=True)
class Model:
    """The soft greedy opponent (see the module docstring)."""

    draw_eps: float = DRAW_EPS
    discard_eps: float = DISCARD_EPS
    temperature: float = TEMPERATURE
    wait_eps: float = WAIT_EPS
    power: float = POWER
    """Exponent of the likelihood of each action (tempering: below 1 the evidence counts less)."""


class Story:
    """Where every card of one particle's guess of the other seat's hand came from (the
    resample-move step's state, :meth:`ParticleFilter._move`).

    ``records`` holds ``[card, entry, exit, taken]`` per card that entered the hand: ``entry`` the
    index of the logged turn it was drawn or taken in (-1: dealt), ``exit`` the index of the turn it
    was discarded in (``None``: still held), ``taken`` 1 for a card taken from the pile (known, never
    moved). ``scores`` caches the log-likelihood of each logged turn on this story (``None``: not
    computed since a card it saw changed)."""

    __slots__ = ("records", "scores")

    def __init__(self, records: list[list[int | None]], scores: list[float | None]) -> None:
        self.records = records
        self.scores = scores

    def copy(self) -> Story:
        return Story([list(r) for r in self.records], list(self.scores))

    def held(self) -> list[int]:
        """The cards held now."""
        return [int(r[0]) for r in self.records if r[2] is None]  # type: ignore[arg-type]

    def guessed(self) -> list[list[int | None]]:
        """The records of the cards held now that were dealt or drawn from the stock."""
        return [r for r in self.records if r[2] is None and not r[3]]

    def stale(self, entry: int) -> None:
        """Forget the scores of the turns that saw a card that entered at ``entry``."""
        for k in range(max(entry, 0), len(self.scores)):
            self.scores[k] = None

    def reconcile(self, hand: Sequence[int]) -> bool:
        """Rewrite the held records to ``hand`` where a step of the filter exchanged guessed cards
        (a card the seat must have held swapped in, a card the view rules out redealt); each
        exchanged card keeps the entry of the one it replaces. False when that is not possible."""
        now = Counter(self.held())
        have = Counter(hand)
        gone = list((now - have).elements())
        new = list((have - now).elements())
        if len(gone) != len(new):
            return False
        for old, card in zip(gone, new, strict=True):
            held = [r for r in self.records if r[2] is None and r[0] == old]
            record = min(held, key=lambda r: r[3])  # type: ignore[arg-type,return-value]
            record[0] = card
            self.stale(int(record[1]))  # type: ignore[arg-type]
        return True


def _extra_seat(view: PlayerView) -> int | None:
    """The seat dealt the extra card (it discards without drawing in the first turn), if any."""
    start = view.rules.start_mode
    if start not in ("dealer_extra_card", "forehand_extra_card"):
        return None
    seats = view.active_seats
    seat = view.dealer if start == "dealer_extra_card" else seats[0]
    return seat if seat in seats else seats[0]


def _take(counter: Counter[int], cards: Sequence[int]) -> None:
    for c in cards:
        if counter[c] > 0:
            counter[c] -= 1


class ParticleFilter:
    """The particles of one seat's view of one hand (see the module docstring)."""

    def __init__(
        self,
        view: PlayerView,
        memory: TableMemory,
        rng: random.Random,
        count: int,
        model: Model,
        moves: int = MOVES,
    ) -> None:
        self.rules = view.rules
        self.seat = view.seat
        self.model = model
        self.count = count
        self.others = [s for s in view.active_seats if s != view.seat]
        self.hand_id = memory.hands
        self.done = 0
        """Events of the memory's log replayed so far."""
        self.resamples = 0
        self.reseeds = 0
        self.key: tuple[int, ...] | None = None
        self.resample_at = RESAMPLE_AT
        self.roughen = True
        """Exchange one guessed card per seat in every resampled copy (:meth:`_roughen`)."""
        self.moves = moves
        """Metropolis-Hastings moves per particle after each resampling (:meth:`_move`); they
        replace roughening. Kept only heads-up in knock games (one other seat, nothing laid before
        the hand ends); elsewhere the filter roughens."""
        self.tracked = moves > 0 and self.rules.is_knock_game and len(self.others) == 1
        self.turns: list[tuple[Turn, int | None, bool]] = []
        """The other seat's logged turns: the turn, the card it could not discard, whether it had
        opened."""
        self.proposed = self.accepted = 0
        self.ess: list[float] = []
        """The effective sample size after each update that replayed a turn of another seat (before
        any resampling)."""
        deck = Counter(int(c) for c in build_deck(self.rules.num_decks, self.rules.jokers_total))
        _take(deck, memory.deal_hand)
        first = memory.log[0] if memory.log else None
        if memory.deal_turn == 0 and view.turn == 0 and view.discard_pile and _extra_seat(view) is None:
            _take(deck, [int(view.discard_pile[0])])
        elif isinstance(first, Stretch) and first.turns and _extra_seat(view) is None:
            upcard = first.turns[0].top
            if upcard is not None:
                _take(deck, [upcard])
        base = len(memory.deal_hand) - (1 if _extra_seat(view) == view.seat and memory.deal_turn == 0 else 0)
        extra = _extra_seat(view)
        pool = list(deck.elements())
        self.hands: list[dict[int, list[int]]] = []
        for _ in range(count):
            rng.shuffle(pool)
            hands: dict[int, list[int]] = {}
            at = 0
            for s in self.others:
                size = base + (1 if s == extra else 0)
                hands[s] = pool[at : at + size]
                at += size
            self.hands.append(hands)
        self.logw = [0.0] * count
        self.stories: list[Story | None] = [
            Story([[c, -1, None, 0] for c in hands[self.others[0]]], []) if self.tracked else None
            for hands in self.hands
        ]

    # The opponent model -------------------------------------------------------------------------
    def _take_p(self, hand: list[int], top: int, opened: bool, view: PlayerView | None) -> float:
        """Probability that a seat holding ``hand`` takes ``top`` (``view``: the table's melds)."""
        table = tuple(tm.meld for tm in view.melds) if view is not None else ()
        s = Situation(
            rules=self.rules,
            hand=tuple(hand),  # type: ignore[arg-type]
            phase=Phase.DRAW,
            top=top,  # type: ignore[arg-type]
            taken=None,
            must_lay=None,
            table=table,
            opened=opened,
            may_lay_off=opened,
            extra_turn=False,
        )
        eps = self.model.draw_eps
        return 1.0 - eps if should_take(s) else eps

    def _take_logw(self, turn: Turn, hand: list[int], opened: bool, view: PlayerView | None) -> float:
        """The log-likelihood of ``turn``'s take or draw for a seat holding ``hand`` before it."""
        top = turn.top
        if top is None or not (turn.took or turn.drew):
            return 0.0
        if not self._possible([*hand, top]):
            return IMPOSSIBLE
        p = self._take_p(hand, top, opened, view)
        return self.model.power * math.log(p if turn.took else 1.0 - p)

    def _wait_logw(self, hand: list[int], opened: bool, barred: int | None) -> float:
        """The log-likelihood of not finishing (no knock, Rummy or opening) with ``hand``."""
        if self._could_finish(hand, opened, barred):
            return self.model.power * math.log(self.model.wait_eps)
        return 0.0

    def _discard_logw(self, hand: list[int], card: int, barred: int | None) -> float:
        """The log-likelihood of discarding ``card`` from ``hand``."""
        p = self._discard_p(hand, card, barred)
        return self.model.power * math.log(p) if p > 0 else IMPOSSIBLE

    def _discard_p(self, hand: list[int], card: int, barred: int | None) -> float:
        """Probability that a seat holding ``hand`` (after its draw and melds) discards ``card``."""
        allowed = [c for c in set(hand) if c != barred] or list(set(hand))
        if card not in allowed:
            return 0.0
        if len(allowed) == 1:
            return 1.0
        scores = discard_scores(hand, self.rules, allowed)
        best = min(sorted(scores), key=scores.__getitem__)
        t = self.model.temperature
        low = scores[best]
        total = sum(math.exp(-(v - low) / t) for v in scores.values())
        soft = math.exp(-(scores[card] - low) / t) / total
        eps = self.model.discard_eps
        return (1.0 - eps) * (card == best) + eps * soft

    def _possible(self, hand: Sequence[int]) -> bool:
        """No face more often than the decks hold it (a particle's guesses can overlap a known card
        until :meth:`_fit` sorts them out)."""
        counts = Counter(hand)
        jokers = counts.pop(JOKER_CODE, 0)
        return jokers <= self.rules.jokers_total and max(counts.values(), default=0) <= self.rules.num_decks

    def _could_finish(self, hand: list[int], opened: bool, barred: int | None) -> bool:
        """Knock games: the hand (after the draw) allows a knock or Rummy; melding games: a seat not
        yet opened could open."""
        rules = self.rules
        if rules.is_knock_game:
            d, best = solver.best_discards(hand, rules)
            if not [c for c in best if c != barred]:
                return False
            return d == 0 or knock_allowed(d, rules.knock_threshold or 0, rules.knock_comparison)
        need = rules.opening_min_points or 0
        if opened or not need:
            return False
        keep = rules.going_out_requires_discard
        return solver.max_opening_value(hand, rules, keep_one=keep) >= need

    # Updates ------------------------------------------------------------------------------------
    def update(self, view: PlayerView, memory: TableMemory, rng: random.Random) -> None:
        """Replay the memory's new events, make every particle fit ``view``, resample if needed."""
        unseen = Counter(int(c) for c in unseen_cards(view))
        played = any(isinstance(e, Stretch) and e.turns for e in memory.log[self.done :])
        for event in memory.log[self.done :]:
            if isinstance(event, OwnDraw):
                self._own_draw(event.card, unseen)
            elif event.turns is not None:
                self._stretch(event, view, unseen, rng)
            elif self.tracked:  # a gap in the log: the stories end
                self.tracked = False
                self.stories = [None] * self.count
        self.done = len(memory.log)
        self._fit(view, unseen, rng)
        self._follow(view)
        self._normalise(view, memory, rng, played)

    def _follow(self, view: PlayerView) -> None:
        """Bring every story to its particle's hand after :meth:`_fit` (its exchanged cards keep
        their entries); a story whose held cards then differ from the particle's is dropped."""
        if not self.tracked:
            return
        seat = self.others[0]
        known = Counter(int(c) for c in view.known_cards[seat]) if view.known_cards else Counter()
        for i, story in enumerate(self.stories):
            hand = self.hands[i][seat]
            if story is None:
                continue
            guessed = Counter(hand)
            guessed.subtract(known)
            if not story.reconcile(hand):
                self.stories[i] = None
                continue
            if Counter(int(r[0]) for r in story.guessed()) != +guessed:  # type: ignore[arg-type]
                self.stories[i] = None

    def _hidden(self, hands: dict[int, list[int]], known: dict[int, list[int]]) -> Counter[int]:
        out: Counter[int] = Counter()
        for s, hand in hands.items():
            rest = Counter(hand)
            rest.subtract(known.get(s, ()))
            out.update(+rest)
        return out

    def _own_draw(self, card: int, unseen: Counter[int]) -> None:
        """The viewer drew ``card``: weight by the copies each particle leaves in the stock."""
        before = unseen[card] + 1
        for i, hands in enumerate(self.hands):
            held = sum(h.count(card) for h in hands.values())
            left = before - held
            self.logw[i] += math.log(max(left, OUT_OF_STOCK) / before)

    def _stretch(self, stretch: Stretch, view: PlayerView, unseen: Counter[int], rng: random.Random) -> None:
        assert stretch.turns is not None
        turns = stretch.turns
        movers = {t.seat for t in turns}
        # Cards laid on the table can be placed only with one mover.
        attributable = len(movers) == 1 or not (stretch.tabled or stretch.freed)
        visible: Counter[int] = Counter(unseen)
        visible.update(t.discarded for t in turns if t.discarded is not None)
        visible.update(stretch.tabled)
        opened_turn = view.opened_turn
        known = {s: [int(c) for c in view.known_cards[s]] for s in self.others} if view.known_cards else {}
        first = len(self.turns)
        if self.tracked and (stretch.tabled or stretch.freed):
            self.tracked = False
            self.stories = [None] * self.count
        if self.tracked:
            for turn in turns:
                at = opened_turn[turn.seat] if opened_turn else None
                took = turn.took and taken_stays_barred(self.rules, at is not None and at == turn.number)
                self.turns.append((turn, turn.top if took else None, at is not None and at < turn.number))
        for i, hands in enumerate(self.hands):
            story = self.stories[i]
            if story is not None:
                story.scores.extend([None] * len(turns))
            logw = 0.0
            if not attributable:  # the cards laid leave whichever mover's hand holds them
                for c in stretch.tabled:
                    for s in movers:
                        if c in hands[s]:
                            hands[s].remove(c)
                            break
            for j, turn in enumerate(turns):
                hand = hands[turn.seat]
                at = opened_turn[turn.seat] if opened_turn else None
                opened_before = at is not None and at < turn.number
                opens_now = at is not None and at == turn.number
                lw = self._turn(
                    turn,
                    hand,
                    hands,
                    known,
                    visible,
                    opened_before,
                    opens_now,
                    stretch if attributable else None,
                    view,
                    rng,
                    story,
                    first + j,
                )
                logw += lw
            self.logw[i] += logw
            if story is not None and Counter(story.held()) != Counter(hands[self.others[0]]):
                self.stories[i] = None

    def _turn(
        self,
        turn: Turn,
        hand: list[int],
        hands: dict[int, list[int]],
        known: dict[int, list[int]],
        visible: Counter[int],
        opened_before: bool,
        opens_now: bool,
        stretch: Stretch | None,
        view: PlayerView,
        rng: random.Random,
        story: Story | None = None,
        index: int = 0,
    ) -> float:
        """Play ``turn`` on a particle's ``hand`` (changed in place); the log-likelihood. ``story``
        (the particle's :class:`Story`, if kept) records the cards taken, drawn and discarded as the
        turn of log index ``index``; it is emptied of its records when it cannot follow."""
        logw = self._take_logw(turn, hand, opened_before, view)
        top = turn.top
        if turn.took and top is not None:
            hand.append(top)
            if story is not None:
                story.records.append([top, index, None, 1])
        laid = list(stretch.tabled) if stretch is not None else []
        freed = list(stretch.freed) if stretch is not None else []
        out = laid + ([turn.discarded] if turn.discarded is not None else [])
        if turn.drew:
            pool = Counter(visible)
            pool.subtract(self._hidden(hands, known))
            pool = +pool
            missing = Counter(out)
            missing.subtract(hand)
            missing.subtract(freed)
            missing = +missing
            total = sum(pool.values())
            card: int | None = None
            if missing:  # the draw must have been a card it laid or discarded (the rest: swapped in)
                card = min(missing)
                if pool[card] > 0:
                    logw += math.log(pool[card] / total)
                else:  # another seat's guess holds it: that guess is redealt from the stock
                    logw += math.log(OUT_OF_STOCK / max(1, total))
                    self._take_back(card, turn.seat, hands, known, pool, rng)
            elif total:
                card = rng.choice(list(pool.elements()))
            if card is not None:
                hand.append(card)
                if story is not None:
                    story.records.append([card, index, None, 0])
        hand.extend(freed)
        barred = top if turn.took and taken_stays_barred(self.rules, opens_now) else None
        possible = self._possible(hand)
        if not possible:
            logw += IMPOSSIBLE
        elif not opens_now and not laid:
            logw += self._wait_logw(hand, opened_before, barred)
        lacking = Counter(out)
        lacking.subtract(hand)
        fixed = [*known.get(turn.seat, ()), *out]
        for c in (+lacking).elements():  # cards it must have held: swapped in for guessed ones
            logw += self._swap_in(hand, c, fixed, visible, rng)
        for c in laid:
            hand.remove(c)
        if turn.discarded is not None:
            if possible:
                logw += self._discard_logw(hand, turn.discarded, barred)
            if story is not None and story.reconcile(hand):
                # The table forgets a known copy for every copy of its face that leaves the hand
                # (round.still_known), so a copy taken from the pile leaves first: the copies the
                # story still holds as taken are those the view still knows.
                held = [r for r in story.records if r[2] is None and r[0] == turn.discarded]
                max(held, key=lambda r: r[3])[2] = index  # type: ignore[arg-type,return-value]
            elif story is not None:
                story.records.clear()
            hand.remove(turn.discarded)
        return logw

    @staticmethod
    def _take_back(
        card: int,
        seat: int,
        hands: dict[int, list[int]],
        known: dict[int, list[int]],
        pool: Counter[int],
        rng: random.Random,
    ) -> None:
        """Take a guessed copy of ``card`` out of another seat's hand for a random stock card."""
        for other, hand in hands.items():
            if other == seat or hand.count(card) <= known.get(other, []).count(card):
                continue
            stock = list(pool.elements())
            hand.remove(card)
            if stock:
                hand.append(stock[rng.randrange(len(stock))])
            return

    def _swap_in(
        self,
        hand: list[int],
        card: int,
        fixed: Sequence[int],
        visible: Counter[int],
        rng: random.Random,
    ) -> float:
        """Put ``card``, which the seat must have held, into the particle's ``hand`` in place of a
        random guessed card (not one of ``fixed``); the log of the prior chance that a hand of that
        size held it."""
        guessed = list((+(Counter(hand) - Counter(fixed))).elements())
        total = max(1, sum(visible.values()))
        if guessed:
            hand.remove(rng.choice(guessed))
        hand.append(card)
        return math.log(min(1.0, max(1, len(guessed)) / total)) if visible[card] > 0 else IMPOSSIBLE

    def _fit(self, view: PlayerView, unseen: Counter[int], rng: random.Random) -> None:
        """Make every particle fit ``view``: known cards held, hand sizes, only unseen cards hidden
        (what does not fit is replaced at random; the weights were set by the replay)."""
        known = {s: [int(c) for c in view.known_cards[s]] if view.known_cards else [] for s in self.others}
        for hands in self.hands:
            free = Counter(unseen)
            hidden: dict[int, list[int]] = {}
            for s in self.others:
                rest = Counter(hands[s])
                rest.subtract(known[s])
                rest = +rest
                keep: list[int] = []
                for c in rest.elements():
                    if free[c] > 0:
                        free[c] -= 1
                        keep.append(c)
                hidden[s] = keep
            pool = list(free.elements())
            rng.shuffle(pool)
            for s in self.others:
                need = view.hand_sizes[s] - len(known[s])
                keep = hidden[s]
                if len(keep) > need:
                    rng.shuffle(keep)
                    pool += keep[need:]
                    del keep[need:]
                while len(keep) < need and pool:
                    keep.append(pool.pop())
                hands[s] = known[s] + keep

    def _normalise(
        self, view: PlayerView, memory: TableMemory, rng: random.Random, played: bool = True
    ) -> None:
        """Resample systematically when the effective sample size is low; re-deal when every particle
        is ruled out."""
        top = max(self.logw)
        if top < IMPOSSIBLE / 2 - 1e-9 or not math.isfinite(top):
            self._reseed(view, memory, rng)
            return
        w = [math.exp(lw - top) for lw in self.logw]
        total = sum(w)
        ess = total * total / sum(x * x for x in w)
        if played:
            self.ess.append(ess)
        if ess >= self.resample_at * self.count:
            self.logw = [lw - top for lw in self.logw]
            return
        self.resamples += 1
        step = total / self.count
        u = rng.random() * step
        picked: list[dict[int, list[int]]] = []
        stories: list[Story | None] = []
        acc = 0.0
        j = 0
        copy = [False] * self.count
        last = -1
        for k in range(self.count):
            target = u + k * step
            while acc + w[j] < target and j < len(w) - 1:
                acc += w[j]
                j += 1
            picked.append({s: list(h) for s, h in self.hands[j].items()})
            story = self.stories[j]
            stories.append(story.copy() if story is not None else None)
            copy[k] = j == last
            last = j
        self.hands = picked
        self.stories = stories
        self.logw = [0.0] * self.count
        if self.tracked:
            self._move(view, rng)
            copy = [again and story is None for again, story in zip(copy, self.stories, strict=True)]
        if self.roughen:
            self._roughen(view, rng, copy)

    def _score(self, story: Story, k: int) -> float:
        """The log-likelihood of the other seat's logged turn ``k`` on ``story``: the soft greedy
        model's take-or-draw, knock not made and discard, as :meth:`_turn` weights them (the stock
        draw itself has the prior's uniform chance, which the move's proposal keeps)."""
        turn, barred, opened = self.turns[k]
        before: list[int] = []
        held: list[int] = []
        for card, entry, gone, _ in story.records:
            if entry is not None and entry <= k and (gone is None or gone >= k):
                held.append(card)  # type: ignore[arg-type]
                if entry < k:
                    before.append(card)  # type: ignore[arg-type]
        logw = self._take_logw(turn, before, opened, None)
        if not self._possible(held):
            return logw + IMPOSSIBLE
        logw += self._wait_logw(held, opened, barred)
        if turn.discarded is not None:
            logw += self._discard_logw(held, turn.discarded, barred)
        return logw

    def _scored(self, story: Story, k: int) -> float:
        score = story.scores[k]
        if score is None:
            score = story.scores[k] = self._score(story, k)
        return score

    def _move(self, view: PlayerView, rng: random.Random) -> None:
        """Resample-move (Gilks and Berzuini 2001): :attr:`moves` Metropolis-Hastings steps on every
        particle that keeps its story. A step exchanges a guessed card of the other seat's hand (one
        it was dealt or drew from the stock and still holds) for a card of the particle's stock (an
        unseen card no guess holds), as if that card had been dealt or drawn in its place; the
        logged turns that held it are scored again, and the exchange is accepted with the ratio of
        their likelihoods. Under the uniform deal the prior ratio of the two stories cancels the
        proposal's (both pick a copy uniformly), so the posterior of the filter's model is kept; an
        early rejection stops scoring once the turns still to score cannot lift the ratio (each
        turn's log-likelihood is at most 0)."""
        unseen = Counter(int(c) for c in unseen_cards(view))
        seat = self.others[0]
        for hands, story in zip(self.hands, self.stories, strict=True):
            if story is None:
                continue
            guessed = story.guessed()
            free = Counter(unseen)
            _take(free, [int(r[0]) for r in guessed])  # type: ignore[arg-type]
            pool = list(free.elements())
            if not guessed or not pool:
                continue
            for _ in range(self.moves):
                record = guessed[rng.randrange(len(guessed))]
                at = rng.randrange(len(pool))
                old, card = int(record[0]), pool[at]  # type: ignore[arg-type]
                bar = math.log(1.0 - rng.random())
                self.proposed += 1
                if card == old:
                    self.accepted += 1
                    continue
                turns = range(max(int(record[1]), 0), len(story.scores))  # type: ignore[arg-type]
                before = sum(self._scored(story, k) for k in turns)
                record[0] = card
                after: list[float] = []
                total = 0.0
                for k in turns:
                    after.append(self._score(story, k))
                    total += after[-1]
                    if total - before < bar:
                        break
                else:
                    self.accepted += 1
                    story.scores[turns.start :] = after
                    pool[at] = old
                    continue
                record[0] = old
            hands[seat] = story.held()

    def _roughen(self, view: PlayerView, rng: random.Random, copy: Sequence[bool]) -> None:
        """Keep resampled copies apart: in each copy, one guessed card of every seat is exchanged
        for a random card of the particle's stock (roughening, Gordon, Salmond and Smith 1993)."""
        unseen = Counter(int(c) for c in unseen_cards(view))
        known = {s: [int(c) for c in view.known_cards[s]] if view.known_cards else [] for s in self.others}
        for hands, again in zip(self.hands, copy, strict=True):
            if not again:
                continue
            free = Counter(unseen)
            guessed: dict[int, list[int]] = {}
            for s in self.others:
                rest = Counter(hands[s])
                rest.subtract(known[s])
                guessed[s] = list((+rest).elements())
                _take(free, guessed[s])
            pool = list(free.elements())
            for s in self.others:
                if not guessed[s] or not pool:
                    continue
                out = rng.randrange(len(guessed[s]))
                into = rng.randrange(len(pool))
                guessed[s][out], pool[into] = pool[into], guessed[s][out]
                hands[s] = known[s] + guessed[s]

    def _reseed(self, view: PlayerView, memory: TableMemory, rng: random.Random) -> None:
        self.reseeds += 1
        weights = seat_weights(view, memory)
        unseen = [int(c) for c in unseen_cards(view)]
        self.hands = [
            sample_hidden(view, rng, memory, weights=weights, unseen=unseen)[0] for _ in range(self.count)
        ]
        self.logw = [0.0] * self.count
        self.tracked = False
        self.stories = [None] * self.count

    # Determinizations ---------------------------------------------------------------------------
    def draw(
        self, view: PlayerView, rng: random.Random, unseen: Sequence[int]
    ) -> tuple[dict[int, list[int]], list[int]]:
        """One determinization: a particle by weight, the stock shuffled from the other unseen cards."""
        top = max(self.logw)
        i = rng.choices(range(self.count), weights=[math.exp(lw - top) for lw in self.logw])[0]
        hands: dict[int, list[int]] = {}
        stock = Counter(unseen)
        for s in self.others:
            shown = view.revealed[s]
            if shown is not None:  # a hand laid open (a knock): its cards are not in the stock
                hands[s] = [int(c) for c in shown]
                _take(stock, hands[s])
                continue
            hand = list(self.hands[i][s])
            hands[s] = hand
            rest = Counter(hand)
            if view.known_cards:
                rest.subtract(int(c) for c in view.known_cards[s])
            _take(stock, list((+rest).elements()))
        pool = list(stock.elements())
        rng.shuffle(pool)
        return hands, pool


class ParticleSampler:
    """A :class:`~rummykit.bots.inference.Sampler` that deals the search's determinizations from a
    :class:`ParticleFilter` per seat and hand (``IsmctsBot.sampler = ParticleSampler()``); without a
    memory it deals as :func:`~rummykit.bots.inference.sample_hidden` does. ``moves``: the
    filter's resample-move steps per particle (:meth:`ParticleFilter._move`; 0 roughens)."""

    def __init__(self, count: int = PARTICLES, model: Model | None = None, moves: int = MOVES) -> None:
        self.count = count
        self.model = model or Model()
        self.moves = moves
        self.filters: dict[int, ParticleFilter] = {}

    def filter(self, view: PlayerView, memory: TableMemory, rng: random.Random) -> ParticleFilter:
        """The filter of ``view``'s seat, brought up to date with ``memory`` and ``view``."""
        f = self.filters.get(view.seat)
        if f is None or f.hand_id != memory.hands:
            f = ParticleFilter(view, memory, rng, self.count, self.model, self.moves)
            self.filters[view.seat] = f
        key = (view.turn, len(view.hand), len(view.discard_pile), view.stock_size, len(memory.log))
        if key != f.key:
            f.update(view, memory, rng)
            f.key = key
        return f

    def __call__(
        self,
        view: PlayerView,
        rng: random.Random,
        memory: TableMemory | None = None,
        behaviour: bool = True,
        weights: dict[int, list[float]] | None = None,
        unseen: Sequence[int] | None = None,
    ) -> tuple[dict[int, list[int]], list[int]]:
        if memory is None or view.phase is Phase.OVER:
            return sample_hidden(view, rng, memory, behaviour, weights, unseen)
        f = self.filter(view, memory, rng)
        pool = [int(c) for c in unseen_cards(view)] if unseen is None else list(unseen)
        return f.draw(view, rng, pool)


__all__ = [
    "DISCARD_EPS",
    "DRAW_EPS",
    "MOVES",
    "PARTICLES",
    "TEMPERATURE",
    "WAIT_EPS",
    "Model",
    "ParticleFilter",
    "ParticleSampler",
    "Story",
]
