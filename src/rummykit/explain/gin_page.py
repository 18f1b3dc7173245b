"""The player's page of Gin Rummy (RULES.md §5.4), in English and German.

Figures come from the options (knock card, Oklahoma, bonuses, the wall, the draw limits) and the
examples from the engine (:mod:`rummykit.gin_melds`), so the page always matches the game.
"""

from __future__ import annotations

from typing import Final

from rummykit.cards import parse_cards
from rummykit.explain.document import Block, Bullets, Heading, Paragraph, Table
from rummykit.explain.language import Lang, card_legend, cards
from rummykit.explain.terminal_page import terminal
from rummykit.gin import values_of
from rummykit.gin_melds import MELD_BY_MASK, best_group, deadwood, mask_of
from rummykit.rules import Rules

MELD_EXAMPLES: Final = ("7H 7S 7D", "4C 5C 6C 7C", "AH 2H 3H", "QC KC AC", "3S 4S 5S 6S 7S 8S", "7H 8D 9H")
"""Melds whose verdict is shown: a run longer than five is laid as two melds."""
EXAMPLE_HAND: Final = "7H 8H 9H QC QD QS 4C 5C 6C 3D"


def glance(rules: Rules, t: Lang, players: str, deck: str, hand: str) -> list[Block]:
    items = [players, deck, hand, knock_text(rules, t)]
    if rules.match_end == "single_hand":
        items.append(
            t(
                "One hand: the knocker scores the difference of the deadwood; gin and undercuts earn "
                "bonuses.",
                "Ein Spiel: wer klopft, bekommt den Unterschied der Restpunkte; Gin und Unterbieten "
                "bringen Boni.",
            )
        )
    else:
        items.append(
            t(
                "Each hand: the knocker scores the difference of the deadwood; gin and undercuts earn "
                f"bonuses. {match_glance(rules, t)}",
                "Jedes Spiel: wer klopft, bekommt den Unterschied der Restpunkte; Gin und Unterbieten "
                f"bringen Boni. {match_glance(rules, t)}",
            )
        )
    return [Heading(2, t("At a glance", "Auf einen Blick")), Bullets(tuple(items))]


def knock_card_words(rules: Rules, t: Lang) -> str:
    """What the knock card is, with its value here, and when a player may knock (or go gin)."""
    if not rules.oklahoma and rules.knock_card == 0:
        return t(
            "The **knock card** is the most deadwood you may knock with; here it is 0: you may **knock** "
            "to end the hand only with no deadwood at all, which is **gin**.",
            "Die **Klopfgrenze** (knock card) ist, wie viele Restpunkte man beim Klopfen höchstens haben "
            "darf; hier 0: **klopfen** und so das Spiel beenden darf man nur ganz ohne Restpunkte, mit "
            "**Gin**.",
        )
    value = (
        t(
            ": here the value of the first upcard (an ace: gin only)",
            ": hier der Wert der ersten offenen Karte (ein Ass: nur Gin)",
        )
        + (
            t("; a spade there doubles the hand", "; ein Pik dort verdoppelt das Spiel")
            if rules.oklahoma_spade_doubles
            else ""
        )
        if rules.oklahoma
        else t(f" (here {rules.knock_card})", f" (hier {rules.knock_card})")
    )
    return t(
        f"The **knock card** is the most deadwood you may knock with{value}. With that much deadwood or "
        "less you may **knock** to end the hand; with none at all you have **gin**.",
        f"Die **Klopfgrenze** (knock card) ist, wie viele Restpunkte man beim Klopfen höchstens haben "
        f"darf{value}. Mit so vielen Restpunkten oder weniger darf man **klopfen** und so das Spiel "
        "beenden; ganz ohne Restpunkte hat man **Gin**.",
    )


