"""Whole-round scenarios of the melding games, each an action list from a fixed deck.

Test ids follow RULES.md §8.2 (openings O1–O8), §8.3 (lay-offs L1–L8, joker exchange J1–J8) and §8.4
(P5–P8), played in real rounds: a player opens on one turn and lays off or exchanges on a later one.
Further scenarios cover an illegal action leaving the round unchanged, turn-phase errors, the taken
discard (D15), the Scala 40 pickup rule, the extra-card starts (§3.5), the DSkV dealer sitting out
(§3.16), stock exhaustion (§3.13, D10) and Basic Rummy scoring (§5.3).

Decks are built with ``rummykit.testing.arrange_deck``; every hand lists the cards that matter and is
topped up from a per-seat pool of unrelated cards (see ``deal``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from rummykit import Action, Card, Phase, Round, Rules, RulesError, Termination, parse_cards, solver
from rummykit.actions import Discard, Draw, Open, TakeDiscard
from rummykit.cli.action_text import describe
from rummykit.errors import (
    CardNotInHandError,
    DiscardError,
    DrawError,
    IllegalActionError,
    JokerExchangeError,
    LayOffError,
    MeldError,
    OpeningError,
    WrongTurnError,
)
from rummykit.i18n import describe_action, localize_error
from rummykit.melding_table import jokers_freed
from rummykit.testing import arrange_deck

GERMAN = Rules.preset("german")
DSKV = Rules.preset("german_dskv")
SCALA = Rules.preset("scala40")
BASIC = Rules.preset("basic")
VIENNESE = Rules.preset("viennese")

# Filler pools, one per seat: every rank at most once and cards of a suit at least three ranks apart,
# so a pool never forms a meld on its own, not even with a joker. Pools never share a face.
POOLS = (
    "2C 6C 10C 3D 7D JD 4H 8H QH 5S 9S KS AD",
    "3C 7C JC 4D 8D QD 5H 9H KH 2S 6S 10S AH",
    "4C 8C QC 5D 9D KD 2H 6H 10H 3S 7S JS AC",
    "5C 9C KC 2D 6D 10D 3H 7H JH 4S 8S QS AS",
)


def deal(
    rules: Rules,
    hands: Sequence[str | None],
    *,
    dealer: int = 0,
    upcard: str | None = None,
    extra: str | None = None,
    stock: str = "",
) -> Round:
    """A round dealing ``hands`` (per seat; topped up from ``POOLS``; ``None`` sits out)."""
    players = len(hands)
    sits_out = rules.active_players(players) < players
    size = rules.hand_size_for(rules.active_players(players))
    used: Counter[Card] = Counter()
    for text in (*hands, upcard, extra, stock):
        used.update(parse_cards(text) if text else ())
    full: list[str | None] = []
    for seat, text in enumerate(hands):
        if sits_out and seat == dealer:
            full.append(None)
            continue
        cards = list(parse_cards(text or ""))
        for card in parse_cards(POOLS[seat]):
            if len(cards) >= size:
                break
            if card not in cards and used[card] < rules.num_decks:
                cards.append(card)
                used[card] += 1
        full.append(" ".join(str(c) for c in cards))
    deck = arrange_deck(rules, players, full, dealer=dealer, upcard=upcard, extra=extra, stock=stock)
    return Round.new(rules, players, deck=deck, dealer=dealer, seed=1)


def play(rnd: Round, *actions: str) -> None:
    for action in actions:
        rnd.apply(action)


def snapshot(rnd: Round) -> tuple[object, ...]:
    return (
        tuple(rnd.view(s) for s in range(rnd.seats)),
        tuple(rnd.history),
        rnd.to_move,
        rnd.phase,
        rnd.turn,
    )


def rejected(rnd: Round, action: str, error: type[IllegalActionError], rule: str) -> IllegalActionError:
    """``action`` is refused by ``check`` and ``apply`` with ``rule``; the round stays unchanged."""
    before = snapshot(rnd)
    with pytest.raises(error) as checked:
        rnd.check(Action.parse(action))
    assert checked.value.rule == rule, str(checked.value)
    with pytest.raises(error) as applied:
        rnd.apply(action)
    assert applied.value.rule == rule
    assert snapshot(rnd) == before
    return applied.value


def table(rnd: Round) -> list[str]:
    return [str(tm.meld) for tm in rnd.view(0).melds]


def hand(rnd: Round, seat: int) -> Counter[Card]:
    return Counter(rnd.view(seat).hand)


def offered(rnd: Round) -> set[str]:
    return {str(a) for a in rnd.legal_actions()}


# §8.2 Openings -------------------------------------------------------------------------------------

OPENINGS = [
    pytest.param(GERMAN, "QC KC AC | 2H 2S 2D", 37, False, id="O1"),
    pytest.param(GERMAN, "10H JH QH | AS AD AC", 63, True, id="O2"),
    pytest.param(GERMAN, "KS KD KH | 2C 3C 4C", 39, False, id="O3"),
    pytest.param(GERMAN, "AH 2H 3H 4H | 9S 9D 9C", 37, False, id="O5"),
    pytest.param(GERMAN, "JK 2S 3S | KD KC KS | 10D 10C 10H", 66, True, id="O6"),
    pytest.param(GERMAN.replace(opening_scope="single_meld"), "QC KC AC | 9S 9D 9C", 31, False, id="O8"),
    pytest.param(GERMAN, "QC KC AC | 9S 9D 9C", 58, True, id="O8-default-scope"),
]


@pytest.mark.parametrize(("rules", "melds", "value", "accepted"), OPENINGS)
def test_opening(rules: Rules, melds: str, value: int, accepted: bool) -> None:
    cards = melds.replace("|", " ")
    rnd = deal(rules, [None, cards], upcard="7S", stock="8S")
    assert rnd.to_move == 1 and rnd.phase is Phase.DRAW
    play(rnd, "draw")
    if accepted:
        rnd.apply(f"open {melds}")
        assert rnd.has_opened(1)
        assert sum(tm.meld.value for tm in rnd.view(1).melds) == value
        assert len(rnd.view(1).hand) == 14 - len(parse_cards(cards))
        assert rnd.phase is Phase.PLAY and rnd.to_move == 1
    else:
        err = rejected(rnd, f"open {melds}", OpeningError, "opening_min_points")
        assert f"{value} points" in str(err)
        assert not rnd.has_opened(1)


def test_O6_best_opening_of_the_nine_cards_is_70() -> None:
    assert solver.max_opening_value(parse_cards("JK 2S 3S KD KC KS 10D 10C 10H"), GERMAN) == 70


def test_O4_taken_discard_counts_toward_the_opening() -> None:
    rnd = deal(GERMAN, [None, "10H JH KH"], upcard="QH", stock="8S")
    play(rnd, "take")
    assert rnd.view(1).taken_discard == Card.parse("QH")
    rnd.apply("open 10H JH QH KH")
    assert table(rnd) == ["10H JH QH KH"]
    assert rnd.view(0).melds[0].meld.value == 40
    # Without the taken card the same hand has nothing to open with.
    other = deal(GERMAN, [None, "10H JH KH"], upcard="QH", stock="8S")
    play(other, "draw")
    rejected(other, "open 10H JH KH", MeldError, "run_sequence")


def test_O7_no_layoff_in_the_opening_turn_but_next_turn() -> None:
    rnd = deal(
        GERMAN,
        ["QC KC AC 10D 10S 10H 5H", "2H 3H 4H KS KD KC KH"],
        upcard="7S",
        stock="8S JH 4S 9C",
    )
    play(rnd, "draw", "open 2H 3H 4H | KS KD KC KH", "discard 8S")
    play(rnd, "draw", "open QC KC AC | 10D 10S 10H")
    assert rnd.has_opened(0)
    rejected(rnd, "layoff 5H on 1", LayOffError, "layoff_on_opening_turn")
    assert "layoff 5H on 1" not in offered(rnd)
    play(rnd, "discard JH", "draw", "discard 4S", "draw")
    assert "layoff 5H on 1" in offered(rnd)
    rnd.apply("layoff 5H on 1")
    assert table(rnd)[0] == "2H 3H 4H 5H"


def test_further_new_melds_in_the_opening_turn_are_allowed() -> None:
    rnd = deal(GERMAN, [None, "QC KC AC 10D 10S 10H 2S 3S 4S"], upcard="7S", stock="8S")
    play(rnd, "draw", "open QC KC AC | 10D 10S 10H")
    assert "meld 2S 3S 4S" in offered(rnd)
    rnd.apply("meld 2S 3S 4S")
    assert table(rnd) == ["QC KC AC", "10D 10S 10H", "2S 3S 4S"]


# §8.3 Lay-offs and joker exchange, in real rounds ---------------------------------------------------


def table_round(
    rules: Rules,
    table_melds: str,
    actor_melds: str,
    actor_cards: str,
    *,
    players: int = 2,
    draws: str = "8S JH 4S 9C 8S JH",
    actor_hand: str | None = None,
) -> Round:
    """Seat 1 (forehand) opens ``table_melds``; the dealer, seat 0, opens ``actor_melds`` on its first
    turn while also holding ``actor_cards``; everybody else just draws and discards. Returned at the
    start of seat 0's second turn, after its draw (the last card of ``draws``)."""
    hands: list[str | None] = [None] * players
    hands[0] = actor_hand or f"{actor_melds.replace('|', ' ')} {actor_cards}"
    hands[1] = table_melds.replace("|", " ")
    rnd = deal(rules, hands, upcard="7S", stock=draws)
    order = list(rnd.active)
    assert order[0] == 1 and order[-1] == 0
    drawn = iter(parse_cards(draws))
    for seat in order:  # first round of turns
        card = next(drawn)
        play(rnd, "draw")
        if seat == 1:
            rnd.apply(f"open {table_melds}")
        elif seat == 0:
            rnd.apply(f"open {actor_melds}")
        rnd.apply(f"discard {card}")
    for _seat in order[:-1]:
        play(rnd, "draw", f"discard {next(drawn)}")
    play(rnd, "draw")
    assert rnd.to_move == 0 and rnd.phase is Phase.PLAY and rnd.has_opened(0) and rnd.has_opened(1)
    return rnd


