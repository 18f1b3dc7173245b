"""Matches: the Viennese rubber of RULES.md §4.8 / §8.6 (R2–R9) played from crafted deals, match ends
(§3.15, §5.2, §5.3, D25), deal rotation, match records and illegal match decisions.

Viennese deals use ``start_mode = dealer_extra_card``: the dealer holds 11 cards and acts first in
the DISCARD phase, so a crafted dealer hand can knock or call Rummy at once. The other players then
take their extra turns (``knock_extra_turn = true``) by drawing from the stock and discarding the
drawn card, which leaves their crafted 10-card hands (and so their minimum deadwood) unchanged.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import rummykit as rk
from rummykit.errors import MatchDecisionError
from rummykit.testing import arrange_deck

VIE = rk.Rules.preset("viennese")
GER = rk.Rules.preset("german")

# Ten-card Viennese hands with a known minimum deadwood (checked in test_crafted_hands).
KNOCK3 = "7H 8H 9H QS QD QC 2C 2D 2S 3H"  # RULES.md V1: deadwood 3
KNOCK4 = "7H 8H 9H QS QD QC 2C 2D 2S 4H"  # deadwood 4
RUMMY10 = "2H 3H 4H 5H 9S 9D 9C QC QD QH"  # RULES.md V10 without the 11th card: deadwood 0
DW = {
    5: "4C 5C 6C 7C 10D 10H 10S 10C 2H 3S",
    7: "KD KH KS 3C 4C 5C 8D 8C 8H 7S",
    11: "4C 5C 6C 7C 10D 10H 10S 10C 5S 6D",
    12: "4C 5C 6C 7C 10D 10H 10S 10C 5S 7D",
    20: "8S 9S 10S JS 6H 6S 6D 6C KC QH",
    30: "4C 5C 6C 7C 10D 10H 10S KS QD JH",
    31: "4C 5C 6C 7C 10D 10H 10S KS QD AH",
}
B3 = "KD KH KS 3C 4C 5C 8D 8C 8H 3D"  # deadwood 3 (3C 4C 5C run, 3D left)


def test_crafted_hands() -> None:
    def dw(text: str) -> int:
        return rk.solver.min_deadwood(rk.parse_cards(text), VIE)

    assert dw(KNOCK3) == 3
    assert dw(KNOCK4) == 4
    assert dw(RUMMY10) == 0
    assert dw(B3) == 3
    for expected, text in DW.items():
        assert dw(text) == expected, text


def fill(rules: rk.Rules, hands: Sequence[str | None], extra: str, seed: int = 0) -> list[str]:
    """Complete ``hands`` (``None`` = any cards) from the rest of the deck, shuffled by ``seed``."""
    rest = Counter(rk.build_deck(rules.num_decks, rules.jokers_total))
    rest.subtract(rk.parse_cards(" ".join(h for h in hands if h) + " " + extra))
    pool = sorted(rest.elements())
    random.Random(seed).shuffle(pool)
    size = rules.hand_size
    out = []
    for h in hands:
        if h is None:
            h, pool = rk.format_cards(pool[:size]), pool[size:]
        out.append(h)
    return out


def rubber(
    hands: Sequence[str],
    *,
    dealer: int,
    extra: str,
    totals: Sequence[int] | None = None,
    chips: Sequence[int] | None = None,
    pot: int = 0,
    buybacks: Sequence[int] | None = None,
    eliminated: Sequence[bool] | None = None,
    seats: int | None = None,
    rules: rk.Rules = VIE,
    seed: int = 1,
) -> rk.Match:
    """A Viennese match whose first deal gives ``hands`` (one per seat in play, in seat order).

    ``seats`` > ``len(hands)`` seats a table whose extra seats are already eliminated: the deal among
    the seats in play is then the deal of a table of ``len(hands)`` (arrange_deck has no ``in_play``).
    """
    n = seats or len(hands)
    deck = arrange_deck(rules, len(hands), list(hands), dealer=dealer, extra=extra)
    position = None
    if totals is not None:
        position = rk.MatchPosition(
            totals=tuple(totals),
            chips=None if chips is None else tuple(chips),
            pot=pot,
            buybacks=None if buybacks is None else tuple(buybacks),
            eliminated=None if eliminated is None else tuple(eliminated),
        )
    return rk.Match.new(rules, n, seed=seed, dealer=dealer, deck=deck, position=position)


def finish_extra_turns(m: rk.Match) -> None:
    """Play the post-knock extra turns of the first hand: draw from the stock, discard that card."""
    first = m.rounds[0]
    while m.round is first and not first.is_over:
        event = m.apply("draw")
        assert isinstance(event, rk.Event) and event.card is not None
        m.apply(f"discard {event.card}")
    assert first.is_over


def state(m: rk.Match) -> tuple[Any, ...]:
    return (
        m.totals,
        m.scores,
        m.chips,
        m.pot,
        tuple(m.eliminated),
        tuple(m.buybacks),
        tuple(m.pending_buyback),
        m.winners,
        len(m.history),
        len(m.actions),
        len(m.rounds),
        len(m.round.history),
        m.to_move,
        m.legal_actions(),
    )


BUY = [rk.Action.parse("buyback"), rk.Action.parse("decline")]


# RULES.md §8.6 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("call", ["knock", "rummy"])
def test_R2_knock_money_from_each_other_player(call: str) -> None:
    """R2: 5 players in play; A (seat 0, the dealer) knocks (or calls Rummy) on the first turn and
    receives 1 chip from each of the 4 others. A fresh rubber: everybody anted 5 into the pot."""
    own = KNOCK3 if call == "knock" else RUMMY10
    extra = "KH" if call == "knock" else "7S"
    m = rubber(fill(VIE, [own, None, None, None, None], extra), dealer=0, extra=extra)
    assert (m.pot, m.chips) == (25, (-5,) * 5)
    assert m.to_move == 0
    m.apply(f"{call} {extra}")
    if call == "knock":
        finish_extra_turns(m)
    result = m.rounds[0].result
    assert result is not None and result.winner == 0
    assert m.chips == (-5 + 4, -6, -6, -6, -6)
    assert m.pot == 25
    assert m.totals == result.penalties
    assert m.totals[0] == (3 if call == "knock" else 0)


def r3_match() -> rk.Match:
    """R3: seats A, B, C, D = 0–3 at A 70, B 40, C 85, D 20; B deals and knocks with deadwood 3;
    the showdown finds A 12, C 20, D 7."""
    m = rubber(
        [DW[12], KNOCK3, DW[20], DW[7]],
        dealer=1,
        extra="KH",
        totals=(70, 40, 85, 20),
        chips=(-5, -5, -5, -5),
        pot=20,
    )
    m.apply("knock KH")
    # the extra turns run clockwise from the knocker's left: C, D, A (RULES.md V11)
    assert (m.round.to_move, m.round.phase) == (2, rk.Phase.DRAW)
    finish_extra_turns(m)
    assert [e.seat for e in m.rounds[0].history] == [1, 2, 2, 3, 3, 0, 0]
    return m


def test_R3_knock_money_totals_and_elimination() -> None:
    m = r3_match()
    result = m.rounds[0].result
    assert result is not None
    assert result.termination is rk.Termination.KNOCK and result.winner == 1
    assert result.penalties == (12, 3, 20, 7)
    assert m.chips == (-6, -5 + 3, -6, -6)  # B +3 chips, every other player −1
    assert m.pot == 20  # knock money goes to the knocker, not into the pot
    assert m.totals == (82, 43, 105, 27)
    assert m.eliminated == [False, False, True, False]
    assert m.active_seats == (0, 1, 3)
    assert not m.is_over


def test_R4_buyback_to_second_worst() -> None:
    m = r3_match()
    # A (82) is offered a buy-back; C (105) is out and gets no offer
    assert m.pending_buyback == [0]
    assert m.to_move == 0
    assert m.legal_actions() == BUY
    event = m.apply("buyback")
    assert event == rk.MatchEvent(0, rk.Action.parse("buyback"), 5, 43, old_total=82, hand=1)
    assert m.history[-1] is event
    assert m.totals == (43, 43, 105, 27)  # the second-worst player still in play is B (43)
    assert m.chips == (-11, -2, -6, -6)
    assert m.pot == 25
    assert m.buybacks == [1, 0, 0, 0]
    # the next deal follows: clockwise from B, skipping the eliminated C
    assert len(m.rounds) == 2 and m.round.dealer == 3
    assert 2 not in m.round.active


def test_R4_declined_buyback_keeps_the_total() -> None:
    m = r3_match()
    event = m.apply("decline")
    assert event == rk.MatchEvent(0, rk.Action.parse("decline"), 0, None, hand=1)
    assert m.totals == (82, 43, 105, 27)
    assert (m.chips, m.pot, m.buybacks) == ((-6, -2, -6, -6), 20, [0, 0, 0, 0])
    assert len(m.rounds) == 2


def one_hand(seat0: str, *, total0: int, buybacks0: int = 0) -> rk.Match:
    """Three players at (total0, 0, 0); seat 2 deals and knocks with 3, seat 1 ends with 7, seat 0
    with the deadwood of ``seat0``."""
    m = rubber(
        [seat0, DW[7], KNOCK3],
        dealer=2,
        extra="KH",
        totals=(total0, 0, 0),
        chips=(-5, -5, -5),
        pot=15,
        buybacks=(buybacks0, 0, 0),
    )
    m.apply("knock KH")
    finish_extra_turns(m)
    return m


@pytest.mark.parametrize(
    ("deadwood", "total", "offer", "out"),
    [
        (11, 81, False, False),  # R5: exactly 81 is not above 81
        (12, 82, True, False),
        (30, 100, True, False),
        (31, 101, False, True),  # 101 is out, not offered
    ],
)
def test_R5_buyback_window(deadwood: int, total: int, offer: bool, out: bool) -> None:
    m = one_hand(DW[deadwood], total0=70)
    assert m.totals == (total, 7, 3)
    assert m.eliminated[0] is out
    if offer:
        assert (m.pending_buyback, m.to_move, m.legal_actions()) == ([0], 0, BUY)
        assert len(m.rounds) == 1
    else:
        assert m.pending_buyback == []
        assert len(m.rounds) == 2  # straight on to the next deal
        assert rk.Action.parse("buyback") not in m.legal_actions()
        with pytest.raises(MatchDecisionError):
            m.apply("buyback")


@pytest.mark.parametrize("used", [0, 1])
def test_R6_second_buyback_not_offered(used: int) -> None:
    """R6: a player who already bought back reaches 90 again: no offer (buyback_limit = 1)."""
    m = one_hand(DW[30], total0=60, buybacks0=used)
    assert m.totals == (90, 7, 3)
    if used:
        assert m.pending_buyback == [] and len(m.rounds) == 2
    else:
        assert m.pending_buyback == [0]


def eager(m: rk.Match, rng: random.Random) -> rk.Action:
    """Knock or call Rummy whenever allowed, never buy back, otherwise play at random."""
    actions = m.legal_actions()
    if actions == BUY:
        return BUY[1]
    calls = [a for a in actions if str(a).startswith(("rummy", "knock"))]
    return calls[0] if calls else rng.choice(actions)


def test_R7_survivor_takes_antes_and_buyback() -> None:
    """R7: 4 players ante 5 each; one buy-back; the last survivor takes 20 + 5 = 25 chips.

    First hand (crafted): the dealer (seat 0) knocks with 3; seats 1 and 2 hold 102 deadwood each
    (out); seat 3 holds 89 and buys back (to the knocker's 3). The rest of the rubber is played by
    an eager knocker that declines every further buy-back offer."""
    no_melds = "AS AH KD KC QS QH JD JC 10S 10H"  # 102, no meld possible
    seat3 = "AD AC KS KH QD QC JS JH 5S 2H"  # 89
    knocker = "4H 5H 6H 7S 7D 7C 2C 2D 2S 3D"  # deadwood 3
    m = rubber([knocker, no_melds, no_melds, seat3], dealer=0, extra="9C", seed=3)
    assert (m.pot, m.chips) == (20, (-5, -5, -5, -5))
    m.apply("knock 9C")
    finish_extra_turns(m)
    assert m.totals == (3, 102, 102, 89)
    assert m.active_seats == (0, 3)
    assert m.chips == (-2, -6, -6, -6)
    assert m.pending_buyback == [3]
    m.apply("buyback")
    assert m.totals[3] == 3 and m.pot == 25
    rng = random.Random(0)
    pot_before_end = None
    for _ in range(20_000):
        if m.is_over:
            break
        pot_before_end = m.pot
        m.apply(eager(m, rng))
    assert m.is_over
    assert pot_before_end == 25 and m.pot == 0
    assert len(m.winners) == 1
    survivor = m.winners[0]
    assert m.active_seats == (survivor,)
    buyback = [0, 0, 0, 5]
    knock_money = [0] * 4
    for rnd in m.rounds:
        assert rnd.result is not None
        if rnd.result.scored:
            for s in rnd.active:
                knock_money[s] += len(rnd.active) - 1 if s == rnd.result.winner else -1
    expected = tuple(-5 - buyback[s] + knock_money[s] + (25 if s == survivor else 0) for s in range(4))
    assert m.chips == expected
    assert sum(m.chips) == 0


def test_R8_both_last_players_out_lower_total_wins() -> None:
    """R8: two players left (seat 2 was eliminated before): X (seat 0) 97, Y (seat 1) 98. X deals and
    knocks with 4, Y ends with 12: X 101, Y 110, both out; X takes the pot (D19), after receiving the
    knock money. The eliminated seat 2 pays nothing."""
    m = rubber(
        [KNOCK4, DW[12]],
        seats=3,
        dealer=0,
        extra="KH",
        totals=(97, 98, 120),
        chips=(-5, -5, -5),
        pot=15,
        eliminated=(False, False, True),
    )
    assert m.round.active == (1, 0)
    m.apply("knock KH")
    finish_extra_turns(m)
    assert m.totals == (101, 110, 120)
    assert m.eliminated == [True, True, True]
    assert m.is_over and m.winners == (0,) and m.winner == 0
    assert m.pot == 0
    assert m.chips == (-5 + 1 + 15, -5 - 1, -5)
    assert m.legal_actions() == []


def both_out_at_101(chips: tuple[int, int, int], pot: int) -> rk.Match:
    """The rubber of R8 played out: seat 0 (97) knocks with 4 and seat 1 (89) holds 12, seat 2 out
    already; both cross 101 together with equal totals (dealer seat 0)."""
    m = rubber(
        [KNOCK4, DW[12]],
        seats=3,
        dealer=0,
        extra="KH",
        totals=(97, 89, 120),
        chips=chips,
        pot=pot,
        eliminated=(False, False, True),
    )
    m.apply("knock KH")
    finish_extra_turns(m)
    return m


def test_R8_tie_splits_the_pot() -> None:
    """D19: the last players cross 101 together with equal totals: they split the pot."""
    m = both_out_at_101(chips=(-5, -5, -10), pot=20)
    assert m.totals == (101, 101, 120)
    assert m.is_over and set(m.winners) == {0, 1} and m.winner is None
    assert m.chips == (-5 + 1 + 10, -5 - 1 + 10, -10)
    assert m.pot == 0


def test_a_shared_pot_s_odd_chip_goes_to_the_first_winner_from_the_dealer_s_left() -> None:
    """D19 splits the pot; RULES.md does not say where a chip that does not divide goes. It goes to
    the winners in turn order from the dealer's left (here seat 1), not to the lowest seat number."""
    m = both_out_at_101(chips=(-5, -6, -10), pot=21)
    assert m.is_over and set(m.winners) == {0, 1} and m.pot_won == 21
    assert m.chips == (-5 + 1 + 10, -6 - 1 + 11, -10)
    assert sum(m.chips) == 0


def test_the_chips_a_rubber_moved_are_said_hand_by_hand_and_add_up() -> None:
    """What each hand moved (knock money: R2, one chip from every other player dealt in), the ante
    paid once, and the pot's shares (the odd chip to the first winner from the dealer's left) add up
    to the chips at the end: the figures a score sheet settles the chips from."""
    m = both_out_at_101(chips=(-5, -6, -10), pot=21)
    assert m.start_chips() == (-5, -6, -10)  # a position's chips
    assert m.knock_money(1) == (1, -1, 0)  # seat 2 was out: not dealt in, pays nothing
    assert m.ante(1) == (0, 0, 0)  # the ante is paid once per rubber, not per hand
    assert m.hand_chips(1) == (1, -1, 0)
    assert m.pot_won == 21 and m.pot_shares() == (10, 11, 0)
    summed = [a + b + c for a, b, c in zip(m.start_chips(), m.hand_chips(1), m.pot_shares(), strict=True)]
    assert tuple(summed) == m.chips
    # A fresh rubber: its ante before the first hand; while it runs nobody took a pot.
    fresh = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=1)
    assert fresh.start_chips() == (-5, -5, -5) and fresh.pot_shares() == (0, 0, 0)
    per_hand = rk.Match.new(rk.Rules.parse("viennese(ante_frequency=per_hand)"), 3, seed=1)
    assert per_hand.start_chips() == (0, 0, 0) and per_hand.ante(1) == (-5, -5, -5)
    assert per_hand.knock_money(1) == (0, 0, 0)  # the hand is not over
    # No chips outside a rubber.
    gin = rk.Match.new(rk.Rules.preset("gin"), 2, seed=1)
    assert gin.start_chips() == (0, 0) and gin.ante(1) == (0, 0) and gin.knock_money(1) == (0, 0)


