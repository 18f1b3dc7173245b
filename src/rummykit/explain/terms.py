"""Words for players: the glossary, and plain names for the options a table may change.

Option names stay the project's vocabulary (the :class:`~rummykit.rules.Rules` fields, listed for
players in ``docs/rules/options.en.md``); these are only their labels on a page. Every option needs a
label in both languages in :data:`OPTION_LABELS` (``tests/test_explain.py`` fails without one: the
German refusal of a house rule, the options page and a table's house rules name the option by it), and
an option that may be ``None`` says what ``None`` means in :data:`NONE_WORDS`.
"""

from __future__ import annotations

from typing import Any, Final

from rummykit.explain.language import Lang
from rummykit.rules import Rules

OPTION_GROUPS: Final[dict[str, tuple[str, str]]] = {
    "num_decks": ("Components and players", "Karten und Spieler"),
    "hand_size": ("Deal", "Geben"),
    "ace_low_in_runs": ("Melds", "Figuren"),
    "opening_min_points": ("Opening, melding, lay-offs, joker exchange", "Auslegen, Anlegen, Jokertausch"),
    "discard_pickup_requires_meld": ("Drawing and discarding", "Ziehen und Abwerfen"),
    "hand_romme_multiplier": ("Hand scoring", "Wertung eines Spiels"),
    "match_end": ("Match", "Partie"),
    "knock_threshold": ("Knock games", "Klopfspiele"),
    "knock_card": ("Gin", "Gin"),
}
"""Group titles of the options (English, German), keyed by the first option of each group in the
order of RULES.md §6 and the :class:`~rummykit.rules.Rules` fields."""

