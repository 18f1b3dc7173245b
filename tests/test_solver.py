"""Tests of the meld solver: worked examples of RULES.md §8, a brute-force reference, lay-offs, OpenSpiel."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations, permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummykit import solver
from rummykit.cards import JOKER_CODE, SUITS, Card, build_deck, parse_cards
from rummykit.errors import IllegalMeldError
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.solver import backend
from rummykit.testing import GIN_LIKE_RULES


@pytest.fixture(autouse=True, scope="module", params=sorted(backend.available()))
def solver_backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test of this module runs once per solver backend built here (python, native)."""
    with backend.use(request.param):
        yield request.param

VIENNESE = Rules.preset("viennese")
GERMAN = Rules.preset("german")
ROA = Rules.preset("romme_ohne_auslegen")
GIN = GIN_LIKE_RULES


def names(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(c) for c in cards]


# RULES.md §8.5: Viennese and knock-family hands ------------------------------------------------------
KNOCK_EXAMPLES = [
    ("V1", VIENNESE, "7H 8H 9H QS QD QC 2C 2D 2S 3H", 3),
    ("V2", VIENNESE, "4C 5C 6C 7C JS JH JD AH AD 2S", 24),
    ("V3", VIENNESE, "JK 5S 6S 9D 9H 9C KH QH JH 4D", 4),
    ("V4", VIENNESE, "4H 5H 6H 7H 7S 7D 2C 2D 2S 5C", 5),
    ("V5", VIENNESE, "8S 8H 8D 8C KS KH KD KC JK 2C", 10),
    ("V6", VIENNESE, "2H 3H 4H 5H 9S 9D 9C QC QD QH", 0),
    ("V7", VIENNESE, "AH 2H 3H AS AD KC QC JC 5S 5D", 15),
    ("V8", VIENNESE, "4H 5H 6H 7H 8H JK QS QD 10C 3D", 13),
    ("V9", VIENNESE, "7C 8C 9C 10C JC 3H 3S 3D 4D AD", 15),
    ("R1", ROA, "3C 4C 5C 6C 9D 9H 9S KH KS KD 2H 3D 4S", 9),
]


def knock_verdict(d: int, rules: Rules) -> str:
    """Rummy for 0, knock when under the threshold (``lt``) or at most it (``le``), else play on."""
    assert rules.knock_threshold is not None
    if d == 0:
        return "rummy"
    allowed = d < rules.knock_threshold if rules.knock_comparison == "lt" else d <= rules.knock_threshold
    return "knock" if allowed else "no knock"


@pytest.mark.parametrize(
    ("rules", "hand", "deadwood"), [e[1:] for e in KNOCK_EXAMPLES], ids=[e[0] for e in KNOCK_EXAMPLES]
)
def test_knock_examples_deadwood(rules: Rules, hand: str, deadwood: int) -> None:
    cards = parse_cards(hand)
    assert solver.min_deadwood(cards, rules) == deadwood
    arrangement = solver.best_arrangement(cards, rules)
    assert arrangement.deadwood == deadwood
    assert sum(rules.deadwood_value(c) for c in arrangement.deadwood_cards) == deadwood
    melded = [c for m in arrangement.melds for c in m.cards]
    assert Counter(melded) + Counter(arrangement.deadwood_cards) == Counter(cards)


@pytest.mark.parametrize(
    ("example", "rules", "expected"),
    [
        ("V1", VIENNESE, "knock"),
        ("V2", VIENNESE, "no knock"),
        ("V3", VIENNESE, "knock"),
        ("V4", VIENNESE, "no knock"),
        ("V4", VIENNESE.replace(knock_comparison="le"), "knock"),
        ("V5", VIENNESE, "no knock"),
        ("V6", VIENNESE, "rummy"),
        ("V7", VIENNESE, "no knock"),
        ("V8", VIENNESE, "no knock"),
        ("V9", VIENNESE, "no knock"),
        ("R1", ROA, "knock"),
    ],
    ids=["V1", "V2", "V3", "V4-lt", "V4-le", "V5", "V6", "V7", "V8", "V9", "R1"],
)
def test_knock_examples_verdict(example: str, rules: Rules, expected: str) -> None:
    hand = next(e[2] for e in KNOCK_EXAMPLES if e[0] == example)
    assert knock_verdict(solver.min_deadwood(parse_cards(hand), rules), rules) == expected