def test_R9_no_buyback_offer_with_a_tie_at_the_top() -> None:
    """R9: A 95, B 95, C 23 after the hand. The highest other total not above 95 is 95, so a buy-back
    would cost 5 chips and lower nothing. The rules reference calls A eligible and expects a rational
    player to decline; this engine does not offer what can only cost chips (the rules pages say so),
    which ends the same: neither A nor B is offered one, and the next hand is dealt at once."""
    m = rubber(
        [DW[5], B3, KNOCK3],
        dealer=2,
        extra="KH",
        totals=(90, 92, 20),
        chips=(-5, -5, -5),
        pot=15,
    )
    m.apply("knock KH")
    finish_extra_turns(m)
    assert m.totals == (95, 95, 23)
    assert m.pending_buyback == []
    assert len(m.rounds) == 2 and m.to_move == 0
    reason = "a buy-back would not lower seat 0's 95: another player in the rubber has 95 too"
    assert m.no_buyback_offer(0) == reason  # C's 30 is below, so "nobody below" would be wrong
    with pytest.raises(MatchDecisionError, match="would not lower seat 0's 95"):
        m.apply("buyback")


def test_no_buyback_offer_to_the_lowest_total_says_why() -> None:
    """Heads-up at 85 and 99: the 85 has no other total at or below it to go down to."""
    m = rk.Match.new(
        rk.Rules.preset("viennese"), 2, seed=3, dealer=0, position=rk.MatchPosition(totals=(85, 99))
    )
    assert (
        m.no_buyback_offer(0)
        == "nobody else in the rubber has a total at or below seat 0's 85 to buy back to"
    )
    assert m.no_buyback_offer(1) is None  # 99 goes down to 85


