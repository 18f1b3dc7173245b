"""Guessing table codes: a table found by its link alone is as private as its code is hard to guess,
so a wider network may look up only a few codes that name no table (``missed_codes_per_hour``)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rummykit.web.app import create_app
from rummykit.web.limits import ServerSettings
from rummykit.web.manager import CODE_ALPHABET
from rummykit.web.tables import LobbyError
from tests.web.test_caps_together import managers

MISSES = 5
"""The burst of misses of these tests' servers (their rate refills none while a test runs)."""


@pytest.fixture
def app(tmp_path: Path, web: Any) -> Any:
    settings = web.settings(bot_delay=0, missed_codes_per_hour=0.001, missed_codes_burst=MISSES)
    return create_app(f"sqlite:///{tmp_path / 'guess.db'}", settings=settings)


@pytest.fixture
def clients(app: Any) -> Iterator[dict[str, TestClient]]:
    """Clients from three addresses: two of one IPv4 /24, one of another."""
    with TestClient(app, client=("198.51.100.7", 5000)) as first:
        second = TestClient(app, client=("198.51.100.8", 5000))
        other = TestClient(app, client=("203.0.113.9", 5000))
        yield {"first": first, "same_network": second, "other_network": other}


def unlisted_table(client: TestClient) -> str:
    body = {"preset": "gin", "seats": 2, "name": "Anna", "listed": False}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    code: str = response.json()["code"]
    return code


def unused_code(taken: str) -> str:
    """A well-formed code that names no table (the tests' servers hold one or two)."""
    return "ZZZZZ2" if taken != "ZZZZZ2" else "ZZZZZ3"


def test_a_network_that_spent_its_misses_is_refused_every_lookup_by_code(
    clients: dict[str, TestClient],
) -> None:
    first, same, other = clients["first"], clients["same_network"], clients["other_network"]
    code = unlisted_table(other)
    wrong = unused_code(code)
    for _ in range(MISSES):
        answer = first.get(f"/api/tables/{wrong}")
        assert answer.status_code == 404 and answer.json()["code"] == "no_table"
    # The next lookup by code from the same /24 is refused, even of a table that exists, by every
    # request that names a code: the guesser learns nothing more until a miss is allowed again.
    for client, method, path, body in (
        (first, "GET", f"/api/tables/{code}", None),
        (same, "GET", f"/api/tables/{code}", None),
        (same, "GET", f"/api/tables/{code}/rules", None),
        (same, "GET", f"/api/tables/{code}/record", None),
        (same, "POST", f"/api/tables/{code}/join", {"name": "Mallory"}),
        (same, "POST", f"/api/tables/{code}/rematch", {"token": "x" * 20}),
    ):
        answer = client.request(method, path, json=body)
        assert answer.status_code == 429, (path, answer.text)
        assert answer.json()["code"] == "too_many_misses"
        assert int(answer.headers["Retry-After"]) > 0
        assert "Netz" in answer.json()["texts"]["de"]
    with same.websocket_connect(f"/ws/{code}") as ws:  # a watcher: refused once it says hello
        ws.send_json({"type": "hello", "token": None})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "too_many_misses"
        assert refused["retry_after"] > 0
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4429
    # Another network is not held back, and finds the table.
    assert other.get(f"/api/tables/{code}").status_code == 200
    assert other.get(f"/api/tables/{wrong}").status_code == 404


def test_lookups_that_find_a_table_spend_no_miss(clients: dict[str, TestClient], web: Any) -> None:
    """A class whose pages look up their own tables all afternoon (each reconnection asks first)
    is never refused: only codes that name no table count."""
    first = clients["first"]
    grant = web.create(first, preset="gin", seats=2, name="Anna", bots=[{"kind": "random"}])
    for _ in range(4 * MISSES):
        assert first.get(f"/api/tables/{grant['code']}").status_code == 200
        assert first.get(f"/api/tables/{grant['code']}/rules").status_code == 200
    with web.connect(first, grant["code"], grant["token"]) as ws:
        web.receive_state(ws)
    # Codes that cannot name a table (wrong length, letters the codes never use) are no guess.
    for _ in range(2 * MISSES):
        assert first.get("/api/tables/nonsense").status_code == 404
    assert first.get(f"/api/tables/{grant['code']}").status_code == 200


