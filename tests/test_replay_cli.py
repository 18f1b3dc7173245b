"""``rummykit replay FILE``: stepping through saved rounds and matches (typer's CliRunner)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rummykit as rk
from rummykit.actions import Discard
from rummykit.bots import make_bot
from rummykit.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def terminal_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")


def played_match(rules: str = "german", seed: int = 2) -> rk.Match:
    m = rk.Match.new(rk.Rules.parse(rules), 3, seed=seed, dealer=2)
    bot = make_bot("greedy")
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(bot.choose(m.round.view(m.to_move), m.legal_actions(), rng))
    return m


def save_match(tmp_path: Path, m: rk.Match) -> Path:
    data = rk.Record.from_match(m).to_dict()
    data["meta"] = {"names": ["You", "Bot 2", "Bot 3"]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def replay(*args: str, lines: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["replay", *args], input="".join(f"{line}\n" for line in lines))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_step_forwards_and_backwards_from_one_seat(tmp_path: Path) -> None:
    m = played_match("german(match_end=single_hand)")
    path = save_match(tmp_path, m)
    total = len(m.actions)
    code, out = replay(str(path), lines=["", "n", "b", "q"])
    assert code == 0
    screens = out.split("replay> ")
    assert f"action 0 of {total} · view: You" in screens[0]
    assert "Your hand (13 cards, by suit)" in screens[0]
    assert "Bot 2's hand" not in out and "Bot 3's hand" not in out
    assert f"action 1 of {total}" in screens[1] and "1. You " in screens[1]
    assert f"action 2 of {total}" in screens[2] and "2. You " in screens[2]
    assert f"action 1 of {total}" in screens[3]


def test_a_match_from_a_given_position_says_its_scores_were_not_played_here(tmp_path: Path) -> None:
    """A match record that starts from a position (a resumed series, a puzzle) shows scores before
    its first action: the start says they were not played in this record, and after how many hands."""
    position = rk.MatchPosition(totals=(95, 30, 60), pot=15, buybacks=(1, 0, 0), hands_dealt=3)
    m = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=1, dealer=0, position=position)
    path = save_match(tmp_path, m)
    code, out = replay(str(path), lines=["q"])
    assert code == 0 and "Starts from a given position (after 3 hands), not played here" in out
    code, out = replay(str(path), "--lang", "de", lines=["q"])
    assert code == 0 and "Beginnt mit vorgegebenem Stand (nach 3 Spielen), nicht hier erspielt" in out
    fresh = save_match(tmp_path, played_match("german(match_end=single_hand)"))
    assert "given position" not in replay(str(fresh), lines=["q"])[1]


def test_all_hands_and_round_end(tmp_path: Path) -> None:
    m = played_match("german(match_end=single_hand)")
    path = save_match(tmp_path, m)
    code, out = replay(str(path), "--all", lines=["end"])
    assert code == 0
    assert "view: all hands" in out
    for title in ("Your hand", "Bot 2's hand", "Bot 3's hand"):
        assert f"{title} (" in out
    assert "Hand 1 over: " in out


def test_round_navigation_and_seat_switch(tmp_path: Path) -> None:
    m = played_match("german", seed=4)
    assert len(m.rounds) >= 2
    path = save_match(tmp_path, m)
    code, out = replay(str(path), lines=["hand 2", "seat 2", "round 9", "go 3", "bogus"])
    assert code == 0
    assert "hand 2 of 3" in out
    assert "view: Bot 2" in out and "Bot 2's hand" in out
    assert "✗ there are 3 hands in this record" in out
    assert "action 3 of" in out
    assert "✗ unknown command 'bogus'" in out


def test_round_record(tmp_path: Path) -> None:
    rnd = rk.Round.new(rk.Rules.preset("viennese"), 2, seed=8)
    rng = random.Random(1)
    bot = make_bot("greedy")
    while not rnd.is_over:
        rnd.apply(bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
    path = tmp_path / "round.json"
    rk.Record.from_round(rnd).dump(path)
    code, out = replay(str(path), "--seat", "2", "--at", "2", lines=["end"])
    assert code == 0
    assert "Viennese Rummy (Wiener Rummy) · hand 1 · dealer Player 1 · replay" in out
    assert "action 2 of" in out and "view: Player 2" in out
    assert "Hand 1 over: " in out and "melds | deadwood" in out
    code, out = replay(str(path), lines=["round 2", "q"])
    assert code == 0 and "✗ there is 1 hand in this record" in out


def test_bad_record_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    path.write_text("{}", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "error: not a rummykit record" in result.stderr
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "error: cannot read record" in result.stderr


def test_a_record_that_is_not_utf8_or_nested_too_deeply_is_one_error_line(tmp_path: Path) -> None:
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"format": "rummykit-record", \x80\xff}')
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for path, message in ((binary, "error: a record must be JSON text (UTF-8)"), (deep, "nested too deeply")):
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code == 2 and message in result.stderr, result.output
        assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1
    result = runner.invoke(app, ["play", "--resume", str(deep)])
    assert result.exit_code == 2 and "nested too deeply" in result.stderr, result.output


def test_hostile_numbers_in_a_save_folder_are_skipped_and_refused_in_one_line(tmp_path: Path) -> None:
    """A seed of 5,000 digits (beyond Python's reading limit) and a table of 10**12 seats (which would
    be sized before anything checked it) are one error line each; the folder scan at the start of
    ``rummykit play`` skips them instead of stopping with a traceback."""
    from rummykit.cli.saves import latest_unfinished

    games = tmp_path / "games"
    games.mkdir()
    head = '{"format": "rummykit-record", "version": 1, "kind": "match", "rules": "german", "dealer": 1'
    (games / "digits.json").write_text(head + ', "players": 3, "seed": ' + "9" * 5000 + ', "actions": []}')
    draw = {"method": "high_card", "dealer": 1, "rounds": [["2D", "8C", "8D"]]}
    record = {"format": "rummykit-record", "version": 1, "kind": "match", "rules": "german", "dealer": 1}
    (games / "seats.json").write_text(json.dumps({**record, "players": 10**12, "seed": 3, "seat_draw": draw}))
    (games / "many.json").write_text(json.dumps({**record, "players": 10**9, "seed": 3, "actions": []}))
    assert latest_unfinished(games) is None
    expected = {
        "digits.json": "a number in it has too many digits",
        "seats.json": "players: German Rummy (Rommé) is played by 2 to 6 players, not 1000000000000",
        "many.json": "players: German Rummy (Rommé) is played by 2 to 6 players, not 1000000000\n",
    }
    for name, message in expected.items():
        for args in (["replay", str(games / name)], ["play", "--resume", str(games / name)]):
            result = runner.invoke(app, args)
            assert result.exit_code == 2 and message in result.stderr, (args, result.output)
            assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1


def test_a_card_laid_face_down_is_named_only_with_every_hand_shown(tmp_path: Path) -> None:
    # German Rummy: the last discard of the player who goes out lies face down (final_discard_face_down).
    m = next(
        m
        for seed in range(2, 40)
        if isinstance((m := played_match("german(match_end=single_hand)", seed)).actions[-1], Discard)
    )
    last = m.actions[-1]
    assert isinstance(last, Discard)
    winner = m.rounds[0].history[-1].seat
    viewer = (winner + 1) % 3
    path = save_match(tmp_path, m)
    names = ["You", "Bot 2", "Bot 3"]
    shown = f"{names[winner]} {'discard' if winner == 0 else 'discards'} "
    _, seen_by_other = replay(str(path), "--seat", str(viewer + 1), lines=["end", "q"])
    assert "laying a card face down" in seen_by_other
    assert shown not in seen_by_other.split("replay> ")[-2]
    _, seen_by_all = replay(str(path), "--all", lines=["end", "q"])
    assert shown in seen_by_all.split("replay> ")[-2]
    assert "laying a card face down" not in seen_by_all


REPLAY_ENGLISH = (
    "action ", "view:", "replay", "Your hand", "hand (", "cards left", "Stock ", "Discard ", "round 1",
    "hand 1", "discards", "draws", "takes", "unknown command", "all hands", "Points",
)  # fmt: skip
"""Words of the English replay screens that must not appear with ``--lang de``."""


def test_replay_in_german_with_lang_and_by_the_locale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = played_match("german(match_end=single_hand)")
    path = save_match(tmp_path, m)
    total = len(m.actions)
    code, out = replay(str(path), "--lang", "de", lines=["", "n", "xyz", "end", "all", "q"])
    assert code == 0
    screens = out.split("Wiedergabe> ")  # the German prompt
    assert len(screens) == 7 and "replay> " not in out
    # The save's default name is the game's, so it is said in German (a typed name would stay).
    assert f"Zug 0 von {total} · Sicht: Du" in screens[0] and "You" not in out
    assert "Wiedergabe" in screens[0] and "Enter vor · zurück" in screens[0]
    assert "1. Du ziehst vom Stoß" in screens[1]
    assert "✗ unbekannter Befehl 'xyz'" in out
    assert f"Zug {total} von {total}" in screens[4] and "Sicht: alle Hände" in screens[5]
    found = [w for w in REPLAY_ENGLISH if w in out]
    assert not found, f"English on a German replay screen: {found}"
    assert max(len(line.removeprefix("Wiedergabe> ")) for line in out.splitlines()) <= 80
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    _, by_locale = replay(str(path), lines=["q"])
    assert f"Zug 0 von {total}" in by_locale
    _, english = replay(str(path), "--lang", "en", lines=["q"])
    assert f"action 0 of {total}" in english


def test_replay_takes_german_command_words_in_every_language(tmp_path: Path) -> None:
    """The German help names German commands (``zu N``, ``spiel N``, ``anfang``, ``ende``, ``platz N``,
    ``alle``, ``beenden``), and they work in every language, as the English ones do."""
    from rummykit.cli.replay import REPLAY_HELP, REPLAY_HELP_DE

    assert len(REPLAY_HELP) <= 80 and len(REPLAY_HELP_DE) <= 80
    commands = REPLAY_HELP_DE.split(" · ")
    assert not {"go N", "hand N", "round N", "start", "end", "seat N", "all"} & set(commands), commands
    m = played_match("german(match_end=single_hand)")
    path = save_match(tmp_path, m)
    total = len(m.actions)
    german = ["zu 3", "zurück", "weiter", "ende", "anfang", "platz 2", "alle", "spiel 1", "spiel 9", "hilfe"]
    code, out = replay(str(path), "--lang", "de", lines=[*german, "beenden", "zu 1"])
    assert code == 0
    screens = out.split("Wiedergabe> ")
    assert f"Zug 3 von {total}" in screens[1] and f"Zug 2 von {total}" in screens[2]
    assert f"Zug 3 von {total}" in screens[3] and f"Zug {total} von {total}" in screens[4]
    assert f"Zug 0 von {total} · Sicht: Bot 2" in screens[6] and "Sicht: alle Hände" in screens[7]
    assert f"Zug 0 von {total}" in screens[8]
    assert "✗ diese Aufzeichnung hat 1 Spiel" in screens[9] and REPLAY_HELP_DE in screens[10]
    assert len(screens) == 12 and "unbekannter Befehl" not in out  # "beenden" quit: "zu 1" was not read
    # The English words in German, and the German words in English.
    _, mixed = replay(str(path), "--lang", "de", lines=["go 2", "end", "q"])
    assert f"Zug 2 von {total}" in mixed.split("Wiedergabe> ")[1]
    _, english = replay(str(path), lines=["zu 2", "platz 3", "ende", "beenden"])
    screens = english.split("replay> ")
    assert f"action 2 of {total}" in screens[1] and "view: Bot 3" in screens[2]
    assert f"action {total} of {total}" in screens[3] and "Wiedergabe" not in english


def test_replay_refuses_an_unknown_language(tmp_path: Path) -> None:
    path = save_match(tmp_path, played_match("german(match_end=single_hand)"))
    code, out = replay(str(path), "--lang", "fr", lines=[])
    assert code == 2 and "no language 'fr'" in out


def test_a_gin_replay_says_what_each_pass_means(tmp_path: Path) -> None:
    """Gin's passes are read in their phase, as in the game's own log: on the first upcard, and the
    defender's pass after laying off."""
    m = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3, dealer=1)
    m.apply("pass")
    m.apply("pass")
    bot, rng = make_bot("greedy"), random.Random(3)
    while not m.is_over:
        m.apply(bot.choose(m.round.view(m.to_move), m.legal_actions(), rng))
    data = rk.Record.from_match(m).to_dict()
    data["meta"] = {"names": ["You", "Bot 2"]}
    path = tmp_path / "gin.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    _, out = replay(str(path), "--all", lines=["", "", "end", "q"])
    assert "1. You pass on the upcard" in out and "2. Bot 2 passes on the upcard" in out
    last = out.split("replay> ")[-2]
    assert "Bot 2 is done laying melds" in last  # the defender's second pass ends the hand
    assert "laying off or melding" not in out  # each pass says which step it ends