def overview(rules: Rules, t: Lang) -> list[Block]:
    """How a hand goes and how the match ends, in a few sentences built from the options."""
    n = rules.hand_size
    show = (
        t(
            "Both players then show their melds (no laying off).",
            "Dann zeigen beide ihre Figuren (kein Anlegen).",
        )
        if rules.layoff_after_knock == "none"
        else t(
            "Both players then show their melds, and unless it is gin the other player may **lay off** "
            "cards on the knocker's melds (add them to the knocker's sets and runs).",
            "Dann zeigen beide ihre Figuren, und außer bei Gin darf der andere beim Klopfenden "
            "**anlegen** (Karten an dessen Sätze und Folgen legen).",
        )
    )
    less = (
        t("less (or as much)", "weniger (oder gleich viele)")
        if rules.undercut_on_tie
        else t("less", "weniger")
    )
    text = t(
        f"You hold {n} cards and try to arrange them into **melds**: sets (cards of the same rank) and "
        "runs (cards of one suit in sequence). Cards in no meld are your **deadwood**. Each turn you take "
        "a card (the upcard or the top card of the stock) and throw one away. "
        f"{knock_card_words(rules, t)} {show} The knocker scores the difference of the deadwood; if "
        f"the other player has {less}, they **undercut** the knocker and score instead. "
        f"{match_end_text(rules, t)}",
        f"Man hat {n} Karten auf der Hand und versucht, sie zu **Figuren** zu ordnen: Sätze (Karten "
        "gleichen Werts) und Folgen (Karten einer Farbe in Reihe). Karten, die in keine Figur passen, sind "
        "**Restpunkte**. In jedem Zug nimmt man eine Karte (die offene Karte oder die oberste vom Stoß) "
        f"und wirft eine ab. {knock_card_words(rules, t)} {show} Wer klopft, bekommt den "
        f"Unterschied der Restpunkte; hat der andere {less}, **unterbietet** er den Klopfenden und "
        f"bekommt stattdessen Punkte. {match_end_text(rules, t)}",
    )
    return [Heading(2, t("How a hand goes", "So läuft ein Spiel")), Paragraph(text)]


def knock_text(rules: Rules, t: Lang) -> str:
    if rules.oklahoma:
        return t(
            "Oklahoma: the first upcard sets the knock card (its value; an ace means gin only)",
            "Oklahoma: die erste offene Karte bestimmt die Klopfgrenze (ihr Wert; ein Ass heißt: nur Gin)",
        )
    if rules.knock_card == 0:
        return t("Knock card 0: you may knock only with gin", "Klopfgrenze 0: klopfen darf man nur mit Gin")
    return t(
        f"Knock with deadwood of {rules.knock_card} points or less",
        f"Klopfen mit höchstens {rules.knock_card} Restpunkten",
    )


def knock_rule(rules: Rules, t: Lang) -> str:
    """When a player may knock, as the Knocking section's first sentence: with knock card 0 only a
    hand without deadwood (gin) may knock, else the deadwood left after the discard counts at most
    the knock card."""
    if rules.knock_card == 0 and not rules.oklahoma:
        return t(
            "Knock card 0: you may knock only with gin, that is, when after your discard every card in "
            "your hand is in a meld.",
            "Klopfgrenze 0: klopfen darf man nur mit Gin, also wenn nach dem Abwurf jede Karte der Hand "
            "in einer Figur liegt.",
        )
    return t(
        f"{knock_text(rules, t)}: after your discard, the cards outside your melds count at most the "
        "knock card.",
        f"{knock_text(rules, t)}: nach dem Abwurf zählen die Karten außerhalb der eigenen Figuren "
        "höchstens die Klopfgrenze.",
    )


