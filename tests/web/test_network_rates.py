"""A wider network (an IPv6 /48, an IPv4 /24) spends the per-address rates of lobby requests, table
creations, websocket connection attempts and HTTP requests at most four addresses' worth together
(``rummykit.web.limits.NetworkRate``): a home connection with a /56 (256 /64s) or a /48 cannot queue
the lookups' database thread with 256 or 65,536 addresses' worth of work."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.web.app import create_app
from rummykit.web.limits import NETWORK_SHARE, NetworkRate

SLOW = 0.001
"""A rate that refills nothing while a test runs: the bursts alone are spent."""


def one_48(n: int) -> list[str]:
    """``n`` addresses of different /64s of one IPv6 /48 (each a client address of its own)."""
    return [f"2001:db8:77:{i + 1:x}::5" for i in range(n)]


@pytest.fixture
def clients(tmp_path: Path, web: Any) -> Iterator[Any]:
    """``make(settings)``: a function giving a test client from an address, on one app."""
    made: list[TestClient] = []

    def make(**settings: Any) -> Any:
        app = create_app(f"sqlite:///{tmp_path / 'rates.db'}", settings=web.settings(bot_delay=0, **settings))
        first = TestClient(app, client=("203.0.113.9", 5000))
        first.__enter__()
        made.append(first)

        def at(address: str | None) -> TestClient:
            if address is None:
                return first
            other = TestClient(app, client=(address, 5000))
            other.portal = first.portal  # the app's event loop, where its tables' locks and tasks live
            return other

        return at

    yield make
    for client in made:
        client.__exit__(None, None, None)


def test_lobby_requests_of_many_addresses_of_one_network_share_its_rate(clients: Any, web: Any) -> None:
    burst = 2
    client = clients(requests_per_second=SLOW, requests_burst=burst)
    code = web.create(client(None), preset="gin", seats=2, name="Anna")["code"]
    addresses = one_48(NETWORK_SHARE * burst + 4)
    answers = [client(a).get(f"/api/tables/{code}") for a in addresses for _ in range(burst)]
    granted = [a for a in answers if a.status_code == 200]
    assert len(granted) == NETWORK_SHARE * burst  # each /64 had its own burst left
    refused = answers[len(granted)]
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert "wider network" in refused.json()["detail"] and "größeren Netz" in refused.json()["texts"]["de"]
    assert int(refused.headers["Retry-After"]) > 0
    assert client("2001:db8:78::5").get(f"/api/tables/{code}").status_code == 200  # another /48
    assert client(None).get(f"/api/tables/{code}").status_code == 200  # and an IPv4 address


def test_one_address_is_refused_as_before(clients: Any, web: Any) -> None:
    """The address's own bound comes first and says so (a school behind one address)."""
    client = clients(requests_per_second=SLOW, requests_burst=2)
    code = web.create(client(None), preset="gin", seats=2, name="Anna")["code"]
    school = client("198.51.100.7")
    assert [school.get(f"/api/tables/{code}").status_code for _ in range(3)] == [200, 200, 429]
    refused = school.get(f"/api/tables/{code}").json()
    assert "a school or office" in refused["detail"] and "wider" not in refused["detail"]


def test_creations_of_many_addresses_of_one_network_share_its_rate(clients: Any) -> None:
    client = clients(creations_per_second=SLOW, creations_burst=1)
    body = {"preset": "gin", "seats": 2, "name": "Anna"}
    answers = [client(a).post("/api/tables", json=body) for a in one_48(NETWORK_SHARE + 3)]
    assert [a.status_code for a in answers] == [201] * NETWORK_SHARE + [429] * 3
    assert "table creations from the wider network" in answers[-1].json()["detail"]


