"""Inference from the table: what the opponents' public actions say about the cards they hold.

A bot sees one :class:`~rummykit.views.PlayerView` per decision, and a view holds no history. A
:class:`TableMemory` keeps the views of one seat and the actions it chose, and reconstructs from
one own turn to the next what every other seat did in between (the discard pile is a stack: each
seat took its top or not, then put one card on it; ``known_cards`` shows what a seat took). It
records, per opponent:

* **taken**: cards it took from the discard pile: it wanted them for a meld, so the cards that could
  share a meld with them (same rank, or same suit within two: :func:`~rummykit.bots.greedy.linked`)
  are more likely in its hand (:data:`TAKEN_LINK`);
* **passed**: top discards it left for a stock card: it probably holds no partners for them
  (:data:`PASSED_LINK`);
* **discarded**: cards it threw away; their partners are less likely too (:data:`DISCARDED_LINK`).

:meth:`TableMemory.weights` turns this into a weight per opponent and card face, and
:func:`sample_hidden` deals the cards the viewer cannot see with those weights (a weighted sample
without replacement per opponent, Efraimidis and Spirakis 2006, the rest shuffled into the stock),
then keeps or redraws a sampled hand by the opponent's behaviour: an opponent who has not opened
(melding games) or has not knocked (knock games) although the sampled hand would have allowed it is
kept only with probability :data:`BEHAVIOUR_KEEP`. When a turn between two own decisions cannot be
reconstructed unambiguously (several opponents, a stock rebuild, a knock) it teaches nothing: the
memory never guesses.

The memory also keeps the ordered log of what it reconstructed (:attr:`TableMemory.log`): per
stretch between two own turns each other seat's :class:`Turn` (the top it saw, whether it took it or
drew from the stock, the card it discarded) and the cards laid on or freed from the table, and the
viewer's own stock draws (:class:`OwnDraw`); the stretch before the viewer's first turn of a hand
(the forehand's opening turns) is reconstructed for the log as well. The particle filter of
:mod:`rummykit.bots.particles` replays that log.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Final, Protocol

from rummykit import solver
from rummykit.actions import Action, CallRummy, Discard, Draw, Knock, TakeDiscard
from rummykit.bots.greedy import linked
from rummykit.cards import JOKER_CODE, NUM_CODES
from rummykit.determinize import unseen_cards
from rummykit.knocking import knock_allowed
from rummykit.views import PlayerView

TAKEN_LINK: Final = 2.5
"""Weight factor of a card that could share a meld with a card the seat took from the discard pile."""
PASSED_LINK: Final = 0.5
"""Weight factor of a card that could share a meld with a top discard the seat left lying."""
DISCARDED_LINK: Final = 0.7
"""Weight factor of a card that could share a meld with a card the seat discarded."""
MIN_WEIGHT: Final = 0.05
MAX_WEIGHT: Final = 20.0
BEHAVIOUR_KEEP: Final = 0.25
"""Chance of keeping a sampled hand that contradicts the seat's behaviour (it could have opened or
knocked but did not): a seat that plays like the greedy bot would have, but a player may wait."""
REDRAWS: Final = 4
"""Redraws of one opponent's hand before a contradicting sample is kept anyway."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of another seat, as the viewer reconstructed it."""

    seat: int
    number: int
    """The hand's turn counter during that turn (0 for the first turn of the hand)."""
    top: int | None
    """The top discard it saw before drawing (``None``: an empty pile, or a card nobody can name)."""
    took: bool
    drew: bool
    """It drew from the stock (not when it took the top, nor the extra card's holder's first turn)."""
    discarded: int | None


@dataclass(frozen=True, slots=True)
class Stretch:
    """What the other seats did between two turns of the viewer (see :attr:`TableMemory.log`)."""

    turns: tuple[Turn, ...] | None
    """In play order; ``None`` when the stretch could not be reconstructed unambiguously."""
    tabled: tuple[int, ...] = ()
    """Cards that went onto the table during it (laid or laid off by the movers)."""
    freed: tuple[int, ...] = ()
    """Cards that left the table during it (jokers exchanged into a mover's hand)."""


@dataclass(frozen=True, slots=True)
class OwnDraw:
    """The viewer drew ``card`` from the stock."""

    card: int


