"""Scoring on a player's page: what a hand scores, the stock running out and the end of the match,
with the values of the page's rules."""

from __future__ import annotations

from typing import Final

from rummykit.cards import parse_cards
from rummykit.explain.document import Block, Bullets, Heading, Paragraph
from rummykit.explain.language import Lang, times_de
from rummykit.explain.terms import hand_out_name
from rummykit.match import MOST_REDEALS_IN_A_ROW
from rummykit.rules import Rules

PENALTY_EXAMPLE: Final = "AS JK 7D KC"


def hand_score(rules: Rules, t: Lang) -> list[Block]:
    head = Heading(2, t("Scoring a hand", "Wertung eines Spiels"))
    if rules.is_knock_game:
        knocker = (
            t(
                "The knocker writes down their own deadwood too.",
                "Auch wer klopft, schreibt seine Restpunkte auf.",
            )
            if rules.knocker_scores_own_deadwood
            else t("The knocker writes down 0.", "Wer klopft, schreibt 0.")
        )
        return [
            head,
            Bullets(
                (
                    t(
                        "Every player writes down their deadwood as **bad points**; the Rummy caller writes "
                        "0.",
                        "Jeder schreibt seine Restpunkte auf; wer Rummy ruft, schreibt 0.",
                    ),
                    knocker,
                    t(
                        "Bad points add up over the hands; fewer is better. Scores are shown as minus "
                        "numbers "
                        "(-23 means 23 bad points).",
                        "Die Restpunkte werden zusammengezählt; weniger ist besser. Angezeigt werden sie "
                        "als "
                        "Minuszahlen (-23 heißt 23 Restpunkte).",
                    ),
                )
            ),
        ]
    hand = parse_cards(PENALTY_EXAMPLE)
    values = [rules.penalty_value(c) for c in hand]
    total = sum(values)
    sum_text = " + ".join(str(v) for v in values) + f" = {total}"
    example_cards = " ".join(c.symbol() for c in hand)
    items: tuple[str, ...]
    if rules.hand_scoring == "winner_collects":
        items = (
            t(
                "The player who went out collects the value of all cards left in the other hands as **plus "
                "points**.",
                "Wer ausgemacht hat, bekommt den Wert aller Karten, die die anderen noch auf der Hand "
                "haben, als **Pluspunkte**.",
            ),
            t(
                f"Example: a player still holds {example_cards}: {sum_text} points for the winner.",
                f"Beispiel: ein Spieler hat noch {example_cards} auf der Hand: {sum_text} Punkte für den "
                "Gewinner.",
            ),
        )
        return [head, Bullets(items)]
    double = ""
    if rules.hand_romme_multiplier > 1:
        name = hand_out_name(rules, t)
        double = t(
            f" (after going out {name}: {total * rules.hand_romme_multiplier})"
            if rules.name == "scala40"
            else f" (after a {name}: {total * rules.hand_romme_multiplier})",
            f" (nach {name}: {total * rules.hand_romme_multiplier})",
        )
    items = (
        t(
            "The player who went out scores 0. Everybody else scores the value of the cards left in their "
            "hand as "
            "**minus points**; cards on the table never count.",
            "Wer ausgemacht hat, bekommt 0. Alle anderen bekommen den Wert ihrer restlichen Handkarten als "
            "**Minuspunkte**; Karten auf dem Tisch zählen nie.",
        ),
        t(
            f"Example: {example_cards} left in hand: {sum_text} minus points{double}.",
            f"Beispiel: {example_cards} auf der Hand: {sum_text} Minuspunkte{double}.",
        ),
        t(
            f"Scores are shown as minus numbers: -{total} means {total} minus points. The highest score "
            "(fewest minus points) is best.",
            f"Angezeigt werden Minuszahlen: -{total} heißt {total} Minuspunkte. Der höchste Stand (die "
            "wenigsten Minuspunkte) ist am besten.",
        ),
    )
    if rules.hand_scoring == "winner_gets_sum":
        items = (
            t(
                "Everybody but the player who went out scores the value of the cards left in their hand as "
                "**minus points**; cards on the table never count.",
                "Alle außer dem, der ausgemacht hat, bekommen den Wert ihrer restlichen Handkarten als "
                "**Minuspunkte**; Karten auf dem Tisch zählen nie.",
            ),
            items[1],
            t(
                "The player who went out records the sum of everybody's minus points as **plus points**.",
                "Wer ausgemacht hat, schreibt sich die Summe aller Minuspunkte als **Pluspunkte** gut.",
            ),
            t(
                "A score is the plus points less the minus points; the highest score is best.",
                "Der Stand ist Pluspunkte weniger Minuspunkte; der höchste Stand ist am besten.",
            ),
        )
    return [head, Bullets(items)]


