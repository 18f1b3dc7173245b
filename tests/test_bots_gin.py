"""Bots in Gin Rummy: greedy's gin decisions on arranged deals, and every bot playing legal gin."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rummykit as rk
from rummykit import parse_cards
from rummykit.actions import Action, Discard, Draw, KnockDeclare, LayOffCard, MeldAction, Pass, TakeDiscard
from rummykit.bots import Budget, GinSearchBot, GreedyBot, make_bot
from rummykit.bots.gin_feed import feed_chances, hidden_hands, melds_with
from rummykit.bots.gin_play import best_layoffs
from rummykit.gin import values_of
from rummykit.gin_melds import MELD_BY_MASK, deadwood, mask_of, openspiel_card
from rummykit.interop.openspiel_gin import round_from_deal
from rummykit.views import Phase

GIN = rk.Rules.preset("gin")
TINY = Budget(determinizations=3, horizon=2, candidates=2)


def deal(hand0: str, hand1: str, upcard: str, stock: str = "") -> rk.Round:
    """A gin round (seat 0 acts first) dealt with these cards; the stock starts with ``stock``."""
    order = [*parse_cards(hand0), *parse_cards(hand1), *parse_cards(upcard), *parse_cards(stock)]
    return round_from_deal([openspiel_card(c) for c in order], GIN)


def greedy(rnd: rk.Round) -> Action:
    return GreedyBot().choose(rnd.view(rnd.to_move), rnd.legal_actions(), random.Random(0))


def play(rnd: rk.Round, *actions: str) -> rk.Round:
    for text in actions:
        rnd.apply(Action.parse(text))
    return rnd


def test_first_upcard_taken_when_it_melds_and_passed_when_not() -> None:
    rnd = deal("7H 8H KS QD 4C 2S 9D 5C JC 3D", "AC 2C 3C 4D 5D 6D 7S 8S 9S 10S", "9H")
    assert rnd.phase is Phase.FIRST_UPCARD and greedy(rnd) == TakeDiscard()
    rnd = deal("7H 8H KS QD 4C 2S 9D 5C JC 3D", "AC 2C 3C 4D 5D 6D 7S 8S 9S 10S", "KC")
    assert greedy(rnd) == Pass()
    play(rnd, "pass")  # the dealer's turn at the upcard: it fits nothing of theirs either
    assert greedy(rnd) == Pass()
    play(rnd, "pass")
    assert rnd.legal_actions() == [Draw()] and greedy(rnd) == Draw()


def test_knocks_with_ten_or_less_and_on_gin() -> None:
    # After taking 9H: 7H 8H 9H, 2S 3S 4S, QD QC QH and 5C 3D 2C left: discard 5C, 5 deadwood.
    rnd = deal("7H 8H 2S 3S 4S QD QC QH 3D 2C", "AC 4D 5D 6D 7S 8S 9S 10S JS KS", "9H")
    play(rnd, "take")
    assert KnockDeclare() in rnd.legal_actions() and greedy(rnd) == KnockDeclare()
    play(rnd, "knock")
    assert greedy(rnd) == Discard(parse_cards("3D")[0])  # 3D rather than 2C: the lower deadwood stays


def test_discards_instead_of_knocking_above_the_knock_card() -> None:
    rnd = deal("7H 8H 2S 3S 4S QD QC KH KD 2C", "AC 4D 5D 6D 7S 8S 9S 10S JS 3D", "9H")
    play(rnd, "take")
    assert KnockDeclare() not in rnd.legal_actions()
    choice = greedy(rnd)
    # A court card with one partner (QC: QD; KH: KD), never a melded card or one with two partners.
    assert isinstance(choice, Discard) and str(choice.card) in ("QC", "KH")


def test_knocker_lays_the_best_arrangement_then_passes() -> None:
    rnd = deal("7H 8H 2S 3S 4S QD QC QH 3D 2C", "AC 4D 5D 6D 7S 8S 9S 10S JS KS", "9H")
    play(rnd, "take", "knock")
    values = values_of(GIN)
    while rnd.phase is Phase.KNOCK:
        rnd.apply(greedy(rnd))
    knocker_left = deadwood(mask_of(rnd.hands[0]), values)
    assert knocker_left == sum(values[c] for c in rnd.hands[0]) == 2  # only 2C left unmelded
    assert rnd.phase is Phase.LAYOFF and rnd.to_move == 1


def test_defender_lays_off_along_a_run_and_keeps_its_own_set() -> None:
    # The knocker melds 5H 6H 7H; the defender holds 8H 9H (a chain of two lay-offs) and lays its
    # own set JC JD JS.
    rnd = deal("5H 6H 7H 2S 3S 4S QD QC QH 2C", "8H 9H JC JD JS KS KC 2D 6C 5C", "AD")
    play(rnd, "take", "knock", "discard AD", "meld 5H 6H 7H", "meld 2S 3S 4S", "meld QC QD QH", "pass")
    assert rnd.phase is Phase.LAYOFF
    laid = []
    while rnd.phase is Phase.LAYOFF and not rnd.view(1).gin.layoffs_done:  # type: ignore[union-attr]
        action = greedy(rnd)
        rnd.apply(action)
        if isinstance(action, LayOffCard):
            laid.append(str(action.card))
    assert laid == ["8H", "9H"]
    while not rnd.is_over:
        rnd.apply(greedy(rnd))
    # JC JD JS melded; KS KC 2D 6C 5C count 33 against the knocker's 2C.
    assert rnd.result is not None and rnd.result.points == (33 - 2, -(33 - 2))


def test_lay_off_search_prefers_keeping_a_meld_over_a_lay_off() -> None:
    values = values_of(GIN)
    knocker = [MELD_BY_MASK[mask_of(parse_cards("9H 10H JH"))]]
    hand = mask_of(parse_cards("8C 8D 8H KS"))
    best, card = best_layoffs(hand, knocker, (), GIN)
    assert card is None and best == deadwood(hand, values) == 10
    hand = mask_of(parse_cards("8H 7H KS 2C"))  # 8H then 7H chain onto 9H-JH
    best, card = best_layoffs(hand, knocker, (), GIN)
    assert str(card) == "8H" and best == 12


def _to_the_wall(hand0: str, hand1: str, last: str) -> rk.Round:
    """Both players pass the upcard KC, then draw and throw back every stock card until the wall;
    the last card player 0 throws back (the 29th drawn) is ``last``."""
    used = {*parse_cards(hand0), *parse_cards(hand1), *parse_cards("KC"), *parse_cards(last)}
    rest = [c for c in range(52) if c not in used][:28]
    rnd = deal(hand0, hand1, "KC", " ".join(str(rk.Card(c)) for c in rest) + f" {last}")
    play(rnd, "pass", "pass")
    while rnd.phase is not Phase.WALL:
        if rnd.phase is not Phase.DISCARD:
            rnd.apply(Draw())
        drawn = next(c for c in rnd.hands[rnd.to_move] if c not in parse_cards(hand0 + " " + hand1))
        rnd.apply(Discard(drawn))
    return rnd


def test_knocks_at_the_wall_when_allowed_and_passes_otherwise() -> None:
    ready = "7H 8H 2S 3S 4S QD QC QH 3D 2C"
    rnd = _to_the_wall("AC 4D 5D 6D 7S 8S 9S 10S JS KS", ready, "9H")
    assert rnd.to_move == 1 and KnockDeclare() in rnd.legal_actions()
    assert greedy(rnd) == KnockDeclare()
    rnd = _to_the_wall("AC 4D 5D 6D 7S 8S 9S 10S JS KS", ready.replace("3D 2C", "KD JD"), "9C")
    assert rnd.legal_actions() == [Pass()] and greedy(rnd) == Pass()


@pytest.mark.parametrize("spec", ["greedy", "random", "search"])
def test_bots_play_whole_gin_hands_legally(spec: str) -> None:
    for seed in range(4):
        rnd = rk.Round.new(GIN, 2, seed=seed, dealer=seed % 2)
        bots = [
            GinSearchBot(budget=TINY) if spec == "search" else make_bot(spec),
            GreedyBot(),
        ]
        rng = random.Random(seed)
        while not rnd.is_over:
            seat = rnd.to_move
            legal = rnd.legal_actions()
            action = bots[seat].choose(rnd.view(seat), legal, rng)
            assert action in legal
            rnd.apply(action)
        assert rnd.result is not None


def test_greedy_gin_never_passes_on_its_own_melds() -> None:
    """After any knock the defender's own melds are laid: greedy ends with the least deadwood."""
    values = values_of(GIN)
    for seed in range(8):
        rnd = rk.Round.new(GIN, 2, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            seat = rnd.to_move
            before_pass = rnd.phase is Phase.LAYOFF and rnd.view(seat).gin.layoffs_done  # type: ignore[union-attr]
            action = GreedyBot().choose(rnd.view(seat), rnd.legal_actions(), rng)
            if before_pass and action == Pass():
                assert deadwood(mask_of(rnd.hands[seat]), values) == sum(values[c] for c in rnd.hands[seat])
            if isinstance(action, MeldAction):
                assert len(action.melds) == 1
            rnd.apply(action)


def test_feed_partners_are_sets_and_runs_of_three_ace_low() -> None:
    card = parse_cards("5H")[0]
    assert melds_with(card, mask_of(parse_cards("5S 5D")))
    assert melds_with(card, mask_of(parse_cards("6H 7H")))
    assert melds_with(card, mask_of(parse_cards("4H 6H")))
    assert melds_with(card, mask_of(parse_cards("3H 4H")))
    assert not melds_with(card, mask_of(parse_cards("5S 6H 4D 7C")))
    assert melds_with(parse_cards("AH")[0], mask_of(parse_cards("2H 3H")))
    assert not melds_with(parse_cards("AH")[0], mask_of(parse_cards("KH QH")))  # ace low: no K-A run
    assert feed_chances(parse_cards("7H KD"), [(mask_of(parse_cards("5H 6H QS")), 1.0)]) == [1.0, 0.0]


def test_sampled_opponent_hands_hold_its_taken_cards_and_avoid_the_pile() -> None:
    rnd = deal("KS QD JC 9S 2D AH 4C 6C 8H 10H", "AC 2C 3C 4H 5H 6H 7S 8S 9D 10S", "9C", "3D")
    play(rnd, "pass", "take", "discard 10S", "draw")  # seat 1 holds the 9C it took
    view = rnd.view(0)
    nine = parse_cards("9C")[0]
    hands = hidden_hands(view, random.Random(3), samples=200)
    assert all(hand >> nine & 1 and bin(hand).count("1") == 10 for hand, _ in hands)
    seen = mask_of(view.hand) | mask_of(view.discard_pile)
    assert all(not hand & seen for hand, _ in hands)
    ten_spades = parse_cards("10S")[0]  # discarded by seat 1: a hand it would meld with weighs less
    assert all(w < 1.0 for hand, w in hands if melds_with(ten_spades, hand))
    assert all(w == 1.0 for hand, w in hands if not melds_with(ten_spades, hand))


def test_search_takes_an_upcard_that_speeds_the_race_though_it_melds_nothing() -> None:
    # AD makes no meld but pairs with AH and links 2D; taking it and throwing KS sheds nine points.
    hand, other = "KS QD JC 9S 2D AH 4C 6C 8H 10H", "AC 2C 3C 4H 5H 6H 7S 8S 9D 10S"
    rnd = deal(hand, other, "AD")
    assert greedy(rnd) == Pass()  # greedy takes only a card that melds or allows a knock
    for seed in range(3):
        assert (
            GinSearchBot("medium").choose(rnd.view(0), rnd.legal_actions(), random.Random(seed))
            == TakeDiscard()
        )
    rnd = deal(hand, other, "KC")  # a second king that links nothing: the race passes
    choices = [
        GinSearchBot("medium").choose(rnd.view(0), rnd.legal_actions(), random.Random(s)) for s in range(3)
    ]
    assert Pass() in choices


def test_search_discard_keeps_the_card_the_opponent_would_meld() -> None:
    # 11 cards, 15 deadwood after either court discard: KS and QD are both dead for this seat
    # (their other partners are in the pile), so its own race cannot tell them apart. The opponent
    # is known to hold two kings or two queens: the discard it would meld stays in hand.
    rnd = deal("AH 2H 3H 4H 5S 6S 7S 2C 3D KS", "KH KC 9C 10C 8D 4C 5D 6D 9S 10S", "JC", "QD")
    play(rnd, "pass", "pass", "draw")
    view = rnd.view(0)
    for held, dead, keep in (("KH KC", "KD QS QH JD", "KS"), ("QH QC", "QS KD JD KH", "QD")):
        arranged = dataclasses.replace(
            view,
            discard_pile=(*view.discard_pile, *parse_cards(dead)),
            known_cards=((), tuple(parse_cards(held))),
        )
        for seed in range(3):
            choice = GinSearchBot("medium").choose(arranged, rnd.legal_actions(), random.Random(seed))
            thrown = "QD" if keep == "KS" else "KS"
            assert choice == Discard(parse_cards(thrown)[0]), (held, seed, choice)


def test_the_frozen_search_v1_plays_gin_as_greedy_does() -> None:
    """search-v1 predates gin; it raised on the first upcard ("min() arg is an empty sequence").
    It now plays gin with greedy's moves, every one legal, to the end of the game."""
    rules = rk.Rules.preset("gin")
    frozen, greedy = make_bot("search-v1:easy"), GreedyBot()
    for seed in range(6):
        rnd = rk.Round.new(rules, 2, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            view, legal = rnd.view(rnd.to_move), rnd.legal_actions()
            action = frozen.choose(view, legal, rng)
            assert action == greedy.choose(view, legal, rng)
            rnd.apply(action)


@pytest.mark.parametrize("kind", ["greedy", "search"])
def test_no_bot_throws_the_upcard_back_into_a_dead_hand(kind: str) -> None:
    """Seat 0 took the K♦ and threw it back; seat 1 takes it too. Throwing it back again would end the
    hand dead (``repeat_discard_draw``), so the bots (and the hint, which plays greedy) discard another
    card, though the K♦ is their worst."""
    from rummykit.cli.hints import hint

    loose = "2C 3C 6C 6D 7D 9D 6H 2S 8H 4S"  # 6♣6♦6♥ and 35 deadwood: no knock, the K♦ fits nothing
    rnd = play(deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D", loose, "KD"), "take", "discard KD", "take")
    bot = make_bot(kind) if kind == "greedy" else GinSearchBot(budget=TINY)
    choice = bot.choose(rnd.view(1), rnd.legal_actions(), random.Random(0))
    assert isinstance(choice, Discard) and str(choice.card) != "KD"
    assert str(hint(rnd.view(1), rnd.legal_actions(), rnd).actions[0]) != "discard KD"
    before = play(deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D", loose, "KD"), "pass", "take")  # no throw-back
    assert greedy(before) == Discard(parse_cards("KD")[0])
