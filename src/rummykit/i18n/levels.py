"""The bot levels in German, by level key (the English lines are ``rummykit.bots.LEVEL_LINES``).

Keyed by level, not by the English wording, so a re-worded English line keeps its German one. The
German lines say what a player chooses by (strength and speed) without the English line's sample
counts, which change when the search is tuned.
"""

from __future__ import annotations

from typing import Final

from rummykit.bots import BOT_KIND_NAMES, bot_label

LEVEL_NAMES_DE: Final = {"easy": "leicht", "medium": "mittel", "hard": "schwer"}
LEVEL_LINES_DE: Final = {
    "easy": "leicht: schnelle Suche, wenige Millisekunden pro Zug",
    "medium": "mittel: der Standard, einige Hundertstelsekunden pro Zug",
    "hard": "schwer: die stärkste Stufe, bis zu einigen Zehntelsekunden pro Zug",
}
"""One German line per bot level, for the lobby's level menu and the terminal's help."""


def level_line_de(level: str) -> str:
    """The German line of a bot level; an unknown level is shown by its key."""
    return LEVEL_LINES_DE.get(level, level)


BOT_KIND_LINES_DE: Final = {
    "random": "spielt irgendeinen erlaubten Zug: zum Ausprobieren der Regeln",
    "greedy": "spielt, was in diesem Zug am meisten hilft, und schaut nie voraus",
    "search": "spielt jede Wahl oft mit vermuteten Händen durch und nimmt die beste: der stärkste",
}
"""One German line per bot kind, keyed like ``rummykit.bots.BOT_KIND_LINES``."""

BOT_KIND_NAMES_DE: Final = {"random": "Zufall", "greedy": "Gierig", "search": "Suche"}
"""The German name of each bot kind, keyed like ``rummykit.bots.BOT_KIND_NAMES``."""


def bot_name(spec: str, lang: str) -> str:
    """How a ``kind:level`` bot is named to a player in ``lang``: ``Search (medium)``,
    ``Suche (mittel)``, ``Greedy``; the level only where it changes the bot's play
    (:func:`rummykit.bots.bot_label`), a kind without a people's name by its id."""
    kind, _, level = bot_label(spec).partition(":")
    names = BOT_KIND_NAMES_DE if lang == "de" else BOT_KIND_NAMES
    name = names.get(kind, kind)
    if not level:
        return name
    return f"{name} ({LEVEL_NAMES_DE.get(level, level) if lang == 'de' else level})"