def test_no_buyback_offer_where_the_rules_allow_none_says_so() -> None:
    """``buyback_limit = 0``: the reason said "already bought back 0 times" ("keinmal" in German)."""
    rules = rk.Rules.parse("viennese(buyback_limit=0)")
    m = rk.Match.new(rules, 2, seed=3, dealer=0, position=rk.MatchPosition(totals=(85, 99)))
    assert m.no_buyback_offer(1) == "this rubber has no buy-backs (buyback_limit = 0)"
    with pytest.raises(MatchDecisionError) as refused:
        m.apply("buyback")
    assert refused.value.localized("de").endswith("In dieser Partie gibt es kein Zurückkaufen")


def test_no_buyback_offer_after_an_earlier_buyback_reaches_the_same_total() -> None:
    """Totals 95 / 30 / 99: seat 2 (offered first, left of dealer 1) buys back to 95; seat 0 at 95 is
    then not offered a buy-back that would cost 5 chips and change nothing."""
    m = rubber([DW[5], KNOCK3, DW[7]], dealer=1, extra="KH", totals=(90, 27, 92), pot=15)
    m.apply("knock KH")
    finish_extra_turns(m)
    assert m.totals == (95, 30, 99)
    assert m.pending_buyback == [2, 0]
    m.apply("buyback")
    assert m.totals == (95, 30, 95)
    assert m.pending_buyback == [] and len(m.rounds) == 2


