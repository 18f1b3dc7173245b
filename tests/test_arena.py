"""Arena: determinism across workers and backends, output shapes, Elo and interval maths, CLI."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import shutil
import socket
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import rummykit.guard as guard_module
from rummykit.actions import Action
from rummykit.arena import (
    MAX_GAMES,
    ArenaConfig,
    ArenaError,
    EndlessHandError,
    Mode,
    batch_size,
    build_games,
    elo_ratings,
    mean_interval,
    plot_ladder,
    run_arena,
    t975,
    wilson_interval,
)
from rummykit.bots import _FACTORIES, canonical_spec, register_bot
from rummykit.cli import app
from rummykit.errors import CardNotInHandError

CONFIG = ArenaConfig("viennese", ("greedy", "random"), rounds=8, seed=5)


def test_duplicate_deals_rotate_seats() -> None:
    games = build_games(ArenaConfig("german", ("greedy", "random", "search"), rounds=5, seed=1))
    assert len(games) == 6  # rounded up to whole rotations of three seats
    first = [g for g in games if g.deal == 0]
    assert sorted(g.seats for g in first) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


@pytest.mark.parametrize(("bots", "rounds", "least", "most"), [(5, 100, 20, 30), (6, 120, 18, 30)])
def test_neighbours_are_balanced_before_the_deals_cover_every_order(
    bots: int, rounds: int, least: int, most: int
) -> None:
    """With five or six bots the deals cover every order round the table only after 24 or 120: in
    the order of ``itertools.permutations`` a run of 20 deals at six kept bot 0 before bot 1 in all
    120 games and never put bot 1 before bot 0. Every bot sits directly before every other one
    about as often, and in every seat as often."""
    games = build_games(ArenaConfig("german", ("random",) * bots, rounds=rounds, seed=0))
    before = Counter((g.seats[s], g.seats[(s + 1) % bots]) for g in games for s in range(bots))
    counts = [before[(a, b)] for a in range(bots) for b in range(bots) if a != b]
    assert least <= min(counts) and max(counts) <= most, (min(counts), max(counts))
    assert len({n for n in Counter((g.seats[s], s) for g in games for s in range(bots)).values()}) == 1


def test_in_a_match_of_three_two_who_lost_are_told_apart_by_their_points() -> None:
    """Head to head in whole matches: the winner is ahead of both others, and of the two who did not
    win, the one with more points (they counted as tied before, whatever their scores)."""
    from rummykit.arena import ArenaResult, GameResult

    config = ArenaConfig("viennese", ("greedy", "random", "high"), rounds=3, seed=0, mode="matches")
    results = [
        GameResult(0, (0, 1, 2), (-90, -104, -125), (1.0, 0.0, 0.0), (1, 1, 1), (0.0, 0.0, 0.0)),
        GameResult(1, (1, 2, 0), (-130, -81, -111), (0.0, 1.0, 0.0), (1, 1, 1), (0.0, 0.0, 0.0)),
        GameResult(2, (2, 0, 1), (-120, -120, -60), (0.0, 0.0, 1.0), (1, 1, 1), (0.0, 0.0, 0.0)),
    ]
    scores, games = ArenaResult(config, results, "local", 1, 1.0).pairwise()
    assert games == {(0, 1): 3, (0, 2): 3, (1, 2): 3}
    # greedy-random: won; neither won, -111 ahead of -130; random won. greedy-high: won; high won;
    # neither won, -120 each (half). random-high: neither won, -104 ahead of -125; high won; random won.
    assert scores == {(0, 1): 2.0, (0, 2): 1.5, (1, 2): 2.0}


def test_a_round_a_bot_sat_out_is_none_of_its_games() -> None:
    """German DSkV at four: the dealer sits out. Its 0 is no score: the round counts in none of its
    figures, and it is compared with nobody in that round (it tied the winner before)."""
    import rummykit as rk
    from rummykit.selfplay import SelfPlayConfig, run_selfplay

    config = ArenaConfig("german_dskv", ("greedy", "random", "random", "random"), rounds=16, seed=1)
    res = run_arena(config, workers=1)
    played = Counter(bot for r in res.results for s, bot in enumerate(r.seats) if s not in r.sat_out)
    assert all(len(r.sat_out) == 1 for r in res.results) and set(played.values()) == {12}
    out = res.to_dict(timing=False)
    assert [b["games"] for b in out["bots"].values()] == [12, 12, 12, 12]
    assert out["bots"]["greedy"]["win_rate"] > 0.75  # one round in four sat out capped it there
    mine = [r.points[r.seats.index(0)] for r in res.results if r.seats.index(0) not in r.sat_out]
    assert out["bots"]["greedy"]["mean_points"] == pytest.approx(sum(mine) / len(mine), abs=1e-6)
    assert {p["games"] for p in out["pairs"]} == {8}  # together and both playing: 2 rotations of 4
    # Self-play's index says which seats sat out; the records agree.
    with tempfile.TemporaryDirectory() as folder:
        bots = ("greedy", "random", "random", "random")
        run_selfplay(SelfPlayConfig("german_dskv", bots, games=4, seed=1), folder, workers=1)
        entry = json.loads((Path(folder) / "index.jsonl").read_text().splitlines()[0])
        lines = (Path(folder) / entry["file"]).read_text().splitlines()
        for line, seats in zip(lines, entry["sat_out"], strict=True):
            rnd = rk.Record.loads(line).replay()
            assert seats == [s for s in range(4) if s not in rnd.active_seats] and len(seats) == 1


def test_round_robin_pairs() -> None:
    games = build_games(ArenaConfig("viennese", ("greedy", "random", "greedy"), rounds=2, round_robin=True))
    assert {g.seats for g in games} == {(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)}
    names = ArenaConfig("viennese", ("greedy", "random", "greedy")).names()
    assert names == ("greedy#1", "random", "greedy#2")


def test_same_seed_same_figures_for_any_worker_count() -> None:
    one = run_arena(CONFIG, workers=1).to_dict(timing=False)
    two = run_arena(CONFIG, workers=2).to_dict(timing=False)
    assert one == two
    assert one["rounds"] == 8
    other = run_arena(ArenaConfig("viennese", ("greedy", "random"), rounds=8, seed=6), workers=1)
    assert (
        other.to_dict(timing=False)["bots"]["random"]["mean_points"] != one["bots"]["random"]["mean_points"]
    )


def test_ray_backend_gives_the_same_figures() -> None:
    ray = pytest.importorskip("ray")
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # Ray's socket paths must stay short
    ray.init(num_cpus=2, include_dashboard=False, _temp_dir=temp, log_to_driver=False)
    try:
        on_ray = run_arena(CONFIG, workers=2, backend="ray").to_dict(timing=False)
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
    assert on_ray == run_arena(CONFIG, workers=1).to_dict(timing=False)


def test_json_and_csv_shape() -> None:
    res = run_arena(CONFIG, workers=1)
    data = res.to_dict()
    for fig in data["bots"].values():
        assert {"win_rate", "mean_points", "ci95", "elo", "seconds_per_move"} <= set(fig)
        lo, hi = fig["ci95"]
        assert 0 <= lo <= fig["win_rate"] <= hi <= 1
    assert data["bots"]["greedy"]["win_rate"] + data["bots"]["random"]["win_rate"] == pytest.approx(1.0)
    rows = list(csv.DictReader(io.StringIO(res.to_csv())))
    assert [r["bot"] for r in rows] == ["greedy", "random"]
    assert float(rows[0]["win_rate"]) == data["bots"]["greedy"]["win_rate"]
    # What played: the sources (the version changes rarely) and the rules revision.
    from rummykit.cluster import package_digest
    from rummykit.revisions import RULES_REVISION

    assert data["digest"] == package_digest() and data["revision"] == RULES_REVISION
    assert "bot_inputs" not in data  # neither bot reads a file


def test_matches_mode() -> None:
    res = run_arena(
        ArenaConfig("viennese", ("greedy", "random"), rounds=2, seed=2, mode="matches"), workers=1
    )
    data = res.to_dict(timing=False)
    assert data["matches"] == 2 and data["bots"]["greedy"]["games"] == 2
    # A Viennese rubber pays in chips: each bot's mean over the matches, from each match's ledger.
    ledgers = [r.chips for r in res.results]
    assert all(chips is not None for chips in ledgers)
    mine = [chips[r.seats.index(0)] for r, chips in zip(res.results, ledgers, strict=True) if chips]
    assert data["bots"]["greedy"]["mean_chips"] == pytest.approx(sum(mine) / 2)
    assert len(data["bots"]["greedy"]["chips_ci95"]) == 2
    german = run_arena(
        ArenaConfig("german", ("greedy", "random"), rounds=2, seed=2, mode="matches"), workers=1
    )
    rounds = run_arena(ArenaConfig("viennese", ("greedy", "random"), rounds=2, seed=2), workers=1)
    for other in (german, rounds):  # no chips in German Rummy; a single round has no ledger
        assert not any("mean_chips" in b for b in other.to_dict(timing=False)["bots"].values())


def test_one_deal_gives_no_interval_rather_than_a_certain_one() -> None:
    """Two rounds heads-up are one deal, its two rotations: the lead has no interval (it was shown
    as +27.00 to +27.00, as if certain); with two deals it has one."""
    one = run_arena(ArenaConfig("viennese", ("greedy", "random"), rounds=2, seed=0), workers=1).to_dict()
    (pair,) = one["pairs"]
    assert pair["deals"] == 1 and pair["lead_ci95"] == [None, None]
    args = ["arena", "-r", "viennese", "-b", "greedy,random", "-n", "2", "-q", "-w", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0 and "(no interval from one deal)" in " ".join(result.output.split())
    two = run_arena(ArenaConfig("viennese", ("greedy", "random"), rounds=4, seed=0), workers=1).to_dict()
    low, high = two["pairs"][0]["lead_ci95"]
    assert two["pairs"][0]["deals"] == 2 and low < two["pairs"][0]["lead_points"] < high


def test_wilson_and_mean_intervals() -> None:
    lo, hi = wilson_interval(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    mean, _mlo, mhi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and mhi - mean == pytest.approx(3.1824 * math.sqrt((5 / 3) / 4))  # t, 3 df
    normal = mean_interval([1.0, 2.0, 3.0, 4.0], z=1.96)
    assert normal[2] - mean == pytest.approx(1.96 * math.sqrt((5 / 3) / 4))


def test_t975_meets_the_table_and_the_normal_limit() -> None:
    # Exact quantiles (scipy.stats.t.ppf(0.975, df)) beyond the table: the expansion is that close.
    for df, exact in ((31, 2.039513), (40, 2.021075), (60, 2.000298), (120, 1.979930), (10**6, 1.959966)):
        assert t975(df) == pytest.approx(exact, abs=1e-4)
    assert [t975(df) for df in range(1, 200)] == sorted((t975(df) for df in range(1, 200)), reverse=True)
    with pytest.raises(ValueError):
        t975(0)


def test_elo_on_known_inputs() -> None:
    a, b = elo_ratings({(0, 1): 75.0}, {(0, 1): 100}, 2, prior=0)
    assert a - b == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert (a + b) / 2 == pytest.approx(1500)
    even = elo_ratings({(0, 1): 50.0}, {(0, 1): 100}, 2)
    assert even == pytest.approx([1500, 1500])
    sweep = elo_ratings({(0, 1): 10.0}, {(0, 1): 10}, 2)  # one virtual draw keeps it finite
    assert sweep[0] - sweep[1] == pytest.approx(400 * math.log10(10.5 / 0.5), abs=1e-6)
    # Transitive chain: A beats B 3:1, B beats C 3:1, A and C never meet.
    chain = elo_ratings({(0, 1): 75.0, (1, 2): 75.0}, {(0, 1): 100, (1, 2): 100}, 3, prior=0)
    assert chain[0] - chain[1] == pytest.approx(chain[1] - chain[2], abs=1e-6)


def test_bad_configs() -> None:
    with pytest.raises(ArenaError):
        build_games(ArenaConfig("viennese", ("greedy",)))
    with pytest.raises(Exception, match="unknown bot"):
        build_games(ArenaConfig("viennese", ("greedy", "nobot")))
    with pytest.raises(ArenaError):
        run_arena(CONFIG, backend="nope")  # type: ignore[arg-type]


def test_cli_json_is_one_object(tmp_path: Path) -> None:
    out_csv = tmp_path / "ladder.csv"
    result = CliRunner().invoke(
        app,
        [
            "arena",
            "--rules",
            "viennese",
            "--bots",
            "greedy,random",
            "--rounds",
            "6",
            "--seed",
            "5",
            "--json",
            "--workers",
            "1",
            "--csv",
            str(out_csv),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["bots"]) == {"greedy", "random"}
    assert set(data["bots"]["greedy"]) >= {"win_rate", "mean_points", "ci95", "elo"}
    assert out_csv.read_text().startswith("bot,rules,mode,seed,games")
    # --no-timing: two runs of one seed write the same CSV (the time per move is left out).
    again = [tmp_path / "a.csv", tmp_path / "b.csv"]
    for path in again:
        args = ["arena", "--rules", "viennese", "--bots", "greedy,random", "--rounds", "4", "--seed", "5",
                "--workers", "1", "--no-timing", "--csv", str(path), "-q"]  # fmt: skip
        assert CliRunner().invoke(app, args).exit_code == 0
    assert again[0].read_bytes() == again[1].read_bytes()
    assert "seconds_per_move" not in again[0].read_text() and ",viennese,rounds,5," in again[0].read_text()


def test_cli_bad_bot_exits_2() -> None:
    result = CliRunner().invoke(app, ["arena", "--bots", "greedy,nobody", "--rounds", "2", "--workers", "1"])
    assert result.exit_code == 2 and "unknown bot" in result.stderr


def test_plot_png_and_svg(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    data = run_arena(CONFIG, workers=1).to_dict()
    for name in ("ladder.png", "ladder.svg"):
        plot_ladder([data, data], str(tmp_path / name))
        assert (tmp_path / name).stat().st_size > 1000
    with pytest.raises(ArenaError):
        plot_ladder(data, str(tmp_path / "ladder.pdf"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_cli_unreachable_cluster_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ray")
    address = f"127.0.0.1:{_free_port()}"
    args = ["arena", "--bots", "greedy,random", "--rounds", "2"]
    result = CliRunner().invoke(app, [*args, "--ray-address", address])
    assert result.exit_code == 2
    assert result.stderr == f"error: cannot reach the Ray cluster at {address}: Connection refused\n"
    monkeypatch.setenv("RAY_ADDRESS", address)  # Ray's own variable, read when --ray-address is absent
    result = CliRunner().invoke(app, [*args, "--backend", "ray"])
    assert result.exit_code == 2 and "cannot reach the Ray cluster" in result.stderr
    result = CliRunner().invoke(app, [*args, "--backend", "local", "--ray-address", address])
    assert result.exit_code == 2 and "--ray-address needs --backend ray" in result.stderr


def test_ray_backend_starts_a_local_instance_without_an_address(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray")
    temp = tempfile.mkdtemp(prefix="rk", dir="/tmp")  # Ray's socket paths must stay short
    monkeypatch.setenv("RAY_TMPDIR", temp)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    try:
        res = run_arena(CONFIG, workers=2, backend="ray")
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    assert not ray.is_initialized()  # started here, shut down here
    assert res.workers == 2 and sum(n.games for n in res.nodes.values()) == 8
    assert res.to_dict(timing=False) == run_arena(CONFIG, workers=1).to_dict(timing=False)


def test_batch_size_keeps_figures_and_bounds_tasks() -> None:
    assert batch_size(10_000, 2) == 64 and batch_size(8, 4) == 1
    one = run_arena(CONFIG, workers=1, batch=1).to_dict(timing=False)
    assert one == run_arena(CONFIG, workers=1, batch=5).to_dict(timing=False)
    with pytest.raises(ArenaError, match="batch"):
        run_arena(CONFIG, workers=1, batch=0)


def test_an_arena_too_long_to_keep_in_memory_is_refused_before_it_plans() -> None:
    """Every result stays in memory (for the paired leads and ratings), so a run is bounded; the
    count includes every round-robin table and the rounding up to whole deals."""
    with pytest.raises(ArenaError, match=r"1,000,002 games are more than an arena plays .*selfplay"):
        build_games(
            ArenaConfig("viennese", ("greedy", "random"), rounds=MAX_GAMES + 1, seed=2)
        )  # 500,001 deals
    with pytest.raises(ArenaError, match="1,000,002 games"):  # 333,334 whole deals of three
        build_games(ArenaConfig("viennese", ("greedy", "random", "greedy"), rounds=MAX_GAMES))
    four = ArenaConfig("viennese", ("greedy", "random", "greedy", "random"), rounds=MAX_GAMES // 6 + 1)
    with pytest.raises(ArenaError, match="more than an arena plays"):
        build_games(dataclasses.replace(four, round_robin=True))  # six tables
    result = CliRunner().invoke(
        app, ["arena", "--rules", "viennese", "--bots", "greedy,greedy", "-n", str(10**9)]
    )
    assert result.exit_code != 0 and "1,000,000,000 games" in result.output


def test_the_point_lead_is_paired_by_deal() -> None:
    """A pair's lead is the points of ``a`` minus those of ``b`` per game; its interval counts deals,
    each the mean of its rotations, so the luck of the cards cancels inside a deal."""
    res = run_arena(ArenaConfig("viennese", ("greedy", "random"), rounds=12, seed=3), workers=1)
    data = res.to_dict(timing=False)
    (pair,) = data["pairs"]
    bots = data["bots"]
    assert (pair["a"], pair["b"], pair["games"], pair["deals"]) == ("greedy", "random", 12, 6)
    assert pair["lead_points"] == pytest.approx(bots["greedy"]["mean_points"] - bots["random"]["mean_points"])
    by_deal: dict[int, list[float]] = {}
    for game, result in zip(build_games(res.config), sorted(res.results, key=lambda r: r.index), strict=True):
        a, b = result.seats.index(0), result.seats.index(1)
        by_deal.setdefault(game.deal, []).append(result.points[a] - result.points[b])
    mean, lo, hi = mean_interval([sum(v) / len(v) for v in by_deal.values()])
    assert (pair["lead_points"], pair["lead_ci95"]) == (round(mean, 6), [round(lo, 6), round(hi, 6)])
    line = f"greedy vs random: lead {mean:+.2f} points per round (95 % CI {lo:+.2f} to {hi:+.2f}); ahead in"
    result = CliRunner().invoke(app, ["arena", "--rules", "viennese", "--bots", "greedy,random", "-n", "12",
                                      "--seed", "3", "-q"])  # fmt: skip
    assert line in " ".join(result.output.split())


@pytest.mark.parametrize("mode", ["rounds", "matches"])
@pytest.mark.usefixtures("loopers")
def test_a_hand_that_never_ends_stops_with_a_clear_error(mode: Mode) -> None:
    rules = "viennese(max_takes_in_a_row=500)"  # the rules' own bound above the guard lowered to 400
    config = ArenaConfig(rules, ("looper", "looper"), rounds=1, seed=7, mode=mode)
    with pytest.raises(EndlessHandError) as info:
        run_arena(config, workers=1)
    message = str(info.value)
    assert "did not end within 400 actions without a draw from the stock" in message
    assert "'viennese(max_takes_in_a_row=500)'" in message
    assert "seed 7" in message and "deal 0" in message and "deal seed" in message
    assert "seat 0: looper" in message and "seat 1: looper" in message
    assert ("stopped at hand 1 of the match: the hand" in message) == (mode == "matches")


@pytest.mark.usefixtures("loopers")
def test_cli_reports_a_hand_that_never_ends_as_an_error() -> None:
    args = ["arena", "--rules", "viennese(max_takes_in_a_row=500)", "--bots", "looper,looper"]
    args += ["--rounds", "1", "--workers", "1", "-q"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "did not end within 400 actions" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.usefixtures("loopers")
def test_a_hand_that_draws_but_never_ends_stops_with_a_clear_error() -> None:
    rules = "viennese(max_stock_rebuilds=unlimited)"
    config = ArenaConfig(rules, ("drawer", "drawer"), rounds=1, seed=7)
    with pytest.raises(
        EndlessHandError, match=r"stopped: the hand did not end within 3,000 actions \(a tool guard"
    ):
        run_arena(config, workers=1)


@pytest.mark.usefixtures("loopers")
def test_loopers_hands_end_dead_by_the_rules_and_a_match_of_them_stops() -> None:
    """Under the default max_takes_in_a_row every looper hand ends dead, unscored; a rubber of such
    hands would never end, so the guard stops it after 5 (lowered from 100) unscored hands."""
    res = run_arena(ArenaConfig("viennese", ("looper", "looper"), rounds=4, seed=7), workers=1)
    assert len(res.results) == 4 and all(r.points == (0, 0) for r in res.results)
    with pytest.raises(
        EndlessHandError,
        match=r"stopped at hand 6 of the match: 5 hands in a row ended without a score \(a tool",
    ):
        run_arena(ArenaConfig("viennese", ("looper", "looper"), rounds=1, seed=7, mode="matches"), workers=1)


def test_the_hand_guards_are_far_above_real_hands() -> None:
    # The longest hand found in scans of the presets was 1,527 actions (random against random); with
    # unlimited stock rebuilds random hands of Viennese run to tens of thousands of actions.
    assert guard_module.MAX_IDLE_ACTIONS >= 10_000 and guard_module.MAX_HAND_ACTIONS >= 1_000_000
    assert guard_module.MAX_UNSCORED_HANDS >= 100


@pytest.mark.parametrize("bots", [3, 4])
def test_every_bot_sits_after_every_other_equally_often(bots: int) -> None:
    """Rotations alone keep each bot behind the same neighbour; the deals also cycle the orders
    round the table, so once they cover them every bot follows every other one as often, and every
    deal is still played in every rotation."""
    names = ("greedy", "random", "greedy", "random")[:bots]
    orders = math.factorial(bots - 1)
    games = build_games(ArenaConfig("german", names, rounds=bots * orders, seed=1))
    follows: Counter[tuple[int, int]] = Counter()
    for game in games:
        for s in range(bots):
            follows[game.seats[s], game.seats[(s + 1) % bots]] += 1
    assert len(follows) == bots * (bots - 1) and len(set(follows.values())) == 1
    for deal in range(orders):
        played = [g.seats for g in games if g.deal == deal]
        assert all(sorted(p.index(b) for p in played) == list(range(bots)) for b in range(bots))


class _Cheat:
    """Discards a card it does not hold whenever it is to discard."""

    name = "cheat"

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        draw = [a for a in legal if str(a) in ("draw", "take")]
        return draw[0] if draw else Action.parse(f"discard {_missing(view)}")


def _missing(view: Any) -> str:
    held = {str(c) for c in view.hand}
    return next(c for c in ("QS", "QH", "QD", "QC", "KS") if c not in held)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_plays_an_illegal_move_is_named_whatever_the_workers(workers: int, tmp_path: Path) -> None:
    """The engine's error reaches the caller as it is (errors pickle out of worker processes, where
    they used to break the pool), with a note naming the bot, its seat and the game; the command line
    says that the bot's move was refused."""
    register_bot("cheat", lambda level: _Cheat())
    try:
        with pytest.raises(CardNotInHandError, match="you do not hold") as info:
            run_arena(ArenaConfig("viennese", ("cheat", "random"), rounds=2, seed=1), workers=workers)
        (note,) = info.value.__notes__
        assert note.startswith("bot 'cheat' at seat ") and "game " in note and "seed 1" in note
        result = CliRunner().invoke(
            app, ["arena", "--bots", "cheat,random", "-n", "2", "-w", str(workers), "-q"]
        )
        assert result.exit_code == 2 and "Traceback" not in result.stderr
        assert "you do not hold" in result.stderr and "bot 'cheat' at seat" in result.stderr
        # the engine's refusal alone read like a fault of rummykit's: it is named as the bot's move
        assert result.stderr.startswith("error: a bot's move was refused: discard "), result.stderr
        played = ["selfplay", "--rules", "viennese", "--bots", "cheat,random", "--games", "2", "-q"]
        result = CliRunner().invoke(app, [*played, "-w", str(workers), "--out", str(tmp_path / "run")])
        assert result.exit_code == 2 and "bot 'cheat' at seat" in result.stderr
        assert result.stderr.startswith("error: a bot's move was refused: discard "), result.stderr
    finally:
        del _FACTORIES["cheat"]