def test_v3_joker_run() -> None:
    a = solver.best_arrangement(parse_cards("JK 5S 6S 9D 9H 9C KH QH JH 4D"), VIENNESE)
    assert sorted(str(m) for m in a.melds) == ["5S 6S JK(=7S)", "9C 9D 9H", "JH QH KH"]
    assert names(a.deadwood_cards) == ["4D"]


def test_v4_prefers_three_card_run() -> None:
    a = solver.best_arrangement(parse_cards("4H 5H 6H 7H 7S 7D 2C 2D 2S 5C"), VIENNESE)
    assert sorted(str(m) for m in a.melds) == ["2C 2D 2S", "4H 5H 6H", "7D 7H 7S"]


def test_v5_joker_frees_a_natural() -> None:
    a = solver.best_arrangement(parse_cards("8S 8H 8D 8C KS KH KD KC JK 2C"), VIENNESE)
    assert len(a.deadwood_cards) == 2 and "2C" in names(a.deadwood_cards)
    assert any(m.jokers == 1 and m.is_set and m.rank == 8 for m in a.melds)


def test_v7_not_greedy() -> None:
    a = solver.best_arrangement(parse_cards("AH 2H 3H AS AD KC QC JC 5S 5D"), VIENNESE)
    assert sorted(str(m) for m in a.melds) == ["AD AH AS", "JC QC KC"]


def test_v10_rummy_call_discard() -> None:
    d, discards = solver.best_discards(parse_cards("2H 3H 4H 5H 9S 9D 9C QC QD QH 7S"), VIENNESE)
    assert (d, names(discards)) == (0, ["7S"])


def test_g1_gin_best_discards() -> None:
    d, discards = solver.best_discards(parse_cards("AS 2S 3S 7C 7D 7H 9H 10H JH 4D KC"), GIN)
    assert (d, names(discards)) == (4, ["KC"])
    assert solver.min_deadwood(parse_cards("AS 2S 3S 7C 7D 7H 9H 10H JH KC"), GIN) == 10
    assert solver.min_deadwood(parse_cards("QS KS AS"), GIN) == 21  # M24: ace low only


# RULES.md §8.2: openings ------------------------------------------------------------------------------
def test_o6_best_opening_value() -> None:
    cards = parse_cards("JK 2S 3S KD KC KS 10D 10C 10H")
    assert solver.max_opening_value(cards, GERMAN) == 70
    assert solver.max_opening_value(cards, GERMAN, keep_one=True) == 70  # 2S and 3S stay in hand
    laid = [Meld.parse(t, GERMAN) for t in ("JK 2S 3S", "KD KC KS", "10D 10C 10H")]
    assert sum(m.value for m in laid) == 66
    best = solver.best_opening(cards, GERMAN)
    assert best is not None and sum(m.value for m in best) == 70


@pytest.mark.parametrize(
    ("example", "hand", "value"),
    [
        ("O1", "QC KC AC 2H 2S 2D", 37),
        ("O2", "10H JH QH AS AD AC", 63),
        ("O3", "KS KD KH 2C 3C 4C", 39),
        ("O5", "AH 2H 3H 4H 9S 9D 9C", 37),
    ],
)
def test_opening_examples(example: str, hand: str, value: int) -> None:
    cards = parse_cards(hand)
    assert solver.max_opening_value(cards, GERMAN) == value
    best = solver.best_opening(cards, GERMAN, keep_one=False)
    assert (best is not None) == (value >= 40)
    assert solver.best_opening(cards, GERMAN, keep_one=True) is None  # nothing left to discard


def test_o4_taken_discard_must_be_melded() -> None:
    cards = parse_cards("10H JH KH QH 5C 5D")
    best = solver.best_opening(cards, GERMAN, must_include=Card.parse("QH"))
    assert best is not None and [str(m) for m in best] == ["10H JH QH KH"]
    assert solver.best_opening(cards, GERMAN, must_include=Card.parse("5C")) is None


