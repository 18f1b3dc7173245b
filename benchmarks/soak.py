"""Soak test of the web server: N clients for M minutes creating, joining, playing and leaving.

Starts ``rummykit serve`` on 127.0.0.1 with a fresh SQLite database (or ``--database-url``) and the
public server's liveness settings, lifting only the per-address limits (every client here comes
from 127.0.0.1). Each client repeatedly

- creates a table (against a bot, or open for a second person) or joins a waiting one;
- plays random legal moves over the websocket, now and then sending malformed traffic (bad JSON,
  an unknown type, an oversize message, a stale version, an illegal move);
- leaves: finishes the game, gives the seat up (``leave``) or just drops the connection;

and a few HTTP requests are malformed too (bad JSON, NaN, a lone surrogate, a chunked body over the
limit). Traffic goes to the loopback address only. At the end it prints the moves made, the errors
by kind, the move latency p50/p99 and the server's resident memory (RSS) at the start, every minute
and at the end; then it checks that every move the server acknowledged is in the database.

    python benchmarks/soak.py --clients 20 --minutes 10
    python benchmarks/soak.py --clients 4 --minutes 0.5      # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).parent))
import load  # benchmarks/load.py starts the server

MALFORMED_HTTP = [
    b'{"seats": 2,',
    b'{"takeover_seconds": NaN}',
    b'{"name": "\\ud800"}',
    b'{"overrides": {"opening_min_points": 1000000}}',
    b'{"overrides": {"max_stock_rebuilds": null}}',
]
MALFORMED_WS = [
    "not json",
    '{"type": "launch"}',
    "x" * 5000,
    '{"type": "act", "action": "fly away", "version": 0}',
]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(database_url: str, bot_delay: float, idle: float) -> tuple[subprocess.Popen[bytes], str]:
    options = [
        "--bot-delay",
        str(bot_delay),
        "--finished-table-seconds",
        "60",
        "--idle-table-seconds",
        str(idle),
    ]
    options += load.LOOPBACK_LIMITS
    return load.start_server(database_url, options)


class Soak:
    def __init__(self, base: str, seconds: float, seed: int) -> None:
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.deadline = time.monotonic() + seconds
        self.rng = random.Random(seed)
        self.errors: collections.Counter[str] = collections.Counter()
        self.latencies: list[float] = []
        self.acknowledged: list[tuple[str, int, str]] = []
        self.waiting: asyncio.Queue[str] = asyncio.Queue()
        self.tables = 0

    def running(self) -> bool:
        return time.monotonic() < self.deadline

    async def client(self, http: httpx.AsyncClient, number: int) -> None:
        rng = random.Random(f"{number}:{self.rng.random()}")
        while self.running():
            try:
                await self.session(http, rng)
            except (TimeoutError, ConnectionClosed, OSError, httpx.HTTPError) as exc:
                self.errors[f"client: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.2)

    async def post(self, http: httpx.AsyncClient, path: str, body: Any) -> dict[str, Any] | None:
        answer = await http.post(path, json=body)
        if answer.status_code >= 300:
            self.errors[f"http {answer.status_code}"] += 1
            return None
        data: dict[str, Any] = answer.json()
        return data

    async def malformed_http(self, http: httpx.AsyncClient, rng: random.Random) -> None:
        if rng.random() < 0.5:
            body = rng.choice(MALFORMED_HTTP)
            answer = await http.post(
                "/api/tables", content=body, headers={"content-type": "application/json"}
            )
        else:

            async def chunks() -> Any:
                for _ in range(40):
                    yield b"A" * 1024

            try:
                answer = await http.post(
                    "/api/tables", content=chunks(), headers={"content-type": "application/json"}
                )
            except (httpx.ReadError, httpx.WriteError):
                # The server answers 413 at the limit and closes the connection; a client still
                # sending its body may see the close before the answer.
                self.errors["malformed http -> closed (body limit)"] += 1
                return
        self.errors[f"malformed http -> {answer.status_code}"] += 1

    async def session(self, http: httpx.AsyncClient, rng: random.Random) -> None:
        if rng.random() < 0.1:
            await self.malformed_http(http, rng)
        grant: dict[str, Any] | None = None
        if rng.random() < 0.4 and not self.waiting.empty():
            code = self.waiting.get_nowait()
            grant = await self.post(http, f"/api/tables/{code}/join", {"name": "soak"})
        if grant is None:
            with_bot = rng.random() < 0.6
            spec = {
                "seats": 2,
                "bots": [{"kind": rng.choice(["random", "greedy"])}] if with_bot else [],
                "overrides": {"match_end": "single_hand"},
                "name": "soak",
            }
            grant = await self.post(http, "/api/tables", spec)
            if grant is None:
                await asyncio.sleep(0.5)
                return
            self.tables += 1
            if not with_bot:
                self.waiting.put_nowait(grant["code"])
        await self.play(http, grant, rng)

    async def play(self, http: httpx.AsyncClient, grant: dict[str, Any], rng: random.Random) -> None:
        code, token = grant["code"], grant["token"]
        ending = rng.choices(["finish", "leave", "drop"], weights=[6, 2, 2])[0]
        budget = rng.randint(10, 80) if ending != "finish" else 10_000
        started = time.monotonic()
        async with connect(f"{self.ws_base}/ws/{code}", max_size=2**20, open_timeout=20) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sent: tuple[int, str, float] | None = None
            status, ours = "waiting", False
            while self.running() and budget > 0:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=5)
                except TimeoutError:
                    if grant["seat"] == 0 and time.monotonic() - started > 3:
                        await self.post(
                            http, f"/api/tables/{code}/start", {"token": token}
                        )  # fill with a bot
                        started = time.monotonic() + 3600
                    elif time.monotonic() - started > 30:
                        # A guest at a table whose host dropped before starting it waits, as a person
                        # would, until the table expires: the harness's own doing, not the server's.
                        if grant["seat"] != 0 and status == "waiting":
                            self.errors["guest gave up: the host dropped before the start"] += 1
                        elif status == "playing" and not ours:
                            # The other person dropped in their turn: a bot takes the seat over only
                            # after the table's takeover time (60 s), longer than this client waits.
                            self.errors["gave up: the opponent dropped in their turn"] += 1
                        else:
                            self.errors["stuck: no state for 30 s"] += 1
                        return
                    continue
                msg: dict[str, Any] = json.loads(raw)
                if msg["type"] == "error":
                    self.errors[f"ws {msg['code']}"] += 1
                    if msg["code"] in ("stale", "not_your_turn"):
                        sent = None
                    continue
                if msg["type"] != "state":
                    continue
                status, ours = msg["table"]["status"], bool(msg["legal"]) or bool(msg.get("compose"))
                if sent is not None and msg["version"] > sent[0]:
                    self.latencies.append(time.perf_counter() - sent[2])
                    self.acknowledged.append((code, sent[0], sent[1]))
                    sent = None
                    budget -= 1
                if msg["match"]["is_over"] or msg["table"]["status"] not in ("waiting", "playing"):
                    return
                legal: list[str] = msg["legal"]
                if sent is None and legal:
                    if rng.random() < 0.03:
                        await ws.send(rng.choice(MALFORMED_WS))
                        self.errors["malformed ws sent"] += 1
                    if rng.random() < 0.02:
                        bad = {"type": "act", "action": legal[0], "version": msg["version"] + 7}
                        await ws.send(json.dumps(bad))
                    move = rng.choice(legal)
                    sent = (msg["version"], move, time.perf_counter())
                    await ws.send(json.dumps({"type": "act", "action": move, "version": msg["version"]}))
            if ending == "leave":
                await self.post(http, f"/api/tables/{code}/leave", {"token": token})
        # "drop": the connection just closes


async def soak(base: str, pid: int, clients: int, seconds: float, seed: int) -> dict[str, Any]:
    run = Soak(base, seconds, seed)
    started = time.monotonic()
    memory: list[tuple[float, float, int]] = []

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def note() -> None:
            tables = (await http.get("/api/health")).json()["tables"]
            memory.append((time.monotonic() - started, rss_mib(pid), tables))

        async def sample() -> None:
            while run.running():
                await asyncio.sleep(min(60.0, max(1.0, seconds / 10)))
                await note()

        await note()
        sampler = asyncio.create_task(sample())
        await asyncio.gather(*(run.client(http, i) for i in range(clients)))
        sampler.cancel()
        await note()
    ordered = sorted(run.latencies) or [float("nan")]
    return {
        "run": run,
        "memory": memory,
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "elapsed": time.monotonic() - started,
    }


def check_database(url: str, acknowledged: list[tuple[str, int, str]]) -> int:
    """The acknowledged moves missing from the database (or stored differently)."""
    engine = create_engine(url)
    with engine.connect() as db:
        stored = {(c, i): a for c, i, a in db.execute(text("SELECT code, idx, action FROM rk_actions"))}
    engine.dispose()
    return sum(1 for code, idx, action in acknowledged if stored.get((code, idx)) != action)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--idle-table-seconds",
        type=float,
        default=120.0,
        help="the server's idle expiry; shorter than the run, so memory reaches its steady state",
    )
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'soak.db'}"
        proc, base = start_server(url, args.bot_delay, args.idle_table_seconds)
        try:
            r = asyncio.run(soak(base, proc.pid, args.clients, args.minutes * 60, args.seed))
        finally:
            proc.terminate()
            proc.wait(10)
        run: Soak = r["run"]
        missing = check_database(url, run.acknowledged)
    moves = len(run.latencies)
    print(f"clients {args.clients}, {r['elapsed'] / 60:.1f} min, tables created {run.tables}")
    rate = moves / r["elapsed"]
    print(f"moves acknowledged {moves} ({rate:.1f}/s), p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms")
    print("errors by kind:")
    for kind, count in sorted(run.errors.items()):
        print(f"  {kind:<40} {count}")
    series = ", ".join(f"{t / 60:.1f} min {m:.0f} MiB/{n} tables" for t, m, n in r["memory"])
    print(f"server RSS MiB: start {r['memory'][0][1]:.1f}, end {r['memory'][-1][1]:.1f}")
    print(f"RSS and tables in memory: {series}")
    print(f"acknowledged moves missing from the database: {missing}")
    if missing:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