def test_player_names_from_the_record_cannot_send_terminal_escapes(tmp_path: Path) -> None:
    m = played_match("german(match_end=single_hand)")
    data = rk.Record.from_match(m).to_dict()
    data["meta"] = {"names": ["\x1b[2J\x1b[31mEVIL", "\x07\x1b]0;title\x07", "Bot 3"]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = replay(str(path), "--all", lines=["end", "q"])
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "[2J[31mEVIL" in out and "]0;title" in out


def test_an_illegal_action_in_the_record_is_named(tmp_path: Path) -> None:
    m = rk.Match.new(rk.Rules.parse("german(match_end=single_hand)"), 3, seed=2, dealer=2)
    m.apply("draw")
    held = {str(card) for card in m.round.view(m.to_move).hand}
    absent = next(c for c in ("AH", "2H", "3H", "4H", "5H", "6H", "7H") if c not in held)
    data = rk.Record.from_match(m).to_dict()
    data["actions"] = [*data["actions"], f"discard {absent}"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)], input="end\nq\n")
    assert result.exit_code == 0, result.output  # what replays is shown, up to the refused action
    assert f"warning: record action 2 (discard {absent}) cannot be replayed: " in result.stderr
    assert "the replay stops there" in result.stderr and "action 1 of 1" in result.stdout


