"""Arena and self-play throughput: local processes, a one-node Ray cluster and a multi-node one.

Run: ``python benchmarks/cluster.py [--rounds 600] [--selfplay-games 16] [--cpus 2]``.

Every Ray cluster here lives on this machine (``ray.cluster_utils.Cluster``, files in a temporary
folder): one node with ``--cpus`` CPUs, then a head without CPUs and ``--cpus`` worker nodes of one
CPU each, so both offer the same CPUs and the difference is the cost of spreading over nodes. The
driver connects once per cluster (``runtime_env`` ships the package), warms the workers up, then
times the arena (``--bots``, default greedy vs random: the cheapest games, where scheduling overhead
shows most) and self-play (search vs search, the expensive games). Prints games/s, the start-up cost
of a connection and, per node, the games it played and its CPU use (CPU seconds of its tasks over the
wall time: 1.0 is one core kept busy), with the load average before and after. Speed is reported,
never asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from typing import Any

from rummykit.arena import ArenaConfig, NodeFigures, run_arena
from rummykit.selfplay import SelfPlayConfig, run_selfplay


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def node_table(nodes: dict[str, NodeFigures], wall: float) -> str:
    rows = [
        f"{n[:8]}: {f.games} games, CPU use {f.cpu_seconds / wall:.2f}" for n, f in sorted(nodes.items())
    ]
    return "; ".join(rows)


def measure(label: str, address: str | None, args: argparse.Namespace, out: str) -> dict[str, Any]:
    import ray

    arena = ArenaConfig(args.rules, tuple(args.bots.split(",")), rounds=args.rounds, seed=args.seed)
    t0 = time.perf_counter()
    run_arena(ArenaConfig(args.rules, ("greedy", "random"), rounds=2), ray_address=address, backend="ray")
    startup = time.perf_counter() - t0
    if address is not None:
        import rummykit

        ray.init(address=address, runtime_env={"py_modules": [rummykit]}, log_to_driver=False)
    try:
        run_arena(ArenaConfig(args.rules, ("greedy", "random"), rounds=8 * args.cpus), backend="ray")  # warm
        load0 = loadavg()
        res = run_arena(arena, backend="ray")
        sp = None
        if args.selfplay_games:
            config = SelfPlayConfig(args.rules, ("search", "search"), games=args.selfplay_games, batch=1)
            sp = run_selfplay(config, os.path.join(out, label.replace(" ", "-")), backend="ray")
        load1 = loadavg()
    finally:
        ray.shutdown()
    print(f"\n{label}: connect and start workers {startup:.1f} s; load {load0} -> {load1}")
    print(
        f"  arena {args.bots} x{res.games}: {res.games / res.wall_seconds:.1f} games/s "
        f"({res.wall_seconds:.1f} s); {node_table(res.nodes, res.wall_seconds)}"
    )
    if sp is not None:
        print(
            f"  selfplay search,search x{sp.played}: {sp.played / sp.wall_seconds:.2f} games/s "
            f"({sp.wall_seconds:.1f} s); {node_table(sp.nodes, sp.wall_seconds)}"
        )
    return {"arena": res.games / res.wall_seconds, "selfplay": sp and sp.played / sp.wall_seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="viennese")
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--rounds", type=int, default=600)
    parser.add_argument("--selfplay-games", type=int, default=16)
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    from ray.cluster_utils import Cluster

    temp = tempfile.mkdtemp(prefix="rk", dir="/tmp")  # Ray's socket paths must stay short
    os.mkdir(os.path.join(temp, "ray"))
    os.environ["RAY_TMPDIR"] = temp
    head_args = {"include_dashboard": False, "temp_dir": os.path.join(temp, "ray")}
    try:
        t0 = time.perf_counter()
        local = run_arena(
            ArenaConfig(args.rules, tuple(args.bots.split(",")), rounds=args.rounds, seed=args.seed),
            workers=args.cpus,
        )
        rate = local.games / local.wall_seconds
        print(
            f"local process pool, {args.cpus} processes: arena {rate:.1f} games/s "
            f"({time.perf_counter() - t0:.1f} s); load {loadavg()}"
        )
        one = Cluster(initialize_head=True, head_node_args={"num_cpus": args.cpus, **head_args})
        try:
            measure(f"1 node, {args.cpus} CPUs", one.address, args, temp)
        finally:
            one.shutdown()
        many = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, **head_args})
        try:
            for _ in range(args.cpus):
                many.add_node(num_cpus=1)
            label = f"{args.cpus + 1} nodes (head without CPUs, {args.cpus} workers of 1 CPU)"
            measure(label, many.address, args, temp)
        finally:
            many.shutdown()
    finally:
        shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    main()
