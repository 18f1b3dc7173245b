"""Saved terminal games: load one to resume it, and find the most recent unfinished one.

``rummykit play`` saves a match record (:class:`~rummykit.record.Record`) with a ``meta`` object:
the seat names (and which of them a person typed: the others are the game's default names, shown again
in the language of the screen that reads the save), who plays each seat (``human`` or a bot kind such
as ``search:medium``) and whether ``undo`` is allowed. A saved game can be resumed only when that meta
object is present and valid: the record's own ``seats`` (which seats were people, which of their moves
``auto`` played or followed a ``hint``: :class:`PersonMarks`) names no bot kind a resumed game could
seat again for certain, nor the names.

Saves are local files but are still read as untrusted input (a stranger may hand one over, or a
whole folder): a file larger than :data:`MAX_SAVE_BYTES` or with malformed fields is refused with a
message naming the problem, and what a save says is shown only printable (:func:`printable`,
:func:`shown`; ``meta.saved`` only as a timestamp), so it cannot send terminal escapes.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from rummykit.errors import NotationError, RummyError
from rummykit.explain.language import Lang
from rummykit.match import Match
from rummykit.record import Record, read_json
from rummykit.record_seats import RecordSeat, seats_of_labels

MAX_SAVE_BYTES: Final = 2_000_000
"""Largest save file read (a finished six-player match is far below 200 kB)."""
NAME_CHARACTERS: Final = 40
"""A person's name is kept to this many characters (from ``--names`` and from a save): the players
table of an 80-column terminal keeps its other columns."""
NEWEST_CHECKED: Final = 20
"""How many of the newest saves are checked for an unfinished game at start."""
HUMAN: Final = "human"


@dataclass
class PersonMarks:
    """Which actions of the people at the terminal were not their own decision, by action number
    (from 1, as a record's ``seats`` counts them): those ``auto`` played (the solver's) and those
    typed right after a ``hint`` for the same decision. ``known`` is false for a game resumed from a
    save that did not say (one written before records held ``seats``): its marks stay unknown."""

    stand_in: set[int] = field(default_factory=set)
    hinted: set[int] = field(default_factory=set)
    known: bool = True

    @classmethod
    def of_saved(cls, seats: tuple[RecordSeat, ...] | None) -> PersonMarks:
        """The marks a save's record holds (unknown where a person's seat does not list them)."""
        people = [s for s in seats or () if s.kind == "person"]
        if not people or any(s.stand_in is None or s.hinted is None for s in people):
            return cls(known=False)
        return cls({n for s in people for n in s.stand_in or ()}, {n for s in people for n in s.hinted or ()})

    def keep(self, actions: int) -> None:
        """Forget the marks of the actions after the first ``actions`` (an undo)."""
        self.stand_in = {n for n in self.stand_in if n <= actions}
        self.hinted = {n for n in self.hinted if n <= actions}

    def seats(self, labels: Sequence[str], movers: Sequence[int]) -> tuple[RecordSeat, ...]:
        """The record's ``seats`` for players ``labels`` (``human`` or a bot's kind), ``movers[i]``
        the seat that played action ``i + 1``."""
        seats = list(seats_of_labels(labels))
        for seat, label in enumerate(labels):
            if label == HUMAN and self.known:
                mine = {n for n, mover in enumerate(movers, start=1) if mover == seat}
                seats[seat] = RecordSeat.person(sorted(self.stand_in & mine), sorted(self.hinted & mine))
        return tuple(seats)


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A saved match replayed to where it stopped, with the seats' names and players."""

    path: Path
    match: Match
    names: tuple[str, ...]
    players: tuple[str, ...]
    """Per seat ``human`` or the bot kind with its level."""
    practice: bool
    saved: str
    """When it was saved (ISO 8601, ``2025-01-31T18:04:05``), or ``""`` when the save does not say
    it as a timestamp."""
    older_notes: tuple[tuple[str, str], ...] = ()
    """For a save of an older rummykit, what its reader should know (:meth:`Record.older_notes`), in
    English and German."""
    marks: PersonMarks = field(default_factory=PersonMarks)
    """The people's actions the save marks as ``auto``'s or hinted (its record's ``seats``)."""
    typed: tuple[bool, ...] = ()
    """Per seat, whether a person typed its name (:func:`typed_names`); empty: every name was."""

    def names_in(self, lang: str) -> tuple[str, ...]:
        """The seats' names, a default name (``You``, ``Player 2``) in ``lang`` (:func:`names_in`)."""
        return names_in(self.names, self.typed or (True,) * len(self.names), lang)

    @property
    def is_finished(self) -> bool:
        return self.match.is_over

    def summary(self, lang: str = "en") -> str:
        """One line for the start screen: game, hand, players, when it was saved."""
        from rummykit.cli.screen import game_title

        m = self.match
        hand = m.hand_number  # a hand dealt again keeps its number
        people = [n for n, p in zip(self.names_in(lang), self.players, strict=True) if p == HUMAN]
        if lang == "de":
            who = " und ".join(people)
            who += " gegen Bots" if len(people) < len(self.names) else " (am selben Gerät)"
            when = printable(self.saved.replace("T", " ")[:16]) if self.saved else "unbekannt"
            return f"{game_title(m.rules, lang)}, Spiel {hand}, {who}, gespeichert {when}"
        who = " and ".join(people)
        who += " against bots" if len(people) < len(self.names) else " (hot-seat)"
        when = printable(self.saved.replace("T", " ")[:16]) if self.saved else "unknown time"
        return f"{game_title(m.rules)}, hand {hand}, {who}, saved {when}"


