"""What a German player types at ``rummykit play --lang de``: the words of the German help and hints
are read as moves (``anlegen K♥ an 1``, ``l 3 7 unten``, ``z``), a card token a German player may
mean as another card is refused rather than read silently (``DK``), refused melds in the wrong order
get the arranged order, and the end of a hand sums the cards left (issue: a beginner's audit at 80×24)."""

from __future__ import annotations

import contextlib
import io
import itertools
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import rummykit as rk
from rummykit.actions import Discard, Draw, LayOff, Open, Swap, TakeDiscard
from rummykit.bots import make_bot
from rummykit.cards import Card, parse_cards
from rummykit.cli import app, screen
from rummykit.cli.parsing import (
    META_COMMANDS,
    SHORT_VERBS,
    german_notation,
    legal_moves_lines,
    parse_input,
    short_error,
    short_help,
)
from rummykit.cli.play import Player, PlaySession
from rummykit.errors import NotationError
from rummykit.i18n import describe_action, face_letters, notation_letters
from rummykit.testing import arrange_deck

runner = CliRunner()
HAND = parse_cards("9C 10C QC JK AH AS AD 2D 5D 7S 9H 4H 6S KH")
"""A hand in display order: position 1 is 9C, 4 the joker, 14 KH."""


def refusal(line: str, lang: str = "de", letters: str = "de", hand: tuple[Card, ...] = HAND) -> str:
    """The one-line refusal of ``line`` as the terminal shows it."""
    with pytest.raises(NotationError) as caught:
        parse_input(line, hand, True, lang=lang, letters=letters)
    return short_error(caught.value, lang)


def german(line: str, hand: tuple[Card, ...] = HAND, opened: bool = True) -> rk.Action | str:
    return parse_input(line, hand, opened, lang="de", letters="de")


def session(lang: str, hand: str) -> tuple[PlaySession, rk.Match]:
    """A two-player German Rummy game where the person at seat 0 holds ``hand`` and moves first."""
    rules = rk.Rules.preset("german")
    other = "2H 3D 4D 5C 6C 7C 8S 9S 10S JD QD KD 3S"
    deck = arrange_deck(rules, 2, [hand, other], stock="8H", dealer=1)
    match = rk.Match.new(rules, 2, deck=deck, dealer=1)
    console = Console(width=80, height=24, record=True, file=io.StringIO())
    bot = make_bot("greedy")
    players = [Player("Du"), Player("Bot 2", bot, "greedy")]
    return PlaySession(match, players, console, lambda prompt: "", lang=lang), match


def answer(s: PlaySession, line: str) -> str:
    """What the session prints for ``line`` on 80 columns, lines joined ("" when it was a move)."""
    shown = s.handle(0, line)
    if shown is None:
        return ""
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(screen.Lettered(shown, s.letters))
    return " ".join(console.export_text().split())


# 1. The German lay-off and exchange words --------------------------------------------------------------
def test_german_lay_off_and_exchange_words_are_read() -> None:
    layoff = LayOff(Card.parse("KH"), 1)
    for line in ("anlegen K♥ an 1", "anlegen KH an Figur 1", "anlegen 14 auf 1", "ANLEGEN kh AN figur 1",
                 "l 14 Figur 1", "anlegen KH 1", "l 14 1", "layoff KH on 1"):  # fmt: skip
        assert german(line) == layoff, line
    swap = Swap((Card.parse("5H"),), 2)
    for line in ("tauschen 5H gegen 2", "tauschen 5H gegen Figur 2", "tausche 5h GEGEN 2",
                 "tauschen 5H gegen den Joker von Figur 2", "swap 5H on 2"):  # fmt: skip
        assert german(line) == swap, line
    # As the log words an exchange freeing two jokers, or one of several cards without the table.
    two = rk.Action.parse("swap 9C 10C on 2")
    assert german("9♣ 10♣ gegen zwei Joker von Figur 2 tauschen") == two
    assert german("9♣ 10♣ gegen Joker von Figur 2 tauschen") == two
    full = rk.Action.parse("swap 9C on 2 then meld AH AS JK then layoff JK on 3 low")
    assert german("tauschen 1 gegen 2 dann auslegen 5 6 4 dann anlegen JK an 3 unten") == full
    assert german("tauschen 9C gegen 2 dann auslegen AH AS JK dann anlegen JK 3 unten") == full
    # English is read as before.
    assert parse_input("swap 1 on 2 then meld 5 6 4 then layoff JK on 3 low", HAND, True) == full


