"""Random playouts: rounds per second and actions per second for every preset.

Each configuration (preset, players) plays ``--rounds`` seeded rounds with uniformly random legal
actions, ``--repeats`` times, all in one process; the table shows the medians over the repeats, in
CPU time of this process (``time.process_time``, so other load on a shared machine distorts them
less). Timing covers ``legal_actions()`` plus ``apply()`` for every action and the deal, nothing
else. It prints figures only and never fails on timing.

A second part compares in the same process, in CPU time: random play per player action against
OpenSpiel's gin (C++ game driven from Python, when ``pyspiel`` is installed) in ``--batches``
alternating batches (OpenSpiel, then each rummykit configuration, again; medians with the range),
and the CPU time per searched move of ``search:medium`` heads-up against greedy on seeded rounds,
once per solver backend (compiled kernels and the pure-Python twin). The moves of the two backends
must agree (same samples, same answers); a difference is reported.

    .venv/bin/python benchmarks/playout.py            # full run (a few minutes)
    .venv/bin/python benchmarks/playout.py --quick    # short run
    .venv/bin/python benchmarks/playout.py --compare-only --quick
    .venv/bin/python benchmarks/playout.py --gin-only     # gin side by side only

A third part plays random Gin Rummy side by side in one process, alternating engine by engine over
``--gin-repeats`` batches: rummykit's ``gin`` preset, OpenSpiel's ``gin_rummy`` (the C++ game driven
by a Python loop over ``pyspiel``, its fastest path from Python: chance outcomes and player actions
picked uniformly from ``legal_actions()``) and RLCard's raw gin engine (``GinRummyGame`` stepped with
its judge's legal actions, no environment wrapper). It prints games/s and player actions/s in CPU
time (medians over the batches) and the ratios to OpenSpiel. Player actions count every decision of
a player (RLCard's bookkeeping score steps are not counted; OpenSpiel's chance steps neither). The
rules differ in details (RLCard deals eleven cards to the non-dealer and has no first-upcard phase),
so games are comparable, not identical.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from rummykit import Round, Rules, __version__
from rummykit.bots import GreedyBot, SearchBot
from rummykit.errors import RummyError
from rummykit.solver import backend

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


def play_rounds(
    rules: Rules, players: int, rounds: int, seed: int, clock: Callable[[], float] = time.perf_counter
) -> tuple[float, int]:
    """Play ``rounds`` random rounds; return (seconds on ``clock``, actions)."""
    rng = random.Random(seed)
    actions = 0
    start = clock()
    for i in range(rounds):
        rnd = Round.new(rules, players, seed=rng.randrange(2**32), dealer=i % players)
        while not rnd.is_over:
            rnd.apply(rng.choice(rnd.legal_actions()))
            actions += 1
    return clock() - start, actions


def measure(preset: str, players: int, rounds: int, repeats: int) -> Figures:
    rules = Rules.preset(preset)
    play_rounds(rules, players, 1, seed=0)  # warm-up: solver tables and caches
    per_round, per_action, lengths = [], [], []
    for repeat in range(repeats):
        seconds, actions = play_rounds(rules, players, rounds, seed=1 + repeat, clock=time.process_time)
        per_round.append(rounds / seconds)
        per_action.append(actions / seconds)
        lengths.append(actions / rounds)
    return Figures(statistics.median(per_round), statistics.median(per_action), statistics.median(lengths))


def random_cpu_per_action(rules: Rules, players: int, rounds: int, seed: int) -> float:
    """CPU seconds per player action of random play (deal included)."""
    seconds, actions = play_rounds(rules, players, rounds, seed, clock=time.process_time)
    return seconds / actions


def openspiel_cpu_per_action(games: int, seed: int) -> float | None:
    """CPU seconds per player action of random gin in OpenSpiel (chance steps timed, not counted)."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
    return (time.process_time() - start) / actions


# Gin side by side --------------------------------------------------------------------------------
GinEngine = Callable[[int, int], tuple[float, int] | None]
"""``engine(games, seed)``: CPU seconds and player actions of ``games`` random games, or ``None`` when
the engine is not installed."""


