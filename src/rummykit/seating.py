"""The draw for the first dealer at the start of a match (RULES.md §3.2, ``seat_draw``, D21).

``seat_draw = high_card``: the pack is spread face down and every player draws one card; aces rank
highest, then K, Q, J, 10 … 2. The highest card deals first. A player who draws a joker draws again,
and so do the players tied for the highest card, until one card is highest
(``draw_ties_and_jokers = redraw``). ``seat_draw = random``: the first dealer is drawn by lot, as
tournament seating does, and nobody shows a card.

rummykit keeps the seats the players took (a table's seats are filled before the first deal), so
the draw decides who deals first; ties further down the order change nothing and are not redrawn.

>>> from rummykit.rules import Rules
>>> d = draw_first_dealer(Rules.preset("german"), 3, seed=4)
>>> d.describe(["Anna", "Ben", "Cleo"])
['Anna draws 7♦, Ben draws 4♥, Cleo draws J♦ and deals first']
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import JOKER_CODE, Card, build_deck, parse_cards
from rummykit.errors import NotationError, quoted
from rummykit.rules import Rules, SeatDraw


def _drawn_rank(card: Card | None) -> int:
    """:func:`draw_rank` of a drawn card; no card (``None``) ranks as a joker. The ace of clubs is card
    0, so a truth test would wrongly treat it as no card."""
    return draw_rank(JOKER_CODE if card is None else card)


def draw_rank(card: int) -> int:
    """Rank of a card in the seat draw: ace 14 (highest), king 13 … two 2; a joker 0 (drawn again)."""
    if card == JOKER_CODE:
        return 0
    rank = card % 13 + 1
    return 14 if rank == 1 else rank


@dataclass(frozen=True, slots=True)
class FirstDealerDraw:
    """How the first dealer was found: ``rounds`` holds, per round of drawing, each seat's card
    (``None`` for a seat that did not draw in that round); empty for ``random``."""

    method: SeatDraw
    rounds: tuple[tuple[Card | None, ...], ...]
    dealer: int

    @classmethod
    def from_rounds(cls, rounds: Sequence[Sequence[Card | None]], players: int) -> FirstDealerDraw:
        """The high-card draw with these cards; the dealer follows from them.

        Raises:
            NotationError: the rounds do not make a complete draw (wrong seats, no single highest).
        """
        cards: list[Card | None] = [None] * players
        drew = set(range(players))
        for i, row in enumerate(rounds):
            if len(row) != players or {s for s, c in enumerate(row) if c is not None} != drew:
                raise NotationError(f"seat draw: round {i + 1} needs cards from exactly seats {sorted(drew)}")
            for s, c in enumerate(row):
                if c is not None:
                    cards[s] = c
            drew = _redraws(cards)
            if not drew:
                best = max(range(players), key=lambda s: _drawn_rank(cards[s]))
                return cls("high_card", tuple(tuple(r) for r in rounds), best)
        raise NotationError("seat draw: the rounds end before one card is highest")

    def drawn(self) -> list[list[tuple[int, Card]]]:
        """Per round of drawing, ``(seat, card)`` in seat order; the dealer's winning card comes last."""
        out = []
        for i, row in enumerate(self.rounds):
            cards = [(s, c) for s, c in enumerate(row) if c is not None]
            if i == len(self.rounds) - 1:
                cards.sort(key=lambda sc: sc[0] == self.dealer)
            out.append(cards)
        return out

    @property
    def dealer_card(self) -> Card | None:
        """The card that made the dealer (their last draw); ``None`` for seats by lot."""
        drawn = [row[self.dealer] for row in self.rounds if row[self.dealer] is not None]
        return drawn[-1] if drawn else None

    @property
    def dealer_drew_last(self) -> bool:
        """Whether the dealer drew in the last round of drawing. They need not have: with the king
        drawn and a joker beside it, only the joker's player draws again (``A draws a joker, B draws
        K♥; A draws again``), and B deals first if A's new card is lower."""
        return bool(self.rounds) and self.rounds[-1][self.dealer] is not None

    def describe(self, names: Sequence[str]) -> list[str]:
        """The draw in words, one line per round: ``Anna draws K♠ and deals first``."""
        if self.method == "random":
            name = names[self.dealer]
            return [f"Seats by lot: {name} {_verb(name, 'deal')} first"]
        lines = []
        rounds = self.drawn()
        for i, cards in enumerate(rounds):
            parts = [f"{names[s]} {_verb(names[s], 'draw')} {card_text(c)}" for s, c in cards]
            if i == len(rounds) - 1:
                dealer = names[self.dealer]
                if self.dealer_drew_last:  # their card comes last: "… Ben draws K♥ and deals first"
                    parts[-1] += f" and {_verb(dealer, 'deal')} first"
                else:
                    assert self.dealer_card is not None
                    parts[-1] += (
                        f"; {dealer} {_verb(dealer, 'deal')} first with {card_text(self.dealer_card)}"
                    )
                lines.append(", ".join(parts))
            else:
                again = [names[s] for s in _redraws_after(self.rounds[: i + 1], len(self.rounds[i]))]
                verb = _verb(again[0], "draw") if len(again) == 1 else "draw"
                lines.append(", ".join(parts) + f"; {_join(again)} {verb} again")
        return lines

    def to_dict(self) -> dict[str, object]:
        return {
            "method": self.method,
            "dealer": self.dealer,
            "rounds": [[None if c is None else str(c) for c in row] for row in self.rounds],
        }

    @classmethod
    def from_dict(cls, data: object, players: int, rules: Rules | None = None) -> FirstDealerDraw:
        """Read the form of :meth:`to_dict` (a record's ``seat_draw``); with ``rules``, its cards are
        checked against their deck (:func:`_check_deck`).

        Raises:
            NotationError: a malformed draw, or cards the deck cannot have given.
        """
        if not isinstance(data, dict) or data.get("method") not in ("high_card", "random"):
            raise NotationError("record field 'seat_draw' must say method high_card or random")
        if data["method"] == "random":
            dealer = data.get("dealer")
            if type(dealer) is not int or not 0 <= dealer < players:
                raise NotationError("record field 'seat_draw' needs the dealer's seat")
            return cls("random", (), dealer)
        rows = data.get("rounds")
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise NotationError("record field 'seat_draw' needs its rounds of cards")
        rounds = [[_drawn_card(c) for c in row] for row in rows]
        if rules is not None:
            _check_deck(rounds, rules)
        try:
            draw = cls.from_rounds(rounds, players)
        except NotationError:
            earlier = cls._earlier_draw(rounds, data.get("dealer"), players)
            if earlier is None:
                raise
            return earlier
        if data.get("dealer", draw.dealer) != draw.dealer:
            return cls._earlier_draw(rounds, data.get("dealer"), players) or draw
        return draw

    @classmethod
    def _earlier_draw(
        cls, rounds: Sequence[Sequence[Card | None]], dealer: object, players: int
    ) -> FirstDealerDraw | None:
        """A draw as earlier versions of rummykit saved it, which ranked the ace of clubs (card 0) as
        a joker: A♣ lost the deal, or two of them were not drawn again. Its stored dealer stands, so
        that the records and saved games of those matches still load and replay as they were
        played; ``None`` where the rows or the dealer do not even fit the table."""
        if type(dealer) is not int or not 0 <= dealer < players or not rounds:
            return None
        if any(len(row) != players for row in rounds) or any(c is None for c in rounds[0]):
            return None
        if not any(c is not None and int(c) == 0 for row in rounds for c in row):
            return None  # only an A♣ draw can have been ranked the old way
        return cls("high_card", tuple(tuple(row) for row in rounds), dealer)


