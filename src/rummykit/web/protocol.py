"""The web protocol: pydantic models of what clients send, and the JSON the server sends back.

For client authors the reference is ``docs/protocol.md`` (a test holds it to every message type,
endpoint and refusal code of this package); this is the overview.

Client to server (one JSON object per websocket text message, at most :data:`MAX_MESSAGE_BYTES`).
The first message of a connection says who is connecting: a seat's token, or ``null`` to watch.
Tokens never travel in the URL, where access logs and proxies would keep them::

    {"type": "hello", "token": "…" | null}
    {"type": "act", "action": "open 10H JH QH | AS AD AC", "version": 17}
    {"type": "hint"}          (the player to move, where the table's HintsPolicy allows it)
    {"type": "moves"}         (every legal action of the player to move, compound ones included)
    {"type": "evaluate", "melds": [["5H", "6H", "JK"], ["QS", "QD", "QC"]]}
    {"type": "back"}          (take the seat back from the bot that played it while you were idle)
    {"type": "chat", "text": "gut gespielt!"}     (seats only; rummykit.web.chat)
    {"type": "undo"}          (take back my latest move; practice tables only: rummykit.web.practice)
    {"type": "hand_log"}      (every move of the current hand: rummykit.web.handlog)
    {"type": "ready"}         (I have seen the hand's result: my turn clock may run again)
    {"type": "rematch"}       (the host opens the finished match's one rematch: rummykit.web.rematch)
    {"type": "ping"}

Server to client::

    {"type": "welcome", "seat": 0 | null, "code": "K7QMX2"}   (after a bot stood in for the seat's
                              absent person: "stood_in": [41, 43], the log indices of its moves)
    {"type": "state", "version": 17, "you": 0 | null, "table": {...}, "view": {...} | null,
     "legal": ["discard 3H", …], "compose": ["open", "layoff"], "legal_texts": [...], "match": {...},
     "log": [...], "rest": [1]}   (a move's log entry has "hand": its hand's number; "rest": of the
                              receiver's seat and the person to move, those whose turn clock
                              rests in the break after a hand)
    {"type": "moves", "version": 17, "actions": ["open 10H JH QH", "layoff 5C on 2", …], "texts": [...]}
    {"type": "error", "code": "illegal", "message": "...", "rule": "opening_min_points", "version": 17,
     "texts": {"en": "...", "de": "..."}}
    {"type": "error", "code": "rate_limited", "message": "...", "retry_after": 0.4, ...}
    {"type": "hint", "action": "discard QS", "version": 17}
    {"type": "evaluation", "melds": [...], "total": 41, "opening_min": 40}
    {"type": "pong"}
    {"type": "chat", "n": 3, "seat": 1, "name": "Ben", "text": "gut gespielt!"}
    {"type": "rematch", "code": "…", "seat": 1, "token": "…"}   (rummykit.web.rematch)
    {"type": "hand_log", "version": 17, "hand": 3, "entries": [...]}   (log entries of this hand)
    {"type": "notice", "code": "storage_slow", "message": "...", "version": 17, "texts": {...}}

``legal`` lists the actions that need no composing (draw, take, discards, knocks, buy-back
decisions) and ``compose`` the compound kinds the rules permit now (:mod:`rummykit.web.moves`);
with ``compose`` empty, ``legal`` is complete. ``moves`` enumerates everything, once per version.

Views are serialised here, cards as notation strings. A seat's message holds its own hand and no
other hidden card: other seats appear as card counts until their hands are revealed (the knocker's at
a knock, every hand at the end). Spectators get the public view, which holds no hand at all. A card
that goes face down (``rummy``, a face-down knock or going-out discard) is not shown in the log:
:func:`rummykit.disclosure.public_action_text` decides what of an action is public.

A seat's view of a knock game (Viennese, Rommé ohne Auslegen, gin) carries ``knock_line``: that seat's
own deadwood and the knock limit (:func:`knock_line_json`); spectators' views have none.

Texts for people come in every language next to the English or notation field (``texts``:
``{"en": …, "de": …}`` in errors and log entries, :mod:`rummykit.web.texts`); a client shows the one
of its language.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from rummykit import solver
from rummykit.cards import JOKER_CODE, Card, Hand
from rummykit.disclosure import event_goes_out
from rummykit.gin import big_gin_hand, gin_json, knocked_big_gin, knocked_gin, undercut_by, values_of
from rummykit.gin_melds import best_group, eleven_card_deadwood, mask_of
from rummykit.gin_melds import deadwood as gin_deadwood
from rummykit.match import Match, MatchEvent
from rummykit.round import Event
from rummykit.rules import Rules
from rummykit.seating import card_text
from rummykit.views import Phase, PlayerView, RoundResult, TableMeld
from rummykit.web.chat import ChatMessage
from rummykit.web.handlog import hand_numbers, log_entry
from rummykit.web.texts import first_dealer_texts, seat_draw_texts, server_error_texts

MAX_MESSAGE_BYTES: Final = 4096
"""Largest client message accepted; longer ones get a ``too_large`` error and change nothing."""
MAX_ACTION_CHARS: Final = 400
LOG_LENGTH: Final = 12
"""How many recent actions a state message carries."""

BotLevel = Literal["easy", "medium", "hard"]
"""The levels of :data:`rummykit.bots.BOT_LEVELS`."""


class _Strict(BaseModel):
    """What a client sends: no unknown field, and every value of its field's own JSON type (no
    ``"3"`` or ``3.0`` or ``true`` for a number)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, strict=True)