@pytest.mark.parametrize(
    "line", ["swap 6C on 3 then layoff JK", "tauschen 6C gegen 3 dann anlegen JK", "swap 1 on 2 then layoff"]
)
def test_a_then_layoff_without_its_meld_is_refused_not_a_crash(line: str) -> None:
    """A ``then layoff`` clause that ends after its card (or before it) indexed past the line's end:
    an IndexError, and the terminal game ended with a traceback."""
    with pytest.raises(NotationError):
        parse_input(line, HAND, True, lang="de", letters="de")
    with pytest.raises(NotationError):
        parse_input(line, HAND, True)


def test_any_line_of_move_words_is_a_move_a_command_or_a_refusal() -> None:
    """Lines put together from the words the terminal knows, in any order and number: the reader
    answers each with an action, a command's name or a NotationError, never another exception."""
    verbs = [*SHORT_VERBS, *META_COMMANDS, "then", "dann", "layoff", "swap", "meld", "anlegen", "tauschen"]
    words = [*verbs, "on", "low", "high", "|", "an", "auf", "gegen", "unten", "oben", "Figur", "den",
             "Joker", "von", "der", "vom", "Stoß", "Ablage", "Pik-7", "Kreuz-Buben", "DK", "7P", "KH", "JK",
             "10C", "0", "1", "2", "14", "99", "-", "=", "ZZ"]  # fmt: skip
    rng = random.Random(11)
    for _ in range(20_000):
        line = " ".join(rng.choice(words if i else verbs) for i in range(rng.randint(1, 8)))
        for lang, letters, gin in (("de", "de", False), ("en", "en", False), ("de", "de", True)):
            with contextlib.suppress(NotationError):
                parse_input(line, HAND, rng.random() < 0.5, lang=lang, letters=letters, gin=gin)


def test_a_refused_lay_off_or_exchange_quotes_the_line_and_gives_the_players_example() -> None:
    assert refusal("anlegen KH an") == "Kein Anlegen: 'anlegen KH an' (z. B. „anlegen 5H an 2“ oder „l 4 2“)"
    assert refusal("anlegen 5H 6H 7H", lang="en") == (
        "not a lay-off: 'anlegen 5H 6H 7H' (e.g. 'layoff 5H on 2' or 'l 4 2')"
    )
    assert refusal("tauschen 5H Figur") == (
        "Kein Jokertausch: 'tauschen 5H Figur' (z. B. „tauschen 6C gegen 3 dann auslegen 8D 9D JK“ "
        "oder „tauschen 4 gegen 3“)"
    )
    with pytest.raises(NotationError) as caught:
        parse_input("anlegen 5H 6H", HAND, True, lang="de", letters="de", gin=True)
    assert short_error(caught.value, "de") == "Kein Anlegen: 'anlegen 5H 6H' (z. B. „anlegen 5H“ oder „l 4“)"


def test_every_move_the_german_help_lists_is_typed_as_it_stands() -> None:
    """The German help lists the moves with the German verbs (``ziehen · nehmen``, ``anlegen KH an 2``,
    ``tauschen 6C gegen 3 dann auslegen …``), in the table's letters; each reads back as that move."""
    verbs = set()
    for preset, seeds in (("german", range(4)), ("viennese", range(2)), ("gin", range(2))):
        for seed in seeds:
            m = rk.Match.new(rk.Rules.preset(preset), 2, seed=seed, dealer=1)
            bot, rng = make_bot("greedy"), random.Random(seed)
            first = m.round
            while m.round is first and not first.is_over:
                view = m.round.view(m.to_move)
                hand = screen.sorted_hand(view.hand, "suit")
                opened = view.opened[m.to_move] or view.rules.is_gin
                for action in m.legal_actions():
                    typed = notation_letters(german_notation(str(action)), "de")
                    verbs.add(typed.split(" ")[0])
                    assert german(typed, hand, opened) == action, typed
                english = set(SHORT_VERBS.values()) - {"rummy"}
                lines = legal_moves_lines(m.legal_actions(), m.rules, "de")
                assert not any(line.split()[0] in english for line in lines), lines
                m.apply(bot.choose(view, m.legal_actions(), rng))
    assert {"ziehen", "nehmen", "auslegen", "anlegen", "tauschen", "abwerfen", "klopfen", "rummy",
            "passen"} <= verbs  # fmt: skip
    assert legal_moves_lines([Draw(), TakeDiscard()], None, "de") == ["  ziehen  ·  nehmen"]
    offer = [rk.Action.parse("buyback"), rk.Action.parse("decline")]
    assert legal_moves_lines(offer, None, "de") == ["  zurückkaufen  ·  ablehnen"]
    for line in ("zurückkaufen", "ablehnen"):
        assert german(line) in offer
    # The short forms the German help shows, typed with positions in HAND.
    assert german("l 14 1") == LayOff(Card.parse("KH"), 1)
    assert german("m 1 2 4 3", opened=False) == rk.Action.parse("open 9C 10C JK QC")
    assert german("tauschen 14 gegen 2 dann auslegen 5 6 4") == rk.Action.parse(
        "swap KH on 2 then meld AH AS JK"
    )
    assert german("passen") == rk.Action.parse("pass") and german("x 5") == Discard(Card.parse("AH"))


