"""``rummykit serve``: the web server (the ``web`` extra) on one host and port.

The database is ``--database-url``, else ``RUMMYKIT_DATABASE_URL``, else an SQLite file in the
user's data directory. Every bound of the server (README, "Limits") is an option; the defaults are
those of a server open to the public. Arguments are checked, the database opened and the port bound
before the server says it serves; a problem is one ``error:`` line and exit status 2.
"""

from __future__ import annotations

import ipaddress
import math
import socket
from pathlib import Path
from typing import Annotated, Any

import typer

from rummykit.cli.checks import fail as _fail
from rummykit.cli.checks import port_number

WS_MAX_BYTES = 16 * 1024
"""Largest websocket message uvicorn accepts; protocol messages are far smaller (4 KiB)."""
MAX_WORKERS = 64
FLAGS = {"takeover_seconds": "--takeover", "allow_seeded": "--seeded-tables"}
"""Options whose flag is not the setting's name."""


SERVER, TIMING, LIMITS, SWITCHES = "Server", "Timing", "Limits", "Switches"
"""The help's panels: each is laid out on its own, so the long names of the limits leave the other
options readable at 80 columns."""


def _option(panel: str, flag: str, help_text: str) -> Any:
    return typer.Option(flag, help=help_text, rich_help_panel=panel)


