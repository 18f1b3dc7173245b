"""``rummykit selfplay``: bots play N games and every game is written as a replayable record.

``rummykit selfplay --rules viennese --bots search,search --games 1000 --out runs/v1`` writes batches
of records as JSONL files with an index (:mod:`rummykit.selfplay`), with a progress bar on stderr; the
same command again resumes an interrupted run. ``--backend ray --ray-address HOST:PORT`` plays on a
Ray cluster. Bad input or an unusable output folder or cluster is one ``error:`` line, exit status 2;
an interrupted run exits with status 130 after saying how to resume.
"""

from __future__ import annotations

import json
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Annotated

import typer

from rummykit.bots import seat_notices
from rummykit.cli.arena import (
    BACKEND_OPTION,
    RAY_ADDRESS_OPTION,
    bot_specs,
    check_at_least,
    games_bar,
    interrupted,
    pick_backend,
    run_failed,
    stopped,
    terminate_as_interrupt,
)
from rummykit.errors import RummyError
from rummykit.rules import Rules
from rummykit.selfplay import SelfPlayConfig, SelfPlayError, run_selfplay


def selfplay_command(
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Folder of the run (created; resumed if it exists).")
    ],
    bots: Annotated[
        str, typer.Option("--bots", "-b", help="Comma-separated bots, one per seat: search,search …")
    ] = "search,search",
    rules_text: Annotated[
        str, typer.Option("--rules", "-r", help="Preset, alias or rules text form.")
    ] = "viennese",
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every deal and every bot decision.")] = 0,
    matches: Annotated[
        bool, typer.Option("--matches", help="Play whole matches instead of single rounds.")
    ] = False,
    batch: Annotated[
        int, typer.Option("--batch", help="Games per batch and file (0: by --games).")
    ] = 0,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Worker processes (default: CPUs).")
    ] = None,
    backend: Annotated[str | None, BACKEND_OPTION] = None,
    ray_address: Annotated[str | None, RAY_ADDRESS_OPTION] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Let bots play N seeded games and write every game as a record (JSONL batches with an index)."""
    specs, chosen = bot_specs(bots), pick_backend(backend, ray_address)
    check_at_least("--workers", workers)
    check_at_least("--batch", batch, 0)  # 0: batches by --games
    config = SelfPlayConfig(
        rules=rules_text,
        bots=specs,
        games=games,
        seed=seed,
        mode="matches" if matches else "rounds",
        batch=batch,
    )
    written = [0, games]

    def count(done: int, total: int) -> None:
        written[:] = [done, total]

    try:
        for line in seat_notices(Rules.parse(rules_text), specs):  # a policy trained under other rules
            typer.echo(line, err=True)
        title = f"{rules_text}: {', '.join(specs)}"
        with (
            games_bar("selfplay", title, quiet) as report,
            redirect_stdout(sys.stderr),  # as the arena
            terminate_as_interrupt(),
        ):

            def progress(done: int, total: int) -> None:
                count(done, total)
                report(done, total)

            result = run_selfplay(
                config, out, workers=workers, backend=chosen, ray_address=ray_address, progress=progress
            )
    except (SelfPlayError, RummyError) as exc:  # RummyError: a bot that cannot be made, or an illegal move
        stopped(exc)  # the note names bot, seat and game
    except KeyboardInterrupt:
        interrupted(
            f"interrupted: {written[0]} of {written[1]} games written to {out}; run the same command "
            "again to resume"
        )
    except Exception as exc:
        run_failed(exc, "run the same command again to resume")
    data = result.to_dict()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
    else:
        typer.echo(
            f"{data['played']} games played, {data['resumed']} already written, in {data['wall_seconds']} s "
            f"({data['games_per_second']} games/s) -> {out}"
        )
