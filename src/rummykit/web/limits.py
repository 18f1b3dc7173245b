"""What a server allows strangers: its settings, rate limits and the streaming body limit.

:class:`ServerSettings` holds every bound with the default a public server would use; ``rummykit
serve`` exposes each one as an option (README, "Limits"). Rates are token buckets: ``rate`` tokens
per second, at most ``burst`` saved up. Every per-address bound counts by :func:`network_key` (an
IPv6 client by its /64). A request over a limit gets HTTP 429 with ``Retry-After`` (a
websocket message gets a ``rate_limited`` error); nothing is changed by it.
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, fields
from typing import Any, Final

from rummykit.explain.language import number_de
from rummykit.web.texts import server_error_texts
from rummykit.web.thinking import fair_network

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

IPV6_NETWORK_BITS: Final = 64
"""Leading bits of an IPv6 address that name one network (one customer, one household)."""


def network_key(address: str) -> str:
    """The key of every per-address limit: the network a client address belongs to.

    Decision: an IPv4 address is its own key (one address is what one customer gets); an IPv6
    address is keyed by its /64 prefix (``2001:db8:1:2::/64``), because every home and mobile
    customer is given at least a whole /64 and can pick any of its 2^64 addresses at will; an
    IPv4-mapped IPv6 address (``::ffff:192.0.2.7``, a dual-stack socket's view of an IPv4 client) is
    keyed as the IPv4 address itself. A zone (``%eth0``) is dropped. Anything that is not an IP
    address (``testclient``, ``unknown``, a Unix socket's name) is its own key.

    The open-table cap, the seat cap, the websocket connection cap and the rate limits of
    creations, lobby requests and connection attempts all count by this key, and the database
    keeps its digest (:func:`rummykit.web.owners.address_digest`): an IPv4 key is the address
    string as before, so digests stored from IPv4 clients still match; rows stored under a full
    IPv6 address simply stop counting once their table ends (they never match a /64 key).
    """
    text = address.strip()
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return text
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        mask = ((1 << IPV6_NETWORK_BITS) - 1) << (128 - IPV6_NETWORK_BITS)
        return f"{ipaddress.IPv6Address(int(ip) & mask)}/{IPV6_NETWORK_BITS}"
    return str(ip)


MAX_BODY_BYTES: Final = 16 * 1024
"""Largest request body; the server stops reading at this many bytes and answers 413."""


@dataclass(frozen=True)
class ServerSettings:
    """Bounds of a server; the defaults suit a server open to the public."""

    bot_delay: float = 0.6
    """Seconds a bot waits before it moves."""
    takeover_seconds: float = 60.0
    """A disconnected player's seat is played by a bot after this many seconds."""
    turn_seconds: float = 120.0
    """A connected player who does not move for this long is replaced by a bot until they say ``back``."""
    practice_turn_seconds: float = 0.0
    """The turn clock of a person alone at a table with bots (none holding a seat for someone who
    left: :func:`~rummykit.web.practice.is_practice`); 0, the default, runs none there. Nobody waits
    for that person, who may take as long as they need (WCAG 2.2.1, timing adjustable); the table
    still ends ``idle_table_seconds`` after nobody is present."""
    hand_break_seconds: float = 30.0
    """The break after a hand: each person's turn clock rests until they close the hand's result
    (``ready``) or this many seconds have passed, whichever comes first; their first turn of the new
    hand then gets the whole ``turn_seconds``. Bots do not wait, and nobody can stall a table for
    longer than this break and one turn."""
    idle_table_seconds: float = 600.0
    """A table where no person is present (connected and not replaced by a bot) ends after this
    long; bots do not play while no person is connected. A waiting table expires likewise."""
    finished_table_seconds: float = 300.0
    """A finished, closed or expired table leaves the server's memory after this long."""
    max_tables: int = 1000
    """Open (waiting or playing) tables on the server."""
    max_tables_per_address: int = 5
    """Open tables created from one client address (:func:`network_key`: an IPv6 /64 is one)."""
    max_tables_per_network: int = 50
    """Open tables created from one wider network (an IPv6 /48, an IPv4 /24: the networks bot time
    is shared among, :func:`rummykit.web.thinking.fair_network`): one connection with many /64s (a
    home /56 has 256) cannot fill the server's ``max_tables``."""
    max_organiser_tables: int = 100
    """Open tables the organiser made (``rummykit serve --organiser``: tables made from the organiser's
    page, at which the organiser holds no seat). They are made by the key, not by an address, so the
    two caps above do not count them (a teacher's class shares the school's address); this does, and
    ``max_tables`` counts them with every other table."""
    max_seats_per_address: int = 5
    """Seats one client address holds in waiting tables it did not create: one network cannot
    take the open seats of every table in the lobby."""
    max_seats_per_network: int = 25
    """The same for a wider network (an IPv6 /48, an IPv4 /24), whatever addresses of it join."""
    max_connections_per_address: int = 32
    """Websocket connections from one client address."""
    max_connections_per_network: int = 128
    """The same for a wider network (an IPv6 /48, an IPv4 /24): one customer's many /64s cannot hold
    every connection the server can take."""
    max_connections: int = 10_000
    """Websocket connections one server process holds, every network together (each is an open
    file: ``rummykit serve`` raises the process's limit of open files as far as the system lets it,
    and lowers this to fit, so that the server still answers HTTP when it is full)."""
    creations_per_second: float = 0.5
    creations_burst: int = 5
    """Table creations per client address: rate and burst."""
    requests_per_second: float = 10.0
    requests_burst: int = 30
    """Other lobby requests (join, start, leave) per client address: rate and burst."""
    messages_per_second: float = 10.0
    messages_burst: int = 30
    """Websocket messages (moves, hints, evaluations, pings) per connection: rate and burst."""
    missed_codes_per_hour: float = 120.0
    missed_codes_burst: int = 60
    """Table codes that name no table which one wider network (an IPv6 /48, an IPv4 /24) may look up:
    rate and burst. A code is six characters of 32 (about a billion codes), so a stranger who guesses
    finds one table of a thousand open ones in a million guesses: the lobby's request rate alone would
    let one network make those in a day, the default misses (two a minute) in about a year. A network
    whose misses are spent is refused every lookup by code (429 ``too_many_misses``) until the next
    miss is allowed, except a request showing a seat's token (:mod:`rummykit.web.guesses`); the burst
    lets a class behind one address mistype codes together. Counted per server process."""
    http_per_second: float = 60.0
    http_burst: int = 240
    """Every HTTP request (pages, scripts, lobby lists, rules pages …) per client address (0: no
    limit, for a server behind a proxy that limits), counted
    by each process before any other work (:class:`HttpRate`): a page load is about seven, so a
    school or office behind one address can open the page together."""
    max_table_actions: int = 20_000
    """Records (moves, and undos at a practice table) one table may store (0: no limit); a table
    that reaches them while its match goes on ends ``expired``, and every client is told why
    (:meth:`~rummykit.web.tables.Table.end_at_action_limit`). A match need not end: in Viennese,
    Basic or Rommé ohne Auslegen a hand on which the stock runs out is not scored, and people who
    only draw and discard are present and moving, so no clock ends their table, while each move
    costs memory (about 640 bytes: the match keeps its history), a database row, and the copy or
    replay of the whole history at every bot decision, hint and restart. Greedy bots play a
    preset's match in at most 1,540 moves (Scala 40, 2 players, 100 matches a preset); the longest
    house rules take at most 6,850 (Basic to 1,000 points, Scala 40 eliminating at 1,000, a
    hundred-hand German match 5,200). 20,000 is three times that and holds a table to about 13 MB
    of memory and 1.5 MB of database."""
    keep_ended_days: float = 30.0
    """Days a table that ended (finished, closed or expired) stays in the database, where its code
    can still be looked up; then it is deleted with its moves. 0 keeps every table forever."""
    allow_seeded: bool = True
    """Whether a create request may fix the seed (the table is then marked as seeded)."""
    max_body_bytes: int = MAX_BODY_BYTES
    imprint_url: str = ""
    """Where the page links the operator's imprint (Impressum, which German law asks of a public
    site), at the foot of every screen: an address (``https://…``) or a path on the server's own
    origin (``/imprint.html``, served by a proxy in front); empty, the default: no link."""
    privacy_url: str = ""
    """Where it links the operator's privacy notice (Datenschutzerklärung), likewise (README, "Data
    protection", lists what the server stores for one)."""
    bot_processes: int = 1
    """Processes in which bots and hints think, off the event loop and its GIL; 0 thinks in a
    thread of the server process instead (a long search then slows every table of the process)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool):
                continue
            if f.name.endswith("_url"):
                if not isinstance(value, str) or (value and not SITE_LINK.fullmatch(value)):
                    shown = f"{value!r:.80}"
                    raise ValueError(
                        f"{f.name}: must be an address (https://…) or a path on this server (/…), got {shown}"
                    )
                continue
            if not isinstance(value, (int, float)) or math.isnan(value) or value < 0:
                raise ValueError(f"{f.name}: must be a number >= 0, got {value!r}")
            most = most_allowed(f.name)
            if not value <= most:  # inf included: the database and the clocks need real durations
                raise ValueError(f"{f.name}: must be at most {most:.0f}, got {value:g}")
        bursts = ("messages_burst", "requests_burst", "creations_burst", "http_burst", "missed_codes_burst")
        for name in (*bursts, "max_body_bytes"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name}: must be at least 1")
        for name in NEVER_ZERO:
            if getattr(self, name) == 0:
                raise ValueError(
                    f"{name}: must be more than 0 (0 would refuse everybody; a large number lifts the limit)"
                )


SITE_LINK: Final = re.compile(r"(?:https?://[^\s\"'<>\\`]{1,500}|/[^/\s\"'<>\\`][^\s\"'<>\\`]{0,499})")
"""A link the page may show: an http(s) address or a path on the server's own origin (not ``//…``,
which leaves it), without spaces, quotes, angle brackets or backslashes."""

NEVER_ZERO: Final = (
    "max_tables",
    "max_tables_per_address",
    "max_tables_per_network",
    "max_organiser_tables",
    "max_seats_per_address",
    "max_seats_per_network",
    "max_connections_per_address",
    "max_connections_per_network",
    "max_connections",
    "creations_per_second",
    "requests_per_second",
    "messages_per_second",
    "missed_codes_per_hour",
)
"""Settings where 0 is refused: it would refuse every table, seat, connection or request (where 0
means no limit, the setting says so: ``http_per_second``, ``max_table_actions``, ``keep_ended_days``)."""


MOST_SECONDS: Final = 366 * 24 * 3600.0
"""The longest duration a setting in seconds may have: a year (also a turn or a break)."""
MOST_BOT_DELAY: Final = 60.0
"""The longest ``bot_delay``: a minute. The delay is there so people can follow a bot's move; a
longer one (``--bot-delay 600`` typed for 0.6) would only make every table with a bot look stalled."""
MOST_DAYS: Final = 36_600.0
"""The longest ``keep_ended_days``: a hundred years (0 keeps tables forever)."""
MOST_RATE: Final = 1e6
"""The highest rate per second (``http_per_second`` 0 switches its limit off)."""
MOST_COUNT: Final = 10**9
"""The largest count (tables, seats, connections, bursts, bytes, processes)."""


def most_allowed(setting: str) -> float:
    """The largest value a :class:`ServerSettings` field takes: every one is finite, so no clock,
    database interval or token bucket meets an infinity."""
    if setting == "bot_delay":
        return MOST_BOT_DELAY
    if setting.endswith("_seconds"):
        return MOST_SECONDS
    if setting.endswith("_days"):
        return MOST_DAYS
    if setting.endswith("_per_second"):
        return MOST_RATE
    return MOST_COUNT


FORGET_AT: Final = 4096
"""Buckets a :class:`RateLimiter` keeps before it first looks for full ones to forget."""


class RateLimiter:
    """Token buckets by key; full buckets are forgotten, so memory follows the active keys only.

    Forgetting scans the buckets when their number doubles since the last scan (at least
    :data:`FORGET_AT`), so a take costs amortised constant time however many keys there are.
    """

    def __init__(self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[object, tuple[float, float]] = {}
        self._scan_at = FORGET_AT

    def take(self, key: object) -> float:
        """Spend one token of ``key``; ``0.0`` if granted, else the seconds until one is available."""
        now = self.clock()
        tokens, stamp = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - stamp) * self.rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > self._scan_at:
                self._forget_full(now)
                self._scan_at = max(FORGET_AT, 2 * len(self._buckets))
            return 0.0
        self._buckets[key] = (tokens, now)
        if self.rate <= 0:
            return math.inf
        return (1.0 - tokens) / self.rate

    def wait(self, key: object) -> float:
        """Seconds until ``key`` has a token (``0.0``: it has one now), spending none."""
        if key not in self._buckets:
            return 0.0
        tokens, stamp = self._buckets[key]
        tokens = min(float(self.burst), tokens + (self.clock() - stamp) * self.rate)
        if tokens >= 1.0:
            return 0.0
        return math.inf if self.rate <= 0 else (1.0 - tokens) / self.rate

    def refund(self, key: object) -> None:
        """Give back the token :meth:`take` spent for ``key`` (what it paid for was refused elsewhere)."""
        if key in self._buckets:
            tokens, stamp = self._buckets[key]
            self._buckets[key] = (min(float(self.burst), tokens + 1.0), stamp)

    def hold(self, key: object, wait: float) -> None:
        """Leave ``key`` no token for the next ``wait`` seconds (the bucket of the same rate that
        processes sharing a database keep says so: :meth:`rummykit.web.manager.TableManager._shared_miss`),
        keeping any longer wait it has. A wait longer than one token's refill leaves the bucket owing
        tokens."""
        if wait <= 0 or self.wait(key) >= wait:
            return
        tokens = 0.0 if self.rate <= 0 or math.isinf(wait) else 1.0 - wait * self.rate
        self._buckets[key] = (tokens, self.clock())

    def _forget_full(self, now: float) -> None:
        for key, (tokens, stamp) in list(self._buckets.items()):
            if tokens + (now - stamp) * self.rate >= self.burst:
                del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


SHOWN_CHARACTERS: Final = 40
"""The most characters of a client's own value that a reply quotes back."""
MESSAGE_CHARACTERS: Final = 200
"""The most characters of a validator's reason a reply repeats: pydantic's and our own reasons are
shorter, so the clip only holds should a future reason ever repeat the input."""


def shown(value: object, limit: int = SHOWN_CHARACTERS) -> str:
    r"""A client-supplied value as a reply may quote it: clipped to ``limit`` characters (then ``…``)
    with every unprintable character escaped, so that no newline, control character or terminal
    escape of the client's reaches a page, a log or a terminal.

    >>> shown("x" * 50 + "\n")
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
    >>> shown("Jürgen\nb\x1b[31m")
    'Jürgen\\nb\\x1b[31m'
    """
    text = str(value)
    clipped = "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text[:limit]
    )
    return clipped + ("…" if len(text) > limit else "")


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(min(seconds, 86400.0))))


