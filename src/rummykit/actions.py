"""Actions a player can take, with a text notation that round-trips.

Notation (one action per line in records; cards as in :mod:`rummykit.cards`, table melds numbered
from 1 in the order they were laid):

=====================================  ==========================================================
``draw``                               take the top card of the stock (Stoß)
``take``                               take the top card of the discard pile (Ablage)
``open 10H JH QH | AS AD AC``          first meld(s) (Erstmeldung), several melds separated by ``|``
``meld 7C 8C 9C``                      a further meld after opening (``|`` for several)
``layoff 5H on 2``                     lay a card off on table meld 2 (anlegen); ``low``/``high``
                                       may follow to choose the end of a run: ``layoff JK on 2 low``
``swap 6C on 3 then meld 8D 9D JK``    exchange jokers of meld 3 (Joker tauschen) for the given
                                       naturals and lay the freed joker(s) in new melds at once;
                                       several naturals: ``swap 6C 6D on 3 then meld …``; with
                                       ``exchanged_joker_destination = hand``: ``swap 6C on 3``;
                                       with ``any_meld_same_turn`` also ``then layoff JK on 2``
``discard QS``                         discard a card (ablegen); discarding the last card goes out
``knock QS``                           knock games: discard ``QS`` face up and knock (klopfen)
``rummy QS``                           knock games: all other cards melded, ``QS`` goes face down
``knock``                              gin: knock; the discard, melds and ``pass`` follow one by one
``layoff 5H``                          gin: lay ``5H`` off onto the knocker's melds (where it fits)
``pass``                               gin: pass on the first upcard, end the knock or the lay-offs,
                                       or let the hand die at the wall
``buyback`` / ``decline``              match decisions of a Viennese rubber (buy back in or not)
=====================================  ==========================================================

Runs are written low to high and the written order fixes what a joker stands for; an annotation
``JK(=7H)`` in an action is read as a plain joker (the position already says what it is).

>>> a = Action.parse("swap 6C on 3 then meld 8D 9D JK")
>>> str(a), Action.parse(str(a)) == a
('swap 6C on 3 then meld 8D 9D JK', True)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from rummykit.cards import NUM_CODES, Card, format_cards
from rummykit.errors import IllegalActionError, NotationError, quoted
from rummykit.melds import End, meld_text_cards

MeldCards = tuple[Card, ...]
"""The cards of one meld in written order."""


class Action:
    """Base of every action; ``Action.parse(text)`` reads any action's notation."""

    __slots__ = ()
    verb: ClassVar[str]

    @staticmethod
    def parse(text: str) -> Action:
        """Parse an action from its notation; see :func:`parse_action`.

        Raises:
            NotationError: the text is not an action.
            TypeError: ``text`` is not a text.
        """
        _check_text(text, "Action.parse")
        return parse_action(text)


def _check_text(text: object, where: str) -> None:
    """Raise :class:`TypeError` unless ``text`` is a text (``where``: the function, for the message)."""
    if not isinstance(text, str):
        raise TypeError(f"{where} takes an action's text such as 'discard QS', not {type(text).__name__}")


def _melds_text(melds: tuple[MeldCards, ...]) -> str:
    return " | ".join(format_cards(m) for m in melds)


