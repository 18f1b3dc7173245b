"""Load on the web server: N concurrent websocket clients playing, move latency p50/p99, server cost.

Starts ``rummykit serve`` on 127.0.0.1 with a fresh SQLite database (or ``--database-url``; with
``--workers N`` the server runs N processes, which needs PostgreSQL), opens N/2 two-player tables
(everybody is a person; no bots, so only the server is measured) and lets every client play
``--moves`` moves: draw, then discard. A move's latency runs from sending it to receiving the state
that contains it, which includes the engine's check, the database commit and the broadcast.

The load generator runs in a process of its own, so the figures for the server (CPU seconds and
resident memory of each server process, read from ``/proc``) are not mixed with the clients'; the
generator's own CPU per move is printed too (``cli ms``: on one machine it competes with the server);
it collects no garbage while it plays, so its pauses do not show as server latency. Traffic goes to
the loopback address only; every run is bounded in moves and time.

    python benchmarks/load.py                               # N = 10, 50, 100; 30 moves each
    python benchmarks/load.py --clients 100 --moves 100
    python benchmarks/load.py --clients 100 --moves 100 --workers 2 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import queue
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

RUN_TIMEOUT = 600.0
LOOPBACK_LIMITS = [
    "--max-tables-per-address", "100000", "--max-connections-per-address", "100000",
    "--creations-per-second", "100000", "--requests-per-second", "100000", "--messages-per-second", "100000",
    "--http-per-second", "100000",
    "--max-tables", "100000", "--max-tables-per-network", "100000",
    "--max-seats-per-address", "100000", "--max-seats-per-network", "100000",
]  # fmt: skip
"""Every client comes from 127.0.0.1: the per-address limits of a public server are lifted."""
TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    database_url: str, options: list[str] | None = None, workers: int = 1, profile: str | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """``rummykit serve`` on a free loopback port with ``options`` (default: no bot delay, the
    :data:`LOOPBACK_LIMITS`); with ``profile``, under cProfile (event-loop thread), stats to that file."""
    port = free_port()
    code = "import sys; from rummykit.cli import main; sys.argv[0] = 'rummykit'; main()"
    if profile is not None:
        code = (
            "import cProfile, sys; from rummykit.cli import main; sys.argv[0] = 'rummykit'; "
            f"cProfile.run('main()', {profile!r})"
        )
    args = [sys.executable, "-c", code, "serve", "--port", str(port), "--database-url", database_url]
    if workers > 1:
        args += ["--workers", str(workers)]
    extra = ["--bot-delay", "0", *LOOPBACK_LIMITS] if options is None else options
    proc = subprocess.Popen([*args, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def server_processes(pid: int) -> list[int]:
    """The server's process and its descendants (workers, bot pool)."""
    found = [pid]
    for p in found:
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError):
                found += [int(c) for c in (task / "children").read_text().split()]
    return found


def process_usage(pid: int) -> tuple[float, float]:
    """(CPU seconds, resident MiB) of one process, from ``/proc``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICK
        rss = next(
            int(line.split()[1]) / 1024
            for line in Path(f"/proc/{pid}/status").read_text().splitlines()
            if line.startswith("VmRSS:")
        )
    except (OSError, StopIteration, IndexError):
        return 0.0, 0.0
    return cpu, rss


async def player(base: str, code: str, token: str, moves: int, latencies: list[float]) -> int:
    """Play up to ``moves`` moves; returns how many were made."""
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    made = 0
    async with connect(url, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        sent_version = -1
        while made < moves:
            msg: dict[str, Any] = orjson.loads(await ws.recv())
            if msg["type"] == "error":
                raise RuntimeError(msg["message"])
            if msg["type"] != "state":
                continue
            if sent_at is not None and msg["version"] > sent_version:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
                made += 1
            if msg["match"]["is_over"]:
                break
            legal: list[str] = msg["legal"]
            if sent_at is None and legal:
                move = "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard"))
                sent_version = msg["version"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": move, "version": sent_version}))
    return made


async def run(base: str, clients: int, moves: int) -> dict[str, float]:
    # No kept-alive connection: every request is a new connection, as from many people, so with
    # several server processes the tables are created on (owned by) all of them.
    fresh = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=fresh) as http:
        seats: list[tuple[str, str]] = []
        for _ in range(clients // 2):
            # Many hands per table, so that no table ends before its players made their moves.
            spec = {"seats": 2, "overrides": {"match_end": "fixed_hands", "num_hands": 50}}
            host = (await http.post("/api/tables", json=spec)).json()
            if "code" not in host:  # a limit of the server, or a database that is not empty
                raise RuntimeError(f"the server refused a table: {host.get('detail')}")
            guest = (await http.post(f"/api/tables/{host['code']}/join", json={})).json()
            # A full table waits for its host to start it.
            await http.post(f"/api/tables/{host['code']}/start", json={"token": host["token"]})
            seats += [(host["code"], host["token"]), (guest["code"], guest["token"])]
    latencies: list[float] = []
    # The generator's own collection pauses would show as server latency: none during the run.
    gc.collect()
    gc.freeze()
    gc.disable()
    started = time.perf_counter()
    tasks = [player(base, code, token, moves, latencies) for code, token in seats]
    made = await asyncio.wait_for(asyncio.gather(*tasks), RUN_TIMEOUT)
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)
    return {
        "clients": len(seats),
        "moves": sum(made),
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "max_ms": 1000 * ordered[-1],
        "moves_per_s": sum(made) / elapsed,
        "seconds": elapsed,
    }


def generate(base: str, clients: int, moves: int, results: Any) -> None:
    """The load generator's process: play, then hand the figures back (with its own CPU seconds)."""
    started = time.process_time()
    figures = asyncio.run(run(base, clients, moves))
    figures["client_cpu"] = time.process_time() - started
    results.put(figures)


