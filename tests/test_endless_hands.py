"""Every hand ends (RULES.md §3.13, decision D10): players who only ever take the discard pile never
empty the stock, so ``max_stock_rebuilds`` alone does not bound them; ``max_takes_in_a_row`` does."""

from __future__ import annotations

import random

import pytest

from rummykit import Round, Rules, Termination
from rummykit.actions import Discard, Draw, TakeDiscard
from rummykit.determinize import sample_round
from rummykit.errors import RulesError
from rummykit.events import HandEnded


def hoard(rnd: Round, rng: random.Random, *, draw_at: int | None = None) -> None:
    """One action of a player who takes every discard and sheds another card at once (or draws when
    ``draw_at`` takes in a row have been made)."""
    legal = rnd.legal_actions()
    if TakeDiscard() in legal and rnd.takes_in_a_row != draw_at:
        rnd.apply(TakeDiscard())
    elif Draw() in legal:
        rnd.apply(Draw())
    else:
        keep = [a for a in legal if isinstance(a, Discard) and a.card != rnd.taken_discard]
        rnd.apply(rng.choice(keep))


@pytest.mark.parametrize(
    ("preset", "players"),
    [("german", 2), ("german_dskv", 3), ("basic", 2), ("viennese", 2), ("romme_ohne_auslegen", 3)],
)
def test_a_hand_of_players_who_only_take_the_discard_ends_dead(preset: str, players: int) -> None:
    rules = Rules.preset(preset)
    rnd = Round.new(rules, players, seed=11)
    stock = rnd.stock_size
    rng = random.Random(1)
    for _ in range(10 * rules.max_takes_in_a_row):
        if rnd.is_over:
            break
        hoard(rnd, rng)
    assert rnd.is_over, "the hand went on past the bound"
    result = rnd.result
    assert result.termination is Termination.DRAWN and not result.scored
    assert result.points == (0,) * players
    assert rnd.takes_in_a_row == rules.max_takes_in_a_row == 50
    assert rnd.stock_size == stock  # nobody drew: max_stock_rebuilds could never have ended it
    takes = [event for event in rnd.history if isinstance(event.action, TakeDiscard)]
    # The take after the bound ended the hand instead of being made: it brought no card.
    assert [event.card is not None for event in takes] == [True] * rules.max_takes_in_a_row + [False]
    assert isinstance(takes[-1].steps[-1], HandEnded) and takes[-1] is rnd.history[-1]


def test_a_draw_from_the_stock_starts_the_count_again() -> None:
    rules = Rules.preset("german").replace(max_takes_in_a_row=10)
    rnd = Round.new(rules, 2, seed=3)
    rng = random.Random(2)
    counts = []
    while not rnd.is_over and len(counts) < 200:
        hoard(rnd, rng, draw_at=9)
        counts.append(rnd.takes_in_a_row)
    assert not rnd.is_over and max(counts) == 9 and counts.count(0) > 10
    # The count is public: the view, a copy and a determinized world carry it.
    while rnd.takes_in_a_row < 5:
        hoard(rnd, rng)
    assert rnd.view(0).takes_in_a_row == rnd.takes_in_a_row == rnd.copy().takes_in_a_row
    assert sample_round(rnd.view(rnd.to_move), random.Random(0)).takes_in_a_row == rnd.takes_in_a_row


def test_the_bound_is_an_option_within_a_range() -> None:
    assert Rules.preset("german").replace(max_takes_in_a_row=500).max_takes_in_a_row == 500
    for refused in ({"max_takes_in_a_row": 9}, {"max_takes_in_a_row": 501}):
        with pytest.raises(RulesError):
            Rules.preset("german").replace(**refused)
    with pytest.raises(RulesError, match="max_upcard_draws"):
        Rules.preset("gin").replace(max_takes_in_a_row=10)
    with pytest.raises(RulesError, match="takes cannot go on for ever"):
        Rules.preset("scala40").replace(max_takes_in_a_row=10)


def test_a_knock_is_scored_though_its_extra_turns_run_past_the_take_bound() -> None:
    """Viennese: the knocker's own turn was the tenth take in a row under ``max_takes_in_a_row=10``.
    The next player's extra turn may still take the discard: the hand ends with that round of extra
    turns anyway, and the knock is scored (before, the take ended the hand dead, the knock void)."""
    from rummykit.actions import Knock
    from rummykit.views import Phase

    rules = Rules.preset("viennese").replace(max_takes_in_a_row=10)
    for seed in range(50):
        rnd, rng = Round.new(rules, 2, seed=seed), random.Random(seed)
        while rnd.result is None:
            if rnd.phase is Phase.DRAW and TakeDiscard() in rnd.legal_actions():
                state = rnd.state()
                state.takes_in_a_row = 9  # nine turns in a row began with a take
                world = Round.from_state(state)
                world.apply(TakeDiscard())
                knocks = [a for a in world.legal_actions() if isinstance(a, Knock)]
                if knocks:
                    break
            rnd.apply(rng.choice(rnd.legal_actions()))
        else:
            continue
        world.apply(knocks[0])
        assert world.takes_in_a_row == 10 and TakeDiscard() in world.legal_actions()
        world.apply(TakeDiscard())
        while world.result is None:
            world.apply(next(a for a in world.legal_actions() if isinstance(a, Discard)))
        assert world.result.scored and world.result.termination is not Termination.DRAWN
        return
    pytest.fail("no seed reached a knock right after a take")


@pytest.mark.parametrize("preset", ["german", "viennese"])
def test_a_hand_ended_by_the_take_bound_says_so_in_the_terminal_and_on_the_web(preset: str) -> None:
    """The log's last move is a take of a card that stayed on the pile; the result line names the
    bound that ended the hand instead of a vague "the discards went back and forth"."""
    pytest.importorskip("rich")
    from rummykit.cli.screen import termination_text

    rules = Rules.preset(preset).replace(max_takes_in_a_row=12)
    rnd = Round.new(rules, 2, seed=5)
    rng = random.Random(4)
    while not rnd.is_over:
        hoard(rnd, rng)
    result = rnd.result
    assert result is not None and result.termination is Termination.DRAWN
    names = ["You", "Bot 2"]
    assert termination_text(result, names, "en", rules) == "a dead hand after 12 takes in a row: not scored"
    assert (
        termination_text(result, names, "de", rules)
        == "ein totes Spiel nach 12 Aufnahmen hintereinander: es zählt nicht"
    )
    # Without rules (and in gin, where a dead hand has other causes) the general words stay.
    assert (
        termination_text(result, names, "en") == "a dead hand (the discards went back and forth): not scored"
    )
    pytest.importorskip("fastapi")
    from rummykit.web.protocol import result_json

    shown = result_json(result, rules)
    assert shown is not None and shown["takes_bound"] == 12 and not shown["scored"]
    gin = Rules.preset("gin")
    gin_dead = result_json(result, gin)
    assert gin_dead is not None and gin_dead["takes_bound"] is None
