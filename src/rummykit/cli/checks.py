"""Checks of command-line arguments made before any work starts, each giving one line of error.

A folder or file the command will write is tried first, so a bad path fails at once with a clear
message instead of a traceback after minutes of play or computation.
"""

from __future__ import annotations

import importlib
import os
import re
import tempfile
import typing
from pathlib import Path
from typing import Any, Final, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

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
NOT_A_DECIMAL: Final = {"en": "{option}: not a number", "de": "{option}: keine Zahl"}
"""A decimal option (``--delay 0.5``) given something else."""


class ErrorLineCommand(TyperCommand):
    """A command whose number option (a whole number or a decimal) given no number is refused like
    its other errors: one ``error:`` line in the player's language (``--lang``, else the locale), not
    the command-line library's English ``Error`` box. The value given is not echoed back."""

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
            refused = self._number_option(exc)
            if refused is None:
                raise
            option, said = refused
            fail(said[_lang_of(given)].format(option=option))

    def _number_option(self, exc: typer.BadParameter) -> tuple[str, dict[str, str]] | None:
        """The long name of the option ``exc`` refuses and the words for it when the command takes a
        whole number (:data:`NOT_A_NUMBER`) or a decimal (:data:`NOT_A_DECIMAL`) there."""
        name = getattr(exc.param, "name", None)
        if self.callback is None or name is None:
            return None
        annotation = typing.get_type_hints(self.callback, include_extras=True).get(name)
        if typing.get_origin(annotation) is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        kinds = (annotation, *typing.get_args(annotation))
        said = NOT_A_NUMBER if int in kinds else NOT_A_DECIMAL if float in kinds else None
        if said is None:
            return None
        opts: list[str] = list(getattr(exc.param, "opts", None) or [f"--{name}"])
        return max(opts, key=len), said


def _lang_of(args: list[str]) -> str:
    """The language a command line asks for: its ``--lang`` (the last one), else the locale."""
    lang: str | None = None
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            lang = normalize_lang(args[i + 1]) or lang
        elif arg.startswith("--lang="):
            lang = normalize_lang(arg.removeprefix("--lang=")) or lang
    return lang or lang_from_env(os.environ)


_CLICK: Final = typer.BadParameter.__module__.rpartition(".")[0]
"""The command-line library typer parses with: ``click``, or the copy recent typer releases carry
(``typer._click``), whose exceptions are its own."""
_EXCEPTIONS: Final[Any] = importlib.import_module(f"{_CLICK}.exceptions")
UsageError: Final[type[Exception]] = _EXCEPTIONS.UsageError
"""The library's refusal of a command line (an unknown option, a missing value, …)."""
_HELP_INSTEAD: Final[tuple[type[Exception], ...]] = tuple(
    getattr(_EXCEPTIONS, name) for name in ("NoArgsIsHelpError",) if hasattr(_EXCEPTIONS, name)
)
"""The library's usage error that is no refusal: a command given nothing shows its help (and
says no more); it keeps its own handling in every language."""

_ARGS: Final = "rummykit.args"
"""Where a context keeps the command line it was made from (its language, for a usage error)."""
_OPTION_USAGE: Final = (
    (re.compile(r"^Option '(?P<name>[^']+)' requires an argument\.$"), "{name} braucht einen Wert"),
    (re.compile(r"^Option '(?P<name>[^']+)' requires (?P<n>\d+) arguments\.$"), "{name} braucht {n} Werte"),
    (re.compile(r"^Option '(?P<name>[^']+)' does not take a value\.$"), "{name} erwartet keinen Wert"),
)
_EXTRA: Final = re.compile(r"^Got unexpected extra argument(?:s|\(s\))? \((?P<args>.*)\)$")
_COMMAND: Final = re.compile(r"^No such command '(?P<name>[^']+)'\.(?: Did you mean (?P<close>.+)\?)?")