OPTION_LABELS: Final[dict[str, tuple[str, str]]] = {
    "num_decks": ("packs of 52 cards", "Kartenspiele zu 52 Karten"),
    "jokers_total": ("jokers in the deck", "Joker im Spiel"),
    "min_players": ("fewest players", "Spieler, mindestens"),
    "max_players": ("most players", "Spieler, höchstens"),
    "dealer_sits_out_at_table_of": ("dealer sits out at a table of", "Geber setzt aus bei Tischgröße"),
    "seat_draw": ("seats and first dealer", "Plätze und erster Geber"),
    "deal_rotation": ("who deals next", "wer als Nächstes gibt"),
    "hand_size": ("cards per player", "Karten pro Spieler"),
    "hand_size_rule": ("hand size", "Handgröße"),
    "deal_packets": ("dealing", "Austeilen"),
    "start_mode": ("first turn", "erster Zug"),
    "joker_robbing": ("cutter robs a joker at the cut", "Abheber darf einen aufgedeckten Joker behalten"),
    "ace_low_in_runs": ("ace low in runs (A-2-3)", "Ass unten in Folgen (A-2-3)"),
    "ace_high_in_runs": ("ace high in runs (Q-K-A)", "Ass oben in Folgen (D-K-A)"),
    "allow_ace_both_ends": ("run A-2-…-K-A allowed", "Folge A-2-…-K-A erlaubt"),
    "run_wraparound": ("runs around the corner (K-A-2)", "Folgen um die Ecke (K-A-2)"),
    "set_distinct_suits": ("a set's cards all of different suits", "ein Satz nur aus verschiedenen Farben"),
    "joker_end_assignment": (
        "a joker at the open end of a run stands for",
        "ein Joker am offenen Ende einer Folge steht für",
    ),
    "set_size_min": ("smallest set", "kleinster Satz"),
    "set_size_max": ("largest set", "größter Satz"),
    "joker_limit": ("jokers per meld", "Joker pro Figur"),
    "max_adjacent_jokers": (
        "jokers side by side in a run, at most",
        "Joker nebeneinander in einer Folge, höchstens",
    ),
    "opening_min_points": ("opening minimum (points)", "Mindestwert beim Auslegen (Punkte)"),
    "opening_scope": ("opening minimum counts", "Mindestwert zählt"),
    "layoff_on_opening_turn": ("lay off in the opening turn", "Anlegen im Zug des ersten Auslegens"),
    "layoff_requires_opened": ("lay off only after opening", "Anlegen erst nach dem ersten Auslegen"),
    "joker_exchange": ("joker exchange", "Joker tauschen"),
    "joker_exchange_requires_opened": (
        "joker exchange only after opening",
        "Joker tauschen erst nach dem ersten Auslegen",
    ),
    "joker_exchange_on_opening_turn": (
        "joker exchange in the opening turn",
        "Joker tauschen im Zug des ersten Auslegens",
    ),
    "set_joker_exchange": ("joker exchange in sets", "Joker tauschen in Sätzen"),
    "exchanged_joker_destination": ("an exchanged joker goes", "ein getauschter Joker kommt"),
    "discard_pickup_requires_meld": (
        "taken discard must be melded",
        "von der Ablage genommene Karte muss ausgelegt werden",
    ),
    "discard_pickup_requires_opened": ("who may take the discard", "wer von der Ablage nehmen darf"),
    "may_discard_taken_discard": (
        "discard the card just taken",
        "gerade von der Ablage genommene Karte abwerfen",
    ),
    "joker_discard_allowed": ("discarding a joker", "Joker abwerfen"),
    "discard_playable_card_allowed": ("discard a card that could be laid off", "anlegbare Karte abwerfen"),
    "going_out_requires_discard": ("going out needs a final discard", "Ausmachen nur mit Abwurf"),
    "hand_romme_multiplier": ("Hand-Rommé multiplier", "Faktor bei Hand-Rommé"),
    "hand_romme_requires_opening_min": (
        "Hand-Rommé needs the opening minimum",
        "Hand-Rommé braucht den Mindestwert",
    ),
    "penalty_ace": ("ace left in hand (points)", "Ass auf der Hand (Punkte)"),
    "penalty_joker": ("joker left in hand (points)", "Joker auf der Hand (Punkte)"),
    "penalty_court": ("J, Q, K left in hand (points)", "B, D, K auf der Hand (Punkte)"),
    "stock_exhaustion": ("when the stock runs out", "wenn der Stoß leer ist"),
    "max_stock_rebuilds": ("new stocks per hand, at most", "neue Stöße pro Spiel, höchstens"),
    "max_takes_in_a_row": (
        "turns in a row taking the discard, at most",
        "Züge hintereinander mit einer Karte von der Ablage, höchstens",
    ),
    "hand_scoring": ("scoring", "Wertung"),
    "match_end": ("end of the match", "Ende der Partie"),
    "num_hands": ("hands in the match", "Spiele in der Partie"),
    "unscored_hand": ("a hand that ends without a score", "ein Spiel, das ohne Wertung endet"),
    "match_tiebreak": ("equal totals at the end", "Gleichstand am Ende"),
    "penalty_limit": ("match ends at (minus points)", "Partie endet bei (Minuspunkten)"),
    "target_score": ("match ends at (plus points)", "Partie endet bei (Pluspunkten)"),
    "box_bonus": ("bonus per hand won, at the end (points)", "Bonus je gewonnenem Spiel am Ende (Punkte)"),
    "game_bonus": ("bonus for winning the game (points)", "Bonus für den Sieg in der Partie (Punkte)"),
    "shutout_doubles": (
        "winner's total doubled when the loser won no hand",
        "Stand des Siegers verdoppelt, wenn der Verlierer kein Spiel gewann",
    ),
    "elimination_threshold": ("out at (points)", "ausgeschieden ab (Punkten)"),
    "knock_threshold": ("knock limit (points)", "Klopfgrenze (Punkte)"),
    "knock_card": ("knock limit (deadwood points)", "Klopfgrenze (Restpunkte)"),
    "oklahoma": (
        "Oklahoma (the first upcard sets the knock limit)",
        "Oklahoma (erste offene Karte gibt die Klopfgrenze)",
    ),
    "oklahoma_spade_doubles": (
        "Oklahoma: a spade upcard doubles the hand",
        "Oklahoma: ein Pik als erste offene Karte verdoppelt das Spiel",
    ),
    "gin_bonus": ("gin bonus (points)", "Bonus für Gin (Punkte)"),
    "undercut_bonus": ("undercut bonus (points)", "Bonus fürs Unterbieten (Punkte)"),
    "knock_comparison": ("knock when deadwood is", "klopfen bei Restpunkten"),
    "knock_extra_turn": (
        "one more turn for the others after a knock",
        "ein Zug für die anderen nach dem Klopfen",
    ),
    "rummy_multiplier": ("Rummy multiplier", "Faktor bei Rummy"),
    "deadwood_ace": ("ace as deadwood (points)", "Ass als Restpunkte"),
    "deadwood_joker": ("joker as deadwood (points)", "Joker als Restpunkte"),
    "pot_ante": ("ante (chips)", "Einsatz (Chips)"),
    "ante_frequency": ("ante paid", "Einsatz gezahlt"),
    "knock_money": ("knock money (chips from each player)", "Klopfgeld (Chips von jedem Spieler)"),
    "buyback_window": ("buy-back allowed with a total between", "Rückkauf erlaubt bei einem Stand zwischen"),
    "buyback_cost": ("buy-back price (chips)", "Preis des Rückkaufs (Chips)"),
    "buyback_limit": ("buy-backs per player, at most", "Rückkäufe pro Spieler, höchstens"),
    "buyback_target": ("whose total a buy-back sets", "auf wessen Stand ein Rückkauf setzt"),
    "all_eliminated_tiebreak": ("when everybody is out", "wenn alle ausgeschieden sind"),
    "reentry": ("re-entry after elimination", "Wiedereinstieg nach dem Ausscheiden"),
    "draw_ties_and_jokers": ("ties in the seat draw", "Gleichstand beim Ziehen um Plätze und Geber"),
    "robbed_joker_counts_toward_hand": (
        "a robbed joker counts toward the hand",
        "ein beim Abheben behaltener Joker zählt zur Hand",
    ),
    "opening_counts_taken_discard": (
        "a taken discard counts toward the opening",
        "eine von der Ablage genommene Karte zählt zum ersten Auslegen",
    ),
    "final_discard_face_down": ("the last discard face down", "letzte Karte verdeckt abwerfen"),
    "layoff_after_knock": ("laying off after a knock", "Anlegen nach dem Klopfen"),
    "knock_undercut_rule": ("undercutting the knocker", "Unterbieten des Klopfenden"),
    "knocker_scores_own_deadwood": (
        "the knocker scores their own deadwood",
        "wer klopft, zählt die eigenen Restpunkte",
    ),
    "knock_discard_face_up": ("the knock discard face up", "Abwurf beim Klopfen offen"),
    "undercut_on_tie": ("a tie undercuts the knocker", "Gleichstand unterbietet den Klopfenden"),
    "big_gin_bonus": ("big gin bonus (points)", "Bonus für großes Gin (Punkte)"),
    "wall_stock_size": ("cards left at the wall", "Karten an der Mauer"),
    "max_upcard_draws": (
        "takes of the upcard per hand, at most",
        "Aufnahmen der offenen Karte pro Spiel, höchstens",
    ),
    "repeat_discard_draw": (
        "the same card taken and thrown back by both ends the hand",
        "dieselbe Karte von beiden genommen und abgeworfen beendet das Spiel",
    ),
    "eleven_card_deadwood": ("deadwood of eleven cards counted", "Restpunkte von elf Karten gezählt"),
    "layoff_run_chain": ("laying off on a run", "Anlegen an eine Folge"),
}

