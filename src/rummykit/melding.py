"""Turn logic of the melding games: German Rummy (Rommé mit Auslegen), Scala 40, Basic Rummy.

A turn (RULES.md §3.6) is DRAW (``draw`` or ``take``), then PLAY: any number of ``open`` (first
melds, together worth ``opening_min_points``), ``meld``, ``layoff`` (anlegen) and ``swap`` (Joker
tauschen), ended by ``discard``. A player who holds no cards has gone out; the hand ends at once.

Decisions made here beyond RULES.md:

* A card taken from the discard pile that must be melded (``discard_pickup_requires_meld``, or an
  unopened player under ``opened_or_opening_with_it``) may be taken only when a legal way to lay it
  this turn exists, and every later action of the turn must keep such a way open. This is the
  engine's "no dead ends" guarantee: every offered action leaves a legal action to follow
  (:mod:`rummykit.testing` checks it).
* The card taken from the discard pile may not be discarded in the same turn (D15,
  ``may_discard_taken_discard = false``) without exception: a play that would leave it as the only
  card in hand is refused, so the player keeps another card to discard (with two decks a lone copy
  of its face counts as the taken card; copies are not told apart, except where the taken card had
  to be laid: the play that lays it put that very card on the table). Before, the bar was lifted
  there, and a player could take a card, lay everything else and go out by discarding it.
* When every card left in a hand is barred from the discard otherwise (the taken discard held only
  with other copies of its face, a playable card under ``discard_playable_card_allowed = false``, a
  joker under ``joker_discard_allowed = only_when_closing``), those bars are lifted in that order
  until a card can be discarded, so the turn can always end. The bar on a playable card stands while
  the player may lay one off and keep a card: the turn then goes on with lay-offs down to a discard
  the bars allow (the closing card at the latest), as RULES.md §5.2 asks.
* ``hand_romme_requires_opening_min = false`` waives the opening minimum when the opening leaves at
  most one card (which the player must then discard, going out).
* A joker exchange whose natural card is the taken discard lays that card on the table (into the
  meld the joker leaves), which settles ``discard_pickup_requires_meld`` (RULES.md §3.6: the card
  must be on the table; §5.2: it must go into a meld) also when the freed joker stays in hand.

Legal-action enumeration (``Round.legal_actions``): in the draw phase ``draw`` and ``take``; in the
play phase for an unopened player the best-value opening and every single meld that is an opening on
its own (all restricted to melds using the taken discard while it must be laid), and under the
Hand-Rommé waiver the openings below the minimum that go out; for an opened player
every distinct single meld, every lay-off (run ends named when a card fits at both), every joker
exchange with each new meld that can take the freed joker; then every distinct discard. Compound
openings other than the best one are accepted by ``check``/``apply`` but not enumerated.

The parts: :mod:`rummykit.melding_plan` plans each action (:class:`~rummykit.melding_plan.MeldingPlanner`,
the base of :class:`MeldingFamily`); this module enumerates the legal actions; both read the rule
conditions of :mod:`rummykit.melding_conditions`, and the enumeration reads the table and shares its
action objects through :mod:`rummykit.melding_table`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from rummykit import solver
from rummykit.actions import Action, LayOff, MeldCards, Open, Swap
from rummykit.cards import JOKER, JOKER_CODE, NUM_CODES, NUM_RANKS, Card, Hand
from rummykit.errors import IllegalMeldError
from rummykit.family import is_legal
from rummykit.melding_conditions import (
    PHASE_DRAW,
    PHASE_PLAY,
    barred_taken,
    exchange_problem,
    hand_romme_now,
    keeps_one_card,
    may_lay_off,
    must_lay_taken,
    opening_value,
    opening_without_its_value,
)
from rummykit.melding_plan import MeldingPlanner
from rummykit.melding_table import (
    DISCARD_ACTIONS,
    DRAW_ACTION,
    TAKE_ACTION,
    layoff_action,
    meld_action,
    swap_action,
    table_facts,
    table_layoff_targets,
)
from rummykit.melds import Meld
from rummykit.state import RoundState

__all__ = ["MELDING_FAMILY", "MeldingFamily", "barred_taken", "may_lay_off"]

_VALUE_BOUND: Final = tuple(
    11 if code == JOKER_CODE or code % NUM_RANKS == 0 else min(code % NUM_RANKS + 1, 10)
    for code in range(NUM_CODES)
)
"""The most a card can add to a meld's opening value (RULES.md §2.2): an ace or a joker 11, a court
card 10, a pip card its pips. A meld's value is at most the sum over its cards."""


