"""``rummykit serve``: the web server (the ``web`` extra) on one host and port.

The database is ``--database-url``, else ``RUMMYKIT_DATABASE_URL``, else an SQLite file in the
user's data directory. Every bound of the server (README, "Limits") is an option; the defaults are
those of a server open to the public. Arguments are checked, the database opened and the port bound
before the server says it serves; a problem is one ``error:`` line and exit status 2.
"""

from __future__ import annotations

import socket
from typing import Annotated, Any, NoReturn

import typer

from rummykit.cli.checks import port_number

WS_MAX_BYTES = 16 * 1024
"""Largest websocket message uvicorn accepts; protocol messages are far smaller (4 KiB)."""
EXIT_BAD_INPUT = 2
FLAGS = {"takeover_seconds": "--takeover", "allow_seeded": "--seeded-tables"}
"""Options whose flag is not the setting's name."""


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def _option(flag: str, help_text: str) -> Any:
    return typer.Option(flag, help=help_text)


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", help="Port to listen on (1-65535).")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="SQLAlchemy URL (sqlite:///path.db, postgresql+psycopg://…); default: "
            "RUMMYKIT_DATABASE_URL or a file in the user's data directory.",
            show_default=False,
        ),
    ] = None,
    bot_delay: Annotated[float, _option("--bot-delay", "Seconds a bot waits before it moves.")] = 0.6,
    takeover: Annotated[
        float, _option("--takeover", "Seconds before a bot plays for a disconnected player.")
    ] = 60.0,
    turn_seconds: Annotated[
        float, _option("--turn-seconds", "Seconds a connected player may take per move before a bot plays.")
    ] = 120.0,
    idle_table_seconds: Annotated[
        float, _option("--idle-table-seconds", "A table with no person present ends after this long.")
    ] = 600.0,
    finished_table_seconds: Annotated[
        float, _option("--finished-table-seconds", "A finished table leaves memory after this long.")
    ] = 300.0,
    max_tables: Annotated[int, _option("--max-tables", "Open tables on the server.")] = 1000,
    max_tables_per_address: Annotated[
        int, _option("--max-tables-per-address", "Open tables created from one client address.")
    ] = 5,
    max_connections_per_address: Annotated[
        int, _option("--max-connections-per-address", "Websocket connections from one client address.")
    ] = 32,
    creations_per_second: Annotated[
        float, _option("--creations-per-second", "Table creations per client address per second.")
    ] = 0.5,
    requests_per_second: Annotated[
        float, _option("--requests-per-second", "Join, start and leave requests per address per second.")
    ] = 10.0,
    messages_per_second: Annotated[
        float, _option("--messages-per-second", "Websocket messages per connection per second.")
    ] = 10.0,
    seeded_tables: Annotated[
        bool,
        typer.Option(
            "--seeded-tables/--no-seeded-tables",
            help="Allow tables with a fixed seed (always marked 'seeded: every hand can be known').",
        ),
    ] = True,
) -> None:
    """Play in the browser: serve the card table, the lobby and the game websocket."""
    try:
        import uvicorn

        from rummykit.web.app import create_app
        from rummykit.web.limits import ServerSettings
        from rummykit.web.store import Store, default_database_url
    except ImportError as exc:  # the web extra is not installed
        _fail(f"rummykit serve needs the web extra (pip install 'rummykit[web]'): {exc}")
    problem = port_number(port)
    if problem:
        _fail(problem)
    try:
        settings = ServerSettings(
            bot_delay=bot_delay,
            takeover_seconds=takeover,
            turn_seconds=turn_seconds,
            idle_table_seconds=idle_table_seconds,
            finished_table_seconds=finished_table_seconds,
            max_tables=max_tables,
            max_tables_per_address=max_tables_per_address,
            max_connections_per_address=max_connections_per_address,
            creations_per_second=creations_per_second,
            requests_per_second=requests_per_second,
            messages_per_second=messages_per_second,
            allow_seeded=seeded_tables,
        )
    except ValueError as exc:
        name, _, reason = str(exc).partition(": ")
        _fail(f"{FLAGS.get(name, '--' + name.replace('_', '-'))}: {reason}")
    url = database_url or default_database_url()
    database = url.split("@")[-1] if "@" in url else url
    check_database(url, database, Store)
    listener = bind(host, port)
    app = create_app(url, settings=settings)
    config = uvicorn.Config(app, ws_max_size=WS_MAX_BYTES, log_level="warning")
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"rummykit: serving http://{shown}:{port}/ (database {database})", err=False)
    server.run(sockets=[listener])


def check_database(url: str, shown: str, store_class: Any) -> None:
    """Open the database once (creating its tables) so a bad URL or path fails before serving."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    try:
        store_class(url).close()
    except (ArgumentError, NoSuchModuleError) as exc:
        _fail(f"--database-url {shown}: not a database URL this server can use ({exc})")
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        _fail(f"--database-url {shown}: cannot open the database ({reason})")
    except (OSError, ValueError, ImportError) as exc:
        _fail(f"--database-url {shown}: cannot open the database ({exc})")


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, bound before the server announces itself."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
        sock.set_inheritable(True)
    except (OSError, OverflowError) as exc:
        _fail(f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}")
    return sock
