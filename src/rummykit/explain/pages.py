"""The rules of one :class:`~rummykit.rules.Rules` value as a page for players (English or German).

The sections of the melds, of each family's turn and of scoring live in :mod:`melds_page`,
:mod:`melding_page`, :mod:`knock_page` and :mod:`scoring_page` (gin's whole page in :mod:`gin_page`);
this module puts them in order and writes the overview, the house rules, the cards, the deal and
the words.

Every figure on a page is read from the options (opening minimum, card values, knock limit, ante
…), so a table with house rules gets a page with its own values, and the options that differ from
the named preset are listed first as house rules. Examples are computed by the engine itself (meld
values, which melds are allowed, deadwood), so a page can never contradict the game.
"""

from __future__ import annotations

from typing import Final

from rummykit.explain import gin_page, knock_page, melding_page, melds_page, scoring_page, terminal_page
from rummykit.explain.document import Block, Bullets, Heading, Paragraph, Table
from rummykit.explain.language import Lang, card_legend
from rummykit.explain.terms import (
    GLOSSARY,
    hand_out_meaning,
    hand_out_name,
    hand_size_text,
    option_label,
    value_words,
)
from rummykit.rules import PACKETS, Rules

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
        "Ein Klopfspiel: die Figuren bleiben auf der Hand; klopfen mit wenig Restpunkten oder Rummy rufen.",
    ),
    "romme_ohne_auslegen": (
        "German Rummy without laying out: 13 cards, melds stay in your hand, knock below 10.",
        "Rommé ohne Auslegen: 13 Karten, die Figuren bleiben auf der Hand, klopfen unter 10.",
    ),
    "scala40": (
        "The Italian game: open with 40, take the discard only to meld it, out at 101.",
        "Das italienische Spiel: mit 40 auslegen, von der Ablage nur zum Auslegen nehmen, raus bei 101.",
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

SUMMARY_OPTIONS: Final[dict[str, frozenset[str]]] = {
    "german_dskv": frozenset(
        ("min_players", "max_players", "dealer_sits_out_at_table_of", "penalty_joker")
    ),
    "romme_ohne_auslegen": frozenset(("hand_size", "hand_size_rule", "knock_threshold", "knock_comparison")),
    "scala40": frozenset(
        ("opening_min_points", "discard_pickup_requires_meld", "match_end", "elimination_threshold")
    ),
    "basic": frozenset(("num_decks", "opening_min_points", "hand_scoring")),
    "gin": frozenset(("hand_size", "layoff_after_knock", "undercut_bonus")),
}
"""The options whose values a preset's line in :data:`SUMMARIES` names ("13 cards", "knock below
10", "open with 40" …)."""


def title(rules: Rules, t: Lang) -> str:
    en, de = TITLES.get(rules.name, (rules.name, rules.name))
    return t(en, de)


def summary(rules: Rules, t: Lang) -> str:
    """The preset's line (:data:`SUMMARIES`), or ``""`` for house rules that change a value it names
    (:data:`SUMMARY_OPTIONS`): a page with its own figures never opens with the named game's ones
    (a table knocking below 5 read "knock below 10" at the top of its page)."""
    en, de = SUMMARIES.get(rules.name, ("", ""))
    if SUMMARY_OPTIONS.get(rules.name, frozenset()) & set(rules.changes()):
        return ""
    return t(en, de)


def page_blocks(rules: Rules, t: Lang) -> list[Block]:
    """The whole page: at a glance, house rules, how a hand goes, cards, deal, melds, the turn,
    scoring, the match, the terminal, terms."""
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
    blocks += house_rules(rules, t)  # what differs from the named game first, before its overview
    blocks += knock_page.overview(rules, t) if rules.is_knock_game else melding_page.overview(rules, t)
    blocks += card_values(rules, t)
    blocks += deal(rules, t)
    blocks += melds_page.melds(rules, t)
    if rules.is_knock_game:
        blocks += knock_page.knock_turn(rules, t) + knock_page.deadwood(rules, t)
        blocks += knock_page.rummy_and_knock(rules, t)
    else:
        blocks += melding_page.melding_turn(rules, t) + melding_page.opening(rules, t)
        blocks += melding_page.layoff(rules, t) + melding_page.joker_exchange(rules, t)
        blocks += melding_page.going_out(rules, t)
    blocks += scoring_page.hand_score(rules, t)
    if rules.is_knock_game:
        blocks += knock_page.hand_example(rules, t)
    blocks += scoring_page.stock(rules, t) + scoring_page.match(rules, t)
    blocks += terminal_page.terminal(rules, t)
    blocks += glossary(rules, t)
    blocks.append(Paragraph(_rule_set_line(rules, t)))
    return blocks


def _rule_set_line(rules: Rules, t: Lang) -> str:
    if not t.commands:
        return t(f"Rule set: `{rules}`.", f"Regelsatz: `{rules}`.")
    return t(
        f"Rule set: `{rules}`. Every option, what it means and its value here: "
        f"`rummykit rules --options {rules.name}`.",
        f"Regelsatz: `{rules}`. Alle Optionen, was sie bedeuten und ihr Wert hier: "
        f"`rummykit rules --options {rules.name} --lang de`.",
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
    if not rules.jokers_total:
        return t(
            f"{rules.deck_size} cards: {packs} of 52, no jokers",
            f"{rules.deck_size} Karten: {packs} zu 52 Karten, ohne Joker",
        )
    jokers = t.plural(
        rules.jokers_total,
        t("one joker", "ein Joker"),
        t(f"{rules.jokers_total} jokers", f"{rules.jokers_total} Joker"),
    )
    return t(
        f"{rules.deck_size} cards: {packs} of 52 and {jokers}",
        f"{rules.deck_size} Karten: {packs} zu 52 Karten und {jokers}",
    )


def packets_text(rules: Rules, t: Lang) -> str:
    """``in packets of 3, 3, 3 and 4 cards``: the packets of every hand size the rules deal (a
    smaller hand gets the packets until it is full, the last one cut short)."""
    tables = range(rules.min_players, rules.max_players + 1)
    sizes = sorted({rules.hand_size_for(rules.active_players(p)) for p in tables}, reverse=True)
    shapes = []
    for size in sizes:
        packets: list[int] = []
        for packet in (*PACKETS[rules.deal_packets], *([1] * size)):
            if sum(packets) < size:
                packets.append(min(packet, size - sum(packets)))
        head = ", ".join(map(str, packets[:-1]))
        shapes.append((size, f"{head}{t(' and ', ' und ')}{packets[-1]}" if head else str(packets[-1])))
    first = t(f"in packets of {shapes[0][1]} cards", f"in Paketen zu {shapes[0][1]} Karten")
    rest = [t(f"{shape} with {size} cards", f"{shape} bei {size} Karten") for size, shape in shapes[1:]]
    return first + "".join(f" ({part})" for part in rest)


def glance(rules: Rules, t: Lang) -> list[Block]:
    items = [players_text(rules, t), deck_text(rules, t), hand_size_text(rules, t)]
    if rules.is_knock_game:
        assert rules.knock_threshold is not None
        items.append(knock_page.knock_condition(rules, t))
        items.append(
            t("No cards are laid on the table during play.", "Während des Spiels wird nichts ausgelegt.")
        )
    elif rules.opening_min_points and rules.opening_scope == "single_meld":
        items.append(
            t(
                f"First meld (opening) worth at least {rules.opening_min_points} points on its own",
                f"Erstes Auslegen: eine Figur mit mindestens {rules.opening_min_points} Punkten",
            )
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
    items.append(scoring_page.match_end_text(rules, t))
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
    blocks.append(Paragraph(card_legend(t, jokers=rules.jokers_total > 0)))
    rows: tuple[tuple[str, ...], ...]
    if rules.is_knock_game:
        rows = (
            ("2–10", t("face value", "Augenzahl")),
            (t("J, Q, K", "B, D, K"), "10"),
            ("A", str(rules.deadwood_ace)),
            (
                "JK",
                t(f"{rules.deadwood_joker} (0 inside a meld)", f"{rules.deadwood_joker} (0 in einer Figur)"),
            ),
        )
        blocks.append(Table((t("card", "Karte"), t("deadwood value", "Wert als Restpunkte")), rows))
        return blocks
    ace_meld = []
    if rules.ace_low_in_runs:
        ace_meld.append(t("1 at the start of a run (A-2-3)", "1 am Anfang einer Folge (A-2-3)"))
    ace_meld.append(
        t("11 in a set or after the king (Q-K-A)", "11 im Satz oder nach dem König (D-K-A)")
        if rules.ace_high_in_runs
        else t("11 in a set", "11 im Satz")
    )
    rows = (
        ("2–10", t("face value", "Augenzahl"), t("face value", "Augenzahl")),
        (t("J, Q, K", "B, D, K"), "10", str(rules.penalty_court)),
        ("A", "; ".join(ace_meld), str(rules.penalty_ace)),
        (
            "JK",
            t("the value of the card it stands for", "der Wert der Karte, die er ersetzt"),
            str(rules.penalty_joker),
        ),
    )
    left = t("left in hand at the end", "am Ende auf der Hand")
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
                "Everybody draws a card: the highest (ace high) deals first; a joker draws again, and "
                "so do the players tied for the highest card. Nobody changes seats; the draw only decides "
                "who deals first.",
                "Jeder zieht eine Karte; wer die höchste zieht (Ass hoch), gibt zuerst; wer einen Joker "
                "zieht, zieht neu, ebenso die Spieler mit der gleichen höchsten Karte. Die Sitzordnung "
                "bleibt; die gezogene Karte bestimmt nur, wer zuerst gibt.",
            )
        )
    else:
        items.append(
            t(
                "The first dealer is drawn by lot; nobody changes seats.",
                "Der erste Geber wird ausgelost; die Sitzordnung bleibt.",
            )
        )
    if rules.dealer_sits_out_at_table_of is not None:
        n = rules.dealer_sits_out_at_table_of
        items.append(
            t(
                f"At a table of {n} the dealer sits out the hand, so {n - 1} play; the dealer scores "
                "nothing for that hand.",
                f"An einem Tisch mit {n} Spielern setzt der Geber aus; es spielen {n - 1}. Der Geber "
                "schreibt in diesem Spiel keine Punkte.",
            )
        )
    packets = packets_text(rules, t) if rules.deal_packets == "p3334" else t("one at a time", "einzeln")
    items.append(
        t(
            "The dealer shuffles, the player on the right cuts, and the cards are dealt clockwise "
            f"{packets}: "
            f"{hand_size_text(rules, t)}. The rest is the stock.",
            f"Der Geber mischt, der rechte Nachbar hebt ab, und es wird im Uhrzeigersinn {packets} gegeben: "
            f"{hand_size_text(rules, t)}. Der Rest ist der Stoß.",
        )
    )
    if rules.joker_robbing:
        items.append(
            t(
                "A joker at the bottom of the cut-off packet is the cutter's: the game hands it to them, as "
                "nobody turns a joker down"
                + (", and deals them one card fewer." if rules.robbed_joker_counts_toward_hand else "."),
                "Liegt beim Abheben unten ein Joker, gehört er dem Abhebenden: das Spiel gibt ihn ihm "
                "gleich, denn niemand lehnt einen Joker ab"
                + ("; er bekommt dann eine Karte weniger." if rules.robbed_joker_counts_toward_hand else "."),
            )
        )
    first = {
        "upcard": t(
            "The top card of the stock is turned face up: it starts the discard pile. The player to the "
            "dealer's left (forehand) begins.",
            "Die oberste Karte des Stoßes wird aufgedeckt und beginnt die Ablage. Der Spieler links vom "
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


def _glossary_meaning(term: str, rules: Rules, t: Lang) -> str | None:
    """A glossary term's meaning where this game changes it (``None``: the general meaning)."""
    if term == "meld" and rules.is_gin:
        return t(
            "a set or a run; the knocker lays their melds down when the hand ends",
            "ein Satz oder eine Folge; wer klopft, legt seine Figuren am Ende des Spiels aus",
        )
    if term == "meld" and rules.is_knock_game:
        return t(
            "a set or a run in your hand; melds stay in hand and count when the hands are shown",
            "ein Satz oder eine Folge auf der Hand; Figuren bleiben auf der Hand und zählen beim Aufdecken",
        )
    if term == "opening" and not rules.opening_min_points:
        return t(
            "your first melds of a hand; any meld will do",
            "die ersten Figuren eines Spiels; jede Figur genügt",
        )
    if term == "minus points" and rules.hand_scoring == "winner_collects":
        return t(
            "the value of the cards left in the losers' hands; the winner scores it",
            "der Wert der Karten, die die Verlierer noch auf der Hand haben; der Gewinner bekommt ihn",
        )
    if term == "Hand-Rommé":
        return hand_out_meaning(rules, t)
    return None


def _glossary_german(term: str, german: str, rules: Rules) -> str:
    """A glossary term's German words as this game uses them: a knock game without table melds (Wiener
    Rommé, Rommé ohne Auslegen) has Figuren but never "auslegen" (gin's knocker does lay them down)."""
    if term == "meld" and rules.is_knock_game and not rules.is_gin:
        return "Figur"
    return german


def glossary(rules: Rules, t: Lang) -> list[Block]:
    """The words of the game, each meaning as this game has it (Hand-Rommé under the game's own name,
    and only where it multiplies)."""
    rows = tuple(
        (
            hand_out_name(rules, Lang("en")) if en == "Hand-Rommé" else en,
            hand_out_name(rules, Lang("de")) if en == "Hand-Rommé" else _glossary_german(en, de, rules),
            _glossary_meaning(en, rules, t) or t(mean_en, mean_de),
        )
        for en, de, mean_en, mean_de, family in GLOSSARY
        if (family is None or family == rules.is_knock_game)
        and not (en == "Hand-Rommé" and rules.hand_romme_multiplier == 1)
    )
    return [
        Heading(2, t("Words you will meet", "Begriffe")),
        Table((t("English", "Englisch"), t("German", "Deutsch"), t("meaning", "Bedeutung")), rows),
    ]