def _drawn_card(text: object) -> Card | None:
    """One entry of a stored draw's round: ``None`` (the seat did not draw) or the text of one card."""
    if text is None:
        return None
    cards = parse_cards(text) if isinstance(text, str) else ()
    if len(cards) != 1:
        raise NotationError(f"record field 'seat_draw': {quoted(text)} is not one card")
    return cards[0]


def _check_deck(rounds: Sequence[Sequence[Card | None]], rules: Rules) -> None:
    """Refuse a stored draw that ``rules``' deck cannot have given: as :func:`draw_first_dealer`
    draws, each card is taken from the spread pack, which is gathered and spread again when it holds
    fewer cards than seats that draw; so between two spreads no card comes more often than the deck
    holds it (none of a joker where the rules play without)."""
    deck = Counter(build_deck(rules.num_decks, rules.jokers_total))
    left, remaining = Counter(deck), deck.total()
    for row in rounds:
        drawn = [c for c in row if c is not None]
        if remaining < len(drawn):
            left, remaining = Counter(deck), deck.total()
        for card in drawn:
            if left[card] <= 0:
                raise NotationError(
                    f"record field 'seat_draw' draws {card} more often than the deck of these rules holds it"
                )
            left[card] -= 1
            remaining -= 1


def _redraws(cards: Sequence[Card | None]) -> set[int]:
    """Seats that must draw again: jokers, and the seats tied for the highest card."""
    jokers = {s for s, c in enumerate(cards) if c is None or c == JOKER_CODE}
    ranked = [s for s in range(len(cards)) if s not in jokers]
    if not ranked:
        return jokers
    best = max(_drawn_rank(cards[s]) for s in ranked)
    top = {s for s in ranked if _drawn_rank(cards[s]) == best}
    return jokers | (top if len(top) > 1 else set())


def _redraws_after(rounds: Sequence[Sequence[Card | None]], players: int) -> list[int]:
    cards: list[Card | None] = [None] * players
    for row in rounds:
        for s, c in enumerate(row):
            if c is not None:
                cards[s] = c
    return sorted(_redraws(cards))


_TIE_RULES: Final[Mapping[str, Callable[[Sequence[Card | None]], set[int]]]] = {"redraw": _redraws}
"""``draw_ties_and_jokers``: who draws again after a round of drawing (D21)."""


def card_text(card: Card) -> str:
    """A drawn card for display: ``K♠``, or ``a joker``."""
    return "a joker" if card == JOKER_CODE else card.symbol()


def _verb(name: str, verb: str) -> str:
    """``draws`` after a name, ``draw`` after "You" (the terminal's name for its player)."""
    return verb if name == "You" else verb + "s"


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def draw_first_dealer(rules: Rules, players: int, seed: int) -> FirstDealerDraw:
    """Make the draw of ``rules.seat_draw`` for ``players`` seats; ``seed`` makes it repeatable."""
    rng = random.Random(f"rummykit-seat-draw-{seed}")
    if rules.seat_draw == "random":
        return FirstDealerDraw("random", (), rng.randrange(players))
    redraws = _TIE_RULES[rules.draw_ties_and_jokers]
    spread = list(build_deck(rules.num_decks, rules.jokers_total))
    rng.shuffle(spread)
    cards: list[Card | None] = [None] * players
    rounds: list[tuple[Card | None, ...]] = []
    drawing = set(range(players))
    while drawing:
        if len(spread) < len(drawing):  # every card drawn: gather the pack and spread it again
            spread = list(build_deck(rules.num_decks, rules.jokers_total))
            rng.shuffle(spread)
        row = tuple(Card(spread.pop()) if s in drawing else None for s in range(players))
        rounds.append(row)
        for s, c in enumerate(row):
            if c is not None:
                cards[s] = c
        drawing = redraws(cards)
    return FirstDealerDraw.from_rounds(rounds, players)