Event = Stretch | OwnDraw


@dataclass
class Evidence:
    """What one seat was seen doing this hand (card codes, oldest first)."""

    taken: list[int] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)
    discarded: list[int] = field(default_factory=list)


def _pile_after(pile: Sequence[int], action: Action, rules_face_up_knock: bool) -> list[int] | None:
    """The discard pile after the viewer's own ``action`` (``None``: the hand ended or the card went
    face down)."""
    out = list(pile)
    if isinstance(action, TakeDiscard):
        out.pop()
    elif isinstance(action, Knock):
        if not rules_face_up_knock:
            return None
        out.append(int(action.card))
    elif isinstance(action, CallRummy):
        return None
    elif isinstance(action, Discard):
        out.append(int(action.card))
    return out


@dataclass
class _Pending:
    """The public state right after the viewer's last turn ended."""

    pile: list[int]
    known: tuple[tuple[int, ...], ...]
    table: list[int]
    rebuilds: int
    turn: int


class TableMemory:
    """The evidence one seat gathers over a hand (see the module docstring).

    Call :meth:`observe` with every view the seat decides on and :meth:`acted` with the action it
    chose. The memory is a function of those views and actions alone (no random numbers), so
    replaying a seat's earlier decisions of the hand into a :meth:`restart`-ed memory rebuilds it
    exactly (:meth:`~rummykit.bots.ismcts.IsmctsBot.catch_up`).

    A view starts a new hand unless it can follow the seat's last decision in the same deal
    (:meth:`follows`): the same seat, dealer and seats in play, a turn counter that has not gone
    back, and, after an action that ended the seat's turn, a later turn with exactly the cards that
    action left in its hand (nobody else changes a seat's hand between its turns). A new deal with
    the same dealer (a game environment's next episode, a match started again) thus starts afresh
    although its turn counter may be as far as the last one.
    """

    def __init__(self) -> None:
        self.evidence: dict[int, Evidence] = {}
        self._key: tuple[int, int, tuple[int, ...]] | None = None
        self._last_turn = -1
        self._pending: _Pending | None = None
        self.ambiguous = 0
        """Stretches between own turns that could not be reconstructed (and taught nothing)."""
        self.log: list[Event] = []
        """The ordered events of this hand (see the module docstring)."""
        self.hands = 0
        """Hands this memory has seen begin (a new hand: a new count)."""
        self.deal_hand: tuple[int, ...] = ()
        """The viewer's cards at its first view of the hand (its deal, before any draw)."""
        self.deal_turn = 0
        """The turn counter of that first view (the other seats' turns before it)."""
        self._drawing: tuple[int, ...] | None = None
        self._left: tuple[int, ...] | None = None
        """The viewer's cards (sorted) after its last action if that ended its turn, else ``None``."""
        self._closed = False
        """The viewer's last action ended the hand (a Rummy call, the last card discarded)."""

    def reset(self) -> None:
        """Forget the evidence and the log of the hand (a new hand begins: :attr:`hands` counts it)."""
        self.evidence = {}
        self._pending = None
        self.ambiguous = 0
        self.log = []
        self.hands += 1
        self._drawing = None
        self._left = None
        self._closed = False

    def restart(self) -> None:
        """Forget the hand entirely, as a memory that has seen no view: the next view begins a hand.
        :attr:`hands` still counts up, so a sampler's cache of the old hand is not reused."""
        self.reset()
        self._key = None
        self._last_turn = -1

    def follows(self, view: PlayerView) -> bool:
        """Whether ``view`` can be the seat's next decision in the hand of its last one (see the
        class docstring); ``False`` before any view."""
        if (view.seat, view.dealer, view.active_seats) != self._key or view.turn < self._last_turn:
            return False
        if self._closed:
            return False
        if self._left is None:
            return True
        return view.turn > self._last_turn and tuple(sorted(int(c) for c in view.hand)) == self._left

    def of(self, seat: int) -> Evidence:
        return self.evidence.setdefault(seat, Evidence())

    def observe(self, view: PlayerView) -> None:
        """Read a view of the seat to move (the viewer) and learn what happened since its last turn."""
        fresh = not self.follows(view)
        if fresh:
            self.reset()
            self._key = (view.seat, view.dealer, view.active_seats)
            self.deal_hand = tuple(int(c) for c in view.hand)
            self.deal_turn = view.turn
        self._last_turn = view.turn
        self._left = None
        if self._drawing is not None:
            drawn = without_all(view.hand, self._drawing)
            if len(drawn) == 1:
                self.log.append(OwnDraw(drawn[0]))
            self._drawing = None
        pending, self._pending = self._pending, None
        if fresh and 0 < view.turn < len(view.active_seats) and view.stock_rebuilds == 0:
            self._deal_stretch(view)
            return
        if pending is None:
            return
        if view.stock_rebuilds != pending.rebuilds or view.knocker is not None:
            self.ambiguous += 1
            self.log.append(Stretch(None))
            return
        self._reconstruct(view, pending)

    def _deal_stretch(self, view: PlayerView) -> None:
        """The log of the turns before the viewer's first one (not taken as evidence): the extra
        card's holder discards without drawing; in an upcard start the first mover saw the upcard,
        the bottom card of the pile or, if it took it, one of the cards it is known to hold."""
        seats = list(view.active_seats)
        me = seats.index(view.seat)
        movers = [seats[(me - view.turn + i) % len(seats)] for i in range(view.turn)]
        blank = tuple(() for _ in view.hand_sizes)
        extra = view.rules.start_mode in ("dealer_extra_card", "forehand_extra_card")
        if extra:
            piles: list[list[int]] = [[]]
        else:
            first = [int(c) for c in view.known_cards[movers[0]]] if view.known_cards else []
            piles = [[c] for c in dict.fromkeys([int(c) for c in view.discard_pile[:1]] + first)]
        logged, ambiguous = len(self.log), self.ambiguous
        for pile in piles:
            before = _Pending(pile, blank, [], 0, -1)
            if self._reconstruct(view, before, movers, evidence=False, first_draws=not extra):
                del self.log[logged:-1]  # the failures of other candidate upcards
                break
        else:
            del self.log[logged + 1 :]
        self.ambiguous = ambiguous

    def acted(self, view: PlayerView, action: Action) -> None:
        """The viewer chose ``action`` in ``view``: when it ends its turn, remember the public state."""
        if isinstance(action, Draw):
            self._drawing = tuple(int(c) for c in view.hand)
        ends_turn = isinstance(action, (Discard, Knock, CallRummy))
        if not ends_turn:
            return
        left = without_all(view.hand, (int(action.card),)) if isinstance(action, (Discard, Knock)) else []
        self._left = tuple(sorted(left))
        self._closed = not left
        pile = _pile_after(view.discard_pile, action, view.rules.knock_discard_face_up)
        if pile is None:
            return
        table = [int(c) for tm in view.melds for c in tm.meld.cards]
        known = tuple(tuple(int(c) for c in k) for k in view.known_cards)
        self._pending = _Pending(pile, known, table, view.stock_rebuilds, view.turn)

    def _reconstruct(
        self,
        view: PlayerView,
        before: _Pending,
        movers: list[int] | None = None,
        evidence: bool = True,
        first_draws: bool = True,
    ) -> bool:
        """Find the unique take-or-pass sequence of the seats that moved since the viewer's turn
        (``movers``: all the others), log it and (``evidence``) learn from it; whether it was found.
        ``first_draws``: the first mover drew or took (not the extra card's holder's first turn)."""
        seats = list(view.active_seats)
        me = seats.index(view.seat)
        if movers is None:
            movers = seats[me + 1 :] + seats[:me]
        pile_now = [int(c) for c in view.discard_pile]
        table_all = [int(c) for tm in view.melds for c in tm.meld.cards]
        tabled = without_all(table_all, before.table)
        freed = without_all(before.table, table_all)
        takes = len(before.pile) + len(movers) - len(pile_now)
        if not 0 <= takes <= len(movers) or not view.known_cards:
            self.ambiguous += 1
            self.log.append(Stretch(None, tuple(tabled), tuple(freed)))
            return False
        gained: dict[int, list[int]] = {}
        for seat in movers:
            new = [int(c) for c in view.known_cards[seat]]
            for c in before.known[seat] if seat < len(before.known) else ():
                if c in new:
                    new.remove(c)
            gained[seat] = [int(c) for c in new]
        table_now = tabled
        drawing = movers if first_draws else movers[1:]
        found: list[tuple[list[tuple[int, int | None, bool]], list[int | None]]] = []
        for takers in combinations(drawing, takes):
            story = self._story(movers, set(takers), before.pile, pile_now, gained, table_now)
            if story is not None:
                found.append(story)
            if len(found) > 1:
                break
        if len(found) != 1:
            self.ambiguous += 1
            self.log.append(Stretch(None, tuple(tabled), tuple(freed)))
            return False
        turns, discards = found[0]
        log: list[Turn] = []
        for i, ((seat, top, took), dropped) in enumerate(zip(turns, discards, strict=True)):
            drew = not took and (first_draws or i > 0)
            if not first_draws and i == 0:
                top = None  # the extra card's holder saw no discard
            log.append(Turn(seat, before.turn + 1 + i, top, took, drew, dropped))
            if not evidence:
                continue
            ev = self.of(seat)
            if top is not None:
                (ev.taken if took else ev.passed).append(top)
            if dropped is not None:
                ev.discarded.append(dropped)
        self.log.append(Stretch(tuple(log), tuple(tabled), tuple(freed)))
        return True

    @staticmethod
    def _story(
        movers: Sequence[int],
        takers: set[int],
        pile0: Sequence[int],
        pile_now: Sequence[int],
        gained: dict[int, list[int]],
        table_new: Sequence[int],
    ) -> tuple[list[tuple[int, int | None, bool]], list[int | None]] | None:
        """Replay the movers with ``takers`` taking: per mover (seat, top it saw, took) and the card
        it discarded, or ``None`` when that does not give the pile and the known cards now seen."""
        pile: list[tuple[int | None, int]] = [(c, -1) for c in pile0]  # (card or unknown, who put it)
        steps: list[tuple[int, int | None, int, bool]] = []  # (seat, top card, who put the top, took)
        for i, seat in enumerate(movers):
            top, who = pile[-1] if pile else (None, -1)
            took = seat in takers
            if took:
                if not pile:
                    return None
                pile.pop()
                if top is not None and top not in gained[seat] and top not in table_new:
                    return None
                if top is None:  # the previous mover's discard: named by what this seat now shows
                    top = gained[seat][0] if len(gained[seat]) == 1 else None
            elif any(c != JOKER_CODE for c in gained[seat]):
                return None
            steps.append((seat, top, who, took))
            pile.append((None, i))
        if len(pile) != len(pile_now):
            return None
        discards: list[int | None] = [None] * len(movers)
        for (card, who), seen in zip(pile, pile_now, strict=True):
            if card is not None and card != seen:
                return None
            if card is None:
                discards[who] = seen
        turns: list[tuple[int, int | None, bool]] = []
        for seat, top, who, took in steps:
            if took and who >= 0 and discards[who] is None:
                discards[who] = top  # a discard taken by the next mover, named by what it shows
            if top is None and who >= 0:
                top = discards[who]
            turns.append((seat, top, took))
        return turns, discards

    def weights(self, seat: int) -> list[float]:
        """Weight per card code that ``seat`` holds it (1 without evidence)."""
        out = [1.0] * NUM_CODES
        ev = self.evidence.get(seat)
        if ev is None:
            return out
        for cards, factor in (
            (ev.taken, TAKEN_LINK),
            (ev.passed, PASSED_LINK),
            (ev.discarded, DISCARDED_LINK),
        ):
            for seen in cards:
                for code in _PARTNERS[seen]:
                    out[code] *= factor
        return [min(MAX_WEIGHT, max(MIN_WEIGHT, w)) for w in out]


