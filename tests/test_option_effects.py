"""Every rule option is live: the option-sensitivity harness over every preset, option applicability,
the seat draw for the first dealer, the aliases and the wording of rule messages."""

from __future__ import annotations

from dataclasses import fields

import pytest

import rummykit as rk
from rummykit.errors import MatchDecisionError, WrongTurnError, name_seats
from rummykit.option_effects import (
    EQUIVALENT_VALUES,
    REGENERATE,
    OptionEffect,
    alternatives,
    check_option_effects,
    witnesses,
)
from rummykit.option_witnesses import WITNESSES
from rummykit.rules import GIN_OPTIONS
from rummykit.rules_text import format_value
from rummykit.seating import FirstDealerDraw, draw_first_dealer
from rummykit.testing import arrange_deck

OPTIONS = tuple(f.name for f in fields(rk.Rules) if f.name != "name")


def no_effect_message(name: str, missing: list[OptionEffect]) -> str:
    """What to do about option values that ``name`` accepts and no situation shows an effect of."""
    values = ", ".join(f"{e.option}={format_value(e.option, e.value)} ({e.where})" for e in missing)
    return (
        f"{name}: accepted, but no situation plays differently (status none): {values}.\n"
        "- If the option cannot matter under this preset, declare it in src/rummykit/rules.py `_APPLIES` "
        "(reuse a test such as `_melding_only`, `_knock_only`, `_with_jokers`): `Rules.not_applicable` then "
        "refuses it here, and a new reason string needs its German words in src/rummykit/i18n/catalogue.py.\n"
        "- If this value plays exactly like the preset's own under these rules, add "
        "(option, value, when, why) to `EQUIVALENT_VALUES` in src/rummykit/option_effects.py.\n"
        "- Otherwise the engine does not read the option: make the family's turn logic (melding.py, "
        "knocking.py, gin.py) or scoring.py use it."
    )


@pytest.mark.parametrize("name", rk.PRESET_NAMES)
def test_every_option_value_has_an_effect_or_is_refused(name: str) -> None:
    rules = rk.Rules.preset(name)
    written = WITNESSES.get(name, {})
    report = check_option_effects(rules, hints=written)
    assert not report.missing, no_effect_message(name, report.missing)
    checked = report.by_option()
    for option in OPTIONS:
        why = rules.not_applicable(option)
        if why is None:
            # Applicable: some value took effect, was read, or every other value is refused.
            outcomes = {e.status for e in checked[option]}
            assert outcomes & {"effect", "read", "same"} or outcomes == {"refused"}, option
        else:
            accepted = [e.value for e in checked.get(option, []) if e.status != "refused"]
            assert not accepted, (
                f"{name}: {option} does not apply ({why}) yet validation accepts {accepted}: "
                "Rules.validate must refuse what Rules.not_applicable rules out (src/rummykit/rules.py)"
            )
    # The hints file holds exactly what a regeneration would write: no entry for a value refused now
    # or whose situation no longer shows the effect, and one for every effect.
    found = witnesses(report)
    if found != written:
        stale = sorted(k for k in written if k not in found)
        new = sorted(k for k in found if k not in written)
        moved = sorted(k for k in found if k in written and found[k] != written[k])
        parts = [f"{what}: {', '.join(keys)}" for what, keys in
                 (("no longer taking effect or refused now", stale), ("without an entry", new),
                  ("shown by another situation now", moved)) if keys]  # fmt: skip
        pytest.fail(
            f"src/rummykit/option_witnesses.py is out of date for {name} ({'; '.join(parts)}): regenerate it "
            f"with `{REGENERATE}` (a few seconds) and commit the result with your change"
        )


