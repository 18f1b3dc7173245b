"""The rule conditions of a melding-game turn, read both by the planning (:mod:`rummykit.melding_plan`)
and by the legal-action enumeration (:mod:`rummykit.melding`): the opening value, the card kept for
the discard, the bar on the taken discard, the permissions to lay off and to exchange a joker, and
whether the taken discard that must be laid can still be laid.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from rummykit import permissions, solver
from rummykit.actions import Action, Open
from rummykit.cards import Card, Hand
from rummykit.errors import IllegalActionError, IllegalMeldError
from rummykit.melds import Meld, position_value, rank_value
from rummykit.rules import Rules
from rummykit.state import RoundState
from rummykit.views import Phase

# Enum members as module constants: ``Phase.X`` is a class attribute lookup costing ~0.3 us on
# Python 3.11, and the turn flow reads them on every action.
PHASE_DRAW: Final = Phase.DRAW
PHASE_PLAY: Final = Phase.PLAY


def _card_value_in(meld: Meld, card: Card) -> int:
    """Opening value that ``card`` contributes to ``meld`` (for ``opening_counts_taken_discard``)."""
    if meld.is_set:
        return rank_value(meld.rank)
    i = meld.cards.index(card)
    return position_value(meld.start + i)


def opening_value(melds: Sequence[Meld], rules: Rules, taken: Card | None) -> int:
    """What an opening of ``melds`` counts toward ``opening_min_points``: their values summed, or
    under ``opening_scope = single_meld`` the best one's.

    ``taken``: the discard taken this turn where the opening lays a card equal to it. Under
    ``opening_counts_taken_discard = false`` its value is left out. Decision: a laid card equal to
    the taken one is the taken one (the table saw it taken and sees such a card laid; a twin kept in
    the hand does not make the laid one count), and where two equal cards are laid (two decks),
    nobody can tell which was taken, so it is left out of the meld where that leaves the opening
    worth most (an ace counts 11 in a set and 1 at the bottom of a run): the order in which the
    melds are written changes nothing. (It was left out of the first meld holding it: ``open AH AS
    AD | AH 2H 3H 4H`` after taking ``AH`` counted 32, the same melds the other way round 42.)"""
    values = [m.value for m in melds]
    total: Callable[[list[int]], int] = max if rules.opening_scope == "single_meld" else sum
    if taken is None or rules.opening_counts_taken_discard:
        return total(values) if values else 0
    worths = []
    for i, m in enumerate(melds):
        if taken in m.cards:
            without = values.copy()
            without[i] -= _card_value_in(m, taken)
            worths.append(total(without))
    return max(worths) if worths else (total(values) if values else 0)


def keeps_one_card(rules: Rules) -> bool:
    return rules.going_out_requires_discard


def require_card_left(hand: Hand, rules: Rules, action: Action, error: type[IllegalActionError]) -> None:
    """``going_out_requires_discard``: a player must keep a card to end the turn with a discard."""
    if keeps_one_card(rules) and len(hand) == 0:
        raise error(
            f"{action}: you must keep a card to discard (going_out_requires_discard)",
            "going_out_requires_discard",
        )


def opening_points(action: Action, rules: Rules, taken: Card | None) -> int | None:
    """What ``action``, an opening, counts toward ``opening_min_points`` (:func:`opening_value`;
    ``taken``: the card taken from the discard pile that turn), for the move lists: every player
    checks an opponent's 40. ``None`` for any other move, a game without a minimum, or melds the
    rules refuse."""
    if not isinstance(action, Open) or not rules.opening_min_points:
        return None
    try:
        melds = [Meld.from_cards(m, rules) for m in action.melds]
    except IllegalMeldError:
        return None
    return opening_value(melds, rules, taken)


def barred_taken(rnd: RoundState) -> Card | None:
    """The card taken from the discard pile this turn while it may not be discarded
    (``may_discard_taken_discard`` off) and need not be laid: a play must not leave it as the only
    card in hand, since the turn could then end neither by a discard nor by going out. Where it had
    to be laid and was (:func:`discard_barred_taken`), a copy left in hand is the player's own:
    nothing is barred."""
    if rnd.must_lay is not None:
        return None
    return discard_barred_taken(rnd, rnd.to_move)


def taken_stays_barred(rules: Rules, opened_this_turn: bool) -> bool:
    """Whether a card taken from the discard pile stays barred from the turn's discard, its copies in
    hand with it (:func:`discard_barred_taken`), for a player who did or did not open this turn: not
    where it may be discarded, nor where the take obliged the player to lay it (Scala 40's
    ``discard_pickup_requires_meld``; ``opened_or_opening_with_it`` for a player who opened with
    it), since it is on the table by the discard. The bots' models of the bar read it too."""
    if rules.may_discard_taken_discard:
        return False
    return not (
        rules.discard_pickup_requires_meld
        or (rules.discard_pickup_requires_opened == "opened_or_opening_with_it" and opened_this_turn)
    )


def discard_barred_taken(rnd: RoundState, seat: int) -> Card | None:
    """The card taken from the discard pile this turn that ``seat`` may not discard (RULES.md D15,
    ``may_discard_taken_discard`` off), or ``None``.

    ``None`` too where the take obliged the player to lay that card (:func:`must_lay_taken`: Scala
    40's ``discard_pickup_requires_meld``, or a player who had not opened under
    ``opened_or_opening_with_it``): the turn cannot end with a discard before it is laid, so at the
    discard it is on the table, and a copy of its face still in hand is the player's own. Elsewhere
    two copies cannot be told apart, and both are barred."""
    if rnd.taken_discard is None or rnd.rules.may_discard_taken_discard:
        return None
    opened_with_it = rnd.opened_turn[seat] == rnd.turn  # had not opened when it took the card
    if rnd.must_lay is None and not taken_stays_barred(rnd.rules, opened_with_it):
        return None  # laid as it had to be: a copy in hand is the player's own
    return rnd.taken_discard


