"""Table play-outs: a determinized hand played forward by every seat, opponents included.

The race play-outs of :mod:`rummykit.bots.race` count only the searching seat's own turns, so an
opponent never takes a discard, never lays off, never knocks first. Here every active seat plays in
turn order on one determinization (:func:`~rummykit.bots.inference.sample_hidden`: the opponents'
hands and the stock order), each with the same cheap policy, which reads only its own cards and the
public table (an opponent model that uses only what that opponent could know):

* **draw**: take the top discard when it lowers the seat's deadwood (knock games) or, in the melding
  games, when it can be laid off or melded (the greedy rule of :func:`~rummykit.bots.greedy.should_take`
  without the opening test); else the top stock card;
* **knock games** (RULES.md §4.3–4.7): call Rummy or knock as soon as the hand allows (the searching
  seat's first move is the candidate being valued), else shed a card that leaves the least
  deadwood; after a knock every other seat takes its extra turn (draw, discard for the least
  deadwood) when ``knock_extra_turn``, then the showdown is scored as the engine scores it;
* **melding games** (§3.6–3.12): :func:`~rummykit.bots.race.meld_turn`: open when the opening
  reaches ``opening_min_points``, lay melds and lay-offs (on every seat's melds), go out, else shed.
  Going out scores every other hand's penalty points, doubled for Hand-Rommé.

A play-out that reaches ``horizon`` turns per seat, or an empty stock, is scored by the deadwood
left in every hand (:func:`estimate`). Points are the round's points (minus or bad points negative),
so the search values a move by what the game scores, not only by who finishes first.

Families without a fast play-out here (for instance gin's lay-offs and undercut) are played through
the round engine instead (:func:`engine_rollout`), with the greedy policy for every seat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from rummykit import solver
from rummykit.actions import Action
from rummykit.bots.greedy import Situation, best_discard, policy_action
from rummykit.bots.race import lay_opening, shed_card
from rummykit.bots.tactics import can_go_out
from rummykit.cards import JOKER_CODE, Card, Hand
from rummykit.determinize import round_of
from rummykit.knocking import knock_allowed
from rummykit.melding_conditions import taken_stays_barred
from rummykit.melds import Meld
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import PlayerView

CLOSED_ESTIMATE: Final = 10
"""Melding games: points added at the horizon to a hand that has not opened yet."""


def fast_family(rules: Rules) -> bool:
    """Whether :class:`TablePlay` plays these rules exactly enough: every melding game, and knock
    games without lay-offs after the knock or undercut rules (Viennese and its variants)."""
    if rules.family == "melding":
        return True
    return (
        rules.family == "knock" and rules.layoff_after_knock == "none" and rules.knock_undercut_rule == "none"
    )


@dataclass(slots=True)
class TablePlay:
    """One determinization being played: the active seats in turn order, their hands, the stock
    (drawn from the end), the discard pile, and in the melding games who has opened and the table."""

    rules: Rules
    seats: list[int]
    hands: dict[int, list[int]]
    stock: dict[int, list[int]]
    """The stock cards each seat will draw, in order from the end of its list (see :meth:`start`;
    with one pile, the same list for every seat)."""
    pile: list[int]
    opened: dict[int, bool]
    table: list[Meld]
    deadwood: dict[int, int | None]
    """Knock games: each hand's known minimum deadwood (``None``: not computed yet)."""
    accept: frozenset[int] | None = None
    """Melding games: the cards the table takes (``None``: not computed since the table changed)."""
    hold_seat: int | None = None
    """Melding games: a seat that, once opened, lays further melds only in the turn they take its hand
    out, while every other seat holds more than :attr:`hold_until` cards (the searching bot's own
    policy, :func:`~rummykit.bots.tactics.hold_melds`); every other seat lays them at once."""
    hold_until: int = 0
    one_pile: bool = False
    """Every seat draws from one stock pile (:attr:`stock` holds the same list for each; see
    :meth:`start`)."""
    greedy: bool = False
    """Melding games: every seat discards as the greedy bot does (:func:`~rummykit.bots.greedy.best_discard`,
    which keeps cards that link into melds) instead of shedding the card that leaves the least
    deadwood, and exchanges table jokers as greedy does (:meth:`exchange_jokers`). Closer to greedy's
    play (``benchmarks/fidelity.py``), dearer, and not a stronger search (docs/strength.md)."""

    @classmethod
    def start(
        cls, view: PlayerView, hands: dict[int, list[int]], stock: list[int], one_pile: bool = False
    ) -> TablePlay:
        """The determinization ``hands`` (other seats) and ``stock`` of ``view``, the viewer's own
        hand as it is.

        The stock (``view.stock_size`` cards of the determinization) is dealt out in advance, card by
        card round the table, into one draw sequence per seat. The real stock is one pile, but its
        order is unknown and uniformly random, so a sequence per seat is the same distribution of
        draws; and when a candidate move changes who draws from the stock (an opponent takes the
        discard instead), the other seats still draw the same cards as for the other candidates, so
        the comparison between candidates stays on common random numbers.

        With ``one_pile`` the stock is one pile that every seat draws from, in the order given: for a
        stock known card for card (``benchmarks/ceiling.py``), where sequences per seat would deal
        the wrong cards once a seat takes a discard instead of drawing.
        """
        all_hands = {s: list(h) for s, h in hands.items()}
        seats = list(view.active_seats)
        cards = stock[: view.stock_size]
        first = seats.index(view.to_move)
        order = seats[first:] + seats[:first]
        if one_pile:
            pile = cards[::-1]
            draws = {s: pile for s in order}
        else:
            draws = {s: cards[i :: len(order)][::-1] for i, s in enumerate(order)}
        all_hands[view.seat] = [int(c) for c in view.hand]
        return cls(
            rules=view.rules,
            seats=list(view.active_seats),
            hands=all_hands,
            stock=draws,
            pile=[int(c) for c in view.discard_pile],
            opened={s: view.opened_turn[s] is not None for s in view.active_seats}
            if view.opened_turn
            else {},
            table=[tm.meld for tm in view.melds],
            deadwood={s: None for s in view.active_seats},
            one_pile=one_pile,
        )

    def copy(self) -> TablePlay:
        if self.one_pile:
            pile = list(next(iter(self.stock.values()), []))
            stock = dict.fromkeys(self.stock, pile)
        else:
            stock = {s: list(d) for s, d in self.stock.items()}
        return TablePlay(
            self.rules,
            self.seats,
            {s: list(h) for s, h in self.hands.items()},
            stock,
            list(self.pile),
            dict(self.opened),
            list(self.table),
            dict(self.deadwood),
            self.accept,
            self.hold_seat,
            self.hold_until,
            self.one_pile,
            self.greedy,
        )

    def next_seat(self, seat: int) -> int:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def dw(self, seat: int) -> int:
        known = self.deadwood.get(seat)
        if known is None:
            hand = self.hands[seat]
            known = solver.min_deadwood(hand, self.rules) if hand else 0
            self.deadwood[seat] = known
        return known

    # Knock games ------------------------------------------------------------------------------
    def knock_take(self, seat: int) -> bool:
        """The policy's draw: take the top discard when some discard then leaves less deadwood."""
        if not self.pile:
            return False
        top = self.pile[-1]
        d, best = solver.best_discards([*self.hands[seat], top], self.rules)
        return d < self.dw(seat) and any(c != top for c in best)

    def knock_draw(self, seat: int, take: bool) -> int | None:
        """Draw for ``seat``; the card it may not discard this turn, or ``None``. Raises
        :class:`_StockOut` when the stock is empty."""
        rules = self.rules
        if take and self.pile:
            card = self.pile.pop()
            self.hands[seat].append(card)
            return None if rules.may_discard_taken_discard else card
        own = self.stock[seat]
        if not own:
            raise _StockOut
        self.hands[seat].append(own.pop())
        return None

    def knock_finish(self, seat: int, barred: int | None, may_end: bool = True) -> dict[int, float] | None:
        """The rest of a knock-game turn after the draw: Rummy or knock when allowed (``may_end``),
        else shed; the round's points when the hand ended."""
        rules = self.rules
        hand = self.hands[seat]
        d, best = solver.best_discards(hand, rules)
        usable = [c for c in best if c != barred]
        if may_end and usable and d == 0:
            hand.remove(usable[0])
            self.deadwood[seat] = 0
            return self.showdown(seat, rummy=True)
        if may_end and usable and knock_allowed(d, rules.knock_threshold or 0, rules.knock_comparison):
            return self.knock(seat, usable[-1], d)
        plain = [c for c in usable if c != JOKER_CODE]
        card = (
            max(plain, key=lambda c: (rules.card_points(c), c)) if plain else shed_card(rules, hand, barred)
        )
        hand.remove(card)
        self.pile.append(card)
        self.deadwood[seat] = d if card in best else None
        return None

    def knock(self, seat: int, card: int, deadwood: int) -> dict[int, float]:
        """``seat`` knocks discarding ``card``: the extra turns, then the showdown."""
        rules = self.rules
        self.hands[seat].remove(card)
        self.deadwood[seat] = deadwood
        if rules.knock_discard_face_up:
            self.pile.append(card)
        if rules.knock_extra_turn:
            other = self.next_seat(seat)
            while other != seat:
                try:
                    barred = self.knock_draw(other, self.knock_take(other))
                except _StockOut:
                    break
                hand = self.hands[other]
                d, best = solver.best_discards(hand, rules)
                shed: list[int] = [c for c in best if c != barred] or [c for c in hand if c != barred]
                out = max(shed, key=lambda c: (rules.card_points(c), c))
                hand.remove(out)
                self.pile.append(out)
                self.deadwood[other] = d if out in best else None
                other = self.next_seat(other)
        return self.showdown(seat, rummy=False)

    def showdown(self, winner: int, rummy: bool) -> dict[int, float]:
        """Points of the showdown (RULES.md §4.5–4.7), as :func:`rummykit.scoring.showdown` scores."""
        rules = self.rules
        factor = rules.rummy_multiplier if rummy else 1
        points: dict[int, float] = {}
        for s in self.seats:
            if s == winner:
                own = 0 if rummy or not rules.knocker_scores_own_deadwood else self.dw(s)
                points[s] = -float(own)
            else:
                points[s] = -float(self.dw(s) * factor)
        return points

    def knock_turn(
        self, seat: int, take: bool | None = None, may_end: bool = True
    ) -> dict[int, float] | None:
        """One whole knock-game turn (``take``: the draw decided by the caller)."""
        barred = self.knock_draw(seat, self.knock_take(seat) if take is None else take)
        return self.knock_finish(seat, barred, may_end)

    # Melding games ----------------------------------------------------------------------------
    def meld_take(self, seat: int) -> bool:
        """The policy's draw in a melding game (see the module docstring)."""
        if not self.pile:
            return False
        rules = self.rules
        top = self.pile[-1]
        hand = self.hands[seat]
        if self.opened.get(seat) and top in self.accepts():
            return True
        before = solver.min_deadwood(hand, rules) if hand else 0
        return solver.min_deadwood([*hand, top], rules) < before + rules.deadwood_value(top)

    def meld_turn(self, seat: int, take: bool | None = None) -> dict[int, float] | None:
        """One melding-game turn; the round's points when the seat went out."""
        rules = self.rules
        take = self.meld_take(seat) if take is None else take
        if take and self.pile:
            card = self.pile.pop()
            barred = card if taken_stays_barred(rules, opened_this_turn=False) else None
        elif self.stock[seat]:
            card = self.stock[seat].pop()
            barred = None
        else:
            raise _StockOut
        hand = self.hands[seat]
        was_open = bool(self.opened.get(seat))
        cards = [*hand, card]
        if self.meld_step(seat, cards, barred):
            self.hands[seat] = []
            return self.went_out(seat, hand_romme=not was_open)
        return None

    def holds(self, seat: int) -> bool:
        """Whether ``seat`` holds its further melds back this turn (see :attr:`hold_seat`)."""
        return seat == self.hold_seat and all(
            len(self.hands[s]) > self.hold_until for s in self.seats if s != seat
        )

    def meld_step(self, seat: int, cards: list[int], barred: int | None, lay: bool | None = None) -> bool:
        """The melding-game turn of ``seat`` after drawing (``cards``: its hand with the card drawn):
        open when the opening reaches the minimum, else lay the melds of the best arrangement, lay
        off, then go out or shed (as :func:`~rummykit.bots.race.meld_turn` plays it, with cheap tests
        first). An opened seat that :meth:`holds` (or ``lay=False``; ``lay=True``: it lays) lays its
        melds only when that takes the hand out, and lays off only loose cards. Whether the seat
        went out."""
        rules = self.rules
        keep_one = rules.going_out_requires_discard
        opened = bool(self.opened.get(seat))
        opened_now = False
        loose: list[int] | None = None
        if not opened:
            opening = lay_opening(rules, cards)
            if opening:
                self.table = [*self.table, *opening]
                self.accept = None
                opened = opened_now = True
                self.opened[seat] = True
        else:
            hold = self.holds(seat) if lay is None else not lay
            if self.greedy and rules.joker_exchange and not hold:
                self.exchange_jokers(cards)
            if solver.min_deadwood(cards, rules) < sum(rules.deadwood_value(c) for c in cards):
                loose = self.lay_melds(cards, hold, keep_one)
        if opened and self.table and cards and (not opened_now or rules.layoff_on_opening_turn):
            if loose is None:
                self.lay_off(cards, keep_one)
            else:
                # Held melds stay in hand: only loose cards are laid off, and one of them is kept.
                laid = list(loose)
                self.lay_off(loose, True)
                for kept in loose:
                    laid.remove(kept)
                for gone in laid:
                    cards.remove(gone)
        if opened and (not cards or (len(cards) == 1 and cards[0] != barred)):
            return True
        if self.greedy:
            out = best_discard(cards, rules, [c for c in set(cards) if c != barred] or cards)
        else:
            out = shed_card(rules, cards, barred)
        cards.remove(out)
        self.pile.append(out)
        self.hands[seat] = cards
        return False

    def lay_melds(self, cards: list[int], hold: bool, keep_one: bool) -> list[int] | None:
        """An opened seat's melds of the best arrangement of ``cards``, laid (keeping one card when
        going out needs a discard) unless the seat holds them back and cannot go out: then the loose
        cards it may lay off instead, else ``None``."""
        arrangement = solver.best_arrangement(cards, self.rules)
        if hold and not can_go_out(self.rules, cards, self.table, True):
            return [int(c) for c in arrangement.deadwood_cards]
        for meld in arrangement.melds:
            if keep_one and len(cards) <= len(meld.cards):
                break
            for c in meld.cards:
                cards.remove(c)
            self.table = [*self.table, meld]
            self.accept = None
        return None

    def exchange_jokers(self, cards: list[int]) -> None:
        """Joker exchanges (RULES.md §3.11) as greedy makes them: a held natural that a table joker
        stands for replaces it when the hand with the freed joker leaves less deadwood, the joker
        then lying in a meld of the hand's best arrangement unless it may stay in hand
        (``exchanged_joker_destination``; the melds are laid right after). Sets under
        ``set_joker_exchange = complete_four_only`` are left alone. Exchanges repeat while one pays."""
        while self._exchange_one_joker(cards):
            pass

    def _exchange_one_joker(self, cards: list[int]) -> bool:
        """The first joker exchange of :meth:`exchange_jokers` that pays, made; whether there was one."""
        rules = self.rules
        to_hand = rules.exchanged_joker_destination == "hand"
        fours_only = rules.set_joker_exchange == "complete_four_only"
        now = solver.min_deadwood(cards, rules)
        for i, meld in enumerate(self.table):
            if JOKER_CODE not in meld.cards or (meld.is_set and fours_only):
                continue
            for card in meld.exchange_cards():
                if card not in cards:
                    continue
                rest = [*cards, JOKER_CODE]
                rest.remove(card)
                if solver.min_deadwood(rest, rules) >= now:
                    continue
                if not to_hand and JOKER_CODE in solver.best_arrangement(rest, rules).deadwood_cards:
                    continue
                table = list(self.table)
                table[i] = meld.with_exchange(card)
                self.table = table
                self.accept = None
                cards[:] = rest
                return True
        return False

    def accepts(self) -> frozenset[int]:
        """Every card that could be laid off on some table meld now."""
        if self.accept is None:
            self.accept = frozenset().union(*(fits(m, self.rules) for m in self.table))
        return self.accept

    def lay_off(self, cards: list[int], keep_one: bool) -> None:
        """Lay off from ``cards`` while any card fits (a card that fits only after another does
        too), keeping one card when the rules want a final discard."""
        rules = self.rules
        while cards and not (keep_one and len(cards) <= 1):
            accept = self.accepts()
            card = next((c for c in cards if c in accept), None)
            if card is None:
                return
            index = next(i for i, m in enumerate(self.table) if card in fits(m, rules))
            table = list(self.table)
            table[index] = table[index].with_layoff(card, rules)
            self.table = table
            self.accept = None
            cards.remove(card)

    def went_out(self, winner: int, hand_romme: bool) -> dict[int, float]:
        """Points when ``winner`` went out (RULES.md §3.12, 3.14; :func:`rummykit.scoring.going_out`)."""
        rules = self.rules
        factor = rules.hand_romme_multiplier if hand_romme else 1
        values = {s: sum(rules.penalty_value(c) for c in self.hands[s]) * factor for s in self.seats}
        values[winner] = 0
        if rules.hand_scoring == "winner_collects":
            return {s: float(sum(values.values())) if s == winner else 0.0 for s in self.seats}
        if rules.hand_scoring == "winner_gets_sum":
            return {s: float(sum(values.values())) if s == winner else -float(v) for s, v in values.items()}
        return {s: -float(v) for s, v in values.items()}

    # Both ---------------------------------------------------------------------------------------
    def turn(self, seat: int, take: bool | None = None) -> dict[int, float] | None:
        if self.rules.family == "knock":
            return self.knock_turn(seat, take)
        return self.meld_turn(seat, take)

    def estimate(self) -> dict[int, float]:
        """Points of a hand not finished: each seat's deadwood (melding games: plus
        :data:`CLOSED_ESTIMATE` while closed), negative."""
        rules = self.rules
        points: dict[int, float] = {}
        for s in self.seats:
            if rules.family == "knock":
                points[s] = -float(self.dw(s))
            else:
                hand = self.hands[s]
                left = solver.min_deadwood(hand, rules) if hand else 0
                points[s] = -float(left + (0 if self.opened.get(s) else CLOSED_ESTIMATE))
        return points

    def play(self, seat: int, turns: int, take: bool | None = None) -> dict[int, float]:
        """Play from the start of ``seat``'s turn (its draw decided by ``take`` when given) for at
        most ``turns`` turns in all; the points of the hand, or the estimate."""
        try:
            for i in range(turns):
                points = self.turn(seat, take if i == 0 else None)
                if points is not None:
                    return points
                seat = self.next_seat(seat)
        except _StockOut:
            pass
        return self.estimate()


