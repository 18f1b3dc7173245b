"""Melds: RULES.md §8.1 (M1–M24), meld-level lay-off and exchange cases of §8.3, penalties of §8.4."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rummykit as rk
from rummykit import IllegalMeldError, Meld, MeldKind, Rules
from rummykit.cards import ALL_FACES, Card, parse_cards
from rummykit.melds import position_value, rank_value
from rummykit.testing import GIN_LIKE_RULES

GERMAN = Rules.preset("german")
GIN_LIKE = GIN_LIKE_RULES


def c(text: str) -> Card:
    return Card.parse(text)


class Example(NamedTuple):
    text: str
    rules: Rules
    kind: MeldKind | None  # None: illegal
    value: int | None = None
    jokers: tuple[str, ...] = ()  # per joker, the card(s) it stands for ("6C/6D" for an open set suit)
    rule: str | None = None  # the broken rule of an illegal meld


M = {
    "M1": Example("KH KD KC", GERMAN, MeldKind.SET, 30),
    "M2": Example("3S 3H 3D 3C", GERMAN, MeldKind.SET, 12),
    "M3": Example("7H 7H 7S", GERMAN, None, rule="set_distinct_suits"),
    "M4": Example("5C 5D 5H 5S 5C", GERMAN, None, rule="set_size_max"),
    "M5": Example("AH 2H 3H", GERMAN, MeldKind.RUN, 6),
    "M6": Example("8D 9D 10D JD", GERMAN, MeldKind.RUN, 37),
    "M7": Example("QC KC AC", GERMAN, MeldKind.RUN, 31),
    "M8": Example("KS AS 2S", GERMAN, None, rule="run_wraparound"),
    "M9": Example("JC QC JK AC", GERMAN, MeldKind.RUN, 41, ("KC",)),
    "M10": Example("6S 6H JK", GERMAN, MeldKind.SET, 18, ("6C/6D",)),
    "M11": Example("3S JK JK 6S", GERMAN, MeldKind.RUN, 18, ("4S", "5S")),
    "M12": Example("3S JK JK", GERMAN, None, rule="joker_limit"),
    "M13": Example("JK JK JK 4H 5H 6H", GERMAN, None, rule="max_adjacent_jokers"),
    "M14": Example("3S JK JK JK 7S", GERMAN, None, rule="joker_limit"),
    "M15": Example("JK JK 5D 5C", GERMAN, MeldKind.SET, 20, ("5H/5S", "5H/5S")),
    "M16": Example("KH AH JK", GERMAN, None, rule="run_bounds"),
    "M17": Example("JK KH AH", GERMAN, MeldKind.RUN, 31, ("QH",)),
    "M18": Example("AS JK 3S", GERMAN, MeldKind.RUN, 6, ("2S",)),
    "M19": Example("JK 2D 3D", GERMAN, MeldKind.RUN, 6, ("AD",)),
    "M20": Example("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", GERMAN, MeldKind.RUN, 96),
    "M21": Example("9S 10S JK QS KS AS", GERMAN, MeldKind.RUN, 60, ("JS",)),
    "M22": Example("5H 6H JK", GERMAN, MeldKind.RUN, 18, ("7H",)),
    "M23": Example("AH AD JK", GERMAN, MeldKind.SET, 33, ("AC/AS",)),
    "M24": Example("QS KS AS", GIN_LIKE, None, rule="ace_high_in_runs"),
}


def joker_texts(meld: Meld) -> tuple[str, ...]:
    return tuple(
        "/".join(str(r) for r in meld.represented(i)) for i, card in enumerate(meld.cards) if card.is_joker
    )


@pytest.mark.parametrize("example", list(M.values()), ids=list(M))
def test_section_8_1(example: Example) -> None:
    if example.kind is None:
        with pytest.raises(IllegalMeldError) as info:
            Meld.parse(example.text, example.rules)
        assert info.value.rule == example.rule
        assert example.text in str(info.value)
        return
    meld = Meld.parse(example.text, example.rules)
    assert meld.kind is example.kind
    assert meld.value == example.value
    assert joker_texts(meld) == example.jokers
    assert meld.jokers == len(example.jokers)
    assert [str(x) for x in meld.cards] == example.text.split()
    assert Meld.parse(str(meld), example.rules) == meld


def test_m9_meets_the_opening_alone() -> None:
    meld = Meld.parse("JC QC JK AC", GERMAN)
    assert str(meld) == "JC QC JK(=KC) AC"
    assert GERMAN.opening_min_points is not None and meld.value >= GERMAN.opening_min_points


def test_m10_joker_assignment_text() -> None:
    assert Meld.parse("6S 6H JK", GERMAN).joker_assignments() == ((2, "JK = 6C or 6D"),)
    assert Meld.parse("JC QC JK AC", GERMAN).joker_assignments() == ((2, "JK = KC"),)


def test_m13_legal_without_adjacency_limit() -> None:
    meld = Meld.parse("JK JK JK 4H 5H 6H", GERMAN.replace(max_adjacent_jokers=None))
    assert meld.value == 21 and str(meld) == "JK(=AH) JK(=2H) JK(=3H) 4H 5H 6H"
    basic = Meld.parse("JK JK JK 4H 5H 6H", Rules.preset("basic"))  # basic has no adjacency limit
    assert basic.value == 21


def test_m15_illegal_with_one_joker_per_meld() -> None:
    with pytest.raises(IllegalMeldError) as info:
        Meld.parse("JK JK 5D 5C", GERMAN.replace(joker_limit="max_one_joker_per_meld"))
    assert info.value.rule == "joker_limit"


def test_m20_needs_allow_ace_both_ends() -> None:
    text = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    meld = Meld.parse(text, GERMAN)
    assert (len(meld.cards), meld.start, meld.end) == (14, 1, 14)
    for rules in (Rules.preset("scala40"), GERMAN.replace(allow_ace_both_ends=False)):
        with pytest.raises(IllegalMeldError) as info:
            Meld.parse(text, rules)
        assert info.value.rule == "allow_ace_both_ends"
    # the 13-card runs A…K and 2…A stay legal in scala40
    scala = Rules.preset("scala40")
    assert Meld.parse("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", scala).value == 85
    assert Meld.parse("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", scala).value == 95


def test_m22_written_order_fixes_the_joker() -> None:
    up = Meld.parse("5H 6H JK", GERMAN)
    down = Meld.parse("JK 5H 6H", GERMAN)
    assert (str(up), up.value) == ("5H 6H JK(=7H)", 18)
    assert (str(down), down.value) == ("JK(=4H) 5H 6H", 15)
    assert Meld.parse("5H 6H JK(=7H)", GERMAN) == up
    assert Meld.parse("JK(=4H) 5H 6H", GERMAN) == down


def test_m24_is_deadwood_21_in_gin_like_rules() -> None:
    cards = parse_cards("QS KS AS")
    assert sum(GIN_LIKE.deadwood_value(x) for x in cards) == 21
    assert GIN_LIKE.deck_size == 52
    # the same cards are a run under german rules
    assert Meld.parse("QS KS AS", GERMAN).value == 31


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("5H 6H", "meld_size"),
        ("5H 6D 7C", "meld_shape"),
        ("5H 7H 8H", "run_sequence"),
        ("JK JK JK", "joker_limit"),
        ("JK 5D JK", "joker_limit"),
        ("JK AH 2H", "run_bounds"),
        ("KS JK 2S", "run_wraparound"),
        ("6S 6H JK(=6S)", "joker_assignment"),
        ("JK(=5H) 5D 6D", "joker_assignment"),
    ],
)
def test_other_illegal_melds_name_their_rule(text: str, rule: str) -> None:
    with pytest.raises(IllegalMeldError) as info:
        Meld.parse(text, GERMAN)
    assert info.value.rule == rule


@pytest.mark.parametrize("text", ["", "5H 6H XX", "JK(=JK) 5H 6H", "JK(=ZZ) 5H 6H"])
def test_bad_meld_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(rk.NotationError):
        Meld.parse(text, GERMAN)


@pytest.mark.parametrize("text", ["JK(=7H) 5H 6H", "5H 6H JK(=4H)"])
def test_declaration_contradicting_position_is_a_joker_assignment_error(text: str) -> None:
    # RULES.md §2.3/§2.4: in a run the annotation must match the joker's position; there is no
    # K-A-2 in these cards, so "run_wraparound" names the wrong rule.
    with pytest.raises(IllegalMeldError) as info:
        Meld.parse(text, GERMAN)
    assert info.value.rule == "joker_assignment"


def test_two_set_jokers_cannot_stand_for_the_same_suit() -> None:
    # RULES.md §2.3: two jokers in one set stand for two different missing suits.
    with pytest.raises(IllegalMeldError) as info:
        Meld.parse("JK(=5H) JK(=5H) 5D 5C", GERMAN)
    assert info.value.rule == "joker_assignment"


def test_one_natural_with_jokers_is_a_run_never_a_set() -> None:
    """joker_limit = at_least_one_natural (RULES.md §2.3) allows one natural with jokers; melds are
    cards in the written order, so 5D JK JK reads as the run 5-6-7 of diamonds, and a set needs two
    naturals (SET_MIN_NATURALS): a set of fives the solver valued could never be laid."""
    rules = GERMAN.replace(joker_limit="at_least_one_natural")
    run = Meld.parse("5D JK JK", rules)
    assert run.kind is MeldKind.RUN and str(run) == "5D JK(=6D) JK(=7D)" and run.value == 18
    with pytest.raises(IllegalMeldError, match="a set needs two natural cards") as info:
        Meld.parse("5D JK(=5H) JK(=5S)", rules)
    assert info.value.rule == "joker_limit"
    assert Meld.parse("5D 5C JK(=5H) JK(=5S)", rules).kind is MeldKind.SET
    ace_low = rules.replace(ace_high_in_runs=False)  # the solver's melds are the ones a player can lay
    found = rk.solver.all_melds(rk.cards.parse_cards("AC JK JK"), ace_low)
    assert [str(Meld.from_cards(m, ace_low)) for m in found] == ["AC JK(=2C) JK(=3C)"]


# §8.3 lay-offs (meld level) ------------------------------------------------------------------------


def test_l1_lay_off_at_both_ends_of_a_run() -> None:
    meld = Meld.parse("2H 3H 4H", GERMAN)
    assert meld.layoff_ends(c("AH"), GERMAN) == ("low",)
    assert meld.layoff_ends(c("5H"), GERMAN) == ("high",)
    assert set(meld.layoff_cards(GERMAN)) == {c("AH"), c("5H"), rk.JOKER}
    grown = meld.with_layoff(c("AH"), GERMAN).with_layoff(c("5H"), GERMAN)
    assert str(grown) == "AH 2H 3H 4H 5H" and grown.value == 15


def test_l2_l3_l4_set_lay_offs() -> None:
    kings = Meld.parse("KH KD KC", GERMAN)
    assert kings.can_lay_off(c("KS"), GERMAN)
    full = kings.with_layoff(c("KS"), GERMAN)
    assert str(full) == "KH KD KC KS" and full.value == 40
    assert not kings.can_lay_off(c("KH"), GERMAN)  # L3: duplicate suit
    with pytest.raises(IllegalMeldError) as info:
        kings.with_layoff(c("KH"), GERMAN)
    assert info.value.rule == "set_distinct_suits"
    assert not kings.can_lay_off(c("QH"), GERMAN)
    assert kings.layoff_ends(c("KS"), GERMAN) == ()  # sets have no ends
    assert full.layoff_cards(GERMAN) == ()  # L4: a full set takes nothing
    for card in (*parse_cards("KH KD KC KS"), rk.JOKER):
        assert not full.can_lay_off(card, GERMAN)
    with pytest.raises(IllegalMeldError, match="full"):
        full.with_layoff(rk.JOKER, GERMAN)


def test_l5_no_lay_off_round_the_corner() -> None:
    meld = Meld.parse("QS KS AS", GERMAN)
    assert not meld.can_lay_off(c("2S"), GERMAN)
    assert meld.layoff_ends(c("2S"), GERMAN) == ()
    assert set(meld.layoff_cards(GERMAN)) == {c("JS"), rk.JOKER}


def test_l6_two_aces_on_a_twelve_card_run() -> None:
    meld = Meld.parse("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", GERMAN)
    assert meld.layoff_ends(c("AH"), GERMAN) == ("low", "high")  # the first ace fits either end
    low = meld.with_layoff(c("AH"), GERMAN, "low")
    assert (low.start, low.value) == (1, 85)
    assert low.layoff_ends(c("AH"), GERMAN) == ("high",)
    both = low.with_layoff(c("AH"), GERMAN)
    assert (len(both.cards), both.value, both.layoff_cards(GERMAN)) == (14, 96, ())
    assert str(both) == "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    high = meld.with_layoff(c("AH"), GERMAN)  # without an end, an ace that fits both goes on top
    assert (high.end, high.value) == (14, 95)
    scala = Rules.preset("scala40")
    assert not low.can_lay_off(c("AH"), scala)
    assert not high.can_lay_off(c("AH"), scala)


def test_l7_l8_joker_at_an_open_end() -> None:
    meld = Meld.parse("5H 6H JK(=7H)", GERMAN)
    assert str(meld.with_layoff(c("4H"), GERMAN)) == "4H 5H 6H JK(=7H)"  # L7
    assert not meld.can_lay_off(c("7H"), GERMAN)  # L8: 7H may not go beside its joker
    assert meld.exchange_cards() == (c("7H"),)
    swapped = meld.with_exchange(c("7H"))
    assert str(swapped) == "5H 6H 7H" and swapped.jokers == 0 and swapped.value == 18


def test_joker_lay_off_goes_upward_by_default() -> None:
    meld = Meld.parse("5H 6H 7H", GERMAN)
    assert str(meld.with_layoff(rk.JOKER, GERMAN)) == "5H 6H 7H JK(=8H)"
    assert str(meld.with_layoff(rk.JOKER, GERMAN, "low")) == "JK(=4H) 5H 6H 7H"
    top = Meld.parse("QH KH AH", GERMAN)
    assert str(top.with_layoff(rk.JOKER, GERMAN)) == "JK(=JH) QH KH AH"
    with pytest.raises(IllegalMeldError):
        top.with_layoff(rk.JOKER, GERMAN, "high")
    two = Meld.parse("3S JK JK 6S", GERMAN)  # a third joker would break jokers_le_naturals
    assert not two.can_lay_off(rk.JOKER, GERMAN)


# §8.3 joker exchange (meld level) ------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["german", "german_dskv", "scala40", "basic"])
def test_j5_run_joker_exchange(preset: str) -> None:
    rules = Rules.preset(preset)
    meld = Meld.parse("4C 5C JK 7C", rules)
    assert meld.exchange_cards() == (c("6C"),)
    swapped = meld.with_exchange(c("6C"))
    assert str(swapped) == "4C 5C 6C 7C" and swapped.jokers == 0 and swapped.value == meld.value == 22


def test_j6_no_exchange_but_lay_off() -> None:
    meld = Meld.parse("4C 5C JK 7C", GERMAN)
    assert c("8C") not in meld.exchange_cards()
    with pytest.raises(IllegalMeldError) as info:
        meld.with_exchange(c("8C"))
    assert info.value.rule == "joker_exchange"
    assert meld.layoff_ends(c("8C"), GERMAN) == ("high",)
    assert str(meld.with_layoff(c("8C"), GERMAN)) == "4C 5C JK(=6C) 7C 8C"


def test_j1_set_exchange_and_new_meld_with_the_joker() -> None:
    sixes = Meld.parse("6S 6H JK", GERMAN)
    assert sixes.exchange_cards() == (c("6C"), c("6D"))
    assert str(sixes.with_exchange(c("6C"))) == "6S 6H 6C"
    assert str(sixes.with_exchange(c("6D"))) == "6S 6H 6D"
    with pytest.raises(IllegalMeldError):
        sixes.with_exchange(c("6S"))
    new = Meld.parse("8D 9D JK", GERMAN)
    assert str(new) == "8D 9D JK(=10D)"


def test_set_with_two_jokers_exchanges_one_at_a_time() -> None:
    meld = Meld.parse("JK JK 5D 5C", GERMAN)
    assert meld.exchange_cards() == (c("5H"), c("5S"))
    once = meld.with_exchange(c("5H"))
    assert once.jokers == 1 and once.exchange_cards() == (c("5S"),)
    twice = once.with_exchange(c("5S"))
    assert twice.jokers == 0 and twice.value == 20


# §8.4 penalties ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "penalty"),
    [("german", 58), ("german_dskv", 48), ("scala40", 53), ("basic", 33)],
    ids=["P1", "P2", "P3", "P4"],
)
def test_section_8_4_penalties(preset: str, penalty: int) -> None:
    rules = Rules.preset(preset)
    cards = parse_cards("AS JK 7D KC")
    assert sum(rules.penalty_value(x) for x in cards) == penalty
    assert sum(rules.card_points(x) for x in cards) == penalty  # melding games count penalties


def test_knock_games_count_deadwood() -> None:
    cards = parse_cards("AS JK 7D KC")
    assert sum(Rules.preset("viennese").card_points(x) for x in cards) == 11 + 20 + 7 + 10
    assert sum(Rules.preset("romme_ohne_auslegen").card_points(x) for x in cards) == 11 + 30 + 7 + 10


# Properties -----------------------------------------------------------------------------------------

PROPERTY_RULES = [
    GERMAN,
    Rules.preset("scala40"),
    Rules.preset("basic"),
    GERMAN.replace(max_adjacent_jokers=None),
    GERMAN.replace(joker_limit="min_two_naturals", max_adjacent_jokers=None),
    GERMAN.replace(joker_limit="max_one_joker_per_meld"),
]


@st.composite
def candidate_melds(draw: st.DrawFn) -> tuple[Card, ...]:
    """A run or set shape from random cards, with some cards replaced by jokers (not always legal)."""
    shape = draw(st.sampled_from(["run", "set", "random"]))
    if shape == "run":
        suit = draw(st.integers(0, 3))
        length = draw(st.integers(3, 14))
        start = draw(st.integers(1, 15 - length))
        cards = [Card.of(1 if p == 14 else p, suit) for p in range(start, start + length)]
    elif shape == "set":
        rank = draw(st.integers(1, 13))
        suits = draw(st.permutations(range(4)))[: draw(st.integers(3, 4))]
        cards = [Card.of(rank, s) for s in suits]
    else:
        cards = draw(st.lists(st.sampled_from(ALL_FACES), min_size=3, max_size=6))
    jokered = draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)))
    return tuple(rk.JOKER if j else x for x, j in zip(cards, jokered, strict=True))


def legal_meld(cards: tuple[Card, ...], rules: Rules) -> Meld | None:
    try:
        return Meld.from_cards(cards, rules)
    except IllegalMeldError:
        return None


@given(candidate_melds(), st.sampled_from(PROPERTY_RULES))
def test_legal_meld_text_round_trips(cards: tuple[Card, ...], rules: Rules) -> None:
    meld = legal_meld(cards, rules)
    if meld is None:
        return
    assert Meld.parse(str(meld), rules) == meld
    assert Meld.parse(meld.notation(annotate=False), rules) == meld
    assert meld.cards == cards
    assert eval(repr(meld), {"Meld": Meld, "rules": rules}) == meld


@given(candidate_melds(), st.sampled_from(PROPERTY_RULES))
def test_legal_meld_value_counts_represented_cards(cards: tuple[Card, ...], rules: Rules) -> None:
    meld = legal_meld(cards, rules)
    if meld is None:
        return
    if meld.is_set:
        assert meld.value == rank_value(meld.rank) * len(meld.cards)
        assert len({x.suit for x in meld.naturals}) == len(meld.naturals)
    else:
        assert meld.value == sum(position_value(p) for p in range(meld.start, meld.end + 1))
        for i in range(len(meld.cards)):
            (represented,) = meld.represented(i)
            assert represented.suit == meld.suit
            if not meld.cards[i].is_joker:
                assert represented == meld.cards[i]


@given(candidate_melds(), st.sampled_from(PROPERTY_RULES))
def test_lay_off_and_exchange_cards_really_fit(cards: tuple[Card, ...], rules: Rules) -> None:
    meld = legal_meld(cards, rules)
    if meld is None:
        return
    for card in meld.layoff_cards(rules):
        grown = meld.with_layoff(card, rules)
        assert len(grown.cards) == len(meld.cards) + 1
        assert Meld.parse(str(grown), rules) == grown
    for card in meld.exchange_cards():
        swapped = meld.with_exchange(card)
        assert swapped.jokers == meld.jokers - 1 and card in swapped.cards
        assert swapped.value == meld.value