ACTOR_OPENING = "QC QD QS | 10H 10D 10S"


def test_L1_lay_off_at_both_ends_of_a_run() -> None:
    rnd = table_round(GERMAN, "2H 3H 4H | KS KD KC KH", ACTOR_OPENING, "AH 5H")
    assert {"layoff AH on 1", "layoff 5H on 1"} <= offered(rnd)
    play(rnd, "layoff AH on 1", "layoff 5H on 1")
    assert table(rnd)[0] == "AH 2H 3H 4H 5H"
    assert rnd.view(0).melds[0].owner == 1


def test_L2_fourth_card_on_a_set() -> None:
    rnd = table_round(GERMAN, "KH KD KC | QS QD QC", "10H 10D 10S | JC JD JS", "KS")
    rnd.apply("layoff KS on 1")
    assert table(rnd)[0] == "KH KD KC KS"


def test_L3_duplicate_suit_on_a_set() -> None:
    rnd = table_round(GERMAN, "KH KD KC | QS QD QC", "10H 10D 10S | JC JD JS", "KH")
    rejected(rnd, "layoff KH on 1", LayOffError, "set_distinct_suits")
    assert "layoff KH on 1" not in offered(rnd)


def test_L4_full_set_takes_nothing() -> None:
    rnd = table_round(GERMAN, "KH KD KC KS | QS QD QC", "10H 10D 10S | JC JD JS", "KH JK")
    rejected(rnd, "layoff KH on 1", LayOffError, "set_size_max")
    rejected(rnd, "layoff JK on 1", LayOffError, "set_size_max")
    assert not {a for a in offered(rnd) if a.endswith("on 1")}


def test_L5_no_wraparound_lay_off() -> None:
    rnd = table_round(GERMAN, "QS KS AS | 10H 10D 10C", "QC QD QH | JC JD JS", "2S")
    rejected(rnd, "layoff 2S on 1", LayOffError, "run_wraparound")
    rejected(rnd, "layoff 2S on 1 low", LayOffError, "run_sequence")
    rejected(rnd, "layoff 2S on 1 high", LayOffError, "run_wraparound")


@pytest.mark.parametrize("first", ["low", "high"])
def test_L6_both_aces_on_a_twelve_card_run(first: str) -> None:
    run = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    rnd = table_round(GERMAN, run, ACTOR_OPENING, "AH AH", draws="8S JS 4S 9C 8S JS")
    assert {"layoff AH on 1 low", "layoff AH on 1 high"} <= offered(rnd)
    second = "high" if first == "low" else "low"
    rnd.apply(f"layoff AH on 1 {first}")
    assert "layoff AH on 1" in offered(rnd)  # only one end is left
    rejected(rnd, f"layoff AH on 1 {first}", LayOffError, "run_bounds")
    rnd.apply(f"layoff AH on 1 {second}")
    assert table(rnd)[0] == "AH " + run + " AH"
    assert len(rnd.view(0).melds[0].meld.cards) == 14


def test_L7_lay_off_below_a_run_ending_in_a_joker() -> None:
    rnd = table_round(GERMAN, "5H 6H JK | KS KD KC", ACTOR_OPENING, "4H")
    rnd.apply("layoff 4H on 1")
    assert table(rnd)[0] == "4H 5H 6H JK(=7H)"


def test_L8_card_of_the_joker_exchanges_but_does_not_lay_off() -> None:
    rnd = table_round(GERMAN, "5H 6H JK | KS KD KC", ACTOR_OPENING, "7H 8D 9D")
    rejected(rnd, "layoff 7H on 1", LayOffError, "run_sequence")
    assert "swap 7H on 1 then meld 8D 9D JK" in offered(rnd)
    rnd.apply("swap 7H on 1 then meld 8D 9D JK")
    assert table(rnd)[0] == "5H 6H 7H"
    assert table(rnd)[-1] == "8D 9D JK(=10D)"


SET_WITH_JOKER = "6S 6H JK | KS KD KC"


