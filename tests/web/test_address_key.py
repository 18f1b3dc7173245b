"""Stored address digests are keyed with a file outside the database, and every process of one
database must hold the same key (:mod:`rummykit.web.address_key`)."""

from __future__ import annotations

import hashlib
import hmac
import socket
import stat
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from rummykit.cli import app
from rummykit.web.address_key import AddressKeyError, check_value, claim_key, load_key
from rummykit.web.owners import address_digest
from rummykit.web.store import Store


def test_a_key_file_is_made_once_for_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "address.key"
    with pytest.raises(AddressKeyError, match="No such file"):
        load_key(path)  # an explicit file's folder is not made
    key = load_key(path, make_folder=True)
    assert len(key) == 32 and path.read_text().strip() == key.hex()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_key(path) == key  # read again, not made again
    assert load_key(tmp_path / "other.key") != key
    path.write_text("not a key\n")
    with pytest.raises(AddressKeyError, match="does not hold a key"):
        load_key(path)


def test_keyed_digests_cannot_be_found_by_trying_addresses() -> None:
    key = bytes(range(32))
    plain = hashlib.sha256(b"rummykit-address:203.0.113.7").hexdigest()[:32]
    assert address_digest("203.0.113.7") == plain  # what anyone can compute for every IPv4 address
    keyed = address_digest("203.0.113.7", key)
    assert keyed != plain and len(keyed) == 32
    assert keyed == hmac.new(key, b"rummykit-address:203.0.113.7", hashlib.sha256).hexdigest()[:32]
    assert keyed != address_digest("203.0.113.7", bytes(32))
    assert check_value(key) != check_value(bytes(32)) and key.hex() not in check_value(key)


def test_every_process_of_a_database_needs_the_same_key(tmp_path: Path) -> None:
    one, two = bytes(range(32)), bytes(32)
    store = Store(f"sqlite:///{tmp_path / 'k.db'}")
    try:
        claim_key(store.claim_meta, None)  # plain digests (tests, embedding)
        claim_key(store.claim_meta, None)
        claim_key(store.claim_meta, one)  # a keyed server takes a plain database over
        claim_key(store.claim_meta, one)
        with pytest.raises(AddressKeyError, match="made with another key"):
            claim_key(store.claim_meta, two)
        with pytest.raises(AddressKeyError, match="digests are keyed"):
            claim_key(store.claim_meta, None)  # never back to plain digests
        assert store.claim_meta("address_digests", "x") == check_value(one)
    finally:
        store.close()


def test_a_server_with_a_key_stores_keyed_digests(tmp_path: Path, web: Any) -> None:
    from fastapi.testclient import TestClient

    from rummykit.web.app import create_app

    url = f"sqlite:///{tmp_path / 'rummykit.db'}"
    key = bytes(range(32))
    settings = web.settings(max_tables_per_address=1)
    with TestClient(create_app(url, settings=settings, address_key=key)) as client:
        web.create(client, seats=2)
    with TestClient(create_app(url, settings=settings, address_key=key)) as client:  # counted after a restart
        assert client.post("/api/tables", json={"seats": 2}).status_code == 429
    engine = create_engine(url)
    with engine.connect() as connection:
        (creator,) = connection.execute(text("SELECT creator FROM rk_tables")).scalars().all()
    engine.dispose()
    assert creator == address_digest("testclient", key) != address_digest("testclient")
    with (
        pytest.raises(AddressKeyError, match="another key"),
        TestClient(create_app(url, settings=settings, address_key=bytes(32))),
    ):
        pass


def test_serve_refuses_another_key_before_serving(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    url = f"sqlite:///{tmp_path / 's.db'}"
    store = Store(url)
    claim_key(store.claim_meta, load_key(tmp_path / "first.key"))
    store.close()
    with socket.socket() as taken:  # had the key been taken, the port would fail: never a server
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        args = [
            "serve",
            "--port",
            port,
            "--database-url",
            url,
            "--address-key-file",
            str(tmp_path / "second.key"),
        ]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--address-key-file: this database's address digests were made with another key" in result.output
    assert "serving" not in result.output
    (tmp_path / "bad.key").write_text("1234\n")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", int(port)))
        taken.listen(1)
        result = CliRunner().invoke(app, [*args[:-1], str(tmp_path / "bad.key")])
    assert result.exit_code == 2 and "does not hold a key" in result.output
