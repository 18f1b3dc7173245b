"""Melds (Figuren): sets (Sätze) and runs (Folgen), their legality, value, lay-offs and joker exchange.

Rules (RULES.md §2.3–2.5):

* A **set** holds ``set_size_min``–``set_size_max`` (3–4) cards of one rank; its naturals have
  pairwise different suits. A joker in a set stands for the set's rank in a suit that no natural of
  the set has; two jokers stand for two different missing suits.
* A **run** holds 3+ cards of one suit on consecutive positions, A = 1 (``ace_low_in_runs``) or
  14 (``ace_high_in_runs``), 2 … K = 2 … 13. No wrap-around (``K A 2``). A 14-card run ``A … K A``
  needs ``allow_ace_both_ends``. The written order fixes the positions, so it fixes what each joker
  stands for: ``5H 6H JK`` is ``JK(=7H)`` and ``JK 5H 6H`` is ``JK(=4H)`` (decision D12).
* Jokers per meld follow ``joker_limit`` (default: at least one natural and no more jokers than
  naturals) and, in runs, at most ``max_adjacent_jokers`` jokers on consecutive positions.

The **opening value** (``meld.value``) counts 2–10 by pips, J Q K as 10, an ace as 1 at the bottom
of a run and 11 in a set or at the top, and a joker as the card it stands for.

>>> from rummykit.rules import Rules
>>> german = Rules.preset("german")
>>> m = Meld.parse("JC QC JK AC", german)
>>> m.kind, m.value, str(m)
(<MeldKind.RUN: 'run'>, 41, 'JC QC JK(=KC) AC')
>>> Meld.parse("6S 6H JK", german).joker_assignments()
((2, 'JK = 6C or 6D'),)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from rummykit.cards import JOKER, JOKER_CODE, NUM_RANKS, RANKS, SUITS, Card, format_cards, parse_cards
from rummykit.errors import IllegalMeldError, NotationError, quoted
from rummykit.rules import Rules, check_rules

LOW_ACE: Final = 1
HIGH_ACE: Final = 14
"""Run positions of an ace at the bottom (A-2-3) and at the top (Q-K-A)."""

End = Literal["low", "high"]


class MeldKind(enum.StrEnum):
    """Set (Satz) or run (Folge)."""

    SET = "set"
    RUN = "run"


_SET: Final = MeldKind.SET
_RUN: Final = MeldKind.RUN
# Enum members as module constants: ``MeldKind.X`` is a class attribute lookup costing ~0.3 us on
# Python 3.11, and meld properties (``is_set``, ``value``, lay-offs) are read on every turn.


def position_rank(position: int) -> int:
    """The rank (1 = ace … 13 = king) on a run position (1 … 14)."""
    return 1 if position == HIGH_ACE else position


def position_value(position: int) -> int:
    """Opening value of the card on a run position: low ace 1, 2–10 pips, courts 10, high ace 11."""
    if position == HIGH_ACE:
        return 11
    return 10 if position > 10 else position


_VALUE_BELOW: Final = tuple(sum(position_value(p) for p in range(1, q)) for q in range(HIGH_ACE + 2))
"""Summed opening value of the run positions below each position (index 1 … 15): a run's value is a
difference of two entries."""


def rank_value(rank: int) -> int:
    """Opening value of a card of ``rank`` in a set: ace 11, courts 10, pips face value."""
    if rank == 1:
        return 11
    return 10 if rank > 10 else rank


def position_bounds(rules: Rules) -> tuple[int, int]:
    """Lowest and highest run position the rules allow (ace low / ace high options)."""
    return (LOW_ACE if rules.ace_low_in_runs else 2, HIGH_ACE if rules.ace_high_in_runs else 13)


SET_MIN_NATURALS: Final = 2
"""Natural cards a set needs, under every ``joker_limit`` (decision of this engine).