def ordinal(n: int) -> str:
    """The English ordinal of ``n``: ``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``, ``50th``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 50, 100)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '50th', '100th']
    """
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def match_glance(rules: Rules, t: Lang) -> str:
    """How a match of several hands ends, in one short sentence for the overview."""
    end = rules.match_end
    if end == "target_score":
        return t(
            f"The first to {rules.target_score} points from won hands wins the match.",
            f"Wer zuerst {rules.target_score} Punkte aus gewonnenen Spielen hat, gewinnt die Partie.",
        )
    if end == "fixed_hands":
        n = rules.num_hands or rules.max_players
        return t(f"A match has {n} hands.", f"Eine Partie hat {n} Spiele.")
    if end == "penalty_limit":
        return t(
            f"The match ends when someone has lost {rules.penalty_limit} points.",
            f"Die Partie endet, wenn jemand {rules.penalty_limit} Punkte verloren hat.",
        )
    return t(
        f"Whoever has lost {rules.elimination_threshold} points is out.",
        f"Wer {rules.elimination_threshold} Punkte verloren hat, ist raus.",
    )


def game_bonus_text(rules: Rules, t: Lang) -> str:
    """The end-of-game bonuses of a gin game to a target score (:mod:`rummykit.match`), each as it
    is set, and those the rule books know that are not played (at 0 or off): a sentence or two, each
    starting with a space."""
    bonuses = (  # (is it played, its words when it is, the words when it is not)
        (
            rules.box_bonus > 0,
            t(
                f"everybody gets {rules.box_bonus} points for each hand they won (box)",
                f"jeder bekommt {rules.box_bonus} Punkte für jedes gewonnene Spiel (Box)",
            ),
            t("none per hand won (box)", "keinen pro gewonnenem Spiel (Box)"),
        ),
        (
            rules.game_bonus > 0,
            t(f"the winner gets {rules.game_bonus} points", f"der Sieger bekommt {rules.game_bonus} Punkte"),
            t("none for the game", "keinen für den Sieg"),
        ),
        (
            rules.shutout_doubles,
            t(
                "the winner's total, bonuses included, is doubled if the loser won no hand (shutout)",
                "der Stand des Siegers wird samt Boni verdoppelt, wenn der Verlierer kein Spiel gewann "
                "(zu null)",
            ),
            t("no doubling for a shutout", "keine Verdopplung zu null"),
        ),
    )
    played = [words for on, words, _ in bonuses if on]
    unplayed = [words for on, _, words in bonuses if not on]
    out = ""
    if played:
        out += t(
            f" When the match ends, {t.join(played)}. The bonuses come after the winner is decided: they "
            "change the margin, never the winner.",
            f" Am Ende der Partie: {t.join(played)}. Die Boni kommen erst nach der Entscheidung über den "
            "Sieg: Sie ändern den Abstand, nie den Sieger.",
        )
    if unplayed:
        unused = ", ".join(unplayed)
        if played:
            out += t(
                f" The rule books' other bonuses are not played: {unused}.",
                f" Die übrigen Boni der Regelwerke gibt es nicht: {unused}.",
            )
        else:
            out += t(
                f" Some rule books' bonuses are not played: {unused}.",
                f" Boni mancher Regelwerke gibt es nicht: {unused}.",
            )
    return out