# 2. The hint's words -----------------------------------------------------------------------------------
def test_the_german_hints_words_are_read() -> None:
    """``unten``/``oben`` choose a run's end, and a step of the German hint typed as it stands (the
    verb last, cards in words or as shown) is that move."""
    assert german("l 3 7 unten") == LayOff(Card.parse("QC"), 7, "low")
    assert german("anlegen 3 an 7 oben") == LayOff(Card.parse("QC"), 7, "high")
    steps = [
        LayOff(Card.parse("7S"), 7, "low"),
        LayOff(Card.parse("JC"), 2),
        Discard(Card.parse("JC")),
        Discard(Card.parse("AS")),
        rk.Action.parse("open QC QD QS | AH AS JK"),
        rk.Action.parse("meld 9C 10C JK QC"),
        Draw(),
        TakeDiscard(),
    ]
    for step in steps:
        hint = face_letters(describe_action(step, "de", form="verb"), "de")
        assert german(hint, opened=not isinstance(step, Open)) == step, hint
    assert german("Pik-7 an Figur 7 unten anlegen") == LayOff(Card.parse("7S"), 7, "low")
    assert german("Kreuz-Buben abwerfen") == Discard(Card.parse("JC"))
    assert german("vom Stoß ziehen") == Draw() and german("von der Ablage nehmen") == TakeDiscard()


def test_every_move_in_the_words_the_hints_and_the_log_write_is_read() -> None:
    """A move in German words as the hint writes it (``Pik-7 von der Ablage nehmen``, ``klopfen und
    Pik-2 abwerfen``, ``einen Joker an Figur 1 anlegen``, ``Karo-5 gegen einen Joker von Figur 2
    tauschen und … auslegen``, ``bei der offenen Karte passen``) and as the undo line writes it (a
    meld's joker with the card it stands for) is that move: every legal move of random games."""
    kinds: set[str] = set()
    for preset, players in (("german", 3), ("german_dskv", 4), ("viennese", 3), ("scala40", 2), ("gin", 2)):
        for seed in range(4):
            rnd = rk.Round.new(rk.Rules.preset(preset), players=players, seed=seed)
            rng = random.Random(seed)
            for _ in range(300):
                if rnd.is_over:
                    break
                view = rnd.view(rnd.to_move)
                hand = screen.sorted_hand(view.hand, "suit")
                opened = view.opened[view.seat] or view.rules.is_gin
                done = view.gin.layoffs_done if view.gin is not None else None
                for action in rnd.legal_actions():
                    for meld_rules in (None, view.rules):
                        words = describe_action(
                            action, "de", form="verb", taken=view.top_discard, phase=view.phase,
                            layoffs_done=done, meld_rules=meld_rules,
                        )  # fmt: skip
                        typed = face_letters(words, "de")
                        got = parse_input(typed, hand, opened, lang="de", letters="de", top=view.top_discard)
                        assert got == action, typed
                    kinds.add(type(action).__name__)
                rnd.apply(rng.choice(rnd.legal_actions()))
    played = {"Draw", "TakeDiscard", "Open", "MeldAction", "LayOff", "Swap", "Discard", "Knock", "Pass"}
    assert played <= kinds