def _parse_melds(text: str, what: str) -> tuple[MeldCards, ...]:
    parts = [p.strip() for p in text.split("|")]
    if not text.strip() or any(not p for p in parts):
        raise NotationError(f"{what} needs cards, e.g. '{what} 7C 8C 9C' (melds separated by '|')")
    return tuple(meld_text_cards(p) for p in parts)


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Take the top card of the stock."""

    verb: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard(Action):
    """Take the top card of the discard pile."""

    verb: ClassVar[str] = "take"

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class Open(Action):
    """The opening (Erstmeldung): one or more melds laid at once, together worth at least
    ``opening_min_points``."""

    melds: tuple[MeldCards, ...]
    verb: ClassVar[str] = "open"

    def __str__(self) -> str:
        return f"open {_melds_text(self.melds)}"

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for m in self.melds for c in m)


@dataclass(frozen=True, slots=True)
class MeldAction(Action):
    """One or more further melds laid by a player who has opened."""

    melds: tuple[MeldCards, ...]
    verb: ClassVar[str] = "meld"

    def __str__(self) -> str:
        return f"meld {_melds_text(self.melds)}"

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for m in self.melds for c in m)


@dataclass(frozen=True, slots=True)
class LayOff(Action):
    """Lay one card off on table meld ``target`` (numbered from 1); ``end`` picks a run end."""

    card: Card
    target: int
    end: End | None = None
    verb: ClassVar[str] = "layoff"

    def __str__(self) -> str:
        suffix = f" {self.end}" if self.end else ""
        return f"layoff {self.card} on {self.target}{suffix}"


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Joker exchange: ``cards`` (naturals) go into table meld ``target``, each replacing a joker
    that stands for it (or, under ``complete_four_only``, completing the set), and the freed jokers
    are laid at once in ``melds`` (new melds) or ``layoffs`` (onto table melds)."""

    cards: tuple[Card, ...]
    target: int
    melds: tuple[MeldCards, ...] = ()
    layoffs: tuple[LayOff, ...] = ()
    verb: ClassVar[str] = "swap"

    def __str__(self) -> str:
        text = f"swap {format_cards(self.cards)} on {self.target}"
        if self.melds:
            text += f" then meld {_melds_text(self.melds)}"
        for layoff in self.layoffs:
            text += f" then {layoff}"
        return text


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard a card face up; this ends the turn (and the hand if it was the last card)."""

    card: Card
    verb: ClassVar[str] = "discard"

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Knock(Action):
    """Knock games: discard ``card`` face up and knock with the remaining hand."""

    card: Card
    verb: ClassVar[str] = "knock"

    def __str__(self) -> str:
        return f"knock {self.card}"


@dataclass(frozen=True, slots=True)
class CallRummy(Action):
    """Knock games: every other card forms melds; ``card`` goes face down and the hand ends."""

    card: Card
    verb: ClassVar[str] = "rummy"

    def __str__(self) -> str:
        return f"rummy {self.card}"


@dataclass(frozen=True, slots=True)
class KnockDeclare(Action):
    """Gin: knock now; the knock discard, the melds one by one and ``pass`` follow (RULES.md §5.4).
    At the wall the top discard is taken into the hand with the knock."""

    verb: ClassVar[str] = "knock"

    def __str__(self) -> str:
        return "knock"


@dataclass(frozen=True, slots=True)
class LayOffCard(Action):
    """Gin: the defender lays ``card`` off onto the knocker's melds (wherever it fits)."""

    card: Card
    verb: ClassVar[str] = "layoff"

    def __str__(self) -> str:
        return f"layoff {self.card}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Gin: decline the first upcard, finish laying melds or lay-offs, or let the hand die at the wall."""

    verb: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class BuyBack(Action):
    """Match decision: buy back into the rubber (pay ``buyback_cost`` chips into the pot)."""

    verb: ClassVar[str] = "buyback"

    def __str__(self) -> str:
        return "buyback"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Match decision: decline the buy-back offer."""

    verb: ClassVar[str] = "decline"

    def __str__(self) -> str:
        return "decline"


MOST_CARDS: Final = 2 * 52 + 6
"""The most cards any game deals (two packs and six jokers): an action with more is refused
without its text, which would otherwise fill the message."""


def passes(check: Callable[[Action | str], None], action: Action | str) -> bool:
    """Whether ``check`` (``Round.check``, ``Match.check``) lets ``action`` through: text that is no
    action does not pass."""
    try:
        check(action)
    except (IllegalActionError, NotationError):
        return False
    return True


def canonical_action(action: object) -> Action:
    """``action`` as the engine keeps it: every card a :class:`~rummykit.cards.Card` (a bot that
    rebuilt a move as ``Discard(card=25)`` gets the ace of hearts' ``Card``, so the move's text and
    the record stay notation), every table meld number a positive ``int``. An action already so is
    returned itself.

    Raises:
        IllegalActionError: not an action, a value that is no card's code (0 to 52) or not a
            table meld number; the message quotes at most 40 characters of it.
    """
    if isinstance(action, (Discard, Knock, CallRummy, LayOffCard)):
        card = action.card
        if type(card) is Card:
            return action
        return dataclasses.replace(action, card=_card(card, action.verb))
    if isinstance(action, (Open, MeldAction)):
        melds = [_sequence(m, action.verb) for m in _sequence(action.melds, action.verb)]
        if sum(map(len, melds)) > MOST_CARDS:
            raise IllegalActionError(f"{action.verb}: more than {MOST_CARDS} cards", "card_not_in_hand")
        tuples = type(action.melds) is tuple and all(type(m) is tuple for m in melds)
        if tuples and all(type(c) is Card for m in melds for c in m):
            return action
        return dataclasses.replace(action, melds=tuple(_cards(m, action.verb) for m in melds))
    if isinstance(action, LayOff):
        return _canonical_layoff(action)
    if isinstance(action, Swap):
        verb = action.verb
        given, layoffs = _sequence(action.cards, verb), _sequence(action.layoffs, verb)
        melds = [_sequence(m, verb) for m in _sequence(action.melds, verb)]
        if len(given) + sum(map(len, melds)) + len(layoffs) > MOST_CARDS:
            raise IllegalActionError(f"{verb}: more than {MOST_CARDS} cards", "card_not_in_hand")
        swap = Swap(
            _cards(given, verb),
            _meld_target(action.target, verb),
            tuple(_cards(m, verb) for m in melds),
            tuple(_canonical_layoff(lo) for lo in layoffs),
        )
        cards_kept = all(type(c) is Card for c in given) and all(type(c) is Card for m in melds for c in m)
        layoffs_kept = all(a is b for a, b in zip(layoffs, swap.layoffs, strict=True))
        kept = swap == action and cards_kept and layoffs_kept and type(action.target) is int
        return action if kept else swap
    if isinstance(action, Action):
        return action
    raise IllegalActionError(f"not an action: {quoted(action)}", "not_an_action")


def _sequence(value: object, verb: str) -> tuple[object, ...] | list[object]:
    if not isinstance(value, (tuple, list)):
        raise IllegalActionError(f"{verb}: {quoted(value)} is not a sequence of cards", "not_a_card")
    return value


def _card(value: object, verb: str) -> Card:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < NUM_CODES:
        return Card(value)
    raise IllegalActionError(
        f"{verb}: {quoted(value)} is not a card (a Card, or its code from 0 to {NUM_CODES - 1})",
        "not_a_card",
    )


def _cards(value: object, verb: str) -> tuple[Card, ...]:
    return tuple(_card(c, verb) for c in _sequence(value, verb))


def _meld_target(value: object, verb: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return int(value)
    raise IllegalActionError(
        f"{verb}: {quoted(value)} is not a table meld number (1, 2, …)", "no_such_meld"
    )


def _canonical_layoff(action: object) -> LayOff:
    if not isinstance(action, LayOff):
        raise IllegalActionError(f"swap: {quoted(action)} is not a lay-off", "not_an_action")
    card, target = action.card, action.target
    if type(card) is Card and type(target) is int and target >= 1 and action.end in (None, "low", "high"):
        return action
    if action.end not in (None, "low", "high"):
        raise IllegalActionError(
            f"layoff: {quoted(action.end)} is not a run end (low or high)", "not_an_action"
        )
    return LayOff(_card(card, action.verb), _meld_target(target, action.verb), action.end)


_BARE: Final[dict[str, Action]] = {
    "draw": Draw(),
    "take": TakeDiscard(),
    "buyback": BuyBack(),
    "decline": Decline(),
    "pass": Pass(),
    "knock": KnockDeclare(),
}
ACTION_VERBS: Final = frozenset(
    ("draw", "take", "open", "meld", "layoff", "swap", "discard", "knock", "rummy", "pass", "buyback",
     "decline")
)  # fmt: skip
"""The first word of every action's notation."""
_LAYOFF: Final = re.compile(r"^layoff\s+(\S+)\s+on\s+([0-9]+)(?:\s+(low|high))?$", re.IGNORECASE)
_SWAP: Final = re.compile(r"^swap\s+(.+?)\s+on\s+([0-9]+)((?:\s+then\s+.+)?)$", re.IGNORECASE)


