"""The rules of one :class:`~rummykit.rules.Rules` value as a page for players (English or German).

Every figure on a page is read from the options (opening minimum, card values, knock limit, ante …),
so a table with house rules gets a page with its own values, and the options that differ from the
named preset are listed first as house rules. Examples are computed by the engine itself (meld
values, which melds are allowed, deadwood), so a page can never contradict the game.
"""

from __future__ import annotations

from typing import Final

from rummykit import solver
from rummykit.cards import parse_cards
from rummykit.errors import IllegalMeldError
from rummykit.explain import gin_page
from rummykit.explain.document import Block, Bullets, Heading, Paragraph, Table
from rummykit.explain.language import Lang, cards
from rummykit.explain.terms import GLOSSARY, option_label, value_words
from rummykit.melds import Meld
from rummykit.rules import Rules

TITLES: Final[dict[str, tuple[str, str]]] = {
    "german": ("German Rummy (Rommé)", "Rommé"),
    "german_dskv": ("German Rummy, tournament rules (DSkV)", "Rommé nach Turnierregeln (DSkV)"),
    "viennese": ("Viennese Rummy (Wiener Rummy)", "Wiener Rommé (Wiener Rummy)"),
    "romme_ohne_auslegen": ("Rommé without laying out (Rommé ohne Auslegen)", "Rommé ohne Auslegen"),
    "scala40": ("Scala 40 (Scala Quaranta)", "Scala 40 (Scala Quaranta)"),
    "basic": ("Basic Rummy", "Einfaches Rummy (Basic Rummy)"),
    "gin": ("Gin Rummy", "Gin-Rommé (Gin Rummy)"),
}
"""Page titles of the presets, in English and German."""

SUMMARIES: Final[dict[str, tuple[str, str]]] = {
    "german": (
        "The Rommé played in German homes: lay out melds on the table, then get rid of every card.",
        "Das Rommé der deutschen Wohnzimmer: Figuren auslegen und alle Karten loswerden.",
    ),
    "german_dskv": (
        "Rommé as played in clubs and tournaments: four at a table, the dealer sits out, joker 20.",
        "Rommé wie im Verein und im Turnier: vier am Tisch, der Geber setzt aus, Joker 20.",
    ),
    "viennese": (
        "A knock game: melds stay in your hand; knock with few points left, or call Rummy.",
        "Ein Klopfspiel: die Figuren bleiben in der Hand; klopfen mit wenig Restpunkten oder Rummy rufen.",
    ),
    "romme_ohne_auslegen": (
        "German Rummy without laying out: 13 cards, melds stay in your hand, knock below 10.",
        "Rommé ohne Auslegen: 13 Karten, die Figuren bleiben in der Hand, klopfen unter 10.",
    ),
    "scala40": (
        "The Italian game: open with 40, take the discard only to meld it, out at 101.",
        "Das italienische Spiel: mit 40 auslegen, die Ablage nur zum Auslegen nehmen, raus bei 101.",
    ),
    "basic": (
        "The simplest rummy: one pack, no opening minimum, the winner collects the others' cards.",
        "Das einfachste Rummy: ein Kartenspiel, kein Mindestwert, der Gewinner kassiert.",
    ),
    "gin": (
        "Two players, ten cards: knock with little deadwood, lay off on the knocker, beware the undercut.",
        "Zwei Spieler, zehn Karten: mit wenig Rest klopfen, beim Klopfenden anlegen, Vorsicht vor dem "
        "Unterbieten.",
    ),
}
"""One line per preset for indexes and lobbies."""

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

PENALTY_EXAMPLE: Final = "AS JK 7D KC"
DEADWOOD_MELDS: Final = ("7H 8H 9H", "QC QD QS", "4C 5C 6C", "9D 9C 9S")
DEADWOOD_EXTRA: Final = ("3D", "2S", "AH")


def title(rules: Rules, t: Lang) -> str:
    en, de = TITLES.get(rules.name, (rules.name, rules.name))
    return t(en, de)


def summary(rules: Rules, t: Lang) -> str:
    en, de = SUMMARIES.get(rules.name, ("", ""))
    return t(en, de)