MOST_MARKS: Final = 4
"""The most combining marks one character of a name or label carries: what any script writes (a
Vietnamese vowel has two, a Tibetan stack three or four). More pile up over the lines around the
name (a stranger's name of 31 marks on one letter covered the other players' names)."""
INVISIBLE: Final = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0")
"""Characters Python counts as printable that show nothing (Unicode's default-ignorable letters and
marks: the Hangul fillers, the combining grapheme joiner, Khmer's inherent vowels, Mongolian's
variation selectors; and the blank braille pattern): a name of them alone looked empty, and beside a
name looked like that name. The variation selectors of other scripts stay (an emoji's ``U+FE0F``),
but a mark needs a character to sit on: a text's first (after spaces) is no mark."""


def _printable(text: str) -> str:
    """Names are printable text: no lone surrogate (not UTF-8), no control character, nothing that shows
    nothing (:data:`INVISIBLE`, a combining mark with no character under it), at most
    :data:`MOST_MARKS` combining marks on one character."""
    first = text.lstrip()[:1]
    if first and unicodedata.category(first) in ("Mn", "Me"):  # alone it shows nothing, or a dotted circle
        raise ValueError("must not begin with a combining mark")
    marks = 0
    for ch in text:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            raise ValueError("must be valid Unicode text (a lone surrogate is not)")
        if not ch.isprintable() or ch in INVISIBLE:
            raise ValueError("must not contain control characters")
        marks = marks + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if marks > MOST_MARKS:
            raise ValueError(f"at most {MOST_MARKS} combining marks on one character")
    return text


NAME_CHARACTERS: Final = 32
"""The longest player's name (the lobby's name fields say the same: ``maxlength``)."""
Name = Annotated[str, Field(max_length=NAME_CHARACTERS), AfterValidator(_printable)]
"""A player's name as sent by a client. Empty: the person gave none; it is stored empty, and pages
and the server's texts name them by seat in each reader's language ("Player 2", "Spieler 2")."""
LABEL_CHARACTERS: Final = 24
"""The longest label the organiser gives a table ("Group A", "Tisch am Fenster"): it is shown beside the
table's code on the organiser's list, in the waiting room and in the table's header on a phone."""
Label = Annotated[str, Field(max_length=LABEL_CHARACTERS), AfterValidator(_printable)]
"""A table's label as the organiser typed it: printable text (no tab, line break or other invisible
character, as a name); surrounding spaces are dropped. Empty: no label."""


# Client messages --------------------------------------------------------------------------------
class ActMessage(_Strict):
    """Play ``action`` (engine notation) against state ``version``."""

    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION_CHARS)]
    version: Annotated[int, Field(ge=0, lt=2**53)]