def test_lines_near_the_german_phrases_are_refused_as_typed() -> None:
    """A knock without its card is not a bare knock; a leading "joker" of an English line stays the
    word typed; a superscript digit is no position (it ended the game with a ValueError)."""
    for line in ("klopfen und abwerfen", "x ²", "l 4 ²", "joker on 2"):
        with pytest.raises(NotationError) as caught:
            german(line)
        assert "'JK'" not in str(caught.value)
    assert "'joker'" in refusal("joker on 2", "en", "en")


def test_a_take_in_words_must_name_the_top_card() -> None:
    """``Pik-7 von der Ablage nehmen`` takes the top card only when it is the seven of spades; else the
    player is told what the pile shows, in their language."""
    top = Card.parse("7S")
    assert parse_input("Pik-7 von der Ablage nehmen", HAND, True, lang="de", top=top) == TakeDiscard()
    assert parse_input("7♠ von der Ablage nehmen", HAND, True, lang="de", top=top) == TakeDiscard()
    with pytest.raises(NotationError) as caught:
        parse_input("Pik-8 von der Ablage nehmen", HAND, True, lang="de", top=top)
    assert short_error(caught.value, "de") == "Auf der Ablage liegt Pik-7, nicht Pik-8"
    assert short_error(caught.value, "en") == "the discard pile shows 7♠, not 8♠"


def test_a_position_past_a_hand_of_one_card_is_refused_in_the_singular() -> None:
    """One card left: "your hand has 1 card" / "Deine Hand hat 1 Karte", not "1 cards (1–1)"."""
    one = parse_cards("7S")
    assert refusal("x 5", hand=one) == "Keine Karte an Stelle 5: Deine Hand hat 1 Karte"
    assert refusal("x 5", lang="en", letters="en", hand=one) == "no card at position 5: your hand has 1 card"
    assert refusal("x 15") == "Keine Karte an Stelle 15: Deine Hand hat 14 Karten (1–14)"


# 3. Card tokens a German player may mean as another card -----------------------------------------------
def test_dk_is_refused_with_german_letters_and_says_how_to_type_each_card() -> None:
    assert refusal("x DK") == "'DK' ist mehrdeutig: Karo-König ist KD, Karo-Dame DD, Kreuz-Dame DC"
    assert refusal("m dk DD DH").startswith("'dk' ist mehrdeutig")
    assert german("x KD") == Discard(Card.parse("KD")) and german("x DD") == Discard(Card.parse("QD"))
    assert german("x DC") == Discard(Card.parse("QC")) and german("x ♦K") == Discard(Card.parse("KD"))
    # English letters, and the engine's own notation (records, the web), read DK as before.
    assert parse_input("x DK", HAND, True) == Discard(Card.parse("KD"))
    assert parse_input("x DK", HAND, True, lang="de", letters="en") == Discard(Card.parse("KD"))
    assert Card.parse("DK") == Card.parse("KD") and rk.Action.parse("discard DK") == Discard(Card.parse("KD"))


def test_only_dk_is_ambiguous() -> None:
    """``D`` is the one letter that is a suit (diamonds) and a German rank (Dame), ``K`` the one
    German suit initial (Kreuz, Karo) that is a rank: no other token the notation reads is refused."""
    refused = set()
    for a, b in itertools.product("A23456789TJQKBDCHSPX♣♦♥♠", repeat=2):
        try:
            Card.parse(a + b)
        except NotationError:
            continue
        try:
            german(f"x {a}{b}")
        except NotationError:
            refused.add(a + b)
    assert refused == {"DK"}


def test_unknown_suit_letters_are_explained_in_german() -> None:
    explained = (
        "(Farbe als Buchstabe hinter dem Wert: C = Kreuz, D = Karo, H = Herz, S = Pik; "
        "oder die Position in der Hand: x 5)"
    )
    assert refusal("x 7P") == f"Keine Karte: '7P' {explained}"
    assert refusal("anlegen 7Kr an 1") == f"Keine Karte: '7Kr' {explained}"
    assert refusal("m AK AH AS") == f"Keine Karte: 'AK' {explained}"
    assert refusal("x 7Pik") == f"Keine Karte: '7Pik' {explained}"
    assert refusal("x ZZ") == "Keine Karte: 'ZZ' (Karten: DS, 10H, JK; oder ihre Stelle)"
    assert refusal("x Q" + "Q" * 20).endswith("(Karten: DS, 10H, JK; oder ihre Stelle)")  # no suit typed
    # English: as before.
    assert refusal("x 7P", lang="en", letters="en") == "not a card: '7P' (cards: QS, 10H, JK; or a position)"