def rummykit_gin(games: int, seed: int) -> tuple[float, int] | None:
    """Random games of rummykit's ``gin`` preset (deal included), dealer alternating."""
    try:
        rules = Rules.preset("gin")
    except RummyError:
        return None
    seconds, actions = play_rounds(rules, 2, games, seed, clock=time.process_time)
    return seconds, actions


def openspiel_gin(games: int, seed: int) -> tuple[float, int] | None:
    """Random games of OpenSpiel's ``gin_rummy``; chance steps are timed but not counted."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            chance = state.is_chance_node()
            state.apply_action(rng.choice(state.legal_actions()))
            actions += not chance
    return time.process_time() - start, actions


def rlcard_gin(games: int, seed: int) -> tuple[float, int] | None:
    """Random games of RLCard's raw gin engine (``GinRummyGame``, judge's legal actions)."""
    try:
        import numpy as np
        from rlcard.games.gin_rummy.game import GinRummyGame  # type: ignore[import-not-found,unused-ignore]
        from rlcard.games.gin_rummy.utils.action_event import (  # type: ignore[import-not-found,unused-ignore]
            ScoreNorthPlayerAction,
            ScoreSouthPlayerAction,
        )
    except ImportError:
        return None
    rng = random.Random(seed)
    random.seed(seed)  # RLCard picks the dealer with the global random module
    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)
    scoring = (ScoreNorthPlayerAction, ScoreSouthPlayerAction)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            action = rng.choice(game.judge.get_legal_actions())
            game.step(action)
            actions += not isinstance(action, scoring)
    return time.process_time() - start, actions


GIN_ENGINES: dict[str, GinEngine] = {
    "rummykit": rummykit_gin,
    "OpenSpiel (pyspiel loop)": openspiel_gin,
    "RLCard (raw engine)": rlcard_gin,
}


def gin_side_by_side(games: int, repeats: int) -> None:
    """Random gin in every installed engine, alternating batch by batch; medians and ratios."""
    print(
        f"\nrandom Gin Rummy side by side, CPU time, {games} games x {repeats} batches per engine, "
        f"alternating; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    per_game: dict[str, list[float]] = {name: [] for name in GIN_ENGINES}
    per_action: dict[str, list[float]] = {name: [] for name in GIN_ENGINES}
    lengths: dict[str, list[float]] = {name: [] for name in GIN_ENGINES}
    missing: set[str] = set()
    for name, engine in GIN_ENGINES.items():  # warm-up: imports, tables, caches
        if engine(2, 0) is None:
            missing.add(name)
    for repeat in range(repeats):
        for name, engine in GIN_ENGINES.items():
            if name in missing:
                continue
            measured = engine(games, 1000 + repeat)
            assert measured is not None
            seconds, actions = measured
            per_game[name].append(games / seconds)
            per_action[name].append(actions / seconds)
            lengths[name].append(actions / games)
    reference = "OpenSpiel (pyspiel loop)"
    ref = statistics.median(per_game[reference]) if per_game[reference] else None
    ref_a = statistics.median(per_action[reference]) if per_action[reference] else None
    header = f"  {'engine':<26}{'games/s':>10}{'actions/s':>12}{'actions/game':>14}"
    print(header + f"{'x OpenSpiel games/s':>22}{'x actions/s':>13}")
    for name in GIN_ENGINES:
        if name in missing:
            print(f"  {name:<26}not installed (or no gin preset): skipped")
            continue
        g, a = statistics.median(per_game[name]), statistics.median(per_action[name])
        ratio = f"{g / ref:.2f}x" if ref else "-"
        ratio_a = f"{a / ref_a:.2f}x" if ref_a else "-"
        length = statistics.median(lengths[name])
        print(f"  {name:<26}{g:>10.1f}{a:>12.0f}{length:>14.1f}{ratio:>22}{ratio_a:>13}", flush=True)


def search_moves(rules: Rules, rounds: int, seed: int) -> tuple[float, list[object]]:
    """``search:medium`` (seat 0) against greedy heads-up: CPU seconds per searched decision and the
    sequence of the search bot's choices (to check that backends agree)."""
    search = SearchBot("medium")
    greedy = GreedyBot()
    spent = 0.0
    chosen: list[object] = []
    for i in range(rounds):
        rnd = Round.new(rules, 2, seed=seed + i, dealer=i % 2)
        rng = random.Random(seed + i)
        while not rnd.is_over:
            seat = rnd.to_move
            view, legal = rnd.view(seat), rnd.legal_actions()
            if seat == 0:
                before = search.searches
                start = time.process_time()
                action = search.choose(view, legal, rng)
                if search.searches > before:
                    spent += time.process_time() - start
                chosen.append(action)
            else:
                action = greedy.choose(view, legal, rng)
            rnd.apply(action)
    return spent / max(1, search.searches), chosen


