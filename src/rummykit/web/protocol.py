"""The web protocol: pydantic models of what clients send, and the JSON the server sends back.

Client to server (one JSON object per websocket text message, at most :data:`MAX_MESSAGE_BYTES`)::

    {"type": "act", "action": "open 10H JH QH | AS AD AC", "version": 17}
    {"type": "hint"}
    {"type": "evaluate", "melds": [["5H", "6H", "JK"], ["QS", "QD", "QC"]]}
    {"type": "ping"}

Server to client::

    {"type": "welcome", "seat": 0 | null, "code": "K7QMX2"}
    {"type": "state", "version": 17, "you": 0 | null, "table": {...}, "view": {...} | null,
     "legal": ["draw", "take"], "match": {...}, "log": [...]}
    {"type": "error", "code": "illegal", "message": "...", "rule": "opening_min_points", "version": 17}
    {"type": "hint", "action": "discard QS", "version": 17}
    {"type": "evaluation", "melds": [...], "total": 41, "opening_min": 40}
    {"type": "pong"}

Views are serialised here, cards as notation strings. A seat's message holds its own hand and no
other hidden card: other seats appear as card counts until their hands are revealed (the knocker's at
a knock, every hand at the end). Spectators get the public view, which holds no hand at all. The
card a ``rummy`` call puts face down is not shown in the log.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from rummykit.actions import Action, CallRummy
from rummykit.cards import Card
from rummykit.match import Match, MatchEvent
from rummykit.round import Event
from rummykit.seating import card_text
from rummykit.views import PlayerView, RoundResult, TableMeld

MAX_MESSAGE_BYTES: Final = 4096
"""Largest client message accepted; longer ones get a ``too_large`` error and change nothing."""
MAX_ACTION_CHARS: Final = 400
LOG_LENGTH: Final = 12
"""How many recent actions a state message carries."""

BotLevel = Literal["easy", "medium", "hard"]
"""The levels of :data:`rummykit.bots.BOT_LEVELS`."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# Client messages --------------------------------------------------------------------------------
class ActMessage(_Strict):
    """Play ``action`` (engine notation) against state ``version``."""

    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION_CHARS)]
    version: Annotated[int, Field(ge=0)]


class HintMessage(_Strict):
    type: Literal["hint"]


class EvaluateMessage(_Strict):
    """Judge melds being composed: legality and opening value of each, and their total."""

    type: Literal["evaluate"]
    melds: Annotated[
        list[Annotated[list[Annotated[str, Field(max_length=8)]], Field(max_length=16)]],
        Field(max_length=8),
    ]


class PingMessage(_Strict):
    type: Literal["ping"]


ClientMessage = Annotated[
    ActMessage | HintMessage | EvaluateMessage | PingMessage, Field(discriminator="type")
]
CLIENT_MESSAGE: Final[TypeAdapter[ActMessage | HintMessage | EvaluateMessage | PingMessage]] = TypeAdapter(
    ClientMessage
)


# REST bodies -------------------------------------------------------------------------------------
OptionValue = int | bool | str | None | list[int]


class BotSpec(_Strict):
    kind: Annotated[str | None, Field(max_length=32)] = None
    """Bot kind (``random``, ``greedy``, ``search``); ``None`` takes the server's default."""
    level: BotLevel | None = None


class CreateTable(_Strict):
    """A new table: rules (preset plus option overrides), seats, bots; the creator takes seat 0."""

    preset: Annotated[str, Field(max_length=40)] = "german"
    overrides: Annotated[dict[Annotated[str, Field(max_length=48)], OptionValue], Field(max_length=40)] = {}
    seats: Annotated[int, Field(ge=2, le=8)] = 2
    bots: Annotated[list[BotSpec], Field(max_length=7)] = []
    """Bots for the last seats; the seats between the creator and the bots are open for people."""
    name: Annotated[str, Field(max_length=32)] = ""
    seed: Annotated[int | None, Field(ge=0, lt=2**32)] = None
    takeover_seconds: Annotated[float | None, Field(ge=0, le=3600)] = None


class JoinTable(_Strict):
    name: Annotated[str, Field(max_length=32)] = ""


class TokenBody(_Strict):
    token: Annotated[str, Field(min_length=1, max_length=100)]


class SeatGrant(BaseModel):
    """What a player receives on creating or joining: the seat and its secret token."""

    code: str
    seat: int
    token: str
    url: str


# Serialisation -----------------------------------------------------------------------------------
def cards(seq: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(c) for c in seq]


