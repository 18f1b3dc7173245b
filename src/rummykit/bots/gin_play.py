"""Greedy play of Gin Rummy (RULES.md §5.4): every gin decision, one turn deep.

:class:`~rummykit.bots.greedy.GreedyBot` plays gin with :func:`gin_action`; the search bot uses it for
the phases it does not search. The decisions, phase by phase (:class:`~rummykit.views.Phase`):

* ``FIRST_UPCARD`` and ``DRAW``: take the upcard when it ends up in a meld (the least deadwood of
  the hand with it is below the hand's deadwood plus its value), or when taking it allows a knock
  and lowers the deadwood (:func:`wants_upcard`); else pass or draw from the stock.
* ``DISCARD``: ``knock`` when the hand allows it and :func:`wants_knock` agrees (always on gin: the
  gin bonus and no lay-offs; otherwise with ``knock_card`` or less, and late in the hand only with
  :data:`LATE_KNOCK` or less, because a defender who has had many turns undercuts more often). Else
  discard the card that least damages the hand (:func:`discard_scores`): least deadwood left, a
  charge for every partial meld it belongs to, a charge for every card it would give the opponent a
  use for (its rank or suit neighbours among the cards the opponent is known to hold: the wall of
  discards it took), ties to the higher card.
* ``WALL``: knock when allowed (the alternative is a dead hand worth nothing), else pass.
* ``KNOCK`` (the knocker): discard the card that leaves the least deadwood, ties going to the
  arrangement that offers the fewest lay-offs to the defender (:func:`exposure`: lay-off risk); then
  lay the melds of that arrangement one by one and pass.
* ``LAYOFF`` (the defender): lay off the set of cards that leaves the least deadwood (lay-offs chain
  along the knocker's runs, so every order is searched, :func:`best_layoffs`), pass, then lay every
  meld of the best arrangement of the cards left and pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit import solver
from rummykit.actions import Action, Discard, Draw, KnockDeclare, LayOffCard, MeldAction, Pass, TakeDiscard
from rummykit.cards import NUM_RANKS, Card
from rummykit.gin import big_gin_hand, meld_action, values_of
from rummykit.gin_melds import (
    MELD_BY_MASK,
    GinMeld,
    best_group,
    cards_of,
    deadwood,
    layoff_cards,
    mask_of,
)
from rummykit.rules import Rules
from rummykit.views import GinInfo, Phase, PlayerView

LINK_CHARGE: Final = 4
"""Deadwood points charged for each partial meld (pair, suit neighbour) a discarded loose card is in."""
FEED_CHARGE: Final = 3
"""Points charged for each card the opponent is known to hold that the discard would join."""
KNOCK_WEIGHT: Final = 10.0
"""Deadwood points a draw that allows a knock is worth beyond its deadwood (a knock ends the race)."""
LATE_STOCK: Final = 0
"""From this stock size down the hand is late: knock only with :data:`LATE_KNOCK` or less.