def test_no_buyback_offer_after_the_one_allowed_buyback_says_why() -> None:
    """Seat 0 bought back earlier in the rubber (buyback_limit 1): at 95 it gets no offer, and asking
    for one says why."""
    m = rubber([DW[5], KNOCK3, DW[7]], dealer=1, extra="KH", totals=(90, 27, 60), pot=15, buybacks=(1, 0, 0))
    m.apply("knock KH")
    finish_extra_turns(m)
    assert m.totals == (95, 30, 67)
    assert m.pending_buyback == [] and len(m.rounds) == 2
    reason = "seat 0 already bought back once, as often as buyback_limit allows"
    assert m.no_buyback_offer(0) == reason
    assert m.to_move == 2
    with pytest.raises(MatchDecisionError, match="needs a total between 82 and 100; seat 2 has 67"):
        m.apply("buyback")


def test_per_rubber_ante_taken_once() -> None:
    """D11: the ante is paid once per rubber, not before every hand."""
    m = rubber(fill(VIE, [KNOCK3, None, None], "KH"), dealer=0, extra="KH")
    assert (m.pot, m.chips) == (15, (-5, -5, -5))
    m.apply("knock KH")
    finish_extra_turns(m)
    while m.pending_buyback:
        m.apply("decline")
    assert len(m.rounds) == 2
    assert m.pot == 15