def test_a_miss_over_the_websocket_counts(clients: dict[str, TestClient]) -> None:
    first = clients["first"]
    code = unlisted_table(clients["other_network"])
    for _ in range(MISSES):
        wrong = unused_code(code)
        with first.websocket_connect(f"/ws/{wrong}") as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    assert first.get(f"/api/tables/{code}").json()["code"] == "too_many_misses"


def test_the_setting_is_offered_and_checked(web: Any) -> None:
    from rummykit.web.limits import ServerSettings

    with pytest.raises(ValueError, match="missed_codes_per_hour"):
        ServerSettings(missed_codes_per_hour=0)
    with pytest.raises(ValueError, match="missed_codes_burst"):
        ServerSettings(missed_codes_burst=0)
    assert ServerSettings().missed_codes_per_hour == 120.0 and ServerSettings().missed_codes_burst == 60


def test_people_seated_at_a_table_get_through_a_network_whose_misses_are_spent(
    clients: dict[str, TestClient], web: Any
) -> None:
    """One stranger on a shared address (a school's, a carrier's) spent the network's misses and so
    locked every person of that network out of their own tables: a reconnecting player was refused,
    and so were leave and the other requests with a seat's token. A seat's token still gets through;
    a made-up one, or none, is refused as any lookup is."""
    first, same, other = clients["first"], clients["same_network"], clients["other_network"]
    grant = web.create(first, preset="gin", seats=2, name="Anna", listed=False)
    code = grant["code"]
    assert other.post(f"/api/tables/{code}/join", json={"name": "Ben"}).status_code == 200
    wrong = unused_code(code)
    for _ in range(MISSES):
        assert same.get(f"/api/tables/{wrong}").status_code == 404
    assert first.get(f"/api/tables/{code}").json()["code"] == "too_many_misses"
    with web.connect(first, code, grant["token"]) as ws:  # Anna reconnects
        assert web.receive_state(ws)["you"] == 0
    with same.websocket_connect(f"/ws/{code}") as ws:  # a watcher, or a made-up token: refused alike
        ws.send_json({"type": "hello", "token": "x" * 30})
        assert ws.receive_json()["code"] == "too_many_misses"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4429
    started = first.post(f"/api/tables/{code}/start", json={"token": grant["token"]})
    assert started.status_code == 200, started.text
    made_up = first.post(f"/api/tables/{code}/leave", json={"token": "y" * 30})
    assert made_up.status_code == 429 and made_up.json()["code"] == "too_many_misses"
    left = first.post(f"/api/tables/{code}/leave", json={"token": grant["token"]})  # a bot holds it
    assert left.status_code == 200, left.text
    retaken = first.post(f"/api/tables/{code}/retake", json={"token": grant["token"]})
    assert retaken.status_code == 200, retaken.text


def test_a_spent_network_reaches_its_own_table_s_entry_rules_and_record_with_the_seat_s_token(
    clients: dict[str, TestClient], web: Any
) -> None:
    """A player whose network a stranger had spent could play, but not look up their own table: its
    entry ("Your tables"), its rules page and, once it ended and left memory, its record were refused
    as any code. A ``GET`` showing the seat's token (``Authorization: Bearer``) gets through; none, a
    made-up one or another table's is refused alike."""
    from tests.web.test_ended_tables import ended_gin_tables

    first, same = clients["first"], clients["same_network"]
    waiting = web.create(first, preset="gin", seats=2, name="Anna", listed=False)
    ended = ended_gin_tables(first, web, (4,))[0]  # ended, and gone from memory
    for _ in range(MISSES):
        assert same.get(f"/api/tables/{unused_code(waiting['code'])}").status_code == 404
    cases = ((waiting, ended, ("", "/rules")), (ended, waiting, ("", "/rules", "/record")))
    for grant, other, paths in cases:
        for path in paths:
            url = f"/api/tables/{grant['code']}{path}"
            for refused in (
                first.get(url),
                first.get(url, headers={"Authorization": "Bearer " + "x" * 30}),
                first.get(url, headers={"Authorization": f"Bearer {other['token']}"}),
                first.get(url, headers={"Authorization": grant["token"]}),  # not a bearer
            ):
                assert refused.status_code == 429 and refused.json()["code"] == "too_many_misses", url
            own = same.get(url, headers={"Authorization": f"Bearer {grant['token']}"})
            assert own.status_code == 200, (url, own.text)
    bearer = {"Authorization": f"Bearer {ended['token']}"}
    assert first.get(f"/api/tables/{ended['code']}/record", headers=bearer).json()["actions"]