VALUE_WORDS: Final[dict[str, tuple[str, str]]] = {
    "high_card": ("by drawing cards", "durch Ziehen von Karten"),
    "random": ("by lot", "ausgelost"),
    "clockwise": ("clockwise", "im Uhrzeigersinn"),
    "counterclockwise": ("counter-clockwise", "gegen den Uhrzeigersinn"),
    "winner_deals": ("the winner of the hand", "der Gewinner des Spiels"),
    "fixed": ("the same for every table size", "gleich bei jeder Tischgröße"),
    "by_player_count": ("by the number of players", "nach Spielerzahl"),
    "singly": ("one card at a time", "einzeln"),
    "p3334": ("3, 3, 3, then 4 cards", "3, 3, 3, dann 4 Karten"),
    "upcard": ("an upcard starts the discard pile", "Ablage beginnt mit offener Karte"),
    "dealer_extra_card": ("the dealer gets one card more", "Geber bekommt eine Karte mehr"),
    "forehand_extra_card": ("forehand gets one card more", "Vorhand bekommt eine Karte mehr"),
    "jokers_le_naturals": ("no more jokers than natural cards", "nicht mehr Joker als echte Karten"),
    "min_two_naturals": ("at least two natural cards", "mindestens zwei echte Karten"),
    "max_one_joker_per_meld": ("one joker at most", "höchstens ein Joker"),
    "at_least_one_natural": ("at least one natural card", "mindestens eine echte Karte"),
    "all_melds_this_turn": ("all melds of the turn together", "alle Figuren des Zuges zusammen"),
    "single_meld": ("one meld alone", "eine einzelne Figur"),
    "any_missing_suit": ("with any missing suit", "mit jeder fehlenden Farbe"),
    "complete_four_only": (
        "only when the set then holds four natural cards",
        "nur wenn der Satz danach vier echte Karten hat",
    ),
    "new_meld_same_turn": ("into a new meld in the same turn", "in eine neue Figur im selben Zug"),
    "any_meld_same_turn": ("onto the table in the same turn", "im selben Zug auf den Tisch"),
    "hand": ("into your hand", "auf die Hand"),
    "never": ("everybody", "jeder"),
    "opened_or_opening_with_it": (
        "players who have opened or open with it",
        "wer ausgelegt hat oder damit auslegt",
    ),
    "opened_before": ("players who opened on an earlier turn", "wer in einem früheren Zug ausgelegt hat"),
    "always": ("always allowed", "immer erlaubt"),
    "only_when_closing": ("only as your last card", "nur als letzte Karte"),
    "reshuffle_keep_top": ("shuffle the discards into a new stock", "Ablage wird zum neuen Stoß gemischt"),
    "turn_over_keep_top": ("turn the discards over as a new stock", "Ablage wird zum neuen Stoß umgedreht"),
    "turn_over_all_if_declined": ("turn the whole discard pile over", "ganze Ablage wird umgedreht"),
    "end_hand_no_score": ("the hand ends unscored", "das Spiel endet ohne Wertung"),
    "losers_penalty": ("minus points for the losers", "Minuspunkte für die Verlierer"),
    "winner_collects": ("the winner collects plus points", "der Gewinner kassiert Pluspunkte"),
    "winner_gets_sum": (
        "minus points for the losers, their sum as plus points for the winner",
        "Minuspunkte für die Verlierer, ihre Summe als Pluspunkte für den Gewinner",
    ),
    "deadwood_all": ("bad points for everybody", "Restpunkte für alle"),
    "fixed_hands": ("after a fixed number of hands", "nach einer festen Zahl von Spielen"),
    "penalty_limit": ("at a minus-point limit", "bei einer Minuspunktgrenze"),
    "elimination_last_survivor": ("last player left wins", "wer übrig bleibt, gewinnt"),
    "target_score": ("first to a target score", "wer zuerst ein Ziel erreicht"),
    "single_hand": ("after one hand", "nach einem Spiel"),
    "lt": ("below the limit", "unter der Grenze"),
    "le": ("at or below the limit", "bis einschließlich der Grenze"),
    "per_rubber": ("once per rubber", "einmal pro Partie"),
    "per_hand": ("before every hand", "vor jedem Spiel"),
    "redraw": ("tied players draw again", "bei Gleichstand wird neu gezogen"),
    "gin_first_upcard": (
        "the first upcard is offered to both",
        "offene Karte wird beiden angeboten",
    ),
    "declared": ("as the player says (else the higher card)", "wie angesagt (sonst die höhere Karte)"),
    "upward_default": ("the higher card where possible", "wo möglich die höhere Karte"),
    "wall_draw": ("the hand ends at the wall", "das Spiel endet an der Mauer"),
    "gin_difference": ("the knocker scores the difference", "wer klopft, bekommt den Unterschied"),
    "onto_knocker_unless_gin": (
        "onto the knocker's melds, unless gin",
        "an die Figuren des Klopfenden, außer bei Gin",
    ),
    "knocker_penalised": ("the knocker is penalised", "wer klopft, wird bestraft"),
    "second_worst_not_above_buyer": (
        "the second-worst total, not above the buyer's",
        "der zweitschlechteste Stand, nicht über dem des Käufers",
    ),
    "lowest_total_wins": ("the lowest total wins", "der niedrigste Stand gewinnt"),
    "openspiel": ("as OpenSpiel counts", "wie OpenSpiel zählt"),
    "best_discard": ("after the best discard", "nach dem besten Abwurf"),
    "two_per_end": ("two cards per run end, at most", "höchstens zwei Karten je Ende einer Folge"),
    "counts": ("counts as one of the hands", "zählt als eines der Spiele"),
    "redeal": ("the same dealer deals again", "derselbe Geber gibt neu"),
    "share": ("share the win", "teilen sich den Sieg"),
    "most_hands_won": ("most hands won wins", "meiste gewonnene Spiele"),
    "best_last_hand": ("best last hand wins", "bestes letztes Spiel"),
}
"""Option values in words, by value (a value some options share is worded per option below)."""