def test_a_refused_action_is_shown_in_the_rank_letters_of_the_table(tmp_path: Path) -> None:
    """The German table shows jack and queen as B and D; the warning and error lines under it said
    J♥ Q♥, as the English notation has them (they are printed outside the table's console)."""
    m = rk.Match.new(rk.Rules.parse("german(match_end=single_hand)"), 3, seed=2, dealer=2)
    m.apply("draw")
    data = rk.Record.from_match(m).to_dict()
    data["actions"] = [*data["actions"], "meld JH QH KH"]  # not an opening: refused
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    german = runner.invoke(app, ["replay", str(path), "--lang", "de"], input="end\nq\n")
    assert "Warnung: Zug 2 der Aufzeichnung (B♥ D♥ K♥ auslegen)" in german.stderr, german.stderr
    chosen = runner.invoke(app, ["replay", str(path), "--lang", "de", "--letters", "en"], input="q\n")
    assert "Warnung: Zug 2 der Aufzeichnung (J♥ Q♥ K♥ auslegen)" in chosen.stderr, chosen.stderr
    # A file name or a quoted input is the reader's own: kept as written.
    named = tmp_path / "J♠.json"
    named.write_text("{", encoding="utf-8")
    refused = runner.invoke(app, ["play", "--resume", str(named), "--lang", "de"], input="q\n")
    assert refused.exit_code == 2, refused.stderr
    assert "J♠.json kann nicht fortgesetzt werden" in refused.stderr and "B♠" not in refused.stderr