def page_blocks(rules: Rules, t: Lang) -> list[Block]:
    """The whole page: overview, house rules, cards, deal, melds, the turn, scoring, the match, terms."""
    changed = bool(rules.changes())
    heading = title(rules, t) + (t(" — house rules", " — Hausregeln") if changed else "")
    blocks: list[Block] = [Heading(1, heading)]
    if summary(rules, t):
        blocks.append(Paragraph(summary(rules, t)))
    if rules.is_gin:
        blocks += house_rules(rules, t)
        texts = players_text(rules, t), deck_text(rules, t), hand_size_text(rules, t)
        blocks += gin_page.gin_blocks(rules, t, *texts)
        blocks.append(Paragraph(_rule_set_line(rules, t)))
        return blocks
    blocks += glance(rules, t)
    blocks += house_rules(rules, t)
    blocks += card_values(rules, t)
    blocks += deal(rules, t)
    blocks += melds(rules, t)
    if rules.is_knock_game:
        blocks += knock_turn(rules, t) + deadwood(rules, t) + rummy_and_knock(rules, t)
    else:
        blocks += melding_turn(rules, t) + opening(rules, t) + layoff(rules, t) + joker_exchange(rules, t)
        blocks += going_out(rules, t)
    blocks += hand_score(rules, t) + stock(rules, t) + match(rules, t) + glossary(rules, t)
    blocks.append(Paragraph(_rule_set_line(rules, t)))
    return blocks


def _rule_set_line(rules: Rules, t: Lang) -> str:
    return t(
        f"Rule set: `{rules}`. Every option and its value: `rummykit rules {rules.name}`.",
        f"Regelsatz: `{rules}`. Alle Optionen mit Werten: `rummykit rules {rules.name}`.",
    )


# Overview -----------------------------------------------------------------------------------------
def players_text(rules: Rules, t: Lang) -> str:
    if rules.min_players == rules.max_players:
        return t(f"{rules.min_players} players", f"{rules.min_players} Spieler")
    return t(
        f"{rules.min_players} to {rules.max_players} players",
        f"{rules.min_players} bis {rules.max_players} Spieler",
    )


def deck_text(rules: Rules, t: Lang) -> str:
    packs = (
        t("one pack", "ein Kartenspiel")
        if rules.num_decks == 1
        else t(f"{rules.num_decks} packs", f"{rules.num_decks} Kartenspiele")
    )
    jokers = t(f"{rules.jokers_total} jokers", f"{rules.jokers_total} Joker")
    return t(
        f"{rules.deck_size} cards: {packs} of 52 and {jokers}",
        f"{rules.deck_size} Karten: {packs} zu 52 Karten und {jokers}",
    )


def hand_size_text(rules: Rules, t: Lang) -> str:
    """``13 cards each``, or by table size: ``10 cards each with 2 players, 7 with 3–4, 6 with 5–6``."""
    if rules.hand_size_rule == "fixed":
        return t(f"{rules.hand_size} cards each", f"je {rules.hand_size} Karten")
    groups: list[tuple[int, int, int]] = []
    for p in range(rules.min_players, rules.max_players + 1):
        size = rules.hand_size_for(p)
        if groups and groups[-1][2] == size:
            groups[-1] = (groups[-1][0], p, size)
        else:
            groups.append((p, p, size))
    parts = []
    for i, (low, high, size) in enumerate(groups):
        players = str(low) if low == high else f"{low}–{high}"
        if i == 0:
            parts.append(
                t(f"{size} cards each with {players} players", f"je {size} Karten bei {players} Spielern")
            )
        else:
            parts.append(t(f"{size} with {players}", f"{size} bei {players}"))
    return ", ".join(parts)


def glance(rules: Rules, t: Lang) -> list[Block]:
    items = [players_text(rules, t), deck_text(rules, t), hand_size_text(rules, t)]
    if rules.is_knock_game:
        assert rules.knock_threshold is not None
        items.append(knock_condition(rules, t))
        items.append(
            t("No cards are laid on the table during play.", "Während des Spiels wird nichts ausgelegt.")
        )
    elif rules.opening_min_points:
        items.append(
            t(
                f"First melds (opening) worth at least {rules.opening_min_points} points",
                f"Erstes Auslegen mit mindestens {rules.opening_min_points} Punkten",
            )
        )
    else:
        items.append(t("No opening minimum", "Kein Mindestwert beim Auslegen"))
    items.append(match_end_text(rules, t))
    return [Heading(2, t("At a glance", "Auf einen Blick")), Bullets(tuple(items))]


