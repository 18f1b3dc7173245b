"""The engine's fast paths against the plain ones they stand for.

* An action taken from ``legal_actions()`` (the very object) is applied without a second check
  (``plan_offered``); the same action given as a fresh, equal object takes the checked path. Both
  must leave the same state and record the same events, move for move, in every family.
* :func:`rummykit.events.record` builds the same frozen :class:`Event` as its constructor.
* ``Hand.plus`` / ``Hand.minus`` (written out for speed) against ``copy()`` with ``add`` / ``remove``.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

import rummykit as rk
from rummykit.actions import Action, Draw
from rummykit.cards import NUM_CODES, Card, Hand
from rummykit.events import Event, record

PRESETS = [
    ("gin", 2), ("viennese", 2), ("viennese", 4), ("romme_ohne_auslegen", 3), ("german", 4), ("scala40", 3),
]


def _fresh(action: Action) -> Action:
    """An equal action that is not the offered object (so the round checks it)."""
    again = Action.parse(str(action))
    assert again == action
    return again


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_offered_and_checked_apply_agree(preset: str, players: int) -> None:
    rules = rk.Rules.preset(preset)
    rng = random.Random(f"hot-{preset}-{players}")
    for hand in range(12):
        seed = rng.randrange(2**32)
        fast = rk.Round.new(rules, players, seed=seed)
        slow = rk.Round.new(rules, players, seed=seed)
        while not fast.is_over:
            offered = fast.legal_actions()
            assert offered == slow.legal_actions()
            action = rng.choice(offered)
            e1 = fast.apply(action)
            e2 = slow.apply(_fresh(action))
            assert e1 == e2
            assert fast.state() == slow.state(), f"{preset} hand {hand}: {action}"
            assert fast.view(fast.to_move if not fast.is_over else 0) == slow.view(
                slow.to_move if not slow.is_over else 0
            )
        assert fast.result == slow.result
        assert fast.history == slow.history


def test_record_builds_the_frozen_event() -> None:
    steps = (rk.events.HandEnded(rk.views.Termination.KNOCK, 1, (3, -3)),)
    for args in ((0, 1, Draw(), 0), (7, 0, Draw(), 3, Card(5), steps)):
        built = record(*args)  # type: ignore[arg-type]
        plain = Event(*args)  # type: ignore[arg-type]
        assert type(built) is Event
        assert built == plain and hash(built) == hash(plain) and repr(built) == repr(plain)
        assert dataclasses.astuple(built) == dataclasses.astuple(plain)
        with pytest.raises(dataclasses.FrozenInstanceError):
            built.seat = 3  # type: ignore[misc]


def test_hand_plus_and_minus_match_copy_add_remove() -> None:
    rng = random.Random(11)
    for _ in range(400):
        cards = [rng.randrange(NUM_CODES) for _ in range(rng.randrange(0, 15))]
        hand = Hand(cards)
        if rng.random() < 0.5:
            hand.cards()  # with and without the kept card order
        card = rng.randrange(NUM_CODES)
        expected = hand.copy()
        expected.add(card)
        got = hand.plus(card)
        assert got == expected and len(got) == len(expected) and got.cards() == Hand(got).cards()
        if card in hand:
            expected = hand.copy()
            expected.remove(card)
            got = hand.minus(card)
            assert got == expected and len(got) == len(expected) and got.cards() == Hand(got).cards()
        else:
            with pytest.raises(KeyError):
                hand.minus(card)
