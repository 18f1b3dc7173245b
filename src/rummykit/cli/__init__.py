"""The ``rummykit`` command line: a thin adapter over the public API.

Commands: ``rules`` (show a rule set; with ``--coverage`` where each option changes the game),
``meld`` (judge a meld), ``info`` (version, solver backend and environment encoder) and ``demo``
(a short overview); ``play`` (a match in the terminal, :mod:`rummykit.cli.play`) and ``replay``
(step through a saved game);
``serve`` (play in the browser, :mod:`rummykit.cli.serve`); ``arena`` and ``selfplay`` (bots against
bots, locally or on a Ray cluster).
Bad input prints one ``error:`` line to stderr and exits with status 2; an illegal meld given to
``meld`` exits with status 1 after its verdict.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from rummykit.bots import plugin_bots, shadowed_plugins
from rummykit.cli import render
from rummykit.cli.checks import EXIT_BAD_INPUT as EXIT_BAD_INPUT  # exit status of unreadable input
from rummykit.cli.checks import ErrorLineCommand, ErrorLineGroup
from rummykit.cli.checks import fail as _fail
from rummykit.errors import RummyError
from rummykit.i18n import lang_from_env
from rummykit.rules import Rules

EXIT_ILLEGAL: int = 1
"""Exit status of ``meld`` when the cards form no legal meld."""
OPTIONS_TABLE_COLUMNS: int = 100
"""Below this width a terminal shows ``rules --options`` as a list, an item per option: the table's
columns cut the option names (what a player types) at 80."""

def _flags_show_no_value() -> None:
    """Recent typer releases write a flag's type in the help (``--json <bool>``), as if it took a
    value, which click then refuses (``--json true``). A flag takes none: its help shows no type.
    Releases without ``TyperOption.display_type_rich`` show none already and are left alone."""
    option = getattr(getattr(typer, "core", None), "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if option is None or shown is None or getattr(shown, "flags_show_no_value", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else shown(self, ctx)

    display_type_rich.flags_show_no_value = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich


_flags_show_no_value()

app = typer.Typer(
    name="rummykit",
    cls=ErrorLineGroup,
    help=(
        "Rules engine for German Rummy (Rommé), Viennese Rummy (Wiener Rummy) and Gin Rummy, with "
        "Rommé ohne Auslegen, Scala 40 and Basic Rummy."
    ),
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if not value:
        return
    from rummykit import __version__
    from rummykit.solver import backend

    typer.echo(f"rummykit {__version__}; {backend.describe()}")
    raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version and the active solver backend, then exit.",
        ),
    ] = False,
) -> None:
    """Options read before any command (``--version``)."""


def _echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _parse_overrides(assignments: list[str]) -> dict[str, str]:
    overrides: dict[str, str] = {}
    for item in assignments:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            _fail(f"--set expects option=value, got {item!r}")
        if key.strip() == "name":
            _fail("--set cannot change the preset name; give the preset as PRESET instead")
        overrides[key.strip()] = value.strip()
    return overrides


def build_rules(preset: str | None, file: Path | None, assignments: list[str]) -> Rules:
    """The rule set named by ``preset`` (name, alias or text form) or loaded from ``file``, with the
    ``option=value`` overrides applied.

    Raises:
        RulesError: unknown preset or option, invalid value or combination, unreadable file.
    """
    if file is not None and preset is not None:
        _fail("give either a PRESET or --file, not both")
    rules = Rules.load(file) if file is not None else Rules.parse(preset or "german")
    overrides = _parse_overrides(assignments)
    if overrides:
        rules = Rules.from_mapping({"preset": rules.name, **rules.changes(), **overrides})
    return rules


@app.command("rules")
def rules_command(
    preset: Annotated[
        str | None,
        typer.Argument(
            help="Preset name or alias, or the text form such as 'german(opening_min_points=30)'. "
            "Default: german.",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print every option as JSON.")] = False,
    assignments: Annotated[
        list[str] | None,
        typer.Option("--set", "-s", metavar="OPTION=VALUE", help="Change an option (repeatable)."),
    ] = None,
    file: Annotated[
        Path | None, typer.Option("--file", "-f", help="Load the rule set from a TOML file.")
    ] = None,
    as_toml: Annotated[
        bool,
        typer.Option(
            "--toml",
            help="Print the rule set as a TOML file (its preset and changed options) for --file and "
            "play --rules-file.",
        ),
    ] = False,
    list_presets: Annotated[bool, typer.Option("--list", help="List the presets and their aliases.")] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="The rules for players (how to play), with these values.")
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang", help="Language of --explain: en or de. Default: the locale.", show_default=False
        ),
    ] = None,
    options: Annotated[
        bool,
        typer.Option(
            "--options",
            help="Every option: what it means, what it may be set to, and its value in these rules "
            "(--lang de for German).",
        ),
    ] = False,
    coverage: Annotated[
        bool,
        typer.Option(
            "--coverage",
            help="Check every option against its other values and print where each changed the game "
            "(or why it is refused).",
        ),
    ] = False,
) -> None:
    """Show a rule set: every option with its value, or (--explain) how to play it."""
    if list_presets:
        if as_json:
            _echo_json(render.preset_aliases())
        else:
            Console().print(render.aliases_table())
        return
    try:
        rules = build_rules(preset, file, assignments or [])
    except RummyError as exc:
        _fail(str(exc))
    if explain:
        _print_explained(rules, lang or lang_from_env(os.environ))
        return
    if options:
        from rummykit.explain import check_language, options_markdown
        from rummykit.explain.language import Lang

        try:
            code = check_language(lang or lang_from_env(os.environ))
        except RummyError as exc:
            _fail(str(exc))
        # On a narrow terminal a table would cut the option names; piped, the Markdown keeps its table.
        console = Console()
        narrow = console.is_terminal and console.width < OPTIONS_TABLE_COLUMNS
        _print_markdown(options_markdown(Lang(code), [(str(rules), rules)], narrow=narrow))
        return
    if coverage:
        from rummykit.option_effects import check_option_effects
        from rummykit.option_witnesses import WITNESSES

        report = check_option_effects(rules, hints=WITNESSES.get(rules.name))
        if as_json:
            _echo_json(render.coverage_rows(rules, report))
        else:
            console = Console()
            console.print(render.coverage_table(rules, report, console.width))
        if report.missing:
            _fail(f"{len(report.missing)} option values are accepted but changed nothing")
        return
    if as_toml:
        typer.echo(rules.to_toml(), nl=False)
    elif as_json:
        _echo_json(rules.to_dict())
    else:
        Console().print(render.rules_table(rules))


def _print_explained(rules: Rules, lang: str) -> None:
    """The rules page: formatted on a terminal, the Markdown text itself when piped."""
    from rummykit.explain import explain

    try:
        page = explain(rules, lang)
    except RummyError as exc:
        _fail(str(exc))
    _print_markdown(page)


def _print_markdown(page: str) -> None:
    """A Markdown page: formatted on a terminal, the text itself when piped."""
    from rich.markdown import Markdown

    console = Console()
    if console.is_terminal:
        console.print(Markdown(page))
    else:
        typer.echo(page, nl=False)


@app.command("meld")
def meld_command(
    cards: Annotated[
        list[str],
        typer.Argument(help="The meld as written, e.g. '5H 6H JK' or 5H 6H 'JK(=7H)'.", show_default=False),
    ],
    rules_text: Annotated[
        str, typer.Option("--rules", "-r", help="Preset, alias or rules text form.")
    ] = "german",
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Judge a meld: legal or not, kind, opening value, jokers, lay-off and exchange cards."""
    try:
        rules = Rules.parse(rules_text)
        report = render.meld_report(" ".join(cards), rules)
    except RummyError as exc:
        _fail(str(exc))
    if as_json:
        _echo_json(report)
    else:
        Console().print(render.meld_renderable(report))
    if not report["legal"]:
        raise typer.Exit(EXIT_ILLEGAL)


