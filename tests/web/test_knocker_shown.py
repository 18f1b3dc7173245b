"""The knocker's face-up hand as the others see it during their last turns (Viennese: RULES.md §4.5,
the knocker shows the hand split into melds and announces the deadwood), as the server sends it."""

from __future__ import annotations

import random

import rummykit as rk
from rummykit import solver
from rummykit.bots.greedy import GreedyBot
from rummykit.web.protocol import view_json


def test_the_others_see_the_knockers_melds_and_deadwood_until_the_showdown() -> None:
    bot = GreedyBot()
    for seed in range(40):
        rnd = rk.Round.new(rk.Rules.preset("viennese"), 3, seed=seed)
        rng = random.Random(seed)
        while rnd.result is None and rnd.knocker is None:
            assert view_json(rnd.view(0), own=True)["knocker_shown"] is None  # nothing before a knock
            rnd.apply(bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
        if rnd.result is None:
            break
    else:
        raise AssertionError("no seed reached a knock with turns left")
    knocker = rnd.knocker
    assert knocker is not None
    other = next(s for s in range(3) if s != knocker)
    shown = view_json(rnd.view(other), own=True)["knocker_shown"]
    best = solver.best_arrangement(list(rnd.hands[knocker]), rnd.rules)
    assert shown == {
        "melds": [[str(c) for c in m.cards] for m in best.melds],
        "deadwood_cards": [str(c) for c in best.deadwood_cards],
        "deadwood": best.deadwood,
    }
    assert shown["deadwood"] < rnd.rules.knock_threshold  # the knock it allowed
    assert view_json(rnd.view(other), own=False)["knocker_shown"] == shown  # public: spectators see it too
    gin = rk.Round.new(rk.Rules.preset("gin"), 2, seed=1)
    assert view_json(gin.view(0), own=True)["knocker_shown"] is None
