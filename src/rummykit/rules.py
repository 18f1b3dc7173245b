"""Rule sets: every rule option in one frozen dataclass, its sub-records and validation.

A :class:`Rules` value is data; the engine branches on its options, never on a preset's name.
Invalid values and inconsistent combinations raise :class:`~rummykit.errors.RulesError` at
construction, naming the option: nothing is silently replaced by a default.

>>> rules = Rules.preset("Rommé")
>>> rules.name, rules.opening_min_points, rules.penalty_joker
('german', 40, 30)
>>> r2 = rules.replace(opening_min_points=30)
>>> str(r2)
'german(opening_min_points=30)'
>>> Rules.parse(str(r2)) == r2
True

Options that RULES.md marks as not applicable (``–``) to a preset hold a harmless value that the
engine of that family never reads; numeric thresholds that only exist in one family (for example
``knock_threshold``) are ``None`` elsewhere, and that ``None`` is what makes a preset a knock game.

The options are stored flat (``rules.opening_min_points``) and read in groups through frozen
sub-records for the parts of the engine that need one concern: ``rules.melds`` (what makes a meld:
the solver's cache key), ``rules.scoring``, ``rules.knock``, ``rules.match`` and ``rules.gin``.
The presets are data in :mod:`rummykit.presets`; the text and TOML forms are read and written by
:mod:`rummykit.rules_text`.

>>> rules.melds.set_size_max, rules.scoring.penalty_joker
(4, 30)
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from operator import attrgetter
from pathlib import Path
from typing import Any, ClassVar, Final, Literal, get_type_hints

from rummykit import presets as preset_tables
from rummykit.cards import NUM_FACES, NUM_SUITS
from rummykit.errors import RulesError, quoted
from rummykit.rules_text import (
    OptionType,
    coerce,
    format_value,
    normalise_name,
    read_rules_file,
    split_rules_text,
    write_rules_file,
)

SeatDraw = Literal["high_card", "random"]
DealRotation = Literal["clockwise", "counterclockwise", "winner_deals"]
HandSizeRule = Literal["fixed", "by_player_count"]
DealPackets = Literal["singly", "p3334"]
StartMode = Literal["upcard", "dealer_extra_card", "forehand_extra_card", "gin_first_upcard"]
JokerLimit = Literal[
    "jokers_le_naturals", "min_two_naturals", "max_one_joker_per_meld", "at_least_one_natural"
]
JokerEndAssignment = Literal["declared", "upward_default"]
OpeningScope = Literal["all_melds_this_turn", "single_meld"]
SetJokerExchange = Literal["any_missing_suit", "complete_four_only"]
ExchangedJokerDestination = Literal["new_meld_same_turn", "any_meld_same_turn", "hand"]
DiscardPickupRequiresOpened = Literal["never", "opened_or_opening_with_it", "opened_before"]
JokerDiscardAllowed = Literal["always", "only_when_closing"]
StockExhaustion = Literal[
    "reshuffle_keep_top",
    "turn_over_keep_top",
    "turn_over_all_if_declined",
    "end_hand_no_score",
    "wall_draw",
]
HandScoring = Literal[
    "losers_penalty", "winner_collects", "winner_gets_sum", "deadwood_all", "gin_difference"
]
MatchEnd = Literal["fixed_hands", "penalty_limit", "elimination_last_survivor", "target_score", "single_hand"]
KnockComparison = Literal["lt", "le"]
LayoffAfterKnock = Literal["none", "onto_knocker_unless_gin"]
KnockUndercutRule = Literal["none", "knocker_penalised"]
ElevenCardDeadwood = Literal["openspiel", "best_discard"]
LayoffRunChain = Literal["two_per_end", "unlimited"]
AnteFrequency = Literal["per_rubber", "per_hand"]
BuybackTarget = Literal["second_worst_not_above_buyer"]
AllEliminatedTiebreak = Literal["lowest_total_wins"]
UnscoredHand = Literal["counts", "redeal"]
MatchTiebreak = Literal["share", "most_hands_won", "best_last_hand"]

FamilyName = Literal["melding", "knock", "gin"]
"""The families of turn logic (``Rules.family``)."""

PACKETS: Final[dict[str, tuple[int, ...]]] = {"p3334": (3, 3, 3, 4)}
"""Packet sizes per deal round for ``deal_packets`` values other than ``singly``."""

BASIC_HAND_SIZES: Final = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
"""``hand_size_rule = by_player_count`` in Basic Rummy (RULES.md §5.3): hand size by player count."""

RUMMY_CH_HAND_SIZES: Final = {2: 13, 3: 13, 4: 13, 5: 11, 6: 11}
"""``hand_size_rule = by_player_count`` in every other preset: rummy.ch's table for Rommé (RULES.md
§3.4, §6: 13 cards with 2–4 players, 11 with 5–6)."""

LINKED_DEFAULTS: Final[Mapping[tuple[str, str], tuple[str, Mapping[Any, Any]]]] = {
    ("basic", "ace_high_in_runs"): ("penalty_ace", {False: 1, True: 11}),
}
"""Options whose default follows another option in one preset: ``(preset, leader) -> (follower,
{leader value: follower value})``. Basic Rummy counts a left-over ace 1, or 11 where aces can be
high (RULES.md §5.3). Changing the leader moves the follower with it unless the same change names the
follower or the follower was already set away from the leader's value."""

HAND_SIZE_TABLES: Final[Mapping[str, Mapping[int, int]]] = {"basic": BASIC_HAND_SIZES}
"""The ``by_player_count`` table of the preset a rule set is named after; any other name uses
:data:`RUMMY_CH_HAND_SIZES`."""


def _range(low: int, high: int) -> dict[str, tuple[int, int]]:
    """Field metadata: the inclusive range a real game can use for a numeric option.

    Every integer option carries one, so that no override (a house rule, a web table's settings)
    can build a game that cannot end or a value no table plays, such as an opening minimum of a
    million. A pair option (``buyback_window``) applies the range to both of its numbers.
    """
    return {"range": (low, high)}


@dataclass(frozen=True, slots=True)
class MeldRules:
    """What makes a meld (RULES.md §2.3, §2.5) and what a card is worth to the meld search (§4.6).

    The solver's cache key: two rule sets with equal ``melds`` get the same answer from every
    solver function (``tests/test_solver_options.py`` proves that no other option changes one).
    """

    ace_low_in_runs: bool
    ace_high_in_runs: bool
    allow_ace_both_ends: bool
    max_adjacent_jokers: int | None
    set_size_min: int
    set_size_max: int
    set_distinct_suits: bool
    joker_limit: JokerLimit
    joker_end_assignment: JokerEndAssignment
    deadwood_ace: int
    deadwood_joker: int


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """How a hand is scored when it ends (RULES.md §3.14, §4.6, §5.4)."""

    hand_scoring: HandScoring
    hand_romme_multiplier: int
    hand_romme_requires_opening_min: bool
    penalty_ace: int
    penalty_joker: int
    penalty_court: int
    knocker_scores_own_deadwood: bool
    rummy_multiplier: int
    deadwood_ace: int
    deadwood_joker: int


@dataclass(frozen=True, slots=True)
class KnockRules:
    """When and how a knock game's hand is ended by a knock (RULES.md §4); ``knock_threshold`` is
    ``None`` outside the knock family."""

    knock_threshold: int | None
    knock_comparison: KnockComparison
    knock_extra_turn: bool
    layoff_after_knock: LayoffAfterKnock
    knock_undercut_rule: KnockUndercutRule
    knock_discard_face_up: bool


