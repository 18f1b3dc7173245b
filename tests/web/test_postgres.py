"""The same server on a real PostgreSQL server (psycopg 3), started by the test session."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from rummykit.web.app import create_app
from rummykit.web.limits import RateLimiter
from rummykit.web.lobby import hash_token
from rummykit.web.store import Store
from tests.web.test_group_commit import erase_in_batches


def test_store_round_trip(postgres_url: str) -> None:
    store = Store(postgres_url)
    try:
        assert store.engine.dialect.name == "postgresql"
        assert store.engine.dialect.driver == "psycopg"
    finally:
        store.close()


def test_tables_survive_a_restart_on_postgres(postgres_url: str, web: Any) -> None:
    app = create_app(postgres_url, settings=web.settings(bot_delay=0, takeover_seconds=60))
    with TestClient(app) as client:
        grant = web.create(client, preset="viennese", seats=3, bots=[{"kind": "random"}] * 2, seed=2**32 - 1)
        code = grant["code"]
        with web.connect(client, code, grant["token"]) as ws:
            for _ in range(8):
                state = web.receive_state(ws, until=lambda s: bool(s["legal"]))
                ws.send_json({"type": "act", "action": state["legal"][-1], "version": state["version"]})
            before = web.receive_state(ws, until=lambda s: bool(s["legal"]))
            ws.send_json({"type": "act", "action": "rummy ZZ", "version": before["version"]})
            assert ws.receive_json()["code"] == "notation"
    app = create_app(postgres_url, settings=web.settings(bot_delay=0, takeover_seconds=60))
    with TestClient(app) as client:
        with web.connect(client, code, grant["token"]) as ws:
            after = web.receive_state(ws)
        assert after["version"] == before["version"] > 8
        assert after["view"] == before["view"] and after["match"] == before["match"]
        assert after["legal"] == before["legal"]


def test_address_digests_are_erased_in_batches_on_postgres(postgres_url: str) -> None:
    erase_in_batches(postgres_url)


def test_a_bad_internal_host_is_refused_before_the_server_says_it_serves(postgres_url: str) -> None:
    """``--internal-host`` is checked with the other arguments: an operator's log never says the
    server serves when it is about to stop."""
    from typer.testing import CliRunner

    from rummykit.cli import app

    result = CliRunner().invoke(
        app, ["serve", "--port", "8832", "--database-url", postgres_url, "--internal-host", "999.1.1.1"]
    )
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "error: cannot listen on 999.1.1.1" in result.output and "serving" not in result.output


@pytest.fixture
def fresh_database(postgres_url: str) -> Iterator[str]:
    """A database of its own (others of the session's server were claimed by a keyed process)."""
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text("DROP DATABASE IF EXISTS rk_lobby_replays"))
        connection.execute(text("CREATE DATABASE rk_lobby_replays"))
    admin.dispose()
    yield postgres_url.rsplit("/", 1)[0] + "/rk_lobby_replays"


