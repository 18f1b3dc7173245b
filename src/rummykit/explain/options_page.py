"""The rule options for players: what each option of RULES.md §6 means, what it may be set to, and
what every preset plays, in English or German.

A value is offered only where the engine accepts it: each choice, switch and number bound is tried
through :meth:`~rummykit.rules.Rules.replace` on every preset, so the page never promises a setting
that ``--set`` would refuse, and an option no preset lets change is marked as fixed. A preset's
column reads ``–`` where the option does not apply to its game (:meth:`Rules.not_applicable`).

>>> from rummykit.explain.language import Lang
>>> "`opening_min_points`" in options_markdown(Lang("en"))
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

from rummykit.explain.document import Block, Heading, Paragraph, Table, tables_as_items, to_markdown
from rummykit.explain.language import Lang
from rummykit.explain.terms import OPTION_GROUPS, option_label, value_words
from rummykit.rules import OPTION_RANGES, OPTION_TYPES, PRESET_NAMES, Rules
from rummykit.rules_text import format_value

PAGE_NAME: Final = "options"
"""The committed pages' stem: ``docs/rules/options.en.md`` and ``options.de.md``."""


def _options() -> list[str]:
    return [f.name for f in dataclasses.fields(Rules) if f.name != "name"]


@cache
def accepted(option: str, tables: tuple[Rules, ...]) -> tuple[Any, ...] | None:
    """The values of a switch or a choice that at least one of ``tables`` accepts where the option
    applies, in declaration order (``None`` for a number, a pair or text, whose range the page
    states). Where it applies to none of them, every value of its type."""
    kind = OPTION_TYPES[option]
    if kind.kind == "bool":
        candidates: tuple[Any, ...] = (True, False)
    elif kind.kind == "choice":
        candidates = kind.choices
    else:
        return None
    if kind.optional:
        candidates += (None,)
    playing = [rules for rules in tables if rules.not_applicable(option) is None]
    if not playing:  # it matters only once another option is changed: every value of its type
        return candidates
    return tuple(v for v in candidates if any(rules.accepts(option, v) for rules in playing))


def values_text(option: str, t: Lang, tables: tuple[Rules, ...]) -> str:
    """What ``option`` may be set to in ``tables``, in words, with the text form to type
    (``--set option=value``)."""
    kind = OPTION_TYPES[option]
    values = accepted(option, tables)
    if values is not None:
        if len(values) == 1:
            return t("fixed: ", "fest: ") + _word(option, values[0], t)
        return t.join([_word(option, v, t) for v in values], t("or", "oder"))
    none = t(", or ", " oder ") + _word(option, None, t) if kind.optional else ""
    if kind.kind == "text":
        return t("a name", "ein Name")
    low, high = OPTION_RANGES.get(option, (None, None))
    if kind.kind == "pair":
        return t(f"two numbers from {low} to {high}", f"zwei Zahlen von {low} bis {high}") + none
    return f"{low}–{high}{none}"


def _word(option: str, value: Any, t: Lang) -> str:
    """``value`` as typed, and in words where those say more: ``single_meld`` (one meld alone)."""
    typed = format_value(option, value)
    if isinstance(value, bool):
        return f"`{typed}`"
    words = value_words(option, value, t).strip("`")
    return f"`{typed}`" if words in (typed, str(value)) else f"`{typed}` ({words})"


def preset_value(rules: Rules, option: str, t: Lang) -> str:
    """What ``rules`` plays for ``option``: its value in words, or ``–`` where it does not apply."""
    if rules.not_applicable(option) is not None:
        return "–"
    return value_words(option, getattr(rules, option), t).strip("`")


def options_blocks(t: Lang, tables: Sequence[tuple[str, Rules]] | None = None) -> list[Block]:
    """The reference: a table per group of options (RULES.md §6 order), each option with its
    meaning, the values it may take and its value in each of ``tables`` (a column title and a rule
    set; every preset by default)."""
    tables = tables or [(name, Rules.preset(name)) for name in PRESET_NAMES]
    rule_sets = tuple(rules for _, rules in tables)
    blocks: list[Block] = [
        Heading(1, t("Rule options", "Regeloptionen")),
        Paragraph(
            t(
                "Every rule that varies between tables is an option. Change one for a game with "
                "`rummykit play --set option=value` (several `--set` are allowed), see a house-rule table's "
                "rules with `rummykit rules --explain german --set option=value`, or list one game's "
                "options and values with `rummykit rules --options viennese`. On the web, the lobby offers "
                "the common ones as controls and takes any other as `option=value`.",
                "Jede Regel, die von Tisch zu Tisch wechselt, ist eine Option. Für ein Spiel ändert man "
                "sie mit `rummykit play --set option=wert` (mehrere `--set` sind erlaubt); "
                "`rummykit rules --explain german --set option=wert` zeigt die Regeln eines Tisches mit "
                "Hausregeln, `rummykit rules --options viennese` die Optionen und Werte eines Spiels. Im "
                "Web bietet die Lobby die üblichen als Regler an und nimmt jede andere als `option=wert`.",
            )
        ),
        Paragraph(
            t(
                "A value in `code` is what you type; a column reads – where the option does not apply "
                "to that game, and an option marked fixed takes no other value.",
                "Ein Wert in `code` ist das, was man eintippt; eine Spalte zeigt –, wo die Option in "
                "dem Spiel nicht gilt, und eine feste Option nimmt keinen anderen Wert an.",
            )
        ),
    ]
    columns = (
        t("option", "Option"),
        t("meaning", "Bedeutung"),
        t("values", "Werte"),
        *(c for c, _ in tables),
    )
    rows: list[tuple[str, ...]] = []
    group: tuple[str, str] | None = None
    for option in _options():
        if option in OPTION_GROUPS:
            if rows:
                blocks.append(Table(columns, tuple(rows)))
                rows = []
            group = OPTION_GROUPS[option]
            blocks.append(Heading(2, t(*group)))
        meaning = option_label(option, t).strip("`")
        if meaning == option:
            meaning = ""
        values = tuple(preset_value(rules, option, t) for _, rules in tables)
        rows.append((f"`{option}`", meaning, values_text(option, t, rule_sets), *values))
    if rows:
        blocks.append(Table(columns, tuple(rows)))
    return blocks


def options_markdown(t: Lang, tables: Sequence[tuple[str, Rules]] | None = None, narrow: bool = False) -> str:
    """:func:`options_blocks` as Markdown; ``narrow``: every option as a list item rather than a
    table row (a terminal under 100 columns cut the option names in the table)."""
    blocks = options_blocks(t, tables)
    return to_markdown(tables_as_items(blocks) if narrow else blocks)