class BodyLimit:
    """ASGI middleware: read a request body only up to ``limit`` bytes, counting them as they arrive.

    A declared ``Content-Length`` over the limit is refused before reading; a chunked body is
    refused as soon as the bytes received pass the limit, without reading the rest. The answer is
    413 and never echoes the body.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        received = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            received += len(body)
            if received > self.limit:
                await self._refuse(send)
                return
            chunks.append(body)
            more = bool(message.get("more_body", False))
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        message = f"request bodies are limited to {self.limit} bytes"
        texts = server_error_texts("body_too_large", message, limit=number_de(self.limit))
        body = {"detail": message, "code": "too_large", "texts": texts}
        await send_json(send, 413, body, [(b"connection", b"close")])


async def send_json(
    send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]]
) -> None:
    """Answer an HTTP request from a middleware with ``body`` as JSON and ``headers`` besides."""
    await _send(send, status, b"application/json", json.dumps(body).encode(), headers)


NETWORK_SHARE: Final = 4
"""How many addresses' worth of a per-address rate one wider network (an IPv4 /24, an IPv6 /48:
:func:`~rummykit.web.thinking.fair_network`) may spend together (:class:`NetworkRate`): as many as
``max_connections_per_network`` holds connections of ``max_connections_per_address`` (128 and 32)."""


class NetworkRate(RateLimiter):
    """A rate per client address (:func:`network_key`: an IPv6 /64) and, at :data:`NETWORK_SHARE`
    times it, per wider network of the address (``network_burst``: its burst, :data:`NETWORK_SHARE`
    times the address's unless given), both in this process's memory; a take is granted only where
    both have a token, and neither is spent when either refuses.

    Decision: what a request or a connection attempt makes the server do with a shared database
    (PostgreSQL: a rate bucket, a connection's count and uncount, who plays the table, the table's
    row, the counts a creation checks first) runs on the one lookups' thread of each process, which
    answers about a thousand such trips a second. Counted by /64 alone, one home connection with a
    /56 (256 of them) or a /48 (65,536) could ask for 256 or 65,536 addresses' worth of those and
    queue real players' joins and connections behind its own for seconds; the wider network caps
    it at four addresses' worth, as the connection caps do. The address's own bound is unchanged, so
    a school behind one address is refused no sooner than before."""

    def __init__(
        self,
        rate: float,
        burst: int,
        network_burst: int | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(rate, burst, clock=clock)
        shared = NETWORK_SHARE * burst if network_burst is None else network_burst
        self.network = RateLimiter(NETWORK_SHARE * rate, shared, clock=clock)
        """The buckets of the wider networks."""

    def take(self, key: object) -> float:
        """Spend one token of address ``key`` and one of its wider network; ``0.0`` if both were
        granted, else the seconds until the one that refused has one (nothing is spent then)."""
        wait = super().take(key)
        if wait > 0:
            return wait
        wait = self.network.take(fair_network(str(key)))
        if wait > 0:
            super().refund(key)
        return wait

    def refund(self, key: object) -> None:
        super().refund(key)
        self.network.refund(fair_network(str(key)))

    def network_refused(self, key: object) -> bool:
        """After :meth:`take` refused ``key``: whether its wider network's bucket did (the address
        had a token of its own)."""
        return super().wait(key) <= 0


class HttpRate:
    """ASGI middleware: at most ``limiter``'s rate of HTTP requests per client network
    (:func:`network_key`), and per wider network where it is a :class:`NetworkRate`, in this
    process; beyond it ``429`` with ``Retry-After`` before the request is read or routed. One client
    can then not flood the event loop every table shares with cheap requests (the lobby list, the
    scripts) that no other limit counts. Websockets have their own limits (connection attempts,
    messages per connection)."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.limiter.rate > 0:  # 0: no limit
            client = scope.get("client")
            key = network_key(client[0]) if client else "unknown"
            wait = self.limiter.take(key)
            if wait > 0:
                seconds = retry_after(wait)
                headers = dict(scope.get("headers") or [])
                if b"text/html" in headers.get(b"accept", b""):  # a browser opening the page: a page
                    headers_out = [(b"retry-after", seconds.encode()), (b"cache-control", b"no-store")]
                    await send_html(send, 429, busy_page(seconds), headers_out)
                    return
                if isinstance(self.limiter, NetworkRate) and self.limiter.network_refused(key):
                    message = (
                        f"too many requests from the wider network yours belongs to; try again in {seconds} s"
                    )
                    texts = server_error_texts("network_rate", message, seconds=seconds)
                else:
                    message = f"too many requests from your network; try again in {seconds} s"
                    texts = server_error_texts("rate", message, seconds=seconds)
                body = {"detail": message, "code": "rate_limited", "texts": texts}
                await send_json(send, 429, body, [(b"retry-after", seconds.encode())])
                return
        await self.app(scope, receive, send)


