"""Checks of command-line arguments made before any work starts, each giving one line of error.

A folder or file the command will write is tried first, so a bad path fails at once with a clear
message instead of a traceback after minutes of play or computation.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Final, NoReturn

import typer

EXIT_BAD_INPUT: Final = 2
"""The exit status of a refused command line."""


def fail(message: str) -> NoReturn:
    """Refuse the command line: one ``error:`` line on stderr and exit status :data:`EXIT_BAD_INPUT`."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def writable_folder(folder: Path, option: str) -> str | None:
    """Why ``folder`` (created if missing) cannot take new files, or ``None`` when it can."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"{option} {folder}: cannot write there ({exc.strerror or exc})"
    return None


def writable_file(path: Path, option: str) -> str | None:
    """Why ``path`` cannot be written, or ``None`` when it can (a new file is created and removed)."""
    if path.is_dir():
        return f"{option} {path}: is a folder, not a file"
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as exc:
        return f"{option} {path}: cannot write there ({exc.strerror or exc})"
    if not existed:
        path.unlink(missing_ok=True)
    return None


def port_number(port: int, option: str = "--port") -> str | None:
    """Why ``port`` is not a TCP port to listen on (1–65535), or ``None``."""
    if not 1 <= port <= 65535:
        return f"{option}: must be between 1 and 65535, got {port}"
    return None
