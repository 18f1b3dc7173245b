"""Golden playthroughs that print the legal actions: one seeded round per preset, compared with
``tests/golden/legal/*.txt``.

Each line is one position: the number of actions so far, the seat to move, the phase, every action
``legal_actions()`` offers there in its order, and the one played. The actions are picked by
``random.Random(seed)`` among the table actions and calls (open, meld, lay off, exchange a joker,
knock, Rummy) when there are any, else among all, so openings, lay-offs, joker exchanges and the
knock's extra turns appear early. A change in what is
offered, or in which order, shows up as a diff of these files.

After a deliberate engine change, rewrite the files and review the diff::

    RUMMYKIT_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_legal_golden.py
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from rummykit import Round, Rules
from rummykit.actions import CallRummy, Knock, LayOff, MeldAction, Open, Swap

GOLDEN = Path(__file__).parent / "golden" / "legal"
REGEN = os.environ.get("RUMMYKIT_REGEN_GOLDEN") == "1"
MAX_ACTIONS = 80
"""Positions per file: enough for openings, lay-offs and exchanges, short enough to review."""

PREFERRED = (Open, MeldAction, LayOff, Swap, Knock, CallRummy)
"""Actions picked first when offered: the table fills and knock games reach the showdown."""

CASES = [
    ("german", 5, 3),
    ("german_dskv", 2, 4),
    ("viennese", 5, 3),
    ("romme_ohne_auslegen", 6, 2),
    ("scala40", 6, 3),
    ("basic", 7, 2),
]


def legal_playthrough(preset: str, seed: int, players: int) -> str:
    rules = Rules.preset(preset)
    rnd = Round.new(rules, players, seed=seed, dealer=0)
    rng = random.Random(seed)
    lines = [
        "# rummykit legal-action golden; regenerate: RUMMYKIT_REGEN_GOLDEN=1 (tests/test_legal_golden.py)",
        f"rules: {rules}",
        f"seed: {seed}",
        f"players: {players}",
    ]
    for number in range(MAX_ACTIONS):
        if rnd.is_over:
            break
        legal = rnd.legal_actions()
        table = [a for a in legal if isinstance(a, PREFERRED)]
        action = rng.choice(table or legal)
        offered = " | ".join(str(a) for a in legal)
        lines.append(f"{number}. seat {rnd.to_move} {rnd.phase.value}: {offered} -> {action}")
        rnd.apply(action)
    result = rnd.result
    lines.append("over: -" if result is None else f"over: {result.termination.value} points {result.points}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("preset", "seed", "players"), CASES, ids=[f"{p}_seed{s}" for p, s, _ in CASES])
def test_legal_actions_golden(preset: str, seed: int, players: int) -> None:
    path = GOLDEN / f"{preset}_seed{seed}.txt"
    text = legal_playthrough(preset, seed, players)
    if REGEN:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path.name} is missing; create it with RUMMYKIT_REGEN_GOLDEN=1"
    expected = path.read_text(encoding="utf-8").splitlines()
    for i, (got, want) in enumerate(zip(text.splitlines(), expected, strict=True)):
        assert got == want, f"{path.name} line {i + 1} differs"