@dataclass(frozen=True, slots=True)
class MatchRules:
    """How hands add up to a match, a gin game's end-of-game bonuses, and a knock-game rubber's pot
    and buy-back (RULES.md §3.15, §4.7)."""

    match_end: MatchEnd
    num_hands: int | None
    unscored_hand: UnscoredHand
    penalty_limit: int
    match_tiebreak: MatchTiebreak
    target_score: int
    box_bonus: int
    game_bonus: int
    shutout_doubles: bool
    elimination_threshold: int | None
    reentry: bool
    pot_ante: int
    ante_frequency: AnteFrequency
    knock_money: int
    buyback_window: tuple[int, int]
    buyback_cost: int
    buyback_limit: int
    buyback_target: BuybackTarget
    all_eliminated_tiebreak: AllEliminatedTiebreak


@dataclass(frozen=True, slots=True)
class GinRules:
    """The options of OpenSpiel-compatible gin (RULES.md §5.4); they apply once a preset scores
    ``gin_difference``."""

    knock_card: int
    oklahoma: bool
    oklahoma_spade_doubles: bool
    gin_bonus: int
    undercut_bonus: int
    undercut_on_tie: bool
    big_gin_bonus: int | None
    wall_stock_size: int
    max_upcard_draws: int
    repeat_discard_draw: bool
    eleven_card_deadwood: ElevenCardDeadwood
    layoff_run_chain: LayoffRunChain