SWITCHED_ON = [
    ("german(joker_robbing=true)", "robbed_joker_counts_toward_hand"),
    ("german(match_end=penalty_limit)", "penalty_limit"),
    ("german(match_end=target_score, hand_scoring=winner_collects)", "target_score"),
    ("german(match_end=elimination_last_survivor, elimination_threshold=101)", "elimination_threshold"),
    ("viennese(match_end=fixed_hands)", "num_hands"),
    ("gin(oklahoma=true)", "oklahoma_spade_doubles"),
    ("german(match_end=penalty_limit)", "match_tiebreak"),  # ties at the penalty limit, not a series
    ("german_dskv(match_end=penalty_limit)", "match_tiebreak"),
]


@pytest.mark.parametrize(("rules_text", "option"), SWITCHED_ON)
def test_options_that_no_preset_uses_take_effect_where_switched_on(rules_text: str, option: str) -> None:
    """Options not applicable to any preset still prove their effect under the option that enables them."""
    rules = rk.Rules.parse(rules_text)
    report = check_option_effects(rules, options=(option,))
    assert {e.status for e in report.effects} <= {"effect", "refused"}
    assert any(e.status == "effect" for e in report.effects)


@pytest.mark.parametrize("name", rk.PRESET_NAMES)
def test_options_that_cannot_matter_are_refused_naming_the_option(name: str) -> None:
    rules = rk.Rules.preset(name)
    for option in OPTIONS:
        if rules.not_applicable(option) is None:
            continue
        for value in alternatives(rules, option):
            with pytest.raises(rk.RulesError) as info:
                rules.replace(**{option: value})
            assert info.value.option == option


@pytest.mark.parametrize("name", [n for n in rk.PRESET_NAMES if n != "gin"])
def test_gin_options_do_not_apply_to_any_current_preset(name: str) -> None:
    rules = rk.Rules.preset(name)
    for option in GIN_OPTIONS:
        assert rules.not_applicable(option) == "only gin (hand_scoring = gin_difference) uses it"
    with pytest.raises(rk.RulesError, match="gin_bonus: does not apply") as info:
        rules.replace(gin_bonus=20)
    assert info.value.option == "gin_bonus"


def test_gin_options_apply_to_gin() -> None:
    gin = rk.Rules.preset("gin")
    assert [option for option in GIN_OPTIONS if gin.not_applicable(option)] == ["oklahoma_spade_doubles"]
    assert gin.replace(oklahoma=True).not_applicable("oklahoma_spade_doubles") is None
    assert gin.replace(gin_bonus=20).gin_bonus == 20


def test_an_inapplicable_option_may_keep_its_value_when_the_rules_change_family() -> None:
    # Viennese rules turned into a melding game keep their knock options at viennese values.
    german = rk.Rules.preset("german")
    assert german.replace(ace_high_in_runs=False).allow_ace_both_ends  # kept: cannot matter
    assert not german.replace(ace_high_in_runs=False, allow_ace_both_ends=False).allow_ace_both_ends
    with pytest.raises(rk.RulesError, match="knock_extra_turn: does not apply"):
        german.replace(knock_extra_turn=True)
    with pytest.raises(rk.RulesError, match="opening_min_points"):
        rk.Rules.preset("viennese").replace(opening_min_points=40)


@pytest.mark.parametrize(
    ("changes", "option", "value"),
    [
        ({"match_end": "single_hand", "max_players": 4}, "deal_rotation", "winner_deals"),
        ({"max_stock_rebuilds": 0}, "stock_exhaustion", "turn_over_keep_top"),
        ({"max_stock_rebuilds": 0}, "stock_exhaustion", "turn_over_all_if_declined"),
    ],
)
def test_values_that_play_alike_are_reported_as_the_same(
    changes: dict[str, object], option: str, value: object
) -> None:
    """A single scored hand ends the match, so the winner never deals (at any table size); without
    a rebuild the hand ends when the stock runs out, however a new stock would have been built."""
    rules = rk.Rules.preset("german").replace(**changes)
    report = check_option_effects(rules, options=(option,))
    (effect,) = [e for e in report.effects if e.value == value]
    assert effect.status == "same", effect


