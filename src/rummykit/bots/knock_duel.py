"""Duel play-outs of the knock games (Viennese, RULES.md §4): every seat plays, scored in points.

The races of :mod:`rummykit.bots.duel` run only the searching seat home and value the race by a clock
of the opponents' survival; they read an opponent's sampled hand only to charge a discard that
completes one of its melds. A duel plays one determinization (:class:`~rummykit.bots.duel.Sample`:
every opponent's hand and every seat's draws) to the end of the hand instead, every seat in turn
order, and scores it in the game's points for this seat, so it values both the speed of a move and
the deadwood it risks at the showdown:

* **the opponents** play the greedy bot's rule (:mod:`rummykit.bots.greedy`) from their sampled
  hands: take the top discard when greedy's discard then leaves less deadwood, or the hand may then
  end (:func:`~rummykit.bots.greedy.knock_takes`, greedy's ``should_take``); call Rummy when a
  discard leaves no deadwood; knock when a knock is allowed, with the discard that leaves the least
  deadwood (ties: the highest card code); otherwise greedy's discard
  (:func:`~rummykit.bots.greedy.best_discard`: the least deadwood with a charge per partial meld the
  card belongs to, never the card just taken).
* **this seat** plays a fixed fast rule after the candidate: take when some discard then leaves
  less deadwood (:func:`~rummykit.bots.duel.takes`: its discard is such a card), Rummy or a knock as
  soon as allowed, otherwise the card that leaves the least deadwood and is worth most
  (:func:`~rummykit.bots.race.shed_card`).
* **the hand ends** at the first Rummy call (the caller's discard goes face down: nobody takes it) or
  knock: after a knock every other seat takes its extra turn when ``knock_extra_turn`` (draw, taking
  the knocker's face-up discard by the same take rule, then discard: greedy's discard for an
  opponent, the least deadwood for this seat), then the showdown (:func:`showdown`) scores every
  seat as the round engine does (:func:`rummykit.scoring.showdown`).
* A duel still running after :data:`DUEL_TURNS` turns of every seat, or whose drawing seat has no
  card left, is scored by each hand's least deadwood (the race's estimate of a hand not home).

Each seat draws from its own sequence of the sampled stock (:func:`~rummykit.bots.duel.deal_draws`:
for an unknown stock the same distribution as one pile): a candidate that changes who draws from the
stock (this seat or the opponent takes a discard instead) leaves every other draw unchanged, so all
candidates of a decision are compared on common random numbers. A duel is worth
:func:`~rummykit.bots.rollout.utility`: this seat's points less the opponents' mean, plus the win
bonus shared by the best points of the hand (as :func:`~rummykit.bots.duel.knock_value` scores a
showdown). The play-out is plain Python over the compiled solver calls
(:func:`~rummykit.solver.best_discards`, :func:`~rummykit.solver.min_deadwood`).

:class:`~rummykit.bots.ismcts.IsmctsBot` values its draw and its discard or knock by the mean duel
over its determinizations when ``knock_duels`` is on (docs/strength.md, for what it is worth).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rummykit import solver
from rummykit.bots.duel import Sample, takes
from rummykit.bots.greedy import best_discard, knock_takes, without
from rummykit.bots.race import shed_card
from rummykit.bots.rollout import utility
from rummykit.knocking import knock_allowed
from rummykit.rules import Rules

DUEL_TURNS: Final = 12
"""Turns of every seat a duel plays before the hands left are scored by their deadwood."""
ME: Final = 0
"""This seat's index in a duel; the opponents follow in turn order."""


class _StockOut(Exception):
    """The drawing seat's stock sequence ran out: the duel is scored by the deadwood left."""