# 4. The German short forms -----------------------------------------------------------------------------
def test_z_and_n_draw_and_take_and_collide_with_nothing() -> None:
    assert german("z") == Draw() and german("n") == TakeDiscard()
    assert german("Z") == Draw() and german("N") == TakeDiscard()
    assert not set(SHORT_VERBS) & set(META_COMMANDS)
    assert "d/z ziehen · t/n von der Ablage nehmen" in short_help("de", rk.Rules.preset("german"))
    assert short_help("en", rk.Rules.preset("german")).startswith("short forms: d draw · t take · m")


def test_the_german_help_lists_german_verbs(data_dir: Path) -> None:
    out = runner.invoke(
        app,
        ["play", "--fast", "--lang", "de", "--rules", "german", "--players", "2", "--seed", "3",
         "--bots", "greedy", "--dealer", "2", "--no-save"],
        input="hilfe\nz\nhilfe\nende\n",
    ).output  # fmt: skip
    assert "Erlaubte Züge (so eintippen wie hier; draw, layoff … gehen auch):\n  ziehen  ·  nehmen\n" in out
    assert "> Du ziehst Herz-Ass vom Stoß" in out and "Unbekannter Befehl 'z'" not in out
    assert "  auslegen DC DD DS | AH AS JK\n" in out
    assert "  abwerfen 4C 9C BC DC 2D 8D 10D DD AH AS 4S BS DS JK\n" in out
    assert all(len(line) <= 80 for line in out.splitlines())


# 5. A meld typed in another order ----------------------------------------------------------------------
def test_a_meld_in_the_wrong_order_is_answered_with_the_arranged_order() -> None:
    s, _ = session("de", "9C 10C QC JK AH AS AD 2D 5D 7S 9H 4H 6S")
    s.handle(0, "d")
    assert answer(s, "m 9C 10C DC JK").endswith("[Reihenfolge einer Folge] · meintest du 9♣ 10♣ JK D♣?")
    assert answer(s, "m 9C DC 10C JK | AS AH AD").endswith("· meintest du 9♣ 10♣ JK D♣ | A♠ A♥ A♦?")
    # The engine names a reversed run's order itself: said once.
    reversed_run = answer(s, "m DC JK 10C 9C")
    assert "geschrieben: 9♣ 10♣ JK D♣" in reversed_run and "meintest" not in reversed_run
    # No order makes a meld: nothing to suggest.
    assert "meintest" not in answer(s, "m 9C 10C DC")
    english, _ = session("en", "9C 10C QC JK AH AS AD 2D 5D 7S 9H 4H 6S")
    english.handle(0, "d")
    assert answer(english, "m 9C 10C QC JK").endswith("[order of a run] · did you mean 9♣ 10♣ JK Q♣?")
    assert answer(english, "m 9C 10C JK QC | AH AS AD") == ""  # the suggestion is a legal move


# 6. The cards left at the end of a hand ----------------------------------------------------------------
@pytest.mark.parametrize(("lang", "header"), [("de", "Karten übrig"), ("en", "cards left")])
def test_the_cards_left_at_the_end_of_a_hand_show_their_sum(data_dir: Path, lang: str, header: str) -> None:
    out = runner.invoke(
        app,
        ["play", "--fast", "--lang", lang, "--rules", "german", "--players", "3", "--seed", "3",
         "--bots", "greedy", "--dealer", "3", "--no-save", "--set", "match_end=single_hand"],
        input="auto\n" * 200,
    ).output  # fmt: skip
    table = out.split(header, 1)[1].split("\n")[1:4]
    # Each hand that kept cards ends with their sum, and this single hand scores it as minus points.
    sums = [re.search(r" = (\d+) +(-?\d+) +(-?\d+)$", row) for row in table]
    kept = [m for m in sums if m is not None]
    assert len(kept) == 2 and all(int(m.group(1)) == -int(m.group(2)) > 0 for m in kept), table
    assert all(len(line) <= 80 for line in out.splitlines())
