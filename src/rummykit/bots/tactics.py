"""Melding-game tactics of the search bot: show little, hold melds, keep the cards that can still be
placed.

Heads-up German Rummy is a race to go out, and an opponent who has opened lays off on *every* meld
on the table (RULES.md §3.10), so each meld shown early also speeds the opponent up. In greedy
self-play about 1.6 cards per round go onto the other seat's melds. The tactics, measured against
the greedy bot over 2,000 heads-up rounds (docs/strength.md):

* :func:`small_opening`: open (Erstmeldung) with the fewest cards that still reach
  ``opening_min_points``, fewest jokers shown (an opponent could exchange them), then the fewest
  unseen cards that could be laid off on them; the other melds stay in hand.
* :func:`hold_melds`: once opened, lay further melds only in the turn they take the hand out
  (Hand-Rommé points are the price when the opponent goes out first; the race is not slowed, since
  the last turn can lay every meld at once). Lay-offs and joker exchanges still follow greedy.
* :func:`placement_discard`: once opened, points no longer decide the race, only whether a card
  will find a place: discard the loose card with the fewest partners in hand, then the fewest unseen
  cards that would complete a meld with it or link to it (counted exactly over the cards this seat
  cannot see), never a card of a meld in hand or a joker while anything else may go.
* :func:`feeds_table`: a discard the opponent could lay off on the table (once it has opened) is
  charged, before and after opening.

Together these win about 59 % of heads-up German rounds against greedy, up from 50 %; holding alone
is worth about 5 points of win rate, the placement discard about 3, the table charge about 1.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Final

from rummykit import solver
from rummykit.actions import Action, Discard, MeldAction, Open
from rummykit.bots.greedy import Situation, choose_play, discard_scores, linked
from rummykit.cards import JOKER_CODE, NUM_RANKS, Card
from rummykit.determinize import sample_round, unseen_cards
from rummykit.melds import Meld
from rummykit.permissions import may_lay_off
from rummykit.rules import Rules
from rummykit.views import PlayerView

TABLE_FEED_CHARGE: Final = 15.0
"""Discard score charged for a card the opened opponent could lay off on the table."""
PARTNER_WEIGHT: Final = 4.0
"""Placement score of each loose card in hand that could share a meld with the discard."""
COMPLETE_WEIGHT: Final = 1.0
"""Placement score of each unseen card that would complete a meld with the discard and a partner."""
LINK_WEIGHT: Final = 0.25
"""Placement score of each unseen card that could share a meld with the discard."""
MELDED: Final = 100.0
"""Placement score of a card of a meld in hand (kept unless nothing else may go)."""
JOKER_KEEP: Final = 1000.0
"""Placement score of a joker."""


def can_go_out(rules: Rules, hand: Sequence[int], table: Sequence[Meld], may_lay_off: bool) -> bool:
    """Whether the hand can be placed completely this turn (every meld laid, lay-offs on the table
    and on its own new melds when ``may_lay_off``), keeping at most the final discard."""
    arrangement = solver.best_arrangement(hand, rules)
    rest = list(arrangement.deadwood_cards)
    if len(rest) > 1 and may_lay_off:
        for card, _, _ in solver.layoff_chain(rest, [*table, *arrangement.melds], rules):
            rest.remove(card)
    return len(rest) <= 1


def layoff_exposure(rules: Rules, melds: Sequence[Meld], unseen: Counter[int]) -> int:
    """Unseen cards (with copies) that could be laid off on ``melds``."""
    return sum(n for c, n in unseen.items() for m in melds if m.can_lay_off(c, rules))


def small_opening(view: PlayerView, rng: random.Random) -> Open | None:
    """The opening that shows the least (see the module docstring), or ``None`` to open as greedy
    does: no opening possible, the taken discard must be laid, or the hand goes out at once.

    The opening is a sub-collection of the best opening's melds, which ``Round.legal_actions`` does
    not list; it is checked on a determinization of the view, where legality is decided exactly as
    in the real round (it depends only on the mover's hand and the public table).
    """
    rules = view.rules
    hand = list(view.hand)
    if view.must_lay is not None:
        return None
    best = solver.best_opening(hand, rules, keep_one=rules.going_out_requires_discard)
    if not best or len(best) == 1:
        return None
    table = [tm.meld for tm in view.melds]
    if can_go_out(rules, hand, table, False):
        return None
    need = rules.opening_min_points or 0
    unseen: Counter[int] = Counter(unseen_cards(view))
    options: list[tuple[tuple[int, int, int], tuple[Meld, ...]]] = []
    for size in range(1, len(best)):
        for melds in combinations(best, size):
            if sum(m.value for m in melds) < need:
                continue
            jokers = sum(1 for m in melds for c in m.cards if c == JOKER_CODE)
            cards = sum(len(m.cards) for m in melds)
            options.append(((cards, jokers, layoff_exposure(rules, melds, unseen)), melds))
    if not options:
        return None
    shown = min(options, key=lambda o: o[0])[1]
    action = Open(tuple(m.cards for m in shown))
    return action if sample_round(view, rng).is_legal(action) else None


def hold_melds(situation: Situation, view: PlayerView, legal: Sequence[Action], greedy: Action) -> Action:
    """Greedy's action, except that a further meld is held back unless the hand goes out this turn."""
    if not isinstance(greedy, MeldAction) or situation.must_lay is not None:
        return greedy
    table = [tm.meld for tm in view.melds]
    if can_go_out(view.rules, view.hand, table, situation.may_lay_off):
        return greedy
    rest = [a for a in legal if not isinstance(a, MeldAction)]
    return choose_play(situation, rest) if rest else greedy


def feeds_table(rules: Rules, card: int, view: PlayerView) -> bool:
    """Whether the next seat may lay off in its coming turn (:func:`~rummykit.permissions.may_lay_off`:
    it has opened, unless ``layoff_requires_opened`` is off) and could lay ``card`` off on a table meld."""
    nxt = view.active_seats[(view.active_seats.index(view.seat) + 1) % len(view.active_seats)]
    if not may_lay_off(rules, view.opened_turn[nxt], view.turn + 1):
        return False
    return any(tm.meld.can_lay_off(card, rules) for tm in view.melds)


def closed_discard(view: PlayerView, allowed: Sequence[int]) -> Discard:
    """Before opening: greedy's discard score plus the table charge."""
    rules = view.rules
    scores = discard_scores(list(view.hand), rules, allowed)
    for card in scores:
        if feeds_table(rules, card, view):
            scores[card] += TABLE_FEED_CHARGE
    return Discard(Card(min(sorted(scores), key=scores.__getitem__)))


def forms_meld(a: int, b: int, c: int) -> bool:
    """Whether three naturals form a set (three suits of a rank) or a run (three in sequence, the
    ace low or high)."""
    ranks = (a % NUM_RANKS, b % NUM_RANKS, c % NUM_RANKS)
    suits = (a // NUM_RANKS, b // NUM_RANKS, c // NUM_RANKS)
    if ranks[0] == ranks[1] == ranks[2]:
        return len(set(suits)) == 3
    if not suits[0] == suits[1] == suits[2]:
        return False
    for order in (sorted(ranks), sorted(r or NUM_RANKS for r in ranks)):
        if order[1] == order[0] + 1 and order[2] == order[1] + 1:
            return True
    return False


def placement_scores(view: PlayerView, allowed: Sequence[int]) -> dict[int, float]:
    """How likely each allowed discard is still to find a place (higher: keep it)."""
    rules = view.rules
    loose = list(solver.best_arrangement(view.hand, rules).deadwood_cards)
    unseen: Counter[int] = Counter(unseen_cards(view))
    scores: dict[int, float] = {}
    for card in set(allowed):
        if card == JOKER_CODE:
            score = JOKER_KEEP
        elif card not in loose:
            score = MELDED + rules.card_points(card) / 100
        else:
            partners = [o for o in loose if o != JOKER_CODE and linked(card, o)]
            complete = links = 0
            for other, n in unseen.items():
                if other == JOKER_CODE:
                    links += n
                    complete += n if partners else 0
                elif linked(card, other):
                    links += n
                    if any(forms_meld(card, p, other) for p in partners):
                        complete += n
            score = PARTNER_WEIGHT * len(partners) + COMPLETE_WEIGHT * complete + LINK_WEIGHT * links
            # Ties: shed the card worth more penalty points.
            score -= rules.card_points(card) / 100
        if feeds_table(rules, card, view):
            score += TABLE_FEED_CHARGE
        scores[card] = score
    return scores


def placement_discard(view: PlayerView, allowed: Sequence[int]) -> Discard:
    """After opening: the allowed card least likely to find a place."""
    scores = placement_scores(view, allowed)
    return Discard(Card(min(sorted(scores), key=scores.__getitem__)))
