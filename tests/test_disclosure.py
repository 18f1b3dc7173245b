"""What of an action is public: one function for the web log, the terminal log and spectators."""

from __future__ import annotations

import pytest

from rummykit.actions import Action
from rummykit.disclosure import face_down_card, public_action_text
from rummykit.rules import Rules

GERMAN = Rules.preset("german")
VIENNESE = Rules.preset("viennese")
FACE_DOWN_KNOCK = Rules.from_mapping({"preset": "viennese", "knock_discard_face_up": False})
FACE_UP_LAST = Rules.from_mapping({"preset": "german", "final_discard_face_down": False})


@pytest.mark.parametrize(
    ("rules", "action", "goes_out", "public"),
    [
        (VIENNESE, "knock QS", False, "knock QS"),
        (FACE_DOWN_KNOCK, "knock QS", False, "knock"),
        (VIENNESE, "rummy QS", True, "rummy"),
        (GERMAN, "discard QS", True, "discard face down"),
        (GERMAN, "discard QS", False, "discard QS"),
        (FACE_UP_LAST, "discard QS", True, "discard QS"),
        (GERMAN, "draw", False, "draw"),
        (GERMAN, "open 10H JH QH", False, "open 10H JH QH"),
    ],
)
def test_public_text(rules: Rules, action: str, goes_out: bool, public: str) -> None:
    parsed = Action.parse(action)
    assert public_action_text(parsed, rules, goes_out=goes_out) == public
    assert (face_down_card(parsed, rules, goes_out=goes_out) is None) == (public == action)


def test_terminal_log_hides_the_face_down_card() -> None:
    pytest.importorskip("rich")
    import rummykit as rk
    from rummykit.cli.play import describe

    rnd = rk.Round.new(FACE_DOWN_KNOCK, players=2, seed=1)
    view = rnd.view(rnd.to_move)
    card = view.hand[0]
    text = describe(Action.parse(f"knock {card}"), "Bot 2", view, ascii_only=True).plain
    assert text == "Bot 2 knocks, laying a card face down"
    face_up = rk.Round.new(VIENNESE, players=2, seed=1).view(rnd.to_move)
    assert describe(Action.parse(f"knock {card}"), "Bot 2", face_up, ascii_only=True).plain.startswith(
        "Bot 2 knocks, discarding"
    )


def test_still_known_forgets_a_copy_for_each_copy_that_left() -> None:
    from collections import Counter

    from rummykit.cards import Card, Hand, parse_cards
    from rummykit.round import still_known

    def held(text: str) -> Counter[Card]:
        return Counter(parse_cards(text))

    # Known to hold one 8♠ (taken from the pile), holding two: discarding an 8♠ leaves nothing known,
    # since nobody can tell which copy went (the old min(known, held) kept the hidden copy visible).
    known = Hand(parse_cards("8S"))
    assert len(still_known(known, held("8S 8S 4C"), Hand(parse_cards("8S 4C")))) == 0
    # Known two jokers, one laid: one stays known; a card that did not leave stays known.
    known = Hand(parse_cards("JK JK 7H"))
    after = still_known(known, held("JK JK 7H 2C"), Hand(parse_cards("JK 7H 2C")))
    assert sorted(after.cards()) == sorted(parse_cards("JK 7H"))


@pytest.mark.parametrize(
    ("preset", "players"), [("german", 2), ("viennese", 2), ("romme_ohne_auslegen", 3), ("basic", 2)]
)
def test_known_cards_hold_nothing_the_table_cannot_infer(preset: str, players: int) -> None:
    """After a move that lays or discards, a seat's publicly known cards are at most what was known
    less what left the hand: a hidden duplicate of a played known card is never shown."""
    import random
    from collections import Counter

    import rummykit as rk
    from rummykit.actions import Draw, Swap, TakeDiscard

    rules = Rules.preset(preset)
    checked = 0
    for seed in range(40):
        rnd = rk.Round.new(rules, players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if rnd.is_over:
                break
            seat = rnd.to_move
            known_before = Counter(rnd.known_cards[seat].cards())
            held_before = Counter(rnd.hands[seat].cards())
            action = rng.choice(rnd.legal_actions())
            rnd.apply(action)
            if isinstance(action, (Draw, TakeDiscard)):
                continue
            gone = held_before - Counter(rnd.hands[seat].cards())
            for card, n in Counter(rnd.known_cards[seat].cards()).items():
                assert n <= max(0, known_before[card] - gone[card]) or (
                    isinstance(action, Swap) and card.is_joker  # a freed joker kept in hand, seen by all
                ), (seed, action)
            checked += bool(known_before)
    assert checked > 50  # moves of seats with known cards were seen
