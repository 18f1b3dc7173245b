"""How to type cards, melds and moves at the terminal's prompt (``rummykit play``), for the pages a
reader types from (the terminal, the documentation); a browser's page leaves the section out.

Every example is one the terminal reads (:func:`rummykit.cli.parsing.parse_input`): rank then suit
letter, the German rank letters too (``DD`` is the queen of diamonds), a card by its position in the
hand, a meld's cards in order with a joker in its place, several melds of an opening split by ``|``.
"""

from __future__ import annotations

from rummykit.explain.document import Block, Bullets, Heading
from rummykit.explain.language import Lang, cards
from rummykit.rules import Rules


def card_typing(rules: Rules, t: Lang) -> str:
    """How a card is typed: rank, then the suit's English letter; or its position in the hand."""
    jokers = rules.jokers_total > 0
    return t(
        "Type a card as rank then suit letter: C clubs ♣, D diamonds ♦, H hearts ♥, S spades ♠ "
        f"(`7H`, `10C`, `QS`{', `JK`' if jokers else ''}), or by its position in your hand as shown "
        "(`x 5` discards your fifth card).",
        "Beim Eintippen steht die Farbe als englischer Buchstabe hinter dem Wert: C = Kreuz, D = Karo, "
        f"H = Herz, S = Pik (`DD` = Karo-Dame, `10S` = Pik-10{', `JK` = Joker' if jokers else ''}) – oder "
        "die Position in der Hand (`x 5` wirft die fünfte Karte ab). Die internationalen Buchstaben "
        "J (Bube) und Q (Dame) gelten auch; `--letters en` zeigt sie im Terminal an.",
    )


def move_typing(rules: Rules, t: Lang) -> list[str]:
    """The moves of the family as typed: melds and lay-offs, a knock, gin's one-line knock."""
    if rules.is_gin:
        return [
            t(
                "`knock QS` knocks, discards Q♠ and lays your best arrangement, all at once.",
                "`knock DS` (oder `klopfen DS`) klopft, wirft D♠ ab und legt die beste Aufteilung aus, "
                "alles auf einmal.",
            )
        ]
    if rules.is_knock_game:
        return [
            t(
                "`knock QS` discards Q♠ and knocks; `rummy QS` calls Rummy with Q♠ as the last card.",
                "`klopfen DS` wirft D♠ ab und klopft; `rummy DS` ruft Rummy mit D♠ als letzter Karte.",
            )
        ]
    run = "9C 10C JK QC" if rules.jokers_total else "9C 10C JC QC"
    run_de = run.replace("JC", "BC").replace("QC", "DC")
    joker = t(" with the joker in its place", ", der Joker an seinem Platz") if rules.jokers_total else ""
    items = [
        t(
            f"Type a meld's cards in order, runs low to high{joker}: `meld {run}` lays {cards(run)}. "
            "Several melds laid at once (an opening) are split by `|`: "
            f"`meld 7C 7D 7S | {run}`.",
            f"Die Karten einer Figur der Reihe nach eintippen, Folgen von unten nach oben{joker}: "
            f"`auslegen {run_de}` legt {cards(run)} aus. Mehrere Figuren auf einmal (die Erstmeldung) "
            f"trennt `|`: `auslegen 7C 7D 7S | {run_de}`.",
        ),
        t(
            "`layoff 8H on 2` lays 8♥ off on meld 2 of the table (the melds are numbered as shown).",
            "`anlegen 8H 2` legt 8♥ an Figur 2 auf dem Tisch an (die Figuren sind nummeriert wie angezeigt).",
        ),
    ]
    return items


def terminal(rules: Rules, t: Lang) -> list[Block]:
    """The section "Playing in the terminal" (none on a browser's page)."""
    if not t.commands:
        return []
    items = [card_typing(rules, t), *move_typing(rules, t)]
    items.append(
        t(
            "At the prompt, `help` lists your legal moves, `hint` suggests one and `rules` shows this page.",
            "An der Eingabe zeigt `hilfe` die erlaubten Züge, `tipp` schlägt einen vor und `regeln` zeigt "
            "diese Seite.",
        )
    )
    return [Heading(2, t("Playing in the terminal", "Im Terminal spielen")), Bullets(tuple(items))]
