"""The turn of the melding games on a player's page (German Rummy and its kin): melding, the
opening (Erstmeldung), laying off (anlegen), the joker exchange and going out, with the figures of
the page's rules and examples the engine computes."""

from __future__ import annotations

from rummykit.explain.document import Block, Bullets, Heading, Paragraph
from rummykit.explain.language import Lang, cards
from rummykit.explain.melds_page import legal, meld_value
from rummykit.explain.scoring_page import match_end_text, match_winner_text
from rummykit.explain.terms import hand_out_before, hand_out_name, holding_text, taken_discard_bar
from rummykit.melds import Meld
from rummykit.rules import Rules


def melding_turn(rules: Rules, t: Lang) -> list[Block]:
    draw = t(
        "**Draw** one card: the top card of the stock, or the top card of the discard pile.",
        "**Ziehen**: eine Karte vom Stoß oder die oberste Karte der Ablage.",
    )
    extra: list[str] = []
    if rules.discard_pickup_requires_opened == "opened_or_opening_with_it":
        extra.append(
            t(
                "You may take the discard only if you have opened, or open with it in this turn.",
                "Von der Ablage darf nur nehmen, wer ausgelegt hat oder in diesem Zug damit auslegt.",
            )
        )
    elif rules.discard_pickup_requires_opened == "opened_before":
        extra.append(
            t(
                "You may take the discard only after you opened on an earlier turn.",
                "Von der Ablage darf nur nehmen, wer in einem früheren Zug ausgelegt hat.",
            )
        )
    if rules.discard_pickup_requires_meld:
        extra.append(
            t(
                "A card taken from the discard pile must go onto the table (in a meld or laid off) in the "
                "same turn.",
                "Eine Karte von der Ablage muss im selben Zug auf den Tisch (in einer Figur oder angelegt).",
            )
        )
    if extra:
        draw += " " + " ".join(extra)
    exchanges = rules.joker_exchange and rules.jokers_total
    exchange = t(", exchange jokers", ", Joker tauschen") if exchanges else ""
    if rules.opening_min_points:
        play = t(
            "**Play** if you can and want to: open (your first melds), lay more melds, "
            f"lay off cards{exchange}.",
            "**Spielen**, wenn man kann und will: auslegen (das erste Mal: Erstmeldung), weitere Figuren "
            f"legen, anlegen{exchange}.",
        )
    else:  # nothing to reach: a first meld is a meld like any other
        play = t(
            f"**Play** if you can and want to: lay melds, lay off cards{exchange}.",
            f"**Spielen**, wenn man kann und will: Figuren auslegen, anlegen{exchange}.",
        )
    discard = (
        t(
            "**Discard** one card face up on the discard pile; that ends your turn.",
            "**Abwerfen**: eine Karte offen auf die Ablage; damit endet der Zug.",
        )
        if rules.going_out_requires_discard
        else t(
            "**Discard** one card face up on the discard pile; that ends your turn (not needed when you "
            "have laid all your cards: you have gone out).",
            "**Abwerfen**: eine Karte offen auf die Ablage; damit endet der Zug (entfällt, wenn man alle "
            "Karten ausgelegt oder angelegt hat: dann hat man ausgemacht).",
        )
    )
    rules_discard: list[str] = [discard_allowed(rules, t)]
    barred = not rules.may_discard_taken_discard
    if barred and rules.discard_pickup_requires_meld:
        # The taken card is on the table before any discard: a copy of its face in hand is one's own.
        if rules.num_decks > 1:
            rules_discard.append(
                t(
                    "The card taken from the discard pile is on the table by then, so an equal card left "
                    "in your hand (two packs) is yours to discard.",
                    "Die von der Ablage genommene Karte liegt dann schon auf dem Tisch; eine gleiche Karte "
                    "(zwei Kartenspiele), die noch in der Hand ist, darf man abwerfen.",
                )
            )
    elif barred:
        bar = taken_discard_bar(rules, t)
        if rules.num_decks > 1 and rules.discard_pickup_requires_opened == "opened_or_opening_with_it":
            bar += t(
                " (but once you have opened with it, it is on the table, and an equal card in your hand is "
                "yours to discard)",
                " (wer aber mit ihr ausgelegt hat, hat sie auf dem Tisch; eine gleiche Karte in der Hand "
                "darf dann abgeworfen werden)",
            )
        rules_discard.append(
            bar
            + t(
                ". This holds for your last card too: keep another card to discard (or lay that one too).",
                ". Das gilt auch für die letzte Karte: man behält eine andere Karte zum Abwerfen (oder legt "
                "auch diese aus).",
            )
        )
    discard += " " + " ".join(rules_discard)
    return [
        Heading(2, t("Your turn", "Der Zug")),
        Paragraph(
            t(
                "Play goes clockwise. A turn has three steps:",
                "Gespielt wird im Uhrzeigersinn. Ein Zug hat drei Schritte:",
            )
        ),
        Bullets((draw, play, discard)),
        *example_turn(rules, t),
    ]