_FITS: dict[tuple[int, int], tuple[Meld, Rules, frozenset[int]]] = {}
"""Per table meld and rule set (by identity, both kept alive with the entry: hashing a rule set
costs more than the look-up saves): the cards that can be laid off on the meld."""
FITS_CACHE: Final = 4096


def fits(meld: Meld, rules: Rules) -> frozenset[int]:
    """The cards that could be laid off on ``meld`` (:meth:`~rummykit.melds.Meld.layoff_cards`),
    cached per meld object for the play-outs of one rule set."""
    key = (id(meld), id(rules))
    entry = _FITS.get(key)
    if entry is not None and entry[0] is meld and entry[1] is rules:
        return entry[2]
    if len(_FITS) >= FITS_CACHE:
        _FITS.clear()
    found = frozenset(int(c) for c in meld.layoff_cards(rules))
    _FITS[key] = (meld, rules, found)
    return found


class _StockOut(Exception):
    """The stock ran out inside a play-out: the play-out is scored by :meth:`TablePlay.estimate`."""


def utility(points: dict[int, float], seat: int, win_bonus: float) -> float:
    """What a play-out is worth to ``seat``: its points less the other seats' mean points, plus
    ``win_bonus`` shared among the seats with the best points."""
    others = [p for s, p in points.items() if s != seat]
    mine = points[seat]
    best = max(points.values())
    winners = sum(1 for p in points.values() if p == best)
    bonus = win_bonus / winners if mine == best else 0.0
    return mine - (sum(others) / len(others) if others else 0.0) + bonus


