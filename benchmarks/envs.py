"""Environment steps per second: rummykit's ``rummy_v0`` against PettingZoo 1.26.1's ``gin_rummy_v4``.

Every configuration runs the same PettingZoo AEC loop (``env.last()``, a uniformly random token
among those the mask allows, ``env.step``) for ``--steps`` agent steps over seeded hands, timed in
CPU seconds of this process (steady under other load), best of ``--repeats``. rummykit runs through
``rummy_v0.env`` (the classic conventions built in, see ``rummy_v0.classic_env``) for every preset
at 2, 4 and 6 players.

``gin_rummy_v4`` left PettingZoo in 1.27, so 1.26.1 (with RLCard, which it wraps) is installed into
a side folder (``--side-dir``; installed there with pip on the first run) and put first on
``sys.path`` in the same process (rummykit's environment classes keep the PettingZoo they were
built on). Each row of the table is also given as a multiple of ``gin_rummy_v4``'s steps/s, measured
just before that row.

The comparison itself runs in ``--batches`` alternating batches (``gin_rummy_v4``, then each
rummykit configuration of :data:`COMPARED`, again and again), each with the load average before it,
so that a change of load hits every environment alike; the median of the batches is the figure.

Then the share of a step spent building observations (``TokenGame.observe``: the encoding read
from the round's state, the copy handed out, the action so far) is measured for a few
configurations, with and without the derived features. Prints figures only and never fails on
timing.

    .venv/bin/python benchmarks/envs.py            # about two minutes of CPU
    .venv/bin/python benchmarks/envs.py --quick
    .venv/bin/python benchmarks/envs.py --compare-only --batches 6
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import rummykit as rk
from rummykit.envs import rummy_v0
from rummykit.envs.game import TokenGame

PLAYERS = (2, 4, 6)
SIDE_PACKAGES = ("pettingzoo==1.26.1", "rlcard==1.2.0", "termcolor", "pygame")
"""gin_rummy_v4 and what it imports beyond this environment (pygame for its renderer)."""
COMPARED = (("gin", 2), ("viennese", 2), ("romme_ohne_auslegen", 2), ("german", 4))
"""The rummykit configurations measured in the alternating batches against ``gin_rummy_v4``."""


def aec_loop(make: Callable[[], Any], steps: int, seed: int) -> float:
    """CPU seconds for ``steps`` random masked agent steps (new hands dealt as needed)."""
    env = make()
    rng = random.Random(seed)
    done = 0
    hand = 0
    start = time.process_time()
    while done < steps:
        env.reset(seed=seed + hand)
        hand += 1
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            done += 1
            if done >= steps:
                break
    return time.process_time() - start


def steps_per_s(make: Callable[[], Any], steps: int, repeats: int) -> float:
    return max(steps / aec_loop(make, steps, seed=1000 * r) for r in range(repeats))


def observation_share(preset: str, players: int, steps: int, derived: bool) -> float:
    """Fraction of the loop's CPU time spent in ``TokenGame.observe``."""
    spent = [0.0]
    original = TokenGame.observe

    def timed(self: TokenGame, seat: int) -> Any:
        t = time.process_time()
        try:
            return original(self, seat)
        finally:
            spent[0] += time.process_time() - t

    TokenGame.observe = timed  # type: ignore[method-assign]
    try:
        total = aec_loop(
            lambda: rummy_v0.env(rules=preset, players=players, derived_features=derived), steps, seed=7
        )
    finally:
        TokenGame.observe = original  # type: ignore[method-assign]
    return spent[0] / total


