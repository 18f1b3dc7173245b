"""rummykit: the rules engine for German Rummy (Rommé) and Viennese Rummy (Wiener Rummy).

>>> import rummykit as rk
>>> rk.Meld.parse("JC QC JK AC", rk.Rules.preset("german")).value
41
"""

from rummykit.cards import JOKER, Card, Hand, build_deck, format_cards, parse_cards
from rummykit.errors import (
    IllegalActionError,
    IllegalMeldError,
    NotationError,
    RulesError,
    RummyError,
)
from rummykit.melds import Meld, MeldKind
from rummykit.rules import PRESET_NAMES, Rules

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "PRESET_NAMES",
    "Card",
    "Hand",
    "IllegalActionError",
    "IllegalMeldError",
    "Meld",
    "MeldKind",
    "NotationError",
    "Rules",
    "RulesError",
    "RummyError",
    "__version__",
    "build_deck",
    "format_cards",
    "parse_cards",
]
