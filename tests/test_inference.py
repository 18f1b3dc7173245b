"""Inference from the table (rummykit.bots.inference) on arranged deals: what an opponent took,
passed and discarded biases the hands the search samples for it."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import rummykit as rk
from rummykit.actions import Action
from rummykit.bots.inference import TableMemory, contradicts, sample_hidden, weighted_sample
from rummykit.cards import Card, parse_cards
from rummykit.determinize import unseen_cards
from rummykit.testing import arrange_deck

VIENNESE = rk.Rules.preset("viennese")
# Seat 0 deals (11 cards, discards first); seat 1 holds a pair of sevens and no hearts near 8H.
DEALER = "7H 2C 4D 6S 9C JD KS QC 3S 5C"
OPPONENT = "7C 7S 2D 4S 6C 9D JS KD QD 3C"


def _cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def _play(rnd: rk.Round, memory: TableMemory, seat: int, script: list[str]) -> None:
    """Apply ``script``; ``seat``'s decisions go through the memory as a bot's would."""
    for text in script:
        if rnd.to_move == seat:
            view = rnd.view(seat)
            memory.observe(view)
            action = Action.parse(text)
            memory.acted(view, action)
            rnd.apply(action)
        else:
            rnd.apply(text)


def _took_7h_passed_8h() -> tuple[rk.Round, TableMemory]:
    deck = arrange_deck(VIENNESE, 2, [DEALER, OPPONENT], extra="8H", stock="10C 5H AS KC")
    rnd = rk.Round.new(VIENNESE, 2, deck=deck, dealer=0, seed=3)
    memory = TableMemory()
    _play(
        rnd,
        memory,
        0,
        [
            "discard 7H",  # the dealer's opening discard
            "take",  # seat 1 takes 7H (a third seven) ...
            "discard 2D",
            "draw",  # 10C
            "discard 8H",
            "draw",  # ... and leaves 8H for a stock card (5H)
            "discard 4S",
        ],
    )
    memory.observe(rnd.view(0))
    return rnd, memory


def test_memory_reconstructs_take_pass_and_discards_heads_up() -> None:
    _, memory = _took_7h_passed_8h()
    ev = memory.of(1)
    assert ev.taken == _cards("7H")
    assert ev.passed == _cards("8H")
    assert ev.discarded == _cards("2D 4S")
    assert memory.ambiguous == 0


def test_sampled_hands_reflect_a_take_and_a_pass() -> None:
    """Having taken 7H and passed 8H, seat 1 more likely holds sevens, less likely eights or the
    hearts that only fit the 8H; the uniform determinization sees no difference."""
    rnd, memory = _took_7h_passed_8h()
    view = rnd.view(0)
    assert view.known_cards[1] == tuple(parse_cards("7H"))
    n = 600
    biased: Counter[int] = Counter()
    uniform: Counter[int] = Counter()
    rng_b, rng_u = random.Random(1), random.Random(1)
    for _ in range(n):
        hands, _stock = sample_hidden(view, rng_b, memory)
        assert len(hands[1]) == 10 and 7 in [Card(c).rank for c in hands[1]]
        biased.update(hands[1])
        hands, _ = sample_hidden(view, rng_u, None, behaviour=False)
        uniform.update(hands[1])
    sevens = _cards("7C 7D 7S")
    eights = _cards("8C 8D 8S 10H")
    assert sum(biased[c] for c in sevens) > 1.5 * sum(uniform[c] for c in sevens)
    assert sum(biased[c] for c in eights) < 0.75 * sum(uniform[c] for c in eights)


def test_memory_reconstructs_three_seats() -> None:
    """At a table of three, one seat takes the viewer's discard and the next passes the new top."""
    rules = VIENNESE
    hands = [DEALER, OPPONENT, "8C 8D 2S 4C 6D 9S JC KH QH 3D"]
    deck = arrange_deck(rules, 3, hands, extra="8H", stock="10C 5H AS KC 9H")
    rnd = rk.Round.new(rules, 3, deck=deck, dealer=0, seed=3)
    memory = TableMemory()
    _play(rnd, memory, 0, ["discard 7H", "take", "discard 2D", "draw", "discard 2S", "draw"])
    memory.observe(rnd.view(0))
    assert memory.of(1).taken == _cards("7H") and memory.of(1).discarded == _cards("2D")
    assert memory.of(2).passed == _cards("2D") and memory.of(2).discarded == _cards("2S")
    assert memory.ambiguous == 0


def test_memory_starts_over_with_a_new_hand() -> None:
    _, memory = _took_7h_passed_8h()
    other = rk.Round.new(VIENNESE, 2, seed=8, dealer=1)
    memory.observe(other.view(0))
    assert memory.of(1).taken == []


