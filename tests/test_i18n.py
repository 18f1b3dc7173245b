"""The message catalogue (German and English): every engine error, moves, labels, the language switch.

The engine's sources are read to find every rule id and message the engine can raise, so the
catalogue cannot fall behind the engine unnoticed; arranged situations check representative messages.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

import rummykit as rk
from rummykit import errors as rk_errors
from rummykit.actions import Action
from rummykit.errors import IllegalActionError, NotationError, RummyError
from rummykit.explain.terms import OPTION_LABELS
from rummykit.i18n import (
    LABEL_KEYS,
    describe_action,
    error_texts,
    label,
    labels,
    lang_from_env,
    localize_error,
    localize_message,
    normalize_lang,
    rule_name,
)
from rummykit.i18n.catalogue import ERRORS, FRAGMENTS
from rummykit.i18n.localize import people_english, skeleton
from rummykit.revisions import RULES_REVISION
from rummykit.testing import arrange_deck

SRC = Path(rk.__file__).parent
ENGINE = sorted(p for p in SRC.glob("*.py"))
"""The engine's modules (front ends, bots and tools live in sub-packages)."""
NOTATION_SOURCES = [SRC / "actions.py", SRC / "cards.py", SRC / "melds.py", SRC / "cli" / "parsing.py"]
"""Where the notation errors of what a player types come from (records and files have their own)."""
FILE_SOURCES = [
    SRC / "record.py",
    SRC / "seating.py",
    SRC / "selfplay.py",
    SRC / "cli" / "saves.py",
    SRC / "cli" / "replay.py",
    SRC / "record_seats.py",
]
"""Where the notation errors of files come from (records, saved games, self-play runs): a person
reads them too (``rummykit replay``, ``rummykit play --resume``)."""
POSITION_SOURCES = [SRC / "match.py"]
"""Where the rules errors of a record's start (its seat draw, its position) come from."""
FRAGMENT_FUNCTIONS = {"joker_count_problem", "no_buyback_offer"}
"""Engine functions that build a part of a message (the reason after a colon)."""
ENGLISH_WORDS = re.compile(r"\b(the|you|your|not|cannot|must|meld|may|only|first|with|lay)\b")
QUOTED = re.compile(r"„[^“]*“|'[^']*'")
"""Quoted notation (``„meld“``, ``'abc'``) is the same in every language."""


def english_words(text: str) -> list[str]:
    return ENGLISH_WORDS.findall(QUOTED.sub("", text))


