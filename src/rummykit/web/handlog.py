"""The move list of the current hand, and the hand number of each logged move.

Every move in the log of a state message carries ``"hand"``: the number (from 1) of the hand it
belongs to; a buy-back decision belongs to the hand it follows. So a page sees where a hand starts.
The draw for the first dealer (entries with ``"index": -1``) comes before hand 1.

``{"type": "hand_log"}`` (:class:`rummykit.web.protocol.HandLogMessage`) asks for every move of
the current hand (the state's log holds only the last :data:`rummykit.web.protocol.LOG_LENGTH`):
the answer, ``{"type": "hand_log", "version": 17,
"hand": 3, "entries": [...]}``, has entries like the log's, with the same public texts (a card that
went face down is not named), so it tells a player or a spectator nothing the table did not show.
It is built once per state version and shared by every connection of the table.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.actions import Knock, KnockDeclare, Open, Pass, Swap, TakeDiscard
from rummykit.cards import Card
from rummykit.disclosure import event_goes_out, public_action_text
from rummykit.match import Match, MatchEvent
from rummykit.melding_conditions import opening_points
from rummykit.round import Event, Round
from rummykit.views import Phase
from rummykit.web.texts import move_texts

__all__ = ["gin_move_phase", "hand_log_json", "hand_log_text", "hand_numbers", "log_entry"]


def hand_numbers(match: Match, start: int) -> list[int]:
    """The hand number of each entry of ``match.history`` from index ``start`` on.

    Only the hands that the entries reach are looked at, so a short tail of a long match is cheap.
    """
    history = match.history
    if start >= len(history):
        return []
    needed = len(history) - start + 1
    rounds: list[tuple[int, Round]] = []
    covered = 0
    for number in range(len(match.rounds), 0, -1):  # the last hands, enough to cover the tail
        rnd = match.rounds[number - 1]
        rounds.append((number, rnd))
        covered += len(rnd.history)
        if covered > needed:
            break
    # The tail of the match's history holds at most the last ``needed`` events of each hand it reaches.
    hand_of = {id(e): number for number, rnd in rounds for e in rnd.history[-needed:]}
    first_hand = rounds[-1][0]
    numbers: list[int] = []
    previous: int | None = None
    for i in range(start - 1, -1, -1):  # the hand of the entry before the tail, for a leading decision
        found = hand_of.get(id(history[i]))
        if found is not None:
            previous = found
            break
        if not isinstance(history[i], MatchEvent):
            break
    for event in history[start:]:
        own = hand_of.get(id(event)) if isinstance(event, Event) else None
        hand = own if own is not None else previous if previous is not None else first_hand
        numbers.append(hand)
        previous = hand
    return numbers


def gin_move_phase(rnd: Round, event: Event) -> Phase | None:
    """The phase a gin ``pass`` or ``knock`` was made in, read from its hand's history (an event does
    not keep it). A pass before any other move is on the first upcard; after a knock, the knocker's
    pass ends their melds and the other player's ends their lay-offs or melds; any other pass is at
    the wall. A knock right after the other player's move (no draw of one's own) is at the wall,
    with the upcard. ``None`` when ``event`` is not in the hand."""
    knocker: int | None = None
    only_passes = True
    previous: Event | None = None
    for earlier in rnd.history:
        if earlier is event:
            break
        if isinstance(earlier.action, (Knock, KnockDeclare)):
            knocker = earlier.seat
        only_passes = only_passes and isinstance(earlier.action, Pass)
        previous = earlier
    else:
        return None
    if isinstance(event.action, KnockDeclare):
        return Phase.WALL if previous is not None and previous.seat != event.seat else Phase.DISCARD
    if only_passes:
        return Phase.FIRST_UPCARD
    if knocker is None:
        return Phase.WALL
    return Phase.KNOCK if event.seat == knocker else Phase.LAYOFF


def defender_layoffs_done(rnd: Round, event: Event) -> bool:
    """Whether a gin defender's ``pass`` (:data:`Phase.LAYOFF`) came after the lay-offs: its first
    pass ends them, its second its own melds; a knock with gin (or ``layoff_after_knock = none``)
    allows none, and the one pass ends the melds."""
    if rnd.knock_deadwood == 0 or rnd.rules.layoff_after_knock == "none":
        return True
    knocked = False
    for earlier in rnd.history:
        if earlier is event:
            return False
        if isinstance(earlier.action, (Knock, KnockDeclare)):
            knocked = True
        elif knocked and earlier.seat == event.seat and isinstance(earlier.action, Pass):
            return True
    return False


def turn_taken(rnd: Round, event: Event) -> Card | None:
    """The card ``event``'s player took from the discard pile earlier in the same turn, if any."""
    history = rnd.history
    i = event.index - 1
    while 0 <= i < len(history) and history[i].turn == event.turn:
        if isinstance(history[i].action, TakeDiscard):
            return history[i].card
        i -= 1
    return None