class HintMessage(_Strict):
    type: Literal["hint"]


class EvaluateMessage(_Strict):
    """Judge melds being composed: legality and opening value of each, and their total."""

    type: Literal["evaluate"]
    melds: Annotated[
        list[Annotated[list[Annotated[str, Field(max_length=8)]], Field(max_length=16)]],
        Field(max_length=8),
    ]


class MovesMessage(_Strict):
    """Ask for every legal action of the player to move (compound ones included)."""

    type: Literal["moves"]


class PingMessage(_Strict):
    type: Literal["ping"]


class BackMessage(_Strict):
    """The seat's player is back: the bot that played for them while they were idle stops."""

    type: Literal["back"]


class UndoMessage(_Strict):
    """Take back my latest move (practice tables only: :mod:`rummykit.web.practice`)."""

    type: Literal["undo"]


class HandLogMessage(_Strict):
    """Every move of the current hand (anybody at the table: :mod:`rummykit.web.handlog`)."""

    type: Literal["hand_log"]


class ReadyMessage(_Strict):
    """The seat's person has seen the hand's result: the break after the hand ends for them."""

    type: Literal["ready"]


class RematchMessage(_Strict):
    """The host opens the finished match's rematch (:mod:`rummykit.web.rematch`)."""

    type: Literal["rematch"]


class HelloMessage(_Strict):
    """The first message of a connection: the seat's token, or ``None`` to watch."""

    type: Literal["hello"]
    token: Annotated[str | None, Field(max_length=100)] = None


