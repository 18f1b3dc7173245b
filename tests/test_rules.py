"""Rule sets: presets against RULES.md §6, aliases, replace, text form, TOML files, validation."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import pytest

import rummykit as rk
from rummykit import Round, Rules, RulesError
from rummykit.rules import OPTION_RANGES, option_range
from rummykit.rules_text import split_rules_text

PRESETS = ("german", "german_dskv", "viennese", "romme_ohne_auslegen", "scala40", "basic")
GER, DSKV, VIE, ROA, S40, BAS = PRESETS

# RULES.md §6, column by column. Only entries the table gives a value for (not "–") are listed.
SECTION_6: dict[str, dict[str, Any]] = {
    "num_decks": {GER: 2, DSKV: 2, VIE: 2, ROA: 2, S40: 2, BAS: 1},
    "jokers_total": {GER: 6, DSKV: 6, VIE: 2, ROA: 6, S40: 4, BAS: 2},
    "min_players": {GER: 2, VIE: 2, ROA: 2, S40: 2, BAS: 2},
    "max_players": {GER: 6, VIE: 6, ROA: 6, S40: 6, BAS: 6},
    "dealer_sits_out_at_table_of": {GER: None, DSKV: 4, VIE: None, ROA: None, S40: None, BAS: None},
    "seat_draw": {GER: "high_card", DSKV: "random", VIE: "high_card", ROA: "high_card", S40: "high_card"},
    "deal_rotation": {p: "clockwise" for p in PRESETS},
    "hand_size": {GER: 13, DSKV: 13, VIE: 10, ROA: 13, S40: 13},
    "hand_size_rule": {
        GER: "fixed",
        DSKV: "fixed",
        VIE: "fixed",
        ROA: "fixed",
        S40: "fixed",
        BAS: "by_player_count",
    },
    "deal_packets": {
        GER: "p3334",
        DSKV: "singly",
        VIE: "singly",
        ROA: "singly",
        S40: "singly",
        BAS: "singly",
    },
    "start_mode": {
        GER: "upcard",
        DSKV: "upcard",
        VIE: "dealer_extra_card",
        ROA: "upcard",
        S40: "upcard",
        BAS: "upcard",
    },
    "joker_robbing": {p: False for p in PRESETS},
    "robbed_joker_counts_toward_hand": {GER: True},
    "ace_low_in_runs": {p: True for p in PRESETS},
    "ace_high_in_runs": {GER: True, DSKV: True, VIE: True, ROA: True, S40: True, BAS: False},
    "run_wraparound": {p: False for p in PRESETS},
    "allow_ace_both_ends": {GER: True, DSKV: True, VIE: True, ROA: True, S40: False},
    "set_size_min": {p: 3 for p in PRESETS},
    "set_size_max": {p: 4 for p in PRESETS},
    "set_distinct_suits": {p: True for p in PRESETS},
    "joker_limit": {p: "jokers_le_naturals" for p in PRESETS},
    "max_adjacent_jokers": {GER: 2, DSKV: 2, VIE: 2, ROA: 2, S40: 2, BAS: None},
    "opening_min_points": {GER: 40, DSKV: 40, S40: 40, BAS: 0},
    "opening_scope": {GER: "all_melds_this_turn", DSKV: "all_melds_this_turn", S40: "all_melds_this_turn"},
    "opening_counts_taken_discard": {GER: True, DSKV: True, S40: True},
    "layoff_on_opening_turn": {GER: False, DSKV: False, S40: False, BAS: True},
    "layoff_requires_opened": {GER: True, DSKV: True, S40: True, BAS: False},
    "joker_exchange": {GER: True, DSKV: True, VIE: False, ROA: False, S40: True, BAS: True},
    "joker_exchange_requires_opened": {GER: True, DSKV: True, S40: True, BAS: False},
    "joker_exchange_on_opening_turn": {GER: False, DSKV: False, S40: False},
    "set_joker_exchange": {
        GER: "any_missing_suit",
        DSKV: "complete_four_only",
        S40: "any_missing_suit",
        BAS: "any_missing_suit",
    },
    "exchanged_joker_destination": {
        GER: "new_meld_same_turn",
        DSKV: "new_meld_same_turn",
        S40: "hand",
        BAS: "hand",
    },
    "discard_pickup_requires_meld": {GER: False, DSKV: False, VIE: False, ROA: False, S40: True, BAS: False},
    "discard_pickup_requires_opened": {
        GER: "never",
        DSKV: "never",
        VIE: "never",
        ROA: "never",
        S40: "opened_or_opening_with_it",
        BAS: "never",
    },
    "may_discard_taken_discard": {p: False for p in PRESETS},
    "joker_discard_allowed": {
        GER: "always",
        DSKV: "always",
        VIE: "always",
        ROA: "always",
        S40: "only_when_closing",
        BAS: "always",
    },
    "discard_playable_card_allowed": {GER: True, DSKV: True, VIE: True, ROA: True, S40: False, BAS: True},
    "going_out_requires_discard": {GER: False, DSKV: False, VIE: True, ROA: True, S40: True, BAS: False},
    "final_discard_face_down": {GER: True, DSKV: True, VIE: True, ROA: True, S40: False, BAS: False},
    "hand_romme_multiplier": {GER: 2, DSKV: 2, VIE: 1, ROA: 1, S40: 2, BAS: 2},
    "hand_romme_requires_opening_min": {GER: True, DSKV: True, S40: True},
    "penalty_ace": {GER: 11, DSKV: 11, VIE: 11, ROA: 11, S40: 11, BAS: 1},
    "penalty_joker": {GER: 30, DSKV: 20, VIE: 20, ROA: 30, S40: 25, BAS: 15},
    "penalty_court": {p: 10 for p in PRESETS},
    "stock_exhaustion": {
        GER: "reshuffle_keep_top",
        DSKV: "reshuffle_keep_top",
        VIE: "reshuffle_keep_top",
        ROA: "reshuffle_keep_top",
        S40: "reshuffle_keep_top",
        BAS: "turn_over_all_if_declined",
    },
    "max_stock_rebuilds": {p: 3 for p in PRESETS},
    "hand_scoring": {
        GER: "losers_penalty",
        DSKV: "losers_penalty",
        VIE: "deadwood_all",
        ROA: "deadwood_all",
        S40: "losers_penalty",
        BAS: "winner_collects",
    },
    "match_end": {
        GER: "fixed_hands",
        DSKV: "fixed_hands",
        VIE: "elimination_last_survivor",
        ROA: "elimination_last_survivor",
        S40: "elimination_last_survivor",
        BAS: "target_score",
    },
    "target_score": {BAS: 100},
    "elimination_threshold": {VIE: 101, ROA: 101, S40: 101},
    "reentry": {S40: False},
    "knock_threshold": {VIE: 5, ROA: 10},
    "knock_comparison": {VIE: "lt", ROA: "lt"},
    "knock_extra_turn": {VIE: True, ROA: False},
    "layoff_after_knock": {VIE: "none", ROA: "none"},
    "knock_undercut_rule": {VIE: "none", ROA: "none"},
    "knocker_scores_own_deadwood": {VIE: True, ROA: True},
    "knock_discard_face_up": {VIE: True, ROA: True},
    "rummy_multiplier": {VIE: 1, ROA: 1},
    "deadwood_ace": {VIE: 11, ROA: 11},
    "deadwood_joker": {VIE: 20, ROA: 30},
    "pot_ante": {VIE: 5, ROA: 5},
    "ante_frequency": {VIE: "per_rubber", ROA: "per_rubber"},
    "knock_money": {VIE: 1, ROA: 1},
    "buyback_window": {VIE: (81, 101), ROA: (81, 101)},
    "buyback_cost": {VIE: 5, ROA: 5},
    "buyback_limit": {VIE: 1, ROA: 1},
    "buyback_target": {VIE: "second_worst_not_above_buyer", ROA: "second_worst_not_above_buyer"},
    "all_eliminated_tiebreak": {VIE: "lowest_total_wins", ROA: "lowest_total_wins", S40: "lowest_total_wins"},
}

SECTION_6_CASES = [
    pytest.param(preset, option, value, id=f"{preset}-{option}")
    for option, column in SECTION_6.items()
    for preset, value in column.items()
]


@pytest.mark.parametrize(("preset", "option", "expected"), SECTION_6_CASES)
def test_preset_matches_section_6(preset: str, option: str, expected: Any) -> None:
    assert getattr(Rules.preset(preset), option) == expected


def test_section_6_table_uses_real_option_names() -> None:
    names = {f.name for f in dataclasses.fields(Rules)}
    assert set(SECTION_6) <= names
    assert len(SECTION_6_CASES) > 250


def test_preset_names_and_order() -> None:
    assert (*PRESETS, "gin") == rk.PRESET_NAMES
    for name in PRESETS:
        rules = Rules.preset(name)
        assert rules.name == name and str(rules) == name and rules.changes() == {}


def test_dskv_table_of_four_has_three_active_players() -> None:
    # RULES.md §3.16: four at a table, the dealer sits out; a table of three plays with the dealer.
    rules = Rules.preset("german_dskv")
    assert rules.active_players(4) == 3 and rules.active_players(3) == 3
    assert Rules.preset("german").active_players(4) == 4


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_basic_hand_size_by_player_count(players: int, size: int) -> None:
    assert Rules.preset("basic").hand_size_for(players) == size
    assert Rules.preset("german").hand_size_for(players) == 13


@pytest.mark.parametrize("preset", ["german", "viennese", "romme_ohne_auslegen", "scala40"])
def test_hand_size_by_player_count_is_rummy_chs_table_outside_basic(preset: str) -> None:
    """RULES.md §3.4 and §6: the rummy.ch option deals 13 cards with 2–4 players and 11 with 5–6."""
    rules = Rules.preset(preset).replace(hand_size_rule="by_player_count")
    for players in range(2, 7):
        want = 13 if players <= 4 else 11
        assert rules.hand_size_for(players) == want
        rnd = Round.new(rules, players, seed=1)
        dealt = [len(hand) for hand in rnd.hands]
        extra = 1 if rules.start_mode == "dealer_extra_card" else 0
        assert sorted(dealt) == [want] * (players - extra) + [want + extra] * extra


@pytest.mark.parametrize(("preset", "knock"), [(p, p in (VIE, ROA)) for p in PRESETS])
def test_family_follows_knock_threshold(preset: str, knock: bool) -> None:
    rules = Rules.preset(preset)
    assert rules.is_knock_game is knock
    assert (rules.opening_min_points is None) is knock


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("Rommé", GER),
        ("ROMMÉ", GER),
        ("Rommee", GER),
        ("rommee", GER),
        ("Romme", GER),
        ("German Rummy", GER),
        ("Deutsches Rommé", GER),
        ("Rommé mit Auslegen", GER),
        ("DSkV", DSKV),
        ("drov", DSKV),
        ("German-DSkV", DSKV),
        ("Wiener", VIE),
        ("wiener rummy", VIE),
        ("Wiener  Rommé", VIE),
        ("Viennese Rummy", VIE),
        ("Knock Rummy", VIE),
        ("KNOCK RUMMY", VIE),
        ("Klopf-Rommé", VIE),
        ("Rommé ohne Auslegen", ROA),
        ("ROA", ROA),
        ("Scala 40", S40),
        ("scala quaranta", S40),
        ("Scala Quaranta", S40),
        ("SCALA40", S40),
        ("scala-40", S40),
        ("Basic Rummy", BAS),
        ("Parlett", BAS),
        ("  Viennese ", VIE),
        ("GERMAN_DSKV", DSKV),
    ],
)
def test_aliases_case_and_accent_insensitive(alias: str, name: str) -> None:
    assert Rules.preset(alias) is Rules.preset(name)
    assert Rules.parse(alias) == Rules.preset(name)


@pytest.mark.parametrize("name", ["gin rummy 500", "nope", "", "german rummy 2"])
def test_unknown_preset(name: str) -> None:
    with pytest.raises(RulesError, match="unknown preset"):
        Rules.preset(name)


def test_replace_returns_a_new_frozen_rule_set() -> None:
    german = Rules.preset("german")
    r = german.replace(opening_min_points=30, penalty_joker=20)
    assert (r.opening_min_points, r.penalty_joker, r.name) == (30, 20, "german")
    assert german.opening_min_points == 40 and german.penalty_joker == 30
    assert r.changes() == {"opening_min_points": 30, "penalty_joker": 20}
    assert r != german and r == german.replace(penalty_joker=20, opening_min_points=30)
    assert hash(r) == hash(german.replace(penalty_joker=20, opening_min_points=30))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.penalty_joker = 25  # type: ignore[misc]
    assert german.replace() == german


CHANGED_SETS = [
    Rules.preset("german").replace(opening_min_points=30, joker_robbing=True),
    Rules.preset("viennese").replace(knock_comparison="le", buyback_window=(80, 101)),
    Rules.preset("german").replace(max_stock_rebuilds=None, max_adjacent_jokers=None),
    Rules.preset("basic").replace(ace_high_in_runs=True, max_adjacent_jokers=1),
    Rules.preset("german_dskv").replace(dealer_sits_out_at_table_of=None),
    Rules.preset("scala40").replace(start_mode="dealer_extra_card", elimination_threshold=201),
    Rules.preset("romme_ohne_auslegen").replace(deadwood_joker=20, knock_threshold=8),
    Rules.preset("german").replace(joker_limit="max_one_joker_per_meld", opening_scope="single_meld"),
]


@pytest.mark.parametrize("rules", CHANGED_SETS, ids=str)
def test_text_form_round_trips(rules: Rules) -> None:
    text = str(rules)
    assert text.startswith(rules.name + "(") and text.endswith(")")
    assert Rules.parse(text) == rules
    assert Rules.from_mapping({"preset": rules.name, **rules.changes()}) == rules


def test_text_form_values() -> None:
    r = Rules.parse("viennese(knock_comparison=le, buyback_window=(80, 101), max_stock_rebuilds=unlimited)")
    assert r.knock_comparison == "le" and r.buyback_window == (80, 101) and r.max_stock_rebuilds is None
    unlimited = Rules.preset("german").replace(max_stock_rebuilds=None)
    assert str(unlimited) == "german(max_stock_rebuilds=unlimited)"
    r = Rules.parse("Wiener Rummy(knock_threshold=6, knock_extra_turn=false)")
    assert (r.name, r.knock_threshold, r.knock_extra_turn) == ("viennese", 6, False)
    assert Rules.parse("german(opening_min_points = 30 )").opening_min_points == 30


def test_to_dict_is_json_and_complete() -> None:
    rules = Rules.preset("viennese")
    data = rules.to_dict()
    assert set(data) == {f.name for f in dataclasses.fields(Rules)}
    assert json.loads(json.dumps(data)) == data
    assert data["buyback_window"] == [81, 101] and data["knock_threshold"] == 5
    assert Rules.from_mapping(data) == rules


def test_load_toml_top_level(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(
        'preset = "Wiener Rummy"\nknock_comparison = "le"\nbuyback_window = [80, 101]\n'
        'knock_extra_turn = false\nmax_stock_rebuilds = "unlimited"\n',
        encoding="utf-8",
    )
    r = Rules.load(path)
    assert r == Rules.preset("viennese").replace(
        knock_comparison="le", buyback_window=(80, 101), knock_extra_turn=False, max_stock_rebuilds=None
    )


def test_load_toml_rules_table(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('[rules]\npreset = "german"\nopening_min_points = 30\n', encoding="utf-8")
    assert Rules.load(str(path)) == Rules.preset("german").replace(opening_min_points=30)
    path.write_text("opening_min_points = 30\n", encoding="utf-8")
    assert Rules.load(path).name == "german"  # german is the default preset


@pytest.mark.parametrize(
    ("content", "option"),
    [
        ("preset = 'german'\nfoo = 1\n", "foo"),
        ("preset = 'german'\njoker_robbing = 1\n", "joker_robbing"),
        ("preset = 'german'\nnum_decks = 'two'\n", "num_decks"),
        ("preset = 'german'\nhand_size = 40\n", "hand_size"),
    ],
)
def test_load_toml_bad_option(tmp_path: Path, content: str, option: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        Rules.load(path)
    assert info.value.option == option
    assert option in str(info.value)


def test_load_unreadable_or_malformed_file(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read rules file"):
        Rules.load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("preset = \n", encoding="utf-8")
    with pytest.raises(RulesError, match="cannot read rules file"):
        Rules.load(bad)


@pytest.mark.parametrize(
    ("make", "option"),
    [
        (lambda: Rules.preset("german").replace(foo=1), "foo"),
        (lambda: Rules.parse("german(foo=1)"), "foo"),
        (lambda: Rules.parse("german(num_decks=three)"), "num_decks"),
        (lambda: Rules.parse("german(num_decks=3)"), "num_decks"),
        (lambda: Rules.preset("german").replace(num_decks="2"), "num_decks"),
        (lambda: Rules.parse("german(joker_robbing=maybe)"), "joker_robbing"),
        (lambda: Rules.parse("german(joker_limit=lots)"), "joker_limit"),
        (lambda: Rules.parse("german(opening_min_points=-5)"), "opening_min_points"),
        (lambda: Rules.parse("german(jokers_total=7)"), "jokers_total"),
        (lambda: Rules.parse("german(buyback_window=(101, 81))"), "buyback_window"),
        (lambda: Rules.parse("german(buyback_window=81)"), "buyback_window"),
        (lambda: Rules.parse("german(max_players=1)"), "max_players"),
        (lambda: Rules.parse("german(set_size_max=5)"), "set_size_max"),
        (lambda: Rules.parse("german(max_adjacent_jokers=0)"), "max_adjacent_jokers"),
        (lambda: Rules.parse("german(run_wraparound=true)"), "run_wraparound"),
        (lambda: Rules.parse("german(hand_romme_multiplier=3)"), "hand_romme_multiplier"),
        # inconsistent combinations
        (lambda: Rules.preset("german").replace(num_decks=1, jokers_total=0), "hand_size"),
        (lambda: Rules.parse("german(hand_size=30)"), "hand_size"),
        (lambda: Rules.parse("viennese(max_players=8, hand_size=13, jokers_total=0)"), "hand_size"),
        (lambda: Rules.parse("german(ace_low_in_runs=false, ace_high_in_runs=false)"), "allow_ace_both_ends"),
        (lambda: Rules.parse("german(knock_threshold=5)"), "hand_scoring"),
        (lambda: Rules.parse("german(hand_scoring=deadwood_all)"), "hand_scoring"),
        (lambda: Rules.parse("german(opening_min_points=none)"), "opening_min_points"),
        (lambda: Rules.parse("german(stock_exhaustion=wall_draw)"), "stock_exhaustion"),
        (lambda: Rules.parse("german(match_end=elimination_last_survivor)"), "elimination_threshold"),
        (lambda: Rules.parse("viennese(start_mode=forehand_extra_card)"), "start_mode"),
    ],
)
def test_rules_error_names_the_option(make: Any, option: str) -> None:
    with pytest.raises(RulesError) as info:
        make()
    assert info.value.option == option
    assert option in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, rk.RummyError)


@pytest.mark.parametrize(
    "text", ["german(opening_min_points)", "german(", "german(x=1", "german)", "(x=1)", " ", "german(x=1) y"]
)
def test_malformed_text_form(text: str) -> None:
    with pytest.raises(RulesError):
        Rules.parse(text)


def test_a_rules_text_is_read_in_linear_time_and_bounded() -> None:
    """A rules text comes in files from strangers (records, saves, policies): spaces before a '(' took
    time growing with the fourth power of their number in the old pattern (2,000 spaces: hours)."""
    started = time.process_time()
    for n in (2_000, 16_000):
        with pytest.raises(RulesError, match="malformed rules text"):
            Rules.parse(" " * n + "(")
    assert time.process_time() - started < 1.0
    with pytest.raises(RulesError, match="a rules text of 16385 characters: at most 16384 are read"):
        Rules.parse("german(" + "x" * 16_377 + ")")
    assert split_rules_text(" german (a=(1,2), b=3) ") == ("german", [("a", "(1,2)"), ("b", "3")])


def test_deck_that_barely_holds_every_hand_is_accepted() -> None:
    # 52 + 2 jokers, 6 players × 6 cards + stock: accepted; 6 × 9 + 2 = 56 > 54: rejected.
    basic = Rules.preset("basic")
    assert basic.deck_size == 54
    with pytest.raises(RulesError) as info:
        basic.replace(hand_size_rule="fixed", hand_size=9)
    assert info.value.option == "hand_size"
    assert basic.replace(hand_size_rule="fixed", hand_size=8).hand_size_for(6) == 8


def test_every_numeric_option_has_a_range() -> None:
    numeric = {f.name for f in dataclasses.fields(Rules) if str(f.type).startswith(("int", "tuple[int"))}
    assert numeric == set(OPTION_RANGES)
    for preset in Rules.PRESETS.values():
        for name, (low, high) in OPTION_RANGES.items():
            value = getattr(preset, name)
            values = value if isinstance(value, tuple) else (value,)
            assert all(v is None or low <= v <= high for v in values), (preset.name, name)


@pytest.mark.parametrize(
    "option", ["opening_min_points", "target_score", "max_stock_rebuilds", "penalty_joker", "pot_ante"]
)
def test_numeric_option_out_of_range_is_refused(option: str) -> None:
    low, high = option_range(option)
    with pytest.raises(RulesError) as info:
        Rules.preset("german").replace(**{option: 1_000_000})
    assert info.value.option == option
    assert str(info.value) == f"{option}: must be between {low} and {high}, got 1000000"
    with pytest.raises(RulesError, match="must be between"):
        Rules.preset("german").replace(**{option: low - 1})


def test_pair_option_range() -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("viennese").replace(buyback_window=(81, 100_000))
    assert info.value.option == "buyback_window"
    with pytest.raises(RulesError, match="not a numeric rule option"):
        option_range("knock_comparison")


def test_basic_counts_a_left_over_ace_eleven_where_aces_can_be_high() -> None:
    """RULES.md §5.3: Basic Rummy scores the ace 1, or 11 if aces can be high (ace_high_in_runs)."""
    from rummykit.cards import parse_cards
    from rummykit.scoring import going_out

    high = Rules.preset("basic").replace(ace_high_in_runs=True)
    assert high.penalty_ace == 11 and str(high) == "basic(ace_high_in_runs=true, penalty_ace=11)"
    assert Rules.parse(str(high)) == high == Rules.from_mapping({"preset": "basic", "ace_high_in_runs": True})
    score = going_out(high, [(), parse_cards("AS JK 7D KC")], winner=0, hand_romme=False)
    assert score.gains == (11 + 15 + 7 + 10, 0)
    assert high.replace(ace_high_in_runs=False) == Rules.preset("basic")
    # A value named in the same change, or set before, is the player's own and stays.
    assert Rules.preset("basic").replace(ace_high_in_runs=True, penalty_ace=1).penalty_ace == 1
    assert Rules.preset("basic").replace(penalty_ace=15).replace(ace_high_in_runs=True).penalty_ace == 15
    # The text form names the follower with its leader, so a kept 1 survives a save, a record or a
    # rebuild from the changes (the terminal's --set).
    kept = Rules.preset("basic").replace(ace_high_in_runs=True, penalty_ace=1)
    assert str(kept) == "basic(ace_high_in_runs=true, penalty_ace=1)"
    assert Rules.parse(str(kept)) == kept == Rules.preset("basic").replace(**kept.changes())
    assert Rules.from_mapping({"preset": "basic", **kept.changes()}) == kept
    # The link is Basic Rummy's: the German game counts its ace 11 whichever way runs go.
    assert Rules.preset("german").replace(ace_high_in_runs=False).penalty_ace == 11


def test_every_accepted_option_value_round_trips_through_a_toml_rules_file(tmp_path: Path) -> None:
    """``Rules.to_toml`` (``rummykit rules --toml``) writes what ``Rules.load`` (``--rules-file``)
    reads back equal: every value each preset accepts of every option, ``none`` and pairs included.
    The README promised writing TOML files; only reading existed."""
    from typer.testing import CliRunner

    from rummykit.cli import app
    from rummykit.rules import OPTION_TYPES, PRESET_NAMES

    path = tmp_path / "house.toml"
    tried = 0
    for name in PRESET_NAMES:
        base = Rules.preset(name)
        for option, kind in OPTION_TYPES.items():
            values: list[Any] = []
            if kind.kind == "bool":
                values = [True, False]
            elif kind.kind == "choice":
                values = list(kind.choices)
            elif option in OPTION_RANGES:
                low, high = OPTION_RANGES[option]
                values = [(low, high)] if kind.kind == "pair" else [low, high]
            values += [None] if kind.optional else []
            for value in values:
                try:
                    rules = base.replace(**{option: value})
                except RulesError:
                    continue
                path.write_text(rules.to_toml(), encoding="utf-8")
                assert Rules.load(path) == rules, rules.to_toml()
                tried += 1
    assert tried > 500
    result = CliRunner().invoke(app, ["rules", "viennese", "--set", "pot_ante=3", "--toml"])
    assert result.output == 'preset = "viennese"\npot_ante = 3\n'


def test_a_table_beyond_the_games_deal_table_says_what_is_dealt_there() -> None:
    """Basic Rummy deals 10/7/6 cards by the table (§5.3) up to six players; at seven the refusal said
    only "cannot deal 10 cards to 7 players", and nobody could see where the 10 came from."""
    from rummykit.i18n import localize_error

    with pytest.raises(RulesError) as refused:
        Rules.parse("basic(max_players=7)")
    assert "stops at 6 players, and beyond it hand_size 10 is dealt" in str(refused.value)
    assert "die Kartentabelle von basic endet bei 6 Spielern" in localize_error(refused.value, "de")
    assert Rules.parse("basic(max_players=7,hand_size=6)").hand_size_for(7) == 6


@pytest.mark.parametrize(
    ("option", "value", "pointer"),
    [
        ("penalty_joker", 20, "deadwood_joker sets the joker"),
        ("penalty_ace", 10, "deadwood_ace sets the ace"),
        ("penalty_court", 5, "J, Q and K left in hand as 10 deadwood"),
        ("hand_romme_multiplier", 2, "rummy_multiplier"),
        ("going_out_requires_discard", False, "a Rummy call lays its last card away"),
    ],
)
def test_a_melding_games_scoring_option_on_a_knock_game_points_to_the_knock_games_own(
    option: str, value: object, pointer: str
) -> None:
    """RULES.md §2.2, §4.4, §4.7, D20: a club player setting the German joker value on Rommé ohne
    Auslegen (penalty_joker=20) was told "a knock game puts no cards on the table"; the refusal names
    the option that does it there (deadwood_joker), and says why the others cannot matter."""
    with pytest.raises(RulesError) as refused:
        Rules.preset("romme_ohne_auslegen").replace(**{option: value})
    assert pointer in str(refused.value) and "puts no cards on the table" not in str(refused.value)


@pytest.mark.parametrize(
    ("option", "value", "reason", "not_said"),
    [
        ("penalty_joker", 30, "gin has no jokers", "deadwood_joker"),
        ("hand_romme_multiplier", 2, "gin has no Rummy call", "rummy_multiplier"),
        ("going_out_requires_discard", False, "big gin", "Rummy call"),
    ],
)
def test_a_melding_games_scoring_option_on_gin_names_gin_s_own_reason(
    option: str, value: object, reason: str, not_said: str
) -> None:
    """Gin is a knock game too, but refuses deadwood_joker (no jokers) and rummy_multiplier (no Rummy
    call), and a big gin ends its hand without a discard: the knock games' pointer sent a gin player to
    an option gin refuses as well, or told them of a Rummy call gin does not have."""
    with pytest.raises(RulesError) as refused:
        Rules.preset("gin").replace(**{option: value})
    assert reason in str(refused.value) and not_said not in str(refused.value), str(refused.value)
    from rummykit.i18n import localize_error

    german = localize_error(refused.value, "de")
    assert "Gin" in german and reason not in german, german  # said in German too
