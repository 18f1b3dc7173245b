"""The particle filter over the opponent's gin hand: histories read from arranged deals and the
hands it then holds likely."""

from __future__ import annotations

import random

from rummykit.actions import Action, Discard, Pass
from rummykit.bots.gin_duel import opponent_discard, opponent_takes
from rummykit.bots.gin_particles import (
    GinHistory,
    OpponentModel,
    OpponentTurn,
    ParticleReader,
    discard_likelihood,
    filter_hands,
)
from rummykit.bots.greedy import linked
from rummykit.bots.race import knock_home
from rummykit.cards import parse_cards
from rummykit.determinize import unseen_cards
from rummykit.gin_melds import openspiel_card
from rummykit.interop.openspiel_gin import round_from_deal
from rummykit.round import Round
from rummykit.rules import Rules

GIN = Rules.preset("gin")


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def card(text: str) -> int:
    return cards(text)[0]


def deal(hand0: str, hand1: str, upcard: str, stock: str = "") -> Round:
    """A gin round (seat 0 acts first) dealt with these cards; the stock starts with ``stock``."""
    order = [*parse_cards(hand0), *parse_cards(hand1), *parse_cards(upcard), *parse_cards(stock)]
    return round_from_deal([openspiel_card(c) for c in order], GIN)


def play_seen(rnd: Round, reader: ParticleReader, *actions: str) -> None:
    """Apply ``actions``; seat 0's views and moves go through ``reader`` as the search bot shows them."""
    for text in actions:
        action = Action.parse(text)
        if rnd.to_move == 0:
            view = rnd.view(0)
            reader.observe(view)
            reader.acted(view, action)
        rnd.apply(action)


OPPONENT = "5H 6H 9C 9D KS QS JD 2C 3D 4S"


def took_seven_passed_eight() -> tuple[Round, ParticleReader]:
    """Seat 1 passes the first upcard 8S, takes seat 0's 7H (5H 6H 7H) and throws KS."""
    rnd = deal("7H AC 2D 3S 10H JH QH KD 4D 8C", OPPONENT, "8S", "5C")
    assert not opponent_takes(GIN, cards(OPPONENT), card("8S"))
    assert opponent_takes(GIN, cards(OPPONENT), card("7H"))
    assert opponent_discard(GIN, [*cards(OPPONENT), card("7H")], card("7H")) == card("KS")
    reader = ParticleReader()
    play_seen(rnd, reader, "pass", "pass", "draw", "discard 7H", "take", "discard KS")
    reader.observe(rnd.view(0))
    return rnd, reader


def test_the_history_is_read_from_the_views() -> None:
    _, reader = took_seven_passed_eight()
    h = reader.history
    assert not h.broken
    assert h.turns == [
        OpponentTurn(card("8S"), False, None),
        OpponentTurn(card("7H"), True, card("KS")),
    ]
    assert h.fresh == [card("KS")]  # seat 0 never saw it before it was thrown
    assert card("8S") in h.seen and card("5C") in h.seen and card("7H") in h.seen


def test_a_taken_card_brings_its_partners_and_a_passed_one_keeps_them_away() -> None:
    rnd, reader = took_seven_passed_eight()
    view = rnd.view(0)
    found = reader.hands(view, random.Random(3))
    assert found and abs(sum(w for _, w in found) - 1.0) < 1e-9
    unseen = [int(c) for c in unseen_cards(view)]
    hidden = view.hand_sizes[1] - 1  # the 7H is known

    def mean_partners(of: int) -> tuple[float, float]:
        """Weighted partners of ``of`` per particle (beyond the 7H itself), and as many random cards."""
        held = sum(w * sum(1 for c in hand if c != card("7H") and linked(c, of)) for hand, w in found)
        chance = hidden * sum(1 for c in unseen if linked(c, of)) / len(unseen)
        return held, chance

    seven, seven_chance = mean_partners(card("7H"))
    assert seven > 1.5 * seven_chance  # it took the 7H to meld it

    def would_take(up: int, prior: bool) -> float:
        """Share of dealt hands (the hand now less the 7H, with the KS back) that would take ``up``:
        weighted particles, or (``prior``) random hands of the same unseen cards."""
        if prior:
            rng = random.Random(9)
            hands = [[*rng.sample(unseen, hidden), card("KS")] for _ in range(400)]
            return sum(opponent_takes(GIN, h, up) for h in hands) / len(hands)
        return sum(
            w * opponent_takes(GIN, [c for c in hand if c != card("7H")] + [card("KS")], up)
            for hand, w in found
        )

    assert would_take(card("7H"), prior=False) > 0.95 > 3 * would_take(card("7H"), prior=True)
    assert would_take(card("8S"), prior=False) < 0.1 * would_take(card("8S"), prior=True)


