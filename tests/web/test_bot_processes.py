"""Bots think in a process pool: the decisions are the same as in the server's own process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rummykit.web.app import create_app


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
