"""Bot decisions on a shared server (rummykit.web.thinking): fair among the networks that made the
tables, off the table's lock, and the bots keep what they learned from one decision to the next."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from rummykit.actions import Action, Draw
from rummykit.bots import Bot, make_bot
from rummykit.web.app import create_app
from rummykit.web.thinking import USAGE_HALF_LIFE, Decision, FairThinkers, table_key

from .test_websocket import table_of


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class _Pool:
    """A stand-in for the bot processes: each decision waits until the test finishes it, and takes
    the seconds of the clock the test advances meanwhile."""

    def __init__(self, clock: _Clock) -> None:
        self.clock = clock
        self.started: list[str] = []
        self.gates: dict[str, asyncio.Future[None]] = {}

    async def submit(self, bot: Bot, match: bytes, rng: random.Random) -> Decision:
        name = match.decode()
        self.started.append(name)
        gate = self.gates[name] = asyncio.get_running_loop().create_future()
        await gate
        if name.startswith("fail"):
            raise RuntimeError(f"{name} failed")
        return Draw(), bot

    async def finish(self, name: str, seconds: float = 0.0) -> None:
        self.clock.now += seconds
        self.gates[name].set_result(None)
        for _ in range(5):  # let the finished decision hand its slot on
            await asyncio.sleep(0)


def _fair(slots: int = 1) -> tuple[FairThinkers, _Pool, _Clock]:
    clock = _Clock()
    pool = _Pool(clock)
    return FairThinkers(slots, pool.submit, clock), pool, clock


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def _ask(fair: FairThinkers, key: str, name: str) -> asyncio.Task[Decision]:
    return asyncio.get_running_loop().create_task(
        fair.think(key, make_bot("greedy"), name.encode(), random.Random(0))
    )


async def _race(
    fair: FairThinkers, pool: _Pool, blocker: str, older: tuple[str, str], newer: tuple[str, str]
) -> str:
    """While ``blocker`` (another key) holds the one slot, ``older`` then ``newer`` ask: which of
    the two starts when the blocker finishes (both then run to their end)."""
    tasks = [_ask(fair, "net:c", blocker)]
    for key, name in (older, newer):
        await _settle()
        tasks.append(_ask(fair, key, name))
    await _settle()
    await pool.finish(blocker)
    first = pool.started[-1]
    await pool.finish(first)
    await pool.finish(older[1] if first == newer[1] else newer[1])
    await asyncio.gather(*tasks)
    return first


def test_a_lone_table_is_served_before_a_flood_of_another_network() -> None:
    """One network queues five decisions of its tables; a stranger's one decision, asked later,
    starts as soon as the process is free, not after the five."""

    async def main() -> list[str]:
        fair, pool, _ = _fair()
        flood = [_ask(fair, "net:a", f"a{i}") for i in range(5)]
        await _settle()
        lone = _ask(fair, "net:b", "b0")
        await _settle()
        assert pool.started == ["a0"] and fair.waiting("net:a") == 4 and fair.waiting("net:b") == 1
        await pool.finish("a0", 1.0)
        await pool.finish("b0", 0.01)
        for i in range(1, 5):
            await pool.finish(f"a{i}", 1.0)
        await asyncio.gather(*flood, lone)
        assert fair.running == 0 and fair.waiting() == 0
        return pool.started

    assert asyncio.run(main()) == ["a0", "b0", "a1", "a2", "a3", "a4"]


def test_the_network_that_thought_least_lately_goes_first_and_old_use_fades() -> None:
    async def main() -> None:
        fair, pool, clock = _fair()
        first = _ask(fair, "net:a", "a0")
        await _settle()
        await pool.finish("a0", 10.0)  # a thought for ten seconds
        await first
        assert fair.usage("net:a") == pytest.approx(10.0)
        assert await _race(fair, pool, "c0", older=("net:a", "a1"), newer=("net:b", "b0")) == "b0"
        # Twenty half-lives later a's ten seconds are forgotten: the oldest decision goes first.
        clock.now += 20 * USAGE_HALF_LIFE
        assert fair.usage("net:a") < 1e-4
        assert await _race(fair, pool, "c1", older=("net:a", "a2"), newer=("net:b", "b1")) == "a2"

    asyncio.run(main())


def test_every_slot_is_used_and_a_caller_that_gives_up_loses_its_place() -> None:
    async def main() -> None:
        fair, pool, _ = _fair(slots=2)
        a0, a1, a2 = (_ask(fair, "net:a", f"a{i}") for i in range(3))
        await _settle()
        assert pool.started == ["a0", "a1"] and fair.running == 2  # one network may use both
        a2.cancel()
        await _settle()
        b0 = _ask(fair, "net:b", "b0")
        await _settle()
        await pool.finish("a0")
        await pool.finish("a1")
        assert pool.started == ["a0", "a1", "b0"]  # a2 was never started
        await pool.finish("b0")
        await asyncio.gather(a0, a1, b0)
        assert fair.waiting() == 0 and fair.running == 0

    asyncio.run(main())


def test_a_failing_decision_reaches_its_caller_and_frees_the_slot() -> None:
    async def main() -> None:
        fair, pool, _ = _fair()
        failing = _ask(fair, "net:a", "fail0")
        after = _ask(fair, "net:b", "b0")
        await _settle()
        await pool.finish("fail0")
        with pytest.raises(RuntimeError, match="fail0 failed"):
            await failing
        await pool.finish("b0")
        assert (await after)[0] == Draw()

    asyncio.run(main())


def test_tables_of_one_network_share_a_key() -> None:
    assert table_key("d1", "ABCDEF") == table_key("d1", "GHJKLM") != table_key("d2", "ABCDEF")
    assert table_key(None, "ABCDEF") != table_key(None, "GHJKLM")


def test_a_bot_thinks_off_the_lock_and_a_move_made_meanwhile_wins(tmp_path: Path, web: Any) -> None:
    """A person away too long has a bot move for them; it thinks without the table's lock, so the
    person coming back is served at once, and when they move first the bot's thought is dropped."""
    from fastapi.testclient import TestClient

    settings = web.settings(bot_delay=0, takeover_seconds=0.3)
    app = create_app(f"sqlite:///{tmp_path / 'think.db'}", settings=settings)
    entered, release = threading.Event(), threading.Event()
    locked_while_thinking: list[bool] = []
    with TestClient(app) as client:
        host = web.create(client, seats=2, seed=3)
        code = host["code"]
        guest = client.post(f"/api/tables/{code}/join", json={"name": "B"}).json()
        client.post(f"/api/tables/{code}/start", json={"token": host["token"]})
        table = table_of(client, code)
        manager = client.app.state.manager  # type: ignore[attr-defined]
        think = manager.think

        async def slow_think(key: str, bot: Bot, match: bytes, rng: random.Random) -> Decision:
            locked_while_thinking.append(table.lock.locked())
            entered.set()
            await asyncio.to_thread(release.wait, 10.0)
            return await think(key, bot, match, rng)

        manager.think = slow_think
        with web.connect(client, code, host["token"]) as present:
            state = web.receive_state(present, until=lambda s: bool(s["legal"]))
            while state["legal"]:  # the host plays its turn; then the guest's seat is to move
                done = state["version"]
                present.send_json({"type": "act", "action": state["legal"][0], "version": done})
                state = web.receive_state(present, until=lambda s, v=done: s["version"] > v)
            assert entered.wait(5.0)  # the bot took over the guest's seat and thinks
            assert locked_while_thinking == [False]
            version = table.version
            with web.connect(client, code, guest["token"]) as back:
                started = time.monotonic()
                mine = web.receive_state(back, until=lambda s: bool(s["legal"]))
                assert time.monotonic() - started < 2.0  # served while the bot still thinks
                move: Action | str = mine["legal"][-1]
                back.send_json({"type": "act", "action": move, "version": version})
                web.receive_state(back, until=lambda s: s["version"] == version + 1)
                release.set()
                time.sleep(0.5)
                assert table.version == version + 1  # the bot's late thought was not played
                assert manager.store.actions(code)[-1] == move