def stock(rules: Rules, t: Lang) -> list[Block]:
    text = {
        "reshuffle_keep_top": t(
            "If the stock is empty when someone must draw, the discard pile except its top card is shuffled "
            "and "
            "becomes the new stock.",
            "Ist der Stoß leer, wenn jemand ziehen muss, wird die Ablage außer der obersten Karte gemischt "
            "und "
            "wird zum neuen Stoß.",
        ),
        "turn_over_keep_top": t(
            "If the stock is empty, the discard pile except its top card is turned over (not shuffled) as "
            "the new stock.",
            "Ist der Stoß leer, wird die Ablage außer der obersten Karte umgedreht (nicht gemischt) und "
            "wird zum neuen Stoß.",
        ),
        "turn_over_all_if_declined": t(
            "If the stock is empty and the next player does not take the discard, the whole discard pile is "
            "turned "
            "over as the new stock.",
            "Ist der Stoß leer und nimmt der nächste Spieler nicht von der Ablage, wird die ganze Ablage "
            "umgedreht "
            "und wird zum neuen Stoß.",
        ),
        "end_hand_no_score": t(
            "If the stock runs out, the hand ends without a score.",
            "Ist der Stoß leer, endet das Spiel ohne Wertung.",
        ),
    }.get(rules.stock_exhaustion, f"`{rules.stock_exhaustion}`")
    limit = ""
    if rules.stock_exhaustion != "end_hand_no_score" and rules.max_stock_rebuilds is not None:
        limit = t(
            f" This happens at most {rules.max_stock_rebuilds} times per hand; when the stock runs out again "
            "(or "
            "no new stock can be made) the hand ends without a score.",
            f" Das geschieht höchstens {times_de(rules.max_stock_rebuilds)} pro Spiel; ist der Stoß danach "
            "wieder leer (oder lässt sich kein neuer bilden), endet das Spiel ohne Wertung.",
        )
    blocks: list[Block] = [
        Heading(2, t("When the stock runs out", "Wenn der Stoß leer ist")),
        Paragraph(text + limit),
    ]
    if rules.not_applicable("max_takes_in_a_row") is None:
        n = rules.max_takes_in_a_row
        blocks.append(
            Paragraph(
                t(
                    f"Nobody may pass the same cards back and forth for ever: after {n} turns in a row that "
                    "began by taking the discard pile, the next take ends the hand without a score.",
                    f"Niemand kann dieselben Karten endlos hin und her schieben: nach {n} Zügen "
                    "hintereinander, die mit einer Karte von der Ablage begannen, beendet die nächste Karte "
                    "von der Ablage das Spiel ohne Wertung.",
                )
            )
        )
    return blocks


def match_end_text(rules: Rules, t: Lang) -> str:
    if rules.match_end == "fixed_hands":
        if rules.num_hands == 1:
            return t("A match has one hand", "Eine Partie hat ein Spiel")
        if rules.num_hands:
            return t(f"A match has {rules.num_hands} hands", f"Eine Partie hat {rules.num_hands} Spiele")
        if rules.deal_rotation == "winner_deals":
            # The winner of a hand deals the next: a player may deal several hands, another none.
            return t(
                "A match has one hand per player (the winner of a hand deals the next, so not everyone "
                "deals)",
                "Eine Partie hat so viele Spiele wie Spieler (wer ein Spiel gewinnt, gibt das nächste; "
                "so gibt nicht unbedingt jeder)",
            )
        return t(
            "A match has one hand per player (everyone deals once)",
            "Eine Partie hat so viele Spiele wie Spieler (jeder gibt einmal)",
        )
    kind, kind_de = _penalty_words(rules)
    if rules.match_end == "penalty_limit":
        return t(
            f"The match ends when someone reaches {rules.penalty_limit} {kind} points",
            f"Die Partie endet, wenn jemand {rules.penalty_limit} {kind_de} erreicht",
        )
    if rules.match_end == "elimination_last_survivor":
        return t(
            f"Out at {rules.elimination_threshold} {kind} points; the last player left wins",
            f"Raus bei {rules.elimination_threshold} {kind_de}n; wer übrig bleibt, gewinnt",
        )
    if rules.match_end == "target_score":
        return t(
            f"First to {rules.target_score} plus points wins",
            f"Wer zuerst {rules.target_score} Pluspunkte hat, gewinnt",
        )
    return t("A single hand", "Ein einzelnes Spiel")


def _penalty_words(rules: Rules) -> tuple[str, str]:
    """What a hand's loss is called: a knock game's deadwood is written down as **bad points**
    (Restpunkte), a melding game's cards left in hand as **minus points** (Minuspunkte)."""
    return ("bad", "Restpunkte") if rules.is_knock_game else ("minus", "Minuspunkte")