def test_per_hand_ante_before_the_first_hand() -> None:
    rules = VIE.replace(ante_frequency="per_hand")
    m = rk.Match.new(rules, 3, seed=1)
    assert (m.pot, m.chips) == (15, (-5, -5, -5))


# Match ends ------------------------------------------------------------------------------------------
def play(m: rk.Match, seed: int = 0, cap: int = 50_000) -> rk.Match:
    rng = random.Random(seed)
    for _ in range(cap):
        if m.is_over:
            return m
        m.apply(rng.choice(m.legal_actions()))
    raise AssertionError(f"match did not end within {cap} actions: {m}")


def cumulative(m: rk.Match, field: str) -> list[tuple[int, ...]]:
    """Per-seat running sums of a RoundResult field after each round."""
    run = [0] * m.players
    out = []
    for rnd in m.rounds:
        assert rnd.result is not None
        run = [a + b for a, b in zip(run, getattr(rnd.result, field), strict=True)]
        out.append(tuple(run))
    return out


def lowest(values: Sequence[int]) -> tuple[int, ...]:
    return tuple(s for s, v in enumerate(values) if v == min(values))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_fixed_hands_one_hand_per_player(players: int, seed: int) -> None:
    m = play(rk.Match.new(GER, players, seed=seed, dealer=1), seed)
    assert len(m.rounds) == players
    assert [r.dealer for r in m.rounds] == [(1 + i) % players for i in range(players)]
    assert m.totals == cumulative(m, "penalties")[-1]
    assert m.winners == lowest(m.totals)