def test_weighted_sample_prefers_heavy_cards_and_never_repeats() -> None:
    pool = list(range(20))
    weights = [1.0] * 53
    weights[3] = 50.0
    rng = random.Random(2)
    picks = [weighted_sample(pool, weights, 5, rng) for _ in range(200)]
    assert all(len(set(p)) == 5 for p in picks)
    assert sum(3 in p for p in picks) > 190


def test_a_hand_that_could_have_knocked_contradicts_the_play() -> None:
    rnd, _ = _took_7h_passed_8h()
    view = rnd.view(0)
    assert contradicts(view, 1, _cards("2H 3H 4H 5C 5D 5S 9S 10S JS 2D"))  # deadwood 2
    assert not contradicts(view, 1, _cards(OPPONENT))


# Discard safety and knock timing ----------------------------------------------------------------
def _queens_taken() -> rk.Round:
    """Seat 1 took QS and QD from the discard pile; seat 0 now holds QC and KH, both loose, after its
    draw (greedy's discard score ties them and sheds QC, the card that completes seat 1's queens)."""
    deck = arrange_deck(
        VIENNESE,
        2,
        ["2H 3H 4H 5C 5D 5S 9S 10S QS QD", "2C 4D 6S 9C JD 3S 7C 8D AH 6D"],
        extra="JS",
        stock="QC KH 4C 7D 9D",
    )
    rnd = rk.Round.new(VIENNESE, 2, deck=deck, dealer=0, seed=5)
    for text in ["discard QS", "take", "discard 2C", "draw", "discard QD", "take", "discard 4D", "draw"]:
        rnd.apply(text)
    return rnd


def test_search_does_not_hand_an_opponent_the_card_it_collects() -> None:
    from rummykit.actions import Discard
    from rummykit.bots import GreedyBot, IsmctsBot
    from rummykit.bots.search import Budget

    rnd = _queens_taken()
    view, legal = rnd.view(0), rnd.legal_actions()
    assert view.known_cards[1] == tuple(parse_cards("QD QS"))
    assert GreedyBot().choose(view, legal, random.Random(0)) == Discard(Card.parse("QC"))
    bot = IsmctsBot(budget=Budget(determinizations=40, horizon=6, candidates=3))
    assert bot.choose(view, legal, random.Random(0)) == Discard(Card.parse("KH"))


def test_the_search_deals_its_determinizations_with_its_sampler() -> None:
    """``IsmctsBot.sampler`` deals every determinization of a decision (the seam through which
    ``benchmarks/ceiling.py`` hands the search the true cards); by default it is ``sample_hidden``."""
    from rummykit.actions import Discard
    from rummykit.bots import IsmctsBot
    from rummykit.bots.search import Budget

    rnd = _queens_taken()
    view, legal = rnd.view(0), rnd.legal_actions()
    truth = [int(c) for c in rnd.hands[1]]
    calls: list[int] = []

    def true_hands(
        view: rk.PlayerView,
        rng: random.Random,
        memory: TableMemory | None = None,
        behaviour: bool = True,
        weights: dict[int, list[float]] | None = None,
        unseen: Sequence[int] | None = None,
    ) -> tuple[dict[int, list[int]], list[int]]:
        calls.append(view.seat)
        rest = [c for c in (unseen or []) if c not in truth]
        rng.shuffle(rest)
        return {1: list(truth)}, rest

    bot = IsmctsBot(budget=Budget(determinizations=40, horizon=6, candidates=3))
    assert bot.sampler is sample_hidden
    bot.sampler = true_hands
    assert bot.choose(view, legal, random.Random(0)) == Discard(Card.parse("KH"))  # QS QD are held
    assert calls == [0] * 40


def test_only_a_discard_that_completes_a_meld_is_charged_as_feeding() -> None:
    """The race charges a turn for a discard only where it joins a meld of the next seat's sampled
    hand (the QC to its QS QD): a 2C that the greedy rule would take just to shed a king is no charge."""
    from rummykit.bots.duel import Sample, completes, race_values, takes

    theirs = _cards("QS QD 2H 3H 4H 9C KS KD 5S 7D")
    assert completes(VIENNESE, theirs, int(Card.parse("QC")))
    two = int(Card.parse("2C"))
    assert takes(VIENNESE, theirs, two) and not completes(VIENNESE, theirs, two)
    mine = _cards("5C 5D 5H 8S 9S 10S JC JH AC")
    cards = [int(Card.parse("QC")), int(Card.parse("2C"))]
    rests = [[*mine, c] for c in reversed(cards)]  # discarding QC keeps 2C and the other way round
    samples = [Sample(tuple(_cards("3D 4C 8D 6H 10H")), ((tuple(theirs), tuple(_cards("AD 3C"))),))]
    charged = race_values(VIENNESE, rests, cards, samples, 5)
    free = race_values(VIENNESE, rests, cards, samples, 5, feeds=None)
    assert charged[0] < free[0]  # QC completes the queens: one turn dearer
    assert charged[1] == free[1]  # 2C only lowers the opponent's deadwood: no charge