def match_end_text(rules: Rules, t: Lang) -> str:
    """How a gin match ends and who wins it, as the engine plays it (:mod:`rummykit.match`): a hand
    scores plus points for its winner and as many minus points for the loser."""
    end = rules.match_end
    if end == "target_score":
        n = rules.target_score
        return t(
            "The points of the hands you win add up (a lost hand takes none away); the match ends after "
            f"the hand in which someone reaches {n} points, and the most points win (equal totals share "
            "the win).",
            "Die Punkte der gewonnenen Spiele werden addiert (ein verlorenes Spiel zieht nichts ab); die "
            f"Partie endet nach dem Spiel, in dem jemand {n} Punkte erreicht, und die meisten Punkte "
            "gewinnen (bei Gleichstand teilen sich die Besten den Sieg).",
        ) + game_bonus_text(rules, t)
    best = t(
        "the highest total (points won less points lost) wins; equal totals share the win.",
        "der höchste Stand (gewonnene weniger verlorene Punkte) gewinnt; bei Gleichstand teilen sich "
        "die Besten den Sieg.",
    )
    if end == "fixed_hands":
        n = rules.num_hands or rules.max_players
        return t(
            f"A match has {n} hands (a hand not scored counts too); {best}",
            f"Eine Partie hat {n} Spiele (ein Spiel ohne Wertung zählt mit); {best}",
        )
    if end == "penalty_limit":
        n = rules.penalty_limit
        return t(
            f"The match ends after the hand in which someone has lost {n} points in all; {best}",
            f"Die Partie endet nach dem Spiel, in dem jemand insgesamt {n} Punkte verloren hat; {best}",
        )
    if end == "elimination_last_survivor":
        out = rules.elimination_threshold
        return t(
            f"Whoever has lost {out} points in all is out; the other player wins.",
            f"Wer insgesamt {out} Punkte verloren hat, ist raus; der andere gewinnt.",
        )
    return t(
        "One scored hand decides the match: whoever scores plus points in it wins (a tie, 0 for both, is "
        "shared). A dead hand (ended at the wall or by a limit under “Your turn”) is not scored and is "
        "dealt again, by the other player.",
        "Ein gewertetes Spiel entscheidet die Partie: wer darin Pluspunkte bekommt, gewinnt (Gleichstand, "
        "0 für beide, wird geteilt). Ein totes Spiel (an der Mauer oder durch eine Grenze unter „Der Zug“ "
        "beendet) wird nicht gewertet und neu gegeben, vom anderen Spieler.",
    )


def match(rules: Rules, t: Lang) -> list[Block]:
    """The match section (none for a single hand, which the overview already states)."""
    if rules.match_end == "single_hand":
        return []
    return [Heading(2, t("The match", "Die Partie")), Paragraph(match_end_text(rules, t))]


def card_values(rules: Rules, t: Lang) -> list[Block]:
    ace = rules.deadwood_ace
    rows = (
        ("2–10", t("face value", "Augenzahl")),
        (t("J, Q, K", "B, D, K"), "10"),
        (t("A", "A (Ass)"), str(ace)),
    )
    return [
        Heading(2, t("Cards and their values", "Karten und ihre Werte")),
        Paragraph(t("One pack of 52 cards, no jokers.", "Ein Kartenspiel zu 52 Karten, ohne Joker.")),
        Paragraph(card_legend(t, jokers=False)),
        Table((t("card", "Karte"), t("deadwood value", "Restpunkte")), rows),
    ]


def deal(rules: Rules, t: Lang, hand: str) -> list[Block]:
    items = [
        t("Who deals first is drawn by lot.", "Wer zuerst gibt, wird ausgelost."),
        t(
            f"The dealer deals {hand}, one at a time, and turns the next card face up: the upcard. "
            "The rest is the stock.",
            f"Der Geber teilt einzeln aus ({hand}) und legt die nächste Karte offen hin: die offene Karte. "
            "Der Rest ist der Stoß.",
        ),
    ]
    if rules.start_mode == "gin_first_upcard":
        items.append(
            t(
                "The first upcard: the non-dealer may take it or pass; after a pass the dealer may take it "
                "or pass; when both passed, the non-dealer draws from the stock.",
                "Die erste offene Karte: der Nichtgeber darf sie nehmen oder passen; nach einem Passen darf "
                "der Geber sie nehmen oder passen; haben beide gepasst, zieht der Nichtgeber vom Stoß.",
            )
        )
    else:
        items.append(
            t("The non-dealer starts with a normal turn.", "Der Nichtgeber beginnt mit einem normalen Zug.")
        )
    return [Heading(2, t("The deal", "Das Geben")), Bullets(tuple(items))]