def log_entry(
    index: int, event: Event | MatchEvent, match: Match, goes_out: bool, hand: int
) -> dict[str, Any]:
    """One logged move as everybody may read it: ``index`` in the match's history, the seat, the
    public text (a card that ``goes_out`` face down is not named) in notation and in words (a card
    taken from the discard pile is named, ``take KD``: it lay face up; a gin ``pass`` says what it
    passes on; a joker exchange says how many jokers it took, ``swaps 6♣ 6♦ for two jokers of meld
    1``, and carries that count as ``freed``)."""
    action = event.action
    taken = event.card if isinstance(event, Event) and isinstance(action, TakeDiscard) else None
    phase = None
    layoffs_done = None
    in_match = 0 < hand <= len(match.rounds)
    if in_match and isinstance(event, Event) and isinstance(action, (Pass, KnockDeclare)):  # gin
        phase = gin_move_phase(match.rounds[hand - 1], event)
        if phase is Phase.LAYOFF:
            layoffs_done = defender_layoffs_done(match.rounds[hand - 1], event)
    freed = None
    if in_match and isinstance(event, Event) and isinstance(action, Swap):
        freed = match.rounds[hand - 1].jokers_freed(event)
    texts = move_texts(
        action,
        match.rules,
        goes_out=goes_out,
        taken=taken,
        phase=phase,
        layoffs_done=layoffs_done,
        freed=freed,
    )
    if in_match and isinstance(event, Event) and isinstance(action, Open):
        points = opening_points(action, match.rules, turn_taken(match.rounds[hand - 1], event))
        if points is not None:  # what it counts toward the minimum: everybody checks an opponent's 40
            worth = {"en": f"{points} points", "de": f"{points} Punkte"}
            texts = {lang: f"{text} ({worth[lang]})" for lang, text in texts.items()}
    if isinstance(event, MatchEvent) and event.new_total is not None:  # a buy-back: what it paid and set
        assert event.old_total is not None
        moved = f"{-event.old_total} → {-event.new_total}"  # as scores: the sheet's sign
        paid = {"en": f"{moved} for {event.chips} chips", "de": f"{moved} für {event.chips} Chips"}
        texts = {lang: f"{text}: {paid[lang]}" for lang, text in texts.items()}
    entry = {
        "index": index,
        "seat": event.seat,
        "action": public_action_text(action, match.rules, goes_out=goes_out, taken=taken),
        "texts": texts,
        "hand": hand,
    }
    if freed is not None:
        entry["freed"] = freed
    return entry


SeatDraw = Callable[[Match], list[dict[str, Any]]]
"""The log entries of the draw for the first dealer (:func:`rummykit.web.protocol.seat_draw_json`)."""


def _positions(history: Sequence[Event | MatchEvent], events: Sequence[Event]) -> list[int]:
    """Where ``events`` (the last of a hand's events, in order) stand in the match's ``history``."""
    ids = {id(e) for e in events}
    positions: list[int] = []
    for i in range(len(history) - 1, -1, -1):  # the hand's moves are among the last entries
        if len(positions) == len(events):
            break
        if id(history[i]) in ids:
            positions.append(i)
    positions.reverse()
    return positions


def hand_log_json(match: Match, seat_draw: SeatDraw) -> dict[str, Any]:
    """The current hand's moves as log entries (``index`` counts in the match's history); hand 1
    starts with the draw for the first dealer."""
    number = len(match.rounds)
    rnd = match.rounds[-1]
    events = rnd.history
    positions = _positions(match.history, events)
    entries: list[dict[str, Any]] = []
    if number == 1:
        entries += seat_draw(match)
    last = events[-1] if events else None
    out = last is not None and rnd.result is not None and event_goes_out(rnd, last)
    for index, event in zip(positions, events, strict=True):
        entries.append(log_entry(index, event, match, out and event is last, number))
    return {"hand": number, "entries": entries}


@dataclass(slots=True)
class _Built:
    """A ``hand_log`` answer as built for one version, with what the next version's can reuse."""

    version: int
    text: str
    hand: int
    events: int
    """How many of the hand's events the entries cover."""
    last: Event | None
    """The hand's last event then: a practice undo replaces it, and the log is built again."""
    settled: slice
    """Where ``text`` holds every entry's JSON but the last event's (whose text changes when it ends
    the hand), comma-separated: kept as the answer's own characters, not as a string per entry (a long
    hand's log would be held about twice and a half over)."""


_cache: weakref.WeakKeyDictionary[Match, _Built] = weakref.WeakKeyDictionary()


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def hand_log_text(match: Match, version: int, seat_draw: SeatDraw) -> str:
    """The ``hand_log`` answer as JSON text (:func:`hand_log_json`'s entries), built once per match
    and version, and built on: a move adds its own entry to the last version's, so that a hand of
    thousands of moves does not cost thousands of entries per move (16 ms a build at 3,600 moves)."""
    cached = _cache.get(match)
    if cached is not None and cached.version == version:
        return cached.text
    number = len(match.rounds)
    rnd = match.rounds[-1]
    events = rnd.history
    grown = (
        cached is not None
        and cached.hand == number
        and 0 < cached.events <= len(events)
        and events[cached.events - 1] is cached.last
    )
    if cached is not None and grown:
        start, kept = cached.events - 1, [cached.text[cached.settled]]
    else:
        start, kept = 0, [_dumps(e) for e in seat_draw(match)] if number == 1 else []
    fresh = events[start:]
    last = events[-1] if events else None
    out = last is not None and rnd.result is not None and event_goes_out(rnd, last)
    parts = [
        _dumps(log_entry(index, event, match, out and event is last, number))
        for index, event in zip(_positions(match.history, fresh), fresh, strict=True)
    ]
    settled = ",".join([k for k in kept if k] + parts[:-1])
    head = f'{{"type":"hand_log","version":{version},"hand":{number},"entries":['
    text = head + ",".join([e for e in (settled, *parts[-1:]) if e]) + "]}"
    where = slice(len(head), len(head) + len(settled))
    _cache[match] = _Built(version, text, number, len(events), last, where)
    return text