def test_a_knock_is_valued_after_the_opponents_extra_turn() -> None:
    """Knocking with 4 points by discarding 8C loses the hand when the opponent's extra turn takes the
    8C for a run and leaves it 2 points; against a hand the 8C does not help the same knock wins."""
    from rummykit.actions import Knock
    from rummykit.bots.rollout import TablePlay, utility

    deck = arrange_deck(
        VIENNESE, 2, ["2H 3H 4H 5C 5D 5S 9S 10S JS 4D", "7C 9C 6H 7H 8H KS KD KH 2S 2D"], extra="8C"
    )
    rnd = rk.Round.new(VIENNESE, 2, deck=deck, dealer=0, seed=5)
    view = rnd.view(0)
    stock = _cards("AC AD 10D")
    knock = Knock(Card.parse("8C"))
    from rummykit.bots.ismcts import IsmctsBot

    fed = IsmctsBot.fast_playout(
        view, TablePlay.start(view, {1: _cards("7C 9C 6H 7H 8H KS KD KH 2S 2D")}, list(stock)), knock, 8
    )
    assert fed == {0: -4.0, 1: -2.0}
    assert utility(fed, 0, 10.0) < 0
    safe_hand = _cards("7D 9D 6H 7H 8H KS KD KH 2S 2D")
    safe = IsmctsBot.fast_playout(view, TablePlay.start(view, {1: safe_hand}, list(stock)), knock, 8)
    assert safe[0] == -4.0 and safe[1] < -4.0
    assert utility(safe, 0, 10.0) > 0


SCORING_RULES = [
    "german",
    "german_dskv",
    "scala40",
    "basic",
    "german(hand_romme_multiplier=1)",
    "german(hand_scoring=winner_gets_sum)",
    "german(hand_scoring=winner_collects, match_end=target_score)",
    "basic(hand_scoring=losers_penalty, match_end=penalty_limit)",
    "scala40(penalty_joker=50, penalty_ace=1)",
]
"""Every melding preset and the scoring options a play-out must follow (Hand-Rommé multiplier, each
``hand_scoring``, card values). An option that changes how going out scores belongs here: the
rollout (``bots/rollout.py``, ``TablePlay.went_out`` and ``estimate``) re-implements the scoring and
these tests are what compare the two."""

TWIN = "src/rummykit/bots/rollout.py TablePlay.went_out"


@pytest.mark.parametrize("text", SCORING_RULES)
def test_play_out_scores_going_out_as_the_engine_does(text: str) -> None:
    """A melding-game play-out scores a seat going out with the engine's own scoring, Hand-Rommé
    included."""
    from rummykit.bots.rollout import TablePlay
    from rummykit.scoring import going_out

    rules = rk.Rules.parse(text)
    rnd = rk.Round.new(rules, 3, seed=4)
    view = rnd.view(rnd.to_move)
    rng = random.Random(0)
    for _ in range(10):
        hands, stock = sample_hidden(view, rng)
        play = TablePlay.start(view, hands, stock)
        winner = rng.choice(play.seats)
        for hand_romme in (False, True):
            points = play.went_out(winner, hand_romme)
            score = going_out(rules, [play.hands.get(s, []) for s in range(3)], winner, hand_romme)
            expected = {s: float(score.gains[s] - score.penalties[s]) for s in play.seats}
            assert points == expected, (
                f"{text}: {TWIN} scores {points}, rummykit.scoring.going_out {expected} "
                f"(hand_romme={hand_romme}): make the rollout score as the engine does"
            )