def match_winner_text(rules: Rules, t: Lang) -> str:
    """Who wins a match that ends after a number of hands or at a limit (``""`` for the others, whose
    end already names the winner)."""
    if rules.match_end not in ("fixed_hands", "penalty_limit", "single_hand"):
        return ""
    kind, kind_de = _penalty_words(rules)
    best = {
        "winner_collects": t("The most plus points in total win", "Die meisten Pluspunkte gewinnen"),
        "winner_gets_sum": t(
            "The highest total (plus points less minus points) wins",
            "Der höchste Stand (Pluspunkte weniger Minuspunkte) gewinnt",
        ),
    }.get(
        rules.hand_scoring,
        t(f"The fewest {kind} points in total win", f"Die wenigsten {kind_de} gewinnen"),
    )
    return best + "; " + tie_text(rules, t)


def tie_text(rules: Rules, t: Lang) -> str:
    """What equal best totals at the end of a match do (``match_tiebreak``), as a sentence's end."""
    tiebreak = rules.match_tiebreak if rules.not_applicable("match_tiebreak") is None else "share"
    if tiebreak == "most_hands_won":
        return t(
            "with equal totals, whoever of them went out in the most hands wins, and those still equal "
            "share the win.",
            "bei Gleichstand gewinnt von ihnen, wer in den meisten Spielen ausgemacht hat; wer dann noch "
            "gleich steht, teilt sich den Sieg.",
        )
    if tiebreak == "best_last_hand":
        return t(
            "with equal totals, whoever of them scored best in the last scored hand that all of them "
            "were dealt in wins (a hand one of them sat out does not decide); those still equal share the "
            "win, and so do all of them without such a hand.",
            "bei Gleichstand gewinnt von ihnen, wer im letzten gewerteten Spiel, in dem sie alle "
            "mitspielten, am besten abschnitt (ein Spiel, in dem einer von ihnen aussetzte, entscheidet "
            "nicht); wer dann noch gleich steht, teilt sich den Sieg, ebenso ohne ein solches Spiel.",
        )
    return t("equal totals share the win.", "bei Gleichstand teilen sich die Besten den Sieg.")


def unscored_hand_text(rules: Rules, t: Lang) -> str:
    """What a hand that ends without a score does to a fixed series (``unscored_hand``); ``""`` where
    the option does not apply."""
    if rules.not_applicable("unscored_hand") is not None:
        return ""
    if rules.unscored_hand == "redeal":
        return t(
            "A hand that ends without a score does not count: the same dealer deals again. After "
            f"{MOST_REDEALS_IN_A_ROW} such hands in a row the next one counts even without a score, so "
            "the match always ends.",
            "Ein Spiel, das ohne Wertung endet, zählt nicht: derselbe Geber gibt neu. Nach "
            f"{MOST_REDEALS_IN_A_ROW} solchen Spielen hintereinander zählt das nächste auch ohne Wertung, "
            "damit die Partie immer endet.",
        )
    return t(
        "A hand that ends without a score still counts as one of the hands; the deal passes on.",
        "Ein Spiel, das ohne Wertung endet, zählt trotzdem als eines der Spiele; der Nächste gibt.",
    )


def match(rules: Rules, t: Lang) -> list[Block]:
    items = [match_end_text(rules, t) + "."]
    if rules.match_end in ("fixed_hands", "penalty_limit", "single_hand"):
        items.append(match_winner_text(rules, t))
    unscored = unscored_hand_text(rules, t)
    if unscored:
        items.append(unscored)
    if rules.match_end == "target_score":
        items.append(t("Equal totals share the win.", "Bei Gleichstand teilen sich die Besten den Sieg."))
    elif rules.match_end == "elimination_last_survivor" and not rules.is_knock_game:
        items.append(
            t(
                "The winner of a hand scores nothing, so one player is always left.",
                "Wer ein Spiel gewinnt, schreibt nichts an; so bleibt immer ein Spieler übrig.",
            )
        )
    if rules.is_knock_game and rules.match_end == "elimination_last_survivor":
        items = rubber_items(rules, t)
    return [Heading(2, t("The match", "Die Partie")), Bullets(tuple(items))]