def test_a_value_without_effect_is_reported() -> None:
    """The harness fails when an accepted value changes nothing: a declared equivalence is needed."""
    scala = rk.Rules.preset("scala40")
    report = check_option_effects(scala, options=("discard_pickup_requires_opened",))
    never = next(e for e in report.effects if e.value == "never")
    assert never.status == "same" and never.where == EQUIVALENT_VALUES[0][3]
    assert next(e for e in report.effects if e.value == "opened_before").status == "effect"


def test_buyback_window_cannot_reach_past_elimination() -> None:
    with pytest.raises(rk.RulesError, match="above elimination_threshold 101") as info:
        rk.Rules.preset("viennese").replace(buyback_window=(81, 150))
    assert info.value.option == "buyback_window"


def test_dealer_sits_out_only_at_a_table_that_can_be_seated() -> None:
    with pytest.raises(rk.RulesError) as info:
        rk.Rules.preset("german").replace(dealer_sits_out_at_table_of=7)
    assert info.value.option == "dealer_sits_out_at_table_of"


def test_joker_end_assignment_upward_default_refuses_a_low_declaration() -> None:
    rules = rk.Rules.preset("german").replace(joker_end_assignment="upward_default")
    run = rk.Meld.parse("5H 6H 7H", rules)
    assert run.layoff_ends(rk.JOKER, rules) == ("high",)
    with pytest.raises(rk.IllegalMeldError) as info:
        run.with_layoff(rk.JOKER, rules, "low")
    assert info.value.rule == "joker_end_assignment"
    declared = rk.Rules.preset("german")
    assert run.layoff_ends(rk.JOKER, declared) == ("low", "high")
    assert str(run.with_layoff(rk.JOKER, declared, "low")) == "JK(=4H) 5H 6H 7H"


# Seat draw -------------------------------------------------------------------------------------------


def test_high_card_draw_picks_the_highest_card_with_ties_and_jokers_redrawn() -> None:
    c = rk.Card.parse
    draw = FirstDealerDraw.from_rounds([[c("KS"), c("JK"), c("KD")], [c("2C"), c("AH"), c("9C")]], 3)
    assert draw.dealer == 1  # JK and the tied kings draw again; the ace is highest
    assert draw.describe(["Anna", "Ben", "Cleo"]) == [
        "Anna draws K♠, Ben draws a joker, Cleo draws K♦; Anna, Ben and Cleo draw again",
        "Anna draws 2♣, Cleo draws 9♣, Ben draws A♥ and deals first",
    ]
    draw = FirstDealerDraw.from_rounds([[c("QS"), c("JK"), c("7D")], [None, c("3C"), None]], 3)
    assert draw.dealer == 0  # the joker is redrawn alone and loses to the queen
    with pytest.raises(rk.NotationError):
        FirstDealerDraw.from_rounds([[c("KS"), c("KD")]], 2)  # a tie with no redraw


def test_the_ace_of_clubs_is_the_highest_card_of_the_draw() -> None:
    """RULES.md §3.2 and D21: A♣ is card 0, and ranks like any ace, not like a joker."""
    c = rk.Card.parse
    assert FirstDealerDraw.from_rounds([[c("AC"), c("KC"), c("2D")]], 3).dealer == 0
    with pytest.raises(rk.NotationError):
        FirstDealerDraw.from_rounds([[c("AC"), c("AC"), c("2D")]], 3)  # two aces tie: redrawn
    draw = draw_first_dealer(rk.Rules.preset("german"), 4, seed=14)
    # J♠, K♣, A♣ and 7♥ are the cards that count (two jokers were redrawn): A♣'s seat deals.
    kept = [next(row[s] for row in reversed(draw.rounds) if row[s] is not None) for s in range(4)]
    assert kept == [c("JS"), c("KC"), c("AC"), c("7H")] and draw.dealer == 2