SUB_RECORDS: Final[Mapping[str, type]] = {
    "melds": MeldRules,
    "scoring": ScoringRules,
    "knock": KnockRules,
    "match": MatchRules,
    "gin": GinRules,
}
"""The sub-records of :class:`Rules` by attribute name; each field is the option of the same name."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set; every field but :attr:`name` is a rule option, by the name that a rules text
    (``german(opening_min_points=30)``), ``--set`` and a TOML file use. ``docs/rules/options.en.md``
    (generated from these fields: ``python -m rummykit.explain docs/rules``) lists every option with
    its values and every preset's value.

    Build one with :meth:`preset`, :meth:`parse` or :meth:`load`, change it with :meth:`replace`.
    """

    name: str = "german"
    """Name of the preset this rule set started from (for display and the text form only)."""

    # Components and players ---------------------------------------------------------------------
    num_decks: int = field(default=2, metadata=_range(1, 2))
    """Number of 52-card French packs."""
    jokers_total: int = field(default=6, metadata=_range(0, 6))
    """Jokers in the whole deck."""
    min_players: int = field(default=2, metadata=_range(2, 8))
    max_players: int = field(default=6, metadata=_range(2, 8))
    dealer_sits_out_at_table_of: int | None = field(default=None, metadata=_range(3, 9))
    """At a table of this many the dealer sits out for the hand (DSkV: 4); ``None`` = never."""
    seat_draw: SeatDraw = "high_card"
    draw_ties_and_jokers: Literal["redraw"] = "redraw"
    deal_rotation: DealRotation = "clockwise"

    # Deal ---------------------------------------------------------------------------------------
    hand_size: int = field(default=13, metadata=_range(1, 15))
    hand_size_rule: HandSizeRule = "fixed"
    deal_packets: DealPackets = "p3334"
    start_mode: StartMode = "upcard"
    joker_robbing: bool = False
    robbed_joker_counts_toward_hand: bool = True

    # Melds --------------------------------------------------------------------------------------
    ace_low_in_runs: bool = True
    ace_high_in_runs: bool = True
    run_wraparound: bool = False
    allow_ace_both_ends: bool = True
    """A 14-card run A-2-…-K-A (two ace copies) is legal (decision D6)."""
    set_size_min: int = field(default=3, metadata=_range(3, 8))
    set_size_max: int = field(default=4, metadata=_range(3, 8))
    set_distinct_suits: bool = True
    joker_limit: JokerLimit = "jokers_le_naturals"
    max_adjacent_jokers: int | None = field(default=2, metadata=_range(1, 6))
    """Most jokers on consecutive run positions; ``None`` = no limit."""
    joker_end_assignment: JokerEndAssignment = "declared"
    """A joker at an open run end represents what the player declares, upward when undeclared (D12)."""

    # Opening, melding, lay-offs, joker exchange -------------------------------------------------
    opening_min_points: int | None = field(default=40, metadata=_range(0, 120))
    """Minimum opening value (RULES.md §2.2) of the first meld(s); ``None`` in knock games."""
    opening_scope: OpeningScope = "all_melds_this_turn"
    opening_counts_taken_discard: bool = True
    layoff_on_opening_turn: bool = False
    layoff_requires_opened: bool = True
    joker_exchange: bool = True
    joker_exchange_requires_opened: bool = True
    joker_exchange_on_opening_turn: bool = False
    set_joker_exchange: SetJokerExchange = "any_missing_suit"
    exchanged_joker_destination: ExchangedJokerDestination = "new_meld_same_turn"

    # Drawing and discarding ---------------------------------------------------------------------
    discard_pickup_requires_meld: bool = False
    discard_pickup_requires_opened: DiscardPickupRequiresOpened = "never"
    may_discard_taken_discard: bool = False
    joker_discard_allowed: JokerDiscardAllowed = "always"
    discard_playable_card_allowed: bool = True
    going_out_requires_discard: bool = False
    final_discard_face_down: bool = True

    # Hand scoring -------------------------------------------------------------------------------
    hand_romme_multiplier: int = field(default=2, metadata=_range(1, 2))
    hand_romme_requires_opening_min: bool = True
    penalty_ace: int = field(default=11, metadata=_range(0, 100))
    penalty_joker: int = field(default=30, metadata=_range(0, 100))
    penalty_court: int = field(default=10, metadata=_range(0, 100))
    stock_exhaustion: StockExhaustion = "reshuffle_keep_top"
    max_stock_rebuilds: int | None = field(default=3, metadata=_range(0, 10))
    """Stock rebuilds allowed per hand; ``None`` = unlimited (written ``unlimited``)."""
    max_takes_in_a_row: int = field(default=50, metadata=_range(10, 500))
    """Turns in a row that may begin by taking the discard pile; the next take ends the hand dead
    (not scored). With ``max_stock_rebuilds`` it bounds every hand (decision: RULES.md D10 promises
    that every hand ends, and players who only ever take the discard never empty the stock). Real
    hands stay far below it: in scans of greedy and random tables the stock never stayed untouched
    for more than 37 actions in a row. Gin has OpenSpiel's ``max_upcard_draws`` instead."""
    hand_scoring: HandScoring = "losers_penalty"

    # Match --------------------------------------------------------------------------------------
    match_end: MatchEnd = "fixed_hands"
    num_hands: int | None = field(default=None, metadata=_range(1, 100))
    """Hands in a ``fixed_hands`` match; ``None`` = one per player (every player deals once, D25, unless
    ``deal_rotation = winner_deals``)."""
    unscored_hand: UnscoredHand = "counts"
    """A melding game's fixed series (``match_end = fixed_hands``): what a hand that ends without a
    score (the stock ran out past ``max_stock_rebuilds``, or ``max_takes_in_a_row``) does to the
    series. ``counts``: it is one of the ``num_hands`` hands, and the deal passes on (RULES.md §3.15
    is silent; the engine's reading so far). ``redeal``: the same dealer deals again (under DSkV the
    same seat sits out) and the hand does not count, as clubs play it; after
    :data:`~rummykit.match.MOST_REDEALS_IN_A_ROW` hands in a row dealt again, the next unscored one
    counts, so that a series still ends."""
    penalty_limit: int = field(default=500, metadata=_range(50, 2000))
    """``match_end = penalty_limit``: the match ends when someone reaches this many minus points."""
    match_tiebreak: MatchTiebreak = "share"
    """A melding game that ends after its series or at its penalty limit: who wins when several
    share the best total. ``share``: they share the win (RULES.md §3.15). ``most_hands_won``: the one
    of them who went out in the most hands of the match (a starting position's ``hands_won``
    included). ``best_last_hand``: the one of them who scored best in the match's last
    scored hand that all of them were dealt in (fewest minus points, or most plus points): a seat
    that sat a hand out (the DSkV's dealer at four) scored nothing there to compare, so that hand
    does not decide, and with no such hand they share the win. Those still equal share the win."""
    target_score: int = field(default=100, metadata=_range(10, 1000))
    """``match_end = target_score``: the match ends when someone's plus score reaches this."""
    box_bonus: int = field(default=0, metadata=_range(0, 100))
    """Gin to a target score: when the game ends, every player gets this many points for each hand
    they won (a scored hand whose points for them are above 0: the knocker who scored, the defender
    who undercut); the rule books' box or line bonus (25). Like every end-of-game bonus it is added
    after the winner is decided (the first to ``target_score``, the most points), so it changes the
    margin, never the winner; ``Match.bonuses`` keeps what each player got."""
    game_bonus: int = field(default=0, metadata=_range(0, 500))
    """Gin to a target score: the winner of the game gets this many points when it ends (the rule
    books' game bonus, 100)."""
    shutout_doubles: bool = False
    """Gin to a target score: when the loser won no hand at all (a shutout), the winner's total,
    with the box and game bonuses, is doubled when the game ends."""
    elimination_threshold: int | None = field(default=None, metadata=_range(21, 1000))
    reentry: bool = False

    # Knock games --------------------------------------------------------------------------------
    knock_threshold: int | None = field(default=None, metadata=_range(0, 30))
    """Knock limit on deadwood after the discard; ``None`` means the game has no knocking."""
    knock_comparison: KnockComparison = "lt"
    knock_extra_turn: bool = False
    layoff_after_knock: LayoffAfterKnock = "none"
    knock_undercut_rule: KnockUndercutRule = "none"
    knocker_scores_own_deadwood: bool = True
    knock_discard_face_up: bool = True
    rummy_multiplier: int = field(default=1, metadata=_range(1, 2))
    deadwood_ace: int = field(default=11, metadata=_range(0, 100))
    deadwood_joker: int = field(default=20, metadata=_range(0, 100))
    pot_ante: int = field(default=5, metadata=_range(0, 100))
    ante_frequency: AnteFrequency = "per_rubber"
    knock_money: int = field(default=1, metadata=_range(0, 100))
    buyback_window: tuple[int, int] = field(default=(81, 101), metadata=_range(0, 1000))
    """Exclusive bounds on the score that allows a buy-back (D8)."""
    buyback_cost: int = field(default=5, metadata=_range(0, 100))
    buyback_limit: int = field(default=1, metadata=_range(0, 5))
    buyback_target: BuybackTarget = "second_worst_not_above_buyer"
    all_eliminated_tiebreak: AllEliminatedTiebreak = "lowest_total_wins"

    # Gin (OpenSpiel-compatible) -----------------------------------------------------------------
    knock_card: int = field(default=10, metadata=_range(0, 10))
    oklahoma: bool = False
    oklahoma_spade_doubles: bool = False
    """Gin under ``oklahoma``: a spade as the first upcard doubles the hand's score, its gin, big gin
    or undercut bonus included (the rule books' Oklahoma; off: OpenSpiel's, which has no doubling). A
    game's ``box_bonus`` still counts the hand once: it pays for hands won, not points."""
    gin_bonus: int = field(default=25, metadata=_range(0, 100))
    undercut_bonus: int = field(default=25, metadata=_range(0, 100))
    undercut_on_tie: bool = False
    big_gin_bonus: int | None = field(default=None, metadata=_range(0, 100))
    """Gin: a knocker whose eleven cards all lie in melds may lay them all instead of discarding (big
    gin) and scores this bonus in place of ``gin_bonus``; ``None``: no big gin (OpenSpiel's game)."""
    wall_stock_size: int = field(default=2, metadata=_range(0, 10))
    max_upcard_draws: int = field(default=50, metadata=_range(1, 100))
    """Gin: the hand is dead when a player would take the discard for the this-many-th time."""
    repeat_discard_draw: bool = True
    """Gin: the hand is dead when both players in turn take the upcard and throw it back at once."""
    eleven_card_deadwood: ElevenCardDeadwood = "openspiel"
    """Gin: how the deadwood of eleven cards (before the discard) decides a knock: ``openspiel``
    (its first greatest meld group, then the highest-ranked deadwood card out) or ``best_discard``
    (the least deadwood over every discard, the rule books' rule); see :mod:`rummykit.gin_melds`."""
    layoff_run_chain: LayoffRunChain = "two_per_end"
    """Gin: how far lay-offs extend a knocker's run: ``two_per_end`` (OpenSpiel) or ``unlimited``."""

    PRESETS: ClassVar[Mapping[str, Rules]]
    ALIASES: ClassVar[Mapping[str, str]]

    def __post_init__(self) -> None:
        _validate(self)

    # Construction -------------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> Rules:
        """The preset called ``name``: a preset name or an alias, case- and accent-insensitive.

        >>> Rules.preset("Wiener Rummy").name, Rules.preset("Scala 40").name
        ('viennese', 'scala40')

        Raises:
            RulesError: no preset has that name.
            TypeError: ``name`` is not a text.
        """
        if not isinstance(name, str):
            raise TypeError(f"Rules.preset takes a preset's name such as 'german', not {type(name).__name__}")
        key = normalise_name(name)
        key = cls.ALIASES.get(key, key)
        try:
            return cls.PRESETS[key]
        except KeyError:
            known = ", ".join(cls.PRESETS)
            raise RulesError(f"unknown preset {quoted(name)}; known presets: {known}") from None

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; the result is validated like any rule set.

        Raises:
            RulesError: an unknown option name or an invalid value.
        """
        names = _FIELD_NAMES
        for key in changes:
            if key not in names:
                raise RulesError(f"unknown rule option {quoted(key)}", option=key)
        return dataclasses.replace(self, **self._follow_links(changes))

    def _follow_links(self, changes: dict[str, Any]) -> dict[str, Any]:
        """``changes`` plus the options that follow them (:data:`LINKED_DEFAULTS`): a follower not
        named in ``changes`` whose value is the one its leader's old value implies moves with it."""
        for (preset, leader), (follower, implied) in LINKED_DEFAULTS.items():
            if self.name != preset or leader not in changes or follower in changes:
                continue
            old, new = getattr(self, leader), changes[leader]
            if old in implied and new in implied and getattr(self, follower) == implied[old]:
                changes = {**changes, follower: implied[new]}
        return changes

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse the text form ``preset(option=value, ...)`` or a bare preset name.

        Values are integers, ``true``/``false``, ``none`` (or ``unlimited``), identifiers and pairs
        ``(81, 101)`` (:mod:`rummykit.rules_text`).

        >>> Rules.parse("viennese(knock_comparison=le, buyback_window=(80, 101))").knock_comparison
        'le'

        Raises:
            RulesError: malformed text, an unknown preset or option, or an invalid value.
        """
        name, assignments = split_rules_text(text)
        base = cls.preset(name)
        if not assignments:
            return base
        return base.replace(**{key: _coerce(key, raw) for key, raw in assignments})

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Rules:
        """Build from a mapping with an optional ``preset`` key (default ``german``) plus options.

        Raises:
            RulesError: unknown option, wrong type or invalid value.
        """
        data = dict(data)
        preset = data.pop("preset", None)
        name = data.pop("name", None)
        base = cls.preset(str(preset or name or "german"))
        changes = {key: _coerce(key, value) for key, value in data.items()}
        return base.replace(**changes)

    @classmethod
    def load(cls, path: str | Path) -> Rules:
        """Load a rule set from a TOML file: ``preset = "german"`` plus option assignments.

        A ``[rules]`` table is used when present, otherwise the top level.

        Raises:
            RulesError: unreadable file, bad TOML, unknown option or invalid value.
        """
        return cls.from_mapping(read_rules_file(path))

    # Text and data forms ------------------------------------------------------------------------
    def to_toml(self) -> str:
        """The rule set as a TOML file that :meth:`load` reads back equal: its preset and the options
        it changes.

        >>> print(Rules.preset("german").replace(opening_min_points=30).to_toml(), end="")
        preset = "german"
        opening_min_points = 30
        """
        return write_rules_file(self.name if self.name in Rules.PRESETS else "german", self.changes())

    def changes(self) -> dict[str, Any]:
        """The options that differ from the preset this rule set is named after.

        A follower of :data:`LINKED_DEFAULTS` is named whenever its leader is: reading
        ``basic(ace_high_in_runs=true)`` back moves ``penalty_ace`` to 11, so a rule set that keeps
        it at 1 must say ``basic(ace_high_in_runs=true, penalty_ace=1)``.
        """
        base = Rules.PRESETS.get(self.name)
        if base is None:
            base = Rules.PRESETS["german"]
        named = {
            follower
            for (preset, leader), (follower, _) in LINKED_DEFAULTS.items()
            if self.name == preset and getattr(self, leader) != getattr(base, leader)
        }
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name != "name" and (getattr(self, f.name) != getattr(base, f.name) or f.name in named)
        }

    def __str__(self) -> str:
        changes = self.changes()
        if not changes:
            return self.name
        body = ", ".join(f"{key}={format_value(key, value)}" for key, value in changes.items())
        return f"{self.name}({body})"

    def __repr__(self) -> str:
        """The text form in a call that rebuilds the rules, not all of their options: a view or a
        record that holds the rules prints in a few words.

        >>> Rules.preset("german").replace(opening_min_points=30)
        Rules.parse('german(opening_min_points=30)')
        """
        return f"Rules.parse({str(self)!r})"

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value (JSON-compatible: pairs become lists)."""
        return {f.name: list(v) if isinstance(v := getattr(self, f.name), tuple) else v for f in fields(self)}

    # Derived values -----------------------------------------------------------------------------
    @property
    def is_knock_game(self) -> bool:
        """Knock family (cards stay in hand, the hand ends by Rummy or knock): ``knock_threshold`` set."""
        return self.knock_threshold is not None

    @property
    def family(self) -> FamilyName:
        """The family of turn logic (:mod:`rummykit.families`): ``"gin"`` when the hand is scored
        ``gin_difference``, ``"knock"`` when ``knock_threshold`` is set (cards stay in hand until
        Rummy or a knock), else ``"melding"`` (cards go on the table)."""
        if self.hand_scoring == "gin_difference":
            return "gin"
        return "knock" if self.knock_threshold is not None else "melding"

    @property
    def is_gin(self) -> bool:
        """Gin Rummy (RULES.md §5.4): ``hand_scoring = gin_difference``."""
        return self.hand_scoring == "gin_difference"

    @property
    def deck_size(self) -> int:
        return self.num_decks * NUM_FACES + self.jokers_total

    # Sub-records ---------------------------------------------------------------------------------
    @property
    def melds(self) -> MeldRules:
        """The meld options (:class:`MeldRules`): the solver's cache key."""
        return MeldRules(*_MELD_VALUES(self))

    @property
    def scoring(self) -> ScoringRules:
        """The hand-scoring options (:class:`ScoringRules`)."""
        return ScoringRules(*_SCORING_VALUES(self))

    @property
    def knock(self) -> KnockRules:
        """The knock options (:class:`KnockRules`)."""
        return KnockRules(*_KNOCK_VALUES(self))

    @property
    def match(self) -> MatchRules:
        """The match and rubber options (:class:`MatchRules`)."""
        return MatchRules(*_MATCH_VALUES(self))

    @property
    def gin(self) -> GinRules:
        """The gin options (:class:`GinRules`)."""
        return GinRules(*_GIN_VALUES(self))

    def check_table(self, players: int, dealer: int = 0) -> None:
        """Raise :class:`RulesError` unless ``players`` may sit at this game with ``dealer`` dealing."""
        for what, number in (("players", players), ("dealer", dealer)):
            try:  # any integer, NumPy's too (operator.index); a bool or a float is a mistake
                if isinstance(number, bool):
                    raise TypeError
                operator.index(number)
            except TypeError:
                raise TypeError(f"{what} must be an integer, not {quoted(number)}") from None
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                raise RulesError(
                    f"players: {self.name} is played by {self.min_players} players, not {players}",
                    option="max_players",
                )
            raise RulesError(
                f"players: {self.name} is played by {self.min_players} to {self.max_players} "
                f"players, not {players}",
                option="max_players",
            )
        if not 0 <= dealer < players:
            raise RulesError(f"dealer: seat {dealer} does not exist at a table of {players}")

    def accepts(self, option: str, value: Any) -> bool:
        """Whether these rules take ``value`` for ``option`` (:meth:`replace` would not refuse it).

        >>> Rules.preset("german").accepts("opening_min_points", 30)
        True
        >>> Rules.preset("viennese").accepts("opening_min_points", 30)  # a knock game has no minimum
        False
        """
        try:
            self.replace(**{option: value})
        except RulesError:
            return False
        return True

    def not_applicable(self, option: str) -> str | None:
        """Why ``option`` cannot matter under these rules (RULES.md §6 ``–``), or ``None`` if it can.

        Such an option keeps the value of the preset the rules are named after; validation refuses
        any other value rather than accept one that changes nothing.

        >>> Rules.preset("german").not_applicable("knock_extra_turn")
        'only knock games use it (knock_threshold is none)'
        """
        check = _APPLIES.get(option)
        return None if check is None else check(self)

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each player at a table of ``players`` active players (``hand_size_rule``).

        ``by_player_count`` deals by the table of the game the rules are named after: Basic Rummy's
        10/7/6 (RULES.md §5.3) for ``basic``, rummy.ch's 13 with 2–4 and 11 with 5–6 players
        (§3.4) for the others; a player count outside the table keeps ``hand_size``.

        >>> by_count = Rules.preset("german").replace(hand_size_rule="by_player_count")
        >>> [by_count.hand_size_for(n) for n in (4, 5)]
        [13, 11]
        >>> [Rules.preset("basic").hand_size_for(n) for n in (2, 3, 5)]
        [10, 7, 6]
        """
        if self.hand_size_rule == "by_player_count":
            return self.hand_size_table.get(players, self.hand_size)
        return self.hand_size

    @property
    def hand_size_table(self) -> Mapping[int, int]:
        """The ``by_player_count`` table of the game these rules are named after (players to cards)."""
        return HAND_SIZE_TABLES.get(self.name, RUMMY_CH_HAND_SIZES)

    def active_players(self, seated: int) -> int:
        """Players who receive cards when ``seated`` sit at the table (the DSkV dealer sits out)."""
        if self.dealer_sits_out_at_table_of is not None and seated == self.dealer_sits_out_at_table_of:
            return seated - 1
        return seated

    def penalty_value(self, card: int) -> int:
        """Value of a card left in hand at the end of a melding-game hand (RULES.md §2.2, 3.14)."""
        if card == NUM_FACES:
            return self.penalty_joker
        rank = card % 13 + 1
        if rank == 1:
            return self.penalty_ace
        return self.penalty_court if rank > 10 else rank

    def deadwood_value(self, card: int) -> int:
        """Value of an unmelded card in a knock game (RULES.md §2.2, 4.6)."""
        if card == NUM_FACES:
            return self.deadwood_joker
        rank = card % 13 + 1
        if rank == 1:
            return self.deadwood_ace
        return 10 if rank > 10 else rank

    def card_points(self, card: int) -> int:
        """End-of-hand value in this game: deadwood value in knock games, penalty value otherwise."""
        return self.deadwood_value(card) if self.is_knock_game else self.penalty_value(card)


_FIELD_NAMES: Final = frozenset(f.name for f in fields(Rules))
OPTION_TYPES: Final[Mapping[str, OptionType]] = {
    name: OptionType.of(hint) for name, hint in get_type_hints(Rules).items() if name in _FIELD_NAMES
}
"""What values each option takes (its written form), from the field annotations of :class:`Rules`."""
_MELD_VALUES: Final = attrgetter(*(f.name for f in fields(MeldRules)))
_SCORING_VALUES: Final = attrgetter(*(f.name for f in fields(ScoringRules)))
_KNOCK_VALUES: Final = attrgetter(*(f.name for f in fields(KnockRules)))
_MATCH_VALUES: Final = attrgetter(*(f.name for f in fields(MatchRules)))
_GIN_VALUES: Final = attrgetter(*(f.name for f in fields(GinRules)))
OPTION_RANGES: Final[Mapping[str, tuple[int, int]]] = {
    f.name: f.metadata["range"] for f in fields(Rules) if "range" in f.metadata
}
"""Inclusive ``(low, high)`` bounds of every numeric option (pairs: of both numbers).