def melds(rules: Rules, t: Lang) -> list[Block]:
    rows = []
    for text in MELD_EXAMPLES:
        ok = MELD_BY_MASK.get(mask_of(parse_cards(text))) is not None
        verdict = t("yes", "ja") if ok else t("no", "nein")
        if not ok and len(parse_cards(text)) > 5:
            verdict = t("as two melds", "als zwei Figuren")
        rows.append((cards(text), verdict))
    return [
        Heading(2, t("Melds: sets and runs", "Figuren: Sätze und Folgen")),
        Bullets(
            (
                t(
                    "**Set**: 3 or 4 cards of one rank, e.g. 7♥ 7♠ 7♦.",
                    "**Satz**: 3 oder 4 Karten eines Werts, z. B. 7♥ 7♠ 7♦.",
                ),
                t(
                    "**Run**: 3 to 5 cards of one suit in sequence, ace low only (A♥ 2♥ 3♥, never Q♣ K♣ A♣); "
                    "a longer run is laid as two melds.",
                    "**Folge**: 3 bis 5 Karten einer Farbe in Reihe, das Ass nur unten (A♥ 2♥ 3♥, nie "
                    "D♣ K♣ A♣); eine längere Folge wird als zwei Figuren gelegt.",
                ),
                t(
                    "Melds stay in your hand until someone knocks.",
                    "Die Figuren bleiben auf der Hand, bis jemand klopft.",
                ),
            )
        ),
        Table((t("meld", "Figur"), t("allowed", "erlaubt")), tuple(rows)),
    ]


def turn(rules: Rules, t: Lang) -> list[Block]:
    items = [
        t(
            "**Draw** the top card of the stock, or **take** the upcard (the top discard).",
            "Man **zieht** die oberste Karte vom Stoß oder **nimmt** die offene Karte (oberste der Ablage).",
        ),
        t(
            "Then **discard** one card face up, or **knock**.",
            "Dann **wirft** man eine Karte offen ab oder **klopft**.",
        ),
    ]
    if rules.may_discard_taken_discard:
        items.append(
            t(
                "You may throw back the card you just took. But when both players do that in turn with the "
                "same card, the hand is dead (no score)."
                if rules.repeat_discard_draw
                else "You may throw back the card you just took.",
                "Die eben genommene Karte darf man wieder abwerfen. Tun das beide nacheinander mit "
                "derselben Karte, ist das Spiel tot (keine Wertung)."
                if rules.repeat_discard_draw
                else "Die eben genommene Karte darf man wieder abwerfen.",
            )
        )
    else:
        items.append(
            t(
                "You may not throw back the card you just took.",
                "Die eben genommene Karte darf man nicht gleich wieder abwerfen.",
            )
        )
    items.append(
        t(
            f"The {ordinal(rules.max_upcard_draws)} time a player takes the upcard (the first upcard not "
            "counted), the hand ends dead instead.",
            f"Wird die offene Karte zum {rules.max_upcard_draws}. Mal genommen (die erste nicht mitgezählt), "
            "endet das Spiel stattdessen ohne Wertung.",
        )
    )
    return [Heading(2, t("Your turn", "Der Zug")), Bullets(tuple(items))]


