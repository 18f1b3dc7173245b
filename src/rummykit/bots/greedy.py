"""GreedyBot: solver-driven play that looks no further than the current turn.

Policy (RULES.md §3 for the melding games, §4 for the knock games):

* Draw (ziehen): take the discard when it improves the melds (it ends up melded: the minimum deadwood
  of hand plus card is lower than hand plus the card's value), when it enables an opening
  (Erstmeldung) that was not possible before, or (opened, melding games) when it can be laid off.
  Knock games: only when the discard greedy then makes leaves less deadwood than before, or the
  hand may then knock or call Rummy (:func:`knock_takes`: so two greedy seats cannot pass the same
  cards back and forth forever).
* Melding games: open as soon as allowed with the best-value opening (:func:`solver.best_opening`),
  then lay every meld of an optimal arrangement, exchange jokers when the exchange lowers the hand's
  deadwood, lay off (anlegen) every card whose removal lowers the deadwood.
* Knock games: call Rummy when possible, knock (klopfen) as soon as allowed with the lowest deadwood.
* Discard (ablegen): the card that least damages potential melds: lowest deadwood afterwards, with a
  charge for every partial meld (pair of a rank, neighbours in a suit) the card belongs to; never a
  joker unless forced; ties go to the higher card (fewer penalty points when someone goes out).
* Buy-back (Viennese rubber): buy back when the new total is well below the current one.
* Gin Rummy: its own phases and rules (knock card, gin bonus, undercut and lay-off risk, the wall,
  the first upcard, the knocker's melds and the defender's lay-offs) in :mod:`rummykit.bots.gin_play`.

:class:`~rummykit.bots.search.SearchBot` falls back on this policy for the decisions it does not
search. :func:`policy_action` works on a :class:`Situation` that can be built from a view
(:meth:`Situation.from_view`) or, inside a determinized round (e.g. a bot author's own play-outs),
from the seat to move (:meth:`Situation.from_round`), and then either picks from the offered legal
actions or builds the action itself without enumerating every legal action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit import solver
from rummykit.actions import (
    Action,
    BuyBack,
    CallRummy,
    Decline,
    Discard,
    Draw,
    Knock,
    LayOff,
    MeldAction,
    Open,
    Swap,
    TakeDiscard,
)
from rummykit.bots.gin_play import gin_action
from rummykit.cards import JOKER_CODE, NUM_RANKS, Card
from rummykit.knocking import knock_allowed
from rummykit.melding_conditions import taken_stays_barred
from rummykit.melds import Meld
from rummykit.permissions import may_lay_off
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import MatchView, Phase, PlayerView

LINK_CHARGE: Final = 4
"""Deadwood points charged for each partial meld a discarded card belongs to."""
JOKER_CHARGE: Final = 1000
"""Charge that keeps jokers out of the discard unless nothing else may go."""
BUYBACK_GAP: Final = 8
"""Buy back when the new total would be at least this many points lower."""


@dataclass(frozen=True, slots=True)
class Situation:
    """What the greedy policy reads: the seat's own cards and the public state of the turn."""

    rules: Rules
    hand: tuple[Card, ...]
    phase: Phase
    top: Card | None
    taken: Card | None
    must_lay: Card | None
    table: tuple[Meld, ...]
    opened: bool
    may_lay_off: bool
    extra_turn: bool
    """Knock games: the turn after someone knocked (draw and discard only)."""

    @classmethod
    def from_view(cls, view: PlayerView) -> Situation:
        seat = view.seat
        opened_turn = view.opened_turn[seat] if view.opened_turn else None
        rules = view.rules
        return cls(
            rules=rules,
            hand=view.hand,
            phase=view.phase,
            top=view.top_discard,
            taken=view.taken_discard,
            must_lay=view.must_lay,
            table=tuple(tm.meld for tm in view.melds),
            opened=opened_turn is not None,
            may_lay_off=may_lay_off(rules, opened_turn, view.turn),
            extra_turn=view.knocker is not None,
        )

    @classmethod
    def from_round(cls, rnd: Round) -> Situation:
        """The situation of the seat to move (only its own hand is read)."""
        seat = rnd.to_move
        opened_turn = rnd.opened_turn[seat]
        rules = rnd.rules
        return cls(
            rules=rules,
            hand=tuple(rnd.hands[seat]),
            phase=rnd.phase,
            top=rnd.discard_pile[-1] if rnd.discard_pile else None,
            taken=rnd.taken_discard,
            must_lay=rnd.must_lay,
            table=tuple(tm.meld for tm in rnd.melds),
            opened=opened_turn is not None,
            may_lay_off=may_lay_off(rules, opened_turn, rnd.turn),
            extra_turn=rnd.knocker is not None,
        )