def rubber_items(rules: Rules, t: Lang) -> list[str]:
    """The rubber of a knock game (RULES.md §4.8, D8, D11, D19), each rule worded for its value: a
    rubber whose ante, knock money or buy-backs are switched off (0) says so instead of naming 0
    chips or buy-backs "0 times at most", and without any chips paid in there is no pot to win."""
    pot_filled = rules.pot_ante > 0 or (rules.buyback_limit > 0 and rules.buyback_cost > 0)
    last = (
        t(
            "The last player left takes the pot; if the last players are out together, the lowest total "
            "wins and equal totals share the pot (chips that do not divide evenly go one each to those "
            "sharing, starting from the dealer's left).",
            "Wer übrig bleibt, bekommt den Pott; scheiden die letzten gemeinsam aus, gewinnt der "
            "niedrigste Stand, bei Gleichstand wird geteilt (Chips, die sich nicht teilen lassen, "
            "bekommen die Teilenden einzeln, vom Platz links vom Geber an).",
        )
        if pot_filled
        else t(
            "The last player left wins; if the last players are out together, the lowest total wins and "
            "equal totals share the win.",
            "Wer übrig bleibt, gewinnt; scheiden die letzten gemeinsam aus, gewinnt der niedrigste Stand, "
            "bei Gleichstand teilen sich die Besten den Sieg.",
        )
    )
    return [
        t(
            "A **rubber** is played until one player is left.",
            "Eine **Partie** wird gespielt, bis nur einer übrig ist.",
        ),
        _ante_text(rules, t),
        _knock_money_text(rules, t),
        t(
            f"Bad points add up; at {rules.elimination_threshold} or more you are out. The deal passes "
            "on clockwise and skips the players who are out.",
            f"Die Restpunkte werden addiert; ab {rules.elimination_threshold} ist man raus. Das Geben "
            "geht im Uhrzeigersinn weiter und überspringt, wer raus ist.",
        ),
        _buyback_text(rules, t),
        last,
    ]


def _ante_text(rules: Rules, t: Lang) -> str:
    """``pot_ante`` paid ``ante_frequency`` (D11); none at 0."""
    if rules.pot_ante == 0:
        return t("Nobody pays an ante into the pot.", "Niemand zahlt einen Einsatz in den Pott.")
    if rules.ante_frequency == "per_rubber":
        return t(
            f"Everybody pays {rules.pot_ante} chips into the pot once per rubber.",
            f"Jeder zahlt einmal pro Partie {rules.pot_ante} Chips in den Pott.",
        )
    return t(
        f"Everybody still in pays {rules.pot_ante} chips into the pot before every hand (a player who "
        "is out pays nothing more).",
        f"Wer noch dabei ist, zahlt vor jedem Spiel {rules.pot_ante} Chips in den Pott (wer raus ist, "
        "zahlt nichts mehr).",
    )


def _knock_money_text(rules: Rules, t: Lang) -> str:
    """``knock_money`` from every other player in the hand to the knocker or Rummy caller; none at 0."""
    if rules.knock_money == 0:
        return t(
            "There is no **knock money**: the knocker or Rummy caller gets no chips from the others.",
            "Es gibt kein **Klopfgeld**: wer klopft oder Rummy ruft, bekommt keine Chips von den anderen.",
        )
    chips_en = t.plural(rules.knock_money, "1 chip", f"{rules.knock_money} chips")
    chips_de = t.plural(rules.knock_money, "1 Chip", f"{rules.knock_money} Chips")
    return t(
        f"**Knock money**: after each hand the knocker or Rummy caller gets {chips_en} from every "
        "other player in the hand, also from a player that hand puts out.",
        f"**Klopfgeld**: nach jedem Spiel bekommt, wer geklopft oder Rummy gerufen hat, {chips_de} "
        "von jedem anderen Spieler dieses Spiels, auch von einem, der in diesem Spiel ausscheidet.",
    )


def _buyback_text(rules: Rules, t: Lang) -> str:
    """The buy-back (``buyback_window``, ``buyback_cost``, ``buyback_limit``, target D8); none when
    ``buyback_limit`` is 0, free when ``buyback_cost`` is 0."""
    if rules.buyback_limit == 0:
        return t(
            "There is no **buy-back**: whoever reaches the limit is out.",
            "Es gibt keinen **Rückkauf**: wer die Grenze erreicht, ist raus.",
        )
    low, high = rules.buyback_window
    times_en = t.plural(rules.buyback_limit, "once", f"{rules.buyback_limit} times")
    pay_en = f"pay {rules.buyback_cost} chips" if rules.buyback_cost else "buy back free of charge"
    pay_de = f"für {rules.buyback_cost} Chips" if rules.buyback_cost else "kostenlos"
    return t(
        f"**Buy-back**: right after a hand, with a total above {low} and below {high}, you may {pay_en} "
        f"({times_en} per rubber at most) to go down to the highest total of the other players still in "
        "that is not above yours (the second-worst total). When that would not lower yours (another "
        "player has the same total), no buy-back is offered.",
        f"**Rückkauf**: direkt nach einem Spiel darf man sich {pay_de} zurückkaufen, wenn der Stand über "
        f"{low} und unter {high} liegt (höchstens {times_de(rules.buyback_limit)} pro Partie), und wird "
        "auf den höchsten Stand der übrigen Spieler gesetzt, der nicht über dem eigenen liegt (den "
        "zweitschlechtesten). Würde das den Stand nicht senken (ein anderer hat denselben Stand), gibt es "
        "kein Angebot.",
    )