def serve_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on.", rich_help_panel=SERVER)
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", "-p", help="Port to listen on (1-65535).", rich_help_panel=SERVER)
    ] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="SQLAlchemy URL (sqlite:///path.db, postgresql+psycopg://…); default: "
            "RUMMYKIT_DATABASE_URL or a file in the user's data directory.",
            show_default=False,
            rich_help_panel=SERVER,
        ),
    ] = None,
    bot_delay: Annotated[
        float, _option(TIMING, "--bot-delay", "Seconds a bot waits before it moves (0–60).")
    ] = 0.6,
    takeover: Annotated[
        float, _option(TIMING, "--takeover", "Seconds before a bot plays for a disconnected player.")
    ] = 60.0,
    turn_seconds: Annotated[
        float,
        _option(TIMING, "--turn-seconds", "Seconds a connected player may take per move before a bot plays."),
    ] = 120.0,
    practice_turn_seconds: Annotated[
        float,
        _option(
            TIMING,
            "--practice-turn-seconds",
            "The same for a person alone with bots; 0 (the default): no turn clock there.",
        ),
    ] = 0.0,
    hand_break_seconds: Annotated[
        float,
        _option(
            TIMING,
            "--hand-break-seconds",
            "After a hand, a player's turn clock rests until they close the result or this long passes.",
        ),
    ] = 30.0,
    idle_table_seconds: Annotated[
        float, _option(TIMING, "--idle-table-seconds", "A table with no person present ends after this long.")
    ] = 600.0,
    finished_table_seconds: Annotated[
        float, _option(TIMING, "--finished-table-seconds", "A finished table leaves memory after this long.")
    ] = 300.0,
    max_tables: Annotated[int, _option(LIMITS, "--max-tables", "Open tables on the server.")] = 1000,
    max_tables_per_address: Annotated[
        int,
        _option(
            LIMITS,
            "--max-tables-per-address",
            "Open tables created from one client address (an IPv6 /64 counts as one address).",
        ),
    ] = 5,
    max_tables_per_network: Annotated[
        int,
        _option(
            LIMITS,
            "--max-tables-per-network",
            "Open tables created from one wider network (an IPv6 /48, an IPv4 /24).",
        ),
    ] = 50,
    max_organiser_tables: Annotated[
        int,
        _option(
            LIMITS,
            "--max-organiser-tables",
            "Open tables made from the organiser's page (--organiser); --max-tables counts them too.",
        ),
    ] = 100,
    max_seats_per_address: Annotated[
        int,
        _option(
            LIMITS,
            "--max-seats-per-address",
            "Seats one client address may hold at waiting tables it did not create.",
        ),
    ] = 5,
    max_seats_per_network: Annotated[
        int,
        _option(
            LIMITS,
            "--max-seats-per-network",
            "The same for a wider network (an IPv6 /48, an IPv4 /24).",
        ),
    ] = 25,
    max_connections_per_address: Annotated[
        int,
        _option(LIMITS, "--max-connections-per-address", "Websocket connections from one client address."),
    ] = 32,
    max_connections_per_network: Annotated[
        int,
        _option(
            LIMITS,
            "--max-connections-per-network",
            "The same for a wider network (an IPv6 /48, an IPv4 /24).",
        ),
    ] = 128,
    max_connections: Annotated[
        int,
        _option(
            LIMITS,
            "--max-connections",
            "Websocket connections one server process holds in all (lowered to what its limit of open "
            "files allows, which is raised as far as the system lets it).",
        ),
    ] = 10_000,
    max_table_actions: Annotated[
        int,
        _option(
            LIMITS,
            "--max-table-actions",
            "Moves one table may store; a table that reaches them while its match goes on ends "
            "(0: no limit).",
        ),
    ] = 20_000,
    creations_per_second: Annotated[
        float, _option(LIMITS, "--creations-per-second", "Table creations per client address per second.")
    ] = 0.5,
    requests_per_second: Annotated[
        float,
        _option(LIMITS, "--requests-per-second", "Join, start and leave requests per address per second."),
    ] = 10.0,
    messages_per_second: Annotated[
        float, _option(LIMITS, "--messages-per-second", "Websocket messages per connection per second.")
    ] = 10.0,
    missed_codes_per_hour: Annotated[
        float,
        _option(
            LIMITS,
            "--missed-codes-per-hour",
            "Table codes naming no table one wider network (an IPv6 /48, an IPv4 /24) may look up per "
            "hour, after a burst of half as many (at least 60).",
        ),
    ] = 120.0,
    keep_ended_days: Annotated[
        float,
        _option(
            SERVER,
            "--keep-ended-days",
            "Days an ended table stays in the database before it is deleted (0: forever).",
        ),
    ] = 30.0,
    http_per_second: Annotated[
        float,
        _option(LIMITS, "--http-per-second", "HTTP requests per address per second (0: no limit)."),
    ] = 60.0,
    seeded_tables: Annotated[
        bool,
        typer.Option(
            "--seeded-tables/--no-seeded-tables",
            help="Allow tables with a fixed seed (always marked 'seeded: every hand can be known').",
            rich_help_panel=SWITCHES,
        ),
    ] = True,
    workers: Annotated[
        int,
        _option(SERVER, "--workers", "Server processes sharing the port (more than 1 needs PostgreSQL)."),
    ] = 1,
    bot_processes: Annotated[
        int, _option(SERVER, "--bot-processes", "Processes in which bots think (0: a thread of the server).")
    ] = 1,
    internal_host: Annotated[
        str,
        _option(
            SERVER,
            "--internal-host",
            "With PostgreSQL: the address where the other server processes reach this one (each "
            "process listens there on a port of its own for connections relayed to the tables it plays).",
        ),
    ] = "127.0.0.1",
    forwarded_allow_ips: Annotated[
        str,
        _option(
            SERVER,
            "--forwarded-allow-ips",
            "Comma-separated addresses or networks of the reverse proxies whose X-Forwarded-For names "
            "the client (every per-address limit counts by it); '' believes nobody, '*' everybody.",
        ),
    ] = "127.0.0.1",
    address_key_file: Annotated[
        Path | None,
        typer.Option(
            "--address-key-file",
            help="File of the key the stored digests of client addresses are made with, kept outside "
            "the database (made on first start); every process of one database needs the same one. "
            "Default: RUMMYKIT_ADDRESS_KEY_FILE or address.key in the user's data directory.",
            show_default=False,
            rich_help_panel=SERVER,
        ),
    ] = None,
    imprint_url: Annotated[
        str,
        _option(
            SERVER,
            "--imprint-url",
            "The operator's imprint (Impressum), linked at the foot of every screen: https://… or a "
            "path on this server; '' (the default): no link.",
        ),
    ] = "",
    privacy_url: Annotated[
        str,
        _option(
            SERVER,
            "--privacy-url",
            "The operator's privacy notice, linked likewise (README, 'Data protection', lists what is "
            "stored).",
        ),
    ] = "",
    log_level: Annotated[
        str,
        _option(
            SERVER,
            "--log-level",
            "The least grave lines written to standard error: debug, info, warning or error (the web "
            "server's own: warnings and errors, or errors only with error).",
        ),
    ] = "info",
    organiser: Annotated[
        bool,
        typer.Option(
            "--organiser",
            help="Serve the organiser's page (a teacher's class, a club's evening): every table with its "
            "players and scores, and closing one; its address, with a key made for this run, is printed "
            "at the start. SQLite only (one server process).",
            rich_help_panel=SWITCHES,
        ),
    ] = False,
    ws_compression: Annotated[
        bool,
        typer.Option(
            "--ws-compression/--no-ws-compression",
            help=(
                "Compress websocket messages (permessage-deflate); off by default: states are small, "
                "and a connection's compression keeps its hand next to other players' chat, whose "
                "sizes an eavesdropper who also chats could measure."
            ),
            rich_help_panel=SWITCHES,
        ),
    ] = False,
) -> None:
    """Play in the browser: serve the card table, the lobby and the game websocket."""
    try:
        import uvicorn  # noqa: F401  (checked here: the web extra is installed)

        from rummykit.web.address_key import AddressKeyError, default_key_file, load_key
        from rummykit.web.app import create_app  # noqa: F401
        from rummykit.web.limits import ServerSettings
        from rummykit.web.store import Store, default_database_url
    except ImportError as exc:  # the web extra is not installed
        _fail(f"rummykit serve needs the web extra (pip install 'rummykit[web]'): {exc}")
    problem = port_number(port)
    if problem:
        _fail(problem)
    from rummykit.web.runtime import LOG_LEVELS

    log_level = log_level.strip().lower()
    if log_level not in LOG_LEVELS:
        _fail(f"--log-level: one of {', '.join(LOG_LEVELS)}, not {log_level[:20]!r}")
    try:
        settings = ServerSettings(
            bot_delay=bot_delay,
            takeover_seconds=takeover,
            turn_seconds=turn_seconds,
            practice_turn_seconds=practice_turn_seconds,
            hand_break_seconds=hand_break_seconds,
            idle_table_seconds=idle_table_seconds,
            finished_table_seconds=finished_table_seconds,
            max_tables=max_tables,
            max_tables_per_address=max_tables_per_address,
            max_tables_per_network=max_tables_per_network,
            max_organiser_tables=max_organiser_tables,
            max_seats_per_address=max_seats_per_address,
            max_seats_per_network=max_seats_per_network,
            max_connections_per_address=max_connections_per_address,
            max_connections_per_network=max_connections_per_network,
            max_connections=max_connections,
            max_table_actions=max_table_actions,
            creations_per_second=creations_per_second,
            requests_per_second=requests_per_second,
            # The bursts grow with a raised rate (a class joining at once), never below the defaults.
            creations_burst=_burst(5, 10 * creations_per_second),
            requests_burst=_burst(30, 3 * requests_per_second),
            messages_burst=_burst(30, 3 * messages_per_second),
            messages_per_second=messages_per_second,
            missed_codes_per_hour=missed_codes_per_hour,
            missed_codes_burst=_burst(60, missed_codes_per_hour / 2),
            http_per_second=http_per_second,
            keep_ended_days=keep_ended_days,
            http_burst=max(1, math.ceil(4 * http_per_second)) if math.isfinite(http_per_second) else 1,
            allow_seeded=seeded_tables,
            bot_processes=bot_processes,
            imprint_url=imprint_url.strip(),
            privacy_url=privacy_url.strip(),
        )
    except ValueError as exc:
        name, _, reason = str(exc).partition(": ")
        _fail(f"{FLAGS.get(name, '--' + name.replace('_', '-'))}: {reason}")
    for proxy in (p.strip() for p in forwarded_allow_ips.split(",") if p.strip()):
        if not proxy_address(proxy):
            _fail(f"--forwarded-allow-ips: {proxy[:60]!r} is not an address, a network (10.0.0.0/8) or *")
    try:
        url = database_url or default_database_url()
    except OSError as exc:  # the default data folder cannot be made (a read-only home, a full disk)
        _fail(f"cannot make the data folder for the database: {exc.strerror or exc} ({exc.filename})")
    database = url.split("@")[-1] if "@" in url else url
    if not 1 <= workers <= MAX_WORKERS:
        _fail(f"--workers: must be between 1 and {MAX_WORKERS}, got {workers}")
    if workers > 1 and not url.startswith("postgresql"):
        _fail("--workers: several processes need a PostgreSQL database (they coordinate through it)")
    if organiser and url.startswith("postgresql"):
        _fail(
            "--organiser: the organiser's page lists the tables of one server process, which a PostgreSQL "
            "database shares with others; serve the class from SQLite (the default)"
        )
    try:
        if address_key_file is None:
            address_key = load_key(default_key_file(), make_folder=True)
        else:
            address_key = load_key(address_key_file)
    except AddressKeyError as exc:
        _fail(f"--address-key-file: {exc}")
    from rummykit.web.runtime import log_to_stderr

    log_to_stderr(log_level)  # the database check below may already log (a schema upgrade)
    check_database(url, database, Store, address_key)
    listener = bind(host, port)
    internal = internal_host if url.startswith("postgresql") else None
    if internal is not None:
        bind(internal, 0).close()  # checked before serving; each process binds its own port
    shown = f"[{host}]" if ":" in host else host
    plural = f", {workers} processes" if workers > 1 else ""
    typer.echo(f"rummykit: serving http://{shown}:{port}/ (database {database}{plural})", err=False)
    organiser_key = None
    if organiser:
        from rummykit.web.organiser import new_key

        organiser_key = new_key()
        typer.echo(
            f"rummykit: the organiser's page is http://{shown}:{port}/#organise={organiser_key} "
            "(keep it to yourself: it closes any table; a new start makes a new key)",
            err=False,
        )
    proxies = ",".join(p.strip() for p in forwarded_allow_ips.split(",") if p.strip())
    if workers == 1:
        run_server(
            listener, url, settings, ws_compression, internal, proxies, address_key, log_level, organiser_key
        )
    else:
        supervise(workers, listener, url, settings, ws_compression, internal, proxies, address_key, log_level)


