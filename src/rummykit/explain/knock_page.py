"""The knock games on a player's page (Viennese Rummy and its kin): the turn, deadwood, knocking
and Rummy, with the knock limit of the page's rules and deadwood the solver counts."""

from __future__ import annotations

from typing import Final

from rummykit import solver
from rummykit.cards import parse_cards
from rummykit.explain.document import Block, Bullets, Heading, Paragraph
from rummykit.explain.language import Lang, cards
from rummykit.explain.scoring_page import match_end_text
from rummykit.explain.terms import holding_text, taken_discard_bar
from rummykit.rules import Rules

DEADWOOD_MELDS: Final = ("7H 8H 9H", "QC QD QS", "4C 5C 6C", "9D 9C 9S")
DEADWOOD_EXTRA: Final = ("3D", "2S", "AH")


def knock_condition(rules: Rules, t: Lang) -> str:
    limit = rules.knock_threshold
    if rules.knock_comparison == "lt":
        return t(
            f"Knock with deadwood below {limit} points", f"Klopfen mit weniger als {limit} Restpunkten"
        )
    return t(
        f"Knock with deadwood of {limit} points or less", f"Klopfen mit höchstens {limit} Restpunkten"
    )


def knock_turn(rules: Rules, t: Lang) -> list[Block]:
    items = [
        t(
            "**Draw** the top card of the stock or the top card of the discard pile.",
            "**Ziehen**: die oberste Karte vom Stoß oder von der Ablage.",
        ),
        t(
            "**Discard** one card face up. Instead of a plain discard you may **knock** or call **Rummy** "
            "(below).",
            "**Abwerfen**: eine Karte offen ablegen. Statt einfach abzuwerfen darf man **klopfen** oder "
            "**Rummy** rufen (unten).",
        ),
    ]
    if not rules.may_discard_taken_discard:
        items.append(taken_discard_bar(rules, t) + ".")
    items.append(
        t(
            "Nothing is laid on the table: melds stay in your hand, nobody **lays off** (adds cards to "
            "someone's meld) and nobody exchanges jokers.",
            "Auf den Tisch kommt nichts: die Figuren bleiben auf der Hand, niemand **legt an** (fügt "
            "Karten an eine Figur an), niemand tauscht Joker.",
        )
    )
    return [Heading(2, t("Your turn", "Der Zug")), Bullets(tuple(items))]


def knock_limit_words(rules: Rules, t: Lang) -> str:
    """``below 5`` / ``of 8 or less`` (``unter 5`` / ``von höchstens 8``)."""
    limit = rules.knock_threshold
    if rules.knock_comparison == "lt":
        return t(f"below {limit}", f"unter {limit}")
    return t(f"of {limit} or less", f"von höchstens {limit}")


def may_knock_with(rules: Rules, deadwood: int) -> bool:
    """Whether a hand with ``deadwood`` left after the discard may knock under ``rules``."""
    limit = rules.knock_threshold
    assert limit is not None
    return 0 < deadwood < limit if rules.knock_comparison == "lt" else 0 < deadwood <= limit


def overview(rules: Rules, t: Lang) -> list[Block]:
    """How a hand goes, in a few sentences built from the options, before any detail."""
    hold = holding_text(rules, t)
    limit = knock_limit_words(rules, t)
    after = (
        t(
            " After a knock everybody else has one more turn.",
            " Nach dem Klopfen hat jeder andere noch einen Zug.",
        )
        if rules.knock_extra_turn
        else ""
    )
    knocker = (
        "" if rules.knocker_scores_own_deadwood else t(" (the knocker writes 0)", " (wer klopft, schreibt 0)")
    )
    if rules.match_end == "elimination_last_survivor" and rules.elimination_threshold is not None:
        out = rules.elimination_threshold
        end = t(
            f"; at {out} bad points in all you are out, and the last player left wins.",
            f"; ab {out} Restpunkten insgesamt ist man raus, und wer übrig bleibt, gewinnt.",
        )
    else:
        end = ". " + match_end_text(rules, t) + "."
    text = t(
        f"{hold} and try to arrange them into **melds**: sets (cards of the same rank) and runs (cards "
        "of one suit in sequence). Cards in no meld are your **deadwood** and count against you. Each "
        "turn you take a card (from the stock or the discard pile) and throw one away (discard). With "
        f"deadwood {limit} you may **knock** to end the hand; with none at all you call **Rummy**.{after} "
        f"Everyone writes down their deadwood as **bad points**{knocker}{end}",
        f"{hold} und versucht, sie zu **Figuren** zu ordnen: Sätze (Karten gleichen Werts) und Folgen "
        "(Karten einer Farbe in Reihe). Karten, die in keine Figur passen, sind **Restpunkte** und zählen "
        "gegen einen. In jedem Zug nimmt man eine Karte (vom Stoß oder von der Ablage) und wirft eine ab. "
        f"Mit Restpunkten {limit} darf man **klopfen** und so das Spiel beenden; ganz ohne Restpunkte "
        f"ruft man **Rummy**.{after} Jeder schreibt seine Restpunkte auf{knocker}{end}",
    )
    return [Heading(2, t("How a hand goes", "So läuft ein Spiel")), Paragraph(text)]