def test_a_made_up_token_from_a_spent_network_costs_the_same_for_every_code(
    app: Any, clients: dict[str, TestClient], web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With its misses spent, a network's requests that showed a made-up token were looked up in full
    before being refused: a code that named no table cost a database read, an ended one was rebuilt
    into memory (and counted by /api/health), an open one cost a dictionary lookup, so the time of
    the refusal and the health count told a guesser which codes named tables, at the request rate.
    Now the token is checked first against the tables in memory, and nothing else is done."""
    from tests.web.test_ended_tables import ended_gin_tables

    first, same = clients["first"], clients["same_network"]
    ended = ended_gin_tables(first, web, (4,))[0]["code"]  # ended, and gone from memory
    code = web.create(first, preset="gin", seats=2, name="Anna", listed=False)["code"]
    for _ in range(MISSES):
        assert same.get(f"/api/tables/{unused_code(code)}").status_code == 404
    manager = app.state.manager
    looked: list[str] = []
    for name in ("_find", "_archived"):
        original = getattr(manager, name)

        async def counting(*args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
            looked.append(_name)
            return await _original(*args, **kwargs)

        monkeypatch.setattr(manager, name, counting)
    before = first.get("/api/health").json()["tables"]
    for probe in (code, ended, unused_code(code), "ZZZZ22"):
        for path in ("start", "leave", "retake"):
            answer = same.post(f"/api/tables/{probe}/{path}", json={"token": "x" * 30})
            assert answer.status_code == 429 and answer.json()["code"] == "too_many_misses"
    assert looked == [] and first.get("/api/health").json()["tables"] == before
    assert ended not in manager.tables  # not rebuilt for a request that was to be refused


def test_a_spent_network_still_finds_the_tables_the_lobby_lists(
    clients: dict[str, TestClient], web: Any
) -> None:
    """One stranger spending a school's misses locked everybody behind that address out of the
    lobby's own tables (join, the rules, watching). A listed table's code is public: it is looked up
    as ever; a table found by its link alone stays refused, as a free code is."""
    first, same, other = clients["first"], clients["same_network"], clients["other_network"]
    listed = web.create(other, preset="german", seats=3, name="Anna")["code"]
    hidden = unlisted_table(other)
    for _ in range(MISSES):
        assert same.get(f"/api/tables/{unused_code(listed)}").status_code == 404
    joined = first.post(f"/api/tables/{listed}/join", json={"name": "Ben"})
    assert joined.status_code == 200, joined.text
    assert first.get(f"/api/tables/{listed}").status_code == 200
    with first.websocket_connect(f"/ws/{listed}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] in ("welcome", "state")
    for code in (hidden, unused_code(listed)):
        refused = first.post(f"/api/tables/{code}/join", json={"name": "Ben"})
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_misses"


def test_a_listed_table_the_lobby_does_not_show_is_not_public(
    clients: dict[str, TestClient], web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby shows the newest tables only: an older listed table is found by its code alone, so a
    network out of misses is refused it as any code (else it could find such tables at the request
    rate)."""
    from rummykit.web import manager as manager_module

    monkeypatch.setattr(manager_module, "LOBBY_SIZE", 1)
    first, same, other = clients["first"], clients["same_network"], clients["other_network"]
    older = web.create(other, preset="german", seats=3, name="Anna")["code"]
    newer = web.create(other, preset="german", seats=3, name="Ben")["code"]
    assert [t["code"] for t in other.get("/api/tables").json()["tables"]] == [newer]
    for _ in range(MISSES):
        assert same.get(f"/api/tables/{unused_code(older)}").status_code == 404
    assert first.get(f"/api/tables/{newer}").status_code == 200
    assert first.get(f"/api/tables/{older}").json()["code"] == "too_many_misses"


def test_lookups_sent_at_once_cannot_all_pass_on_the_last_miss(clients: dict[str, TestClient]) -> None:
    """A miss was spent only after the lookup's database read, so that requests sent together all
    passed the check while one miss was left: a /24 sending bursts got thousands of guesses instead
    of one. Each lookup spends its miss before any work now (and gets it back when it finds a table)."""
    from concurrent.futures import ThreadPoolExecutor

    first = clients["first"]
    codes = [f"ZZZZ{a}{b}" for a in "2345" for b in "6789"]  # 16 codes that name no table
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda c: first.get(f"/api/tables/{c}").status_code, codes))
    assert answers.count(404) == MISSES and answers.count(429) == len(codes) - MISSES


