"""Bilingual helpers for the rules pages: the language switch, card text and value phrases."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rummykit.cards import parse_cards

LANGUAGES: Final = ("en", "de")
"""Languages the rules pages are written in."""


@dataclass(frozen=True, slots=True)
class Lang:
    """The language of a page; calling it picks the English or the German text. ``commands`` says
    whether its reader types (the terminal, the documentation): only then does the page name commands
    and typing; a browser's page leaves them out."""

    code: str
    commands: bool = True

    def __call__(self, en: str, de: str) -> str:
        return de if self.code == "de" else en

    def yes_no(self, value: bool) -> str:
        return self("yes", "ja") if value else self("no", "nein")

    def plural(self, count: int, one: str, many: str) -> str:
        """``one`` for a count of 1, else ``many`` (both already in the page's language)."""
        return one if count == 1 else many

    def join(self, items: Sequence[str], word: str = "") -> str:
        """``a, b and c`` / ``a, b und c`` (or another last ``word`` such as ``or``)."""
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + f" {word or self('and', 'und')} " + items[-1]


_NUMBER_WORDS_DE: Final = ("kein", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun")


def times_de(n: int) -> str:
    """How often, in German: ``einmal``, ``dreimal`` up to ``neunmal``, then ``12-mal``.

    >>> [times_de(n) for n in (1, 3, 9, 12)]
    ['einmal', 'dreimal', 'neunmal', '12-mal']
    """
    return f"{_NUMBER_WORDS_DE[n]}mal" if 0 <= n < len(_NUMBER_WORDS_DE) else f"{n}-mal"


def number_de(n: int) -> str:
    """A number as German writes it, thousands separated by points: ``16.384``, ``2.000.000``
    (four digits stay together: ``2000``).

    >>> [number_de(n) for n in (999, 2000, 16384, 2000000)]
    ['999', '2000', '16.384', '2.000.000']
    """
    return str(n) if abs(n) < 10000 else f"{n:,}".replace(",", ".")


def cards(text: str) -> str:
    """Card text as players see it on the table: ``7H 8H JK`` becomes ``7♥ 8♥ JK``."""
    return " ".join(c.symbol() for c in parse_cards(text))


def card_legend(t: Lang, jokers: bool = True) -> str:
    """How the pages write cards: rank and suit, the letters of the courts in the page's language
    (German pages use B, D, K as German packs print them), and the joker where the game has one. How
    to type them is the terminal's section (:mod:`rummykit.explain.terminal_page`)."""
    joker_en, joker_de = (", JK = joker", ", JK = Joker") if jokers else ("", "")
    return t(
        "Cards are shown as rank and suit: `7♥`, `10♣`, `Q♠`; J = jack, Q = queen, K = king, "
        f"A = ace{joker_en}. Suits have no order.",
        f"Karten werden als Wert und Farbe gezeigt: `7♥`, `10♣`, `Q♠`. B = Bube, D = Dame, K = König, "
        f"A = Ass{joker_de}. ♣ Kreuz, ♦ Karo, ♥ Herz, ♠ Pik; die Farben haben keine Rangfolge.",
    )
