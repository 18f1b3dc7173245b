"""The error hierarchy: every error says its message in German through ``err.localized`` (a name
DESIGN.md pins), and every error pickles with its attributes (worker processes send them back)."""

from __future__ import annotations

import pickle

import pytest

import rummykit as rk
from rummykit.arena import ArenaError, EndlessHandError
from rummykit.errors import (
    CardNotInHandError,
    IllegalActionError,
    IllegalMeldError,
    KnockError,
    MatchDecisionError,
    RulesError,
    WrongTurnError,
)


def test_localized_speaks_german_and_english_is_the_message() -> None:
    rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=4)
    with pytest.raises(rk.RummyError) as info:
        rnd.apply("discard QH")
    err = info.value
    assert err.localized("de") == "Herz-Dame abwerfen: Zuerst vom Stoß ziehen oder die Ablage aufnehmen"
    assert err.localized("en") == err.localized() == str(err)
    message = "knock 5H: the player in seat 1 has already knocked; now you only draw and discard"
    knock = KnockError(message, "knock_extra_turn")
    assert (
        knock.localized("en", ["Anna", "Ben"])
        == "knock 5H: Ben has already knocked; now you only draw and discard"
    )
    assert "Ben" in knock.localized("de", ["Anna", "Ben"])


@pytest.mark.parametrize(
    "err",
    [
        CardNotInHandError("discard QS: you do not hold QS", "card_not_in_hand"),
        WrongTurnError("discard QH: first draw", "draw_first"),
        IllegalActionError("x", "not_your_turn"),
        MatchDecisionError("buyback: no", "buyback_window"),
        IllegalMeldError("QH QS QD QH: a set needs distinct suits", "set_distinct_suits"),
        RulesError("opening_min_points: must be 0 to 200", "opening_min_points"),
        rk.NotationError("not a card: ZZ"),
        ArenaError("rounds must be at least 1"),
        EndlessHandError("the round did not end"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_errors_pickle_with_their_attributes(err: rk.RummyError) -> None:
    err.add_note("bot 'x' at seat 0 in game 3")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err) and str(back) == str(err) and back.args == err.args
    assert vars(back) == vars(err)  # rule, option, the notes
    assert back.localized("de") == err.localized("de")


@pytest.mark.parametrize("text", ["layoff 5H on 0", "layoff JK on 00 low", "swap 6C on 0 then meld 8D 9D JK"])
def test_table_melds_are_numbered_from_one(text: str) -> None:
    with pytest.raises(rk.NotationError, match="table melds are numbered from 1"):
        rk.Action.parse(text)
    assert str(rk.Action.parse(text.replace(" 00", " 1").replace(" 0", " 1"))).startswith(text.split()[0])


def test_errors_of_several_arguments_and_import_errors_pickle_whole() -> None:
    from rummykit.bots.openspiel_simple import OpenSpielMissingError

    several = pickle.loads(pickle.dumps(rk.RummyError("a", "b")))
    assert several.args == ("a", "b")
    missing = pickle.loads(pickle.dumps(OpenSpielMissingError("open_spiel is not installed")))
    assert missing.msg == "open_spiel is not installed" and isinstance(missing, ImportError)
