"""``rummykit serve``: the web server (the ``web`` extra) on one host and port.

The database is ``--database-url``, else ``RUMMYKIT_DATABASE_URL``, else an SQLite file in the
user's data directory. The server prints its URL as it starts.
"""

from __future__ import annotations

from typing import Annotated

import typer

WS_MAX_BYTES = 64 * 1024
"""Largest websocket frame uvicorn accepts; protocol messages are far smaller."""


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="SQLAlchemy URL (sqlite:///path.db, postgresql+psycopg://…); default: "
            "RUMMYKIT_DATABASE_URL or a file in the user's data directory.",
            show_default=False,
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="Seconds a bot waits before it moves.")
    ] = 0.6,
    takeover: Annotated[
        float, typer.Option("--takeover", help="Seconds before a bot plays for a disconnected player.")
    ] = 60.0,
) -> None:
    """Play in the browser: serve the card table, the lobby and the game websocket."""
    try:
        import uvicorn

        from rummykit.web.app import create_app
        from rummykit.web.store import default_database_url
    except ImportError as exc:  # the web extra is not installed
        typer.echo(
            f"error: rummykit serve needs the web extra (pip install 'rummykit[web]'): {exc}", err=True
        )
        raise typer.Exit(2) from None
    url = database_url or default_database_url()
    app = create_app(url, bot_delay=bot_delay, takeover_seconds=takeover)
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=WS_MAX_BYTES, log_level="warning")
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    database = url.split("@")[-1] if "@" in url else url
    typer.echo(f"rummykit: serving http://{shown}:{port}/ (database {database})", err=False)
    server.run()
