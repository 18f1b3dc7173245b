"""Cards in words and in table glyphs, in English and German (``queen of hearts``, ``Herz-Dame``)."""

from __future__ import annotations

import re
from typing import Final

from rummykit.cards import JOKER_CODE, Card

SUIT_NAMES: Final = {
    "en": ("clubs", "diamonds", "hearts", "spades"),
    "de": ("Kreuz", "Karo", "Herz", "Pik"),
}
"""Suit names in the order of :data:`rummykit.cards.SUITS` (C D H S)."""
RANK_NAMES: Final = {
    "en": {1: "ace", 11: "jack", 12: "queen", 13: "king"},
    "de": {1: "Ass", 11: "Bube", 12: "Dame", 13: "König"},
}
"""Ranks written as words; the others are written as numbers."""
_CARD_TOKEN: Final = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQKT])([CDHS])(?![A-Za-z0-9])")
_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_name(card: int, lang: str) -> str:
    """One card in words: ``queen of hearts`` / ``Herz-Dame``, ``7 of spades`` / ``Pik-7``, ``joker``."""
    c = Card(card)
    if c == JOKER_CODE:
        return "Joker" if lang == "de" else "joker"
    rank = RANK_NAMES["de" if lang == "de" else "en"].get(c.rank, str(c.rank))
    if lang == "de":
        return f"{SUIT_NAMES['de'][c.suit]}-{rank}"
    return f"{rank} of {SUIT_NAMES['en'][c.suit]}"


def card_object(card: int, lang: str) -> str:
    """One card as the object of a move (``wirft Herz-7 ab``): :func:`card_name`, but the joker with
    its article in German (``wirft einen Joker ab``: a card is named bare, a joker is not) and the
    jack declined as German declines it after a verb (``legt Kreuz-Buben an``).

    >>> [card_object(Card.parse(c), "de") for c in ("JC", "QH", "JK")]
    ['Kreuz-Buben', 'Herz-Dame', 'einen Joker']
    """
    if lang == "de" and Card(card) == JOKER_CODE:
        return "einen Joker"
    if lang == "de" and Card(card).rank == 11:
        return f"{SUIT_NAMES['de'][Card(card).suit]}-Buben"
    return card_name(card, lang)


def glyphs(text: str) -> str:
    """Card notation inside ``text`` with suit symbols, the rest unchanged: ``7H 8H JK(=9H)`` becomes
    ``7♥ 8♥ JK(=9♥)`` (melds and card lists read the same in every language)."""

    def symbol(m: re.Match[str]) -> str:
        rank = "10" if m.group(1) == "T" else m.group(1)
        return rank + _SYMBOLS[m.group(2)]

    return _CARD_TOKEN.sub(symbol, text)


CARD_LETTERS: Final = ("de", "en")
"""Rank letters cards are shown with: ``de`` B D K A (Bube, Dame, König, Ass), ``en`` J Q K A."""
_COURT_FACE: Final = re.compile(r"(?<![\w])([JQBD])(?=[♣♦♥♠])")
_COURT_LETTER: Final = {"de": {"J": "B", "Q": "D"}, "en": {"B": "J", "D": "Q"}}


def _courts(face: re.Pattern[str], text: str, letters: str) -> str:
    """``text`` with each court letter ``face`` finds (its group 1) written in ``letters``."""
    swap = _COURT_LETTER[letters]
    return face.sub(lambda m: swap.get(m.group(1), m.group(1)), text)


def face_letters(text: str, letters: str) -> str:
    """``text`` with every card shown with a suit symbol written in the rank letters ``letters``
    (:data:`CARD_LETTERS`): ``10♥ J♥ Q♥`` becomes ``10♥ B♥ D♥`` in ``de`` and back in ``en``. The
    joker (``JK``) and notation without symbols (``QS``, what players type) are left as they are.
    The length stays the same, so a styled or laid-out text keeps its layout."""
    return _courts(_COURT_FACE, text, letters)


_QUOTED: Final = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|„[^“\n]*“")
_MESSAGE_FACE: Final = re.compile(r"(?<![\w.])([JQBD])(?=[♣♦♥♠](?!\.?\w))")


def message_letters(text: str, letters: str) -> str:
    """A message's cards in the rank ``letters`` as :func:`face_letters` writes them, except in
    what the message quotes (``'…'``, ``"…"``, ``„…“``: the reader's own input, kept as typed) and
    in a word the card is part of (a file named ``D♠.json``): ``Zug 2 (J♥ Q♥ K♥ auslegen)`` becomes
    ``Zug 2 (B♥ D♥ K♥ auslegen)``, ``not 'D♥'`` stays.

    >>> message_letters("cannot lay J♥ Q♥ K♥; not 'J♥'; see J♠.json", "de")
    "cannot lay B♥ D♥ K♥; not 'J♥'; see J♠.json"
    """
    out: list[str] = []
    pos = 0
    for quoted in _QUOTED.finditer(text):
        out.append(_courts(_MESSAGE_FACE, text[pos : quoted.start()], letters))
        out.append(quoted.group(0))
        pos = quoted.end()
    out.append(_courts(_MESSAGE_FACE, text[pos:], letters))
    return "".join(out)


_NOTATION_FACE: Final = re.compile(r"(?<![\w])([JQBD])(?=[CDHS](?![\w]))")


def notation_letters(text: str, letters: str) -> str:
    """Cards written in notation (``QD``, ``JC``) with the court letters of ``letters``, as the
    table shows them; the notation reads both (``DD`` is ``QD``). A joker (``JK``) stays.

    >>> notation_letters("discard 3C QD JS JK KD", "de")
    'discard 3C DD BS JK KD'
    """
    return _courts(_NOTATION_FACE, text, letters)


_SYMBOL_FACE: Final = re.compile(r"(?<![\w])(10|[2-9AJQKBD])([♣♦♥♠])")
_SUIT_LETTER: Final = {symbol: letter for letter, symbol in _SYMBOLS.items()}


def ascii_faces(text: str) -> str:
    """``text`` with every card's suit symbol written as its suit letter, the rank letter kept:
    ``D♠ 10♥`` becomes ``DS 10H`` (``--ascii``: a German queen stays ``D``). The length stays the
    same."""
    return _SYMBOL_FACE.sub(lambda m: m.group(1) + _SUIT_LETTER[m.group(2)], text)


def cards_glyphs(cards: tuple[int, ...] | list[int]) -> str:
    """Several cards as on the table: ``7♥ 8♥ JK``."""
    return " ".join(Card(c).symbol() for c in cards)
