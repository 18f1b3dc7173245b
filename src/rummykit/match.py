"""A match (Partie, Serie, rubber): rounds scored cumulatively until ``match_end`` says stop.

Match ends (RULES.md §3.15, §4.8, §5.2, §5.3, D25):

* ``fixed_hands``: ``num_hands`` hands (default one per player: everybody deals once, unless the
  winner of a hand deals the next); the lowest minus total wins, ties share the win.
* ``penalty_limit``: ends after the hand in which somebody reaches ``penalty_limit`` minus points.
* ``elimination_last_survivor``: players whose total reaches ``elimination_threshold`` (101) are out;
  the last player in wins (Scala 40; the Viennese rubber).
* ``target_score``: ends when somebody's plus points reach ``target_score`` (Basic Rummy). Gin played
  so ends with the rule books' bonuses when they are set: ``box_bonus`` to every player for each hand
  they won, ``game_bonus`` to the winner, and the winner's total doubled (``shutout_doubles``) when the
  loser won no hand. The winner is decided first (the most points), so the bonuses change the
  margin, never the winner; they are added to ``gains`` and kept in ``bonuses``.
* ``single_hand``: one scored hand.

Knock games with ``elimination_last_survivor`` are played as a **rubber** with chips, after each
hand in exactly this order (§4.8): (1) knock money ``knock_money`` from every other player who was
in the hand to the knocker or Rummy caller; (2) bad points added; (3) everybody at or above
``elimination_threshold`` is eliminated; (4) one player left takes the pot, nobody left means the
lowest total takes it (ties split, D19); (5) buy-back offers clockwise from the dealer's left to each
player in play with ``buyback_window[0] < total < buyback_window[1]`` who has bought back fewer than
``buyback_limit`` times: paying ``buyback_cost`` chips sets the total to the highest other total that
does not exceed it (D8; no offer if there is none); (6) next deal. A shared pot's odd chips go to the
winners first from the dealer's left (:meth:`Match.pot_shares`). The ante ``pot_ante`` is paid once
per rubber (``ante_frequency = per_rubber``, D11) or before every hand (``per_hand``).

A hand that ends unscored (the stock exhausted, or the takes in a row at their bound) scores
nothing. In a melding game's ``fixed_hands`` series it counts as one of the ``num_hands`` hands under
``unscored_hand = counts``; under ``redeal`` the same dealer deals again and it does not count, up to
:data:`MOST_REDEALS_IN_A_ROW` times in a row (:attr:`Match.redealt` lists those hands).

Where several share the best total at the end of a melding game's series or penalty limit,
``match_tiebreak`` picks among them (``share``: they share the win; ``most_hands_won``;
``best_last_hand``: the last scored hand that all of them were dealt in); those still equal share it.

>>> import rummykit as rk
>>> m = rk.Match.new(rk.Rules.preset("viennese"), players=3, seed=1)
>>> m.pot, m.chips
(15, (-5, -5, -5))
>>> m.seat_draw.describe(["Anna", "Ben", "Cleo"])
['Anna draws 4♣, Cleo draws 9♠, Ben draws 10♦ and deals first']
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from rummykit.actions import Action, BuyBack, Decline, canonical_action, passes
from rummykit.cards import Card, parse_cards
from rummykit.errors import MatchDecisionError, RulesError, quoted
from rummykit.round import Event, Round, as_seed
from rummykit.rules import Rules, check_rules
from rummykit.seating import FirstDealerDraw, draw_first_dealer
from rummykit.views import RoundResult

MATCH_SEED_BITS: Final = 32


def _second_worst_not_above_buyer(own: int, others: Sequence[int]) -> int | None:
    """D8: the highest other total in play that does not exceed the buyer's."""
    below = [t for t in others if t <= own]
    return max(below) if below else None


def _lowest_total_wins(totals: Mapping[int, int]) -> tuple[int, ...]:
    """D19: when the last players in are all eliminated by one hand, the lowest total wins (ties share)."""
    best = min(totals.values())
    return tuple(s for s, t in totals.items() if t == best)


BUYBACK_TARGETS: Final[Mapping[str, Callable[[int, Sequence[int]], int | None]]] = {
    "second_worst_not_above_buyer": _second_worst_not_above_buyer,
}
"""``buyback_target``: the total a buy-back sets, from the buyer's total and the others' in play."""

ALL_ELIMINATED_TIEBREAKS: Final[Mapping[str, Callable[[Mapping[int, int]], tuple[int, ...]]]] = {
    "lowest_total_wins": _lowest_total_wins,
}
"""``all_eliminated_tiebreak``: the winners among seats eliminated together (their totals)."""