def test_J1_exchange_and_meld_the_joker_at_once() -> None:
    rnd = table_round(GERMAN, SET_WITH_JOKER, ACTOR_OPENING, "6C 8D 9D")
    assert "swap 6C on 1 then meld 8D 9D JK" in offered(rnd)
    before = len(rnd.view(0).hand)
    rnd.apply("swap 6C on 1 then meld 8D 9D JK")
    assert Counter(rnd.view(0).melds[0].meld.cards) == Counter(parse_cards("6S 6H 6C"))
    assert table(rnd)[-1] == "8D 9D JK(=10D)"
    assert rnd.view(0).melds[-1].owner == 0
    assert len(rnd.view(0).hand) == before - 3
    assert Card.parse("JK") not in rnd.view(0).hand


J2_HAND = "QC QD QS 10H 10D 10S 2D 3D 4D 5D 6C 9H KS"  # opening of 10 cards, then 6C 9H KS


def j2_round(rules: Rules) -> Round:
    rnd = table_round(
        rules,
        SET_WITH_JOKER,
        "QC QD QS | 10H 10D 10S | 2D 3D 4D 5D",
        "",
        actor_hand=J2_HAND,
        draws="8S JH 4S AH",
    )
    rest = list(rnd.view(0).hand)
    assert Counter(rest) == Counter(parse_cards("6C 9H KS AH"))
    assert not solver.melds_containing([*rest, Card.parse("JK")], Card.parse("JK"), rules)
    return rnd


def test_J2_freed_joker_without_a_new_meld_is_illegal() -> None:
    rnd = j2_round(GERMAN)
    rejected(rnd, "swap 6C on 1", JokerExchangeError, "exchanged_joker_destination")
    assert not any(a.startswith("swap") for a in offered(rnd))


def test_J2_a_bare_exchange_says_how_the_freed_joker_may_be_laid() -> None:
    """Where the joker may go into a new meld only, the refusal says 'then meld'; where a lay-off
    will do too, it names both."""
    error = rejected(j2_round(GERMAN), "swap 6C on 1", JokerExchangeError, "exchanged_joker_destination")
    assert str(error).endswith("add 'then meld … JK'")
    anywhere = GERMAN.replace(exchanged_joker_destination="any_meld_same_turn")
    error = rejected(j2_round(anywhere), "swap 6C on 1", JokerExchangeError, "exchanged_joker_destination")
    assert str(error).endswith("add 'then meld … JK' or 'then layoff JK on N'")
    assert "„then layoff JK on N“" in localize_error(error, "de")


def test_J2_freed_joker_to_hand_when_the_rules_say_so() -> None:
    rnd = j2_round(GERMAN.replace(exchanged_joker_destination="hand"))
    assert "swap 6C on 1" in offered(rnd)
    rnd.apply("swap 6C on 1")
    assert Counter(rnd.view(0).melds[0].meld.cards) == Counter(parse_cards("6S 6H 6C"))
    assert hand(rnd, 0)[Card.parse("JK")] == 1


def test_J3_dskv_set_exchange_needs_four_naturals() -> None:
    rnd = table_round(DSKV, SET_WITH_JOKER, ACTOR_OPENING, "6C 8D 9D", players=3)
    rejected(rnd, "swap 6C on 1 then meld 8D 9D JK", JokerExchangeError, "set_joker_exchange")
    assert not any(a.startswith("swap") for a in offered(rnd))


def test_J4_dskv_both_missing_naturals_complete_the_set() -> None:
    rnd = table_round(DSKV, SET_WITH_JOKER, ACTOR_OPENING, "6C 6D 8D 9D", players=3)
    assert "swap 6C 6D on 1 then meld 8D 9D JK" in offered(rnd)
    # The joker must still go into a new meld.
    rejected(rnd, "swap 6C 6D on 1", JokerExchangeError, "exchanged_joker_destination")
    rnd.apply("swap 6C 6D on 1 then meld 8D 9D JK")
    set_cards = rnd.view(0).melds[0].meld.cards
    assert Counter(set_cards) == Counter(parse_cards("6S 6H 6C 6D"))
    assert table(rnd)[-1] == "8D 9D JK(=10D)"


def test_J4_dskv_four_card_set_gets_its_missing_natural() -> None:
    rnd = table_round(DSKV, "6S 6H 6D JK | KS KD KC", ACTOR_OPENING, "6C 8D 9D", players=3)
    assert "swap 6C on 1 then meld 8D 9D JK" in offered(rnd)
    rnd.apply("swap 6C on 1 then meld 8D 9D JK")
    assert Counter(rnd.view(0).melds[0].meld.cards) == Counter(parse_cards("6S 6H 6D 6C"))


RUN_WITH_JOKER = "4C 5C JK 7C | KS KD KC"


@pytest.mark.parametrize(
    ("rules", "players", "action"),
    [
        pytest.param(GERMAN, 2, "swap 6C on 1 then meld 8D 9D JK", id="german"),
        pytest.param(DSKV, 3, "swap 6C on 1 then meld 8D 9D JK", id="german_dskv"),
        pytest.param(SCALA, 2, "swap 6C on 1", id="scala40"),
    ],
)
def test_J5_run_joker_exchange_in_every_german_preset(rules: Rules, players: int, action: str) -> None:
    rnd = table_round(rules, RUN_WITH_JOKER, ACTOR_OPENING, "6C 8D 9D", players=players)
    assert action in offered(rnd)
    rnd.apply(action)
    assert table(rnd)[0] == "4C 5C 6C 7C"
    if rules.exchanged_joker_destination == "hand":
        assert hand(rnd, 0)[Card.parse("JK")] == 1


def test_J6_no_exchange_with_the_wrong_card_but_lay_off() -> None:
    rnd = table_round(
        GERMAN, RUN_WITH_JOKER, ACTOR_OPENING, "", actor_hand="QC QD QS 10H 10D 10S 8C 2D 9H KS 3H JD 5S"
    )
    assert Card.parse("6C") not in rnd.view(0).hand
    rejected(rnd, "swap 8C on 1", JokerExchangeError, "joker_exchange")
    assert not any(a.startswith("swap") for a in offered(rnd))
    assert "layoff 8C on 1" in offered(rnd)
    rnd.apply("layoff 8C on 1")
    assert table(rnd)[0] == "4C 5C JK(=6C) 7C 8C"


def test_J7_no_exchange_in_the_opening_turn() -> None:
    rnd = deal(
        GERMAN,
        [f"{ACTOR_OPENING.replace('|', ' ')} 6C 8D 9D", SET_WITH_JOKER.replace("|", " ")],
        upcard="7S",
        stock="8S JH 4S 9C",
    )
    play(rnd, "draw", f"open {SET_WITH_JOKER}", "discard 8S", "draw", f"open {ACTOR_OPENING}")
    rejected(rnd, "swap 6C on 1 then meld 8D 9D JK", JokerExchangeError, "joker_exchange_on_opening_turn")
    assert not any(a.startswith("swap") for a in offered(rnd))
    play(rnd, "discard JH", "draw", "discard 4S", "draw", "swap 6C on 1 then meld 8D 9D JK")
    assert table(rnd)[-1] == "8D 9D JK(=10D)"


