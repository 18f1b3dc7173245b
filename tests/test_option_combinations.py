"""Unusual but accepted combinations of rule options: no dead end, no match without an end, no option
accepted without an effect. Each case was found by playing random combinations of the documented
option values."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rummykit as rk
from rummykit.cards import Hand
from rummykit.i18n import localize_error
from rummykit.testing import arrange_deck
from rummykit.views import Phase


def take_eager_dead_ends(rules: rk.Rules, players: int, seeds: range) -> list[int]:
    """Seeds whose round reaches a position without a legal action, playing random moves that take
    the discard whenever it is offered (the takes are where the taken card's obligations bite)."""
    stuck = []
    for seed in seeds:
        rng = random.Random(seed)
        rnd = rk.Round.new(rules, players, seed=seed)
        while not rnd.is_over:
            legal = rnd.legal_actions()
            if not legal:
                stuck.append(seed)
                break
            takes = [a for a in legal if a.verb == "take"]
            rnd.apply(rng.choice(takes or legal))
    return stuck


def test_a_take_that_cannot_open_without_its_own_value_is_not_offered() -> None:
    """``opening_counts_taken_discard = false``: the seat below may lay the taken 4♠ only in an
    opening, and the only one with it is worth 42 with the 4♠ and 38 without. ``take`` was offered,
    and afterwards no action was legal."""
    rules = rk.Rules.preset("scala40").replace(opening_counts_taken_discard=False)
    rnd = rk.Round.new(rules, 3, seed=0, dealer=0)
    for action in ("draw", "discard AS", "draw", "discard 3C", "draw", "discard 8H", "draw", "discard 9D"):
        rnd.apply(action)
    rnd.apply("draw")
    rnd.apply("discard 4S")
    assert " ".join(map(str, rnd.view(rnd.to_move).hand)) == "4C JC 5D 10D JD 3H 4H 6H 6S 6S 9S QS JK"
    assert [str(a) for a in rnd.legal_actions()] == ["draw"]
    with pytest.raises(rk.IllegalActionError) as refused:
        rnd.apply("take")
    assert str(refused.value).endswith("no opening worth 40 points without counting it")
    assert localize_error(refused.value, "de").endswith(
        "kein erstes Auslegen mit 40 Punkten ohne den Wert dieser Karte"
    )


def test_the_opening_that_reaches_the_minimum_without_the_taken_card_is_offered() -> None:
    """The taken A♥ is worth 11 in the set A♣ A♥ JK but 1 at the foot of A♥–5♥: the most valuable
    opening with it falls short without it, the run with 8♦ 9♦ JK does not (14 + 27). That opening
    is offered, the run first (the meld the taken card's value is left out of)."""
    rules = rk.Rules.preset("german").replace(
        opening_counts_taken_discard=False, discard_pickup_requires_meld=True
    )
    dealt = rk.Round.new(rules, 3, seed=24).state()
    taken = rk.Card.parse("AH")
    state = dataclasses.replace(
        dealt,
        hands=[Hand(rk.parse_cards("AC 7C 10C 8D 9D AH 2H 3H 4H 5H 7H 8S KS JK")), *dealt.hands[1:]],
        to_move=0,
        phase=Phase.PLAY,
        turn=3,
        taken_discard=taken,
        must_lay=taken,
    )
    rnd = rk.Round.from_state(state)
    opens = [str(a) for a in rnd.legal_actions() if a.verb == "open"]
    assert opens and all(rnd.is_legal(a) for a in opens)
    assert "open AH 2H 3H 4H 5H | 8D 9D JK" in opens


def _after_taking(rules: rk.Rules, hand: str, upcard: str) -> rk.Round:
    """Seat 0 to lay, holding ``hand`` and the ``upcard`` it has just taken from the discard pile."""
    dealt = rk.Round.new(rules, 2, seed=3).state()
    taken = rk.Card.parse(upcard)
    cards = Hand(rk.parse_cards(f"{hand} {upcard}"))
    state = dataclasses.replace(
        dealt, hands=[cards, *dealt.hands[1:]], to_move=0, phase=Phase.PLAY, turn=3, taken_discard=taken
    )
    return rk.Round.from_state(state)


@pytest.mark.parametrize(
    ("options", "hand", "upcard", "melds"),
    [
        # A♥ is worth 11 in the set and 1 at the foot of the run: 43 or 33 without the taken one.
        ({}, "AS AD AH 2H 3H 4H 9C", "AH", ("AH AS AD", "AH 2H 3H 4H")),
        # One meld must reach 30: the run is worth 35, or 28 without the taken 7♥.
        ({"opening_scope": "single_meld", "opening_min_points": 30}, "7S 7D 7H 5H 6H 8H 9H KC", "7H",
         ("7H 7S 7D", "5H 6H 7H 8H 9H")),
    ],
)
def test_an_opening_counts_the_same_in_either_order_when_the_taken_card_has_a_twin(
    options: dict[str, object], hand: str, upcard: str, melds: tuple[str, str]
) -> None:
    """``opening_counts_taken_discard = false`` with two decks: the taken card's twin is laid too,
    and nobody can tell which of the two was taken, so it counts out of the meld where that leaves
    the opening worth most. It counted out of the first meld written: the same melds were refused in
    one order and accepted in the other, and the offered actions held neither opening."""
    rules = rk.Rules.preset("german").replace(opening_counts_taken_discard=False, **options)
    for first, second in (melds, melds[::-1]):
        rnd = _after_taking(rules, hand, upcard)
        assert rnd.is_legal(f"open {first} | {second}"), (first, second)
    opens = [a for a in _after_taking(rules, hand, upcard).legal_actions() if a.verb == "open"]
    assert opens and all(len(a.melds) == 2 for a in opens)


def test_an_opening_without_the_taken_card_is_offered_when_the_best_one_falls_short() -> None:
    """The taken Q♦ need not be laid (no ``discard_pickup_requires_meld``) and does not count: the
    best opening lays it (Q♦ JK A♦ and 3♠ 4♠ 5♠, 43, or 33 without it); K♣ K♠ JK with 3♠ 4♠ 5♠
    reaches 42 without it and was not offered, so a bot could not open."""
    rules = rk.Rules.preset("german").replace(opening_counts_taken_discard=False)
    rnd = _after_taking(rules, "7C 10C KC AD 2D 6D 8D 2H 3S 4S 5S KS JK", "QD")
    assert not rnd.is_legal("open QD JK AD | 3S 4S 5S")
    assert [str(a) for a in rnd.legal_actions() if a.verb == "open"] == ["open KC KS JK | 3S 4S 5S"]


@pytest.mark.parametrize(
    "options",
    [
        {"opening_counts_taken_discard": False, "discard_pickup_requires_meld": True},
        {
            "opening_counts_taken_discard": False,
            "discard_pickup_requires_opened": "opened_or_opening_with_it",
        },
    ],
)
def test_no_dead_end_when_the_taken_card_does_not_count(options: dict[str, object]) -> None:
    rules = rk.Rules.preset("german").replace(**options)
    assert take_eager_dead_ends(rules, 3, range(60)) == []


@pytest.mark.parametrize(
    "text",
    [
        "scala40(ace_high_in_runs=false, joker_limit=at_least_one_natural)",
        "german(ace_high_in_runs=false, allow_ace_both_ends=false, joker_limit=at_least_one_natural, "
        "discard_pickup_requires_meld=true)",
    ],
)
def test_a_take_is_not_offered_for_a_set_of_one_natural(text: str) -> None:
    """``at_least_one_natural``: the upcard AC with the hand's AC JK JK was valued as a set of aces
    (33 points) and ``take`` offered, but the cards AC JK JK read as the run A-2-3, so after the take
    no opening was possible and no action legal. A set needs two naturals
    (:data:`rummykit.melds.SET_MIN_NATURALS`), so the take is not offered."""
    rules = rk.Rules.parse(text)
    hands = ["2C 3C 4C 5D 6D 7D 9H 10H JH KC KD 4S 5S", "10S JS QS AC JK JK 2S 6C 6S 7C 8S KH QD"]
    deck = arrange_deck(rules, 2, hands, dealer=0, upcard="AC")
    rnd = rk.Round.new(rules, 2, dealer=0, deck=deck)
    assert [str(a) for a in rnd.legal_actions()] == ["draw"]
    assert take_eager_dead_ends(rules, 4, range(30)) == []


def test_a_hand_of_copies_of_the_taken_card_may_discard_one() -> None:
    """Viennese with hands of one card: the dealer discards a joker onto the other's joker, who takes
    it. The taken card may not be discarded (RULES.md D15), a lone joker counts 20 (no knock), so no
    action was left; the bar lifts when the hand holds nothing else, as in the melding games."""
    rules = rk.Rules.preset("viennese").replace(hand_size=1)
    rnd = rk.Round.new(rules, 2, seed=6, dealer=0)
    assert [str(c) for c in rnd.view(1).hand] == ["JK"]
    rnd.apply("discard JK")  # the dealer starts with the extra card
    rnd.apply("take")
    assert [str(a) for a in rnd.legal_actions()] == ["discard JK"]
    with_other = rk.Round.new(rk.Rules.preset("viennese"), 2, seed=6)
    with_other.apply(next(a for a in with_other.legal_actions() if a.verb == "discard"))
    with_other.apply("take")
    taken = with_other.state().taken_discard
    assert taken is not None and all(getattr(a, "card", None) != taken for a in with_other.legal_actions())


@pytest.mark.parametrize(
    ("preset", "options", "english", "german"),
    [
        (
            "german",
            {"match_end": "target_score"},
            "match_end: target_score counts plus points, which losers_penalty never gives",
            "target_score zählt Pluspunkte, die losers_penalty nie vergibt",
        ),
        (
            "viennese",
            {"match_end": "target_score"},
            "match_end: target_score counts plus points, which deadwood_all never gives",
            "die deadwood_all nie vergibt",
        ),
        (
            "basic",
            {"match_end": "penalty_limit"},
            "match_end: penalty_limit counts minus points, which winner_collects never gives",
            "penalty_limit zählt Minuspunkte",
        ),
        (
            "scala40",
            {"hand_scoring": "winner_collects"},
            "match_end: elimination_last_survivor counts minus points, which winner_collects never gives",
            "elimination_last_survivor zählt Minuspunkte",
        ),
        (
            "german",
            {"hand_size": 2},
            "hand_size: a hand of 2 can never reach the opening minimum of 40",
            "mit 2 Karten auf der Hand wird der Mindestwert 40 beim ersten Auslegen nie erreicht",
        ),
        (
            "basic",
            {"opening_min_points": 80},
            "opening_min_points: the hand of 6 dealt at a table of 5 can never reach the opening minimum",
            "mit den 6 Karten, die bei 5 Spielern gegeben werden, wird der Mindestwert 80",
        ),
        (
            "scala40",
            {"hand_size": 2},
            "hand_size: a hand of 2 can never lay a meld of three cards",
            "lässt sich nie eine Figur aus drei Karten auslegen",
        ),
        (
            "scala40",
            {"joker_exchange_requires_opened": False, "exchanged_joker_destination": "new_meld_same_turn"},
            "joker_exchange_requires_opened: a joker exchanged before the opening would be laid at once",
            "ein vor dem ersten Auslegen getauschter Joker käme sofort (new_meld_same_turn)",
        ),
        (
            "viennese",
            {"knock_threshold": 1},
            "knock_threshold: 1 under knock_comparison lt allows no knock",
            "1 mit knock_comparison lt lässt kein Klopfen zu",
        ),
        (
            "german",
            {"jokers_total": 0, "penalty_joker": 50},
            "penalty_joker: does not apply to these rules: jokers_total is 0: no joker is dealt",
            "jokers_total ist 0: es wird kein Joker gegeben",
        ),
        (
            "german",
            {"joker_exchange": False, "exchanged_joker_destination": "hand"},
            "exchanged_joker_destination: does not apply to these rules: joker_exchange is off",
            "joker_exchange ist aus",
        ),
        (
            "german",
            {"stock_exhaustion": "end_hand_no_score", "max_stock_rebuilds": 1},
            "max_stock_rebuilds: does not apply to these rules: stock_exhaustion = end_hand_no_score never",
            "stock_exhaustion = end_hand_no_score bildet nie einen neuen Stoß",
        ),
        (
            "german_dskv",
            {"dealer_sits_out_at_table_of": 8},
            "dealer_sits_out_at_table_of: 8 is not a table size where a dealer can sit out (only at 4)",
            "8 ist keine Tischgröße, an der der Geber aussetzen kann (nur bei 4)",
        ),
        (
            "viennese",
            {"knock_threshold": 0, "knock_comparison": "le"},
            "knock_comparison: does not apply to these rules: knock_threshold is 0",
            "knock_threshold ist 0",
        ),
        (
            "german",
            {"joker_limit": "max_one_joker_per_meld", "max_adjacent_jokers": 1},
            "max_adjacent_jokers: does not apply to these rules: joker_limit = max_one_joker_per_meld",
            "keine Figur hat zwei Joker",
        ),
        (
            "german",
            {"jokers_total": 1, "joker_limit": "min_two_naturals"},
            "joker_limit: does not apply to these rules: jokers_total is 1",
            "mit einem Joker erlaubt jede Grenze dieselben Figuren",
        ),
        (
            "german",
            {"opening_min_points": 6, "hand_romme_requires_opening_min": False},
            "hand_romme_requires_opening_min: does not apply to these rules: every meld is worth at least 6",
            "jede Figur ist mindestens 6 wert",
        ),
        (
            "german",
            {"opening_min_points": 3, "opening_counts_taken_discard": False},
            "opening_counts_taken_discard: does not apply to these rules: less any one of its cards",
            "auch ohne eine ihrer Karten ist jede Figur mindestens 3 wert",
        ),
        (
            "viennese",
            {"pot_ante": 0, "ante_frequency": "per_hand"},
            "ante_frequency: does not apply to these rules: pot_ante is 0",
            "es wird kein Einsatz gezahlt",
        ),
        (
            "viennese",
            {"buyback_limit": 0, "buyback_cost": 50},
            "buyback_cost: does not apply to these rules: buyback_limit is 0",
            "niemand kauft sich zurück",
        ),
        (
            "german",
            {"num_hands": 1, "deal_rotation": "winner_deals"},
            "deal_rotation: does not apply to these rules: num_hands is 1",
            "die Partie ist ein Spiel, niemand gibt ein zweites",
        ),
        (
            "gin",
            {"undercut_bonus": 0, "undercut_on_tie": True},
            "undercut_on_tie: does not apply to these rules: undercut_bonus is 0",
            "ein Gleichstand bringt so oder so nichts",
        ),
    ],
)
def test_combinations_that_cannot_be_played_as_written_are_refused(
    preset: str, options: dict[str, object], english: str, german: str
) -> None:
    """Each was accepted: a match that never ended (its end counts points the scoring never gives),
    hands that could never be won, an unopened player's meld below the opening minimum (by way of a
    joker exchange), or an option that changed nothing (the engine's own option-effect check said
    so). A refusal names the option and why, in both languages."""
    with pytest.raises(rk.RulesError) as refused:
        rk.Rules.preset(preset).replace(**options)
    assert str(refused.value).startswith(english)
    assert german in localize_error(refused.value, "de")


def test_the_presets_and_their_neighbours_stay_accepted() -> None:
    rk.Rules.preset("basic").replace(match_end="target_score")  # winner_collects gives plus points
    rk.Rules.preset("german").replace(hand_size=3)  # four cards after the draw: an opening of 44 exists
    rk.Rules.preset("german").replace(
        hand_scoring="winner_gets_sum", match_end="target_score", target_score=200
    )
    rk.Rules.preset("basic").replace(joker_exchange_requires_opened=False)  # the joker stays in hand
    rk.Rules.preset("german").replace(jokers_total=0)  # the joker options keep their values
    rk.Rules.preset("german").replace(jokers_total=1)  # joker_limit, max_adjacent_jokers keep theirs
    rk.Rules.preset("german").replace(opening_min_points=4, opening_counts_taken_discard=False)  # A-2-3
    rk.Rules.preset("german").replace(  # A-2-3 after taking the 3 is worth 3: the waiver matters
        opening_min_points=6, opening_counts_taken_discard=False, hand_romme_requires_opening_min=False
    )
    rk.Rules.preset("viennese").replace(buyback_limit=0)
    rk.Rules.preset("gin").replace(undercut_bonus=0)
    rk.Rules.preset("basic").replace(opening_min_points=80, max_players=4)  # seven cards at most four