def house_rules(rules: Rules, t: Lang) -> list[Block]:
    changes = rules.changes()
    if not changes:
        return []
    base = Rules.PRESETS.get(rules.name, Rules.PRESETS["german"])
    rows = tuple(
        (
            option_label(option, t),
            value_words(option, value, t),
            value_words(option, getattr(base, option), t),
        )
        for option, value in changes.items()
    )
    count_en = t.plural(len(rows), "one rule", f"{len(rows)} rules")
    count_de = t.plural(len(rows), "eine Regel", f"{len(rows)} Regeln")
    return [
        Heading(2, t("House rules at this table", "Hausregeln an diesem Tisch")),
        Paragraph(
            t(
                f"This table changes {count_en} of {title(base, t)}; the page below follows this table.",
                f"Dieser Tisch ändert {count_de} von {title(base, t)}; die Seite unten folgt diesem Tisch.",
            )
        ),
        Table((t("rule", "Regel"), t("this table", "dieser Tisch"), t("standard", "Standard")), rows),
    ]


# Cards --------------------------------------------------------------------------------------------
def card_values(rules: Rules, t: Lang) -> list[Block]:
    blocks: list[Block] = [Heading(2, t("Cards and their values", "Karten und ihre Werte"))]
    blocks.append(Paragraph(t(deck_text(rules, t) + ".", deck_text(rules, t) + ".")))
    blocks.append(
        Paragraph(
            t(
                "Cards are shown as rank and suit: `7♥`, `10♣`, `Q♠`; J = jack, Q = queen, K = king, A = "
                "ace, "
                "JK = joker. Suits have no order.",
                "Karten werden als Wert und Farbe gezeigt: `7♥`, `10♣`, `Q♠`. J = Bube, Q = Dame, K = König, "
                "A = Ass, JK = Joker. ♣ Kreuz, ♦ Karo, ♥ Herz, ♠ Pik; die Farben haben keine Rangfolge.",
            )
        )
    )
    rows: tuple[tuple[str, ...], ...]
    if rules.is_knock_game:
        rows = (
            ("2–10", t("face value", "Augenzahl")),
            ("J, Q, K", "10"),
            ("A", str(rules.deadwood_ace)),
            (
                "JK",
                t(f"{rules.deadwood_joker} (0 inside a meld)", f"{rules.deadwood_joker} (0 in einer Figur)"),
            ),
        )
        blocks.append(Table((t("card", "Karte"), t("deadwood value", "Wert als Schlechtpunkte")), rows))
        return blocks
    ace_meld = []
    if rules.ace_low_in_runs:
        ace_meld.append(t("1 at the start of a run (A-2-3)", "1 am Anfang einer Folge (A-2-3)"))
    ace_meld.append(
        t("11 in a set or after the king (Q-K-A)", "11 im Satz oder nach dem König (Q-K-A)")
        if rules.ace_high_in_runs
        else t("11 in a set", "11 im Satz")
    )
    rows = (
        ("2–10", t("face value", "Augenzahl"), t("face value", "Augenzahl")),
        ("J, Q, K", "10", str(rules.penalty_court)),
        ("A", "; ".join(ace_meld), str(rules.penalty_ace)),
        (
            "JK",
            t("the value of the card it stands for", "der Wert der Karte, die er ersetzt"),
            str(rules.penalty_joker),
        ),
    )
    left = t("left in hand at the end", "am Ende in der Hand")
    header: tuple[str, ...] = (t("card", "Karte"), t("when opening", "beim Auslegen"), left)
    if not rules.opening_min_points:
        # Without an opening minimum a meld's value never matters: only the end-of-hand column is shown.
        header = (header[0], left)
        rows = tuple((row[0], row[2]) for row in rows)
    blocks.append(Table(header, rows))
    return blocks