AnyClientMessage = (
    ActMessage
    | HintMessage
    | MovesMessage
    | EvaluateMessage
    | PingMessage
    | BackMessage
    | ChatMessage
    | UndoMessage
    | HandLogMessage
    | ReadyMessage
    | RematchMessage
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_MESSAGE: Final[TypeAdapter[AnyClientMessage]] = TypeAdapter(ClientMessage)
HELLO: Final[TypeAdapter[HelloMessage]] = TypeAdapter(HelloMessage)


# REST bodies -------------------------------------------------------------------------------------
OptionNumber = Annotated[int, Field(ge=-(10**6), le=10**6)]
OptionValue = (
    OptionNumber
    | bool
    | Annotated[str, Field(max_length=64)]
    | None
    | Annotated[list[OptionNumber], Field(max_length=16)]
)
"""An option's value in a create request: bounded, so no refusal repeats anything large."""


HintsPolicy = Literal["practice", "everyone"]
"""Who may ask the engine for a hint at a table. A hint is the medium bot's move for the player to
move: at a table with other people it is help that one player gets and the others may not want.
``"practice"`` (the default) gives hints only to a player whose every opponent is a bot (a practice
table, :func:`rummykit.web.practice.is_practice`, where undo is allowed too); ``"everyone"`` gives
them to every player, for a teaching table among friends: the lobby shows it to whoever joins."""


def hints_policy(text: str) -> HintsPolicy:
    """A stored hints setting read back: ``"everyone"``, else the default ``"practice"``."""
    return "everyone" if text == "everyone" else "practice"


class BotSpec(_Strict):
    kind: Annotated[str | None, Field(max_length=32)] = None
    """Bot kind (``random``, ``greedy``, ``search``); ``None`` takes the server's default."""
    level: BotLevel | None = None


Overrides = Annotated[dict[Annotated[str, Field(max_length=48)], OptionValue], Field(max_length=40)]
"""House rules: option values over a preset's (at most 40, each named in at most 48 characters)."""


def _no_preset(overrides: dict[str, OptionValue]) -> dict[str, OptionValue]:
    if "preset" in overrides:
        raise ValueError("the preset is chosen by 'preset', not among the overrides")
    return overrides


class HouseRules(_Strict):
    """House rules over a preset, for the rules page of a table not made yet
    (``POST /api/presets/{name}/rules``): what the create form's choices mean before they are played."""

    overrides: Overrides = {}

    @field_validator("overrides")
    @classmethod
    def _no_preset(cls, overrides: dict[str, OptionValue]) -> dict[str, OptionValue]:
        return _no_preset(overrides)


class CreateTable(_Strict):
    """A new table: rules (preset plus option overrides), seats, bots; the creator takes seat 0 (a table
    the organiser makes has no creator's seat: :mod:`rummykit.web.organiser`)."""

    preset: Annotated[str, Field(max_length=40)] = "german"
    overrides: Overrides = {}
    seats: Annotated[int, Field(ge=2, le=8)] = 2
    bots: Annotated[list[BotSpec], Field(max_length=7)] = []
    """Bots for the last seats; the seats between the creator and the bots are open for people."""
    name: Name = ""
    """The creator's name at seat 0 (not used for a table the organiser makes)."""
    seed: Annotated[int | None, Field(ge=0, lt=2**32)] = None
    """A fixed seed makes a *seeded* table: reproducible by anybody, and marked so for everybody."""
    takeover_seconds: Annotated[float | None, Field(ge=0, le=3600)] = None
    hints: HintsPolicy = "practice"
    """Who may ask for a hint (:data:`HintsPolicy`)."""
    listed: bool | None = None
    """Whether the lobby lists the table (anyone may then join its open seats or watch it); not listed,
    it is found by its link or code alone. Default: listed, except a practice table (every other seat a
    bot), where nobody is to be found and a person practising is not watched by strangers."""
    label: Label = ""
    """The organiser's name for a table it makes ("Group A"), shown to everybody at it; a player's own
    table has none (``label_organiser_only``: a label in the public lobby would be anybody's words)."""

    @field_validator("overrides")
    @classmethod
    def _no_preset(cls, overrides: dict[str, OptionValue]) -> dict[str, OptionValue]:
        return _no_preset(overrides)


class JoinTable(_Strict):
    name: Name = ""


class TokenBody(_Strict):
    token: Annotated[str, Field(min_length=1, max_length=100)]


class RemoveSeat(TokenBody):
    """The host frees a seat a person took at the waiting table (``POST …/remove``)."""

    seat: Annotated[int, Field(ge=0, le=7)]
    name: Name | None = None
    """The name the host saw on the seat: refused (``lobby_changed``) when somebody else sits there now."""


class OrganiserRemove(_Strict):
    """The organiser frees a seat a person took at a waiting table the organiser made
    (``POST /api/organiser/tables/{code}/remove``)."""

    seat: Annotated[int, Field(ge=0, le=7)]
    name: Name | None = None
    """The name the organiser saw on the seat: refused (``lobby_changed``) when another sits there now."""


class OrganiserLabel(_Strict):
    """The organiser changes the label of a table they made, or clears it with ``""``
    (``POST /api/organiser/tables/{code}/label``): checked as at the table's making."""

    label: Label


class SeatGrant(BaseModel):
    """What a player receives on creating or joining: the seat and its secret token."""

    code: str
    seat: int
    token: str
    url: str


# Serialisation -----------------------------------------------------------------------------------
_CARD_TEXT: Final[tuple[str, ...]] = tuple(str(Card(code)) for code in range(JOKER_CODE + 1))
"""Notation of each card code (``Card`` is an ``int``: its code indexes this)."""


def notation(card: Card) -> str:
    """A card's notation (``10H``, ``JK``), looked up rather than formatted each time."""
    return _CARD_TEXT[card]


def cards(seq: tuple[Card, ...] | list[Card]) -> list[str]:
    text = _CARD_TEXT
    return [text[c] for c in seq]


def meld_json(tm: TableMeld) -> dict[str, Any]:
    meld = tm.meld
    return {
        "cards": cards(meld.cards),
        "text": meld.notation(),
        "kind": str(meld.kind),
        "value": meld.value,
        "owner": tm.owner,
    }


def result_json(result: RoundResult | None, rules: Rules) -> dict[str, Any] | None:
    """A hand's result; for gin also whether the knocker went gin (``big_gin``: all eleven cards laid)
    and who undercut them (``winner`` is the knocker in any case; RULES.md §5.4). ``takes_bound`` is
    ``max_takes_in_a_row`` when the hand ended dead on it (the take past the bound is not made,
    RULES.md D10), else ``None``."""
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
        "gin": knocked_gin(result, rules),
        "big_gin": knocked_big_gin(result, rules),
        "undercut_by": undercut_by(result, rules),
        "takes_bound": result.take_bound(rules),
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
        "result": result_json(view.result, view.rules),
        "gin": gin_json(view.gin),
        "knock_line": knock_line_json(view) if own else None,
        "knocker_shown": knocker_shown_json(view),
    }