def test_o8_single_meld_scope() -> None:
    cards = parse_cards("QC KC AC 9S 9D 9C 4H")
    assert solver.best_opening(cards, GERMAN.replace(opening_scope="single_meld")) is None
    best = solver.best_opening(cards, GERMAN)
    assert best is not None and sum(m.value for m in best) == 58
    strong = parse_cards("JC QC JK AC 9S 9D 9C 4H")
    best = solver.best_opening(strong, GERMAN.replace(opening_scope="single_meld"))
    assert best is not None and sum(m.value for m in best) == 68 and max(m.value for m in best) >= 40


def test_keep_one_needs_a_card_outside() -> None:
    assert solver.max_opening_value(parse_cards("7C 8C 9C"), GERMAN) == 24
    assert solver.max_opening_value(parse_cards("7C 8C 9C"), GERMAN, keep_one=True) == 0
    assert solver.max_opening_value(parse_cards("7C 8C 9C 10C"), GERMAN, keep_one=True) == 27
    assert solver.max_opening_value(parse_cards("7C 8C 9C JK"), GERMAN, keep_one=True) == 27  # JK as 10C


# Melds enumeration --------------------------------------------------------------------------------------
def test_all_melds_and_containing() -> None:
    cards = parse_cards("5H 6H JK 7S")
    found = {" ".join(names(list(m))) for m in solver.all_melds(cards, GERMAN)}
    assert found == {"JK 5H 6H", "5H 6H JK"}  # the joker as 4H or as 7H
    for m in solver.all_melds(cards, GERMAN):
        assert list(Meld.from_cards(m, GERMAN).cards) == list(m)
    assert solver.melds_containing(cards, Card.parse("7S"), GERMAN) == []


# Lay-offs (RULES.md §8.3) -------------------------------------------------------------------------------
def chain_text(steps: tuple[solver.Layoff, ...]) -> list[tuple[str, int, str | None]]:
    return [(str(c), i, e) for c, i, e in steps]


def apply_chain(table: list[Meld], steps: tuple[solver.Layoff, ...], rules: Rules) -> list[Meld]:
    table = list(table)
    for card, i, end in steps:
        table[i] = table[i].with_layoff(card, rules, end)
    return table


def test_l1_both_ends() -> None:
    table = [Meld.parse("2H 3H 4H", GERMAN)]
    steps = solver.layoff_chain(parse_cards("AH 5H"), table, GERMAN)
    assert str(apply_chain(table, steps, GERMAN)[0]) == "AH 2H 3H 4H 5H"


def test_l2_to_l5_targets() -> None:
    table = [Meld.parse(t, GERMAN) for t in ("KH KD KC", "KH KD KC KS", "QS KS AS")]
    targets = solver.layoff_targets(parse_cards("KS KH 2S JS"), table, GERMAN)
    assert chain_text(tuple(targets)) == [("JS", 2, "low"), ("KS", 0, None)]


def test_l6_ace_at_both_ends() -> None:
    table = [Meld.parse("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", GERMAN)]
    steps = solver.layoff_chain(parse_cards("AH AH"), table, GERMAN)
    assert len(steps) == 2 and len(apply_chain(table, steps, GERMAN)[0].cards) == 14
    scala = Rules.preset("scala40")
    table = [Meld.parse("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", scala)]
    assert len(solver.layoff_chain(parse_cards("AH AH"), table, scala)) == 1


def test_l7_l8_joker_run() -> None:
    table = [Meld.parse("5H 6H JK", GERMAN)]
    assert chain_text(tuple(solver.layoff_targets(parse_cards("4H 7H"), table, GERMAN))) == [("4H", 0, "low")]


def test_chain_through_earlier_layoff() -> None:
    table = [Meld.parse("2H 3H 4H", GERMAN)]
    assert solver.layoff_targets(parse_cards("6H"), table, GERMAN) == []
    steps = solver.layoff_chain(parse_cards("6H 5H 9C"), table, GERMAN)
    assert chain_text(steps) == [("5H", 0, "high"), ("6H", 0, "high")]
    steps = solver.layoff_chain(parse_cards("6H JK 8H"), table, GERMAN)
    assert [str(c) for c, _, _ in steps] == ["JK", "6H"]
    assert str(apply_chain(table, steps, GERMAN)[0]) == "2H 3H 4H JK(=5H) 6H"