def deal(rules: Rules, t: Lang) -> list[Block]:
    items: list[str] = []
    if rules.seat_draw == "high_card":
        items.append(
            t(
                "Everybody draws a card: the highest (ace high) picks a seat and deals first; "
                "ties and jokers draw again.",
                "Jeder zieht eine Karte: die höchste (Ass hoch) wählt den Platz und gibt zuerst; "
                "bei Gleichstand oder Joker wird neu gezogen.",
            )
        )
    else:
        items.append(
            t("Seats and the first dealer are drawn by lot.", "Plätze und erster Geber werden ausgelost.")
        )
    if rules.dealer_sits_out_at_table_of is not None:
        n = rules.dealer_sits_out_at_table_of
        items.append(
            t(
                f"At a table of {n} the dealer sits out the hand, so {n - 1} play.",
                f"An einem Tisch mit {n} Spielern setzt der Geber aus; es spielen {n - 1}.",
            )
        )
    packets = (
        t("in packets of 3, 3, 3 and 4 cards", "in Paketen zu 3, 3, 3 und 4 Karten")
        if rules.deal_packets == "p3334"
        else t("one at a time", "einzeln")
    )
    items.append(
        t(
            "The dealer shuffles, the player on the right cuts, and the cards are dealt clockwise "
            f"{packets}: "
            f"{hand_size_text(rules, t)}. The rest is the stock.",
            f"Der Geber mischt, der rechte Nachbar hebt ab, und es wird im Uhrzeigersinn {packets} gegeben: "
            f"{hand_size_text(rules, t)}. Der Rest ist der Stock.",
        )
    )
    if rules.joker_robbing:
        items.append(
            t(
                "A joker at the bottom of the cut-off packet may be kept by the cutter"
                + (", who is then dealt one card fewer." if rules.robbed_joker_counts_toward_hand else "."),
                "Liegt beim Abheben unten ein Joker, darf der Abhebende ihn behalten"
                + ("; er bekommt dann eine Karte weniger." if rules.robbed_joker_counts_toward_hand else "."),
            )
        )
    first = {
        "upcard": t(
            "The top card of the stock is turned face up: it starts the discard pile. The player to the "
            "dealer's left (forehand) begins.",
            "Die oberste Karte des Stocks wird aufgedeckt und beginnt die Ablage. Der Spieler links vom "
            "Geber (Vorhand) beginnt.",
        ),
        "dealer_extra_card": t(
            "The dealer gets one card more and begins without drawing: ",
            "Der Geber bekommt eine Karte mehr und beginnt, ohne zu ziehen: ",
        ),
        "forehand_extra_card": t(
            "The player to the dealer's left (forehand) gets one card more and begins without drawing: ",
            "Die Vorhand (links vom Geber) bekommt eine Karte mehr und beginnt, ohne zu ziehen: ",
        ),
    }.get(rules.start_mode, "")
    if rules.start_mode in ("dealer_extra_card", "forehand_extra_card"):
        first += (
            t(
                "they discard one card to start the discard pile (and may already knock or call Rummy).",
                "er wirft eine Karte ab, die die Ablage beginnt (und darf schon klopfen oder Rummy rufen).",
            )
            if rules.is_knock_game
            else t(
                "they may meld, then discard one card to start the discard pile.",
                "er darf auslegen und wirft dann eine Karte ab, die die Ablage beginnt.",
            )
        )
    items.append(first)
    rotation = {
        "clockwise": t("The deal passes clockwise.", "Das Geben wandert im Uhrzeigersinn."),
        "counterclockwise": t(
            "The deal passes counter-clockwise.", "Das Geben wandert gegen den Uhrzeigersinn."
        ),
        "winner_deals": t(
            "The winner of a hand deals the next one.", "Der Gewinner eines Spiels gibt das nächste."
        ),
    }[rules.deal_rotation]
    items.append(rotation)
    return [
        Heading(2, t("Seats, deal and the first turn", "Plätze, Geben und der erste Zug")),
        Bullets(tuple(items)),
    ]


# Melds --------------------------------------------------------------------------------------------
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
            "A meld needs at least one natural card.", "Eine Figur braucht mindestens eine echte Karte."
        ),
    }[rules.joker_limit]


