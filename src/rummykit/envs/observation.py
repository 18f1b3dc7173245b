"""The observation encoding of the rummykit environments (version 0): one flat ``float32`` vector
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
                                       points or bad points), chips / 100
global                 12+S            phase (draw, play, discard, over), own turn, buy-back
                                       offer pending, stock size / deck size, stock rebuilds,
                                       turn / 100, pot / 100, hands dealt / 10, match scope; the
                                       seat to move (one-hot, relative)
action so far          NV+3C+M+6       verb chosen (one-hot, 11 verbs), cards of the meld being
                                       spelled, cards of its earlier melds, last card (one-hot),
                                       melds closed / 4, target meld (one-hot), low, high, then
                                       meld, then lay-off, cards spelled / 14
=====================  ==============  ===========================================================

With ``derived_features=True`` a last block of ``C + 2`` values follows, computed by the solver from
the own hand and the top discard alone (``rummykit.solver.min_deadwood``, all / 100): while the seat
must discard, for each card held the minimum deadwood of the hand left after discarding it (0
elsewhere); the hand's own minimum deadwood; and the least deadwood reachable by taking the top
discard and discarding another card (while the seat is to draw). They spare a learner rediscovering
meld structure; ``benchmarks/envs.py`` measures their cost.

The ``action_mask`` beside the observation is the :mod:`~rummykit.envs.encoding` mask (``int8``,
one entry per token).

Version history: **v0** (this layout) — first release.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from rummykit import solver
from rummykit.cards import NUM_CODES
from rummykit.envs import encoding as enc
from rummykit.views import Phase, PlayerView

OBSERVATION_VERSION: Final = 0
C: Final = NUM_CODES
M: Final = enc.MAX_TABLE_MELDS
SEAT_FEATURES: Final = 8
GLOBAL_FEATURES: Final = 12
PREFIX_FEATURES: Final = enc.NUM_VERBS + 3 * C + M + 6
POSITIONS: Final = 14.0
_PHASES: Final = (Phase.DRAW, Phase.PLAY, Phase.DISCARD, Phase.OVER)


def meld_slot_size(seats: int) -> int:
    return C + 4 + seats


def observation_size(seats: int, derived: bool = False) -> int:
    """Length of the observation vector at a table of ``seats`` seats."""
    return (DERIVED_FEATURES if derived else 0) + (
        C
        + (seats - 1) * C
        + M * meld_slot_size(seats)
        + 4 * C
        + SEAT_FEATURES * seats
        + GLOBAL_FEATURES
        + seats
        + PREFIX_FEATURES
    )


@dataclass(frozen=True, slots=True)
class MatchFigures:
    """Public match figures per seat (absolute seats); zeros outside a match."""

    totals: tuple[int, ...]
    chips: tuple[int, ...]
    pot: int = 0
    hands_dealt: int = 0
    buyback_pending: bool = False
    is_match: bool = False

    @classmethod
    def none(cls, seats: int) -> MatchFigures:
        return cls((0,) * seats, (0,) * seats)


DERIVED_FEATURES: Final = C + 2


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


def encode_view(view: PlayerView, figures: MatchFigures, derived: bool = False) -> npt.NDArray[np.float32]:
    """Every block but the action so far (which :func:`encode_prefix` writes) for ``view``'s seat.

    The non-zero entries are gathered in a dict (card counts added up) and written into the zero
    vector with one indexed assignment: one NumPy call instead of one per feature.
    """
    seats = len(view.hand_sizes)
    me = view.seat
    rel = [(me + k) % seats for k in range(seats)]
    values: dict[int, float] = {}
    get = values.get

    def count(offset: int, cards: Iterable[int]) -> None:
        for card in cards:
            key = offset + card
            values[key] = get(key, 0.0) + 1.0

    count(0, view.hand)
    pos = C
    for k in range(1, seats):
        seat = rel[k]
        shown = view.revealed[seat] if view.revealed else None
        known = shown if shown is not None else (view.known_cards[seat] if view.known_cards else ())
        count(pos, known)
        pos += C
    slot = meld_slot_size(seats)
    for i, tm in enumerate(view.melds[:M]):
        base = pos + i * slot
        meld = tm.meld
        count(base, meld.cards)
        values[base + C] = 1.0
        if meld.is_run:
            values[base + C + 1] = 1.0
            values[base + C + 2] = meld.start / POSITIONS
            values[base + C + 3] = meld.end / POSITIONS
        values[base + C + 4 + (tm.owner - me) % seats] = 1.0
    pos += M * slot
    pile = view.discard_pile
    count(pos, pile)
    pos += C
    for depth, card in enumerate(reversed(pile)):
        values.setdefault(pos + card, 1.0 / (1 + depth))
    pos += C
    if view.taken_discard is not None:
        values[pos + view.taken_discard] = 1.0
    pos += C
    if view.must_lay is not None:
        values[pos + view.must_lay] = 1.0
    pos += C
    active = set(view.active_seats)
    extra = set(view.extra_turns)
    for k in range(seats):
        seat = rel[k]
        features = (
            view.hand_sizes[seat] / 20.0,
            float(view.opened[seat]),
            float(seat in active),
            float(view.knocker == seat),
            float(seat in extra),
            view.scores[seat] / 100.0,
            figures.totals[seat] / 100.0,
            figures.chips[seat] / 100.0,
        )
        for i, value in enumerate(features):
            values[pos + i] = value
        pos += SEAT_FEATURES
    values[pos + _PHASES.index(view.phase)] = 1.0
    globals_ = (
        float(view.is_my_turn),
        float(figures.buyback_pending),
        view.stock_size / view.rules.deck_size,
        float(view.stock_rebuilds),
        view.turn / 100.0,
        figures.pot / 100.0,
        figures.hands_dealt / 10.0,
        float(figures.is_match),
    )
    for i, value in enumerate(globals_, start=pos + 4):
        values[i] = value
    pos += GLOBAL_FEATURES
    values[pos + (view.to_move - me) % seats] = 1.0
    out = np.zeros(observation_size(seats, derived), dtype=np.float32)
    n = len(values)
    out[np.fromiter(values, dtype=np.intp, count=n)] = np.fromiter(values.values(), dtype=np.float32, count=n)
    if derived:
        out[-DERIVED_FEATURES:] = derived_features(view)
    return out


def prefix_offset(seats: int) -> int:
    return observation_size(seats) - PREFIX_FEATURES


def encode_prefix(out: npt.NDArray[np.float32], seats: int, tokens: Sequence[int]) -> None:
    """Write the action spelled so far (``tokens``) into the action block of ``out`` (cleared first)."""
    base = prefix_offset(seats)
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