def test_websocket_attempts_of_many_addresses_of_one_network_share_its_rate(clients: Any, web: Any) -> None:
    burst, per_address, per_network = 1, 1, 2
    client = clients(
        requests_per_second=SLOW,
        requests_burst=burst,
        max_connections_per_address=per_address,
        max_connections_per_network=per_network,
    )
    code = web.create(client(None), preset="gin", seats=2, name="Anna")["code"]
    network_burst = NETWORK_SHARE * burst + per_network
    outcomes = []
    for address in one_48(network_burst + 2):  # one attempt each: within every address's own burst
        with client(address).websocket_connect(f"/ws/{code}") as ws:
            ws.send_json({"type": "hello", "token": None})
            first = ws.receive_json()
            outcomes.append(first["type"] if first["type"] != "error" else first["code"])
            if first["code" if first["type"] == "error" else "type"] == "too_many_attempts":
                assert "größeren Netz" in first["texts"]["de"] and first["retry_after"] > 0
    assert outcomes == ["welcome"] * network_burst + ["too_many_attempts"] * 2


def test_http_requests_of_many_addresses_of_one_network_share_its_rate(clients: Any) -> None:
    client = clients(http_per_second=SLOW, http_burst=2)
    addresses = one_48(NETWORK_SHARE + 2)
    statuses = [client(a).get("/api/messages").status_code for a in addresses for _ in range(2)]
    assert statuses == [200] * (NETWORK_SHARE * 2) + [429] * 4


def test_an_http_refusal_by_the_wider_network_says_so(clients: Any) -> None:
    """The refusal names the bound that refused, as the lobby's does: the network's, not the address's
    (each of these addresses had requests of its own left)."""
    client = clients(http_per_second=SLOW, http_burst=2)
    addresses = one_48(NETWORK_SHARE + 1)
    answers = [client(a).get("/api/messages") for a in addresses for _ in range(2)]
    refused = answers[-1].json()
    assert refused["code"] == "rate_limited" and "wider network" in refused["detail"]
    assert "größeren Netz" in refused["texts"]["de"]
    school = client("198.51.100.7")
    own = [school.get("/api/messages") for _ in range(3)][-1].json()
    assert "wider" not in own["detail"] and "größeren" not in own["texts"]["de"]


def test_a_network_refusal_spends_nothing_of_the_address() -> None:
    now = [0.0]
    rate = NetworkRate(1.0, 2, 3, clock=lambda: now[0])
    assert [rate.take("2001:db8:1:1::/64") for _ in range(2)] == [0.0, 0.0]
    assert rate.take("2001:db8:1:2::/64") == 0.0
    assert rate.take("2001:db8:1:2::/64") > 0 and rate.network_refused("2001:db8:1:2::/64")
    now[0] = 0.25  # the network refills a token in 0.25 s (four addresses' rate): the address has one
    assert rate.take("2001:db8:1:2::/64") == 0.0
    assert rate.take("2001:db8:1:1::/64") > 0 and not rate.network_refused("2001:db8:1:1::/64")


def test_meld_judgements_of_many_addresses_of_one_network_share_its_budget(clients: Any, web: Any) -> None:
    """Each /64 of a /48 may hold a seat at a table of its own and judge composed melds there (work
    a message costs the event loop beyond its reading): the /48 judges four addresses' worth."""
    burst = 2
    client = clients(messages_per_second=SLOW, messages_burst=burst)
    per_address = 3 * burst  # EVALUATION_SHARE connections' worth
    outcomes = []
    for address in one_48(NETWORK_SHARE + 1):
        mine = client(address)
        grant = web.create(mine, preset="german", seats=2, name="Anna", bots=[{"kind": "random"}])
        for _ in range(per_address // burst):  # connections of one address, each within its own rate
            with web.connect(mine, grant["code"], grant["token"]) as ws:
                web.receive_state(ws)
                for _ in range(burst):
                    ws.send_json({"type": "evaluate", "melds": [["5H", "6H", "7H"]]})
                    outcomes.append(_answer(ws))
    assert outcomes == ["evaluation"] * (NETWORK_SHARE * per_address) + ["rate_limited"] * per_address


def _answer(ws: Any) -> str:
    """The type of the answer to an ``evaluate`` (an error's code)."""
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "evaluation":
            return "evaluation"
        if message["type"] == "error":
            return str(message["code"])
    raise AssertionError("no answer")
