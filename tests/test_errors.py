"""The error hierarchy: every error says its message in German through ``err.localized`` (a public
name callers rely on), every error pickles with its attributes (worker processes send them back), and a
message quotes at most 40 characters of the input it refuses (``errors.quoted``)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import rummykit as rk
from rummykit.arena import ArenaError, EndlessHandError
from rummykit.bots import make_bot
from rummykit.errors import (
    CardNotInHandError,
    IllegalActionError,
    IllegalMeldError,
    KnockError,
    MatchDecisionError,
    RulesError,
    WrongTurnError,
    quoted,
)
from rummykit.testing import arrange_deck


def test_localized_speaks_german_and_english_is_the_message() -> None:
    rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=4)
    with pytest.raises(rk.RummyError) as info:
        rnd.apply("discard QH")
    err = info.value
    assert err.localized("de") == "Herz-Dame abwerfen: Zuerst vom Stoß ziehen oder von der Ablage nehmen"
    assert err.localized("en") == err.localized() == str(err)
    message = "knock 5H: the player in seat 1 has already knocked; now you only draw and discard"
    knock = KnockError(message, "knock_extra_turn")
    assert (
        knock.localized("en", ["Anna", "Ben"])
        == "knock 5H: Ben has already knocked; now you only draw and discard"
    )
    assert "Ben" in knock.localized("de", ["Anna", "Ben"])


def test_a_missing_table_meld_counts_one_meld_in_the_singular() -> None:
    """With one meld on the table the message says "(1 meld)" / "(1 Figur)", not "(1 melds)"."""
    rules = rk.Rules.preset("german")
    hand = "10H JH QH KH 2C 3D 5S 7C 9D 4S 6D 8C 2S"
    other = "2H 3D 4D 5C 6C 7C 8S 9S 10S JD QD KD 3S"
    rnd = rk.Round.new(rules, 2, deck=arrange_deck(rules, 2, [hand, other], stock="8H", dealer=1), dealer=1)
    with pytest.raises(IllegalActionError) as none:
        rnd.table_meld(1)
    assert str(none.value) == "there is no meld 1 on the table (0 melds)"
    rnd.apply("draw")
    rnd.apply("open 10H JH QH KH")
    with pytest.raises(IllegalActionError) as one:
        rnd.table_meld(2)
    assert one.value.rule == "no_such_meld"
    assert str(one.value) == "there is no meld 2 on the table (1 meld)"
    assert one.value.localized("de") == "Auf dem Tisch liegt keine Figur 2 (1 Figur)"


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


LONG = "y" * 20 + "\n\x1b[31m" + "y" * 9980
"""Input from outside: 10,000 characters with a newline and a terminal escape in the first 40."""
WORD = LONG.replace("\n", "")
"""The same without the newline: one word of card or action text."""


def test_quoted_clips_to_40_characters_and_escapes() -> None:
    assert quoted("QX") == "'QX'"
    assert quoted(LONG) == "'" + "y" * 20 + "\\n\\x1b[31m" + "y" * 14 + "'…"
    assert quoted("x" * 40) == "'" + "x" * 40 + "'" and quoted("x" * 41) == "'" + "x" * 40 + "'…"
    assert quoted("Jürgen\u202e") == "'Jürgen\\u202e'"  # a text direction override too
    assert quoted(tuple(range(100))).endswith("…") and len(quoted(tuple(range(100)))) == 41


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda: rk.Card.parse(LONG), id="card"),
        pytest.param(lambda: rk.Action.parse(LONG), id="action"),
        pytest.param(lambda: rk.Action.parse("draw " + LONG), id="bare verb"),
        pytest.param(lambda: rk.Action.parse("discard " + WORD), id="discard card"),
        pytest.param(lambda: rk.Action.parse("discard " + "7H " * 3000), id="discard cards"),
        pytest.param(lambda: rk.Action.parse("layoff " + WORD), id="layoff card"),
        pytest.param(lambda: rk.Action.parse("layoff 5H 6H " + LONG + " on 2"), id="layoff cards"),
        pytest.param(lambda: rk.Action.parse("swap " + LONG), id="swap"),
        pytest.param(lambda: rk.Action.parse("swap 5H on 2 then " + LONG), id="swap then"),
        pytest.param(lambda: rk.Action.parse("open 7C 8C | " + WORD), id="open card"),
        pytest.param(lambda: rk.Action.parse("open 7C 8C JK(=" + WORD + ")"), id="open joker"),
        pytest.param(lambda: rk.Rules.preset(LONG), id="preset"),
        pytest.param(lambda: rk.Rules.from_mapping({LONG: 1}), id="option name"),
        pytest.param(lambda: rk.Rules.from_mapping({"start_mode": LONG}), id="choice text"),
        pytest.param(lambda: rk.Rules.from_mapping({"joker_robbing": LONG}), id="switch text"),
        pytest.param(lambda: rk.Rules.from_mapping({"opening_min_points": LONG}), id="number text"),
        pytest.param(lambda: rk.Rules.from_mapping({"buyback_window": LONG}), id="pair text"),
        pytest.param(lambda: rk.Rules.preset("german").replace(seat_draw=LONG), id="choice"),
        pytest.param(lambda: rk.Rules.preset("german").replace(joker_robbing=LONG), id="switch"),
        pytest.param(
            lambda: rk.Rules.preset("german").replace(opening_min_points=int("9" * 300)), id="number"
        ),
        pytest.param(lambda: rk.Rules.preset("german").replace(buyback_window=tuple(range(100))), id="pair"),
        pytest.param(lambda: rk.Rules.parse(LONG + "(x"), id="rules text"),
        pytest.param(lambda: rk.Rules.parse("german(" + LONG + ")"), id="option text"),
        pytest.param(lambda: rk.Rules.parse("german(penalty_joker=" + LONG + ")"), id="option value text"),
        pytest.param(lambda: rk.rules.option_range(LONG), id="numeric option"),
        pytest.param(lambda: make_bot(LONG), id="bot"),
        pytest.param(lambda: make_bot("search:" + LONG), id="bot level"),
    ],
)
def test_a_message_quotes_at_most_40_characters_of_its_input(make: Any) -> None:
    """However long the input, an error quotes 40 characters of it (then ``…``) with its newlines and
    escapes written out: a web client's move or option reaches no reply or log line at length."""
    with pytest.raises(rk.RummyError) as info:
        make()
    assert "…" in str(info.value)
    for text in (str(info.value), info.value.localized("de")):
        assert "\n" not in text and "\x1b" not in text, text
        assert not any(filler * 41 in text for filler in "y9"), text
        assert len(text) < 250, text


