"""Rules revisions: files written by an older rummykit are read with the meaning they had, or refused
with a message that says they are older than the rule that stops them (:mod:`rummykit.revisions`).

The records under ``tests/records/older`` were written by rummykit before records carried their
rules revision (random play at the commit before "D15 without exception"): a Basic Rummy round with
``ace_high_in_runs = true`` whose left-over aces counted 1, and a German round whose player took a
discard and laid off everything else but it.

``tests/revisions/meaning.json`` holds what every preset, alias and linked default meant at the
current revision. After a deliberate change of one, raise ``RULES_REVISION``, describe the change in
``CHANGES`` and rewrite the file::

    RUMMYKIT_REGEN_REVISION=1 .venv/bin/python -m pytest tests/test_revisions.py

A new option whose default plays exactly as before in every preset changes no older text's meaning:
it needs only the rewritten file, no new revision (the failure message tells the two cases apart).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import rummykit as rk
from rummykit.cli import app
from rummykit.i18n import localize_error
from rummykit.record import ReplayError
from rummykit.revisions import CHANGES, RULES_REVISION, changes_since, read_rules
from rummykit.rules import HAND_SIZE_TABLES, LINKED_DEFAULTS, RUMMY_CH_HAND_SIZES, Rules

OLDER = Path(__file__).parent / "records" / "older"
MEANING = Path(__file__).parent / "revisions" / "meaning.json"
REGEN = os.environ.get("RUMMYKIT_REGEN_REVISION") == "1"

BASIC_POINTS = [25, 0]
"""The points the Basic round scored when it was played (its two aces counted 1 each)."""


def older(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((OLDER / name).read_text(encoding="utf-8"))
    return data


def meaning() -> dict[str, Any]:
    """What rules texts mean at this revision: presets, aliases, linked defaults, hand sizes."""
    return {
        "revision": RULES_REVISION,
        "presets": {name: rules.to_dict() for name, rules in Rules.PRESETS.items()},
        "aliases": dict(sorted(Rules.ALIASES.items())),
        "linked_defaults": [
            [preset, leader, follower, {str(k).lower(): v for k, v in implied.items()}]
            for (preset, leader), (follower, implied) in LINKED_DEFAULTS.items()
        ],
        "hand_size_tables": {k: {str(n): s for n, s in v.items()} for k, v in HAND_SIZE_TABLES.items()},
        "rummy_ch_hand_sizes": {str(n): s for n, s in RUMMY_CH_HAND_SIZES.items()},
    }


REGEN_COMMAND = "RUMMYKIT_REGEN_REVISION=1 python -m pytest tests/test_revisions.py"


def what_moved(kept: dict[str, Any], now: dict[str, Any]) -> tuple[list[str], list[str]]:
    """How ``now`` differs from the snapshot ``kept``: option keys that are new (absent from every
    preset of the snapshot), and everything else that moved (a preset's value, a preset, an alias, a
    linked default, a hand size)."""
    old_presets, new_presets = kept.get("presets", {}), now["presets"]
    known = {option for values in old_presets.values() for option in values}
    added = sorted({option for values in new_presets.values() for option in values} - known)
    moved = sorted(
        f"{name}.{option}"
        for name, values in new_presets.items()
        if name in old_presets
        for option, value in values.items()
        if option in old_presets[name] and old_presets[name][option] != value
    )
    moved += sorted(
        f"{name}.{option} (removed)"
        for name, values in old_presets.items()
        if name in new_presets
        for option in values
        if option not in new_presets[name]
    )
    moved += [f"preset {name} (new)" for name in sorted(new_presets.keys() - old_presets.keys())]
    moved += [f"preset {name} (removed)" for name in sorted(old_presets.keys() - new_presets.keys())]
    moved += [key for key in sorted(now.keys() - {"presets", "revision"}) if kept.get(key) != now[key]]
    moved += [f"{key} (removed)" for key in sorted(kept.keys() - now.keys() - {"revision"})]
    return added, moved


def test_what_rules_texts_mean_moves_only_with_a_new_revision() -> None:
    now = json.loads(json.dumps(meaning()))
    if REGEN:
        MEANING.parent.mkdir(exist_ok=True)
        MEANING.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    kept = json.loads(MEANING.read_text(encoding="utf-8"))
    assert kept["revision"] == RULES_REVISION, (
        f"tests/revisions/meaning.json is of revision {kept['revision']}, RULES_REVISION is "
        f"{RULES_REVISION}: regenerate it with `{REGEN_COMMAND}`"
    )
    if now == kept:
        return
    added, moved = what_moved(kept, now)
    problems = []
    if added:
        problems.append(
            f"new option(s) {', '.join(added)}: if their default plays exactly as before in every preset, "
            f"no new revision is needed: regenerate with `{REGEN_COMMAND}` (and commit "
            "tests/revisions/meaning.json); if it plays otherwise anywhere, raise RULES_REVISION "
            "and add a `CHANGES` entry in src/rummykit/revisions.py too"
        )
    if moved:
        problems.append(
            f"what a rules text means has changed ({', '.join(moved)}) under the same RULES_REVISION "
            f"{RULES_REVISION}: an older record would replay otherwise. Raise RULES_REVISION and add a "
            "`CHANGES` entry (kind meaning/refuses/plays) in src/rummykit/revisions.py, then regenerate "
            f"with `{REGEN_COMMAND}`"
        )
    pytest.fail("tests/revisions/meaning.json is out of date:\n" + "\n".join(f"- {p}" for p in problems))


def test_changes_are_dated_numbered_and_said_in_both_languages() -> None:
    assert [c.date for c in CHANGES] == sorted(c.date for c in CHANGES)
    assert all(1 <= c.revision <= RULES_REVISION for c in CHANGES)
    assert all(c.text and c.text_de and c.text != c.text_de for c in CHANGES)
    assert all((c.keep is not None) == (c.kind == "meaning") for c in CHANGES)


def test_an_older_basic_record_replays_with_the_ace_it_counted() -> None:
    data = older("basic_ace_high.json")
    assert "revision" not in data and data["rules"] == "basic(ace_high_in_runs=true)"
    record = rk.Record.from_dict(data)
    assert record.revision == 0
    assert record.rules.penalty_ace == 1
    assert list(record.replay().result.points) == BASIC_POINTS
    assert any("penalty_ace=1" in note for note in record.older_notes())
    assert any("penalty_ace=1" in note for note in record.older_notes("de"))
    # Read as a text of today, the same round scores its aces 11 each.
    today = rk.Record.from_dict({**data, "revision": RULES_REVISION})
    assert today.rules.penalty_ace == 11
    assert list(today.replay().result.points) == [35, 0]
    assert today.older_notes() == ()


def test_an_older_record_written_again_keeps_its_meaning() -> None:
    record = rk.Record.from_dict(older("basic_ace_high.json"))
    again = rk.Record.loads(record.dumps())
    assert again.rules == record.rules
    assert again.revision == 0
    assert list(again.replay().result.points) == BASIC_POINTS


def test_new_records_carry_the_revision_and_the_version_that_wrote_them() -> None:
    rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=3)
    data = rk.Record.from_round(rnd).to_dict()
    assert data["revision"] == RULES_REVISION
    assert data["rummykit"] == rk.__version__
    assert rk.Record.from_dict(data).revision == RULES_REVISION


def test_an_older_record_stopped_by_a_later_rule_says_so() -> None:
    record = rk.Record.from_dict(older("german_d15.json"))
    with pytest.raises(ReplayError) as caught:
        record.replay()
    exc = caught.value
    assert exc.number == 34 and exc.action == "layoff AD on 4"
    assert isinstance(exc.cause, rk.IllegalActionError)
    assert [c.date for c in exc.changes] == ["2026-12-04"]
    message = str(exc)
    assert message.startswith("record action 34 (layoff AD on 4) cannot be replayed: ")
    assert "before records named their rules revision" in message and "D15" in message
    german = localize_error(exc, "de")
    assert german.startswith("Zug 34 der Aufzeichnung (Karo-Ass an Figur 4 anlegen)")
    assert "Regelfassung" in german and "D15 ohne Ausnahme" in german
    with pytest.raises(ReplayError):  # stepping through it stops at the same action
        list(record.states())


def test_a_current_record_that_fails_names_no_older_rule() -> None:
    data = {**older("german_d15.json"), "revision": RULES_REVISION}
    with pytest.raises(ReplayError) as caught:
        rk.Record.from_dict(data).replay()
    assert caught.value.changes == ()
    assert "revision" not in str(caught.value)


def test_a_record_of_a_newer_revision_is_refused() -> None:
    data = {**older("german_d15.json"), "revision": RULES_REVISION + 1, "rummykit": "9.0"}
    with pytest.raises(rk.NotationError, match=r"newer rummykit 9\.0 .*update rummykit"):
        rk.Record.from_dict(data)


@pytest.mark.parametrize("revision", [-1, "1", True, 1.0, None])
def test_a_malformed_revision_is_named(revision: object) -> None:
    with pytest.raises(rk.NotationError, match="record field 'revision'"):
        rk.Record.from_dict({**older("german_d15.json"), "revision": revision})


def test_older_rules_texts_are_read_as_they_were_meant() -> None:
    # knock_threshold = 1 under lt admitted no knock; it is written 0 now, and refused as 1.
    with pytest.raises(rk.RulesError):
        Rules.parse("viennese(knock_threshold=1)")
    assert read_rules("viennese(knock_threshold=1)", 0).rules.knock_threshold == 0
    assert read_rules("viennese(knock_threshold=1, knock_comparison=le)", 0).rules.knock_threshold == 1
    # An option refused now because it has no effect under the rest is dropped, with a note.
    read = read_rules("german(jokers_total=0, penalty_joker=20, knock_extra_turn=true)", 0)
    assert read.rules == Rules.parse("german(jokers_total=0)")
    assert [n.en.split(" ")[0] for n in read.notes] == ["penalty_joker", "knock_extra_turn"]
    # by_player_count dealt Basic Rummy's table in every preset until 2026-12-05, and rummy.ch's since;
    # files of revision 0 span that day, so the text keeps today's meaning, and the change is named.
    record = rk.Record.from_dict(
        {**older("german_d15.json"), "rules": "german(hand_size_rule=by_player_count)", "players": 3}
        | {"kind": "match", "deck": None, "actions": []}
    )
    assert record.rules.hand_size_for(3) == 13 and record.read_notes == ()
    assert any("Basic Rummy's 10/7/6" in note for note in record.older_notes())
    # An older refusal is explained in German too, the refusal's own words first.
    with pytest.raises(rk.RulesError) as refused:
        read_rules("german(opening_min_points=500)", 0)
    german = localize_error(refused.value, "de")
    assert german.startswith("„Mindestwert beim Auslegen (Punkte)“ (opening_min_points): zwischen 0 und 120")
    assert german.endswith("(der Text stammt von einem älteren rummykit, aus der Zeit, bevor "
                           "Aufzeichnungen ihre Regelfassung nannten)")  # fmt: skip
    # An alias names the preset whose meaning is kept.
    assert read_rules("Basic Rummy(ace_high_in_runs=true)", 0).rules.penalty_ace == 1
    # Other refusals still refuse, and say the text is older.
    with pytest.raises(rk.RulesError, match="before records named their rules revision"):
        read_rules("german(opening_min_points=500)", 0)
    with pytest.raises(rk.RulesError, match="unknown rule option"):
        read_rules("german(no_such_option=1)", 0)
    # At the current revision a text means what it says.
    with pytest.raises(rk.RulesError):
        read_rules("viennese(knock_threshold=1)", RULES_REVISION)
    assert read_rules("basic(ace_high_in_runs=true)", RULES_REVISION).rules.penalty_ace == 11


@pytest.mark.parametrize(
    ("text", "dropped"),
    [
        ("german(joker_limit=max_one_joker_per_meld, max_adjacent_jokers=1)", "max_adjacent_jokers"),
        ("german(num_hands=1, deal_rotation=winner_deals)", "deal_rotation"),
        ("gin(undercut_bonus=0, undercut_on_tie=true)", "undercut_on_tie"),
        ("viennese(buyback_limit=0, buyback_cost=50)", "buyback_cost"),
        ("basic(set_distinct_suits=false)", "set_distinct_suits"),
    ],
)
def test_a_file_of_revision_1_with_an_option_refused_since_still_loads(text: str, dropped: str) -> None:
    """Revision 2 refuses options that had no effect under the rest; a record, save or stored web
    table written under revision 1 is read without them (they changed nothing), with a note."""
    with pytest.raises(rk.RulesError):
        Rules.parse(text)
    read = read_rules(text, 1)
    assert [n.en.split(" ")[0] for n in read.notes] == [dropped]
    assert getattr(read.rules, dropped) == getattr(Rules.preset(read.rules.name), dropped)


def test_a_change_that_plays_otherwise_is_named_when_the_record_is_read() -> None:
    data = {**older("german_d15.json"), "rules": "gin(gin_bonus=0, undercut_on_tie=true)", "deck": None}
    data["kind"], data["actions"] = "match", []
    record = rk.Record.from_dict(data)
    assert [c.kind for c in record.rule_changes()] == ["plays"]
    assert any("may play or score differently now" in note for note in record.older_notes())
    assert any("anders laufen oder zählen" in note for note in record.older_notes("de"))
    assert changes_since(RULES_REVISION, record.rules) == ()


def test_replay_shows_how_an_older_record_was_read() -> None:
    result = CliRunner().invoke(
        app, ["replay", str(OLDER / "basic_ace_high.json"), "--lang", "en"], input="q\n"
    )
    assert result.exit_code == 0, result.output
    assert "note: read with penalty_ace=1" in result.output
    stopped = CliRunner().invoke(
        app, ["replay", str(OLDER / "german_d15.json"), "--lang", "de"], input="end\nq\n"
    )
    assert stopped.exit_code == 0, stopped.output  # the actions before the refused one are shown
    assert "Warnung: Zug 34 der Aufzeichnung" in stopped.output and "D15 ohne Ausnahme" in stopped.output
    assert "das Nachspielen endet dort" in stopped.output and "Zug 33 von 33" in stopped.output


@pytest.mark.parametrize(
    "text",
    [
        "basic(ace_high_in_runs=true)",
        "viennese(knock_threshold=1)",
        "german(jokers_total=0, penalty_joker=20)",
        "german(hand_size_rule=by_player_count, target_score=500)",
    ],
)
def test_an_older_record_read_written_and_read_again_means_the_same(text: str) -> None:
    data = {**older("german_d15.json"), "rules": text, "kind": "match", "deck": None, "actions": []}
    first = rk.Record.from_dict(data)
    written = first.to_dict()
    assert written["rules"] == text and written["revision"] == 0  # the file's own words, its revision
    again = rk.Record.from_dict(written)
    assert again.rules == first.rules and again.read_notes == first.read_notes


def test_resuming_an_older_save_says_where_to_read_how_it_was_read(tmp_path: Path) -> None:
    from rummykit.cli.play import _older_notice
    from rummykit.cli.saves import load_saved, save_meta

    match = rk.Record.from_dict(
        {**older("basic_ace_high.json"), "kind": "match", "deck": None, "actions": []}
    )
    data = match.to_dict() | {"meta": save_meta(("Ann", "Bot 2"), ["human", "random"], False, False)}
    path = tmp_path / "older.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    saved = load_saved(path)
    assert saved.match.rules.penalty_ace == 1
    assert _older_notice(saved, "en") == ["an older save: 'rummykit replay older.json' says how it was read"]
    assert _older_notice(saved, "de")[0].startswith("ein älterer Spielstand")
    current = tmp_path / "current.json"
    current.write_text(json.dumps({**data, "revision": RULES_REVISION, "rules": "basic"}), encoding="utf-8")
    assert _older_notice(load_saved(current), "en") == []