>>> OPTION_RANGES["opening_min_points"]
(0, 120)
"""


def option_range(option: str) -> tuple[int, int]:
    """The inclusive range of the numeric option ``option``.

    Raises:
        RulesError: ``option`` is not a numeric option of :class:`Rules`.
    """
    try:
        return OPTION_RANGES[option]
    except KeyError:
        raise RulesError(f"{quoted(option)} is not a numeric rule option", option=option) from None


def _knock_only(rules: Rules) -> str | None:
    return None if rules.is_knock_game else "only knock games use it (knock_threshold is none)"


def _melding_only(rules: Rules) -> str | None:
    return "a knock game puts no cards on the table" if rules.is_knock_game else None


def _in_knock_games(reason: str) -> Callable[[Rules], str | None]:
    """An applicability test for a melding game's option that a knock game has no use for: ``reason``
    names what the knock game does instead (its own option, or why it cannot matter)."""

    def check(rules: Rules) -> str | None:
        return reason if rules.is_knock_game else None

    return check


def _melding_match(rules: Rules) -> str | None:
    if rules.is_knock_game:
        return "only a melding game's match uses it (knock games and gin keep their own match ends)"
    return None


def _rubber_only(rules: Rules) -> str | None:
    if rules.is_knock_game and rules.match_end == "elimination_last_survivor":
        return None
    return "only a knock-game rubber (match_end = elimination_last_survivor) uses it"


def _knock_not_gin(rules: Rules) -> str | None:
    if rules.is_gin:
        return "gin scores by gin_difference with knock_card and no extra turn"
    return _knock_only(rules)


def _not_gin(
    reason: str, otherwise: Callable[[Rules], str | None] | None = None
) -> Callable[[Rules], str | None]:
    """An applicability test: ``reason`` under gin, else ``otherwise`` (applies when absent)."""

    def check(rules: Rules) -> str | None:
        if rules.is_gin:
            return reason
        return otherwise(rules) if otherwise is not None else None

    return check


def _both(*checks: Callable[[Rules], str | None]) -> Callable[[Rules], str | None]:
    """An applicability test that applies where each of ``checks`` does (the first reason else)."""

    def check(rules: Rules) -> str | None:
        return next((reason for c in checks if (reason := c(rules)) is not None), None)

    return check


def _with_jokers(rules: Rules) -> str | None:
    return None if rules.jokers_total else "jokers_total is 0: no joker is dealt"


def _exchange_on(rules: Rules) -> str | None:
    return None if rules.joker_exchange else "joker_exchange is off: no joker is exchanged"


def _stock_rebuilt(rules: Rules) -> str | None:
    if rules.stock_exhaustion in ("end_hand_no_score", "wall_draw"):
        return f"stock_exhaustion = {rules.stock_exhaustion} never builds a new stock"
    return None


def _knock_below_some(rules: Rules) -> str | None:
    if rules.knock_threshold == 0:
        return "knock_threshold is 0: a hand of no deadwood calls Rummy, so no knock is compared"
    return _knock_not_gin(rules)


def _gin_only(rules: Rules) -> str | None:
    if rules.hand_scoring == "gin_difference":
        return None
    return "only gin (hand_scoring = gin_difference) uses it"


def _knock_card_applies(rules: Rules) -> str | None:
    if rules.oklahoma:
        return "oklahoma sets the knock card from the first upcard"
    return _gin_only(rules)


def _oklahoma_on(rules: Rules) -> str | None:
    return None if rules.oklahoma else "oklahoma is off: no first upcard sets the hand's stakes"


def _match_end_is(*ends: str) -> Callable[[Rules], str | None]:
    def check(rules: Rules) -> str | None:
        return None if rules.match_end in ends else f"only match_end = {' or '.join(ends)} uses it"

    return check


def _opening_minimum(rules: Rules) -> str | None:
    if rules.is_knock_game:
        return _melding_only(rules)
    return None if rules.opening_min_points else "only an opening minimum above 0 uses it"


def _smallest_meld_values(rules: Rules) -> tuple[int, int]:
    """The smallest opening value of a meld (A-2-3 when the ace is low in runs, else 2-3-4, or a set
    of twos: RULES.md §3.7), and the smallest that is left when one of its cards does not count."""
    run = (1, 2, 3) if rules.ace_low_in_runs else (2, 3, 4)
    twos = (2,) * rules.set_size_min
    return min(sum(run), sum(twos)), min(sum(run) - max(run), sum(twos) - 2)


def _minimum_can_fail(rules: Rules) -> str | None:
    """``hand_romme_requires_opening_min`` matters only where some meld is worth less than the
    minimum (a Hand-Rommé always lays at least one meld; without ``opening_counts_taken_discard``
    the meld less the taken card)."""
    reason = _opening_minimum(rules)
    if reason is None and rules.opening_min_points is not None:
        whole, less_one = _smallest_meld_values(rules)
        smallest = whole if rules.opening_counts_taken_discard else less_one
        if rules.opening_min_points <= smallest:
            return f"every meld is worth at least {smallest}, the opening minimum {rules.opening_min_points}"
    return reason


def _minimum_can_fail_without_a_card(rules: Rules) -> str | None:
    """``opening_counts_taken_discard`` matters only where a meld less one card can be worth less
    than the minimum."""
    reason = _opening_minimum(rules)
    if reason is None and rules.opening_min_points is not None:
        _, left = _smallest_meld_values(rules)
        if rules.opening_min_points <= left:
            return (
                f"less any one of its cards, every meld is still worth at least {left}, "
                f"the opening minimum {rules.opening_min_points}"
            )
    return reason


def _second_deal(rules: Rules) -> str | None:
    """``deal_rotation`` matters only where a second hand is dealt."""
    if rules.match_end == "fixed_hands" and rules.num_hands == 1:
        return "num_hands is 1: the match is one hand, nobody deals a second"
    return None


def _suits_can_repeat(rules: Rules) -> str | None:
    """``set_distinct_suits`` matters only where a set could hold one card twice or more than four
    cards: one deck holds each card once."""
    if rules.num_decks == 1 and rules.set_size_max <= NUM_SUITS:
        return "one deck holds each card once: the naturals of a set always differ in suit"
    return None


def _jokers_side_by_side(rules: Rules) -> str | None:
    """``max_adjacent_jokers`` matters only where a meld can hold two jokers."""
    if rules.joker_limit == "max_one_joker_per_meld":
        return "joker_limit = max_one_joker_per_meld: no meld holds two jokers"
    if rules.jokers_total == 1:
        return "jokers_total is 1: no meld holds two jokers"
    return _with_jokers(rules)


def _joker_limit_matters(rules: Rules) -> str | None:
    """With a single joker in the deck every ``joker_limit`` allows the same melds: a meld of three
    or more cards with one joker has two naturals."""
    if rules.jokers_total == 1:
        return "jokers_total is 1: every limit allows the same melds with one joker"
    return _with_jokers(rules)


def _nonzero(option: str, why: str) -> Callable[[Rules], str | None]:
    """An applicability test: ``"<option> is 0: <why>"`` when ``option`` is 0 (applies otherwise)."""

    def check(rules: Rules) -> str | None:
        return f"{option} is 0: {why}" if getattr(rules, option) == 0 else None

    return check


def _ace_both_ways(rules: Rules) -> str | None:
    if rules.ace_low_in_runs and rules.ace_high_in_runs:
        return None
    return "only runs with the ace both low and high (ace_low_in_runs, ace_high_in_runs) use it"


def _fixed_hand_size(rules: Rules) -> str | None:
    if rules.hand_size_rule == "fixed":
        return None
    sizes = (rules.active_players(n) for n in range(rules.min_players, rules.max_players + 1))
    if all(n in rules.hand_size_table for n in sizes):
        return "hand_size_rule = by_player_count sets the hand size for every table of these rules"
    return None


def _sizes_vary(rules: Rules) -> str | None:
    sizes = {rules.active_players(n) for n in range(rules.min_players, rules.max_players + 1)}
    size = rules.hand_size
    if all(rules.hand_size_table.get(n, size) == size for n in sizes):
        return f"by_player_count deals {size} cards at every table of these rules too"
    return None


def _takes_unbounded(rules: Rules) -> str | None:
    if rules.discard_pickup_requires_meld and not rules.is_knock_game:
        return (
            "discard_pickup_requires_meld lays every taken card on the table, so the hands shrink "
            "and takes cannot go on for ever"
        )
    return None


def _robbing_on(rules: Rules) -> str | None:
    return None if rules.joker_robbing else "only joker_robbing uses it"


def _seat_draw_by_cards(rules: Rules) -> str | None:
    return None if rules.seat_draw == "high_card" else "only seat_draw = high_card draws cards"


GIN_OPTIONS: Final = tuple(f.name for f in fields(GinRules))
"""The options of OpenSpiel-compatible gin: they apply once a preset scores ``gin_difference``."""
_APPLIES: Final[Mapping[str, Callable[[Rules], str | None]]] = {
    "draw_ties_and_jokers": _seat_draw_by_cards,
    "robbed_joker_counts_toward_hand": _robbing_on,
    "hand_size": _fixed_hand_size,
    "allow_ace_both_ends": _ace_both_ways,
    "set_distinct_suits": _suits_can_repeat,
    "deal_rotation": _second_deal,
    "opening_scope": _opening_minimum,
    "opening_counts_taken_discard": _minimum_can_fail_without_a_card,
    "hand_romme_requires_opening_min": _minimum_can_fail,
    **dict.fromkeys(
        (
            "opening_min_points",
            "layoff_on_opening_turn",
            "layoff_requires_opened",
            "discard_pickup_requires_meld",
            "discard_pickup_requires_opened",
            "discard_playable_card_allowed",
        ),
        _melding_only,
    ),
    # A knock game's Rummy call always puts its last card away (RULES.md §4.4, §5.1: face down under
    # final_discard_face_down), and a knock is a discard; gin's knock discards, but a big gin lays all
    # eleven cards without one.
    "going_out_requires_discard": _not_gin(
        "gin ends with a knock, which discards, or a big gin of all eleven cards (big_gin_bonus)",
        _in_knock_games(
            "a knock game always ends with a discard: a knock discards, a Rummy call lays its last card away"
        ),
    ),
    # A knock game multiplies the others' bad points after a Rummy call by rummy_multiplier (§4.7); gin
    # has no Rummy call (and refuses rummy_multiplier): going gin scores gin_bonus.
    "hand_romme_multiplier": _not_gin(
        "gin has no Rummy call: going gin scores gin_bonus",
        _in_knock_games("a knock game multiplies after a Rummy call by rummy_multiplier"),
    ),
    # A knock game counts the cards left in hand as deadwood (§2.2, D20), by its own values.
    "penalty_ace": _in_knock_games(
        "a knock game counts the cards left as deadwood: deadwood_ace sets the ace"
    ),
    "penalty_court": _in_knock_games("a knock game counts J, Q and K left in hand as 10 deadwood"),
    "penalty_joker": _not_gin(
        "gin has no jokers",
        _both(
            _in_knock_games("a knock game counts the cards left as deadwood: deadwood_joker sets the joker"),
            _with_jokers,
        ),
    ),
    **dict.fromkeys(("joker_exchange", "joker_discard_allowed"), _both(_melding_only, _with_jokers)),
    **dict.fromkeys(
        (
            "joker_exchange_requires_opened",
            "joker_exchange_on_opening_turn",
            "set_joker_exchange",
            "exchanged_joker_destination",
        ),
        _both(_melding_only, _with_jokers, _exchange_on),
    ),
    **dict.fromkeys(("layoff_after_knock", "deadwood_ace"), _knock_only),
    "deadwood_joker": _not_gin("gin has no jokers", _both(_knock_only, _with_jokers)),
    **dict.fromkeys(("joker_robbing", "joker_end_assignment"), _not_gin("gin has no jokers", _with_jokers)),
    "joker_limit": _not_gin("gin has no jokers", _joker_limit_matters),
    "max_adjacent_jokers": _not_gin("gin has no jokers", _jokers_side_by_side),
    "final_discard_face_down": _not_gin("gin has no face-down card: a gin is a knock"),
    "max_stock_rebuilds": _not_gin(
        "a gin hand ends at the wall (wall_draw); the stock is never rebuilt", _stock_rebuilt
    ),
    "max_takes_in_a_row": _not_gin(
        "gin counts its takes with max_upcard_draws (OpenSpiel's bound)", _takes_unbounded
    ),
    "hand_size_rule": _not_gin("gin deals hand_size cards to each of its two players", _sizes_vary),
    "knock_comparison": _knock_below_some,
    **dict.fromkeys(
        (
            "knock_extra_turn",
            "knock_undercut_rule",
            "knocker_scores_own_deadwood",
            "knock_discard_face_up",
            "rummy_multiplier",
        ),
        _knock_not_gin,
    ),
    **dict.fromkeys(
        ("pot_ante", "knock_money", "buyback_limit", "buyback_target", "all_eliminated_tiebreak"),
        _rubber_only,
    ),
    "ante_frequency": _both(_rubber_only, _nonzero("pot_ante", "no ante is paid")),
    **dict.fromkeys(
        ("buyback_window", "buyback_cost"), _both(_rubber_only, _nonzero("buyback_limit", "nobody buys back"))
    ),
    "num_hands": _match_end_is("fixed_hands"),
    "unscored_hand": _both(_melding_match, _match_end_is("fixed_hands")),
    "penalty_limit": _match_end_is("penalty_limit"),
    "match_tiebreak": _both(_melding_match, _match_end_is("fixed_hands", "penalty_limit")),
    "target_score": _match_end_is("target_score"),
    "elimination_threshold": _match_end_is("elimination_last_survivor"),
    "reentry": _match_end_is("elimination_last_survivor"),
    **dict.fromkeys(GIN_OPTIONS, _gin_only),
    # Gin's end-of-game bonuses: only a game to a target score ends with a winner to pay them.
    **dict.fromkeys(
        ("box_bonus", "game_bonus", "shutout_doubles"), _both(_gin_only, _match_end_is("target_score"))
    ),
    "undercut_on_tie": _both(_gin_only, _nonzero("undercut_bonus", "a tie scores nothing either way")),
    "knock_card": _knock_card_applies,
    "oklahoma_spade_doubles": _both(_gin_only, _oklahoma_on),
}
"""Options that only matter under some rules: each maps to a test giving the reason when they cannot.