RULES.md §2.3 lets ``joker_limit = at_least_one_natural`` make a meld of one natural card and
jokers, a set or a run. Melds are written as their cards (``AC JK JK``), and a set is told from a
run by two naturals of one rank: with a single natural the cards read as a run in the written order
(the run A-2-3 of clubs), so a set of one ace and two jokers could be valued but never laid. One
natural with jokers is therefore a run only; the other limits need two naturals for any meld with
a joker anyway."""


def joker_count_problem(naturals: int, jokers: int, rules: Rules) -> str | None:
    """Why ``naturals`` natural cards with ``jokers`` jokers break ``joker_limit``, or ``None``."""
    limit = rules.joker_limit
    if naturals == 0:
        return "a meld needs at least one natural card"
    if limit == "jokers_le_naturals" and jokers > naturals:
        if naturals == 1:
            return "a meld may not consist of one natural card and two or more jokers"
        return f"{jokers} jokers with only {naturals} natural cards (jokers_le_naturals)"
    if limit == "min_two_naturals" and naturals < 2:
        return "a meld needs at least two natural cards (min_two_naturals)"
    if limit == "max_one_joker_per_meld":
        if jokers > 1:
            return "at most one joker per meld (max_one_joker_per_meld)"
        if naturals < 2:
            return "a meld needs at least two natural cards (max_one_joker_per_meld)"
    return None


def _longest_joker_streak(cards: Sequence[int]) -> int:
    best = streak = 0
    for c in cards:
        streak = streak + 1 if c == JOKER_CODE else 0
        best = max(best, streak)
    return best


def _starts(cards: Sequence[Card]) -> set[int]:
    """Run positions where ``cards`` (one suit, in this order) could start, ignoring the ace options."""
    starts: set[int] | None = None
    for i, c in enumerate(cards):
        if c != JOKER_CODE:
            here = {p - i for p in ((LOW_ACE, HIGH_ACE) if c.rank == 1 else (c.rank,))}
            starts = here if starts is None else starts & here
    return starts or set()


_ANNOTATED: Final = re.compile(r"^JK\(=([^)]*)\)$", re.IGNORECASE)


def _parse_meld_tokens(text: str) -> tuple[tuple[Card, ...], tuple[Card | None, ...]]:
    """Cards of a meld text and, per card, the declared represented card of an annotated joker."""
    cards: list[Card] = []
    declared: list[Card | None] = []
    for token in text.replace(",", " ").split():
        m = _ANNOTATED.match(token)
        if m:
            target = Card.parse(m.group(1))
            if target.is_joker:
                raise NotationError(f"a joker cannot stand for a joker: {quoted(token)}")
            cards.append(JOKER)
            declared.append(target)
        else:
            cards.append(Card.parse(token))
            declared.append(None)
    if not cards:
        raise NotationError(f"no cards in meld text {quoted(text)}")
    return tuple(cards), tuple(declared)


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid set or run. Build with :meth:`parse` or :meth:`from_cards`; never invalid.

    ``cards`` holds runs in position order (low to high) and sets in the order written.
    ``start``/``suit`` describe a run (first position, suit index); ``rank`` describes a set.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    start: int = 0
    suit: int = -1
    rank: int = 0

    # Construction -------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, rules: Rules) -> Meld:
        """Parse a meld; the written order fixes joker positions in a run.

        Jokers may be annotated ``JK(=7H)``; in a run the annotation must match the joker's position,
        in a set it must name the set's rank and a missing suit (the suit stays open, §2.4).

        >>> from rummykit.rules import Rules
        >>> str(Meld.parse("JK KH AH", Rules.preset("german")))
        'JK(=QH) KH AH'

        Raises:
            NotationError: a token is not a card.
            IllegalMeldError: the cards form no valid meld; ``rule`` names the broken rule.
            TypeError: ``text`` is not a text, or ``rules`` not a :class:`Rules` (a preset's name is
                not one: ``Rules.preset("german")`` makes it).
        """
        if not isinstance(text, str):
            raise TypeError(f"Meld.parse takes a meld's text such as '5H 6H 7H', not {type(text).__name__}")
        check_rules(rules)
        cards, declared = _parse_meld_tokens(text)
        return cls._build(cards, declared, rules)

    @classmethod
    def from_cards(cls, cards: Iterable[int], rules: Rules) -> Meld:
        """The meld formed by ``cards`` in the given order (same reading as :meth:`parse`).

        Raises:
            IllegalMeldError: the cards form no valid meld.
        """
        known = _built_melds(rules)
        if type(cards) is tuple:
            meld = known.get(cards)  # a tuple of ints hashes and compares as the tuple of its cards
            if meld is not None:
                return meld
        faces = tuple(Card(c) for c in cards)
        meld = known.get(faces)
        if meld is None:
            check_rules(rules)  # only here: a table of built melds is kept for Rules alone
            meld = Meld._build(faces, (None,) * len(faces), rules)  # raises for an invalid meld
            if len(known) >= _BUILT_MELDS_PER_RULES:
                known.clear()
            known[faces] = meld
        return meld

    @classmethod
    def of(cls, kind: str, cards: str, *, start: int = 0, suit: str = "", rank: int = 0) -> Meld:
        """The meld with exactly these fields: what ``repr`` writes.

        Only the shape is checked, which holds under every rule set: a run's naturals stand on their
        positions (``start`` onwards) in ``suit``, a set's naturals share ``rank``. Whether the rules
        in force allow the meld is for :meth:`parse` and :meth:`from_cards` to say.

        >>> from rummykit.rules import Rules
        >>> meld = Meld.parse("5H 6H JK", Rules.preset("german"))
        >>> meld
        Meld.of('run', '5H 6H JK', start=5, suit='H')
        >>> eval(repr(meld)) == meld
        True

        Raises:
            NotationError: a card text is not a card.
            IllegalMeldError: the fields do not describe a meld of that shape.
        """
        faces = parse_cards(cards)
        naturals = [c for c in faces if c != JOKER_CODE]
        shape = f"{kind} {cards!r}"
        if kind == _SET:
            if not naturals or any(c.rank != rank for c in naturals):
                raise IllegalMeldError(f"{shape}: a set's naturals must all have rank {rank}", "meld_shape")
            return cls(_SET, faces, rank=rank)
        if kind != _RUN or suit not in SUITS or len(suit) != 1:
            raise IllegalMeldError(f"{shape}: kind must be 'set' or 'run' with a suit letter", "meld_shape")
        index = SUITS.index(suit)
        placed = all(
            c == JOKER_CODE or (c.suit == index and c.rank == position_rank(start + i))
            for i, c in enumerate(faces)
        )
        if not naturals or not placed or not LOW_ACE <= start <= start + len(faces) - 1 <= HIGH_ACE:
            raise IllegalMeldError(f"{shape}: the naturals do not stand on positions {start}…", "meld_shape")
        return cls(_RUN, faces, start, index)

    @classmethod
    def _build(cls, cards: tuple[Card, ...], declared: tuple[Card | None, ...], rules: Rules) -> Meld:
        naturals = [c for c in cards if c != JOKER_CODE]
        jokers = len(cards) - len(naturals)
        text = " ".join(str(c) for c in cards)
        if len(cards) < 3:
            raise IllegalMeldError(f"{text}: a meld needs at least 3 cards", "meld_size")
        problem = joker_count_problem(len(naturals), jokers, rules)
        if problem is not None:
            raise IllegalMeldError(f"{text}: {problem}", "joker_limit")
        ranks = {c.rank for c in naturals}
        suits = {c.suit for c in naturals}
        set_declared = any(d is not None and d.rank == naturals[0].rank for d in declared) and (
            len(ranks) == 1
        )
        if len(ranks) == 1 and len(naturals) >= SET_MIN_NATURALS:
            return cls._build_set(cards, declared, rules, text)
        if set_declared:
            raise IllegalMeldError(
                f"{text}: a set needs two natural cards (one natural card with jokers is a run)",
                "joker_limit",
            )
        if len(suits) == 1:
            return cls._build_run(cards, declared, rules, text)
        raise IllegalMeldError(
            f"{text}: not a set (the ranks differ) and not a run (the suits differ)", "meld_shape"
        )

    @classmethod
    def _build_set(
        cls, cards: tuple[Card, ...], declared: tuple[Card | None, ...], rules: Rules, text: str
    ) -> Meld:
        naturals = [c for c in cards if c != JOKER_CODE]
        rank = naturals[0].rank
        if len(cards) > rules.set_size_max:
            raise IllegalMeldError(f"{text}: a set holds at most {rules.set_size_max} cards", "set_size_max")
        if len(cards) < rules.set_size_min:
            raise IllegalMeldError(f"{text}: a set needs at least {rules.set_size_min} cards", "set_size_min")
        suits = [c.suit for c in naturals]
        if rules.set_distinct_suits and len(set(suits)) != len(suits):
            raise IllegalMeldError(
                f"{text}: the cards of a set must have different suits", "set_distinct_suits"
            )
        declared_suits = [d.suit for d in declared if d is not None]
        if len(set(declared_suits)) != len(declared_suits):
            raise IllegalMeldError(
                f"{text}: two jokers in a set stand for two different suits", "joker_assignment"
            )
        for d in declared:
            if d is not None and (d.rank != rank or d.suit in suits):
                raise IllegalMeldError(
                    f"{text}: a joker in this set stands for a {RANKS[rank - 1]} of a missing suit, not {d}",
                    "joker_assignment",
                )
        return cls(_SET, cards, rank=rank)

    @classmethod
    def _build_run(
        cls, cards: tuple[Card, ...], declared: tuple[Card | None, ...], rules: Rules, text: str
    ) -> Meld:
        n = len(cards)
        suit = next(c.suit for c in cards if c != JOKER_CODE)
        lo, hi = position_bounds(rules)
        candidates: set[int] | None = None
        for d in declared:
            if d is not None and d.suit != suit:
                raise IllegalMeldError(
                    f"{text}: a joker in this run must stand for a card of its suit, not {d}",
                    "joker_assignment",
                )
        for i, target in enumerate(cards):
            if target == JOKER_CODE:
                continue
            if target.suit != suit:
                raise IllegalMeldError(
                    f"{text}: a joker in this run must stand for a card of its suit, not {target}",
                    "joker_assignment",
                )
            positions = {LOW_ACE, HIGH_ACE} if target.rank == 1 else {target.rank}
            starts = {p - i for p in positions}
            candidates = starts if candidates is None else candidates & starts
        assert candidates is not None  # a run has at least one natural
        valid = sorted(s for s in candidates if lo <= s and s + n - 1 <= hi)
        if not valid:
            raise cls._run_error(cards, rules, text, candidates, lo, hi)
        consistent = [
            s
            for s in valid
            if all(d is None or d.rank == position_rank(s + i) for i, d in enumerate(declared))
        ]
        if not consistent:
            wrong = next(
                (i, d)
                for i, d in enumerate(declared)
                if d is not None and d.rank != position_rank(valid[0] + i)
            )
            raise IllegalMeldError(
                f"{text}: the joker in place {wrong[0] + 1} stands for "
                f"{Card.of(position_rank(valid[0] + wrong[0]), suit)}, not {wrong[1]}",
                "joker_assignment",
            )
        start = consistent[0]
        if start == LOW_ACE and start + n - 1 == HIGH_ACE and not rules.allow_ace_both_ends:
            raise IllegalMeldError(
                f"{text}: a run may not hold the ace at both ends (allow_ace_both_ends is off)",
                "allow_ace_both_ends",
            )
        if rules.max_adjacent_jokers is not None:
            streak = _longest_joker_streak(cards)
            if streak > rules.max_adjacent_jokers:
                raise IllegalMeldError(
                    f"{text}: {streak} jokers side by side; max_adjacent_jokers is "
                    f"{rules.max_adjacent_jokers}",
                    "max_adjacent_jokers",
                )
        return cls(_RUN, cards, start=start, suit=suit)

    @staticmethod
    def _run_error(
        cards: tuple[Card, ...], rules: Rules, text: str, candidates: set[int], lo: int, hi: int
    ) -> IllegalMeldError:
        n = len(cards)
        if not candidates:
            # The naturals do not line up even with aces at either end: try round the corner.
            first = next(i for i, c in enumerate(cards) if c != JOKER_CODE)
            base = cards[first].rank - first
            wrapped = all(
                c == JOKER_CODE or (c.rank - (base + i)) % NUM_RANKS == 0 for i, c in enumerate(cards)
            )
            if wrapped:
                return IllegalMeldError(
                    f"{text}: runs do not go round the corner (K-A-2 is not allowed)",
                    "run_wraparound",
                )
            if _starts(cards[::-1]):
                return IllegalMeldError(
                    f"{text}: runs are written low to high: {format_cards(cards[::-1])}", "run_sequence"
                )
            return IllegalMeldError(
                f"{text}: the cards of a run must follow each other, written low to high (like 5H 6H 7H)",
                "run_sequence",
            )
        start = min(candidates, key=lambda s: abs(s - max(lo, min(s, hi - n + 1))))
        if start < lo:
            if lo > LOW_ACE and start + 0 <= LOW_ACE <= start + n - 1:
                return IllegalMeldError(
                    f"{text}: an ace may not be low in a run (ace_low_in_runs is off)",
                    "ace_low_in_runs",
                )
            return IllegalMeldError(f"{text}: nothing can come below a low ace", "run_bounds")
        if hi < HIGH_ACE and start <= HIGH_ACE <= start + n - 1:
            return IllegalMeldError(
                f"{text}: an ace may not be high in a run (ace_high_in_runs is off)",
                "ace_high_in_runs",
            )
        return IllegalMeldError(f"{text}: nothing can come above a high ace", "run_bounds")

    # Properties ---------------------------------------------------------------------------------
    @property
    def is_run(self) -> bool:
        return self.kind is _RUN

    @property
    def is_set(self) -> bool:
        return self.kind is _SET

    @property
    def end(self) -> int:
        """Run: the highest position (``start + len - 1``)."""
        return self.start + len(self.cards) - 1

    @property
    def jokers(self) -> int:
        """Number of jokers in the meld."""
        return self.cards.count(JOKER)

    @property
    def naturals(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c != JOKER_CODE)

    @property
    def value(self) -> int:
        """Opening value (RULES.md §2.2): jokers count as the card they stand for."""
        if self.kind is _SET:
            return rank_value(self.rank) * len(self.cards)
        end = self.start + len(self.cards)  # one past the last position
        if self.start > 0 and end < len(_VALUE_BELOW):
            return _VALUE_BELOW[end] - _VALUE_BELOW[self.start]
        return sum(position_value(p) for p in range(self.start, end))

    def missing_suits(self) -> tuple[int, ...]:
        """Set: the suits no natural of the set has, in suit order."""
        used = {c.suit for c in self.cards if c != JOKER_CODE}
        return tuple(s for s in range(len(SUITS)) if s not in used)

    def represented(self, index: int) -> tuple[Card, ...]:
        """The card(s) the card at ``index`` stands for: itself for a natural; for a joker the card on
        its run position, or in a set every missing-suit card of the set's rank."""
        card = self.cards[index]
        if card != JOKER_CODE:
            return (card,)
        if self.kind is _RUN:
            return (Card.of(position_rank(self.start + index), self.suit),)
        return tuple(Card.of(self.rank, s) for s in self.missing_suits())

    def joker_assignments(self) -> tuple[tuple[int, str], ...]:
        """For each joker, its index and what it stands for in words (``JK = 6C or 6D``)."""
        return tuple(
            (i, "JK = " + " or ".join(str(c) for c in self.represented(i)))
            for i, c in enumerate(self.cards)
            if c == JOKER_CODE
        )

    # Lay-offs (Anlegen) -------------------------------------------------------------------------
    def layoff_ends(self, card: int, rules: Rules) -> tuple[End, ...]:
        """Run ends where ``card`` could be laid off (empty for sets and for cards that do not fit).

        A natural fits only on the position it belongs to; an ace may fit at either end of a
        12-card run 2…K; a joker fits at any end that stays within bounds.
        """
        if self.kind is _SET:
            return ()
        ends: tuple[End, ...] = tuple(e for e in ("low", "high") if self._run_extension(card, e, rules))
        if card == JOKER_CODE and "high" in ends and rules.joker_end_assignment == "upward_default":
            return ("high",)  # no declaration: the joker takes the upper end when it fits there (D12)
        return ends

    def can_lay_off(self, card: int, rules: Rules) -> bool:
        """Whether ``card`` can be laid off on this meld (RULES.md §2.5)."""
        if self.kind is _SET:
            return self._set_extension(Card(card), rules) is not None
        return bool(self.layoff_ends(card, rules))

    def with_layoff(self, card: int, rules: Rules, end: End | None = None) -> Meld:
        """The meld after laying off ``card``. Existing cards and assignments never change.

        For a run ``end`` chooses the end; without it a joker goes upward when it can (D12) and an
        ace that fits at both ends goes to the top. Under ``joker_end_assignment = upward_default``
        a joker that fits at the top cannot be declared at the low end.

        Raises:
            IllegalMeldError: the card does not fit (or not at the given end).
        """
        card = Card(card)
        if self.kind is _SET:
            result = self._set_extension(card, rules)
            if result is None:
                raise IllegalMeldError(*self._set_layoff_reason(card, rules))
            return result
        ends: tuple[End, ...] = (end,) if end is not None else ("high", "low")
        low_joker = end == "low" and card == JOKER_CODE and self._run_extension(card, "low", rules)
        if low_joker and self.layoff_ends(card, rules) == ("high",):
            raise IllegalMeldError(
                f"a joker laid off on {self} goes to the top end, where it fits "
                "(joker_end_assignment is upward_default: no declaring the low end)",
                "joker_end_assignment",
            )
        for e in ends:
            extended = self._run_extension(card, e, rules)
            if extended is not None:
                return extended
        raise IllegalMeldError(*self._run_layoff_reason(card, end, rules))

    def _set_extension(self, card: Card, rules: Rules) -> Meld | None:
        n = len(self.cards) + 1
        if n > rules.set_size_max:
            return None
        if card != JOKER_CODE:
            if card.rank != self.rank:
                return None
            if rules.set_distinct_suits and card.suit not in self.missing_suits():
                return None
        naturals = len(self.cards) - self.jokers + (card != JOKER_CODE)
        if joker_count_problem(naturals, n - naturals, rules) is not None:
            return None
        return Meld(_SET, (*self.cards, card), rank=self.rank)

    def _set_layoff_reason(self, card: Card, rules: Rules) -> tuple[str, str]:
        """Why ``card`` cannot be laid off on this set: message and the rule broken."""
        if len(self.cards) >= rules.set_size_max:
            return f"the set {self} is full ({rules.set_size_max} cards)", "set_size_max"
        if card != JOKER_CODE and card.rank != self.rank:
            return f"{card} does not match the rank of the set {self}", "set_rank"
        if card != JOKER_CODE:
            return f"the set {self} already has a card of {card}'s suit", "set_distinct_suits"
        return f"another joker would break joker_limit in {self}", "joker_limit"

    def _run_layoff_reason(self, card: Card, end: End | None, rules: Rules) -> tuple[str, str]:
        """Why ``card`` cannot be laid off on this run (at ``end``): message and the rule broken."""
        where = f" at the {end} end" if end is not None else ""
        lo, hi = position_bounds(rules)
        ends: tuple[End, ...] = (end,) if end is not None else ("low", "high")
        targets = {"low": self.start - 1, "high": self.end + 1}
        if all(targets[e] < lo or targets[e] > hi for e in ends):
            if card.rank == 2 and self.end == HIGH_ACE:
                return f"{card}: runs do not go round the corner (K-A-2 is not allowed)", "run_wraparound"
            return (
                f"the run {self} is closed{where}: nothing comes below a low or above a high ace",
                "run_bounds",
            )
        if card == JOKER_CODE:
            if joker_count_problem(len(self.naturals), self.jokers + 1, rules) is not None:
                return f"another joker would break joker_limit in {self}", "joker_limit"
            return f"a joker{where} would put too many jokers side by side in {self}", "max_adjacent_jokers"
        if card.suit != self.suit:
            return f"{card} is not of the run's suit ({self})", "run_suit"
        positions = (LOW_ACE, HIGH_ACE) if card.rank == 1 else (card.rank,)
        fitting = [targets[e] for e in ends if targets[e] in positions]
        if not fitting and card.rank == 2 and self.end == HIGH_ACE and "high" in ends:
            return f"{card}: runs do not go round the corner (K-A-2 is not allowed)", "run_wraparound"
        if not fitting:
            return (
                f"{card} does not fit{where} on {self}: a run grows only by the card next to one of its ends",
                "run_sequence",
            )
        if fitting[0] == LOW_ACE and not rules.ace_low_in_runs:
            return f"{card} cannot be low in a run (ace_low_in_runs is off)", "ace_low_in_runs"
        if fitting[0] == HIGH_ACE and not rules.ace_high_in_runs:
            return f"{card} cannot be high in a run (ace_high_in_runs is off)", "ace_high_in_runs"
        return (
            f"{card}: a run may not hold the ace at both ends (allow_ace_both_ends is off)",
            "allow_ace_both_ends",
        )

    def _run_extension(self, card: int, end: End, rules: Rules) -> Meld | None:
        lo, hi = position_bounds(rules)
        position = self.start - 1 if end == "low" else self.end + 1
        if not lo <= position <= hi:
            return None
        if card != JOKER_CODE:
            c = Card(card)
            if c.suit != self.suit or position_rank(position) != c.rank:
                return None
        new_start = min(self.start, position)
        new_end = max(self.end, position)
        if new_start == LOW_ACE and new_end == HIGH_ACE and not rules.allow_ace_both_ends:
            return None
        cards = (Card(card), *self.cards) if end == "low" else (*self.cards, Card(card))
        jokers = self.jokers + (card == JOKER_CODE)
        if joker_count_problem(len(cards) - jokers, jokers, rules) is not None:
            return None
        if (
            card == JOKER_CODE
            and rules.max_adjacent_jokers is not None
            and _longest_joker_streak(cards) > rules.max_adjacent_jokers
        ):
            return None
        return Meld(_RUN, cards, start=new_start, suit=self.suit)

    def layoff_cards(self, rules: Rules) -> tuple[Card, ...]:
        """Every distinct card that could be laid off on this meld now (jokers included)."""
        if self.kind is _SET:
            candidates: list[Card] = [Card.of(self.rank, s) for s in self.missing_suits()]
        else:
            candidates = []
            for position in (self.start - 1, self.end + 1):
                if 1 <= position <= HIGH_ACE:
                    card = Card.of(position_rank(position), self.suit)
                    if card not in candidates:
                        candidates.append(card)
        candidates.append(JOKER)
        return tuple(c for c in candidates if self.can_lay_off(c, rules))

    # Joker exchange (Joker tauschen) ------------------------------------------------------------
    def exchange_cards(self) -> tuple[Card, ...]:
        """The natural cards that could replace a joker of this meld (before any option checks)."""
        found: list[Card] = []
        for i, c in enumerate(self.cards):
            if c == JOKER_CODE:
                for r in self.represented(i):
                    if r not in found:
                        found.append(r)
        return tuple(found)

    def with_exchange(self, card: int) -> Meld:
        """The meld after the natural ``card`` replaces a joker that stands for it; the joker is
        freed. In a run the joker on ``card``'s position is replaced; in a set the first joker.

        Raises:
            IllegalMeldError: no joker of this meld stands for ``card``.
        """
        card = Card(card)
        if card != JOKER_CODE:
            for i, c in enumerate(self.cards):
                if c == JOKER_CODE and card in self.represented(i):
                    cards = (*self.cards[:i], card, *self.cards[i + 1 :])
                    return Meld(self.kind, cards, self.start, self.suit, self.rank)
        raise IllegalMeldError(f"no joker in {self} stands for {card}", "joker_exchange")

    # Text ---------------------------------------------------------------------------------------
    def notation(self, annotate: bool = True) -> str:
        """The meld's text; run jokers are annotated ``JK(=7H)`` unless ``annotate`` is false."""
        if self.kind is _SET and annotate and len(self.naturals) == 1:
            # Only a set made by Meld.of (play never makes one: SET_MIN_NATURALS). With one natural
            # the text would read back as a run: name the suits the jokers take.
            missing = iter(self.missing_suits())
            return " ".join(
                f"JK(={Card.of(self.rank, next(missing))})" if c == JOKER_CODE else str(c) for c in self.cards
            )
        if self.kind is _SET or not annotate:
            return " ".join(str(c) for c in self.cards)
        return " ".join(
            f"JK(={self.represented(i)[0]})" if c == JOKER_CODE else str(c) for i, c in enumerate(self.cards)
        )

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        if self.kind is _SET:
            return f"Meld.of('set', {cards!r}, rank={self.rank})"
        return f"Meld.of('run', {cards!r}, start={self.start}, suit={SUITS[self.suit]!r})"


