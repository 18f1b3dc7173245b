"""The grouped views of a rule set (``rules.melds`` …), the preset tables and the option types."""

from __future__ import annotations

import dataclasses
from typing import Literal, Optional, get_type_hints

import pytest

from rummykit import presets
from rummykit.errors import RulesError
from rummykit.rules import GIN_OPTIONS, OPTION_TYPES, PRESET_NAMES, SUB_RECORDS, GinRules, Rules
from rummykit.rules_text import OptionType
from rummykit.solver.tables import MELD_OPTIONS, meld_options

RULE_HINTS = get_type_hints(Rules)


@pytest.mark.parametrize("group", sorted(SUB_RECORDS))
def test_every_sub_record_field_is_the_option_of_that_name(group: str) -> None:
    record_type = SUB_RECORDS[group]
    hints = get_type_hints(record_type)
    assert hints, group
    for name, hint in hints.items():
        assert RULE_HINTS[name] == hint, (group, name)
    for preset in PRESET_NAMES:
        rules = Rules.preset(preset)
        record = getattr(rules, group)
        assert isinstance(record, record_type)
        assert {n: getattr(record, n) for n in hints} == {n: getattr(rules, n) for n in hints}


def test_sub_records_are_frozen_and_follow_replace() -> None:
    rules = Rules.preset("german")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.melds.set_size_max = 5  # type: ignore[misc]
    changed = rules.replace(max_adjacent_jokers=None, penalty_joker=20)
    assert changed.melds.max_adjacent_jokers is None and rules.melds.max_adjacent_jokers == 2
    assert changed.scoring.penalty_joker == 20
    assert changed.melds != rules.melds and hash(changed.melds) != hash(rules.melds)
    assert rules.replace(penalty_joker=20).melds == rules.melds


def test_solver_key_and_gin_options_come_from_their_sub_records() -> None:
    assert tuple(f.name for f in dataclasses.fields(SUB_RECORDS["melds"])) == MELD_OPTIONS
    assert tuple(f.name for f in dataclasses.fields(GinRules)) == GIN_OPTIONS
    rules = Rules.preset("viennese")
    assert meld_options(rules) == rules.melds


def test_preset_tables_name_real_options_on_earlier_bases() -> None:
    seen: list[str] = []
    for name, (base, changes) in presets.PRESETS.items():
        assert base is None or base in seen, name
        assert set(changes) <= set(OPTION_TYPES) - {"name"}, name
        seen.append(name)
    assert tuple(seen) == PRESET_NAMES
    assert set(presets.ALIASES) <= set(PRESET_NAMES)
    for name, aliases in presets.ALIASES.items():
        for alias in aliases:
            assert Rules.preset(alias).name == name


def test_a_preset_is_its_base_with_the_changes_applied() -> None:
    viennese = Rules.preset("viennese")
    assert viennese.knock_threshold == 5 and viennese.opening_min_points is None
    roa = Rules.preset("romme_ohne_auslegen")
    # romme_ohne_auslegen is viennese with its own changes; what it does not change stays viennese.
    assert roa.penalty_joker == 30 and roa.knock_comparison == viennese.knock_comparison
    assert roa.hand_scoring == viennese.hand_scoring == "deadwood_all"


def test_option_types_read_from_annotations() -> None:
    assert OPTION_TYPES["max_stock_rebuilds"] == OptionType("int", optional=True)
    assert OPTION_TYPES["buyback_window"] == OptionType("pair")
    assert OPTION_TYPES["oklahoma"] == OptionType("bool")
    assert OPTION_TYPES["seat_draw"] == OptionType("choice", choices=("high_card", "random"))
    assert OPTION_TYPES["name"] == OptionType("text")
    assert set(OPTION_TYPES) == {f.name for f in dataclasses.fields(Rules)}


@pytest.mark.parametrize("hint", [float, int | str, list[int], tuple[int, int, int]])
def test_an_option_type_without_a_written_form_is_refused(hint: object) -> None:
    with pytest.raises(TypeError):
        OptionType.of(hint)


def test_optional_choice_reads_none() -> None:
    kind = OptionType.of(Optional[Literal["a", "b"]])  # noqa: UP045 (the typing.Union form)
    assert kind == OptionType("choice", optional=True, choices=("a", "b"))


def test_text_form_errors_name_the_option() -> None:
    with pytest.raises(RulesError, match="knock_extra_turn must be true or false") as info:
        Rules.parse("viennese(knock_extra_turn=maybe)")
    assert info.value.option == "knock_extra_turn"
    with pytest.raises(RulesError, match="unknown rule option 'nonsense'"):
        Rules.parse("german(nonsense=1)")