class Duel:
    """One determinization being played out: the hands and draw sequences of every seat (this seat
    first, then the opponents in turn order) and the discard pile (top last)."""

    __slots__ = ("draws", "hands", "pile", "rules", "used")

    def __init__(self, rules: Rules, mine: Sequence[int], sample: Sample, pile: Sequence[int]) -> None:
        self.rules = rules
        self.hands: list[list[int]] = [list(mine)] + [list(hand) for hand, _ in sample.opponents]
        self.draws: list[Sequence[int]] = [sample.mine, *(draws for _, draws in sample.opponents)]
        self.used = [0] * len(self.hands)
        self.pile = list(pile)

    def draw(self, seat: int, take: bool) -> int | None:
        """``seat`` takes the top discard or draws its next stock card; the card it may not discard
        this turn (the card taken, unless the rules allow it)."""
        if take:
            card = self.pile.pop()
            self.hands[seat].append(card)
            return None if self.rules.may_discard_taken_discard else card
        draws = self.draws[seat]
        if self.used[seat] >= len(draws):
            raise _StockOut
        self.hands[seat].append(draws[self.used[seat]])
        self.used[seat] += 1
        return None

    def wants(self, seat: int, may_end: bool = True) -> bool:
        """The take rule (greedy's): the top discard lowers the hand's deadwood. An opponent plays
        greedy's own rule (:func:`~rummykit.bots.greedy.knock_takes`: its greedy discard must leave
        less deadwood, or the hand may end; ``may_end``: not an extra turn after a knock); this seat,
        which sheds a card that leaves the least deadwood, :func:`~rummykit.bots.duel.takes`, the same
        rule for that discard. Either way every take that does not end the hand lowers the taker's
        deadwood, so the seats cannot pass the same cards back and forth."""
        if not self.pile:
            return False
        if seat == ME:
            return takes(self.rules, self.hands[seat], self.pile[-1])
        return knock_takes(self.rules, self.hands[seat], self.pile[-1], may_end)

    def finish(self, seat: int, barred: int | None) -> dict[int, float] | None:
        """The rest of ``seat``'s turn after its draw: Rummy or knock when allowed, else its discard;
        the points of the hand when it ended."""
        rules = self.rules
        hand = self.hands[seat]
        d, best = solver.best_discards(hand, rules)
        usable = [int(c) for c in best if c != barred]
        if not usable:  # only the barred card leaves the least deadwood: the best of the others
            rests = {c: solver.min_deadwood(without(hand, (c,)), rules) for c in set(hand) if c != barred}
            d = min(rests.values())
            usable = sorted(c for c, left in rests.items() if left == d)
        if d == 0:
            hand.remove(usable[0])  # face down: nobody may take it
            return self.showdown(seat, d, rummy=True)
        if knock_allowed(d, rules.knock_threshold or 0, rules.knock_comparison):
            return self.knock(seat, usable[-1], d)
        self.discard(seat, barred)
        return None

    def discard(self, seat: int, barred: int | None) -> None:
        """``seat`` discards: greedy's discard for an opponent, :func:`~rummykit.bots.race.shed_card`
        for this seat."""
        rules = self.rules
        hand = self.hands[seat]
        card = shed_card(rules, hand, barred) if seat == ME else greedy_discard(rules, hand, barred)
        hand.remove(card)
        self.pile.append(card)

    def knock(self, knocker: int, card: int, deadwood: int) -> dict[int, float]:
        """``knocker`` knocks discarding ``card`` with ``deadwood`` left: every other seat's extra turn
        (RULES.md §4.5), then the showdown."""
        rules = self.rules
        self.hands[knocker].remove(card)
        if rules.knock_discard_face_up:
            self.pile.append(card)
        if rules.knock_extra_turn:
            seats = len(self.hands)
            for step in range(1, seats):
                seat = (knocker + step) % seats
                try:
                    barred = self.draw(seat, self.wants(seat, may_end=False))
                except _StockOut:
                    continue
                hand = self.hands[seat]
                if seat == ME:
                    best = [int(c) for c in solver.best_discards(hand, rules)[1] if c != barred]
                    out = max(best, key=lambda c: (rules.card_points(c), c)) if best else None
                    out = shed_card(rules, hand, barred) if out is None else out
                    hand.remove(out)
                    self.pile.append(out)
                else:
                    self.discard(seat, barred)
        return self.showdown(knocker, deadwood, rummy=False)

    def showdown(self, winner: int, deadwood: int, rummy: bool) -> dict[int, float]:
        """Bad points of the hand, negative (RULES.md §4.7): the Rummy caller 0, the knocker its
        ``deadwood`` (when ``knocker_scores_own_deadwood``), every other seat its least deadwood
        (times ``rummy_multiplier`` after a Rummy call)."""
        rules = self.rules
        factor = rules.rummy_multiplier if rummy else 1
        points: dict[int, float] = {}
        for seat, hand in enumerate(self.hands):
            if seat == winner:
                own = 0 if rummy or not rules.knocker_scores_own_deadwood else deadwood
                points[seat] = -float(own)
            else:
                points[seat] = -float(solver.min_deadwood(hand, rules) * factor)
        return points

    def estimate(self) -> dict[int, float]:
        """A hand not finished: every seat's least deadwood, negative."""
        return {s: -float(solver.min_deadwood(h, self.rules)) for s, h in enumerate(self.hands)}

    def play(self, seat: int, turns: int = DUEL_TURNS) -> dict[int, float]:
        """Whole turns from ``seat``'s draw on until the hand ends, for at most ``turns`` turns of
        every seat; the points of the hand (or the estimate)."""
        seats = len(self.hands)
        try:
            for _ in range(turns * seats):
                points = self.finish(seat, self.draw(seat, self.wants(seat)))
                if points is not None:
                    return points
                seat = (seat + 1) % seats
        except _StockOut:
            pass
        return self.estimate()