RANDOM_PLAY_COMPARED = (("viennese", 2), ("german", 2), ("german", 4))


def _spread(seconds: list[float]) -> str:
    return f"({min(seconds) * 1e6:.1f}-{max(seconds) * 1e6:.1f})"


def compare(quick: bool, batches: int) -> None:
    """The one-process comparisons of the module docstring."""
    print(
        f"\none-process comparison, CPU time, {batches} alternating batches (medians, range); "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    games = 20 if quick else 100
    rounds = 5 if quick else 20
    gin: list[float] = []
    ours: dict[tuple[str, int], list[float]] = {config: [] for config in RANDOM_PLAY_COMPARED}
    for batch in range(batches):
        measured = openspiel_cpu_per_action(games, seed=1 + batch)
        if measured is not None:
            gin.append(measured)
        for preset, players in RANDOM_PLAY_COMPARED:
            per_action = random_cpu_per_action(Rules.preset(preset), players, rounds, seed=2 + batch)
            ours[(preset, players)].append(per_action)
    reference = statistics.median(gin) if gin else None
    if reference is None:
        print("  OpenSpiel (pyspiel) not installed: gin skipped")
    else:
        line = "  OpenSpiel gin, random play"
        print(f"{line:<38}{reference * 1e6:8.1f} us per player action {_spread(gin)}")
    for (preset, players), values in ours.items():
        median = statistics.median(values)
        line = f"  rummykit {preset} {players}p, random play"
        text = f"{line:<38}{median * 1e6:8.1f} us per player action {_spread(values)}"
        print(text + (f"  ({reference / median:.2f}x OpenSpiel gin)" if reference else ""), flush=True)
    print(f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rounds = 2 if quick else 6
    for preset in ("viennese", "german"):
        moves: dict[str, list[object]] = {}
        for name in sorted(backend.available(), reverse=True):
            with backend.use(name):
                backend.current.clear_caches()
                per_move, moves[name] = search_moves(Rules.preset(preset), rounds, seed=100)
            label = f"  search:medium {preset} ({name})"
            print(f"{label:<38}{per_move * 1e3:8.1f} ms CPU per searched move", flush=True)
        if len(moves) == 2 and moves["native"] != moves["python"]:
            print("  !! the backends chose different moves")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short run: 3 rounds x 3 repeats")
    parser.add_argument("--rounds", type=int, help="rounds per repeat (default 10, quick 3)")
    parser.add_argument("--repeats", type=int, help="repeats per configuration (default 5, quick 3)")
    parser.add_argument("--preset", action="append", choices=sorted(PLAYER_COUNTS), help="only these presets")
    parser.add_argument("--compare-only", action="store_true", help="only the one-process comparisons")
    parser.add_argument("--gin-only", action="store_true", help="only random gin side by side")
    parser.add_argument("--batches", type=int, help="alternating comparison batches (default 5, quick 3)")
    parser.add_argument("--gin-games", type=int, help="gin games per batch (default 100, quick 20)")
    parser.add_argument("--gin-repeats", type=int, help="gin batches per engine (default 5, quick 3)")
    args = parser.parse_args(argv)
    print(backend.describe())
    gin_games = args.gin_games or (20 if args.quick else 100)
    gin_repeats = args.gin_repeats or (3 if args.quick else 5)
    if args.gin_only:
        gin_side_by_side(gin_games, gin_repeats)
        return 0
    batches = args.batches or (3 if args.quick else 5)
    if args.compare_only:
        compare(args.quick, batches)
        gin_side_by_side(gin_games, gin_repeats)
        return 0
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
    compare(args.quick, batches)
    gin_side_by_side(gin_games, gin_repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
