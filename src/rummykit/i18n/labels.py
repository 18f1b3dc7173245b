"""Labels of the table for people, English and German: phases, how a hand ended, the showdown and the
score sheet. Keys are stable; a front end looks them up (``label("termination.knock", "de")``) or
receives them all as JSON (:func:`labels`). ``{name}`` marks a value the front end puts in."""

from __future__ import annotations

from typing import Final

LABELS: Final[dict[str, tuple[str, str]]] = {
    # Phases of a turn (rummykit.views.Phase) and what the player to move does.
    "phase.draw": ("draw", "ziehen"),
    "phase.play": ("meld, lay off, discard", "auslegen, anlegen, abwerfen"),
    "phase.discard": ("discard, knock or Rummy", "abwerfen, klopfen oder Rummy"),
    "phase.first_upcard": ("take the upcard or pass", "offene Karte nehmen oder passen"),
    "phase.wall": ("at the wall: knock or pass", "an der Mauer: klopfen oder passen"),
    "phase.knock": ("discard, lay melds, pass", "abwerfen, Figuren auslegen, passen"),
    "phase.layoff": ("lay off, lay melds, pass", "anlegen, Figuren auslegen, passen"),
    "phase.over": ("hand over", "Spiel vorbei"),
    # How a hand ended (rummykit.views.Termination).
    "termination.went_out": ("went out", "ausgemacht"),
    "termination.rummy": ("Rummy", "Rummy"),
    "termination.knock": ("knocked", "geklopft"),
    "termination.stock_exhausted": ("stock used up, not scored", "Stoß aufgebraucht, keine Wertung"),
    "termination.wall": ("stock down to the wall, not scored", "Mauer erreicht, keine Wertung"),
    "termination.drawn": ("dead hand, not scored", "totes Spiel, keine Wertung"),
    # The table.
    "stock": ("stock", "Stoß"),
    "discard_pile": ("discard pile", "Ablage"),
    "melds": ("melds", "Figuren"),
    "meld_n": ("meld {n}", "Figur {n}"),
    "hand": ("hand", "Hand"),
    "cards_n": ("{n} cards", "{n} Karten"),
    "card_1": ("1 card", "1 Karte"),
    "dealer": ("dealer", "Geber"),
    "to_move": ("to move", "am Zug"),
    "your_turn": ("your turn", "du bist dran"),
    "opened": ("opened", "ausgelegt"),
    "not_opened": ("not opened", "nicht ausgelegt"),
    "knocker": ("knocked", "hat geklopft"),
    "hand_n": ("hand {n}", "Spiel {n}"),
    "hand_n_of_m": ("hand {n} of {m}", "Spiel {n} von {m}"),
    "round_n": ("round {n}", "Spiel {n}"),
    # Showdown and score sheet.
    "showdown": ("showdown", "Aufdecken"),
    "winner": ("winner", "Gewinner"),
    "winners": ("winners", "Gewinner"),
    "player": ("player", "Spieler"),
    "score": ("score", "Stand"),
    "total": ("total", "Summe"),
    "points": ("points", "Punkte"),
    "bad_points": ("bad points", "Restpunkte"),
    "minus_points": ("minus points", "Minuspunkte"),
    "hand_value": ("cards in hand", "Karten auf der Hand"),
    "deadwood": ("deadwood", "Restpunkte"),
    "deadwood_cards": ("cards in no meld", "Karten ohne Figur"),
    "hand_romme": ("Hand-Rommé", "Hand-Rommé"),
    "multiplier": ("×{n}", "×{n}"),
    "chips": ("chips", "Chips"),
    "pot": ("pot", "Pott"),
    "knock_money": ("knock money", "Klopfgeld"),
    "eliminated": ("out", "ausgeschieden"),
    "buyback_offer": ("buy back for {n} chips?", "für {n} Chips zurückkaufen?"),
    "match_over": ("match over", "Partie vorbei"),
    "next_hand": ("next hand", "nächstes Spiel"),
}
"""Every label, (English, German)."""
LABEL_KEYS: Final = tuple(LABELS)


def label(key: str, lang: str, **values: object) -> str:
    """The label ``key`` in ``lang`` with ``values`` put in (``label("hand_n_of_m", "de", n=2, m=5)``
    is ``Spiel 2 von 5``).

    Raises:
        KeyError: an unknown key.
    """
    en, de = LABELS[key]
    text = de if lang == "de" else en
    return text.format(**values) if values else text


def labels(lang: str) -> dict[str, str]:
    """Every label in ``lang``, by key (placeholders left in)."""
    return {key: (de if lang == "de" else en) for key, (en, de) in LABELS.items()}