async def _misses_in_two_processes(url: str, lookups: int) -> list[str]:
    """``lookups`` lookups of codes naming no table from one network, alternating between two server
    processes that share the database: each lookup's refusal code."""
    settings = ServerSettings(missed_codes_per_hour=0.001, missed_codes_burst=MISSES)
    made = await managers(url, settings, 2)
    try:
        codes = []
        for i in range(lookups):
            try:
                await made[i % 2].find(f"ZZZZ{CODE_ALPHABET[i]}2", address=f"198.51.100.{i + 1}")
            except LobbyError as exc:
                codes.append(exc.error)
        return codes
    finally:
        for manager in made:
            await manager.close()


def test_processes_sharing_a_database_count_a_network_s_misses_together(postgres_url: str, web: Any) -> None:
    # Each process alone would allow MISSES; together they allow MISSES, and each one more at most
    # before it learns that the others spent them.
    codes = asyncio.run(_misses_in_two_processes(web.fresh_database(postgres_url, "misses_shared"), 16))
    missed = codes.count("no_table")
    assert MISSES <= missed <= MISSES + 2
    assert codes == ["no_table"] * missed + ["too_many_misses"] * (len(codes) - missed)


async def _listed_lookup_from_a_spent_network(url: str) -> str:
    """A listed table made in one of two processes sharing the database, looked up in the other by a
    network whose misses that process has counted spent: the lookup's refusal code, or ``found``."""
    from rummykit.web.protocol import CreateTable

    settings = ServerSettings(missed_codes_per_hour=0.001, missed_codes_burst=MISSES)
    maker, other = await managers(url, settings, 2)
    try:
        table, _, _ = await maker.create(CreateTable(preset="german", seats=3, name="Anna"), "203.0.113.9")
        for i in range(MISSES):
            with pytest.raises(LobbyError):
                await other.find(f"ZZZZ{CODE_ALPHABET[i]}2", address="198.51.100.1")
        try:
            await other.lobby(table.code, address="198.51.100.2")
        except LobbyError as exc:
            return exc.error
        return "found"
    finally:
        for manager in (maker, other):
            await manager.close()


def test_a_process_sharing_the_database_shows_the_lobby_s_tables_to_a_spent_network(
    postgres_url: str, web: Any
) -> None:
    """With a shared database, a process knew the lobby's codes only from the last time it was asked
    for the lobby list, and never learned of newer tables by itself: a process nobody had asked
    refused a network out of misses every listed table, as it refuses free codes. It reads the list
    (at most once a second) when such a lookup needs it."""
    url = web.fresh_database(postgres_url, "misses_shown")
    assert asyncio.run(_listed_lookup_from_a_spent_network(url)) == "found"


def test_a_spent_network_watches_a_listed_table_with_a_shared_database(postgres_url: str, web: Any) -> None:
    """A watcher of a listed table from a network out of misses was served only by a process already
    playing the table, and never claimed it: with a shared database it was refused the lobby's tables
    nobody had connected to yet (and those another process plays). The code is public: it takes the
    usual way, claimed or relayed to its owner."""
    url = web.fresh_database(postgres_url, "misses_watch")
    settings = web.settings(bot_delay=0, missed_codes_per_hour=0.001, missed_codes_burst=MISSES)
    with TestClient(create_app(url, settings=settings), client=("198.51.100.7", 5000)) as first:
        other = TestClient(first.app, client=("203.0.113.9", 5000))
        listed = web.create(other, preset="german", seats=3, name="Anna")["code"]
        for _ in range(MISSES):
            assert first.get(f"/api/tables/{unused_code(listed)}").status_code == 404
        assert [t["code"] for t in first.get("/api/tables").json()["tables"]] == [listed]
        with first.websocket_connect(f"/ws/{listed}") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "welcome"
        refused = first.get(f"/api/tables/{unused_code(listed)}")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_misses"


async def _steady_misses(url: str, processes: int, seconds: float) -> int:
    """Misses answered to one network guessing without pause for ``seconds`` after its burst (of one),
    its lookups spread over ``processes`` processes sharing the database (two a second allowed)."""
    import time

    settings = ServerSettings(missed_codes_per_hour=7200, missed_codes_burst=1)
    made = await managers(url, settings, processes)
    try:
        answered, i = 0, 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            code = "ZZ" + "".join(CODE_ALPHABET[(i >> (5 * k)) % 32] for k in range(4))
            try:
                await made[i % processes].find(code, address=f"198.51.100.{i % 200 + 1}")
            except LobbyError as exc:
                answered += exc.error == "no_table"
            i += 1
            await asyncio.sleep(0.01)
        return answered
    finally:
        for manager in made:
            await manager.close()


