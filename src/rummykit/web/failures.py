"""How the server logs a failure it survives: a database that is away or full in one line, a defect
with its traceback."""

from __future__ import annotations

import logging
import sys

from sqlalchemy.exc import SQLAlchemyError


def reason(exc: BaseException) -> str:
    """An exception as one short line for the log: its class and the first line of its message."""
    text = str(exc).strip()
    first = text.splitlines()[0][:200] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def log_failure(log: logging.Logger, message: str, *args: object) -> None:
    """Log the exception being handled with ``message``: a storage failure (the database away, full
    or refusing; a file system error) as one warning line, since it repeats at every retry while it
    lasts; anything else, a defect, with its traceback."""
    exc = sys.exc_info()[1]
    if isinstance(exc, (SQLAlchemyError, OSError)):
        log.warning(f"{message} (%s)", *args, reason(exc))
    else:
        log.exception(message, *args)
