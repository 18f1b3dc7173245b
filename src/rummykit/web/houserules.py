"""The house rules the lobby offers as controls: the options players change, with ranges and words.

For every preset, :func:`house_rules` lists the options of :data:`HOUSE_RULES` that matter under
it (:meth:`Rules.not_applicable`), each with its label in English and German (the rules pages'
words, :mod:`rummykit.explain.terms`), its preset value, and what it may take: the inclusive range
of :data:`rummykit.rules.OPTION_RANGES` for a number, ``true``/``false`` for a switch, and for a
choice the values this preset accepts (each tried through :meth:`Rules.replace`, so the lobby never
offers a value the server would refuse). Anything else stays in the raw ``option=value`` box.
"""

from __future__ import annotations

import dataclasses
import typing
from functools import lru_cache
from typing import Any, Final, get_args

from rummykit.errors import RulesError
from rummykit.explain.language import LANGUAGES, Lang
from rummykit.explain.terms import OPTION_LABELS, hand_out_name, value_words
from rummykit.rules import OPTION_RANGES, PRESET_NAMES, Rules

HOUSE_RULES: Final = (
    "opening_min_points",
    "start_mode",
    "joker_exchange",
    "discard_pickup_requires_meld",
    "hand_romme_multiplier",
    "knock_threshold",
    "knock_card",
    "oklahoma",
    "oklahoma_spade_doubles",
    "gin_bonus",
    "undercut_bonus",
    "big_gin_bonus",
    "rummy_multiplier",
    "pot_ante",
    "knock_money",
    "buyback_cost",
    "match_end",
    "num_hands",
    "unscored_hand",
    "penalty_limit",
    "match_tiebreak",
    "target_score",
    "box_bonus",
    "game_bonus",
    "shutout_doubles",
)
"""The options players change most, in the order the lobby shows them."""

ADVANCED_EXAMPLES: Final = (
    ("penalty_joker", 20),
    ("max_stock_rebuilds", 2),
    ("deadwood_joker", 25),
    ("undercut_on_tie", True),
)
"""Candidates for the example in the lobby's raw ``option=value`` box, in order: the first one a
preset accepts (and offers no control for) is shown, so following the example never fails."""

__all__ = ["ADVANCED_EXAMPLES", "HOUSE_RULES", "advanced_examples", "house_rules"]

_HINTS: Final = typing.get_type_hints(Rules)
_FIELDS: Final = frozenset(f.name for f in dataclasses.fields(Rules))
_UNSET: Final = {
    "num_hands": ("one per player", "einmal pro Spieler"),
    "big_gin_bonus": ("no big gin", "kein großes Gin"),
}
"""What an empty number field means (English, German), for numeric options whose preset value is
``None``: the field shows it and sends ``None``. Short words: they must fit a phone's field."""

_NONE_IS_ANOTHER_GAME: Final = frozenset({"opening_min_points", "knock_threshold"})
"""Numeric options whose ``None`` is the other family of game (a knock game has no opening minimum, a
melding game no knock limit): where the preset's value is ``None`` the lobby offers no control, and
the raw ``option=value`` box takes the change."""


def _check_house_rules() -> None:
    """Every entry of :data:`HOUSE_RULES` is an option, and one that may be ``None`` says what ``None``
    shows in the lobby: a house rule without either would lose its control in every preset whose
    value is ``None``, without a word (checked at import, so the mistake cannot go unnoticed)."""
    where = "src/rummykit/web/houserules.py HOUSE_RULES"
    for option in HOUSE_RULES:
        if option not in _FIELDS:
            raise RuntimeError(f"{where}: {option!r} is not a rule option")
        told = option in _UNSET or option in _NONE_IS_ANOTHER_GAME
        if type(None) in get_args(_HINTS[option]) and not told:
            raise RuntimeError(
                f"{where}: {option} may be None: say what its empty field means in _UNSET "
                f"({option!r}: (English, German), short enough for a phone's field), or list it in "
                "_NONE_IS_ANOTHER_GAME if None is the other family of game; else the lobby drops its "
                "control wherever the preset's value is None"
            )


_check_house_rules()


def _labels(option: str, rules: Rules) -> dict[str, str]:
    """The option's label in every language, going out at once named as the game names it ("rummy
    multiplier" in Basic Rummy, "in mano" in Scala 40; :func:`hand_out_name`)."""
    en, de = OPTION_LABELS.get(option, (option, option))
    return {
        "en": en.replace("Hand-Rommé", hand_out_name(rules, Lang("en"))),
        "de": de.replace("Hand-Rommé", hand_out_name(rules, Lang("de"))),
    }


def _words(option: str, value: Any) -> dict[str, str]:
    return {lang: value_words(option, value, Lang(lang)).strip("`") for lang in LANGUAGES}


