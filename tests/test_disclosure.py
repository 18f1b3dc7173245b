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
