"""Checks of command-line arguments made before any work starts, each giving one line of error.

A folder or file the command will write is tried first, so a bad path fails at once with a clear
message instead of a traceback after minutes of play or computation.
"""

from __future__ import annotations

import os
import tempfile
import typing
from pathlib import Path
from typing import Any, Final, NoReturn

import typer
from typer.core import TyperCommand

from rummykit.i18n.language import lang_from_env, normalize_lang

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


NOT_A_NUMBER: Final = {"en": "{option}: not a whole number", "de": "{option}: keine ganze Zahl"}
"""A number option given something else, as the command's other errors say it."""


class ErrorLineCommand(TyperCommand):
    """A command whose number option given no number is refused like its other errors: one
    ``error:`` line in the player's language (``--lang``, else the locale), not the command-line
    library's English ``Error`` box. The value given is not echoed back."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: Any = None,
        **extra: Any,
    ) -> Any:
        given = list(args)  # parsing consumes ``args``
        try:
            return super().make_context(info_name, args, parent, **extra)
        except typer.BadParameter as exc:
            option = self._number_option(exc)
            if option is None:
                raise
            fail(NOT_A_NUMBER[_lang_of(given)].format(option=option))

    def _number_option(self, exc: typer.BadParameter) -> str | None:
        """The long name of the option ``exc`` refuses when the command takes a whole number there."""
        name = getattr(exc.param, "name", None)
        if self.callback is None or name is None:
            return None
        annotation = typing.get_type_hints(self.callback, include_extras=True).get(name)
        if typing.get_origin(annotation) is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        if annotation is not int and int not in typing.get_args(annotation):
            return None
        opts: list[str] = list(getattr(exc.param, "opts", None) or [f"--{name}"])
        return max(opts, key=len)


def _lang_of(args: list[str]) -> str:
    """The language a command line asks for: its ``--lang`` (the last one), else the locale."""
    lang: str | None = None
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            lang = normalize_lang(args[i + 1]) or lang
        elif arg.startswith("--lang="):
            lang = normalize_lang(arg.removeprefix("--lang=")) or lang
    return lang or lang_from_env(os.environ)
