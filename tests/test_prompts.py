"""The terminal's status line of the seat to move (``rummykit.cli.prompts``), for the states a
whole game does not always pass through: the buy-back offer of a rubber and gin's phases."""

from __future__ import annotations

import random
from collections.abc import Callable

import rummykit as rk
from rummykit.actions import BuyBack, CallRummy, Knock, KnockDeclare, Pass
from rummykit.bots import GreedyBot
from rummykit.cli.parsing import parse_input
from rummykit.cli.prompts import GIN_PROMPTS, is_quit, turn_prompt
from rummykit.views import Phase


def test_the_buy_back_offer_names_the_score_and_the_price_within_80_columns(
    rubber_at_a_buyback: Callable[[], rk.Match],
) -> None:
    """The score is the total's negative (it said both, "-79 (79 Restpunkte)", the German reading
    the match's total as a hand's deadwood), with the score the buy-back leaves (the choice depends on
    it), and the line ran past 80 columns."""
    match = rubber_at_a_buyback()
    assert BuyBack() in match.legal_actions()
    seat = match.to_move
    score, cost = match.scores[seat], match.rules.buyback_cost
    target = match.buyback_target(seat)
    assert target is not None and target < match.totals[seat]
    after = -target  # the score the buy-back leaves (a rubber's score is its total, negative)
    english = turn_prompt(match, seat, None, "en").plain
    assert english == f"Your score is {score}: buy back to {after} for {cost} chips (b) or decline?"
    german = turn_prompt(match, seat, "Ben", "de").plain
    offer = f"für {cost} Chips auf {after} zurückkaufen (b) oder ablehnen?"
    assert german == f"Stand von Ben ist {score}: {offer}"
    assert len(turn_prompt(match, seat, "Annemarie", "de").plain) <= 80


def test_gin_prompts_follow_the_phase_in_both_languages() -> None:
    match = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3, dealer=1)
    assert match.round.phase is Phase.FIRST_UPCARD
    first = turn_prompt(match, match.to_move, None, "en").plain
    assert first == "Your turn: take the upcard (t) or pass   help · hint · quit" and len(first) <= 80
    both_passed = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3, dealer=1)
    both_passed.apply("pass")
    both_passed.apply("pass")
    assert turn_prompt(both_passed, both_passed.to_move, None, "en").plain == (
        "Your turn: both passed on the upcard: draw (d)   help · hint · quit"
    )
    german = turn_prompt(both_passed, both_passed.to_move, None, "de").plain
    assert "beide haben gepasst: ziehen (d)" in german
    match.apply("take")
    assert match.round.phase is Phase.DISCARD
    assert KnockDeclare() not in match.legal_actions()  # no knock is offered where none is legal
    assert turn_prompt(match, match.to_move, None, "de").plain == (
        "Dein Zug: abwerfen (x N)   hilfe · tipp · ende"
    )
    named = turn_prompt(match, match.to_move, "Ann", "en").plain
    assert named == "Ann's turn: discard (x N)   help · hint · quit"


def test_the_gin_prompt_lists_the_moves_legal_after_the_draw_the_knock_and_the_lay_offs() -> None:
    """A knock is offered only where it is legal, and lay-offs only until the player passed on
    them (both were offered and then refused when typed)."""
    from rummykit.testing import arrange_deck

    gin = rk.Rules.preset("gin")
    hands = ["AH 2H 3H 5C 5D 5S 9C 10C JC 4D", "2C 3C 4C 6D 7D 8D 6H 7H 8H 5H"]
    deck = arrange_deck(gin, 2, hands, dealer=1, upcard="KD")
    match = rk.Match.new(gin, 2, seed=1, dealer=1, deck=deck)

    def play(*moves: str) -> None:
        for move in moves:
            match.apply(move)

    play("take")
    line = turn_prompt(match, 0, None, "en").plain
    assert line == "Your turn: discard (x N) or knock (k; k N discards N)   help · hint · quit"
    play("knock", "discard KD")
    assert turn_prompt(match, 0, None, "en").plain.startswith("Your turn: after the knock: meld (m …)")
    play("meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC", "pass")
    assert turn_prompt(match, 1, None, "en").plain.startswith("Your turn: lay off (l N) or pass")
    play("layoff 5H", "pass")
    assert turn_prompt(match, 1, None, "de").plain.startswith("Dein Zug: auslegen (m …) oder passen")
    play("meld 2C 3C 4C", "meld 6D 7D 8D", "meld 6H 7H 8H")
    assert turn_prompt(match, 1, None, "de").plain.startswith("Dein Zug: keine Figur mehr auszulegen: passen")


