"""Race play-outs of the search bot: turns to knock or go out, on given stocks."""

from __future__ import annotations

import pytest

from rummykit.bots.race import (
    CLOSED_TURNS,
    KNOCK_POINTS_PER_TURN,
    MELD_POINTS_PER_TURN,
    MeldHand,
    card_mask,
    knock_race,
    meld_outs,
    meld_race,
    meld_turn,
    out_mask,
    race_after_draw,
    race_shed,
    shed_card,
)
from rummykit.cards import build_deck, parse_cards
from rummykit.melds import Meld
from rummykit.rules import Rules

VIENNESE = Rules.preset("viennese")
GERMAN = Rules.preset("german")
GIN = Rules.preset("gin")


def cards(text: str) -> list[int]:
    return list(parse_cards(text))


def test_knock_race_counts_turns_until_rummy_or_knock() -> None:
    hand = cards("2H 3H 4H 5S 5D 5C 9C 10C JC KD")  # deadwood KD 10
    assert knock_race(VIENNESE, hand, cards("QC")) == 1.0  # 9C-QC run, KD shed: Rummy
    assert knock_race(VIENNESE, hand, cards("7S 3C QC")) == 2.0  # 7S shed, then 3C kept (deadwood 3)
    # Not home: the horizon, one more turn, and the deadwood over the points shed per turn.
    assert knock_race(VIENNESE, hand, []) == 1 + 10 / KNOCK_POINTS_PER_TURN


def test_knock_race_follows_knock_comparison() -> None:
    hand = cards("2H 3H 4H 5S 5D 5C 9C 10C JC KD")
    strict = VIENNESE.replace(knock_comparison="lt")
    loose = VIENNESE.replace(knock_comparison="le")
    assert knock_race(strict, hand, cards("5H")) == 1.0  # 5H makes a four-set, KD is shed: Rummy
    five = cards("2H 3H 4H 6S 6D 6C 9C 10C JC KD")
    assert knock_race(strict, five, cards("5C")) > 1.0  # deadwood 5 is not below 5
    assert knock_race(loose, five, cards("5C")) == 1.0  # but it is at most 5


def test_shed_card_keeps_jokers_and_the_taken_card() -> None:
    assert str(shed_card(VIENNESE, cards("2H 3H 4H KD 7S 9C"))) == "KD"
    assert str(shed_card(VIENNESE, cards("2H 3H 4H JK 7S 9C"))) == "9C"  # the joker stays
    only = cards("JK 9C")
    assert str(shed_card(VIENNESE, only, barred=parse_cards("9C")[0])) == "JK"


def test_meld_turn_lays_off_and_goes_out() -> None:
    table = (Meld.parse("2H 3H 4H", GERMAN),)
    state = MeldHand(tuple(cards("5H 6H")), True, table)
    assert meld_turn(GERMAN, state, cards("KS")[0]) is None  # 5H, 6H laid off, KS discarded: out
    after = meld_turn(GERMAN, MeldHand(tuple(cards("5H 9S 9D")), True, table), cards("KC")[0])
    assert after is not None and sorted(map(str, after.cards)) == ["9D", "9S"]
    assert str(after.table[0]) == "2H 3H 4H 5H"


def test_meld_turn_opens_only_at_the_minimum_and_not_lays_off_on_the_opening_turn() -> None:
    table = (Meld.parse("2H 3H 4H", GERMAN),)
    closed = MeldHand(tuple(cards("KH KD KC QS QH 5H 9S 7C")), False, table)
    opened = meld_turn(GERMAN, closed, cards("QD")[0])
    assert opened is not None and opened.opened
    assert len(opened.table) == 3 and "5H" in map(str, opened.cards)  # no lay-off on the opening turn
    short = meld_turn(GERMAN, MeldHand(tuple(cards("KH KD KC 5H 9S 7C")), False, table), cards("2C")[0])
    assert short is not None and not short.opened and len(short.table) == 1  # 30 < 40


def test_meld_race_charges_closed_hands_at_the_horizon() -> None:
    hand = MeldHand(tuple(cards("KH 9S 7C")), False, ())
    cost = meld_race(GERMAN, hand, [])
    assert cost == pytest.approx(1 + (10 + 9 + 7) / MELD_POINTS_PER_TURN + CLOSED_TURNS)


def test_race_after_draw_is_zero_when_the_draw_gets_home() -> None:
    hand = cards("2H 3H 4H 5S 5D 5C 9C 10C JC KD")
    assert race_after_draw(VIENNESE, hand, False, (), cards("QC")[0], [], taken=True) == 0.0
    table = [Meld.parse("2H 3H 4H", GERMAN)]
    assert race_after_draw(GERMAN, cards("5H 6H"), True, table, cards("7H")[0], [], taken=True) == 0.0
    # The taken card may not be the final discard: 9S taken, 5H laid off, 9S stays.
    assert race_after_draw(GERMAN, cards("5H"), True, table, cards("9S")[0], [], taken=True) > 0.0


