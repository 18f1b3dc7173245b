"""Saved terminal games: load one to resume it, and find the most recent unfinished one.

``rummykit play`` saves a match record (:class:`~rummykit.record.Record`) with a ``meta`` object:
the seat names, who plays each seat (``human`` or a bot kind such as ``search:medium``) and whether
``undo`` is allowed. A saved game can be resumed only when that meta object is present and valid,
because the record alone does not say which seats were people.

Saves are local files but are still read as untrusted input (a stranger may hand one over, or a
whole folder): a file larger than :data:`MAX_SAVE_BYTES` or with malformed fields is refused with a
message naming the problem, and what a save says is shown only printable (:func:`printable`,
:func:`shown`; ``meta.saved`` only as a timestamp), so it cannot send terminal escapes.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from rummykit.errors import NotationError, RummyError
from rummykit.match import Match
from rummykit.record import Record, read_json

MAX_SAVE_BYTES: Final = 2_000_000
"""Largest save file read (a finished six-player match is far below 200 kB)."""
NAME_CHARACTERS: Final = 40
"""A person's name is kept to this many characters (from ``--names`` and from a save): the players
table of an 80-column terminal keeps its other columns."""
NEWEST_CHECKED: Final = 20
"""How many of the newest saves are checked for an unfinished game at start."""
HUMAN: Final = "human"


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

    @property
    def is_finished(self) -> bool:
        return self.match.is_over

    def summary(self, lang: str = "en") -> str:
        """One line for the start screen: game, round, players, when it was saved."""
        from rummykit.cli.screen import game_title

        m = self.match
        hand = m.hand_in_series(len(m.rounds))  # a hand dealt again keeps its number
        people = [n for n, p in zip(self.names, self.players, strict=True) if p == HUMAN]
        if lang == "de":
            who = " und ".join(people)
            who += " gegen Bots" if len(people) < len(self.names) else " (am selben Gerät)"
            when = printable(self.saved.replace("T", " ")[:16]) if self.saved else "unbekannt"
            return f"{game_title(m.rules, lang)}, Spiel {hand}, {who}, gespeichert {when}"
        who = " and ".join(people)
        who += " against bots" if len(people) < len(self.names) else " (hot-seat)"
        when = printable(self.saved.replace("T", " ")[:16]) if self.saved else "unknown time"
        return f"{game_title(m.rules)}, round {hand}, {who}, saved {when}"


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
        raise NotationError(f"{file} holds a single round; only games saved by 'rummykit play' resume")
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
    return SavedGame(
        path,
        match,
        tuple(person_name(x) or f"Player {i + 1}" for i, x in enumerate(names)),
        tuple(players),
        practice is True,
        saved_time(saved),
        tuple(zip(record.older_notes("en"), record.older_notes("de"), strict=True)),
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


def save_meta(names: tuple[str, ...], players: list[str], practice: bool, over: bool) -> dict[str, Any]:
    """The ``meta`` object written beside a record: who plays each seat, whether the game is over,
    and when it was saved."""
    return {
        "names": list(names),
        "players": players,
        "practice": practice,
        "over": over,
        "saved": datetime.now().isoformat(timespec="seconds"),
    }