def test_the_readme_quotes_what_its_first_arena_command_prints() -> None:
    """The README's arena example quotes its pair line: it must stay what the command prints (it
    drifts whenever a bot's play changes)."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    quoted = " ".join(readme.split("the first command above prints `", 1)[1].split("`", 1)[0].split())
    result = CliRunner().invoke(
        app,
        ["arena", "--rules", "viennese", "--bots", "greedy,random", "--rounds", "300", "--seed", "5", "-q"],
    )
    assert result.exit_code == 0
    assert quoted in " ".join(result.stdout.split()), (quoted, result.stdout)


def test_the_readmes_bot_example_runs_and_prints_what_it_says(capsys: pytest.CaptureFixture[str]) -> None:
    """The "Writing a bot" example of the README is run as written; its comment quotes its output."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Writing a bot", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    try:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
    finally:
        _FACTORIES.pop("high", None)
    printed = capsys.readouterr().out.split("\n")
    assert printed[:2] == ["high 0.35 -16.6", "greedy 0.65 -9.7"], printed


def test_the_arena_json_names_what_reproduces_it_and_can_leave_out_the_clock() -> None:
    """The JSON names the rules with their house rules (it wrote "viennese" for any of them), the
    release and the solver backend; ``--no-timing`` leaves the wall-clock figures out, so two runs
    of one seed write the same file."""
    from rummykit import __version__
    from rummykit.solver import backend

    args = ["arena", "--rules", "viennese(knock_comparison=le)", "--bots", "greedy,random"]
    args += ["--rounds", "6", "--seed", "4", "--workers", "1", "--json", "-q"]
    first, second = (CliRunner().invoke(app, [*args, "--no-timing"]) for _ in range(2))
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["rules"] == "viennese(knock_comparison=le)"
    assert data["rummykit"] == __version__ and data["solver"] == backend.current.name
    assert "wall_seconds" not in data and "seconds_per_move" not in data["bots"]["greedy"]
    timed = json.loads(CliRunner().invoke(app, args).stdout)
    assert timed["wall_seconds"] >= 0 and "seconds_per_move" in timed["bots"]["greedy"]