def meld_json(tm: TableMeld) -> dict[str, Any]:
    meld = tm.meld
    return {
        "cards": cards(meld.cards),
        "text": meld.notation(),
        "kind": str(meld.kind),
        "value": meld.value,
        "owner": tm.owner,
    }


def result_json(result: RoundResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    arrangements: list[dict[str, Any] | None] = []
    for arr in result.arrangements:
        if arr is None:
            arrangements.append(None)
        else:
            arrangements.append(
                {
                    "melds": [m.notation() for m in arr.melds],
                    "meld_cards": [cards(m.cards) for m in arr.melds],
                    "deadwood_cards": cards(arr.deadwood_cards),
                    "deadwood": arr.deadwood,
                }
            )
    return {
        "termination": str(result.termination),
        "winner": result.winner,
        "scored": result.scored,
        "points": list(result.points),
        "penalties": list(result.penalties),
        "gains": list(result.gains),
        "hand_values": list(result.hand_values),
        "multiplier": result.multiplier,
        "arrangements": arrangements,
    }


def view_json(view: PlayerView, *, own: bool) -> dict[str, Any]:
    """A view as JSON; ``own=False`` gives the public view (no hand: spectators)."""
    return {
        "seat": view.seat if own else None,
        "hand": cards(view.hand) if own else None,
        "hand_sizes": list(view.hand_sizes),
        "melds": [meld_json(tm) for tm in view.melds],
        "discard_pile": cards(view.discard_pile),
        "stock_size": view.stock_size,
        "phase": str(view.phase),
        "to_move": view.to_move,
        "opened": list(view.opened),
        "scores": list(view.scores),
        "dealer": view.dealer,
        "active_seats": list(view.active_seats),
        "in_play": list(view.in_play),
        "turn": view.turn,
        "taken_discard": None if view.taken_discard is None else str(view.taken_discard),
        "must_lay": None if view.must_lay is None else str(view.must_lay),
        "knocker": view.knocker,
        "revealed": [None if r is None else cards(r) for r in view.revealed],
        "known_cards": [cards(k) for k in view.known_cards],
        "extra_turns": list(view.extra_turns),
        "stock_rebuilds": view.stock_rebuilds,
        "result": result_json(view.result),
    }


def public_action_text(action: Action) -> str:
    """An action as everybody may read it: a Rummy call hides the card that goes face down."""
    if isinstance(action, CallRummy):
        return "rummy"
    return str(action)


def log_json(match: Match, length: int = LOG_LENGTH) -> list[dict[str, Any]]:
    start = max(0, len(match.history) - length)
    entries = seat_draw_json(match) if start == 0 else []
    for i, event in enumerate(match.history[start:], start=start):
        if isinstance(event, (Event, MatchEvent)):
            entries.append({"index": i, "seat": event.seat, "action": public_action_text(event.action)})
    return entries


def seat_draw_json(match: Match) -> list[dict[str, Any]]:
    """The draw for the first dealer as log entries before the first move ("Anna: draws K♠")."""
    draw = match.seat_draw
    if draw is None:
        return []
    if draw.method == "random":
        return [{"index": -1, "seat": draw.dealer, "action": "deals first (seats by lot)"}]
    drawn = [(seat, f"draws {card_text(card)}") for cards in draw.drawn() for seat, card in cards]
    drawn[-1] = (draw.dealer, drawn[-1][1] + " and deals first")
    return [{"index": -1, "seat": seat, "action": text} for seat, text in drawn]


def match_json(match: Match) -> dict[str, Any]:
    hands = []
    for number, rnd in enumerate(match.rounds, start=1):
        if rnd.result is not None:
            hands.append(
                {
                    "hand": number,
                    "points": list(rnd.result.points),
                    "termination": str(rnd.result.termination),
                    "winner": rnd.result.winner,
                }
            )
    return {
        "hands_dealt": match.hands_dealt,
        "hands": hands,
        "totals": list(match.totals),
        "scores": list(match.scores),
        "chips": list(match.chips),
        "pot": match.pot,
        "is_rubber": match.is_rubber,
        "eliminated": list(match.eliminated),
        "winners": list(match.winners),
        "is_over": match.is_over,
        "to_move": None if match.is_over else match.to_move,
        "buyback_pending": list(match.pending_buyback),
    }


def error_json(
    code: str, message: str, version: int | None = None, rule: str | None = None
) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "rule": rule, "version": version}
