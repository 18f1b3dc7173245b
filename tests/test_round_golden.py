"""Golden playthroughs: seeded random rounds of every preset, compared with ``tests/golden/*.txt``.

Each file holds the rules, seed and players, then one line per applied action: the acting seat, the
action text and the public state after it (hand sizes, top discard, stock size, table melds), and
the result. Actions are chosen by ``random.Random(seed)`` from ``legal_actions()``, so any change in
dealing, legality, enumeration order or scoring shows up as a diff.

After a deliberate engine change, rewrite the files and review the diff::

    RUMMYKIT_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_round_golden.py
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from rummykit import Round, Rules

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("RUMMYKIT_REGEN_GOLDEN") == "1"
MAX_ACTIONS = 5000

# (preset, seed, players): two rounds per preset, a small and a larger table. Seeds were picked for
# rounds of moderate length that end in each family's typical ways (going out, Rummy, knock with the
# extra turns).
CASES = [
    ("german", 1, 2),
    ("german", 7, 4),
    ("german_dskv", 4, 3),
    ("german_dskv", 5, 4),
    ("scala40", 2, 2),
    ("scala40", 6, 4),
    ("basic", 8, 2),
    ("basic", 1, 4),
    ("viennese", 32, 2),
    ("viennese", 24, 4),
    ("romme_ohne_auslegen", 5, 2),
    ("romme_ohne_auslegen", 3, 4),
]


def _nums(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(v) for v in values)


def public_state(rnd: Round) -> str:
    """One line of what every seat can see: hand sizes, top discard, stock size, table melds."""
    view = rnd.view(rnd.dealer)
    top = view.top_discard
    melds = "; ".join(f"[{i}] {tm.meld}" for i, tm in enumerate(view.melds, start=1)) or "-"
    shown = "-" if top is None else str(top)
    return f"hands {_nums(view.hand_sizes)} | top {shown} | stock {view.stock_size} | table {melds}"


def playthrough(preset: str, seed: int, players: int) -> str:
    """The golden text of the round ``preset``/``seed``/``players``, played by ``random.Random(seed)``."""
    rules = Rules.preset(preset)
    rnd = Round.new(rules, players, seed=seed, dealer=0)
    rng = random.Random(seed)
    lines = [
        "# rummykit golden playthrough; regenerate with RUMMYKIT_REGEN_GOLDEN=1 (tests/test_round_golden.py)",
        f"rules: {rules}",
        f"seed: {seed}",
        f"players: {players}",
        f"dealer: {rnd.dealer}",
        f"active: {_nums(rnd.active)}",
        f"deal: to_move {rnd.to_move} | phase {rnd.phase.value} | {public_state(rnd)}",
    ]
    for number in range(1, MAX_ACTIONS + 1):
        if rnd.is_over:
            break
        seat = rnd.to_move
        action = rng.choice(rnd.legal_actions())
        rnd.apply(action)
        lines.append(f"{number}. seat {seat}: {action} | {public_state(rnd)}")
    result = rnd.result
    assert result is not None, "the round did not end"
    winner = "-" if result.winner is None else str(result.winner)
    lines += [
        f"result: {result.termination.value} | winner {winner} | multiplier {result.multiplier}",
        f"points: {_nums(result.points)}",
        f"penalties: {_nums(result.penalties)}",
        f"gains: {_nums(result.gains)}",
        f"hand values: {_nums(result.hand_values)}",
    ]
    if rnd.face_down is not None:
        lines.append(f"face down: {rnd.face_down}")
    for seat, shown in enumerate(result.arrangements):
        if shown is not None:
            melds = " | ".join(str(m) for m in shown.melds) or "-"
            dead = " ".join(str(c) for c in shown.deadwood_cards) or "-"
            lines.append(f"shown by seat {seat}: {melds} || deadwood {dead} = {shown.deadwood}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("preset", "seed", "players"), CASES, ids=[f"{p}_seed{s}" for p, s, _ in CASES])
def test_golden_playthrough(preset: str, seed: int, players: int) -> None:
    path = GOLDEN / f"{preset}_seed{seed}.txt"
    text = playthrough(preset, seed, players)
    if REGEN:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path.name} is missing; create it with RUMMYKIT_REGEN_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        got, want = text.splitlines(), expected.splitlines()
        first = next(
            (i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want))
        )
        pytest.fail(
            f"{path.name} differs from line {first + 1}:\n"
            f"  expected: {want[first] if first < len(want) else '<end of file>'}\n"
            f"  got:      {got[first] if first < len(got) else '<end of text>'}\n"
            "If the engine changed on purpose, rerun with RUMMYKIT_REGEN_GOLDEN=1 and review the diff."
        )


def test_playthrough_is_deterministic() -> None:
    assert playthrough("german", 1, 2) == playthrough("german", 1, 2)
