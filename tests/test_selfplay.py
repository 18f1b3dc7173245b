"""Self-play records: N games written, every record replays, interrupted runs resume to the same files."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummykit.arena import ArenaConfig, EndlessHandError, build_games
from rummykit.bots import _FACTORIES, register_bot
from rummykit.bots.base import RandomBot
from rummykit.cli import app
from rummykit.record import Record
from rummykit.revisions import RULES_REVISION
from rummykit.selfplay import (
    INDEX_FILE,
    LOCK_FILE,
    BatchPlan,
    SelfPlayConfig,
    SelfPlayError,
    _sort_index,
    batch_file,
    plan_games,
    read_records,
    run_selfplay,
)

CONFIG = SelfPlayConfig("viennese", ("greedy", "random"), games=10, seed=4, batch=3)


class Stop(Exception):
    """Stands for an interruption (Ctrl-C, a lost driver) after some batches."""


def snapshot(folder: Path) -> dict[str, bytes]:
    """The run's files; the lock file holds the writer's process id, which differs from run to run."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != LOCK_FILE}


def test_n_games_written_and_every_record_replays(tmp_path: Path) -> None:
    res = run_selfplay(CONFIG, tmp_path, workers=1)
    assert (res.played, res.resumed) == (10, 0)
    assert sorted(p.name for p in tmp_path.glob("games-*.jsonl")) == [batch_file(b) for b in range(4)]
    index = [json.loads(line) for line in (tmp_path / INDEX_FILE).read_text().splitlines()]
    assert [e["batch"] for e in index] == [0, 1, 2, 3]
    assert [e["games"] for e in index] == [3, 3, 3, 1]
    lines = [ln for b in range(4) for ln in (tmp_path / batch_file(b)).read_text().splitlines()]
    assert len(lines) == 10
    seats = [s for e in index for s in e["seats"]]
    points = [p for e in index for p in e["points"]]
    for i, line in enumerate(lines):
        rnd = Record.loads(line).replay()
        assert rnd.is_over
        assert list(rnd.result.points) == points[i]
        assert seats[i] == (["greedy", "random"] if i % 2 == 0 else ["random", "greedy"])
    assert len({Record.loads(ln).seed for ln in lines}) == 10  # a fresh deal every game


def test_games_follow_the_arena_keys() -> None:
    games = plan_games(CONFIG)
    assert [g.deal for g in games] == list(range(10))
    arena = build_games(ArenaConfig("viennese", ("greedy", "random"), rounds=2, seed=4))
    assert (games[1].seats, games[1].rotation) == (arena[1].seats, arena[1].rotation)


def test_a_run_is_planned_without_a_list_of_its_games() -> None:
    """A run of millions of games plans in constant memory: each game is made when asked for."""
    config = SelfPlayConfig("viennese", ("greedy", "random", "greedy"), games=2_000_000, seed=4)
    tracemalloc.start()
    try:
        games = plan_games(config)
        batches = BatchPlan(games, config.batch_games())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000  # a list of the games took some 600 MB
    assert (len(games), len(batches), config.batch_games()) == (2_000_000, 20_000, 100)
    last = games[-1]
    assert (last.index, last.deal, last.rotation, last.seats) == (1_999_999, 1_999_999, 1, (1, 2, 0))
    assert last.specs == ("random", "greedy", "greedy")
    assert batches[-1] == games[1_999_900:] and batches.games_in(19_999) == 100
    assert [g.index for g in batches[3]] == list(range(300, 400))
    with pytest.raises(IndexError):
        games[2_000_000]