_OpeningCheck = Callable[[Sequence[Meld]], bool]
"""Whether an opening of these melds (built by the solver from the mover's hand) is legal."""


def _plain(cards: Sequence[int]) -> bool:
    """At least two naturals: the cards read back as the meld they were built as."""
    return len(cards) - cards.count(JOKER_CODE) >= 2


def _leaves_only(cards: Sequence[Card], melds: Sequence[Meld], card: Card) -> bool:
    """Whether laying ``melds`` from ``cards`` leaves ``card`` alone in hand."""
    laid = [c for m in melds for c in m.cards]
    return len(cards) - len(laid) == 1 and card in Hand(cards).without(laid)


class MeldingFamily(MeldingPlanner):
    """Turn logic for the melding games."""

    # Enumeration --------------------------------------------------------------------------------
    def legal_actions(self, rnd: RoundState) -> list[Action]:
        """The offered actions (module docstring), built legal by construction where the conditions
        are cheap to state (see :meth:`_sure_legal`); joker exchanges, Hand-Rommé openings and every
        action while a taken discard must still be laid are checked by :meth:`plan` instead."""
        if rnd.phase is PHASE_DRAW:
            return self._draw_phase_actions(rnd)
        rules = rnd.rules
        seat = rnd.to_move
        hand = rnd.hands[seat]
        cards = hand.cards()
        pending = rnd.must_lay
        keep_one = rules.going_out_requires_discard  # keeps_one_card
        barred = barred_taken(rnd)
        all_melds = solver.all_melds(cards, rules)
        sure = self._sure_legal(rnd, len(cards))
        # Candidates in the offered order, each with whether it is legal by construction.
        candidates: list[tuple[Action, bool]] = []
        if rnd.opened_turn[seat] is None:
            best = solver.best_opening(cards, rules, must_include=pending, keep_one=keep_one)
            bests = [best]
            if best is not None and barred is not None and _leaves_only(cards, best, barred):
                # Only the taken discard would be left (D15): the best openings keeping another
                # card, and laying the taken one too.
                others = list(Hand(cards).without((barred,)))
                bests.append(solver.best_opening(others, rules, keep_one=True))
                bests.append(solver.best_opening(cards, rules, must_include=barred, keep_one=keep_one))
            taken = rnd.taken_discard
            if taken is not None and not rules.opening_counts_taken_discard:
                # The best opening may be short of the minimum once the taken card does not count:
                # the best laying it without its value, and (where it need not be laid) the best
                # leaving it and its equals in the hand.
                limit = len(cards) - 1 if keep_one else len(cards)
                bests.append(opening_without_its_value(cards, taken, rules, limit))
                if pending is None:
                    others = [c for c in cards if c != taken]
                    bests.append(solver.best_opening(others, rules, keep_one=keep_one))
            for melds in bests:
                if melds is None:
                    continue
                legal = sure is not None and sure(melds)
                candidates.append((Open(tuple(m.cards for m in melds)), legal))
            minimum = rules.opening_min_points or 0
            for m in all_melds:
                if pending is not None and pending not in m:
                    continue
                if sum(map(_VALUE_BOUND.__getitem__, m)) < minimum:
                    continue  # it cannot open on its own
                try:
                    meld = Meld.from_cards(m, rules)
                except IllegalMeldError:
                    continue  # a guard: the solver's melds read back as they were found
                if meld.value >= minimum:
                    legal = sure is not None and sure((meld,))
                    candidates.append((Open((m,)), legal))
            if not rules.hand_romme_requires_opening_min and minimum and hand_romme_now(rnd, seat):
                candidates += [(a, False) for a in _hand_romme_openings(rnd, list(cards))]
        else:
            spare = len(cards) - 1 if keep_one else len(cards)
            if barred is not None and len(cards) > 1:
                spare = min(spare, len(cards) - 2)  # a meld leaving one card is left to plan()
            # A meld of one natural and jokers may read as another meld (or none): left to plan().
            candidates += [
                (meld_action(m), sure is not None and len(m) <= spare and _plain(m)) for m in all_melds
            ]
        if may_lay_off(rnd, seat):
            # A lay-off that may leave the barred taken discard alone is left to plan().
            lone = barred is not None and len(cards) == 2
            layoff_sure = sure is not None and (len(cards) > 1 or not keep_one) and not lone
            targets = table_layoff_targets(cards, rnd)
            for k, (card, index, end) in enumerate(targets):
                # A run end is named only when the card fits at both ends of that meld.
                both_ends = end is not None and (
                    (k > 0 and targets[k - 1][:2] == (card, index))
                    or (k + 1 < len(targets) and targets[k + 1][:2] == (card, index))
                )
                candidates.append((layoff_action(card, index + 1, end if both_ends else None), layoff_sure))
        if exchange_problem(rnd, seat) is None:
            candidates += self._swap_candidates(rnd, seat, cards, sure is not None, barred)
        seen: set[Action] = set()
        result: list[Action] = []
        for a, legal in candidates:
            if type(a) is Open or type(a) is Swap:  # the only kinds that can be generated twice
                if a in seen:
                    continue
                seen.add(a)
            if legal or is_legal(self, rnd, a):
                result.append(a)
        if pending is None:
            result += map(DISCARD_ACTIONS.__getitem__, self.discardable(rnd, seat))
        return result

    def _draw_phase_actions(self, rnd: RoundState) -> list[Action]:
        """``draw`` and ``take`` where legal. Without an obligation to lay the taken card the
        conditions of :func:`~rummykit.family.plan_draw` and :meth:`_plan_take` are stated here
        (a stock or a pile to turn over; a pile to take from, and an opening where the rules ask
        for one); with it :meth:`plan` decides."""
        found: list[Action] = []
        if rnd.stock or rnd.discard_pile:
            found.append(DRAW_ACTION)
        take = TAKE_ACTION
        if must_lay_taken(rnd, rnd.to_move):
            if is_legal(self, rnd, take):
                found.append(take)
        elif rnd.discard_pile and (
            rnd.rules.discard_pickup_requires_opened != "opened_before" or rnd.has_opened(rnd.to_move)
        ):
            found.append(take)
        return found

    def _sure_legal(self, rnd: RoundState, size: int) -> _OpeningCheck | None:
        """With no taken discard left to lay (else ``None``: everything is checked by :meth:`plan`),
        the test that an opening of solver-built melds from the hand of ``size`` cards is legal:
        a card stays for the discard where one must, and the value after
        ``opening_counts_taken_discard`` reaches ``opening_min_points`` or the Hand-Rommé waiver
        applies (exactly the checks of :meth:`_plan_open`). Melds and lay-offs then need only the
        card kept for the discard (:meth:`_plan_meld`, :meth:`_plan_layoff`)."""
        if rnd.must_lay is not None:
            return None
        rules = rnd.rules
        minimum = rules.opening_min_points or 0
        keep = 1 if keeps_one_card(rules) else 0
        taken = rnd.taken_discard
        barred = barred_taken(rnd)
        hand = rnd.hands[rnd.to_move]

        def legal(melds: Sequence[Meld]) -> bool:
            left = size - sum(len(m.cards) for m in melds)
            if left < keep:
                return False
            if left == 1 and barred is not None and _leaves_only(hand.cards(), melds, barred):
                return False  # only the taken discard would be left (require_discardable_left)
            laid_taken = taken if taken is not None and any(taken in m.cards for m in melds) else None
            if opening_value(melds, rules, laid_taken) >= minimum:
                return True
            return not rules.hand_romme_requires_opening_min and left <= 1

        return legal

    def opening_check(self, rnd: RoundState) -> Callable[[Sequence[MeldCards]], bool] | None:
        """The test :meth:`plan` applies to an opening of melds laid from disjoint cards of the
        mover's hand, before the mover has opened: each meld is read as :meth:`_plan_open` reads it
        (:meth:`Meld.from_cards`; cards that form no meld fail), then :meth:`_sure_legal` (a card
        kept for the discard, the opening value, the Hand-Rommé waiver). ``None`` while a taken
        discard must still be laid: :meth:`plan` decides then.

        Only for that situation and for such melds (the caller guarantees it: the cards are
        neither checked against the hand nor against each other)."""
        seat = rnd.to_move
        if rnd.phase is not PHASE_PLAY or rnd.opened_turn[seat] is not None:
            return None
        sure = self._sure_legal(rnd, len(rnd.hands[seat]))
        if sure is None:
            return None
        rules = rnd.rules
        read: dict[MeldCards, Meld | None] = {}

        def legal(melds: Sequence[MeldCards]) -> bool:
            built: list[Meld] = []
            for cards in melds:
                if cards in read:
                    meld = read[cards]
                else:
                    try:
                        meld = Meld.from_cards(cards, rules)
                    except IllegalMeldError:
                        meld = None
                    read[cards] = meld
                if meld is None:
                    return False
                built.append(meld)
            return sure(built)

        return legal

    def _swap_candidates(
        self, rnd: RoundState, seat: int, cards: Sequence[Card], checked: bool, barred: Card | None = None
    ) -> list[tuple[Action, bool]]:
        """Joker exchanges, each with whether it is legal by construction (else :meth:`plan`
        decides). ``checked``: no taken discard is left to lay (:meth:`_sure_legal`). A single
        natural that a joker of the meld stands for (:meth:`Meld.exchange_cards`, held) always
        replaces it and frees exactly that joker; it is then legal to keep the joker in hand
        (``exchanged_joker_destination = hand``) or to lay it at once in a new meld of the hand left
        that reads back as built (two naturals) while a card stays for the discard where one must.
        Sets under ``complete_four_only``, lay-offs of the freed joker and exchanges that leave one
        card while the taken discard is barred (``barred``, D15) are checked by :meth:`plan`."""
        rules = rnd.rules
        hand = rnd.hands[seat]
        keep = 1 if keeps_one_card(rules) else 0
        found: list[tuple[Action, bool]] = []
        held = set(cards)
        for i, meld, exchange in table_facts(rnd)[2]:  # the melds holding a joker
            options: list[tuple[Card, ...]] = []
            complete_four = meld.is_set and rules.set_joker_exchange == "complete_four_only"
            if complete_four:
                missing = tuple(Card.of(meld.rank, s) for s in meld.missing_suits())
                if len(meld.naturals) + len(missing) == 4 and hand.contains_all(missing):
                    options.append(missing)
            else:
                options += [(c,) for c in exchange if c in held]
            sure = checked and not complete_four
            for swap_cards in options:
                freed = sum(1 for c in swap_cards if c in exchange)
                if rules.exchanged_joker_destination == "hand":
                    lone = barred is not None and len(cards) - len(swap_cards) + max(freed, 1) <= 1
                    found.append((swap_action(swap_cards, i + 1, None), sure and not lone))
                    continue
                rest = list(hand.without(swap_cards))
                rest += [JOKER] * max(freed, 1)
                for m in solver.melds_containing(rest, JOKER, rules):
                    left = len(rest) - len(m)
                    legal = sure and _plain(m) and left >= keep and not (barred is not None and left == 1)
                    found.append((swap_action(swap_cards, i + 1, m), legal))
                if rules.exchanged_joker_destination == "any_meld_same_turn":
                    for j, other in enumerate(rnd.melds):
                        for end in other.meld.layoff_ends(JOKER, rules) or (
                            (None,) if other.meld.can_lay_off(JOKER, rules) else ()
                        ):
                            found.append((Swap(swap_cards, i + 1, (), (LayOff(JOKER, j + 1, end),)), False))
        return found