def test_the_dealer_is_named_when_they_did_not_draw_in_the_last_round() -> None:
    """D21: only the jokers' players draw again, and both draw lower than the A♣ already on the table.
    The draw in words names the A♣'s player as the dealer, not the last player to draw (the terminal's
    German lines and the web's moves list: tests/test_play.py, tests/web/test_websocket.py)."""
    match = rk.Match.new(rk.Rules.preset("german"), 4, seed=14)
    draw = match.seat_draw
    assert draw is not None and draw.dealer == 2 and not draw.dealer_drew_last
    assert draw.dealer_card == rk.Card.parse("AC")
    assert draw.describe(["A", "B", "C", "D"]) == [
        "A draws a joker, B draws K♣, C draws A♣, D draws a joker; A and D draw again",
        "A draws J♠, D draws 7♥; C deals first with A♣",
    ]
    # A draw the dealer's card closes still says it in one line.
    closed = FirstDealerDraw.from_rounds([[rk.Card.parse("KS"), rk.Card.parse("5H")]], 2)
    assert closed.dealer_drew_last and closed.describe(["A", "B"]) == [
        "B draws 5♥, A draws K♠ and deals first"
    ]


def test_a_record_of_a_draw_that_ranked_the_ace_of_clubs_as_a_joker_still_loads() -> None:
    """Earlier versions ranked A♣ (card 0) as a joker: seat 0's A♣ was drawn again and seat 1's K♥
    dealt. A record of such a match keeps its dealer and replays; a dealer the rows cannot explain
    otherwise is still refused."""
    import json

    from rummykit.record import Record

    match = rk.Match.new(rk.Rules.preset("german"), 2, seed=3, dealer=1)
    for _ in range(6):
        match.apply(match.legal_actions()[0])
    data = Record.from_match(match).to_dict()
    data["seat_draw"] = {"method": "high_card", "dealer": 1, "rounds": [["AC", "KH"], ["5H", None]]}
    replayed = Record.from_dict(json.loads(json.dumps(data))).replay()
    assert replayed.seat_draw is not None and replayed.seat_draw.dealer == replayed.first_dealer == 1
    assert replayed.actions == match.actions
    data["seat_draw"] = {"method": "high_card", "dealer": 1, "rounds": [["AS", "KH"]]}  # no A♣: altered
    with pytest.raises(rk.NotationError, match="not the dealer its seat draw chose"):
        Record.from_dict(data)


def test_match_new_draws_for_the_first_dealer_unless_one_is_given() -> None:
    german = rk.Rules.preset("german")
    m = rk.Match.new(german, 3, seed=5)
    assert m.seat_draw == draw_first_dealer(german, 3, 5)
    assert m.seat_draw is not None and m.seat_draw.method == "high_card"
    assert m.dealer == m.first_dealer == m.round.dealer == m.seat_draw.dealer
    given = rk.Match.new(german, 3, seed=5, dealer=2)
    assert given.seat_draw is None and given.round.dealer == 2
    # The seed drives the deals the same way with or without the draw.
    assert rk.Match.new(german, 3, seed=5, dealer=m.dealer).round.deck == m.round.deck