def test_particles_fit_what_this_seat_has_seen() -> None:
    rnd, reader = took_seven_passed_eight()
    view = rnd.view(0)
    allowed = {int(c) for c in unseen_cards(view)} | {card("7H")}
    for hand, weight in reader.hands(view, random.Random(5)):
        assert len(hand) == 10 and len(set(hand)) == 10 and weight > 0
        assert set(hand) <= allowed and card("7H") in hand  # the known card, no seen one
        assert card("KS") not in hand  # thrown
    samples = reader(view, random.Random(5), 50)
    assert len(samples) == 50 and reader.fallbacks == 0
    for hand, stock, weight in samples:
        assert not set(hand) & set(stock) and set(stock) <= allowed and weight == 1.0
        assert len(stock) == view.stock_size - GIN.wall_stock_size
    reader.mix = 0.5  # half the samples from the rule-aged sampler, both halves weighing alike
    mixed = reader(view, random.Random(5), 50)
    assert len(mixed) == 50 and all(len(h) == 10 and set(h) <= allowed for h, _, _ in mixed)
    aged, particles = mixed[:25], mixed[25:]
    assert abs(sum(w for _, _, w in aged) - sum(w for _, _, w in particles)) < 1e-9


def test_a_hand_that_could_have_knocked_is_almost_never_a_particle() -> None:
    # Its cards come from a pool full of hearts runs; it drew and threw the KS instead of knocking.
    turns = [OpponentTurn(None, False, card("KS"))]
    unseen = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H AD 2D 3D QC JC")

    def could_knock(model: OpponentModel) -> float:
        found = filter_hands(GIN, turns, cards("KS"), unseen, random.Random(7), 2000, model)
        assert found
        return sum(w for hand, w in found if knock_home(GIN, [*hand, card("KS")]))

    blind = could_knock(OpponentModel(knock_slip=1.0))
    assert blind > 0.03  # without the knock evidence such hands are common
    assert could_knock(OpponentModel()) < 0.01 * blind


def test_a_low_discard_means_every_higher_card_was_melded() -> None:
    # It threw the 5S after drawing: by its rule it held no higher-ranked deadwood at that moment, which
    # few random hands do. (The particles that slipped stay: a thousand rarely hold the few that fit.)
    turns = [OpponentTurn(None, False, card("5S"))]
    unseen = [c for c in range(52) if c not in cards("5S AC 2C 3C 4C 5C 6C 7C 8C 9C 10C")]
    found = filter_hands(GIN, turns, cards("5S"), unseen, random.Random(11), 1000, OpponentModel())
    model = OpponentModel()
    rule = (1 - model.tie_slip - model.discard_slip) / 4  # the rule's choice: at most four cards share a rank
    kept = sum(
        w
        for hand, w in found
        if discard_likelihood(GIN, [*hand, card("5S")], None, card("5S"), model) >= rule
    )
    rng = random.Random(2)
    blind = [[*rng.sample(unseen, 10), card("5S")] for _ in range(1000)]
    prior = sum(discard_likelihood(GIN, h, None, card("5S"), model) >= rule for h in blind) / len(blind)
    assert prior < 0.01 and kept > 0.4  # rare among random hands, the rule among the particles


def test_an_unreadable_history_falls_back_to_the_sampler() -> None:
    rnd, reader = took_seven_passed_eight()
    history = GinHistory()
    history.observe(rnd.view(0))  # first shown the middle of a hand: it cannot tell what happened
    assert history.broken
    reader.history.broken = True
    view = rnd.view(0)
    assert reader.hands(view, random.Random(1)) == []
    assert len(reader(view, random.Random(1), 5)) == 5 and reader.fallbacks == 1


def test_moves_keep_the_particles_consistent_and_find_more_hands_that_fit() -> None:
    # The 5S again: Metropolis moves on 200 particles find more hands that fit than importance
    # weights on 1,000, and every moved particle still holds only cards it may hold.
    turns = [OpponentTurn(None, False, card("5S"))]
    seen = cards("5S AC 2C 3C 4C 5C 6C 7C 8C 9C 10C")
    unseen = [c for c in range(52) if c not in seen]
    model = OpponentModel()
    rule = (1 - model.tie_slip - model.discard_slip) / 4

    def fitting(particles: int, moves: int) -> float:
        found = filter_hands(GIN, turns, cards("5S"), unseen, random.Random(11), particles, model, moves)
        for hand, _ in found:
            assert len(set(hand)) == 10 and set(hand) <= set(unseen)
        return sum(
            w
            for hand, w in found
            if discard_likelihood(GIN, [*hand, card("5S")], None, card("5S"), model) >= rule
        )

    assert fitting(200, 10) > fitting(1000, 0) + 0.1


def test_the_search_bot_shows_every_decision_to_its_reader() -> None:
    # Seat 0 plays the search bot with a reader, seat 1 greedy: the reader follows each of seat 1's moves.
    from rummykit.bots import Budget, GinSearchBot, make_bot

    rnd = Round.new(GIN, 2, seed=1)
    reader = ParticleReader(particles=50)
    bot = GinSearchBot(budget=Budget(determinizations=4, horizon=2, candidates=2), reader=reader)
    other = make_bot("greedy")
    rng = random.Random(0)
    moves = 0  # seat 1's passes and discards so far
    seen_moves = 0  # as many as there were when seat 0 last decided
    for _ in range(30):
        if rnd.view(0).knocker is not None or rnd.phase.value in ("over", "wall"):
            break
        if rnd.to_move == 0:
            seen_moves = moves
            action = bot.choose(rnd.view(0), rnd.legal_actions(), rng)
        else:
            action = other.choose(rnd.view(1), rnd.legal_actions(), rng)
            moves += isinstance(action, (Discard, Pass))
        rnd.apply(action)
    h = reader.history
    assert not h.broken and seen_moves >= 3 and len(h.turns) == seen_moves
    assert all(t.discard is None or t.discard not in h.seen or t.took for t in h.turns)
