"""One deal played to its end: :class:`Round`.

A round is created by :meth:`Round.new` (seeded or from an explicit deck order), moves through the
phases of :class:`~rummykit.views.Phase` and ends with a :class:`~rummykit.views.RoundResult`.
Legality lives in one place: :meth:`Round.check` raises an
:class:`~rummykit.errors.IllegalActionError` naming the broken rule, :meth:`Round.apply` checks and
then mutates, returning the recorded :class:`Event`. A failed check leaves the round unchanged.

The turn logic of the two families lives in :mod:`rummykit.melding` (German Rummy, Scala 40, Basic
Rummy: cards go on the table) and :mod:`rummykit.knocking` (Viennese Rummy, Rommé ohne Auslegen:
cards stay in hand until Rummy or a knock). Both share the deal, the stock, views and records here.

>>> import rummykit as rk
>>> rnd = rk.Round.new(rk.Rules.preset("german"), players=3, seed=7)
>>> rnd.phase, rnd.to_move, len(rnd.view(1).hand)
(<Phase.DRAW: 'draw'>, 1, 13)
>>> event = rnd.apply(rk.Action.parse("draw"))
>>> rnd.phase
<Phase.PLAY: 'play'>

Termination: every hand ends because the stock can be rebuilt at most ``max_stock_rebuilds`` times
(RULES.md §3.13, decision D10); after that an empty stock ends the hand unscored.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rummykit.actions import Action, TakeDiscard
from rummykit.cards import (
    JOKER_CODE,
    Card,
    Hand,
    build_deck,
    parse_cards,
    sort_key_by_suit,
)
from rummykit.errors import IllegalActionError, RulesError
from rummykit.melds import Meld
from rummykit.rules import PACKETS, Rules
from rummykit.views import Arrangement, Phase, PlayerView, RoundResult, TableMeld, Termination

if TYPE_CHECKING:
    from rummykit.family import Family


@dataclass(frozen=True, slots=True)
class Event:
    """One applied action, as recorded in ``Round.history``.

    ``card`` is the card that moved privately (the card drawn from the stock); it is part of the
    engine's full record, never of a view.
    """

    index: int
    seat: int
    action: Action
    turn: int
    card: Card | None = None

    def __str__(self) -> str:
        return f"{self.seat}: {self.action}"


class Round:
    """One hand (Spiel) from the deal to the result. Create with :meth:`new`."""

    rules: Rules
    seats: int
    dealer: int
    active: tuple[int, ...]
    hands: list[Hand]
    stock: list[Card]
    discard_pile: list[Card]
    face_down: Card | None
    table: list[TableMeld]
    opened_turn: list[int | None]
    to_move: int
    phase: Phase
    turn: int
    taken: Card | None
    pending_taken: Card | None
    rebuilds: int
    knocker: int | None
    knock_deadwood: int | None
    extra_turns: list[int]
    known: list[Hand]
    history: list[Event]
    result: RoundResult | None
    deck: tuple[Card, ...]
    seed: int
    in_play: tuple[int, ...]
    _rng: random.Random
    _family: Family

    # Construction -------------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int,
        *,
        seed: int | None = None,
        deck: Sequence[int] | str | None = None,
        dealer: int = 0,
        in_play: Sequence[int] | None = None,
    ) -> Round:
        """Deal a new hand.

        ``seed`` shuffles the deck and drives every later reshuffle; ``deck`` gives the deck order
        explicitly (top card first, as text or cards), in which case ``seed`` only drives
        reshuffles. Without either a random seed is drawn and kept in ``round.seed``, so a record of
        the round still replays it. ``in_play`` lists the seats that take part (a match leaves out
        eliminated players); by default every seat plays.

        Raises:
            RulesError: a player count outside the rules, a bad dealer seat or a deck that is not
                exactly the rules' deck.
        """
        rules.check_table(players, dealer)
        playing = tuple(range(players)) if in_play is None else tuple(sorted(set(in_play)))
        if len(playing) < 2 or not all(0 <= s < players for s in playing):
            raise RulesError(f"in_play: {list(playing)} is not a set of at least two seats of {players}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        expected = build_deck(rules.num_decks, rules.jokers_total)
        if deck is None:
            order = list(expected)
            random.Random(seed).shuffle(order)
        else:
            order = list(parse_cards(deck) if isinstance(deck, str) else (Card(c) for c in deck))
            if sorted(order) != sorted(expected):
                raise RulesError(
                    f"deck: the given order holds {len(order)} cards that are not the {len(expected)}-card "
                    f"deck of {rules.name} (num_decks={rules.num_decks}, jokers_total={rules.jokers_total})"
                )
        rnd = cls.__new__(cls)
        rnd._setup(rules, players, dealer, tuple(order), seed, playing)
        return rnd

    def _setup(
        self,
        rules: Rules,
        players: int,
        dealer: int,
        order: tuple[Card, ...],
        seed: int,
        in_play: tuple[int, ...],
    ) -> None:
        from rummykit.family import family_for

        self.rules = rules
        self.seats = players
        self.dealer = dealer
        self.deck = order
        self.seed = seed
        self._rng = random.Random(f"rummykit-reshuffle-{seed}")
        self._family = family_for(rules)
        self.in_play = in_play
        clockwise = [(dealer + i) % players for i in range(1, players + 1)]  # forehand first
        sits_out = rules.active_players(len(in_play)) < len(in_play)
        self.active = tuple(s for s in clockwise if s in in_play and not (sits_out and s == dealer))
        self.hands = [Hand() for _ in range(players)]
        self.table = []
        self.opened_turn = [None] * players
        self.discard_pile = []
        self.face_down = None
        self.turn = 0
        self.taken = None
        self.pending_taken = None
        self.rebuilds = 0
        self.knocker = None
        self.knock_deadwood = None
        self.extra_turns = []
        self.known = [Hand() for _ in range(players)]
        self.history = []
        self.result = None
        self._deal(list(order))

    def _deal(self, cards: list[Card]) -> None:
        """Cut (optional joker robbing), deal in packets, then upcard or extra card (RULES.md §3.3–3.5)."""
        rules = self.rules
        size = rules.hand_size_for(len(self.active))
        need = dict.fromkeys(self.active, size)
        if rules.joker_robbing and cards[-1] == JOKER_CODE:
            cutter = (self.dealer - 1) % self.seats
            if cutter in need:
                # The card at the bottom of the cut is a joker: the cutter keeps it (decision D17).
                self.hands[cutter].add(cards.pop())
                if rules.robbed_joker_counts_toward_hand:
                    need[cutter] -= 1
        receivers = deal_sequence(rules, self.active, need)
        for seat, card in zip(receivers, cards, strict=False):
            self.hands[seat].add(card)
        position = len(receivers)
        first = self.active[0]
        start = rules.start_mode
        if start in ("dealer_extra_card", "forehand_extra_card"):
            extra_seat = self.dealer if start == "dealer_extra_card" else self.active[0]
            if extra_seat not in self.active:  # the dealer sits out: the forehand takes the extra card
                extra_seat = self.active[0]
            self.hands[extra_seat].add(cards[position])
            position += 1
            first = extra_seat
            phase = self._family.after_draw_phase
        else:
            self.discard_pile.append(cards[position])
            position += 1
            phase = Phase.DRAW
        self.stock = cards[position:][::-1]  # the top of the stock is the end of the list
        self.to_move = first
        self.phase = phase
        if phase is Phase.DRAW:
            self._ensure_stock()

    # Turn flow ----------------------------------------------------------------------------------
    def next_seat(self, seat: int) -> int:
        """The next active seat clockwise."""
        i = self.active.index(seat)
        return self.active[(i + 1) % len(self.active)]

    def begin_turn(self, seat: int) -> None:
        """Hand the turn to ``seat`` in the draw phase, rebuilding the stock if it is empty."""
        self.to_move = seat
        self.turn += 1
        self.phase = Phase.DRAW
        self.taken = None
        self.pending_taken = None
        self._ensure_stock()

    def _ensure_stock(self) -> None:
        """Stock exhaustion (RULES.md §3.13, D10): rebuild from the discard pile or end the hand."""
        if self.stock:
            return
        rules = self.rules
        mode = rules.stock_exhaustion
        limit_reached = rules.max_stock_rebuilds is not None and self.rebuilds >= rules.max_stock_rebuilds
        if mode == "turn_over_all_if_declined":
            # The player may still take the discard; drawing turns the whole pile over (Draw).
            if not self.discard_pile or limit_reached:
                self.end_unscored()
            return
        if mode == "end_hand_no_score" or limit_reached or len(self.discard_pile) <= 1:
            self.end_unscored()
            return
        top = self.discard_pile.pop()
        rest = self.discard_pile
        if mode == "reshuffle_keep_top":
            self._rng.shuffle(rest)
            self.stock = rest
        else:  # turn_over_keep_top: the pile is turned face down, its bottom card becomes the top
            self.stock = rest[::-1]
        self.discard_pile = [top]
        self.rebuilds += 1

    def turn_over_discard_pile(self) -> None:
        """Basic Rummy: the whole discard pile, turned over unshuffled, becomes the stock."""
        self.stock = self.discard_pile[::-1]  # face down: the pile's bottom card is the new top
        self.discard_pile = []
        self.rebuilds += 1

    def end_unscored(self) -> None:
        zeros = (0,) * self.seats
        self.result = RoundResult(Termination.STOCK_EXHAUSTED, None, zeros, zeros, zeros, self._hand_values())
        self.phase = Phase.OVER

    def finish(
        self,
        termination: Termination,
        winner: int,
        penalties: Sequence[int],
        gains: Sequence[int],
        multiplier: int,
        arrangements: tuple[Arrangement | None, ...] = (),
    ) -> None:
        """End the hand with a scored result."""
        self.result = RoundResult(
            termination,
            winner,
            tuple(g - p for g, p in zip(gains, penalties, strict=True)),
            tuple(penalties),
            tuple(gains),
            self._hand_values(),
            multiplier,
            arrangements,
        )
        self.phase = Phase.OVER

    def _hand_values(self) -> tuple[int, ...]:
        points = self.rules.card_points
        return tuple(sum(points(c) for c in hand) for hand in self.hands)

    # Public API ---------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def players(self) -> int:
        return self.seats

    def has_opened(self, seat: int) -> bool:
        return self.opened_turn[seat] is not None

    def legal_actions(self) -> list[Action]:
        """Every action offered to the player to move, in a deterministic order (empty at the end).

        Order: ``draw``, ``take``; openings; melds; lay-offs; joker exchanges; knock-game calls;
        discards; within each kind by card order. Melding games offer every single meld the player
        can lay, the best-value opening and the openings using a just-taken discard (compound
        openings are also accepted by :meth:`check`); see :mod:`rummykit.melding`. Every offered
        action leaves a state from which the hand can still be completed.
        """
        if self.phase is Phase.OVER:
            return []
        return self._family.legal_actions(self)

    def check(self, action: Action) -> None:
        """Raise an :class:`IllegalActionError` subclass naming the broken rule, or return ``None``."""
        self._plan(action)

    def is_legal(self, action: Action) -> bool:
        try:
            self._plan(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action | str) -> Event:
        """Check ``action`` (an action or its text), apply it and return the recorded event.

        Raises:
            NotationError: ``action`` is text that is not an action.
            IllegalActionError: the action is not allowed now; the round is unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        seat = self.to_move
        effect = self._plan(action)
        turn = self.turn
        drawn = effect()
        if self.taken is not None and isinstance(action, TakeDiscard):
            self.known[seat].add(self.taken)
        known = self.known[seat]
        if len(known):
            # Cards known to be held leave that knowledge once laid or discarded (faces are alike,
            # so the multiset minimum of known and held cards is exactly what is still known).
            hand = self.hands[seat]
            self.known[seat] = Hand(c for c in set(known) for _ in range(min(known.count(c), hand.count(c))))
        event = Event(len(self.history), seat, action, turn, drawn)
        self.history.append(event)
        return event

    def _plan(self, action: Action) -> Callable[[], Card | None]:
        if self.phase is Phase.OVER:
            raise IllegalActionError(f"{action}: the hand is over", "hand_over")
        return self._family.plan(self, action)

    def copy(self) -> Round:
        """An independent copy (hands, piles, table and history are copied; melds are immutable)."""
        new = Round.__new__(Round)
        new.__dict__.update(self.__dict__)
        new.hands = [h.copy() for h in self.hands]
        new.stock = self.stock[:]
        new.discard_pile = self.discard_pile[:]
        new.table = self.table[:]
        new.opened_turn = self.opened_turn[:]
        new.extra_turns = self.extra_turns[:]
        new.known = [h.copy() for h in self.known]
        new.history = self.history[:]
        new._rng = random.Random()
        new._rng.setstate(self._rng.getstate())
        return new

    def child(self, action: Action | str) -> Round:
        """A copy with ``action`` applied; this round is untouched."""
        new = self.copy()
        new.apply(action)
        return new

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: own hand, public table and piles, others' card counts."""
        if not 0 <= seat < self.seats:
            raise IllegalActionError(f"seat {seat} does not exist at a table of {self.seats}", "seat")
        over = self.phase is Phase.OVER
        revealed: list[tuple[Card, ...] | None] = []
        for s, hand in enumerate(self.hands):
            shown = over or s == self.knocker
            revealed.append(tuple(sorted(hand, key=sort_key_by_suit)) if shown else None)
        return PlayerView(
            seat=seat,
            rules=self.rules,
            hand=tuple(sorted(self.hands[seat], key=sort_key_by_suit)),
            hand_sizes=tuple(len(h) for h in self.hands),
            melds=tuple(self.table),
            discard_pile=tuple(self.discard_pile),
            stock_size=len(self.stock),
            phase=self.phase,
            to_move=self.to_move,
            opened=tuple(t is not None for t in self.opened_turn),
            scores=self.result.points if self.result else (0,) * self.seats,
            dealer=self.dealer,
            active_seats=self.active,
            turn=self.turn,
            taken_discard=self.taken if not over else None,
            knocker=self.knocker,
            revealed=tuple(revealed),
            result=self.result,
            opened_turn=tuple(self.opened_turn),
            must_lay=self.pending_taken,
            stock_rebuilds=self.rebuilds,
            extra_turns=tuple(self.extra_turns),
            known_cards=tuple(tuple(sorted(k, key=sort_key_by_suit)) for k in self.known),
            in_play=self.in_play,
        )

    def table_meld(self, number: int) -> Meld:
        """Table meld ``number`` (numbered from 1 as in actions).

        Raises:
            IllegalActionError: there is no such meld.
        """
        if not 1 <= number <= len(self.table):
            raise IllegalActionError(
                f"there is no meld {number} on the table ({len(self.table)} melds)", "no_such_meld"
            )
        return self.table[number - 1].meld

    def all_cards(self) -> list[Card]:
        """Every card of the deck wherever it lies (for conservation checks)."""
        cards: list[Card] = [c for h in self.hands for c in h]
        cards += self.stock + self.discard_pile
        cards += [c for tm in self.table for c in tm.meld.cards]
        if self.face_down is not None:
            cards.append(self.face_down)
        return cards

    def __repr__(self) -> str:
        return (
            f"<Round {self.rules} players={self.seats} seed={self.seed} turn={self.turn} "
            f"to_move={self.to_move} phase={self.phase.value}>"
        )


def deal_sequence(rules: Rules, active: Sequence[int], need: dict[int, int]) -> list[int]:
    """The seat that receives each dealt card in turn: packets (``deal_packets``) clockwise from the
    forehand, then single cards until every hand is full."""
    need = dict(need)
    receivers: list[int] = []
    size = max(need.values(), default=0)
    for packet in (*PACKETS.get(rules.deal_packets, ()), *([1] * size)):
        for seat in active:
            k = min(packet, need[seat])
            receivers += [seat] * k
            need[seat] -= k
    return receivers