def test_J8_unopened_player_cannot_exchange() -> None:
    rnd = deal(
        GERMAN,
        ["6C 8D 9D", SET_WITH_JOKER.replace("|", " ")],
        upcard="7S",
        stock="8S JH",
    )
    play(rnd, "draw", f"open {SET_WITH_JOKER}", "discard 8S", "draw")
    rejected(rnd, "swap 6C on 1 then meld 8D 9D JK", JokerExchangeError, "joker_exchange_requires_opened")
    rejected(rnd, "layoff 6C on 1", LayOffError, "layoff_requires_opened")
    assert not any(a.startswith(("swap", "layoff")) for a in offered(rnd))


# §8.4 End of a German-family hand ------------------------------------------------------------------


def test_P5_hand_romme_doubles_the_penalties() -> None:
    rnd = deal(
        GERMAN,
        [
            "AH 2H 3H 9D 10D JD QD 4S 5S 6S 8C 8H 8S",
            "2C 3C 4C 5C 6D 7D 8D KS KH KD 5H 9C QD",
            "7S 8S 9S 10S JC QC KC 3H 3S 3D 3C JK AS",
        ],
        upcard="2D",
        stock="6H 4H 10H",
    )
    assert rnd.active == (1, 2, 0)
    play(rnd, "draw", "open 2C 3C 4C 5C | 6D 7D 8D | KS KH KD", "discard 6H")
    assert hand(rnd, 1) == Counter(parse_cards("5H 9C QD"))
    play(rnd, "draw", "open 7S 8S 9S 10S | JC QC KC | 3H 3S 3D 3C", "discard 4H")
    assert hand(rnd, 2) == Counter(parse_cards("JK AS"))
    play(rnd, "draw", "open AH 2H 3H | 9D 10D JD QD | 4S 5S 6S | 8C 8H 8S")
    assert not rnd.is_over
    rnd.apply("discard 10H")
    result = rnd.result
    assert rnd.is_over and result is not None
    assert result.termination is Termination.WENT_OUT and result.winner == 0
    assert result.multiplier == 2
    assert result.hand_values == (0, 24, 41)
    assert result.penalties == (0, 48, 82)
    assert result.points == (0, -48, -82)
    assert rnd.face_down == Card.parse("10H")  # the last card goes face down (verdeckt)
    assert rnd.view(0).top_discard == Card.parse("4H")


def test_P6_going_out_by_laying_off_the_last_card() -> None:
    loser = "2C 6C 10C 3D 7D JD 4H 8H QH 5S 9S KS AD"
    rnd = deal(
        GERMAN,
        [loser, "2H 3H 4H KS KD KC KH 10C JC QC 5H 6H AH"],
        upcard="7S",
        stock="9S 4D 9C",
    )
    play(rnd, "draw", "open 2H 3H 4H | KS KD KC KH | 10C JC QC", "discard 9S")
    play(rnd, "draw", "discard 4D")
    play(rnd, "draw", "layoff 5H on 1", "layoff 6H on 1", "layoff AH on 1")
    assert not rnd.is_over and len(rnd.view(1).hand) == 1
    rnd.apply("layoff 9C on 3")
    result = rnd.result
    assert rnd.is_over and result is not None
    assert str(rnd.history[-1].action) == "layoff 9C on 3"
    assert result.termination is Termination.WENT_OUT and result.winner == 1
    assert result.multiplier == 1
    assert result.penalties == (95, 0)
    assert table(rnd)[0] == "AH 2H 3H 4H 5H 6H" and table(rnd)[2] == "9C 10C JC QC"
    assert rnd.legal_actions() == []


def test_P7_scala40_cannot_meld_every_card() -> None:
    rnd = deal(
        SCALA,
        [None, "QC KC AC 10D 10S 10H 2S 3S 4S 5S 6S 7C 8C"],
        upcard="7S",
        stock="9H 4D 9C",
    )
    play(rnd, "draw", "open QC KC AC | 10D 10S 10H | 2S 3S 4S 5S 6S", "discard 9H")
    play(rnd, "draw", "discard 4D", "draw")
    assert hand(rnd, 1) == Counter(parse_cards("7C 8C 9C"))
    rejected(rnd, "meld 7C 8C 9C", MeldError, "going_out_requires_discard")
    assert not any(a.startswith(("meld", "layoff")) for a in offered(rnd))
    assert {a for a in offered(rnd) if a.startswith("discard")} == {"discard 7C", "discard 8C", "discard 9C"}


def test_P8_scala40_playable_card_may_not_be_discarded() -> None:
    rnd = deal(SCALA, ["8D 4D", "5D 6D 7D KS KH KC"], upcard="7S", stock="9H JS")
    play(rnd, "draw", "open 5D 6D 7D | KS KH KC", "discard 9H", "draw")
    rejected(rnd, "discard 8D", DiscardError, "discard_playable_card_allowed")
    rejected(rnd, "discard 4D", DiscardError, "discard_playable_card_allowed")
    discards = {a for a in offered(rnd) if a.startswith("discard")}
    assert "discard 8D" not in discards and "discard 4D" not in discards and "discard JS" in discards
    rnd.apply("discard JS")


def test_scala40_joker_may_be_discarded_only_when_closing() -> None:
    rnd = deal(SCALA, [None, "JK 4S"], upcard="7S", stock="8S")
    play(rnd, "draw")
    rejected(rnd, "discard JK", DiscardError, "joker_discard_allowed")
    assert "discard JK" not in offered(rnd)
    rnd.apply("discard 8S")


def test_scala40_lays_off_before_it_lifts_the_bar_on_a_playable_card() -> None:
    """RULES.md §5.2: a card that could be laid off may not be discarded, a joker only as the closing
    card. Holding 8D and a joker with 5D 6D 7D on the table, every card is barred; the engine lifted
    the bar on 8D and let it be discarded, although laying 8D off and closing with the joker keeps
    both rules. The bars now stand while a lay-off is possible."""
    hands = ["2C 6C 10D 3D 7C JD 4H 8H QH 5S 9S QS AD", "5D 6D 7D KS KH KC 10H 10S 10C 2S 3S 4S JK"]
    rnd = deal(SCALA, hands, upcard="7S", stock="9H 2D 8D")
    play(rnd, "draw", "open 5D 6D 7D | KS KH KC | 10H 10S 10C | 2S 3S 4S", "discard 9H", "draw", "discard 2D")
    play(rnd, "draw")
    assert hand(rnd, 1) == Counter(parse_cards("8D JK"))
    rejected(rnd, "discard 8D", DiscardError, "discard_playable_card_allowed")
    rejected(rnd, "discard JK", DiscardError, "joker_discard_allowed")
    assert not any(a.startswith("discard") for a in offered(rnd)) and "layoff 8D on 1" in offered(rnd)
    play(rnd, "layoff 8D on 1")
    assert {a for a in offered(rnd) if a.startswith("discard")} == {"discard JK"}
    rnd.apply("discard JK")
    assert rnd.result is not None and rnd.result.winner == 1