@app.command("info")
def info_command() -> None:
    """Version, Python, and the solver backend and observation encoder in use (C++ or pure Python)."""
    import platform

    from rummykit import __version__
    from rummykit.solver import backend

    typer.echo(f"rummykit {__version__} on Python {platform.python_version()}")
    typer.echo(backend.describe())
    try:
        from rummykit.envs import compiled
    except ImportError:  # the environments need the rl extra
        typer.echo("environments: not installed (pip install 'rummykit[rl]')")
    else:
        typer.echo(compiled.describe())
    shadowed = shadowed_plugins()
    for kind, source in plugin_bots().items():
        played = "not played: rummykit's own bot has that name" if kind in shadowed else "played"
        typer.echo(f"bot {kind} from {source}: {played}")


@app.command("demo")
def demo_command() -> None:
    """A short overview: the presets and some melds, evaluated live."""
    console = Console()
    console.print("[bold]rummykit[/bold] — German Rummy (Rommé), Viennese Rummy, Gin Rummy and variants\n")
    console.print(render.presets_table())
    console.print(
        f"[dim]points: end-of-hand value of {render.SAMPLE_HAND} "
        "(penalty in melding games, deadwood in knock games; – where the deck has no joker).[/dim]\n"
    )
    console.print(render.demo_melds_table(Rules.preset("german")))
    console.print("\nTry: [cyan]rummykit meld '5H 6H JK'[/cyan], [cyan]rummykit rules viennese[/cyan]")


from rummykit.cli.arena import arena_command  # noqa: E402
from rummykit.cli.forget import forget_command  # noqa: E402  (imports the web extra only when run)
from rummykit.cli.play import play_command  # noqa: E402  (play imports this module lazily)
from rummykit.cli.replay import replay_command  # noqa: E402
from rummykit.cli.selfplay import selfplay_command  # noqa: E402
from rummykit.cli.serve import serve_command  # noqa: E402  (imports the web extra only when run)
from rummykit.cli.sheet import sheet_command  # noqa: E402

app.command("play", cls=ErrorLineCommand)(play_command)
app.command("replay")(replay_command)
app.command("sheet")(sheet_command)
app.command("arena")(arena_command)
app.command("selfplay")(selfplay_command)
app.command("serve")(serve_command)
app.command("forget")(forget_command)


def main() -> None:
    """Entry point of the ``rummykit`` script (one line on stderr when the compiled solver is missing)."""
    from rummykit.solver import backend

    notice = backend.notice()
    if notice is not None:
        typer.echo(notice, err=True)
    app()


__all__ = ["app", "build_rules", "main"]