OPTION_VALUE_WORDS: Final[dict[tuple[str, str], tuple[str, str]]] = {
    ("layoff_after_knock", "none"): ("no lay-offs", "kein Anlegen"),
    ("knock_undercut_rule", "none"): ("no penalty", "keine Strafe"),
    ("layoff_run_chain", "unlimited"): ("as far as the run goes", "so weit die Folge reicht"),
}
"""Values whose words depend on the option (``none``, ``unlimited``)."""


HAND_OUT_NAMES: Final[dict[str, tuple[str, str]]] = {
    "scala40": ("in mano", "„in mano“"),
    "basic": ("rummy", "Rummy"),
}
"""What the players of a game call going out in one turn without having melded before, by preset
(English, German): *chiusura in mano* in Scala 40 (RULES.md §5.2), "rummy" in Basic Rummy (§5.3);
Hand-Rommé elsewhere (§3)."""


def hand_out_name(rules: Rules, t: Lang) -> str:
    """The game's own name for going out in one turn without having melded before (Hand-Rommé)."""
    return t(*HAND_OUT_NAMES.get(rules.name, ("Hand-Rommé", "Hand-Rommé")))


def hand_out_before(rules: Rules, t: Lang) -> str:
    """What a Hand-Rommé must not have done before its turn: melded, where lay-offs and joker
    exchanges wait for the opening; else put any card on the table (the engine's rule either way:
    the whole hand goes down in one turn)."""
    if rules.layoff_requires_opened and rules.joker_exchange_requires_opened:
        return t("without having melded before", "ohne vorher ausgelegt zu haben")
    return t(
        "without having put a card on the table before (no meld, lay-off or joker exchange)",
        "ohne vorher eine Karte auf den Tisch gelegt zu haben (keine Figur, kein Anlegen, kein Jokertausch)",
    )


