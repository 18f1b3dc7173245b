"""Data and rich renderables for the command line; no I/O here.

Everything shown is computed by the public API (:class:`~rummykit.rules.Rules`,
:class:`~rummykit.melds.Meld`); this module only arranges it for display or JSON.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any, Final

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rummykit.cards import Card, parse_cards
from rummykit.errors import IllegalMeldError
from rummykit.explain.terms import OPTION_GROUPS
from rummykit.i18n import rule_name
from rummykit.melds import Meld, meld_text_cards
from rummykit.rules import PRESET_NAMES, Rules
from rummykit.rules_text import format_value

if TYPE_CHECKING:
    from rummykit.option_effects import EffectReport

RULE_GROUPS: Final[dict[str, str]] = {first: en for first, (en, _) in OPTION_GROUPS.items()}
"""Group titles of the rules table, keyed by the first option of each group (RULES.md §6 order)."""

SAMPLE_HAND: Final = "AS JK 7D KC"
"""Hand whose end-of-hand points the demo shows per preset (RULES.md §8.4 P1–P4)."""

DEMO_MELDS: Final = (
    "JC QC JK AC",
    "6S 6H JK",
    "5H 6H JK",
    "JK 5H 6H",
    "AH 2H 3H",
    "QC KC AC",
    "3S JK JK 6S",
    "KS AS 2S",
    "3S JK JK",
    "7H 7H 7S",
)
"""Melds that the demo evaluates live under the german preset: legal ones with jokers and aces, and one
breaking each of three rules."""


def rule_rows(rules: Rules) -> list[tuple[str, str, str, bool]]:
    """``(group, option, value, changed)`` for every option in declaration order.

    ``changed`` marks options that differ from the preset the rule set is named after.
    """
    changed = rules.changes()
    rows: list[tuple[str, str, str, bool]] = []
    group = ""
    for f in fields(rules):
        if f.name == "name":
            continue
        group = RULE_GROUPS.get(f.name, group)
        rows.append((group, f.name, format_value(f.name, getattr(rules, f.name)), f.name in changed))
    return rows


def rules_table(rules: Rules) -> Table:
    """The rule set as a table of option and value, grouped as in RULES.md §6."""
    table = Table(
        title=f"Rules: {rules}",
        title_justify="left",
        show_lines=False,
        caption="– does not apply to these rules (--coverage says why)",
        caption_justify="left",
    )
    table.add_column("option", style="cyan", no_wrap=True)
    table.add_column("value", no_wrap=True)
    previous = None
    for group, option, value, changed in rule_rows(rules):
        if group != previous:
            if previous is not None:
                table.add_section()
            table.add_row(Text(group, style="bold magenta"), "")
            previous = group
        if rules.not_applicable(option) is not None:
            shown = Text("–", style="dim")
        else:
            shown = Text(value, style="bold yellow" if changed else "")
        table.add_row(f"  {option}", shown)
    return table


_OUTCOME_STYLE: Final = {
    "effect": "green",
    "same": "yellow",
    "read": "green",
    "refused": "dim",
    "none": "bold red",
}


def coverage_rows(rules: Rules, report: EffectReport) -> list[dict[str, str]]:
    """Per option and value checked: the outcome and where the harness saw it (JSON-ready)."""
    by_option = report.by_option()
    rows = []
    for f in fields(Rules):
        if f.name == "name":
            continue
        why = rules.not_applicable(f.name)
        effects = by_option.get(f.name, [])
        if why is not None:
            rows.append({"option": f.name, "value": "", "outcome": "not applicable", "where": why})
            continue
        for e in effects:
            where = e.where.split(": ", 1)[1] if e.status == "refused" and ": " in e.where else e.where
            value = format_value(f.name, e.value)
            rows.append({"option": f.name, "value": value, "outcome": e.status, "where": where})
    return rows


COVERAGE_WIDE: Final = 110
"""Terminal columns from which ``rules --coverage`` is one table; below, one block per option."""


def coverage_table(rules: Rules, report: EffectReport, width: int = COVERAGE_WIDE) -> RenderableType:
    """Every option of ``rules``: each value checked, its outcome and where it took effect. In a
    terminal narrower than :data:`COVERAGE_WIDE` columns, one block per option (its name, then a
    line per value with the explanation wrapped), so that nothing is cut off."""
    if width < COVERAGE_WIDE:
        return _coverage_blocks(rules, report)
    table = Table(title=f"Option effects: {rules}", title_justify="left", show_lines=False)
    table.add_column("option", style="cyan", no_wrap=True)
    table.add_column("value", no_wrap=True)
    table.add_column("outcome", no_wrap=True)
    table.add_column("where the engine behaved differently (or why not)")
    previous = None
    for row in coverage_rows(rules, report):
        option = row["option"] if row["option"] != previous else ""
        previous = row["option"]
        style = _OUTCOME_STYLE.get(row["outcome"], "dim")
        table.add_row(option, row["value"], Text(row["outcome"], style=style), row["where"])
    return table


def _coverage_blocks(rules: Rules, report: EffectReport) -> RenderableType:
    parts: list[RenderableType] = [Text(f"Option effects: {rules}", style="italic")]
    rows = coverage_rows(rules, report)
    for option in dict.fromkeys(row["option"] for row in rows):
        parts.append(Text(option, style="cyan"))
        block = Table(box=None, show_header=False, padding=(0, 1, 0, 2))
        block.add_column("value", no_wrap=False, max_width=20, overflow="fold")
        block.add_column("outcome", no_wrap=True)
        block.add_column("where", ratio=1)
        for row in rows:
            if row["option"] == option:
                style = _OUTCOME_STYLE.get(row["outcome"], "dim")
                block.add_row(row["value"], Text(row["outcome"], style=style), row["where"])
        parts.append(block)
    return Group(*parts)


def preset_aliases() -> dict[str, list[str]]:
    """Every preset with the aliases :meth:`Rules.preset` accepts (as normalised, spaces shown)."""
    result: dict[str, list[str]] = {name: [] for name in PRESET_NAMES}
    for alias, name in Rules.ALIASES.items():
        shown = alias.replace("_", " ")
        if shown not in result[name] and shown != name:
            result[name].append(shown)
    return {name: sorted(aliases) for name, aliases in result.items()}


def aliases_table() -> Table:
    table = Table(title="Presets", title_justify="left")
    table.add_column("preset", style="cyan", no_wrap=True)
    table.add_column("aliases (case- and accent-insensitive)")
    for name, aliases in preset_aliases().items():
        table.add_row(name, "\n".join(aliases))
    return table


def hand_size_text(rules: Rules) -> str:
    """Cards dealt per player; for ``by_player_count`` the distinct sizes from min to max players."""
    if rules.hand_size_rule == "fixed":
        return str(rules.hand_size)
    sizes = [
        rules.hand_size_for(rules.active_players(p)) for p in range(rules.min_players, rules.max_players + 1)
    ]
    return "/".join(str(size) for i, size in enumerate(sizes) if i == 0 or size != sizes[i - 1])


def presets_table() -> Table:
    """One row per preset with the figures that tell them apart, computed from each rule set."""
    table = Table(title="Presets", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("preset", "family", "deck", "hand", "opening", "knock", "points"):
        table.add_column(column, no_wrap=True, justify="left" if column in ("preset", "family") else "right")
    sample = parse_cards(SAMPLE_HAND)
    for name in PRESET_NAMES:
        r = Rules.preset(name)
        knock = "–"
        if r.is_gin:
            knock = f"≤{r.knock_card}"  # gin knocks by its knock card
        elif r.knock_threshold is not None:
            knock = ("<" if r.knock_comparison == "lt" else "≤") + str(r.knock_threshold)
        points = str(sum(r.card_points(c) for c in sample)) if r.jokers_total else "–"
        table.add_row(
            name,
            r.family,
            f"{r.deck_size} ({r.jokers_total} JK)",
            hand_size_text(r),
            "–" if r.opening_min_points is None else str(r.opening_min_points),
            knock,
            points,
        )
    return table


def cards_json(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def meld_report(text: str, rules: Rules) -> dict[str, Any]:
    """The verdict on a meld text as JSON-compatible data.

    Legal: kind, value (``value_counts``: toward the opening in the melding games, off the deadwood in
    the knock games), cards, joker assignments, lay-off and exchange cards.
    Illegal: the broken rule and the error message.

    Raises:
        NotationError: the text holds something that is not a card.
    """
    cards = meld_text_cards(text)
    try:
        if not rules.jokers_total and any(c.is_joker for c in cards):
            # The meld judge answers for the game: a joker cannot be in a game without jokers (the
            # engine's meld tables stay defined for any card, so the solver's references compare).
            raise IllegalMeldError(
                f"{' '.join(str(c) for c in cards)}: these rules play without jokers (jokers_total = 0)",
                "jokers_total",
            )
        meld = Meld.parse(text, rules)
        layoffs = tuple(c for c in meld.layoff_cards(rules) if not c.is_joker or rules.jokers_total)
    except IllegalMeldError as exc:
        return {
            "legal": False,
            "rules": str(rules),
            "cards": cards_json(cards),
            "rule": exc.rule,
            "error": str(exc),
        }
    # A knock game counts a melded card off the deadwood at its own deadwood value (a joker as a
    # joker: 30 in Rommé ohne Auslegen), a melding game's opening at the value of what it stands for.
    value = sum(rules.deadwood_value(int(c)) for c in meld.cards) if rules.is_knock_game else meld.value
    return {
        "legal": True,
        "rules": str(rules),
        "kind": str(meld.kind),
        "value": value,
        "value_counts": "deadwood" if rules.is_knock_game else "opening",
        "notation": str(meld),
        "cards": cards_json(meld.cards),
        "jokers": [
            {"index": i, "represents": cards_json(meld.represented(i))}
            for i, c in enumerate(meld.cards)
            if c.is_joker
        ],
        "layoff_cards": cards_json(layoffs),
        "exchange_cards": cards_json(meld.exchange_cards()),
        "joker_exchange": rules.joker_exchange,
        # Whether the game lays cards off onto melds (gin onto the knocker's) and exchanges jokers on
        # the table: Viennese and Rommé ohne Auslegen keep every card in hand.
        "layoffs_played": rules.is_gin or not rules.is_knock_game,
        "exchanges_played": not rules.is_knock_game,
    }


def _card_list(cards: list[str]) -> str:
    return " ".join(cards) if cards else "none"


def _rule_shown(rule: str, *, with_id: bool) -> str:
    """A broken rule as a player reads it: its name (``no run round the corner``), followed by the
    option id one would change it with when ``with_id``; the id alone where it has no name."""
    name = rule_name(rule, "en")
    if name is None:
        return rule
    return f"{name} ({rule})" if with_id else name


def meld_renderable(report: dict[str, Any]) -> Group:
    """Human-readable form of :func:`meld_report`."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row("rules", report["rules"])
    if not report["legal"]:
        verdict = Text("illegal", style="bold red")
        grid.add_row("verdict", verdict)
        grid.add_row("cards", " ".join(report["cards"]))
        grid.add_row("rule", _rule_shown(report["rule"], with_id=True))
        grid.add_row("reason", report["error"])
        return Group(grid)
    grid.add_row("verdict", Text(f"legal {report['kind']}", style="bold green"))
    grid.add_row("meld", report["notation"])
    counts = "opening value" if report["value_counts"] == "opening" else "deadwood it takes away"
    grid.add_row("value", f"{report['value']} ({counts})")
    for joker in report["jokers"]:
        grid.add_row(f"joker #{joker['index'] + 1}", "stands for " + " or ".join(joker["represents"]))
    if report["layoffs_played"]:
        grid.add_row("lay off", _card_list(report["layoff_cards"]))
    if report["exchanges_played"]:
        exchange = _card_list(report["exchange_cards"])
        if report["exchange_cards"] and not report["joker_exchange"]:
            exchange += " (joker_exchange is off in these rules)"
        grid.add_row("exchange", exchange)
    return Group(grid)


def demo_melds_table(rules: Rules) -> Table:
    """The :data:`DEMO_MELDS` evaluated under ``rules``."""
    table = Table(title=f"Melds under {rules}", title_justify="left")
    table.add_column("as written", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("value", justify="right")
    table.add_column("meld / broken rule")
    for text in DEMO_MELDS:
        report = meld_report(text, rules)
        if report["legal"]:
            table.add_row(
                text, Text(f"legal {report['kind']}", style="green"), str(report["value"]), report["notation"]
            )
        else:
            table.add_row(text, Text("illegal", style="red"), "–", _rule_shown(report["rule"], with_id=False))
    return table
