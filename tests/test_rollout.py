"""Table play-outs of the melding games (:class:`rummykit.bots.rollout.TablePlay`)."""

from __future__ import annotations

import rummykit as rk
from rummykit.bots.rollout import TablePlay

GERMAN = rk.Rules.preset("german")


def test_a_known_stock_is_drawn_as_one_pile_whoever_draws() -> None:
    """With ``one_pile`` the seat after a seat that took the discard draws the next stock card (the
    real order), in every copy of the play-out; without it each seat has its own sequence."""
    rnd = rk.Round.new(GERMAN, 2, seed=5)
    me = rnd.to_move
    other = 1 - me
    view = rnd.view(me)
    assert view.discard_pile
    stock = [int(c) for c in reversed(rnd.stock)]  # the next card drawn first
    hands = {other: [int(c) for c in rnd.hands[other]]}
    for one_pile in (True, False):
        play = TablePlay.start(view, hands, stock, one_pile).copy()
        assert (play.stock[me] is play.stock[other]) is one_pile
        play.meld_turn(me, take=True)
        assert play.stock[other][-1] == (stock[0] if one_pile else stock[1])
        play.meld_turn(other, take=False)
        assert play.stock[me][-1] == (stock[1] if one_pile else stock[0])
