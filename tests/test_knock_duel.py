"""Duel play-outs of the knock games (:mod:`rummykit.bots.knock_duel`) on arranged deals.

The arranged heads-up deal: this seat (seat 0, the dealer with eleven cards) holds 888, JJJ, 4-6♠
and the loose 4♣ and K♦; the opponent (greedy) holds 2-4♥, 999 and the loose 5♣ 6♣ 2♦ K♠ (23).
The 4♣ completes the opponent's 4-6♣ and lets it knock with 2 (the 2♦) at once; discarding the K♦
keeps the 4♣ and this seat knocks a turn later with 4.
"""

from __future__ import annotations

import random

from rummykit import Round, Rules, parse_cards, solver
from rummykit.bots.duel import Sample
from rummykit.bots.greedy import GreedyBot, best_discard
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.knock_duel import (
    ME,
    Duel,
    discard_duel,
    discard_duel_values,
    draw_duel,
    draw_duel_values,
    greedy_discard,
)
from rummykit.testing import arrange_deck

VIENNESE = Rules.preset("viennese")

MINE = "8S 8D 8H JS JD JC 4S 5S 6S 4C KD"
THEIRS = "2H 3H 4H 9S 9D 9C 5C 6C 2D KS"


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def card(text: str) -> int:
    return cards(text)[0]


def without(hand: list[int], c: int) -> list[int]:
    rest = list(hand)
    rest.remove(c)
    return rest


def sample(mine: str, theirs_draws: str) -> Sample:
    return Sample(tuple(cards(mine)), ((tuple(cards(THEIRS)), tuple(cards(theirs_draws))),))


def engine_points(first: str, stock: str, mine_after: list[str]) -> tuple[float, ...]:
    """The arranged deal through the round engine: seat 0 plays ``first`` then ``mine_after`` (its
    moves in the duel), seat 1 is the greedy bot; the points of the hand."""
    ten = MINE.rsplit(" ", 1)[0]  # the dealer's eleventh card, the K♦, is dealt as the extra card
    deck = arrange_deck(VIENNESE, 2, [ten, THEIRS], dealer=0, extra="KD", stock=stock)
    rnd = Round.new(VIENNESE, 2, deck=deck, dealer=0, seed=1)
    assert rnd.to_move == 0 and sorted(int(c) for c in rnd.hands[0]) == sorted(cards(MINE))
    rnd.apply(first)
    greedy = GreedyBot()
    moves = iter(mine_after)
    rng = random.Random(0)
    while not rnd.is_over:
        if rnd.to_move == 1:
            rnd.apply(greedy.choose(rnd.view(1), rnd.legal_actions(), rng))
        else:
            rnd.apply(next(moves))
    assert rnd.result is not None
    return tuple(float(p) for p in rnd.result.points)


def test_an_opponent_fed_the_card_it_needs_takes_it_and_knocks_first() -> None:
    hand = cards(MINE)
    duel = Duel(VIENNESE, without(hand, card("4C")), sample("QS 3H", "10H 10D"), [])
    duel.pile.append(card("4C"))
    points = duel.play(1)
    # The opponent took the 4♣ (4-6♣), knocked with the 2♦ left; this seat's extra turn drew the
    # Q♠ and shed a ten: 10 deadwood against 2.
    assert card("4C") in duel.hands[1]
    assert card("KS") in duel.pile
    assert points == {0: -10.0, 1: -2.0}
    assert len(duel.hands[ME]) == 10 and len(duel.hands[1]) == 10


