"""Rules revisions: how rummykit's reading of a rule set has changed, so that an older file is read
with the meaning it was written with, or refused with a message that says why.

A record (:mod:`rummykit.record`) or a saved game holds a rule set as text (``basic(ace_high_in_runs
=true)``) and the actions played under it. When rummykit changes what such a text means (a preset's
default moves), what the engine allows, or how a hand scores, an older file could replay to other
scores without a word, or fail at some action with a message that blames the action. Records
therefore carry the revision they were played under (``"revision"``), and this module lists every
change since the first record format (:data:`CHANGES`):

* ``meaning``: the same text now means other option values. :func:`read_rules` gives an older text
  its old meaning back by naming the options it left to their defaults, where the file can tell
  (rummykit writes a rule set as its preset and every option that differs from it, so what a text
  leaves out was the default of its day).
* An option that has no effect under the others is refused now (it was accepted and did nothing):
  :func:`read_rules` drops it from an older text, which changes nothing in its play. Other texts
  refused now (a number out of its range, a combination that cannot be played) stay refused, with a
  word that the text is older.
* ``refuses``: an action once allowed is refused now; the replay of an older record that made it
  stops there, and the message names the change.
* ``plays``: the same actions deal or score differently now (another dealer, other cards drawn,
  another hand size, other points); an older record may replay to another game without an error,
  and :func:`changes_since` names the change so that a reader can say so. Where the old meaning
  cannot be told from the file (a text whose meaning changed on a day that files of revision 0 span),
  the change is listed here too, not undone.

Records written before revisions were recorded carry none and are read as revision 0.

When a change of the engine or of a preset is of any of these kinds, raise :data:`RULES_REVISION` and
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

RULES_REVISION: Final = 3
"""The revision of the rules this version plays: raised with every entry of :data:`CHANGES`."""

ChangeKind = Literal["meaning", "refuses", "plays"]
Assignments = Mapping[str, str]
"""The ``option=value`` pairs of a rules text, values still text."""
Keep = Callable[[str, Assignments], dict[str, str]]
"""``(preset, assignments) -> assignments``: what gives an older text its old meaning."""


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
    keep: Keep | None = None
    """For ``meaning``: the assignments that give an older text (its preset's name and its
    assignments) the meaning it had."""
    rule: str | None = None
    """For ``refuses``: the rule id the engine refuses the old action with, when it is known; a failed
    replay refused under that rule names this change alone."""

    @property
    def date_de(self) -> str:
        """:attr:`date` as a German sentence writes it: ``5.12.2026``."""
        year, month, day = self.date.split("-")
        return f"{int(day)}.{int(month)}.{year}"


def _melding(rules: Rules) -> bool:
    return not rules.is_knock_game


def _knock(rules: Rules) -> bool:
    return rules.is_knock_game and not rules.is_gin


def _basic_ace_penalty(preset: str, assignments: Assignments) -> dict[str, str]:
    """Before revision 1, ``basic(ace_high_in_runs=true)`` still counted a left-over ace 1 (rummykit
    wrote ``penalty_ace`` into the text whenever it was not 1)."""
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


def _change(
    date: str,
    kind: ChangeKind,
    text: str,
    text_de: str,
    applies: Callable[[Rules], bool],
    keep: Keep | None = None,
    rule: str | None = None,
    revision: int = 1,
) -> RuleChange:
    return RuleChange(revision, date, kind, text, text_de, applies, keep, rule)


CHANGES: Final[tuple[RuleChange, ...]] = (
    _change(
        "2026-11-29",
        "plays",
        "when the stock runs out and the pile is turned over, it is turned face down as it lay, so the "
        "cards drawn after it differ",
        "wenn der Stoß aufgebraucht ist und die Ablage umgedreht wird, liegt sie verdeckt wie "
        "zuvor, sodass danach andere Karten gezogen werden",
        lambda rules: rules.stock_exhaustion == "turn_over_all_if_declined",
    ),
    _change(
        "2026-12-01",
        "refuses",
        "a player is offered a buy-back only where it lowers their total below the highest other one",
        "ein Rückkauf wird nur angeboten, wo er den Stand unter den höchsten anderen senkt",
        lambda rules: _knock(rules) and rules.match_end == "elimination_last_survivor",
    ),
    _change(
        "2026-12-01",
        "refuses",
        "under joker_end_assignment = upward_default a joker that fits at the top of a run is laid "
        "there, never at the low end",
        "mit joker_end_assignment = upward_default kommt ein Joker, der oben an eine Folge passt, "
        "immer nach oben",
        lambda rules: rules.joker_end_assignment == "upward_default" and rules.jokers_total > 0,
    ),
    _change(
        "2026-12-04",
        "refuses",
        "a player who took the top discard may no longer lay down every other card and go out by "
        "discarding it (D15 holds without exception)",
        "wer die oberste Karte der Ablage nimmt, darf nicht mehr alle anderen Karten "
        "auslegen und mit ihr ausmachen (D15 ohne Ausnahme)",
        lambda rules: (
            _melding(rules) and not rules.may_discard_taken_discard and not rules.discard_pickup_requires_meld
        ),  # a card that must be laid is never barred
        rule="may_discard_taken_discard",
    ),
    _change(
        "2026-12-05",
        "refuses",
        "a player who took the top discard may not call Rummy by laying that card away",
        "wer die oberste Karte der Ablage nimmt, darf nicht Rummy rufen, indem er sie weglegt",
        lambda rules: _knock(rules) and not rules.may_discard_taken_discard,
        rule="may_discard_taken_discard",
    ),
    _change(
        "2026-12-05",
        "plays",
        "hand_size_rule = by_player_count deals rummy.ch's 13 cards (2–4 players) or 11 (5–6) outside "
        "Basic Rummy; a file written before 2026-12-05 dealt Basic Rummy's 10/7/6 (write "
        "hand_size_rule=fixed and that hand size into its rules to read it as it was played)",
        "hand_size_rule = by_player_count gibt außerhalb von Basic Rummy 13 Karten (2–4 Spieler) oder "
        "11 (5–6); eine Datei von vor dem 5.12.2026 gab die 10/7/6 von Basic Rummy (mit "
        "hand_size_rule=fixed und dieser Kartenzahl in ihren Regeln liest man sie, wie sie gespielt wurde)",
        lambda rules: rules.name != "basic" and rules.hand_size_rule == "by_player_count",
    ),
    _change(
        "2026-12-05",
        "meaning",
        "in Basic Rummy a left-over ace counts 11 once aces may be high (ace_high_in_runs = true "
        "moves penalty_ace to 11); older texts that left penalty_ace out meant 1",
        "bei Basic Rummy zählt ein übrig gebliebenes Ass 11, sobald Asse hoch sein dürfen; "
        "ältere Texte ohne penalty_ace meinten 1",
        lambda rules: rules.name == "basic" and rules.ace_high_in_runs,
        _basic_ace_penalty,
    ),
    _change(
        "2026-12-05",
        "refuses",
        "a hand ends dead, not scored, after max_takes_in_a_row (50) turns in a row that began by "
        "taking the discard",
        "ein Spiel endet ohne Wertung nach max_takes_in_a_row (50) Zügen hintereinander, die mit "
        "einer Karte von der Ablage begannen",
        lambda rules: rules.not_applicable("max_takes_in_a_row") is None,
    ),
    _change(
        "2026-12-05",
        "plays",
        "a knock is scored although the takes in a row reach their bound in the extra turns after it",
        "ein Klopfen zählt, auch wenn die Aufnahmen hintereinander in den Zusatzzügen danach ihre Grenze "
        "erreichen",
        lambda rules: _knock(rules) and rules.knock_extra_turn,
    ),
    _change(
        "2026-12-05",
        "plays",
        "a Hand-Rommé is the whole hand laid in one turn: going out by lay-offs alone doubles too, "
        "and a lay-off in an earlier turn spoils the double",
        "ein Hand-Rommé ist die ganze Hand in einem Zug: auch nur durch Anlegen ausgemacht zählt "
        "doppelt, und ein Anlegen in einem früheren Zug verdirbt das Doppelte",
        lambda rules: (
            _melding(rules)
            and rules.hand_romme_multiplier == 2
            and not (rules.layoff_requires_opened and rules.joker_exchange_requires_opened)
        ),
    ),
    _change(
        "2026-12-05",
        "refuses",
        "a player may no longer discard a card that could be laid off while a lay-off keeps a "
        "card to discard (the bar on discarding a playable card)",
        "eine anlegbare Karte darf nicht mehr abgeworfen werden, solange ein Anlegen eine "
        "Karte zum Abwerfen übrig lässt (Abwurfverbot für anlegbare Karten)",
        lambda rules: _melding(rules) and not rules.discard_playable_card_allowed,
        rule="discard_playable_card_allowed",
    ),
    _change(
        "2026-12-05",
        "refuses",
        "opening below the minimum and going out at once is a Hand-Rommé only without an earlier "
        "lay-off or joker exchange",
        "unter dem Mindestwert auslegen und sofort ausmachen ist nur ohne früheres Anlegen oder "
        "früheren Jokertausch ein Hand-Rommé",
        lambda rules: (
            _melding(rules)
            and not rules.hand_romme_requires_opening_min
            and (rules.opening_min_points or 0) > 0
            and not (rules.layoff_requires_opened and rules.joker_exchange_requires_opened)
        ),
    ),
    _change(
        "2026-12-05",
        "refuses",
        "a player who has not opened may take the top discard only when an opening reaches the "
        "minimum without it",
        "wer noch nicht ausgelegt hat, darf die oberste Karte der Ablage nur nehmen, wenn ein erstes "
        "Auslegen ohne sie den Mindestwert erreicht",
        lambda rules: (
            _melding(rules)
            and not rules.opening_counts_taken_discard
            and (
                rules.discard_pickup_requires_meld
                or rules.discard_pickup_requires_opened == "opened_or_opening_with_it"
            )
        ),
    ),
    _change(
        "2026-12-05",
        "meaning",
        "knock_threshold = 1 under knock_comparison = lt admits no knock and is refused; "
        "knock_threshold = 0 says the same",
        "knock_threshold = 1 mit knock_comparison = lt lässt kein Klopfen zu und wird "
        "abgelehnt; knock_threshold = 0 sagt dasselbe",
        lambda rules: rules.is_knock_game and rules.knock_threshold == 0,
        _no_knock,
    ),
    _change(
        "2026-12-06",
        "plays",
        "a gin is never undercut: with gin_bonus = 0 and undercut_on_tie = true, a gin against a "
        "defender who melds every card scores 0 to 0 (it cost the knocker the undercut bonus)",
        "ein Gin wird nie unterboten: mit gin_bonus = 0 und undercut_on_tie = true zählt ein "
        "Gin gegen einen Gegner, der alle Karten in Figuren hat, 0 zu 0 (vorher kostete er den "
        "Bonus fürs Unterbieten)",
        lambda rules: rules.is_gin and rules.gin_bonus == 0 and rules.undercut_on_tie,
    ),
    _change(
        "2026-12-06",
        "refuses",
        "a gin hand whose cards all lie in melds of three is knocked only with a discard that stays "
        "within the knock card",
        "ein Gin-Blatt, dessen Karten alle in Dreierfiguren liegen, darf nur mit einem Abwurf "
        "klopfen, der innerhalb der Klopfgrenze bleibt",
        lambda rules: (
            rules.is_gin and rules.eleven_card_deadwood == "openspiel" and (rules.hand_size + 1) % 3 == 0
        ),
    ),
    _change(
        "2026-12-06",
        "plays",
        "under deal_rotation = winner_deals the defender who undercut deals the next gin hand",
        "mit deal_rotation = winner_deals gibt nach einem Unterbieten der andere Spieler (nicht der "
        "Klopfende) das nächste Gin-Spiel",
        lambda rules: (
            rules.is_gin and rules.deal_rotation == "winner_deals" and rules.match_end != "single_hand"
        ),
    ),
    # Revision 2. Options that cannot matter under the rest of the rules are refused now (among
    # them max_adjacent_jokers under max_one_joker_per_meld, deal_rotation with num_hands = 1,
    # undercut_on_tie with undercut_bonus = 0): read_rules drops them from an older text.
    _change(
        "2026-12-06",
        "refuses",
        "under joker_limit = at_least_one_natural a set needs two natural cards: one natural card with "
        "jokers is a run, and a discard that only such a set could meld is no longer offered",
        "mit joker_limit = at_least_one_natural braucht ein Satz zwei echte Karten: eine echte Karte "
        "mit Jokern ist eine Folge, und eine Karte der Ablage, die nur ein solcher Satz auslegen "
        "könnte, wird nicht mehr angeboten",
        lambda rules: rules.joker_limit == "at_least_one_natural" and rules.jokers_total > 0,
        revision=2,
    ),
    _change(
        "2026-12-06",
        "refuses",
        "under may_discard_taken_discard = false a gin knock is offered only where a discard other than "
        "the card just taken keeps the deadwood within the knock card (the knock left no legal move)",
        "mit may_discard_taken_discard = false darf man im Gin nur klopfen, wo ein anderer Abwurf als "
        "die eben genommene Karte die Restpunkte innerhalb der Klopfgrenze hält (das Klopfen ließ "
        "keinen erlaubten Zug übrig)",
        lambda rules: rules.is_gin and not rules.may_discard_taken_discard,
        rule="may_discard_taken_discard",
        revision=3,
    ),
)


def refusing(revision: int, rules: Rules, rule: str | None) -> tuple[RuleChange, ...]:
    """The changes after ``revision`` that may be why an action of a game under ``rules`` is refused
    under ``rule`` now: the ``refuses`` changes of that rule when any is, else every change that
    refuses actions or plays differently (another deal makes a later action fail too)."""
    found = changes_since(revision, rules, ("refuses", "plays"))
    named = tuple(c for c in found if c.kind == "refuses" and c.rule is not None and c.rule == rule)
    return named or found


def changes_since(
    revision: int, rules: Rules, kinds: tuple[ChangeKind, ...] = ("refuses", "plays")
) -> tuple[RuleChange, ...]:
    """The changes after ``revision`` that can matter to a game under ``rules``, of the given kinds
    (by default those that :func:`read_rules` cannot undo: refused actions and other play)."""
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
                        f"gelesen mit {named}, wie der Text gemeint war ({change.date_de}: {change.text_de})",
                    )
                )
    dropped: dict[str, RulesError] = {}
    while True:
        try:
            rules = _parse(name, assignments)
            break
        except RulesError as refused:
            if refused.option not in assignments:
                raise OlderRulesError(refused, revision) from None
            dropped[refused.option] = refused
            assignments = {k: v for k, v in assignments.items() if k != refused.option}
    for option, refusal in dropped.items():
        reason = rules.not_applicable(option)
        if reason is None:
            raise OlderRulesError(refusal, revision)
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


class OlderRulesError(RulesError):
    """The rules text of an older file, refused by this version: ``cause`` is the refusal, and
    ``revision`` the rules revision the file was written under."""

    def __init__(self, cause: RulesError, revision: int) -> None:
        super().__init__(f"{cause} (the text {written(revision)})", option=cause.option)
        self.cause = cause
        self.revision = revision


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


def _listed(changes: tuple[RuleChange, ...], lang: str) -> str:
    """``changes`` one after another, each with its date, in ``lang``."""
    return "; ".join(f"{c.date_de}: {c.text_de}" if lang == "de" else f"{c.date}: {c.text}" for c in changes)


def older_text(
    revision: int, changes: tuple[RuleChange, ...], lang: str = "en", *, table: bool = False
) -> str:
    """What follows a failed replay's message for a record (``table``: a server's stored table) older
    than its rules: when it was written and the ``changes`` since that refuse actions under its rules;
    ``""`` when there are none."""
    if revision >= RULES_REVISION or not changes:
        return ""
    when, listed = written(revision, lang), _listed(changes, lang)
    if lang == "de":
        if table:
            return f". Der Tisch {when.replace('geschrieben', 'gespeichert')}; seitdem gilt: {listed}"
        return f". Die Aufzeichnung {when}; seitdem gilt: {listed}"
    if table:
        return f". The table {when.replace('written', 'stored')}; since then {listed}"
    return f". The record {when}; since then {listed}"


def plays_text(revision: int, changes: tuple[RuleChange, ...], lang: str = "en") -> str:
    """The sentence for a record older than its rules that replays, naming the ``changes`` since that
    deal or score its actions otherwise; ``""`` when there are none."""
    if revision >= RULES_REVISION or not changes:
        return ""
    if lang == "de":
        when = written(revision, lang)
        return f"Die Aufzeichnung {when}; sie kann heute anders laufen oder zählen: {_listed(changes, lang)}"
    return f"The record {written(revision)}; it may play or score differently now: {_listed(changes, lang)}"