def test_processes_sharing_a_database_allow_a_guessing_network_one_process_s_rate(
    postgres_url: str, web: Any
) -> None:
    """A process learned that the shared budget was spent only from its own next miss, and then held
    its bucket until the shared one refilled: as every process's did, so that each let one miss
    through per refill (three processes, three times the rate). A miss is counted in the shared
    bucket whether or not a token was left there, so the misses beyond it delay the next ones."""
    answered = asyncio.run(_steady_misses(web.fresh_database(postgres_url, "misses_steady"), 3, 6.0))
    assert answered <= 1 + 2 * 6 + 4, answered  # the burst, two a second, each process's first lesson


async def _lobby_reads_at_once(url: str, asks: int) -> int:
    """How many times one process reads a shared database's lobby list when ``asks`` requests that
    need it (lookups from networks out of misses, the lobby list) arrive at once."""
    [manager] = await managers(url, ServerSettings(), 1)
    reads = 0
    read = manager.store.lobbies

    def counted(limit: int) -> list[dict[str, Any]]:
        nonlocal reads
        reads += 1
        return read(limit)

    manager.store.lobbies = counted  # type: ignore[method-assign]
    try:
        shown = await asyncio.gather(*(manager.shown_codes() for _ in range(asks)), manager.lobbies())
        assert all(s == shown[0] for s in shown[:-1])
        return reads
    finally:
        await manager.close()


def test_requests_arriving_together_read_the_shared_lobby_list_once(postgres_url: str, web: Any) -> None:
    """The list is read at most once a second however often strangers ask: requests arriving while it
    was being read each read it again, one database trip apiece on the thread that stores every move."""
    assert asyncio.run(_lobby_reads_at_once(web.fresh_database(postgres_url, "lobby_once"), 20)) == 1


async def _lobby_reads_while_asked(
    url: str, read_seconds: float, ask_seconds: float
) -> list[tuple[float, float]]:
    """When one process's reads of a shared database's lobby list began and ended, each taking
    ``read_seconds``, while requests ask for it without pause for ``ask_seconds``."""
    import time

    [manager] = await managers(url, ServerSettings(), 1)
    reads: list[tuple[float, float]] = []
    read = manager.store.lobbies

    def slow(limit: int) -> list[dict[str, Any]]:
        began = time.monotonic()
        time.sleep(read_seconds)  # a loaded database
        rows = read(limit)
        reads.append((began, time.monotonic()))
        return rows

    manager.store.lobbies = slow  # type: ignore[method-assign]
    try:
        deadline = time.monotonic() + ask_seconds
        while time.monotonic() < deadline:
            await asyncio.gather(manager.lobbies(), manager.shown_codes())
            await asyncio.sleep(0.01)
        return reads
    finally:
        await manager.close()


