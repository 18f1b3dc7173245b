"""Cards, notation (RULES.md §0.1), decks (§2.1) and hands as multisets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rummykit as rk
from rummykit.cards import ALL_FACES, JOKER_CODE, NUM_CODES, Card, Hand, build_deck, format_cards, parse_cards

ALL_CARDS = (*ALL_FACES, rk.JOKER)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AH", 1, 2),
        ("10D", 10, 1),
        ("TD", 10, 1),
        ("td", 10, 1),
        ("QC", 12, 0),
        ("qc", 12, 0),
        ("KS", 13, 3),
        ("2C", 2, 0),
        ("9s", 9, 3),
        ("JH", 11, 2),
        ("K♠", 13, 3),
        ("♠K", 13, 3),
        ("10♣", 10, 0),
        ("A♦", 1, 1),
        ("Q♥", 12, 2),
        ("  7h ", 7, 2),
    ],
)
def test_parse_natural(text: str, rank: int, suit: int) -> None:
    card = Card.parse(text)
    assert (card.rank, card.suit, card.is_joker) == (rank, suit, False)
    assert card == Card.of(rank, suit)


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", "JOKER", "joker"])
def test_parse_joker(text: str) -> None:
    card = Card.parse(text)
    assert card.is_joker and card is rk.JOKER
    assert (card.rank, card.suit, str(card)) == (0, -1, "JK")


def test_ten_is_written_10_on_output() -> None:
    assert str(Card.parse("TD")) == "10D"
    assert str(Card.parse("10d")) == "10D"
    assert format_cards(parse_cards("TH tc")) == "10H 10C"


def test_every_card_round_trips_through_str_and_repr() -> None:
    assert len(ALL_CARDS) == NUM_CODES == 53
    texts = {str(c) for c in ALL_CARDS}
    assert len(texts) == 53
    for card in ALL_CARDS:
        assert Card.parse(str(card)) is card
        assert eval(repr(card), {"Card": Card}) is card
        assert Card.parse(card.symbol()) is card


def test_symbol_form() -> None:
    assert Card.parse("QH").symbol() == "Q♥"
    assert Card.parse("10C").symbol() == "10♣"
    assert rk.JOKER.symbol() == "JK"


def test_parse_cards_keeps_order_and_accepts_commas() -> None:
    cards = parse_cards("10H, JH QH,KH")
    assert [str(c) for c in cards] == ["10H", "JH", "QH", "KH"]
    assert parse_cards("") == ()
    assert parse_cards("7H 7H") == (Card.parse("7H"), Card.parse("7H"))


def test_german_rank_letters_are_read_as_jack_and_queen() -> None:
    """B (Bube) and D (Dame), as German packs print them; the notation written stays J and Q. Every
    text that was a card before means the same card: a suit-first ``DK`` is still the king of
    diamonds, ``JD`` the jack of diamonds."""
    assert Card.parse("DK") == Card.parse("KD") and Card.parse("JD") == Card.of(11, 1)
    assert [str(rk.Card.parse(t)) for t in ("BH", "bh", "B♥", "DD", "D♠", "♠D", "KD")] == [
        "JH", "JH", "JH", "QD", "QS", "QS", "KD",
    ]  # fmt: skip


@pytest.mark.parametrize("text", ["XX", "1H", "11H", "AX", "BX", "DX", "H", "K", "JKK", "10", "A H", "♠"])
def test_notation_error_quotes_the_input(text: str) -> None:
    with pytest.raises(rk.NotationError) as info:
        parse_cards(text)
    token = text.split()[0] if text.split() else text
    assert repr(token) in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, rk.RummyError)


def test_card_codes_and_bad_codes() -> None:
    assert Card(JOKER_CODE).is_joker
    assert Card.of(1, 0) == 0 and Card.of(13, 3) == 51
    assert Card(7) is Card(7)
    for bad in (-1, NUM_CODES):
        with pytest.raises(rk.NotationError):
            Card(bad)
    with pytest.raises(rk.NotationError):
        Card.of(14, 0)
    with pytest.raises(rk.NotationError):
        Card.of(1, 4)


@pytest.mark.parametrize(
    ("preset", "size", "jokers"),
    [
        ("german", 110, 6),
        ("german_dskv", 110, 6),
        ("viennese", 106, 2),
        ("romme_ohne_auslegen", 110, 6),
        ("scala40", 108, 4),
        ("basic", 54, 2),
    ],
)
def test_deck_size_per_preset(preset: str, size: int, jokers: int) -> None:
    rules = rk.Rules.preset(preset)
    deck = build_deck(rules.num_decks, rules.jokers_total)
    assert len(deck) == rules.deck_size == size
    assert deck.count(rk.JOKER) == jokers
    hand = Hand(deck)
    for face in ALL_FACES:
        assert hand.count(face) == rules.num_decks


def test_gin_like_deck_has_52_cards() -> None:
    deck = build_deck(1, 0)
    assert len(deck) == 52 and len(set(deck)) == 52 and rk.JOKER not in deck


def test_hand_is_a_multiset() -> None:
    h = Hand(parse_cards("7H JK 7H 2C"))
    seven = Card.parse("7H")
    assert len(h) == 4
    assert h.count(seven) == 2 and h.count(rk.JOKER) == 1 and h.count(Card.parse("7S")) == 0
    assert str(h) == "2C 7H 7H JK"  # code order: clubs, diamonds, hearts, spades, then jokers
    assert h == Hand(parse_cards("JK 2C 7H 7H"))
    assert h != Hand(parse_cards("JK 2C 7H"))
    with pytest.raises(TypeError):  # mutable, so unhashable; counts is the hashable snapshot
        hash(h)
    assert h.counts == Hand(parse_cards("7H 7H 2C JK")).counts
    assert seven in h and Card.parse("7S") not in h
    assert h.contains_all(parse_cards("7H 7H"))
    assert not h.contains_all(parse_cards("7H 7H 7H"))
    h.remove(seven)
    assert h.count(seven) == 1 and len(h) == 3
    h.add(seven)
    h.add(seven)
    assert h.count(seven) == 3 and len(h) == 5
    with pytest.raises(KeyError):
        h.remove(Card.parse("KS"))
    assert len(h) == 5


def test_hand_copy_is_independent() -> None:
    h = Hand(parse_cards("AH AH"))
    c = h.copy()
    c.remove(Card.parse("AH"))
    assert h.count(Card.parse("AH")) == 2 and c.count(Card.parse("AH")) == 1
    assert len(h.counts) == NUM_CODES and sum(h.counts) == 2
    assert eval(repr(h), {"Hand": Hand, "parse_cards": parse_cards}) == h


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=30))
def test_format_then_parse_round_trips(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
    assert Hand(parse_cards(str(Hand(cards)))) == Hand(cards)


card_like_text = st.lists(
    st.one_of(
        st.text(alphabet="AKQJT1023456789CDHSKJOR♣♦♥♠ackdhsjqt", max_size=4),
        st.text(max_size=4),
    ),
    max_size=6,
).map(lambda tokens: " ".join(tokens))


@given(st.one_of(st.text(), card_like_text))
def test_any_text_parses_or_raises_notation_error(text: str) -> None:
    try:
        cards = parse_cards(text)
    except rk.NotationError:
        return
    assert all(isinstance(c, Card) for c in cards)
    assert parse_cards(format_cards(cards)) == cards


def test_a_deck_order_that_is_not_the_deck_names_the_cards_that_differ() -> None:
    """A record whose deck holds one 7♣ too many and no 6♣ says so, instead of only that the
    order is not the deck; a short deck names a few missing cards and counts the rest."""
    import rummykit as rk
    from rummykit.cards import build_deck

    german = rk.Rules.preset("german")
    deck = list(build_deck(2, 6))
    assert (str(deck[5]), str(deck[6])) == ("6C", "7C")
    deck[5] = deck[6]
    with pytest.raises(rk.RulesError, match=r"; extra 7C; missing 6C$"):
        rk.Round.new(german, 3, deck=deck)
    with pytest.raises(rk.RulesError, match=r"holds 50 cards .*; missing AC 2C 3C 4C 5C 6C and 54 more$"):
        rk.Round.new(german, 3, deck=deck[:50])
