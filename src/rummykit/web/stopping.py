"""A websocket handshake that a stopping server process has not answered yet is refused as a restart.

When a server process stops (SIGTERM: a deploy, ``systemctl stop``, ``rummykit serve --workers``
stopping), uvicorn stops accepting connections and tells every open one to shut down: a websocket
the application accepted is closed with 1012 ("service restart"), which the page answers by
connecting again, to another process. A websocket whose handshake the application had not answered
yet got ``500 Internal Server Error`` instead, as if the server had failed: the handshake waits for
the database (with PostgreSQL the connection's count, who plays the table, the table itself: a
few trips on the lookups' thread, more while strangers' lookups queue there), so under load a stop
answered dozens of handshakes so (measured: 78 of the 800 made during one stop).

:class:`StoppingWebSockets` is uvicorn's websocket protocol (``websockets-sansio``, its default)
with that one answer changed: ``503 Service Unavailable`` with ``Retry-After: 1``, the refusal of a
server that is going away. A browser sees a refused handshake as close code 1006 whatever its status,
and the page connects again after 0.3 s (then 0.6, 1.2 … s), on a new connection, which the stopping
process no longer accepts: another process takes it (``--workers`` share the port; behind a proxy,
another machine). A proxy or a program of one's own sees a refusal to try again, not a server
error. The application's own work for that handshake ends at its next send (the client is gone).
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any, Final

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

REFUSAL: Final = "the server is restarting; connect again\n"
"""The body of the refusal (no page shows it: a browser does not read a refused handshake)."""
RETRY_AFTER_SECONDS: Final = 1
log = logging.getLogger("rummykit.web")


class StoppingWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol, refusing with 503 (not 500) a handshake the
    application has not answered when the server stops."""

    refused = False
    """Whether this connection's handshake was refused as the server stopped."""

    def shutdown(self) -> None:
        """Refuse a handshake not answered yet; anything else as uvicorn does. The refusal reads
        uvicorn's and websockets' internals: should a later version lack them, the connection is
        shut down as uvicorn does (a 500) rather than the error stopping the server's shutdown of
        the connections after it."""
        try:
            waiting = not (self.handshake_complete or self.initial_response is not None or self.close_sent)
            if waiting:
                response = self.conn.reject(HTTPStatus.SERVICE_UNAVAILABLE, REFUSAL)
                response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
                self.conn.send_response(response)
                data = b"".join(self.conn.data_to_send())
        except (AttributeError, TypeError):
            log.warning("a websocket handshake is not refused as a restart: uvicorn's protocol changed")
            waiting = False
        if not waiting:
            super().shutdown()  # accepted: closed with 1012; or answered already
            return
        self.transport.write(data)
        self.refused = True
        self.transport.close()

    async def send(self, message: Any) -> None:
        if self.refused:  # the application answers too late: the client has its refusal and is gone
            raise ClientDisconnected()
        await super().send(message)
