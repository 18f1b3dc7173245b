"""Files a stranger hands a player, read by the terminal tools (``play``, ``play --resume``, the offer
of an unfinished game, ``replay``): a shared save folder with links beside the save, escapes in a
save's fields or in a file's name, a record far longer than any game, a save that seats a bot at a
table it cannot play, and a malformed draw for the first dealer."""

from __future__ import annotations

import dataclasses
import errno
import io
import json
import os
import random
import tracemalloc
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import rummykit as rk
from rummykit.actions import Discard
from rummykit.bots import make_bot
from rummykit.cli import app, screen
from rummykit.cli.replay import ReplaySession
from rummykit.cli.saves import MAX_SAVE_BYTES, load_saved, write_save
from rummykit.errors import NotationError

runner = CliRunner()
OSC52 = "\x1b]52;c;bHMK\x1b\\"
"""An escape that writes the terminal's clipboard."""


def play(*args: str, lines: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["play", "--fast", *args], input="".join(f"{line}\n" for line in lines))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def an_unfinished_save(data_dir: Path) -> Path:
    """A game saved by ``rummykit play`` after one move of the person."""
    play("--seed", "3", "--bots", "random", "--dealer", "3", lines=["d", "x 1", "quit"])
    (path,) = sorted((data_dir / "games").glob("*.json"))
    return path


def edit_save(path: Path, **meta: object) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["meta"].update(meta)
    path.write_text(json.dumps(data), encoding="utf-8")