def test_the_opponents_clock_decides_between_a_quick_gamble_and_a_sure_finish() -> None:
    """Hand A is home at once when the JC comes (three samples of four), else not in three turns;
    hand B is home in its third turn on every sample. Early in the hand the opponent is rarely home
    within three turns, so the sure finish is worth more; late in the hand, and with search-v1's
    constant discount, the quick gamble is."""
    from rummykit.bots.duel import Sample, race_values, survival
    from rummykit.bots.race import knock_races
    from rummykit.bots.search import DISCOUNT

    gamble = cards("2H 3H 4H 5S 5D 5C 9C 10C QC KS")
    sure = cards("2H 3H 4H 5S 5D 5C 6D 7D 8D KH")
    draws = [cards("JC 9S 3S")] * 3 + [cards("7S 9S 3S")]
    rows = knock_races(VIENNESE, [gamble, sure], draws, 3)
    assert [row[1] for row in rows] == [3.0] * 4
    assert [row[0] for row in rows[:3]] == [1.0] * 3 and rows[3][0] > 4
    theirs = tuple(cards("AS AD 2C 4C 6C 8C 10H QH KC JH"))
    samples = [Sample(tuple(d), ((theirs, ()),)) for d in draws]

    def values(played: int | None) -> list[float]:
        return race_values(VIENNESE, [gamble, sure], [0, 0], samples, 3, feeds=None, played=played)

    for played in (0, 2):
        a, b = values(played)
        assert b > a
    for played in (None, 6, 10):
        a, b = values(played)
        assert a > b
    assert survival(4, 0) == 1.0
    assert survival(0, 3) > DISCOUNT**3 > survival(12, 3)
    assert survival(3, 2) > survival(3, 2.5) > survival(3, 3)


def outs(rules: Rules, text: str) -> set[str]:
    """The cards not in the hand ``text`` that make a meld of three with two of its cards."""
    held = card_mask(cards(text))
    mask = out_mask(rules, held) & ~held
    return {str(c) for c in build_deck(1, 0) if mask >> c & 1}


def test_out_mask_names_the_cards_that_make_a_meld_of_three() -> None:
    assert outs(GIN, "10H JH") == {"9H", "QH"}
    assert outs(GIN, "10H QH") == {"JH"}
    assert outs(GIN, "5C 5D") == {"5H", "5S"}
    assert outs(GIN, "2S 3S 4S") == {"AS", "5S"}  # a run is extended at either end
    assert outs(GIN, "5C 5D 5H") == {"5S"}
    assert outs(GIN, "QS KS 7D") == {"JS"}  # gin's ace is low only
    assert outs(VIENNESE, "QS KS") == {"JS", "AS"}  # ace high too
    assert outs(VIENNESE, "AS 2S") == {"3S"}  # K-A-2 is no run
    assert outs(GIN, "7D 9S KC") == set()


def test_race_shed_keeps_the_hand_with_more_live_outs() -> None:
    hand = cards("3C 4C 8C 3D 9D KD 10H JH AS 2S 3S")  # KD, 10H and JH each leave the least deadwood
    unseen = card_mask(c for c in build_deck(1, 0) if c not in hand)
    assert str(shed_card(GIN, hand)) == "JH"  # blind to draws: the highest of the ten-point cards
    assert str(race_shed(GIN, hand, unseen)) == "KD"  # keeps 10H JH, waiting on 9H and QH
    assert meld_outs(GIN, [c for c in hand if str(c) != "KD"], unseen) == 6
    assert meld_outs(GIN, [c for c in hand if str(c) != "JH"], unseen) == 4
    dead = unseen & ~card_mask(cards("9H QH"))  # both already seen: the outs are gone, and so is the reason
    assert str(race_shed(GIN, hand, dead)) == "JH"
    assert str(race_shed(GIN, hand, None)) == "JH"


def test_draw_aware_knock_race_uses_only_what_may_still_come() -> None:
    hand = cards("3C 4C 3D 9D KD 10H JH AS 2S 3S")  # after the discard of 8C: deadwood 3C 4C 3D 9D KD 10H JH
    unseen = [c for c in build_deck(1, 0) if c not in hand and str(c) != "8C"]
    draws = cards("7C QH 5D")
    blind = knock_race(GIN, hand, draws)
    aware = knock_race(GIN, hand, draws, unseen)
    assert aware < blind  # 10H JH kept for QH
    assert knock_race(GIN, hand, draws, []) == blind  # nothing may come: every hand has no outs, as blind
