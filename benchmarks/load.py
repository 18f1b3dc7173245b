"""Load on the web server: N concurrent websocket clients playing, move latency p50/p99.

Starts ``rummykit serve`` on 127.0.0.1 with a fresh SQLite database (or ``--database-url``), opens
N/2 two-player tables (everybody is a person; no bots, so only the server is measured) and lets every
client play ``--moves`` moves: draw, then discard. A move's latency runs from sending it to receiving
the state that contains it, which includes the engine's check, the database commit and the
broadcast. Traffic goes to the loopback address only; every run is bounded in moves and time.

    python benchmarks/load.py                     # N = 10, 50, 100
    python benchmarks/load.py --clients 200 --moves 40
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

RUN_TIMEOUT = 300.0
LOOPBACK_LIMITS = [
    "--max-tables-per-address", "100000", "--max-connections-per-address", "100000",
    "--creations-per-second", "100000", "--requests-per-second", "100000", "--messages-per-second", "100000",
]  # fmt: skip
"""Every client comes from 127.0.0.1: the per-address limits of a public server are lifted."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(database_url: str, options: list[str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """``rummykit serve`` on a free loopback port with ``options`` (default: no bot delay, the
    :data:`LOOPBACK_LIMITS`)."""
    port = free_port()
    code = "import sys; from rummykit.cli import main; sys.argv[0] = 'rummykit'; main()"
    args = [sys.executable, "-c", code, "serve", "--port", str(port), "--database-url", database_url]
    extra = ["--bot-delay", "0", *LOOPBACK_LIMITS] if options is None else options
    proc = subprocess.Popen([*args, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


async def player(base: str, code: str, token: str, moves: int, latencies: list[float]) -> int:
    """Play up to ``moves`` moves; returns how many were made."""
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    made = 0
    async with connect(url, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        sent_version = -1
        while made < moves:
            msg: dict[str, Any] = json.loads(await ws.recv())
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
    async with httpx.AsyncClient(base_url=base) as http:
        seats: list[tuple[str, str]] = []
        for i in range(clients // 2):
            host = (await http.post("/api/tables", json={"seats": 2, "seed": i})).json()
            guest = (await http.post(f"/api/tables/{host['code']}/join", json={})).json()
            seats += [(host["code"], host["token"]), (guest["code"], guest["token"])]
    latencies: list[float] = []
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
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[10, 50, 100])
    parser.add_argument("--moves", type=int, default=30, help="moves per client")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    print(f"{'clients':>8} {'moves':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'moves/s':>8}")
    for n in args.clients:
        with tempfile.TemporaryDirectory() as folder:
            url = args.database_url or f"sqlite:///{Path(folder) / 'load.db'}"
            proc, base = start_server(url)
            try:
                r = asyncio.run(run(base, max(2, n), args.moves))
            finally:
                proc.terminate()
                proc.wait(10)
        print(
            f"{r['clients']:>8} {r['moves']:>7} {r['p50_ms']:>8.1f} {r['p99_ms']:>8.1f} "
            f"{r['max_ms']:>8.1f} {r['moves_per_s']:>8.0f}"
        )


if __name__ == "__main__":
    main()
