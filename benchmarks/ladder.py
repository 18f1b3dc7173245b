"""The measured bot ladder: what the game scores (points and matches), rounds won second.

Run: ``python benchmarks/ladder.py [--workers 2] [--out ladder.json]``. Every pairing is played with
the arena (duplicate deals, seats rotated, seeded): by default every search level against greedy and
against ``search-v1:medium`` (the earlier race search, kept unchanged as a frozen baseline), in
single rounds (``--rounds``) and in whole matches to the preset's match end (``--matches``), in
Viennese and German heads-up, plus one German table of four (the search against three greedy bots,
``--table4``). Printed as one Markdown table:

* **points/round** (or per match) of the first bot and of the second, and their difference per
  game with its 95 % interval (paired: both bots played the same deals);
* **won**: the share of rounds (matches) the first bot won, with its Wilson interval; at the table
  of four, the share of the search seat against the 1/4 of a seat at random;
* **time/move**: wall time per decision of the first bot (depends on the machine and its load: the
  load average is printed with every row);
* **play-outs/move**: the effort of the search bots in iterations, counted in this process over
  ``--effort-rounds`` rounds against greedy (machine-independent), with the CPU time per move.

Speed is reported, never asserted. ``--pairings`` picks rows (``viennese:search:hard-greedy`` …),
``--levels``, ``--games`` and the counts narrow the run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

import rummykit as rk
from rummykit.arena import ArenaConfig, ArenaResult, build_games, mean_interval, run_arena, wilson_interval
from rummykit.bots import GreedyBot, make_bot

BASELINE = "search-v1:medium"


def effort(game: str, spec: str, rounds: int, seed: int) -> dict[str, float]:
    """Play-outs and CPU seconds per move of the bot ``spec`` against greedy (heads-up, one process)."""
    rules = rk.Rules.preset(game)
    moves = 0
    cpu = 0.0
    playouts = 0
    for deal in range(rounds):
        bot = make_bot(spec)
        seat_of_bot = deal % 2
        rnd = rk.Round.new(rules, players=2, seed=seed * 100_000 + deal)
        rng = random.Random(deal)
        greedy = GreedyBot()
        while not rnd.is_over:
            seat = rnd.to_move
            legal = rnd.legal_actions()
            if seat == seat_of_bot:
                t0 = time.process_time()
                action = bot.choose(rnd.view(seat), legal, rng)
                cpu += time.process_time() - t0
                moves += 1
            else:
                action = greedy.choose(rnd.view(seat), legal, rng)
            rnd.apply(action)
        playouts += int(getattr(bot, "playouts", 0))
    return {
        "moves": moves,
        "playouts_per_move": playouts / max(1, moves),
        "cpu_seconds_per_move": cpu / max(1, moves),
    }


def paired(res: ArenaResult) -> dict[str, Any]:
    """The first bot's figures against the rest: points per game of each, the difference (first less
    the mean of the others at its table) with its interval over the deals (each deal's rotations
    averaged first, as the arena's ``lead_ci95``: the rotations of one deal share its cards, so an
    interval over games would count them as independent), and the win share."""
    names = res.config.names()
    deal_of = {game.index: (game.table, game.deal) for game in build_games(res.config)}
    first: list[float] = []
    others: list[float] = []
    by_deal: dict[tuple[int, int], list[float]] = {}
    wins = 0.0
    for r in res.results:
        seat = r.seats.index(0)
        mine = float(r.points[seat])
        rest = [float(p) for s, p in enumerate(r.points) if s != seat]
        first.append(mine)
        others.append(sum(rest) / len(rest))
        by_deal.setdefault(deal_of[r.index], []).append(mine - sum(rest) / len(rest))
        wins += r.shares[seat]
    n = len(res.results)
    lo, hi = wilson_interval(wins, n)
    d, dlo, dhi = mean_interval([sum(v) / len(v) for v in by_deal.values()])
    bots = res.to_dict()["bots"]
    return {
        "first": names[0],
        "second": ",".join(sorted(set(names[1:]))),
        "games": n,
        "points_first": sum(first) / n,
        "points_others": sum(others) / n,
        "points_diff": [d, dlo, dhi],
        "won": wins / n,
        "won_ci95": [lo, hi],
        "seconds_per_move": bots[names[0]]["seconds_per_move"],
    }


def row(game: str, mode: str, p: dict[str, Any], load: float, effort_text: str) -> str:
    d, dlo, dhi = p["points_diff"]
    return (
        f"| {game} | {p['first']} vs {p['second']} | {p['games']} {mode} "
        f"| {p['points_first']:.2f} / {p['points_others']:.2f} | {d:+.2f} ({dlo:+.2f} to {dhi:+.2f}) "
        f"| {p['won']:.3f} ({p['won_ci95'][0]:.3f}–{p['won_ci95'][1]:.3f}) "
        f"| {p['seconds_per_move'] * 1000:.0f} ms | {effort_text} | {load:.1f} |"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--games", default="viennese,german")
    p.add_argument("--levels", default="easy,medium,hard")
    p.add_argument("--opponents", default=f"greedy,{BASELINE}")
    p.add_argument("--rounds", type=int, default=1000, help="rounds per pairing (0: none)")
    p.add_argument("--matches", type=int, default=100, help="matches per pairing against greedy (0: none)")
    p.add_argument("--table4", type=int, default=200, help="German rounds at a table of four (0: none)")
    p.add_argument("--pairings", default="", help="only these rows: game:first-second, comma-separated")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--backend", default="local", choices=("local", "ray"))
    p.add_argument("--out", default="ladder.json")
    p.add_argument("--effort-rounds", type=int, default=10)
    args = p.parse_args(argv)
    games = args.games.split(",")
    levels = [f"search:{lv}" for lv in args.levels.split(",")]
    plan: list[tuple[str, tuple[str, ...], int, str]] = []
    for game in games:
        for spec in levels:
            for opp in args.opponents.split(","):
                plan.append((game, (spec, opp), args.rounds, "rounds"))
            plan.append((game, (spec, "greedy"), args.matches, "matches"))
    if "german" in games:
        plan += [("german", (spec, "greedy", "greedy", "greedy"), args.table4, "rounds") for spec in levels]
    wanted = {w for w in args.pairings.split(",") if w}
    efforts: dict[tuple[str, str], str] = {}
    runs: list[dict[str, Any]] = []
    rows: list[str] = []
    for game, bots, count, mode in plan:
        key = f"{game}:{bots[0]}-{bots[1]}" + ("" if len(bots) == 2 else f"x{len(bots) - 1}")
        if count <= 0 or (wanted and key not in wanted):
            continue
        t0 = time.perf_counter()
        res = run_arena(
            ArenaConfig(game, bots, rounds=count, seed=args.seed, mode=mode),  # type: ignore[arg-type]
            workers=args.workers,
            backend=args.backend,
        )
        load = os.getloadavg()[0]
        fig = paired(res)
        if (game, bots[0]) not in efforts and args.effort_rounds > 0:
            e = effort(game, bots[0], args.effort_rounds, args.seed)
            efforts[(game, bots[0])] = (
                f"{e['playouts_per_move']:.0f} ({e['cpu_seconds_per_move'] * 1000:.0f} ms CPU)"
            )
            runs.append({"effort": {"game": game, "bot": bots[0], "rounds": args.effort_rounds, **e}})
        rows.append(row(game, mode, fig, load, efforts.get((game, bots[0]), "")))
        runs.append(
            {"game": game, "mode": mode, "bots": list(bots), "load": load, **fig, "arena": res.to_dict()}
        )
        print(rows[-1], f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
        with open(args.out, "w") as fh:
            json.dump(runs, fh, indent=2)
    print(
        "| game | pairing | played | points (first / others) | difference (95 % CI) | won (95 % CI) "
        "| time/move | play-outs/move | load |"
    )
    print("|---|---|---:|---|---|---|---:|---|---:|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