def test_a_game_of_a_selfplay_run_by_its_number(tmp_path: Path) -> None:
    """A self-play run is a folder of JSONL batches; ``--game N`` picks game N (from 0, as the
    index numbers them) from the folder or from a batch file, and only there."""
    from rummykit.selfplay import SelfPlayConfig, read_records, run_selfplay

    out = tmp_path / "run"
    run_selfplay(SelfPlayConfig("viennese", ("greedy", "random"), games=7, seed=3, batch=3), out, workers=1)
    games = list(read_records(out))
    for source, number in ((out, 4), (out / "games-000001.jsonl", 4), (out, 6), (out / "index.jsonl", 5)):
        code, text = replay(str(source), "--game", str(number), "--all", lines=["end"])
        assert code == 0, text
        expected = rk.Record.from_round(games[number].replay())
        assert f"action {len(expected.actions)} of {len(expected.actions)}" in text
        assert "greedy" in text and "random" in text and "Player 1" not in text, text  # named by bot
    lonely = tmp_path / "lonely.jsonl"
    lonely.write_text((out / "games-000002.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    assert replay(str(lonely), "--game", "0", lines=["q"])[0] == 0  # no index beside it: its line 0
    refusals = {
        (str(out),): "is a self-play run of many games: pick one with --game N",
        (str(out), "--game", "7"): "has no game 7; the games written are 0–6 (numbered from 0)",
        (str(out / "games-000000.jsonl"),): "holds a game per line: pick one with --game N",
        (str(lonely), "--game", "5"): "has no game 5",
        # A batch file holds only its own games: game 0 is in the first file, not this one.
        (str(out / "games-000001.jsonl"), "--game", "0"): "holds games 3–5 of its run",
        (str(out / "index.jsonl"),): "is a self-play run of many games: pick one with --game N",
        (str(out), "--game", "-1"): "--game must be 0 or more",
        # Any other folder is no run (it was called "a self-play run of many games").
        (str(tmp_path / "empty"),): "is a folder but no self-play run (it has no run.json)",
        (str(tmp_path / "empty"), "--game", "0"): "is a folder but no self-play run",
    }
    (tmp_path / "empty").mkdir()
    for args, message in refusals.items():
        result = runner.invoke(app, ["replay", *args])
        assert result.exit_code == 2 and message in " ".join(result.stderr.split()), (args, result.stderr)
    record = tmp_path / "one.json"
    games[0].dump(record)
    result = runner.invoke(app, ["replay", str(record), "--game", "1"])
    assert result.exit_code == 2 and "is one record" in " ".join(result.stderr.split())


@pytest.mark.parametrize(
    ("rules", "seed"), [("german(match_end=single_hand)", 0), ("scala40(match_end=single_hand)", 1)]
)
def test_every_hand_of_six_seats_fits_the_screen(tmp_path: Path, rules: str, seed: int) -> None:
    """``replay --all`` at a table of six: the hands shown one row each, a crowded table's melds in
    three columns (a joker written ``JK`` where the meld needs it) and a hand's result without the
    players table keep every screen within 80×24, the prompt's line included."""
    m = rk.Match.new(rk.Rules.parse(rules), 6, seed=seed)
    bot, rng = make_bot("greedy"), random.Random(seed)
    while not m.is_over:
        m.apply(bot.choose(m.round.view(m.to_move), m.legal_actions(), rng))
    path = tmp_path / "six.json"
    rk.Record.from_match(m).dump(path)
    steps = [f"go {k}" for k in range(0, len(m.actions) + 1)]
    code, out = replay("--all", str(path), lines=[*steps, "q"])
    screens = out.split("replay> ")[:-1]
    assert code == 0 and len(screens) == len(steps) + 1
    assert max(screen.count("\n") for screen in screens) <= 23
    assert all("Player 6" in screen for screen in screens)
    end = screens[-1]
    assert "Hand 1 over" in end and "cards  opened" not in end  # the result lists the hands


def test_a_partial_run_names_the_games_it_holds(tmp_path: Path) -> None:
    """A run killed after some batches holds games of the middle: the refusal of another number lists
    the numbers it holds (it said "its 4 written games are numbered from 0" of games 4 to 7)."""
    from rummykit.selfplay import SelfPlayConfig, run_selfplay

    out = tmp_path / "run"
    run_selfplay(SelfPlayConfig("viennese", ("greedy", "random"), games=9, seed=2, batch=3), out, workers=1)
    index = out / "index.jsonl"
    lines = index.read_text(encoding="utf-8").splitlines(keepends=True)
    index.write_text("".join(line for line in lines if '"games-000001' not in line), encoding="utf-8")
    code, text = replay(str(out), "--game", "4", lines=["q"])
    assert code == 2 and "has no game 4; the games written are 0–2, 6–8 (numbered from 0)" in text, text


def test_a_web_table_s_record_of_several_deals_and_reshuffles_is_stepped_through(tmp_path: Path) -> None:
    """A server's table deals from its secret: its record (version 2) holds every deal and every
    reshuffle, which the moves use one by one; the start of the replay uses none of them yet."""
    from rummykit.web.dealing import SecretDealing

    rules = rk.Rules.from_mapping({"preset": "viennese", "num_hands": 2, "match_end": "fixed_hands"})
    m = rk.Match.new(rules, 2, seed=0, dealing=SecretDealing(bytes(range(4, 36))))
    rng = random.Random(4)  # hand 1 reshuffles three times, hand 2 once
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert len(m.rounds) == 2 and [len(r.reshuffled_stocks) for r in m.rounds] == [3, 1]
    path = tmp_path / "web.json"
    path.write_text(rk.Record.from_match(m).dumps(), encoding="utf-8")
    code, out = replay(str(path), lines=["end", "round 2", "end"])
    assert code == 0 and "error" not in out, out[-400:]
    assert f"action {len(m.actions)} of {len(m.actions)}" in out and "hand 2 of 2" in out


# A club player's audit: a replay ends as the live game did, and speaks the default names in its language
def _played_and_saved(data_dir: Path, *args: str) -> tuple[Path, str]:
    """A match played through ``rummykit play`` with ``auto`` to its end; its save and the output."""
    result = runner.invoke(
        app,
        ["play", "--fast", "--dealer", "3", "--seed", "0", "--bots", "greedy", *args],
        input=("auto\n" * 120 + "\n") * 15,  # Enter between hands
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    path = max((data_dir / "games").glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    return path, result.output


def _last_line_starting(out: str, start: str) -> str:
    """The last line beginning with ``start``, to its closing parenthesis (wrapped lines joined)."""
    text = start + " " + " ".join(out.split(start)[-1].split())
    return text[: text.index(")") + 1]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_replay_of_a_finished_match_ends_with_the_match_over_line(data_dir: Path, lang: str) -> None:
    """The replay of a finished match stopped at the last hand's score table; the live game went on to
    say who won the match (``Partie beendet: … gewinnt``). Now the replay's last position says it too,
    word for word, and no other position does."""
    rules = "german(hand_scoring=winner_gets_sum,match_end=penalty_limit,penalty_limit=100)"
    path, live = _played_and_saved(data_dir, "--rules", rules, "--lang", lang)
    over = "Match over:" if lang == "en" else "Partie beendet:"
    assert over in live
    said = _last_line_starting(live, over)
    assert ("minus points" if lang == "en" else "Minuspunkte") in said
    total = len(rk.Record.load(path).actions)
    code, out = replay(str(path), "--lang", lang, lines=["end", f"go {total - 1}", "end", "q"])
    assert code == 0
    screens = out.split("replay> " if lang == "en" else "Wiedergabe> ")
    assert over not in screens[0] and over not in screens[2]
    for end in (screens[1], screens[3]):
        assert _last_line_starting(end, over) == said
        assert end.index("over: " if lang == "en" else "vorbei: ") < end.index(over)  # below the scores
        assert max(len(line) for line in end.splitlines()) <= 80
        assert len(end.rstrip("\n").splitlines()) <= 23


def test_a_replay_of_a_match_not_ended_or_of_one_hand_has_no_match_over_line(tmp_path: Path) -> None:
    m = played_match("german(match_end=single_hand)")
    path = save_match(tmp_path, m)
    _, whole = replay(str(path), lines=["end", "q"])
    assert "Match over: " in whole
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:-1]
    path.write_text(json.dumps(data), encoding="utf-8")
    _, cut = replay(str(path), lines=["end", "q"])
    assert "Match over" not in cut
    rnd = rk.Round.new(rk.Rules.preset("german"), 3, seed=2)
    rng, bot = random.Random(2), make_bot("greedy")
    while not rnd.is_over:
        rnd.apply(bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
    single = tmp_path / "hand.json"
    single.write_text(json.dumps(rk.Record.from_round(rnd).to_dict()), encoding="utf-8")
    _, hand = replay(str(single), lines=["end", "q"])
    assert "Hand 1 over: " in hand and "Match over" not in hand


def test_a_default_name_is_replayed_in_the_chosen_language_a_typed_one_as_typed(data_dir: Path) -> None:
    """A game saved in English and replayed with ``--lang de`` read "Hand von You"; the game's default
    names are now said in the replay's language, in both directions, and a name a person typed (even
    one that reads like a default) is kept."""
    path, _ = _played_and_saved(data_dir, "--set", "match_end=single_hand", "--lang", "en")
    meta = json.loads(path.read_text(encoding="utf-8"))["meta"]
    assert meta["names"] == ["You", "Bot 2", "Bot 3"] and meta["typed"] == [False, False, False]
    _, german = replay(str(path), "--lang", "de", lines=["q"])
    assert "Deine Hand" in german and "Sicht: Du" in german and "You" not in german
    path, _ = _played_and_saved(data_dir, "--set", "match_end=single_hand", "--lang", "de", "--new")
    _, english = replay(str(path), "--lang", "en", lines=["q"])
    assert "Your hand" in english and "view: You" in english and "Du" not in english
    # Typed names, one of them "You": kept as typed. A save of an older rummykit (no meta.typed): the
    # names that are defaults are given in the replay's language, the others kept.
    m = played_match("german(match_end=single_hand)")
    data = rk.Record.from_match(m).to_dict()
    folder = data_dir / "older"
    folder.mkdir()
    cases: list[tuple[list[bool] | None, tuple[str, ...]]] = [
        ([True, True, False], ("You", "Anna", "Bot 3")),
        (None, ("Du", "Spieler 2", "Bot 3")),
    ]
    for typed, expected in cases:
        names = ["You", "Anna" if typed else "Player 2", "Bot 3"]
        data["meta"] = {"names": names} | ({"typed": typed} if typed else {})
        saved = folder / f"{typed is not None}.json"
        saved.write_text(json.dumps(data), encoding="utf-8")
        _, out = replay(str(saved), "--lang", "de", "--all", lines=["q"])
        lines = out.splitlines()
        at = next(i for i, line in enumerate(lines) if "Karten  ausgelegt" in line)
        rows = lines[at + 1 : at + 4]
        assert [row.removeprefix("▶").split()[0] for row in rows] == [n.split()[0] for n in expected], rows
        assert all(name in row for name, row in zip(expected, rows, strict=True)), rows


def test_a_record_s_seats_name_its_bots_and_mark_a_person_s_stand_in_and_hinted_moves(tmp_path: Path) -> None:
    m = played_match("german(match_end=single_hand)")
    replayed = rk.Match.new(m.rules, 3, seed=m.seed, dealer=2)
    movers = []
    for action in m.actions:
        movers.append(replayed.to_move)
        replayed.apply(action)
    mine = [n for n, seat in enumerate(movers, start=1) if seat == 0]
    data = rk.Record.from_match(m).to_dict()
    data["seats"] = [
        {"kind": "person", "stand_in": [mine[0]], "hinted": [mine[1]]},
        {"kind": "bot", "bot": "greedy:medium"},
        {"kind": "bot"},
    ]
    path = tmp_path / "web.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out = replay(str(path), "--all", lines=[f"go {mine[0]}", f"go {mine[1]}", f"go {mine[2]}", "q"])
    assert code == 0
    screens = out.split("replay> ")
    assert "greedy:medium" in screens[0] and "Bot 3" in screens[0] and "Player 1" in screens[0]
    assert f"{mine[0]}. Player 1 " in screens[1] and "(a stand-in bot)" in screens[1]
    assert f"{mine[1]}. Player 1 " in screens[2] and "(after a hint)" in screens[2]
    assert f"{mine[2]}. Player 1 " in screens[3]
    assert "(a stand-in bot)" not in screens[3] and "(after a hint)" not in screens[3]
    code, out = replay(str(path), "--all", "--lang", "de", lines=[f"zu {mine[0]}", f"zu {mine[1]}", "q"])
    screens = out.split("Wiedergabe> ")
    assert "(Bot als Vertretung)" in screens[1] and "(nach einem Tipp)" in screens[2]


def test_the_replay_says_what_an_opening_counts(tmp_path: Path) -> None:
    m = played_match("german(match_end=single_hand)")
    path = save_match(tmp_path, m)
    at = next(i for i, a in enumerate(m.actions, start=1) if isinstance(a, rk.actions.Open))
    code, out = replay(str(path), "--all", lines=[f"go {at}", "q"])
    assert code == 0
    line = next(x for x in out.split("replay> ")[1].splitlines() if x.strip().startswith(f"{at}. "))
    assert " opens " in line and line.rstrip().endswith("points)"), line