def require_discardable_left(
    rnd: RoundState, hand: Hand, action: Action, error: type[IllegalActionError]
) -> None:
    """D15 without exception: a play may not leave only the card taken from the discard pile this
    turn (with two decks a lone copy of its face counts as that card: copies are not told apart).

    Not where the taken discard has to be laid (``discard_pickup_requires_meld``, Scala 40): until
    it is laid the turn cannot end with a discard, and the play that lays it puts that very card on
    the table, so a copy left in hand is the player's own. Refusing that play would leave a player
    who took the card with no legal way to lay it (a dead end)."""
    card = barred_taken(rnd)
    if card is not None and len(hand) == 1 and card in hand:
        raise error(
            f"{action}: it would leave only {card}, the card you took from the discard pile, which you "
            "may not discard this turn; keep another card to discard (may_discard_taken_discard is off)",
            "may_discard_taken_discard",
        )


def may_lay_off(rnd: RoundState, seat: int) -> bool:
    """Whether ``seat`` may lay off now (:func:`rummykit.permissions.may_lay_off`)."""
    return permissions.may_lay_off(rnd.rules, rnd.opened_turn[seat], rnd.turn)


_EXCHANGE_REASONS: Final = {
    "joker_exchange": "jokers cannot be exchanged in this game (joker_exchange is off)",
    "joker_exchange_requires_opened": "only a player who has opened may exchange a joker",
    "joker_exchange_on_opening_turn": (
        "no joker exchange in the turn of the opening (joker_exchange_on_opening_turn is off)"
    ),
}
"""Why :func:`rummykit.permissions.exchange_bar` refuses, by rule id."""


def exchange_problem(rnd: RoundState, seat: int) -> tuple[str, str] | None:
    """The rule id and reason that forbid ``seat`` a joker exchange now, or ``None``."""
    rule = permissions.exchange_bar(rnd.rules, rnd.opened_turn[seat], rnd.turn)
    return None if rule is None else (rule, _EXCHANGE_REASONS[rule])


def must_lay_taken(rnd: RoundState, seat: int) -> bool:
    rules = rnd.rules
    return rules.discard_pickup_requires_meld or (
        rules.discard_pickup_requires_opened == "opened_or_opening_with_it" and not rnd.has_opened(seat)
    )


def can_place(
    rnd: RoundState, card: Card, hand: Hand, table: Sequence[Meld], opened: bool, layoff_ok: bool
) -> bool:
    """Whether ``card`` (held in ``hand``) can still be laid on the table this turn."""
    rules = rnd.rules
    if card not in hand:
        return False  # it left the hand without being laid: nothing can lay it any more
    cards = list(hand)
    limit = len(cards) - 1 if keeps_one_card(rules) else len(cards)
    if opened:
        spare = len(cards) > (1 if keeps_one_card(rules) else 0)
        if layoff_ok and spare and any(m.can_lay_off(card, rules) for m in table):
            return True
        return any(len(m) <= limit for m in solver.melds_containing(cards, card, rules))
    if not rules.opening_counts_taken_discard:
        return opening_without_its_value(cards, card, rules, limit) is not None
    best = solver.best_opening(cards, rules, must_include=card, keep_one=keeps_one_card(rules))
    if best is None:
        return False
    minimum = rules.opening_min_points or 0
    return opening_value(best, rules, None) >= minimum


def opening_without_its_value(
    cards: Sequence[Card], card: Card, rules: Rules, limit: int
) -> tuple[Meld, ...] | None:
    """An opening of ``cards`` (at most ``limit`` of them laid) that lays the taken discard ``card``
    and reaches ``opening_min_points`` without counting it (``opening_counts_taken_discard =
    false``), the meld with the card first; ``None`` when there is none. The highest-valued opening
    with the card need not be the one worth most without it (an ace counts 11 in a set, 1 at the
    bottom of a run; a second joker may take the taken one's place), so every meld with the card is
    tried, with the most the rest of the hand adds (the whole opening counts, or for ``opening_scope
    = single_meld`` the one meld that must reach the minimum)."""
    minimum = rules.opening_min_points or 0
    keep = keeps_one_card(rules)
    for with_card in solver.melds_containing(cards, card, rules):
        if len(with_card) > limit:
            continue
        try:
            meld = Meld.from_cards(with_card, rules)
        except IllegalMeldError:
            continue
        own = meld.value - _card_value_in(meld, card)
        rest = list(cards)
        for c in with_card:
            rest.remove(c)
        if own >= minimum:
            return (meld,)
        if rules.opening_scope != "single_meld":
            others = solver.best_opening(rest, rules, keep_one=keep, minimum=0)
            if others is not None and own + sum(m.value for m in others) >= minimum:
                return (meld, *others)
            continue
        for other in solver.all_melds(rest, rules):
            if len(with_card) + len(other) <= limit:
                second = Meld.from_cards(other, rules)
                if second.value >= minimum:
                    return (meld, second)
    return None


def hand_romme_now(rnd: RoundState, seat: int) -> bool:
    """Whether going out this turn would be a Hand-Rommé for ``seat``: no card of its hand was put on
    the table before this turn (:meth:`MeldingFamily._go_out`). Only then does the waiver of the
    opening minimum (``hand_romme_requires_opening_min = false``) apply."""
    return rnd.placed_turn[seat] in (None, rnd.turn)
