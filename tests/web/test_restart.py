"""A server killed with SIGKILL and restarted resumes its tables exactly.

A real ``rummykit serve`` process runs a four-seat table (one person, three random bots). The server
is killed twice: once while it waits for the person (the restarted server must send the identical
state) and once right after a move while the bots are still playing. The finished round must equal
an uninterrupted game computed offline with the same seeds and the same choices.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots import make_bot
from rummykit.match import Match
from rummykit.rules import Rules
from rummykit.web import protocol

websockets_sync = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")
httpx = pytest.importorskip("httpx")

SEED = 90210
RULES = {"match_end": "single_hand"}
POINTS = {"A": 11, "J": 10, "Q": 10, "K": 10, "10": 10, "JK": 30}


def person(legal: list[str]) -> str:
    """The person's deterministic choices: lay what can be laid, else draw, else the highest discard."""
    for prefix in ("open", "meld", "layoff", "draw"):
        options = [a for a in legal if a.startswith(prefix)]
        if options:
            return options[0]
    discards = [a for a in legal if a.startswith("discard")]

    def points(action: str) -> int:
        face = action.split()[1]
        return POINTS.get(face, 0) or POINTS.get(face[:-1], 0) or int(face[:-1])

    return max(discards, key=points) if discards else legal[0]


def uninterrupted() -> Match:
    """The same game without a server: same seed, the same bot randomness per version."""
    match = Match.new(Rules.from_mapping({"preset": "german", **RULES}), 4, seed=SEED)
    bot = make_bot("random")
    while not match.is_over:
        version = len(match.actions)
        if match.to_move == 0:
            match.apply(person([str(a) for a in match.legal_actions()]))
        else:
            view = match.round.view(match.to_move)
            match.apply(bot.choose(view, match.legal_actions(), random.Random(f"{SEED}:{version}")))
    return match


class Player:
    def __init__(self, base: str, code: str, token: str) -> None:
        url = base.replace("http://", "ws://") + f"/ws/{code}"
        self.ws = websockets_sync.connect(url, open_timeout=10, legacy=True)
        self.ws.send(json.dumps({"type": "hello", "token": token}))

    def state(self, until: Any = None) -> dict[str, Any]:
        while True:
            msg = json.loads(self.ws.recv(timeout=20))
            assert msg["type"] != "error", msg
            if msg["type"] == "state" and (until is None or until(msg)):
                return msg  # type: ignore[no-any-return]

    def my_turn(self) -> dict[str, Any]:
        return self.state(lambda s: bool(s["legal"] or s["compose"]) or s["match"]["is_over"])

    def legal(self, state: dict[str, Any]) -> list[str]:
        """Every legal move: the state's list, or when there are moves to compose, the full list."""
        if not state["compose"]:
            return state["legal"]  # type: ignore[no-any-return]
        self.ws.send(json.dumps({"type": "moves"}))
        while True:
            msg = json.loads(self.ws.recv(timeout=20))
            assert msg["type"] != "error", msg
            if msg["type"] == "moves" and msg["version"] == state["version"]:
                return msg["actions"]  # type: ignore[no-any-return]

    def play(self, state: dict[str, Any]) -> None:
        move = {"type": "act", "action": person(self.legal(state)), "version": state["version"]}
        self.ws.send(json.dumps(move))

    def close(self) -> None:
        self.ws.close()


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "table"}


def test_sigkill_and_restart_resume_the_round_identically(tmp_path: Path, server_factory: Any) -> None:
    database = f"sqlite:///{tmp_path / 'restart.db'}"
    server = server_factory(database, bot_delay=0.01)
    grant = httpx.post(
        server.url + "/api/tables",
        json={"seats": 4, "bots": [{"kind": "random"}] * 3, "seed": SEED, "overrides": RULES, "name": "P"},
    ).json()
    code, token = grant["code"], grant["token"]

    player = Player(server.url, code, token)
    for _ in range(6):
        player.play(player.my_turn())
    before = player.my_turn()  # the bots have moved; the table waits for the person
    server.kill()
    player.close()

    server = server_factory(database, bot_delay=0.01)
    player = Player(server.url, code, token)
    after = player.state()
    assert comparable(after) == comparable(before)

    player.play(after)
    for _ in range(4):
        player.play(player.my_turn())
    server.kill()  # right after a move: the bots are still playing their turns
    player.close()

    server = server_factory(database, bot_delay=0)
    player = Player(server.url, code, token)
    state = player.my_turn()
    while not state["match"]["is_over"]:
        player.play(state)
        state = player.my_turn()
    player.close()

    reference = uninterrupted()
    assert state["version"] == len(reference.actions)
    assert state["match"] == protocol.match_json(reference)
    assert state["view"] == protocol.view_json(reference.round.view(0), own=True)
    assert state["log"] == protocol.log_json(reference)