# Further round scenarios ---------------------------------------------------------------------------


def test_illegal_actions_leave_the_round_unchanged() -> None:
    rnd = deal(GERMAN, [None, "QC KC AC 2H 2S 2D"], upcard="7S", stock="8S")
    rejected(rnd, "discard QC", WrongTurnError, "draw_first")
    rejected(rnd, "open QC KC AC | 2H 2S 2D", WrongTurnError, "draw_first")
    play(rnd, "draw")
    rejected(rnd, "open QC KC AC | 2H 2S 2D", OpeningError, "opening_min_points")
    rejected(rnd, "open QC KC AC | 2H 2S 3D", MeldError, "meld_shape")
    rejected(rnd, "discard 10D", CardNotInHandError, "card_not_in_hand")
    rejected(rnd, "meld QC KC AC", MeldError, "opening_min_points")
    rejected(rnd, "layoff QC on 1", LayOffError, "layoff_requires_opened")
    rejected(rnd, "knock QC", WrongTurnError, "not_in_this_game")
    rejected(rnd, "draw", WrongTurnError, "one_draw_per_turn")
    rejected(rnd, "take", WrongTurnError, "one_draw_per_turn")
    rnd.apply("discard 8S")
    assert rnd.to_move == 0 and rnd.phase is Phase.DRAW


def test_illegal_compound_exchange_leaves_the_round_unchanged() -> None:
    rnd = table_round(GERMAN, SET_WITH_JOKER, ACTOR_OPENING, "6C 8D 9D")
    # The exchange itself is fine; the meld that should take the joker is not.
    rejected(rnd, "swap 6C on 1 then meld 8D JK 9D", MeldError, "run_sequence")
    rejected(rnd, "swap 6C on 1 then meld 8D 9D 10D JK", CardNotInHandError, "card_not_in_hand")
    rejected(rnd, "layoff 2C on 7", IllegalActionError, "no_such_meld")
    assert Card.parse("JK") in rnd.view(0).melds[0].meld.cards


def test_illegal_meld_in_compound_exchange_is_named() -> None:
    rnd = table_round(GERMAN, SET_WITH_JOKER, ACTOR_OPENING, "6C 8D 9D")
    with pytest.raises(IllegalActionError) as info:
        rnd.check(Action.parse("swap 6C on 1 then meld 8D 9D JK JK"))
    assert info.value.rule in ("card_not_in_hand", "joker_limit")


def test_after_the_end_every_action_is_refused() -> None:
    rnd = deal(BASIC, [None, "AC 2C 3C 4D 5D 6D 7S 8S 9S 10S"], upcard="KH", stock="QH")
    play(rnd, "draw", "open AC 2C 3C | 4D 5D 6D | 7S 8S 9S 10S", "discard QH")
    assert rnd.is_over
    rejected(rnd, "draw", IllegalActionError, "hand_over")


def test_knock_game_phase_errors() -> None:
    rnd = Round.new(VIENNESE, 3, seed=4, dealer=0)
    assert rnd.phase is Phase.DISCARD and rnd.to_move == 0  # the dealer starts with 11 cards
    rejected(rnd, "draw", WrongTurnError, "one_draw_per_turn")
    rejected(rnd, "open QC KC AC", WrongTurnError, "not_in_this_game")
    card = rnd.view(0).hand[0]
    rnd.apply(f"discard {card}")
    rejected(rnd, f"discard {rnd.view(1).hand[0]}", WrongTurnError, "draw_first")
    rejected(rnd, f"knock {rnd.view(1).hand[0]}", WrongTurnError, "draw_first")


def test_the_taken_discard_may_not_be_discarded() -> None:
    rnd = deal(GERMAN, [None, "4S"], upcard="QH", stock="8S")
    play(rnd, "take")
    rejected(rnd, "discard QH", DiscardError, "may_discard_taken_discard")
    assert "discard QH" not in offered(rnd)
    rnd.apply("discard 4S")
    assert rnd.view(0).top_discard == Card.parse("4S")


def test_the_copy_of_the_taken_discard_is_barred_and_the_message_says_why() -> None:
    """With two packs the hand may hold the taken card twice; neither may go (they cannot be told
    apart), and the refusal says so in both languages."""
    rnd = deal(GERMAN, [None, "2D 4S"], upcard="2D", stock="8S")
    play(rnd, "take")
    refused = rejected(rnd, "discard 2D", DiscardError, "may_discard_taken_discard")
    assert "nor your other 2D: the two cannot be told apart" in str(refused)
    assert "auch nicht deine andere Karo-2" in localize_error(refused, "de")
    single = deal(GERMAN, [None, "4S"], upcard="2D", stock="8S")
    play(single, "take")
    assert "your other" not in str(rejected(single, "discard 2D", DiscardError, "may_discard_taken_discard"))


def test_a_copy_of_a_taken_discard_that_had_to_be_laid_is_the_player_s_own() -> None:
    """Scala 40 lays the taken discard at once (``discard_pickup_requires_meld``): once it is on the
    table the copy of its face still in hand is the player's own and may be discarded (D15 bars only
    the card taken). It was barred as the copies of an unlaid taken card are."""
    rnd = deal(SCALA, ["9C 2H 5S", "3D 4D 5D KS KH KC 9C 9D 9H 10H"], upcard="7S", stock="JD 4S QD")
    play(rnd, "draw", "open 3D 4D 5D | KS KH KC", "discard JD", "draw", "discard 9C", "take")
    assert "discard 9C" not in offered(rnd)  # first the taken card goes to the table
    play(rnd, "meld 9C 9D 9H")
    assert rnd.hands[1].count(Card.parse("9C")) == 1 and "discard 9C" in offered(rnd)
    rnd.apply("discard 9C")
    assert rnd.view(0).top_discard == Card.parse("9C")
    # A play may leave that copy as the last card: the player goes out by discarding it.
    out = deal(SCALA, ["9C 2H 5S", "2D 3D 4D 5D 6D 7D KS KH KC 9C 9D 9H 8D"], upcard="7S", stock="JD 4S QD")
    play(out, "draw", "open 2D 3D 4D 5D 6D 7D | KS KH KC", "discard JD", "draw", "discard 9C", "take")
    play(out, "meld 9C 9D 9H")
    assert offered(out) == {"discard 9C", "layoff 8D on 1"}
    play(out, "layoff 8D on 1", "discard 9C")
    assert out.result is not None and out.result.winner == 1


def test_the_bar_on_a_taken_card_as_the_bots_model_it() -> None:
    """The bots' inference and play-outs read the bar through ``taken_stays_barred``: an opponent in
    Scala 40 discarding a copy of a card it took and laid is no impossible move to them."""
    from rummykit.melding_conditions import taken_stays_barred

    assert taken_stays_barred(GERMAN, False) and taken_stays_barred(GERMAN, True)
    assert not taken_stays_barred(SCALA, False) and not taken_stays_barred(SCALA, True)
    house = GERMAN.replace(discard_pickup_requires_opened="opened_or_opening_with_it")
    assert taken_stays_barred(house, False) and not taken_stays_barred(house, True)
    assert not taken_stays_barred(GERMAN.replace(may_discard_taken_discard=True), False)