def test_fixed_hands_num_hands_and_dskv_dealer_sits_out() -> None:
    m = play(rk.Match.new(rk.Rules.preset("german_dskv"), 4, seed=5), 5)
    assert len(m.rounds) == 4
    for rnd in m.rounds:
        assert rnd.dealer not in rnd.active and len(rnd.active) == 3
    m = play(rk.Match.new(GER.replace(num_hands=5), 2, seed=6), 6)
    assert len(m.rounds) == 5


def test_fixed_hands_tie_shares_the_win() -> None:
    """Seat 1 goes out in one turn (Hand-Rommé, ×2) in the second and last hand of a two-hand match;
    seat 0's doubled penalty 2 × 85 brings it level with seat 1's 170: both win."""
    h1 = "10H JH QH KH AS AD AC 5C 6C 7C 9S 9D 9H"
    h0 = "2S 3D 4H 6S 8C 10C QS KD 3C 4D 7H 8S JS"
    assert sum(GER.penalty_value(c) for c in rk.parse_cards(h0)) == 85
    deck = arrange_deck(GER, 2, [h0, h1], dealer=0, upcard="KC", stock="2D")
    m = rk.Match.new(
        GER, 2, seed=5, dealer=0, deck=deck, position=rk.MatchPosition(totals=(0, 170), hands_dealt=1)
    )
    m.apply("draw")
    m.apply("open 10H JH QH KH | AS AD AC | 5C 6C 7C | 9S 9D 9H")
    m.apply("discard 2D")
    result = m.rounds[0].result
    assert result is not None and result.multiplier == 2 and result.penalties == (170, 0)
    assert m.totals == (170, 170)
    assert m.is_over and m.winners == (0, 1) and m.winner is None
    assert m.legal_actions() == []
    replayed = rk.Record.loads(rk.Record.from_match(m).dumps()).replay()
    assert (replayed.totals, replayed.winners) == (m.totals, m.winners)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_penalty_limit(seed: int) -> None:
    rules = GER.replace(match_end="penalty_limit", penalty_limit=150)
    m = play(rk.Match.new(rules, 3, seed=seed), seed)
    runs = cumulative(m, "penalties")
    assert max(runs[-1]) >= 150
    assert all(max(run) < 150 for run in runs[:-1])
    assert m.totals == runs[-1]
    assert m.winners == lowest(m.totals)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_target_score_basic(players: int, seed: int) -> None:
    m = play(rk.Match.new(rk.Rules.preset("basic"), players, seed=seed), seed)
    runs = cumulative(m, "gains")
    assert max(runs[-1]) >= 100
    assert all(max(run) < 100 for run in runs[:-1])
    assert m.scores == runs[-1] and m.totals == (0,) * players
    best = max(m.scores)
    assert m.winners == tuple(s for s in range(players) if m.scores[s] == best)
    for rnd in m.rounds:
        assert rnd.result is not None
        if rnd.result.scored:  # the winner collects the sum of the losers' hands
            assert sum(rnd.result.gains) == rnd.result.gains[rnd.result.winner]


@pytest.mark.parametrize("seed", range(4))
def test_single_hand(seed: int) -> None:
    m = play(rk.Match.new(GER.replace(match_end="single_hand"), 3, seed=seed), seed)
    results = [r.result for r in m.rounds]
    assert all(r is not None for r in results)
    assert results[-1] is not None and results[-1].scored
    assert not any(r is not None and r.scored for r in results[:-1])  # unscored hands do not count
    assert m.totals == results[-1].penalties
    assert m.winners == lowest(m.totals) == (results[-1].winner,)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_scala40_last_survivor_without_chips(players: int, seed: int) -> None:
    m = play(rk.Match.new(rk.Rules.preset("scala40"), players, seed=seed), seed)
    assert m.chips == (0,) * players and m.pot == 0
    assert m.totals == cumulative(m, "penalties")[-1]
    out = [s for s in range(players) if m.totals[s] >= 101]
    assert m.eliminated == [s in out for s in range(players)]
    if len(out) < players:
        assert m.winners == m.active_seats and len(m.winners) == 1
    else:
        assert m.winners == lowest(m.totals)
    # an eliminated player is dealt no further hand
    runs = [(0,) * players, *cumulative(m, "penalties")]
    for rnd, before in zip(m.rounds, runs, strict=False):
        assert rnd.in_play == tuple(s for s in range(players) if before[s] < 101)
        assert rnd.dealer in rnd.in_play