Options not listed matter under every rule set. A gin preset (``hand_scoring = gin_difference``)
switches the gin options on.
"""
_INERT: Final[Mapping[str, object]] = {"allow_ace_both_ends": False}
"""Values an option may always hold where it does not apply, besides the preset's own."""


def option_choices(option: str) -> tuple[str, ...] | None:
    """The allowed words of a choice option (``seat_draw``: ``high_card``, ``random``), else ``None``."""
    kind = OPTION_TYPES[option]
    return kind.choices if kind.kind == "choice" else None


def _coerce(option: str, raw: Any) -> Any:
    """``raw`` (text or a TOML value) as a value of ``option``'s type; validation happens afterwards."""
    kind = OPTION_TYPES.get(option)
    if kind is None:
        raise RulesError(f"unknown rule option {quoted(option)}", option=option)
    return coerce(option, kind, raw)


def _validate(rules: Rules) -> None:
    """Reject invalid values and inconsistent combinations; the message names the option."""

    def fail(option: str, message: str) -> None:
        raise RulesError(f"{option}: {message}", option=option)

    for option, kind in OPTION_TYPES.items():
        value = getattr(rules, option)
        if value is None and kind.optional:
            continue
        if kind.kind == "choice":
            if value not in kind.choices:
                fail(option, f"{quoted(value)} is not one of {', '.join(kind.choices)}")
        elif kind.kind == "bool":
            if not isinstance(value, bool):
                fail(option, f"must be true or false, not {quoted(value)}")
        elif kind.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                fail(option, f"must be an integer, not {quoted(value)}")
            low, high = OPTION_RANGES[option]
            if not low <= value <= high:
                fail(option, f"must be between {low} and {high}, got {quoted(value)}")
        elif kind.kind == "pair":
            if (
                not isinstance(value, tuple)
                or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            ):
                fail(option, f"must be a pair of integers, not {quoted(value)}")
            low, high = OPTION_RANGES[option]
            if not all(low <= v <= high for v in value):
                fail(option, f"both numbers must be between {low} and {high}, got {quoted(value)}")
        elif not isinstance(value, str):
            fail(option, f"must be text, not {quoted(value)}")

    presets: Mapping[str, Rules] | None = getattr(Rules, "PRESETS", None)  # None while they are built
    if presets is not None and rules.name not in presets:
        fail(
            "name",
            f"{quoted(rules.name)} is not a preset ({', '.join(presets)}): a rule set is named by the "
            "preset it starts from, and its text form (and every record) by that name and its changes",
        )
    if rules.max_players < rules.min_players:
        fail("max_players", f"{rules.max_players} is below min_players {rules.min_players}")
    if rules.dealer_sits_out_at_table_of is not None and not (
        rules.min_players < rules.dealer_sits_out_at_table_of <= rules.max_players
    ):
        low, most = rules.min_players + 1, rules.max_players
        where = f"sizes {low} to {most}" if low < most else f"only at {most}"
        fail(
            "dealer_sits_out_at_table_of",
            f"{rules.dealer_sits_out_at_table_of} is not a table size where a dealer can sit out ({where})",
        )
    if not rules.ace_low_in_runs and not rules.ace_high_in_runs and rules.allow_ace_both_ends:
        fail("allow_ace_both_ends", "needs both ace_low_in_runs and ace_high_in_runs")
    if rules.run_wraparound:
        fail("run_wraparound", "round-the-corner runs (K-A-2) are not supported by this engine")
    if not 3 <= rules.set_size_min <= rules.set_size_max:
        fail(
            "set_size_min",
            f"needs 3 <= set_size_min <= set_size_max, got {rules.set_size_min}/{rules.set_size_max}",
        )
    if rules.set_size_max > 4 and rules.set_distinct_suits:
        fail("set_size_max", "a set of distinct suits holds at most 4 cards")
    low, high = rules.buyback_window
    if low >= high:
        fail("buyback_window", f"low bound {low} must be below high bound {high}")
    if rules.is_knock_game:
        if rules.hand_scoring not in ("deadwood_all", "gin_difference"):
            fail(
                "hand_scoring",
                f"{rules.hand_scoring} does not score a knock game, and knock_threshold "
                f"{rules.knock_threshold} makes this one (use deadwood_all or gin_difference, or "
                "knock_threshold=none for a melding game)",
            )
        if rules.start_mode == "forehand_extra_card":
            fail("start_mode", "forehand_extra_card is not a knock-game deal")
        if rules.opening_min_points is not None:
            fail("opening_min_points", "a knock game has no opening minimum (use none)")
    else:
        if rules.hand_scoring in ("deadwood_all", "gin_difference"):
            fail("hand_scoring", f"{rules.hand_scoring} needs knock_threshold (a knock game)")
        if rules.opening_min_points is None:
            fail("opening_min_points", "a melding game needs an opening minimum (0 for none)")
    if rules.is_gin:
        _validate_gin(rules, fail)
    else:
        gin_values = {
            "start_mode": "gin_first_upcard",
            "stock_exhaustion": "wall_draw",
            "layoff_after_knock": "onto_knocker_unless_gin",
        }
        for option, value in gin_values.items():
            if getattr(rules, option) == value:
                fail(option, f"{value} is only for gin (hand_scoring = gin_difference)")
    if rules.match_end == "elimination_last_survivor" and rules.elimination_threshold is None:
        fail("elimination_threshold", "elimination_last_survivor needs an elimination threshold")
    _validate_reachable(rules, fail)
    threshold = rules.elimination_threshold
    if _rubber_only(rules) is None and threshold is not None and high > threshold:
        fail(
            "buyback_window",
            f"the high bound {high} is above elimination_threshold {threshold}: "
            "a player who reaches the threshold is out and cannot buy back",
        )

    # Values named by RULES.md that this engine does not play yet are refused, never ignored.
    unsupported = {
        "knock_undercut_rule": ("knocker_penalised", "no source defines the knocker's penalty"),
    }
    for option, (value, why) in unsupported.items():
        if getattr(rules, option) == value:
            fail(option, f"{value} is not supported: {why}")
    if rules.reentry:
        fail("reentry", "re-entry after elimination is not supported (its rules were not verified)")

    # An option that cannot matter keeps the value of the preset the rules are named after (of
    # german or viennese when the rules changed family).
    if presets is not None:
        base = presets.get(rules.name)
        if base is None or base.is_knock_game != rules.is_knock_game:
            base = presets["viennese" if rules.is_knock_game else "german"]
        for option, check in _APPLIES.items():
            value = getattr(rules, option)
            same = value == getattr(base, option) or (option in _INERT and value == _INERT[option])
            reason = None if same else check(rules)
            if reason is not None:
                fail(option, f"does not apply to these rules: {reason}")

    # The deck must hold every hand at the largest table, the extra starting card and at least one
    # card of stock (or the upcard).
    deck = rules.deck_size
    for players in range(rules.min_players, rules.max_players + 1):
        active = rules.active_players(players)
        needed = active * rules.hand_size_for(active) + 2
        if needed > deck:
            option = "hand_size_rule" if rules.hand_size_rule == "by_player_count" else "hand_size"
            table = rules.hand_size_table if rules.hand_size_rule == "by_player_count" else {}
            if table and active not in table:  # where the number dealt comes from
                fail(
                    option,
                    f"a deck of {deck} cards cannot deal {rules.hand_size_for(active)} cards to {active} "
                    f"players and leave a stock (the deal table of {rules.name} stops at {max(table)} "
                    f"players, and beyond it hand_size {rules.hand_size} is dealt: lower max_players or "
                    "hand_size)",
                )
            fail(
                option,
                f"a deck of {deck} cards cannot deal {rules.hand_size_for(active)} "
                f"cards to {active} players and leave a stock",
            )


