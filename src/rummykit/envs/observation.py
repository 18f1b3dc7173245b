"""The observation encoding of the rummykit environments (version 4): one flat ``float32`` vector
per seat, built from that seat's :class:`~rummykit.views.PlayerView` only (so it holds nothing the
seat cannot see), the public match figures and the seat's own unfinished action.

Seats are owner-relative: block ``k`` describes the seat ``k`` places to the left (clockwise) of the
observer, block 0 the observer. ``C = 53`` card codes (0–51 naturals, 52 the joker, as in
:mod:`rummykit.cards`); card vectors hold counts (two decks hold two copies of a face, jokers up to
six). ``S`` is the number of seats, ``M = 36`` table-meld slots.

=====================  ==============  ===========================================================
block                  size            content
=====================  ==============  ===========================================================
hand                   C               own cards (counts)
shown                  (S-1)·C         per other seat: cards everybody knows it holds (taken
                                       discards still held, a freed joker kept) or its whole hand
                                       once shown (the knocker's at the knock)
table                  M·(C+4+S)       per meld slot (numbered as in actions): card counts,
                                       present, is a run, run start / 14, run end / 14 (positions
                                       1–14, ace low 1, ace high 14; jokers of a run are the
                                       positions its naturals leave free; a set's jokers stand for
                                       its rank), owner (one-hot, relative)
discard pile           2·C             counts; order: ``1 / (1 + depth)`` of each card's topmost
                                       copy (1 for the top card, 0 when absent)
taken / must lay       2·C             the discard taken this turn; the taken discard that must
                                       still be laid this turn (one-hot)
per seat               8·S             hand size / 20, opened, in this hand, knocker, extra turn
                                       pending, this hand's points / 100, match total / 100 (minus
                                       points or bad points; plus points under
                                       ``winner_collects``, :func:`match_totals`), chips / 100
global                 12+S            phase (draw, play, discard, over), own turn, buy-back
                                       offer pending, stock size / deck size, stock rebuilds,
                                       turn / 100, pot / 100, hands dealt / 10, match scope; the
                                       seat to move (one-hot, relative)
action so far          NV+3C+M+6       verb chosen (one-hot, 11 verbs), cards of the meld being
                                       spelled, cards of its earlier melds, last card (one-hot),
                                       melds closed / 4, target meld (one-hot), low, high, then
                                       meld, then lay-off, cards spelled / 14
gin (gin only)         9+2C            gin phase (first upcard, wall, knock, lay-off), knock card
                                       / 10, first-upcard passes / 2, upcard draws /
                                       ``max_upcard_draws``, repeated upcard, lay-offs done; the
                                       previous upcard (one-hot); the cards laid off (counts)
take bound             1               where ``max_takes_in_a_row`` applies (see below): turns in
                                       a row begun by taking the discard pile /
                                       ``max_takes_in_a_row`` (1: the next take is not made, the
                                       hand ends dead; after a knock the extra turns may take on,
                                       past 1); 0 again after a draw from the stock
doubled                1               where ``oklahoma_spade_doubles`` is on (see below): 1 when the
                                       hand scores double (its first upcard is a spade,
                                       ``GinInfo.doubled``), else 0
=====================  ==============  ===========================================================

The gin block is present in gin rule sets only, the take bound block only where the option
``max_takes_in_a_row`` applies (``rules.not_applicable("max_takes_in_a_row") is None``: every rule
set but gin, which bounds its takes with ``max_upcard_draws`` in the gin block, and those with
``discard_pickup_requires_meld`` outside knock games, such as Scala 40). No rule set has both, so
where the take bound block is present it sits at index ``98·S + 2488``, right after the action so
far (2684 at a table of two).

The doubled block is present only where ``oklahoma_spade_doubles`` is on, which the rules allow in
gin under ``oklahoma`` alone (:func:`has_doubled`). It keeps what the first upcard said once that
card is taken or buried: the stakes of the whole hand. It sits right after the gin block, where no
take bound block is (gin has none): at index ``98·S + 2603``, 2799 at gin's table of two.

In ``scope="match"`` the per-seat and global blocks show the public match figures: the match
totals (:func:`match_totals`), a rubber's chips (antes, knock money, buy-backs and the pot as they
changed hands) and its pot, the hands dealt and whether a buy-back offer is open; a seat eliminated
from a rubber is one not in the hand. Public figures the vector leaves out: how many buy-backs each
seat has used (so whether another seat may still buy back; the mask says whether the seat to decide
may), the hands each seat has won (gin's ``box_bonus`` at the end of a game to a target, and
``match_tiebreak = most_hands_won``), the dealer, and under ``winner_gets_sum`` at a table of more
than two the seats' plus points. A bot reads them from :class:`~rummykit.views.MatchView`.

The phase entries of the global block are all zero in gin's own phases (the gin block names them).
The knocker's melds are table melds like any other (owned by the knocker, lay-offs included), and
the knocker's hand is shown from the knock on.

With ``derived_features=True`` a last block of ``C + 2`` values follows, computed by the solver from
the own hand and the top discard alone (``rummykit.solver.min_deadwood``, all / 100): while the seat
must discard, for each card held the minimum deadwood of the hand left after discarding it (0
elsewhere); the hand's own minimum deadwood; and the least deadwood reachable by taking the top
discard and discarding another card (while the seat is to draw). They spare a learner rediscovering
meld structure; ``benchmarks/envs.py`` measures their cost.

The ``action_mask`` beside the observation is the :mod:`~rummykit.envs.encoding` mask (``int8``,
one entry per token).

The environments declare the vector as a ``Box`` whose bounds (:func:`observation_bounds`) hold every
vector they hand out; :func:`feature_bounds` lists them feature by feature with their reasons. Flags
and one-hot parts lie in [0, 1], card counts in [0, copies of the card in the deck], the parts of a
whole (recency, run positions / 14, stock / deck, the gin fractions) in [0, 1]; hand sizes and cards
spelled are bounded by the deck, points by the whole deck's value at the largest multiplier
(:func:`hand_points_range`), match totals by the match end (:func:`match_total_bound`), the turn by
the stock draws and takes the rules allow (:func:`turn_bound`), the take bound entry by
:func:`takes_bound`, the derived block by the deck's deadwood. Only what the rules do not bound stays
infinite: the turn and the stock rebuilds under unlimited rebuilds; in ``scope="match"`` the hands
dealt (unless a fixed series), a rubber's chips where knock money or antes are paid every hand, and
its pot with antes every hand.

:class:`Encoder` keeps one seat's vector between decisions and rewrites only the blocks whose
source changed (the hand, a table meld, the pile …); every block is a function of its source alone,
so the vector always equals the one built from scratch (:func:`encode_view`). Where the compiled
extension ``rummykit.envs._native`` was built, :func:`state_encoder` gives its twin
(:class:`CompiledEncoder`: the same vector bit for bit, from the same fields of the round's state);
``RUMMYKIT_PURE=1`` keeps the Python one.

Version history:

* **v4** (this layout): in ``scope="match"`` under ``hand_scoring = winner_collects`` (the basic
  preset) the per-seat match total holds the plus points the match is decided on
  (:func:`match_totals`); v3 showed the minus points, which that scoring never pays (always 0), so
  a basic match's score was not in the vector. Every other vector, and every hand-scope vector, is
  the v3 vector entry for entry (:class:`~rummykit.bots.policy.PolicyBot` gives a v3 or earlier
  policy the zeros it was trained on).
* **v3**: the doubled block, where ``oklahoma_spade_doubles`` is on: one entry more, at
  index ``98·S + 2603`` (after the gin block, before the derived block, which moves up by one). The
  vectors of every other rule set are the v2 vectors, entry for entry; under the option a vector is
  the v2 vector with that entry inserted (:class:`~rummykit.bots.policy.PolicyBot` gives a v0, v1 or
  v2 policy the vector without it).
* **v2**: the take bound block, where ``max_takes_in_a_row`` applies: one entry more,
  at index ``98·S + 2488`` (after the action so far, before the derived block, which moves up by
  one). Gin vectors and those of rule sets where the option does not apply (Scala 40) are the v1
  vectors, entry for entry (policies trained on v1 read them unchanged); every other vector is the
  v1 vector with that entry inserted (:class:`~rummykit.bots.policy.PolicyBot` gives a v0 or v1
  policy the vector without it).
* **v1**: the gin block, present for gin rule sets only. For every other rule set a v1 vector is
  the v0 vector, entry for entry (policies trained on v0 read v1).
* **v0**: first release.
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Literal, cast

import numpy as np
import numpy.typing as npt

from rummykit import solver
from rummykit.cards import NUM_CODES, build_deck
from rummykit.envs import encoding as enc
from rummykit.envs.compiled import NATIVE as _NATIVE
from rummykit.rules import Rules
from rummykit.state import RoundState
from rummykit.views import GinInfo, Phase, PlayerView, TableMeld

OBSERVATION_VERSION: Final = 4
C: Final = NUM_CODES
M: Final = enc.MAX_TABLE_MELDS
SEAT_FEATURES: Final = 8
GLOBAL_FEATURES: Final = 12
PREFIX_FEATURES: Final = enc.NUM_VERBS + 3 * C + M + 6
_GIN_HEAD: Final = 9
"""The gin block's values before the previous upcard and the cards laid off."""
GIN_FEATURES: Final = _GIN_HEAD + 2 * C
TAKE_FEATURES: Final = 1
DOUBLED_FEATURES: Final = 1
DERIVED_FEATURES: Final = C + 2
POSITIONS: Final = 14.0
_PHASES: Final = (Phase.DRAW, Phase.PLAY, Phase.DISCARD, Phase.OVER)
_GIN_PHASES: Final = (Phase.FIRST_UPCARD, Phase.WALL, Phase.KNOCK, Phase.LAYOFF)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each block starts in the vector of a table of ``seats`` (see the module docstring);
    :meth:`for_rules` gives the layout of a rule set."""

    seats: int
    derived: bool
    gin: bool
    take_bound: bool
    doubled: bool
    slot: int
    table: int
    pile: int
    taken: int
    per_seat: int
    prefix: int
    gin_block: int
    take_block: int
    doubled_block: int
    derived_block: int
    size: int

    @staticmethod
    @cache
    def of(
        seats: int, derived: bool = False, gin: bool = False, take_bound: bool = False, doubled: bool = False
    ) -> Layout:
        """The layout with the gin block (``gin``), the take bound block (``take_bound``), the doubled
        block (``doubled``) and the derived block (``derived``) present as asked.

        Raises:
            ValueError: both ``gin`` and ``take_bound`` (gin has no ``max_takes_in_a_row``), or
                ``doubled`` without ``gin`` (``oklahoma_spade_doubles`` is a gin option).
        """
        if gin and take_bound:
            raise ValueError("no rule set has both the gin block and the take bound block")
        if doubled and not gin:
            raise ValueError("no rule set has the doubled block without the gin block")
        slot = meld_slot_size(seats)
        table = seats * C
        pile = table + M * slot
        taken = pile + 2 * C
        per_seat = taken + 2 * C
        prefix = per_seat + SEAT_FEATURES * seats + GLOBAL_FEATURES + seats
        gin_block = prefix + PREFIX_FEATURES
        take_block = gin_block + (GIN_FEATURES if gin else 0)
        doubled_block = take_block + (TAKE_FEATURES if take_bound else 0)
        derived_block = doubled_block + (DOUBLED_FEATURES if doubled else 0)
        size = derived_block + (DERIVED_FEATURES if derived else 0)
        return Layout(
            seats,
            derived,
            gin,
            take_bound,
            doubled,
            slot,
            table,
            pile,
            taken,
            per_seat,
            prefix,
            gin_block,
            take_block,
            doubled_block,
            derived_block,
            size,
        )

    @staticmethod
    def for_rules(rules: Rules, seats: int, derived: bool = False) -> Layout:
        """The layout of ``rules`` at a table of ``seats``: the gin block in gin, the take bound block
        where :func:`has_take_bound`, the doubled block where :func:`has_doubled`."""
        return Layout.of(seats, derived, rules.is_gin, has_take_bound(rules), has_doubled(rules))


def has_take_bound(rules: Rules) -> bool:
    """Whether the vectors of ``rules`` carry the take bound block: where ``max_takes_in_a_row``
    applies (not in gin, nor where ``discard_pickup_requires_meld`` lays every taken card).

    >>> [has_take_bound(Rules.preset(name)) for name in ("german", "viennese", "scala40", "gin")]
    [True, True, False, False]
    """
    return rules.not_applicable("max_takes_in_a_row") is None


def has_doubled(rules: Rules) -> bool:
    """Whether the vectors of ``rules`` carry the doubled block: where ``oklahoma_spade_doubles`` is
    on, which the rules accept in gin under ``oklahoma`` only.

    >>> [has_doubled(Rules.parse(text)) for text in ("gin", "gin(oklahoma=true)", "german")]
    [False, False, False]
    >>> has_doubled(Rules.parse("gin(oklahoma=true, oklahoma_spade_doubles=true)"))
    True
    """
    return rules.oklahoma_spade_doubles and rules.not_applicable("oklahoma_spade_doubles") is None


def meld_slot_size(seats: int) -> int:
    """Length of one table meld's slot: its card counts (one per code), whether it is there, whether
    it is a run, the run's start and end, and who laid it (one per seat); the compiled encoder
    (``_native.cpp``) lays slots out the same way."""
    return C + 4 + seats


def observation_size(
    seats: int, derived: bool = False, gin: bool = False, take_bound: bool = False, doubled: bool = False
) -> int:
    """Length of the observation vector at a table of ``seats`` seats (``gin``: a gin rule set;
    ``take_bound``: one where :func:`has_take_bound`; ``doubled``: one where :func:`has_doubled`).

    >>> observation_size(2), observation_size(2, take_bound=True), observation_size(2, gin=True)
    (2684, 2685, 2799)
    >>> observation_size(2, gin=True, doubled=True)
    2800
    """
    return Layout.of(seats, derived, gin, take_bound, doubled).size


INF: Final = float("inf")

FeatureKind = Literal["flag", "count", "fraction", "scaled", "points"]
"""What an entry of the vector is: ``flag`` 0 or 1 (one-hot parts included), ``count`` a number of
cards of one card code, ``fraction`` a value in [0, 1] by construction (a part of a whole, a
recency, a run position / 14), ``scaled`` a count divided by a fixed number (it may pass 1),
``points`` a score divided by 100 (it may be negative)."""


@dataclass(frozen=True, slots=True)
class FeatureBound:
    """One feature of the vector (repeated per card code, seat or meld slot) and the range all of its
    entries lie in, with the reason (a row of :func:`feature_bounds`)."""

    name: str
    kind: FeatureKind
    indices: tuple[int, ...]
    """The entries of the vector holding this feature."""
    low: float
    high: float
    """``low <= entry <= high`` for every vector the environments hand out under these rules (``inf``
    where the rules set no bound; ``why`` says so)."""
    why: str


def card_copies(rules: Rules) -> tuple[int, int]:
    """The copies of one natural face and of the joker in the deck of ``rules`` (``num_decks``,
    ``jokers_total``): the most that any card-count entry can hold, since every count is of cards
    that lie somewhere at once (a hand, a meld, the pile, the cards of the action spelled so far)."""
    return rules.num_decks, rules.jokers_total


def hand_points_range(rules: Rules) -> tuple[int, int]:
    """The least and the most points one seat can score for one hand (``RoundResult.points``):
    from :func:`~rummykit.envs.game.worst_hand_points` (the whole deck held at the largest multiplier,
    less every bonus) to 0 where the hand scoring pays minus points only (``losers_penalty``,
    ``deadwood_all``), else to its negation (a winner collects at most what the others hold, or in
    gin what the other holds plus the bonuses). A seat's minus points for one hand are at most the
    negation too."""
    from rummykit.envs.game import worst_hand_points  # game.py imports this module

    worst = worst_hand_points(rules)
    return worst, 0 if rules.hand_scoring in ("losers_penalty", "deadwood_all") else -worst


def turn_bound(rules: Rules, seats: int) -> float:
    """A bound on the ``turn`` of a hand (turns counted from 0), proved from the rules; ``inf`` under
    ``max_stock_rebuilds = unlimited``, where no rule ends a hand whose players never go out or knock
    (the environments' hand guard, :mod:`rummykit.guard`, truncates those, but it is not a rule).

    Melding and knock games: every turn but the first begins in the draw phase, and unless the hand
    ends there, with a draw from the stock or a take of the top discard. Stock draws are at most the
    cards that ever lie in the stock: at most the deck at the deal and after each of the at most
    ``max_stock_rebuilds`` rebuilds, ``D = deck_size * (max_stock_rebuilds + 1)``. A stock draw resets
    the takes in a row and the next take after ``max_takes_in_a_row`` of them ends the hand, so at
    most ``max_takes_in_a_row`` takes lie between two draws, before the first and after the last,
    plus one per extra turn after a knock (``seats - 1``): ``T = (D + 1) * max_takes_in_a_row + seats
    - 1``; the turn is below ``D + T + 2``.

    Gin: the turn passes at most twice on the first upcard, once after each discard (each after a
    stock draw, at most ``deck_size``; a counted take of the upcard, fewer than ``max_upcard_draws``;
    or the take of the first upcard) and once to the defender after a knock:
    ``deck_size + max_upcard_draws + 4``.

    Real hands stay far below the bound (German heads-up: 22,493): in random play of 150 heads-up
    hands per preset the longest lasted 747 turns (Viennese)."""
    deck = rules.deck_size
    if rules.is_gin:
        return float(deck + rules.max_upcard_draws + 4)
    if rules.max_stock_rebuilds is None:
        return INF
    draws = deck * (rules.max_stock_rebuilds + 1)
    takes = (draws + 1) * rules.max_takes_in_a_row + seats - 1
    return float(draws + takes + 2)


def takes_bound(rules: Rules, seats: int) -> float:
    """The most the take bound entry (turns in a row begun by a take / ``max_takes_in_a_row``) can
    hold: 1 (the take after ``max_takes_in_a_row`` of them ends the hand dead instead), more in knock
    games with ``knock_extra_turn``, whose extra turns after a knock may each take on (``seats - 1``
    of them)."""
    limit = rules.max_takes_in_a_row
    extra = seats - 1 if rules.is_knock_game and rules.knock_extra_turn else 0
    return (limit + extra) / max(1, limit)


def match_total_bound(rules: Rules, players: int) -> int:
    """The largest match total (:func:`match_totals`: minus or bad points, ``Match.totals``; plus
    points under ``winner_collects``) a seat can reach under
    ``rules`` at a table of ``players``, ``P`` being one hand's largest minus points
    (:func:`hand_points_range`): ``fixed_hands`` ``num_hands`` (one per player by default) hands of
    ``P``; ``single_hand`` one scored hand; ``penalty_limit`` and ``elimination_last_survivor`` the
    limit or threshold less 1 (the match ends, the seat is out, once a total reaches it; a buy-back
    only lowers a total) plus one hand; ``target_score``: the rules accept it only with
    ``winner_gets_sum`` and gin's difference, where the minus points of a hand are the plus points it
    pays, and ``winner_collects``, which pays no minus points (``tests/test_envs_space.py`` holds
    that), and before the last hand every seat's plus points are below the target, so
    ``players * (target_score - 1)`` plus one hand. Under ``winner_collects`` the totals are plus
    points: at most ``target_score - 1`` and one hand (``P``, the most one hand pays too), one hand
    per hand of a fixed series, one hand in ``single_hand``: within the same bounds."""
    most = -hand_points_range(rules)[0]
    end = rules.match_end
    if end == "fixed_hands":
        return (rules.num_hands or players) * most
    if end == "penalty_limit":
        return rules.penalty_limit - 1 + most
    if end == "elimination_last_survivor":
        return (rules.elimination_threshold or 0) - 1 + most
    if end == "target_score":
        return players * (rules.target_score - 1) + most
    return most  # single_hand


def match_totals(rules: Rules, totals: Sequence[int], gains: Sequence[int]) -> tuple[int, ...]:
    """The per-seat ``match total`` entries of a match-scope observation (observation v4): the seats'
    minus or bad points (``totals``, ``Match.totals``), except under ``hand_scoring =
    winner_collects`` (the basic preset), which pays no minus points, so that those entries would
    always be 0: there the seats' plus points (``gains``, ``Match.gains``), the score its match is
    decided on (the first to ``target_score``, the most points after a fixed series).

    Observation v3 showed the minus points there too (zeros); :class:`~rummykit.bots.policy.PolicyBot`
    gives a policy trained on v3 or earlier what it was trained on.

    Under ``winner_gets_sum`` (no preset) the entries stay the minus points: a seat's plus points are
    the minus points the others paid in the hands it won, which at a table of two is the other seat's
    total, and at a larger table are not in the vector.

    >>> match_totals(Rules.preset("basic"), (0, 0, 0), (27, 0, 64))
    (27, 0, 64)
    >>> match_totals(Rules.preset("german"), (56, 0), (0, 0))
    (56, 0)
    """
    return tuple(gains) if rules.hand_scoring == "winner_collects" else tuple(totals)


def feature_bounds(
    rules: Rules, seats: int, derived: bool = False, match: bool = False
) -> list[FeatureBound]:
    """Every feature of the vectors of ``rules`` at a table of ``seats`` (with the derived block when
    ``derived``; the match figures as in ``scope="match"`` when ``match``, else 0, as in a hand) with
    the range its entries lie in and why; every entry of the layout belongs to exactly one row.

    The ranges are proved from the rules, not measured; card counts are bounded by the copies of the
    card in the deck, hand sizes and cards spelled by the deck's size. Entries the rules do not bound
    keep ``inf`` (all in ``scope="match"`` or under unlimited stock rebuilds): the stock rebuilds and
    the turn under ``max_stock_rebuilds = unlimited``; in a match the hands dealt unless
    ``fixed_hands`` (unscored hands may follow each other without end), and in a knock-game rubber
    the chips (and with ``ante_frequency = per_hand`` the pot) where knock money or antes are paid
    every hand: a scored hand need not add bad points (a Rummy call against fully melded hands), so
    nothing bounds the hands of a rubber.

    >>> rows = {row.name: row for row in feature_bounds(Rules.preset("german"), 2)}
    >>> rows["hand: natural faces"].high, rows["hand: joker"].high, rows["turn / 100"].high
    (2.0, 6.0, 224.93)
    """
    lay = Layout.for_rules(rules, seats, derived)
    naturals, jokers = card_copies(rules)
    deck = rules.deck_size
    rows: list[FeatureBound] = []

    def add(name: str, kind: FeatureKind, indices: Sequence[int], low: float, high: float, why: str) -> None:
        rows.append(FeatureBound(name, kind, tuple(indices), low, high, why))

    def flags(name: str, indices: Sequence[int], why: str = "0 or 1") -> None:
        add(name, "flag", indices, 0.0, 1.0, why)

    def fraction(name: str, indices: Sequence[int], why: str) -> None:
        add(name, "fraction", indices, 0.0, 1.0, why)

    def counts(name: str, starts: Sequence[int]) -> None:
        """The card counts of ``C`` entries from each of ``starts``."""
        faces = [s + c for s in starts for c in range(C - 1)]
        add(f"{name}: natural faces", "count", faces, 0.0, float(naturals), "copies of a face in the deck")
        add(f"{name}: joker", "count", [s + C - 1 for s in starts], 0.0, float(jokers), "jokers in the deck")

    def one_hot(name: str, starts: Sequence[int], size: int) -> None:
        flags(name, [s + i for s in starts for i in range(size)])

    counts("hand", [0])
    counts("shown", [k * C for k in range(1, seats)])
    slots = [lay.table + i * lay.slot for i in range(M)]
    counts("table", slots)
    flags("table: present", [s + C for s in slots])
    flags("table: is a run", [s + C + 1 for s in slots])
    fraction("table: run start / 14", [s + C + 2 for s in slots], "positions 1-14 (0: no run)")
    fraction("table: run end / 14", [s + C + 3 for s in slots], "positions 1-14 (0: no run)")
    one_hot("table: owner", [s + C + 4 for s in slots], seats)
    counts("discard pile", [lay.pile])
    fraction("discard pile: recency", range(lay.pile + C, lay.pile + 2 * C), "1 / (1 + depth), 0 when absent")
    one_hot("taken discard", [lay.taken], C)
    one_hot("taken discard to lay", [lay.taken + C], C)

    per_seat = [lay.per_seat + SEAT_FEATURES * k for k in range(seats)]

    def seat_feature(i: int) -> list[int]:
        return [s + i for s in per_seat]

    add("hand size / 20", "scaled", seat_feature(0), 0.0, deck / 20.0, "a hand holds at most the deck")
    flags("opened", seat_feature(1))
    flags("in this hand", seat_feature(2))
    flags("knocker", seat_feature(3))
    flags("extra turn pending", seat_feature(4))
    worst, best = hand_points_range(rules)
    add("this hand's points / 100", "points", seat_feature(5), worst / 100.0, best / 100.0,
        "hand_points_range: the whole deck at the largest multiplier, plus every bonus")
    rubber = match and rules.is_knock_game and rules.match_end == "elimination_last_survivor"
    pot: float = 0.0  # the most the pot holds
    chips_low: float = 0.0
    chips_high: float = 0.0
    if rubber:
        players, ante, cost = seats, rules.pot_ante, rules.buyback_cost * rules.buyback_limit
        if rules.ante_frequency == "per_hand":
            pot, chips_low, chips_high = INF, -INF, INF
        else:  # antes once: the pot holds them and every buy-back
            pot = float(players * (ante + cost))
            chips_low, chips_high = (-INF, INF) if rules.knock_money else (-float(ante + cost), pot - ante)
    totals = float(match_total_bound(rules, seats)) if match else 0.0
    add("match total / 100", "points", seat_feature(6), 0.0, totals / 100.0,
        "match_total_bound (0 outside scope='match')")
    add("chips / 100", "points", seat_feature(7), chips_low / 100.0, chips_high / 100.0,
        "antes and buy-backs paid, the pot won; knock money every hand: unbounded (0 outside a rubber)")

    base = lay.per_seat + SEAT_FEATURES * seats
    one_hot("phase", [base], len(_PHASES))
    flags("own turn", [base + 4])
    flags("buy-back offer pending", [base + 5])
    fraction("stock size / deck size", [base + 6], "the stock is part of the deck")
    limit = rules.max_stock_rebuilds
    rebuilds = 0.0 if rules.is_gin else INF if limit is None else float(limit)
    add("stock rebuilds", "scaled", [base + 7], 0.0, rebuilds,
        "max_stock_rebuilds (gin never rebuilds; unlimited: unbounded)")
    add("turn / 100", "scaled", [base + 8], 0.0, turn_bound(rules, seats) / 100.0, "turn_bound")
    add("pot / 100", "scaled", [base + 9], 0.0, pot / 100.0,
        "every ante and buy-back of a rubber (antes every hand: unbounded; 0 outside a rubber)")
    hands: float = 0.0
    if match:
        hands = float(rules.num_hands or seats) if rules.match_end == "fixed_hands" else INF
    add("hands dealt / 10", "scaled", [base + 10], 0.0, hands / 10.0,
        "num_hands of a fixed series; unbounded in other matches (0 outside scope='match')")
    flags("match scope", [base + 11])
    one_hot("seat to move", [base + GLOBAL_FEATURES], seats)

    prefix = lay.prefix
    one_hot("action so far: verb", [prefix], enc.NUM_VERBS)
    counts("action so far: cards of the meld being spelled", [prefix + enc.NUM_VERBS])
    counts("action so far: cards of earlier melds", [prefix + enc.NUM_VERBS + C])
    one_hot("action so far: last card", [prefix + enc.NUM_VERBS + 2 * C], C)
    target = prefix + enc.NUM_VERBS + 3 * C
    one_hot("action so far: target meld", [target], M)
    flags("action so far: low, high, then meld, then lay-off", range(target + M, target + M + 4))
    add("action so far: melds closed / 4", "scaled", [target + M + 4], 0.0, (deck // 3 - 1) / 4.0,
        "the melds of one action hold 3 cards or more, of the deck")
    add("action so far: cards spelled / 14", "scaled", [target + M + 5], 0.0, deck / 14.0,
        "cards of one action, of the deck")

    if lay.gin:
        gin = lay.gin_block
        one_hot("gin: phase", [gin], len(_GIN_PHASES))
        fraction("gin: knock card / 10", [gin + 4], "knock_card 0-10 (oklahoma: the upcard's value, 0-10)")
        fraction("gin: first-upcard passes / 2", [gin + 5], "at most two passes")
        fraction("gin: upcard draws / max_upcard_draws", [gin + 6], "the max_upcard_draws-th take ends it")
        flags("gin: repeated upcard, lay-offs done", [gin + 7, gin + 8])
        one_hot("gin: previous upcard", [gin + _GIN_HEAD], C)
        counts("gin: cards laid off", [gin + _GIN_HEAD + C])
    if lay.take_bound:
        add("takes in a row / max_takes_in_a_row", "scaled", [lay.take_block], 0.0, takes_bound(rules, seats),
            "takes_bound")
    if lay.doubled:
        flags("doubled", [lay.doubled_block], "0 or 1: the hand scores double (GinInfo.doubled)")
    if derived:
        dead = sum(rules.deadwood_value(c) for c in build_deck(rules.num_decks, rules.jokers_total))
        add("derived: minimum deadwoods / 100", "scaled", range(lay.derived_block, lay.size), 0.0,
            dead / 100.0, "the deadwood of cards of the deck")
    return rows


def observation_bounds(
    rules: Rules, seats: int, derived: bool = False, match: bool = False
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The ``low`` and ``high`` arrays of the observation space of ``rules`` at a table of ``seats``
    (``derived``, ``match``: as for :func:`feature_bounds`, whose ranges they hold): every vector
    the environments hand out, from the compiled encoder as from the Python one, lies within them.

    An entry whose range is a single value (a count of jokers without jokers, gin's stock rebuilds,
    the match figures outside a match) is given ``high = low + 1``: Gymnasium warns about a ``Box``
    whose low equals its high. The values are rounded to ``float32`` as the encoder rounds its own
    (from the same double-precision quotients), so a value within a bound stays within it.

    >>> low, high = observation_bounds(Rules.preset("gin"), 2)
    >>> low.shape == high.shape == (observation_size(2, gin=True),), bool((high > low).all())
    (True, True)
    """
    size = Layout.for_rules(rules, seats, derived).size
    low = np.full(size, np.nan)
    high = np.full(size, np.nan)
    for row in feature_bounds(rules, seats, derived, match):
        index = list(row.indices)
        if not np.isnan(low[index]).all():
            raise AssertionError(f"{row.name}: its entries belong to another feature too")
        low[index] = row.low
        high[index] = row.high
    if np.isnan(low).any():
        raise AssertionError(f"entries without a bound: {np.flatnonzero(np.isnan(low))[:10]}")
    same = high == low
    high[same] = low[same] + 1.0
    return low.astype(np.float32), high.astype(np.float32)


@dataclass(frozen=True, slots=True)
class MatchFigures:
    """Public match figures per seat (absolute seats); zeros outside a match."""

    totals: tuple[int, ...]
    chips: tuple[int, ...]
    pot: int = 0
    hands_dealt: int = 0
    """The hands of the match that count (``Match.hands_counted``: under ``unscored_hand = redeal``
    a hand dealt again does not), so that a fixed series stays within ``num_hands``."""
    buyback_pending: bool = False
    is_match: bool = False

    @classmethod
    def none(cls, seats: int) -> MatchFigures:
        return cls((0,) * seats, (0,) * seats)


def derived_features(view: PlayerView) -> npt.NDArray[np.float32]:
    """The derived block (see the module docstring) for ``view``'s seat."""
    out = np.zeros(DERIVED_FEATURES, dtype=np.float32)
    hand = list(view.hand)
    rules = view.rules
    own_turn = view.is_my_turn
    if own_turn and view.phase in (Phase.PLAY, Phase.DISCARD):
        for card in set(hand):
            rest = hand[:]
            rest.remove(card)
            out[card] = solver.min_deadwood(rest, rules) / 100.0
    out[C] = solver.min_deadwood(hand, rules) / 100.0
    top = view.top_discard
    if own_turn and view.phase is Phase.DRAW and top is not None:
        out[C + 1] = solver.best_discards([*hand, top], rules)[0] / 100.0
    return out


def _counts(cards: tuple[int, ...], size: int = C) -> list[float]:
    values = [0.0] * size
    for card in cards:
        values[card] += 1.0
    return values


def _topmost(pile: tuple[int, ...], card: int) -> float:
    """The index of the topmost copy of ``card`` in ``pile``, ``-inf`` when there is none."""
    try:
        return float(len(pile) - 1 - pile[::-1].index(card))
    except ValueError:
        return -np.inf


_ONE: Final = np.float32(1.0)

_UNSET: Final = object()
"""The source of a block not written yet (equal to nothing)."""

_PHASE_OVER: Final = Phase.OVER


@cache
def _floats(count: int) -> struct.Struct:
    """``count`` native ``float32`` values: one C call writes a block (rounding as NumPy does)."""
    return struct.Struct(f"={count}f")


class Encoder:
    """One seat's observation vector (every block but the action so far), kept between calls.

    :meth:`encode` (from a :class:`~rummykit.views.PlayerView`) and :meth:`encode_state` (from the
    round's own state, reading exactly what the seat's view shows, without building the view) rewrite
    a block only when its source differs from the one it was written from (compared by value, table
    melds by identity: they are immutable and replaced when they change). Card counts are patched
    through a ``memoryview`` of the vector: the old cards' entries cleared, the new ones counted.
    """

    __slots__ = (
        "_depth", "_derived", "_doubled", "_gin", "_globals", "_hand", "_melds", "_mv", "_pile", "_recency",
        "_seat_source", "_shown", "_taken", "_takes", "_top", "layout", "out",
    )

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.out: npt.NDArray[np.float32] = np.zeros(layout.size, dtype=np.float32)
        """The vector; rewritten in place by :meth:`encode` (copy it to keep it)."""
        self._mv: Any = memoryview(cast(Any, self.out))
        """``out`` as a buffer of ``float32``: one entry read or written for a fraction of NumPy's cost."""
        self._hand: tuple[int, ...] = ()
        self._shown: list[tuple[int, ...]] = [()] * layout.seats
        self._melds: list[TableMeld] = []
        self._pile: tuple[int, ...] | None = None
        self._top = np.full(C, -np.inf, dtype=np.float32)
        """Per face, the index of its topmost copy in the pile (``-inf``: not in the pile)."""
        self._depth = np.empty(C, dtype=np.float32)
        self._recency = self.out[layout.pile + C : layout.pile + 2 * C]
        self._taken: tuple[int | None, int | None] = (None, None)
        self._gin: object = _UNSET
        self._takes: object = _UNSET
        self._doubled: object = _UNSET
        self._derived: object = _UNSET
        self._globals = _floats(layout.prefix - layout.per_seat - SEAT_FEATURES * layout.seats)
        self._seat_source: object = _UNSET

    def encode(self, view: PlayerView, figures: MatchFigures) -> npt.NDArray[np.float32]:
        """Bring :attr:`out` up to ``view`` (which must be of the same seat each time) and return it."""
        seats = self.layout.seats
        me = view.seat
        self._write_hand(view.hand)
        revealed = view.revealed
        known_cards = view.known_cards
        for k in range(1, seats):
            seat = (me + k) % seats
            shown = revealed[seat] if revealed else None
            self._write_shown(k, shown if shown is not None else (known_cards[seat] if known_cards else ()))
        self._write_melds(view.melds, me)
        pile = view.discard_pile
        if pile != self._pile:
            self._write_pile(pile)
        self._write_taken(view.taken_discard, view.must_lay)
        self._write_globals(
            me, view.hand_sizes, view.opened, view.active_seats, view.extra_turns, view.knocker,
            view.scores, view.phase, view.stock_size, view.rules.deck_size, view.stock_rebuilds, view.turn,
            view.to_move, figures,
        )
        self._write_gin(view.phase, view.gin, view.rules.max_upcard_draws)
        self._write_takes(view.takes_in_a_row, view.rules.max_takes_in_a_row)
        self._write_doubled(view.gin)
        if self.layout.derived:
            self._write_derived(view)
        return self.out

    def encode_state(
        self, state: RoundState, seat: int, figures: MatchFigures, view: Callable[[], PlayerView] | None
    ) -> npt.NDArray[np.float32]:
        """:meth:`encode` for ``seat`` from a round's own state, without building a view: the same
        vector, read from the fields :meth:`Round.view <rummykit.round.Round.view>` shows ``seat``
        (own hand, the hands shown, known cards, public table and piles). ``view`` builds the view
        when a block needs one (only the derived features do; ``None`` without them).

        Raises:
            ValueError: the layout has the derived features and ``view`` is ``None``.
        """
        seats = self.layout.seats
        hands = state.hands
        phase = state.phase
        over = phase is _PHASE_OVER
        knocker = state.knocker
        # Each block's writer is called only when its source differs (the common case: a few do).
        cards = hands[seat].cards()
        if cards != self._hand:
            self._write_hand(cards)
        known_cards = state.known_cards
        shown = self._shown
        for k in range(1, seats):
            other = (seat + k) % seats
            cards = hands[other].cards() if over or other == knocker else known_cards[other].cards()
            if cards != shown[k]:
                self._write_shown(k, cards)
        melds = state.melds
        old_melds = self._melds
        if len(melds) != len(old_melds) or not all(map(operator.is_, melds, old_melds)):
            self._write_melds(melds, seat)
        pile = tuple(state.discard_pile)
        if pile != self._pile:
            self._write_pile(pile)
        taken = None if over else state.taken_discard
        must_lay = state.must_lay
        old_taken = self._taken
        if taken != old_taken[0] or must_lay != old_taken[1]:
            self._write_taken(taken, must_lay)
        result = state.result
        rules = state.rules
        self._write_globals(
            seat, [len(h) for h in hands], [t is not None for t in state.opened_turn], state.active_seats,
            state.extra_turns, knocker, result.points if result else (0,) * seats, phase, len(state.stock),
            rules.deck_size, state.stock_rebuilds, state.turn, state.to_move, figures,
        )
        if self.layout.gin:
            self._write_gin(phase, state.gin, rules.max_upcard_draws)
        if self.layout.take_bound:
            self._write_takes(state.takes_in_a_row, rules.max_takes_in_a_row)
        if self.layout.doubled:
            self._write_doubled(state.gin)
        if self.layout.derived:
            if view is None:
                raise ValueError("the derived features are read from the seat's view: pass one")
            self._write_derived(view())
        return self.out

    def _write_counts(self, start: int, old: tuple[int, ...], new: tuple[int, ...]) -> None:
        """The card counts of ``new`` into ``out[start : start + C]``, which holds ``old``'s."""
        mv = self._mv
        for card in old:
            mv[start + card] = 0.0
        for card in new:
            mv[start + card] += 1.0

    def _write_hand(self, hand: tuple[int, ...]) -> None:
        if hand != self._hand:
            self._write_counts(0, self._hand, hand)
            self._hand = hand

    def _write_shown(self, k: int, cards: tuple[int, ...]) -> None:
        old = self._shown[k]
        if cards != old:
            self._write_counts(k * C, old, cards)
            self._shown[k] = cards

    def _write_taken(self, taken: int | None, must_lay: int | None) -> None:
        old = self._taken
        if taken != old[0] or must_lay != old[1]:
            mv = self._mv
            start = self.layout.taken
            if old[0] is not None:
                mv[start + old[0]] = 0.0
            if old[1] is not None:
                mv[start + C + old[1]] = 0.0
            if taken is not None:
                mv[start + taken] = 1.0
            if must_lay is not None:
                mv[start + C + must_lay] = 1.0
            self._taken = (taken, must_lay)

    def _write_globals(
        self,
        me: int,
        sizes: Sequence[int],
        opened: Sequence[bool],
        active: Sequence[int],
        extra: Sequence[int],
        knocker: int | None,
        scores: Sequence[int],
        phase: Phase,
        stock_size: int,
        deck_size: int,
        stock_rebuilds: int,
        turn: int,
        to_move: int,
        figures: MatchFigures,
    ) -> None:
        """The per-seat and global blocks and the seat to move. The hand sizes are written one by
        one; the rest of the per-seat block only when its source changed (one packed run per seat);
        the global block and the seat to move as one packed run."""
        seats = self.layout.seats
        mv = self._mv
        base = self.layout.per_seat
        for k in range(seats):
            mv[base + SEAT_FEATURES * k] = sizes[(me + k) % seats] / 20.0
        totals, chips = figures.totals, figures.chips
        # Copies (a tuple stays itself): a caller's list changed later must not change the source.
        source = (tuple(opened), tuple(active), tuple(extra), knocker, tuple(scores), tuple(totals),
                  tuple(chips))
        if source != self._seat_source:
            self._seat_source = source
            pack = _floats(SEAT_FEATURES - 1).pack_into
            for k in range(seats):
                seat = (me + k) % seats
                pack(
                    mv,
                    4 * (base + SEAT_FEATURES * k + 1),
                    1.0 if opened[seat] else 0.0,
                    1.0 if seat in active else 0.0,
                    1.0 if knocker == seat else 0.0,
                    1.0 if seat in extra else 0.0,
                    scores[seat] / 100.0,
                    totals[seat] / 100.0,
                    chips[seat] / 100.0,
                )
        values: list[float] = list(_PHASE_ONE_HOT[phase])
        values += (
            1.0 if phase is not _PHASE_OVER and to_move == me else 0.0,
            1.0 if figures.buyback_pending else 0.0,
            stock_size / deck_size,
            float(stock_rebuilds),
            turn / 100.0,
            figures.pot / 100.0,
            figures.hands_dealt / 10.0,
            1.0 if figures.is_match else 0.0,
        )
        values += _one_hot(seats, (to_move - me) % seats)
        self._globals.pack_into(mv, 4 * (base + SEAT_FEATURES * seats), *values)

    def _write_gin(self, phase: Phase, gin: GinInfo | None, max_upcard_draws: int) -> None:
        """The gin block: its leading values (:func:`_gin_head`) as one packed run, the previous
        upcard and the cards laid off patched."""
        lay = self.layout
        if not lay.gin:
            return
        old = self._gin
        if old is not _UNSET:
            old_gin, old_phase = cast(tuple[GinInfo | None, Phase], old)
            if old_gin is gin and old_phase is phase:
                return
        else:
            old_gin = None
        self._gin = (gin, phase)
        mv = self._mv
        start = lay.gin_block
        _floats(_GIN_HEAD).pack_into(mv, 4 * start, *_gin_head(phase, gin, max_upcard_draws))
        old_prev = old_gin.prev_upcard if old_gin is not None else None
        prev = gin.prev_upcard if gin is not None else None
        if old_prev != prev:
            if old_prev is not None:
                mv[start + _GIN_HEAD + old_prev] = 0.0
            if prev is not None:
                mv[start + _GIN_HEAD + prev] = 1.0
        old_layoffs = old_gin.layoffs if old_gin is not None else ()
        layoffs = gin.layoffs if gin is not None else ()
        if old_layoffs != layoffs:
            self._write_counts(start + _GIN_HEAD + C, old_layoffs, layoffs)

    def _write_takes(self, takes: int, max_takes: int) -> None:
        """The take bound block: the turns in a row begun by taking the discard pile over their bound
        (rewritten whenever either changes: a take, a draw from the stock, a new hand)."""
        if not self.layout.take_bound:
            return
        source = (takes, max_takes)
        if source != self._takes:
            self._takes = source
            self._mv[self.layout.take_block] = takes / max(1, max_takes)

    def _write_doubled(self, gin: GinInfo | None) -> None:
        """The doubled block: 1 when the hand scores double (set at the deal, so rewritten only when a
        new hand is dealt with other stakes)."""
        if not self.layout.doubled:
            return
        doubled = gin is not None and gin.doubled
        if doubled != self._doubled:
            self._doubled = doubled
            self._mv[self.layout.doubled_block] = 1.0 if doubled else 0.0

    def _write_derived(self, view: PlayerView) -> None:
        self._derived = write_derived(self.out, self.layout, self._derived, view)

    def snapshot(self, tokens: Sequence[int] | None) -> npt.NDArray[np.float32]:
        """A copy of the vector with the action spelled so far (``tokens``) written in."""
        out = self.out.copy()
        if tokens:
            encode_prefix(out, self.layout.seats, tokens, cleared=True)  # the encoder never writes it
        return out

    def _write_pile(self, pile: tuple[int, ...]) -> None:
        """The pile's counts and each face's recency ``1 / (n - i)`` (``i`` the index of its topmost
        copy, ``n`` the pile's size). A pile that only lost or gained cards on top since the last
        call is patched card by card; the recency of every face is one vectorised division of the
        kept topmost indices (``-inf`` for a face not in the pile, whose recency is then 0)."""
        old = self._pile
        self._pile = pile
        mv = self._mv
        start = self.layout.pile
        top = self._top
        n = len(pile)
        kept = min(n, len(old)) if old is not None else 0
        if old is not None and pile[:kept] == old[:kept]:
            for card in old[kept:]:  # taken from the top
                mv[start + card] -= 1.0
                top[card] = _topmost(pile, card)
            for i in range(kept, n):  # discarded onto it
                card = pile[i]
                mv[start + card] += 1.0
                top[card] = i
        else:
            self.out[start : start + C] = np.bincount(pile, minlength=C) if pile else 0.0
            top.fill(-np.inf)
            last = dict(zip(pile, range(n), strict=True))  # the topmost copy of each face
            top[list(last)] = list(last.values())
        # In float32 throughout (no casting): 1/k rounds exactly as the float64 quotient rounded to
        # float32 does, for every pile size (checked up to 20,000).
        depth = self._depth
        np.subtract(np.float32(n), top, out=depth)
        np.divide(_ONE, depth, out=self._recency)

    def _write_melds(self, table: Sequence[TableMeld], me: int) -> None:
        melds = table[:M]
        old = self._melds
        if len(melds) == len(old) and all(map(operator.is_, melds, old)):
            return
        lay = self.layout
        out = self.out
        slot = lay.slot
        seats = lay.seats
        pack = _floats(slot).pack_into
        for i, tm in enumerate(melds):
            if i < len(old) and old[i] is tm:
                continue
            meld = tm.meld
            values = _counts(meld.cards, slot)
            values[C] = 1.0
            if meld.is_run:
                values[C + 1] = 1.0
                values[C + 2] = meld.start / POSITIONS
                values[C + 3] = meld.end / POSITIONS
            values[C + 4 + (tm.owner - me) % seats] = 1.0
            pack(self._mv, 4 * (lay.table + i * slot), *values)
        for i in range(len(melds), len(old)):  # a new hand of a match: its table starts empty
            out[lay.table + i * slot : lay.table + (i + 1) * slot] = 0.0
        self._melds = list(melds)


def write_derived(out: npt.NDArray[np.float32], layout: Layout, source: object, view: PlayerView) -> object:
    """The derived block of ``out`` for ``view`` unless ``source`` (what it was written from) is
    still the view's; the block's new source."""
    new = (view.hand, view.phase, view.is_my_turn, view.top_discard)
    if new != source:
        out[layout.derived_block :] = derived_features(view)
    return new


class CompiledEncoder:
    """:meth:`Encoder.encode_state` and :meth:`Encoder.snapshot` in compiled code: the same vector bit
    for bit (every value computed as Python computes it and rounded to ``float32`` once), read from
    the same fields of the round's state. Each call rewrites every block from its source except the
    table-meld slots, rewritten when they hold another meld object; the derived features stay in
    Python."""

    __slots__ = ("_derived", "_native", "layout", "out")

    def __init__(self, layout: Layout, rules: Rules) -> None:
        if _NATIVE is None:
            raise RuntimeError("the compiled encoder is not available (not built, or RUMMYKIT_PURE=1)")
        self.layout = layout
        self._native = _NATIVE.ObsEncoder(
            seats=layout.seats,
            table=layout.table,
            pile=layout.pile,
            taken=layout.taken,
            per_seat=layout.per_seat,
            prefix=layout.prefix,
            gin_block=layout.gin_block,
            take_block=layout.take_block,
            doubled_block=layout.doubled_block,
            size=layout.size,
            gin=layout.gin,
            take_bound=layout.take_bound,
            doubled=layout.doubled,
            deck_size=rules.deck_size,
            max_upcard_draws=rules.max_upcard_draws,
            max_takes_in_a_row=rules.max_takes_in_a_row,
            phases=_PHASES,
            gin_phases=_GIN_PHASES,
        )
        self.out: npt.NDArray[np.float32] = self._native.out
        """The vector (rewritten in place; copy it to keep it)."""
        self._derived: object = _UNSET

    def encode_state(
        self, state: RoundState, seat: int, figures: MatchFigures, view: Callable[[], PlayerView] | None
    ) -> npt.NDArray[np.float32]:
        """:meth:`Encoder.encode_state` (``rules`` of ``state`` as given at construction)."""
        self._native.encode_state(state, seat, figures)
        if self.layout.derived:
            if view is None:
                raise ValueError("the derived features are read from the seat's view: pass one")
            self._derived = write_derived(self.out, self.layout, self._derived, view())
        return self.out

    def snapshot(self, tokens: Sequence[int] | None) -> npt.NDArray[np.float32]:
        """:meth:`Encoder.snapshot`."""
        copy: npt.NDArray[np.float32] = self._native.observation(tokens or None)
        return copy


def state_encoder(layout: Layout, rules: Rules) -> Encoder | CompiledEncoder:
    """The encoder of one seat's vector from the round's state: the compiled one where it was built
    (and ``RUMMYKIT_PURE`` is not ``1``), else :class:`Encoder`."""
    return CompiledEncoder(layout, rules) if _NATIVE is not None else Encoder(layout)


_PHASE_ONE_HOT: Final = {
    phase: tuple(1.0 if phase is p else 0.0 for p in _PHASES) for phase in Phase
}
"""The phase entries of the global block (all zero in gin's own phases)."""


@cache
def _one_hot(size: int, index: int) -> tuple[float, ...]:
    return tuple(1.0 if i == index else 0.0 for i in range(size))


def _gin_head(phase: Phase, gin: GinInfo | None, max_upcard_draws: int) -> list[float]:
    """The gin block's leading values: the gin phase (one-hot), knock card, first-upcard passes,
    upcard draws, repeated upcard, lay-offs done. The previous upcard (one-hot) and the cards laid
    off (counts) follow them in the block."""
    values = [0.0] * _GIN_HEAD
    if phase in _GIN_PHASES:
        values[_GIN_PHASES.index(phase)] = 1.0
    if gin is not None:
        values[4] = gin.knock_card / 10.0
        values[5] = gin.upcard_passes / 2.0
        values[6] = gin.upcard_draws / max(1, max_upcard_draws)
        values[7] = float(gin.repeated)
        values[8] = float(gin.layoffs_done)
    return values


def encode_view(
    view: PlayerView, figures: MatchFigures, derived: bool = False, layout: Layout | None = None
) -> npt.NDArray[np.float32]:
    """Every block but the action so far (which :func:`encode_prefix` writes) for ``view``'s seat,
    built from scratch (a fresh vector), in the layout of its rules (:meth:`Layout.for_rules`), or
    in ``layout`` where given (which then also says whether the derived block is present): a policy
    trained on observation v1 reads the vector without the take bound block, one trained on v2 the
    vector without the doubled block."""
    if layout is None:
        layout = Layout.for_rules(view.rules, len(view.hand_sizes), derived)
    return Encoder(layout).encode(view, figures)


def prefix_offset(seats: int) -> int:
    return Layout.of(seats).prefix


def encode_prefix(
    out: npt.NDArray[np.float32], seats: int, tokens: Sequence[int], cleared: bool = False
) -> None:
    """Write the action spelled so far (``tokens``) into the action block of ``out`` (cleared first
    unless the caller says it is all zeros)."""
    base = prefix_offset(seats)
    if not cleared:
        out[base : base + PREFIX_FEATURES] = 0.0
    if not tokens:
        return
    out[base + tokens[0]] = 1.0
    current = base + enc.NUM_VERBS
    earlier = current + C
    last = earlier + C
    target = last + C
    flags = target + M
    closed = 0
    spelled = 0
    for t in tokens[1:]:
        if enc.CARD0 <= t < enc.NEXT:
            out[current + t - enc.CARD0] += 1.0
            out[last : last + C] = 0.0
            out[last + t - enc.CARD0] = 1.0
            spelled += 1
        elif t == enc.NEXT or t == enc.THEN_MELD or t == enc.THEN_LAYOFF or t >= enc.TARGET0:
            out[earlier : earlier + C] += out[current : current + C]
            out[current : current + C] = 0.0
            if t == enc.NEXT:
                closed += 1
            elif t >= enc.TARGET0:
                out[target : target + M] = 0.0
                out[target + t - enc.TARGET0] = 1.0
            else:
                out[flags + 2 + (t == enc.THEN_LAYOFF)] = 1.0
        elif t == enc.LOW or t == enc.HIGH:
            out[flags + (t == enc.HIGH)] = 1.0
    out[flags + 4] = closed / 4.0
    out[flags + 5] = spelled / 14.0
