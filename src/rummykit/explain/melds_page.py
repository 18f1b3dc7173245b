"""The melds section of a player's page (sets, runs, jokers): which melds the page's rules allow,
shown on examples the engine judges (RULES.md §8.1), so the page cannot contradict the game."""

from __future__ import annotations

from typing import Final

from rummykit.errors import IllegalMeldError
from rummykit.explain.document import Block, Bullets, Heading, Paragraph, Table
from rummykit.explain.language import Lang, cards
from rummykit.melds import Meld
from rummykit.rules import Rules

MELD_EXAMPLES: Final = (
    "7H 7S 7D",
    "4C 5C 6C 7C",
    "AH 2H 3H",
    "QC KC AC",
    "KS AS 2S",
    "7H 7H 7S",
    "5H 6H JK",
    "3S JK JK 6S",
    "JK JK 5D 5C",
    "3S JK JK",
)
"""Melds whose verdict under the page's rules is shown (RULES.md §8.1)."""


def legal(text: str, rules: Rules) -> bool:
    try:
        Meld.parse(text, rules)
    except IllegalMeldError:
        return False
    return True


def meld_value(text: str, rules: Rules) -> int:
    return Meld.parse(text, rules).value


def joker_limit_text(rules: Rules, t: Lang) -> str:
    return {
        "jokers_le_naturals": t(
            "A meld may hold no more jokers than natural cards.",
            "Eine Figur darf nicht mehr Joker als echte Karten enthalten.",
        ),
        "min_two_naturals": t(
            "A meld needs at least two natural cards; jokers are otherwise free.",
            "Eine Figur braucht mindestens zwei echte Karten; sonst sind Joker frei.",
        ),
        "max_one_joker_per_meld": t(
            "A meld may hold one joker at most.", "Eine Figur darf höchstens einen Joker enthalten."
        ),
        "at_least_one_natural": t(
            "A meld needs at least one natural card, a set two: one natural card with jokers is a run.",
            "Eine Figur braucht mindestens eine echte Karte, ein Satz zwei: "
            "Eine echte Karte mit Jokern ist eine Folge.",
        ),
    }[rules.joker_limit]


def melds(rules: Rules, t: Lang) -> list[Block]:
    where = (
        t(
            "Melds are groups you form in your hand; they are shown only at the end of the hand. ",
            "Figuren bildet man auf der Hand; gezeigt werden sie erst am Ende des Spiels. ",
        )
        if rules.is_knock_game
        else ""
    )
    sizes = (
        f"{rules.set_size_min}"
        if rules.set_size_min == rules.set_size_max
        else t(
            f"{rules.set_size_min} or {rules.set_size_max}", f"{rules.set_size_min} oder {rules.set_size_max}"
        )
    )
    suits = (
        t(", each of a different suit", ", jede in einer anderen Farbe")
        if rules.set_distinct_suits
        else t(" (suits may repeat)", " (Farben dürfen sich wiederholen)")
    )
    items = [
        t(
            f"**Set**: {sizes} cards of the same rank{suits}, e.g. {cards('7H 7S 7D')}.",
            f"**Satz**: {sizes} Karten gleichen Werts{suits}, z. B. {cards('7H 7S 7D')}.",
        ),
        t(
            f"**Run**: 3 or more cards of one suit in sequence, e.g. {cards('4C 5C 6C 7C')}.",
            f"**Folge**: 3 oder mehr Karten einer Farbe in lückenloser Reihe, z. B. {cards('4C 5C 6C 7C')}.",
        ),
    ]
    ace = []
    if rules.ace_low_in_runs:
        ace.append(cards("AH 2H 3H"))
    if rules.ace_high_in_runs:
        ace.append(cards("QC KC AC"))
    if ace:
        items.append(
            t(
                f"The ace may be used in runs as {t.join(ace)}, never around the corner "
                f"({cards('KS AS 2S')}).",
                f"Das Ass passt in Folgen als {t.join(ace)}, nie um die Ecke ({cards('KS AS 2S')}).",
            )
        )
    longest_fits = not rules.is_knock_game or rules.hand_size >= 14
    if rules.allow_ace_both_ends and rules.ace_low_in_runs and rules.ace_high_in_runs and longest_fits:
        items.append(
            t(
                "The longest run goes from ace to ace: A 2 … K A (14 cards, with two aces).",
                "Die längste Folge geht von Ass zu Ass: A 2 … K A (14 Karten, mit zwei Assen).",
            )
        )
    elif rules.ace_low_in_runs and rules.ace_high_in_runs and longest_fits:
        # Said where players of a game with the 14-card run would assume it (German Rummy has it).
        items.append(
            t(
                "A run holds one ace at most, at one end: the longest run has 13 cards (A 2 … K or "
                "2 … K A), and A 2 … K A is no meld.",
                "Eine Folge hat höchstens ein Ass, an einem Ende: Die längste Folge hat 13 Karten (A 2 … K "
                "oder 2 … K A); A 2 … K A ist keine Figur.",
            )
        )
    jokers = [
        t(
            "A joker (JK) stands for any card. In a run its place decides which card; at an open end "
            + (
                "you say which card it is (the higher one if you don't)."
                if rules.joker_end_assignment == "declared"
                else "it stands for the higher card where possible."
            ),
            "Ein Joker (JK) ersetzt jede Karte. In einer Folge bestimmt sein Platz, welche; an einem offenen "
            "Ende "
            + (
                "sagt man an, welche Karte er ist (sonst die höhere)."
                if rules.joker_end_assignment == "declared"
                else "steht er, wo möglich, für die höhere Karte."
            ),
        ),
        joker_limit_text(rules, t),
    ]
    if rules.max_adjacent_jokers is not None and rules.joker_limit != "max_one_joker_per_meld":
        jokers.append(
            t(
                f"At most {rules.max_adjacent_jokers} jokers may lie side by side in a run.",
                f"Höchstens {rules.max_adjacent_jokers} Joker dürfen in einer Folge nebeneinander liegen.",
            )
        )
    rows = tuple((cards(text), t.yes_no(legal(text, rules))) for text in MELD_EXAMPLES)
    return [
        Heading(2, t("Melds: sets and runs", "Figuren: Sätze und Folgen")),
        *([Paragraph(where.strip())] if where else []),
        Bullets(tuple(items)),
        Heading(3, t("Jokers", "Joker")),
        Bullets(tuple(jokers)),
        Paragraph(t("Examples under these rules:", "Beispiele nach diesen Regeln:")),
        Table((t("meld", "Figur"), t("allowed", "erlaubt")), rows),
    ]