def _validate_reachable(rules: Rules, fail: Callable[[str, str], None]) -> None:
    """Refuse combinations under which a hand or a match cannot end as the rules say: a match end
    counting points the hand scoring never gives, hands too small to lay a meld or reach the opening
    minimum, and a joker exchanged before the opening that would go straight into a meld below it."""
    if not rules.is_gin:
        gains = rules.hand_scoring in ("winner_collects", "winner_gets_sum")
        penalties = rules.hand_scoring != "winner_collects"
        if rules.match_end == "target_score" and not gains:
            fail(
                "match_end",
                f"target_score counts plus points, which {rules.hand_scoring} never gives: the match "
                "would not end (use winner_collects or winner_gets_sum)",
            )
        if rules.match_end in ("penalty_limit", "elimination_last_survivor") and not penalties:
            fail(
                "match_end",
                f"{rules.match_end} counts minus points, which winner_collects never gives: the match "
                "would not end",
            )
    if rules.is_knock_game:
        if rules.knock_threshold == 1 and rules.knock_comparison == "lt":
            fail(
                "knock_threshold",
                "1 under knock_comparison lt allows no knock (a knock needs 0 < deadwood < 1): use "
                "knock_threshold=0 to play without knocking, or knock_comparison=le",
            )
        return
    minimum = rules.opening_min_points or 0
    tables = range(rules.min_players, rules.max_players + 1)
    sizes = {n: rules.hand_size_for(rules.active_players(n)) for n in tables}
    players = min(sizes, key=lambda n: (sizes[n], n))
    smallest = sizes[players]
    laid = smallest + 1 - (1 if rules.going_out_requires_discard else 0)  # after the draw, a discard kept
    waived = not rules.hand_romme_requires_opening_min  # a whole hand laid at once opens below it
    if rules.hand_size_rule == "fixed":
        if laid < 3:
            fail("hand_size", f"a hand of {smallest} can never lay a meld of three cards")
        if 11 * laid < minimum and not waived:
            fail(
                "hand_size",
                f"a hand of {smallest} can never reach the opening minimum of {minimum} "
                "(a card counts 11 at most)",
            )
    elif laid < 3:
        fail(
            "hand_size_rule",
            f"the hand of {smallest} dealt at a table of {players} can never lay a meld of three cards",
        )
    elif 11 * laid < minimum and not waived:
        fail(
            "opening_min_points",
            f"the hand of {smallest} dealt at a table of {players} can never reach the opening minimum "
            f"of {minimum} (a card counts 11 at most)",
        )
    if (
        rules.jokers_total
        and rules.joker_exchange
        and not rules.joker_exchange_requires_opened
        and rules.exchanged_joker_destination != "hand"
        and minimum
    ):
        fail(
            "joker_exchange_requires_opened",
            "a joker exchanged before the opening would be laid at once "
            f"({rules.exchanged_joker_destination}), in a meld below the opening minimum (use "
            "exchanged_joker_destination = hand, or joker_exchange_requires_opened = true)",
        )