def melds(rules: Rules, t: Lang) -> list[Block]:
    where = (
        t(
            "Melds are groups you form in your hand; they are shown only at the end of the hand. ",
            "Figuren bildet man in der Hand; gezeigt werden sie erst am Ende des Spiels. ",
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
    if rules.max_adjacent_jokers is not None:
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


# Melding games: the turn --------------------------------------------------------------------------
def melding_turn(rules: Rules, t: Lang) -> list[Block]:
    draw = t(
        "**Draw** one card: the top card of the stock, or the top card of the discard pile.",
        "**Ziehen**: eine Karte vom Stock oder die oberste Karte der Ablage.",
    )
    extra: list[str] = []
    if rules.discard_pickup_requires_opened == "opened_or_opening_with_it":
        extra.append(
            t(
                "You may take the discard only if you have opened, or open with it in this turn.",
                "Die Ablage darf nur nehmen, wer ausgelegt hat oder in diesem Zug damit auslegt.",
            )
        )
    elif rules.discard_pickup_requires_opened == "opened_before":
        extra.append(
            t(
                "You may take the discard only after you opened on an earlier turn.",
                "Die Ablage darf nur nehmen, wer in einem früheren Zug ausgelegt hat.",
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
    play = t(
        "**Play** if you can and want to: open (your first melds), lay more melds, lay off cards, exchange "
        "jokers.",
        "**Spielen**, wenn man kann und will: auslegen (das erste Mal: Erstmeldung), weitere Figuren legen, "
        "anlegen, Joker tauschen.",
    )
    discard = t(
        "**Discard** one card face up on the discard pile; that ends your turn.",
        "**Abwerfen**: eine Karte offen auf die Ablage; damit endet der Zug.",
    )
    rules_discard: list[str] = []
    if not rules.may_discard_taken_discard:
        rules_discard.append(
            t(
                "You may not discard the card you took from the discard pile in the same turn.",
                "Die gerade von der Ablage genommene Karte darf nicht im selben Zug abgeworfen werden.",
            )
        )
    if rules.joker_discard_allowed == "only_when_closing":
        rules_discard.append(
            t(
                "A joker may only be discarded as your last card.",
                "Ein Joker darf nur als letzte Karte abgeworfen werden.",
            )
        )
    if not rules.discard_playable_card_allowed:
        rules_discard.append(
            t(
                "You may not discard a card that could be laid off on a meld on the table.",
                "Eine Karte, die man an eine Figur auf dem Tisch anlegen könnte, darf man nicht abwerfen.",
            )
        )
    if rules_discard:
        discard += " " + " ".join(rules_discard)
    return [
        Heading(2, t("Your turn", "Dein Zug")),
        Paragraph(
            t(
                "Play goes clockwise. A turn has three steps:",
                "Gespielt wird im Uhrzeigersinn. Ein Zug hat drei Schritte:",
            )
        ),
        Bullets((draw, play, discard)),
    ]


def opening(rules: Rules, t: Lang) -> list[Block]:
    minimum = rules.opening_min_points or 0
    head = Heading(2, t("Opening (laying out, auslegen)", "Auslegen (Erstmeldung)"))
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
    run, group = "10H JH QH", "4S 4D 4C"
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
                f"{what} {t.plural(len(not_yet), 'ist', 'sind')} im Zug des Auslegens nicht erlaubt.",
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
            "Nach dem Auslegen darf man in späteren Zügen weitere Figuren jeden Werts legen.",
        )
    )
    return [head, Paragraph(rule), Bullets(tuple(items))]


def layoff(rules: Rules, t: Lang) -> list[Block]:
    when = []
    if rules.layoff_requires_opened:
        when.append(
            t("from the turn after your opening", "ab dem Zug nach dem eigenen Auslegen")
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
            t(" once you opened on an earlier turn", ", sobald man in einem früheren Zug ausgelegt hat")
            if not rules.joker_exchange_on_opening_turn
            else t(" once you have opened", ", sobald man ausgelegt hat")
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
    if rules.final_discard_face_down:
        how += t(
            ' The last card is placed face down and you call "Rommé!".',
            " Die letzte Karte wird verdeckt abgelegt und man ruft „Rommé!“.",
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
        items.append(
            t(
                "**Hand-Rommé**: going out in one turn without having melded before multiplies the "
                f"points of this hand by {rules.hand_romme_multiplier}.{need}",
                "**Hand-Rommé**: Macht jemand in einem Zug aus, ohne vorher ausgelegt zu haben, zählen die "
                f"Punkte dieses Spiels ×{rules.hand_romme_multiplier}.{need}",
            )
        )
    return [Heading(2, t("Going out", "Ausmachen")), Bullets(tuple(items))]


# Knock games --------------------------------------------------------------------------------------
def knock_condition(rules: Rules, t: Lang) -> str:
    limit = rules.knock_threshold
    if rules.knock_comparison == "lt":
        return t(
            f"Knock with deadwood below {limit} points", f"Klopfen mit weniger als {limit} Schlechtpunkten"
        )
    return t(
        f"Knock with deadwood of {limit} points or less", f"Klopfen mit höchstens {limit} Schlechtpunkten"
    )


def knock_turn(rules: Rules, t: Lang) -> list[Block]:
    items = [
        t(
            "**Draw** the top card of the stock or the top card of the discard pile.",
            "**Ziehen**: die oberste Karte vom Stock oder von der Ablage.",
        ),
        t(
            "**Discard** one card face up. Instead of a plain discard you may **knock** or call **Rummy** "
            "(below).",
            "**Abwerfen**: eine Karte offen ablegen. Statt einfach abzuwerfen darf man **klopfen** oder "
            "**Rummy** rufen (unten).",
        ),
    ]
    if not rules.may_discard_taken_discard:
        items.append(
            t(
                "You may not discard the card you took from the discard pile in the same turn.",
                "Die gerade von der Ablage genommene Karte darf nicht im selben Zug abgeworfen werden.",
            )
        )
    items.append(
        t(
            "Nothing is laid on the table: no melding, no laying off, no joker exchange.",
            "Auf den Tisch kommt nichts: kein Auslegen, kein Anlegen, kein Joker tauschen.",
        )
    )
    return [Heading(2, t("Your turn", "Dein Zug")), Bullets(tuple(items))]


def deadwood_example(rules: Rules) -> str:
    size = max(1, rules.hand_size)
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
        Heading(2, t("Deadwood (Schlechtpunkte)", "Schlechtpunkte")),
        Paragraph(
            t(
                "Your deadwood is the value of the cards that fit in no meld, with your hand arranged as "
                "well as "
                "possible. A joker inside a meld costs nothing.",
                "Schlechtpunkte sind der Wert der Karten, die in keine Figur passen, bei bestmöglicher "
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
                f"{best.deadwood} Schlechtpunkte.",
            )
        ),
    ]


def rummy_and_knock(rules: Rules, t: Lang) -> list[Block]:
    assert rules.knock_threshold is not None
    n = rules.hand_size
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
                f"Die Schlechtpunkte aller anderen zählen ×{rules.rummy_multiplier}.",
            )
        )
    hand = parse_cards(deadwood_example(rules))
    d = solver.min_deadwood(hand, rules)
    take_en = " (the next player may take that card)" if rules.knock_extra_turn else ""
    take_de = " (der Nächste darf die Karte nehmen)" if rules.knock_extra_turn else ""
    limit = rules.knock_threshold
    allowed = 0 < d < limit if rules.knock_comparison == "lt" else 0 < d <= limit
    knock = [
        t(
            f"{knock_condition(rules, t)}: after your discard, the deadwood of your {n} cards must be "
            + (f"less than {limit}" if rules.knock_comparison == "lt" else f"at most {limit}")
            + ", and more than 0 (with 0 you call Rummy instead).",
            f"{knock_condition(rules, t)}: nach dem Abwerfen müssen die Schlechtpunkte der {n} Karten "
            + (f"unter {limit}" if rules.knock_comparison == "lt" else f"höchstens {limit}")
            + " liegen und über 0 (mit 0 ruft man Rummy).",
        ),
        t(
            f"Example: the hand above has deadwood {d}: "
            + ("you may knock." if allowed else "you may not knock."),
            f"Beispiel: die Hand oben hat {d} Schlechtpunkte: "
            + ("man darf klopfen." if allowed else "man darf nicht klopfen."),
        ),
        t(
            f"The knocker discards face up as usual{take_en} and shows their melds and deadwood."
            if rules.knock_discard_face_up
            else "The knocker lays the discard face down (nobody can take it) and shows their melds and "
            "deadwood.",
            f"Wer klopft, wirft offen ab wie sonst{take_de} und zeigt Figuren und Schlechtpunkte."
            if rules.knock_discard_face_up
            else "Wer klopft, legt die Karte verdeckt ab (niemand kann sie nehmen) und zeigt Figuren und "
            "Schlechtpunkte.",
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
            "Dann zeigen alle ihre bestmöglich geordnete Hand und zählen ihre Schlechtpunkte.",
        )
    )
    return [
        Heading(2, t("Calling Rummy", "Rummy rufen")),
        Bullets(tuple(rummy)),
        Heading(2, t("Knocking (klopfen)", "Klopfen")),
        Bullets(tuple(knock)),
    ]


# Scoring, stock, match ----------------------------------------------------------------------------
def hand_score(rules: Rules, t: Lang) -> list[Block]:
    head = Heading(2, t("Scoring a hand", "Wertung eines Spiels"))
    if rules.is_knock_game:
        knocker = (
            t(
                "The knocker writes down their own deadwood too.",
                "Auch wer klopft, schreibt seine Schlechtpunkte auf.",
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
                        "Jeder schreibt seine Schlechtpunkte auf; wer Rummy ruft, schreibt 0.",
                    ),
                    knocker,
                    t(
                        "Bad points add up over the hands; fewer is better. Scores are shown as minus "
                        "numbers "
                        "(-23 means 23 bad points).",
                        "Die Schlechtpunkte werden zusammengezählt; weniger ist besser. Angezeigt werden sie "
                        "als "
                        "Minuszahlen (-23 heißt 23 Schlechtpunkte).",
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
                "Wer ausgemacht hat, bekommt den Wert aller Karten, die die anderen noch halten, als "
                "**Pluspunkte**.",
            ),
            t(
                f"Example: a player still holds {example_cards}: {sum_text} points for the winner.",
                f"Beispiel: ein Spieler hält noch {example_cards}: {sum_text} Punkte für den Gewinner.",
            ),
        )
        return [head, Bullets(items)]
    double = ""
    if rules.hand_romme_multiplier > 1:
        double = t(
            f" (after a Hand-Rommé: {total * rules.hand_romme_multiplier})",
            f" (nach Hand-Rommé: {total * rules.hand_romme_multiplier})",
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
            f"Beispiel: {example_cards} in der Hand: {sum_text} Minuspunkte{double}.",
        ),
        t(
            f"Scores are shown as minus numbers: -{total} means {total} minus points. The highest score "
            "(fewest minus points) is best.",
            f"Angezeigt werden Minuszahlen: -{total} heißt {total} Minuspunkte. Der höchste Stand (die "
            "wenigsten Minuspunkte) ist am besten.",
        ),
    )
    return [head, Bullets(items)]