def test_an_unopened_player_is_told_to_keep_a_card_that_fits_the_table_until_opening() -> None:
    """A card that fits a table meld may not be discarded (§5.2); the refusal told a player who had
    not opened to lay it off from the next turn, which they cannot before opening."""
    rnd = deal(SCALA, ["4D 9C 2H", "5D 6D 7D KS KH KC 10H 2S 3S"], upcard="7S", stock="9H JS 3C 4C")
    play(rnd, "draw", "open 5D 6D 7D | KS KH KC", "discard 9H", "draw")
    refused = rejected(rnd, "discard 4D", DiscardError, "discard_playable_card_allowed")
    assert "keep it to lay off once you have opened" in str(refused) and "next turn" not in str(refused)
    assert "sobald du ausgelegt hast" in localize_error(refused, "de")


def test_no_play_may_leave_only_the_taken_discard() -> None:
    """D15 without exception: forehand takes the upcard 9D and could lay all 13 other cards. Laying
    them would leave only the taken card, which may not be discarded: the opening is refused (and not
    offered), so the player keeps a card to discard. Before, the bar was lifted there and the player
    went out with a Hand-Rommé by discarding the card just taken."""
    hand = "10H JH QH KH AS AD AC 2C 3C 4C 5C 6C 7C"
    rnd = deal(GERMAN, [None, hand, None], upcard="9D")
    play(rnd, "take")
    everything = "open 10H JH QH KH | AS AD AC | 2C 3C 4C 5C 6C 7C"
    error = rejected(rnd, everything, OpeningError, "may_discard_taken_discard")
    assert "it would leave only 9D, the card you took from the discard pile" in str(error)
    assert "behalte eine andere Karte zum Abwerfen" in localize_error(error, "de")
    openings = [a for a in rnd.legal_actions() if isinstance(a, Open)]
    assert openings and max(len(a.cards) for a in openings) == 12  # the best that keeps a card
    play(rnd, "open 10H JH QH KH | AS AD AC | 2C 3C 4C 5C 6C")  # keeps 7C besides the 9D
    assert "discard 9D" not in offered(rnd) and "discard 7C" in offered(rnd)
    rnd.apply("discard 7C")
    assert rnd.view(1).hand == (Card.parse("9D"),) and not rnd.is_over


def test_the_taken_discard_may_be_discarded_when_allowed() -> None:
    rnd = deal(GERMAN.replace(may_discard_taken_discard=True), [None, "4S"], upcard="QH")
    play(rnd, "take")
    assert "discard QH" in offered(rnd)
    rnd.apply("discard QH")
    assert rnd.view(0).top_discard == Card.parse("QH")


def test_scala40_pickup_needs_a_meld_with_the_card() -> None:
    rnd = deal(SCALA, [None, "4S"], upcard="QH", stock="8S")
    rejected(rnd, "take", DrawError, "discard_pickup_requires_meld")
    assert offered(rnd) == {"draw"}


def test_scala40_taken_discard_must_go_into_the_opening() -> None:
    rnd = deal(SCALA, [None, "10H JH KH AS AD AC 4S"], upcard="QH", stock="8S")
    assert "take" in offered(rnd)
    play(rnd, "take")
    rejected(rnd, "discard 4S", DiscardError, "discard_pickup_requires_meld")
    rejected(rnd, "open AS AD AC | 10H JH KH", MeldError, "run_sequence")
    rejected(rnd, "open AS AD AC", OpeningError, "discard_pickup_requires_meld")
    assert all(a.startswith("open") and "QH" in a for a in offered(rnd))
    rnd.apply("open 10H JH QH KH | AS AD AC")
    assert rnd.pending_taken is None
    assert "discard 4S" in offered(rnd)


def test_scala40_a_joker_exchange_lays_the_taken_discard() -> None:
    """The taken discard given for a joker is on the table (RULES.md §3.6, §5.2): the obligation is
    settled and the turn can end with a discard (a recorded four-player round had no legal action)."""
    rnd = deal(
        SCALA,
        ["2C 6C 5C 3D 7D JD 4H 8H QH 5S 9S KS AD", "8C JK 10C 10D JD QD KD 10C JC QC 2H 4S 6D", None, None],
        upcard="KH",
        stock="3D 2S 3S 9C",
    )
    play(rnd, "draw", "open 8C JK 10C | 10D JD QD KD", "discard 3D")
    play(rnd, "draw", "discard 2S", "draw", "discard 3S", "draw", "discard 9C")
    assert rnd.to_move == 1
    play(rnd, "take", "meld 10C JC QC")
    assert rnd.pending_taken == Card.parse("9C")
    assert "swap 9C on 1" in offered(rnd)
    rnd.apply("swap 9C on 1")
    assert table(rnd)[0] == "8C 9C 10C"
    assert hand(rnd, 1) == Counter(parse_cards("2H 4S 6D JK"))
    assert rnd.pending_taken is None
    assert {"discard 2H", "discard 4S", "discard 6D"} <= offered(rnd)
    rnd.apply("discard 2H")
    assert rnd.to_move == 2 and rnd.legal_actions()


HAND_ROMME_LOW = "AC 2C 3C 4C AC 2C 3C 4C AD 2D 3D 4D 5D"
"""Thirteen cards that meld completely, only as runs, worth 35 (below 40)."""
HAND_ROMME_OTHER = "KC 6C 10C 3D 7D JD 4H 8H QH 5S 9S KS AD"


def test_hand_romme_below_the_minimum_is_offered_when_waived() -> None:
    rules = GERMAN.replace(hand_romme_requires_opening_min=False)
    rnd = deal(rules, [HAND_ROMME_OTHER, HAND_ROMME_LOW], upcard="KH", stock="9S")
    rnd.apply("draw")
    opens = [a for a in rnd.legal_actions() if isinstance(a, Open)]
    assert opens, "the opening that goes out below the minimum is not offered"
    assert all(sorted(a.cards) == sorted(parse_cards(HAND_ROMME_LOW)) for a in opens)
    rnd.apply(opens[0])
    assert rnd.legal_actions() == [Action.parse("discard 9S")]
    rnd.apply("discard 9S")
    result = rnd.result
    assert result is not None and result.termination is Termination.WENT_OUT and result.winner == 1
    assert result.multiplier == rules.hand_romme_multiplier


def test_hand_romme_below_the_minimum_is_not_offered_by_default() -> None:
    rnd = deal(GERMAN, [HAND_ROMME_OTHER, HAND_ROMME_LOW], upcard="KH", stock="9S")
    rnd.apply("draw")
    assert not [a for a in rnd.legal_actions() if isinstance(a, Open)]
    rejected(rnd, "open AC 2C 3C 4C | AC 2C 3C 4C | AD 2D 3D 4D 5D", OpeningError, "opening_min_points")