def knocking(rules: Rules, t: Lang) -> list[Block]:
    values = values_of(rules)
    hand = parse_cards(EXAMPLE_HAND)
    left = deadwood(mask_of(hand), values)
    group = " ".join(
        f"[{cards(' '.join(str(c) for c in m.cards))}]" for m in best_group(mask_of(hand), values)
    )
    eleven = (
        t(
            "Usually this is simply your deadwood after the discard. In rare hands this count (OpenSpiel's) "
            "is higher than the best arrangement; the game offers the knock only when you may. Exactly: "
            "the melds of greatest value first, then your highest-ranked unmatched card out.",
            "Meist sind das einfach die Restpunkte nach dem Abwurf. In seltenen Händen ist diese Rechnung "
            "(die von OpenSpiel) höher als die beste Aufteilung; das Spiel bietet das Klopfen nur an, wenn "
            "man darf. Genau: zuerst die wertvollsten Figuren, dann fällt die höchste ungebundene Karte weg.",
        )
        if rules.eleven_card_deadwood == "openspiel"
        else t("The best discard decides.", "Es zählt der beste Abwurf.")
    )
    if rules.knock_card == 0 and not rules.oklahoma:
        eleven = ""  # gin only: every card melded, whatever the count
    items = [
        f"{knock_rule(rules, t)} {eleven}".rstrip(),
        t(
            f"Example: {cards(EXAMPLE_HAND)} is {group} with {left} left.",
            f"Beispiel: {cards(EXAMPLE_HAND)} ist {group} mit {left} Rest.",
        ),
        t(
            "To knock: say knock, discard, lay your melds one by one, then pass. Cards you do not lay count "
            "as your deadwood. With no deadwood at all you have **gin**.",
            "Zum Klopfen: klopfen, abwerfen, die Figuren einzeln auslegen, dann passen. Was man nicht "
            "auslegt, zählt als Restpunkte. Ganz ohne Rest hat man **Gin**.",
        ),
    ]
    if rules.deadwood_ace == 0:
        items.append(
            t(
                "An ace counts 0 here: aces left over add nothing, so a knock with only aces left over "
                "has no deadwood and is **gin** (the gin bonus, and no laying off).",
                "Ein Ass zählt hier 0: Übrige Asse zählen nichts, wer nur mit Assen übrig klopft, hat "
                "keinen Rest und damit **Gin** (der Gin-Bonus, und kein Anlegen).",
            )
        )
    if rules.big_gin_bonus is not None:
        n = rules.hand_size + 1
        items.append(
            t(
                f"**Big gin**: when all {n} cards lie in melds as you knock (with the card you drew, or at "
                "the wall the top discard), you may lay them all instead of discarding: knock, lay the "
                "melds one by one, then pass.",
                f"**Großes Gin**: Liegen beim Klopfen alle {n} Karten in Figuren (mit der gezogenen Karte, "
                "an der Mauer mit der obersten abgeworfenen), darf man sie alle auslegen, statt abzuwerfen: "
                "klopfen, die Figuren einzeln auslegen, dann passen.",
            )
        )
    return [Heading(2, t("Knocking", "Klopfen")), Bullets(tuple(items))]


def laying_off(rules: Rules, t: Lang) -> list[Block]:
    if rules.layoff_after_knock == "none":
        return [
            Heading(2, t("After a knock", "Nach dem Klopfen")),
            Paragraph(
                t(
                    "The other player lays their own melds and counts what is left; no laying off.",
                    "Der andere legt seine eigenen Figuren aus und zählt den Rest; kein Anlegen.",
                )
            ),
        ]
    chain = (
        t(
            "a run takes the next card at either end, and after that one more (at most two per end)",
            "eine Folge nimmt an jedem Ende die nächste Karte und danach noch eine (höchstens zwei je Ende)",
        )
        if rules.layoff_run_chain == "two_per_end"
        else t(
            "a run grows at either end as far as you can go",
            "eine Folge wächst an beiden Enden, so weit es geht",
        )
    )
    items = [
        t(
            "Unless the knocker has gin, the other player first lays cards off on the knocker's melds: "
            "a set "
            f"of three takes the fourth card, {chain}. Then they pass.",
            f"Hat der Klopfende kein Gin, legt der andere zuerst Karten bei ihm an: ein Dreiersatz nimmt die "
            f"vierte Karte, {chain}. Dann passt er.",
        ),
        t(
            "Then they lay their own melds one by one and pass; the cards left are their deadwood.",
            "Dann legt er seine eigenen Figuren einzeln aus und passt; was übrig bleibt, sind seine "
            "Restpunkte.",
        ),
    ]
    return [Heading(2, t("After a knock: laying off", "Nach dem Klopfen: anlegen")), Bullets(tuple(items))]