def stock(rules: Rules, t: Lang) -> list[Block]:
    text = {
        "reshuffle_keep_top": t(
            "If the stock is empty when someone must draw, the discard pile except its top card is shuffled "
            "and "
            "becomes the new stock.",
            "Ist der Stock leer, wenn jemand ziehen muss, wird die Ablage außer der obersten Karte gemischt "
            "und "
            "wird zum neuen Stock.",
        ),
        "turn_over_keep_top": t(
            "If the stock is empty, the discard pile except its top card is turned over (not shuffled) as "
            "the new stock.",
            "Ist der Stock leer, wird die Ablage außer der obersten Karte umgedreht (nicht gemischt) und "
            "wird zum neuen Stock.",
        ),
        "turn_over_all_if_declined": t(
            "If the stock is empty and the next player does not take the discard, the whole discard pile is "
            "turned "
            "over as the new stock.",
            "Ist der Stock leer und nimmt der nächste Spieler die Ablage nicht, wird die ganze Ablage "
            "umgedreht "
            "und wird zum neuen Stock.",
        ),
        "end_hand_no_score": t(
            "If the stock runs out, the hand ends without a score.",
            "Ist der Stock leer, endet das Spiel ohne Wertung.",
        ),
    }.get(rules.stock_exhaustion, f"`{rules.stock_exhaustion}`")
    limit = ""
    if rules.stock_exhaustion != "end_hand_no_score" and rules.max_stock_rebuilds is not None:
        limit = t(
            f" This happens at most {rules.max_stock_rebuilds} times per hand; when the stock runs out again "
            "(or "
            "no new stock can be made) the hand ends without a score.",
            f" Das geschieht höchstens {rules.max_stock_rebuilds}-mal pro Spiel; ist der Stock danach wieder "
            "leer "
            "(oder lässt sich kein neuer bilden), endet das Spiel ohne Wertung.",
        )
    return [Heading(2, t("When the stock runs out", "Wenn der Stock leer ist")), Paragraph(text + limit)]