def _hand_romme_openings(rnd: RoundState, cards: list[Card]) -> list[Action]:
    """Openings below ``opening_min_points`` that the Hand-Rommé waiver allows
    (``hand_romme_requires_opening_min = false``): all of the hand in melds, or all but one card
    (the discard that goes out), one opening per card kept back. An opening that reaches the minimum
    is an ordinary one and is not repeated here; one arrangement per kept card is offered."""
    rules = rnd.rules
    # Positive card values, so that zero deadwood means that every card is in a meld.
    sure = rules.replace(deadwood_ace=max(rules.deadwood_ace, 1), deadwood_joker=max(rules.deadwood_joker, 1))
    minimum = rules.opening_min_points or 0
    rests: list[tuple[list[Card], Card | None]] = []
    if not keeps_one_card(rules) and solver.min_deadwood(cards, sure) == 0:
        rests.append((cards, None))
    if len(cards) > 1:
        left, kept = solver.best_discards(cards, sure)
        if left == 0:
            rests += [(list(Hand(cards).without((k,))), k) for k in kept]
    found: list[Action] = []
    for rest, kept_card in rests:
        if kept_card is not None and kept_card == rnd.must_lay:
            continue  # the taken discard that must be laid cannot be the card kept back
        melds = solver.best_arrangement(rest, sure).melds
        taken = rnd.taken_discard if rnd.taken_discard in rest else None
        if melds and opening_value(melds, rules, taken) < minimum:
            found.append(Open(tuple(m.cards for m in melds)))
    return found


MELDING_FAMILY: Final = MeldingFamily()