Waiting late in the hand guards against an undercut by a defender who has had many turns. Against
OpenSpiel's simple bot (it never lays off, and it knocks as soon as it can, so a hand it has not
knocked is above the knock card) it changed nothing: 54.2 % against 54.1 % of the same 600 games
with ``LATE_STOCK = 12``. The default therefore knocks whenever allowed (``0``: never late).
"""
LATE_KNOCK: Final = 5
"""The deadwood a late knock may leave."""


def gin_info(view: PlayerView) -> GinInfo:
    """The gin facts of ``view`` (a gin view always has them)."""
    if view.gin is None:
        raise ValueError(f"{view.rules.name} is not gin")
    return view.gin


def linked(a: int, b: int) -> bool:
    """Whether two cards can share a gin meld: same rank, or same suit within two ranks (ace low)."""
    if a == b:
        return False
    if a % NUM_RANKS == b % NUM_RANKS:
        return True
    return a // NUM_RANKS == b // NUM_RANKS and abs(a - b) <= 2


def wants_upcard(rules: Rules, hand: Sequence[int], top: int, knock_card: int) -> bool:
    """Take ``top`` into ``hand`` when it ends up melded, or when it allows a knock and lowers the
    deadwood after the best discard."""
    values = values_of(rules)
    mask = mask_of(hand)
    before = deadwood(mask, values)
    with_top = mask | 1 << top
    if deadwood(with_top, values) < before + values[top]:
        return True
    after = min(deadwood(with_top & ~(1 << c), values) for c in hand)
    return after < before and after <= knock_card


def wants_knock(best: int, knock_card: int, stock_size: int) -> bool:
    """Knock with ``best`` deadwood left? Always on gin; else within the knock card, and late in the
    hand (stock below :data:`LATE_STOCK`) only with :data:`LATE_KNOCK` or less."""
    if best == 0:
        return True
    if best > knock_card:
        return False
    return stock_size >= LATE_STOCK or best <= LATE_KNOCK


def best_knock_deadwood(rules: Rules, hand: Sequence[int]) -> int:
    """The least deadwood eleven cards leave after the best discard."""
    values = values_of(rules)
    mask = mask_of(hand)
    return min(deadwood(mask & ~(1 << c), values) for c in hand)


def next_draw(rules: Rules, rest: Sequence[int], drawable: Sequence[int], knock_card: int) -> float:
    """How good ten cards are one stock draw ahead: the mean over the ``drawable`` cards of the least
    deadwood after drawing it and discarding the best card, less :data:`KNOCK_WEIGHT` times the
    chance that the draw allows a knock."""
    if not drawable:
        return float(solver.min_deadwood(rest, rules))
    total = 0.0
    for card in drawable:
        d, _ = solver.best_discards([*rest, card], rules)
        total += d - (KNOCK_WEIGHT if d <= knock_card else 0.0)
    return total / len(drawable)


def discard_scores(view: PlayerView, allowed: Sequence[int]) -> dict[int, float]:
    """Damage of discarding each card of ``allowed`` (lower is better; see the module docstring)."""
    rules = view.rules
    values = values_of(rules)
    hand = list(view.hand)
    mask = mask_of(hand)
    used = 0
    for meld in best_group(mask, values):
        used |= meld.mask
    loose = cards_of(mask & ~used)
    opponent = [c for s, known in enumerate(view.known_cards) if s != view.seat for c in known]
    held = mask_of(opponent)
    drawable = [c for c in cards_of(hidden_cards(view)) if not held >> c & 1]
    knock_card = gin_info(view).knock_card
    scores: dict[int, float] = {}
    for card in set(allowed):
        rest = [c for c in hand if c != card]
        score = next_draw(rules, rest, drawable, knock_card)
        if card in loose:
            score += LINK_CHARGE * sum(1 for other in loose if linked(card, other))
        score += FEED_CHARGE * sum(1 for other in opponent if linked(card, other))
        scores[card] = score - values[card] / 100
    return scores


def best_discard(view: PlayerView, allowed: Sequence[int]) -> Card:
    scores = discard_scores(view, allowed)
    return Card(min(sorted(scores), key=scores.__getitem__))


def exposure(group: Sequence[GinMeld], hidden: int) -> int:
    """Lay-off risk of laying ``group``: how many cards the knocker cannot see (bit mask ``hidden``)
    could be laid off onto it (OpenSpiel's two-per-end chaining counts the first card of each end)."""
    return sum(1 for c in layoff_cards(group, (), "unlimited") if hidden >> c & 1)


def hidden_cards(view: PlayerView) -> int:
    """Bit mask of the cards this seat cannot see: not in its hand, on the table or discarded."""
    seen = mask_of(view.hand) | mask_of(view.discard_pile)
    for tm in view.melds:
        seen |= mask_of(tm.meld.cards)
    return ((1 << 52) - 1) & ~seen


def knock_discard(view: PlayerView, allowed: Sequence[int]) -> Card:
    """The knocker's discard: least deadwood, then least lay-off risk, then the higher card."""
    values = values_of(view.rules)
    mask = mask_of(view.hand)
    hidden = hidden_cards(view)

    def key(card: int) -> tuple[int, int, int, int]:
        rest = mask & ~(1 << card)
        return (deadwood(rest, values), exposure(best_group(rest, values), hidden), -values[card], card)

    return Card(min(set(allowed), key=key))


def best_layoffs(
    hand: int,
    melds: Sequence[GinMeld],
    laid: tuple[int, ...],
    rules: Rules,
    memo: dict[int, int] | None = None,
) -> tuple[int, Card | None]:
    """The least deadwood the defender can reach by laying off from ``hand`` (a bit mask) onto the
    knocker's ``melds`` after the lay-offs ``laid``, and the next card to lay off on the way there
    (``None``: pass now). Every order is searched: a card laid on a run end opens the next one."""
    values = values_of(rules)
    memo = {} if memo is None else memo
    best = deadwood(hand, values)
    choice: Card | None = None
    for card in sorted(layoff_cards(melds, laid, rules.layoff_run_chain)):
        if not hand >> card & 1:
            continue
        rest = hand & ~(1 << card)
        if rest not in memo:
            memo[rest] = best_layoffs(rest, melds, (*laid, card), rules, memo)[0]
        if memo[rest] < best:
            best, choice = memo[rest], Card(card)
    return best, choice


def gin_action(view: PlayerView, legal: Sequence[Action]) -> Action:
    """Greedy's gin action among ``legal`` (see the module docstring)."""
    if len(legal) == 1:
        return legal[0]
    rules = view.rules
    info = gin_info(view)
    hand = list(view.hand)
    phase = view.phase
    top = view.top_discard
    if phase in (Phase.FIRST_UPCARD, Phase.DRAW):
        take = top is not None and TakeDiscard() in legal and wants_upcard(rules, hand, top, info.knock_card)
        if take:
            return TakeDiscard()
        return Draw() if Draw() in legal else Pass()
    if phase is Phase.WALL:
        return KnockDeclare() if KnockDeclare() in legal else Pass()
    if phase is Phase.DISCARD:
        if KnockDeclare() in legal and (
            prefers_big_gin(rules, hand)
            or wants_knock(best_knock_deadwood(rules, hand), info.knock_card, view.stock_size)
        ):
            return KnockDeclare()
        return Discard(best_discard(view, [a.card for a in live_discards(view, legal)]))
    if phase is Phase.KNOCK:
        discards = [a.card for a in legal if isinstance(a, Discard)]
        if discards and not (any(isinstance(a, MeldAction) for a in legal) and prefers_big_gin(rules, hand)):
            return Discard(knock_discard(view, discards))
        return _next_meld(view, legal)
    if phase is Phase.LAYOFF:
        if not info.layoffs_done:
            melds = [MELD_BY_MASK[mask_of(m)] for m in info.knocker_melds]
            _, card = best_layoffs(mask_of(hand), melds, info.layoffs, rules)
            if card is not None and LayOffCard(card) in legal:
                return LayOffCard(card)
            return Pass()
        return _next_meld(view, legal)
    return legal[0]


def live_discards(view: PlayerView, legal: Sequence[Action]) -> list[Discard]:
    """The discards among ``legal`` that do not end the hand dead: throwing the taken upcard back right
    after the other player did the same ends it unscored (``repeat_discard_draw``), which no bot
    chooses while another discard is left (players do not expect it, and the hint suggested it)."""
    discards = [a for a in legal if isinstance(a, Discard)]
    info = view.gin
    if info is None or not (view.rules.repeat_discard_draw and info.repeated) or info.prev_upcard is None:
        return discards
    live = [a for a in discards if a.card != info.prev_upcard]
    return live or discards


def prefers_big_gin(rules: Rules, hand: Sequence[int]) -> bool:
    """Knock and lay a big gin with ``hand`` (a hand and one card more)? Only where it is one
    (:func:`~rummykit.gin.big_gin_hand`). It scores ``big_gin_bonus`` and the defender's deadwood,
    nothing laid off; a discard to gin scores ``gin_bonus`` and the same, any other knock less (its
    own deadwood, the lay-offs, an undercut). So big gin, unless a discard leaves gin and gin's bonus
    is the larger."""
    if not big_gin_hand(mask_of(hand), rules):
        return False
    assert rules.big_gin_bonus is not None  # big_gin_hand
    return rules.big_gin_bonus >= rules.gin_bonus or best_knock_deadwood(rules, hand) > 0


def _next_meld(view: PlayerView, legal: Sequence[Action]) -> Action:
    """Lay the next meld of the best arrangement of the cards in hand; pass when none is left."""
    for meld in best_group(mask_of(view.hand), values_of(view.rules)):
        action = meld_action(meld)
        if action in legal:
            return action
    return Pass() if Pass() in legal else legal[0]