def measure(
    url: str, clients: int, moves: int, workers: int, options: list[str], profile: str | None = None
) -> dict[str, Any]:
    proc, base = start_server(url, [*options, "--bot-delay", "0", *LOOPBACK_LIMITS], workers, profile)
    try:
        pids = server_processes(proc.pid)
        before = {p: process_usage(p) for p in pids}
        results: Any = multiprocessing.get_context("spawn").Queue()
        generator = multiprocessing.get_context("spawn").Process(
            target=generate, args=(base, clients, moves, results)
        )
        generator.start()
        deadline = time.monotonic() + RUN_TIMEOUT + 60
        while True:  # a generator that failed (its traceback is above) ends the run, not a long wait
            try:
                figures: dict[str, Any] = results.get(timeout=1.0)
                break
            except queue.Empty:
                if not generator.is_alive() or time.monotonic() > deadline:
                    raise SystemExit("the load generator stopped without figures") from None
        generator.join(30)
        after = {p: process_usage(p) for p in pids}
        figures["cpu"] = [after[p][0] - before[p][0] for p in pids if after[p][1] > 0]
        figures["rss"] = [after[p][1] for p in pids if after[p][1] > 0]
        return figures
    finally:
        # SIGINT: uvicorn stops and re-raises it as KeyboardInterrupt, so cProfile still writes.
        proc.send_signal(signal.SIGINT if profile else signal.SIGTERM)
        proc.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[10, 50, 100])
    parser.add_argument("--moves", type=int, default=30, help="moves per client")
    parser.add_argument("--workers", type=int, nargs="+", default=[1], help="server processes (PostgreSQL)")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file per run")
    parser.add_argument("--server-option", action="append", default=[], help="extra 'rummykit serve' option")
    parser.add_argument("--profile", default=None, help="cProfile the server (one process) into this file")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(
        f"{'workers':>7} {'clients':>7} {'moves':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
        f"{'moves/s':>7} {'srv ms':>6} {'cli ms':>6}  server CPU s / RSS MiB per process"
    )
    for workers in args.workers:
        for n in args.clients:
            with tempfile.TemporaryDirectory() as folder:
                url = args.database_url or f"sqlite:///{Path(folder) / 'load.db'}"
                options = [o for option in args.server_option for o in option.split()]
                r = measure(url, max(2, n), args.moves, workers, options, args.profile)
            per_process = ", ".join(f"{c:.1f}/{m:.0f}" for c, m in zip(r["cpu"], r["rss"], strict=True))
            server_ms = 1000 * sum(r["cpu"]) / max(1, r["moves"])
            client_ms = 1000 * r["client_cpu"] / max(1, r["moves"])
            print(
                f"{workers:>7} {r['clients']:>7} {r['moves']:>6} {r['p50_ms']:>7.1f} {r['p99_ms']:>7.1f} "
                f"{r['max_ms']:>7.1f} {r['moves_per_s']:>7.0f} {server_ms:>6.2f} {client_ms:>6.2f}  "
                f"{per_process}",
                flush=True,
            )
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
