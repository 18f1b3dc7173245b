"""A rubber's buy-backs as the server sends them: the open offer (price and the total it sets), each
buy-back made (after which hand, the totals before and after, the chips), the log's words for it, and
the pot the winners take."""

from __future__ import annotations

import random
from collections.abc import Callable

import rummykit as rk
from rummykit.bots.base import match_action
from rummykit.bots.greedy import GreedyBot
from rummykit.cli.screen import match_scoreboard, winners_text
from rummykit.web.handlog import log_entry
from rummykit.web.protocol import match_json


def test_the_offer_the_buy_back_and_its_log_entry(rubber_at_a_buyback: Callable[[], rk.Match]) -> None:
    match = rubber_at_a_buyback()
    seat, before, hand = match.to_move, match.totals[match.to_move], len(match.rounds)
    target = match.buyback_target(seat)
    assert target is not None and target < before
    shown = match_json(match)
    assert shown["buyback_offer"] == {"seat": seat, "chips": 5, "from": before, "to": target}
    assert shown["buybacks"] == []
    event = match.apply("buyback")
    shown = match_json(match)
    assert shown["buybacks"] == [{"hand": hand, "seat": seat, "from": before, "to": target, "chips": 5}]
    assert match.totals[seat] == target
    entry = log_entry(len(match.history) - 1, event, match, False, hand)
    moved = f"{-before} → {-target}"  # as scores, the score sheet's sign
    assert entry["texts"]["en"].endswith(f"buys back into the rubber: {moved} for 5 chips")
    assert entry["texts"]["de"].endswith(f"kauft sich in die Partie zurück: {moved} für 5 Chips")


def test_the_pot_the_winners_take_is_kept(rubber_at_a_buyback: Callable[[], rk.Match]) -> None:
    match = rubber_at_a_buyback()
    bot, rng = GreedyBot(), random.Random(3)
    while not match.is_over:
        match.apply(match_action(bot, match, rng))
    assert match.pot == 0 and match.pot_won > 0
    shown = match_json(match)
    assert shown["pot_won"] == match.pot_won
    assert sum(match.chips) == 0  # the pot went to the winners, every chip accounted for
    # What the page's score sheet shows: each winner's share, each hand's chips (its knock money).
    assert shown["pot_shares"] == [match.pot_won if s in match.winners else 0 for s in range(3)]
    hands = shown["hands"]
    assert [h["knock_money"] for h in hands] == [list(match.knock_money(d)) for d in range(1, 1 + len(hands))]
    assert all(h["chips"] == h["knock_money"] for h in hands)  # the ante was paid once, before
    assert shown["start_chips"] == [-5, -5, -5]
    for s, start in enumerate(shown["start_chips"]):
        moved = sum(h["chips"][s] for h in hands)
        bought = sum(b["chips"] for b in shown["buybacks"] if b["seat"] == s)
        assert start + moved - bought + shown["pot_shares"][s] == shown["chips"][s]
    names = ["You", "Bot 2", "Bot 3"]
    said = winners_text(match.winners, names, match_scoreboard(match), "en").plain
    assert f"and the pot of {match.pot_won} chips (chips " in said
    german = winners_text(match.winners, ["Du", "Bot 2", "Bot 3"], match_scoreboard(match), "de").plain
    assert f"den Pott von {match.pot_won} Chips (Chips: " in german
