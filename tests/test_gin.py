"""Gin Rummy (RULES.md §5.4, §8.7): arranged deals through every phase, scores and options."""

from __future__ import annotations

import random

import pytest

import rummykit as rk
from rummykit.actions import (
    Action,
    Discard,
    Draw,
    Knock,
    KnockDeclare,
    LayOffCard,
    MeldAction,
    Pass,
    TakeDiscard,
)
from rummykit.cards import Card, parse_cards
from rummykit.errors import IllegalActionError, RulesError
from rummykit.gin import placed_layoffs
from rummykit.gin_melds import (
    GIN_MELDS,
    GIN_VALUES,
    deadwood,
    eleven_card_deadwood,
    knock_discards,
    layoff_cards,
    mask_of,
    openspiel_card,
    rummykit_card,
)
from rummykit.melds import Meld
from rummykit.record import Record
from rummykit.testing import arrange_deck, check_invariants
from rummykit.views import Phase, Termination

GIN = rk.Rules.preset("gin")
JUNK = "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S"
"""The dealer's hand in most deals: three runs and the 4S (deadwood 4)."""


def deal(first: str, dealer: str = JUNK, upcard: str = "KD", rules: rk.Rules = GIN) -> rk.Round:
    """Seat 0 (the non-dealer, who acts first) holds ``first``; seat 1 deals."""
    deck = arrange_deck(rules, 2, [first, dealer], dealer=1, upcard=upcard)
    return rk.Round.new(rules, 2, deck=deck, dealer=1, seed=1)


def play(rnd: rk.Round, *moves: str) -> rk.Round:
    for move in moves:
        rnd.apply(move)
    return rnd


def test_preset_aliases_and_options() -> None:
    assert rk.Rules.preset("Gin Rummy") is GIN is rk.Rules.preset("Gin")
    assert (GIN.family, GIN.num_decks, GIN.jokers_total, GIN.hand_size) == ("gin", 1, 0, 10)
    assert GIN.knock_card == 10
    assert (GIN.gin_bonus, GIN.undercut_bonus, GIN.undercut_on_tie, GIN.oklahoma) == (25, 25, False, False)
    assert GIN.big_gin_bonus is None  # OpenSpiel's game: no big gin (tests/test_gin_big.py plays it)
    with pytest.raises(RulesError):
        rk.Rules.preset("viennese").replace(stock_exhaustion="wall_draw")
    assert rk.Rules.parse(str(GIN.replace(undercut_on_tie=True))) == GIN.replace(undercut_on_tie=True)


def test_first_upcard_phase_take_or_pass_then_the_forehand_draws() -> None:
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D")
    assert (rnd.phase, rnd.to_move, rnd.legal_actions()) == (Phase.FIRST_UPCARD, 0, [TakeDiscard(), Pass()])
    play(rnd, "pass")
    assert (rnd.phase, rnd.to_move, rnd.legal_actions()) == (Phase.FIRST_UPCARD, 1, [TakeDiscard(), Pass()])
    play(rnd, "pass")
    assert (rnd.to_move, rnd.legal_actions()) == (0, [Draw()])
    with pytest.raises(IllegalActionError):
        rnd.apply("take")
    play(rnd, "draw")
    assert rnd.phase is Phase.DISCARD and rnd.discard_pile == list(parse_cards("KD"))


def test_g1_knock_needs_deadwood_of_ten_after_the_best_discard() -> None:
    hand = mask_of(parse_cards("AS 2S 3S 7C 7D 7H 9H 10H JH 4D KC"))
    assert eleven_card_deadwood(hand, GIN_VALUES, "openspiel") == 4
    assert [str(c) for c in knock_discards(hand, GIN_VALUES, 10)] == ["KC", "4D"]
    rnd = deal("AS 2S 3S 7C 7D 7H 9H 10H JH 4D", dealer="2D 3D 5D 6H 8H QS JS 9S 8C 6C", upcard="KC")
    play(rnd, "take")
    assert rnd.legal_actions()[0] == KnockDeclare()
    play(rnd, "knock")
    assert rnd.phase is Phase.KNOCK and rnd.legal_actions() == [Discard(c) for c in parse_cards("KC 4D")]