MOST_REDEALS_IN_A_ROW: Final = 3
"""``unscored_hand = redeal``: the most hands in a row that one dealer deals again. When the hand after
them ends unscored as well, it counts as that dealer's hand of the series and the deal passes on.

Why a bound, and why 3: every hand ends (``max_stock_rebuilds`` and ``max_takes_in_a_row``), but
players who never go out (bots that only draw and discard, a table that plays on for fun) could end
every hand unscored, and a series that redeals for ever would never end. At a human table an unscored
hand needs the stock rebuilt three times over, so a second one in a row is already rare and a fourth
practically unknown: the bound changes no real table's series, while a series of ``n`` hands is dealt
at most ``4 n`` times (the environments' episodes and the arena's matches stay bounded)."""

MOST_POSITION_FIGURE: Final = 10**9
"""The largest total, chip count or pot a match position may give: far beyond any real match."""


@dataclass(frozen=True, slots=True)
class BonusParts:
    """One seat's end-of-game bonus in a gin game to a target score, itemised
    (:meth:`Match.bonus_parts`): ``box`` for its ``hands_won`` (``box_bonus`` each), ``game``
    (``game_bonus``, the winner's) and ``shutout``, what doubling the winner's total added."""

    hands_won: int
    box: int
    game: int
    shutout: int


@dataclass(frozen=True, slots=True)
class MatchPosition:
    """A match state to start from (for puzzles, tests and resumed series): per-seat totals (minus or
    bad points), plus points, chips, buy-backs used and eliminations, the pot, and the hands each seat
    has won (``hands_won``: gin's ``box_bonus`` and ``shutout_doubles`` count them, and
    ``match_tiebreak = most_hands_won``; ``None``: none). In a melding game a hand has one winner
    at most, so ``hands_won`` adds up to no more than ``hands_dealt``."""

    totals: tuple[int, ...]
    gains: tuple[int, ...] | None = None
    chips: tuple[int, ...] | None = None
    pot: int = 0
    buybacks: tuple[int, ...] | None = None
    eliminated: tuple[bool, ...] | None = None
    hands_dealt: int = 0
    hands_won: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "totals": list(self.totals),
            "gains": None if self.gains is None else list(self.gains),
            "chips": None if self.chips is None else list(self.chips),
            "pot": self.pot,
            "buybacks": None if self.buybacks is None else list(self.buybacks),
            "eliminated": None if self.eliminated is None else list(self.eliminated),
            "hands_dealt": self.hands_dealt,
            "hands_won": None if self.hands_won is None else list(self.hands_won),
        }


@dataclass(frozen=True, slots=True)
class MatchEvent:
    """A match decision (buy-back) as recorded in ``Match.history``."""

    seat: int
    action: Action
    chips: int
    """Chips the seat paid into the pot."""
    new_total: int | None
    """The seat's total after a buy-back."""
    old_total: int | None = None
    """The seat's total before a buy-back."""
    hand: int | None = None
    """The hand (from 1) after which the decision was made."""


class Dealing(Protocol):
    """Where a match's hands come from: the deck order of each hand and the generator of its
    reshuffles of the discard pile (``Match.new(..., dealing=...)``).

    The match asks for both whenever it deals, its first hand included, numbering the hands it deals
    from 1 (the hands a starting :class:`MatchPosition` counts are not among them). Every hand also
    gets a seed from the match's :attr:`Match.seed` (``Round.seed``): it shuffles the deck and drives
    the reshuffles where the dealing gives neither. A dealing gives the same answers however often it
    is asked, so that copies and pickles of a match deal on alike (the library's dealings are
    immutable, and the copies of a match share them).

    :class:`SeededDealing` is the library's; the server deals a table that is not seeded from its
    secret (:class:`rummykit.web.dealing.SecretDealing`), and a record replays the deals it holds
    (:class:`rummykit.record.RecordedDealing`).
    """

    def deck(self, rules: Rules, hand: int) -> Sequence[int] | str | None:
        """The deck order (top card first) of hand number ``hand``; ``None``: the hand's seed shuffles
        the deck of ``rules``."""
        ...

    def reshuffle_rng(self, hand: int) -> random.Random | None:
        """The generator of hand number ``hand``'s reshuffles (:meth:`Round.use_reshuffle_rng
        <rummykit.round.Round.use_reshuffle_rng>`); ``None``: the hand's seed drives them."""
        ...


@dataclass(frozen=True, slots=True)
class SeededDealing:
    """The library's dealing: each hand's seed (drawn from the match's seed) shuffles its deck and
    drives its reshuffles; ``first_deck``, when given, is the deck order of the first hand instead.

    A match dealt so replays from its seed, its first deck and its actions (a version 1
    :class:`~rummykit.record.Record`).
    """

    first_deck: tuple[Card, ...] | None = None

    def deck(self, rules: Rules, hand: int) -> Sequence[int] | None:
        return self.first_deck if hand == 1 else None

    def reshuffle_rng(self, hand: int) -> random.Random | None:
        return None

    def __deepcopy__(self, memo: dict[int, Any]) -> SeededDealing:
        return self  # immutable: a copy of the match shares it