MAX_MELD_NUMBER: Final = 999
"""The largest table meld number notation accepts: more melds than any table holds (two decks and
their jokers make at most 36), and short enough that a message naming the action stays short."""


def _meld_number(digits: str, text: str) -> int:
    """A table meld's number as written in ``text``; they are numbered from 1."""
    if len(digits.lstrip("0")) > len(str(MAX_MELD_NUMBER)):
        raise NotationError(f"table melds are numbered from 1 to {MAX_MELD_NUMBER}: {quoted(text)}")
    number = int(digits.lstrip("0") or "0")  # short now, however many zeros led it
    if number < 1:
        raise NotationError(f"table melds are numbered from 1: {quoted(text)}")
    return number


def _parse_layoff(text: str) -> LayOff:
    m = _LAYOFF.match(text.strip())
    if m is None:
        raise NotationError(
            f"not a lay-off: {quoted(text)} (write e.g. 'layoff 5H on 2' or 'layoff JK on 2 low')"
        )
    card = meld_text_cards(m.group(1))
    if len(card) != 1:
        raise NotationError(f"a lay-off moves one card: {quoted(text)}")
    end: Literal["low", "high"] | None = None
    if m.group(3):
        end = "low" if m.group(3).lower() == "low" else "high"
    return LayOff(card[0], _meld_number(m.group(2), text), end)


