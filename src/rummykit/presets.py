"""The presets of RULES.md §6 as data: each one is a base preset plus the options it changes.

This module holds no logic and imports nothing of the engine: :mod:`rummykit.rules` builds the
validated :class:`~rummykit.rules.Rules` values from these tables (``Rules.PRESETS``), in the order
written here, which is the documented order of :data:`rummykit.rules.PRESET_NAMES`.

A preset is ``(base, changes)``: ``base`` names an earlier preset (``None`` for ``german``, whose
values are the field defaults of ``Rules``) and ``changes`` maps option names of RULES.md §6 to
values. Keeping presets as differences makes each one read like the variant description it comes
from ("Viennese: German Rummy with 10 cards, 2 jokers, knocking below 5 …").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

OptionChanges = Mapping[str, object]
"""Option name → value, as in ``Rules.replace(**changes)``."""

KNOCK_FAMILY: Final[OptionChanges] = {
    "layoff_on_opening_turn": False,
    "layoff_requires_opened": True,
    "joker_exchange": False,
    "joker_exchange_requires_opened": True,
    "exchanged_joker_destination": "hand",
    "opening_min_points": None,
    "hand_romme_multiplier": 1,
    "going_out_requires_discard": True,
    "hand_scoring": "deadwood_all",
    "match_end": "elimination_last_survivor",
    "elimination_threshold": 101,
    "penalty_joker": 20,
}
"""What every knock game changes from German Rummy: no cards go on the table before the hand ends
(no opening minimum, lay-offs or joker exchange), and a rubber ends by elimination at 101 (§4)."""

PRESETS: Final[Mapping[str, tuple[str | None, OptionChanges]]] = {
    "german": (None, {}),
    "german_dskv": (
        "german",
        {
            "min_players": 3,
            "max_players": 4,
            "dealer_sits_out_at_table_of": 4,
            "seat_draw": "random",
            "deal_packets": "singly",
            "penalty_joker": 20,
            "set_joker_exchange": "complete_four_only",
        },
    ),
    "viennese": (
        "german",
        {
            "jokers_total": 2,
            "hand_size": 10,
            "deal_packets": "singly",
            "start_mode": "dealer_extra_card",
            "knock_threshold": 5,
            "knock_comparison": "lt",
            "knock_extra_turn": True,
            "deadwood_ace": 11,
            "deadwood_joker": 20,
            **KNOCK_FAMILY,
        },
    ),
    "romme_ohne_auslegen": (
        "viennese",
        {
            "jokers_total": 6,
            "hand_size": 13,
            "start_mode": "upcard",
            "knock_threshold": 10,
            "knock_extra_turn": False,
            "penalty_joker": 30,
            "deadwood_joker": 30,
        },
    ),
    "scala40": (
        "german",
        {
            "jokers_total": 4,
            "deal_packets": "singly",
            "allow_ace_both_ends": False,
            "exchanged_joker_destination": "hand",
            "discard_pickup_requires_meld": True,
            "discard_pickup_requires_opened": "opened_or_opening_with_it",
            "joker_discard_allowed": "only_when_closing",
            "discard_playable_card_allowed": False,
            "going_out_requires_discard": True,
            "final_discard_face_down": False,
            "penalty_joker": 25,
            "match_end": "elimination_last_survivor",
            "elimination_threshold": 101,
        },
    ),
    "basic": (
        "german",
        {
            "num_decks": 1,
            "jokers_total": 2,
            "hand_size": 10,
            "hand_size_rule": "by_player_count",
            "deal_packets": "singly",
            "ace_high_in_runs": False,
            "allow_ace_both_ends": False,
            "max_adjacent_jokers": None,
            "opening_min_points": 0,
            "layoff_on_opening_turn": True,
            "layoff_requires_opened": False,
            "joker_exchange_requires_opened": False,
            "joker_exchange_on_opening_turn": True,
            "exchanged_joker_destination": "hand",
            "final_discard_face_down": False,
            "penalty_ace": 1,
            "penalty_joker": 15,
            "stock_exhaustion": "turn_over_all_if_declined",
            "hand_scoring": "winner_collects",
            "match_end": "target_score",
            "target_score": 100,
        },
    ),
    "gin": (
        "viennese",
        {
            "num_decks": 1,
            "jokers_total": 0,
            "min_players": 2,
            "max_players": 2,
            "seat_draw": "random",
            "ace_high_in_runs": False,
            "allow_ace_both_ends": False,
            "start_mode": "gin_first_upcard",
            "may_discard_taken_discard": True,
            "knock_threshold": 10,
            "knock_comparison": "le",
            "knock_extra_turn": False,
            "layoff_after_knock": "onto_knocker_unless_gin",
            "deadwood_ace": 1,
            "stock_exhaustion": "wall_draw",
            "max_stock_rebuilds": 0,
            "hand_scoring": "gin_difference",
            "match_end": "single_hand",
            "elimination_threshold": None,
        },
    ),
}
"""Every preset as ``name → (base preset, options changed)``, in the documented order."""

ALIASES: Final[Mapping[str, tuple[str, ...]]] = {
    "german": (
        "Rommé",
        "Rommee",
        "Romme",
        "German Rummy",
        "Deutsches Rommé",
        "Rommé mit Auslegen",
        "Romme mit Auslegen",
    ),
    "german_dskv": ("DSkV", "DRoV", "German DSkV", "German tournament", "Turnier-Rommé"),
    "viennese": (
        "Wiener",
        "Wiener Rummy",
        "Wiener Rommé",
        "Viennese Rummy",
        "Knock Rummy",
        "Klopf-Rommé",
        "101 Rummy",
        "Elimination Rummy",
    ),
    "romme_ohne_auslegen": ("Rommé ohne Auslegen", "Romme ohne Auslegen", "ROA"),
    "scala40": ("Scala 40", "Scala Quaranta", "Scala_40"),
    "basic": ("Basic Rummy", "Rummy", "Parlett"),
    "gin": ("Gin Rummy", "Gin", "Gin-Rommé", "OpenSpiel gin_rummy"),
}
"""The names players use for each preset (matched case- and accent-insensitively)."""