def greedy_discard(rules: Rules, hand: Sequence[int], barred: int | None) -> int:
    """Greedy's discard from ``hand``: :func:`~rummykit.bots.greedy.best_discard` over every card but
    ``barred`` (every card when ``barred`` is all the hand holds)."""
    return best_discard(hand, rules, [c for c in hand if c != barred] or hand)


def discard_duel(
    rules: Rules, rest: Sequence[int], card: int, knock: bool, sample: Sample, pile: Sequence[int]
) -> dict[int, float]:
    """Points of the hand after this seat discards ``card`` keeping ``rest`` (or knocks with it, when
    ``knock``), played out on ``sample`` (the discard pile before the discard: ``pile``)."""
    duel = Duel(rules, rest, sample, pile)
    if knock:
        duel.hands[ME].append(card)
        return duel.knock(ME, card, solver.min_deadwood(rest, rules))
    duel.pile.append(card)
    if len(duel.hands) == 1:
        return duel.estimate()
    return duel.play(1)


def draw_duel(
    rules: Rules, hand: Sequence[int], take: bool, sample: Sample, pile: Sequence[int]
) -> dict[int, float]:
    """Points of the hand after this seat takes the top discard of ``pile`` (``take``) or draws its
    next stock card, then plays on by its fast rule, on ``sample``."""
    duel = Duel(rules, hand, sample, pile)
    try:
        points = duel.finish(ME, duel.draw(ME, take and bool(pile)))
    except _StockOut:
        return duel.estimate()
    if points is not None:
        return points
    return duel.play(1 % len(duel.hands))


def discard_duel_values(
    rules: Rules,
    hand: Sequence[int],
    choices: Sequence[tuple[int, bool]],
    samples: Sequence[Sample],
    pile: Sequence[int],
    win_bonus: float,
) -> list[float]:
    """Summed duel utilities over ``samples`` of each ``(card, knock)`` choice from ``hand`` (11
    cards after the draw): discard ``card``, or knock with it."""
    totals = [0.0] * len(choices)
    for sample in samples:
        for i, (card, knock) in enumerate(choices):
            points = discard_duel(rules, without(hand, (card,)), card, knock, sample, pile)
            totals[i] += utility(points, ME, win_bonus)
    return totals


def draw_duel_values(
    rules: Rules, hand: Sequence[int], samples: Sequence[Sample], pile: Sequence[int], win_bonus: float
) -> tuple[float, float]:
    """Summed duel utilities over ``samples`` of taking the top discard of ``pile`` and of drawing."""
    take = draw = 0.0
    for sample in samples:
        take += utility(draw_duel(rules, hand, True, sample, pile), ME, win_bonus)
        draw += utility(draw_duel(rules, hand, False, sample, pile), ME, win_bonus)
    return take, draw


__all__ = [
    "DUEL_TURNS",
    "ME",
    "Duel",
    "discard_duel",
    "discard_duel_values",
    "draw_duel",
    "draw_duel_values",
    "greedy_discard",
]