def test_g2_knock_lay_melds_defender_lays_off_and_melds() -> None:
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D", dealer="2C 3C 4C 6D 7D 8D 6H 7H 8H 5H")
    play(rnd, "take", "knock", "discard KD")
    assert Pass() not in rnd.legal_actions()  # 4D and three melds in hand: lay melds first
    play(rnd, "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC")
    assert rnd.legal_actions()[0] == Pass()
    play(rnd, "pass")
    assert (rnd.phase, rnd.to_move) == (Phase.LAYOFF, 1)
    assert rnd.legal_actions() == [Pass(), LayOffCard(parse_cards("5H")[0])]
    play(rnd, "layoff 5H", "pass")
    assert MeldAction((parse_cards("2C 3C 4C"),)) in rnd.legal_actions()
    play(rnd, "meld 2C 3C 4C", "meld 6D 7D 8D", "meld 6H 7H 8H", "pass")
    assert rnd.result is not None and rnd.result.termination is Termination.KNOCK
    # Knocker 4 (4D), defender 0: an undercut (0 - 4 - 25).
    assert rnd.result.points == (-29, 29)
    assert sorted(rnd.melds[1].meld.cards) == sorted(parse_cards("5C 5D 5H 5S"))


def test_g2_g3_scores_knock_and_gin() -> None:
    knock = deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D", dealer="2C 3C 4C 6D 7D 8D KH QH JS 9S")
    play(knock, "take", "knock KD", "pass", "meld 2C 3C 4C", "meld 6D 7D 8D", "pass")
    assert knock.result is not None and knock.result.points == (39 - 4, -(39 - 4))  # G2: the difference
    gin = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QC", dealer="4H 3C 4C 6D 7D 8D 6H 7H 8H 4S")
    play(gin, "take", "knock KD")
    assert gin.phase is Phase.LAYOFF and gin.legal_actions()[0] == Pass()
    assert not any(isinstance(a, LayOffCard) for a in gin.legal_actions())  # no lay-off on gin (4H fits)
    play(gin, "pass")
    assert gin.result is not None and gin.result.points == (57 + 25, -82)  # G3: the defender's 57 + 25


@pytest.mark.parametrize(("on_tie", "points"), [(False, (0, 0)), (True, (-25, 25))])
def test_g5_a_tie_is_no_undercut_unless_undercut_on_tie(on_tie: bool, points: tuple[int, int]) -> None:
    rules = GIN.replace(undercut_on_tie=on_tie)
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D", rules=rules)
    play(rnd, "take", "knock KD", "pass", "meld 2C 3C 4C", "meld 6D 7D 8D", "meld 6H 7H 8H", "pass")
    assert rnd.result is not None and rnd.result.points == points


def test_g6_deadwood_exactly_ten_may_knock_and_g7_oklahoma() -> None:
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QD", upcard="KD")
    play(rnd, "take")
    assert KnockDeclare() in rnd.legal_actions()  # 10 after the discard: knock card 10, <=
    for upcard, card in (("7D", 7), ("AS", 0), ("KC", 10)):
        rules = GIN.replace(oklahoma=True)
        okla = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QD", "2D 3D 4S 6H 8H QS JS 9S 8C 6C", upcard, rules)
        assert okla.view(0).gin is not None and okla.view(0).gin.knock_card == card


def test_g8_the_wall_knock_or_pass() -> None:
    # Draw 29 stock cards by passing the first upcard and throwing back each drawn card.
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QD", upcard="KD")
    play(rnd, "pass", "pass")
    while rnd.phase is not Phase.WALL:
        rnd.apply("draw")
        drawn = rnd.history[-1].card
        assert drawn is not None
        rnd.apply(Discard(drawn))
    assert len(rnd.stock) == 2 and rnd.legal_actions()[0] == Pass()
    rnd.apply("pass")
    assert rnd.result is not None and rnd.result.termination is Termination.WALL and not rnd.result.scored


