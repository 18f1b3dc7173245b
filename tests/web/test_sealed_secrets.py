"""A table's dealing secret is sealed under the server's key file: the database alone (a backup, a
dump, a reader of it) rebuilds no deal, no hidden hand and no stock order of a live table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from rummykit.rules import Rules
from rummykit.web.app import create_app
from rummykit.web.dealing import seal
from rummykit.web.tables import new_table_match

KEY = bytes(range(32))


def seat_zero_hand(client: TestClient, web: Any, code: str, token: str) -> list[str]:
    with web.connect(client, code, token) as ws:
        return sorted(web.receive_state(ws, until=lambda s: s["view"] is not None)["view"]["hand"])


def test_the_database_alone_deals_no_hand(tmp_path: Path, web: Any) -> None:
    url = f"sqlite:///{tmp_path / 'sealed.db'}"
    settings = web.settings(bot_delay=0)
    with TestClient(create_app(url, settings=settings, address_key=KEY)) as client:
        grant = web.create(client, seats=2, bots=[{"kind": "greedy"}])
        code, token = grant["code"], grant["token"]
        hand = seat_zero_hand(client, web, code, token)
    with create_engine(url).connect() as db:
        row = db.execute(text("SELECT rules, secret, dealer, sealed FROM rk_tables")).one()
    assert row.sealed
    rules, stored = Rules.parse(row.rules), bytes.fromhex(row.secret)

    def dealt(secret: bytes) -> list[str]:
        match = new_table_match(rules, 2, None, secret, row.dealer)
        return sorted(str(c) for c in match.round.view(0).hand)

    assert dealt(seal(KEY, stored)) == hand  # the server deals from the seal
    assert dealt(stored) != hand  # what the database alone gives is another deal
    # A restart with the key file restores the table as it was.
    with TestClient(create_app(url, settings=settings, address_key=KEY)) as again:
        assert seat_zero_hand(again, web, code, token) == hand


def test_without_a_key_tables_deal_from_the_stored_secret(tmp_path: Path, web: Any) -> None:
    """An embedding without a key file (tests, a library user) stores the secret unsealed, as before."""
    url = f"sqlite:///{tmp_path / 'plain.db'}"
    with TestClient(create_app(url, settings=web.settings(bot_delay=0))) as client:
        grant = web.create(client, seats=2, bots=[{"kind": "greedy"}])
        hand = seat_zero_hand(client, web, grant["code"], grant["token"])
    with create_engine(url).connect() as db:
        row = db.execute(text("SELECT rules, secret, dealer, sealed FROM rk_tables")).one()
    assert not row.sealed
    match = new_table_match(Rules.parse(row.rules), 2, None, bytes.fromhex(row.secret), row.dealer)
    assert sorted(str(c) for c in match.round.view(0).hand) == hand


def test_a_new_database_and_data_folder_are_their_owners_alone(tmp_path: Path, monkeypatch: Any) -> None:
    import stat

    from rummykit.web.store import Store, default_database_url

    monkeypatch.delenv("RUMMYKIT_DATABASE_URL", raising=False)
    monkeypatch.setenv("RUMMYKIT_DATA_DIR", str(tmp_path / "data"))
    url = default_database_url()
    assert stat.S_IMODE((tmp_path / "data").stat().st_mode) == 0o700
    store = Store(url)
    try:
        assert stat.S_IMODE((tmp_path / "data" / "rummykit.db").stat().st_mode) == 0o600
        # What is deleted (a table pruned or forgotten) is overwritten, whatever the build's default.
        with store.engine.connect() as db:
            assert db.execute(text("PRAGMA secure_delete")).scalar() == 1
    finally:
        store.engine.dispose()
    given = tmp_path / "given.db"
    given.touch(mode=0o640)  # an operator's own file keeps its mode
    Store(f"sqlite:///{given}").engine.dispose()
    assert stat.S_IMODE(given.stat().st_mode) == 0o640


def test_reading_the_database_does_not_give_the_relay_key(tmp_path: Path) -> None:
    """``rk_processes.key`` is not what a relay shows: that is an HMAC of it under the key file, so a
    reader of the database cannot speak for other client addresses at a process's relay port."""
    from types import SimpleNamespace

    from rummykit.web.manager import TableManager
    from rummykit.web.relay import ADDRESS_HEADER, KEY_HEADER, relayed_address
    from rummykit.web.store import Store

    store = Store(f"sqlite:///{tmp_path / 'relay.db'}")
    try:
        stored = "ab" * 24
        derived = TableManager(store, address_key=KEY).relay_key(stored)
        assert derived != stored and stored not in derived
        assert TableManager(store).relay_key(stored) == stored  # no key file: as before

        def shown(key: str) -> Any:
            return SimpleNamespace(headers={KEY_HEADER: key, ADDRESS_HEADER: "198.51.100.9"})

        assert relayed_address(shown(stored), derived) is None  # what the database gives: refused
        assert relayed_address(shown(derived), derived) == "198.51.100.9"
    finally:
        store.close()
