"""The data of one round in one place: :class:`RoundState`, and the turn-flow steps on it.

A :class:`~rummykit.round.Round` owns one state; the turn logic of the families
(:mod:`rummykit.melding`, :mod:`rummykit.knocking`) plans on it and its checked effects change it.
Field names are those of :class:`~rummykit.views.PlayerView` where the view shows the same thing
(``active_seats``, ``melds``, ``taken_discard``, ``must_lay``, ``stock_rebuilds``, ``known_cards``).

A state can be built by hand (puzzles, determinization) and given to
:meth:`Round.from_state <rummykit.round.Round.from_state>`; :meth:`Round.status` says what is wrong
with it, if anything.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rummykit.cards import Card, Hand
from rummykit.errors import IllegalActionError
from rummykit.events import HandEnded, Step, StockRebuilt
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.views import Arrangement, GinInfo, Phase, RoundResult, TableMeld, Termination

# Enum members as module constants: ``Phase.X`` is a class attribute lookup costing ~0.3 us on
# Python 3.11, and the turn flow reads them on every action.
_PHASE_DRAW: Final = Phase.DRAW
_PHASE_OVER: Final = Phase.OVER


def whole_placements(
    opened_turn: Sequence[int | None], placed_turn: Sequence[int | None]
) -> list[int | None]:
    """:attr:`RoundState.placed_turn` made consistent with the openings: a seat that opened had put
    cards on the table by its opening turn at the latest, and a state built without placements (by
    hand, or from a view that does not carry them) takes the opening turns."""
    if len(placed_turn) != len(opened_turn):
        return list(opened_turn)
    pairs = zip(placed_turn, opened_turn, strict=True)
    return [o if p is None else p if o is None else min(p, o) for p, o in pairs]


@dataclass(slots=True)
class RoundState:
    """Everything that decides how a round goes on: the position, not the history.

    Lists are owned by the state (:meth:`copy` copies them); cards are counted in :class:`Hand`
    multisets. ``rng`` drives reshuffles of the discard pile (``stock_exhaustion``); it is replaced,
    never advanced in place, so states may share it.
    """

    rules: Rules
    seats: int
    dealer: int
    in_play: tuple[int, ...]
    """Seats taking part in the hand (a seat sitting out as dealer is in play but not active)."""
    active_seats: tuple[int, ...]
    """Seats that play this hand, in turn order from the forehand."""
    hands: list[Hand]
    stock: list[Card]
    """Face down; the top card is the end of the list."""
    discard_pile: list[Card]
    """Bottom to top; only the last card can be taken."""
    melds: list[TableMeld]
    """Table melds, numbered from 1 in actions."""
    opened_turn: list[int | None]
    to_move: int
    phase: Phase
    turn: int
    rng: random.Random = field(compare=False)
    deck: tuple[Card, ...] = ()
    """The dealt deck order (top card first); empty for a state not dealt from a deck."""
    seed: int = 0
    face_down: Card | None = None
    """The card a player went out or knocked with face down (``final_discard_face_down``)."""
    taken_discard: Card | None = None
    """The card the player to move took from the discard pile this turn."""
    must_lay: Card | None = None
    """The taken discard that the player to move must still lay this turn."""
    stock_rebuilds: int = 0
    takes_in_a_row: int = 0
    """Turns in a row begun by taking the discard pile (``max_takes_in_a_row``); a stock draw resets it."""
    knocker: int | None = None
    knock_deadwood: int | None = None
    extra_turns: list[int] = field(default_factory=list)
    """Knock games: seats still to take their extra turn after the knock, in order."""
    known_cards: list[Hand] = field(default_factory=list)
    """Per seat, cards everybody knows it holds (taken discards, a freed joker kept)."""
    result: RoundResult | None = None
    gin: GinInfo | None = None
    """Gin hands: the public gin facts (:mod:`rummykit.gin`); ``None`` in other games."""
    steps: list[Step] = field(default_factory=list, compare=False)
    """Automatic steps taken since the last action began (moved onto its event)."""
    placed_turn: list[int | None] = field(default_factory=list)
    """Per seat, the turn in which it first put a card on the table (a meld, a lay-off or a joker
    exchange), or ``None``: a hand emptied in that very turn is a Hand-Rommé (Basic's "rummy").
    Where only an opened player may lay off or exchange, it is the opening turn."""
    reshuffles: tuple[tuple[Card, ...], ...] = field(default=(), compare=False)
    """The stock each reshuffle of the discard pile made this hand (``reshuffle_keep_top``), top card
    last as in :attr:`stock`: hidden like the stock, kept so that a record of a hand reshuffled from a
    secret can replay it (:class:`~rummykit.record.Record`)."""

    def copy(self) -> RoundState:
        """An independent copy (hands, piles, table and lists copied; melds are immutable).

        The reshuffle generator is shared: it is never advanced in place but replaced by an advanced
        clone (:meth:`ensure_stock`), so sharing costs nothing and keeps copies independent.
        """
        return self._copy(share_hands=False)

    def snapshot(self) -> RoundState:
        """A copy for the undo stack that shares the :class:`Hand` objects with this state: cheaper
        than :meth:`copy`, and exact because the engine replaces a seat's hand (``hand.plus(card)``,
        ``hand.without(cards)``) and never changes one in place once the deal is done."""
        return self._copy(share_hands=True)

    def _copy(self, share_hands: bool) -> RoundState:
        return RoundState(
            rules=self.rules,
            seats=self.seats,
            dealer=self.dealer,
            in_play=self.in_play,
            active_seats=self.active_seats,
            hands=self.hands[:] if share_hands else [h.copy() for h in self.hands],
            stock=self.stock[:],
            discard_pile=self.discard_pile[:],
            melds=self.melds[:],
            opened_turn=self.opened_turn[:],
            to_move=self.to_move,
            phase=self.phase,
            turn=self.turn,
            rng=self.rng,
            deck=self.deck,
            seed=self.seed,
            face_down=self.face_down,
            taken_discard=self.taken_discard,
            must_lay=self.must_lay,
            stock_rebuilds=self.stock_rebuilds,
            takes_in_a_row=self.takes_in_a_row,
            knocker=self.knocker,
            knock_deadwood=self.knock_deadwood,
            extra_turns=self.extra_turns[:],
            known_cards=self.known_cards[:] if share_hands else [h.copy() for h in self.known_cards],
            result=self.result,
            gin=self.gin,
            steps=self.steps[:],
            placed_turn=self.placed_turn[:],
            reshuffles=self.reshuffles,
        )

    # Reading ------------------------------------------------------------------------------------
    def has_opened(self, seat: int) -> bool:
        return self.opened_turn[seat] is not None

    def next_seat(self, seat: int) -> int:
        """The next active seat clockwise."""
        i = self.active_seats.index(seat)
        return self.active_seats[(i + 1) % len(self.active_seats)]

    def table_meld(self, number: int) -> Meld:
        """Table meld ``number`` (numbered from 1 as in actions).

        Raises:
            IllegalActionError: there is no such meld.
        """
        if len(self.melds) == 1 and number != 1:
            raise IllegalActionError(f"there is no meld {number} on the table (1 meld)", "no_such_meld")
        if not 1 <= number <= len(self.melds):
            raise IllegalActionError(
                f"there is no meld {number} on the table ({len(self.melds)} melds)", "no_such_meld"
            )
        return self.melds[number - 1].meld

    def hand_values(self) -> tuple[int, ...]:
        points = self.rules.card_points
        return tuple(sum(points(c) for c in hand) for hand in self.hands)

    def all_cards(self) -> list[Card]:
        """Every card wherever it lies: hands, stock, discard pile, table, the face-down card."""
        cards: list[Card] = [c for h in self.hands for c in h]
        cards += self.stock + self.discard_pile
        cards += [c for tm in self.melds for c in tm.meld.cards]
        if self.face_down is not None:
            cards.append(self.face_down)
        return cards

    # Turn flow ----------------------------------------------------------------------------------
    def begin_turn(self, seat: int) -> None:
        """Hand the turn to ``seat`` in the draw phase, rebuilding the stock if it is empty."""
        self.to_move = seat
        self.turn += 1
        self.phase = _PHASE_DRAW
        self.taken_discard = None
        self.must_lay = None
        self.ensure_stock()

    def ensure_stock(self) -> None:
        """Stock exhaustion (RULES.md §3.13, D10): rebuild from the discard pile or end the hand."""
        if self.stock:
            return
        rules = self.rules
        mode = rules.stock_exhaustion
        limit = rules.max_stock_rebuilds
        limit_reached = limit is not None and self.stock_rebuilds >= limit
        if mode == "turn_over_all_if_declined":
            # The player may still take the discard; drawing turns the whole pile over (Draw).
            if not self.discard_pile or limit_reached:
                self.end_unscored()
            return
        if mode == "end_hand_no_score" or limit_reached or len(self.discard_pile) <= 1:
            self.end_unscored()
            return
        top = self.discard_pile[-1]
        rest = self.discard_pile[:-1]  # nothing changes before the shuffle: a generator may refuse
        shuffled = mode == "reshuffle_keep_top"
        if shuffled:
            rng = copy.copy(self.rng)  # copy on write: copies and undo snapshots share the old one
            rng.shuffle(rest)  # a record's generator refuses a pile it holds no stock for
            self.rng = rng
            self.stock = rest
            self.reshuffles += (tuple(rest),)
        else:  # turn_over_keep_top: the pile is turned face down, its bottom card becomes the top
            self.stock = rest[::-1]
        self.discard_pile = [top]
        self.stock_rebuilds += 1
        self.steps.append(StockRebuilt(self.stock_rebuilds, len(self.stock), shuffled))

    def turn_over_discard_pile(self) -> None:
        """Basic Rummy: the whole discard pile, turned over unshuffled, becomes the stock."""
        self.stock = self.discard_pile[::-1]  # face down: the pile's bottom card is the new top
        self.discard_pile = []
        self.stock_rebuilds += 1
        self.steps.append(StockRebuilt(self.stock_rebuilds, len(self.stock), False))

    def count_take(self) -> bool:
        """One more turn begun by taking the discard pile. When ``max_takes_in_a_row`` turns in a row
        have already begun so, this take is not made: the hand ends dead, not scored (RULES.md D10,
        the bound on hands where nobody draws from the stock). Returns whether the hand ended."""
        if self.takes_in_a_row >= self.rules.max_takes_in_a_row:
            self.end_unscored(Termination.DRAWN)
            return True
        self.takes_in_a_row += 1
        return False

    def end_unscored(self, termination: Termination = Termination.STOCK_EXHAUSTED) -> None:
        """End the hand without a score (an exhausted stock; in gin the wall or a dead hand)."""
        zeros = (0,) * self.seats
        self._end(RoundResult(termination, None, zeros, zeros, zeros, self.hand_values()))

    def finish(
        self,
        termination: Termination,
        winner: int,
        penalties: Sequence[int],
        gains: Sequence[int],
        multiplier: int,
        arrangements: tuple[Arrangement | None, ...] = (),
        big_gin: bool = False,
    ) -> None:
        """End the hand with a scored result."""
        self._end(
            RoundResult(
                termination,
                winner,
                tuple(g - p for g, p in zip(gains, penalties, strict=True)),
                tuple(penalties),
                tuple(gains),
                self.hand_values(),
                multiplier,
                arrangements,
                big_gin,
            )
        )

    def _end(self, result: RoundResult) -> None:
        self.result = result
        self.phase = _PHASE_OVER
        self.steps.append(HandEnded(result.termination, result.winner, result.points))