def hand_out_meaning(rules: Rules, t: Lang) -> str:
    """What going out in one turn without having melded before does to the hand's points."""
    times = rules.hand_romme_multiplier
    en, de = ("double", "doppelt") if times == 2 else (f"×{times}", f"×{times}")
    before = hand_out_before(rules, t)
    if rules.hand_scoring == "winner_collects":
        return t(
            f"going out in one turn {before}; the winner collects {en}",
            f"in einem Zug ausmachen, {before}; der Gewinner bekommt {de}",
        )
    if rules.hand_scoring == "winner_gets_sum":
        return t(
            f"going out in one turn {before}; the others' minus points, and so the winner's plus points, "
            f"count {en}",
            f"in einem Zug ausmachen, {before}; die anderen zahlen {de}, und der Gewinner bekommt {de}",
        )
    return t(
        f"going out in one turn {before}; the others' minus points count {en}",
        f"in einem Zug ausmachen, {before}; die anderen zahlen {de}",
    )


def option_label(option: str, t: Lang) -> str:
    """The plain name of ``option`` in the page's language, or the option name itself."""
    label = OPTION_LABELS.get(option)
    return t(*label) if label else f"`{option}`"


NONE_WORDS: Final[dict[str, tuple[str, str]]] = {
    "dealer_sits_out_at_table_of": ("none", "keine"),
    "max_adjacent_jokers": ("none", "unbegrenzt"),
    "opening_min_points": ("none", "kein Mindestwert"),
    "max_stock_rebuilds": ("no limit", "unbegrenzt"),
    "num_hands": ("one per player", "eines pro Spieler"),
    "elimination_threshold": ("none", "keine"),
    "knock_threshold": ("none", "keine"),
    "big_gin_bonus": ("no big gin", "kein großes Gin"),
}
"""What ``None`` means (English, German), for every option that may be ``None``: "none" only where
that is what it means (``tests/test_explain.py`` asks for an entry for each such option)."""