def discard_allowed(rules: Rules, t: Lang) -> str:
    """What may be discarded under ``joker_discard_allowed`` and ``discard_playable_card_allowed``."""
    jokers = rules.jokers_total > 0
    joker_free = rules.joker_discard_allowed == "always"
    playable = rules.discard_playable_card_allowed
    if playable and (joker_free or not jokers):
        return (
            t(
                "Any card may be discarded, a joker too, and a card that would fit a meld on the table.",
                "Abwerfen darf man jede Karte, auch einen Joker und eine Karte, die an eine Figur auf dem "
                "Tisch passen würde.",
            )
            if jokers
            else t(
                "Any card may be discarded, a card that would fit a meld on the table too.",
                "Abwerfen darf man jede Karte, auch eine, die an eine Figur auf dem Tisch passen würde.",
            )
        )
    bars = []
    if jokers and not joker_free:
        bars.append(
            t(
                "A joker may only be discarded as your last card.",
                "Ein Joker darf nur als letzte Karte abgeworfen werden.",
            )
        )
    elif jokers:
        bars.append(t("A joker may be discarded.", "Ein Joker darf abgeworfen werden."))
    if playable:
        bars.append(
            t(
                "A card that would fit a meld on the table may be discarded.",
                "Eine Karte, die an eine Figur auf dem Tisch passen würde, darf man abwerfen.",
            )
        )
    else:
        bars.append(
            t(
                "You may not discard a card that could be laid off on a meld on the table.",
                "Eine Karte, die man an eine Figur auf dem Tisch anlegen könnte, darf man nicht abwerfen.",
            )
        )
    return " ".join(bars)


EXAMPLE_SET, EXAMPLE_RUN = "7C 7D 7S", "9C 10C JK QC"


def example_turn(rules: Rules, t: Lang) -> list[Block]:
    """A whole turn: draw, open with a set and a run with a joker, discard; the values the engine
    counts. Left out where the opening rule in force would not take these melds (a minimum above
    their value, one meld alone counting)."""
    run = EXAMPLE_RUN if rules.jokers_total else "9C 10C JC QC"
    if not (legal(EXAMPLE_SET, rules) and legal(run, rules)):
        return []
    a, b = meld_value(EXAMPLE_SET, rules), meld_value(run, rules)
    minimum = rules.opening_min_points or 0
    if minimum and (rules.opening_scope != "all_melds_this_turn" or a + b < minimum):
        return []
    joker = t(" (the joker is J♣)", " (der Joker ist J♣)") if rules.jokers_total else ""
    count = (
        t(
            f": {a} + {b} = {a + b} points, at least {minimum}",
            f": {a} + {b} = {a + b} Punkte, mindestens {minimum}",
        )
        if minimum
        else ""
    )
    open_en = "open with" if minimum else "lay"
    open_de = "legt als Erstmeldung" if minimum else "legt"
    return [
        Paragraph(
            t(
                f"Example turn: draw {cards('7C')} from the stock; {open_en} {cards(EXAMPLE_SET)} and "
                f"{cards(run)}{joker}{count}; discard {cards('AS')}.",
                f"Beispiel eines Zuges: man zieht {cards('7C')} vom Stoß, {open_de} {cards(EXAMPLE_SET)} und "
                f"{cards(run)} aus{joker}{count}, und wirft {cards('AS')} ab.",
            )
        )
    ]