def without(cards: Sequence[int], remove: Sequence[int]) -> list[int]:
    """``cards`` less one copy of each card of ``remove``."""
    rest = list(cards)
    for c in remove:
        rest.remove(c)
    return rest


def deadwood(cards: Sequence[int], rules: Rules) -> int:
    return solver.min_deadwood(cards, rules) if cards else 0


def linked(a: int, b: int) -> bool:
    """Whether two natural cards form part of a possible meld: same rank, or same suit within two."""
    ra, rb = a % NUM_RANKS, b % NUM_RANKS
    if ra == rb:
        return a != b  # two copies of one face never share a set
    if a // NUM_RANKS != b // NUM_RANKS:
        return False
    gap = abs(ra - rb)
    return gap <= 2 or gap >= NUM_RANKS - 2  # the ace also sits above the king


def discard_scores(cards: Sequence[int], rules: Rules, allowed: Sequence[int]) -> dict[int, float]:
    """Damage of discarding each card of ``allowed`` (lower is better)."""
    loose = solver.best_arrangement(cards, rules).deadwood_cards
    naturals = [c for c in loose if c != JOKER_CODE]
    scores: dict[int, float] = {}
    for card in set(allowed):
        rest = without(cards, (card,))
        score: float = deadwood(rest, rules)
        if card == JOKER_CODE:
            score += JOKER_CHARGE
        elif card in loose:
            score += LINK_CHARGE * sum(1 for other in naturals if linked(card, other))
        # Ties: shed the card worth more points at the end of the hand.
        score -= rules.card_points(card) / 100
        scores[card] = score
    return scores


_LINKS: Final = tuple(sum(1 << b for b in range(JOKER_CODE) if linked(a, b)) for a in range(JOKER_CODE))
"""Per natural card code, the mask of the card codes it forms a partial meld with (:func:`linked`)."""
_VALUES: dict[int, tuple[Rules, list[int], list[float]]] = {}
"""Per rule set (by identity, kept alive with the entry): every code's deadwood value and a hundredth
of its points."""


def _values(rules: Rules) -> tuple[list[int], list[float]]:
    entry = _VALUES.get(id(rules))
    if entry is None or entry[0] is not rules:
        codes = range(JOKER_CODE + 1)
        entry = (rules, [rules.deadwood_value(c) for c in codes], [rules.card_points(c) / 100 for c in codes])
        if len(_VALUES) > 64:
            _VALUES.clear()
        _VALUES[id(rules)] = entry
    return entry[1], entry[2]