def test_throwing_back_the_upcard_twice_running_ends_the_hand() -> None:
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QD", upcard="KD")
    play(rnd, "take", "discard KD", "take", "discard KD")
    assert rnd.result is not None and rnd.result.termination is Termination.DRAWN
    off = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QD", upcard="KD", rules=GIN.replace(repeat_discard_draw=False))
    play(off, "take", "discard KD", "take", "discard KD")
    assert not off.is_over


def test_the_upcard_draw_limit() -> None:
    rules = GIN.replace(max_upcard_draws=2)
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QD", upcard="KD", rules=rules)
    play(rnd, "take", "discard QD", "take")  # the first upcard is not counted
    assert not rnd.is_over
    play(rnd, "discard 4S", "take")
    assert rnd.result is not None and rnd.result.termination is Termination.DRAWN


def test_eleven_card_deadwood_openspiel_or_best_discard() -> None:
    hand = "7C AD 3D 5D 6D 7D AH 5H 6H 7H"
    cards = mask_of(parse_cards(hand + " 5S"))
    assert eleven_card_deadwood(cards, GIN_VALUES, "openspiel") == 11
    assert eleven_card_deadwood(cards, GIN_VALUES, "best_discard") == 10
    assert min(deadwood(cards & ~(1 << c), GIN_VALUES) for c in parse_cards(hand + " 5S")) == 10
    for rule, knock in (("openspiel", False), ("best_discard", True)):
        rules = GIN.replace(eleven_card_deadwood=rule)
        rnd = deal(hand, dealer="KS QH 9S JD 2C 4S 10H 8C KC 3H", upcard="5S", rules=rules)
        play(rnd, "take")
        assert (KnockDeclare() in rnd.legal_actions()) is knock


@pytest.mark.parametrize(("chain", "third"), [("two_per_end", False), ("unlimited", True)])
def test_layoff_run_chain(chain: str, third: bool) -> None:
    rules = GIN.replace(layoff_run_chain=chain)
    rnd = deal("5S 6S 7S 2C 2D 2H 9C 10C JC AD", dealer="8S 9S 10S 4D 6H 7H 8H 3C 4C 5C", rules=rules)
    play(rnd, "take", "knock KD", "layoff 8S", "layoff 9S")
    assert (LayOffCard(parse_cards("10S")[0]) in rnd.legal_actions()) is third
    assert "5S 6S 7S 8S 9S" in [str(tm.meld) for tm in rnd.melds]


def test_a_card_that_fits_two_melds_goes_where_a_later_layoff_needs_it() -> None:
    """3H fits the knocker's 3C 3D 3S and 4H…8H; laid alone it is shown on the set, but after it 2H
    is offered (3H may extend the run), and laying 2H puts both on the run: no card leaves the game."""
    hands = ["3C 3D 3S 4H 5H 6H 7H 8H 2C AC", "3H 2H KD QD JC 9S 9D 5S 6C 10C"]
    rnd = rk.Round.new(GIN, 2, dealer=1, deck=arrange_deck(GIN, 2, hands, dealer=1, upcard="KS"))
    play(rnd, "take", "knock", "discard KS", "meld 3C 3D 3S", "meld 4H 5H 6H 7H 8H", "pass", "layoff 3H")
    assert [str(tm.meld) for tm in rnd.melds] == ["3C 3D 3S 3H", "4H 5H 6H 7H 8H"]
    assert LayOffCard(parse_cards("2H")[0]) in rnd.legal_actions()
    play(rnd, "layoff 2H")
    assert [str(tm.meld) for tm in rnd.melds] == ["3C 3D 3S", "2H 3H 4H 5H 6H 7H 8H"]
    check_invariants(rnd)
    play(rnd, "pass", "pass")
    assert rnd.result is not None and rnd.result.hand_values == (3, 69)  # 2C AC; 5S 6C 9S 9D 10C JC QD KD
    check_invariants(rnd)