def test_chain_shares_a_joker() -> None:
    table = [Meld.parse("2H 3H 4H", GERMAN), Meld.parse("9C 9D 9S", GERMAN)]
    steps = solver.layoff_chain(parse_cards("JK 6H 9H"), table, GERMAN)
    # The joker bridges to 6H (two cards) rather than joining the nines; 9H goes on the nines.
    assert sorted(str(c) for c, _, _ in steps) == ["6H", "9H", "JK"]
    final = apply_chain(table, steps, GERMAN)
    assert str(final[0]) == "2H 3H 4H JK(=5H) 6H" and len(final[1].cards) == 4


# Brute-force reference ------------------------------------------------------------------------------
RULE_VARIANTS = [
    VIENNESE,
    GERMAN,
    GIN,
    Rules.preset("scala40"),
    VIENNESE.replace(jokers_total=4, joker_limit="min_two_naturals", max_adjacent_jokers=None),
    VIENNESE.replace(joker_limit="at_least_one_natural"),
    VIENNESE.replace(joker_limit="at_least_one_natural", max_adjacent_jokers=1),
    VIENNESE.replace(joker_limit="max_one_joker_per_meld"),
    VIENNESE.replace(ace_low_in_runs=False, allow_ace_both_ends=False),
    VIENNESE.replace(set_size_max=3),
    VIENNESE.replace(set_size_min=4),
    VIENNESE.replace(set_distinct_suits=False, set_size_max=5),
]


@cache
def ref_meld_value(sub: tuple[int, ...], rules: Rules) -> int | None:
    """Best opening value of the multiset ``sub`` as one meld, or None: try every order of the cards
    with ``Meld.from_cards``, and sets whose jokers are declared as missing suits."""
    naturals = [Card(c) for c in sub if c != JOKER_CODE]
    if not naturals:
        return None
    if len({c.rank for c in naturals}) > 1 and len({c.suit for c in naturals}) > 1:
        return None  # neither one rank (set) nor one suit (run)
    best: int | None = None
    for order in set(permutations(sub)):
        try:
            value = Meld.from_cards(order, rules).value
        except IllegalMeldError:
            continue
        best = value if best is None else max(best, value)
    rank = naturals[0].rank
    missing = [s for s in range(4) if s not in {c.suit for c in naturals}]
    jokers = len(sub) - len(naturals)
    if len({c.rank for c in naturals}) == 1 and jokers <= len(missing):
        text = " ".join(str(c) for c in naturals)
        text += "".join(f" JK(={Card.of(rank, missing[i])})" for i in range(jokers))
        try:
            value = Meld.parse(text, rules).value
        except IllegalMeldError:
            pass
        else:
            best = value if best is None else max(best, value)
    return best


def ref_melds(cards: list[Card], rules: Rules) -> list[tuple[frozenset[int], int]]:
    out = []
    for size in range(3, len(cards) + 1):
        for idx in combinations(range(len(cards)), size):
            value = ref_meld_value(tuple(sorted(cards[i] for i in idx)), rules)
            if value is not None:
                out.append((frozenset(idx), value))
    return out


def ref_min_deadwood(cards: list[Card], rules: Rules) -> int:
    melds = ref_melds(cards, rules)

    @cache
    def best(left: frozenset[int]) -> int:
        if not left:
            return 0
        i = min(left)
        result = rules.deadwood_value(cards[i]) + best(left - {i})
        for m, _ in melds:
            if i in m and m <= left:
                result = min(result, best(left - m))
        return result

    return best(frozenset(range(len(cards))))


def ref_max_opening(cards: list[Card], rules: Rules, keep_one: bool) -> int:
    melds = ref_melds(cards, rules)

    @cache
    def best(left: frozenset[int], kept: bool) -> float:
        if not left:
            return 0 if kept else float("-inf")
        i = min(left)
        result = best(left - {i}, True)
        for m, v in melds:
            if i in m and m <= left:
                result = max(result, v + best(left - m, kept))
        return result

    return max(0, int(best(frozenset(range(len(cards))), not keep_one)))