def best_discard(cards: Sequence[int], rules: Rules, allowed: Sequence[int]) -> int:
    """The card of ``allowed`` with the least :func:`discard_scores` (ties: the lowest code).

    The same answer as scoring every card, with fewer solver calls. For a card ``c`` left loose by
    the hand's best arrangement, the least deadwood without it is the hand's less ``c``'s value (the
    best arrangement without ``c`` gives no more, and ``c`` added back to any arrangement costs its
    value), so only the melded cards need the solver, and only those whose lower bound (the same
    difference) does not already lose to the best score found.
    """
    values, hundredths = _values(rules)
    arrangement = solver.best_arrangement(cards, rules)
    total = arrangement.deadwood
    loose = [int(c) for c in arrangement.deadwood_cards]
    once = twice = 0  # the loose natural faces held, and those held twice
    for c in loose:
        if c != JOKER_CODE:
            bit = 1 << c
            twice |= once & bit
            once |= bit
    scores: dict[int, float] = {}
    melded: list[tuple[float, int]] = []
    for card in sorted({int(c) for c in allowed}):
        if card == JOKER_CODE:
            charge = JOKER_CHARGE
        elif card in loose:
            links = _LINKS[card]
            charge = LINK_CHARGE * ((links & once).bit_count() + (links & twice).bit_count())
        else:
            charge = 0
        bound = total - values[card] + charge - hundredths[card]
        if card in loose:
            scores[card] = bound
        else:
            melded.append((bound, card))
    best = min(scores.values(), default=float("inf"))
    for bound, card in sorted(melded):
        if bound > best:
            break
        score = deadwood(without(cards, (card,)), rules) + (JOKER_CHARGE if card == JOKER_CODE else 0)
        scores[card] = score - hundredths[card]
        best = min(best, scores[card])
    return min(sorted(scores), key=scores.__getitem__)


def knock_takes(rules: Rules, hand: Sequence[int], top: int, may_end: bool = True) -> bool:
    """Knock games: whether greedy takes ``top`` onto ``hand``: the turn it then plays leaves less
    deadwood than ``hand`` has now.

    That is, the discard greedy then makes (:func:`best_discard` over every card but ``top``) leaves
    less deadwood, or (``may_end``: not an extra turn after a knock) some discard leaves a hand that
    calls Rummy or may knock, which ends the hand.

    Anti-cycle rule. Taking only when *some* discard would lower the deadwood is not enough: greedy
    discards by :func:`discard_scores` (deadwood plus a charge per partial meld), not by the least
    deadwood, so a take can leave the taker's deadwood where it was, and two greedy seats could pass
    the same few cards back and forth forever without ever drawing from the stock (seen in Viennese
    and Rommé ohne Auslegen, where cards stay in hand). With this rule every take that does not end
    the hand strictly lowers the taker's deadwood and leaves every other hand unchanged, so a run of
    takes cannot come back to the same hands: it is at most as long as the sum of the deadwood of all
    hands, and then someone draws from the stock. The rule reads only the seat's own cards and the
    top discard (no memory of earlier discards, as :meth:`Situation.from_view` has none), and it
    declines only takes that left greedy's own deadwood unchanged or higher after its discard.
    """
    allowed = sorted({int(c) for c in hand if c != top})
    if not allowed:
        return False
    before = deadwood(hand, rules)
    with_top = [*hand, top]
    d, best = solver.best_discards(with_top, rules)
    least_cards = {int(c) for c in best if c != top}
    # When only the taken card leaves the least deadwood: the least left by the others.
    least = d if least_cards else min(deadwood(without(with_top, (c,)), rules) for c in allowed)
    if least >= before:
        return False
    if may_end and (least == 0 or knock_allowed(least, rules.knock_threshold or 0, rules.knock_comparison)):
        return True
    card = best_discard(with_top, rules, allowed)
    return card in least_cards or deadwood(without(with_top, (card,)), rules) < before