@pytest.mark.parametrize("chain", ["two_per_end", "unlimited"])
def test_every_sequence_of_offered_layoffs_has_a_placement(chain: str) -> None:
    """Lay-offs are offered as a set of cards (``layoff_cards``); whatever order they come in, the
    table can show them all on melds. 9D laid on 9C 9H 9S or on 5D 6D 7D, then 8D and 10D: all three
    go on the run (placed in order, 10D found no meld and a card left the game)."""
    rules = GIN.replace(layoff_run_chain=chain)
    rng = random.Random(chain)
    for _ in range(1500):
        deck = list(range(52))
        rng.shuffle(deck)
        melds = [m for m in GIN_MELDS if not m.mask & ~mask_of(deck[:14])]
        rng.shuffle(melds)
        chosen, used = [], 0
        for m in melds:
            if not m.mask & used and len(chosen) < 3:
                chosen.append(m)
                used |= m.mask
        laid: list[Card] = []
        for _ in range(8):
            targets = layoff_cards(chosen, laid, chain)
            offered = sorted(c for c in targets if not used >> c & 1 and c not in laid)
            if not offered:
                break
            laid.append(rng.choice(offered))
            shown = placed_layoffs([Meld.from_cards(m.cards, rules) for m in chosen], laid, rules)
            on_table = [c for m in chosen for c in m.cards] + laid
            assert sorted(c for m in shown for c in m.cards) == sorted(on_table)
    hands = ["9C 9H 9S 5D 6D 7D AC 2S 3H AH", "9D 8D 10D KC QS JH 4C 6S 7C 2D"]
    rnd = rk.Round.new(rules, 2, dealer=1, deck=arrange_deck(rules, 2, hands, dealer=1, upcard="KS"))
    play(rnd, "take", "knock", "discard KS", "meld 9C 9H 9S", "meld 5D 6D 7D", "pass")
    play(rnd, "layoff 9D", "layoff 8D")
    if chain == "unlimited":
        play(rnd, "layoff 10D")
        assert [str(tm.meld) for tm in rnd.melds] == ["9C 9H 9S", "5D 6D 7D 8D 9D 10D"]
    check_invariants(rnd)


def test_illegal_gin_moves_name_the_rule() -> None:
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D")
    play(rnd, "take")
    with pytest.raises(IllegalActionError):
        rnd.apply("knock 5C")  # leaves 5D 5S 4D KD
    play(rnd, "knock")
    with pytest.raises(IllegalActionError) as info:
        rnd.apply("pass")
    assert info.value.rule == "knock_discard"
    play(rnd, "discard KD")
    with pytest.raises(IllegalActionError):
        rnd.apply("meld 9C 10C JC | AH 2H 3H")  # one meld at a time
    with pytest.raises(IllegalActionError):
        rnd.apply("pass")  # 4D + 42 still in hand


NOTATION = ["knock", "pass", "layoff 5H", "meld 9C 10C JC", "knock QS", "layoff 5H on 2"]


@pytest.mark.parametrize("text", NOTATION)
def test_notation_round_trips(text: str) -> None:
    assert str(Action.parse(text)) == text
    assert isinstance(Action.parse("knock"), KnockDeclare) and isinstance(Action.parse("knock QS"), Knock)


def test_records_replay_gin_rounds() -> None:
    for seed in range(20):
        rnd = rk.Round.new(GIN, 2, seed=seed, dealer=1)
        rng = random.Random(seed)
        while not rnd.is_over:
            legal = rnd.legal_actions()
            knock = [a for a in legal if isinstance(a, KnockDeclare)]
            rnd.apply(knock[0] if knock else rng.choice(legal))
        again = Record.loads(Record.from_round(rnd).dumps()).replay()
        assert again.result == rnd.result
        assert [e.action for e in again.history] == [e.action for e in rnd.history]