def _template(node: ast.expr) -> str | None:
    """An engine message as a template: literal text, each interpolated expression ``{…}``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
            for v in node.values  # type: ignore[attr-defined]
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left), _template(node.right)
        return (left if left is not None else "{x}") + (right if right is not None else "{x}")
    return None


def _error_class(node: ast.Call) -> type | None:
    name = node.func.id if isinstance(node.func, ast.Name) else None
    cls = getattr(rk_errors, name, None) if name else None
    return cls if isinstance(cls, type) and issubclass(cls, RummyError) else None


def engine_messages() -> Iterator[tuple[str, str | None, str]]:
    """(where, rule id or None when computed, template) of every message the engine can raise."""
    for path in sorted({*ENGINE, *NOTATION_SOURCES, *FILE_SOURCES}):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and node.args:
                cls = _error_class(node)
                if cls is None or not issubclass(
                    cls, (IllegalActionError, rk_errors.IllegalMeldError, NotationError)
                ):
                    continue
                if cls is NotationError and path not in [*NOTATION_SOURCES, *FILE_SOURCES]:
                    continue
                text = _template(node.args[0])
                rule = node.args[1] if len(node.args) > 1 else None
                if text is not None:
                    literal = rule.value if isinstance(rule, ast.Constant) else None
                    yield where, "notation" if cls is NotationError else literal, text
            elif (
                isinstance(node, ast.Return)
                and isinstance(node.value, ast.Tuple)
                and len(node.value.elts) == 2
            ):
                text, rule = _template(node.value.elts[0]), node.value.elts[1]
                if text is not None and isinstance(rule, ast.Constant) and isinstance(rule.value, str):
                    yield where, rule.value, text


def fragment_messages() -> Iterator[tuple[str, str]]:
    """(where, template) of the message parts built by :data:`FRAGMENT_FUNCTIONS` and the exchange reasons."""
    for path in ENGINE:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name in FRAGMENT_FUNCTIONS:
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and ret.value is not None:
                        text = _template(ret.value)
                        if text is not None:
                            yield f"{path.name}:{ret.lineno}", text
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "_EXCHANGE_REASONS" for t in node.targets
            ):
                assert isinstance(node.value, ast.Dict)
                for value in node.value.values:
                    text = _template(value)
                    assert text is not None
                    yield f"{path.name}:{value.lineno}", text


REASON_FUNCTIONS = {"_not_gin"}
"""Functions of ``rules.py`` whose first argument is a reason an option cannot matter."""


def rules_messages() -> Iterator[tuple[str, str]]:
    """(where, template) of every refusal of ``rules.py``'s validation (``fail(option, why)`` raises
    ``"option: why"``) and of ``rules_text.py``, the refusals of a match's start
    (:data:`POSITION_SOURCES`), and every reason an option cannot matter (the
    ``_APPLIES`` tests' returned texts), which the refusals nest."""
    for path in (SRC / "rules.py", SRC / "rules_text.py", *POSITION_SOURCES):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                if node.func.id == "fail" and len(node.args) == 2:
                    text = _template(node.args[1])
                    assert text is not None, where
                    yield where, "{option}: " + text
                elif node.func.id == "RulesError":
                    text = _template(node.args[0])
                    if text is not None and not text.startswith("{option}: "):
                        yield where, text
                elif node.func.id in REASON_FUNCTIONS:
                    text = _template(node.args[0])
                    assert text is not None, where
                    yield where, text
            elif (
                isinstance(node, ast.FunctionDef)
                and node.returns is not None
                and ast.unparse(node.returns) == "str | None"
                and path.name == "rules.py"
            ):
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and ret.value is not None:
                        text = _template(ret.value)
                        if text is not None:
                            yield f"{path.name}:{ret.lineno}", text
    unsupported = re.findall(r'"([a-z_]+)": \("[a-z_]+", "([^"]+)"\)', (SRC / "rules.py").read_text())
    for _option, why in unsupported:
        yield "rules.py: unsupported", why


def file_messages() -> Iterator[tuple[str, str]]:
    """(where, template) of the notation errors of :data:`FILE_SOURCES` (records, saved games, runs)."""
    names = {path.name for path in FILE_SOURCES}
    for where, rule, text in engine_messages():
        if rule == "notation" and where.split(":")[0] in names:
            yield where, text


def engine_rule_ids() -> set[str]:
    ids = {rule for _, rule, _ in engine_messages() if rule is not None}
    permissions = ast.parse((SRC / "permissions.py").read_text(encoding="utf-8"))
    for node in ast.walk(permissions):
        if (
            isinstance(node, ast.Return)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            ids.add(node.value.value)
    return ids


# The catalogue against the engine's sources ---------------------------------------------------
def test_the_source_scan_finds_the_engine_messages() -> None:
    found = list(engine_messages())
    rules = {r for _, r, _ in found}
    # A broken scan would make the next tests pass vacuously.
    assert len(found) > 80
    assert {
        "opening_min_points",
        "knock_threshold",
        "run_wraparound",
        "card_not_in_hand",
        "notation",
    } <= rules
    assert len(list(fragment_messages())) >= 10
    rules_found = [text for _, text in rules_messages()]
    assert len(rules_found) > 50 and "{option}: does not apply to these rules: {reason}" in rules_found
    assert "gin has no jokers" in rules_found and "no source defines the knocker's penalty" in rules_found
    # The files a person opens: records, saved games, a record's start (its seat draw and position).
    about_files = [text for _, text in file_messages()]
    assert len(about_files) > 30
    assert "record field {name} must be an integer, not {value}" in about_files
    assert "{file} does not say who plays each seat (no 'meta'); it cannot be resumed" in about_files
    assert "record field 'seat_draw' needs the dealer's seat" in about_files
    assert "position: at least two players must still be in the match" in rules_found


def test_every_rule_id_the_engine_raises_has_a_name_in_both_languages() -> None:
    ids = engine_rule_ids()
    missing = sorted(r for r in ids if rule_name(r, "en") is None or rule_name(r, "de") is None)
    assert not missing, f"rule ids without a name in rummykit.i18n.catalogue.RULE_NAMES: {missing}"
    assert len(ids) > 35


def test_every_engine_message_has_an_entry_in_both_languages() -> None:
    known = {skeleton(en) for _, en, _ in ERRORS} | {skeleton(en) for en, _ in FRAGMENTS}
    missing = [f"{where}: {text}" for where, _, text in engine_messages() if skeleton(text) not in known]
    missing += [f"{where}: {text}" for where, text in fragment_messages() if skeleton(text) not in known]
    missing += [f"{where}: {text}" for where, text in rules_messages() if skeleton(text) not in known]
    assert not missing, "engine messages without a catalogue entry:\n" + "\n".join(missing)


def test_the_catalogue_is_well_formed() -> None:
    placeholder = re.compile(r"\{([a-z_0-9]+)\}")
    for rule, en, de in ERRORS:
        assert rule == "*" or rule_name(rule, "de") is not None, rule
        assert {p.removesuffix("_raw") for p in placeholder.findall(de)} <= set(placeholder.findall(en)), (
            en,
            de,
        )
        assert de and not english_words(placeholder.sub("", de)), de
    for en, de in FRAGMENTS:
        assert set(placeholder.findall(de)) <= set(placeholder.findall(en)), (en, de)


# Arranged situations ----------------------------------------------------------------------------
GERMAN = rk.Rules.preset("german")
VIENNESE = rk.Rules.preset("viennese")


def _refusal(rnd: rk.Round | rk.Match, action: str) -> RummyError:
    with pytest.raises(RummyError) as info:
        rnd.apply(action)
    return info.value


def test_opening_below_the_minimum() -> None:
    hand = "2H 3H 4H 9C 9D JS QS KS 5D 6D 7C 8C 10H"
    deck = arrange_deck(GERMAN, 2, [hand, "2C 3C 4C 5C 6C 7S 8S 9S 10S JH QH KH AH"], stock="AC", dealer=1)
    rnd = rk.Round.new(GERMAN, 2, deck=deck, seed=1, dealer=1)
    rnd.apply("draw")
    exc = _refusal(rnd, "open 2H 3H 4H")
    assert localize_error(exc, "de") == (
        f"Auslegen mit 9 Punkten reicht nicht: Der Mindestwert ist {GERMAN.opening_min_points}"
    )
    # English for people: the minimum in words, not by the option's id (which the engine's text keeps).
    assert str(exc) == f"cannot open with 9 points: opening_min_points is {GERMAN.opening_min_points}"
    assert localize_error(exc, "en") == (
        f"cannot open with 9 points: an opening needs at least {GERMAN.opening_min_points}"
    )
    exc = _refusal(rnd, "layoff 5D on 1")
    assert localize_error(exc, "en") == "layoff 5♦ on 1: only a player who has opened may lay off"
    assert localize_error(exc, "de") == "Karo-5 an Figur 1 anlegen: Anlegen darf nur, wer schon ausgelegt hat"
    exc = _refusal(rnd, "open 2H 3H 4C")
    assert localize_error(exc, "de") == (
        "2♥ 3♥ 4♣ auslegen: 2♥ 3♥ 4♣: Kein Satz (die Werte sind verschieden) und keine Folge "
        "(die Farben sind verschieden)"
    )
    exc = _refusal(rnd, "discard AS")
    assert localize_error(exc, "de") == "Pik-Ass abwerfen: Pik-Ass hast du nicht auf der Hand"
    exc = _refusal(rnd, "draw")
    assert localize_error(exc, "de") == "vom Stoß ziehen: Du hast in diesem Zug schon gezogen"


def test_knock_messages_name_the_players() -> None:
    rnd = rk.Round.new(VIENNESE, 2, seed=3)
    if rnd.phase is rk.Phase.DRAW:
        rnd.apply("draw")
    card = rnd.view(rnd.to_move).hand[0]
    exc = _refusal(rnd, f"knock {card}")
    assert getattr(exc, "rule", None) == "knock_threshold"
    deadwood = re.search(r"with (\d+) deadwood", str(exc))
    assert deadwood is not None
    assert localize_error(exc, "de") == (
        f"Klopfen mit {deadwood.group(1)} Restpunkten geht nicht: Die Restpunkte müssen "
        f"{'<' if VIENNESE.knock_comparison == 'lt' else '≤'} {VIENNESE.knock_threshold} sein"
    )
    # A message naming a seat: the player's name replaces it in both languages.
    msg = "knock 5H: the player in seat 1 has already knocked; now you only draw and discard"
    exc2 = rk_errors.KnockError(msg, "knock_extra_turn")
    assert (
        localize_error(exc2, "en", ["Anna", "Ben"])
        == "knock 5♥: Ben has already knocked; now you only draw and discard"
    )
    assert localize_error(exc2, "de", ["Anna", "Ben"]) == (
        "klopfen und Herz-5 abwerfen: Ben hat schon geklopft; jetzt wird nur noch gezogen und abgeworfen"
    )


def test_nested_reasons_and_fragments() -> None:
    exc = rk_errors.JokerExchangeError(
        "swap 6C on 3: only a player who has opened may exchange a joker", "joker_exchange_requires_opened"
    )
    assert localize_error(exc, "de") == (
        "Kreuz-6 gegen einen Joker von Figur 3 tauschen: Einen Joker "
        "tauschen darf nur, wer schon ausgelegt hat"
    )
    buyback = rk_errors.MatchDecisionError(
        "buyback: no buy-back offer is open: seat 2 already bought back once, "
        "as often as buyback_limit allows",
        "buyback",
    )
    assert localize_error(buyback, "de", ["A", "B", "Cem"]) == (
        "sich zurückkaufen: Es gibt kein Rückkaufangebot: Cem hat sich "
        "schon einmal zurückgekauft, so oft wie erlaubt"
    )
    layoff = rk_errors.LayOffError(
        "layoff 9H on 2: 9H does not fit at the low end on 5H 6H 7H: "
        "a run grows only by the card next to one of its ends",
        "run_sequence",
    )
    assert localize_error(layoff, "de") == (
        "Herz-9 an Figur 2 anlegen: Herz-9 passt nicht unten an 5♥ 6♥ 7♥: Eine Folge wächst nur um die Karte "
        "neben einem ihrer Enden"
    )


def test_a_message_without_an_entry_is_still_german() -> None:
    exc = rk_errors.DiscardError(
        "discard QS: some rule the catalogue has never seen", "joker_discard_allowed"
    )
    assert localize_error(exc, "de") == "Pik-Dame abwerfen: Nicht erlaubt (Joker abwerfen)"
    unknown = rk_errors.IllegalActionError("a brand-new refusal", "brand_new_rule")
    assert localize_error(unknown, "de") == "Das ist nicht erlaubt"
    assert localize_error(NotationError("something odd"), "de").startswith("Das ist kein gültiger Zug")
    bad = rk_errors.RulesError("opening_min_points: a new check", option="opening_min_points")
    assert localize_error(bad, "de") == "Ungültige Regel „Mindestwert beim Auslegen (Punkte)“"


def _record_data() -> dict[str, Any]:
    """A match record as JSON-ready data, to be broken field by field."""
    return rk.Record.from_match(rk.Match.new(GERMAN, 2, seed=4)).to_dict()


def _de_record(data: object) -> str:
    with pytest.raises(RummyError) as info:
        rk.Record.from_dict(data).replay()
    return localize_error(info.value, "de")


def test_broken_records_are_explained_in_german_with_their_details() -> None:
    """What ``rummykit replay --lang de`` says of a broken record: which field, and what it holds."""
    with pytest.raises(NotationError) as info:
        rk.Record.loads("[]")
    assert localize_error(info.value, "de") == (
        'Das ist keine Aufzeichnung von rummykit (erwartet wird "format": "rummykit-record")'
    )
    with pytest.raises(NotationError) as info:
        rk.Record.loads("{")
    assert localize_error(info.value, "de").startswith("Eine Aufzeichnung muss JSON sein: Expecting")
    assert _de_record({**_record_data(), "version": 3}) == (
        "Die Aufzeichnung hat die Version 3; diese Version von rummykit liest die Versionen 1 und 2"
    )
    assert _de_record({**_record_data(), "version": 2}) == (
        "Eine Aufzeichnung der Version 2 enthält ihre „deals“ oder ihre „reshuffles“"
    )
    assert _de_record({**_record_data(), "version": 2, "kind": "match", "reshuffles": [[]]}) == (
        "Eine Aufzeichnung einer Partie mit „reshuffles“ enthält auch ihre „deals“"
    )
    assert _de_record({**_record_data(), "players": "zwei"}) == (
        "Das Feld „players“ der Aufzeichnung muss eine ganze Zahl sein, nicht 'zwei'"
    )
    assert _de_record({**_record_data(), "kind": "turnier"}) == (
        "Die Art der Aufzeichnung („kind“) muss „round“ oder „match“ sein, nicht 'turnier'"
    )
    newer = {**_record_data(), "revision": RULES_REVISION + 1, "rummykit": "99.0"}
    assert _de_record(newer) == (
        f"Diese Aufzeichnung hat ein neueres rummykit 99.0 unter Regelfassung {RULES_REVISION + 1} "
        f"geschrieben; diese Version spielt Regelfassung {RULES_REVISION} und kann sie nicht sicher so "
        "nachspielen, wie sie gespielt wurde: Aktualisiere rummykit"
    )
    assert _de_record({**_record_data(), "seat_draw": {"method": "dice"}}) == (
        "Das Feld „seat_draw“ der Aufzeichnung muss die Art (method) high_card oder random nennen"
    )
    assert _de_record({**_record_data(), "position": {"totals": [0, True]}}) == (
        "Das Feld „totals“ der Stellung in der Aufzeichnung muss eine Liste ganzer Zahlen sein"
    )
    # The position is checked when the match starts (a rules error of match.py).
    assert _de_record({**_record_data(), "position": {"totals": [0, 0, 0]}}) == (
        "Stellung: totals braucht einen Eintrag je Platz (2), nicht 3"
    )
    won = {"totals": [0, 0], "hands_dealt": 1, "hands_won": [1000, 0]}
    assert _de_record({**_record_data(), "position": won}) == (
        "Stellung: hands_won ergibt zusammen 1000, mehr als hands_dealt (1): Ein Spiel hat höchstens "
        "einen Gewinner"
    )
    with pytest.raises(NotationError) as info:
        rk.Record.load("/nonexistent/partie.json")
    text = localize_error(info.value, "de")
    assert text.startswith("Die Aufzeichnung '/nonexistent/partie.json' ist nicht lesbar: ")
    # English keeps the engine's own text.
    assert localize_error(info.value, "en") == str(info.value)


@pytest.mark.parametrize(
    "seats",
    [
        "nobody",
        [{"kind": "person"}],
        ["person", {"kind": "bot"}],
        [{"kind": "robot"}, {"kind": "bot"}],
        [{"kind": "person", "bot": "greedy"}, {"kind": "bot"}],
        [{"kind": "bot", "stand_in": [1]}, {"kind": "bot"}],
        [{"kind": "person", "stand_in": "1"}, {"kind": "bot"}],
        [{"kind": "person", "stand_in": [99]}, {"kind": "bot"}],
        [{"kind": "person", "hinted": [0]}, {"kind": "bot"}],
        [{"kind": "person", "stand_in": [1]}, {"kind": "person", "hinted": [1]}],
    ],
)
def test_a_records_broken_seats_are_explained_in_german(seats: object) -> None:
    """``rummykit replay|sheet FILE --lang de`` on a record whose ``seats`` are malformed."""
    data = _record_data()
    data["actions"] = ["draw", "discard 2C"]  # two action numbers to mark (never replayed)
    with pytest.raises(NotationError) as info:
        rk.Record.from_dict({**data, "seats": seats})
    text = localize_error(info.value, "de")
    assert text.startswith("Das Feld „seats“ der Aufzeichnung"), text
    assert not english_words(text), text


def test_a_records_bad_stand_in_reads_in_german() -> None:
    seats = [{"kind": "person", "stand_in": [5]}, {"kind": "bot"}]
    data = {**_record_data(), "actions": ["draw"], "seats": seats}
    with pytest.raises(NotationError) as info:
        rk.Record.from_dict(data)
    assert localize_error(info.value, "de") == (
        "Das Feld „seats“ der Aufzeichnung (Platz 0): „stand_in“ muss Zugnummern von 1 bis 1 aufsteigend "
        "aufzählen, nicht 5"
    )


def test_broken_saved_games_are_explained_in_german_with_the_file_name(tmp_path: Path) -> None:
    """What ``rummykit play --resume`` says of a save it cannot resume, naming the file."""
    from rummykit.cli.saves import load_saved

    def de(data: object, name: str = "partie.json") -> str:
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        with pytest.raises(RummyError) as info:
            load_saved(path)
        text = localize_error(info.value, "de")
        assert not english_words(text), text
        return text

    assert de(_record_data(), "ohne-meta.json") == (
        "ohne-meta.json sagt nicht, wer an welchem Platz spielt (kein „meta“); diese gespeicherte "
        "Partie lässt sich nicht fortsetzen"
    )
    meta = {"names": ["Anna", "Ben"], "players": ["search:easy", "greedy"]}
    assert de({**_record_data(), "meta": meta}) == "partie.json: An keinem Platz spielt ein Mensch"
    assert de({**_record_data(), "meta": {**meta, "names": ["Anna"]}}) == (
        "partie.json: „meta.names“ muss 2 Namen nennen"
    )
    assert de("kein json", "kaputt.json").startswith("kaputt.json ist keine gespeicherte Partie: Expecting")
    round_record = rk.Record.from_round(rk.Round.new(GERMAN, 2, seed=2)).to_dict()
    assert de(round_record, "runde.json") == (
        "runde.json enthält nur ein einzelnes Spiel, keine Partie; fortsetzen lässt sich nur eine Partie, "
        "die „rummykit play“ gespeichert hat"
    )
    with pytest.raises(NotationError) as info:
        load_saved(tmp_path / "fehlt.json")
    assert localize_error(info.value, "de").startswith(f"{str(tmp_path / 'fehlt.json')!r} ist nicht lesbar: ")


def test_rules_errors_from_the_lobby() -> None:
    with pytest.raises(RummyError) as info:
        rk.Rules.parse("german(opening_min_points=abc)")
    text = localize_error(info.value, "de")
    assert text == "„Mindestwert beim Auslegen (Punkte)“ (opening_min_points): eine ganze Zahl, nicht 'abc'"


GIN = rk.Rules.preset("gin")
GIN_JUNK = "2C 3C 4C 6D 7D 8D 6H 7H 8H 4S"
"""The gin dealer's hand: three runs and the 4S."""


def _gin_deal(first: str, dealer: str = GIN_JUNK, upcard: str = "KD") -> rk.Round:
    """Seat 0 (the non-dealer, who acts first) holds ``first``; seat 1 deals."""
    deck = arrange_deck(GIN, 2, [first, dealer], dealer=1, upcard=upcard)
    return rk.Round.new(GIN, 2, deck=deck, dealer=1, seed=1)


def _de(rnd: rk.Round, action: str) -> str:
    """The German refusal of ``action``."""
    return localize_error(_refusal(rnd, action), "de")


def test_gin_first_upcard_and_knock_messages_in_german() -> None:
    rnd = _gin_deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D")
    exc = _refusal(rnd, "draw")
    assert getattr(exc, "rule", None) == "gin_first_upcard"
    assert localize_error(exc, "de") == (
        "Zuerst die offene Karte nehmen oder passen (vom Stoß wird erst gezogen, wenn beide gepasst haben)"
    )
    assert _de(rnd, "discard 4D") == "Karo-4 abwerfen: Nimm die offene Karte oder passe"
    rnd.apply("take")
    assert _de(rnd, "meld AH 2H 3H") == "A♥ 2♥ 3♥ auslegen: Wirf eine Karte ab oder klopfe"
    rnd.apply("knock")
    assert _de(rnd, "meld AH 2H 3H") == "A♥ 2♥ 3♥ auslegen: Nach dem Klopfen zuerst abwerfen"
    assert _de(rnd, "discard 5C") == (
        "Kreuz-5 abwerfen: Nach diesem Abwurf lägen deine Restpunkte über der Klopfgrenze 10"
    )
    rnd.apply("discard KD")
    assert _de(rnd, "meld AH 2H 3H | 5C 5D 5S") == (
        "A♥ 2♥ 3♥ | 5♣ 5♦ 5♠ auslegen: Bei Gin werden die Figuren einzeln ausgelegt"
    )
    assert _de(rnd, "meld 4D 5D 6D") == "4♦ 5♦ 6♦ auslegen: Diese Karten hast du nicht auf der Hand"
    assert _de(rnd, "pass") == (
        "Deine Karten ohne Figur zählen 54 Punkte, mehr als die Klopfgrenze 10; lege weitere Figuren aus"
    )
    assert _de(rnd, "layoff 4D") == (
        "Karo-4 an eine Figur des Klopfenden anlegen: Lege deine Figuren einzeln aus, dann passe"
    )


def test_gin_knock_limit_and_layoff_messages_in_german() -> None:
    far = _gin_deal("AH 4H 9H 5C 9C JC 3D 10D QD 6S", upcard="KS")
    far.apply("take")
    exc = _refusal(far, "knock")
    assert getattr(exc, "rule", None) == "knock_card"
    deadwood = re.search(r"is (\d+), the knock card", str(exc))
    assert deadwood is not None
    assert localize_error(exc, "de") == (
        f"Klopfen geht nicht: Nach dem besten Abwurf bleiben dir {deadwood.group(1)} Restpunkte, "
        "die Klopfgrenze ist 10"
    )
    rnd = _gin_deal("AH 2H 3H 5C 5D 5S 9C 10C JC 4D", dealer="2C 3C 4C 6D 7D 8D 6H 7H 8H 5H")
    for move in ("take", "knock", "discard KD", "meld AH 2H 3H", "meld 5C 5D 5S", "meld 9C 10C JC", "pass"):
        rnd.apply(move)
    assert _de(rnd, "meld 2C 3C 4C") == (
        "2♣ 3♣ 4♣ auslegen: Lege zuerst Karten an die Figuren des Klopfenden an („layoff 5H“), dann passe"
    )
    assert _de(rnd, "layoff 6H") == (
        "Herz-6 an eine Figur des Klopfenden anlegen: Herz-6 passt an keine Figur des Klopfenden"
    )
    rnd.apply("pass")
    assert _de(rnd, "layoff 5H") == (
        "Herz-5 an eine Figur des Klopfenden anlegen: Du hast beim Anlegen gepasst; "
        "lege deine eigenen Figuren aus oder passe"
    )
    assert _de(rnd, "meld 6H 7H 6D").startswith("6♥ 7♥ 6♦ auslegen: Keine Figur im Gin (3 oder 4 Karten")


def test_gin_refusals_of_random_play_are_german() -> None:
    seen: set[str] = set()
    missing: list[str] = []
    for exc in _gin_errors_of_random_play(games=4, seed=11):
        rule = getattr(exc, "rule", "notation")
        seen.add(rule)
        if localize_message(str(exc), rule, "de", ["A", "B"]) is None:
            missing.append(f"[{rule}] {exc}")
        assert not english_words(localize_error(exc, "de")), localize_error(exc, "de")
    assert not missing, "\n".join(sorted(set(missing)))
    assert {"gin_first_upcard", "knock_card", "card_not_in_hand"} <= seen


def _gin_errors_of_random_play(games: int, seed: int) -> Iterator[RummyError]:
    rng = random.Random(seed)
    deck = [str(c) for c in rk.cards.build_deck(GIN.num_decks, GIN.jokers_total)]
    for g in range(games):
        rnd = rk.Round.new(GIN, 2, seed=seed + g)
        for _ in range(80):
            if rnd.result is not None:
                break
            hand = [str(c) for c in rnd.view(rnd.to_move).hand]
            picks = rng.sample(hand, min(3, len(hand))) if hand else []
            for text in (
                "draw",
                "take",
                "pass",
                "knock",
                f"knock {rng.choice(hand or deck)}",
                f"discard {rng.choice(deck)}",
                f"discard {rng.choice(hand or deck)}",
                f"layoff {rng.choice(hand or deck)}",
                f"meld {' '.join(picks)}",
                f"meld {' '.join(picks)} | {' '.join(picks)}",
            ):
                try:
                    rnd.check(Action.parse(text))
                except RummyError as exc:
                    yield exc
            rnd.apply(rng.choice(rnd.legal_actions()))


def _errors_of_random_play(preset: str, games: int, seed: int) -> Iterator[RummyError]:
    """Refusals of random illegal actions in random positions (every kind of action tried)."""
    rng = random.Random(seed)
    rules = rk.Rules.preset(preset)
    deck = [str(c) for c in rk.cards.build_deck(rules.num_decks, rules.jokers_total)]
    for g in range(games):
        m = rk.Match.new(rules, min(rules.min_players + g % 2, rules.max_players), seed=seed + g)
        for _ in range(60):
            if m.is_over:
                break
            hand = [str(c) for c in m.round.view(m.to_move).hand]
            picks = rng.sample(hand, min(3, len(hand))) if hand else []
            melds = len(m.round.view(m.to_move).melds)
            tries = [
                "draw",
                "take",
                "buyback",
                "decline",
                f"discard {rng.choice(deck)}",
                f"layoff {rng.choice(hand or deck)} on {rng.randint(1, melds + 1)}",
                f"layoff JK on {max(1, melds)} low",
                f"open {' '.join(picks)}",
                f"meld {' '.join(picks)}",
                f"knock {rng.choice(hand or deck)}",
                f"rummy {rng.choice(hand or deck)}",
                f"swap {rng.choice(hand or deck)} on {rng.randint(1, melds + 1)} then meld {' '.join(picks)}",
                f"discard {rng.choice(hand or deck)}",
            ]
            for text in tries:
                try:
                    m.check(Action.parse(text))
                except RummyError as exc:
                    yield exc
            m.apply(rng.choice(m.legal_actions()))


@pytest.mark.parametrize("preset", ["german", "german_dskv", "viennese", "scala40"])
def test_random_refusals_all_have_german_entries(preset: str) -> None:
    seen: set[str] = set()
    missing: list[str] = []
    for exc in _errors_of_random_play(preset, games=3, seed=7):
        rule = getattr(exc, "rule", "notation")
        seen.add(rule)
        if localize_message(str(exc), rule, "de", ["A", "B", "C"]) is None:
            missing.append(f"[{rule}] {exc}")
        assert not english_words(localize_error(exc, "de")), localize_error(exc, "de")
    assert not missing, "\n".join(sorted(set(missing)))
    assert len(seen) >= 6


OPTION_IDS: Final = frozenset(f.name for f in dataclasses.fields(rk.Rules))
CARD_CODE: Final = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


@pytest.mark.parametrize("preset", ["german", "german_dskv", "viennese", "scala40", "romme_ohne_auslegen"])
def test_random_refusals_read_in_english_without_ids_or_card_codes(preset: str) -> None:
    """What an English player reads names no option by its id and shows cards by their symbols (the
    engine's own text, for programs, keeps both)."""
    technical = 0
    for exc in _errors_of_random_play(preset, games=3, seed=7):
        text = localize_error(exc, "en", ["A", "B", "C"])
        ids = OPTION_IDS & set(re.findall(r"[a-z]+(?:_[a-z]+)+", text))
        assert not ids, text
        assert not CARD_CODE.search(text), text
        technical += bool(OPTION_IDS & set(re.findall(r"[a-z]+(?:_[a-z]+)+", str(exc))))
    assert technical, "no refusal of random play named an option: the check above proved nothing"


def test_every_play_time_entry_reads_in_english_without_option_ids() -> None:
    """Every catalogue entry a move can raise (all but the rules refusals, and the messages about a
    file, which name its fields as the file spells them) names options in words for an English
    player."""
    about_files = {skeleton(text) for _, text in file_messages()}
    for rule, en, _de in ERRORS:
        if rule == "rules" or skeleton(en) in about_files:
            continue
        people = people_english(en)
        assert not OPTION_IDS & set(re.findall(r"[a-z]+(?:_[a-z]+)+", people)), (en, people)


# Moves ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("notation", "en", "de"),
    [
        ("layoff QH on 3", "lays off the queen of hearts on meld 3", "legt Herz-Dame an Figur 3 an"),
        (
            "layoff JK on 2 low",
            "lays off the joker on meld 2 at the low end",
            "legt einen Joker an Figur 2 unten an",
        ),
        ("discard 10S", "discards the 10 of spades", "wirft Pik-10 ab"),
        ("draw", "draws from the stock", "zieht vom Stoß"),
        (
            "open 10H JH QH | AS AD AC",
            "opens with 10♥ J♥ Q♥ | A♠ A♦ A♣",
            "legt zum ersten Mal aus: 10♥ J♥ Q♥ | A♠ A♦ A♣",
        ),
        ("meld 7C 8C 9C", "melds 7♣ 8♣ 9♣", "legt aus: 7♣ 8♣ 9♣"),
        (
            "swap 6C on 3 then meld 8D 9D JK",
            "swaps the 6 of clubs for a joker of meld 3 and melds 8♦ 9♦ JK",
            "tauscht Kreuz-6 gegen einen Joker von Figur 3 und legt aus: 8♦ 9♦ JK",
        ),
        ("knock KD", "knocks, discarding the king of diamonds", "klopft und wirft Karo-König ab"),
        ("buyback", "buys back into the rubber", "kauft sich in die Partie zurück"),
        ("knock", "knocks", "klopft"),
        (
            "layoff 5H",
            "lays off the 5 of hearts on the knocker's melds",
            "legt Herz-5 an eine Figur des Klopfenden an",
        ),
        ("pass", "passes", "passt"),
        ("decline", "declines the buy-back", "verzichtet auf den Rückkauf"),
    ],
)
def test_move_descriptions(notation: str, en: str, de: str) -> None:
    action = Action.parse(notation)
    assert describe_action(action, "en") == en
    assert describe_action(action, "de") == de


def test_a_card_going_face_down_is_not_named() -> None:
    action = Action.parse("rummy QS")
    assert describe_action(action, "de", rules=VIENNESE) == "ruft Rummy und legt eine Karte verdeckt ab"
    assert describe_action(action, "en", rules=VIENNESE) == "calls Rummy, laying a card face down"
    assert "Pik-Dame" in describe_action(action, "de")  # its own player sees it
    out = Action.parse("discard QS")
    assert "Dame" not in describe_action(out, "de", rules=GERMAN, goes_out=True)
    assert (
        describe_action(Action.parse("take"), "de", taken=rk.Card.parse("7H"))
        == "nimmt Herz-7 von der Ablage"
    )


@pytest.mark.parametrize(
    ("phase", "notation", "verb", "third"),
    [
        (rk.Phase.FIRST_UPCARD, "pass", "bei der offenen Karte passen", "passt bei der offenen Karte"),
        (rk.Phase.KNOCK, "pass", "passen: fertig mit dem Auslegen", "hat ausgelegt und passt"),
        (
            rk.Phase.WALL,
            "pass",
            "an der Mauer passen (das Spiel endet ohne Wertung)",
            "passt an der Mauer; das Spiel endet ohne Wertung",
        ),
        (rk.Phase.WALL, "knock", "mit der offenen Karte klopfen", "klopft mit der offenen Karte"),
        (rk.Phase.KNOCK, "meld 7C 8C 9C", "7♣ 8♣ 9♣ auslegen", "legt aus: 7♣ 8♣ 9♣"),
    ],
)
def test_gin_moves_by_phase(phase: rk.Phase, notation: str, verb: str, third: str) -> None:
    action = Action.parse(notation)
    assert describe_action(action, "de", form="verb", phase=phase) == verb
    assert describe_action(action, "de", phase=phase) == third
    assert not english_words(describe_action(action, "de", phase=phase))
    assert describe_action(action, "en", phase=phase) != third


# Labels and the language switch ---------------------------------------------------------------
def test_labels_in_both_languages() -> None:
    assert label("hand_n_of_m", "de", n=2, m=5) == "Spiel 2 von 5"
    assert label("termination.went_out", "en") == "went out"
    for term in rk.Termination:
        assert f"termination.{term}" in LABEL_KEYS
    for phase in rk.Phase:
        assert f"phase.{phase}" in LABEL_KEYS
    en, de = labels("en"), labels("de")
    assert en.keys() == de.keys() == set(LABEL_KEYS)
    assert sum(en[k] != de[k] for k in en) > len(en) * 0.8


def test_error_texts_for_the_web() -> None:
    exc = rk_errors.DrawError("take: the discard pile is empty", "empty_discard_pile")
    assert error_texts(exc) == {"en": "take: the discard pile is empty", "de": "Die Ablage ist leer"}


@pytest.mark.parametrize(
    ("value", "lang"),
    [
        ("de", "de"),
        ("DE", "de"),
        ("de_DE.UTF-8", "de"),
        ("de-AT", "de"),
        ("en_GB", "en"),
        ("C.UTF-8", None),
        ("POSIX", None),
        ("fr_FR", None),
        ("", None),
    ],
)
def test_normalize_lang(value: str, lang: str | None) -> None:
    assert normalize_lang(value) == lang


def test_lang_from_the_environment_follows_posix_order() -> None:
    assert lang_from_env({"LANG": "de_DE.UTF-8"}) == "de"
    assert lang_from_env({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"  # LC_ALL wins, C means English
    assert lang_from_env({"LC_MESSAGES": "de_AT.UTF-8", "LANG": "en_US"}) == "de"
    assert lang_from_env({}) == "en"


@pytest.mark.parametrize("preset", rk.PRESET_NAMES)
def test_every_refused_rule_change_is_explained_in_german(preset: str) -> None:
    """What a German player types into the lobby's rule box or ``--set`` and the engine refuses is
    explained in German (which option, and why), never the bare fallback "Ungültige Regel"."""
    from rummykit.option_effects import alternatives

    rules = rk.Rules.preset(preset)
    refused = 0
    for option in rules.to_dict():
        if option == "name":
            continue
        for value in alternatives(rules, option):
            try:
                rules.replace(**{option: value})
            except rk.RulesError as exc:
                refused += 1
                text = localize_error(exc, "de")
                assert exc.option in OPTION_LABELS, (
                    f"{exc.option} has no label, so its refusal cannot be said in German: add "
                    f"{exc.option!r}: (English, German) to `OPTION_LABELS` in src/rummykit/explain/terms.py"
                )
                assert not text.startswith("Ungültige Regel"), (
                    f"{option}={value!r}: the refusal {str(exc)!r} has no German sentence: add its reason "
                    "to `REFUSALS` in src/rummykit/i18n/catalogue.py (a new `_APPLIES` reason to `FRAGMENTS`)"
                )
                assert f"({exc.option})" in text and not english_words(text), (str(exc), text)
    assert refused > 10


@pytest.mark.parametrize(
    ("action", "third", "verb"),
    [
        ("discard JK", "wirft einen Joker ab", "einen Joker abwerfen"),
        ("layoff JK on 2", "legt einen Joker an Figur 2 an", "einen Joker an Figur 2 anlegen"),
        ("discard QH", "wirft Herz-Dame ab", "Herz-Dame abwerfen"),
    ],
)
def test_a_joker_as_the_object_of_a_move_has_its_article(action: str, third: str, verb: str) -> None:
    """A card is named bare ("wirft Herz-Dame ab"), a joker was too ("Du wirfst Joker ab")."""
    assert describe_action(Action.parse(action), "de") == third
    assert describe_action(Action.parse(action), "de", form="verb") == verb


def test_offered_melds_show_what_their_joker_stands_for() -> None:
    """Two offered openings that differ only in the joker's place read the same ("JK 3♣ 4♣" and
    "3♣ 4♣ JK"); the buttons and hints (``action_texts`` with the rules) say which card it is."""
    pytest.importorskip("fastapi")
    from rummykit.web.texts import action_texts

    german = GERMAN
    low = action_texts(Action.parse("open JK 3C 4C | 10H JH QH KH"), rules=german)
    high = action_texts(Action.parse("open 3C 4C JK | 10H JH QH KH"), rules=german)
    assert low["de"] == "JK(=2♣) 3♣ 4♣ | 10♥ J♥ Q♥ K♥ auslegen"
    assert high["en"] == "open with 3♣ 4♣ JK(=5♣) | 10♥ J♥ Q♥ K♥"
    swap = action_texts(Action.parse("swap 6H on 1 then meld 5S 6S JK"), rules=german)
    assert swap["de"].endswith("und 5♠ 6♠ JK(=7♠) auslegen")
    assert action_texts(Action.parse("open JK 3C 4C"))["de"] == "JK 3♣ 4♣ auslegen"  # without the rules