def test_a_slow_lobby_read_is_not_followed_by_the_next_at_once(
    postgres_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows were kept from when their read began: a read slower than the interval was out of date
    when it ended, and a stranger asking for the list kept the one database thread (where every move is
    stored) reading it back to back. Now each read is followed by the interval without one."""
    from rummykit.web import manager as manager_module

    monkeypatch.setattr(manager_module, "LOBBY_LIST_SECONDS", 0.4)
    url = web.fresh_database(postgres_url, "lobby_slow")
    reads = asyncio.run(_lobby_reads_while_asked(url, 0.5, 2.5))
    gaps = [after[0] - before[1] for before, after in itertools.pairwise(reads)]
    assert len(reads) >= 2 and min(gaps) >= 0.35, gaps


async def _shown_with_refused_rules(url: str) -> tuple[bool, bool, bool]:
    """Whether another process shows a listed table whose stored rules this version refuses (a newer
    rummykit's row): in its lobby list, among the lobby's codes; and the same for a readable one."""
    from sqlalchemy import update

    from rummykit.web.protocol import CreateTable
    from rummykit.web.store import tables_table

    maker, other = await managers(url, ServerSettings(), 2)
    try:
        spec = CreateTable(preset="gin", seats=2, name="Anna")
        (refused, _, _), (kept, _, _) = await maker.create(spec), await maker.create(spec)
        with other.store.engine.begin() as connection:
            newer = update(tables_table).where(tables_table.c.code == refused.code)
            connection.execute(newer.values(rules_revision=10**6))
        listed = {entry["code"] for entry in await other.lobbies()}
        shown = await other.shown_codes()
        return refused.code in listed, refused.code in shown, kept.code in listed and kept.code in shown
    finally:
        for manager in (maker, other):
            await manager.close()


async def _lobby_warnings(url: str, asks: int) -> int:
    """The warnings one process logs about a listed row whose stored rules it refuses while the lobby
    list is asked for ``asks`` times within one read of it."""
    import logging

    from sqlalchemy import update

    from rummykit.web.protocol import CreateTable
    from rummykit.web.store import tables_table

    maker, other = await managers(url, ServerSettings(), 2)
    warned: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = warned.append  # type: ignore[method-assign]
    logging.getLogger("rummykit.web").addHandler(handler)
    try:
        refused, _, _ = await maker.create(CreateTable(preset="gin", seats=2, name="Anna"))
        with other.store.engine.begin() as connection:
            newer = update(tables_table).where(tables_table.c.code == refused.code)
            connection.execute(newer.values(rules_revision=10**6))
        for _ in range(asks):
            assert refused.code not in {entry["code"] for entry in await other.lobbies()}
        return sum("stored rules are refused" in record.getMessage() for record in warned)
    finally:
        for manager in (maker, other):
            await manager.close()


def test_a_table_the_lobby_leaves_out_is_not_among_its_shown_codes(postgres_url: str, web: Any) -> None:
    """A listed row whose stored rules this version refuses is not in the lobby's list: its code was
    still counted as shown (public), so a lookup of it spent no miss of a guessing network."""
    url = web.fresh_database(postgres_url, "lobby_refused_rules")
    assert asyncio.run(_shown_with_refused_rules(url)) == (False, False, True)


def test_the_lobby_list_is_made_once_per_read(postgres_url: str, web: Any) -> None:
    """The list is public and asked for without a request budget: each ask made every stored entry
    again (2 ms for a full lobby) and logged a refused row again (a log line per request)."""
    assert asyncio.run(_lobby_warnings(web.fresh_database(postgres_url, "lobby_made_once"), 20)) == 1


async def _token_proved_while_the_lobby_is_read(url: str) -> str:
    """A seat's token shown by a network out of misses, for a table this process takes into memory
    while the lookup waits for the lobby's list (with a shared database, a read on the database
    thread): ``found``, or the refusal's code."""
    from rummykit.web.protocol import CreateTable

    settings = ServerSettings(missed_codes_per_hour=0.001, missed_codes_burst=MISSES)
    [manager] = await managers(url, settings, 1)
    try:
        table, _, token = await manager.create(CreateTable(preset="gin", seats=2, name="Anna", listed=False))
        held = manager.tables.pop(table.code)  # another process's table, so far
        for i in range(MISSES):
            with pytest.raises(LobbyError):
                await manager.find(f"ZZZZ{CODE_ALPHABET[i]}2", address="198.51.100.1")
        read = manager.shown_codes

        async def reading() -> set[str]:
            manager.tables[held.code] = held  # claimed meanwhile (a watcher's connection, say)
            await asyncio.sleep(0)
            return await read()

        manager.shown_codes = reading  # type: ignore[method-assign]
        try:
            await manager.find(table.code, address="198.51.100.1", token=token)
        except LobbyError as exc:
            return exc.error
        return "found"
    finally:
        await manager.close()


def test_a_seat_s_token_is_checked_against_the_tables_held_after_the_lobby_s_read(tmp_path: Path) -> None:
    """The table a token is proved against was taken from memory before the lookup waited for the
    lobby's list: a table claimed meanwhile was missing, and its player refused as a guesser."""
    url = f"sqlite:///{tmp_path / 'proof.db'}"
    assert asyncio.run(_token_proved_while_the_lobby_is_read(url)) == "found"


def test_a_spent_network_plays_its_own_table_that_another_process_plays(
    postgres_url: str, server_factory: Any
) -> None:
    """With several processes, a seated player from a network out of misses was served only by the
    process that plays their table: reaching another one (a balancer's choice, a restart), they were
    refused as a guesser. The seat's token, checked against the stored seats, relays them to the
    table's process; the table's entry is theirs too. A made-up token is still refused."""
    import json

    import httpx
    from websockets.sync.client import connect

    from tests.web.conftest import fresh_database

    url = fresh_database(postgres_url, "misses_elsewhere")
    fast = ("--missed-codes-per-hour", "0.001", "--requests-per-second", "1000", "--http-per-second", "0")
    owner, other = server_factory(url, extra=fast), server_factory(url, extra=fast)
    spec = {"preset": "gin", "seats": 2, "name": "Anna", "listed": False}
    grant = httpx.post(owner.url + "/api/tables", json=spec).json()
    code, token = grant["code"], grant["token"]

    def hello(base: str, shown: str) -> tuple[Any, dict[str, Any]]:
        ws = connect(base.replace("http://", "ws://") + f"/ws/{code}", open_timeout=10)
        ws.send(json.dumps({"type": "hello", "token": shown}))
        return ws, json.loads(ws.recv(timeout=10))

    played, first = hello(owner.url, token)  # the owner plays the table now
    assert first == {"type": "welcome", "seat": 0, "code": code}
    misses = 0
    while httpx.get(other.url + f"/api/tables/{unused_code(code)}").status_code == 404:
        misses += 1
        assert misses <= 200
    bearer = {"Authorization": f"Bearer {token}"}
    assert httpx.get(other.url + f"/api/tables/{code}").json()["code"] == "too_many_misses"
    assert httpx.get(other.url + f"/api/tables/{code}", headers=bearer).json()["code"] == code
    stranger, refused = hello(other.url, "x" * 30)
    assert refused["code"] == "too_many_misses"
    stranger.close()
    relayed, welcome = hello(other.url, token)  # a second tab of Anna's, reaching the other process
    assert welcome == {"type": "welcome", "seat": 0, "code": code}, welcome
    while (message := json.loads(relayed.recv(timeout=10)))["type"] != "state":
        pass
    assert message["you"] == 0 and message["table"]["code"] == code
    relayed.close()
    played.close()


async def _stored_elsewhere(url: str) -> tuple[str, str]:
    """A waiting table (code, seat 0's token) that a live process other than the test's plays."""
    from sqlalchemy import update

    from rummykit.web.owners import Cluster
    from rummykit.web.protocol import CreateTable
    from rummykit.web.store import tables_table

    [maker] = await managers(url, ServerSettings(), 1)
    try:
        table, _, token = await maker.create(CreateTable(preset="gin", seats=2, name="Anna", listed=False))
    finally:
        await maker.close()
    Cluster(maker.store.engine, "elsewhere", "127.0.0.1:9", "key").register()
    with maker.store.engine.begin() as connection:
        owned = update(tables_table).where(tables_table.c.code == table.code)
        connection.execute(owned.values(owner="elsewhere"))
    return table.code, token


def test_a_spent_network_s_seat_is_relayed_without_the_match_replayed_on_the_way(
    postgres_url: str, web: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's connection from a network out of misses to a process that does not play its table was
    relayed only after this process had replayed the whole match (a second of its event loop for a
    long one) to learn that another plays it: a player could have it done at the connection rate by
    reconnecting. The token is proved against the stored seats, and the connection relayed."""
    import json

    from rummykit.web import app as app_module

    url = web.fresh_database(postgres_url, "misses_no_replay")
    code, token = asyncio.run(_stored_elsewhere(url))
    settings = web.settings(bot_delay=0, missed_codes_per_hour=0.001, missed_codes_burst=MISSES)
    app = create_app(url, settings=settings)
    relayed: list[str | None] = []

    async def relay(websocket: Any, route: Any, code: str, address: str, hello: str | None = None) -> bool:
        relayed.append(hello)
        await websocket.close()
        return True

    monkeypatch.setattr(app_module, "relay", relay)
    with TestClient(app, client=("198.51.100.7", 5000)) as client:
        manager = app.state.manager
        rebuilt: list[str] = []
        rebuild = manager._rebuild
        counted = lambda stored: rebuilt.append(stored.code) or rebuild(stored)  # noqa: E731
        monkeypatch.setattr(manager, "_rebuild", counted)
        for _ in range(MISSES):
            assert client.get(f"/api/tables/{unused_code(code)}").status_code == 404
        with client.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": token})
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
    assert relayed == [json.dumps({"type": "hello", "token": token})]
    assert rebuilt == []
