"""Perft: legal-action counts from fixed positions of every preset, as python-chess checks move
generation.

A position is a seeded deal (dealer 0) played forward for ``plies`` actions by ``random.Random(seed)``,
which picks among the table actions (open, meld, lay off, exchange a joker) when there are any, so
the table fills, and among all legal actions otherwise. ``perft(d)`` counts the action sequences
of length ``d`` from there (a finished hand counts once). Any change in legality, enumeration or
dealing moves a number; the counts also exercise ``Round.child`` on every branch.
"""

from __future__ import annotations

import random

import pytest

from rummykit import Round, Rules
from rummykit.actions import LayOff, MeldAction, Open, Swap
from rummykit.rules import PRESET_NAMES

# (preset, seed, players, plies, phase, (perft 1, perft 2, perft 3))
POSITIONS = [
    ("german", 3, 3, 1, "play", (14, 31, 361)),
    ("german", 3, 3, 21, "play", (2, 4, 28)),
    ("german", 11, 4, 41, "play", (9, 18, 215)),
    ("german", 11, 4, 61, "draw", (2, 13, 26)),
    ("german_dskv", 3, 3, 1, "play", (21, 104, 534)),
    ("german_dskv", 3, 3, 21, "play", (8, 16, 164)),
    ("german_dskv", 11, 4, 41, "play", (1, 2, 28)),
    ("german_dskv", 11, 4, 61, "play", (9, 28, 78)),
    ("viennese", 3, 3, 1, "draw", (2, 19, 38)),
    ("viennese", 3, 3, 21, "draw", (2, 21, 42)),
    ("viennese", 11, 4, 41, "draw", (2, 21, 42)),
    ("viennese", 11, 4, 61, "draw", (2, 18, 36)),
    ("romme_ohne_auslegen", 3, 3, 1, "discard", (12, 24, 298)),
    ("romme_ohne_auslegen", 3, 3, 21, "discard", (13, 26, 348)),
    ("romme_ohne_auslegen", 11, 4, 41, "discard", (12, 24, 300)),
    ("romme_ohne_auslegen", 11, 4, 61, "discard", (12, 24, 275)),
    ("scala40", 3, 3, 1, "play", (13, 25, 214)),
    ("scala40", 3, 3, 21, "draw", (1, 7, 14)),
    ("scala40", 11, 4, 41, "draw", (1, 4, 4)),
    ("scala40", 11, 4, 61, "draw", (1, 10, 10)),
    ("basic", 3, 3, 1, "play", (17, 66, 244)),
    ("basic", 3, 3, 21, "play", (2, 4, 14)),
    ("basic", 11, 4, 41, "draw", (2, 9, 18)),
    ("basic", 11, 4, 61, "draw", (2, 7, 14)),
    ("gin", 5, 2, 2, "first_upcard", (1, 11, 22)),
    ("gin", 3, 2, 1, "discard", (11, 22, 242)),
    ("gin", 3, 2, 21, "discard", (11, 22, 242)),
    ("gin", 11, 2, 61, "discard", (11, 22, 243)),
]


def position(preset: str, seed: int, players: int, plies: int) -> Round:
    rnd = Round.new(Rules.preset(preset), players, seed=seed, dealer=0)
    rng = random.Random(seed)
    for _ in range(plies):
        legal = rnd.legal_actions()
        table = [a for a in legal if isinstance(a, (Open, MeldAction, LayOff, Swap))]
        rnd.apply(rng.choice(table or legal))
    return rnd


def perft(rnd: Round, depth: int) -> int:
    if depth == 0 or rnd.is_over:
        return 1
    legal = rnd.legal_actions()
    if depth == 1:
        return len(legal)
    return sum(perft(rnd.child(action), depth - 1) for action in legal)


def test_every_preset_has_positions() -> None:
    assert {p[0] for p in POSITIONS} == set(PRESET_NAMES)


@pytest.mark.parametrize(
    ("preset", "seed", "players", "plies", "phase", "counts"),
    POSITIONS,
    ids=[f"{p}-{s}-{n}p-{k}" for p, s, n, k, _, _ in POSITIONS],
)
def test_perft(preset: str, seed: int, players: int, plies: int, phase: str, counts: tuple[int, ...]) -> None:
    rnd = position(preset, seed, players, plies)
    assert rnd.phase.value == phase
    before = rnd.state()
    assert tuple(perft(rnd, depth) for depth in range(1, len(counts) + 1)) == counts
    assert rnd.state() == before  # counting played only on children