def test_hints_asked_at_once_share_one_decision_and_a_failure_is_an_error(tmp_path: Path, web: Any) -> None:
    """Several connections of one seat asking for a hint together cost one decision, and a hint
    bot that fails answers with an error message instead of ending the connection."""
    from fastapi.testclient import TestClient

    app = create_app(f"sqlite:///{tmp_path / 'hints.db'}", settings=web.settings(bot_delay=0))
    calls: list[str] = []
    fail = threading.Event()
    release = threading.Event()
    with TestClient(app) as client:
        grant = web.create(client, seats=2, bots=[{"kind": "greedy"}], seed=5, name="Anna")
        manager = client.app.state.manager  # type: ignore[attr-defined]
        think = manager.think

        async def counted(key: str, bot: Bot, match: bytes, rng: random.Random) -> Decision:
            calls.append(key)
            await asyncio.to_thread(release.wait, 5.0)
            if fail.is_set():
                raise RuntimeError("the hint bot broke")
            return await think(key, bot, match, rng)

        with (
            web.connect(client, grant["code"], grant["token"]) as a,
            web.connect(client, grant["code"], grant["token"]) as b,
        ):
            state = web.receive_state(a, until=lambda s: bool(s["legal"]))
            web.receive_state(b, until=lambda s: s["version"] == state["version"])
            release.set()  # let the bot's own moves through first
            manager.think = counted
            calls.clear()
            release.clear()
            a.send_json({"type": "hint"})
            b.send_json({"type": "hint"})
            time.sleep(0.3)
            release.set()
            hints = []
            for ws in (a, b):
                while (msg := ws.receive_json())["type"] != "hint":
                    pass
                hints.append(msg["action"])
            assert len(calls) == 1 and hints[0] == hints[1]
            # A new position, and a hint bot that fails: an error, and the connection lives on.
            done = state["version"]
            a.send_json({"type": "act", "action": state["legal"][0], "version": done})
            state = web.receive_state(a, until=lambda s, v=done: s["version"] > v and bool(s["legal"]))
            fail.set()
            a.send_json({"type": "hint"})
            while (msg := a.receive_json())["type"] != "error":
                pass
            assert msg["code"] == "hint_failed" and "Tipp" in msg["texts"]["de"]
            a.send_json({"type": "ping"})
            while a.receive_json()["type"] != "pong":
                pass


