"""Arranged deals: a deck order that deals the hands a scenario needs.

Scenario tests, puzzles, bug reports and the option-sensitivity harness build their rounds with
``Round.new(rules, n, deck=arrange_deck(…))``; :mod:`rummykit.testing` re-exports it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummykit.cards import Card, build_deck, parse_cards
from rummykit.errors import RulesError
from rummykit.round import deal_sequence
from rummykit.rules import Rules


def arrange_deck(
    rules: Rules,
    players: int,
    hands: Sequence[str | Sequence[int] | None],
    *,
    dealer: int = 0,
    upcard: str | None = None,
    extra: str | None = None,
    stock: str = "",
    in_play: Sequence[int] | None = None,
) -> tuple[Card, ...]:
    """A deck order that deals exactly ``hands`` (per seat; ``None`` for a seat that sits out), then
    ``upcard`` (``start_mode = upcard``) or ``extra`` (the 14th/11th card of an extra-card start),
    then ``stock`` (top first); the rest of the deck follows in code order. ``in_play`` lists the
    seats taking part (as in ``Round.new``); the others need no hand.

    For scenario tests, puzzles and bug reports: ``Round.new(rules, n, deck=arrange_deck(…))``.

    Raises:
        RulesError: a hand of the wrong size, cards beyond the deck, or joker robbing switched on.
    """
    if rules.joker_robbing:
        raise RulesError("arrange_deck: switch joker_robbing off to arrange a deal", option="joker_robbing")
    clockwise = [(dealer + i) % players for i in range(1, players + 1)]
    playing = set(range(players) if in_play is None else in_play)
    sits_out = rules.active_players(len(playing)) < len(playing)
    active = [s for s in clockwise if s in playing and not (sits_out and s == dealer)]
    size = rules.hand_size_for(len(active))
    wanted: dict[int, list[Card]] = {}
    for seat in active:
        given = hands[seat] if seat < len(hands) else None
        cards = list(parse_cards(given) if isinstance(given, str) else (Card(c) for c in given or ()))
        if len(cards) != size:
            raise RulesError(
                f"arrange_deck: seat {seat} needs {size} cards, got {len(cards)}", option="hand_size"
            )
        wanted[seat] = cards
    order: list[Card] = []
    for seat in deal_sequence(rules, active, dict.fromkeys(active, size)):
        order.append(wanted[seat].pop(0))
    start = extra if rules.start_mode in ("dealer_extra_card", "forehand_extra_card") else upcard
    if start is not None:
        order += parse_cards(start)
    order += parse_cards(stock)
    rest = Counter(build_deck(rules.num_decks, rules.jokers_total))
    rest.subtract(order)
    if any(n < 0 for n in rest.values()):
        over = [str(c) for c, n in rest.items() if n < 0]
        raise RulesError(f"arrange_deck: more copies than the deck holds of {' '.join(over)}")
    order += sorted(rest.elements())
    return tuple(order)
