"""Random complete matches for every preset and player count: they end, chips are conserved, every
total is the sum of the round penalties plus buy-back adjustments (recomputed independently from
``m.rounds`` and the ``MatchEvent``s of ``m.history``, following RULES.md §4.8), and the match record
replays to an identical match."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rummykit as rk
from rummykit.actions import Discard

MAX_ACTIONS = 200_000

# Uniformly random players rarely knock: a Viennese rubber to 101 then takes thousands of actions and
# most hands end unscored when the stock runs out. So in the knock games a player who may knock or
# call Rummy does so half of the time, and otherwise discards, 70 % of the time, one of the cards
# that leave the least deadwood (solver.best_discards); every other choice, including buy-back
# decisions, is uniformly random. One purely random Viennese rubber is played on its own below.


def rules_for(name: str) -> rk.Rules:
    return rk.Rules.preset(name)


CASES = [
    (name, n)
    for name in rk.PRESET_NAMES
    for n in range(rules_for(name).min_players, rules_for(name).max_players + 1)
]


def choose(m: rk.Match, rng: random.Random, steer: bool = True) -> rk.Action:
    actions = m.legal_actions()
    if not steer or not m.rules.is_knock_game or m.pending_buyback:
        return rng.choice(actions)
    calls = [a for a in actions if str(a).startswith(("rummy ", "knock "))]
    if calls and rng.random() < 0.5:
        return rng.choice(calls)
    if m.round.phase is rk.Phase.DISCARD and rng.random() < 0.7:
        _, best = rk.solver.best_discards(list(m.round.hands[m.to_move]), m.rules)
        good = [a for a in actions if isinstance(a, Discard) and a.card in best]
        if good:
            return rng.choice(good)
    return rng.choice(actions)


def play(m: rk.Match, rng: random.Random, steer: bool = True) -> None:
    start = m.pot + sum(m.chips)
    for _ in range(MAX_ACTIONS):
        if m.is_over:
            return
        m.apply(choose(m, rng, steer))
        assert m.pot + sum(m.chips) == start, "chips are not conserved"
        assert m.pot >= 0
    raise AssertionError(f"the match did not end within {MAX_ACTIONS} actions: {m}")


def check_ledger(m: rk.Match) -> dict[str, int]:
    """Recompute totals, plus points, chips, pot and eliminations from the rounds and the buy-back
    decisions, and compare them with the match. Returns counts of what happened."""
    rules, n = m.rules, m.players
    totals = [0] * n
    gains = [0] * n
    chips = [0] * n
    pot = 0
    eliminated = [False] * n
    buybacks = [0] * n
    rubber = rules.is_knock_game and rules.match_end == "elimination_last_survivor"
    if rubber:
        for s in range(n):
            chips[s] -= rules.pot_ante
            pot += rules.pot_ante
    counts = {"rounds": 0, "scored": 0, "buybacks": 0, "declines": 0}
    index, k = 0, 0
    for event in m.history:
        if isinstance(event, rk.MatchEvent):
            assert rubber
            seat = event.seat
            low, high = rules.buyback_window
            assert not eliminated[seat] and low < totals[seat] < high
            assert buybacks[seat] < rules.buyback_limit
            others = [
                totals[s] for s in range(n) if s != seat and not eliminated[s] and totals[s] <= totals[seat]
            ]
            assert others, "an offer was made without a buy-back target (D8)"
            if str(event.action) == "buyback":
                assert (event.chips, event.new_total) == (rules.buyback_cost, max(others))
                totals[seat] = max(others)
                chips[seat] -= rules.buyback_cost
                pot += rules.buyback_cost
                buybacks[seat] += 1
                counts["buybacks"] += 1
            else:
                assert (str(event.action), event.chips, event.new_total) == ("decline", 0, None)
                counts["declines"] += 1
            continue
        rnd = m.rounds[index]
        assert rnd.history[k] is event
        k += 1
        if k < len(rnd.history):
            continue
        assert rnd.is_over and rnd.result is not None
        assert rnd.in_play == tuple(s for s in range(n) if not eliminated[s])
        result = rnd.result
        counts["rounds"] += 1
        if result.scored:
            counts["scored"] += 1
            assert result.winner in rnd.active
            if rubber:
                for s in rnd.active:
                    if s != result.winner:
                        chips[s] -= rules.knock_money
                        chips[result.winner] += rules.knock_money
            for s in range(n):
                if s not in rnd.active:
                    assert result.penalties[s] == result.gains[s] == 0
                totals[s] += result.penalties[s]
                gains[s] += result.gains[s]
        if rules.match_end == "elimination_last_survivor":
            for s in range(n):
                if totals[s] >= (rules.elimination_threshold or 0):
                    eliminated[s] = True
        index, k = index + 1, 0
    assert index == len(m.rounds), "every round of a finished match is over"
    assert m.totals == tuple(totals)
    assert m.gains == gains
    assert m.scores == tuple(g - t for g, t in zip(gains, totals, strict=True))
    assert m.eliminated == eliminated
    assert m.buybacks == buybacks
    # the pot goes to the winners, split as evenly as chips allow
    payout = [a - b for a, b in zip(m.chips, chips, strict=True)]
    assert m.pot == 0 and sum(payout) == pot
    for s in range(n):
        if s in m.winners:
            assert payout[s] in (pot // len(m.winners), -(-pot // len(m.winners)))
        else:
            assert payout[s] == 0
    if not rubber:
        assert m.chips == (0,) * n and pot == 0
    return counts


def check_winners(m: rk.Match) -> None:
    rules, n = m.rules, m.players
    assert m.winners and m.legal_actions() == []
    if rules.match_end == "elimination_last_survivor":
        if len(m.active_seats) == 1:
            assert m.winners == m.active_seats
        else:
            assert m.active_seats == ()
            last = m.rounds[-1].in_play
            best = min(m.totals[s] for s in last)
            assert m.winners == tuple(s for s in last if m.totals[s] == best)
    elif rules.match_end == "target_score":
        best = max(m.scores)
        assert best >= rules.target_score
        assert m.winners == tuple(s for s in range(n) if m.scores[s] == best)
    else:
        best = min(m.totals)
        assert m.winners == tuple(s for s in range(n) if m.totals[s] == best)
        if rules.match_end == "fixed_hands":
            assert len(m.rounds) == (rules.num_hands or n)


def snapshot(m: rk.Match) -> tuple[Any, ...]:
    return (
        m.totals,
        m.scores,
        m.chips,
        m.pot,
        m.winners,
        tuple(m.eliminated),
        tuple(m.buybacks),
        tuple(m.actions),
        tuple(m.history),
        tuple((r.deck, r.seed, r.dealer, r.in_play, tuple(r.history), r.result) for r in m.rounds),
    )


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_match(name: str, players: int) -> None:
    seed = 1000 * players + rk.PRESET_NAMES.index(name)
    rng = random.Random(seed)
    m = rk.Match.new(rules_for(name), players, seed=seed, dealer=seed % players)
    fresh = m.pot + sum(m.chips)
    assert fresh == 0
    if m.is_rubber:
        assert m.pot == players * m.rules.pot_ante
    play(m, rng)
    counts = check_ledger(m)
    check_winners(m)
    assert counts["rounds"] == len(m.rounds)
    replayed = rk.Record.loads(rk.Record.from_match(m).dumps()).replay()
    assert snapshot(replayed) == snapshot(m)


def test_random_knock_matches_exercise_buybacks() -> None:
    """The rubbers above do reach the buy-back rules, with both answers."""
    seen = {"buybacks": 0, "declines": 0}
    for name in ("viennese", "romme_ohne_auslegen"):
        for players in (2, 3, 4, 5):
            seed = 1000 * players + rk.PRESET_NAMES.index(name)
            m = rk.Match.new(rules_for(name), players, seed=seed, dealer=seed % players)
            play(m, random.Random(seed))
            counts = check_ledger(m)
            seen["buybacks"] += counts["buybacks"]
            seen["declines"] += counts["declines"]
    assert seen["buybacks"] and seen["declines"]


def test_uniformly_random_viennese_rubber() -> None:
    """Purely random play (no steering) still ends a full Viennese rubber; many of its hands end
    unscored when the stock cannot be rebuilt any more (D10)."""
    m = rk.Match.new(rk.Rules.preset("viennese"), 2, seed=5, dealer=1)
    play(m, random.Random(5), steer=False)
    counts = check_ledger(m)
    check_winners(m)
    assert counts["scored"] < counts["rounds"]
    replayed = rk.Record.loads(rk.Record.from_match(m).dumps()).replay()
    assert snapshot(replayed) == snapshot(m)
