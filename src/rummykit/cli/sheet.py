"""``rummykit sheet``: the score sheet of a match record (:mod:`rummykit.sheet`), as text, CSV or JSON.

It reads every record ``rummykit replay`` reads (the terminal's saves, self-play and arena runs with
``--game``, the web server's downloaded records: :func:`rummykit.cli.replay.load_record`), replays it
and prints the sheet; a round record (one hand, no match) or an unreadable file is refused with the
usual message and exit status 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from rummykit.cli.checks import fail as _fail
from rummykit.cli.play import LangOption, play_language
from rummykit.cli.replay import load_record
from rummykit.cli.saves import printable
from rummykit.errors import NotationError, RummyError
from rummykit.explain.language import Lang
from rummykit.i18n import localize_error
from rummykit.sheet import ScoreSheet, sheet_csv, sheet_text

FORMATS = ("text", "csv", "json")


def sheet_command(
    file: Annotated[
        Path,
        typer.Argument(
            help="A match record (JSON): a terminal save, a web download, or a self-play run or batch file.",
            show_default=False,
        ),
    ],
    output: Annotated[
        str, typer.Option("--format", help="text (a table to read), csv or json.", show_default=True)
    ] = "text",
    game: Annotated[
        int | None,
        typer.Option(
            "--game",
            help="The game of a self-play run folder or batch file (its number in the run, from 0).",
            show_default=False,
        ),
    ] = None,
    lang_option: LangOption = None,
) -> None:
    """Print a match record's score sheet: per hand the dealer, who ended it, each player's points and
    any multiplier, the running totals, and the winners."""
    lang = play_language(lang_option)
    t = Lang(lang)
    if output not in FORMATS:
        _fail(
            t(
                f"--format must be text, csv or json, not {output!r}",
                f"--format: text, csv oder json, nicht {output!r}",
            )
        )
    if game is not None and game < 0:
        _fail(t(f"--game must be 0 or more, not {game}", f"--game: 0 oder mehr, nicht {game}"))
    try:
        record, given = load_record(file, game, lang)
        if record.kind != "match":
            raise NotationError(
                "this is the record of a single hand, not of a match: a score sheet needs a match "
                "record ('rummykit replay' shows the hand)"
            )
        match = record.replay_match()
    except RummyError as exc:
        _fail(localize_error(exc, lang))
    for note in record.older_notes(lang):
        typer.echo(t(f"note: {note}", f"Hinweis: {note}"), err=True)
    default = t("Player", "Spieler")
    raw = given or ("",) * record.players
    names = tuple(printable(n)[:40] or f"{default} {s + 1}" for s, n in enumerate(raw))
    sheet = ScoreSheet.of(match)
    if output == "json":
        typer.echo(json.dumps(sheet.to_dict(names), ensure_ascii=False, indent=1))
    elif output == "csv":
        typer.echo(sheet_csv(sheet, names), nl=False)
    else:
        typer.echo(sheet_text(sheet, names, lang), nl=False)