def _control(rules: Rules, option: str) -> dict[str, Any] | None:
    value = getattr(rules, option)
    entry: dict[str, Any] = {"option": option, "label": _labels(option, rules), "value": value}
    kind = _HINTS[option]
    if kind is bool:
        return {**entry, "kind": "bool"}
    if option in OPTION_RANGES:
        low, high = OPTION_RANGES[option]
        if not any(rules.accepts(option, v) for v in range(low, high + 1) if v != value):
            return None  # fixed by this game (gin's knock_threshold: it knocks by knock_card)
        control = {**entry, "kind": "int", "min": low, "max": high}
        if value is None:
            if option in _NONE_IS_ANOTHER_GAME:
                return None  # switched off by this preset (e.g. no knock limit): raw box only
            en, de = _UNSET[option]  # present: _check_house_rules
            control["unset"] = {"en": en, "de": de}
        return control
    choices = [v for v in get_args(kind) if isinstance(v, str) and rules.accepts(option, v)]
    if len(choices) < 2:
        return None
    return {**entry, "kind": "choice", "choices": [{"value": v, "label": _words(option, v)} for v in choices]}


@lru_cache(maxsize=1)
def house_rules() -> dict[str, list[dict[str, Any]]]:
    """Per preset, the controls for the house rules that matter under it."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name in PRESET_NAMES:
        rules = Rules.preset(name)
        controls: list[dict[str, Any]] = []
        enabled_by: dict[str, tuple[Rules, dict[str, Any]]] = {}
        for option in HOUSE_RULES:
            under, enabler = rules, None
            if rules.not_applicable(option):
                found = _applies_once_changed(rules, option, controls)
                if found is None:
                    continue
                under, enabler = found
            control = _control(under, option)
            if control is not None:
                controls.append(control)
                if enabler is not None:
                    enabled_by[option] = (under, enabler)
        out[name] = [
            {**c, "unused_when": _unused_when(rules, c, controls, enabled_by.get(c["option"]))}
            for c in controls
        ]
    return out


def _applies_once_changed(
    rules: Rules, option: str, controls: list[dict[str, Any]]
) -> tuple[Rules, dict[str, Any]] | None:
    """For ``option``, which cannot matter under the preset: the rules under which it matters once
    one of the ``controls`` shown before it is changed, and that control (gin's target score once
    the match is played to a score instead of a single hand); ``None`` if no change makes it matter.
    The lobby shows its control greyed out until then (:func:`_unused_when`), with the preset's
    value."""
    for other in controls:
        for value in _other_values(other):
            try:
                changed = rules.replace(**{other["option"]: value})
            except RulesError:
                continue
            if not changed.not_applicable(option):
                return changed, other
    return None


def _other_values(control: dict[str, Any]) -> list[Any]:
    """The values of a switch or choice ``control`` other than the preset's (none for a number)."""
    if control["kind"] == "bool":
        return [not control["value"]]
    if control["kind"] == "choice":
        return [c["value"] for c in control["choices"] if c["value"] != control["value"]]
    return []


def _unused_when(
    rules: Rules,
    control: dict[str, Any],
    controls: list[dict[str, Any]],
    enabled: tuple[Rules, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The other controls' settings under which ``control`` cannot matter (the engine's
    :meth:`Rules.not_applicable`): gin's knock limit once Oklahoma is ticked. The lobby greys it out
    and does not send it, so the preset's value stands and the server accepts the table.

    ``enabled``: for a control that matters only once another is changed (:func:`_applies_once_changed`),
    the rules it matters under and that other control: it is unused at that control's preset value
    and at each of its values that does not make it matter; the other controls are weighed from the
    rules it matters under."""
    out = []
    base = rules
    if enabled is not None:
        base, enabler = enabled
        out.append({"option": enabler["option"], "value": enabler["value"]})
    for other in controls:
        if other is control:
            continue
        for value in _other_values(other):
            if value == getattr(base, other["option"]):
                continue  # the enabling value: the control matters there
            try:
                changed = base.replace(**{other["option"]: value})
            except RulesError:
                continue
            if changed.not_applicable(control["option"]):
                out.append({"option": other["option"], "value": value})
    return out


@lru_cache(maxsize=1)
def advanced_examples() -> dict[str, str]:
    """Per preset, an ``option=value`` line the raw box accepts, for its placeholder."""
    out: dict[str, str] = {}
    for name in PRESET_NAMES:
        rules = Rules.preset(name)
        for option, value in ADVANCED_EXAMPLES:
            changes = getattr(rules, option) != value
            if changes and option not in HOUSE_RULES and rules.accepts(option, value):
                out[name] = f"{option}={str(value).lower()}"
                break
    return out
