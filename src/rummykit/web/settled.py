"""What a table keeps of its match once it has ended and its end is stored.

A finished table stays in memory for ``--finished-table-seconds`` (its rematch, a page that connects
late and is shown the end, the organiser's list), and an ended table looked up later for as long.
Its match never changes again, yet the match held every hand's states, the checkpoints the engine
keeps to take moves back and the table's caches of worded log entries: about 50 KB for a gin hand
and 300–400 KB for a German or Viennese match of several hands. :class:`Settled` keeps instead what
the table still shows, written once: each seat's state of the match as it ended and the spectators',
the score sheet, the log, the last hand's result per seat, and the figures of the organiser's list;
and the moves in force, in their notation, from which the match is replayed (off the event loop) for
what needs it whole: the game record, the last hand's full log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummykit.match import Match


@dataclass(frozen=True, slots=True)
class Settled:
    """An ended table's match as its connections are shown it (JSON texts of the state message's
    parts, :meth:`rummykit.web.tables.Table.state_text`)."""

    moves: str
    """The moves in force, in notation, one a line (empty: none), to replay the match from."""
    match: str
    """The state's ``match``: scores, the score sheet's hands, the winners."""
    log: str
    """The state's ``log``."""
    views: tuple[str, ...]
    """The state's ``view`` for each seat (its own view), then the spectators'."""
    last_rounds: tuple[str, ...]
    """The state's ``last_round`` in the same order (one text with the view where they are the same)."""
    is_over: bool
    """Whether the match is over (a table closed or expired before its end: not)."""
    to_move: int | None
    """The seat to move when the table ended, ``None`` once the match is over."""
    hand_sizes: tuple[int, ...]
    """The cards each seat held at the end (a composed meld is judged within them)."""
    figures: dict[str, Any]
    """The match's figures in the organiser's list (:func:`figures`)."""

    def moves_in_force(self) -> list[str]:
        return self.moves.split("\n") if self.moves else []


def figures(match: Match, playing: bool) -> dict[str, Any]:
    """The match's figures the organiser's list shows (hands dealt, totals, points won, net scores,
    winners, whether it is over and who is to move: ``None`` unless the table is ``playing``), in a
    state message's shapes."""
    return {
        "hands_dealt": match.hands_dealt,
        "totals": list(match.totals),
        "gains": list(match.gains),
        "scores": list(match.scores),
        "winners": list(match.winners),
        "is_over": match.is_over,
        "to_move": None if match.is_over or not playing else match.to_move,
    }