def overview(rules: Rules, t: Lang) -> list[Block]:
    """How a hand goes, in a few sentences built from the options, before any detail."""
    hold = holding_text(rules, t)
    minimum = rules.opening_min_points or 0
    layoff = t(
        "**lay off**: add single cards from your hand to any meld on the table",
        "**anlegen**: einzelne Karten aus der Hand an jede Figur auf dem Tisch legen",
    )
    if minimum and rules.opening_scope == "single_meld":
        opening = t(
            f"Your first meld (the **opening**) must on its own be worth at least {minimum} points",
            f"Die erste Figur (die **Erstmeldung**) muss allein mindestens {minimum} Punkte wert sein",
        )
    elif minimum:
        opening = t(
            f"Your first melds (the **opening**) must be worth at least {minimum} points together",
            f"Die ersten Figuren (die **Erstmeldung**) müssen zusammen mindestens {minimum} Punkte wert sein",
        )
    else:
        opening = t(
            "There is no opening minimum: any meld may go down",
            "Es gibt keinen Mindestwert: jede Figur darf auf den Tisch",
        )
    if rules.layoff_requires_opened:
        opening += t(f"; after that you may also {layoff}.", f"; danach darf man auch {layoff}.")
    else:
        opening += t(f". You may also {layoff}.", f". Man darf auch {layoff}.")
    scoring = {
        "winner_collects": t(
            "the winner collects the value of the cards left in the others' hands as plus points.",
            "der Gewinner bekommt den Wert der Karten, die die anderen noch auf der Hand haben, als "
            "Pluspunkte.",
        ),
        "winner_gets_sum": t(
            "the others score the cards left in their hands as **minus points**, and the winner their "
            "sum as plus points.",
            "die anderen bekommen ihre restlichen Handkarten als **Minuspunkte**, der Gewinner deren Summe "
            "als Pluspunkte.",
        ),
    }.get(
        rules.hand_scoring,
        t(
            "the others score the cards left in their hands as **minus points**.",
            "die anderen bekommen ihre restlichen Handkarten als **Minuspunkte**.",
        ),
    )
    won = match_winner_text(rules, t)
    won = f" {won}" if won else ""
    text = t(
        f"{hold} and try to form **melds**: sets (cards of the same rank) and runs (cards of one suit in "
        "sequence). Each turn you draw a card, may put melds on the table, and discard one card. "
        f"{opening} Whoever first gets rid of all their cards **goes out** and ends the hand; {scoring} "
        f"{match_end_text(rules, t)}.{won}",
        f"{hold} und versucht, **Figuren** zu bilden: Sätze (Karten gleichen Werts) und Folgen (Karten "
        "einer Farbe in Reihe). In jedem Zug zieht man eine Karte, darf Figuren auf den Tisch legen und "
        f"wirft eine Karte ab. {opening} Wer zuerst alle Karten los ist, **macht aus** und beendet das "
        f"Spiel; {scoring} {match_end_text(rules, t)}.{won}",
    )
    return [Heading(2, t("How a hand goes", "So läuft ein Spiel")), Paragraph(text)]


def example_set(rules: Rules, rank: str = "4") -> str:
    """A set of fours as small as ``set_size_min`` allows (``4S 4D 4C``; with four at least
    ``4S 4D 4C 4H``, and beyond, where two packs allow it, the suits again)."""
    suits = "SDCH" * 2
    return " ".join(rank + suit for suit in suits[: rules.set_size_min])


