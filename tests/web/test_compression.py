"""The page's public files go gzipped to browsers that ask (a phone on 3G waited seconds for 185 KB of
script); answers that could hold a token or a card never do."""

from __future__ import annotations

import gzip
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.datastructures import Headers

from rummykit.web.compression import accepts_gzip

GZIP = {"Accept-Encoding": "gzip, deflate"}
PLAIN = {"Accept-Encoding": "identity"}


def raw_get(client: TestClient, path: str, headers: dict[str, str]) -> Any:
    """The answer as sent: the test client would otherwise decode a gzipped body itself."""
    with client.stream("GET", path, headers=headers) as response:
        body = b"".join(response.iter_raw())
    return response, body


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/static/style.css", "/api/presets"])
def test_the_page_files_are_gzipped_for_a_browser_that_asks(client: TestClient, path: str) -> None:
    plain, plain_body = raw_get(client, path, PLAIN)
    packed, packed_body = raw_get(client, path, GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "content-encoding" not in plain.headers and "Accept-Encoding" in plain.headers["vary"]
    assert "accept-ranges" not in packed.headers
    assert packed.headers["content-encoding"] == "gzip" and "Accept-Encoding" in packed.headers["vary"]
    assert gzip.decompress(packed_body) == plain_body
    assert int(packed.headers["content-length"]) == len(packed_body) < len(plain_body) / 2
    # The security headers are kept.
    assert packed.headers["content-security-policy"] == plain.headers["content-security-policy"]


def test_a_revalidation_of_the_gzipped_script_is_answered_not_modified(client: TestClient) -> None:
    first, _ = raw_get(client, "/static/app.js", GZIP)
    tag = first.headers["etag"]
    assert tag.endswith('-gzip"')  # another representation than the plain file's
    again, body = raw_get(client, "/static/app.js", {**GZIP, "If-None-Match": tag})
    assert again.status_code == 304 and body == b"" and again.headers["etag"] == tag
    plain, _ = raw_get(client, "/static/app.js", PLAIN)
    assert plain.headers["etag"] != tag


def test_a_range_and_a_head_of_a_page_file_say_that_the_answer_varies(client: TestClient) -> None:
    ranged, body = raw_get(client, "/static/app.js", {**GZIP, "Range": "bytes=0-10"})
    assert ranged.status_code == 206 and len(body) == 11 and "content-encoding" not in ranged.headers
    assert "Accept-Encoding" in ranged.headers["vary"]
    packed, _ = raw_get(client, "/static/app.js", GZIP)
    plain, _ = raw_get(client, "/static/app.js", PLAIN)
    assert ranged.headers["etag"] == plain.headers["etag"] != packed.headers["etag"]  # the plain file's bytes
    head = client.head("/static/app.js", headers=GZIP)
    assert head.status_code == 200 and "Accept-Encoding" in head.headers["vary"]


def test_answers_that_may_hold_a_secret_are_never_compressed(client: TestClient, web: Any) -> None:
    grant = client.post("/api/tables", json={"preset": "german", "seats": 2, "name": "A" * 30}, headers=GZIP)
    assert grant.status_code == 201 and "content-encoding" not in grant.headers  # holds the seat's token
    code = grant.json()["code"]
    for path in (f"/api/tables/{code}", "/api/tables", f"/api/tables/{code}/rules"):
        answer, _ = raw_get(client, path, GZIP)
        assert "content-encoding" not in answer.headers, path


def test_each_body_is_compressed_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from rummykit.web import compression

    made: list[int] = []
    compress = gzip.compress
    def counted(data: bytes, **options: Any) -> bytes:
        made.append(len(data))
        return compress(data, **options)

    monkeypatch.setattr(compression.gzip, "compress", counted)
    for _ in range(5):
        raw_get(client, "/static/app.js", GZIP)
    assert len(made) == 1  # each app keeps its own compressed bodies


@pytest.mark.parametrize(
    ("header", "accepted"),
    [
        ("gzip", True),
        ("br, gzip;q=0.8", True),
        ("*", True),
        ("gzip;q=0", False),
        ("*;q=0, gzip", True),
        ("gzip;q=0, *", False),
        ("identity", False),
        ("", False),
    ],
)
def test_accept_encoding_is_read(header: str, accepted: bool) -> None:
    assert accepts_gzip(Headers({"accept-encoding": header})) is accepted