def test_bot_time_is_shared_by_coarse_networks() -> None:
    """Someone holding a whole IPv6 /48 (256 /56s, 65,536 /64s) or many addresses of an IPv4 /24
    gets one share of bot time, not one per /64 or address it creates tables from."""
    from rummykit.web.limits import network_key
    from rummykit.web.thinking import fair_network

    sixty_fours = {fair_network(network_key(f"2001:db8:7:{i:x}::1")) for i in range(300)}
    assert sixty_fours == {"2001:db8:7::/48"}
    assert fair_network("203.0.113.9") == fair_network("203.0.113.200") == "203.0.113.0/24"
    assert fair_network("203.0.114.9") != fair_network("203.0.113.9")
    assert fair_network("unknown") == "unknown"


def test_the_shared_network_of_a_table_survives_a_restart(tmp_path: Path, web: Any) -> None:
    """A table loaded after a restart shares bot time with the same network as before (stored as a
    keyed digest, never as the network itself), and ended tables lose it with the other digests."""
    from fastapi.testclient import TestClient
    from sqlalchemy import create_engine, text

    from rummykit.web.app import create_app
    from rummykit.web.owners import address_digest

    url = f"sqlite:///{tmp_path / 'fair.db'}"
    key = bytes(range(32))
    with TestClient(create_app(url, settings=web.settings(), address_key=key)) as client:
        code = web.create(client, seats=2, bots=[{"kind": "greedy"}])["code"]
        before = client.app.state.manager.tables[code].think_key  # type: ignore[attr-defined]
    assert before == "fair:" + address_digest("testclient", key)  # an unreadable address shares by itself
    engine = create_engine(url)
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT fair FROM rk_tables WHERE code = :c"), {"c": code}).scalar()
    assert stored == before.removeprefix("fair:")
    with TestClient(create_app(url, settings=web.settings(), address_key=key)) as client:
        table = client.app.state.manager.tables[code]  # type: ignore[attr-defined]
        assert table.think_key == before
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        with engine.begin() as connection:
            connection.execute(text("UPDATE rk_tables SET status = 'closed' WHERE code = :c"), {"c": code})
        assert store.forget_addresses(0.0) >= 1
    with engine.connect() as connection:
        row = connection.execute(
            text("SELECT creator, fair FROM rk_tables WHERE code = :c"), {"c": code}
        ).one()
    engine.dispose()
    assert tuple(row) == (None, None)