def opening(rules: Rules, t: Lang) -> list[Block]:
    minimum = rules.opening_min_points or 0
    # The English heading gives the word the game's own players use for the first melds.
    native = {"scala40": "apertura"}.get(rules.name, "auslegen" if rules.name.startswith("german") else "")
    head = Heading(2, t(f"Opening (laying out{', ' + native if native else ''})", "Auslegen (Erstmeldung)"))
    if minimum == 0:
        return [
            head,
            Paragraph(
                t(
                    "There is no opening minimum: put melds on the table whenever you have them.",
                    "Es gibt keinen Mindestwert: Figuren darf man legen, sobald man sie hat.",
                )
            ),
        ]
    run, group = "10H JH QH", example_set(rules)
    a, b = meld_value(run, rules), meld_value(group, rules)
    total = a + b if rules.opening_scope == "all_melds_this_turn" else max(a, b)
    enough = total >= minimum
    if rules.opening_scope == "all_melds_this_turn":
        rule = t(
            f"Your first melds in a hand, laid in one turn, must be worth at least **{minimum} points** "
            "together.",
            f"Die ersten Figuren eines Spiels, in einem Zug gelegt, müssen zusammen mindestens **{minimum} "
            "Punkte** wert sein.",
        )
        example = t(
            f"Example: {cards(run)} ({a}) and {cards(group)} ({b}) make {a + b} points: "
            + ("enough." if enough else f"not enough for {minimum}."),
            f"Beispiel: {cards(run)} ({a}) und {cards(group)} ({b}) ergeben {a + b} Punkte: "
            + ("genug." if enough else f"zu wenig für {minimum}."),
        )
    else:
        rule = t(
            f"Your first meld must on its own be worth at least **{minimum} points**.",
            f"Die erste Figur muss allein mindestens **{minimum} Punkte** wert sein.",
        )
        example = t(
            f"Example: {cards(run)} is worth {a}, {cards(group)} {b}: "
            + ("enough." if enough else f"neither reaches {minimum}."),
            f"Beispiel: {cards(run)} ist {a} wert, {cards(group)} {b}: "
            + ("genug." if enough else f"keine erreicht {minimum}."),
        )
    items = [example]
    if rules.ace_low_in_runs and rules.ace_high_in_runs:
        low, high = meld_value("AH 2H 3H", rules), meld_value("QC KC AC", rules)
        items.append(
            t(
                f"The ace counts 1 low and 11 high: {cards('AH 2H 3H')} is worth {low}, {cards('QC KC AC')} "
                f"{high}.",
                f"Das Ass zählt unten 1 und oben 11: {cards('AH 2H 3H')} ist {low} wert, {cards('QC KC AC')} "
                f"{high}.",
            )
        )
    items.append(
        t(
            f"A joker counts as the card it stands for: {cards('5H 6H JK')} is worth "
            f"{meld_value('5H 6H JK', rules)}.",
            f"Ein Joker zählt wie die Karte, die er ersetzt: {cards('5H 6H JK')} ist "
            f"{meld_value('5H 6H JK', rules)} wert.",
        )
    )
    if rules.opening_counts_taken_discard:
        items.append(
            t(
                "A card taken from the discard pile counts when it is part of the opening.",
                "Eine von der Ablage genommene Karte zählt mit, wenn sie Teil der Erstmeldung ist.",
            )
        )
    else:
        items.append(
            t(
                "A card taken from the discard pile does not count toward the minimum.",
                "Eine von der Ablage genommene Karte zählt nicht zum Mindestwert.",
            )
        )
        if rules.num_decks > 1:
            items.append(
                t(
                    "Where the opening lays an equal card too (two decks), nobody can tell which of the "
                    "two was taken: it is left out of the meld where that leaves the opening worth most.",
                    "Liegt eine gleiche Karte mit aus (zwei Kartenspiele), kann niemand sagen, welche der "
                    "beiden genommen wurde: Sie zählt in der Figur nicht, in der das erste Auslegen so am "
                    "meisten wert bleibt.",
                )
            )
    not_yet = []
    if not rules.layoff_on_opening_turn:
        not_yet.append(t("laying off", "Anlegen"))
    if rules.joker_exchange and not rules.joker_exchange_on_opening_turn:
        not_yet.append(t("joker exchange", "Joker tauschen"))
    if not_yet:
        what = t.join(not_yet)
        items.append(
            t(
                f"{what[0].upper()}{what[1:]} {t.plural(len(not_yet), 'is', 'are')} not allowed in the turn "
                "you open.",
                f"{what} {t.plural(len(not_yet), 'ist', 'sind')} im Zug des ersten Auslegens nicht erlaubt.",
            )
        )
    items.append(
        t(
            "Only the new melds count toward the minimum, never cards laid off.",
            "Zum Mindestwert zählen nur die neuen Figuren, nie angelegte Karten.",
        )
    )
    items.append(
        t(
            "After opening you may lay new melds of any value on later turns.",
            "Nach dem ersten Auslegen darf man in späteren Zügen weitere Figuren jeden Werts legen.",
        )
    )
    return [head, Paragraph(rule), Bullets(tuple(items))]


