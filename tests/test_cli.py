"""The ``rummykit`` command line (typer's CliRunner)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rummykit as rk
from rummykit.cli import EXIT_BAD_INPUT, EXIT_ILLEGAL, app, render

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_rules_table_default_german() -> None:
    code, out, err = run("rules")
    assert code == 0 and err == ""
    assert "Rules: german" in out
    for group in ("Components and players", "Melds", "Hand scoring", "Knock games"):
        assert group in out
    lines = {
        line.split("│")[1].strip(): line.split("│")[2].strip()
        for line in out.splitlines()
        if line.count("│") == 3 and line.split("│")[2].strip()
    }
    assert lines["opening_min_points"] == "40"
    assert lines["penalty_joker"] == "30"
    assert lines["max_adjacent_jokers"] == "2"
    assert lines["knock_threshold"] == "none"


def test_rule_groups_start_at_real_options() -> None:
    rows = render.rule_rows(rk.Rules.preset("german"))
    assert {group for group, *_ in rows} == set(render.RULE_GROUPS.values())
    assert len(rows) == len(rk.Rules.preset("german").to_dict()) - 1  # every option but the name


@pytest.mark.parametrize("preset", rk.PRESET_NAMES)
def test_rules_json_is_to_dict(preset: str) -> None:
    code, out, _ = run("rules", preset, "--json")
    assert code == 0
    assert json.loads(out) == rk.Rules.preset(preset).to_dict()


def test_rules_alias_text_form_and_overrides() -> None:
    code, out, _ = run("rules", "Wiener Rummy", "--json")
    assert code == 0 and json.loads(out)["name"] == "viennese"
    code, out, _ = run(
        "rules",
        "german(opening_min_points=30)",
        "--json",
        "--set",
        "penalty_joker=20",
        "-s",
        "max_stock_rebuilds=unlimited",
    )
    data = json.loads(out)
    assert code == 0
    assert (data["opening_min_points"], data["penalty_joker"], data["max_stock_rebuilds"]) == (30, 20, None)
    code, out, _ = run("rules", "--set", "opening_min_points=30")
    assert code == 0 and "Rules: german(opening_min_points=30)" in out


def test_rules_from_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "viennese"\nknock_comparison = "le"\n', encoding="utf-8")
    code, out, _ = run("rules", "--file", str(path), "--json", "--set", "knock_threshold=6")
    data = json.loads(out)
    assert code == 0 and (data["name"], data["knock_comparison"], data["knock_threshold"]) == (
        "viennese",
        "le",
        6,
    )


def test_rules_list() -> None:
    code, out, _ = run("rules", "--list")
    assert code == 0
    for name in rk.PRESET_NAMES:
        assert name in out
    assert "knock rummy" in out and "scala quaranta" in out
    code, out, _ = run("rules", "--list", "--json")
    data = json.loads(out)
    assert list(data) == list(rk.PRESET_NAMES)
    assert "wiener" in data["viennese"] and "romme" in data["german"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("rules", "nope"), "unknown preset 'nope'"),
        (("rules", "german(foo=1)"), "unknown rule option 'foo'"),
        (("rules", "--set", "num_decks=three"), "num_decks"),
        (("rules", "--set", "hand_size=40"), "hand_size"),
        (("rules", "--set", "penalty_joker"), "option=value"),
        (("rules", "--set", "name=viennese"), "preset name"),
        (("rules", "--file", "/nonexistent/rules.toml"), "cannot read rules file"),
        (("rules", "german", "--file", "x.toml"), "not both"),
        (("meld", "--rules", "nope", "5H 6H JK"), "unknown preset"),
        (("meld", "5H 6H XX"), "not a card: 'XX'"),
        (("meld", "JK(=JK) 5H 6H"), "JK(=JK)"),
    ],
)
def test_bad_input_is_one_line_on_stderr(args: tuple[str, ...], needle: str) -> None:
    code, out, err = run(*args)
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert needle in err
    assert "Traceback" not in err


def test_meld_json_value_18() -> None:
    code, out, err = run("meld", "--rules", "german", "5H 6H JK", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["legal"] is True and data["kind"] == "run" and data["value"] == 18
    assert data["cards"] == ["5H", "6H", "JK"] and data["notation"] == "5H 6H JK(=7H)"
    assert data["jokers"] == [{"index": 2, "represents": ["7H"]}]
    assert data["layoff_cards"] == ["4H", "8H", "JK"]
    assert data["exchange_cards"] == ["7H"]


def test_meld_cards_as_separate_arguments() -> None:
    code, out, _ = run("meld", "6S", "6H", "JK", "--json")
    data = json.loads(out)
    assert code == 0 and data["kind"] == "set" and data["value"] == 18
    assert data["jokers"] == [{"index": 2, "represents": ["6C", "6D"]}]
    assert data["exchange_cards"] == ["6C", "6D"]


def test_meld_human_output() -> None:
    code, out, _ = run("meld", "JC QC JK AC")
    assert code == 0
    assert "legal run" in out and "41" in out and "JC QC JK(=KC) AC" in out and "KC" in out


def test_meld_under_other_rules() -> None:
    text = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    code, out, _ = run("meld", "--rules", "german", text, "--json")
    assert code == 0 and json.loads(out)["value"] == 96
    code, out, _ = run("meld", "--rules", "Scala 40", text, "--json")
    assert code == EXIT_ILLEGAL and json.loads(out)["rule"] == "allow_ace_both_ends"
    code, out, _ = run("meld", "-r", "german(max_adjacent_jokers=none)", "JK JK JK 4H 5H 6H", "--json")
    assert code == 0 and json.loads(out)["value"] == 21


def test_illegal_meld_exits_1_with_rule() -> None:
    code, out, err = run("meld", "KS AS 2S")
    assert code == EXIT_ILLEGAL == 1 and err == ""
    assert "illegal" in out and "no run round the corner (run_wraparound)" in out
    code, out, _ = run("meld", "3S JK JK", "--json")
    data = json.loads(out)
    assert code == 1
    assert data["legal"] is False and data["rule"] == "joker_limit" and "3S JK JK" in data["error"]
    assert data["cards"] == ["3S", "JK", "JK"]


def test_meld_exchange_note_when_exchange_is_off() -> None:
    code, out, _ = run("meld", "-r", "german(joker_exchange=false)", "6S 6H JK")
    assert code == 0 and "joker_exchange is off" in out


def test_demo_shows_live_results() -> None:
    code, out, err = run("demo")
    assert code == 0 and err == ""
    for name in rk.PRESET_NAMES:
        assert name in out
    assert "JC QC JK(=KC) AC" in out
    assert "no run round the corner" in out and "run_wraparound" not in out  # the rule's name, not its id
    # P1–P4 penalty column: german 58, german_dskv 48, scala40 53, basic 33
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()}
    assert rows["german"][-1] == "58" and rows["german_dskv"][-1] == "48"
    assert rows["scala40"][-1] == "53" and rows["basic"][-1] == "33"


def test_no_arguments_shows_help() -> None:
    result = runner.invoke(app, [])
    assert result.exit_code != 0 or "Usage" in result.output
    assert "rules" in result.output and "meld" in result.output and "demo" in result.output


def test_unknown_command_is_a_usage_error() -> None:
    result = runner.invoke(app, ["frobnicate"])
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize("columns", [80, 160])
def test_rules_coverage_shows_every_outcome_whatever_the_terminal_width(
    monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    """At 80 columns the table's last column (where the engine behaved differently) was cut off
    entirely; a narrow terminal now gets one block per option, every explanation wrapped."""
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, _ = run("rules", "viennese", "--coverage")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= columns
    flat = " ".join(out.split())
    assert "knock_threshold" in flat and "a deck of 54 cards cannot deal 10 cards to 6 players" in flat
    assert ("┃" in out) == (columns >= 110)  # the table where it fits, the blocks where it does not


def test_rules_coverage_prints_where_each_option_took_effect() -> None:
    code, out, _ = run("rules", "viennese", "--coverage", "--json")
    assert code == 0
    rows = json.loads(out)
    by_option: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_option.setdefault(row["option"], []).append(row)
    knock = {r["value"]: r for r in by_option["knock_threshold"]}
    assert {knock[v]["outcome"] for v in ("0", "15", "30")} == {"effect"}
    assert knock["none"]["outcome"] == "refused"
    assert all(r["where"] for r in by_option["knock_threshold"])
    assert by_option["gin_bonus"] == [
        {
            "option": "gin_bonus",
            "value": "",
            "outcome": "not applicable",
            "where": "only gin (hand_scoring = gin_difference) uses it",
        }
    ]
    assert by_option["draw_ties_and_jokers"][0]["outcome"] == "read"
    assert not [r for r in rows if r["outcome"] == "none"]


def test_rules_table_marks_options_that_do_not_apply() -> None:
    """Like RULES.md §6, the table shows ``–`` for an option that cannot matter under the rules (gin's
    joker options and the melding options), and the caption says so."""
    code, out, _ = run("rules", "gin")
    assert code == 0
    lines = {
        line.split("│")[1].strip(): line.split("│")[2].strip()
        for line in out.splitlines()
        if line.count("│") == 3 and line.split("│")[2].strip()
    }
    assert lines["joker_limit"] == lines["opening_min_points"] == lines["penalty_joker"] == "–"
    assert lines["knock_card"] == "10" and lines["start_mode"] == "gin_first_upcard"
    assert "– does not apply to these rules" in out


def test_a_meld_under_gin_has_no_joker_and_counts_off_the_deadwood() -> None:
    """Gin is played without jokers: a joker meld is refused (it was judged legal, with the joker as a
    lay-off card), and a meld's value is the deadwood it takes away, not an opening value."""
    code, out, _ = run("meld", "-r", "gin", "5H 6H JK", "--json")
    data = json.loads(out)
    assert code == 1 and data["rule"] == "jokers_total"
    code, out, _ = run("meld", "-r", "gin", "5H 6H 7H")
    assert code == 0 and "18 (deadwood it takes away)" in out
    lay_off = next(line for line in out.splitlines() if line.startswith("lay off"))
    assert lay_off.split()[2:] == ["4H", "8H"]
    assert "exchange" not in out  # gin has no jokers to exchange
    code, out, _ = run("meld", "5H 6H 7H")
    assert "18 (opening value)" in out and "JK" in out  # German Rummy: a joker may be laid off