def match_end_text(rules: Rules, t: Lang) -> str:
    if rules.match_end == "fixed_hands":
        if rules.num_hands:
            return t(f"A match has {rules.num_hands} hands", f"Eine Partie hat {rules.num_hands} Spiele")
        return t(
            "A match has one hand per player (everyone deals once)",
            "Eine Partie hat so viele Spiele wie Spieler (jeder gibt einmal)",
        )
    if rules.match_end == "penalty_limit":
        return t(
            f"The match ends when someone reaches {rules.penalty_limit} minus points",
            f"Die Partie endet, wenn jemand {rules.penalty_limit} Minuspunkte erreicht",
        )
    if rules.match_end == "elimination_last_survivor":
        kind, kind_de = ("bad", "Schlechtpunkten") if rules.is_knock_game else ("minus", "Minuspunkten")
        return t(
            f"Out at {rules.elimination_threshold} {kind} points; the last player left wins",
            f"Raus bei {rules.elimination_threshold} {kind_de}; wer übrig bleibt, gewinnt",
        )
    if rules.match_end == "target_score":
        return t(
            f"First to {rules.target_score} plus points wins",
            f"Wer zuerst {rules.target_score} Pluspunkte hat, gewinnt",
        )
    return t("A single hand", "Ein einzelnes Spiel")