def _burst(least: int, wanted: float) -> int:
    """A limit's burst: ``wanted`` rounded up, at least ``least`` (a rate out of range is refused by
    :class:`~rummykit.web.limits.ServerSettings` with its own message)."""
    return max(least, math.ceil(wanted)) if math.isfinite(wanted) and wanted < 1e9 else least


def run_server(
    listener: socket.socket,
    url: str,
    settings: Any,
    ws_compression: bool,
    internal_host: str | None = None,
    proxies: str = "127.0.0.1",
    address_key: bytes | None = None,
    log_level: str = "info",
    organiser_key: str | None = None,
) -> None:
    """One server process on ``listener`` (uvicorn); with ``internal_host``, also on a port of its
    own there, where other processes relay the connections of the tables this one plays. The client
    address is taken from ``X-Forwarded-For`` only when the connection comes from one of ``proxies``
    (uvicorn's ``forwarded_allow_ips``; empty: from nobody). ``address_key`` keys the stored
    address digests (:mod:`rummykit.web.address_key`); ``log_level`` is the server's lines' least
    grave level (:func:`~rummykit.web.runtime.log_to_stderr`); ``organiser_key`` serves the
    organiser's page (:mod:`rummykit.web.organiser`)."""
    import uvicorn

    from rummykit.web.app import create_app

    sockets = [listener]
    relay_address = ""
    if internal_host is not None:
        internal = bind(internal_host, 0)
        sockets.append(internal)
        shown = f"[{internal_host}]" if ":" in internal_host else internal_host
        relay_address = f"{shown}:{internal.getsockname()[1]}"
    from rummykit.web.runtime import log_to_stderr, open_files_for, settle_garbage_collector

    log_to_stderr(log_level)  # before the app: its start may already log (a schema upgrade, a stored table)
    # A connection this process relays to a table's owner holds a second file, the relay's own socket.
    files = 2 if internal_host is not None else 1
    allowed = max(1, open_files_for(settings.max_connections * files) // files)
    if allowed < settings.max_connections:
        import dataclasses
        import logging

        logging.getLogger("rummykit.web").warning(
            "at most %d websocket connections in this process (--max-connections %d): the system's limit "
            "of open files allows no more",
            allowed,
            settings.max_connections,
        )
        settings = dataclasses.replace(settings, max_connections=allowed)
    app = create_app(
        url,
        settings=settings,
        relay_address=relay_address,
        address_key=address_key,
        organiser_key=organiser_key,
    )
    settle_garbage_collector()
    config = server_config(app, ws_compression, proxies, log_level)
    from rummykit.web.runtime import exit_on_sigterm, limit_invalid_request_lines

    limit_invalid_request_lines()  # after uvicorn.Config, which configures uvicorn's loggers
    exit_on_sigterm()
    uvicorn.Server(config).run(sockets=sockets)


def server_config(
    app: Any, ws_compression: bool, proxies: str = "127.0.0.1", log_level: str = "info", **options: Any
) -> Any:
    """uvicorn's settings of a server process of ``app`` (:func:`run_server`): websocket messages up
    to :data:`WS_MAX_BYTES`, compressed with ``ws_compression``, a handshake not answered when the
    process stops refused as a restart (:mod:`rummykit.web.stopping`), the client address taken from
    ``X-Forwarded-For`` of ``proxies`` only, and uvicorn's own lines from warnings on (from errors
    with ``log_level`` ``error``); ``options`` are more of ``uvicorn.Config``'s."""
    import uvicorn

    from rummykit.web.stopping import StoppingWebSockets

    return uvicorn.Config(
        app,
        ws=StoppingWebSockets,
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=ws_compression,
        log_level="error" if log_level == "error" else "warning",  # uvicorn's info is an access log
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        **options,
    )


def run_worker(supervisor: int, *args: Any) -> None:
    """A server process of :func:`supervise`: :func:`run_server` that stops when its supervisor
    ends, however it ends (a ``kill -9`` of the main process leaves no server holding the port)."""
    from rummykit.web.runtime import follow_parent

    follow_parent(supervisor, graceful=True)
    run_server(*args)


def supervise(
    workers: int,
    listener: socket.socket,
    url: str,
    settings: Any,
    ws_compression: bool,
    internal_host: str | None = None,
    proxies: str = "127.0.0.1",
    address_key: bytes | None = None,
    log_level: str = "info",
) -> None:
    """``workers`` server processes sharing ``listener``; one that dies is started again.

    The processes share nothing but the socket and the database: a connection reaching a process
    that does not play its table is relayed to the table's owner (:mod:`rummykit.web.owners`).
    SIGTERM or Ctrl-C stops them all."""
    import multiprocessing
    import os
    import signal
    import time

    context = multiprocessing.get_context("spawn")
    args: tuple[Any, ...] = (os.getpid(), listener, url, settings, ws_compression)
    args += (internal_host, proxies, address_key, log_level)
    # Not daemons: a daemon process may not start children, and each server starts its bot processes
    # (--bot-processes); the loop below stops them all itself, and a worker whose supervisor is
    # killed outright stops by itself (follow_parent).
    procs = [context.Process(target=run_worker, args=args, daemon=False) for _ in range(workers)]
    stopping = False

    def stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for proc in procs:
        proc.start()
    while not stopping:
        time.sleep(0.2)
        for i, proc in enumerate(procs):
            if not proc.is_alive() and not stopping:
                procs[i] = context.Process(target=run_worker, args=args, daemon=False)
                procs[i].start()
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.join(10)
        if proc.is_alive():
            proc.kill()
            proc.join(5)


def check_database(url: str, shown: str, store_class: Any, address_key: bytes | None = None) -> None:
    """Open the database once (creating its tables) so a bad URL or path fails before serving, and
    claim it for ``address_key`` (:func:`~rummykit.web.address_key.claim_key`), so a key other than
    the database's fails too."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from rummykit.web.address_key import AddressKeyError, claim_key

    try:
        store = store_class(url)
        try:
            claim_key(store.claim_meta, address_key)
        finally:
            store.close()
    except AddressKeyError as exc:
        _fail(f"--address-key-file: {exc}")
    except (ArgumentError, NoSuchModuleError) as exc:
        _fail(f"--database-url {shown}: not a database URL this server can use ({exc})")
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        _fail(f"--database-url {shown}: cannot open the database ({reason})")
    except (OSError, ValueError, ImportError) as exc:
        _fail(f"--database-url {shown}: cannot open the database ({exc})")


def proxy_address(text: str) -> bool:
    """Whether ``text`` names proxies as uvicorn's ``forwarded_allow_ips`` reads them: an address, a
    network, or ``*`` (anything else was taken silently, and no proxy's headers were trusted)."""
    if text == "*":
        return True
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


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
