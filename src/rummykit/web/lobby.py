"""What the lobby shows of a table and how a stored table is read, without a live table: its
seats (:class:`Seat`) and their tokens (:func:`hash_token`), the bots a seat may hold, the lobby
entry (:func:`lobby_entry`, :func:`stored_lobby_json`), a stored table's rules
(:func:`read_stored_rules`), the turn clock a seat's person gets (:func:`turn_seconds_of`) and the
exception a refused lobby request raises (:class:`LobbyError`; worded by
:func:`rummykit.web.tables.refusal`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from rummykit.errors import RulesError
from rummykit.revisions import RULES_REVISION, ReadRules, read_rules
from rummykit.rules import Rules
from rummykit.web import practice
from rummykit.web.dealing import SEEDED_NOTICE
from rummykit.web.limits import ServerSettings

__all__ = [
    "WEB_BOT_KINDS",
    "LobbyError",
    "Seat",
    "default_bot_kind",
    "hash_token",
    "lobby_entry",
    "read_stored_rules",
    "shown_turn_seconds",
    "stored_lobby_json",
    "stored_rules",
    "turn_seconds_of",
]

WEB_BOT_KINDS: Final = ("random", "greedy", "search")
"""The bots a web table seats. Not ``policy`` (it reads a network file from the server's disk) nor
``openspiel-simple`` (OpenSpiel's bot plays only gin and loads a C++ library into the server)."""


def default_bot_kind() -> str:
    """The bot that fills empty seats and gives hints: ``greedy`` (always registered)."""
    return "greedy"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class LobbyError(Exception):
    """A lobby request that cannot be granted; ``status`` is the HTTP status to answer with."""

    def __init__(
        self,
        status: int,
        message: str,
        retry_after: float | None = None,
        texts: dict[str, str] | None = None,
        error: str = "refused",
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after
        self.texts = texts
        """The message for people in every language, where there is one (``rummykit.web.texts``)."""
        self.error = error
        """The refusal's code, as a websocket error names it (``no_rematch`` …)."""


@dataclass
class Seat:
    kind: Literal["open", "human", "bot"]
    name: str = ""
    bot: str | None = None
    level: str | None = None
    token_hash: str | None = None
    held_for: str | None = None
    """A bot holds this seat for the person who left it: the hash of their token
    (:func:`rummykit.web.seats.retake` gives the seat back to that token)."""
    held_name: str | None = None
    """The name of the person a bot holds the seat for."""
    joined_from: str | None = None
    """Digest of the network that joined this seat (the seat cap of waiting tables; stored, never
    shown). Rows stored before it existed have none and count for nobody."""
    joined_net: str | None = None
    """Digest of the wider network (:func:`~rummykit.web.thinking.fair_network`) that joined this
    seat, for the wider network's seat cap; like ``joined_from``, stored and never shown."""

    def public(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "level": self.level,
            "held": self.held_for is not None,
        }


def lobby_entry(
    code: str,
    status: str,
    rules: Rules,
    rules_text: str,
    takeover_seconds: float,
    turn_seconds: float,
    seeded: bool,
    seats: list[dict[str, Any]],
    spectators: int,
    hints: str,
    listed: bool = True,
    organised: bool = False,
    label: str = "",
) -> dict[str, Any]:
    """A table as the lobby shows it (``GET /api/tables``, the ``table`` of a state message);
    ``organised``: the organiser made it and starts it (no seat is a host's); ``label``: the name the
    organiser gave it (empty: none)."""
    return {
        "code": code,
        "status": status,
        "rules": rules_text,
        "preset": rules.name,
        "players": len(seats),
        "opening_min": rules.opening_min_points,
        "knock_game": rules.is_knock_game,
        "family": rules.family,
        "takeover_seconds": takeover_seconds,
        "turn_seconds": turn_seconds,
        "seeded": seeded,
        "notice": SEEDED_NOTICE if seeded else None,
        "seats": seats,
        "spectators": spectators,
        "hints": hints,
        "listed": listed,
        "organised": organised,
        "label": label,
    }


def read_stored_rules(text: str, revision: int) -> ReadRules:
    """A stored table's rules ``text``, read with the meaning it had under the rules ``revision`` it
    was written under (:func:`rummykit.revisions.read_rules`), and what reading it took.

    Raises:
        RulesError: the text is refused, or ``revision`` is a newer rummykit's than this one (its text
            may mean what this version cannot tell: such a table is not played here).
    """
    if revision > RULES_REVISION:
        raise RulesError(
            f"stored by a newer rummykit (rules revision {revision}; this version plays {RULES_REVISION})"
        )
    return read_rules(text, revision)


@functools.lru_cache(maxsize=256)
def stored_rules(text: str, revision: int) -> Rules:
    """The rules of a stored table's row (its rules text and ``rules_revision``; cached):
    :func:`read_stored_rules`."""
    return read_stored_rules(text, revision).rules


def turn_seconds_of(seats: Sequence[Seat], seat: int, settings: ServerSettings) -> float:
    """The turn clock of ``seat``'s person: ``turn_seconds``, or alone with bots (a practice table:
    :func:`~rummykit.web.practice.is_practice`) ``practice_turn_seconds``; 0 where none runs."""
    if practice.is_practice(seats, seat):
        return settings.practice_turn_seconds
    return settings.turn_seconds


def shown_turn_seconds(seats: Sequence[Seat], settings: ServerSettings) -> float:
    """The turn clock a table's lobby entry shows: the one person's where a single person plays
    (:func:`turn_seconds_of`; 0 alone with bots by default), else ``turn_seconds``."""
    people = [i for i, s in enumerate(seats) if s.kind == "human"]
    return turn_seconds_of(seats, people[0], settings) if len(people) == 1 else settings.turn_seconds


def stored_lobby_json(row: dict[str, Any], turn_seconds: float) -> dict[str, Any]:
    """The lobby of a table from its database row (a table another server process plays: who is
    connected there is not known here, so nobody is shown as connected or away)."""
    seats = [
        {**Seat(**s).public(), "seat": i, "connected": False, "away": False}
        for i, s in enumerate(json.loads(row["seats"]))
    ]
    rules = stored_rules(row["rules"], row["rules_revision"])
    return lobby_entry(  # the rules text as it reads now (an older row's text may mean other rules now)
        row["code"], row["status"], rules, str(rules), row["takeover_seconds"], turn_seconds,
        row["secret"] is None, seats, 0, row["hints"], bool(row.get("listed", True)),
        bool(row.get("organised", False)), str(row.get("label") or ""),
    )  # fmt: skip
