"""Bots think in a process pool: the decisions are the same as in the server's own process."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

from rummykit.web.app import create_app


def _moved_on(done: int, table: Any, state: dict[str, Any]) -> bool:
    """A state after version ``done`` where the person is to move or the hand is over."""
    return bool(state["version"] > done and (state["legal"] or table.match.round.is_over))


def test_bots_in_a_process_pool_play_the_same_moves_as_in_a_thread(tmp_path: Path, web: Any) -> None:
    from fastapi.testclient import TestClient

    records = []
    for processes in (0, 1):
        url = f"sqlite:///{tmp_path / f'p{processes}.db'}"
        settings = web.settings(bot_delay=0, bot_processes=processes)
        with TestClient(create_app(url, settings=settings)) as client:
            grant = web.create(client, seats=3, bots=[{"kind": "greedy"}, {"kind": "random"}], seed=5)
            with web.connect(client, grant["code"], grant["token"]) as ws:
                state = web.receive_state(ws, until=lambda s: bool(s["legal"]) and s["version"] > 0)
                for _ in range(3):  # a few rounds of the person drawing and discarding
                    ws.send_json({"type": "act", "action": state["legal"][0], "version": state["version"]})
                    done = state["version"]
                    state = web.receive_state(
                        ws, until=lambda s, v=done: s["version"] > v and bool(s["legal"])
                    )
            manager = client.app.state.manager  # type: ignore[attr-defined]
            assert (manager._thinkers is not None) == (processes > 0)
            records.append(manager.store.actions(grant["code"]))
    assert records[0] == records[1] and len(records[0]) >= 6


def test_a_search_bot_keeps_its_memory_between_decisions_in_the_bot_processes(
    tmp_path: Path, web: Any
) -> None:
    """The bot comes back from the process with what it learned of the other hands, so a search
    bot plays in the pool exactly as in a thread (where it never leaves the server's process)."""
    from fastapi.testclient import TestClient

    records = []
    for processes in (0, 1):
        url = f"sqlite:///{tmp_path / f's{processes}.db'}"
        settings = web.settings(bot_delay=0, bot_processes=processes)
        with TestClient(create_app(url, settings=settings)) as client:
            grant = web.create(
                client, preset="viennese", seats=2, bots=[{"kind": "search", "level": "easy"}], seed=11
            )
            table = client.app.state.manager.tables[grant["code"]]  # type: ignore[attr-defined]
            with web.connect(client, grant["code"], grant["token"]) as ws:
                state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
                for _ in range(16):  # draw and discard, eight turns (or to the end of the hand)
                    done = state["version"]
                    ws.send_json({"type": "act", "action": state["legal"][0], "version": done})
                    state = web.receive_state(ws, until=partial(_moved_on, done, table))
                    if not state["legal"]:
                        break
            (bot,) = (b for key, b in table._bots.items() if key[0] == "seat")
            assert bot.memories and all(m.log for m in bot.memories.values())  # it remembers
            records.append(client.app.state.manager.store.actions(grant["code"]))  # type: ignore[attr-defined]
    assert records[0] == records[1] and len(records[0]) >= 12


def test_bots_move_again_after_their_process_was_killed(tmp_path: Path, web: Any) -> None:
    """A bot process killed from outside (the kernel's out-of-memory killer, say) breaks a process
    pool for good; the server starts the bot processes again, so the table's bot still moves."""
    import os
    import signal
    import time

    from fastapi.testclient import TestClient

    settings = web.settings(bot_delay=0, bot_processes=1)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'k.db'}", settings=settings)) as client:
        grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=5)
        manager = client.app.state.manager  # type: ignore[attr-defined]
        table = manager.tables[grant["code"]]
        with web.connect(client, grant["code"], grant["token"]) as ws:
            state = web.receive_state(ws, until=lambda s: bool(s["legal"]) and s["version"] > 0)
            pool = manager._thinkers
            assert pool is not None
            for pid in list(pool._processes):  # the bot processes die
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.5)
            while state["legal"]:  # the person plays the turn (the states come at once)
                done = state["version"]
                ws.send_json({"type": "act", "action": state["legal"][0], "version": done})
                state = web.receive_state(ws, until=lambda s, v=done: s["version"] > v)
            mine = table.version
            deadline = time.monotonic() + 15
            while table.version <= mine and time.monotonic() < deadline:
                time.sleep(0.05)
            assert table.version > mine, "the bot never moved after its process was killed"
        assert manager._thinkers is not pool


def test_a_server_stopped_by_sigterm_exits_cleanly_after_its_bots_thought(
    tmp_path: Path, server_factory: Any
) -> None:
    """uvicorn raises the SIGTERM it caught again after its graceful stop; ended by the signal, the
    process skipped the exit handlers that remove the bot pool's semaphores, and every stop printed
    "leaked semaphore objects". It now exits as asked (status 0, as ``--workers`` does) and quietly."""
    import httpx
    from websockets.sync.client import connect

    server = server_factory(f"sqlite:///{tmp_path / 'stop.db'}")
    grant = httpx.post(
        server.url + "/api/tables", json={"preset": "viennese", "seats": 2, "bots": [{"kind": "search"}]}
    ).json()
    with connect(server.url.replace("http", "ws") + f"/ws/{grant['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": grant["token"]}))
        moved = 0
        while moved < 3:  # the bot thinks in its process between the person's moves
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "state" and message["legal"]:
                move = {"type": "act", "action": message["legal"][0], "version": message["version"]}
                ws.send(json.dumps(move))
                moved += 1
    server.stop()
    assert server.proc.returncode == 0
    assert "leaked semaphore" not in server.output() and "Traceback" not in server.output()


def test_closing_ends_a_bot_process_that_is_still_busy_after_the_wait(monkeypatch: Any) -> None:
    """A closing server waits a search's budget for the decision being made, then ends the process:
    it neither returns at once (leaving the exit to wait without limit) nor hangs."""
    import asyncio
    import multiprocessing
    import time
    from concurrent.futures import ProcessPoolExecutor

    from rummykit.web import manager as manager_module

    monkeypatch.setattr(manager_module, "POOL_CLOSE_SECONDS", 0.5)
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    busy = pool.submit(time.sleep, 60)
    deadline = time.monotonic() + 30
    while not busy.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    processes = list(pool._processes.values())  # type: ignore[union-attr]
    began = time.monotonic()
    asyncio.run(manager_module.TableManager._close_thinkers(pool))
    took = time.monotonic() - began
    for process in processes:
        process.join(10)
    assert 0.4 <= took < 10 and all(not p.is_alive() for p in processes)