def layoff(rules: Rules, t: Lang) -> list[Block]:
    when = []
    if rules.layoff_requires_opened:
        when.append(
            t("from the turn after your opening", "ab dem Zug nach dem eigenen ersten Auslegen")
            if not rules.layoff_on_opening_turn
            else t("once you have opened", "sobald man ausgelegt hat")
        )
    rule = t(
        "You may add single cards from your hand to any meld on the table, yours or another player's"
        + (f", {when[0]}." if when else "."),
        "Man darf einzelne Karten aus der Hand an jede Figur auf dem Tisch legen, eigene und fremde"
        + (f", {when[0]}." if when else "."),
    )
    table_meld = Meld.parse("5H 6H 7H", rules)
    fits = t.join([c.symbol() for c in table_meld.layoff_cards(rules)], t("or", "oder"))
    example = t(
        f"Example: on {cards('5H 6H 7H')} you can lay off {fits}.",
        f"Beispiel: an {cards('5H 6H 7H')} passt {fits}.",
    )
    group = "QC QD QS"
    if legal(group, rules):
        naturals = [c.symbol() for c in Meld.parse(group, rules).layoff_cards(rules) if not c.is_joker]
        if naturals:
            example += t(
                f" A set such as {cards(group)} takes {t.join(naturals, 'or')}.",
                f" Ein Satz wie {cards(group)} nimmt {t.join(naturals, 'oder')}.",
            )
    example += t(" Melds are never split or rearranged.", " Figuren werden nie geteilt oder umgebaut.")
    return [Heading(2, t("Laying off (anlegen)", "Anlegen")), Paragraph(rule), Paragraph(example)]