@pytest.mark.parametrize("text", SCORING_RULES)
def test_play_out_scores_the_hands_the_engine_ended(text: str) -> None:
    """The same against whole hands played by the engine (greedy bots, four players: DSkV's dealer
    sits out): whatever the engine's going out takes into account (who has opened, who sits out,
    Hand-Rommé), the rollout's ``went_out`` gives the points the engine gave; a seat that sat the
    hand out scores 0."""
    from rummykit.bots.greedy import GreedyBot
    from rummykit.bots.rollout import TablePlay
    from rummykit.views import Termination

    rules = rk.Rules.parse(text)
    bot, compared = GreedyBot(), 0
    for seed in range(12):
        rnd = rk.Round.new(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            rnd.apply(bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
        result = rnd.result
        if result is None or result.termination is not Termination.WENT_OUT or result.winner is None:
            continue
        seats = list(rnd.active_seats)
        hands = rnd.hands
        play = TablePlay(
            rules,
            seats,
            {s: [int(c) for c in hands[s]] for s in seats},
            {s: [] for s in seats},
            [],
            {s: rnd.has_opened(s) for s in seats},
            [],
            {s: None for s in seats},
        )
        points = play.went_out(result.winner, result.multiplier > 1)
        expected = {s: float(result.points[s]) for s in seats}
        assert points == expected, (
            f"{text}, seed {seed}: {TWIN} scores {points} where the engine scored {expected}: make the "
            "rollout score as the engine does (melding.py _go_out, scoring.going_out)"
        )
        out = {s: result.points[s] for s in range(4) if s not in seats}
        assert not any(out.values()), f"{text}, seed {seed}: a seat that sat the hand out scored {out}"
        compared += 1
    assert compared >= 6, f"{text}: only {compared} of 12 hands went out"


def _ceiling() -> Any:
    """``benchmarks/ceiling.py``, imported once."""
    if "ceiling" not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "benchmarks" / "ceiling.py"
        spec = importlib.util.spec_from_file_location("ceiling", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["ceiling"] = module  # dataclasses look their module up while it runs
        spec.loader.exec_module(module)
    return sys.modules["ceiling"]


def test_partly_true_hands_keep_the_known_cards_and_a_fraction_of_the_hidden_ones() -> None:
    """``ceiling.py``'s ``hands:K``: seat 1 took QS and QD from the pile (public) and holds 8 hidden
    cards. ``K`` 1 deals its true hand; ``K`` 0 keeps the queens alone; ``K`` 0.5 keeps the queens and
    exactly 4 true hidden cards (more only when a redrawn card happens to be true). No dealt card is
    one seat 0 has seen, every card of hand and stock is drawn from the unseen ones, and the same
    ``rng`` seed deals the same hands."""
    ceiling = _ceiling()
    rnd = _queens_taken()
    view = rnd.view(0)
    truth = Counter(int(c) for c in rnd.hands[1])
    queens = Counter(_cards("QS QD"))
    hidden = truth - queens
    assert sum(hidden.values()) == 8
    unseen = Counter(int(c) for c in unseen_cards(view))
    assert ceiling.parse_mode("hands:0.25") == ("hands", 0.25)
    assert ceiling.parse_mode("honest") == ("honest", 1.0)
    for bad in ("hands:1.5", "honest:0.5", "cards"):
        with pytest.raises(ValueError):
            ceiling.parse_mode(bad)

    hands, stock = ceiling.oracle(rnd, "hands", 1.0)(view, random.Random(1))
    assert Counter(hands[1]) == truth

    for known, least in ((0.0, 0), (0.5, 4), (0.75, 6)):
        sample = ceiling.oracle(rnd, "hands", known)
        kept = []
        for seed in range(40):
            hands, stock = sample(view, random.Random(seed))
            dealt = Counter(hands[1])
            assert len(hands[1]) == len(rnd.hands[1]) and dealt & queens == queens
            assert Counter(hands[1]) - queens + Counter(stock) == unseen  # every unseen card once
            assert (dealt - queens) - unseen == Counter()  # never a card seat 0 has seen
            true_hidden = sum(((dealt - queens) & hidden).values())
            assert true_hidden >= least
            kept.append(true_hidden)
            assert sample(view, random.Random(seed)) == (hands, stock)
        assert min(kept) == least  # the count kept is exact; a redrawn card is true only by chance


def test_partly_true_hands_keep_a_shown_hand_whole() -> None:
    """After seat 1 knocks its hand is shown: ``hands:K`` deals it whole, as everybody sees it."""
    from rummykit.bots import GreedyBot
    from rummykit.views import Phase

    ceiling = _ceiling()
    for seed in range(40):
        rnd = rk.Round.new(VIENNESE, 2, seed=seed)
        bot, rng = GreedyBot(), random.Random(seed)
        while not rnd.is_over:
            view = rnd.view(rnd.to_move)
            if view.seat == 0 and view.revealed[1] is not None and view.phase is not Phase.OVER:
                hands, stock = ceiling.oracle(rnd, "hands", 0.5)(view, random.Random(0))
                assert Counter(hands[1]) == Counter(int(c) for c in rnd.hands[1])
                assert Counter(stock) == Counter(int(c) for c in unseen_cards(view))
                return
            rnd.apply(bot.choose(view, rnd.legal_actions(), rng))
    raise AssertionError("no deal of 40 had seat 1 knock before seat 0's extra turn")