def test_a_meld_number_has_at_most_three_digits() -> None:
    with pytest.raises(rk.NotationError, match="numbered from 1 to 999: 'layoff 5H on 9999") as info:
        rk.Action.parse("layoff 5H on " + "9" * 5000)
    assert "9" * 30 not in str(info.value)
    assert str(rk.Action.parse("layoff 5H on 0999")) == "layoff 5H on 999"
    with pytest.raises(rk.NotationError, match="numbered from 1 to 999"):
        rk.Action.parse("swap 6C on 1000 then meld 8D 9D JK")
    # Leading zeros do not count, however many: the number is read from its significant digits.
    assert str(rk.Action.parse("layoff 5H on " + "0" * 5000 + "5")) == "layoff 5H on 5"
    with pytest.raises(rk.NotationError, match="numbered from 1: "):
        rk.Action.parse("layoff 5H on " + "0" * 5000)


def test_numbers_of_thousands_of_digits_get_a_clear_error() -> None:
    """Python refuses to read or write integers of more than 4,300 digits; no such ValueError escapes."""
    with pytest.raises(rk.RulesError, match="must be a pair like"):
        rk.Rules.parse(f"viennese(buyback_window=({'9' * 5000}, 101))")
    with pytest.raises(rk.RulesError, match="must be an integer"):
        rk.Rules.parse(f"german(hand_size={'9' * 5000})")
    with pytest.raises(rk.RulesError, match="got <an integer of 16610 bits>"):
        rk.Rules.preset("german").replace(hand_size=10**5000)


def test_an_action_rebuilt_with_plain_int_cards_is_kept_as_notation() -> None:
    """``Card`` is an ``int``: a bot that rebuilt its discard as ``Discard(card=25)`` had it applied
    with the plain number, which other seats then saw on the pile and the record wrote as
    ``discard 25``, a record that no longer loaded."""
    from rummykit.actions import Discard, LayOffCard

    for preset in ("german", "viennese", "gin"):
        rnd = rk.Round.new(rk.Rules.preset(preset), 2, seed=7)
        bot = make_bot("greedy")
        import random

        rng = random.Random(7)
        while not rnd.is_over:
            action = bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng)
            if isinstance(action, (Discard, LayOffCard)):
                action = type(action)(card=int(action.card))  # type: ignore[arg-type]
            event = rnd.apply(action)
            assert type(getattr(event.action, "card", rk.Card(0))) is rk.Card
        assert all(type(c) is rk.Card for c in rnd.view(0).discard_pile)
        replayed = rk.Record.loads(rk.Record.from_round(rnd).dumps()).replay()
        assert replayed.view(0) == rnd.view(0)


