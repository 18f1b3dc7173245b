"""Rules revisions: how rummykit's reading of a rule set has changed, so that an older file is read
with the meaning it was written with, or refused with a message that says why.

A record (:mod:`rummykit.record`) or a saved game holds a rule set as text (``basic(ace_high_in_runs
=true)``) and the actions played under it. When rummykit changes what such a text means (a preset's
default moves), what the engine allows, or how a hand scores, an older file could replay to other
scores without a word, or fail at some action with a message that blames the action. Records
therefore carry the revision they were played under (``"revision"``), and this module lists every
change since the first record format (:data:`CHANGES`):

* ``meaning``: the same text now means other option values. :func:`read_rules` gives an older text
  its old meaning back by naming the options it left to their defaults (exact: rummykit always wrote
  the full text of its rule sets, so what a text left out was the default of its day).
* ``refused_rules``: the text is refused now (an option that never had an effect under the others).
  :func:`read_rules` drops such an option from an older text, which changes nothing in its play.
* ``refuses``: an action once allowed is refused now; the replay of an older record that made it
  stops there, and the message names the change.
* ``scores``: the same actions score differently now; an older record replays to other scores, and
  :func:`changes_since` names the change so that a reader can say so.

Records written before revisions were recorded carry none and are read as revision 0.

When a change of the engine or of a preset touches any of the four, raise :data:`RULES_REVISION` and
add the change here (``tests/test_revisions.py`` holds a copy of every preset's values and fails when
one moves without a new revision).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from rummykit.errors import RulesError
from rummykit.rules import Rules
from rummykit.rules_text import split_rules_text

RULES_REVISION: Final = 1
"""The revision of the rules this version plays: raised with every entry of :data:`CHANGES`."""

ChangeKind = Literal["meaning", "refused_rules", "refuses", "scores"]
Assignments = Mapping[str, str]
"""The ``option=value`` pairs of a rules text, values still text."""


@dataclass(frozen=True, slots=True)
class RuleChange:
    """One change of how rummykit reads or plays a rule set."""

    revision: int
    """The first revision that reads or plays the new way."""
    date: str
    """When it came (YYYY-MM-DD)."""
    kind: ChangeKind
    text: str
    """What changed, in a sentence a player understands."""
    text_de: str
    """The same in German."""
    applies: Callable[[Rules], bool]
    """Whether the change can matter to a game under these rules (as this version reads them)."""
    keep: Callable[[str, Assignments], dict[str, str]] | None = None
    """For ``meaning``: the assignments that give an older text (its preset's name and its
    assignments) the meaning it had."""


def _melding(rules: Rules) -> bool:
    return not rules.is_knock_game


def _basic_ace_penalty(preset: str, assignments: Assignments) -> dict[str, str]:
    """Before revision 1, ``basic(ace_high_in_runs=true)`` still counted a left-over ace 1."""
    high = assignments.get("ace_high_in_runs", "").strip().lower() == "true"
    if preset == "basic" and high and "penalty_ace" not in assignments:
        return {"penalty_ace": "1"}
    return {}


def _no_knock(preset: str, assignments: Assignments) -> dict[str, str]:
    """``knock_threshold = 1`` under ``lt`` (no knock) is written ``knock_threshold = 0`` now."""
    comparison = assignments.get("knock_comparison", Rules.preset(preset).knock_comparison)
    if assignments.get("knock_threshold", "").strip() == "1" and comparison.strip() == "lt":
        return {"knock_threshold": "0"}
    return {}


CHANGES: Final[tuple[RuleChange, ...]] = (
    RuleChange(
        revision=1,
        date="2026-12-04",
        kind="refuses",
        text="a player who took the top discard may no longer lay down every other card and go out by "
        "discarding it (D15 holds without exception)",
        text_de="wer die oberste Karte des Ablagestapels nimmt, darf nicht mehr alle anderen Karten "
        "auslegen und mit ihr ausmachen (D15 ohne Ausnahme)",
        applies=lambda rules: _melding(rules) and not rules.may_discard_taken_discard,
    ),
    RuleChange(
        revision=1,
        date="2026-12-05",
        kind="meaning",
        text="in Basic Rummy a left-over ace counts 11 once aces may be high (ace_high_in_runs = true "
        "moves penalty_ace to 11); older texts that left penalty_ace out meant 1",
        text_de="bei Basic Rummy zählt ein übrig gebliebenes Ass 11, sobald Asse hoch sein dürfen; "
        "ältere Texte ohne penalty_ace meinten 1",
        applies=lambda rules: rules.name == "basic" and rules.ace_high_in_runs,
        keep=_basic_ace_penalty,
    ),
    RuleChange(
        revision=1,
        date="2026-12-05",
        kind="refuses",
        text="a player may no longer discard a card that could be laid off while a lay-off keeps a "
        "card to discard (the bar on discarding a playable card)",
        text_de="eine anlegbare Karte darf nicht mehr abgeworfen werden, solange ein Anlegen eine "
        "Karte zum Abwerfen übrig lässt (Abwurfverbot für anlegbare Karten)",
        applies=lambda rules: _melding(rules) and not rules.discard_playable_card_allowed,
    ),
    RuleChange(
        revision=1,
        date="2026-12-05",
        kind="meaning",
        text="knock_threshold = 1 under knock_comparison = lt admits no knock and is refused; "
        "knock_threshold = 0 says the same",
        text_de="knock_threshold = 1 mit knock_comparison = lt lässt kein Klopfen zu und wird "
        "abgelehnt; knock_threshold = 0 sagt dasselbe",
        applies=lambda rules: rules.is_knock_game and rules.knock_threshold == 0,
        keep=_no_knock,
    ),
    RuleChange(
        revision=1,
        date="2026-12-05",
        kind="scores",
        text="a gin is never undercut: with gin_bonus = 0 and undercut_on_tie = true, a gin against a "
        "defender who melds every card scores 0 to 0 (it cost the knocker the undercut bonus)",
        text_de="ein Gin wird nie unterboten: mit gin_bonus = 0 und undercut_on_tie = true zählt ein "
        "Gin gegen einen Gegner, der alle Karten in Figuren hat, 0 zu 0 (vorher kostete er den "
        "Unterbietungsbonus)",
        applies=lambda rules: rules.is_gin and rules.gin_bonus == 0 and rules.undercut_on_tie,
    ),
)


def changes_since(
    revision: int, rules: Rules, kinds: tuple[ChangeKind, ...] = ("refuses", "scores")
) -> tuple[RuleChange, ...]:
    """The changes after ``revision`` that can matter to a game under ``rules``, of the given kinds
    (by default those that :func:`read_rules` cannot undo: refused actions and other scores)."""
    return tuple(c for c in CHANGES if c.revision > revision and c.kind in kinds and c.applies(rules))


@dataclass(frozen=True, slots=True)
class ReadNote:
    """One thing reading an older rules text took, in English and German."""

    en: str
    de: str

    def text(self, lang: str = "en") -> str:
        return self.de if lang == "de" else self.en


@dataclass(frozen=True, slots=True)
class ReadRules:
    """A rules text read as its revision meant it."""

    rules: Rules
    notes: tuple[ReadNote, ...] = ()
    """What reading it took: options named to keep the old meaning, options dropped that had no
    effect."""


def read_rules(text: str, revision: int) -> ReadRules:
    """The rule set an older text of ``revision`` meant (``Rules.parse(text)`` at the current one).

    ``meaning`` changes after ``revision`` name the options the text left to their old defaults;
    options the current rules refuse and that have no effect under the rest are dropped (they changed
    nothing then either).

    >>> read = read_rules("basic(ace_high_in_runs=true)", revision=0)
    >>> read.rules.penalty_ace, Rules.parse("basic(ace_high_in_runs=true)").penalty_ace
    (1, 11)

    Raises:
        RulesError: the text is malformed, names an unknown preset or option, or is refused for
            another reason; for an older revision the message says so.
    """
    if revision >= RULES_REVISION:
        return ReadRules(Rules.parse(text))
    preset, pairs = split_rules_text(text)
    name = Rules.preset(preset).name
    assignments = dict(pairs)
    notes: list[ReadNote] = []
    for change in CHANGES:
        if change.revision > revision and change.keep is not None:
            kept = change.keep(name, assignments)
            if kept:
                assignments.update(kept)
                named = ", ".join(f"{k}={v}" for k, v in kept.items())
                notes.append(
                    ReadNote(
                        f"read with {named}, the meaning the text had ({change.date}: {change.text})",
                        f"gelesen mit {named}, wie der Text gemeint war ({change.date}: {change.text_de})",
                    )
                )
    dropped: dict[str, RulesError] = {}
    while True:
        try:
            rules = _parse(name, assignments)
            break
        except RulesError as refused:
            if refused.option is None or refused.option not in assignments:
                raise _older(refused, revision) from None
            dropped[refused.option] = refused
            assignments = {k: v for k, v in assignments.items() if k != refused.option}
    for option, refusal in dropped.items():
        reason = rules.not_applicable(option)
        if reason is None:
            raise _older(refusal, revision)
        notes.append(
            ReadNote(
                f"{option} dropped: it has no effect under these rules ({reason})",
                f"{option} entfällt: die Regel wirkt unter diesen Regeln nicht",
            )
        )
    return ReadRules(rules, tuple(notes))


def _parse(preset: str, assignments: Mapping[str, str]) -> Rules:
    if not assignments:
        return Rules.preset(preset)
    body = ", ".join(f"{k}={v}" for k, v in assignments.items())
    return Rules.parse(f"{preset}({body})")


def _older(exc: RulesError, revision: int) -> RulesError:
    """``exc`` with a word that the text comes from an older rummykit."""
    return RulesError(f"{exc} (the text {written(revision)})", option=exc.option)


def written(revision: int, lang: str = "en") -> str:
    """When a file of the older ``revision`` was written, as the end of a sentence about it (``en``
    or ``de``)."""
    if lang == "de":
        if revision == 0:
            return (
                "stammt von einem älteren rummykit, aus der Zeit, bevor Aufzeichnungen ihre "
                "Regelfassung nannten"
            )
        return (
            f"wurde unter Regelfassung {revision} geschrieben; diese Version spielt Fassung {RULES_REVISION}"
        )
    if revision == 0:
        return "was written by an older rummykit, before records named their rules revision"
    return f"was written under rules revision {revision}; this version plays revision {RULES_REVISION}"


def older_text(revision: int, changes: tuple[RuleChange, ...], lang: str = "en") -> str:
    """What follows a failed replay's message for a record older than its rules: when it was written
    and the ``changes`` since that refuse actions under its rules; ``""`` when there are none."""
    if revision >= RULES_REVISION or not changes:
        return ""
    if lang == "de":
        listed = "; ".join(f"{c.date}: {c.text_de}" for c in changes)
        return f". Die Aufzeichnung {written(revision, lang)}; seitdem gilt: {listed}"
    listed = "; ".join(f"{c.date}: {c.text}" for c in changes)
    return f". The record {written(revision)}; since then {listed}"
