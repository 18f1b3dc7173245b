"""``rummykit forget``: erase tables from a server's database on request (a person asking for their
data to be deleted, GDPR Art. 17).

``rummykit forget --name NAME`` lists the tables where a seat holds or held that name;
``rummykit forget CODE …`` deletes those tables with every move. A table that ended is deleted at
once, a running server or not (it keeps an ended table in memory for a few minutes at most, and
stores nothing more of it). An open table (waiting or playing) is refused unless
``--include-open`` says that no server runs on the database: a running server plays it from memory.
On SQLite the deleted rows are overwritten in the file (``secure_delete``) and the write-ahead log is
emptied (every run tries: while another program reads the database, a backup or a replica, the log
keeps earlier copies, which is said, with exit status 1); on PostgreSQL they stay in its files until
``VACUUM`` reclaims them.
"""

from __future__ import annotations

from typing import Annotated

import typer

from rummykit.cli.checks import EXIT_BAD_INPUT
from rummykit.cli.checks import fail as _fail

EXIT_UNFINISHED = 1
"""The tables are deleted, but earlier copies of their pages are still in SQLite's write-ahead log."""


def forget_command(
    codes: Annotated[
        list[str] | None, typer.Argument(help="Codes of the tables to delete.", show_default=False)
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", help="List the tables where a seat holds or held this name.", show_default=False
        ),
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="The server's database; default: RUMMYKIT_DATABASE_URL or the file in the user's data "
            "directory (as rummykit serve).",
            show_default=False,
        ),
    ] = None,
    include_open: Annotated[
        bool,
        typer.Option(
            "--include-open",
            help="Delete waiting and playing tables too: only while no server runs on this database.",
        ),
    ] = False,
) -> None:
    """Erase tables (names, moves) from the server's database, as a person may ask."""
    try:
        from rummykit.web.store import Store, default_database_url
    except ImportError as exc:  # the web extra is not installed
        _fail(f"rummykit forget needs the web extra (pip install 'rummykit[web]'): {exc}")
    if not codes and name is None:
        _fail("name the tables to delete (rummykit forget CODE …), or look them up by --name NAME")
    from pathlib import Path

    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    url = database_url or default_database_url()
    try:
        path = make_url(url).database if url.startswith("sqlite") else None
    except ArgumentError:
        _fail(f"--database-url: not a database URL ({url[:60]!r})")
    if path is not None and not Path(path).is_file():  # not made here: a mistyped path erases nothing
        _fail(f"there is no database at {path}; name the server's with --database-url")
    try:
        store = Store(url)
    except (SQLAlchemyError, OSError, ValueError, ImportError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        _fail(f"cannot open the database: {reason}")
    try:
        if name is not None:
            found = store.tables_named(name)
            for code, status in found:
                typer.echo(f"{code}  {status}")
            advice = "; 'rummykit forget CODE …' deletes them" if found and not codes else ""
            typer.echo(f"{len(found)} table(s) with a seat named {name.strip()!r}{advice}")
        refused = 0
        for raw in codes or []:
            code = raw.strip().upper()
            try:
                gone = store.forget(code, include_open)
            except ValueError as exc:
                refused += 1
                typer.echo(
                    f"error: {exc}: a running server plays it; end it first, or stop every server on "
                    "this database and add --include-open",
                    err=True,
                )
                continue
            if gone is None:
                refused += 1
                typer.echo(f"error: there is no table {code[:20]!r}", err=True)
            else:
                typer.echo(f"deleted table {code} ({gone[0]}) and its {gone[1]} moves")
        if not store.empty_log():
            typer.echo(
                f"error: the database's write-ahead log ({path}-wal) still holds earlier copies of what was "
                "deleted: another program has the database open (a backup, a sqlite3 shell, a replica); "
                "close it and run 'rummykit forget --name NAME' again, which empties the log",
                err=True,
            )
            raise typer.Exit(EXIT_UNFINISHED)
        if refused:
            raise typer.Exit(EXIT_BAD_INPUT)
    finally:
        store.close()