@pytest.mark.parametrize(("preset", "takes"), [("romme_ohne_auslegen", 41), ("viennese", 5 + 6 + 20)])
def test_a_meld_without_table_melds_counts_its_cards_off_the_deadwood(preset: str, takes: int) -> None:
    """Rommé ohne Auslegen and Viennese keep every card in hand: a meld takes its cards' deadwood values
    away (the joker at its own value, 30 in Rommé ohne Auslegen), and there is nothing to lay off on
    or to exchange."""
    rules = rk.Rules.preset(preset)
    assert takes == 5 + 6 + rules.deadwood_joker
    code, out, _ = run("meld", "-r", preset, "5H 6H JK")
    assert code == 0 and f"{takes} (deadwood it takes away)" in out
    assert "lay off" not in out and "exchange" not in out
    data = json.loads(run("meld", "-r", preset, "5H 6H JK", "--json")[1])
    assert data["value"] == takes and not data["layoffs_played"] and not data["exchanges_played"]


def test_every_command_help_names_its_options_whole_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """No option name is cut to ``--max-tables-per-a…`` in a terminal of 80 columns; ``serve`` groups
    its many options in panels for that."""
    monkeypatch.setenv("COLUMNS", "80")
    commands = ("rules", "meld", "demo", "info", "play", "replay", "arena", "selfplay", "serve", "forget")
    for command in commands:
        code, out, _ = run(command, "--help")
        assert code == 0
        for line in out.splitlines():
            assert not re.search(r"--[a-z-]+…", line), (command, line)
            assert len(line) <= 80, (command, line)


@pytest.mark.parametrize("command", ["rules", "play", "arena", "replay", "serve"])
def test_a_flag_is_shown_without_a_value_in_the_help(command: str) -> None:
    """Recent typer wrote ``--json <bool>``, which reads as if the flag took a value (click refuses
    ``--json true``); a flag now shows no type, an option with a value keeps its own."""
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "<bool>" not in result.output
    assert "--help" in result.output