def big_gin_score(rules: Rules, t: Lang) -> str:
    """What a big gin scores (a sentence to follow gin's bonus), empty where it is not played."""
    if rules.big_gin_bonus is None:
        return ""
    return t(
        f" Big gin adds {rules.big_gin_bonus} instead; like gin it is never undercut and nothing is laid off "
        "on it.",
        f" Großes Gin bringt stattdessen {rules.big_gin_bonus}; wie bei Gin wird nie unterboten und nichts "
        "angelegt.",
    )


def scoring(rules: Rules, t: Lang) -> list[Block]:
    tie = (
        t(
            f"A tie counts as an undercut too (the other player gets the {rules.undercut_bonus}).",
            f"Gleichstand zählt auch als Unterbieten (der andere bekommt die {rules.undercut_bonus}).",
        )
        if rules.undercut_on_tie
        else t("A tie scores 0 for both.", "Bei Gleichstand bekommen beide 0.")
    )
    items = [
        t(
            "The knocker scores the other player's deadwood minus their own.",
            "Wer klopft, bekommt die Restpunkte des anderen minus die eigenen.",
        ),
        t(f"Gin adds {rules.gin_bonus}.", f"Gin bringt {rules.gin_bonus} dazu.")
        + big_gin_score(rules, t),
        t(
            f"If the other player has less deadwood, they **undercut** the knocker: the knocker's negative "
            f"score loses another {rules.undercut_bonus}.",
            f"Hat der andere weniger Restpunkte, **unterbietet** er: das negative Ergebnis des Klopfenden "
            f"sinkt um weitere {rules.undercut_bonus}.",
        ),
        tie,
        t(
            "The other player scores the same points with the opposite sign.",
            "Der andere bekommt dieselben Punkte mit umgekehrtem Vorzeichen.",
        ),
    ]
    if rules.oklahoma and rules.oklahoma_spade_doubles:
        items.append(
            t(
                "If the first upcard is a spade, the hand counts double: every score above, bonuses "
                "included, is doubled.",
                "Ist die erste offene Karte ein Pik, zählt das Spiel doppelt: alle oben genannten Punkte, "
                "Boni eingeschlossen, verdoppeln sich.",
            )
        )
        if rules.box_bonus and rules.not_applicable("box_bonus") is None:
            # Rule books differ here; the engine pays the box for hands won, not for points.
            items[-1] += t(
                f" The box bonus at the end is not: a doubled hand won still counts one hand "
                f"({rules.box_bonus} points).",
                f" Der Box-Bonus am Ende nicht: Ein gewonnenes doppeltes Spiel zählt als ein Spiel "
                f"({rules.box_bonus} Punkte).",
            )
    if rules.big_gin_bonus is None:
        n = rules.hand_size + 1
        items.append(
            t(
                f"There is no big gin (all {n} cards laid in melds, without a discard).",
                f"Großes Gin (alle {n} Karten in Figuren ausgelegt, ohne Abwurf) gibt es nicht.",
            )
        )
    return [Heading(2, t("Scoring a hand", "Wertung")), Bullets(tuple(items)), *scoring_example(rules, t)]


KNOCKER_MELDS: Final = ("KC KD KS", "5S 6S 7S")
KNOCKER_DEADWOOD: Final = "AD 2D 3H 4H"
DEFENDER_KEEPS: Final = 45
"""The scoring example, played out by the engine (the knocker takes a 9♣ upcard and knocks with it;
the other player holds K♥ 9♥ 8♣ 7♦ 6♣ 5♦ 4♣ 3♠ 2♠ A♣): 45 − 10 = 35."""