POOL = [Card.of(r, s) for s in (0, 2, 3) for r in (1, 2, 3, 4, 11, 12, 13)]

hands = st.lists(st.sampled_from([*POOL, Card(JOKER_CODE)]), min_size=1, max_size=7).filter(
    lambda h: all(n <= 2 for c, n in Counter(h).items() if c != JOKER_CODE) and h.count(JOKER_CODE) <= 3
)
rule_sets = st.sampled_from(RULE_VARIANTS)
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


@FAST
@given(hand=hands, rules=rule_sets)
def test_min_deadwood_matches_reference(hand: list[Card], rules: Rules) -> None:
    assert solver.min_deadwood(hand, rules) == ref_min_deadwood(hand, rules)
    arrangement = solver.best_arrangement(hand, rules)
    assert arrangement.deadwood == ref_min_deadwood(hand, rules)
    melded = [c for m in arrangement.melds for c in m.cards]
    assert Counter(melded) + Counter(arrangement.deadwood_cards) == Counter(hand)


@FAST
@given(hand=hands, rules=rule_sets, keep_one=st.booleans())
def test_max_opening_matches_reference(hand: list[Card], rules: Rules, keep_one: bool) -> None:
    expected = ref_max_opening(hand, rules, keep_one)
    assert solver.max_opening_value(hand, rules, keep_one=keep_one) == expected
    free = rules if rules.is_knock_game else rules.replace(opening_min_points=0)  # knock games: no minimum
    best = solver.best_opening(hand, free, keep_one=keep_one)
    assert (0 if best is None else sum(m.value for m in best)) == expected
    if best is not None:
        melded = Counter(c for m in best for c in m.cards)
        assert not melded - Counter(hand)
        assert not keep_one or melded.total() < len(hand)


@FAST
@given(hand=hands.filter(lambda h: len(h) >= 2), rules=rule_sets)
def test_best_discards_matches_reference(hand: list[Card], rules: Rules) -> None:
    results = {}
    for c in set(hand):
        rest = list(hand)
        rest.remove(c)
        results[c] = ref_min_deadwood(rest, rules)
    best = min(results.values())
    winners = tuple(sorted(c for c, v in results.items() if v == best))
    assert solver.best_discards(hand, rules) == (best, winners)


@FAST
@given(hand=hands, rules=rule_sets, data=st.data())
def test_all_melds_matches_reference(hand: list[Card], rules: Rules, data: st.DataObject) -> None:
    found = solver.all_melds(hand, rules)
    assert len(found) == len(set(found))
    expected = {tuple(sorted(hand[i] for i in idx)) for idx, _ in ref_melds(hand, rules)}
    assert {tuple(sorted(m)) for m in found} == expected
    for m in found:
        try:
            meld = Meld.from_cards(m, rules)
        except IllegalMeldError:
            assert sum(c != JOKER_CODE for c in m) == 1  # a one-natural set reads as a run when written
        else:
            assert meld.cards == m
    card = data.draw(st.sampled_from(hand))
    assert solver.melds_containing(hand, card, rules) == [m for m in found if card in m]


@FAST
@given(hand=hands, rules=rule_sets, seed=st.integers(0, 1000))
def test_order_independent(hand: list[Card], rules: Rules, seed: int) -> None:
    shuffled = list(hand)
    random.Random(seed).shuffle(shuffled)
    assert solver.best_arrangement(hand, rules) == solver.best_arrangement(shuffled, rules)
    assert solver.best_discards(hand, rules) == solver.best_discards(shuffled, rules)


def test_rejects_three_copies() -> None:
    with pytest.raises(ValueError):
        solver.min_deadwood(parse_cards("7H 7H 7H"), VIENNESE)


def test_cache_clear_keeps_results() -> None:
    cards = parse_cards("7H 8H 9H QS QD QC 2C 2D 2S 3H")
    first = solver.min_deadwood(cards, VIENNESE)
    solver.clear_caches()
    assert solver.min_deadwood(cards, VIENNESE) == first == 3