def knocker_shown_json(view: PlayerView) -> dict[str, Any] | None:
    """The hand a knock game's knocker lays face up at the knock, split into melds and deadwood as the
    showdown counts it (RULES.md §4.5: the others play their extra turns against it), or ``None``:
    no knock, a gin hand (its knocker lays melds one by one) or the hand is over."""
    if view.knocker is None or view.gin is not None or view.phase is Phase.OVER:
        return None
    shown = view.revealed[view.knocker] if view.revealed else None
    if not shown:
        return None
    best = solver.best_arrangement(list(shown), view.rules)
    return {
        "melds": [cards(m.cards) for m in best.melds],
        "deadwood_cards": cards(best.deadwood_cards),
        "deadwood": best.deadwood,
    }


def knock_line_json(view: PlayerView) -> dict[str, Any] | None:
    """The knock games' line for the seat's own hand (Viennese, Rommé ohne Auslegen, gin): its
    deadwood and the knock limit, ``deadwood {sign} threshold`` with ``<`` for ``comparison = lt``
    and ``<=`` for ``le`` (RULES.md §4.5; gin knocks at its hand's knock card or less). In the seat's
    discard phase the hand holds the card to be discarded, so the deadwood is the least a discard
    leaves (``after_discard``; never the card just taken when that may not go back; in gin the count
    that decides the knock, option ``eleven_card_deadwood``), which is what the knock asks for.
    ``melds``: the melds of the hand's best arrangement as held (the page's "Sort by melds" groups
    them). Only the seat's own cards go into it; ``None`` outside the knock games and once the hand is
    over."""
    rules = view.rules
    if rules.family not in ("knock", "gin") or not view.hand or view.phase is Phase.OVER:
        return None
    if view.gin is not None:
        return _gin_knock_line(view)
    hand = list(view.hand)
    after_discard = view.phase is Phase.DISCARD and view.to_move == view.seat
    arrangement = solver.best_arrangement(hand, rules)
    if not after_discard:
        deadwood = arrangement.deadwood  # the least deadwood: no second search
    else:
        deadwood, best = solver.best_discards(hand, rules)
        barred = None if rules.may_discard_taken_discard else view.taken_discard
        others = set(hand) - {barred}
        if barred is not None and set(best) == {barred} and others:  # the best discard may not go back
            deadwood = min(solver.min_deadwood(list(Hand(hand).without((c,))), rules) for c in others)
    return {
        "deadwood": deadwood,
        "after_discard": after_discard,
        "threshold": rules.knock_threshold,
        "comparison": rules.knock_comparison,
        "melds": [cards(m.cards) for m in arrangement.melds],
    }


def _gin_knock_line(view: PlayerView) -> dict[str, Any]:
    """:func:`knock_line_json` of gin: the deadwood of the ten cards, or after the draw the count that
    decides the knock (:func:`~rummykit.gin_melds.eleven_card_deadwood`; the least an allowed discard
    leaves where the card just taken may not go back) and whether the cards are a big gin
    (``big_gin``: every card in melds where ``big_gin_bonus`` is set)."""
    assert view.gin is not None
    rules = view.rules
    mask, values = mask_of(view.hand), values_of(rules)
    after_discard = view.phase is Phase.DISCARD and view.to_move == view.seat
    barred = None if rules.may_discard_taken_discard else view.taken_discard
    group = best_group(mask, values)
    if after_discard and barred is not None:  # the least the allowed discards leave
        deadwood = min(gin_deadwood(mask & ~(1 << c), values) for c in view.hand if c != barred)
    elif after_discard:
        deadwood = eleven_card_deadwood(mask, values, rules.eleven_card_deadwood)
    else:  # the cards outside the best group: no second search
        melded = {c for m in group for c in m.cards}
        deadwood = sum(values[c] for c in view.hand if c not in melded)
    return {
        "deadwood": deadwood,
        "after_discard": after_discard,
        "threshold": view.gin.knock_card,
        "comparison": "le",
        "big_gin": after_discard and big_gin_hand(mask, rules),
        "melds": [cards(list(m.cards)) for m in group],
    }


