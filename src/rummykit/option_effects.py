"""Option-sensitivity harness: every rule option must change what the engine does.

For a rule set (normally a preset), every option of :class:`~rummykit.rules.Rules` and every
alternative value — every other word of a choice option, the other truth value, and for a numeric
option a sample of its inclusive range (both ends and the middle, plus ``None`` where allowed) —
ends in exactly one of these outcomes:

* **refused**: validation rejects the value (:class:`~rummykit.errors.RulesError` naming the option):
  the option does not apply to these rules (``rules.not_applicable``), or the engine does not play
  that value, or it contradicts another option;
* **effect**: a situation in which the engine behaves differently from the base rules — the deal, the
  legal actions offered, what lies face up, a hand's result, a match's totals, chips, winners or seat
  draw. The report names the first situation and the first difference found;
* **same**: no difference, and a documented rule says why this value plays like the current one in
  these rules (:data:`EQUIVALENT_VALUES`);
* **read** (an option with a single value, such as ``draw_ties_and_jokers``): the engine consults the
  option while playing a situation, so the one value it has is implemented;
* **none**: no situation showed a difference (a defect: the option is accepted and ignored).

Situations are cheap and deterministic: seeded hands and matches, matches started from a
:class:`~rummykit.match.MatchPosition` near a threshold (buy-back window, elimination, target), and
the seat draw, arranged deals (going out at once, knocking at the threshold, a joker at the cut)
and a catalogue of melds and lay-offs judged by the rules. Each situation is played once under the
base rules by a fixed policy (the greedy bot, with a seeded share of random legal actions so that
rarer actions occur too); a variant then follows the recorded actions step by step and stops at the
first difference. ``hints`` (situation labels from an earlier run, :data:`rummykit.option_witnesses`)
are tried first, which keeps a full check of a preset to seconds.

>>> from rummykit.rules import Rules
>>> report = check_option_effects(Rules.preset("viennese"), options=("knock_threshold",))
>>> [(e.value, e.status) for e in report.effects]
[(0, 'effect'), (15, 'effect'), (30, 'effect'), (None, 'refused')]
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar, Final, Literal

from rummykit.actions import Action, Discard, Draw, KnockDeclare, MeldAction, Pass, TakeDiscard
from rummykit.arrange import arrange_deck
from rummykit.bots.base import match_action
from rummykit.bots.greedy import GreedyBot
from rummykit.cards import JOKER, Card, build_deck, format_cards, parse_cards
from rummykit.errors import IllegalMeldError, RulesError
from rummykit.gin import values_of
from rummykit.gin_melds import deadwood as gin_deadwood
from rummykit.gin_melds import mask_of
from rummykit.match import Match, MatchPosition
from rummykit.melds import End, Meld, meld_text_cards
from rummykit.rules import PRESET_NAMES, Rules, option_choices, option_range
from rummykit.rules_text import format_value
from rummykit.solver import min_deadwood
from rummykit.views import Phase

Status = Literal["effect", "same", "read", "refused", "none"]

RANDOM_SHARE: Final = 0.25
"""Share of the policy's moves that are random legal actions instead of the greedy bot's choice."""

SMALL_RANGE: Final = 10
"""A numeric option whose range spans at most this much is checked at every value, others at both
ends and the middle."""

MAX_STEPS: Final = 4_000
"""Bound on the actions of one situation (a match of several hands stays far below it)."""


class OptionEffectError(AssertionError):
    """Some option value is accepted by validation but changes nothing in any situation."""


@dataclass(frozen=True, slots=True)
class OptionEffect:
    """The outcome for one option value; ``where`` says what was seen (or why it was refused)."""

    option: str
    value: Any
    status: Status
    where: str
    situation: str | None = None
    """The label of the situation that showed the effect (or the read)."""


@dataclass
class EffectReport:
    """Every option value checked for one base rule set."""

    rules: Rules
    effects: list[OptionEffect] = field(default_factory=list)

    @property
    def missing(self) -> list[OptionEffect]:
        """Option values that are accepted yet showed no effect."""
        return [e for e in self.effects if e.status == "none"]

    def by_option(self) -> dict[str, list[OptionEffect]]:
        out: dict[str, list[OptionEffect]] = {}
        for e in self.effects:
            out.setdefault(e.option, []).append(e)
        return out


@dataclass(frozen=True, slots=True)
class Situation:
    """A seeded match played for at most ``hands`` hands (``0``: only seat the table).

    ``dealer=None`` starts with the seat draw; ``deck`` arranges the first deal; ``position`` starts
    from given totals; the ``passive`` policy only draws from the stock and discards, so the stock
    runs out."""

    label: str
    players: int
    seed: int
    hands: int = 1
    dealer: int | None = 0
    position: MatchPosition | None = None
    deck: tuple[Card, ...] | None = None
    passive: bool = False
    hoard: bool = False
    """Everybody takes every discard they may and never throws it back, lays or knocks what they
    need not (the take limits: gin's ``max_upcard_draws``, elsewhere ``max_takes_in_a_row``)."""
    probes: tuple[Action, ...] = ()
    """Actions whose legality is compared at every step (moves that no legal-action list offers)."""


_REBUILDS: Final = ("reshuffle_keep_top", "turn_over_keep_top", "turn_over_all_if_declined")
"""The ways of ``stock_exhaustion`` that build a new stock (``max_stock_rebuilds`` times at most)."""

EQUIVALENT_VALUES: Final[tuple[tuple[str, object, Callable[[Rules], bool], str], ...]] = (
    (
        "discard_pickup_requires_opened",
        "never",
        lambda r: (
            r.discard_pickup_requires_meld and r.discard_pickup_requires_opened == "opened_or_opening_with_it"
        ),
        "with discard_pickup_requires_meld the taken discard must be laid this turn, which a player who "
        "has not opened can only do by opening with it: never plays like opened_or_opening_with_it",
    ),
    (
        "deal_rotation",
        "counterclockwise",
        lambda r: r.max_players == 2,
        "at a table of two both directions pass the deal to the other player",
    ),
    (
        "deal_rotation",
        "winner_deals",
        lambda r: r.match_end == "single_hand" and r.deal_rotation == "clockwise",
        "a single scored hand ends the match: nobody deals after a winner, and an unscored hand has "
        "no winner and passes the deal on clockwise",
    ),
    *(
        (
            "stock_exhaustion",
            rebuild,
            lambda r: r.max_stock_rebuilds == 0 and r.stock_exhaustion in _REBUILDS,
            "max_stock_rebuilds is 0: no new stock is built, so the hand ends when the stock runs out "
            "whichever way a new one would be built",
        )
        for rebuild in _REBUILDS
    ),
    (
        "max_adjacent_jokers",
        6,
        lambda r: (
            r.max_adjacent_jokers is None
            and r.joker_limit == "jokers_le_naturals"
            and not r.allow_ace_both_ends
        ),
        "a run of at most 13 cards with no more jokers than natural cards holds at most 6 jokers: "
        "a limit of 6 is no limit",
    ),
    (
        "joker_limit",
        "min_two_naturals",
        lambda r: r.joker_limit == "jokers_le_naturals" and r.jokers_total <= 2,
        "with at most two jokers in the deck, no more jokers than naturals and at least two naturals "
        "allow the same melds (one natural with two jokers is the only meld either refuses)",
    ),
    *(
        (
            "max_adjacent_jokers",
            limit,
            lambda r, limit=limit: _no_joker_limit(r.max_adjacent_jokers, r) and _no_joker_limit(limit, r),
            "a limit of as many jokers side by side as the deck holds, or more, is no limit",
        )
        for limit in (2, 3, 4, 5, 6, None)
    ),
    (
        "may_discard_taken_discard",
        True,
        lambda r: r.discard_pickup_requires_meld and not r.is_knock_game and not r.may_discard_taken_discard,
        "with discard_pickup_requires_meld the taken discard is on the table before any discard, so "
        "there is no taken card left to discard, and a copy of it in hand is the player's own",
    ),
)
"""Values that play exactly like the current one under some rules: option, value, when, why."""


def _no_joker_limit(limit: int | None, rules: Rules) -> bool:
    """Whether ``max_adjacent_jokers = limit`` lets every joker of the deck lie side by side."""
    return limit is None or limit >= rules.jokers_total


def effect_key(option: str, value: object) -> str:
    """The text ``option=value`` that names one checked value (in hints and reports)."""
    return f"{option}={format_value(option, value)}"


def _option_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(Rules) if f.name != "name")