def load_gin_rummy_v4(side_dir: Path) -> Callable[[], Any] | None:
    """PettingZoo 1.26.1's ``gin_rummy_v4.env``, imported from ``side_dir`` into this process.

    rummykit's environment classes were built on the installed PettingZoo before; they keep it.
    """
    if not (side_dir / "pettingzoo").is_dir():
        print(f"installing {' '.join(SIDE_PACKAGES)} into {side_dir} …", flush=True)
        result = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(side_dir),
             *SIDE_PACKAGES],
            check=False,
        )
        if result.returncode != 0:
            print("could not install PettingZoo 1.26.1; gin_rummy_v4 is left out")
            return None
    for name in [m for m in sys.modules if m == "pettingzoo" or m.startswith("pettingzoo.")]:
        del sys.modules[name]
    sys.path.insert(0, str(side_dir))
    try:
        pz = importlib.import_module("pettingzoo")
        gin = importlib.import_module("pettingzoo.classic.gin_rummy_v4")
    except ImportError as exc:
        print(f"gin_rummy_v4 could not be imported ({exc}); left out")
        return None
    print(f"gin_rummy_v4 from PettingZoo {pz.__version__} ({Path(gin.__file__).parent})")
    make: Callable[[], Any] = gin.env
    return make


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def compare(gin_env: Callable[[], Any], batches: int, steps: int, repeats: int) -> None:
    """Alternating batches: gin_rummy_v4, then each of :data:`COMPARED`; medians and ratios."""
    rates: dict[str, list[float]] = {"gin_rummy_v4": []}
    makers: dict[str, Callable[[], Any]] = {"gin_rummy_v4": gin_env}
    for preset, n in COMPARED:
        name = f"rummykit {preset} {n}p"
        rates[name] = []
        makers[name] = functools.partial(rummy_v0.env, rules=preset, players=n)
    print(f"\nalternating batches (best of {repeats} × {steps} steps each; load average 1/5/15 min):")
    for batch in range(batches):
        head = f"batch {batch + 1} (load {load()}): "
        cells: list[str] = []
        for name, make in makers.items():
            rate = steps_per_s(make, steps, repeats)
            rates[name].append(rate)
            cells.append(f"{name.removeprefix('rummykit ')} {rate:,.0f}")
        print("  " + head + ", ".join(cells), flush=True)
    base = statistics.median(rates["gin_rummy_v4"])
    print(f"\nmedian of {batches} batches, steps/s and × gin_rummy_v4:")
    for name, values in rates.items():
        median = statistics.median(values)
        spread = f"{min(values):,.0f}–{max(values):,.0f}"
        print(f"  {name:<36} {median:>9,.0f}  {median / base:5.2f} ×  (range {spread})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--batches", type=int, default=4, help="alternating batches of the comparison")
    parser.add_argument("--quick", action="store_true", help="1000 steps, one repeat, two batches")
    parser.add_argument("--compare-only", action="store_true", help="only the batches against gin_rummy_v4")
    parser.add_argument("--side-dir", type=Path,
                        default=Path(tempfile.gettempdir()) / "rummykit-bench" / "pettingzoo-1.26.1")
    args = parser.parse_args()
    if args.quick:
        args.steps, args.repeats, args.batches = 1000, 1, 2
    print(f"rummykit {rk.__version__}, Python {sys.version.split()[0]}, load average {load()}")
    print(f"steps/s (CPU time, best of {args.repeats} × {args.steps} agent steps, random masked tokens)\n")
    gin_env = load_gin_rummy_v4(args.side_dir)
    if not args.compare_only:
        table(args.steps, args.repeats, gin_env)
        print("\nobservation building, share of the loop's CPU time:")
        for preset, n in (("viennese", 2), ("gin", 2), ("german", 4), ("scala40", 6)):
            plain = observation_share(preset, n, args.steps, derived=False)
            derived = observation_share(preset, n, args.steps, derived=True)
            share = f"{100 * plain:.0f} % ({100 * derived:.0f} % with derived features)"
            print(f"  {preset} {n} players: {share}", flush=True)
    if gin_env is not None:
        compare(gin_env, args.batches, args.steps, args.repeats)
    print(f"\nload average at the end {load()}")


def table(steps: int, repeats: int, gin_env: Callable[[], Any] | None) -> None:
    """Steps/s of every preset at 2, 4 and 6 players; with ``gin_env``, each row also as a multiple
    of ``gin_rummy_v4``'s steps/s measured just before the row (so that both see the same load)."""
    width = 12 if gin_env is None else 20
    print(f"{'preset':<22}" + "".join(f"{f'{n} players':>{width}}" for n in PLAYERS)
          + ("" if gin_env is None else "   gin_rummy_v4 (load)"))
    for preset in rk.PRESET_NAMES:
        rules = rk.Rules.preset(preset)
        base = steps_per_s(gin_env, steps, repeats) if gin_env is not None else None
        cells = []
        for n in PLAYERS:
            if not rules.min_players <= n <= rules.max_players:
                cells.append(f"{'–':>{width}}")
                continue
            rate = steps_per_s(functools.partial(rummy_v0.env, rules=preset, players=n), steps, repeats)
            cell = f"{rate:,.0f}" if base is None else f"{rate:,.0f} ({rate / base:4.1f} ×)"
            cells.append(f"{cell:>{width}}")
        tail = "" if base is None else f"   {base:,.0f} ({load()})"
        print(f"{preset:<22}" + "".join(cells) + tail, flush=True)


if __name__ == "__main__":
    main()
