"""Knock-family rounds (Viennese Rummy, Rommé ohne Auslegen), RULES.md §4 and §8.5.

V10 (Rummy call ends the hand at once, the 11th card face down), V11 (extra turns after a knock,
clockwise from the knocker's left, then the showdown), V4 (``knock_comparison``), D14 (deadwood 0
must be called as Rummy), R1 (Rommé ohne Auslegen: knock below 10, hand ends at once), showdown
scoring (D13) and what views reveal.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rummykit import Action, Card, Phase, Round, Rules, Termination, parse_cards, solver
from rummykit.errors import IllegalActionError, KnockError, WrongTurnError
from rummykit.testing import arrange_deck

VIENNESE = Rules.preset("viennese")
ROA = Rules.preset("romme_ohne_auslegen")

RUMMY_HAND = "2H 3H 4H 5H 9S 9D 9C QC QD QH"  # V6 / V10: deadwood 0
NO_MELDS = "2C 6C 10C 3D 7D JD 4H 8H QH 5S"  # deadwood 65
NO_MELDS_B = "3C 7C JC 4D 8D QD 5H 9H KH 2S"  # deadwood 68
NO_MELDS_13 = "2C 6C 10C 3D 7D JD 4H 8H QH 5S 9S KS AD"  # deadwood 95 (ace 11)


def deal(
    rules: Rules,
    hands: Sequence[str | None],
    *,
    dealer: int = 0,
    upcard: str | None = None,
    extra: str | None = None,
    stock: str = "",
) -> Round:
    deck = arrange_deck(rules, len(hands), hands, dealer=dealer, upcard=upcard, extra=extra, stock=stock)
    return Round.new(rules, len(hands), deck=deck, dealer=dealer, seed=1)


def snapshot(rnd: Round) -> tuple[object, ...]:
    return (tuple(rnd.view(s) for s in range(rnd.seats)), tuple(rnd.history), rnd.to_move, rnd.phase)


def rejected(rnd: Round, action: str, error: type[IllegalActionError], rule: str) -> None:
    before = snapshot(rnd)
    with pytest.raises(error) as checked:
        rnd.check(Action.parse(action))
    assert checked.value.rule == rule, str(checked.value)
    with pytest.raises(error):
        rnd.apply(action)
    assert snapshot(rnd) == before


def offered(rnd: Round) -> set[str]:
    return {str(a) for a in rnd.legal_actions()}


def test_V10_rummy_call_on_the_dealers_first_turn_ends_the_hand() -> None:
    rnd = deal(VIENNESE, [RUMMY_HAND, NO_MELDS, NO_MELDS_B], extra="7S")
    assert rnd.to_move == 0 and rnd.phase is Phase.DISCARD and len(rnd.view(0).hand) == 11
    assert "rummy 7S" in offered(rnd)
    assert not any(a.startswith("knock") for a in offered(rnd))
    rnd.apply("rummy 7S")
    result = rnd.result
    assert rnd.is_over and result is not None
    assert result.termination is Termination.RUMMY and result.winner == 0
    assert rnd.face_down == Card.parse("7S")
    assert rnd.view(1).discard_pile == ()  # the 11th card lies face down, it cannot be taken
    assert len(rnd.history) == 1  # no extra turns
    assert result.penalties == (0, 65, 68)
    assert result.points == (0, -65, -68)
    assert result.multiplier == 1


def test_V10_rummy_call_after_a_draw() -> None:
    rnd = deal(VIENNESE, [NO_MELDS, RUMMY_HAND], extra="KS", stock="7S")
    rnd.apply("discard KS")
    rnd.apply("draw")
    assert rnd.to_move == 1
    rnd.apply("rummy 7S")
    assert rnd.is_over and rnd.result is not None
    assert rnd.result.termination is Termination.RUMMY and rnd.result.winner == 1
    assert rnd.face_down == Card.parse("7S") and rnd.view(0).top_discard == Card.parse("KS")
    assert rnd.result.penalties[1] == 0
    assert rnd.result.penalties[0] == solver.min_deadwood(rnd.hands[0], VIENNESE)


def test_D14_zero_deadwood_may_not_knock() -> None:
    rnd = deal(VIENNESE, [RUMMY_HAND, NO_MELDS], extra="7S")
    rejected(rnd, "knock 7S", KnockError, "rummy")


def test_rummy_with_deadwood_is_rejected() -> None:
    rnd = deal(VIENNESE, [NO_MELDS, RUMMY_HAND], extra="7S")
    rejected(rnd, "rummy 7S", KnockError, "rummy")


V4_HAND = "4H 5H 6H 7H 7S 7D 2C 2D 2S 5C"  # deadwood 5


def test_V4_knock_with_five_rejected_under_lt() -> None:
    rnd = deal(VIENNESE, [V4_HAND, NO_MELDS], extra="KS")
    rejected(rnd, "knock KS", KnockError, "knock_threshold")
    assert "knock KS" not in offered(rnd)


def test_V4_knock_with_five_allowed_under_le() -> None:
    rules = VIENNESE.replace(knock_comparison="le")
    rnd = deal(rules, [V4_HAND, NO_MELDS], extra="KS")
    assert "knock KS" in offered(rnd)
    rnd.apply("knock KS")
    assert rnd.knocker == 0 and rnd.knock_deadwood == 5
    assert rnd.view(1).top_discard == Card.parse("KS")  # D13: the knock discard is face up
    assert rnd.to_move == 1 and rnd.phase is Phase.DRAW  # the other player's extra turn


# V11: four players; the dealer (seat 1) starts, seat 2 knocks, then seats 3, 0 and 1 have one more turn.
V11_HANDS = [
    "4C 5C 6C 7C JS JH JD AH AD 2S",  # V2: deadwood 24
    "4H 5H 6H 7H 8H JK QS QD 10C 3D",  # V8: deadwood 13 (+ KS, the dealer's 11th card)
    "7H 8H 9H QS QD QC 2C 2D 2S 3H",  # V1: deadwood 3 after discarding the drawn KD
    "AH 2H 3H AS AD KC QC JC 5S 5D",  # V7: deadwood 15
]


def v11_round() -> Round:
    rnd = deal(VIENNESE, V11_HANDS, dealer=1, extra="KS", stock="KD 9S 9D 9C")
    assert rnd.to_move == 1
    rnd.apply("discard KS")
    rnd.apply("draw")
    assert rnd.to_move == 2 and "knock KD" in offered(rnd)
    return rnd


def test_V11_extra_turns_clockwise_from_the_knockers_left_then_showdown() -> None:
    rnd = v11_round()
    rnd.apply("knock KD")
    assert rnd.knocker == 2 and rnd.knock_deadwood == 3 and not rnd.is_over
    sequence = []
    for card in ("9S", "9D", "9C"):
        sequence.append(rnd.to_move)
        assert rnd.phase is Phase.DRAW
        rnd.apply("draw")
        # During the extra turn: no knock, no Rummy, only discards.
        assert all(a.startswith("discard") for a in offered(rnd))
        rejected(rnd, f"knock {card}", KnockError, "knock_extra_turn")
        rejected(rnd, f"rummy {card}", KnockError, "knock_extra_turn")
        rnd.apply(f"discard {card}")
    assert sequence == [3, 0, 1]
    result = rnd.result
    assert rnd.is_over and result is not None
    assert result.termination is Termination.KNOCK and result.winner == 2
    # D13: the knocker scores their own deadwood, everybody else their minimum deadwood.
    assert result.penalties == (24, 13, 3, 15)
    assert result.points == (-24, -13, -3, -15)
    assert [a.deadwood for a in result.arrangements if a is not None] == [24, 13, 3, 15]
    assert [str(e.action) for e in rnd.history] == [
        "discard KS",
        "draw",
        "knock KD",
        "draw",
        "discard 9S",
        "draw",
        "discard 9D",
        "draw",
        "discard 9C",
    ]


def test_V11_the_knock_discard_may_be_taken_in_an_extra_turn() -> None:
    rnd = v11_round()
    rnd.apply("knock KD")
    assert rnd.to_move == 3 and "take" in offered(rnd)
    rnd.apply("take")
    rejected(rnd, "discard KD", IllegalActionError, "may_discard_taken_discard")
    rnd.apply("discard 5D")
    assert rnd.to_move == 0


def test_views_hide_other_hands_until_the_knock_and_the_showdown() -> None:
    rnd = v11_round()
    for seat in range(4):
        view = rnd.view(seat)
        assert sorted(view.hand) == sorted(rnd.hands[seat])
        assert all(shown is None for other, shown in enumerate(view.revealed) if other != seat)
    rnd.apply("knock KD")
    knocker_hand = sorted(rnd.hands[2])
    for seat in range(4):
        view = rnd.view(seat)
        assert view.knocker == 2
        assert view.revealed[2] is not None and sorted(view.revealed[2]) == knocker_hand
        assert all(view.revealed[o] is None for o in (0, 1, 3) if o != seat)
    for card in ("9S", "9D", "9C"):
        rnd.apply("draw")
        rnd.apply(f"discard {card}")
    assert rnd.is_over
    for seat in range(4):
        revealed = rnd.view(seat).revealed
        assert all(revealed[o] is not None and sorted(revealed[o]) == sorted(rnd.hands[o]) for o in range(4))


def test_R1_romme_ohne_auslegen_knock_below_ten_ends_at_once() -> None:
    r1 = "3C 4C 5C 6C 9D 9H 9S KH KS KD 2H 3D 4S"
    rnd = deal(ROA, [NO_MELDS_13, r1], upcard="JC", stock="8H")
    assert rnd.to_move == 1 and rnd.phase is Phase.DRAW
    rnd.apply("draw")
    assert solver.min_deadwood(parse_cards(r1), ROA) == 9
    assert "knock 8H" in offered(rnd)
    rnd.apply("knock 8H")
    result = rnd.result
    assert rnd.is_over and result is not None  # no extra turn (knock_extra_turn is off)
    assert result.termination is Termination.KNOCK and result.winner == 1
    assert result.penalties == (95, 9)
    assert rnd.view(0).top_discard == Card.parse("8H")


def test_R1_knock_with_ten_is_rejected() -> None:
    # 2H 3D 4S 5D: deadwood 14 after discarding the drawn 8H.
    hand = "3C 4C 5C 6C 9D 9H 9S KH KS KD 2H 3D 5D"
    rnd = deal(ROA, [NO_MELDS_13, hand], upcard="JC", stock="8H")
    rnd.apply("draw")
    rejected(rnd, "knock 8H", KnockError, "knock_threshold")


def test_knock_game_turn_order_and_phase_errors() -> None:
    rnd = deal(VIENNESE, [V4_HAND, NO_MELDS, NO_MELDS_B], extra="KS", stock="8S")
    rejected(rnd, "draw", WrongTurnError, "one_draw_per_turn")
    rejected(rnd, "meld 4H 5H 6H", WrongTurnError, "not_in_this_game")
    rnd.apply("discard KS")
    assert rnd.to_move == 1 and rnd.phase is Phase.DRAW
    rejected(rnd, "discard 2C", WrongTurnError, "draw_first")
    rnd.apply("take")
    rejected(rnd, "discard KS", IllegalActionError, "may_discard_taken_discard")
    assert "discard KS" not in offered(rnd)


@pytest.mark.parametrize("rules", [VIENNESE, ROA], ids=["viennese", "romme_ohne_auslegen"])
def test_D15_a_rummy_call_may_not_lay_away_the_card_just_taken(rules: Rules) -> None:
    """The Rummy call's face-down card is the turn's discard, so D15 forbids the taken card there too."""
    if rules is VIENNESE:  # the dealer throws KD from 11 cards; seat 1 takes it onto a Rummy hand
        rnd = deal(rules, [NO_MELDS, RUMMY_HAND], extra="KD")
        rnd.apply("discard KD")
    else:  # the forehand holds thirteen melded cards and takes the upcard KD
        rnd = deal(rules, [NO_MELDS_13, RUMMY_HAND + " 6C 7C 8C"], upcard="KD")
    rnd.apply("take")
    assert rnd.to_move == 1 and rnd.taken_discard == Card.parse("KD")
    assert not any(text.startswith("rummy") for text in offered(rnd))
    rejected(rnd, "rummy KD", IllegalActionError, "may_discard_taken_discard")
    rejected(rnd, "discard KD", IllegalActionError, "may_discard_taken_discard")


@pytest.mark.parametrize("rules", [VIENNESE, ROA], ids=["viennese", "romme_ohne_auslegen"])
def test_a_bare_knock_asks_for_the_card_it_discards(rules: Rules) -> None:
    """Gin knocks first and discards later; here the knock is the discard, so a knock without a card
    is refused by saying so (not by "discard, knock or call rummy", which reads as if knocking were fine)."""
    rnd = Round.new(rules, players=2, seed=5)
    while rnd.view(rnd.to_move).phase is not Phase.DISCARD:
        rnd.apply("draw")
    with pytest.raises(WrongTurnError, match=r"^knock: a knock discards a card: name it \('knock CARD'\)$"):
        rnd.apply("knock")
    assert rnd.view(rnd.to_move).phase is Phase.DISCARD  # nothing was lost