def test_a_gin_defender_with_nothing_to_lay_off_is_told_why_passing_is_all() -> None:
    """Where nothing of the defender's fits the knocker's melds, the line does not read as a bare
    "pass": it says nothing fits."""
    from rummykit.testing import arrange_deck

    gin = rk.Rules.preset("gin")
    hands = ["AH 2H 3H 5C 5D 5S 9C 10C JC 4D", "2C 3C 4C 6D 7D 8D 10H QH KS 9S"]
    match = rk.Match.new(gin, 2, seed=1, dealer=1, deck=arrange_deck(gin, 2, hands, dealer=1, upcard="KD"))
    for move in ("take", "knock", "discard KD", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC", "pass"):
        match.apply(move)
    assert match.legal_actions() == [rk.Action.parse("pass")]
    english = turn_prompt(match, 1, None, "en").plain
    assert english == "Your turn: nothing fits the knocker's melds: pass   help · hint · quit"
    german = turn_prompt(match, 1, None, "de").plain
    assert german == "Dein Zug: nichts passt an die Figuren: passen   hilfe · tipp · ende"


def test_every_quit_word_stops_and_nothing_else_does() -> None:
    assert all(is_quit(word) for word in ("quit", " Q ", "exit", "ende", "beenden"))
    assert not any(is_quit(word) for word in ("", "help", "quite", "d"))


def test_every_gin_prompt_fits_an_80_column_line() -> None:
    """The line is "Your turn: <what>   help · hint · quit"; a longer one wrapped its keys onto a line
    of their own."""
    from rummykit.cli.prompts import GIN_OTHER_PHASES

    longest = (
        ("discard (x N) or knock (k; k N discards N)", "abwerfen (x N) oder klopfen (k; k N wirft N ab)"),
        ("lay off (l N), meld (m …) or pass", "anlegen (l N), auslegen (m …) oder passen"),
        ("nothing fits the knocker's melds: pass", "nichts passt an die Figuren: passen"),
    )
    for en, de in [*GIN_PROMPTS.values(), GIN_OTHER_PHASES, *longest]:
        assert len(f"Your turn: {en}   help · hint · quit") <= 80, en
        assert len(f"Dein Zug: {de}   hilfe · tipp · ende") <= 80, de


def test_the_german_gin_prompts_name_no_english_command() -> None:
    """German "passen" is typed as it reads: the first-upcard prompt does not add "(pass)"."""
    german = GIN_PROMPTS[Phase.FIRST_UPCARD][1]
    assert german == "die offene Karte nehmen (t) oder passen" and "(pass)" not in german
    assert all("(pass)" not in de for _, de in GIN_PROMPTS.values())
    assert parse_input("passen", (), True, lang="de") == Pass()


def _after_a_knock() -> rk.Match:
    """A Viennese match at the first extra turn after a knock (RULES.md §4.5), in the play phase."""
    bot, rng = GreedyBot(), random.Random(5)
    for seed in range(40):
        match = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=seed)
        while not match.is_over and match.round.view(match.to_move).knocker is None:
            match.apply(bot.choose(match.round.view(match.to_move), match.legal_actions(), rng))
        if not match.is_over and not match.round.is_over:
            match.apply("draw")
            return match
    raise AssertionError("no knock in 40 games")


def test_after_a_knock_the_prompt_offers_only_the_discard_and_names_the_last_turn() -> None:
    """In the extra turns after a knock nobody may knock or call Rummy (RULES.md §4.5): the line says
    who knocked and that this is the seat's last turn, and offers only what is legal."""
    match = _after_a_knock()
    seat, knocker = match.to_move, match.round.view(match.to_move).knocker
    assert knocker is not None and seat != knocker
    assert not any(isinstance(a, (Knock, CallRummy)) for a in match.legal_actions())
    names = ["Du", "Bot 2", "Bot 3"]
    german = turn_prompt(match, seat, None, "de", names).plain
    assert german.startswith(f"{names[knocker]} hat geklopft – dein letzter Zug: abwerfen (x N)")
    assert "klopfen (k" not in german and "Rummy" not in german
    english = turn_prompt(match, seat, None, "en", ["You", "Bot 2", "Bot 3"]).plain
    assert english.startswith(f"{['You', 'Bot 2', 'Bot 3'][knocker]} knocked – your last turn: discard (x N)")
    assert "knock (k" not in english and "rummy" not in english
    hot_seat = turn_prompt(match, seat, "Ben", "de", ["Anna", "Ben", "Cleo"]).plain
    assert hot_seat.startswith(f"{['Anna', 'Ben', 'Cleo'][knocker]} hat geklopft – letzter Zug von Ben: ")
    assert all(len(line) <= 80 for line in (german, english, hot_seat))


def test_the_knock_game_prompt_offers_the_knock_and_rummy_only_when_legal() -> None:
    """Before a knock the line offers the knock only when the hand allows it (a prompt that always
    offered it invited refused moves)."""
    bot, rng = GreedyBot(), random.Random(1)
    match = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=4)
    seen = set()
    while match.round.view(match.to_move).knocker is None and len(seen) < 2:
        legal = match.legal_actions()
        prompt = turn_prompt(match, match.to_move, None, "de").plain
        if any(isinstance(a, Knock) for a in legal):
            assert prompt.startswith("Dein Zug: abwerfen (x N) oder klopfen (k N)")
            seen.add("knock")
        elif "abwerfen" in prompt and not any(isinstance(a, CallRummy) for a in legal):
            assert prompt == "Dein Zug: abwerfen (x N)   hilfe · tipp · ende"
            seen.add("discard only")
        match.apply(bot.choose(match.round.view(match.to_move), legal, rng))
    assert seen == {"discard only", "knock"}


def test_gin_at_the_wall_offers_the_knock_only_where_the_upcard_allows_it() -> None:
    """The wall's prompt offered "klopfen (k)" where knocking was refused (the upcard leaves too much
    deadwood); it offers passing alone then, and says the knock is with the upcard where it is not."""
    import random

    from rummykit.actions import Knock, KnockDeclare
    from rummykit.cli.prompts import GIN_PROMPTS

    match = rk.Match.new(rk.Rules.preset("gin"), 2, seed=0, dealer=1)
    rng = random.Random(0)
    while match.round.phase is not Phase.WALL:
        legal = match.legal_actions()
        match.apply(rng.choice([a for a in legal if not isinstance(a, (Knock, KnockDeclare))] or legal))
    assert not any(isinstance(a, (Knock, KnockDeclare)) for a in match.legal_actions())
    german = turn_prompt(match, match.to_move, None, "de").plain
    assert german == "Dein Zug: Mauer: passen (das Spiel endet ohne Wertung)   hilfe · tipp · ende"
    assert "mit offener Karte klopfen" in GIN_PROMPTS[Phase.WALL][1]