def scoring_example(rules: Rules, t: Lang) -> list[Block]:
    """A whole hand's score: a knock with 10 left, a lay-off, the difference. Left out where the knock
    card would not allow that knock (Oklahoma, or a knock card below the knocker's deadwood)."""
    values = values_of(rules)
    own = sum(values[c] for c in parse_cards(KNOCKER_DEADWOOD))
    if rules.oklahoma or rules.knock_card < own:
        return []
    left = " ".join(c.symbol() for c in parse_cards(KNOCKER_DEADWOOD))
    parts = " + ".join(str(values[c]) for c in parse_cards(KNOCKER_DEADWOOD))
    melds = " ".join(f"[{cards(m)}]" for m in KNOCKER_MELDS)
    if rules.layoff_after_knock == "none":
        keeps = DEFENDER_KEEPS + values[parse_cards("KH")[0]]
        other = t(
            f"The other player cannot lay off their {cards('KH')} and keeps {keeps}",
            f"Der andere darf seine {cards('KH')} nicht anlegen und behält {keeps}",
        )
    else:
        keeps = DEFENDER_KEEPS
        other = t(
            f"The other player lays {cards('KH')} off on your kings and keeps {keeps}",
            f"Der andere legt {cards('KH')} an die Könige an und behält {keeps}",
        )
    return [
        Paragraph(
            t(
                f"Example: you knock with {melds} and {left} left ({parts} = {own}). {other}: you score "
                f"{keeps} − {own} = {keeps - own}.",
                f"Beispiel: man klopft mit {melds}, übrig bleiben {left} ({parts} = {own}). {other}: wer "
                f"geklopft hat, bekommt {keeps} − {own} = {keeps - own}.",
            )
        )
    ]


def wall(rules: Rules, t: Lang) -> list[Block]:
    n = rules.wall_stock_size
    return [
        Heading(2, t("The wall", "Die Mauer")),
        Paragraph(
            t(
                f"When a discard leaves {n} cards in the stock, the next player may only knock with the "
                "upcard "
                "(it joins the hand) or pass; a pass ends the hand dead, without a score.",
                f"Bleiben nach einem Abwurf {n} Karten im Stoß, darf der nächste nur noch mit der offenen "
                "Karte klopfen (sie kommt auf die Hand) oder passen; Passen beendet das Spiel ohne Wertung.",
            )
        ),
    ]


def glossary(t: Lang) -> list[Block]:
    rows = (
        ("upcard", "offene Karte", t("the top card of the discard pile", "die oberste Karte der Ablage")),
        (
            "deadwood",
            "Restpunkte",
            t("the value of cards outside your melds", "der Wert der Karten außerhalb der Figuren"),
        ),
        ("knock", "klopfen", t("ending the hand with little deadwood", "das Spiel mit wenig Rest beenden")),
        (
            "knock card",
            "Klopfgrenze",
            t("the most deadwood you may knock with", "wie viele Restpunkte man beim Klopfen höchstens hat"),
        ),
        ("gin", "Gin", t("knocking with no deadwood", "klopfen ganz ohne Rest")),
        (
            "lay off",
            "anlegen",
            t("adding a card to the knocker's meld", "eine Karte an eine Figur des Klopfenden legen"),
        ),
        ("undercut", "unterbieten", t("less deadwood than the knocker", "weniger Rest als der Klopfende")),
        ("the wall", "die Mauer", t("the last cards of the stock", "die letzten Karten des Stoßes")),
    )
    return [
        Heading(2, t("Words you will meet", "Begriffe")),
        Table((t("English", "Englisch"), t("German", "Deutsch"), t("meaning", "Bedeutung")), rows),
    ]


def gin_blocks(rules: Rules, t: Lang, players: str, deck: str, hand: str) -> list[Block]:
    """Every section of the gin page after the title and house rules."""
    blocks = glance(rules, t, players, deck, hand) + overview(rules, t)
    blocks += card_values(rules, t) + deal(rules, t, hand) + melds(rules, t) + turn(rules, t)
    blocks += knocking(rules, t) + laying_off(rules, t) + scoring(rules, t) + wall(rules, t)
    blocks += match(rules, t) + terminal(rules, t) + glossary(t)
    return blocks
