"""Records as training data: microseconds per transition of :func:`rummykit.envs.records.transitions`.

Records of bots' games (greedy and random, made by the arena's ``play_recorded``) for a few presets,
or the record files and self-play folders named on the command line, are converted in both scopes;
each is timed in CPU seconds of this process (steady under other load), best of ``--repeats``, beside
the environment stepping the same tokens (``TokenGame``: ``observe``, ``mask``, ``step``), which is
what the conversion costs at least. Prints figures only and never fails on timing.

    .venv/bin/python benchmarks/records.py
    RUMMYKIT_PURE=1 .venv/bin/python benchmarks/records.py      # the pure-Python encoder and trie
    .venv/bin/python benchmarks/records.py runs/v1 saved-game.json
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from pathlib import Path

from rummykit.arena import ArenaConfig, build_games, play_recorded
from rummykit.envs.compiled import describe
from rummykit.envs.game import TokenGame
from rummykit.envs.records import Transition, transitions
from rummykit.match import Match
from rummykit.record import Record
from rummykit.round import Round
from rummykit.selfplay import read_records

GAMES = (
    ("german", ("greedy", "random"), "rounds"),
    ("german", ("greedy", "greedy", "greedy", "greedy"), "rounds"),
    ("viennese", ("greedy", "greedy", "greedy"), "matches"),
    ("gin", ("greedy", "greedy"), "rounds"),
    ("gin(oklahoma=true,match_end=target_score,target_score=50)", ("greedy", "random"), "matches"),
    ("scala40", ("greedy", "greedy", "greedy"), "rounds"),
)
"""Rules, bots and mode of the bots' games converted when no record is named."""


def bots_records(games: int) -> Iterator[tuple[str, Record]]:
    for rules, bots, mode in GAMES:
        config = ArenaConfig(rules, bots, rounds=games, seed=7, mode=mode)  # type: ignore[arg-type]
        for game in build_games(config)[:games]:
            yield f"{rules} ×{len(bots)} {mode}", play_recorded(game)[1]


def named_records(paths: list[str]) -> Iterator[tuple[str, Record]]:
    for name in paths:
        path = Path(name)
        if (path / "run.json").is_file():
            for record in read_records(path):
                yield path.name, record
        elif path.is_dir():
            for file in sorted(path.glob("*.json")):
                yield path.name, Record.load(file)
        else:
            yield path.name, Record.load(path)


def cpu(work: object, repeats: int) -> float:
    """The least CPU time of ``repeats`` calls of ``work``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        work()  # type: ignore[operator]
        best = min(best, time.process_time() - start)
    return best


def step_through(record: Record, made: list[Transition], scope: str) -> None:
    """The environment alone: ``observe``, ``mask`` and ``step`` for each token of ``made``."""
    game = TokenGame(record.rules, record.players, scope)  # type: ignore[arg-type]
    played = record.start()
    hand = 0
    starts = {1: played.round.copy() if isinstance(played, Match) else played}
    if scope == "match":
        game.play_from(played)
    elif isinstance(played, Match):
        for action in record.actions:
            before = played.round
            played.apply(action)
            if played.round is not before:
                starts[len(starts) + 1] = played.round.copy()
    for t in made:
        if scope == "hand" and t.hand != hand:
            hand = t.hand
            start = starts[hand]
            game.play_from(start.copy() if isinstance(start, Round) else start)
        game.observe(t.seat)
        game.mask()
        game.step(t.token)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "paths", nargs="*", help="record files, folders of them, self-play folders (default: bots' games)"
    )
    parser.add_argument("--games", type=int, default=3, help="bots' games per configuration")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    pure = os.environ.get("RUMMYKIT_PURE", "")
    print(describe(), f"(RUMMYKIT_PURE={pure!r}); load average {os.getloadavg()[0]:.2f}")
    rows: dict[tuple[str, str], list[float]] = {}
    source = named_records(args.paths) if args.paths else bots_records(args.games)
    for name, record in source:
        for scope in ("hand", "match") if record.kind == "match" else ("hand",):
            made = list(transitions(record, scope=scope))  # type: ignore[arg-type]
            converting = cpu(lambda: list(transitions(record, scope=scope)), args.repeats)  # type: ignore[arg-type]  # noqa: B023
            stepping = cpu(lambda: step_through(record, made, scope), args.repeats)  # noqa: B023
            row = rows.setdefault((name, scope), [0, 0.0, 0.0])
            row[0] += len(made)
            row[1] += converting
            row[2] += stepping
    print(f"{'records':64} {'scope':5} {'tokens':>8} {'µs/transition':>14} {'env alone':>10}")
    total = [0.0, 0.0, 0.0]
    for (name, scope), row in rows.items():
        print(line(name, scope, row))
        total = [a + b for a, b in zip(total, row, strict=True)]
    print(line("all", "", total))


def line(name: str, scope: str, row: list[float]) -> str:
    """A row of the table: tokens, then µs per token converting and stepping the environment alone."""
    tokens, converting, stepping = row
    per_token = f"{1e6 * converting / tokens:14.1f} {1e6 * stepping / tokens:10.1f}"
    return f"{name:64} {scope:5} {tokens:8.0f} {per_token}"


if __name__ == "__main__":
    main()