def should_take(s: Situation) -> bool:
    """Take the discard when it improves melds, enables an opening or can be laid off; in the knock
    games when the turn then played lowers the deadwood (:func:`knock_takes`, the anti-cycle rule)."""
    top = s.top
    if top is None:
        return False
    rules = s.rules
    hand = list(s.hand)
    with_top = [*hand, top]
    if rules.is_knock_game:
        return knock_takes(rules, hand, top, may_end=not s.extra_turn)
    if s.opened and s.may_lay_off and any(m.can_lay_off(top, rules) for m in s.table):
        return True
    if deadwood(with_top, rules) < deadwood(hand, rules) + rules.deadwood_value(top):
        return True
    if not s.opened and rules.opening_min_points:
        keep = rules.going_out_requires_discard
        need = rules.opening_min_points
        before_v = solver.max_opening_value(hand, rules, keep_one=keep)
        return before_v < need <= solver.max_opening_value(with_top, rules, keep_one=keep)
    return False


# Candidate generation without enumerating every legal action -----------------------------------
def _knock_candidates(s: Situation) -> list[Action]:
    rules = s.rules
    hand = list(s.hand)
    allowed = [c for c in sorted(set(hand)) if c != s.taken or rules.may_discard_taken_discard]
    if not s.extra_turn:
        threshold = rules.knock_threshold or 0
        d, best = solver.best_discards(hand, rules)
        usable = [c for c in best if c in allowed]
        if usable and d == 0:
            return [CallRummy(usable[0])]
        if usable and knock_allowed(d, threshold, rules.knock_comparison):
            return [Knock(usable[-1])]
    return [Discard(c) for c in allowed]


def _play_candidates(s: Situation) -> list[Action]:
    """A short list for the melding games: the greedy choice first, then every discard."""
    rules = s.rules
    hand = list(s.hand)
    keep_one = rules.going_out_requires_discard
    out: list[Action] = []
    if not s.opened:
        best = solver.best_opening(hand, rules, must_include=s.must_lay, keep_one=keep_one)
        if best is not None:
            out.append(Open(tuple(m.cards for m in best)))
    else:
        arrangement = solver.best_arrangement(hand, rules)
        for m in arrangement.melds:
            if not keep_one or len(hand) > len(m.cards):
                out.append(MeldAction((m.cards,)))
        if s.may_lay_off and s.table:
            for card, index, end in solver.layoff_targets(hand, s.table, rules):
                out.append(LayOff(card, index + 1, end))
    if s.must_lay is None:
        out += [Discard(Card(c)) for c in sorted(set(hand))]
    return out


def cheapest_shed(rules: Rules, hand: Sequence[int], barred: int | None = None) -> int | None:
    """Among the cards whose discard leaves the least deadwood (one solver call), the one worth most,
    never a joker or ``barred``; ``None`` when only those leave the least deadwood."""
    _, best = solver.best_discards(hand, rules)
    usable = [c for c in best if c != barred and c != JOKER_CODE]
    return max(usable, key=lambda c: (rules.card_points(c), c)) if usable else None


def quick_discard(s: Situation) -> Action:
    """A cheap discard for play-outs: :func:`cheapest_shed` (never the card just taken or a joker while
    anything else may go), else the greedy discard."""
    rules = s.rules
    hand = list(s.hand)
    barred = s.taken if taken_stays_barred(rules, opened_this_turn=False) else None
    shed = cheapest_shed(rules, hand, barred)
    if shed is not None:
        return Discard(Card(shed))
    allowed = [c for c in set(hand) if c != barred] or hand
    return Discard(Card(best_discard(hand, rules, allowed)))


def policy_action(s: Situation, legal: Sequence[Action] | None = None, quick: bool = False) -> Action:
    """The greedy action in ``s``: chosen among ``legal``, or built directly when ``legal`` is None.

    A built action is normally legal; callers without ``legal`` must still let the round check it.
    ``quick`` (play-outs) replaces the scored discard by :func:`quick_discard`.
    """
    if legal is not None and len(legal) == 1:
        return legal[0]
    if s.phase is Phase.DRAW:
        choice: Action = TakeDiscard() if should_take(s) else Draw()
        if legal is not None and choice not in legal:
            choice = legal[0]
        return choice
    if legal is None:
        legal = _knock_candidates(s) if s.rules.is_knock_game else _play_candidates(s)
        if quick and s.must_lay is None and all(isinstance(a, Discard) for a in legal):
            return quick_discard(s)
    if s.rules.is_knock_game:
        return _choose_knock_phase(s, legal)
    return choose_play(s, legal)