def load_saved(path: Path) -> SavedGame:
    """The game saved in ``path``, replayed.

    Raises:
        NotationError: unreadable or oversized file, not a record of a whole match, no valid
            ``meta`` object, or an action that cannot be replayed.
        RulesError: the record's rules are invalid.
    """
    file = shown(path.name)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise NotationError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    if size > MAX_SAVE_BYTES:
        raise NotationError(f"{file} is {size} bytes; a saved game is at most {MAX_SAVE_BYTES}")
    try:
        data: Any = read_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8, not JSON (read_json says why)
        raise NotationError(f"{file} is not a saved game: {exc}") from None
    record = Record.from_dict(data)
    if record.kind != "match":
        raise NotationError(f"{file} holds a single hand; only games saved by 'rummykit play' resume")
    if record.deals is not None:  # its deals end where the record ends: no hand after them is dealt
        raise NotationError(f"{file} is a web table's record; 'rummykit replay' shows it, it does not resume")
    meta = data.get("meta")
    if not isinstance(meta, dict):
        raise NotationError(f"{file} does not say who plays each seat (no 'meta'); it cannot be resumed")
    names = meta.get("names")
    players = meta.get("players")
    n = record.players
    if not (isinstance(names, list) and len(names) == n and all(isinstance(x, str) and x for x in names)):
        raise NotationError(f"{file}: 'meta.names' must list {n} names")
    if not (isinstance(players, list) and len(players) == n and all(isinstance(x, str) for x in players)):
        raise NotationError(f"{file}: 'meta.players' must list {n} players ('human' or a bot)")
    if HUMAN not in players:
        raise NotationError(f"{file}: no seat is played by a person")
    practice = meta.get("practice", False)
    saved = meta.get("saved", "")
    match = record.replay()
    kept = tuple(person_name(x) or f"Player {i + 1}" for i, x in enumerate(names))
    return SavedGame(
        path,
        match,
        kept,
        tuple(players),
        practice is True,
        saved_time(saved),
        tuple(zip(record.older_notes("en"), record.older_notes("de"), strict=True)),
        PersonMarks.of_saved(record.seats),
        typed_names(kept, meta.get("typed")),
    )


def default_name(name: str, seat: int, lang: str = "en") -> str | None:
    """``name`` in ``lang`` where it is a name the terminal game gives a seat nobody named (``You`` or
    ``Du`` for the one person at the terminal, ``Player 2`` or ``Spieler 2`` for one of several,
    ``Bot 3``, the same in both), else ``None``."""
    t = Lang(lang)
    number = seat + 1
    if name in ("You", "Du"):
        return t("You", "Du")
    if name in (f"Player {number}", f"Spieler {number}"):
        return t(f"Player {number}", f"Spieler {number}")
    return name if name == f"Bot {number}" else None


def typed_names(names: Sequence[str], typed: object) -> tuple[bool, ...]:
    """Per seat, whether a person typed its name: as a save's ``meta.typed`` says, or, in a save
    without it (an older rummykit's), whether the name is other than a default one
    (:func:`default_name`)."""
    if isinstance(typed, list) and len(typed) == len(names) and all(isinstance(x, bool) for x in typed):
        return tuple(typed)
    return tuple(default_name(name, seat) is None for seat, name in enumerate(names))