@pytest.mark.parametrize(("mode", "starter"), [("dealer_extra_card", 1), ("forehand_extra_card", 2)])
def test_extra_card_start(mode: str, starter: int) -> None:
    rules = GERMAN.replace(start_mode=mode)
    hands: list[str | None] = [None, None, None]
    rnd = deal(rules, hands, dealer=1, extra="QS")
    view = rnd.view(starter)
    assert rnd.to_move == starter and rnd.phase is Phase.PLAY
    assert view.discard_pile == ()
    assert view.hand_sizes == tuple(14 if s == starter else 13 for s in range(3))
    assert Card.parse("QS") in view.hand
    assert view.stock_size == 110 - 40
    assert all(a.startswith(("open", "discard")) for a in offered(rnd))
    rnd.apply("discard QS")
    assert rnd.view(0).top_discard == Card.parse("QS")
    assert rnd.to_move == rnd.next_seat(starter) and rnd.phase is Phase.DRAW


def test_dskv_dealer_sits_out_at_a_table_of_four() -> None:
    rnd = deal(DSKV, [None, None, None, None], dealer=2, upcard="7S", stock="8S JH 4S 9C")
    assert rnd.active == (3, 0, 1)
    view = rnd.view(2)
    assert view.hand == () and view.hand_sizes == (13, 13, 0, 13)
    assert view.stock_size == 110 - 39 - 1
    seen = []
    for card in ("8S", "JH", "4S", "9C"):
        seen.append(rnd.to_move)
        play(rnd, "draw", f"discard {card}")
    assert seen == [3, 0, 1, 3]
    with pytest.raises(RulesError):
        Round.new(DSKV, 5, seed=1)
    three = Round.new(DSKV, 3, seed=1, dealer=2)
    assert three.active == (0, 1, 2) and three.view(2).hand_sizes == (13, 13, 13)


def test_dskv_dealer_sitting_out_scores_nothing() -> None:
    rnd = deal(
        DSKV,
        [None, "AH 2H 3H 9D 10D JD QD 4S 5S 6S 8C 8H 8S", None, None],
        dealer=0,
        upcard="7S",
        stock="10H",
    )
    assert rnd.active == (1, 2, 3)
    play(rnd, "draw", "open AH 2H 3H | 9D 10D JD QD | 4S 5S 6S | 8C 8H 8S", "discard 10H")
    result = rnd.result
    assert result is not None and result.winner == 1 and result.multiplier == 2
    assert result.penalties[0] == 0 and all(p > 0 for p in result.penalties[2:])


def drain(rnd: Round) -> None:
    """Draw and discard the drawn card until the stock is empty (nobody ever melds)."""
    while rnd.view(rnd.to_move).stock_size and not rnd.is_over:
        event = rnd.apply("draw")
        rnd.apply(f"discard {event.card}")


def test_stock_exhaustion_reshuffles_all_but_the_top_card() -> None:
    rules = GERMAN.replace(max_stock_rebuilds=1)
    rnd = Round.new(rules, 6, seed=11)
    assert rnd.view(0).stock_size == 110 - 78 - 1
    while rnd.view(0).stock_size > 1:
        event = rnd.apply("draw")
        rnd.apply(f"discard {event.card}")
    event = rnd.apply("draw")
    pile = list(rnd.discard_pile)
    rnd.apply(f"discard {event.card}")
    # The next player's turn begins with a rebuilt stock; the top discard stays.
    assert not rnd.is_over and rnd.rebuilds == 1
    assert rnd.discard_pile == [event.card]
    assert Counter(rnd.stock) == Counter(pile)
    assert rnd.view(rnd.to_move).stock_size == 31 and rnd.phase is Phase.DRAW
    drain(rnd)
    result = rnd.result
    assert rnd.is_over and result is not None
    assert result.termination is Termination.STOCK_EXHAUSTED and not result.scored
    assert result.winner is None and result.points == (0,) * 6
    assert rnd.legal_actions() == []


def test_stock_exhaustion_turn_over_keeps_order() -> None:
    rules = GERMAN.replace(stock_exhaustion="turn_over_keep_top")
    rnd = Round.new(rules, 6, seed=11)
    upcard = rnd.discard_pile[0]
    while not rnd.rebuilds:
        event = rnd.apply("draw")
        rnd.apply(f"discard {event.card}")
    assert not rnd.is_over
    event = rnd.apply("draw")
    assert event.card == upcard  # the bottom card of the turned-over pile is drawn first


def test_stock_exhaustion_ends_unscored_after_max_rebuilds() -> None:
    rules = GERMAN.replace(max_stock_rebuilds=0)
    rnd = Round.new(rules, 6, seed=3)
    drain(rnd)
    assert rnd.is_over and rnd.result is not None
    assert rnd.result.termination is Termination.STOCK_EXHAUSTED


def test_basic_turns_the_whole_pile_over_when_the_discard_is_declined() -> None:
    rnd = Round.new(BASIC, 2, seed=5)
    drain(rnd)
    assert not rnd.is_over and rnd.view(0).stock_size == 0
    assert {"draw", "take"} <= offered(rnd)
    pile = list(rnd.discard_pile)
    event = rnd.apply("draw")
    assert rnd.rebuilds == 1
    assert rnd.view(0).discard_pile == () and rnd.view(0).stock_size == len(pile) - 1
    assert Counter([*rnd.stock, event.card]) == Counter(pile)


def test_basic_turned_over_pile_is_drawn_from_its_bottom_card() -> None:
    rnd = Round.new(BASIC, 2, seed=5)
    drain(rnd)
    bottom = rnd.discard_pile[0]
    event = rnd.apply("draw")
    assert event.card == bottom


def test_basic_winner_collects_doubled_in_one_turn() -> None:
    loser = "AS JK 7D KC 2H 5S 9D 10H QS 4C"
    rnd = deal(BASIC, [loser, "AC 2C 3C 4D 5D 6D 7S 8S 9S 10S"], upcard="KH", stock="QH")
    play(rnd, "draw", "open AC 2C 3C | 4D 5D 6D | 7S 8S 9S 10S", "discard QH")
    result = rnd.result
    assert result is not None and result.winner == 1
    assert result.multiplier == 2
    assert result.hand_values == (73, 0)
    assert result.gains == (0, 146) and result.penalties == (0, 0)
    assert result.points == (0, 146)
    assert rnd.view(0).top_discard == Card.parse("QH")  # basic: final discard face up


def test_basic_winner_collects() -> None:
    loser = "AS JK 7D KC 2H 5S 9D 10H QS 4C"
    rnd = deal(BASIC, [loser, "AC 2C 3C 4D 5D 6D 7S 8S 9S JH"], upcard="KH", stock="QH 3H 10S")
    play(rnd, "draw", "open AC 2C 3C | 4D 5D 6D", "discard QH")
    play(rnd, "draw", "discard 3H")
    play(rnd, "draw", "meld 7S 8S 9S 10S", "discard JH")
    result = rnd.result
    assert result is not None and result.termination is Termination.WENT_OUT and result.winner == 1
    assert result.multiplier == 1
    assert result.gains == (0, 73) and result.points == (0, 73)