@pytest.mark.parametrize("rotation", ["clockwise", "counterclockwise", "winner_deals"])
def test_deal_rotation(rotation: str) -> None:
    rules = GER.replace(deal_rotation=rotation, num_hands=7)
    m = play(rk.Match.new(rules, 4, seed=11, dealer=2), 11)
    dealers = [r.dealer for r in m.rounds]
    assert dealers[0] == 2 and len(dealers) == 7
    for prev, nxt in zip(m.rounds, m.rounds[1:], strict=False):
        assert prev.result is not None
        if rotation == "clockwise":
            expected = (prev.dealer + 1) % 4
        elif rotation == "counterclockwise":
            expected = (prev.dealer - 1) % 4
        elif prev.result.winner is not None:
            expected = prev.result.winner
        else:
            expected = (prev.dealer + 1) % 4
        assert nxt.dealer == expected
    if rotation == "winner_deals":
        assert any(
            r.result is not None and r.result.winner not in (None, (r.dealer + 1) % 4) for r in m.rounds
        )


def test_rotation_skips_eliminated_seats() -> None:
    """Counterclockwise rubber: the deal passes over an eliminated seat."""
    rules = VIE.replace(deal_rotation="counterclockwise")
    m = rubber(
        [DW[12], KNOCK3, DW[20], DW[7]],
        dealer=1,
        extra="KH",
        totals=(0, 40, 85, 20),
        rules=rules,
    )
    m.apply("knock KH")
    finish_extra_turns(m)
    assert m.eliminated == [False, False, True, False]  # C (seat 2) at 105
    assert m.round.dealer == 0
    m2 = rubber(
        [DW[12], DW[20], KNOCK3, DW[7]],
        dealer=2,
        extra="KH",
        totals=(0, 85, 40, 20),
        rules=rules,
    )
    m2.apply("knock KH")
    finish_extra_turns(m2)
    assert m2.eliminated == [False, True, False, False]
    assert m2.round.dealer == 0  # seat 1 is out: counterclockwise from 2 the deal goes to 0


# Records and illegal match actions --------------------------------------------------------------
def record_dict(m: rk.Match) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(rk.Record.from_match(m).dumps())
    return data


def test_positioned_match_record_replays() -> None:
    m = r3_match()
    m.apply("buyback")
    data = record_dict(m)
    assert data["kind"] == "match" and data["position"]["totals"] == [70, 40, 85, 20]
    replayed = rk.Record.loads(json.dumps(data)).replay()
    assert state(replayed) == state(m)
    assert replayed.history == m.history
    assert [r.deck for r in replayed.rounds] == [r.deck for r in m.rounds]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("totals", "70 40 85 20"),
        ("totals", [70, 40, "85", 20]),
        ("totals", None),
        ("chips", [-5, -5, -5.5, -5]),
        ("eliminated", [0, 0, 1, 0]),
        ("buybacks", [True, False, False, False]),
        ("pot", "20"),
        ("pot", 2.5),
        ("hands_dealt", None),
    ],
)
def test_record_bad_position_field(field: str, value: Any) -> None:
    data = record_dict(r3_match())
    data["position"][field] = value
    with pytest.raises(rk.NotationError):
        rk.Record.loads(json.dumps(data))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("totals", [-1_000_000, 40, 85, 20], "totals must lie between 0 and 1000000000, not -1000000"),
        ("chips", [-5, -5, 10**10, -5], "chips must lie between -1000000000 and 1000000000"),
        ("pot", -50, "pot must lie between 0 and 1000000000, not -50"),
        ("hands_dealt", -10, "hands_dealt must lie between 0 and 1000000000, not -10"),
        ("buybacks", [9, 0, 0, 0], "buybacks must lie between 0 and 1, not 9"),
    ],
)
def test_a_position_no_match_can_reach_is_refused(field: str, value: Any, message: str) -> None:
    """A tampered save must not resume with a negative pot, a penalty of minus a million or ten
    buy-backs where the rules allow one: each figure is checked against what a match can reach."""
    data = record_dict(r3_match())
    data["position"][field] = value
    with pytest.raises(rk.RulesError, match=re.escape(message)):
        rk.Record.loads(json.dumps(data)).replay()


