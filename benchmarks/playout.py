"""Random playouts: rounds per second and actions per second for every preset.

Each configuration (preset, players) plays ``--rounds`` seeded rounds with uniformly random legal
actions, ``--repeats`` times, all in one process; the table shows the medians over the repeats.
Timing covers ``legal_actions()`` plus ``apply()`` for every action and the deal, nothing else.
It prints figures only and never fails on timing.

    .venv/bin/python benchmarks/playout.py            # full run (a few minutes)
    .venv/bin/python benchmarks/playout.py --quick    # short run
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass

from rummykit import Round, Rules, __version__

PLAYER_COUNTS = {
    "german": (2, 4, 6),
    "german_dskv": (3, 4),
    "scala40": (2, 4, 6),
    "basic": (2, 4, 6),
    "viennese": (2, 4, 6),
    "romme_ohne_auslegen": (2, 4, 6),
}


@dataclass
class Figures:
    rounds_per_s: float
    actions_per_s: float
    actions_per_round: float


def play_rounds(rules: Rules, players: int, rounds: int, seed: int) -> tuple[float, int]:
    """Play ``rounds`` random rounds; return (seconds, actions)."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for i in range(rounds):
        rnd = Round.new(rules, players, seed=rng.randrange(2**32), dealer=i % players)
        while not rnd.is_over:
            rnd.apply(rng.choice(rnd.legal_actions()))
            actions += 1
    return time.perf_counter() - start, actions


def measure(preset: str, players: int, rounds: int, repeats: int) -> Figures:
    rules = Rules.preset(preset)
    play_rounds(rules, players, 1, seed=0)  # warm-up: solver tables and caches
    per_round, per_action, lengths = [], [], []
    for repeat in range(repeats):
        seconds, actions = play_rounds(rules, players, rounds, seed=1 + repeat)
        per_round.append(rounds / seconds)
        per_action.append(actions / seconds)
        lengths.append(actions / rounds)
    return Figures(statistics.median(per_round), statistics.median(per_action), statistics.median(lengths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short run: 3 rounds x 3 repeats")
    parser.add_argument("--rounds", type=int, help="rounds per repeat (default 10, quick 3)")
    parser.add_argument("--repeats", type=int, help="repeats per configuration (default 5, quick 3)")
    parser.add_argument("--preset", action="append", choices=sorted(PLAYER_COUNTS), help="only these presets")
    args = parser.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 10)
    repeats = args.repeats or (3 if args.quick else 5)
    presets = args.preset or list(PLAYER_COUNTS)
    print(
        f"rummykit {__version__}, Python {platform.python_version()} on {platform.machine()}; "
        f"{rounds} rounds x {repeats} repeats per row, medians"
    )
    header = f"{'preset':<22}{'players':>8}{'rounds/s':>11}{'actions/s':>12}{'actions/round':>15}"
    print(header)
    print("-" * len(header))
    for preset in presets:
        for players in PLAYER_COUNTS[preset]:
            f = measure(preset, players, rounds, repeats)
            print(
                f"{preset:<22}{players:>8}{f.rounds_per_s:>11.2f}{f.actions_per_s:>12.0f}"
                f"{f.actions_per_round:>15.0f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