def joker_exchange(rules: Rules, t: Lang) -> list[Block]:
    head = Heading(2, t("Exchanging a joker (Joker tauschen)", "Joker tauschen"))
    if not rules.joker_exchange:
        return [
            head,
            Paragraph(
                t(
                    "Jokers on the table stay where they are: there is no joker exchange.",
                    "Joker auf dem Tisch bleiben liegen: Joker tauschen gibt es nicht.",
                )
            ),
        ]
    when = ""
    if rules.joker_exchange_requires_opened:
        when = (
            t(" once you opened on an earlier turn", ", sofern er schon in einem früheren Zug ausgelegt hat")
            if not rules.joker_exchange_on_opening_turn
            else t(" once you have opened", ", sofern er schon ausgelegt hat")
        )
    items = [
        t(
            "If you hold the natural card a joker on the table stands for, you may put it in the joker's "
            "place "
            f"and take the joker{when}. Example: {cards('7H JK 9H')} on the table, you hold {cards('8H')}.",
            "Wer die echte Karte hat, für die ein Joker auf dem Tisch steht, darf sie an seine Stelle legen "
            "und "
            f"den Joker nehmen{when}. Beispiel: {cards('7H JK 9H')} liegt, man hat {cards('8H')}.",
        )
    ]
    destination = {
        "new_meld_same_turn": t(
            "The joker must go into a new meld in the same turn; it never stays in your hand.",
            "Der Joker muss im selben Zug in eine neue Figur; er bleibt nie auf der Hand.",
        ),
        "any_meld_same_turn": t(
            "The joker must go back onto the table (a new meld or laid off) in the same turn.",
            "Der Joker muss im selben Zug wieder auf den Tisch (neue Figur oder angelegt).",
        ),
        "hand": t("The joker goes into your hand.", "Der Joker kommt auf die Hand."),
    }[rules.exchanged_joker_destination]
    items.append(destination)
    if rules.set_joker_exchange == "complete_four_only":
        items.append(
            t(
                "From a set, a joker may only be taken if the set then holds four natural cards: from "
                f"{cards('QC QD JK')} "
                f"you need both {cards('QH QS')}.",
                "Aus einem Satz darf man den Joker nur nehmen, wenn der Satz danach aus vier echten Karten "
                "besteht: "
                f"für {cards('QC QD JK')} braucht man {cards('QH QS')}.",
            )
        )
    else:
        items.append(
            t(
                f"From a set the joker can be taken with a missing suit: from {cards('QC QD JK')} with "
                f"{cards('QH')} or {cards('QS')}.",
                f"Aus einem Satz nimmt man den Joker mit einer fehlenden Farbe: aus {cards('QC QD JK')} mit "
                f"{cards('QH')} oder {cards('QS')}.",
            )
        )
    return [head, Bullets(tuple(items))]


def going_out(rules: Rules, t: Lang) -> list[Block]:
    if rules.going_out_requires_discard:
        how = t(
            "You go out by discarding your last card. You must always keep one card to discard: melding or "
            "laying off your whole hand is not allowed.",
            "Man macht aus, indem man die letzte Karte abwirft. Eine Karte zum Abwerfen muss immer bleiben: "
            "die ganze Hand auszulegen oder anzulegen ist nicht erlaubt.",
        )
    else:
        how = t(
            "You go out as soon as you hold no cards: by melding and laying off everything, or by discarding "
            "your last card.",
            "Man macht aus, sobald man keine Karte mehr hat: durch Auslegen und Anlegen oder durch Abwerfen "
            "der letzten Karte.",
        )
    if rules.final_discard_face_down and rules.going_out_requires_discard:
        how += t(
            ' The last card is placed face down and you call "Rommé!".',
            " Die letzte Karte wird verdeckt abgelegt und man ruft „Rommé!“.",
        )
    elif rules.final_discard_face_down:  # going out by melding everything leaves no card to lay down
        how += t(
            ' A last card you discard is placed face down; either way you call "Rommé!".',
            " Wirft man die letzte Karte ab, legt man sie verdeckt ab; so oder so ruft man „Rommé!“.",
        )
    items = [
        how,
        t(
            "The hand ends at once; the others count the cards left in their hands.",
            "Das Spiel endet sofort; die anderen zählen ihre restlichen Karten.",
        ),
    ]
    if rules.hand_romme_multiplier > 1:
        need = (
            t(" The opening minimum still applies.", " Der Mindestwert gilt trotzdem.")
            if rules.hand_romme_requires_opening_min and rules.opening_min_points
            else ""
        )
        name = hand_out_name(rules, t)
        before = hand_out_before(rules, t)
        times = "doppelt" if rules.hand_romme_multiplier == 2 else f"×{rules.hand_romme_multiplier}"
        items.append(
            t(
                f"**{name}**: going out in one turn {before} multiplies the "
                f"points of this hand by {rules.hand_romme_multiplier}.{need}",
                f"**{name}**: Macht jemand in einem Zug aus, {before}, zählen die "
                f"Punkte dieses Spiels {times}.{need}",
            )
        )
    return [Heading(2, t("Going out", "Ausmachen")), Bullets(tuple(items))]