def test_a_lobby_request_for_another_process_s_table_replays_it_only_when_it_can_be_granted(
    fresh_database: str, web: Any
) -> None:
    """A request to a process that does not play the table replays its match for the lobby's sake:
    a second of the event loop for a long match. A made-up token, a record of an open table, a join
    of a table in play are refused from the stored row, without the replay."""
    settings = web.settings(bot_delay=0, takeover_seconds=60)
    owner_app, other_app = (create_app(fresh_database, settings=settings) for _ in range(2))
    with TestClient(owner_app) as owner, TestClient(other_app) as other:
        grant = web.create(owner, preset="german", seats=2, name="Anna", bots=[{"kind": "random"}])
        code = grant["code"]
        manager = other.app.state.manager  # type: ignore[attr-defined]
        replays: list[str] = []
        replay = manager._replay

        def counted(stored: Any) -> Any:
            replays.append(stored.code)
            return replay(stored)

        manager._replay = counted
        left = other.post(f"/api/tables/{code}/leave", json={"token": "made-up"})
        assert left.status_code == 403 and left.json()["code"] == "unknown_token"
        record = other.get(f"/api/tables/{code}/record")
        assert record.status_code == 409 and record.json()["code"] == "match_not_over"
        joined = other.post(f"/api/tables/{code}/join", json={"name": "Max"})
        assert joined.status_code == 409 and joined.json()["code"] == "table_watch"
        removed = other.post(f"/api/tables/{code}/remove", json={"token": "made-up", "seat": 1})
        assert removed.status_code == 409 and removed.json()["code"] == "table_status"
        retaken = other.post(f"/api/tables/{code}/retake", json={"token": grant["token"]})
        assert retaken.status_code == 403 and retaken.json()["code"] == "no_held_seat"  # not left
        assert replays == []
        # The seat's own token is granted: the table is replayed for it.
        assert other.post(f"/api/tables/{code}/leave", json={"token": grant["token"]}).status_code == 200
        assert replays == [code]


@contextlib.contextmanager
def started_on_two_processes(url: str, web: Any, bot_delay: float) -> Iterator[tuple[Any, ...]]:
    """Two server processes on ``url``, the first holding a started German table of Anna (the host),
    Ben and a bot: ``(owner, other, code, host's grant, Ben's grant)``."""
    settings = web.settings(bot_delay=bot_delay, takeover_seconds=60)
    owner_app, other_app = (create_app(url, settings=settings) for _ in range(2))
    with TestClient(owner_app) as owner, TestClient(other_app) as other:
        host = web.create(owner, preset="german", seats=3, name="Anna", bots=[{"kind": "random"}])
        code = host["code"]
        ben = owner.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
        assert owner.post(f"/api/tables/{code}/start", json={"token": host["token"]}).status_code == 200
        yield owner, other, code, host, ben


def side_trips(manager: Any) -> list[str]:
    """The names of the storage calls ``manager`` makes on its lookups' thread from now on."""
    made: list[str] = []
    side_db = manager.side_db

    async def counted(fn: Any, *args: Any) -> Any:
        made.append(fn.__name__)
        return await side_db(fn, *args)

    manager.side_db = counted
    return made


def test_a_seat_left_and_retaken_through_another_process_is_replayed_aside_within_a_budget(
    fresh_database: str, web: Any
) -> None:
    """A person seated at a table (of their own: anybody can make one) leaves and takes the seat back
    through a process that does not play it, again and again: that process replays the match for
    each request, a quarter of a second for a long one, on its event loop every table there shares.
    The replay runs aside, within the network's share of the rebuilds (``replay_busy`` beyond it);
    the process's budget, which strangers looking up ended tables can spend, is not asked."""
    with (
        started_on_two_processes(fresh_database, web, 0) as (owner, other, code, host, ben),
        web.connect(owner, code, host["token"]) as anna,  # the owner plays it
    ):
        state = web.receive_state(anna)
        if state["match"]["to_move"] != 2:  # a person moves first (else the bot's move is stored)
            with web.connect(owner, code, ben["token"]) as ben_ws:
                mover = anna if state["match"]["to_move"] == 0 else ben_ws
                state = web.receive_state(mover, until=lambda s: bool(s["legal"]))
                mover.send_json({"type": "act", "action": state["legal"][0], "version": 0})
        web.receive_state(anna, until=lambda s: s["version"] > 0)
        manager = other.app.state.manager  # type: ignore[attr-defined]
        loop_thread = other.portal.call(threading.get_ident)  # type: ignore[attr-defined]
        on_loop: list[bool] = []
        replay = manager._replay

        def counted(stored: Any) -> Any:
            on_loop.append(threading.get_ident() == loop_thread)
            return replay(stored)

        manager._replay = counted
        manager._archive_share = RateLimiter(0.001, 3)  # the network's share: three replays
        manager._archive_budget = RateLimiter(0.001, 1)
        assert manager._archive_budget.take(None) == 0  # strangers' lookups spent the process's
        answers = [
            other.post(f"/api/tables/{code}/{path}", json={"token": ben["token"]})
            for path in ("leave", "retake", "leave", "retake")
        ]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        refused = answers[-1].json()
        assert refused["code"] == "replay_busy" and "Prozesse" in refused["texts"]["de"]
        assert on_loop == [False] * 3


