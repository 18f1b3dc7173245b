"""The measured bot ladder: random < greedy < search, heads-up, for viennese and german.

Run: ``python benchmarks/ladder.py [--workers 2] [--backend local] [--out ladder.json] [--plot ladder.png]``.
Pairings (duplicate deals, seats rotated): greedy vs random (``--rounds-gr``, default 2000 rounds)
and search (medium) vs greedy (``--rounds-sg``, default 500 rounds) in each game. Prints one
Markdown table (win rate of the first bot with its 95 % interval, mean points, Elo, seconds per move
of the stronger bot) and writes every figure as JSON. Speed is reported, never asserted.

The wall time per move depends on the load of the machine; ``--effort-rounds`` (default 20) also plays
that many rounds of search vs greedy in this process and reports the search bot's play-outs per move
and CPU seconds per move (``time.process_time``), which depend far less on other work.

``--search search:hard`` measures another level; ``--rounds-gr 0`` skips the greedy vs random pairing.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

import rummykit as rk
from rummykit.arena import ArenaConfig, plot_ladder, run_arena
from rummykit.bots import GreedyBot, SearchBot, make_bot


def effort(game: str, spec: str, rounds: int, seed: int) -> dict[str, float]:
    """Play-outs and CPU seconds per move of the search bot ``spec`` against greedy (heads-up)."""
    rules = rk.Rules.preset(game)
    moves = 0
    cpu = 0.0
    playouts = 0
    for deal in range(rounds):
        bot = make_bot(spec)
        assert isinstance(bot, SearchBot)
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
        playouts += bot.playouts
    return {
        "moves": moves,
        "playouts_per_move": playouts / max(1, moves),
        "cpu_seconds_per_move": cpu / max(1, moves),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default="viennese,german")
    p.add_argument("--rounds-gr", type=int, default=2000)
    p.add_argument("--rounds-sg", type=int, default=500)
    p.add_argument("--search", default="search", help="search bot spec, e.g. search:hard")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--backend", default="local", choices=("local", "ray"))
    p.add_argument("--out", default="ladder.json")
    p.add_argument("--plot", default=None)
    p.add_argument("--effort-rounds", type=int, default=20)
    args = p.parse_args(argv)
    runs: list[dict[str, Any]] = []
    rows = []
    for game in args.games.split(","):
        for bots, rounds in (
            (("greedy", "random"), args.rounds_gr),
            ((args.search, "greedy"), args.rounds_sg),
        ):
            if rounds <= 0:
                continue
            t0 = time.perf_counter()
            res = run_arena(
                ArenaConfig(game, bots, rounds=rounds, seed=args.seed),
                workers=args.workers,
                backend=args.backend,
            )
            data = res.to_dict()
            runs.append(data)
            a, b = (data["bots"][n] for n in bots)
            rows.append(
                f"| {game} | {bots[0]} vs {bots[1]} | {data['rounds']} | {a['win_rate']:.3f} "
                f"| {a['ci95'][0]:.3f}–{a['ci95'][1]:.3f} | {a['mean_points']:.2f} / {b['mean_points']:.2f} "
                f"| {a['elo']:.0f} / {b['elo']:.0f} | {a['seconds_per_move'] * 1000:.1f} ms |"
            )
            print(rows[-1], f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
            with open(args.out, "w") as fh:
                json.dump(runs, fh, indent=2)
    efforts = []
    if args.effort_rounds > 0:
        for game in args.games.split(","):
            e = effort(game, args.search, args.effort_rounds, args.seed)
            runs.append({"effort": {"game": game, "bot": args.search, "rounds": args.effort_rounds, **e}})
            efforts.append(
                f"{game}: {args.search} {e['playouts_per_move']:.1f} play-outs/move, "
                f"{e['cpu_seconds_per_move'] * 1000:.0f} ms CPU/move ({e['moves']} moves)"
            )
            print(efforts[-1], file=sys.stderr, flush=True)
        with open(args.out, "w") as fh:
            json.dump(runs, fh, indent=2)
    print("| game | pairing | rounds | win rate (first) | 95 % CI | mean points | Elo | time/move (first) |")
    print("|---|---|---:|---:|---|---|---|---:|")
    print("\n".join(rows))
    for line in efforts:
        print(line)
    if args.plot:
        plot_ladder(
            [r for r in runs if "bots" in r],
            args.plot,
            title="rummykit bot ladder (heads-up, duplicate deals)",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