# OpenSpiel (optional) ---------------------------------------------------------------------------------
def openspiel_strings(cards: tuple[Card, ...]) -> list[str]:
    out = []
    for c in cards:
        text = str(c)
        rank = "T" if text[:-1] == "10" else text[:-1]
        out.append(rank + "scdh"["SCDH".index(text[-1])])
    return out


def test_openspiel_min_deadwood_ten_cards() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    assert SUITS == "CDHS"
    rng = random.Random(20240611)
    deck = list(build_deck(1, 0))
    for _ in range(10_000):
        rng.shuffle(deck)
        hand = tuple(deck[:10])
        expected = utils.min_deadwood(utils.card_strings_to_card_ints(openspiel_strings(hand)))
        assert solver.min_deadwood(hand, GIN) == expected, hand


def test_openspiel_eleven_cards_is_an_upper_bound() -> None:
    """OpenSpiel's 11-card value is a heuristic (best melds by value, then drop the highest deadwood
    card); the exact best 10-of-11 deadwood is never above it and equals min over the discards."""
    pyspiel = pytest.importorskip("pyspiel")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    rng = random.Random(7)
    deck = list(build_deck(1, 0))
    for _ in range(2_000):
        rng.shuffle(deck)
        hand = tuple(deck[:11])
        exact, discards = solver.best_discards(hand, GIN)
        heuristic = utils.min_deadwood(utils.card_strings_to_card_ints(openspiel_strings(hand)))
        assert exact <= heuristic
        assert exact == min(solver.min_deadwood(tuple(c for c in hand if c != d), GIN) for d in hand)
        assert all(solver.min_deadwood(tuple(c for c in hand if c != d), GIN) == exact for d in discards)


def ref_layoff_best(hand: list[Card], table: list[Meld], rules: Rules) -> tuple[int, int]:
    """Most cards (then most points) over every sequence of single legal lay-offs, by brute force."""
    best = (0, 0)

    def go(hand: list[Card], table: list[Meld], n: int, points: int) -> None:
        nonlocal best
        best = max(best, (n, points))
        for card in set(hand):
            rest = list(hand)
            rest.remove(card)
            for i, meld in enumerate(table):
                for end in (None,) if meld.is_set else ("low", "high"):
                    try:
                        grown = meld.with_layoff(card, rules, end)
                    except IllegalMeldError:
                        continue
                    go(rest, [*table[:i], grown, *table[i + 1 :]], n + 1, points + rules.card_points(card))

    go(hand, table, 0, 0)
    return best


LAYOFF_POOL = [Card.of(r, s) for s in (2, 3) for r in (1, 2, 3, 4, 5, 6, 12, 13)]


@settings(max_examples=150, deadline=None)
@given(
    table_cards=st.lists(st.sampled_from([*LAYOFF_POOL, Card(JOKER_CODE)]), min_size=3, max_size=8).filter(
        lambda h: max(Counter(h).values()) <= 2
    ),
    hand=st.lists(st.sampled_from([*LAYOFF_POOL, Card(JOKER_CODE)]), min_size=1, max_size=4),
    rules=st.sampled_from([GERMAN, Rules.preset("scala40"), VIENNESE.replace(max_adjacent_jokers=1)]),
    data=st.data(),
)
def test_layoff_chain_matches_reference(
    table_cards: list[Card], hand: list[Card], rules: Rules, data: st.DataObject
) -> None:
    candidates = solver.all_melds(table_cards, rules)
    if not candidates:
        return
    picks = data.draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=3))
    table = []
    for cards in picks:
        try:
            table.append(Meld.from_cards(cards, rules))
        except IllegalMeldError:
            continue
    steps = solver.layoff_chain(hand, table, rules)
    final = apply_chain(table, steps, rules)  # raises if a step is illegal when it is made
    assert len(final) == len(table)
    assert not Counter(c for c, _, _ in steps) - Counter(hand)
    assert (len(steps), sum(rules.card_points(c) for c, _, _ in steps)) == ref_layoff_best(hand, table, rules)