@contextlib.contextmanager
def anna_at_a_table_of_two_processes(
    fresh_database: str, web: Any
) -> Iterator[tuple[TestClient, TestClient, str, Any]]:
    """Two server processes on one database; Anna made a German table of three on the first (its
    owner) and is connected there: the owner's and the other's clients, the code, Anna's socket."""
    settings = web.settings(bot_delay=0, takeover_seconds=60)
    owner_app, other_app = (create_app(fresh_database, settings=settings) for _ in range(2))
    with TestClient(owner_app) as owner, TestClient(other_app) as other:
        host = web.create(owner, preset="german", seats=3, name="Anna")
        code = host["code"]
        with web.connect(owner, code, host["token"]) as anna:
            web.receive_state(anna)
            yield owner, other, code, anna


def test_a_seat_taken_through_another_process_is_known_before_its_notice_comes(
    fresh_database: str, web: Any
) -> None:
    """A person joins through one process and their page connects to the one that plays the table at
    once: the lobby notice of the join may not have come yet (it did not under load, and the seat's
    own token was refused with 4403 "unknown seat token"). The owner reads the lobby row again before
    it refuses a token; a made-up token is still refused, and so is the token of a seat taken and left
    through the other process, neither notice come (the row is read again under the table's lock)."""
    with anna_at_a_table_of_two_processes(fresh_database, web) as (owner, other, code, _anna):
        table = owner.app.state.manager.tables[code]  # type: ignore[attr-defined]

        async def late() -> None:  # the notices of the joins and the leave are on their way
            return None

        table.refresh = late
        ben = other.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
        assert table.seat_for_digest(hash_token(ben["token"])) is None
        with web.connect(owner, code, ben["token"]) as ben_ws:
            assert web.next_of(ben_ws, "welcome")["seat"] == 1
        with web.connect(owner, code, "made-up") as stranger, pytest.raises(WebSocketDisconnect) as no:
            stranger.receive_json()
        assert no.value.code == 4403
        cleo = other.post(f"/api/tables/{code}/join", json={"name": "Cleo"}).json()
        assert other.post(f"/api/tables/{code}/leave", json={"token": cleo["token"]}).status_code == 200
        with web.connect(owner, code, cleo["token"]) as gone, pytest.raises(WebSocketDisconnect) as left:
            gone.receive_json()
        assert left.value.code == 4403
        assert [s.kind for s in table.seats] == ["human", "human", "open"]


def test_a_made_up_token_at_a_started_table_costs_no_database_trip(fresh_database: str, web: Any) -> None:
    """A table being played, or watched at its end, gives no new token a seat: a stranger's made-up
    token is refused from memory (its lobby row was read on the lookups' thread for every one, so
    connections to the lobby's playing tables queued work there). The person a bot holds a seat for
    is still let in at once after a retake through another process."""
    with started_on_two_processes(fresh_database, web, 30) as (owner, other, code, host, ben):
        manager = owner.app.state.manager  # type: ignore[attr-defined]
        with web.connect(owner, code, host["token"]) as anna:  # this process plays the table now
            web.receive_state(anna)
            table = manager.tables[code]
            assert table.status == "playing"
            reads = side_trips(manager)
            for _ in range(3):
                with web.connect(owner, code, "made-up") as ws, pytest.raises(WebSocketDisconnect) as no:
                    ws.receive_json()
                assert no.value.code == 4403
            assert "lobby" not in reads
            assert owner.post(f"/api/tables/{code}/leave", json={"token": ben["token"]}).status_code == 200

            async def late() -> None:  # the notice of the retake is on its way
                return None

            table.refresh = late
            assert other.post(f"/api/tables/{code}/retake", json={"token": ben["token"]}).status_code == 200
            with web.connect(owner, code, ben["token"]) as ben_ws:
                assert web.next_of(ben_ws, "welcome")["seat"] == 1