def match(rules: Rules, t: Lang) -> list[Block]:
    items = [match_end_text(rules, t) + "."]
    if rules.match_end in ("fixed_hands", "penalty_limit", "single_hand"):
        items.append(
            t(
                "The fewest minus points in total win; equal totals share the win.",
                "Die wenigsten Minuspunkte gewinnen; bei Gleichstand teilen sich die Besten den Sieg.",
            )
        )
    elif rules.match_end == "target_score":
        items.append(t("Equal totals share the win.", "Bei Gleichstand teilen sich die Besten den Sieg."))
    elif rules.match_end == "elimination_last_survivor":
        items.append(
            t(
                "If the last players are all out in the same hand, the lowest total wins.",
                "Scheiden die letzten Spieler im selben Spiel alle aus, gewinnt der niedrigste Stand.",
            )
        )
    rubber = rules.is_knock_game and rules.match_end == "elimination_last_survivor"
    if rubber:
        low, high = rules.buyback_window
        chips_en = t.plural(rules.knock_money, "1 chip", f"{rules.knock_money} chips")
        chips_de = t.plural(rules.knock_money, "1 Chip", f"{rules.knock_money} Chips")
        times_en = t.plural(rules.buyback_limit, "once", f"{rules.buyback_limit} times")
        ante = (
            t(
                f"Everybody pays {rules.pot_ante} chips into the pot once per rubber.",
                f"Jeder zahlt einmal pro Partie {rules.pot_ante} Chips in den Pott.",
            )
            if rules.ante_frequency == "per_rubber"
            else t(
                f"Everybody pays {rules.pot_ante} chips into the pot before every hand.",
                f"Jeder zahlt vor jedem Spiel {rules.pot_ante} Chips in den Pott.",
            )
        )
        items = [
            t(
                "A **rubber** is played until one player is left.",
                "Eine **Partie** wird gespielt, bis nur einer übrig ist.",
            ),
            ante,
            t(
                f"**Knock money**: after each hand the knocker or Rummy caller gets {chips_en} from every "
                "other player in the hand.",
                f"**Klopfgeld**: nach jedem Spiel bekommt, wer geklopft oder Rummy gerufen hat, {chips_de} "
                "von jedem anderen Spieler.",
            ),
            t(
                f"Bad points add up; at {rules.elimination_threshold} or more you are out.",
                f"Die Schlechtpunkte werden addiert; ab {rules.elimination_threshold} ist man raus.",
            ),
            t(
                f"**Buy-back**: with a total above {low} and below {high}, you may pay {rules.buyback_cost} "
                f"chips ({times_en} per rubber at most) to go down to the next highest total of the players "
                "still in.",
                f"**Rückkauf**: bei einem Stand über {low} und unter {high} darf man {rules.buyback_cost} "
                f"Chips zahlen (höchstens {rules.buyback_limit}-mal pro Partie) und wird auf den "
                "nächsthöheren Stand der übrigen Spieler gesetzt.",
            ),
            t(
                "The last player left takes the pot; if the last players are out together, the lowest total "
                "wins "
                "and equal totals share the pot.",
                "Wer übrig bleibt, bekommt den Pott; scheiden die letzten gemeinsam aus, gewinnt der "
                "niedrigste Stand, "
                "bei Gleichstand wird geteilt.",
            ),
        ]
    return [Heading(2, t("The match", "Die Partie")), Bullets(tuple(items))]


def glossary(rules: Rules, t: Lang) -> list[Block]:
    rows = tuple(
        (en, de, t(mean_en, mean_de))
        for en, de, mean_en, mean_de, family in GLOSSARY
        if family is None or family == rules.is_knock_game
    )
    return [
        Heading(2, t("Words you will meet", "Begriffe")),
        Table((t("English", "Englisch"), t("German", "Deutsch"), t("meaning", "Bedeutung")), rows),
    ]