def busy_page(seconds: str) -> str:
    """The page a browser gets when its address is over ``http_per_second`` (a pupil holding F5 on a
    school's shared address): what happened in English and German, and a reload after the wait
    (no script and no style: the Content Security Policy allows none inline)."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="{seconds}"><title>rummykit: please wait</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
        "<body>"
        "<h1>Please wait a moment</h1>"
        "<p>Too many requests came from your network just now (a school or office shares one address "
        f"on the internet). This page loads again by itself in {seconds} s.</p>"
        '<div lang="de"><h1>Bitte einen Moment warten</h1>'
        "<p>Aus deinem Netz kamen gerade zu viele Anfragen (eine Schule oder ein Büro teilt sich eine "
        f"Adresse im Internet). Die Seite lädt in {seconds} s von selbst neu.</p></div>"
        "</body></html>"
    )


async def send_html(send: Send, status: int, page: str, headers: list[tuple[bytes, bytes]]) -> None:
    """Answer an HTTP request from a middleware with the HTML ``page`` and ``headers`` besides."""
    await _send(send, status, b"text/html; charset=utf-8", page.encode(), headers)


async def _send(
    send: Send, status: int, kind: bytes, data: bytes, headers: list[tuple[bytes, bytes]]
) -> None:
    head = [(b"content-type", kind), (b"content-length", str(len(data)).encode()), *headers]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": data})
