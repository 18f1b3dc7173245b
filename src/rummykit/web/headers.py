"""Security headers on every HTTP answer of the web server.

The page loads its scripts, styles and websocket from its own origin only, never inline code, so a
strict Content Security Policy costs nothing and turns an injected ``<script>`` (should escaping ever
fail) into a refused one. The page may not be framed by another site (a framing page could overlay
the buttons: clickjacking), answers are not sniffed into another type, and no address leaves in a
``Referer`` header. The page asks for no camera, microphone, location or other device
(``Permissions-Policy``), and no answer of the API is kept in a cache (``Cache-Control: no-store``
on ``/api/``): a seat's token is in the answer to a create or join, a finished table's record in its
record's.
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""Only the page's own origin (the icon is a ``data:`` address); no framing by any site."""

HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
)
"""The headers added to every HTTP answer (``X-Frame-Options`` for browsers without CSP 2)."""
API_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = ((b"cache-control", b"no-store"),)
"""Added to every answer under ``/api/``."""


class SecurityHeaders:
    """ASGI middleware: add :data:`HEADERS` to every HTTP answer (not to websocket frames)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                wanted = HEADERS + API_HEADERS if scope["path"].startswith("/api/") else HEADERS
                extra = [(n, v) for n, v in wanted if n not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)