def parse_action(text: str) -> Action:
    """Parse an action from its notation (case-insensitive).

    Raises:
        NotationError: the text is not an action; the message shows the expected form.
        TypeError: ``text`` is not a text (an :class:`Action` needs no parsing).
    """
    _check_text(text, "parse_action")
    stripped = " ".join(text.strip().split())
    verb, _, rest = stripped.partition(" ")
    verb = verb.lower()
    if verb in ("draw", "take", "buyback", "decline", "pass") or (verb == "knock" and not rest):
        if rest:
            raise NotationError(f"{verb!r} takes no arguments: {quoted(text)}")
        return _BARE[verb]
    if verb == "open":
        return Open(_parse_melds(rest, "open"))
    if verb == "meld":
        return MeldAction(_parse_melds(rest, "meld"))
    if verb == "layoff":
        if " on " not in f" {rest.lower()} ":
            cards = meld_text_cards(rest) if rest else ()
            if len(cards) != 1:
                raise NotationError(
                    f"a lay-off moves one card: {quoted(text)} (e.g. 'layoff 5H on 2', gin: 'layoff 5H')"
                )
            return LayOffCard(cards[0])
        return _parse_layoff(stripped)
    if verb in ("discard", "knock", "rummy"):
        cards = meld_text_cards(rest) if rest else ()
        if len(cards) != 1:
            raise NotationError(f"{verb!r} needs exactly one card, e.g. '{verb} QS': {quoted(text)}")
        card = cards[0]
        return Discard(card) if verb == "discard" else Knock(card) if verb == "knock" else CallRummy(card)
    if verb == "swap":
        m = _SWAP.match(stripped)
        if m is None:
            raise NotationError(
                f"not a joker exchange: {quoted(text)} (write e.g. 'swap 6C on 3 then meld 8D 9D JK')"
            )
        naturals = meld_text_cards(m.group(1))
        melds: tuple[MeldCards, ...] = ()
        layoffs: list[LayOff] = []
        clauses = [c.strip() for c in re.split(r"\s+then\s+", m.group(3), flags=re.IGNORECASE) if c.strip()]
        for clause in clauses:
            word, _, body = clause.partition(" ")
            if word.lower() == "meld" and not melds and not layoffs:
                melds = _parse_melds(body, "meld")
            elif word.lower() == "layoff":
                layoffs.append(_parse_layoff(clause))
            else:
                raise NotationError(
                    f"after 'then' write 'meld …' (once, first) or 'layoff …': {quoted(text)}"
                )
        return Swap(naturals, _meld_number(m.group(2), text), melds, tuple(layoffs))
    raise NotationError(
        f"unknown action {quoted(text)}; actions: draw, take, open, meld, layoff, swap, discard, knock, "
        "rummy, pass, buyback, decline"
    )