def test_g4_undercut_and_g9_card_ids() -> None:
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC 7S", dealer="2C 3C 4C 6D 7D 8D 6H 7H 8H 5H")
    play(rnd, "take", "knock KD", "pass", "meld 2C 3C 4C", "meld 6D 7D 8D", "meld 6H 7H 8H", "pass")
    assert rnd.result is not None and rnd.result.points == (-27, 27)  # 5 - 7 - 25
    assert openspiel_card(parse_cards("10H")[0]) == 48 and str(rummykit_card(48)) == "10H"


def test_terminal_gin_line_shows_knock_card_passes_melds_and_layoffs() -> None:
    from rummykit.cli.gin_line import gin_line
    from rummykit.cli.screen import cards_text
    from rummykit.interop.openspiel_gin import round_from_deal

    def plain(view: rk.PlayerView, lang: str = "en") -> str:
        line = gin_line(view, ("Ann", "Bob"), lambda cards: cards_text(cards, True), lang)
        return "" if line is None else line.plain

    order = rk.parse_cards("5H 6H 7H 2S 3S 4S QD QC QH 2C 8H 9H JC JD JS KS KC 2D 6C 5C AD")
    deck = [openspiel_card(c) for c in order]
    rnd = round_from_deal(deck, GIN)
    assert plain(rnd.view(1)) == "knock card 10"  # no pass yet: nothing to count ("0× gepasst")
    rnd.apply("pass")
    assert plain(rnd.view(1)) == "knock card 10 · one pass on the first upcard"
    rnd = round_from_deal(deck, GIN)
    for text in ("take", "knock", "discard AD", "meld 5H 6H 7H", "meld 2S 3S 4S", "meld QC QD QH", "pass"):
        rnd.apply(text)
    rnd.apply("layoff 8H")
    assert plain(rnd.view(1)) == "knock card 10 · Ann's melds: 5H 6H 7H | 2S 3S 4S | QC QD QH · laid off: 8H"
    assert plain(rnd.view(0), "de").startswith("Klopfgrenze 10 · Figuren von Ann: 5H 6H 7H")


def test_web_view_message_carries_the_gin_facts() -> None:
    from rummykit.interop.openspiel_gin import round_from_deal
    from rummykit.web.protocol import view_json

    order = rk.parse_cards("5H 6H 7H 2S 3S 4S QD QC QH 2C 8H 9H JC JD JS KS KC 2D 6C 5C AD")
    rnd = round_from_deal([openspiel_card(c) for c in order], GIN)
    rnd.apply("pass")
    assert view_json(rnd.view(1), own=True)["gin"]["upcard_passes"] == 1
    rnd = round_from_deal([openspiel_card(c) for c in order], GIN)
    for text in ("take", "knock", "discard AD", "meld 5H 6H 7H", "meld 2S 3S 4S", "meld QC QD QH", "pass"):
        rnd.apply(text)
    rnd.apply("layoff 8H")
    gin = view_json(rnd.view(0), own=False)["gin"]
    assert gin["knock_card"] == 10 and gin["layoffs"] == ["8H"] and not gin["layoffs_done"]
    assert gin["knocker_melds"] == [["5H", "6H", "7H"], ["2S", "3S", "4S"], ["QC", "QD", "QH"]]
    assert view_json(rk.Round.new(rk.Rules.preset("viennese"), 2, seed=1).view(0), own=True)["gin"] is None


def test_a_gin_is_never_undercut_even_at_a_tie_that_undercut_on_tie_counts() -> None:
    """With ``gin_bonus = 0`` a gin against a defender who melds every card is a tie at 0; a gin is
    not a knock that can be undercut, so ``undercut_on_tie`` does not turn it against the knocker."""
    rules = GIN.replace(gin_bonus=0, undercut_on_tie=True)
    rnd = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QC", dealer="2C 3C 4C 6D 7D 8D 6H 7H 8H 9H", rules=rules)
    play(rnd, "take", "knock KD", "meld 2C 3C 4C", "meld 6D 7D 8D", "meld 6H 7H 8H 9H", "pass")
    assert rnd.result is not None and rnd.result.hand_values == (0, 0) and rnd.result.points == (0, 0)