_BUILT_MELDS_PER_RULES: Final = 1 << 15
_RULE_SETS_KEPT: Final = 8
_BUILT_MELDS: dict[int, tuple[Rules, dict[tuple[int, ...], Meld]]] = {}


def _built_melds(rules: Rules) -> dict[tuple[int, ...], Meld]:
    """The valid melds :meth:`Meld.from_cards` built under ``rules``, by their cards.

    Legal-action generation and the solver rebuild the same melds over and over; melds and rules
    are immutable, so the valid ones are kept (an invalid one raises and is not kept). The table is
    found by the rule set's identity: hashing a :class:`Rules` (some hundred fields) would cost more
    than building most melds. The entry holds the rule set, so its id is not reused while kept.
    """
    entry = _BUILT_MELDS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_BUILT_MELDS) >= _RULE_SETS_KEPT:
            del _BUILT_MELDS[next(iter(_BUILT_MELDS))]  # the rule set met longest ago
        entry = _BUILT_MELDS[id(rules)] = (rules, {})
    return entry[1]


def meld_text_cards(text: str) -> tuple[Card, ...]:
    """The cards of a meld text, annotated jokers read as plain jokers.

    Raises:
        NotationError: a token is not a card.
    """
    return _parse_meld_tokens(text)[0]


def arrange_meld(group: Sequence[str], rules: Rules) -> Meld:
    """The meld formed by ``group`` as written, or else in run order (naturals by rank, jokers in the
    gaps, then at the ends).

    Raises:
        IllegalMeldError: no arrangement tried is a meld (the error of the written order).
        NotationError: a card text is not a card.
    """
    written = " ".join(group)
    try:
        return Meld.parse(written, rules)
    except IllegalMeldError as first:
        error = first
    cards = [Card.parse(t) for t in group]
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    for ace_high in (False, True):
        ranked = sorted(naturals, key=lambda c: 14 if ace_high and c.rank == 1 else c.rank)
        rank = [14 if ace_high and c.rank == 1 else c.rank for c in ranked]
        order: list[Card] = []
        left = jokers
        for i, card in enumerate(ranked):
            if i:
                gap = min(max(rank[i] - rank[i - 1] - 1, 0), left)
                order += [JOKER] * gap
                left -= gap
            order.append(card)
        for candidate in (order + [JOKER] * left, [JOKER] * left + order):
            try:
                return Meld.from_cards(candidate, rules)
            except IllegalMeldError:
                continue
    raise error


__all__ = [
    "HIGH_ACE",
    "LOW_ACE",
    "SET_MIN_NATURALS",
    "Meld",
    "MeldKind",
    "arrange_meld",
    "joker_count_problem",
    "meld_text_cards",
    "parse_cards",
    "position_bounds",
    "position_rank",
    "position_value",
    "rank_value",
]