@pytest.mark.parametrize("card", ["QS", 999, -1, True, 2.0, None])
def test_a_value_that_is_no_card_is_refused_with_a_clear_error(card: object) -> None:
    """A German discard of ``"QS"`` raised ``TypeError`` and of 999 ``IndexError`` from inside the
    hand; -1 read the joker count and was refused as a card that fits a meld."""
    from rummykit.actions import Discard

    rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=4)
    rnd.apply("draw")
    before = rnd.state()
    with pytest.raises(IllegalActionError, match=r"^discard: .* is not a card \(a Card, or its code from 0"):
        rnd.apply(Discard(card=card))  # type: ignore[arg-type]
    assert not rnd.is_legal(Discard(card=card))  # type: ignore[arg-type]
    assert rnd.state() == before


def test_check_and_is_legal_read_an_action_text_as_apply_does() -> None:
    rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=4)
    assert rnd.is_legal("draw") and not rnd.is_legal("discard QH") and not rnd.is_legal("fold")
    rnd.check("draw")
    m = rk.Match.new(rk.Rules.preset("basic"), 3, seed=4)
    m.check("draw")
    assert m.is_legal("draw") and not m.is_legal("buyback") and not m.is_legal("fold")
    with pytest.raises(rk.NotationError):
        m.check("fold")


def test_an_action_of_more_cards_than_any_deck_is_refused_in_a_short_message() -> None:
    from rummykit.actions import Open

    rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=1)
    rnd.apply("draw")
    hand = rnd.view(rnd.to_move).hand
    with pytest.raises(IllegalActionError) as info:
        rnd.apply(Open(melds=(tuple(hand) * 10_000,)))
    assert str(info.value) == "open: more than 110 cards"
    assert info.value.localized("de") == "open: mehr als 110 Karten"


@pytest.mark.parametrize("players", [0, -1, 1_000_000, None, 3.0, True])
@pytest.mark.parametrize("preset", ["german", "gin"])
def test_a_match_checks_its_player_count_before_the_seat_draw(preset: str, players: object) -> None:
    """``Match.new`` refuses a count outside the rules with the RulesError it documents, before a
    seat draw sized by that count (which failed with a NotationError about the draw, an IndexError,
    or allocated a list a million seats long)."""
    error = rk.RulesError if isinstance(players, int) and not isinstance(players, bool) else TypeError
    with pytest.raises(error, match=r"^players"):
        rk.Match.new(rk.Rules.preset(preset), players, seed=1)  # type: ignore[arg-type]


def test_entry_points_name_the_argument_of_the_wrong_type() -> None:
    rnd = rk.Round.new(rk.Rules.preset("german"), 3, seed=1)
    with pytest.raises(TypeError, match=r"rules must be a Rules \(Rules\.preset\('german'\)\), not str"):
        rk.Round.new("german", 3)  # type: ignore[arg-type]
    for seat in ("1", None, 1.0, True):
        with pytest.raises(rk.IllegalActionError, match="does not exist at a table of 3"):
            rnd.view(seat)  # type: ignore[arg-type]


def test_a_rule_set_is_named_by_a_preset_so_that_its_records_load() -> None:
    """A custom ``name`` was accepted and played, but its records named no preset and could not be
    read back; it is refused where the rule set is made, in words in both languages."""
    for name in ("myhouse", ""):
        with pytest.raises(rk.RulesError, match=r"^name: .* is not a preset \(german, ") as caught:
            rk.Rules.preset("german").replace(name=name)
        assert "ist kein bekanntes Spiel" in caught.value.localized("de")
    renamed = rk.Rules.preset("german").replace(name="viennese")
    rnd = rk.Round.new(renamed, 3, seed=1)
    rnd.apply("draw")
    assert rk.Record.loads(rk.Record.from_round(rnd).dumps()).replay().rules == renamed


def test_localized_reads_language_tags_as_people_write_them() -> None:
    """``"DE"``, ``"de-AT"`` or a locale string are German; a language without a catalogue gets the
    message itself, as ``"en"`` does (they fell back to English or to the shorter people's text)."""
    try:
        rk.Round.new(rk.Rules.preset("german"), 2, seed=4).apply("discard QH")
    except rk.RummyError as exc:
        german = exc.localized("de")
        assert all(exc.localized(tag) == german for tag in ("DE", "de-AT", "de_DE.UTF-8"))
        assert exc.localized("fr") == exc.localized("en") == str(exc)
    else:
        raise AssertionError("the discard before drawing was accepted")


def test_numpy_integers_count_as_integers() -> None:
    """An RL loop's seat numbers and table sizes are often NumPy integers: they are integers here
    too, as seeds already were."""
    np = pytest.importorskip("numpy")
    rnd = rk.Round.new(rk.Rules.preset("german"), np.int64(3), seed=1)
    assert rnd.view(np.int64(0)).seat == 0
    assert rk.Match.new(rk.Rules.preset("viennese"), np.int64(2), seed=1).players == 2
