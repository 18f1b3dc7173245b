"""The page's own files, compressed for browsers that ask for it.

The page is a script of some 185 KB, a style sheet and the list of games with their options (about
40 KB of JSON); gzip makes them a third of that or less, which a phone on a slow connection feels (seconds
before the page shows on 3G). Only these public answers are compressed: never a response that could
hold a seat's token, a card or a stranger's text next to a secret, so that the sizes of compressed
answers tell an onlooker nothing (the BREACH attack measures such sizes).

Each distinct body is compressed once (the files change only with a new release): a stranger who asks
for the script again and again costs the server a lookup, not a compression, however often they ask.
"""

from __future__ import annotations

import gzip
import hashlib
from collections import OrderedDict
from typing import Final

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COMPRESSED_PATHS: Final = ("/", "/api/presets", "/api/messages")
"""Exact paths compressed, besides every file under :data:`COMPRESSED_PREFIX`."""
COMPRESSED_PREFIX: Final = "/static/"
SMALLEST: Final = 1024
"""Bodies shorter than this go as they are (compressing them saves less than its headers cost)."""
KEPT: Final = 32
"""Compressed bodies kept (the page's files and the two lists, in two languages, with room to spare)."""
VARIED: Final = (200, 206, 304)
"""Answers that say ``Vary: Accept-Encoding`` (a file, a range of it, not modified)."""
LEVEL: Final = 9
"""gzip's level: the best compression, paid once per body."""
GZIP_TAG: Final = b'-gzip"'
"""How the ``ETag`` of a gzipped answer ends (the plain file's tag, marked)."""
NO_TAG: Final = b'"-"'
"""An entity tag that no answer has: what an ``If-None-Match`` naming none of the gzipped answer's
tags is made, so that it matches nothing (rather than being dropped, which would let an
``If-Modified-Since`` beside it decide)."""


def answers_head(path: str) -> bool:
    """Whether the application itself answers ``HEAD`` at ``path`` (the page and its files; the two
    lists are ``GET`` only)."""
    return path == "/" or path.startswith(COMPRESSED_PREFIX)


def gzip_validators(value: bytes) -> bytes:
    """A gzip request's ``If-None-Match`` as the plain file's validators, which the application
    compares: a tag of the gzipped answer (ending ``-gzip"``) becomes the plain file's tag, ``*``
    stays, and any other tag is left out: it names the plain answer, another representation, whose
    tag must not revalidate the gzipped one (the browser would keep a body it cannot use as sent)."""
    kept = []
    for part in value.split(b","):
        tag = part.strip()
        if tag == b"*":
            kept.append(tag)
        elif tag.endswith(GZIP_TAG):
            kept.append(tag[: -len(GZIP_TAG)] + b'"')
    return b", ".join(kept) or NO_TAG


def covered(path: str) -> bool:
    """Whether the answer to ``path`` is one of the page's public files compressed here."""
    return path in COMPRESSED_PATHS or path.startswith(COMPRESSED_PREFIX)


def accepts_gzip(headers: Headers) -> bool:
    """Whether the request's ``Accept-Encoding`` accepts gzip: named with a weight above 0, or, when
    gzip is not named, ``*`` so."""
    weights: dict[str, float] = {}
    for part in headers.get("accept-encoding", "").split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip().lower().removeprefix("q=") if params else "1"
        try:
            weights[name.strip().lower()] = float(q)
        except ValueError:
            continue
    return weights.get("gzip", weights.get("*", 0.0)) > 0


class CompressedFiles:
    """ASGI middleware: a ``GET`` of one of the page's public files (:func:`covered`) from a browser
    that accepts gzip gets the body gzipped (``Content-Encoding: gzip``, ``Vary: Accept-Encoding``, its
    ``ETag`` marked ``-gzip``, a revalidation with that tag answered 304 as the file's own would be, and
    one with the plain file's tag not: :func:`gzip_validators`). A ``HEAD`` from such a browser gets the
    headers that ``GET`` would (:func:`answers_head`). Everything else passes untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._kept: OrderedDict[bytes, bytes] = OrderedDict()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD") or not covered(scope["path"]):
            await self.app(scope, receive, send)
            return
        request = Headers(scope=scope)
        head = scope["method"] == "HEAD"
        # A request without gzip, and a HEAD the application refuses, go as they are, saying that the
        # answer varies: a cache in front must not hand either to a browser that asks otherwise.
        if not accepts_gzip(request) or (head and not answers_head(scope["path"])):
            await self.app(scope, receive, self._varied(send))
            return
        scope = dict(scope)
        # A HEAD is answered as the GET is, without its body: the same encoding, length and tag (a
        # HEAD that said the plain file's told a cache or a monitor of another answer than GET gives).
        scope["method"] = "GET"
        # The whole body is needed here: no server extension may send the file past this middleware.
        extensions = scope.get("extensions") or {}
        scope["extensions"] = {k: v for k, v in extensions.items() if k != "http.response.pathsend"}
        scope["headers"] = [
            (name, gzip_validators(value) if name == b"if-none-match" else value)
            for name, value in scope["headers"]
        ]
        start: Message | None = None
        parts: list[bytes] = []

        async def keep(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))

        await self.app(scope, receive, keep)
        assert start is not None, "the application answered nothing"
        body = b"".join(parts)
        headers = MutableHeaders(raw=list(start["headers"]))
        status = start["status"]
        if status in VARIED and "content-encoding" not in headers:
            headers.add_vary_header("Accept-Encoding")
            etag = headers.get("etag")
            # A range (206) is of the plain file and keeps its tag: the gzipped body's tag is another.
            if etag is not None and etag.endswith('"') and status != 206:
                headers["etag"] = etag[:-1] + '-gzip"'
            if status == 200 and len(body) >= SMALLEST:
                body = self._compressed(scope["path"], body)
                headers["content-encoding"] = "gzip"
                headers["content-length"] = str(len(body))
                if "accept-ranges" in headers:  # ranges of the file, not of its gzip
                    del headers["accept-ranges"]
        await send({**start, "headers": headers.raw})
        await send({"type": "http.response.body", "body": b"" if head else body})

    @staticmethod
    def _varied(send: Send) -> Send:
        """``send`` with ``Vary: Accept-Encoding`` added to the answer: a cache in front then keeps
        the plain answer apart from the gzipped one."""

        async def varied(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in VARIED:
                headers = MutableHeaders(raw=list(message["headers"]))
                headers.add_vary_header("Accept-Encoding")
                message = {**message, "headers": headers.raw}
            await send(message)

        return varied

    def _compressed(self, path: str, body: bytes) -> bytes:
        key = hashlib.blake2b(path.encode() + b"\0" + body, digest_size=16).digest()
        found = self._kept.get(key)
        if found is None:
            found = gzip.compress(body, compresslevel=LEVEL, mtime=0)
            self._kept[key] = found
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        return found