def test_a_knock_is_offered_only_where_a_discard_completes_it() -> None:
    """Eight-card gin: nine cards in three melds of three count 0 by OpenSpiel's measure, but every
    discard breaks a meld and leaves more than the knock card. OpenSpiel offers the knock and is then
    left with no legal action; here the knock is not offered, and every hand goes on to its end."""
    rules = GIN.replace(hand_size=8)
    rnd = deal("6S 6C 6D 7S 7C 7D 8S 8C", dealer="2C 3C 4C 6H 7H 8H 9H 4S", upcard="8D", rules=rules)
    play(rnd, "take")
    assert KnockDeclare() not in rnd.legal_actions() and len(rnd.legal_actions()) == 9
    nine = mask_of(parse_cards("6S 6C 6D 7S 7C 7D 8S 8C 8D"))
    assert eleven_card_deadwood(nine, GIN_VALUES, "openspiel") == 12  # 6 + 6 left after the best discard
    for seed in range(40):  # random eight-card hands all reach their end
        rnd = rk.Round.new(rules.replace(knock_card=0), 2, seed=300487 + seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            legal = rnd.legal_actions()
            assert legal
            rnd.apply(rng.choice(legal))


def test_the_hint_knocks_in_gin_and_names_each_step_after() -> None:
    """The terminal's hint (and ``auto``) knocks as soon as it may, instead of discarding on with
    gin in hand, then guides the knocker's discard and melds and the defender's lay-offs."""
    from rummykit.cli.hints import hint

    rnd = deal("2C 3C 4C KS KC KD 5H 6H 7H 5S", dealer="2D 3D 4D 9S 10S JS 9H 10H JH 4H", upcard="QS")
    play(rnd, "take")
    suggestion = hint(rnd.view(0), rnd.legal_actions(), rnd)
    assert suggestion.actions == (KnockDeclare(),) and suggestion.reason == "deadwood 5 lets you knock"
    gin = deal("AH 2H 3H 5C 5D 5S 9C 10C JC QC")
    play(gin, "take")
    assert hint(gin.view(0), gin.legal_actions(), gin).reason.startswith("gin: every card")
    play(rnd, "knock")
    steps = []
    while not rnd.is_over:
        suggestion = hint(rnd.view(rnd.to_move), rnd.legal_actions(), rnd, "de")
        assert suggestion.actions[0] in rnd.legal_actions()
        steps.append((str(suggestion.actions[0]), suggestion.reason))
        rnd.apply(suggestion.actions[0])
    assert steps[0][0] == "discard QS" and steps[1] == ("meld 2C 3C 4C", "lege deine Figuren einzeln aus")
    assert ("pass", "keine Figur mehr auszulegen") in steps


def test_an_undercut_is_won_by_the_defender_who_deals_next_under_winner_deals() -> None:
    """``deal_rotation = winner_deals``: the hand's result names the knocker, but an undercut
    knocker lost the hand; the defender, who won it, deals the next one."""
    rules = GIN.replace(match_end="target_score", deal_rotation="winner_deals")
    hands = ["AH 2H 3H 5C 5D 5S 9C 10C JC 4D", "2C 3C 4C 6D 7D 8D 6H 7H 8H 5H"]
    deck = arrange_deck(rules, 2, hands, dealer=1, upcard="KD")
    match = rk.Match.new(rules, 2, seed=1, dealer=1, deck=deck)
    for move in ("take", "knock", "discard KD", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC", "pass"):
        match.apply(move)
    for move in ("layoff 5H", "pass", "meld 2C 3C 4C", "meld 6D 7D 8D", "meld 6H 7H 8H", "pass"):
        match.apply(move)
    first = match.rounds[0].result
    assert first is not None and first.points == (-29, 29) and first.winner == 0
    assert len(match.rounds) == 2 and match.dealer == 1
