"""Who played each seat of a recorded game: the optional ``seats`` field of a record.

A record may say, per seat, whether a person or a bot played it (never who: names are personal data
and a record is handed to strangers), and for a person's seat which of its actions were not the
person's own decision:

* ``stand_in``: the action numbers (counted from 1, as ``record.actions`` plus one) that a bot played
  for the person: the web server's stand-in after the takeover time or the turn clock, or after the
  person left the table, and the terminal game's ``auto``;
* ``hinted``: the action numbers the person played right after being shown a hint at that decision
  (the web table's ``hint``, the terminal's ``hint`` and ``auto`` suggestions).

A list left out means the writer did not know (a web table played before the server kept who made
each move); an empty list means there were none. The field changes nothing of the game: a reader
that ignores it replays the same game, so it needs no new record version.

>>> from rummykit.record_seats import RecordSeat, read_seats
>>> seats = read_seats([{"kind": "person", "stand_in": [3], "hinted": []}, {"kind": "bot"}], 2, 4)
>>> seats[0].stand_in, seats[0].hinted, seats[1].kind
((3,), (), 'bot')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from rummykit.errors import NotationError, quoted

SeatKind = Literal["person", "bot"]
SEAT_KINDS: Final = ("person", "bot")
MAX_BOT_TEXT: Final = 120
"""The longest bot description a record's seat may hold, in characters (a bot kind and level such as
``search:medium``, or a policy bot's file name)."""
POLICY_KIND: Final = "policy"
"""The bot kind that plays a trained network's file (``policy:FILE``, :data:`rummykit.bots.POLICY_KIND`)."""
_FOLDERS: Final = re.compile(r"[/\\]")
HUMAN_LABEL: Final = "human"
"""What the terminal game's ``meta.players`` writes for a person's seat (a bot's kind otherwise)."""