# Engine play-outs (any family) -----------------------------------------------------------------
def engine_round(
    view: PlayerView, hands: dict[int, list[int]], stock: list[int], rng: random.Random
) -> Round:
    """The determinization as a :class:`~rummykit.round.Round` (for families without a fast play-out)."""
    seats = len(view.hand_sizes)
    all_hands = [Hand() for _ in range(seats)]
    for s in range(seats):
        if s == view.seat:
            all_hands[s] = Hand(view.hand)
        elif s in hands:
            all_hands[s] = Hand(Card(c) for c in hands[s])
    return round_of(view, all_hands, [Card(c) for c in stock], rng)


def engine_rollout(rnd: Round, first: Action, actions: int) -> dict[int, float]:
    """Apply ``first``, then the greedy policy for every seat for at most ``actions`` actions; the
    points of the hand, or every hand's deadwood (negative) when it is not over."""
    rnd.apply(first)
    for _ in range(actions):
        if rnd.is_over:
            break
        s = Situation.from_round(rnd)
        action = policy_action(s, None, quick=True)
        if not rnd.is_legal(action):
            action = policy_action(s, rnd.legal_actions())
        rnd.apply(action)
    if rnd.result is not None:
        return {s: float(rnd.result.points[s]) for s in rnd.active_seats}
    rules = rnd.rules
    return {s: -float(solver.min_deadwood(list(rnd.hands[s]), rules)) for s in rnd.active_seats}


__all__ = [
    "CLOSED_ESTIMATE",
    "TablePlay",
    "engine_rollout",
    "engine_round",
    "fast_family",
    "utility",
]