def test_the_ladder_benchmark_pairs_its_interval_by_deal_as_the_arena_does() -> None:
    """``benchmarks/ladder.py`` put an interval over games, counting a deal's rotations (the same
    cards) as independent: some 40 % wider than the arena's interval paired by deal, which the README
    says it prints. Heads-up, its difference is the arena's lead, interval and all."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "ladder.py"
    spec = importlib.util.spec_from_file_location("ladder_under_test", path)
    assert spec is not None and spec.loader is not None
    ladder = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(ladder)
    finally:
        sys.path.remove(str(path.parent))
    res = run_arena(ArenaConfig("viennese", ("greedy", "random"), rounds=40, seed=11), workers=1)
    pair = res.to_dict()["pairs"][0]
    diff, low, high = ladder.paired(res)["points_diff"]
    assert diff == pytest.approx(pair["lead_points"])
    assert [low, high] == pytest.approx(pair["lead_ci95"], abs=1e-5)


def test_one_bot_typed_two_ways_is_one_name() -> None:
    """``Search:EASY`` and ``search:easy`` are the same bot: the command line names both as
    ``make_bot`` reads them, so they are ``search:easy#1`` and ``#2`` (two entrants of one name were
    printed as two different bots, which a league pooling runs by name kept apart)."""
    args = ["arena", "-r", "viennese", "-b", " Greedy , greedy", "-n", "2", "-q", "-w", "1", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert sorted(json.loads(result.output)["bots"]) == ["greedy#1", "greedy#2"]
    assert canonical_spec(" Search : HARD") == "search:hard" and canonical_spec("RANDOM") == "random"
