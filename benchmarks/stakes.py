"""What playing for the match is worth: the search bot with and without match stakes, same deals.

Run (one variant per process, so the two can share a 2-core machine, then paired)::

    python benchmarks/stakes.py play --rules viennese --opponent greedy --matches 300 --seed 12100 \\
        --variant stakes --out stakes.jsonl
    python benchmarks/stakes.py play ... --variant points --out points.jsonl
    python benchmarks/stakes.py pair stakes.jsonl points.jsonl

``stakes`` is ``search:LEVEL`` as it plays (:attr:`~rummykit.bots.ismcts.IsmctsBot.match_aware`:
the last hand of a series played for the match, a rubber's showdowns and races weighed by
elimination, :mod:`rummykit.bots.stakes`); ``points`` is the same bot playing every hand for its
points; ``equity`` is ``stakes`` with the hand before the last of a heads-up German series valued by
the chance of winning the series its lead gives (:attr:`~rummykit.bots.ismcts.IsmctsBot.lead_equity`).
All play the arena's matches (``rummykit arena --matches``: the same deal seeds, the seats rotated,
the same bot seeds), so until the match state first changes a decision two variants play identical
moves, and the paired difference per match isolates what the change is worth.

``play`` writes one JSON line per match (the arena's game index, the search bot's win share and
match points and the opponent's) and prints the summary; ``pair`` prints each file's matches won
(Wilson interval) and points, and the paired differences per match (mean ± 95 %) with the share of
matches where the two differ.

``margins`` prints the distribution :data:`~rummykit.bots.stakes.HAND_LOSS_SHARES` was read from:
the points by which heads-up German hands between two greedy bots are lost, at every twentieth of
the hands (``python benchmarks/stakes.py margins --hands 3000``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

import rummykit as rk
from rummykit.arena import ArenaConfig, build_games, mean_interval, play_game, wilson_interval
from rummykit.bots import Bot, make_bot, register_bot
from rummykit.bots.ismcts import IsmctsBot


def _points_only(level: str | None, **_: object) -> Bot:
    bot = IsmctsBot(level)
    bot.match_aware = False
    return bot


def _lead_equity(level: str | None, **_: object) -> Bot:
    bot = IsmctsBot(level)
    bot.lead_equity = True
    return bot


register_bot("search-points", _points_only)
register_bot("search-equity", _lead_equity)


def play(rules: str, level: str, opponent: str, matches: int, seed: int, variant: str, out: Path) -> None:
    """Play the matches with the search bot as ``variant`` and write one line per match to ``out``."""
    kinds = {"stakes": "search", "points": "search-points", "equity": "search-equity"}
    spec = f"{kinds[variant]}:{level}"
    config = ArenaConfig(rules=rules, bots=(spec, opponent), rounds=matches, seed=seed, mode="matches")
    games = build_games(config)
    start = time.process_time()
    loads = [os.getloadavg()[0]]
    with out.open("w") as f:
        for game in games:
            result = play_game(game)
            me = result.seats.index(0)
            other = 1 - me
            row = {
                "index": game.index,
                "won": result.shares[me],
                "points": result.points[me],
                "opponent": result.points[other],
                "moves": result.moves[me],
            }
            f.write(json.dumps(row) + "\n")
            f.flush()
            if game.index % 50 == 49:
                loads.append(os.getloadavg()[0])
    loads.append(os.getloadavg()[0])
    rows = _read(out)
    _summary(out.name, rows)
    cpu = time.process_time() - start
    print(f"CPU {cpu:.0f} s for {len(rows)} matches; load {min(loads):.1f}–{max(loads):.1f}")


def _read(path: Path) -> dict[int, dict[str, float]]:
    rows = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        rows[int(row["index"])] = row
    return rows


def _summary(name: str, rows: dict[int, dict[str, float]]) -> None:
    n = len(rows)
    won = sum(r["won"] for r in rows.values())
    lo, hi = wilson_interval(won, n)
    mine = sum(r["points"] for r in rows.values()) / n
    theirs = sum(r["opponent"] for r in rows.values()) / n
    print(f"{name}: {n} matches, won {won / n:.3f} ({lo:.3f}–{hi:.3f}), points {mine:.2f} / {theirs:.2f}")


def pair(first: Path, second: Path) -> None:
    """Print both files' summaries and the paired differences (first less second) per match."""
    a, b = _read(first), _read(second)
    common = sorted(set(a) & set(b))
    if not common:
        raise SystemExit("the two files share no match")
    _summary(first.name, {i: a[i] for i in common})
    _summary(second.name, {i: b[i] for i in common})
    won = [a[i]["won"] - b[i]["won"] for i in common]
    lead = [(a[i]["points"] - a[i]["opponent"]) - (b[i]["points"] - b[i]["opponent"]) for i in common]
    differ = sum(1 for i in common if a[i] != b[i])
    for label, values in (("matches won", won), ("lead in points", lead)):
        mean, _, high = mean_interval(values)
        print(f"paired {label}: {mean:+.4f} ± {high - mean:.4f} per match")
    print(f"matches that differ: {differ} of {len(common)}")


def margins(hands: int) -> None:
    """Print the points by which ``hands`` heads-up German hands of greedy against greedy (seeds 0
    to ``hands - 1``) are lost, at every twentieth of them."""
    rules = rk.Rules.preset("german")
    bots = [make_bot("greedy"), make_bot("greedy")]
    lost = []
    for seed in range(hands):
        rnd = rk.Round.new(rules, 2, seed=seed)
        rng = random.Random(seed)
        while not rnd.is_over:
            seat = rnd.to_move
            rnd.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(), rng))
        assert rnd.result is not None
        margin = abs(rnd.result.points[0] - rnd.result.points[1])
        if margin:
            lost.append(margin)
    lost.sort()
    print(f"{len(lost)} hands lost by a mean of {sum(lost) / len(lost):.2f} points")
    for i in range(21):
        share = i / 20
        print(f"{share:.2f}: {lost[min(len(lost) - 1, int(share * len(lost)))]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play the matches with one variant")
    p.add_argument("--rules", default="viennese")
    p.add_argument("--level", default="hard")
    p.add_argument("--opponent", default="greedy")
    p.add_argument("--matches", type=int, default=300)
    p.add_argument("--seed", type=int, default=12100)
    p.add_argument("--variant", choices=("stakes", "points", "equity"), default="stakes")
    p.add_argument("--out", type=Path, required=True)
    q = sub.add_parser("pair", help="the paired differences of two files")
    q.add_argument("first", type=Path)
    q.add_argument("second", type=Path)
    m = sub.add_parser("margins", help="the margins German hands are lost by (greedy against greedy)")
    m.add_argument("--hands", type=int, default=3000)
    args = parser.parse_args()
    if args.command == "margins":
        margins(args.hands)
    elif args.command == "play":
        play(args.rules, args.level, args.opponent, args.matches, args.seed, args.variant, args.out)
    else:
        pair(args.first, args.second)


if __name__ == "__main__":
    main()