def test_a_discard_the_opponent_takes_changes_the_duel() -> None:
    hand = cards(MINE)
    smp = sample("QS 3H", "10H 10D")
    fed = discard_duel(VIENNESE, without(hand, card("4C")), card("4C"), False, smp, [])
    kept = discard_duel(VIENNESE, without(hand, card("KD")), card("KD"), False, smp, [])
    assert fed == {0: -10.0, 1: -2.0}
    # K♦ is not taken: the opponent draws the 10♥; this seat draws the Q♠ and knocks with 4 (the 4♣),
    # the opponent's extra turn draws the 10♦.
    assert kept[0] == -4.0 and kept[1] < -4.0
    values = discard_duel_values(
        VIENNESE, hand, [(card("4C"), False), (card("KD"), False), (card("KD"), True)], [smp], [], 10.0
    )
    assert values[0] == -10.0 + 2.0
    assert values[1] > 0 > values[0]
    # Knocking with the K♦ at once: the opponent's extra turn draws the 10♥; 4 against its deadwood.
    knock = discard_duel(VIENNESE, without(hand, card("KD")), card("KD"), True, smp, [])
    assert knock[0] == -4.0
    assert values[2] == knock[0] - knock[1] + 10.0


def test_duel_points_match_the_round_engine_on_the_arranged_deal() -> None:
    hand = cards(MINE)
    # The opponent takes the 4♣ and knocks; the engine's stock: the Q♠ for this seat's extra turn.
    fed = discard_duel(VIENNESE, without(hand, card("4C")), card("4C"), False, sample("QS", "10H"), [])
    assert engine_points("discard 4C", "QS 10H", ["draw", "discard QS"]) == (fed[0], fed[1])
    # The K♦ is not taken: the opponent draws the 10♥, this seat the Q♠ and knocks, the opponent's
    # extra turn draws the 10♦ (one pile in the engine, a sequence per seat in the duel).
    kept = discard_duel(VIENNESE, without(hand, card("KD")), card("KD"), False, sample("QS", "10H 10D"), [])
    assert engine_points("discard KD", "10H QS 10D", ["draw", "knock QS"]) == (kept[0], kept[1])
    # Knocking at once: the opponent's extra turn draws the 10♥.
    knock = discard_duel(VIENNESE, without(hand, card("KD")), card("KD"), True, sample("QS", "10H"), [])
    assert engine_points("knock KD", "10H", []) == (knock[0], knock[1])


def test_draw_duel_takes_the_top_discard_or_draws() -> None:
    # Ten cards before the draw (888, JJJ, 4-6♠, K♦) and the 3♠ on the pile.
    hand = without(cards(MINE), card("4C"))
    smp = sample("7S 3H", "10H 10D")
    taken = draw_duel(VIENNESE, hand, True, smp, [card("3S")])
    drawn = draw_duel(VIENNESE, hand, False, smp, [card("3S")])
    # Taking the 3♠ makes 3-6♠; shedding the K♦ leaves no deadwood: Rummy at once.
    assert taken == {0: 0.0, 1: -float(solver.min_deadwood(cards(THEIRS), VIENNESE))}
    # Drawing the 7♠ makes 4-7♠, the same Rummy.
    assert drawn == taken
    take, draw = draw_duel_values(VIENNESE, hand, [smp], [card("3S")], 10.0)
    assert take == draw == -taken[1] + 10.0


def test_greedy_discard_is_greedys_best_discard() -> None:
    deck = [c for c in range(52)] * 2 + [52, 52]
    rng = random.Random(7)
    for _ in range(3000):
        hand = rng.sample(deck, 11)
        barred = rng.choice([*hand, None])
        allowed = [c for c in set(hand) if c != barred] or hand
        assert greedy_discard(VIENNESE, hand, barred) == best_discard(hand, VIENNESE, allowed)


def test_search_with_duels_plays_whole_rounds() -> None:
    for players in (2, 3):
        rnd = Round.new(VIENNESE, players, seed=11 + players)
        bot = IsmctsBot("easy")
        bot.knock_duels = True
        rng = random.Random(3)
        greedy = GreedyBot()
        while not rnd.is_over:
            seat = rnd.to_move
            player = bot if seat == 0 else greedy
            action = player.choose(rnd.view(seat), rnd.legal_actions(), rng)
            assert rnd.is_legal(action)
            rnd.apply(action)
        assert bot.searches > 0 and bot.playouts > 0