def _validate_gin(rules: Rules, fail: Callable[[str, str], None]) -> None:
    """Gin is OpenSpiel's game: two players, one pack without jokers, its 185 melds, the wall."""
    if (rules.min_players, rules.max_players) != (2, 2):
        fail("max_players", "gin is a game for exactly two players")
    if (rules.num_decks, rules.jokers_total) != (1, 0):
        fail("jokers_total", "gin is played with one pack and no jokers")
    if rules.ace_high_in_runs or not rules.ace_low_in_runs:
        fail("ace_high_in_runs", "gin runs take the ace low only")
    if (rules.set_size_min, rules.set_size_max) != (3, 4):
        fail("set_size_min", "gin sets hold 3 or 4 cards")
    if rules.start_mode not in ("gin_first_upcard", "upcard"):
        fail("start_mode", "a gin hand starts with the upcard (gin_first_upcard or upcard)")
    if rules.stock_exhaustion != "wall_draw":
        fail("stock_exhaustion", "a gin hand ends at the wall (wall_draw)")
    if rules.knock_threshold != 10:
        fail("knock_threshold", "gin knocks by knock_card (knock_threshold keeps 10)")
    if 2 * rules.hand_size + 1 + rules.wall_stock_size + 1 > rules.deck_size:
        fail("wall_stock_size", f"no stock is left to draw above a wall of {rules.wall_stock_size}")


def _build_presets() -> dict[str, Rules]:
    """The validated presets of :data:`rummykit.presets.PRESETS`, each built on its base."""
    built: dict[str, Rules] = {}
    for name, (base, changes) in preset_tables.PRESETS.items():
        start = Rules() if base is None else built[base]
        built[name] = dataclasses.replace(start, name=name, **changes)  # type: ignore[arg-type]
    return built


Rules.PRESETS = _build_presets()
Rules.ALIASES = {
    normalise_name(alias): name for name, aliases in preset_tables.ALIASES.items() for alias in aliases
}

PRESET_NAMES: Final = tuple(Rules.PRESETS)
"""The preset names in their documented order."""


def check_rules(rules: object) -> None:
    """Raise :class:`TypeError` unless ``rules`` is a :class:`Rules` (a preset's name is not one:
    ``Rules.preset(name)`` makes it)."""
    if not isinstance(rules, Rules):
        hint = f" (Rules.preset({rules!r}))" if isinstance(rules, str) else ""
        raise TypeError(f"rules must be a Rules{hint}, not {type(rules).__name__}")
