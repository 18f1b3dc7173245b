"""Conformance harness over every preset and player count.

``rummykit.testing.check_rules`` plays random rounds with random legal actions and checks card
conservation, that every offered action passes ``check`` and round-trips as text, termination,
replay from the record and view privacy: 301 rounds of the four melding presets and 100 rounds of
the two knock presets, every allowed player count. The whole file runs in about a minute.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummykit import Record, Rules, Termination
from rummykit.testing import check_rules, play_random_round

RECORDS = Path(__file__).parent / "records"

MELDING_ROUNDS = 75  # per preset, spread evenly over its player counts (rounded up)
KNOCK_ROUNDS = 50


def cases(name: str, rounds: int) -> list[object]:
    rules = Rules.preset(name)
    counts = range(rules.min_players, rules.max_players + 1)
    per_count = -(-rounds // len(counts))
    return [pytest.param(name, n, per_count, id=f"{name}-{n}p") for n in counts]


CASES = [
    *cases("german", MELDING_ROUNDS),
    *cases("german_dskv", MELDING_ROUNDS),
    *cases("scala40", MELDING_ROUNDS),
    *cases("basic", MELDING_ROUNDS),
    *cases("viennese", KNOCK_ROUNDS),
    *cases("romme_ohne_auslegen", KNOCK_ROUNDS),
]


@pytest.mark.parametrize(("preset", "players", "rounds"), CASES)
def test_check_rules(preset: str, players: int, rounds: int) -> None:
    rules = Rules.preset(preset)
    report = check_rules(rules, rounds=rounds, seed=1000 * players + len(preset), players=(players,))
    assert report.rounds == rounds
    assert report.actions >= rounds
    assert set(report.terminations) <= {t.value for t in Termination}
    assert sum(report.terminations.values()) == rounds


def test_every_player_count_is_covered() -> None:
    for name in ("german", "scala40", "basic", "viennese", "romme_ohne_auslegen"):
        rules = Rules.preset(name)
        assert (rules.min_players, rules.max_players) == (2, 6)
    dskv = Rules.preset("german_dskv")
    assert (dskv.min_players, dskv.max_players) == (3, 4)


def test_scala40_eager_players_four_seats() -> None:
    """Eager players (take the discard, lay before discarding) reach the taken-discard obligation
    and joker exchanges often; every action offered while the taken card must be laid is checked."""
    report = check_rules(Rules.preset("scala40"), rounds=30, seed=40, players=(4,), eager=True)
    assert report.rounds == 30
    assert report.actions >= 30


def test_recorded_scala40_round_with_a_swap_of_the_taken_discard_completes() -> None:
    """A recorded four-player round: the taken discard went into a meld through a joker exchange;
    the obligation is settled and the round plays on to its end."""
    rnd = Record.load(RECORDS / "scala40_swap_of_the_taken_discard.json").replay()
    assert rnd.pending_taken is None
    assert rnd.legal_actions()
    play_random_round(rnd, random.Random(1))
    assert rnd.is_over