def value_words(option: str, value: Any, t: Lang) -> str:
    """An option value in words: ``yes``, ``none``, ``81 and 101``, a phrase, or the value itself."""
    if isinstance(value, bool):
        return t.yes_no(value)
    if value is None:
        return t(*NONE_WORDS.get(option, ("none", "keine")))
    if isinstance(value, tuple):
        return t.join([str(v) for v in value])
    if isinstance(value, str):
        words = OPTION_VALUE_WORDS.get((option, value)) or VALUE_WORDS.get(value)
        return t(*words) if words else f"`{value}`"
    return str(value)


GLOSSARY: Final[tuple[tuple[str, str, str, str, bool | None], ...]] = (
    # English term, German term, English and German meaning; family: True knock, False melding, None both.
    (
        "meld",
        "Figur, auslegen",
        "a set or a run; to meld is to put melds on the table",
        "ein Satz oder eine Folge; auslegen heißt, Figuren auf den Tisch legen",
        None,
    ),
    (
        "set",
        "Satz",
        "3 or 4 cards of one rank in different suits",
        "3 oder 4 Karten gleichen Werts in verschiedenen Farben",
        None,
    ),
    (
        "run",
        "Folge, Reihe",
        "3 or more cards of one suit in order",
        "3 oder mehr Karten einer Farbe in Reihenfolge",
        None,
    ),
    (
        "stock",
        "Stoß, Talon",
        "the face-down pile you draw from",
        "der verdeckte Stapel, von dem man zieht",
        None,
    ),
    (
        "discard pile",
        "Ablage",
        "the face-up pile; only its top card can be taken",
        "der offene Stapel; nur die oberste Karte darf genommen werden",
        None,
    ),
    (
        "discard",
        "abwerfen",
        "to end your turn by putting one card face up on the discard pile",
        "den Zug beenden, indem man eine Karte offen auf die Ablage legt",
        None,
    ),
    ("forehand", "Vorhand", "the player to the dealer's left", "der Spieler links vom Geber", None),
    (
        "opening",
        "Erstmeldung (rauskommen), erstes Auslegen",
        "your first melds of a hand; they must reach the opening minimum",
        "die ersten Figuren eines Spiels; sie müssen den Mindestwert erreichen",
        False,
    ),
    (
        "lay off",
        "anlegen",
        "to add a card from your hand to a meld on the table",
        "eine Karte aus der Hand an eine Figur auf dem Tisch legen",
        False,
    ),
    (
        "joker exchange",
        "Joker tauschen",
        "to swap the natural card a joker stands for into a table meld and take the joker",
        "die echte Karte, für die ein Joker steht, in eine Figur legen und den Joker nehmen",
        False,
    ),
    (
        "going out",
        "ausmachen, Rommé",
        "getting rid of your last card, which ends the hand",
        "die letzte Karte loswerden; das beendet das Spiel",
        False,
    ),
    (
        "minus points",
        "Minuspunkte",
        "the value of the cards left in a loser's hand",
        "der Wert der Karten, die ein Verlierer noch auf der Hand hat",
        False,
    ),
    (
        "Hand-Rommé",
        "Hand-Rommé",
        "going out in one turn without having melded before; the others' minus points count double",
        "in einem Zug ausmachen, ohne vorher ausgelegt zu haben; die anderen zahlen doppelt",
        False,
    ),
    (
        "deadwood",
        "Restpunkte (auch Schlechtpunkte)",
        "the value of the cards in your hand that fit in no meld",
        "der Wert der Karten auf der Hand, die in keine Figur passen",
        True,
    ),
    (
        "bad points",
        "Restpunkte",
        "the deadwood each player records after a hand; more is worse",
        "die Restpunkte, die jeder nach einem Spiel aufschreibt; mehr ist schlechter",
        True,
    ),
    (
        "knock",
        "klopfen",
        "ending the hand with little deadwood; the others then show their hands",
        "das Spiel mit wenig Restpunkten beenden; dann zeigen alle ihre Karten",
        True,
    ),
    (
        "Rummy",
        "Rummy",
        "ending the hand with every card in melds (no deadwood)",
        "das Spiel beenden, wenn alle Karten in Figuren passen (keine Restpunkte)",
        True,
    ),
    (
        "rubber",
        "Partie",
        "a series of hands until only one player is left",
        "eine Reihe von Spielen, bis nur ein Spieler übrig ist",
        True,
    ),
    (
        "pot, ante",
        "Pott, Einsatz",
        "the chips everyone pays in at the start; the winner of the rubber takes them",
        "die Chips, die alle am Anfang einzahlen; der Gewinner der Partie bekommt sie",
        True,
    ),
    (
        "knock money",
        "Klopfgeld",
        "chips the knocker or Rummy caller receives from each other player",
        "Chips, die der Klopfende oder Rummy-Rufer von jedem anderen bekommt",
        True,
    ),
    (
        "buy-back",
        "Rückkauf, Wiedereinkauf",
        "paying chips to lower a high total and stay in the rubber",
        "Chips zahlen, um einen hohen Stand zu senken und in der Partie zu bleiben",
        True,
    ),
)