@pytest.mark.parametrize("failure", ["raises", "refused move"])
def test_a_bot_that_fails_every_time_does_not_stop_the_table(
    tmp_path: Path, web: Any, caplog: pytest.LogCaptureFixture, failure: str
) -> None:
    """A seat's bot whose decision raises (a bug in the bot), or that chooses a move the engine
    refuses, was logged and the table waited for ever, asking the same bot on every kick of the
    clock. The greedy bot moves instead, thought out as every bot's decision is, the failure is
    logged once per move, and the person gets the turn back."""
    from fastapi.testclient import TestClient

    app = create_app(f"sqlite:///{tmp_path / 'broken.db'}", settings=web.settings(bot_delay=0))
    with TestClient(app) as client:
        grant = web.create(client, seats=2, bots=[{"kind": "search", "level": "easy"}], seed=7, name="Anna")
        manager = client.app.state.manager  # type: ignore[attr-defined]
        table = table_of(client, grant["code"])
        asked: list[str] = []
        think = manager.think

        async def broken(key: str, bot: Bot, match: bytes, rng: random.Random) -> Decision:
            if not bot.name.startswith("search"):
                return await think(key, bot, match, rng)  # the fallback thinks as usual
            asked.append(bot.name)
            if failure == "raises":
                raise RuntimeError("the bot broke")
            return Action.parse("discard JK"), bot  # nobody holds two jokers' worth of this

        manager.think = broken
        turns = 0
        with web.connect(client, grant["code"], grant["token"]) as ws:
            deadline = time.monotonic() + 20.0
            while table.match.to_move != 0:  # the bot may begin
                assert time.monotonic() < deadline, "the table stopped before the person's first turn"
                time.sleep(0.05)
            state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
            while turns < 3:
                action, sent = state["legal"][-1], state["version"]
                ws.send_json({"type": "act", "action": action, "version": sent})
                if action.startswith("discard"):  # the person's turn ends: the bot's comes
                    turns += 1
                # Wait on the table, not the socket (whose receive has no timeout): the bot must have
                # moved and the person be to move again, or the match be over.
                deadline = time.monotonic() + 20.0
                while not (table.version > sent and (table.match.is_over or table.match.to_move == 0)):
                    assert time.monotonic() < deadline, f"the table stopped after {turns} turns of the person"
                    time.sleep(0.05)
                if table.match.is_over:
                    break
                state = web.receive_state(ws, until=lambda s, v=sent: s["version"] > v and bool(s["legal"]))
        assert turns == 3, f"the table stopped after {turns} turns of the person"
    said = {
        "raises": "failed for seat 1; the greedy bot moves",
        "refused move": "chose a refused move for seat 1",
    }
    failures = [r for r in caplog.records if said[failure] in r.getMessage()]
    # Once per failed decision (one still thinking when the person left is dropped unplayed).
    assert 2 <= len(failures) <= len(asked)


def test_a_decisions_copy_holds_the_hand_not_the_match_behind_it() -> None:
    """A bot decides on the current hand and the match's standing: the snapshot leaves the finished
    hands out, so its size and cost stay the same however long the match (it grew to 1.2 MB and
    60 ms on the event loop per decision of a 100-hand match), and every decision, a buy-back's
    included, is the one the whole match gives; a move played on the copy settles a hand as the
    table does (its knock money read from the hand in play, not the finished hands left out)."""
    import pickle

    from rummykit.bots import match_action
    from rummykit.match import Match
    from rummykit.rules import Rules
    from rummykit.web.thinking import decide, snapshot

    rules = Rules.preset("viennese")
    match = Match.new(rules, 3, seed=5)
    bots = [make_bot("greedy"), make_bot("search", "easy"), make_bot("greedy")]
    sizes: dict[int, int] = {}
    buybacks = 0
    moves = 0
    while not match.is_over and moves < 3000:
        seat = match.to_move
        whole = match_action(bots[seat], match.copy(), random.Random(moves))
        hands = list(match.rounds)
        copy = snapshot(match)
        assert decide(bots[seat], copy, random.Random(moves))[0] == whole
        buybacks += bool(match.pending_buyback)
        sizes.setdefault(len(match.rounds), len(copy))
        trimmed = pickle.loads(copy)
        assert not trimmed.rounds and match.rounds == hands  # the table keeps its own
        match.apply(whole)
        trimmed.apply(whole)  # a hand settled on the copy pays its knock money as the table's does
        assert (trimmed.chips, trimmed.pot, trimmed.penalties) == (match.chips, match.pot, match.penalties)
        moves += 1
    assert len(sizes) >= 6 and buybacks > 0
    first, last = sizes[min(sizes)], sizes[max(sizes)]
    assert last < 2 * first, sizes