def deadwood_example(rules: Rules) -> str:
    """A hand of the size dealt heads-up, with as many melds as leave a few cards over."""
    size = max(1, rules.hand_size_for(rules.active_players(rules.min_players)))
    count = min(len(DEADWOOD_MELDS), (size - 1) // 3)
    parts = list(DEADWOOD_MELDS[:count])
    rest = size - 3 * count
    parts += DEADWOOD_EXTRA[:rest]
    return " ".join(parts)


def deadwood(rules: Rules, t: Lang) -> list[Block]:
    hand = parse_cards(deadwood_example(rules))
    best = solver.best_arrangement(hand, rules)
    shown = " ".join(f"[{' '.join(c.symbol() for c in m.cards)}]" for m in best.melds)
    rest = " ".join(c.symbol() for c in best.deadwood_cards)
    return [
        Heading(2, t("Deadwood (Restpunkte)", "Restpunkte")),
        Paragraph(
            t(
                "Your deadwood is the value of the cards that fit in no meld, with your hand arranged as "
                "well as "
                "possible. A joker inside a meld costs nothing.",
                "Restpunkte sind der Wert der Karten, die in keine Figur passen, bei bestmöglicher "
                "Anordnung der "
                "Hand. Ein Joker in einer Figur kostet nichts.",
            )
        ),
        Paragraph(
            t(
                f"Example: {' '.join(c.symbol() for c in hand)} is arranged as {shown} with "
                f"{rest or 'nothing'} left: "
                f"deadwood {best.deadwood}.",
                f"Beispiel: {' '.join(c.symbol() for c in hand)} wird zu {shown}, übrig bleibt "
                f"{rest or 'nichts'}: "
                f"{best.deadwood} Restpunkte.",
            )
        ),
    ]


def rummy_and_knock(rules: Rules, t: Lang) -> list[Block]:
    assert rules.knock_threshold is not None
    fixed = rules.hand_size_rule == "fixed"  # by_player_count: the size depends on the table
    your_cards = t(
        f"your {rules.hand_size} cards" if fixed else "your cards",
        f"der {rules.hand_size} Karten" if fixed else "der eigenen Karten",
    )
    rummy = [
        t(
            "If after drawing all your cards but one fit in melds, you may call **Rummy**: show the melds "
            + (
                "and lay the last card face down."
                if rules.final_discard_face_down
                else "and discard the last card face up."
            )
            + " The hand ends at once; you score 0.",
            "Passen nach dem Ziehen alle Karten bis auf eine in Figuren, darf man **Rummy** rufen: die "
            + (
                "Figuren zeigen und die letzte Karte verdeckt ablegen."
                if rules.final_discard_face_down
                else "Figuren zeigen und die letzte Karte offen abwerfen."
            )
            + " Das Spiel endet sofort; man schreibt 0.",
        ),
    ]
    if rules.rummy_multiplier > 1:
        rummy.append(
            t(
                f"Everybody else's bad points are multiplied by {rules.rummy_multiplier}.",
                f"Die Restpunkte aller anderen zählen ×{rules.rummy_multiplier}.",
            )
        )
    hand = parse_cards(deadwood_example(rules))
    d = solver.min_deadwood(hand, rules)
    take_en = " (the next player may take that card)" if rules.knock_extra_turn else ""
    take_de = " (der Nächste darf die Karte nehmen)" if rules.knock_extra_turn else ""
    limit = rules.knock_threshold
    allowed = may_knock_with(rules, d)
    knock = [
        t(
            f"{knock_condition(rules, t)}: after your discard, the deadwood of {your_cards} must be "
            + (f"less than {limit}" if rules.knock_comparison == "lt" else f"at most {limit}")
            + ", and more than 0 (with 0 you call Rummy instead).",
            f"{knock_condition(rules, t)}: nach dem Abwerfen müssen die Restpunkte {your_cards} "
            + (f"unter {limit}" if rules.knock_comparison == "lt" else f"höchstens {limit}")
            + " liegen und über 0 (mit 0 ruft man Rummy).",
        ),
        t(
            f"Example: the hand above has deadwood {d}: "
            + ("you may knock." if allowed else "you may not knock."),
            f"Beispiel: die Hand oben hat {d} Restpunkte: "
            + ("man darf klopfen." if allowed else "man darf nicht klopfen."),
        ),
        t(
            f"The knocker discards face up as usual{take_en} and shows their melds and deadwood."
            if rules.knock_discard_face_up
            else "The knocker lays the discard face down (nobody can take it) and shows their melds and "
            "deadwood.",
            f"Wer klopft, wirft offen ab wie sonst{take_de} und zeigt Figuren und Restpunkte."
            if rules.knock_discard_face_up
            else "Wer klopft, legt die Karte verdeckt ab (niemand kann sie nehmen) und zeigt Figuren und "
            "Restpunkte.",
        ),
    ]
    if rules.knock_extra_turn:
        knock.append(
            t(
                "Then every other player has **one more turn** (draw and discard) to improve their hand; "
                "they cannot "
                "knock, call Rummy or lay off.",
                "Danach hat jeder andere Spieler **noch einen Zug** (ziehen und abwerfen), um die Hand zu "
                "verbessern; "
                "klopfen, Rummy rufen oder anlegen darf er nicht.",
            )
        )
    else:
        knock.append(
            t(
                "The hand ends at once: nobody gets another turn.",
                "Das Spiel endet sofort: niemand hat noch einen Zug.",
            )
        )
    knock.append(
        t(
            "Then everybody shows their hand arranged as well as possible and counts their deadwood.",
            "Dann zeigen alle ihre bestmöglich geordnete Hand und zählen ihre Restpunkte.",
        )
    )
    return [
        Heading(2, t("Calling Rummy", "Rummy rufen")),
        Bullets(tuple(rummy)),
        Heading(2, t("Knocking (klopfen)", "Klopfen")),
        Bullets(tuple(knock)),
    ]


def hand_example(rules: Rules, t: Lang) -> list[Block]:
    """A whole hand's scoring at a table of three (none where the rules seat fewer or the example's
    knock with 2 left is not allowed): the knock, the others' last turn, the bad points written down
    and the knock money of a rubber (:meth:`rummykit.match.Match`: 1 chip from each other player)."""
    knock = 2
    if rules.max_players < 3 or rules.min_players > 3 or not may_knock_with(rules, knock):
        return []
    anna, ben = 6, 20
    cleo = knock if rules.knocker_scores_own_deadwood else 0
    then = (
        t(
            "After one more turn each, Anna has deadwood 6 and Ben 20.",
            "Nach je einem weiteren Zug hat Anna 6 Restpunkte und Ben 20.",
        )
        if rules.knock_extra_turn
        else t(
            "Nobody plays again: Anna has deadwood 6 and Ben 20.",
            "Keiner spielt mehr: Anna hat 6 Restpunkte und Ben 20.",
        )
    )
    money = ""
    if rules.match_end == "elimination_last_survivor" and rules.knock_money:
        chips_en = t.plural(rules.knock_money, "1 chip", f"{rules.knock_money} chips")
        chips_de = t.plural(rules.knock_money, "1 Chip", f"{rules.knock_money} Chips")
        money = t(
            f" Cleo gets {chips_en} from each of the other two.",
            f" Cleo bekommt {chips_de} von jedem der beiden anderen.",
        )
    shown = ", ".join(f"-{n}" if n else "0" for n in (anna, ben, cleo))
    text = t(
        f"Example with three players: Cleo knocks with only {cards('2H')} left (deadwood {knock}). {then} "
        f"They write down {anna}, {ben} and {cleo} bad points (shown as {shown}).{money}",
        f"Beispiel mit drei Spielern: Cleo klopft, nur {cards('2H')} bleibt übrig ({knock} Restpunkte). "
        f"{then} Sie schreiben {anna}, {ben} und {cleo} Restpunkte auf (angezeigt als {shown}).{money}",
    )
    return [Paragraph(text)]
