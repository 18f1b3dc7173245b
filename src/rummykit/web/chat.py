"""Table chat: short messages from the people at the seats, rate limited, kept briefly in memory.

A message is at most :data:`MAX_CHAT_CHARS` characters of printable text (control characters and
lone surrogates are refused, runs of white space become one space); spectators read but do not
write. Each seat may send :data:`CHAT_BURST` messages in a row, then one every
``1 / CHAT_PER_SECOND`` seconds; a message over the limit gets a ``rate_limited`` error and is not
shown. The server never interprets the text: pages insert it as text, never as HTML. The last
:data:`CHAT_HISTORY` lines are sent to a seat's page when it connects (a player coming back reads what
was said meanwhile); a watcher reads only the lines said while it watches, and a person who takes a
seat only those said since, so what the players said before a stranger came stays among them. Chat is
not stored.
Muting a player is the page's business (it hides that seat's lines for the one who muted).
"""

from __future__ import annotations

from collections import deque
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from rummykit.web.limits import RateLimiter
from rummykit.web.texts import server_error_texts

MAX_CHAT_CHARS: Final = 200
CHAT_PER_SECOND: Final = 0.5
CHAT_BURST: Final = 4
CHAT_HISTORY: Final = 30

__all__ = ["CHAT_BURST", "MAX_CHAT_CHARS", "ChatMessage", "ChatRoom"]


def _chat_text(text: str) -> str:
    for ch in text:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            raise ValueError("must be valid Unicode text (a lone surrogate is not)")
        if not ch.isprintable() and not ch.isspace():
            raise ValueError("must not contain control characters")
    text = " ".join(text.split())
    if not text:
        raise ValueError("must not be empty")
    return text


class ChatMessage(BaseModel):
    """``{"type": "chat", "text": "gut gespielt!"}`` from a seat's page."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_CHARS), AfterValidator(_chat_text)]


class ChatRoom:
    """The chat of one table: the rate limit per seat and the recent lines."""

    def __init__(self) -> None:
        self.limiter = RateLimiter(CHAT_PER_SECOND, CHAT_BURST)
        self.history: deque[dict[str, Any]] = deque(maxlen=CHAT_HISTORY)
        self.said = 0
        """The lines said so far (each line's ``n`` is its number)."""

    def say(self, seat: int | None, name: str, text: str) -> dict[str, Any]:
        """The line to send to everybody, or the error to send back to the writer alone."""
        if seat is None:
            return _error("spectator", "spectators cannot chat", german="spectator_chat")
        wait = self.limiter.take(seat)
        if wait > 0:
            error = _error("rate_limited", f"chat: {CHAT_BURST} messages in a row at most; wait a moment")
            return {**error, "retry_after": round(wait, 3)}
        self.said += 1
        line = {"type": "chat", "n": self.said, "seat": seat, "name": name, "text": text}
        self.history.append(line)
        return line


def _error(code: str, message: str, german: str | None = None) -> dict[str, Any]:
    """An error shaped as the table's others (:func:`~rummykit.web.protocol.error_json`: its texts
    in every language, the German of ``german`` where it is not the code's); the table fills in its
    ``version``."""
    return {
        "type": "error",
        "code": code,
        "message": message,
        "rule": None,
        "version": None,
        "texts": server_error_texts(german or code, message),
    }