@dataclass(frozen=True, slots=True)
class RecordSeat:
    """Who played one seat (:attr:`rummykit.record.Record.seats`): a person or a bot, and for a
    person the actions that were not their own decision (see the module docstring)."""

    kind: SeatKind
    bot: str | None = None
    """A bot's seat: what bot played it (``"greedy:medium"``), if the writer says."""
    stand_in: tuple[int, ...] | None = None
    """A person's seat: the action numbers (from 1) a bot played for the person, ascending; ``None``
    where the writer did not know."""
    hinted: tuple[int, ...] | None = None
    """A person's seat: the action numbers (from 1) the person played right after a hint at that
    decision, ascending; ``None`` where the writer did not know."""

    @classmethod
    def person(cls, stand_in: Sequence[int] | None = (), hinted: Sequence[int] | None = ()) -> RecordSeat:
        """A person's seat; ``None`` for a list the writer does not know."""
        return cls(
            "person",
            stand_in=None if stand_in is None else tuple(sorted(stand_in)),
            hinted=None if hinted is None else tuple(sorted(hinted)),
        )

    @classmethod
    def of_bot(cls, bot: str | None = None) -> RecordSeat:
        """A bot's seat, with its description (kind and level) if given."""
        return cls("bot", bot=bot)

    def to_dict(self) -> dict[str, Any]:
        """The seat as JSON-ready data (what :func:`read_seat` reads back)."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.bot is not None:
            data["bot"] = self.bot
        if self.stand_in is not None:
            data["stand_in"] = list(self.stand_in)
        if self.hinted is not None:
            data["hinted"] = list(self.hinted)
        return data

    def marks(self, number: int) -> tuple[bool | None, bool | None]:
        """Whether action ``number`` (from 1) of this seat was a stand-in's and whether it was played
        right after a hint: ``False`` for both at a bot's seat, ``None`` where the record does not
        know."""
        if self.kind == "bot":
            return False, False
        stand_in = None if self.stand_in is None else number in self.stand_in
        hinted = None if self.hinted is None else number in self.hinted
        return stand_in, hinted


def read_seats(data: Any, players: int, actions: int) -> tuple[RecordSeat, ...]:
    """A record's ``seats`` field: one object per seat, each checked, with action numbers between 1
    and ``actions`` that no two seats (or both lists of one seat) share.

    Raises:
        NotationError: a malformed field, naming it.
    """
    if not isinstance(data, list) or len(data) != players:
        raise NotationError(f"record field 'seats' must be a list of {players} seats, one per seat")
    seats = tuple(read_seat(item, number, actions) for number, item in enumerate(data))
    seen: set[int] = set()
    for number, seat in enumerate(seats):
        marked = [*(seat.stand_in or ()), *(seat.hinted or ())]
        if seen.intersection(marked) or len(set(marked)) != len(marked):
            raise NotationError(
                f"record field 'seats': seat {number} marks an action that another list marks already "
                "(an action is one seat's, and a stand-in's or hinted, not both)"
            )
        seen.update(marked)
    return seats


def read_seat(data: Any, number: int, actions: int) -> RecordSeat:
    """Seat ``number`` (from 0) of a record's ``seats`` field.

    Raises:
        NotationError: not an object, an unknown kind, a bot text that is not short printable text,
            action lists at a bot's seat, or malformed action lists.
    """
    # The messages name the seat and the field in full (no shared prefix built beforehand), so that
    # each has its German entry in rummykit.i18n.catalogue.
    if not isinstance(data, dict):
        raise NotationError(
            f"record field 'seats' (seat {number}) must be an object with a 'kind', 'person' or 'bot'"
        )
    kind = data.get("kind")
    if kind not in SEAT_KINDS:
        raise NotationError(
            f"record field 'seats' (seat {number}): 'kind' must be 'person' or 'bot', not {quoted(kind)}"
        )
    bot = data.get("bot")
    if bot is not None and (kind != "bot" or not _short_text(bot)):
        raise NotationError(
            f"record field 'seats' (seat {number}): 'bot' belongs to a bot's seat and is printable text "
            f"of at most {MAX_BOT_TEXT} characters"
        )
    if kind == "bot":
        if data.get("stand_in") is not None or data.get("hinted") is not None:
            raise NotationError(
                f"record field 'seats' (seat {number}): 'stand_in' and 'hinted' belong to a person's seat"
            )
        return RecordSeat("bot", bot=bot)
    return RecordSeat(
        "person",
        stand_in=_numbers(data.get("stand_in"), number, "'stand_in'", actions),
        hinted=_numbers(data.get("hinted"), number, "'hinted'", actions),
    )


def _short_text(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_BOT_TEXT and value.isprintable()


def _numbers(value: Any, number: int, field: str, actions: int) -> tuple[int, ...] | None:
    """Seat ``number``'s list ``field`` (quoted): action numbers, strictly ascending, each between 1
    and ``actions`` (so it is never longer than the record's actions)."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > actions:
        raise NotationError(
            f"record field 'seats' (seat {number}) {field} must be a list of action numbers "
            "(from 1, ascending)"
        )
    last = 0
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or not last < item <= actions:
            raise NotationError(
                f"record field 'seats' (seat {number}) {field} must list action numbers from 1 to "
                f"{actions} in ascending order, not {quoted(item)}"
            )
        last = item
    return tuple(value)


def seats_of_labels(labels: Sequence[str]) -> tuple[RecordSeat, ...]:
    """Seats from the terminal game's player labels (``meta.players``: ``"human"`` or a bot's kind
    such as ``"search:medium"``), kinds only: a save made before records held ``seats`` did not say
    which moves were a stand-in's or hinted."""
    return tuple(_seat_of_label(label) for label in labels)


def _seat_of_label(label: str) -> RecordSeat:
    return RecordSeat("person") if label == HUMAN_LABEL else bot_seat(label)


def bot_seat(spec: str | None) -> RecordSeat:
    """A bot's seat described by its ``spec`` (``"greedy:medium"``), left undescribed where there is
    none or it is no short printable text. A policy bot's file is named without its folders
    (``policy:/home/alice/runs/a.npz`` is ``policy:a.npz``): a record is handed to strangers, and a
    local path can hold a user name."""
    if spec is not None:
        kind, colon, rest = spec.partition(":")
        if colon and kind.strip().lower() == POLICY_KIND:
            spec = POLICY_KIND + ":" + _FOLDERS.split(rest.strip())[-1]
    return RecordSeat.of_bot(spec if _short_text(spec) else None)


def bot_seats(specs: Sequence[str]) -> tuple[RecordSeat, ...]:
    """Every seat a bot's (self-play, the arena), in seat order (:func:`bot_seat`)."""
    return tuple(bot_seat(spec) for spec in specs)


def seats_from_meta(meta: Any, players: int) -> tuple[RecordSeat, ...] | None:
    """The seats a terminal save's ``meta.players`` gives (:func:`seats_of_labels`), or ``None``
    where there is no such list of ``players`` texts (``meta`` is no field of the record format:
    anything else there is ignored, as unknown fields are)."""
    labels = meta.get("players") if isinstance(meta, dict) else None
    if not isinstance(labels, list) or len(labels) != players or not all(isinstance(x, str) for x in labels):
        return None
    return seats_of_labels(labels)
