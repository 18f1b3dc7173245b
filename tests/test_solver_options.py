"""The solver's cache key (``MELD_OPTIONS``) cannot silently miss an option that changes its answers.

Two guarantees: the meld rules themselves (``rummykit.melds``, which the brute-force references of
``test_solver.py`` use) read no option outside ``MELD_OPTIONS`` apart from ones the rules refuse to
enable; and varying every other option of every preset leaves every cached solver answer unchanged,
on every backend.
"""

from __future__ import annotations

import ast
import random
import typing
from dataclasses import fields
from pathlib import Path

import pytest

import rummykit.melds
from rummykit import solver
from rummykit.cards import build_deck
from rummykit.errors import RulesError
from rummykit.rules import OPTION_RANGES, PRESET_NAMES, Rules
from rummykit.solver import backend
from rummykit.solver.tables import MELD_OPTIONS, meld_options

REFUSED: typing.Final = {"run_wraparound": False}
"""Meld options the rules accept only at this value (round-the-corner runs are refused)."""


def rules_attributes(path: Path) -> set[str]:
    """Names ``x`` of every ``rules.x`` read in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "rules"
    }


def test_meld_rules_read_only_meld_options() -> None:
    read = rules_attributes(Path(rummykit.melds.__file__))
    option_names = {f.name for f in fields(Rules)}
    assert read & option_names <= set(MELD_OPTIONS) | set(REFUSED)
    assert set(MELD_OPTIONS) <= option_names
    for name, value in REFUSED.items():
        with pytest.raises(RulesError):
            Rules.preset("german").replace(**{name: not value})


def test_candidate_code_reads_only_meld_options() -> None:
    """The cached parts of the solver (tables, candidates, searches) read no other option; the knock
    race reads its knock options with every call and caches nothing by them."""
    package = Path(solver.__file__).parent
    read: set[str] = set()
    for name in ("tables.py", "candidates.py", "cover.py", "python_backend.py", "native.py"):
        read |= rules_attributes(package / name)
    option_names = {f.name for f in fields(Rules)}
    assert read & option_names <= set(MELD_OPTIONS) | {"knock_threshold", "knock_comparison"}


def other_values(rules: Rules, name: str) -> list[object]:
    """Values of option ``name`` different from the one ``rules`` has (a few per option)."""
    current = getattr(rules, name)
    hint = typing.get_type_hints(Rules)[name]
    args = typing.get_args(hint)
    found: list[object] = []
    if hint is bool:
        found = [not current]
    elif typing.get_origin(hint) is typing.Literal:
        found = list(args)
    elif name in OPTION_RANGES and isinstance(current, (int, type(None))):
        low, high = OPTION_RANGES[name]
        found = [low, high, (low + high) // 2]
        if type(None) in args:
            found.append(None)
    elif typing.get_origin(hint) is typing.Union or type(None) in args:
        literal = [a for a in args if typing.get_origin(a) is typing.Literal]
        found = [v for lit in literal for v in typing.get_args(lit)] + [None]
    return [v for v in found if v != current]


def answers(rules: Rules, hands: list[list[int]]) -> list[object]:
    solver.clear_caches()
    out: list[object] = []
    for hand in hands:
        out.append(solver.min_deadwood(hand, rules))
        out.append(solver.best_discards(hand, rules))
        out.append(solver.max_opening_value(hand, rules, keep_one=True))
        out.append(solver.max_opening_value(hand, rules, keep_one=False))
        out.append(solver.best_arrangement(hand, rules))
        out.append(solver.all_melds(hand, rules))
    return out


@pytest.mark.parametrize("name", sorted(backend.available()))
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_other_options_change_no_answer(preset: str, name: str) -> None:
    base = Rules.preset(preset)
    rng = random.Random(preset)
    deck = list(build_deck(base.num_decks, base.jokers_total))
    hands = [rng.sample(deck, rng.choice((4, 7, 10, 11, 14))) for _ in range(8)]
    varied = 0
    with backend.use(name):
        expected = answers(base, hands)
        for f in fields(Rules):
            if f.name in MELD_OPTIONS or f.name == "name":
                continue
            for value in other_values(base, f.name):
                try:
                    changed = base.replace(**{f.name: value})
                except RulesError:
                    continue  # not a valid rule set together with the preset's other options
                assert meld_options(changed) == meld_options(base)
                assert answers(changed, hands) == expected, f"{f.name}={value!r} changed a solver answer"
                varied += 1
    # Most options do vary on every preset; gin refuses the many it cannot play (jokers, two packs …).
    assert varied >= (25 if base.is_gin else 40)