class Match:
    """A series of rounds with cumulative scores, chips and eliminations. Create with :meth:`new`."""

    rules: Rules
    players: int
    seed: int
    first_dealer: int
    dealer: int
    round: Round
    rounds: list[Round]
    penalties: list[int]
    gains: list[int]
    chips_list: list[int]
    pot: int
    pot_won: int
    """The chips the pot held when the match ended and its winners took it (0 before)."""
    eliminated: list[bool]
    buybacks: list[int]
    pending_buyback: list[int]
    actions: list[Action]
    history: list[Event | MatchEvent]
    winners: tuple[int, ...]
    hands_dealt: int
    hands_won: list[int]
    """Per seat, the scored hands it won, with those of a starting position: in a melding game the
    hands it went out in; elsewhere the hands whose points for it were above 0 (a gin knocker who
    scored, a defender who undercut)."""
    redealt: list[int]
    """The numbers (from 1, as :attr:`rounds` counts them) of the hands that ended unscored and were
    dealt again by the same dealer without counting towards ``num_hands`` (``unscored_hand =
    redeal``); empty otherwise."""
    tiebreak: str | None = None  # a class default: a match pickled before it existed reads None
    """The ``match_tiebreak`` rule (``most_hands_won``, ``best_last_hand``) that picked the winners
    among seats level on the best total, when it left out some of them; ``None`` otherwise (no tie,
    a shared win, a match under way)."""
    bonuses: list[int]
    """Per seat, the points a gin game to a target score added when it ended (``box_bonus``,
    ``game_bonus``, ``shutout_doubles``; already in ``gains``); zeros until then and elsewhere."""

    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int,
        *,
        seed: int | None = None,
        dealer: int | None = None,
        deck: Sequence[int] | str | None = None,
        position: MatchPosition | None = None,
        draw: FirstDealerDraw | None = None,
        dealing: Dealing | None = None,
    ) -> Match:
        """Start a match and deal its first round; ``seed`` drives every deal of the match, unless a
        ``dealing`` deals them.

        The first dealer comes from the seat draw of ``rules.seat_draw`` (RULES.md §3.2), made from
        the seed and kept in ``match.seat_draw``; ``dealer`` skips the draw and names the first
        dealer, ``draw`` replays a draw already made (a record's). ``deck`` fixes the order of the
        first deal (later deals come from the seed: ``SeededDealing(deck)``). ``dealing`` deals every
        hand otherwise (:class:`Dealing`; each hand's seed still comes from ``seed``). ``position``
        starts from given totals, chips and pot instead of a fresh series; the per-rubber ante is then
        taken as already paid.

        Raises:
            RulesError: a player count outside the rules, a bad dealer seat, a draw for another
                table or a malformed position.
            NotationError: a ``deck`` text that is not cards.
            TypeError: a seed that is not an integer (a record could not store it), or both a
                ``deck`` and a ``dealing`` (a dealing gives the first deck too).
        """
        if deck is not None and dealing is not None:
            raise TypeError("Match.new takes a deck or a dealing, not both: the dealing gives the first deck")
        seed = as_seed(seed)
        check_rules(rules)
        rules.check_table(players, 0 if dealer is None else dealer)  # before a draw sized by players
        if seed is None:
            seed = random.SystemRandom().randrange(2**MATCH_SEED_BITS)
        if draw is None and dealer is None:
            draw = draw_first_dealer(rules, players, seed)
        if draw is not None:
            if dealer is not None and dealer != draw.dealer:
                raise RulesError(f"dealer: the seat draw chose seat {draw.dealer}, not seat {dealer}")
            if draw.method != rules.seat_draw or any(len(row) != players for row in draw.rounds):
                raise RulesError(f"seat draw: not a {rules.seat_draw} draw for {players} players")
            dealer = draw.dealer
        assert dealer is not None
        rules.check_table(players, dealer)
        if dealing is None:
            if isinstance(deck, str):
                deck = parse_cards(deck)
            dealing = SeededDealing(None if deck is None else tuple(map(Card, deck)))
        m = cls.__new__(cls)
        m.rules = rules
        m.players = players
        m.seed = seed
        m.first_dealer = dealer
        m.seat_draw = draw
        m.dealer = dealer
        m.dealing = dealing
        m._rng = random.Random(seed)
        m.rounds = []
        m.penalties = [0] * players
        m.gains = [0] * players
        m.chips_list = [0] * players
        m.pot = 0
        m.pot_won = 0
        m.eliminated = [False] * players
        m.buybacks = [0] * players
        m.pending_buyback = []
        m.actions = []
        m.history = []
        m.winners = ()
        m.hands_dealt = 0
        m.hands_won = [0] * players
        m.redealt = []
        m.bonuses = [0] * players
        m.tiebreak = None
        m.position = position
        if position is not None:
            m._load_position(position)
        elif m.is_rubber and rules.ante_frequency == "per_rubber":
            m._ante()
        m._deal()
        return m

    position: MatchPosition | None
    seat_draw: FirstDealerDraw | None
    """The draw that chose the first dealer; ``None`` when ``Match.new`` was given the dealer."""
    dealing: Dealing
    """Where every hand's deck order and reshuffles come from (:class:`Dealing`)."""

    @property
    def deals_follow_seed(self) -> bool:
        """Whether the match is dealt by :class:`SeededDealing`: every deal after the first, and every
        reshuffle, follows :attr:`seed`, so that the seed, :attr:`first_deck` and the actions replay the
        match (:meth:`Record.from_match <rummykit.record.Record.from_match>`). Another dealing's
        record keeps every deal and every reshuffle instead."""
        return type(self.dealing) is SeededDealing

    @property
    def first_deck(self) -> tuple[Card, ...] | None:
        """The deck order ``Match.new`` was given for the first deal of a seeded match (a record
        keeps it); ``None`` when the seed shuffled it or the match is dealt otherwise."""
        dealing = self.dealing
        return dealing.first_deck if isinstance(dealing, SeededDealing) else None

    def _load_position(self, position: MatchPosition) -> None:
        n = self.players

        def seats(name: str, values: Sequence[object] | None) -> None:
            if values is not None and len(values) != n:
                raise RulesError(f"position: {name} needs one entry per seat ({n}), got {len(values)}")

        for name in ("totals", "gains", "chips", "buybacks", "eliminated", "hands_won"):
            seats(name, getattr(position, name))
        # Only figures a match can reach: penalties and plus points never fall below 0, a pot or a
        # count of hands or buy-backs neither, buy-backs stop at the limit and a series at its length.
        most = MOST_POSITION_FIGURE
        series = (self.rules.num_hands or n) if self.rules.match_end == "fixed_hands" else most
        bounds: tuple[tuple[str, Sequence[int] | None, int, int], ...] = (
            ("totals", position.totals, 0, most),
            ("gains", position.gains, 0, most),
            ("chips", position.chips, -most, most),
            ("buybacks", position.buybacks, 0, self.rules.buyback_limit),
            ("pot", (position.pot,), 0, most),
            ("hands_dealt", (position.hands_dealt,), 0, series),
            ("hands_won", position.hands_won, 0, most),
        )
        for name, values, low, high in bounds:
            for value in values or ():
                if not low <= value <= high:
                    raise RulesError(
                        f"position: {name} must lie between {low} and {high}, not {quoted(value)}"
                    )
        self.penalties = list(position.totals)
        self.gains = list(position.gains or (0,) * n)
        self.chips_list = list(position.chips or (0,) * n)
        self.pot = position.pot
        self.buybacks = list(position.buybacks or (0,) * n)
        self.eliminated = list(position.eliminated or (False,) * n)
        self.hands_dealt = position.hands_dealt
        self.hands_won = list(position.hands_won or (0,) * n)
        if len(self.active_seats) < 2:
            raise RulesError("position: at least two players must still be in the match")
        won = sum(self.hands_won)
        if self.rules.family == "melding" and won > self.hands_dealt:
            # A melding hand has at most one winner, the seat that went out, and most_hands_won
            # counts these. Gin's positions give the hands won for its bonuses without hands_dealt
            # (a game to a target score counts no hands), so they are left as they are.
            raise RulesError(
                f"position: hands_won adds up to {won}, more than hands_dealt ({self.hands_dealt}): "
                "a hand has one winner at most"
            )
        if self.rules.box_bonus or self.rules.shutout_doubles:
            for seat in range(n):
                if self.gains[seat] > 0 and not self.hands_won[seat]:
                    raise RulesError(
                        f"position: seat {seat} has plus points but won no hand: give hands_won, which "
                        "box_bonus and shutout_doubles count"
                    )

    _rng: random.Random

    # Derived state ------------------------------------------------------------------------------
    @property
    def is_rubber(self) -> bool:
        """Knock-game rubber with pot, knock money and buy-back (RULES.md §4.8)."""
        return self.rules.is_knock_game and self.rules.match_end == "elimination_last_survivor"

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def winner(self) -> int | None:
        """The single winner, or ``None`` while the match runs or when several share the win."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative points per seat: plus points minus minus points (higher is better)."""
        return tuple(g - p for g, p in zip(self.gains, self.penalties, strict=True))

    @property
    def totals(self) -> tuple[int, ...]:
        """Cumulative minus points (German family) or bad points (knock family) per seat."""
        return tuple(self.penalties)

    @property
    def chips(self) -> tuple[int, ...]:
        """Chip ledger per seat: won minus paid (antes, knock money, buy-backs)."""
        return tuple(self.chips_list)

    @property
    def hands_left(self) -> int | None:
        """Hands still to be dealt after the current one in a fixed series (``match_end =
        fixed_hands``: ``num_hands``, by default one per player), else ``None``."""
        if self.rules.match_end != "fixed_hands":
            return None
        return max(0, (self.rules.num_hands or self.players) - self.hands_counted)

    @property
    def hands_counted(self) -> int:
        """The hands that count towards the series, the current one included (:attr:`hands_dealt`
        less the hands dealt again, :attr:`redealt`): the current hand's number in the series."""
        return self.hands_dealt - len(self.redealt)

    @property
    def redeals_in_a_row(self) -> int:
        """How many times in a row the current hand's dealer has dealt it again (0: a first deal)."""
        return self.times_dealt_again(len(self.rounds))

    def times_dealt_again(self, hand: int) -> int:
        """How many hands in a row right before the match's hand number ``hand`` (from 1, as
        :attr:`rounds` counts) were dealt again by its dealer (:attr:`redealt`): 0 for a first deal."""
        dealt_again = set(self.redealt)
        k = 0
        while hand - 1 - k in dealt_again:
            k += 1
        return k

    @property
    def hand_number(self) -> int:
        """The current hand's number in the match (:meth:`hand_in_series` of the last deal)."""
        return self.hand_in_series(len(self.rounds))

    def hand_in_series(self, hand: int) -> int:
        """The number within the match of its hand number ``hand`` (from 1, as :attr:`rounds` counts;
        a starting position's hands not included): the hands dealt again before it are not counted,
        so a hand dealt again and the deal that replaced it share their number."""
        return hand - sum(1 for r in self.redealt if r < hand)

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats not eliminated."""
        return tuple(s for s in range(self.players) if not self.eliminated[s])

    @property
    def to_move(self) -> int:
        if self.pending_buyback:
            return self.pending_buyback[0]
        return self.round.to_move

    # Play ---------------------------------------------------------------------------------------
    def copy(self) -> Match:
        """An independent copy: the rounds, totals, chips and the seeded generator of later deals."""
        return copy.deepcopy(self)

    def __copy__(self) -> Match:
        # copy.copy gives an independent copy too (a shallow one would share the current round).
        return self.copy()

    def legal_actions(self) -> list[Action]:
        """Buy-back decisions when one is pending, otherwise the current round's actions."""
        if self.is_over:
            return []
        if self.pending_buyback:
            return [BuyBack(), Decline()]
        return self.round.legal_actions()

    def check(self, action: Action | str) -> None:
        """Raise an :class:`IllegalActionError` subclass naming the broken rule, or return ``None``
        (``action`` a round action, a match decision or its text).

        Raises:
            NotationError: ``action`` is text that is not an action.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        action = canonical_action(action)
        self._check_decision(action)
        if not self.pending_buyback:
            self.round.check(action)

    def _check_decision(self, action: Action) -> None:
        """The match's own part of :meth:`check`: the match is not over, a buy-back offer is answered
        first, and a buy-back is made only while one is offered. A round action is checked by the
        round (:meth:`Round.check <rummykit.round.Round.check>`, or :meth:`Round.apply`)."""
        if self.is_over:
            raise MatchDecisionError(f"{action}: the match is over", "match_over")
        if self.pending_buyback:
            if not isinstance(action, (BuyBack, Decline)):
                raise MatchDecisionError(
                    f"{action}: seat {self.pending_buyback[0]} must first answer the buy-back offer "
                    "('buyback' or 'decline')",
                    "buyback",
                )
            return
        if isinstance(action, (BuyBack, Decline)):
            why = self.no_buyback_offer(self.to_move) or "buy-backs are offered right after a hand only"
            raise MatchDecisionError(f"{action}: no buy-back offer is open: {why}", "buyback")

    def is_legal(self, action: Action | str) -> bool:
        """Whether :meth:`apply` would take ``action`` now (text that is no action is not legal)."""
        return passes(self.check, action)

    def apply(self, action: Action | str) -> Event | MatchEvent:
        """Apply a round action or a match decision and return the recorded event.

        Raises:
            NotationError: text that is not an action.
            IllegalActionError: the action is not allowed now; nothing changes.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        action = canonical_action(action)  # every card a Card, so the record stays notation
        self._check_decision(action)  # a round action is checked by Round.apply, once (none offered)
        event: Event | MatchEvent
        if self.pending_buyback:
            event = self._decide(action)
        else:
            event = self.round.apply(action)
            if self.round.is_over:
                self._settle(self.round.result)
        self.actions.append(action)
        self.history.append(event)
        return event

    # Internals ----------------------------------------------------------------------------------
    def _ante(self) -> None:
        for s in self.active_seats:
            self.chips_list[s] -= self.rules.pot_ante
            self.pot += self.rules.pot_ante

    def _deal(self) -> None:
        """Deal the next hand as :attr:`dealing` says, with the next seed of the match's generator."""
        hand = len(self.rounds) + 1
        deck = self.dealing.deck(self.rules, hand)  # first: a dealing that has no such hand says so
        if self.is_rubber and self.rules.ante_frequency == "per_hand":
            self._ante()
        if self.dealer not in self.active_seats:
            self.dealer = self.active_seats[0]
        self.round = Round.new(
            self.rules,
            self.players,
            seed=self._rng.randrange(2**MATCH_SEED_BITS),
            dealer=self.dealer,
            in_play=self.active_seats,
            deck=deck,
        )
        reshuffles = self.dealing.reshuffle_rng(hand)
        if reshuffles is not None:
            self.round.use_reshuffle_rng(reshuffles)
        self.rounds.append(self.round)
        self.hands_dealt += 1

    def _settle(self, result: RoundResult | None) -> None:
        assert result is not None
        rules = self.rules
        rnd = self.round
        if result.scored and result.winner is not None:
            for s, paid in enumerate(self._knock_money_of(rnd)):
                self.chips_list[s] += paid
            for s in range(self.players):
                self.penalties[s] += result.penalties[s]
                self.gains[s] += result.gains[s]
                won = s == result.winner if rules.family == "melding" else result.points[s] > 0
                self.hands_won[s] += 1 if won else 0
        elif self._deals_again():
            self.redealt.append(len(self.rounds))
        if self._check_end(result):
            return
        if self.is_rubber:
            order = [(rnd.dealer + i) % self.players for i in range(1, self.players + 1)]
            self.pending_buyback = [s for s in order if self.no_buyback_offer(s) is None]
        if not self.pending_buyback:
            self._next_deal(result)

    def _deals_again(self) -> bool:
        """Whether the hand that just ended unscored is dealt again by the same dealer instead of
        counting (``unscored_hand = redeal``, at most :data:`MOST_REDEALS_IN_A_ROW` times in a row)."""
        rules = self.rules
        if rules.unscored_hand != "redeal" or rules.not_applicable("unscored_hand") is not None:
            return False
        return self.redeals_in_a_row < MOST_REDEALS_IN_A_ROW

    def _check_end(self, result: RoundResult) -> bool:
        """Eliminations and the match-end test; sets ``winners`` and pays the pot when it ends."""
        rules = self.rules
        end = rules.match_end
        in_play = list(self.active_seats)
        if end == "elimination_last_survivor" and rules.elimination_threshold is not None:
            out = [s for s in in_play if self.penalties[s] >= rules.elimination_threshold]
            for s in out:
                self.eliminated[s] = True
            survivors = self.active_seats
            if len(survivors) == 1:
                return self._end((survivors[0],))
            if not survivors:
                tiebreak = ALL_ELIMINATED_TIEBREAKS[rules.all_eliminated_tiebreak]
                return self._end(tiebreak({s: self.penalties[s] for s in in_play}))
            return False
        if end == "single_hand" and result.scored:
            return self._end(self._lowest())
        if end == "fixed_hands" and self.hands_left == 0:
            return self._end(self._lowest())
        if end == "penalty_limit" and max(self.penalties) >= rules.penalty_limit:
            return self._end(self._lowest())
        if end == "target_score" and max(self.gains) >= rules.target_score:
            best = max(self.gains)
            self._end(tuple(s for s in range(self.players) if self.gains[s] == best))
            self._pay_game_bonuses()
            return True
        return False

    def _pay_game_bonuses(self) -> None:
        """Gin's end-of-game bonuses, once the winners are decided (so they never change who won):
        ``box_bonus`` to every seat for each hand it won, ``game_bonus`` to each winner, and a winner's
        total with both doubled under ``shutout_doubles`` when no other seat won a hand. Added to
        ``gains`` and kept in ``bonuses``; the options apply only to gin to a target score (they
        are 0 and false elsewhere)."""
        rules = self.rules
        for s in range(self.players):
            bonus = rules.box_bonus * self.hands_won[s]
            if s in self.winners:
                bonus += rules.game_bonus
                shutout = not any(self.hands_won[o] for o in range(self.players) if o != s)
                if rules.shutout_doubles and shutout:
                    bonus += self.gains[s] + bonus
            self.bonuses[s] = bonus
            self.gains[s] += bonus

    def bonus_parts(self) -> tuple[BonusParts, ...]:
        """Per seat, what its end-of-game bonus (:attr:`bonuses`) is made of, as gin score sheets
        itemise it: the box bonus for the hands won, the game bonus, and what the shutout's doubling
        added (the total before it, box and game bonuses included, once more). The three are zeros
        while the game runs and in every other match; ``hands_won`` counts all the same."""
        rules = self.rules
        parts = []
        for s in range(self.players):
            if not self.bonuses[s]:
                parts.append(BonusParts(self.hands_won[s], 0, 0, 0))
                continue
            box = rules.box_bonus * self.hands_won[s]
            game = rules.game_bonus if s in self.winners else 0
            parts.append(BonusParts(self.hands_won[s], box, game, self.bonuses[s] - box - game))
        return tuple(parts)

    def _lowest(self) -> tuple[int, ...]:
        """Seats with the best cumulative score (fewest minus points); ties are broken by
        ``match_tiebreak`` where it applies, and share the win otherwise."""
        best = max(self.scores)
        return self._tiebreak(tuple(s for s in range(self.players) if self.scores[s] == best))

    def _tiebreak(self, tied: tuple[int, ...]) -> tuple[int, ...]:
        """The seats of ``tied`` that ``match_tiebreak`` keeps: ``most_hands_won`` those with the most
        hands won (:attr:`hands_won`), ``best_last_hand`` those with the best points in the last scored
        hand of the match that all of them were dealt in (a seat that sat a hand out, as the DSkV's
        dealer at four, has no points in it to compare; all of them when there is no such hand);
        ``share`` all."""
        rules = self.rules
        if len(tied) < 2 or rules.match_tiebreak == "share" or rules.not_applicable("match_tiebreak"):
            return tied
        if rules.match_tiebreak == "most_hands_won":
            key: Sequence[int] = self.hands_won
        else:
            last = next(
                (
                    r.result
                    for r in reversed(self.rounds)
                    if r.result and r.result.scored and set(tied) <= set(r.active_seats)
                ),
                None,
            )
            if last is None:
                return tied
            key = last.points
        best = max(key[s] for s in tied)
        kept = tuple(s for s in tied if key[s] == best)
        if len(kept) < len(tied):
            self.tiebreak = rules.match_tiebreak
        return kept

    def _end(self, winners: Sequence[int]) -> bool:
        """End the match with ``winners``, who take the pot (:meth:`pot_shares`)."""
        self.winners = tuple(winners)
        self.pot_won = self.pot
        for s, share in enumerate(self.pot_shares()):
            self.chips_list[s] += share
        self.pot = 0
        return True

    def pot_shares(self) -> tuple[int, ...]:
        """Per seat, the chips it took from the pot when the match ended (:attr:`pot_won` split among
        the winners); zeros while the match runs and in every match without a pot.

        A shared pot (D19: the last players out together with equal totals) that does not divide
        evenly: RULES.md does not say where the odd chips go. Decision: one each to the winners in
        turn order from the left of the last hand's dealer, as a table deals, so that no seat number
        is favoured (the first seat would otherwise take every odd chip)."""
        shares = [0] * self.players
        if self.pot_won and self.winners:
            share, remainder = divmod(self.pot_won, len(self.winners))
            dealer = self.round.dealer
            first = sorted(self.winners, key=lambda s: (s - dealer - 1) % self.players)[:remainder]
            for s in self.winners:
                shares[s] = share + (1 if s in first else 0)
        return tuple(shares)

    def start_chips(self) -> tuple[int, ...]:
        """Per seat, the chips before the first hand: a position's, or in a fresh rubber the ante
        paid once (``ante_frequency = per_rubber``); zeros otherwise. With every hand's
        :meth:`hand_chips`, the buy-backs' price and :meth:`pot_shares` they add up to :attr:`chips`."""
        if self.position is not None:
            return tuple(self.position.chips or (0,) * self.players)
        if self.is_rubber and self.rules.ante_frequency == "per_rubber":
            return (-self.rules.pot_ante,) * self.players
        return (0,) * self.players

    def ante(self, deal: int) -> tuple[int, ...]:
        """Per seat, the chips paid into the pot before hand ``deal`` (from 1, as :attr:`rounds`
        counts): ``pot_ante`` from every seat dealt in under ``ante_frequency = per_hand``, else zeros."""
        rnd = self.rounds[deal - 1]
        each = self.rules.pot_ante if self.is_rubber and self.rules.ante_frequency == "per_hand" else 0
        return tuple(-each if s in rnd.in_play else 0 for s in range(self.players))

    def knock_money(self, deal: int) -> tuple[int, ...]:
        """Per seat, the knock money of hand ``deal`` (from 1) in a rubber (RULES.md §4.8): the knocker
        or Rummy caller gets ``knock_money`` chips from every other player in the hand (paid as the
        hand is settled); zeros for a hand not scored or not over, and outside a rubber."""
        return self._knock_money_of(self.rounds[deal - 1])

    def _knock_money_of(self, rnd: Round) -> tuple[int, ...]:
        """:meth:`knock_money` of the hand ``rnd`` (the hand being settled need not be in ``rounds``:
        a bot's snapshot of the match keeps only the hand in play)."""
        result = rnd.result
        paid = [0] * self.players
        each = self.rules.knock_money if self.is_rubber else 0
        if each and result is not None and result.scored and result.winner is not None:
            payers = [s for s in rnd.active if s != result.winner]
            for s in payers:
                paid[s] -= each
            paid[result.winner] += each * len(payers)
        return tuple(paid)

    def hand_chips(self, deal: int) -> tuple[int, ...]:
        """Per seat, the chips hand ``deal`` (from 1) moved: its :meth:`ante` and its
        :meth:`knock_money` (the pot taken at the end is apart, :meth:`pot_shares`)."""
        return tuple(a + k for a, k in zip(self.ante(deal), self.knock_money(deal), strict=True))

    def buyback_target(self, seat: int) -> int | None:
        """The total a buy-back by ``seat`` would set (``buyback_target``, D8); ``None`` when it would
        not lower it."""
        own = self.penalties[seat]
        others = [self.penalties[s] for s in self.active_seats if s != seat]
        target = BUYBACK_TARGETS[self.rules.buyback_target](own, others)
        return target if target is not None and target < own else None

    def no_buyback_offer(self, seat: int) -> str | None:
        """Why ``seat`` gets no buy-back offer now (RULES.md §4.8, D8), ``None`` when it may buy back."""
        rules = self.rules
        low, high = rules.buyback_window
        total = self.penalties[seat]
        if not self.is_rubber:
            return "buy-backs exist only in a knock-game rubber"
        if self.eliminated[seat]:
            return f"seat {seat} is out of the rubber"
        if rules.buyback_limit == 0:
            return "this rubber has no buy-backs (buyback_limit = 0)"
        if self.buybacks[seat] >= rules.buyback_limit:
            times = "once" if rules.buyback_limit == 1 else f"{rules.buyback_limit} times"
            return f"seat {seat} already bought back {times}, as often as buyback_limit allows"
        if not low < total < high:
            return f"a buy-back needs a total between {low + 1} and {high - 1}; seat {seat} has {total}"
        if self.buyback_target(seat) is None:
            others = [self.penalties[s] for s in self.active_seats if s != seat]
            if total in others:  # D8's target is the buyer's own total: the buy-back lowers nothing
                return (
                    f"a buy-back would not lower seat {seat}'s {total}: "
                    f"another player in the rubber has {total} too"
                )
            return f"nobody else in the rubber has a total at or below seat {seat}'s {total} to buy back to"
        return None

    def _decide(self, action: Action) -> MatchEvent:
        seat = self.pending_buyback.pop(0)
        event: MatchEvent
        if isinstance(action, BuyBack):
            target = self.buyback_target(seat)
            assert target is not None
            old = self.penalties[seat]
            self.chips_list[seat] -= self.rules.buyback_cost
            self.pot += self.rules.buyback_cost
            self.buybacks[seat] += 1
            self.penalties[seat] = target
            event = MatchEvent(seat, action, self.rules.buyback_cost, target, old, len(self.rounds))
        else:
            event = MatchEvent(seat, action, 0, None, None, len(self.rounds))
        # An earlier buy-back can take away a later offer: one to the buyer's new total lowers nothing.
        self.pending_buyback = [s for s in self.pending_buyback if self.no_buyback_offer(s) is None]
        if not self.pending_buyback:
            assert self.round.result is not None
            self._next_deal(self.round.result)
        return event

    def _next_deal(self, result: RoundResult) -> None:
        if self.redealt and self.redealt[-1] == len(self.rounds):
            self._deal()  # dealt again by the same dealer (unscored_hand = redeal)
            return
        rotation = self.rules.deal_rotation
        active = self.active_seats
        winner = result.winner
        if self.rules.is_gin and winner is not None and result.points[winner] < 0:
            winner = max(active, key=lambda s: result.points[s])  # an undercut: the defender won it
        if rotation == "winner_deals" and winner is not None and winner in active:
            self.dealer = winner
        else:
            step = -1 if rotation == "counterclockwise" else 1
            seat = self.dealer
            for _ in range(self.players):
                seat = (seat + step) % self.players
                if seat in active:
                    break
            self.dealer = seat
        self._deal()

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules} players={self.players} seed={self.seed} hands={self.hands_dealt} "
            f"scores={self.scores} over={self.is_over}>"
        )
