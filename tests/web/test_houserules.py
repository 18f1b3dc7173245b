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


def _in_use(preset: str, control: dict[str, Any]) -> rk.Rules:
    """The rules under which the lobby sends ``control``: the preset's, or for a control greyed out at
    the preset's settings (it matters only once another control is changed: gin's target score) the
    preset with the first other setting, not in its ``unused_when``, under which it matters."""
    rules = rk.Rules.preset(preset)
    if rules.not_applicable(control["option"]) is None:
        return rules
    for other in house_rules()[preset]:
        for value in _values(other):
            if {"option": other["option"], "value": value} in control["unused_when"]:
                continue
            try:
                changed = rules.replace(**{other["option"]: value})
            except rk.RulesError:
                continue
            if changed.not_applicable(control["option"]) is None:
                return changed
    raise AssertionError(f"{preset}: {control['option']} is greyed out whatever the other controls say")


@pytest.mark.parametrize("preset", rk.PRESET_NAMES)
def test_every_value_a_control_offers_is_accepted(preset: str) -> None:
    for control in house_rules()[preset]:
        rules = _in_use(preset, control)
        options = [v for v in _values(control) if v is not None or "unset" in control]
        accepted = 0
        for value in options:
            try:
                rules.replace(**{control["option"]: value})
                accepted += 1
            except rk.RulesError:
                assert control["kind"] == "int", (control["option"], value)  # a range end may be refused
        assert accepted, f"{preset}: {control['option']} offers no value the server takes"


def test_a_control_another_setting_brings_into_play_is_offered_greyed_out() -> None:
    """Gin is one hand, so its target score does not matter, and the lobby offered no control for it:
    a game to 100 was only for those who knew the raw ``option=value`` box. The match's end is a
    control now, and the controls it brings into play are shown, greyed out until it does."""
    gin = {c["option"]: c for c in house_rules()["gin"]}
    assert gin["match_end"]["value"] == "single_hand"
    assert "target_score" in [c["value"] for c in gin["match_end"]["choices"]]
    unused = gin["target_score"]["unused_when"]
    assert {"option": "match_end", "value": "single_hand"} in unused
    assert {"option": "match_end", "value": "target_score"} not in unused
    assert gin["target_score"]["value"] == 100
    rk.Rules.preset("gin").replace(match_end="target_score", target_score=250)
    german = {c["option"]: c for c in house_rules()["german"]}
    assert {"option": "match_end", "value": "fixed_hands"} in german["penalty_limit"]["unused_when"]
    assert {"option": "match_end", "value": "penalty_limit"} in german["num_hands"]["unused_when"]


def test_gin_offers_its_own_knock_limit_and_bonuses_in_words() -> None:
    """Gin knocks by ``knock_card`` (``knock_threshold`` stays 10): the lobby offers the knock card,
    Oklahoma and the two bonuses, and its first upcard in words."""
    controls = {c["option"]: c for c in house_rules()["gin"]}
    assert list(controls)[:6] == [
        "start_mode", "knock_card", "oklahoma", "oklahoma_spade_doubles", "gin_bonus", "undercut_bonus"
    ]
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
    """``unused_when`` comes from the engine's ``not_applicable``: gin's knock limit under Oklahoma, the
    spade doubling without it, and otherwise the match's length and limits, gin's end-of-game bonuses,
    and a rubber's chips, by the match's end."""
    bonuses = ("box_bonus", "game_bonus", "shutout_doubles")
    chips = ("pot_ante", "knock_money", "buyback_cost")
    series = ("num_hands", "unscored_hand", "penalty_limit", "match_tiebreak", "target_score")
    by_match_end = (*series, *bonuses, *chips)
    unused = {
        (preset, c["option"]): c["unused_when"]
        for preset, cs in house_rules().items()
        for c in cs
        if c["unused_when"] and c["option"] not in by_match_end
    }
    assert unused == {
        ("gin", "knock_card"): [{"option": "oklahoma", "value": True}],
        ("gin", "oklahoma_spade_doubles"): [{"option": "oklahoma", "value": False}],  # Oklahoma's own
    }
    for preset, cs in house_rules().items():
        for c in cs:
            if c["option"] in by_match_end:
                assert {w["option"] for w in c["unused_when"]} == {"match_end"}, (preset, c)
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


def _changeable(rules: rk.Rules, option: str) -> bool:
    """Whether ``rules`` accept some other value of ``option`` (a control would have something to send)."""
    from typing import get_args, get_type_hints

    from rummykit.rules import OPTION_RANGES

    current = getattr(rules, option)
    kind = get_type_hints(rk.Rules)[option]
    if kind is bool:
        others: list[Any] = [not current]
    elif option in OPTION_RANGES:
        low, high = OPTION_RANGES[option]
        others = list(range(low, high + 1))
    else:
        others = [v for v in get_args(kind) if isinstance(v, str)]
    return any(rules.accepts(option, v) for v in others if v != current)


@pytest.mark.parametrize("preset", rk.PRESET_NAMES)
def test_every_house_rule_gets_a_control_wherever_it_applies(preset: str) -> None:
    """An option of ``HOUSE_RULES`` that applies to a preset and may take another value there gets a
    control; a number whose preset value is ``None`` shows the words of ``_UNSET`` in its empty field
    (only an option whose ``None`` is the other family of game, ``_NONE_IS_ANOTHER_GAME``, has none)."""
    from rummykit.web.houserules import _NONE_IS_ANOTHER_GAME, _UNSET, HOUSE_RULES

    rules = rk.Rules.preset(preset)
    offered = {c["option"]: c for c in house_rules()[preset]}
    for option in HOUSE_RULES:
        if rules.not_applicable(option) is not None or not _changeable(rules, option):
            continue
        if getattr(rules, option) is None and option in _NONE_IS_ANOTHER_GAME:
            assert option not in offered, (preset, option)
            continue
        assert option in offered, (
            f"{preset}: {option} applies and may change, but the lobby offers no control for it: a number "
            "whose preset value is None needs the words of its empty field in _UNSET "
            "(src/rummykit/web/houserules.py)"
        )
        if getattr(rules, option) is None:
            assert offered[option]["unset"] == dict(zip(("en", "de"), _UNSET[option], strict=True))


def test_a_house_rule_that_may_be_none_without_words_is_an_error_at_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Listing a ``None``-able number in ``HOUSE_RULES`` without ``_UNSET`` words fails at import
    (it used to drop the control silently for every preset whose value is ``None``)."""
    from rummykit.web import houserules

    listed = houserules.HOUSE_RULES
    monkeypatch.setattr(houserules, "HOUSE_RULES", (*listed, "max_stock_rebuilds"))
    with pytest.raises(RuntimeError, match="max_stock_rebuilds may be None: say what its empty field means"):
        houserules._check_house_rules()
    monkeypatch.setattr(houserules, "HOUSE_RULES", (*listed, "no_such_option"))
    with pytest.raises(RuntimeError, match="'no_such_option' is not a rule option"):
        houserules._check_house_rules()