LogCache = dict[int, tuple[object, bool, dict[str, Any]]]
"""Log entries already worded, by history index: (event, whether it went out, entry)."""


def log_json(match: Match, length: int = LOG_LENGTH, cache: LogCache | None = None) -> list[dict[str, Any]]:
    """The last ``length`` actions as everybody may read them (face-down cards left out), each with
    the number of its hand (:mod:`rummykit.web.handlog`).

    With ``cache`` (kept by the caller for one match), an entry already worded for the same event
    is reused; entries that fell out of the shown part are dropped from it."""
    start = max(0, len(match.history) - length)
    shown = {id(e) for e in match.history[start:]}
    went_out = set()
    for r in reversed(match.rounds):  # only hands that end inside the shown part matter
        last = r.history[-1] if r.history else None
        if last is None:
            continue
        if id(last) not in shown:
            break
        if event_goes_out(r, last):
            went_out.add(id(last))
    entries = seat_draw_json(match) if start == 0 else []
    hands: list[int] | None = None  # from the first entry not cached on (cached ones hold theirs)
    first = start
    for i, event in enumerate(match.history[start:], start=start):
        if isinstance(event, (Event, MatchEvent)):
            out = id(event) in went_out
            known = cache.get(i) if cache is not None else None
            if known is not None and known[0] is event and known[1] == out:
                entries.append(known[2])
                continue
            if hands is None:
                hands, first = hand_numbers(match, i), i
            entry = log_entry(i, event, match, out, hands[i - first])
            entries.append(entry)
            if cache is not None:
                cache[i] = (event, out, entry)
    if cache is not None:
        for old in [k for k in cache if k < start]:
            del cache[old]
    return entries


def seat_draw_json(match: Match) -> list[dict[str, Any]]:
    """The draw for the first dealer as log entries before the first move ("Anna: draws K♠")."""
    draw = match.seat_draw
    if draw is None:
        return []
    if draw.method == "random":
        texts = seat_draw_texts(None, deals_first=True)
        return [{"index": -1, "seat": draw.dealer, "action": "deals first (seats by lot)", "texts": texts}]
    drawn = [(seat, card, f"draws {card_text(card)}") for cards in draw.drawn() for seat, card in cards]
    last = len(drawn) - 1 if draw.dealer_drew_last else -1  # the dealer's winning card comes last
    entries = [
        {
            "index": -1,
            "seat": seat,
            "action": text + (" and deals first" if i == last else ""),
            "texts": seat_draw_texts(card, deals_first=i == last),
        }
        for i, (seat, card, text) in enumerate(drawn)
    ]
    if not draw.dealer_drew_last:
        card = draw.dealer_card
        assert card is not None
        entries.append(
            {
                "index": -1,
                "seat": draw.dealer,
                "action": f"deals first with {card_text(card)}",
                "texts": first_dealer_texts(card),
            }
        )
    return entries


