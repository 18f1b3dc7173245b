"""``rummykit arena``: bots against bots, with a progress bar, a table, JSON, CSV and a ladder plot.

``rummykit arena --rules viennese --bots greedy,random --rounds 300 --seed 5 --json`` prints one JSON
object (``bots`` maps each bot to ``win_rate``, ``ci95``, ``mean_points``, ``elo`` …); the progress
bar goes to stderr so the output stays scriptable. ``--backend ray --ray-address HOST:PORT`` (or
``RAY_ADDRESS``) plays on an existing Ray cluster; an unreachable cluster or one of other versions is
one ``error:`` line and exit status 2.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Annotated, Any, Final, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from rummykit.arena import ArenaConfig, ArenaError, check_plot_path, run_arena
from rummykit.bots import canonical_spec, seat_notices
from rummykit.cli.checks import fail as _fail
from rummykit.cli.checks import writable_file
from rummykit.cluster import BACKENDS, Backend
from rummykit.errors import IllegalActionError, RummyError
from rummykit.rules import Rules

BACKEND_OPTION: Final = typer.Option(
    "--backend",
    help="local (process pool) or ray (default: ray when --ray-address or RAY_ADDRESS is given).",
)
RAY_ADDRESS_OPTION: Final = typer.Option(
    "--ray-address",
    help="Existing Ray cluster (HOST:PORT, auto, ray://HOST:PORT); default: RAY_ADDRESS, "
    "else a local Ray instance.",
)


BOTS_HELP: Final = (
    "Comma-separated bots: random, greedy, search, search:hard …, and the kinds installed packages offer "
    "(the rummykit.bots entry points; rummykit info lists them)."
)


def run_failed(exc: Exception, resume: str = "") -> NoReturn:
    """End a run that a bot's own error (its note names the bot, seat and game) or a worker process
    that died (killed for memory, say) stopped, in ``error:`` lines; anything else is a defect of
    rummykit and keeps its traceback. ``resume``: what to do to go on (self-play resumes)."""
    notes = list(getattr(exc, "__notes__", ()))
    if isinstance(exc, BrokenProcessPool):
        _fail("a worker process died (killed for memory?); " + (resume or "run the command again"))
    if any(note.startswith("bot ") for note in notes):
        _fail("\n  ".join([f"a bot failed: {type(exc).__name__}: {exc}", *notes]))
    raise exc


def stopped(exc: Exception) -> NoReturn:
    """End a run that a bot which cannot be made, or a bot's move the engine refused, stopped: in
    ``error:`` lines, the refusal named as the bot's move (the note names the bot, seat and game;
    the engine's message alone read like a fault of rummykit's)."""
    notes = list(getattr(exc, "__notes__", ()))
    message = str(exc)
    if isinstance(exc, IllegalActionError) and any(note.startswith("bot ") for note in notes):
        message = f"a bot's move was refused: {message}"
    _fail("\n  ".join([message, *notes]))


def arena_command(
    bots: Annotated[
        str, typer.Option("--bots", "-b", help=BOTS_HELP)
    ] = "greedy,random",
    rules_text: Annotated[
        str, typer.Option("--rules", "-r", help="Preset, alias or rules text form.")
    ] = "german",
    rounds: Annotated[
        int,
        typer.Option(
            "--rounds", "-n", help="Rounds (or matches) per pairing; rounded up to whole rotations."
        ),
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every deal and every bot decision.")] = 0,
    matches: Annotated[
        bool, typer.Option("--matches", help="Play whole matches instead of single rounds.")
    ] = False,
    round_robin: Annotated[
        bool, typer.Option("--round-robin", help="Every pair of bots heads-up instead of one table of all.")
    ] = False,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Worker processes (default: CPUs).")
    ] = None,
    backend: Annotated[str | None, BACKEND_OPTION] = None,
    ray_address: Annotated[str | None, RAY_ADDRESS_OPTION] = None,
    batch: Annotated[
        int | None, typer.Option("--batch", help="Games per task (default: by games and CPUs).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
    json_file: Annotated[Path | None, typer.Option("--json-file", help="Also write the JSON here.")] = None,
    csv_file: Annotated[
        Path | None, typer.Option("--csv", help="Write one CSV row per bot here ('-': stdout).")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw the ladder to a .png or .svg file.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    no_timing: Annotated[
        bool,
        typer.Option(
            "--no-timing",
            help="Leave wall-clock figures out of the JSON, so two runs of one seed give the same file.",
        ),
    ] = False,
) -> None:
    """Let bots play many seeded rounds: win rates, points, 95 % intervals and Elo ratings."""
    specs, chosen = bot_specs(bots), pick_backend(backend, ray_address)
    check_at_least("--workers", workers)
    check_at_least("--batch", batch)
    if as_json and csv_file is not None and str(csv_file) == "-":
        _fail("--json and --csv - both write to stdout: choose one (or --json-file FILE with --csv -)")
    for path, option in ((json_file, "--json-file"), (csv_file, "--csv"), (plot, "--plot")):
        if path is not None and str(path) != "-" and (problem := writable_file(path, option)):
            _fail(problem)
    if plot is not None:
        try:
            check_plot_path(str(plot))  # before the games, not after them
        except ArenaError as exc:
            _fail(str(exc))
    config = ArenaConfig(
        rules=rules_text,
        bots=specs,
        rounds=rounds,
        seed=seed,
        mode="matches" if matches else "rounds",
        round_robin=round_robin,
    )
    played = [0, 0]
    try:
        for line in seat_notices(Rules.parse(rules_text), specs):  # a policy trained under other rules
            typer.echo(line, err=True)
        # Ray prints its workers' troubles ("(raylet) A worker died …") on the standard output, which
        # holds the figures alone (--json, --csv -): while the games run it goes to the errors' stream.
        title = f"{rules_text}: {', '.join(specs)}"
        with (
            games_bar("arena", title, quiet) as report,
            redirect_stdout(sys.stderr),
            terminate_as_interrupt(),
        ):

            def progress(done: int, total: int) -> None:
                played[:] = [done, total]
                report(done, total)

            result = run_arena(
                config,
                workers=workers,
                backend=chosen,
                progress=progress,
                ray_address=ray_address,
                batch=batch,
            )
    except (ArenaError, RummyError) as exc:  # RummyError: a bot that cannot be made, or an illegal move
        stopped(exc)
    except KeyboardInterrupt:
        interrupted(
            f"interrupted after {played[0]} of {played[1] or '?'} games: an arena run keeps its games in "
            "memory, so nothing was written (rummykit selfplay writes every game and resumes)"
        )
    except Exception as exc:
        run_failed(exc)
    data = result.to_dict(timing=not no_timing)
    try:
        if json_file is not None:
            json_file.write_text(json.dumps(data, indent=2) + "\n")
        if csv_file is not None:
            if str(csv_file) == "-":
                typer.echo(result.to_csv(timing=not no_timing), nl=False)
            else:
                csv_file.write_text(result.to_csv(timing=not no_timing))
        if plot is not None:
            from rummykit.arena import plot_ladder

            plot_ladder(data, str(plot))
    except ArenaError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"cannot write {exc.filename}: {exc.strerror or exc}")
    if as_json:
        typer.echo(json.dumps(data, indent=2))
    elif not (csv_file is not None and str(csv_file) == "-"):
        shown = result.to_dict()  # the table shows the time per move
        console = Console()
        console.print(_table(shown))
        for line in pair_lines(shown):
            console.print(line, highlight=False)


def check_at_least(option: str, value: int | None, least: int = 1) -> None:
    """Refuse a count such as ``--workers`` below ``least``, in one line (``None``: not given)."""
    if value is not None and value < least:
        _fail(f"{option} must be at least {least}, not {value}")


def bot_specs(text: str) -> tuple[str, ...]:
    """The comma-separated bot specs of ``--bots``, each as :func:`make_bot` reads it
    (:func:`~rummykit.bots.canonical_spec`: ``Search:EASY`` is ``search:easy``)."""
    return tuple(canonical_spec(b) for b in text.split(",") if b.strip())


def pick_backend(backend: str | None, ray_address: str | None) -> Backend:
    """``--backend`` as given; without it ``ray`` when ``--ray-address`` or ``RAY_ADDRESS`` (the
    environment variable Ray's own tools read) names a cluster, else ``local``."""
    if backend is None:
        return "ray" if ray_address or os.environ.get("RAY_ADDRESS") else "local"
    if backend not in BACKENDS:
        _fail(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if ray_address and backend != "ray":
        _fail("--ray-address needs --backend ray")
    return "ray" if backend == "ray" else "local"


EXIT_INTERRUPTED: Final = 130
"""The exit status of a run stopped by Ctrl-C or SIGTERM (as a shell reports Ctrl-C)."""


def interrupted(message: str) -> NoReturn:
    """End a run stopped by Ctrl-C or SIGTERM: ``message`` (how far it got) on stderr, status 130."""
    typer.echo(message, err=True)
    raise typer.Exit(EXIT_INTERRUPTED)


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a scheduler's or ``kill``'s stop) stops the block as Ctrl-C does, so the command says
    how far it got instead of ending without a word. Only in the main thread, where signals arrive,
    and only in this process: a pool worker forked inside the block inherits the handler, and the
    pool stops its workers with SIGTERM, which must end them at once."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    owner = os.getpid()

    def stop(signum: int, frame: object) -> None:
        if os.getpid() != owner:  # a pool worker forked inside the block: it ends as SIGTERM ends it
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def games_bar(verb: str, label: str, quiet: bool) -> Iterator[Callable[[int, int], None]]:
    """A progress bar of games on stderr while the block runs, when stderr is a terminal (it leaves no
    line behind, so an error stays one line); yields the ``progress(done, total)`` callback."""
    err = Console(stderr=True)
    with Progress(
        TextColumn(f"[bold]{verb}[/bold] {{task.description}}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=quiet or not err.is_terminal,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield report


def pair_lines(data: dict[str, Any]) -> list[str]:
    """One line per pair of bots: the first's lead in points per game over the second, paired on
    the same cards, with its 95 % interval, and how often it finished ahead (the head-to-head)."""
    unit = "round" if data["mode"] == "rounds" else "match"
    lines = []
    for pair in data["pairs"]:
        if "lead_points" not in pair:
            continue
        lo, hi = pair["lead_ci95"]
        ahead_lo, ahead_hi = pair["ci95"]
        games = pair["games"]
        interval = "no interval from one deal" if lo is None else f"95 % CI {lo:+.2f} to {hi:+.2f}"
        lines.append(
            f"{pair['a']} vs {pair['b']}: lead {pair['lead_points']:+.2f} points per {unit} "
            f"({interval}); ahead in {pair['score_a']:.3f} of {games} {unit}"
            f"{'' if games == 1 else 'es' if unit == 'match' else 's'} ({ahead_lo:.3f}–{ahead_hi:.3f})"
        )
    return lines


def _table(data: dict[str, Any]) -> Table:
    count = data.get("rounds", data.get("matches"))
    table = Table(title=f"{data['rules']}: {count} {data['mode']}, seed {data['seed']}")
    chips = all("mean_chips" in b for b in data["bots"].values())
    chip_column = ("mean chips",) if chips else ()
    columns = ("bot", "win rate", "95 % CI", "mean points", *chip_column, "Elo", "time/move")
    for col in columns:
        table.add_column(col, justify="left" if col == "bot" else "right")
    for name, b in sorted(data["bots"].items(), key=lambda kv: -kv[1]["elo"]):
        lo, hi = b["ci95"]
        table.add_row(
            name,
            f"{b['win_rate']:.3f}",
            f"{lo:.3f}–{hi:.3f}",
            f"{b['mean_points']:.2f}",
            *((f"{b['mean_chips']:+.2f}",) if chips else ()),
            f"{b['elo']:.0f}",
            per_move(b.get("seconds_per_move", 0.0)),
        )
    return table


def per_move(seconds: float) -> str:
    """A bot's time per move at a scale that shows it: ``38 µs``, ``2.4 ms``, ``1.25 s``.

    >>> per_move(0.000038), per_move(0.0024), per_move(1.25), per_move(0.0)
    ('38 µs', '2.4 ms', '1.25 s', '0 µs')
    """
    if seconds < 0.001:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"