def test_a_position_beyond_the_end_of_a_series_is_refused() -> None:
    german = rk.Rules.preset("german")  # one hand per player: three
    rk.Match.new(german, 3, seed=1, position=rk.MatchPosition(totals=(0, 0, 0), hands_dealt=3))
    with pytest.raises(rk.RulesError, match="hands_dealt must lie between 0 and 3, not 4"):
        rk.Match.new(german, 3, seed=1, position=rk.MatchPosition(totals=(0, 0, 0), hands_dealt=4))


@pytest.mark.parametrize("position", [[70, 40, 85, 20], "70 40 85 20", 7])
def test_record_position_not_an_object(position: Any) -> None:
    data = record_dict(r3_match())
    data["position"] = position
    with pytest.raises(rk.NotationError):
        rk.Record.loads(json.dumps(data))


def test_record_position_wrong_seat_count() -> None:
    data = record_dict(r3_match())
    data["position"]["totals"] = [70, 40, 85]
    with pytest.raises(rk.RummyError):  # Match.new raises RulesError for a position of 3 seats
        rk.Record.loads(json.dumps(data)).replay()


@pytest.mark.parametrize(
    ("index", "action"),
    [
        (0, "buyback"),  # no buy-back offer is open at the start
        (0, "decline"),
        (0, "knock 2C"),  # deadwood far above the knock limit
        (0, "draw"),  # the dealer's first turn is a discard
        (7, "draw"),  # the buy-back offer must be answered first
        (7, "knock KH"),
    ],
)
def test_record_wrong_action_is_rejected(index: int, action: str) -> None:
    data = record_dict(r3_match())
    data["actions"].insert(index, action)
    record = rk.Record.loads(json.dumps(data))
    with pytest.raises(rk.NotationError, match=f"action {index + 1}"):
        record.replay()


@pytest.mark.parametrize("action", ["fly", "buyback now", "knock now", "pass 5H", ""])
def test_record_unparsable_action(action: str) -> None:
    data = record_dict(r3_match())
    data["actions"].append(action)
    with pytest.raises(rk.NotationError):
        rk.Record.loads(json.dumps(data))


def test_record_wrong_kind_and_fields() -> None:
    data = record_dict(r3_match())
    for key, value in [("kind", "rubber"), ("players", "4"), ("seed", None), ("actions", "knock KH")]:
        bad = dict(data, **{key: value})
        with pytest.raises(rk.NotationError):
            rk.Record.loads(json.dumps(bad))


def test_buyback_without_offer_changes_nothing() -> None:
    m = rubber(fill(VIE, [KNOCK3, None, None], "KH"), dealer=0, extra="KH")
    for text in ("buyback", "decline"):
        before = state(m)
        with pytest.raises(rk.IllegalActionError) as info:
            m.apply(text)
        assert isinstance(info.value, MatchDecisionError) and info.value.rule == "buyback"
        assert state(m) == before
    assert BUY[0] not in m.legal_actions()


def test_round_action_while_buyback_pending_changes_nothing() -> None:
    m = r3_match()
    before = state(m)
    for text in ("draw", "discard 2C", "knock 5C"):
        with pytest.raises(MatchDecisionError):
            m.apply(text)
        assert state(m) == before
    with pytest.raises(rk.NotationError):
        m.apply("buy back")
    assert state(m) == before


def test_no_action_after_the_match() -> None:
    m = rubber(
        [KNOCK4, DW[12]],
        seats=3,
        dealer=0,
        extra="KH",
        totals=(97, 98, 120),
        eliminated=(False, False, True),
    )
    m.apply("knock KH")
    finish_extra_turns(m)
    assert m.is_over
    before = state(m)
    for text in ("draw", "buyback", "decline"):
        with pytest.raises(rk.IllegalActionError):
            m.apply(text)
    assert state(m) == before


def test_illegal_round_action_in_match_changes_nothing() -> None:
    m = rubber(fill(VIE, [KNOCK3, None, None], "KH"), dealer=0, extra="KH")
    before = state(m)
    for text in ("knock 2C", "rummy KH", "discard AS", "draw"):
        with pytest.raises(rk.IllegalActionError):
            m.apply(text)
        assert state(m) == before


def test_copy_copy_of_a_round_or_a_match_is_independent() -> None:
    """``copy.copy`` of a round or a match is a copy a search may play on: moves on it leave the
    original as it was (a shallow copy shared the state)."""
    import copy

    rnd = rk.Round.new(rk.Rules.preset("german"), 3, seed=7)
    copy.copy(rnd).apply("draw")
    assert rnd.phase.value == "draw" and not rnd.history
    m = rk.Match.new(rk.Rules.preset("german"), 3, seed=7)
    for twin in (copy.copy(m), m.copy()):
        twin.apply(twin.legal_actions()[0])
        assert m.round.phase.value == "draw" and twin.round.phase.value == "play"