# 1. Writing a save --------------------------------------------------------------------------------
def test_write_save_does_not_write_through_a_link_at_its_temporary_name(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("victim", encoding="utf-8")
    (tmp_path / ".game.json.tmp").symlink_to(victim)
    write_save(tmp_path / "game.json", '{"saved": 1}\n')
    assert victim.read_text(encoding="utf-8") == "victim"
    assert (tmp_path / "game.json").read_text(encoding="utf-8") == '{"saved": 1}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == [".game.json.tmp", "game.json", "victim.txt"]


def test_write_save_is_not_stopped_by_a_folder_at_its_temporary_name(tmp_path: Path) -> None:
    (tmp_path / ".game.json.tmp").mkdir()
    write_save(tmp_path / "game.json", "{}\n")
    assert (tmp_path / "game.json").read_text(encoding="utf-8") == "{}\n"


def test_write_save_replaces_a_link_at_the_save_itself(tmp_path: Path) -> None:
    """``os.replace`` renames over the link: the file it pointed to stays as it was."""
    victim = tmp_path / "victim.txt"
    victim.write_text("victim", encoding="utf-8")
    (tmp_path / "game.json").symlink_to(victim)
    write_save(tmp_path / "game.json", "{}\n")
    assert victim.read_text(encoding="utf-8") == "victim"
    assert not (tmp_path / "game.json").is_symlink()
    assert (tmp_path / "game.json").read_text(encoding="utf-8") == "{}\n"


def test_write_save_keeps_the_permissions_of_a_new_file_and_leaves_no_temporary_file(
    tmp_path: Path,
) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    write_save(tmp_path / "games" / "game.json", "{}\n")
    assert [p.name for p in (tmp_path / "games").iterdir()] == ["game.json"]
    assert (tmp_path / "games" / "game.json").stat().st_mode & 0o777 == 0o666 & ~umask


def test_resume_from_a_shared_folder_leaves_a_linked_file_alone(data_dir: Path) -> None:
    path = an_unfinished_save(data_dir)
    victim = data_dir / "victim.txt"
    victim.write_text("victim", encoding="utf-8")
    path.with_name(f".{path.name}.tmp").symlink_to(victim)
    code, out = play("--resume", str(path), lines=["d", "quit"])
    assert code == 0 and "game saved, to continue it" in out
    assert victim.read_text(encoding="utf-8") == "victim"
    assert len(load_saved(path).match.actions) > 0


def test_a_save_that_fails_while_playing_is_one_line_and_the_game_goes_on(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(path: Path, text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("rummykit.cli.play.write_save", full_disk)
    code, out = play("--seed", "3", "--bots", "random", "--dealer", "3", lines=["d", "x 1", "d", "quit"])
    assert code == 0 and "Traceback" not in out
    assert "warning: cannot save the game to " in out and ": No space left on device" in out
    assert "Bot 2 " in out  # the bots moved after the failed save
    assert "Game stopped (quit); not saved: cannot save the game to " in out
    assert "game saved" not in out


# 2. and 3. What a save says, and its file's name, printed --------------------------------------------
def test_the_offer_shows_meta_saved_only_as_a_timestamp(data_dir: Path) -> None:
    path = an_unfinished_save(data_dir)
    edit_save(path, saved=OSC52)
    _, out = play(lines=["n", "quit"])
    assert "\x1b" not in out
    assert load_saved(path).saved == ""
    assert "Unfinished game: " in out and "saved unknown time" in " ".join(out.split())
    edit_save(path, saved="2026-01-01T10:00:00")
    _, out = play(lines=["n", "quit"])
    assert "saved 2026-01-01 10:00" in " ".join(out.split())


def test_a_file_name_with_escapes_is_written_out_in_the_note(data_dir: Path) -> None:
    games = data_dir / "games"
    games.mkdir()
    (games / f"x{OSC52}.json").write_text("{}", encoding="utf-8")
    _, out = play(lines=["quit"])
    assert "\x1b" not in out
    assert "note: 'x\\x1b]52;c;bHMK\\x1b\\\\.json' cannot be resumed" in out


def test_a_file_name_with_escapes_is_written_out_when_resuming(data_dir: Path) -> None:
    path = an_unfinished_save(data_dir)
    strange = path.with_name(f"x{OSC52}.json")
    path.rename(strange)
    code, out = play("--resume", str(strange), lines=["quit"])
    assert code == 0 and "\x1b" not in out
    assert "resumed 'x\\x1b]52;c;bHMK\\x1b\\\\.json': hand 1" in out
    result = runner.invoke(app, ["play", "--resume", str(data_dir / f"gone{OSC52}.json")])
    assert result.exit_code == 2 and "\x1b" not in result.output
    assert "cannot resume 'gone\\x1b]52;c;bHMK\\x1b\\\\.json'" in result.output


# 4. A long record in replay ---------------------------------------------------------------------------
def long_round(actions: int) -> rk.Record:
    """Draw and discard the card drawn, ``actions`` times, the stock rebuilt without end."""
    rnd = rk.Round.new(rk.Rules.parse("german(max_stock_rebuilds=unlimited)"), 2, seed=1)
    while len(rnd.history) < actions:
        before = list(rnd.view(rnd.to_move).hand)
        rnd.apply("draw")
        hand = list(rnd.view(rnd.to_move).hand)
        for card in before:
            hand.remove(card)
        rnd.apply(Discard(hand[0]))
    return rk.Record.from_round(rnd)


def test_replay_refuses_a_record_larger_than_a_save(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(long_round(20).dumps() + " " * MAX_SAVE_BYTES, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)], input="q\n")
    assert result.exit_code == 2
    assert f"is {path.stat().st_size} bytes; a record is at most {MAX_SAVE_BYTES}" in result.output


def test_a_batch_file_line_is_never_read_whole_beyond_the_limit(tmp_path: Path) -> None:
    """A batch file without its run's index, its first line 20 million characters long: replaying
    its second game skips the long line a piece at a time, the first game is refused after
    reading at most the limit, and so is a run's reader (``read_records``' lines)."""
    from rummykit.selfplay import nth_record_line, record_lines

    path = tmp_path / "games-000000.jsonl"
    good = long_round(3).dumps(indent=None)
    path.write_text("x" * 20_000_000 + "\n" + good + "\n", encoding="utf-8")
    tracemalloc.start()
    try:
        assert nth_record_line(path, 1) == good + "\n"
        with pytest.raises(NotationError, match=r"line 1 of .* is longer than 2000000 characters"):
            list(record_lines(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10_000_000  # the whole line: some 40 MB (characters and bytes)
    assert nth_record_line(path, 2) is None
    second = runner.invoke(app, ["replay", str(path), "--game", "1"], input="q\n")
    assert second.exit_code == 0, second.output
    first = runner.invoke(app, ["replay", str(path), "--game", "0", "--lang", "de"], input="q\n")
    assert first.exit_code == 2
    grouped = f"{MAX_SAVE_BYTES:,}".replace(",", ".")
    assert "Zeile 1 von" in first.output and f"hat mehr als {grouped} Zeichen" in first.output


def test_a_line_of_exactly_the_limit_is_read_with_or_without_its_newline(tmp_path: Path) -> None:
    from rummykit.selfplay import nth_record_line, record_lines

    path = tmp_path / "lines.jsonl"
    path.write_text("a" * 10 + "\n" + "b" * 10, encoding="utf-8")
    assert list(record_lines(path, 10)) == ["a" * 10 + "\n", "b" * 10]
    assert nth_record_line(path, 0, 10) == "a" * 10 + "\n" and nth_record_line(path, 1, 10) == "b" * 10
    path.write_text("a" * 11 + "\n" + "b" * 10, encoding="utf-8")
    with pytest.raises(NotationError, match=r"line 1 of .* is longer than 10 characters"):
        list(record_lines(path, 10))
    assert nth_record_line(path, 1, 10) == "b" * 10
    with pytest.raises(NotationError, match=r"line 1 of .* is longer than 10 characters"):
        nth_record_line(path, 0, 10)


def test_replay_memory_does_not_grow_with_a_table_per_action() -> None:
    record = long_round(4000)
    tracemalloc.start()
    try:
        session = ReplaySession(record, None, Console(file=io.StringIO()), lambda prompt: "q")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert session.total == 4000
    assert peak < 6_000_000  # a table per action: some 17 MB


@pytest.mark.parametrize("rules", ["german", "viennese"])
def test_replay_frames_between_snapshots_are_those_of_the_game(rules: str) -> None:
    m = rk.Match.new(rk.Rules.parse(rules), 3, seed=4, dealer=2)
    bot, rng = make_bot("greedy"), random.Random(4)
    while not m.is_over and len(m.actions) < 600:
        m.apply(bot.choose(m.round.view(m.to_move), m.legal_actions(), rng))
    record = rk.Record.from_match(m)
    session = ReplaySession(record, None, Console(file=io.StringIO()), lambda prompt: "q")
    game = dataclasses.replace(record, actions=()).replay()
    expected = [(game.round.state(), screen.match_scoreboard(game))]
    for action in record.actions:
        game.apply(action)
        expected.append((game.round.state(), screen.match_scoreboard(game)))
    positions = list(range(len(expected)))
    order = positions + positions[::-1] + random.Random(1).sample(positions, len(positions))
    for p in order:
        frame = session.frame(p)
        assert (frame.state, frame.score) == expected[p], p
    assert len(m.rounds) > 1


# 5. and 6. A save the game cannot go on with -------------------------------------------------------------
def test_resume_refuses_a_bot_that_cannot_play_the_table(data_dir: Path) -> None:
    path = an_unfinished_save(data_dir)
    edit_save(path, players=["human", "openspiel-simple", "random:medium"])
    result = runner.invoke(app, ["play", "--resume", str(path), "--fast"], input="d\nx 1\nquit\n")
    assert result.exit_code == 2, result.output
    assert f"error: cannot resume {path.name}: openspiel-simple plays OpenSpiel's gin" in result.output
    assert "Your turn" not in result.output


def test_an_empty_card_in_the_first_dealer_draw_is_refused(data_dir: Path) -> None:
    path = an_unfinished_save(data_dir)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["seat_draw"] = {"method": "high_card", "dealer": 0, "rounds": [["", "", ""]]}
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(NotationError, match="seat_draw"):
        load_saved(path)
    for args in (["play", "--resume", str(path)], ["replay", str(path)]):
        result = runner.invoke(app, args, input="quit\n")
        assert result.exit_code == 2 and not isinstance(result.exception, IndexError)
        assert "record field 'seat_draw': '' is not one card" in result.output