def _param_name(param: Any) -> str:
    """An option by its long name (``--seed``), an argument by its name (``CARDS``)."""
    opts = [o for o in getattr(param, "opts", None) or [] if o.startswith("-")]
    if opts:
        return str(max(opts, key=len))
    return str(getattr(param, "name", "") or "").upper()


def german_usage_error(exc: Any) -> str:
    """A command-line library's refusal of a command line in German, as one line: an unknown option
    or command with the close ones it knows, an option without its value or with one it takes
    none, a word too many, a value out of its choices; another one says the line was not
    understood, with the library's words."""
    if isinstance(exc, _EXCEPTIONS.NoSuchOption):
        said = f"unbekannte Option {exc.option_name}"
        if exc.possibilities:
            said += f" (meintest du {' oder '.join(exc.possibilities)}?)"
        return said
    message = exc.format_message()
    unknown_command = getattr(_EXCEPTIONS, "NoSuchCommand", None)
    if unknown_command is not None and isinstance(exc, unknown_command):
        said = f"unbekannter Befehl {exc.command_name}"
        if exc.possibilities:
            said += f" (meintest du {' oder '.join(exc.possibilities)}?)"
        return said
    found = _COMMAND.match(message)
    if found:
        said = f"unbekannter Befehl {found.group('name')}"
        close = re.findall(r"'([^']+)'", found.group("close") or "")
        if close:
            said += f" (meintest du {' oder '.join(close)}?)"
        return said
    if isinstance(exc, _EXCEPTIONS.MissingParameter):
        name = _param_name(exc.param)
        return f"{name} fehlt" if name.startswith("-") else f"es fehlt das Argument {name}"
    if isinstance(exc, _EXCEPTIONS.BadParameter):
        hint = _param_name(exc.param)
        said = f"ungültiger Wert für {hint}" if hint else "ungültiger Wert"
        choices = getattr(getattr(exc.param, "type", None), "choices", None)
        if choices:
            said += " (erlaubt: " + ", ".join(str(getattr(c, "value", c)) for c in choices) + ")"
        return said
    for pattern, german in _OPTION_USAGE:
        found = pattern.match(message)
        if found:
            return german.format(**found.groupdict())
    found = _EXTRA.match(message)
    if found:
        return f"zu viel auf der Befehlszeile: {found.group('args')}"
    return f"Befehlszeile nicht verstanden ({message})"


def usage_error(exc: Any, args: list[str], command: str | None = None) -> NoReturn:
    """A usage error of the command line ``args`` in the player's language (``--lang``, else the
    locale): in German one ``error:`` line and, where the command is known, a line naming its help,
    with the exit of every refused command line (2); in English the command-line library's own
    message (raised again), as is, in every language, the help a command given nothing shows.
    ``command``: the command's path where the error does not know it."""
    if _lang_of(args) != "de" or isinstance(exc, _HELP_INSTEAD):
        raise exc
    command = exc.ctx.command_path if exc.ctx is not None else command
    if command is None:
        fail(german_usage_error(exc))
    typer.echo(f"error: {german_usage_error(exc)}", err=True)
    typer.echo(f"Hilfe: {command} --help", err=True)  # a line of its own: each fits 80 columns
    raise typer.Exit(EXIT_BAD_INPUT)


class ErrorLineGroup(TyperGroup):
    """The command group whose usage errors (an unknown option or command, an option without its
    value, a word too many) follow the player's language (:func:`usage_error`): a German player
    saw the command-line library's English ``Error`` box."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: Any = None,
        **extra: Any,
    ) -> Any:
        given = list(args)  # parsing consumes ``args``
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except UsageError as exc:
            usage_error(exc, given)
        ctx.meta[_ARGS] = given
        return ctx

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as exc:
            sub = ctx.invoked_subcommand  # set before the command's own line is parsed
            path = f"{ctx.command_path} {sub}" if sub else ctx.command_path
            usage_error(exc, ctx.meta.get(_ARGS, []), path)