_OPTIONAL: Final = frozenset(f.name for f in fields(Rules) if "None" in str(f.type))


def alternatives(rules: Rules, option: str) -> list[Any]:
    """The values of ``option`` to compare with the one ``rules`` holds (numeric: a sample)."""
    current = getattr(rules, option)
    choices = option_choices(option)
    values: list[Any]
    if choices is not None:
        values = list(choices)
    elif isinstance(current, bool):
        values = [not current]
    elif isinstance(current, tuple):
        low, high = option_range(option)
        a, b = current
        values = [(low, b), ((a + b) // 2, b), (a, high)]
    else:
        low, high = option_range(option)
        values = list(range(low, high + 1)) if high - low <= SMALL_RANGE else [low, (low + high) // 2, high]
        if option in _OPTIONAL:
            values.append(None)
    unique: list[Any] = []
    for v in values:
        if v != current and v not in unique:
            unique.append(v)
    return unique


MELDS: Final = (
    "AH 2H 3H",
    "QC KC AC",
    "KS AS 2S",
    "JC QC JK AC",
    "6S 6H JK",
    "5H JK JK",
    "3S JK JK 6S",
    "3S JK JK JK 7S",
    "3S 4S JK JK JK 8S 9S",
    "2S 3S 4S 5S JK JK JK JK 10S",
    "2S 3S 4S 5S 6S JK JK JK JK JK QS",
    "AS 2S 3S 4S 5S 6S JK JK JK JK JK JK KS",
    "JK 5H 6H",
    "KH KD KC",
    "KH KD KC KS",
    "KH KH KD",
    "9C 9D 9H 9S JK",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
)
"""Melds judged in the meld situation (RULES.md §8.1 and the edges of every meld option)."""

LAYOFFS: Final = (("5H 6H 7H", "JK"), ("2C 3C 4C", "AC"), ("QS KS AS", "JK"), ("7D 7S 7C", "7H"))
"""Lay-offs judged in the meld situation: the run or set, then the card laid off."""


def _dealt(rules: Rules, *texts: str) -> bool:
    """Whether the deck of ``rules`` holds every card of ``texts`` together (a meld needing three
    jokers tells nothing about a deck of two)."""
    cards = [c for text in texts for c in meld_text_cards(text)]
    jokers = sum(1 for c in cards if c == JOKER)
    return jokers <= rules.jokers_total and all(
        cards.count(c) <= rules.num_decks for c in set(cards) if c != JOKER
    )


def _judge_melds(rules: Rules) -> tuple[Any, ...]:
    """What the rules say about every meld of :data:`MELDS` and lay-off of :data:`LAYOFFS` that the
    deck can hold."""
    out: list[Any] = []
    for text in MELDS:
        if not _dealt(rules, text):
            continue
        try:
            meld = Meld.parse(text, rules)
        except IllegalMeldError as exc:
            out.append((text, exc.rule))
        else:
            out.append((text, meld.value, min_deadwood(meld.cards, rules)))
    for text, card_text in LAYOFFS:
        if not _dealt(rules, text, card_text):
            continue
        try:
            meld, card = Meld.parse(text, rules), parse_cards(card_text)[0]
        except IllegalMeldError as exc:
            out.append((text, card_text, exc.rule))
            continue
        judged: list[Any] = [meld.layoff_ends(card, rules)]
        ends: tuple[End | None, ...] = ("low", "high", None)
        for end in ends:
            try:
                judged.append(str(meld.with_layoff(card, rules, end)))
            except IllegalMeldError as exc:
                judged.append(exc.rule)
        out.append((text, card_text, tuple(judged)))
    return tuple(out)


_MELD_SITUATION: Final = Situation("judging the melds and lay-offs of the worked examples", 0, 0, hands=0)


def situations(rules: Rules) -> list[Situation]:
    """The situations tried for ``rules``, cheapest and most telling first."""
    low = rules.min_players
    high = min(rules.max_players, low + 2)
    out = [_MELD_SITUATION]
    out += [Situation(f"a hand of {n} players (seed {s})", n, s) for s in range(3) for n in (low, high)]
    out += _arranged(rules)
    out += [
        Situation(f"a table of {n} players", n, 0, hands=0)
        for n in sorted({low - 1, rules.max_players, rules.max_players + 1})
        if 2 <= n <= 8
    ]
    out += [
        Situation(f"a match of {n} players from the seat draw (seed {s})", n, s, hands=2, dealer=None)
        for s, n in ((1, low), (2, high))
    ]
    out += [Situation(f"a hand of {n} players (seed {s})", n, s) for s in range(3, 6) for n in (low, high)]
    out += [Situation(f"a hand of {n} players", n, 0) for n in range(high + 1, rules.max_players + 1)]
    out += [
        Situation(f"a hand of {n} players that plays the stock out", n, 1, passive=True)
        for n in (low, rules.max_players)
    ]
    out += [
        Situation(f"a match of {n} players (seed {s})", n, s, hands=8) for s in (3, 4) for n in (low, high)
    ]
    if not rules.is_gin:
        out.append(
            Situation(f"a hand of {low} players where everybody takes every discard", low, 13, hoard=True)
        )
    out += _positions(rules)
    out += _ties(rules)
    return out


def _ties(rules: Rules) -> list[Situation]:
    """The last hand of a melding game's fixed series, or of its match to the penalty limit, that ends
    with equal best totals (``match_tiebreak``): each arranged hand is played once under ``rules``
    from totals of 0, then again from totals that its minus points even out (each seat starts with
    the largest of them less its own; at a penalty limit, with the limit, or that largest if it is
    more, less its own, so that every seat reaches the limit), so that every seat ends level and only
    the tie-break can pick a winner."""
    end = rules.match_end
    if rules.is_knock_game or end not in ("fixed_hands", "penalty_limit"):
        return []
    out: list[Situation] = []
    for s in _arranged(rules):
        series = (rules.num_hands or s.players) if end == "fixed_hands" else 1
        last = MatchPosition(totals=(0,) * s.players, hands_dealt=series - 1)
        first = Situation(s.label, s.players, s.seed, dealer=s.dealer, deck=s.deck, position=last)
        trace = _trace(rules, first)
        if isinstance(trace, str):
            continue
        m = _start(rules, first)
        for step in trace:
            if step.action is None:
                break
            m.apply(step.action)
        result = m.rounds[0].result
        if result is None or not result.scored:
            continue
        most = max(result.penalties)
        if end == "penalty_limit":
            most = max(most, rules.penalty_limit)
            label = s.label.replace("a hand of", "the last hand of a match to the penalty limit of", 1)
        else:
            label = s.label.replace("a hand of", "the last hand of a series of", 1)
        label += ", ending level"
        level = MatchPosition(totals=tuple(most - p for p in result.penalties), hands_dealt=series - 1)
        out.append(Situation(label, s.players, s.seed, dealer=s.dealer, deck=s.deck, position=level))
    return out


def _positions(rules: Rules) -> list[Situation]:
    """Matches started near a threshold: buy-back window, elimination, target score."""
    low = rules.min_players
    three = max(low, min(3, rules.max_players))
    out: list[Situation] = []

    def at(label: str, n: int, seed: int, totals: tuple[int, ...], **kw: Any) -> None:
        padded = tuple(totals[:n]) + (0,) * (n - len(totals))
        out.append(Situation(label, n, seed, hands=3, position=MatchPosition(totals=padded, **kw)))

    if rules.match_end == "elimination_last_survivor":
        pot = 5 * three if rules.is_knock_game else 0
        at("a rubber of 3 players from totals 95/30/99", three, 5, (95, 30, 99), pot=pot)
        at("a rubber of 2 players from totals 100/100", low, 6, (100, 100))
        at("a rubber of 3 players from totals 85/84/20", three, 7, (85, 84, 20), pot=pot)
        at(
            "a rubber of 3 players from totals 90/30/95 after one buy-back each",
            three,
            8,
            (90, 30, 95),
            pot=pot,
            buybacks=(1,) * three,
        )
        at("a rubber of 3 players from totals 60/10/40", three, 9, (60, 10, 40), pot=pot)
        for seed in (10, 11):
            label = f"a rubber of 3 players from totals 82/30/83 (seed {seed})"
            at(label, three, seed, (82, 30, 83), pot=pot)
            at(
                f"a rubber of 3 players from totals 82/30/83 after one buy-back each (seed {seed})",
                three,
                seed,
                (82, 30, 83),
                pot=pot,
                buybacks=(1,) * three,
            )
    if rules.match_end == "penalty_limit":
        near = rules.penalty_limit - 5
        at(f"a match of 2 players from minus points {near}/0", low, 9, (near, 0))
    if rules.match_end == "target_score":
        at("a match of 2 players from plus points 95/90", low, 9, (0, 0), gains=(95, 90) + (0,) * (low - 2))
    return out


_LOSERS: Final = (
    "JK AS KS QS 8C 7D 4H 9D 6C JS 2S 6H 8H 10D",
    "JK AD KH QH 8D 7C 4S 9H 6D JH 2H 6S 8S 10H",
)
"""Hands of the other seats in the arranged deals: jokers, aces and court cards left in hand."""

_KNOCK_DEALS: Final = {
    "the first player can call Rummy": "AH 2H 3H 4H 5C 5D 5S 9C 10C JC",
    "the first player can knock with 5 deadwood": "AH 2H 3H 6C 6D 6S 9C 10C JC 5D",
    "the first player can knock with 4 deadwood": "AH 2H 3H 6C 6D 6S 9C 10C JC 4C",
    "the first player can knock with 3 deadwood": "AH 2H 3H 6C 6D 6S 9C 10C JC 3C",
}
"""Knock-game holdings of ten cards before the discard ``KD``; 13-card games add ``JS QS KS``."""

_MELDING_DEALS: Final = {
    "the first player can go out at once": ("10H JH QH KH AH 5C 5D 5S 8S 9S 10S 2D 3D 4D", ()),
    "the first player can go out at once below 40": (
        "AC 2C 3C 4C AD 2D 3D AS 2S 3S AH 2H 3H 9C",
        (Action.parse("open AC 2C 3C 4C | AD 2D 3D | AS 2S 3S | AH 2H 3H"),),
    ),
}
"""Melding-game holdings of 13 cards plus the card drawn (the last one), with the moves probed."""

_UPCARDS: Final = {"the first player can go out at once below 40": "KD"}
"""The upcard of an arranged melding deal where it is not ``2C``."""


_GIN_DEALS: Final = {
    "the first player can knock with gin": (
        "AH 2H 3H 5C 5D 5S 9C 10C JC QC",
        "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S",
        "KD",
    ),
    "the first player can knock with big gin": (
        "AH 2H 3H 5C 5D 5S 9C 10C JC QC",
        "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S",
        "KC",
    ),
    "the first player knocks with 9 and is undercut": (
        "AH 2H 3H 5C 5D 5S 9C 10C JC 9D",
        "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S",
        "KD",
    ),
    "both players end with 4": (
        "AH 2H 3H 5C 5D 5S 9C 10C JC 4D",
        "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S",
        "KD",
    ),
    "the defender can lay off three cards on a run": (
        "5S 6S 7S 2C 2D 2H 9C 10C JC AD",
        "8S 9S 10S 4D 6H 7H 8H 3C 4C 5C",
        "KD",
    ),
    "the first player knocks after a spade upcard": (
        "AH 2H 3H 5C 5D 5S 9C 10C JC QC",
        "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S",
        "KS",
    ),
    "the best discard allows a knock that OpenSpiel's count does not": (
        "7C AD 3D 5D 6D 7D AH 5H 6H 7H",
        "KS QH 9S JD 2C 4S 10H 8C KC 3H",
        "5S",
    ),
}
"""Gin holdings (first player, dealer, upcard): the eager gin policy takes the upcard and knocks."""


def _arranged_gin(rules: Rules) -> list[Situation]:
    out = []
    for label, (first, dealer, upcard) in _GIN_DEALS.items():
        deck = arrange_deck(rules, 2, [dealer, first], upcard=upcard)
        out.append(Situation(f"a gin hand where {label}", 2, 11, deck=deck))
    out.append(Situation("a gin hand where both players take every discard", 2, 13, hoard=True))
    return out


def _arranged(rules: Rules) -> list[Situation]:
    """Arranged first deals (seat 0 deals): rarely dealt holdings that options judge."""
    if rules.is_gin:
        try:
            return _arranged_gin(rules)
        except RulesError:
            return []  # another hand size: no such deal
    out: list[Situation] = []
    n = max(2, rules.min_players)
    first = 0 if rules.start_mode == "dealer_extra_card" else 1
    deals: dict[str, tuple[str, tuple[Action, ...]]]
    if rules.is_knock_game:
        extra = " JS QS KS" if rules.hand_size == 13 else ""
        deals = {label: (text + extra + " KD", ()) for label, text in _KNOCK_DEALS.items()}
    else:
        deals = dict(_MELDING_DEALS)
    for label, (text, probes) in deals.items():
        cards = parse_cards(text)
        hands: list[str | Sequence[int] | None] = [None] * n
        hands[first] = cards[: rules.hand_size]
        others = [s for s in range(n) if s != first]
        for seat, loser in zip(others, _LOSERS, strict=False):
            hands[seat] = parse_cards(loser)[: rules.hand_size]
        rest = format_cards(cards[rules.hand_size :])
        try:
            if rules.start_mode == "upcard":
                # An upcard the first player has no use for: it draws the card it goes out with
                # instead of taking a card it then could not discard (may_discard_taken_discard).
                deck = arrange_deck(rules, n, hands, upcard=_UPCARDS.get(label, "2C"), stock=rest)
            else:
                deck = arrange_deck(rules, n, hands, extra=rest)
        except RulesError:
            continue  # other hand sizes (Basic Rummy) or seats (a sitting-out dealer): no such deal
        out.append(Situation(f"a hand of {n} players where {label}", n, 11, deck=deck, probes=probes))
        if rules.is_knock_game and rules.match_end == "elimination_last_survivor" and "knock" in label:
            last = MatchPosition(totals=(100,) * n, pot=5 * n)
            top = f"a rubber of {n} players at 100 each where {label}"
            out.append(Situation(top, n, 11, deck=deck, position=last))
            near = MatchPosition(totals=tuple(80 if s == first else 10 for s in range(n)), pot=5 * n)
            label = f"a rubber of {n} players, the first at 80, where {label}"
            out.append(Situation(label, n, 11, deck=deck, position=near))
    order = list(build_deck(rules.num_decks, rules.jokers_total))
    random.Random(12).shuffle(order)
    if JOKER in order:
        order.remove(JOKER)
        order.append(JOKER)
        label = f"a hand of {n + 1} players whose cut shows a joker"
        out.append(Situation(label, n + 1, 12, deck=tuple(order)))
    return out


@dataclass
class _Step:
    signature: tuple[Any, ...]
    action: Action | None


class _CannotStart(Exception):
    pass


def _start(rules: Rules, s: Situation) -> Match:
    try:
        if s.dealer is None:
            return Match.new(rules, s.players, seed=s.seed, position=s.position)
        return Match.new(rules, s.players, seed=s.seed, dealer=s.dealer, position=s.position, deck=s.deck)
    except RulesError as exc:
        raise _CannotStart(str(exc)) from None


_PARTS: Final = (
    "the seat draw",
    "who moves",
    "the legal actions",
    "the legality of a probed move",
    "the dealer",
    "the deal",
    "the discard pile",
    "the face-down card",
    "the table",
    "the hand sizes",
    "the stock",
    "the last hand's result",
    "the match totals",
    "the plus points",
    "the chips",
    "the pot",
    "the eliminations",
    "the winners",
)


def _signature(m: Match, legal: Sequence[Action], s: Situation) -> tuple[Any, ...]:
    """What the engine shows at one step, in the order of :data:`_PARTS`."""
    rnd = m.round
    finished = next((r.result for r in reversed(m.rounds) if r.result is not None), None)
    return (
        m.seat_draw,
        m.to_move if not m.is_over else None,
        tuple(legal),
        tuple(not rnd.is_over and rnd.is_legal(p) for p in s.probes),
        rnd.dealer,
        rnd.deck if not rnd.history else None,
        tuple(rnd.discard_pile),
        rnd.face_down,
        tuple(str(t) for t in rnd.table),
        tuple(len(h) for h in rnd.hands),
        len(rnd.stock),
        finished,
        m.totals,
        tuple(m.gains),
        m.chips,
        m.pot,
        tuple(m.eliminated),
        m.winners,
    )


def _choose(m: Match, legal: Sequence[Action], s: Situation, rng: random.Random, bot: GreedyBot) -> Action:
    if m.rules.is_gin and not s.passive:
        return _gin_choice(m, legal, rng, s.hoard)
    if s.hoard:
        return _hoard_choice(m, legal, rng)
    if s.passive:
        if Draw() in legal:
            return Draw()
        discards = [a for a in legal if isinstance(a, Discard)]
        return rng.choice(discards or list(legal))
    return rng.choice(list(legal)) if rng.random() < RANDOM_SHARE else match_action(bot, m, rng)


def _hoard_choice(m: Match, legal: Sequence[Action], rng: random.Random) -> Action:
    """Take the discard whenever allowed, then shed another card at once: nobody draws, nobody goes
    out, and the hand runs into ``max_takes_in_a_row``."""
    if TakeDiscard() in legal:
        return TakeDiscard()
    if Draw() in legal:
        return Draw()
    taken = m.round.taken_discard
    keep = [a for a in legal if isinstance(a, Discard) and a.card != taken]
    return rng.choice(keep or list(legal))


def _gin_choice(m: Match, legal: Sequence[Action], rng: random.Random, hoard: bool) -> Action:
    """Gin is driven by its own eager policy, so that knocks, lay-offs and undercuts show up: take
    the first upcard, knock whenever allowed, lay every meld and lay-off offered (a big gin before
    the knock's discard), otherwise a random move. ``hoard``: take every discard, never knock, never
    throw the taken card back."""
    if TakeDiscard() in legal and (hoard or m.round.phase is Phase.FIRST_UPCARD):
        return TakeDiscard()
    if hoard:
        taken = m.round.taken_discard
        keep = [a for a in legal if isinstance(a, Discard) and a.card != taken]
        return rng.choice(keep or list(legal))
    if KnockDeclare() in legal:
        return KnockDeclare()
    rnd = m.round
    discards = [a for a in legal if isinstance(a, Discard)]
    if rnd.phase is Phase.KNOCK and discards and not any(isinstance(a, MeldAction) for a in legal):
        held = mask_of(rnd.hands[rnd.to_move])
        values = values_of(rnd.rules)
        return min(discards, key=lambda a: gin_deadwood(held & ~(1 << a.card), values))
    if rnd.phase in (Phase.KNOCK, Phase.LAYOFF):
        laying = [a for a in legal if not isinstance(a, Pass)]
        return max(laying, key=lambda a: len(a.cards) if isinstance(a, MeldAction) else 0, default=legal[0])
    return rng.choice(list(legal))


def _trace(rules: Rules, s: Situation) -> list[_Step] | str:
    """Play ``s`` under ``rules`` with the fixed policy and record every step (or why it cannot start)."""
    if s is _MELD_SITUATION:
        return [_Step(_judge_melds(rules), None)]
    try:
        m = _start(rules, s)
    except _CannotStart as exc:
        return str(exc)
    rng = random.Random(s.seed)
    bot = GreedyBot()
    steps: list[_Step] = []
    for _ in range(MAX_STEPS):
        legal = m.legal_actions() if not _done(m, s) else []
        if not legal:
            steps.append(_Step(_signature(m, legal, s), None))
            break
        action = _choose(m, legal, s, rng, bot)
        steps.append(_Step(_signature(m, legal, s), action))
        m.apply(action)
    return steps


def _done(m: Match, s: Situation) -> bool:
    if s.hands == 0 or m.is_over:
        return True
    return len(m.rounds) > s.hands or (m.round.is_over and len(m.rounds) >= s.hands)


def _follow(rules: Rules, s: Situation, trace: list[_Step] | str) -> str | None:
    """Replay ``trace`` under ``rules``; describe the first difference, ``None`` when there is none."""
    if s is _MELD_SITUATION:
        assert not isinstance(trace, str)
        mine, theirs = _judge_melds(rules), trace[0].signature
        if mine == theirs:
            return None
        item = next(a for a, b in zip(mine, theirs, strict=True) if a != b)
        layoff = len(item) == 3 and isinstance(item[1], str)
        what = f"the lay-off of {item[1]} on {item[0]}" if layoff else item[0]
        return f"{s.label}: {what} is judged differently"
    if s.deck is not None and sorted(s.deck) != sorted(build_deck(rules.num_decks, rules.jokers_total)):
        return None  # another deck: the arranged deal does not exist under these rules
    try:
        m = _start(rules, s)
    except _CannotStart as exc:
        return None if isinstance(trace, str) else f"{s.label}: the match cannot start ({exc})"
    if isinstance(trace, str):
        return f"{s.label}: the match starts, where the base rules refuse it ({trace})"
    for i, step in enumerate(trace):
        legal = m.legal_actions() if not _done(m, s) else []
        mine = _signature(m, legal, s)
        if mine != step.signature:
            part = next(p for p, a, b in zip(_PARTS, mine, step.signature, strict=True) if a != b)
            return f"{s.label}: {part}, at action {i} of hand {len(m.rounds)}"
        if step.action is None:
            return None
        m.apply(step.action)
    return None


class _ReadLog(Rules):
    """Rules that note every option the engine reads (for options with a single accepted value).

    Whole-value uses (hashing, comparing, printing the rules) read every field and are not counted.
    """

    __slots__ = ()
    reads: ClassVar[set[str]] = set()
    muted: ClassVar[int] = 0

    def __getattribute__(self, name: str) -> Any:
        if not _ReadLog.muted:
            _ReadLog.reads.add(name)
        return super().__getattribute__(name)

    def _whole(self, method: str, *args: Any) -> Any:
        _ReadLog.muted += 1
        try:
            return getattr(super(), method)(*args)
        finally:
            _ReadLog.muted -= 1

    def __hash__(self) -> int:
        return int(self._whole("__hash__"))

    def __eq__(self, other: object) -> bool:
        _ReadLog.muted += 1
        try:
            return super().__eq__(other)
        finally:
            _ReadLog.muted -= 1

    def __str__(self) -> str:
        return str(self._whole("__str__"))

    def __repr__(self) -> str:
        return str(self._whole("__repr__"))


def _reads(rules: Rules, s: Situation, trace: list[_Step] | str) -> set[str]:
    if isinstance(trace, str):
        return set()
    _ReadLog.muted += 1
    spy = _ReadLog(**{f.name: getattr(rules, f.name) for f in fields(Rules)})
    _ReadLog.muted -= 1
    _ReadLog.reads = set()
    if s is _MELD_SITUATION:
        _judge_melds(spy)
        return _ReadLog.reads
    m = _start(spy, s)
    for step in trace:
        if step.action is None:
            break
        m.apply(step.action)
    return _ReadLog.reads


class _Traces:
    """Base-rule traces, computed once per situation and shared by every variant."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.situations = situations(rules)
        self._cache: dict[int, list[_Step] | str] = {}

    def get(self, i: int) -> tuple[Situation, list[_Step] | str]:
        if i not in self._cache:
            self._cache[i] = _trace(self.rules, self.situations[i])
        return self.situations[i], self._cache[i]

    def search(self, first: str | None = None) -> Iterator[tuple[Situation, list[_Step] | str]]:
        """Every situation, the one labelled ``first`` (a hint) before the others."""
        order = list(range(len(self.situations)))
        hinted = [i for i in order if self.situations[i].label == first]
        for i in hinted + [i for i in order if i not in hinted]:
            yield self.get(i)


def check_option_effects(
    rules: Rules,
    *,
    options: Iterable[str] | None = None,
    strict: bool = False,
    hints: Mapping[str, str] | None = None,
) -> EffectReport:
    """Check every option of ``rules`` (or only ``options``) against every alternative value.

    Returns the report; with ``strict`` an option value that is accepted but shows no effect raises.
    ``hints`` maps :func:`effect_key` texts to the label of a situation to try first.

    Raises:
        OptionEffectError: ``strict`` and some accepted value changes nothing.
        RulesError: ``options`` names something that is not a rule option.
    """
    names = _option_names()
    chosen = tuple(options) if options is not None else names
    for name in chosen:
        if name not in names:
            raise RulesError(f"unknown rule option {name!r}", option=name)
    traces = _Traces(rules)
    report = EffectReport(rules)
    for option in chosen:
        for value in alternatives(rules, option):
            try:
                variant = rules.replace(**{option: value})
            except RulesError as exc:
                report.effects.append(OptionEffect(option, value, "refused", str(exc)))
                continue
            hint = (hints or {}).get(effect_key(option, value))
            found = ((s.label, _follow(variant, s, t)) for s, t in traces.search(hint))
            situation, where = next(((s, w) for s, w in found if w is not None), (None, None))
            status: Status = "effect"
            if where is None:
                status, where = "none", "no difference anywhere"
                for name, same, when, why in EQUIVALENT_VALUES:
                    if name == option and same == value and when(rules):
                        status, where = "same", why
            report.effects.append(OptionEffect(option, value, status, where, situation))
        if not alternatives(rules, option) and rules.not_applicable(option) is None:
            current = getattr(rules, option)
            seen = next((s.label for s, t in traces.search() if option in _reads(rules, s, t)), None)
            status = "read" if seen is not None else "none"
            where = f"{seen}: the engine reads it" if seen else "never read"
            report.effects.append(OptionEffect(option, current, status, where, seen))
    if strict and report.missing:
        lines = "; ".join(f"{e.option}={e.value!r}" for e in report.missing)
        raise OptionEffectError(f"{rules}: accepted but without effect: {lines}")
    return report


def witnesses(report: EffectReport) -> dict[str, str]:
    """The situation label of every effect found, keyed by :func:`effect_key` (hints for next time)."""
    return {effect_key(e.option, e.value): e.situation for e in report.effects if e.situation is not None}


REGENERATE: Final = "PYTHONPATH=src python -m rummykit.option_effects"
"""The command that rewrites :mod:`rummykit.option_witnesses` (from the repository's root)."""


def current_witnesses(name: str, hints: Mapping[str, str] | None = None) -> dict[str, str]:
    """What :mod:`rummykit.option_witnesses` should hold for the preset ``name``: the situation that
    shows each effect, a hinted one (the file's entry) where it still does, so that regenerating the
    file changes only the entries that need it."""
    return witnesses(check_option_effects(Rules.preset(name), hints=hints))


def write_witnesses(path: Path, hints: Mapping[str, Mapping[str, str]] | None = None) -> None:
    """Check every preset and write the situations that showed each effect as a Python module
    (:mod:`rummykit.option_witnesses`, the hints of later checks). ``python -m rummykit.option_effects``
    rewrites it after the situations or the engine changed; it passes the file's own entries as
    ``hints``, so an entry that still shows its effect is kept and the file holds exactly the values
    that take effect (``tests/test_option_effects.py`` fails when it does not)."""
    found = {name: current_witnesses(name, (hints or {}).get(name)) for name in PRESET_NAMES}
    lines = [
        "# ruff: noqa: E501",
        '"""Where :mod:`rummykit.option_effects` saw each option value take effect, per preset.',
        "",
        "Generated by ``python -m rummykit.option_effects``; used as hints so that a check tries the",
        "telling situation first. ``tests/test_option_effects.py`` fails when an entry is missing or stale",
        "(its value is refused now, or its situation no longer shows the effect): regenerate it then.",
        '"""',
        "",
        "WITNESSES: dict[str, dict[str, str]] = {",
    ]
    for name, table in found.items():
        lines.append(f"    {name!r}: {{")
        lines += [f"        {key!r}: {label!r}," for key, label in sorted(table.items())]
        lines.append("    },")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _written_witnesses() -> dict[str, dict[str, str]]:
    """The entries of :mod:`rummykit.option_witnesses` as it stands (none when it cannot be imported,
    a broken merge for instance: every situation is then searched)."""
    try:  # imported by name: a file that does not import (a broken merge) is written from scratch
        written: dict[str, dict[str, str]] = importlib.import_module("rummykit.option_witnesses").WITNESSES
    except Exception:
        return {}
    return written


if __name__ == "__main__":
    write_witnesses(Path(__file__).with_name("option_witnesses.py"), _written_witnesses())
