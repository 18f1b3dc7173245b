"""What one seat may see of a round: :class:`PlayerView`, plus the public result types.

A view is frozen and holds only that seat's own cards; other seats appear as card counts until their
hands are shown (a knocker shows the hand at the knock, everybody at the end of the hand). Bots, the
CLI, web clients and RL encoders read views, never the round itself.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rummykit.cards import Card
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.solver.arrangement import Arrangement as Arrangement  # one class for solver and showdown


class Phase(enum.StrEnum):
    """Where the player to move stands in a turn."""

    DRAW = "draw"
    """Take the top card of the stock or of the discard pile."""
    PLAY = "play"
    """Melding games: open, meld, lay off, exchange jokers (any number), then discard."""
    DISCARD = "discard"
    """Knock games: discard, knock or call Rummy."""
    FIRST_UPCARD = "first_upcard"
    """Gin: take the first upcard or pass (after both passed the forehand draws from the stock)."""
    WALL = "wall"
    """Gin: the stock is down to the wall; knock with the top discard or pass (the hand dies)."""
    KNOCK = "knock"
    """Gin: the knocker discards, then lays melds one by one, then passes."""
    LAYOFF = "layoff"
    """Gin: the defender lays cards off onto the knocker's melds, passes, lays own melds, passes."""
    OVER = "over"
    """The hand has ended; ``Round.result`` holds the outcome."""


class Termination(enum.StrEnum):
    """Why a hand ended."""

    WENT_OUT = "went_out"
    """A player melded, laid off or discarded their last card (German family)."""
    RUMMY = "rummy"
    """A player called Rummy: every card but the face-down one in melds (knock family)."""
    KNOCK = "knock"
    """A player knocked; the showdown followed (after the extra turns, where the rules give them)."""
    STOCK_EXHAUSTED = "stock_exhausted"
    """No stock could be rebuilt (or ``max_stock_rebuilds`` was reached): the hand is not scored."""
    WALL = "wall"
    """Gin: nobody knocked before the stock reached the wall; the hand is dead (not scored)."""
    DRAWN = "drawn"
    """The discards went back and forth: in gin the upcard was taken and thrown back twice running,
    or ``max_upcard_draws`` was reached; elsewhere ``max_takes_in_a_row`` turns in a row began by
    taking the discard pile. The hand is dead (not scored)."""


UNSCORED: frozenset[Termination] = frozenset(
    {Termination.STOCK_EXHAUSTED, Termination.WALL, Termination.DRAWN}
)
"""Terminations that leave a hand without a score."""


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table and the seat that laid it (lay-offs keep the original owner)."""

    meld: Meld
    owner: int

    def __str__(self) -> str:
        return str(self.meld)


@dataclass(frozen=True, slots=True)
class GinInfo:
    """The public facts of a gin hand (RULES.md §5.4), kept by the round and shown in every view.

    Replaced, never changed in place (states and undo snapshots share it).
    """

    knock_card: int
    """The knock limit of this hand (under ``oklahoma`` the value of the first upcard, ace 0)."""
    upcard_passes: int = 0
    """First-upcard phase: how many players have passed on the first upcard (0, 1 or 2)."""
    upcard_draws: int = 0
    """Cards taken from the discard pile in normal draw phases (``max_upcard_draws``)."""
    prev_upcard: Card | None = None
    """The top discard when the player to move (or the last one) drew: a throw-back repeats it."""
    repeated: bool = False
    """The last player took the upcard and discarded it at once (``repeat_discard_draw``)."""
    knocker_melds: tuple[tuple[Card, ...], ...] = ()
    """The knocker's melds in the order laid (before lay-offs)."""
    layoffs: tuple[Card, ...] = ()
    """Cards the defender laid off, in order."""
    layoffs_done: bool = False
    """The defender has finished laying off (or may not: a gin or no lay-offs)."""
    doubled: bool = False
    """The hand scores double: its first upcard is a spade (``oklahoma_spade_doubles``)."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The outcome of a hand.

    ``penalties`` are minus points (German family) or bad points (knock family) per seat;
    ``gains`` are plus points (``winner_collects``); ``points = gains - penalties``.
    ``hand_values`` are the raw values of the cards each seat was left with, before any multiplier.
    Seats that sat out the hand score 0.
    """

    termination: Termination
    winner: int | None
    """Who went out, called Rummy or knocked; ``None`` when the hand was not scored."""
    points: tuple[int, ...]
    penalties: tuple[int, ...]
    gains: tuple[int, ...]
    hand_values: tuple[int, ...]
    multiplier: int = 1
    """Hand-Rommé factor (German family), ``rummy_multiplier`` (knock family) or, in gin, 2 for a
    spade upcard under ``oklahoma_spade_doubles``, applied."""
    arrangements: tuple[Arrangement | None, ...] = ()
    """Knock family: every seat's best arrangement at the showdown."""
    big_gin: bool = False
    """Gin: the knocker laid all eleven cards in melds, with no discard (``big_gin_bonus``)."""

    @property
    def scored(self) -> bool:
        return self.termination not in UNSCORED

    def take_bound(self, rules: Rules) -> int | None:
        """``max_takes_in_a_row`` when that bound ended the hand dead (RULES.md D10: the take past
        it is not made), else ``None``. Outside gin a dead hand has no other cause; gin's dead
        hands (the wall, ``max_upcard_draws``, a thrown-back upcard) are not this bound's."""
        if self.termination is Termination.DRAWN and rules.not_applicable("max_takes_in_a_row") is None:
            return rules.max_takes_in_a_row
        return None


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything seat ``seat`` may know about the round, and nothing more."""

    seat: int
    rules: Rules
    hand: tuple[Card, ...]
    """Own cards, sorted by suit then rank, jokers last."""
    hand_sizes: tuple[int, ...]
    melds: tuple[TableMeld, ...]
    """Table melds numbered from 1 in actions (index 0 is meld 1)."""
    discard_pile: tuple[Card, ...]
    """Bottom to top; only the last card can be taken."""
    stock_size: int
    phase: Phase
    to_move: int
    opened: tuple[bool, ...]
    scores: tuple[int, ...]
    """This hand's points per seat once it is over, zeros before."""
    dealer: int
    active_seats: tuple[int, ...]
    """Seats that play this hand, in turn order from the forehand."""
    turn: int
    taken_discard: Card | None
    """The card the player to move took from the discard pile this turn (seen by everybody)."""
    knocker: int | None
    revealed: tuple[tuple[Card, ...] | None, ...]
    """Hands shown to everybody: the knocker's after a knock, every hand at the end."""
    result: RoundResult | None
    opened_turn: tuple[int | None, ...] = ()
    """The turn in which each seat opened (lay-offs and joker exchanges need an earlier turn)."""
    placed_turn: tuple[int | None, ...] = ()
    """The turn in which each seat first put a card on the table (a meld, lay-off or joker
    exchange): emptying the hand in that turn is a Hand-Rommé."""
    must_lay: Card | None = None
    """The taken discard that the player to move must still lay this turn (public)."""
    stock_rebuilds: int = 0
    takes_in_a_row: int = 0
    """Turns in a row begun by taking the discard pile (``max_takes_in_a_row`` ends the hand)."""
    extra_turns: tuple[int, ...] = ()
    """Knock games: seats still to take their extra turn after the knock, in order."""
    known_cards: tuple[tuple[Card, ...], ...] = ()
    """Per seat, cards everybody knows it holds: taken from the discard pile (or a freed joker kept
    in hand) and not laid or discarded since."""
    in_play: tuple[int, ...] = ()
    """Seats taking part in the hand (a seat sitting out as dealer is in play but not active)."""
    gin: GinInfo | None = None
    """Gin: the knock card, first-upcard passes, the knocker's melds and the lay-offs; else ``None``."""

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def is_my_turn(self) -> bool:
        return self.phase is not Phase.OVER and self.to_move == self.seat


