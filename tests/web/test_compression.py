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


@pytest.mark.parametrize("path", ["/", "/static/app.js"])
def test_a_head_says_what_the_get_sends(client: TestClient, path: str) -> None:
    """A HEAD is the GET without its body (a cache or a monitor trusts its headers): from a browser that
    accepts gzip, the gzipped answer's encoding, length and tag, not the plain file's."""
    for asked in (GZIP, PLAIN):
        got, body = raw_get(client, path, asked)
        with client.stream("HEAD", path, headers=asked) as head:
            assert b"".join(head.iter_raw()) == b""
        assert head.status_code == got.status_code == 200
        for header in ("content-encoding", "content-length", "etag", "vary"):
            assert head.headers.get(header) == got.headers.get(header), (header, asked)
        assert int(head.headers["content-length"]) == len(body)


def test_the_plain_and_the_gzipped_tags_do_not_revalidate_each_other(client: TestClient) -> None:
    """Two representations, two tags: the plain file's tag does not make a gzipped answer 304 (the
    browser would keep the plain body under a gzip answer's headers), nor the other way round."""
    plain, _ = raw_get(client, "/static/app.js", PLAIN)
    packed, _ = raw_get(client, "/static/app.js", GZIP)
    plain_tag, packed_tag = plain.headers["etag"], packed.headers["etag"]
    for asked, tag, status in (
        (GZIP, plain_tag, 200),
        (GZIP, f"W/{plain_tag}", 200),
        (PLAIN, packed_tag, 200),
        (GZIP, f'"x", {packed_tag}', 304),
        (GZIP, f"W/{packed_tag}", 304),
        (PLAIN, plain_tag, 304),
        (GZIP, "*", 304),
    ):
        again, body = raw_get(client, "/static/app.js", {**asked, "If-None-Match": tag})
        assert again.status_code == status, (asked, tag)
        if status == 200:
            assert (again.headers.get("content-encoding") == "gzip") == (asked is GZIP) and body
    # A tag that names no gzipped answer is not dropped: a date beside it does not decide either.
    dated = {**GZIP, "If-None-Match": plain_tag, "If-Modified-Since": plain.headers["last-modified"]}
    assert raw_get(client, "/static/app.js", dated)[0].status_code == 200


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