_PACKS_EN: Final = {2: "two", 3: "three"}
_PACKS_DE: Final = {2: "zwei", 3: "drei"}


def taken_discard_bar(rules: Rules, t: Lang) -> str:
    """The rule on discarding the card just taken from the discard pile (``may_discard_taken_discard``
    off), and, where the deck holds copies of a card, the identical card too: the engine cannot tell
    copies apart and refuses both (``knocking._barred_taken``, ``melding.Melding.discardable``), a
    joker after a joker was taken."""
    rule = t(
        "You may not discard the card you took from the discard pile in the same turn",
        "Die gerade von der Ablage genommene Karte darf nicht im selben Zug abgeworfen werden",
    )
    jokers = rules.jokers_total > 1
    if rules.num_decks > 1:
        n = rules.num_decks
        rule += t(
            f", nor an identical card from your hand (with {_PACKS_EN.get(n, str(n))} packs the two cannot "
            "be told apart" + ("; after taking a joker, no joker either)" if jokers else ")"),
            ", auch keine gleiche Karte (gleicher Wert, gleiche Farbe) aus der Hand – bei "
            f"{_PACKS_DE.get(n, str(n))} Kartenspielen sind sie nicht zu unterscheiden"
            + ("; nach einem Joker auch kein Joker" if jokers else ""),
        )
    elif jokers:
        rule += t(
            ", nor, after taking a joker, another joker (jokers cannot be told apart)",
            ", und nach einem Joker auch kein anderer Joker (Joker sind nicht zu unterscheiden)",
        )
    return rule


def holding_text(rules: Rules, t: Lang) -> str:
    """How many cards a player holds, as an overview's first words: ``You hold 10 cards``."""
    if rules.hand_size_rule == "fixed":
        return t(f"You hold {rules.hand_size} cards", f"Man hat {rules.hand_size} Karten auf der Hand")
    sizes = hand_size_text(rules, t)
    return t(f"You are dealt a hand ({sizes})", f"Man bekommt Karten ({sizes})")


def hand_size_text(rules: Rules, t: Lang) -> str:
    """``13 cards each``, or by table size: ``10 cards each with 2 players, 7 with 3–4, 6 with 5–6``."""
    if rules.hand_size_rule == "fixed":
        return t(f"{rules.hand_size} cards each", f"je {rules.hand_size} Karten")
    groups: list[tuple[int, int, int]] = []
    for p in range(rules.min_players, rules.max_players + 1):
        size = rules.hand_size_for(rules.active_players(p))  # seated p, dealt to the active
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


TIEBREAK_REASONS: Final = {
    "most_hands_won": ("most hands won", "die meisten gewonnenen Spiele"),
    "best_last_hand": (
        "best score in the last hand all of them played",
        "bestes Ergebnis im letzten Spiel, in dem alle mitspielten",
    ),
}
"""Why ``match_tiebreak`` picked a winner among seats level on the best total (English, German)."""


def tiebreak_reason(tiebreak: str, lang: str = "en") -> str:
    """The reason a tie-break gives for its winner: ``most hands won``."""
    en, de = TIEBREAK_REASONS.get(tiebreak, (tiebreak, tiebreak))
    return de if lang == "de" else en
