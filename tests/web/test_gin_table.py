"""Gin at a web table: the generic legal-action list plays a whole hand (OpenSpiel's phases)."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient


def test_a_gin_hand_is_played_to_its_end_through_the_legal_action_list(client: TestClient, web: Any) -> None:
    grant = web.create(client, preset="gin", seats=2, bots=[{"kind": "random"}], seed=5)
    rng = random.Random(5)
    seen: set[str] = set()
    with web.connect(client, grant["code"], grant["token"]) as ws:
        state = web.receive_state(ws)
        for _ in range(3000):
            view = state["view"]
            if state["match"]["hands"]:
                break
            legal = state["legal"]
            if not legal:
                state = web.receive_state(ws)
                continue
            seen.add(view["phase"])
            action = "knock" if "knock" in legal else rng.choice(legal)
            version = state["version"]
            ws.send_json({"type": "act", "action": action, "version": version})
            state = web.receive_state(ws, until=lambda s, v=version: s["version"] > v)
        hands = state["match"]["hands"]
        assert hands and hands[0]["termination"] in ("knock", "wall", "drawn")
        if hands[0]["termination"] == "knock":
            assert sum(hands[0]["points"]) == 0
    assert {"first_upcard", "discard"} <= seen
