"""rummykit: the rules engine for German Rummy (Rommé), Viennese Rummy (Wiener Rummy) and Gin Rummy.

>>> import rummykit as rk
>>> rk.Meld.parse("JC QC JK AC", rk.Rules.preset("german")).value
41
"""

from rummykit import i18n, solver  # i18n: RummyError.localized speaks German
from rummykit.actions import Action
from rummykit.cards import JOKER, Card, Hand, build_deck, format_cards, parse_cards
from rummykit.errors import (
    IllegalActionError,
    IllegalMeldError,
    NotationError,
    RulesError,
    RummyError,
)
from rummykit.match import BonusParts, Match, MatchEvent, MatchPosition
from rummykit.melds import Meld, MeldKind
from rummykit.record import Record, ReplayError
from rummykit.record_seats import RecordSeat
from rummykit.round import Event, Round, RoundStatus
from rummykit.rules import PRESET_NAMES, Rules
from rummykit.state import RoundState
from rummykit.version import __version__
from rummykit.views import Phase, PlayerView, RoundResult, TableMeld, Termination

__all__ = [
    "JOKER",
    "PRESET_NAMES",
    "Action",
    "BonusParts",
    "Card",
    "Event",
    "Hand",
    "IllegalActionError",
    "IllegalMeldError",
    "Match",
    "MatchEvent",
    "MatchPosition",
    "Meld",
    "MeldKind",
    "NotationError",
    "Phase",
    "PlayerView",
    "Record",
    "RecordSeat",
    "ReplayError",
    "Round",
    "RoundResult",
    "RoundState",
    "RoundStatus",
    "Rules",
    "RulesError",
    "RummyError",
    "TableMeld",
    "Termination",
    "__version__",
    "build_deck",
    "format_cards",
    "i18n",
    "parse_cards",
    "solver",
]
