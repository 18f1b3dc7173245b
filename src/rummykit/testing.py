"""Conformance harness: random rounds that check the engine's invariants (listed below;
``tests/test_conformance.py`` runs it over every preset and player count).

``check_rules(rules, rounds=…, seed=…)`` plays random rounds with random legal actions and raises
:class:`ConformanceError` at the first broken invariant:

* card conservation: hands + table + stock + discards (+ a face-down card) are exactly the deck, so
  no card exists beyond the deck's copies;
* every offered action passes ``check``, applies without error and its text round-trips;
* ``legal_actions()`` is never empty before the end, and every round ends within a bound;
* a taken discard that must be laid stays in the hand until it is laid, and while it is pending
  every offered action (not only the one played) leaves a state with a legal action;
* the round's record replays to an identical round;
* no view holds another seat's hidden cards.

Bot authors can run it on their own rule variants: ``check_rules(Rules.preset("german").replace(…))``.

``check_option_effects(rules)`` (:mod:`rummykit.option_effects`) proves that every rule option changes
what the engine does, or is refused where it cannot matter.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Final

from rummykit.actions import Action, Discard, Draw, TakeDiscard
from rummykit.arrange import arrange_deck
from rummykit.cards import build_deck
from rummykit.option_effects import check_option_effects
from rummykit.record import Record
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.views import Phase

GIN_LIKE_RULES: Final = Rules.preset("viennese").replace(
    num_decks=1,
    jokers_total=0,
    ace_high_in_runs=False,
    allow_ace_both_ends=False,
    deadwood_ace=1,
    max_players=2,
)
"""Deadwood rules of two-player gin (one deck, no jokers, ace low only and worth 1) on the Viennese
engine: the rules under which rummykit is compared with OpenSpiel's and RLCard's gin utilities."""

MAX_ACTIONS_PER_ROUND = 20_000
"""Bound on actions in one random round; ``max_stock_rebuilds`` keeps real rounds far below it."""


class ConformanceError(AssertionError):
    """An engine invariant does not hold; the message names the round's seed and the action."""


@dataclass
class ConformanceReport:
    rounds: int = 0
    actions: int = 0
    terminations: Counter[str] = field(default_factory=Counter)


def _fail(rnd: Round, message: str) -> ConformanceError:
    return ConformanceError(f"{rnd.rules} players={rnd.seats} seed={rnd.seed} turn={rnd.turn}: {message}")


def check_invariants(rnd: Round) -> None:
    """Card conservation and view privacy for the current state."""
    deck = Counter(build_deck(rnd.rules.num_decks, rnd.rules.jokers_total))
    if Counter(rnd.all_cards()) != deck:
        raise _fail(rnd, "cards are not conserved")
    pending = rnd.pending_taken
    if pending is not None and not rnd.is_over and pending not in rnd.hands[rnd.to_move]:
        raise _fail(rnd, f"the taken discard {pending} left the hand but must still be laid")
    for seat in range(rnd.seats):
        view = rnd.view(seat)
        if sorted(view.hand) != sorted(rnd.hands[seat]):
            raise _fail(rnd, f"view of seat {seat} does not show its own hand")
        for other, shown in enumerate(view.revealed):
            hidden = other != seat and not rnd.is_over and other != rnd.knocker
            if hidden and shown is not None:
                raise _fail(rnd, f"view of seat {seat} shows the hand of seat {other}")


def _check_every_child(rnd: Round, actions: list[Action]) -> None:
    """While a taken discard must be laid, every offered action (not just the one played) must keep
    the round completable: its state still holds the invariants and offers a legal action."""
    for action in actions:
        child = rnd.child(action)
        check_invariants(child)
        if not child.is_over and not child.legal_actions():
            raise _fail(child, f"no legal action after {action}")


def _eager_choice(actions: list[Action], rng: random.Random) -> Action:
    """A random action of an eager player: take the discard when allowed, else lay cards (open, meld,
    lay off, exchange a joker) before drawing or discarding."""
    take = [a for a in actions if isinstance(a, TakeDiscard)]
    lay = [a for a in actions if not isinstance(a, (Draw, Discard, TakeDiscard))]
    return rng.choice(take or lay or actions)


def play_random_round(
    rnd: Round, rng: random.Random, report: ConformanceReport | None = None, *, eager: bool = False
) -> Round:
    """Play ``rnd`` to its end with uniformly random legal actions, checking every step. ``eager``
    players take the discard whenever allowed and lay cards before they discard, which reaches
    taken-discard obligations and joker exchanges far more often than uniform play."""
    for _ in range(MAX_ACTIONS_PER_ROUND):
        if rnd.is_over:
            break
        actions = rnd.legal_actions()
        if not actions:
            raise _fail(rnd, f"no legal action in phase {rnd.phase}")
        if rnd.pending_taken is not None:
            _check_every_child(rnd, actions)
        action = _eager_choice(actions, rng) if eager else rng.choice(actions)
        text = str(action)
        if Action.parse(text) != action:
            raise _fail(rnd, f"action text does not round-trip: {text!r}")
        rnd.check(action)
        rnd.apply(action)
        if report is not None:
            report.actions += 1
        check_invariants(rnd)
    else:
        raise _fail(rnd, f"the round did not end within {MAX_ACTIONS_PER_ROUND} actions")
    if rnd.legal_actions():
        raise _fail(rnd, "actions offered after the end")
    if rnd.phase is not Phase.OVER or rnd.result is None:
        raise _fail(rnd, "the round ended without a result")
    return rnd


def check_rules(
    rules: Rules,
    rounds: int = 50,
    seed: int = 0,
    players: tuple[int, ...] | None = None,
    *,
    eager: bool = False,
) -> ConformanceReport:
    """Play ``rounds`` random rounds of ``rules`` (player counts cycling through ``players``, by
    default every allowed count) and check every invariant; return counts of what was played.
    ``eager`` plays as :func:`play_random_round` describes.

    Raises:
        ConformanceError: an invariant does not hold.
    """
    counts = players or tuple(range(rules.min_players, rules.max_players + 1))
    rng = random.Random(seed)
    report = ConformanceReport()
    for i in range(rounds):
        n = counts[i % len(counts)]
        rnd = Round.new(rules, n, seed=rng.randrange(2**32), dealer=i % n)
        play_random_round(rnd, rng, report, eager=eager)
        replayed = Record.loads(Record.from_round(rnd).dumps()).replay()
        if [e.action for e in replayed.history] != [e.action for e in rnd.history] or any(
            replayed.view(s) != rnd.view(s) for s in range(n)
        ):
            raise _fail(rnd, "the record does not replay to the identical round")
        report.rounds += 1
        assert rnd.result is not None
        report.terminations[rnd.result.termination.value] += 1
    return report



__all__ = [
    "GIN_LIKE_RULES",
    "ConformanceError",
    "ConformanceReport",
    "arrange_deck",
    "check_invariants",
    "check_option_effects",
    "check_rules",
    "play_random_round",
]