def test_an_ended_table_s_moves_are_read_only_for_a_rebuild_the_budget_grants(
    fresh_database: str, web: Any
) -> None:
    """A lookup of an ended table that is not in memory read all its moves (50 ms for 20,000 of them
    on the lookups' thread) before it learned that the table had ended, and again for the rebuild:
    a stranger asking for the record of collected codes spent that for every request the rebuilds'
    budget refused (``archive_busy``). The row says that it ended; its moves are read once, for a
    rebuild granted."""
    with TestClient(create_app(fresh_database, settings=web.settings(bot_delay=0))) as client:
        code = web.create(client, preset="gin", seats=2, name="Anna")["code"]
        engine = create_engine(fresh_database)
        with engine.begin() as c:
            ended = "UPDATE rk_tables SET status = 'closed', updated_at = now() - interval '1 day'"
            c.execute(text(ended + " WHERE code = :c"), {"c": code})
        engine.dispose()
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert code not in manager.tables
        reads = side_trips(manager)
        manager._archive_budget = RateLimiter(0.001, 1)
        manager._archive_budget.take(None)  # spent by others' lookups
        for _ in range(3):
            refused = client.get(f"/api/tables/{code}/record")
            assert refused.status_code == 429 and refused.json()["code"] == "archive_busy"
        assert "load" not in reads
        manager._archive_budget = RateLimiter(1.0, 1)
        assert client.get(f"/api/tables/{code}/record").status_code == 200
        assert reads.count("load") == 1


def test_a_person_who_joins_through_another_process_reads_only_the_chat_since(
    fresh_database: str, web: Any
) -> None:
    with anna_at_a_table_of_two_processes(fresh_database, web) as (owner, other, code, anna):
        anna.send_json({"type": "chat", "text": "before Ben came"})
        web.next_of(anna, "chat")
        ben = other.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
        with web.connect(owner, code, ben["token"]) as ben_ws:
            ben_ws.send_json({"type": "ping"})
            seen = []
            while (msg := ben_ws.receive_json())["type"] != "pong":
                seen.append(msg)
            assert any(m["type"] == "welcome" and m["seat"] == 1 for m in seen)
            assert [m for m in seen if m["type"] == "chat"] == []


def test_an_address_over_the_rate_of_every_process_together_is_told_it_was_its_address(
    fresh_database: str, web: Any
) -> None:
    """The database's bucket counts an address's lobby requests on every process; only a process's own
    buckets count its wider network. A school behind one address whose requests the load balancer
    spread over two processes is refused by the database's bucket, and told that its address (a school
    or office shares one) went over the rate, not its wider network."""
    settings = web.settings(bot_delay=0, requests_per_second=0.001, requests_burst=2)
    first_app, second_app = (create_app(fresh_database, settings=settings) for _ in range(2))
    with (
        TestClient(first_app, client=("198.51.100.7", 5000)) as first,
        TestClient(second_app, client=("198.51.100.7", 5000)) as second,
    ):
        code = web.create(first, preset="gin", seats=2, name="Anna")["code"]
        assert [first.get(f"/api/tables/{code}").status_code for _ in range(2)] == [200, 200]  # the burst
        refused = second.get(f"/api/tables/{code}")  # the second process's own buckets have tokens
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert "a school or office" in refused.json()["detail"] and "wider" not in refused.json()["detail"]
        assert "größeren Netz" not in refused.json()["texts"]["de"]