def names_in(names: Sequence[str], typed: Sequence[bool], lang: str) -> tuple[str, ...]:
    """The seats' names as a screen in ``lang`` shows them: a name a person typed as it is, a default
    one in ``lang`` (a game saved in English and replayed in German: ``Du``, not ``You``)."""
    return tuple(
        name if typed[seat] else default_name(name, seat, lang) or name for seat, name in enumerate(names)
    )


def printable(text: str) -> str:
    """``text`` without control characters, so a name from a file cannot send terminal escapes."""
    return "".join(ch for ch in text if ch.isprintable())


def shown(text: str) -> str:
    r"""A file's name or path as a message shows it: as it is when every character is printable, else
    its ``repr``, which writes out control characters and escapes (``'a\x1b]52;c;…'``), so that a
    name chosen by a stranger (a file in a shared archive) cannot send terminal escapes."""
    return text if text.isprintable() else repr(text)


def saved_time(value: object) -> str:
    """``meta.saved`` of a save when it is an ISO 8601 timestamp (written again, to the second), else
    ``""``: the start screen shows it, and a save from elsewhere may hold any text there."""
    if not isinstance(value, str) or len(value) > 40:
        return ""
    try:
        return datetime.fromisoformat(value).isoformat(timespec="seconds")
    except ValueError:
        return ""


def person_name(text: str) -> str:
    """A name as the game shows it: printable, trimmed, at most :data:`NAME_CHARACTERS` long."""
    return printable(text).strip()[:NAME_CHARACTERS].strip()


def marked_over(path: Path) -> bool:
    """Whether the save's ``meta.over`` says the game ended (read without replaying it)."""
    try:
        if path.stat().st_size > MAX_SAVE_BYTES:
            return False
        data = read_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # not UTF-8, not JSON
        return False
    meta = data.get("meta") if isinstance(data, dict) else None
    return isinstance(meta, dict) and meta.get("over") is True


def latest_unfinished(
    folder: Path,
    wanted: Callable[[SavedGame], bool] = lambda saved: True,
    unreadable: list[tuple[Path, RummyError]] | None = None,
) -> SavedGame | None:
    """The most recently saved game in ``folder`` that has not ended and is ``wanted``, if any.

    Only the :data:`NEWEST_CHECKED` newest files are looked at; games marked as over are skipped
    without a replay, and files that cannot be resumed are skipped (and listed in ``unreadable``
    with the reason, for the player to be told: a save of an older version may no longer load).
    """
    try:
        files = [p for p in folder.glob("*.json") if p.is_file()]
    except OSError:
        return None
    files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for path in files[:NEWEST_CHECKED]:
        if marked_over(path):
            continue
        try:
            saved = load_saved(path)
        except RummyError as exc:
            if unreadable is not None:
                unreadable.append((path, exc))
            continue
        if not saved.is_finished and wanted(saved):
            return saved
    return None


def write_save(path: Path, text: str) -> None:
    """Write a save so that it is never half-written: a temporary file beside it, then a rename.

    A process stopped in the middle (a closed terminal, a full disk) leaves the previous save intact.
    The temporary file is a new one (:func:`tempfile.mkstemp`: created exclusively, never through a
    link), so a ``.NAME.tmp`` link or folder put beside a save (a shared archive) is neither written
    through nor in the way; the rename replaces ``path`` itself, a link there included, never the
    file a link points to. The save gets the permissions a new file gets (the umask), as before.

    Raises:
        OSError: the folder cannot be created or written (the previous save is left as it was).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            umask = os.umask(0o022)
            os.umask(umask)
            os.fchmod(file.fileno(), 0o666 & ~umask)
            file.write(text)
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def save_meta(
    names: tuple[str, ...], players: list[str], practice: bool, over: bool, typed: Sequence[bool] = ()
) -> dict[str, Any]:
    """The ``meta`` object written beside a record: who plays each seat, which names a person typed
    (``typed``; the others are the game's default names), whether the game is over, and when it was
    saved."""
    return {
        "names": list(names),
        "typed": list(typed or (True,) * len(names)),
        "players": players,
        "practice": practice,
        "over": over,
        "saved": datetime.now().isoformat(timespec="seconds"),
    }