def without_all(cards: Sequence[int], remove: Sequence[int]) -> list[int]:
    """The multiset ``cards`` less ``remove`` (cards of ``remove`` not in ``cards`` are ignored)."""
    rest = [int(c) for c in cards]
    for c in remove:
        if c in rest:
            rest.remove(c)
    return rest


_PARTNERS: Final = tuple(
    tuple(code for code in range(JOKER_CODE) if seen != JOKER_CODE and linked(code, seen))
    for seen in range(NUM_CODES)
)
"""Per card code, the natural faces that could share a meld with it (none for the joker)."""


def weighted_sample(pool: list[int], weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` cards of ``pool`` drawn without replacement with probability proportional to
    ``weights[card]`` (each draw among the cards left): the ``count`` largest keys
    ``u ** (1 / w)`` (Efraimidis and Spirakis 2006)."""
    if count <= 0:
        return []
    rand = rng.random
    keyed = sorted(((rand() ** (1.0 / weights[c]), i) for i, c in enumerate(pool)), reverse=True)
    return [pool[i] for _, i in keyed[:count]]


def contradicts(view: PlayerView, seat: int, hand: Sequence[int]) -> bool:
    """Whether ``seat`` holding ``hand`` now would have acted otherwise than it did: in a melding
    game still closed with an opening in hand (it has drawn and discarded since); in a knock game
    holding, after its discard, a hand it could have knocked or called Rummy with."""
    rules = view.rules
    if view.phase.value == "over" or not hand:
        return False
    if rules.is_knock_game:
        if view.knocker is not None or seat == view.to_move:
            return False
        d = solver.min_deadwood(hand, rules)
        return d == 0 or knock_allowed(d, rules.knock_threshold or 0, rules.knock_comparison)
    if view.opened_turn and view.opened_turn[seat] is not None:
        return False
    need = rules.opening_min_points or 0
    keep = rules.going_out_requires_discard
    return bool(need) and solver.max_opening_value(hand, rules, keep_one=keep) >= need


def seat_weights(view: PlayerView, memory: TableMemory | None) -> dict[int, list[float]]:
    """The memory's weights of every other active seat (all 1 without a memory)."""
    return {
        s: memory.weights(s) if memory is not None else [1.0] * NUM_CODES
        for s in view.active_seats
        if s != view.seat
    }


class Sampler(Protocol):
    """Deals one determinization from a view: the signature of :func:`sample_hidden`, the search
    bot's sampler (:attr:`~rummykit.bots.ismcts.IsmctsBot.sampler`)."""

    def __call__(
        self,
        view: PlayerView,
        rng: random.Random,
        memory: TableMemory | None = None,
        behaviour: bool = True,
        weights: dict[int, list[float]] | None = None,
        unseen: Sequence[int] | None = None,
    ) -> tuple[dict[int, list[int]], list[int]]: ...


def sample_hidden(
    view: PlayerView,
    rng: random.Random,
    memory: TableMemory | None = None,
    behaviour: bool = True,
    weights: dict[int, list[float]] | None = None,
    unseen: Sequence[int] | None = None,
) -> tuple[dict[int, list[int]], list[int]]:
    """One determinization from ``view``: every other active seat's hand and the stock (drawn from
    its end), the unseen cards dealt with the memory's weights and redrawn by behaviour (see the
    module docstring). ``weights`` and ``unseen`` save recomputing them for every sample."""
    if weights is None:
        weights = seat_weights(view, memory)
    pool = [int(c) for c in unseen_cards(view)] if unseen is None else list(unseen)
    rng.shuffle(pool)
    hands: dict[int, list[int]] = {}
    others = [s for s in view.active_seats if s != view.seat]
    order = list(others)
    rng.shuffle(order)
    for seat in order:
        shown = view.revealed[seat]
        fixed = [int(c) for c in (shown if shown is not None else view.known_cards[seat])]
        need = view.hand_sizes[seat] - len(fixed)
        if shown is not None or need <= 0:
            hands[seat] = fixed
            continue
        plain = all(weights[seat][c] == 1.0 for c in pool)
        for attempt in range(REDRAWS + 1):
            # The pool is shuffled: without evidence its first cards are a uniform draw.
            picked = (
                pool[:need] if plain and attempt == 0 else weighted_sample(pool, weights[seat], need, rng)
            )
            hand = fixed + picked
            if not behaviour or attempt == REDRAWS or not contradicts(view, seat, hand):
                break
            if rng.random() < BEHAVIOUR_KEEP:
                break
        for c in picked:
            pool.remove(c)
        hands[seat] = hand
    return hands, pool


__all__ = [
    "Event",
    "Evidence",
    "OwnDraw",
    "Sampler",
    "Stretch",
    "TableMemory",
    "Turn",
    "contradicts",
    "sample_hidden",
    "seat_weights",
    "weighted_sample",
    "without_all",
]
