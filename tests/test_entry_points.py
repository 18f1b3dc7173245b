"""Bad input at the public entry points: a clear error naming the argument.

A value of the wrong Python type is a :class:`TypeError` raised at the entry point that names the
argument and what is expected (never an ``AttributeError`` or ``TypeError`` from deep inside); a
value of the right type but wrong content (card code 999) is a :class:`NotationError`. The solver
checks its arguments before either backend runs, so both give the same error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import rummykit as rk
from rummykit import solver
from rummykit.actions import parse_action
from rummykit.cards import Hand
from rummykit.solver import backend

GERMAN = rk.Rules.preset("german")
VIENNESE = rk.Rules.preset("viennese")
BACKENDS = sorted(backend.available())


# --- rules, cards, actions, melds ---------------------------------------------------------------


@pytest.mark.parametrize("name", [None, 3, GERMAN, ["german"]])
def test_a_preset_name_must_be_text(name: object) -> None:
    expected = rf"^Rules\.preset takes a preset's name such as 'german', not {type(name).__name__}$"
    with pytest.raises(TypeError, match=expected):
        rk.Rules.preset(name)  # type: ignore[arg-type]


def test_an_unknown_preset_is_still_a_rules_error() -> None:
    with pytest.raises(rk.RulesError, match="unknown preset 'klondike'"):
        rk.Rules.preset("klondike")


@pytest.mark.parametrize("text", [None, ["AH"], ("AH", "KS"), b"AH", 7])
def test_parse_cards_takes_text(text: object) -> None:
    expected = rf'^parse_cards takes text such as "AH 10D JK", not {type(text).__name__}$'
    with pytest.raises(TypeError, match=expected):
        rk.parse_cards(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [None, 5, b"AH", rk.Card(0)])
def test_card_parse_takes_text(text: object) -> None:
    expected = rf"^Card\.parse takes text such as 'AH' or 'JK', not {type(text).__name__}"
    with pytest.raises(TypeError, match=expected):
        rk.Card.parse(text)  # type: ignore[arg-type]


def test_card_parse_of_a_code_points_to_card() -> None:
    with pytest.raises(TypeError, match=r"Card\(code\) makes the card"):
        rk.Card.parse(5)  # type: ignore[arg-type]


def test_card_of_text_points_to_parse() -> None:
    expected = r"^Card takes a card code \(an int from 0 to 52\), not str; Card\.parse\('AH'\)"
    with pytest.raises(TypeError, match=expected):
        rk.Card("AH")  # type: ignore[arg-type]


@pytest.mark.parametrize("code", [None, 1.0, 1.5, True, False, [1]])
def test_card_of_a_non_integer_is_a_type_error(code: object) -> None:
    expected = rf"^Card takes a card code \(an int from 0 to 52\), not {type(code).__name__}"
    with pytest.raises(TypeError, match=expected):
        rk.Card(code)  # type: ignore[arg-type]


@pytest.mark.parametrize("code", [999, 53, -1, 2**70])
def test_card_of_a_bad_code_is_a_notation_error(code: int) -> None:
    with pytest.raises(rk.NotationError, match=rf"^no card has code {code}: codes run from 0 to 52$"):
        rk.Card(code)


def test_card_of_a_good_code() -> None:
    assert [str(rk.Card(c)) for c in (0, 51, 52)] == ["AC", "KS", "JK"]
    assert rk.Card(rk.Card(7)) is rk.Card(7)


@pytest.mark.parametrize("text", [None, 5, ["draw"], b"draw"])
def test_action_parse_takes_text(text: object) -> None:
    tail = rf"takes an action's text such as 'discard QS', not {type(text).__name__}$"
    with pytest.raises(TypeError, match=r"^Action\.parse " + tail):
        rk.Action.parse(text)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^parse_action " + tail):
        parse_action(text)  # type: ignore[arg-type]


def test_apply_of_a_non_action_is_still_an_illegal_action() -> None:
    rnd = rk.Round.new(GERMAN, 2, seed=1)
    with pytest.raises(rk.IllegalActionError, match=r"^not an action: None$"):
        rnd.apply(None)  # type: ignore[arg-type]


def test_meld_parse_needs_rules_not_a_preset_name() -> None:
    with pytest.raises(TypeError, match=r"^rules must be a Rules \(Rules\.preset\('german'\)\), not str$"):
        rk.Meld.parse("5H 6H 7H", "german")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^rules must be a Rules, not NoneType$"):
        rk.Meld.parse("5H 6H 7H", None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^rules must be a Rules \(Rules\.preset\('german'\)\)"):
        rk.Meld.from_cards(rk.parse_cards("5H 6H 7H"), "german")  # type: ignore[arg-type]
    assert str(rk.Meld.parse("5H 6H 7H", GERMAN)) == "5H 6H 7H"


@pytest.mark.parametrize("text", [None, ["5H", "6H", "7H"], 5])
def test_meld_parse_takes_text(text: object) -> None:
    expected = rf"^Meld\.parse takes a meld's text such as '5H 6H 7H', not {type(text).__name__}$"
    with pytest.raises(TypeError, match=expected):
        rk.Meld.parse(text, GERMAN)  # type: ignore[arg-type]


# --- the solver, on every backend ----------------------------------------------------------------

HAND = rk.parse_cards("AH 2H 3H KS KD KC 9C")


def _outcome(call: Callable[[], Any], name: str) -> tuple[type[BaseException], str] | tuple[str, Any]:
    with backend.use(name):
        try:
            return ("ok", call())
        except Exception as exc:  # the outcome is compared, whatever it is
            return (type(exc), str(exc))


BAD_CALLS: dict[str, tuple[Callable[[], Any], type[BaseException], str]] = {
    "keep_one='no'": (
        lambda: solver.max_opening_value(HAND, GERMAN, keep_one="no"),  # type: ignore[arg-type]
        TypeError,
        r"^max_opening_value: keep_one must be True or False, not 'no'$",
    ),
    "keep_one=2": (
        lambda: solver.max_opening_value(HAND, GERMAN, keep_one=2),  # type: ignore[arg-type]
        TypeError,
        r"keep_one must be True or False, not 2$",
    ),
    "keep_one=None on best_opening": (
        lambda: solver.best_opening(HAND, GERMAN, keep_one=None),  # type: ignore[arg-type]
        TypeError,
        r"^best_opening: keep_one must be True or False, not None$",
    ),
    "cards None": (
        lambda: solver.min_deadwood(None, GERMAN),  # type: ignore[arg-type]
        TypeError,
        r"^min_deadwood: cards must be an iterable of card codes \(Cards or ints\), not NoneType$",
    ),
    "cards 5": (
        lambda: solver.best_arrangement(5, GERMAN),  # type: ignore[arg-type]
        TypeError,
        r"^best_arrangement: cards must be an iterable of card codes",
    ),
    "cards text": (
        lambda: solver.min_deadwood("AH 2H 3H", GERMAN),  # type: ignore[arg-type]
        TypeError,
        r"^min_deadwood: cards must be card codes \(Cards or ints\), not str; parse_cards\('AH 2H 3H'\)",
    ),
    "code 999": (
        lambda: solver.min_deadwood([*HAND, 999], GERMAN),
        rk.NotationError,
        r"^no card has code 999: codes run from 0 to 52$",
    ),
    "code -1": (
        lambda: solver.best_discards([*HAND, -1], GERMAN),
        rk.NotationError,
        r"^no card has code -1: codes run from 0 to 52$",
    ),
    "huge code": (
        lambda: solver.max_opening_value([2**70, *HAND], GERMAN),
        rk.NotationError,
        r"^no card has code 1180591620717411303424: codes run from 0 to 52$",
    ),
    "code 53 in a generator, with rules": (
        lambda: solver.min_deadwood((c for c in (*HAND, 53)), GERMAN),
        rk.NotationError,
        r"^no card has code 53: codes run from 0 to 52$",
    ),
    "three copies": (
        lambda: solver.min_deadwood(rk.parse_cards("7H 7H 7H"), VIENNESE),
        rk.NotationError,
        r"^a hand may hold at most two copies of a face, not more of 7H$",
    ),
    "a float card": (
        lambda: solver.min_deadwood([1.5, 5], GERMAN),  # type: ignore[list-item]
        TypeError,
        r"^'float' object cannot be interpreted as an integer: the cards of min_deadwood must be card codes",
    ),
    "a float card in all_melds": (
        lambda: solver.all_melds([1.0, 2, 3], GERMAN),  # type: ignore[list-item]
        TypeError,
        r"^'float' object cannot be interpreted as an integer: the cards of all_melds must be card codes",
    ),
    "a text card": (
        lambda: solver.best_arrangement(["AH", "2H", "3H"], GERMAN),  # type: ignore[list-item]
        TypeError,
        r"^'str' object cannot be interpreted as an integer: .*parse_cards reads notation$",
    ),
    "code 999 in all_melds": (
        lambda: solver.all_melds([*HAND, 999], GERMAN),
        rk.NotationError,
        r"^no card has code 999",
    ),
    "rules as a preset name": (
        lambda: solver.min_deadwood(HAND, "german"),  # type: ignore[arg-type]
        TypeError,
        r"^rules must be a Rules \(Rules\.preset\('german'\)\), not str$",
    ),
    "rules None on max_opening_value": (
        lambda: solver.max_opening_value(HAND, None),  # type: ignore[arg-type]
        TypeError,
        r"^rules must be a Rules, not NoneType$",
    ),
    "rules as a preset name on best_opening": (
        lambda: solver.best_opening(HAND, "german"),  # type: ignore[arg-type]
        TypeError,
        r"^rules must be a Rules",
    ),
    "must_include 999": (
        lambda: solver.best_opening(HAND, GERMAN, must_include=999),
        rk.NotationError,
        r"^no card has code 999",
    ),
    "must_include text": (
        lambda: solver.best_opening(HAND, GERMAN, must_include="AH"),  # type: ignore[arg-type]
        TypeError,
        r"^best_opening: must_include must be a card code or None \(a Card, or an int from 0 to 52\), "
        r"not 'AH'",
    ),
    "minimum text": (
        lambda: solver.best_opening(HAND, GERMAN, minimum="30"),  # type: ignore[arg-type]
        TypeError,
        r"^best_opening: minimum must be an int or None, not '30'$",
    ),
    "melds_containing card None": (
        lambda: solver.melds_containing(HAND, None, GERMAN),  # type: ignore[arg-type]
        TypeError,
        r"^melds_containing: card must be a card code \(a Card, or an int from 0 to 52\), not None$",
    ),
    "melds_containing card 999": (
        lambda: solver.melds_containing(HAND, 999, GERMAN),
        rk.NotationError,
        r"^no card has code 999",
    ),
    "an empty hand has no discard": (
        lambda: solver.best_discards([], GERMAN),
        ValueError,
        r"^best_discards needs at least one card$",
    ),
}


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_solver_bad_input_is_a_clear_error(case: str, name: str) -> None:
    call, error, message = BAD_CALLS[case]
    with backend.use(name), pytest.raises(error, match=message) as caught:
        call()
    assert not isinstance(caught.value, (AttributeError, IndexError, KeyError))


@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_both_backends_refuse_alike(case: str) -> None:
    if len(BACKENDS) < 2:
        pytest.skip("the compiled solver is not built here")
    call = BAD_CALLS[case][0]
    assert _outcome(call, "native") == _outcome(call, "python")


def test_an_empty_hand_is_not_a_notation_error() -> None:
    with pytest.raises(ValueError) as caught:
        solver.best_discards([], GERMAN)
    assert not isinstance(caught.value, rk.RummyError)


@pytest.mark.parametrize("name", BACKENDS)
def test_a_bad_code_is_localized_like_a_bad_card(name: str) -> None:
    with backend.use(name), pytest.raises(rk.NotationError) as caught:
        solver.min_deadwood([*HAND, 999], GERMAN)
    assert caught.value.localized("de") == "Keine Karte hat den Code 999: Die Codes gehen von 0 bis 52"


def _generator() -> Iterator[rk.Card]:
    yield from HAND


@pytest.mark.parametrize("name", BACKENDS)
def test_good_input_of_every_shape_gives_the_same_answers(name: str) -> None:
    with backend.use(name):
        expected = (
            solver.min_deadwood(HAND, GERMAN),
            solver.best_discards(HAND, GERMAN),
            solver.max_opening_value(HAND, GERMAN, keep_one=True),
            solver.best_arrangement(HAND, GERMAN),
            solver.all_melds(HAND, GERMAN),
            solver.best_opening(HAND, GERMAN, must_include=HAND[0], minimum=0),
        )
        for shape in (list, Hand, lambda h: _generator(), lambda h: [int(c) for c in h]):
            got = (
                solver.min_deadwood(shape(HAND), GERMAN),
                solver.best_discards(shape(HAND), GERMAN),
                solver.max_opening_value(shape(HAND), GERMAN, keep_one=True),
                solver.best_arrangement(shape(HAND), GERMAN),
                solver.all_melds(shape(HAND), GERMAN),
                solver.best_opening(shape(HAND), GERMAN, must_include=int(HAND[0]), minimum=0),
            )
            assert got == expected
        default = solver.max_opening_value(HAND, GERMAN)
        assert default == solver.max_opening_value(HAND, GERMAN, keep_one=False)
        with_ace = solver.melds_containing(HAND, HAND[0], GERMAN)
        assert [str(c) for m in with_ace for c in m] == ["AH", "2H", "3H"]


def test_numpy_and_integer_flags_and_minimums_are_read_as_before() -> None:
    """0 and 1 as flags, NumPy's bools and integers: accepted as they were before the checks (RL
    code passes them), and read as the bool or int they are."""
    np = pytest.importorskip("numpy")
    assert solver.max_opening_value(HAND, GERMAN, keep_one=1) == solver.max_opening_value(HAND, GERMAN, True)
    assert solver.max_opening_value(HAND, GERMAN, keep_one=np.True_) == solver.max_opening_value(
        HAND, GERMAN, True
    )
    thirty = solver.best_opening(HAND, GERMAN, minimum=30)
    assert solver.best_opening(HAND, GERMAN, minimum=np.int64(30)) == thirty