def test_scala40_a_card_that_fits_a_meld_waits_in_hand_in_the_turn_of_the_opening() -> None:
    """Scala 40 bars discarding a card that could be laid off on a table meld (RULES.md §5.2) and
    allows no lay-off in the turn of the opening: the card stays in hand for the next turn, and the
    refusal says so instead of contradicting the lay-off refusal."""
    rules = SCALA
    hand = "10C JC QC KD KH KS 9C 2D 5S 7H 3D 4H 6S"
    deck = arrange_deck(rules, 2, [hand, "2C 3C 4C 5C 6C 7S 8S 9S 10S JH QH 8D AD"], stock="2H", dealer=1)
    rnd = Round.new(rules, 2, deck=deck, seed=1, dealer=1)
    rnd.apply("draw")
    rnd.apply("open 10C JC QC | KD KH KS")
    with pytest.raises(IllegalActionError, match="lay-offs wait for your next turn") as layoff:
        rnd.apply("layoff 9C on 1")
    assert layoff.value.rule == "layoff_on_opening_turn"
    with pytest.raises(IllegalActionError) as discard:
        rnd.apply("discard 9C")
    assert str(discard.value) == (
        "discard 9C: 9C fits a meld on the table, so it may not be discarded; "
        "lay it off from your next turn (discard_playable_card_allowed is off)"
    )
    assert localize_error(discard.value, "en") == (
        "discard 9♣: 9♣ fits a meld on the table, so it may not be discarded; lay it off from your next turn"
    )
    assert localize_error(discard.value, "de") == (
        "Kreuz-9 abwerfen: Kreuz-9 passt an eine Figur auf dem Tisch und darf darum nicht abgeworfen "
        "werden; lege die Karte ab deinem nächsten Zug an"
    )
    rnd.apply("discard 2D")  # any other card goes


TWO_JOKER_RUN = "JK 6H JK 8H | KS KD KC"
TWO_FOR_ONE_MELD = "swap 5H 7H on 1 then meld 8D 9D JK"  # two jokers freed, one laid


def exchange_words(rnd: Round, action: str) -> dict[str, str]:
    """The terminal's log line and the engine's words for ``action`` as seat 0 makes it now."""
    view = rnd.view(0)
    move = Action.parse(action)
    freed = jokers_freed(move, [tm.meld for tm in view.melds], view.rules)
    return {
        "log en": describe(move, "Anna", view, lang="en").plain,
        "log de": describe(move, "Anna", view, lang="de").plain,
        "en": describe_action(move, "en", freed=freed),
        "de": describe_action(move, "de", freed=freed),
    }


def test_J6_exchange_words_count_the_jokers_freed() -> None:
    """One card frees one joker; in DSkV two naturals free one joker of a set of three (one takes its
    place, the other completes the four); two naturals free the two jokers of a run."""
    one = exchange_words(table_round(GERMAN, SET_WITH_JOKER, ACTOR_OPENING, "6C 8D 9D"), "swap 6C on 1")
    assert one == {
        "log en": "Anna swaps 6♣ for a joker of meld 1",
        "log de": "Anna: tauscht Kreuz-6 gegen einen Joker von Figur 1",
        "en": "swaps the 6 of clubs for a joker of meld 1",
        "de": "tauscht Kreuz-6 gegen einen Joker von Figur 1",
    }
    dskv = table_round(DSKV, SET_WITH_JOKER, ACTOR_OPENING, "6C 6D 8D 9D", players=3)
    assert exchange_words(dskv, "swap 6C 6D on 1") == {
        "log en": "Anna swaps 6♣ 6♦ for a joker of meld 1",
        "log de": "Anna: tauscht 6♣ 6♦ gegen einen Joker von Figur 1",
        "en": "swaps 6♣ 6♦ for a joker of meld 1",
        "de": "tauscht 6♣ 6♦ gegen einen Joker von Figur 1",
    }
    two = table_round(GERMAN, TWO_JOKER_RUN, ACTOR_OPENING, "5H 7H 8D 9D")
    assert exchange_words(two, "swap 5H 7H on 1") == {
        "log en": "Anna swaps 5♥ 7♥ for two jokers of meld 1",
        "log de": "Anna: tauscht 5♥ 7♥ gegen zwei Joker von Figur 1",
        "en": "swaps 5♥ 7♥ for two jokers of meld 1",
        "de": "tauscht 5♥ 7♥ gegen zwei Joker von Figur 1",
    }
    # Without the table the words do not guess a number.
    assert describe_action(Action.parse("swap 5H 7H on 1"), "de", form="verb") == (
        "5♥ 7♥ gegen Joker von Figur 1 tauschen"
    )
    assert describe_action(Action.parse("swap 5H 7H on 1"), "en") == "swaps 5♥ 7♥ for jokers of meld 1"


def test_J6_a_refusal_speaks_of_two_freed_jokers_in_the_plural() -> None:
    rnd = table_round(GERMAN, TWO_JOKER_RUN, ACTOR_OPENING, "5H 7H 8D 9D")
    error = rejected(rnd, TWO_FOR_ONE_MELD, JokerExchangeError, "exchanged_joker_destination")
    assert "the freed jokers must be laid at once" in str(error)
    assert "Die frei gewordenen Joker müssen sofort ausgelegt werden" in localize_error(error, "de")
    rnd = table_round(
        GERMAN.replace(exchanged_joker_destination="hand"), TWO_JOKER_RUN, ACTOR_OPENING, "5H 7H 8D 9D"
    )
    error = rejected(rnd, TWO_FOR_ONE_MELD, JokerExchangeError, "exchanged_joker_destination")
    assert "the freed jokers go to your hand" in str(error)
    assert "Die frei gewordenen Joker kommen auf deine Hand; lege sie" in localize_error(error, "de")
    assert "the freed jokers go to your hand; lay them" in localize_error(error, "en")
    one = table_round(GERMAN, SET_WITH_JOKER, ACTOR_OPENING, "6C 8D 9D")
    error = rejected(one, "swap 6C on 1", JokerExchangeError, "exchanged_joker_destination")
    assert "Der frei gewordene Joker muss sofort" in localize_error(error, "de")


@pytest.mark.parametrize(("preset", "seed"), [("german", 4), ("german", 11), ("basic", 2)])
def test_melds_before_gives_the_table_as_it_lay_before_each_action(preset: str, seed: int) -> None:
    """A log reads an earlier joker exchange on the table as it was then (how many jokers it took)."""
    import random

    rnd = Round.new(Rules.preset(preset), 3, seed=seed)
    rng = random.Random(seed)
    tables = []
    while not rnd.is_over and len(tables) < 200:
        tables.append(rnd.melds)
        legal = rnd.legal_actions()
        laying = [a for a in legal if not isinstance(a, (Draw, TakeDiscard, Discard))]
        rnd.apply(rng.choice(laying or legal))
    tables.append(rnd.melds)
    assert len(tables) > 20 and any(tables)  # melds were laid
    assert [rnd.melds_before(i) for i in range(len(rnd.history) + 1)] == tables
    with pytest.raises(IndexError):
        rnd.melds_before(len(rnd.history) + 1)
