"""The check before ``ray.init`` on an address: a port that answers but is no Ray head (a web server,
say) made ``ray.init`` retry for ever; it is one error now. A Ray head speaks gRPC (HTTP/2)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummykit.cluster import BackendError, check_reachable


@pytest.fixture
def server() -> Iterator[tuple[socket.socket, list[bytes]]]:
    """A listening socket on a free loopback port, and what its one connection should answer."""
    answer: list[bytes] = []
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(64)
            connection.sendall(answer[0])

    threading.Thread(target=serve, daemon=True).start()
    yield listener, answer
    listener.close()


def test_a_port_that_answers_but_not_as_ray_is_refused(server: tuple[socket.socket, list[bytes]]) -> None:
    listener, answer = server
    answer.append(b"HTTP/1.0 400 Bad request\r\n\r\n")
    address = f"127.0.0.1:{listener.getsockname()[1]}"
    with pytest.raises(BackendError, match="answers, but not as a Ray cluster"):
        check_reachable(address, timeout=5)


def test_a_grpc_server_passes(server: tuple[socket.socket, list[bytes]]) -> None:
    listener, answer = server
    answer.append(bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))  # an empty SETTINGS frame, as gRPC sends first
    check_reachable(f"127.0.0.1:{listener.getsockname()[1]}", timeout=5)


def test_a_refused_connection_names_token_authentication(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ray start`` turns token authentication on where a token file exists, and Ray then tells a
    driver without ``RAY_AUTH_MODE=token`` only that it could not connect to some address."""
    from rummykit.cluster import explain_init_error

    token = tmp_path / "auth_token"
    token.write_text("secret")
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    refused = ConnectionError("Failed to connect to Ray cluster at 192.0.2.2:6390")
    said = explain_init_error(refused, "127.0.0.1:6390", token)
    assert said.endswith("needs RAY_AUTH_MODE=token here too)")
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    assert "RAY_AUTH_MODE" not in explain_init_error(refused, "127.0.0.1:6390", token)