class MatchPublic(Protocol):
    """The public match state a :class:`MatchView` is built from (``rummykit.match.Match`` has it)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def chips(self) -> tuple[int, ...]: ...
    @property
    def pot(self) -> int: ...
    @property
    def active_seats(self) -> tuple[int, ...]: ...
    @property
    def buybacks(self) -> Sequence[int]: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def hands_left(self) -> int | None: ...
    @property
    def hands_dealt(self) -> int: ...
    @property
    def hands_counted(self) -> int: ...
    @property
    def hands_won(self) -> Sequence[int]: ...
    @property
    def pending_buyback(self) -> Sequence[int]: ...


@dataclass(frozen=True, slots=True)
class MatchView:
    """What a seat may know of the match: public totals, scores, chips and pot, and how many hands
    are left. Bots read it to decide a buy-back and to weigh a hand's result by what it does to the
    match (:mod:`rummykit.bots.stakes`).

    ``buyback_target`` is the total a buy-back would set (RULES.md §4.8, decision D8), ``None`` when
    no offer can be made. ``scores`` are the cumulative points (plus less minus points: higher is
    better); ``hands_left`` is the number of hands still to be dealt after the current one when the
    match is a fixed series of hands (``match_end = fixed_hands``), else ``None``.
    """

    seat: int
    rules: Rules
    totals: tuple[int, ...]
    chips: tuple[int, ...]
    pot: int
    active_seats: tuple[int, ...]
    buybacks: tuple[int, ...]
    buyback_target: int | None
    buyback_cost: int
    threshold: int | None
    scores: tuple[int, ...] = ()
    hands_left: int | None = None
    hands_dealt: int = 0
    """Hands dealt so far, the current one included."""
    hands_counted: int = 0
    """The hands of :attr:`hands_dealt` that count towards the series (those dealt again under
    ``unscored_hand = redeal`` do not): the current hand's number in the series."""
    buyback_pending: bool = False
    """A buy-back decision is open (the seat to decide is the first still to answer)."""
    hands_won: tuple[int, ...] = ()
    """Hands each seat has won (the score sheet's; ``match_tiebreak = most_hands_won`` reads it)."""

    @classmethod
    def of(cls, match: MatchPublic, seat: int) -> MatchView:
        totals = match.totals
        active = match.active_seats
        others = [totals[s] for s in active if s != seat and totals[s] <= totals[seat]]
        return cls(
            seat=seat,
            rules=match.rules,
            totals=totals,
            chips=match.chips,
            pot=match.pot,
            active_seats=active,
            buybacks=tuple(match.buybacks),
            buyback_target=max(others) if others else None,
            buyback_cost=match.rules.buyback_cost,
            threshold=match.rules.elimination_threshold,
            scores=match.scores,
            hands_left=match.hands_left,
            hands_dealt=match.hands_dealt,
            hands_counted=match.hands_counted,
            buyback_pending=bool(match.pending_buyback),
            hands_won=tuple(match.hands_won),
        )