def test_the_index_is_put_in_order_line_by_line(tmp_path: Path) -> None:
    """Sorting the index of a long run copies its lines; it does not hold the entries in memory."""
    order = list(range(3000))
    random.Random(1).shuffle(order)
    filler = [["greedy", "random"]] * 100
    lines = [json.dumps({"batch": b, "first": 100 * b, "games": 100, "seats": filler}) for b in order]
    lines.insert(10, json.dumps({"batch": order[20], "games": 0}))  # an earlier line of the same batch
    (tmp_path / INDEX_FILE).write_text("\n".join(lines) + '\n{"batch": 7, "fi')  # and a torn one
    tracemalloc.start()
    try:
        _sort_index(tmp_path, 3000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < (tmp_path / INDEX_FILE).stat().st_size / 20
    entries = [json.loads(line) for line in (tmp_path / INDEX_FILE).read_text().splitlines()]
    assert [e["batch"] for e in entries] == list(range(3000))
    assert all(e["games"] == 100 for e in entries)  # a batch's last line wins


def test_interrupted_run_resumes_to_the_same_files(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    run_selfplay(CONFIG, whole, workers=1)
    cut = tmp_path / "cut"

    def stop_after_two_batches(done: int, total: int) -> None:
        if done >= 6:
            raise Stop

    with pytest.raises(Stop):
        run_selfplay(CONFIG, cut, workers=1, progress=stop_after_two_batches)
    assert len(list(cut.glob("games-*.jsonl"))) == 2
    # A torn index line and a half-written batch file, as a kill in mid-write leaves them.
    with (cut / INDEX_FILE).open("a") as f:
        f.write('{"batch": 2, "fi')
    (cut / (batch_file(2) + ".tmp")).write_text("{")
    first = (cut / batch_file(0)).stat().st_mtime_ns
    res = run_selfplay(CONFIG, cut, workers=2)
    assert (res.played, res.resumed) == (4, 6)  # finished batches are not played again
    assert (cut / batch_file(0)).stat().st_mtime_ns == first
    assert snapshot(cut) == snapshot(whole)
    again = run_selfplay(CONFIG, cut, workers=1)
    assert (again.played, again.resumed) == (0, 10)
    assert len(list(read_records(cut))) == 10


def test_a_backend_that_fails_before_any_game_leaves_no_run_behind(tmp_path: Path) -> None:
    """A mistyped cluster address fails before a game is played: the run it started is taken back
    (its folder too, when the run made it), so the corrected command is not told that the folder
    holds another run. A run that has games keeps them."""
    ray, unreachable = "ray", "127.0.0.1:1"
    made = tmp_path / "made"
    with pytest.raises(SelfPlayError, match=r"cannot reach the Ray cluster at 127\.0\.0\.1:1"):
        run_selfplay(CONFIG, made, backend=ray, ray_address=unreachable)
    assert not made.exists()
    given = tmp_path / "given"
    given.mkdir()
    with pytest.raises(SelfPlayError, match="cannot reach"):
        run_selfplay(CONFIG, given, backend=ray, ray_address=unreachable)
    assert given.is_dir() and not list(given.iterdir())
    played = tmp_path / "played"
    run_selfplay(CONFIG, played, workers=1)
    kept = snapshot(played)
    with pytest.raises(SelfPlayError, match="cannot reach"):
        run_selfplay(CONFIG, played, backend=ray, ray_address=unreachable)
    assert snapshot(played) == kept


def test_a_second_process_on_the_folder_is_refused_and_loses_nothing(tmp_path: Path) -> None:
    refusals: list[str] = []

    def start_a_second_run(done: int, total: int) -> None:
        if done == 3:
            with pytest.raises(SelfPlayError) as err:
                run_selfplay(CONFIG, tmp_path, workers=1)
            refusals.append(str(err.value))

    run_selfplay(CONFIG, tmp_path, workers=1, progress=start_a_second_run)
    assert len(refusals) == 1
    assert f"being written by another selfplay process (pid {os.getpid()})" in refusals[0]
    whole = tmp_path.parent / "whole"
    run_selfplay(CONFIG, whole, workers=1)
    assert snapshot(tmp_path) == snapshot(whole)


def test_a_killed_writer_leaves_no_lock_behind(tmp_path: Path) -> None:
    killed_after_two_batches = f"""
import os, signal
from rummykit.selfplay import SelfPlayConfig, run_selfplay
def kill(done, total):
    if done >= 6:
        os.kill(os.getpid(), signal.SIGKILL)
run_selfplay(SelfPlayConfig("viennese", ("greedy", "random"), games=10, seed=4, batch=3), {str(tmp_path)!r},
             workers=1, progress=kill)
"""
    proc = subprocess.run([sys.executable, "-c", killed_after_two_batches], capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr
    assert (tmp_path / LOCK_FILE).exists()
    res = run_selfplay(CONFIG, tmp_path, workers=1)
    assert (res.played, res.resumed) == (4, 6)
    whole = tmp_path.parent / "whole"
    run_selfplay(CONFIG, whole, workers=1)
    assert snapshot(tmp_path) == snapshot(whole)


def test_a_damaged_batch_is_played_again(tmp_path: Path) -> None:
    run_selfplay(CONFIG, tmp_path, workers=1)
    whole = snapshot(tmp_path)
    (tmp_path / batch_file(1)).write_text("damaged\n")
    (tmp_path / batch_file(3)).unlink()
    res = run_selfplay(CONFIG, tmp_path, workers=1)
    assert (res.played, res.resumed) == (4, 6)
    assert snapshot(tmp_path) == whole


def test_output_folder_of_another_run_or_other_files_is_refused(tmp_path: Path) -> None:
    run_selfplay(CONFIG, tmp_path / "run", workers=1)
    other = SelfPlayConfig("viennese", ("greedy", "random"), games=10, seed=5, batch=3)
    with pytest.raises(SelfPlayError, match=r"another self-play run .*seed"):
        run_selfplay(other, tmp_path / "run", workers=1)
    run_file = tmp_path / "run" / "run.json"
    run_file.write_text(run_file.read_text().replace('"digest": "', '"digest": "0'))
    # A whole run of other code is done: nothing is played, so nothing is mixed.
    done = run_selfplay(CONFIG, tmp_path / "run", workers=1)
    assert (done.played, done.resumed) == (0, 10)
    (tmp_path / "run" / batch_file(1)).unlink()  # a run with a batch to play again is refused
    with pytest.raises(SelfPlayError, match="other rummykit sources"):
        run_selfplay(CONFIG, tmp_path / "run", workers=1)
    # A run of before rules revisions were recorded: what played it is named beside what plays now.
    older = json.loads(run_file.read_text())
    del older["revision"]
    run_file.write_text(json.dumps(older))
    said = rf"sources 0[0-9a-f]{{11}}, rules revision not recorded; these are .*revision {RULES_REVISION}\)"
    with pytest.raises(SelfPlayError, match=said):
        run_selfplay(CONFIG, tmp_path / "run", workers=1)
    run_file.write_text("[]")
    with pytest.raises(SelfPlayError, match="not a self-play run file"):
        run_selfplay(CONFIG, tmp_path / "run", workers=1)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(SelfPlayError, match="not empty"):
        run_selfplay(CONFIG, tmp_path / "busy", workers=1)
    assert (tmp_path / "busy" / "notes.txt").read_text() == "mine"


def test_bad_setups() -> None:
    with pytest.raises(SelfPlayError, match="games must be"):
        plan_games(SelfPlayConfig("viennese", ("greedy", "random"), games=0))
    with pytest.raises(SelfPlayError, match=r"^self-play needs at least two bots") as info:
        plan_games(SelfPlayConfig("viennese", ("greedy",), games=3))
    assert "arena" not in str(info.value)
    with pytest.raises(SelfPlayError, match="unknown bot"):
        plan_games(SelfPlayConfig("viennese", ("greedy", "nobot"), games=3))


def test_matches_are_recorded_whole(tmp_path: Path) -> None:
    config = SelfPlayConfig("viennese", ("greedy", "random"), games=2, seed=1, mode="matches")
    run_selfplay(config, tmp_path, workers=1)
    records = list(read_records(tmp_path))
    assert [r.kind for r in records] == ["match", "match"]
    assert all(r.replay().is_over for r in records)


def test_cli_selfplay_writes_resumes_and_refuses(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["selfplay", "--rules", "viennese", "--bots", "greedy,random", "--games", "4", "--seed", "2"]
    args += ["--batch", "2", "--workers", "1", "--out", str(out)]
    first = CliRunner().invoke(app, [*args, "--json"])
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["played"] == 4
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and "0 games played, 4 already written" in again.stdout
    bad = CliRunner().invoke(app, [*args[:-2], "--out", str(tmp_path / "x"), "--bots", "greedy,nobody"])
    assert bad.exit_code == 2 and "unknown bot" in bad.stderr
    alone = CliRunner().invoke(app, [*args[:-2], "--out", str(tmp_path / "y"), "--bots", "greedy"])
    assert alone.exit_code == 2 and alone.stderr.startswith("error: self-play needs at least two bots")
    other = CliRunner().invoke(app, [*args, "--seed", "3"])
    assert other.exit_code == 2 and other.stderr.startswith("error: ")
    assert "another self-play run" in other.stderr


@pytest.mark.usefixtures("loopers")
def test_a_hand_that_never_ends_stops_self_play_with_a_clear_error(tmp_path: Path) -> None:
    looping = "viennese(max_takes_in_a_row=500)"  # the rules' own take bound beyond the guard (400)
    config = SelfPlayConfig(looping, ("looper", "looper"), games=1, seed=3, mode="matches")
    with pytest.raises(
        EndlessHandError, match=r"stopped at hand 1 of the match: the hand did not end within 400 actions"
    ):
        run_selfplay(config, tmp_path / "out", workers=1)
    # Under the default bound every hand ends dead, and the rubber stops at the unscored-hands guard.
    config = SelfPlayConfig("viennese", ("looper", "looper"), games=1, seed=3, mode="matches")
    with pytest.raises(
        EndlessHandError, match=r"stopped at hand 6 of the match: 5 hands in a row ended without a score"
    ):
        run_selfplay(config, tmp_path / "out2", workers=1)


class _Booked(RandomBot):
    """A random bot that says it plays from a book (its ``fingerprint``), like the policy bot's file."""

    name = "booked"
    book = "sha256:aaaa"

    @property
    def fingerprint(self) -> str:
        return _Booked.book


def test_a_run_does_not_resume_with_bots_that_play_from_other_inputs(tmp_path: Path) -> None:
    """A bot's weights are part of what played a run: resuming with another policy file would mix
    the games of two networks, so the run records the bots' fingerprints and refuses."""
    register_bot("booked", lambda level: _Booked())
    try:
        config = SelfPlayConfig("viennese", ("booked", "greedy"), games=4, seed=2, batch=2)
        run_selfplay(config, tmp_path, workers=1)
        assert json.loads((tmp_path / "run.json").read_text())["bot_inputs"] == {"booked": "sha256:aaaa"}
        (tmp_path / batch_file(1)).unlink()
        _Booked.book = "sha256:bbbb"
        with pytest.raises(SelfPlayError, match=r"bots with other inputs .*sha256:aaaa.*sha256:bbbb"):
            run_selfplay(config, tmp_path, workers=1)
        _Booked.book = "sha256:aaaa"
        assert run_selfplay(config, tmp_path, workers=1).played == 2
    finally:
        del _FACTORIES["booked"]
        _Booked.book = "sha256:aaaa"
    plain = json.loads((tmp_path / "run.json").read_text())
    assert "bot_inputs" not in SelfPlayConfig("viennese", ("greedy", "random"), games=4).to_dict()
    assert plain["bots"] == ["booked", "greedy"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and SIGKILL as on Linux")
def test_a_killed_run_leaves_no_lock_and_no_workers(tmp_path: Path) -> None:
    """``kill -9`` of the writing process only (the OOM killer, ``kill PID``): its pool workers, forked
    while it held ``run.lock``, lived on and kept the lock, so the resume was refused naming a dead
    process. The workers end with the writer, and the lock with them."""
    import signal
    import time

    from rummykit.selfplay import LOCK_FILE, _try_lock

    out = tmp_path / "run"
    command = [sys.executable, "-m", "rummykit", "selfplay", "--out", str(out), "--rules", "viennese",
               "--bots", "greedy,random", "--games", "4000", "--batch", "2", "--quiet",
               "--workers", "2"]  # fmt: skip
    quiet = subprocess.DEVNULL
    run = subprocess.Popen(command, stdout=quiet, stderr=quiet, start_new_session=True)
    deadline = time.monotonic() + 60
    while not (out / "index.jsonl").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert (out / "index.jsonl").exists(), "the run did not start writing"
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(run.pid, 0)  # any worker of the killed run left in its process group?
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.killpg(run.pid, signal.SIGKILL)
        raise AssertionError("the killed run's workers lived on")
    with (out / LOCK_FILE).open("a+b") as lock:
        assert _try_lock(lock.fileno())  # free for the resume


class _Failing(RandomBot):
    """Raises its own error on its fifth decision, or (``die``) ends the worker process it runs in."""

    def __init__(self, die: bool) -> None:
        self.die, self.moves = die, 0

    def choose(self, view: object, legal: object, rng: random.Random) -> object:
        self.moves += 1
        if self.moves == 5:
            if self.die and os.getpid() != PARENT:
                os._exit(1)
            if not self.die:
                raise RuntimeError("the bot's own bug")
        return super().choose(view, legal, rng)  # type: ignore[arg-type]


PARENT = os.getpid()


@pytest.mark.parametrize("command", ["arena", "selfplay"])
def test_a_failing_bot_or_a_dead_worker_is_one_error(tmp_path: Path, command: str) -> None:
    """A bot raising its own error (not an engine refusal), or a worker process killed under a run,
    ended the command with a Python traceback of 50–85 lines. Now ``error:`` lines: the bot, seat and
    game; or that a worker died, and how to go on."""
    register_bot("buggy", lambda level: _Failing(die=False))
    register_bot("dying", lambda level: _Failing(die=True))
    try:
        for bot, workers, expected in (
            ("buggy", "1", "error: a bot failed: RuntimeError: the bot's own bug"),
            ("dying", "2", "error: a worker process died (killed for memory?); "),
        ):
            args = [command, "--rules", "viennese", "--bots", f"{bot},greedy", "-q", "--workers", workers]
            args += ["-n", "20"] if command == "arena" else ["--games", "20", "--out", str(tmp_path / bot)]
            result = CliRunner().invoke(app, args)
            assert result.exit_code == 2, result.output
            assert "Traceback" not in result.output and result.output.startswith(expected), result.output
            if bot == "buggy":
                assert "\n  bot 'buggy' at seat 0 in game 0" in result.output
            elif command == "selfplay":
                assert result.output.rstrip().endswith("run the same command again to resume")
    finally:
        del _FACTORIES["buggy"], _FACTORIES["dying"]


class _Chatty(RandomBot):
    """Prints on the standard output, as Ray prints its workers' troubles ("(raylet) …")."""

    def choose(self, view: object, legal: object, rng: random.Random) -> object:
        print("(raylet) a line on the standard output")
        return super().choose(view, legal, rng)  # type: ignore[arg-type]


@pytest.mark.parametrize("command", ["arena", "selfplay"])
def test_the_standard_output_holds_the_figures_alone(tmp_path: Path, command: str) -> None:
    """With ``--json`` the standard output is read by a program; Ray's messages about a worker that died
    (printed there while the games run) made it unreadable. What is printed while the games run goes
    to the standard error."""
    register_bot("chatty", lambda level: _Chatty())
    try:
        args = [command, "--rules", "viennese", "--bots", "chatty,greedy", "-q", "--workers", "1", "--json"]
        args += ["-n", "4"] if command == "arena" else ["--games", "4", "--out", str(tmp_path / "run")]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["bots" if command == "arena" else "played"]
        assert "(raylet)" in result.stderr
    finally:
        del _FACTORIES["chatty"]


@pytest.mark.parametrize("command", ["arena", "selfplay"])
def test_sigterm_stops_a_run_saying_how_far_it_got(tmp_path: Path, command: str) -> None:
    """SIGTERM (a scheduler's stop, ``kill PID``) ended an arena or self-play run with status 143 and
    not a word: it stops as Ctrl-C does, with the games done and what became of them, status 130."""
    import signal
    import time

    # Slow bots in small batches: a pool worker that inherited the handler finished its queued games
    # (seconds) instead of ending when the pool stopped it with SIGTERM.
    args = ["--rules", "viennese", "--bots", "search:hard,search:hard", "--workers", "2", "--batch", "3"]
    if command == "arena":
        args += ["--rounds", "200000", "--json-file", str(tmp_path / "out.json")]
    else:
        args += ["--games", "200000", "--out", str(tmp_path / "run"), "--quiet"]
    run = subprocess.Popen([sys.executable, "-m", "rummykit", command, *args], stderr=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, text=True, start_new_session=True)  # fmt: skip
    time.sleep(5)
    run.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert time.monotonic() - sent < 2.5  # the workers end at once
    said = {"arena": "so nothing was written", "selfplay": "run the same command again to resume"}[command]
    assert err.startswith("interrupted") and said in err, err
    assert not (tmp_path / "out.json").exists()


def test_a_batch_file_changed_after_the_run_is_refused_by_its_readers(tmp_path: Path) -> None:
    """A batch file that lost its last line, or went missing, was read without a word (49 records for
    50, the rest no longer matching the index's seats and points), or failed with a raw
    FileNotFoundError; a game of a cut file was "not written". Each reader names the file."""
    from rummykit.errors import NotationError
    from rummykit.i18n import localize_error
    from rummykit.selfplay import game_line

    run_selfplay(CONFIG, tmp_path, workers=1)
    assert len(list(read_records(tmp_path))) == 10
    cut = tmp_path / batch_file(1)
    lines = cut.read_text(encoding="utf-8").splitlines(keepends=True)
    cut.write_text("".join(lines[:-1]), encoding="utf-8")
    with pytest.raises(NotationError, match=r"'games-000001\.jsonl' holds 2 games, not the 3 its index"):
        list(read_records(tmp_path))
    with pytest.raises(NotationError) as caught:
        game_line(tmp_path, 5)
    assert "holds fewer games than the 3 its index lists" in str(caught.value)
    assert "enthält weniger Partien als die 3" in localize_error(caught.value, "de")
    cut.write_text("".join([*lines[:-1], lines[0]]), encoding="utf-8")  # as many games, another one
    with pytest.raises(NotationError, match="holds other games than its index lists"):
        list(read_records(tmp_path))
    cut.write_text("".join(lines).replace("\n", "\r\n"), encoding="utf-8")  # as many games, other bytes
    with pytest.raises(NotationError, match="its SHA-256 differs"):
        list(read_records(tmp_path))
    cut.unlink()
    with pytest.raises(NotationError, match=r"the index lists 'games-000001\.jsonl', but the run has no"):
        list(read_records(tmp_path))
    assert game_line(tmp_path, 0)  # the other batches are still read


def test_self_play_records_say_every_seat_was_a_bot(tmp_path: Path) -> None:
    from rummykit.record_seats import RecordSeat

    run_selfplay(SelfPlayConfig(rules="gin", bots=("random", "greedy:easy"), games=2, seed=3), tmp_path)
    for record in read_records(tmp_path):
        assert record.seats is not None and {s.kind for s in record.seats} == {"bot"}
        assert sorted(s.bot or "" for s in record.seats) == ["greedy:easy", "random"]
        assert all(s == RecordSeat("bot", s.bot) for s in record.seats)
