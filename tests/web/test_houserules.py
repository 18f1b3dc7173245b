"""The lobby's house-rule controls (``rummykit.web.houserules``): every value a control can send is
one the server accepts, and every label and choice is in words."""

from __future__ import annotations

from typing import Any

import pytest

import rummykit as rk
from rummykit.web.houserules import house_rules


def _values(control: dict[str, Any]) -> list[Any]:
    """The values a player can send with ``control`` other than the preset's own."""
    if control["kind"] == "bool":
        values: list[Any] = [not control["value"]]
    elif control["kind"] == "int":
        middle = (control["min"] + control["max"]) // 2  # a range end may be refused (basic: 120 points)
        values = [control["min"], middle, control["max"]] + ([None] if "unset" in control else [])
    else:
        values = [c["value"] for c in control["choices"]]
    return [v for v in values if v != control["value"]]


@pytest.mark.parametrize("preset", rk.PRESET_NAMES)
def test_every_value_a_control_offers_is_accepted(preset: str) -> None:
    rules = rk.Rules.preset(preset)
    for control in house_rules()[preset]:
        options = [v for v in _values(control) if v is not None or "unset" in control]
        accepted = 0
        for value in options:
            try:
                rules.replace(**{control["option"]: value})
                accepted += 1
            except rk.RulesError:
                assert control["kind"] == "int", (control["option"], value)  # a range end may be refused
        assert accepted, f"{preset}: {control['option']} offers no value the server takes"


def test_gin_offers_its_own_knock_limit_and_bonuses_in_words() -> None:
    """Gin knocks by ``knock_card`` (``knock_threshold`` stays 10): the lobby offers the knock card,
    Oklahoma and the two bonuses, and its first upcard in words."""
    controls = {c["option"]: c for c in house_rules()["gin"]}
    assert list(controls) == ["start_mode", "knock_card", "oklahoma", "gin_bonus", "undercut_bonus"]
    assert controls["knock_card"]["label"]["de"] == "Klopfgrenze (Restpunkte)"
    words = [c["label"]["de"] for c in controls["start_mode"]["choices"]]
    assert words == [
        "Ablage beginnt mit offener Karte",
        "offene Karte wird beiden angeboten",
    ]
    for preset, controls_of in house_rules().items():
        for control in controls_of:
            for lang in ("en", "de"):
                assert "_" not in control["label"][lang], (preset, control["option"])


@pytest.mark.parametrize(
    ("preset", "en", "de"),
    [
        ("german", "Hand-Rommé multiplier", "Faktor bei Hand-Rommé"),
        ("scala40", "in mano multiplier", "Faktor bei „in mano“"),
        ("basic", "rummy multiplier", "Faktor bei Rummy"),
    ],
)
def test_going_out_at_once_is_named_as_the_game_names_it(preset: str, en: str, de: str) -> None:
    """Hand-Rommé is German Rummy's word: Scala 40 says "in mano", Basic Rummy "rummy"."""
    controls = {c["option"]: c for c in house_rules()[preset]}
    assert controls["hand_romme_multiplier"]["label"] == {"en": en, "de": de}


def test_a_control_that_another_setting_makes_moot_says_so() -> None:
    """``unused_when`` comes from the engine's ``not_applicable``: gin's knock limit under Oklahoma, and
    nothing in the other presets."""
    unused = {
        (preset, c["option"]): c["unused_when"]
        for preset, cs in house_rules().items()
        for c in cs
        if c["unused_when"]
    }
    assert unused == {("gin", "knock_card"): [{"option": "oklahoma", "value": True}]}
    with pytest.raises(rk.RulesError, match="oklahoma sets the knock card"):
        rk.Rules.preset("gin").replace(oklahoma=True, knock_card=5)


def test_the_raw_boxs_example_is_accepted_by_every_preset() -> None:
    """The lobby's ``option=value`` box shows an example per game; the old fixed one,
    ``opening_min_points=30``, was refused at every knock-game table."""
    from rummykit.web.houserules import advanced_examples

    examples = advanced_examples()
    assert set(examples) == set(rk.PRESET_NAMES)
    for preset, line in examples.items():
        rules = rk.Rules.parse(f"{preset}({line})")
        assert rules != rk.Rules.preset(preset), (preset, line)  # it changes something
    assert examples["gin"] == "undercut_on_tie=true"
