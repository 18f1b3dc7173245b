"""Planning of the melding games' actions (:class:`MeldingPlanner`, the base of
:class:`~rummykit.melding.MeldingFamily`): each action is checked against the round and turned into
its effect (legality in one place), and the effects lay cards, discard and end the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit import permissions, scoring
from rummykit.actions import (
    Action,
    Discard,
    Draw,
    LayOff,
    MeldAction,
    MeldCards,
    Open,
    Swap,
    TakeDiscard,
)
from rummykit.cards import JOKER, JOKER_CODE, Card, Hand
from rummykit.errors import (
    CardNotInHandError,
    DiscardError,
    DrawError,
    IllegalMeldError,
    JokerExchangeError,
    LayOffError,
    MeldError,
    OpeningError,
    WrongTurnError,
    taken_discard_error,
)
from rummykit.family import Plan, draw_phase_plan, plan_draw
from rummykit.melding_conditions import (
    PHASE_DRAW,
    PHASE_PLAY,
    barred_taken,
    can_place,
    discard_barred_taken,
    exchange_problem,
    hand_romme_now,
    may_lay_off,
    must_lay_taken,
    opening_value,
    require_card_left,
    require_discardable_left,
)
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.state import RoundState
from rummykit.views import Phase, TableMeld, Termination


def _meld(cards: MeldCards, rules: Rules, action: Action) -> Meld:
    try:
        return Meld.from_cards(cards, rules)
    except IllegalMeldError as exc:
        raise MeldError(f"{action}: {exc}", exc.rule) from None


def _hand_after(rnd: RoundState, seat: int, cards: Sequence[int], action: Action) -> Hand:
    hand = rnd.hands[seat]
    if not hand.contains_all(cards):
        missing = Hand(cards)
        for c in hand:
            if missing.count(c):
                missing.remove(c)
        raise CardNotInHandError(f"{action}: you do not hold {missing}", "card_not_in_hand")
    return hand.without(cards)


def _take_effect(rnd: RoundState, seat: int, card: Card, must_lay: bool) -> Plan:
    """``seat`` takes the top discard ``card`` into the hand (to be laid this turn if ``must_lay``)."""

    def effect() -> None:
        if rnd.count_take():
            return
        rnd.discard_pile.pop()
        rnd.hands[seat] = rnd.hands[seat].plus(card)
        rnd.taken_discard = card
        rnd.must_lay = card if must_lay else None
        rnd.phase = PHASE_PLAY

    return effect


class MeldingPlanner:
    """The planning half of :class:`~rummykit.melding.MeldingFamily` (its base class): :meth:`plan`
    and :meth:`plan_offered`, and the effects they return."""

    after_draw_phase: Final = Phase.PLAY

    # Planning (legality in one place) ------------------------------------------------------------
    def plan(self, rnd: RoundState, action: Action) -> Plan:
        drawing = draw_phase_plan(rnd, action, self._plan_take, self.after_draw_phase)
        if drawing is not None:
            return drawing
        if isinstance(action, Open):
            return self._plan_open(rnd, action)
        if isinstance(action, MeldAction):
            return self._plan_meld(rnd, action)
        if isinstance(action, LayOff):
            return self._plan_layoff(rnd, action)
        if isinstance(action, Swap):
            return self._plan_swap(rnd, action)
        if isinstance(action, Discard):
            return self._plan_discard(rnd, action)
        raise WrongTurnError(f"{action}: not an action of {rnd.rules.name}", "not_in_this_game")

    def _plan_take(self, rnd: RoundState) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        if not rnd.discard_pile:
            raise DrawError("take: the discard pile is empty", "empty_discard_pile")
        card = rnd.discard_pile[-1]
        opened = rnd.has_opened(seat)
        if rules.discard_pickup_requires_opened == "opened_before" and not opened:
            raise DrawError(
                f"take: only a player who has opened may take the discard {card} "
                "(discard_pickup_requires_opened is opened_before)",
                "discard_pickup_requires_opened",
            )
        must_lay = must_lay_taken(rnd, seat)
        if must_lay:
            hand = rnd.hands[seat].copy()
            hand.add(card)
            table = [tm.meld for tm in rnd.melds]
            if not can_place(rnd, card, hand, table, opened, opened and may_lay_off(rnd, seat)):
                rule = (
                    "discard_pickup_requires_meld"
                    if rules.discard_pickup_requires_meld
                    else ("discard_pickup_requires_opened")
                )
                minimum = rules.opening_min_points or 0
                how = "no meld or lay-off for it" if opened else f"no opening worth {minimum} points with it"
                if not opened and not rules.opening_counts_taken_discard:
                    how = f"no opening worth {minimum} points without counting it"
                raise DrawError(f"take: {card} must be laid this turn ({rule}), and you have {how}", rule)
        return _take_effect(rnd, seat, card, must_lay)

    def _check_pending(
        self, rnd: RoundState, seat: int, action: Action, hand: Hand, table: Sequence[Meld], placed: bool
    ) -> None:
        """The taken discard that must be laid must stay placeable after this action."""
        card = rnd.must_lay
        if card is None or placed:
            return
        # A joker exchange never opens: before the opening its joker stays in hand (the rules refuse
        # an exchange before the opening whose joker would be melded at once).
        opened = True if isinstance(action, (Open, MeldAction)) else rnd.has_opened(seat)
        if not can_place(rnd, card, hand, table, opened, may_lay_off(rnd, seat)):
            raise MeldError(
                f"{action}: afterwards the taken discard {card} could no longer be laid this turn "
                "(discard_pickup_requires_meld)",
                "discard_pickup_requires_meld",
            )

    def _plan_open(self, rnd: RoundState, action: Open) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        if rnd.has_opened(seat):
            raise OpeningError(f"{action}: you have already opened; lay further melds with 'meld'", "opened")
        melds = [_meld(cards, rules, action) for cards in action.melds]
        hand = _hand_after(rnd, seat, action.cards, action)
        require_card_left(hand, rules, action, OpeningError)
        pending = rnd.must_lay
        placed = pending is not None and pending in action.cards
        require_discardable_left(rnd, hand, action, OpeningError)
        if pending is not None and not placed:
            raise OpeningError(
                f"{action}: the taken discard {pending} must be part of the opening",
                "discard_pickup_requires_meld",
            )
        taken = (
            rnd.taken_discard if rnd.taken_discard is not None and rnd.taken_discard in action.cards else None
        )
        value = opening_value(melds, rules, taken)
        minimum = rules.opening_min_points or 0
        waived = not rules.hand_romme_requires_opening_min and len(hand) <= 1 and hand_romme_now(rnd, seat)
        if value < minimum and not waived:
            scope = " in one meld" if rules.opening_scope == "single_meld" else ""
            raise OpeningError(
                f"cannot open with {value} points{scope}: opening_min_points is {minimum}",
                "opening_min_points",
            )

        def effect() -> None:
            rnd.melds.extend(TableMeld(m, seat) for m in melds)
            rnd.opened_turn[seat] = rnd.turn
            self._placed(rnd, seat, hand, placed)

        return effect

    def _plan_meld(self, rnd: RoundState, action: MeldAction) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        if not rnd.has_opened(seat):
            raise MeldError(f"{action}: your first melds must be an opening ('open …')", "opening_min_points")
        melds = [_meld(cards, rules, action) for cards in action.melds]
        hand = _hand_after(rnd, seat, action.cards, action)
        require_card_left(hand, rules, action, MeldError)
        pending = rnd.must_lay
        placed = pending is not None and pending in action.cards
        require_discardable_left(rnd, hand, action, MeldError)
        table = [tm.meld for tm in rnd.melds] + melds
        self._check_pending(rnd, seat, action, hand, table, placed)

        def effect() -> None:
            rnd.melds.extend(TableMeld(m, seat) for m in melds)
            self._placed(rnd, seat, hand, placed)

        return effect

    def _layoff_permission(self, rnd: RoundState, seat: int, action: Action) -> None:
        rule = permissions.layoff_bar(rnd.rules, rnd.opened_turn[seat], rnd.turn)
        if rule == "layoff_requires_opened":
            raise LayOffError(f"{action}: only a player who has opened may lay off", "layoff_requires_opened")
        if rule == "layoff_on_opening_turn":
            raise LayOffError(
                f"{action}: you opened this turn, so lay-offs wait for your next turn "
                "(layoff_on_opening_turn is off)",
                "layoff_on_opening_turn",
            )

    def _plan_layoff(self, rnd: RoundState, action: LayOff) -> Plan:
        rules = rnd.rules
        seat = rnd.to_move
        self._layoff_permission(rnd, seat, action)
        target = rnd.table_meld(action.target)
        hand = _hand_after(rnd, seat, (action.card,), action)
        require_card_left(hand, rules, action, LayOffError)
        try:
            new = target.with_layoff(action.card, rules, action.end)
        except IllegalMeldError as exc:
            raise LayOffError(f"{action}: {exc}", exc.rule) from None
        placed = rnd.must_lay is not None and action.card == rnd.must_lay
        require_discardable_left(rnd, hand, action, LayOffError)
        table = [tm.meld for tm in rnd.melds]
        table[action.target - 1] = new
        self._check_pending(rnd, seat, action, hand, table, placed)
        owner = rnd.melds[action.target - 1].owner

        def effect() -> None:
            rnd.melds[action.target - 1] = TableMeld(new, owner)
            self._placed(rnd, seat, hand, placed)

        return effect

    def _plan_swap(self, rnd: RoundState, action: Swap) -> Plan:
        """A joker exchange (Joker tauschen, RULES.md §3.11): the natural card(s) go into table meld
        ``target``, the freed jokers to the hand or, in the same action, into new melds or lay-offs
        (``exchanged_joker_destination``)."""
        rules = rnd.rules
        seat = rnd.to_move
        self._check_exchange_allowed(rnd, seat, action)
        target = rnd.table_meld(action.target)
        hand = _hand_after(rnd, seat, action.cards, action)
        meld, freed = self._exchanged_meld(target, action, rules)
        for _ in range(freed):
            hand.add(JOKER)
        self._check_destination(rules, action, freed)
        hand, table, new_melds = self._lay_freed_jokers(rnd, hand, meld, freed, action)
        require_card_left(hand, rules, action, JokerExchangeError)
        pending = rnd.must_lay
        laid = [*action.cards, *(c for m in action.melds for c in m), *(lo.card for lo in action.layoffs)]
        placed = pending is not None and pending in laid
        require_discardable_left(rnd, hand, action, JokerExchangeError)
        self._check_pending(rnd, seat, action, hand, table, placed)
        owners = [tm.owner for tm in rnd.melds] + [seat] * new_melds

        kept_jokers = freed if rules.exchanged_joker_destination == "hand" else 0

        def effect() -> None:
            for _ in range(kept_jokers):
                rnd.known_cards[seat] = rnd.known_cards[seat].plus(JOKER)
            rnd.melds = [TableMeld(m, o) for m, o in zip(table, owners, strict=True)]
            self._placed(rnd, seat, hand, placed)

        return effect

    def _check_exchange_allowed(self, rnd: RoundState, seat: int, action: Swap) -> None:
        """The permission (:mod:`rummykit.permissions`) and natural cards to give."""
        problem = exchange_problem(rnd, seat)
        if problem is not None:
            rule, reason = problem
            raise JokerExchangeError(f"{action}: {reason}", rule)
        if not action.cards or any(c == JOKER_CODE for c in action.cards):
            raise JokerExchangeError(
                f"{action}: give the natural card(s) that replace a joker", "joker_exchange"
            )

    def _exchanged_meld(self, target: Meld, action: Swap, rules: Rules) -> tuple[Meld, int]:
        """The target meld after the exchange and the number of jokers freed: each card replaces a
        joker or, once a joker is out, may extend the meld; at least one joker must come free, and
        under ``set_joker_exchange = complete_four_only`` a set must become four naturals."""
        meld = target
        freed = 0
        for card in action.cards:
            try:
                meld = meld.with_exchange(card)
                freed += 1
            except IllegalMeldError:
                try:
                    meld = meld.with_layoff(card, rules)
                except IllegalMeldError:
                    raise JokerExchangeError(
                        f"{action}: {card} neither replaces a joker of meld {action.target} ({target}) "
                        "nor fits on it",
                        "joker_exchange",
                    ) from None
        if freed == 0:
            raise JokerExchangeError(
                f"{action}: no joker of meld {action.target} ({target}) stands for "
                + " or ".join(str(c) for c in action.cards),
                "joker_exchange",
            )
        if (
            meld.is_set
            and rules.set_joker_exchange == "complete_four_only"
            and (meld.jokers or len(meld.cards) < 4)
        ):
            raise JokerExchangeError(
                f"{action}: a joker may leave a set only when the set becomes four natural cards "
                "(set_joker_exchange is complete_four_only)",
                "set_joker_exchange",
            )
        return meld, freed

    def _check_destination(self, rules: Rules, action: Swap, freed: int) -> None:
        """Where ``exchanged_joker_destination`` lets the ``freed`` jokers go in the same action."""
        destination = rules.exchanged_joker_destination
        if destination == "hand" and (action.melds or action.layoffs) and freed == 1:
            raise JokerExchangeError(
                f"{action}: the freed joker goes to your hand (exchanged_joker_destination is hand); "
                "lay it with a separate action",
                "exchanged_joker_destination",
            )
        if destination == "hand" and (action.melds or action.layoffs):
            raise JokerExchangeError(
                f"{action}: the freed jokers go to your hand (exchanged_joker_destination is hand); "
                "lay them with a separate action",
                "exchanged_joker_destination",
            )
        if destination == "new_meld_same_turn" and action.layoffs and freed == 1:
            raise JokerExchangeError(
                f"{action}: the freed joker must go into a new meld (exchanged_joker_destination)",
                "exchanged_joker_destination",
            )
        if destination == "new_meld_same_turn" and action.layoffs:
            raise JokerExchangeError(
                f"{action}: the freed jokers must go into new melds (exchanged_joker_destination)",
                "exchanged_joker_destination",
            )

    def _lay_freed_jokers(
        self, rnd: RoundState, hand: Hand, meld: Meld, freed: int, action: Swap
    ) -> tuple[Hand, list[Meld], int]:
        """Lay the action's new melds and lay-offs (which take the freed jokers): the hand left,
        the table after them and the number of new melds. Unless the jokers may stay in hand, every
        freed joker must be laid."""
        rules = rnd.rules
        new_melds = [_meld(cards, rules, action) for cards in action.melds]
        hand = _hand_after_hand(hand, [c for m in action.melds for c in m], action)
        table = [tm.meld for tm in rnd.melds]
        table[action.target - 1] = meld
        table += new_melds
        laid_jokers = sum(m.jokers for m in new_melds)
        for layoff in action.layoffs:
            if not 1 <= layoff.target <= len(table):
                raise JokerExchangeError(f"{action}: there is no meld {layoff.target}", "no_such_meld")
            hand = _hand_after_hand(hand, (layoff.card,), action)
            try:
                table[layoff.target - 1] = table[layoff.target - 1].with_layoff(
                    layoff.card, rules, layoff.end
                )
            except IllegalMeldError as exc:
                raise JokerExchangeError(f"{action}: {exc}", exc.rule) from None
            laid_jokers += layoff.card == JOKER_CODE
        destination = rules.exchanged_joker_destination
        if destination != "hand" and laid_jokers < freed:
            self._unlaid_jokers(action, destination, freed)
        return hand, table, len(new_melds)

    @staticmethod
    def _unlaid_jokers(action: Swap, destination: str, freed: int) -> None:
        """Refuse an exchange that leaves a freed joker unlaid where it must be laid at once."""
        layoffs = destination == "any_meld_same_turn"
        if layoffs and freed == 1:
            raise JokerExchangeError(
                f"{action}: the freed joker must be laid at once "
                f"(exchanged_joker_destination is {destination}); add 'then meld … JK' or "
                "'then layoff JK on N'",
                "exchanged_joker_destination",
            )
        if layoffs:
            raise JokerExchangeError(
                f"{action}: the freed jokers must be laid at once "
                f"(exchanged_joker_destination is {destination}); add 'then meld … JK' or "
                "'then layoff JK on N'",
                "exchanged_joker_destination",
            )
        if freed == 1:
            raise JokerExchangeError(
                f"{action}: the freed joker must be laid at once "
                f"(exchanged_joker_destination is {destination}); add 'then meld … JK'",
                "exchanged_joker_destination",
            )
        raise JokerExchangeError(
            f"{action}: the freed jokers must be laid at once "
            f"(exchanged_joker_destination is {destination}); add 'then meld … JK'",
            "exchanged_joker_destination",
        )

    def discardable(self, rnd: RoundState, seat: int) -> list[Card]:
        """Distinct cards ``seat`` may discard now, bars lifted in order when nothing is left."""
        rules = rnd.rules
        hand = rnd.hands[seat]
        distinct = list(dict.fromkeys(hand.cards()))  # in code order
        closing = len(hand) == 1
        taken = discard_barred_taken(rnd, seat)
        jokers_barred = rules.joker_discard_allowed == "only_when_closing" and not closing
        playable_barred = not rules.discard_playable_card_allowed and not closing
        if not jokers_barred and not playable_barred:
            # Only the taken discard can be barred; it is lifted when nothing else is left.
            if taken is None or len(distinct) == 1 or taken not in distinct:
                return distinct
            distinct.remove(taken)
            return distinct
        table = [tm.meld for tm in rnd.melds]

        def allowed(card: Card, taken_bar: bool, playable_bar: bool, joker_bar: bool) -> bool:
            if taken_bar and card == taken:
                return False
            if joker_bar and card == JOKER_CODE:
                return False
            return not (playable_bar and any(m.can_lay_off(card, rules) for m in table))

        cards = [c for c in distinct if allowed(c, True, playable_barred, jokers_barred)]
        if cards:
            return cards
        if playable_barred and self._lay_off_first(rnd, seat, table):
            return []  # the bars stand: a lay-off now leads to a discard they allow
        for bars in ((True, False, jokers_barred), (True, False, False), (False, False, False)):
            cards = [c for c in distinct if allowed(c, *bars)]
            if cards:
                return cards
        return []

    @staticmethod
    def _lay_off_first(rnd: RoundState, seat: int, table: Sequence[Meld]) -> bool:
        """Whether ``seat``, every card of whose hand is barred from the discard, may lay one off now
        and keep a card, so the bar on discarding a playable card need not lift (RULES.md §5.2): the
        turn goes on with the lay-off and ends with a discard the bars allow, down to the closing
        card, which no bar but the taken discard's holds. A lay-off that would leave only the taken
        discard does not count (:func:`require_discardable_left`)."""
        hand = rnd.hands[seat]
        if len(hand) < 2 or not may_lay_off(rnd, seat):
            return False
        taken = barred_taken(rnd)
        for card in dict.fromkeys(hand.cards()):
            if not any(m.can_lay_off(card, rnd.rules) for m in table):
                continue
            rest = hand.minus(card)
            if not (len(rest) == 1 and taken is not None and taken in rest):
                return True
        return False

    def _plan_discard(self, rnd: RoundState, action: Discard) -> Plan:
        seat = rnd.to_move
        card = action.card
        hand = _hand_after(rnd, seat, (card,), action)
        if rnd.must_lay is not None:
            raise DiscardError(
                f"{action}: first lay the taken discard {rnd.must_lay} (discard_pickup_requires_meld)",
                "discard_pickup_requires_meld",
            )
        if card not in self.discardable(rnd, seat):
            if card == discard_barred_taken(rnd, seat):
                raise taken_discard_error(action, card, rnd.hands[seat].count(card))
            if card == JOKER_CODE:
                raise DiscardError(
                    f"{action}: a joker may be discarded only as the closing card "
                    "(joker_discard_allowed is only_when_closing)",
                    "joker_discard_allowed",
                )
            if not may_lay_off(rnd, seat):
                # RULES.md §5.2 bars a card that could be laid off on a table meld, whoever may lay it
                # off now: in the turn of the opening (no lay-offs yet) the card stays in hand for the
                # next turn, and a player who has not opened keeps it until they have. Where every
                # card is barred the bars lift (discardable), so no turn is stuck.
                if rnd.opened_turn[seat] is None:
                    raise DiscardError(
                        f"{action}: {card} fits a meld on the table, so it may not be discarded; "
                        "keep it to lay off once you have opened (discard_playable_card_allowed is off)",
                        "discard_playable_card_allowed",
                    )
                raise DiscardError(
                    f"{action}: {card} fits a meld on the table, so it may not be discarded; "
                    "lay it off from your next turn (discard_playable_card_allowed is off)",
                    "discard_playable_card_allowed",
                )
            raise DiscardError(
                f"{action}: {card} could be laid off on the table, so it may not be discarded "
                "(discard_playable_card_allowed is off)",
                "discard_playable_card_allowed",
            )
        return self._discard_effect(rnd, seat, card, hand)

    def plan_offered(self, rnd: RoundState, action: Action) -> Plan:
        """The effect of ``action`` taken from the current :meth:`legal_actions` list (the caller
        guarantees that; :meth:`rummykit.round.Round.apply` does). A discard, whose checks are the
        costliest (:meth:`discardable`), a draw and a take are not checked again; every other kind
        is planned as usual."""
        if isinstance(action, Discard) and rnd.phase is PHASE_PLAY:
            seat = rnd.to_move
            return self._discard_effect(rnd, seat, action.card, rnd.hands[seat].minus(action.card))
        if isinstance(action, Draw) and rnd.phase is PHASE_DRAW:
            return plan_draw(rnd, self.after_draw_phase)
        if isinstance(action, TakeDiscard) and rnd.phase is PHASE_DRAW:
            seat = rnd.to_move
            return _take_effect(rnd, seat, rnd.discard_pile[-1], must_lay_taken(rnd, seat))
        return self.plan(rnd, action)

    def _discard_effect(self, rnd: RoundState, seat: int, card: Card, hand: Hand) -> Plan:
        """The discard of ``card`` by ``seat``, leaving ``hand``: it goes on the pile (face down when
        it goes out under ``final_discard_face_down``), then the hand ends or the next seat moves."""
        rules = rnd.rules
        going_out = len(hand) == 0

        def effect() -> None:
            rnd.hands[seat] = hand
            if going_out and rules.final_discard_face_down:
                rnd.face_down = card
            else:
                rnd.discard_pile.append(card)
            if going_out:
                self._go_out(rnd, seat)
            else:
                rnd.begin_turn(rnd.next_seat(seat))

        return effect

    def _placed(self, rnd: RoundState, seat: int, hand: Hand, placed_taken: bool) -> None:
        """After cards went to the table: keep the rest of the hand, settle the taken discard's
        obligation, and go out when nothing is left."""
        rnd.hands[seat] = hand
        if rnd.placed_turn[seat] is None:
            rnd.placed_turn[seat] = rnd.turn
        if placed_taken:
            rnd.must_lay = None
        if len(hand) == 0:
            self._go_out(rnd, seat)

    def _go_out(self, rnd: RoundState, winner: int) -> None:
        """End the hand scored by :func:`rummykit.scoring.going_out`: a Hand-Rommé (Basic's "rummy",
        RULES.md §3.12 and §5.3) when the winner put the whole hand on the table in this one turn,
        no card of it laid, laid off or exchanged for a joker before. Where lay-offs and exchanges
        wait for the opening, that is opening and going out in the same turn; in Basic Rummy, where
        anyone may lay off, going out by lay-offs alone counts, and an earlier lay-off spoils it."""
        hand_romme = rnd.placed_turn[winner] == rnd.turn
        score = scoring.going_out(rnd.rules, rnd.hands, winner, hand_romme)
        rnd.finish(Termination.WENT_OUT, winner, score.penalties, score.gains, score.multiplier)


def _hand_after_hand(hand: Hand, cards: Sequence[int], action: Action) -> Hand:
    if not hand.contains_all(cards):
        raise CardNotInHandError(
            f"{action}: you do not hold {' '.join(str(Card(c)) for c in cards)}", "card_not_in_hand"
        )
    return hand.without(cards)