def match_json(match: Match) -> dict[str, Any]:
    """The match's public state; each finished hand lists its ``active_seats`` (a seat sitting that
    hand out, the DSkV dealer at a table of four, scored nothing and is no 0-point result), its
    ``dealer`` and its ``multiplier`` (a Hand-Rommé's ×2, 1 for none): what a tournament's score sheet
    keeps for every hand besides the points (``rummykit sheet`` prints the same).
    ``gains`` (per hand and in all) are the plus points a match to a target score adds up;
    ``bonuses`` what gin's end-of-game bonuses added to them (``Match.bonuses``: zeros until it ends),
    ``bonus_parts`` each seat's itemised (``Match.bonus_parts``: box, game and shutout).
    A rubber's ``buybacks`` list every buy-back made (after which hand, who, the total before and
    after, the chips paid) and ``buyback_offer`` the open offer (who, its price, the total it sets);
    each of its hands the ``chips`` it moved per seat (``Match.hand_chips``: its ante under
    ``ante_frequency = per_hand`` and its knock money) and its ``knock_money`` alone; ``start_chips``
    the chips before the first hand, and ``pot_shares`` what each seat took from the pot at the end
    (``Match.pot_shares``: a shared pot as it split).
    ``hand_number`` is the current hand's number in the series and ``dealt_again`` how often in a row
    it was dealt again (``unscored_hand = redeal``: a hand dealt again does not count, and each of
    ``hands`` says whether it was; ``hands_dealt`` counts every deal)."""
    hands = []
    rubber = match.is_rubber
    for number, rnd in enumerate(match.rounds, start=1):
        if rnd.result is not None:
            chips = (
                {"chips": list(match.hand_chips(number)), "knock_money": list(match.knock_money(number))}
                if rubber
                else {}
            )
            hands.append(
                {
                    "hand": number,
                    "points": list(rnd.result.points),
                    "gains": list(rnd.result.gains),
                    "termination": str(rnd.result.termination),
                    "winner": rnd.result.winner,
                    "dealer": rnd.dealer,
                    "multiplier": rnd.result.multiplier,
                    "active_seats": list(rnd.active_seats),
                    "dealt_again": number in match.redealt,
                    **chips,
                }
            )
    return {
        "hands_dealt": match.hands_dealt,
        "hand_number": match.hand_number,
        "dealt_again": match.redeals_in_a_row,
        "hands": hands,
        "totals": list(match.totals),
        "gains": list(match.gains),
        "bonuses": list(match.bonuses),
        "bonus_parts": [
            {"hands_won": b.hands_won, "box": b.box, "game": b.game, "shutout": b.shutout}
            for b in match.bonus_parts()
        ],
        "scores": list(match.scores),
        "chips": list(match.chips),
        "pot": match.pot,
        "pot_won": match.pot_won,
        "pot_shares": list(match.pot_shares()),
        "start_chips": list(match.start_chips()),
        "is_rubber": match.is_rubber,
        "eliminated": list(match.eliminated),
        "winners": list(match.winners),
        "tiebreak": match.tiebreak,
        "is_over": match.is_over,
        "to_move": None if match.is_over else match.to_move,
        "buyback_pending": list(match.pending_buyback),
        "buybacks": [
            {"hand": e.hand, "seat": e.seat, "from": e.old_total, "to": e.new_total, "chips": e.chips}
            for e in (match.history if any(match.buybacks) else ())  # the history is long: read it only then
            if isinstance(e, MatchEvent) and e.new_total is not None
        ],
        "buyback_offer": _buyback_offer(match),
    }


def _buyback_offer(match: Match) -> dict[str, int] | None:
    """The open buy-back offer: the seat it is made to, its price in chips, and the totals before and
    after (``None`` when no offer is open)."""
    if not match.pending_buyback:
        return None
    seat = match.pending_buyback[0]
    target = match.buyback_target(seat)
    if target is None:
        return None
    return {"seat": seat, "chips": match.rules.buyback_cost, "from": match.totals[seat], "to": target}


def error_json(
    code: str,
    message: str,
    version: int | None = None,
    rule: str | None = None,
    texts: dict[str, str] | None = None,
) -> dict[str, Any]:
    """An error for one client; ``texts`` (the message for people in every language) defaults to
    the server's own text for ``code``."""
    if texts is None:
        texts = server_error_texts(code, message)
    return {
        "type": "error",
        "code": code,
        "message": message,
        "rule": rule,
        "version": version,
        "texts": texts,
    }


def notice_json(code: str, message: str, version: int) -> dict[str, Any]:
    """A word to everybody at a table about the server itself (not about anybody's move), with the
    server's own text for ``code`` in every language: ``{"type": "notice", …}``. A client shows it
    until the table's next state, which makes it moot."""
    return {
        "type": "notice",
        "code": code,
        "message": message,
        "version": version,
        "texts": server_error_texts(code, message),
    }