def _choose_knock_phase(s: Situation, legal: Sequence[Action]) -> Action:
    rules = s.rules
    hand = list(s.hand)
    rummies = [a for a in legal if isinstance(a, CallRummy)]
    if rummies:
        return rummies[0]
    knocks = [a for a in legal if isinstance(a, Knock)]
    if knocks:
        return min(knocks, key=lambda a: (deadwood(without(hand, (a.card,)), rules), -a.card))
    discards = [a for a in legal if isinstance(a, Discard)]
    card = best_discard(hand, rules, [a.card for a in discards])
    return Discard(Card(card))


def choose_play(s: Situation, legal: Sequence[Action]) -> Action:
    """Melding games, after the draw: greedy's choice among ``legal`` (open, meld, exchange a joker,
    lay off, discard, in that order of preference)."""
    rules = s.rules
    hand = list(s.hand)
    opens = [a for a in legal if isinstance(a, Open)]
    if opens:
        return max(opens, key=lambda a: (len(a.cards), sum(Meld.from_cards(m, rules).value for m in a.melds)))
    now = deadwood(hand, rules)
    melds = [a for a in legal if isinstance(a, MeldAction)]
    if melds:
        scored = [(deadwood(without(hand, a.cards), rules), -len(a.cards), i) for i, a in enumerate(melds)]
        best = min(scored)
        if best[0] <= now:
            return melds[best[2]]
    swaps = [a for a in legal if isinstance(a, Swap)]
    for swap in swaps:
        gained = swap_gain(hand, swap, rules)
        if gained is not None and gained < now:
            return swap
    layoffs = [a for a in legal if isinstance(a, LayOff)]
    if layoffs:
        scored_l = [(deadwood(without(hand, (a.card,)), rules), -a.card, i) for i, a in enumerate(layoffs)]
        best_l = min(scored_l)
        if best_l[0] < now or len(hand) == 1:
            return layoffs[best_l[2]]
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        return Discard(Card(best_discard(hand, rules, [a.card for a in discards])))
    # A pending taken discard leaves only ways to lay it: the first offered one.
    return legal[0]


def swap_gain(hand: Sequence[int], swap: Swap, rules: Rules) -> int | None:
    """Deadwood of the hand after the joker exchange (the freed jokers go straight into the melds)."""
    try:
        rest = without(hand, swap.cards)
        used = [c for m in swap.melds for c in m] + [lo.card for lo in swap.layoffs]
        freed = max(1, len(swap.cards))
        rest += [JOKER_CODE] * freed
        rest = without(rest, used)
    except ValueError:
        return None
    return deadwood(rest, rules)


def buyback_pays(mv: MatchView) -> bool:
    """Buy back when the new total is well below the current one (or the pot is worth the price)."""
    if mv.buyback_target is None:
        return False
    gap = mv.totals[mv.seat] - mv.buyback_target
    alive = max(1, len(mv.active_seats))
    return gap >= BUYBACK_GAP or (mv.pot + mv.buyback_cost) / alive > mv.buyback_cost


class GreedyBot:
    """Solver-driven greedy play (see the module docstring)."""

    name = "greedy"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if any(isinstance(a, (BuyBack, Decline)) for a in legal):
            return Decline() if Decline() in legal else legal[0]
        if view.gin is not None:
            return gin_action(view, legal)
        choice = policy_action(Situation.from_view(view), legal)
        return choice if choice in legal else legal[0]

    def choose_match(self, mv: MatchView, legal: Sequence[Action], rng: random.Random) -> Action:
        want = BuyBack() if buyback_pays(mv) else Decline()
        return want if want in legal else legal[0]