def test_tournament_seating_is_by_lot() -> None:
    dskv = rk.Rules.preset("german_dskv")
    m = rk.Match.new(dskv, 4, seed=1)
    assert m.seat_draw is not None and m.seat_draw.method == "random" and m.seat_draw.rounds == ()
    assert m.seat_draw.describe(["A", "B", "C", "D"]) == [f"Seats by lot: {'ABCD'[m.dealer]} deals first"]
    dealers = {rk.Match.new(dskv, 4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_seat_draw_option_changes_the_match() -> None:
    german = rk.Rules.preset("german")
    by_cards = rk.Match.new(german, 4, seed=2)
    by_lot = rk.Match.new(german.replace(seat_draw="random"), 4, seed=2)
    assert by_cards.seat_draw != by_lot.seat_draw


def test_record_keeps_the_seat_draw_and_replays_it() -> None:
    m = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=3)
    m.apply(m.legal_actions()[-1])
    text = rk.Record.from_match(m).dumps()
    assert '"seat_draw"' in text
    replayed = rk.Record.loads(text).replay()
    assert replayed.seat_draw == m.seat_draw and replayed.dealer == m.dealer
    assert replayed.round.view(0) == m.round.view(0)
    tampered = text.replace(f'"dealer": {m.dealer}', f'"dealer": {(m.dealer + 1) % 3}', 1)
    with pytest.raises(rk.NotationError, match="dealer"):
        rk.Record.loads(tampered)


# Aliases and messages ------------------------------------------------------------------------------


@pytest.mark.parametrize("alias", ["101 Rummy", "Elimination Rummy", "elimination-rummy"])
def test_viennese_aliases(alias: str) -> None:
    assert rk.Rules.preset(alias).name == "viennese"


def test_the_extra_card_holder_is_told_to_start_without_drawing() -> None:
    vie = rk.Round.new(rk.Rules.preset("viennese"), 3, seed=1, dealer=0)
    with pytest.raises(WrongTurnError) as info:
        vie.apply("draw")
    expected = "draw: the dealer is dealt the extra card and starts without drawing: knock or discard"
    assert str(info.value) == expected
    assert info.value.rule == "one_draw_per_turn"
    german14 = rk.Round.new(rk.Rules.preset("german").replace(start_mode="dealer_extra_card"), 3, seed=1)
    with pytest.raises(WrongTurnError, match=r"dealer is dealt the extra card .* meld if you can, then"):
        german14.apply("take")
    later = rk.Round.new(rk.Rules.preset("german"), 3, seed=1)
    later.apply("draw")
    with pytest.raises(WrongTurnError, match="you have already drawn this turn"):
        later.apply("draw")


def test_a_second_knock_names_the_seat_and_front_ends_name_the_player() -> None:
    rules = rk.Rules.preset("viennese")
    hands = [
        "7H 8H 9H QS QD QC 2C 2D 2S 3H",
        "7C 8C 9C KS KD KC 4C 4D 4S 3D",
        "2H 3S 5D 6C 8S 10D JC QH KH AS",
    ]
    rnd = rk.Round.new(rules, 3, deck=arrange_deck(rules, 3, hands, extra="KH", stock="5S"), dealer=0)
    rnd.apply("knock KH")
    rnd.apply("draw")
    with pytest.raises(rk.IllegalActionError) as info:
        rnd.apply("knock 5S")
    assert "the player in seat 0 has already knocked" in str(info.value)
    assert info.value.rule == "knock_extra_turn"
    named = name_seats(str(info.value), ["Anna", "Ben", "Cleo"])
    assert named.endswith("Anna has already knocked; now you only draw and discard")


def test_runs_written_high_to_low_are_explained() -> None:
    with pytest.raises(rk.IllegalMeldError) as info:
        rk.Meld.parse("KH QH JH", rk.Rules.preset("german"))
    assert str(info.value) == "KH QH JH: runs are written low to high: JH QH KH"
    assert info.value.rule == "run_sequence"


def test_taken_discard_message_reads_well() -> None:
    rules = rk.Rules.preset("scala40")
    rnd = rk.Round.new(rules, 2, seed=0)
    with pytest.raises(rk.IllegalActionError) as info:
        rnd.apply("take")
    assert str(info.value) == (
        "take: JC must be laid this turn (discard_pickup_requires_meld), "
        "and you have no opening worth 40 points with it"
    )
    assert info.value.rule == "discard_pickup_requires_meld"


def test_no_buyback_offer_message_outside_a_rubber() -> None:
    m = rk.Match.new(rk.Rules.preset("german"), 2, seed=1)
    with pytest.raises(MatchDecisionError, match="buy-backs exist only in a knock-game rubber"):
        m.apply("buyback")
