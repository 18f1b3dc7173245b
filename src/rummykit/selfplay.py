"""Self-play: bots play N seeded games and every game is written as a replayable record.

The output folder holds

* ``run.json``: what was asked (rules, bots, games, seed, mode, games per batch) and the rummykit
  version and source digest that played it;
* ``games-000000.jsonl`` …: one file per batch of games, one :class:`~rummykit.record.Record` JSON
  object per line (``Record.loads(line).replay()`` rebuilds the game);
* ``index.jsonl``: one line per finished batch: its file, first game, number of games, SHA-256 of the
  file, and per game the bot of every seat and the points (``points``, the arena's figures); where a
  seat sat a round out (``dealer_sits_out_at_table_of``), ``sat_out`` lists per game the seats whose
  0 is no score;
* ``run.lock``: held by the process writing the run (an operating-system lock, released when that
  process ends, however it ends), so a second process on the same folder is refused instead of
  losing index lines to the first.

Game ``i`` is the arena's game of deal ``i`` with the seats rotated by ``i`` (a fresh deal every
game), its randomness fixed by ``(seed, i)``; so the records and the index are a pure function of
the run: the same bytes whatever the backend, the number of workers or nodes, and whether the run
was interrupted.
Batches are written as they finish (file first, under a temporary name renamed into place, then its
index line), so an interrupted run resumes by playing only the batches the index does not list
with an intact file. When the last batch is in, the index is rewritten in batch order.

JSONL and not Parquet: the records are nested JSON already, JSONL needs no dependency (the core has
none) and a half-written run stays readable line by line.

>>> import tempfile
>>> from rummykit.record import Record
>>> out = tempfile.mkdtemp()
>>> res = run_selfplay(SelfPlayConfig("viennese", ("greedy", "random"), games=3, seed=1), out, workers=1)
>>> res.played, len(list(read_records(out)))
(3, 3)
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, overload

from rummykit import __version__
from rummykit.arena import ArenaConfig, Game, Mode, NodeFigures, bot_fingerprints, build_games, play_recorded
from rummykit.cluster import BackendError, Runner, package_digest
from rummykit.errors import NotationError, RummyError, quoted
from rummykit.record import Record
from rummykit.revisions import RULES_REVISION

FORMAT: Final = "rummykit-selfplay"
VERSION: Final = 1
RUN_FILE: Final = "run.json"
INDEX_FILE: Final = "index.jsonl"
LOCK_FILE: Final = "run.lock"
MAX_RECORD_LINE: Final = 2_000_000
"""Longest line of a batch file read as a record, in characters: a longer one (a file from someone
else) is refused after reading this much of it, never held whole."""
MAX_DEFAULT_BATCH: Final = 100
MAX_GAMES: Final = 100_000_000


class SelfPlayError(RummyError, ValueError):
    """A bad self-play set-up, an output folder that holds something else, or a failed backend."""


@dataclass(frozen=True, slots=True)
class SelfPlayConfig:
    """What to play: rules (preset or text form), bots (one per seat), the number of games, the seed,
    rounds or whole matches, and games per batch (``0``: :func:`default_batch`)."""

    rules: str
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    mode: Mode = "rounds"
    batch: int = 0

    def batch_games(self) -> int:
        return self.batch or default_batch(self.games)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "mode": self.mode,
            "batch": self.batch_games(),
            "rummykit": __version__,
            "digest": package_digest(),
            "revision": RULES_REVISION,
            **({"bot_inputs": inputs} if (inputs := bot_fingerprints(self.bots)) else {}),
        }


def default_batch(games: int) -> int:
    """Games per batch (and file) when none is given: a function of ``games`` alone, so the files
    do not depend on the machine; about 64 batches, at most :data:`MAX_DEFAULT_BATCH` games.

    >>> default_batch(10), default_batch(1000), default_batch(10**6)
    (1, 16, 100)
    """
    return max(1, min(MAX_DEFAULT_BATCH, -(-games // 64)))


def batch_file(batch: int) -> str:
    """The file name of a batch."""
    return f"games-{batch:06d}.jsonl"


class GamePlan(Sequence[Game]):
    """Every game of a run, made when asked for: game ``i`` is a fresh deal with the seats rotated
    by ``i``. A run of 10⁸ games plans in constant memory (a list of them would take some 30 GB)."""

    def __init__(self, config: SelfPlayConfig, template: Game):
        self._bots = config.bots
        self._games = config.games
        self._template = template

    def __len__(self) -> int:
        return self._games

    @overload
    def __getitem__(self, i: int) -> Game: ...

    @overload
    def __getitem__(self, i: slice) -> list[Game]: ...

    def __getitem__(self, i: int | slice) -> Game | list[Game]:
        if isinstance(i, slice):
            return [self._game(j) for j in range(*i.indices(self._games))]
        if i < 0:
            i += self._games
        if not 0 <= i < self._games:
            raise IndexError(f"game {i} is not in a run of {self._games}")
        return self._game(i)

    def _game(self, i: int) -> Game:
        # One game per deal: the arena's key of deal i and rotation i mod k, renumbered as game i.
        k = len(self._bots)
        rotation = i % k
        seats = tuple((s + rotation) % k for s in range(k))
        t = self._template
        return Game(
            index=i,
            rules=t.rules,
            mode=t.mode,
            seed=t.seed,
            table=0,
            deal=i,
            rotation=rotation,
            seats=seats,
            specs=tuple(self._bots[b] for b in seats),
        )


class BatchPlan(Sequence[list[Game]]):
    """The games of a run cut into consecutive batches of ``size`` (the last may be shorter)."""

    def __init__(self, games: GamePlan, size: int):
        self._games = games
        self._size = max(1, size)

    def __len__(self) -> int:
        return -(-len(self._games) // self._size)

    @overload
    def __getitem__(self, b: int) -> list[Game]: ...

    @overload
    def __getitem__(self, b: slice) -> list[list[Game]]: ...

    def __getitem__(self, b: int | slice) -> list[Game] | list[list[Game]]:
        if isinstance(b, slice):
            return [self[j] for j in range(*b.indices(len(self)))]
        if b < 0:
            b += len(self)
        if not 0 <= b < len(self):
            raise IndexError(f"batch {b} is not in a run of {len(self)}")
        return self._games[b * self._size : (b + 1) * self._size]

    def first(self, b: int) -> int:
        """The number of batch ``b``'s first game."""
        return b * self._size

    def games_in(self, b: int) -> int:
        """How many games batch ``b`` holds, without making them."""
        return max(0, min(self._size, len(self._games) - b * self._size))


class _Picked(Sequence[list[Game]]):
    """The batches numbered ``picked``, in that order, each made when it is asked for."""

    def __init__(self, batches: BatchPlan, picked: Sequence[int]):
        self._batches = batches
        self._picked = picked

    def __len__(self) -> int:
        return len(self._picked)

    @overload
    def __getitem__(self, i: int) -> list[Game]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[Game]]: ...

    def __getitem__(self, i: int | slice) -> list[Game] | list[list[Game]]:
        if isinstance(i, slice):
            return [self._batches[b] for b in self._picked[i]]
        return self._batches[self._picked[i]]


def plan_games(config: SelfPlayConfig) -> GamePlan:
    """Every game of the run, as a sequence that makes each game when it is asked for.

    Raises:
        SelfPlayError: too few bots, bad counts, unknown bots or rules, a bot that cannot play the
            table (``check_table``).
    """
    if not 1 <= config.games <= MAX_GAMES:
        raise SelfPlayError(f"games must be between 1 and {MAX_GAMES}, not {config.games}")
    if config.batch < 0:
        raise SelfPlayError("batch must be at least 1 game (0: automatic)")
    k = len(config.bots)
    if k < 2:
        raise SelfPlayError(
            "self-play needs at least two bots (the same one twice is fine, e.g. greedy,greedy)"
        )
    try:
        arena = build_games(
            ArenaConfig(config.rules, config.bots, rounds=k, seed=config.seed, mode=config.mode)
        )
    except RummyError as exc:  # unknown bots or rules, bad counts, a bot that cannot play the table
        raise SelfPlayError(str(exc)) from None
    return GamePlan(config, arena[0])


@dataclass(frozen=True, slots=True)
class BatchOut:
    """A played batch as a worker returns it: record lines, bots per seat and points per game."""

    lines: tuple[str, ...]
    seats: tuple[tuple[str, ...], ...]
    points: tuple[tuple[int, ...], ...]
    sat_out: tuple[tuple[int, ...], ...] = ()
    """Per game, the seats that sat the round out (their 0 is no score)."""


def play_batch(games: Sequence[Game]) -> BatchOut:
    """Play a batch of games into record lines (a task of :func:`run_selfplay`)."""
    lines: list[str] = []
    seats: list[tuple[str, ...]] = []
    points: list[tuple[int, ...]] = []
    sat_out: list[tuple[int, ...]] = []
    for game in games:
        result, record = play_recorded(game)
        lines.append(record.dumps(indent=None))
        seats.append(game.specs)
        points.append(result.points)
        sat_out.append(result.sat_out)
    return BatchOut(tuple(lines), tuple(seats), tuple(points), tuple(sat_out))


@dataclass
class SelfPlayResult:
    """What a call did: games played now, games found done, time, and work per node."""

    config: SelfPlayConfig
    out: Path
    played: int
    resumed: int
    """Games of batches already written by an earlier, interrupted run (not played again)."""
    wall_seconds: float
    nodes: dict[str, NodeFigures] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        wall = max(self.wall_seconds, 1e-9)
        return {
            "out": str(self.out),
            "games": self.config.games,
            "played": self.played,
            "resumed": self.resumed,
            "wall_seconds": round(self.wall_seconds, 3),
            "games_per_second": round(self.played / wall, 3),
            "nodes": {n: f.to_dict(self.wall_seconds) for n, f in sorted(self.nodes.items())},
        }


Progress = Callable[[int, int], None]
"""Called with (games written, games in all), once before the first new batch and after each."""


def run_selfplay(
    config: SelfPlayConfig,
    out: str | Path,
    workers: int | None = None,
    backend: str = "local",
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> SelfPlayResult:
    """Play every game of ``config`` not yet written to ``out`` and write it (see the module doc).

    Raises:
        SelfPlayError: bad set-up; ``out`` holds another run or other files; backend failures
            (Ray missing, cluster unreachable or of other versions, a batch lost for good).
    """
    games = plan_games(config)
    folder = Path(out)
    batches = BatchPlan(games, config.batch_games())
    existed = folder.exists()
    created = _claim(folder, config, lambda: _complete(folder, len(batches)))
    with _sole_writer(folder):
        done = _finished(folder, len(batches))
        todo = [b for b in range(len(batches)) if b not in done]
        resumed = sum(batches.games_in(b) for b in done)
        start = time.perf_counter()
        written = resumed
        nodes: dict[str, NodeFigures] = {}
        if progress:
            progress(written, len(games))
        try:
            with Runner(backend, workers, ray_address) as runner, (folder / INDEX_FILE).open("a") as index:
                for finished in runner.map(play_batch, _Picked(batches, todo)):
                    b = todo[finished.batch]
                    entry = _write_batch(folder, b, batches.first(b), finished.result)
                    index.write(json.dumps(entry) + "\n")
                    index.flush()
                    written += batches.games_in(b)
                    node = nodes.setdefault(finished.node, NodeFigures())
                    node.games += batches.games_in(b)
                    node.cpu_seconds += finished.cpu_seconds
                    if progress:
                        progress(written, len(games))
        except BackendError as exc:
            if created and written == 0:  # the backend failed before any game: leave no run behind
                _unclaim(folder, remove_folder=not existed)
            raise SelfPlayError(str(exc)) from None
        _sort_index(folder, len(batches))
    return SelfPlayResult(config, folder, written - resumed, resumed, time.perf_counter() - start, nodes)


@contextmanager
def _sole_writer(folder: Path) -> Iterator[None]:
    """Hold the run's lock file while writing it; refuse when another process holds it.

    The lock is the operating system's (``flock``, or ``msvcrt.locking`` on Windows), tied to the
    open file: a process killed mid-run leaves the file but not the lock, so a resume needs no
    clean-up. Worker processes forked while it is held share it, so they end with the writer, also
    when it is killed (:class:`rummykit.cluster.Runner`); workers that lived on kept the run locked.
    The file holds the writer's process id, for the refusal.
    """
    path = folder / LOCK_FILE
    # Never through a symbolic link (a run folder from elsewhere could point run.lock at any file the
    # writer may write, which would be truncated and given the pid), and only a regular file.
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o644)
    except OSError as exc:
        why = "is a symbolic link" if path.is_symlink() else f"cannot be opened ({exc.strerror or exc})"
        raise SelfPlayError(f"{quoted(str(path), 200)} {why}; remove it and run again") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise SelfPlayError(f"{quoted(str(path), 200)} is not a regular file; remove it and run again")
    with os.fdopen(fd, "r+b") as f:
        if not _try_lock(f.fileno()):
            f.seek(0)
            holder = f.read(32).decode("ascii", "replace").strip()
            holder = holder if holder.isdigit() else "?"
            raise SelfPlayError(
                f"{str(folder)!r} is being written by another selfplay process (pid {holder}); "
                "wait for it to finish, or stop it and run again to resume"
            )
        f.seek(0)
        f.truncate()
        f.write(f"{os.getpid()}\n".encode("ascii"))
        f.flush()
        yield


def _try_lock(fd: int) -> bool:
    """Take an exclusive lock on the open file ``fd`` without waiting; False when another holds it."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _claim(folder: Path, config: SelfPlayConfig, complete: Callable[[], bool]) -> bool:
    """Start a run in ``folder`` (``True``) or check that it holds this very run (``False``). A run
    that other code played is refused unless it is ``complete()``: then nothing is played, so nothing
    is mixed, and the command reports it done."""
    wanted = config.to_dict()
    run_file = folder / RUN_FILE
    if folder.exists() and not folder.is_dir():
        raise SelfPlayError(f"{str(folder)!r} is not a folder")
    if run_file.exists():
        try:
            found = json.loads(run_file.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            raise SelfPlayError(f"{str(run_file)!r} is not a self-play run file") from None
        if not isinstance(found, dict):
            raise SelfPlayError(f"{str(run_file)!r} is not a self-play run file")
        if found != wanted:
            diff = sorted(k for k in set(found) | set(wanted) if found.get(k) != wanted.get(k))
            if diff == ["bot_inputs"]:
                before = _shown(found.get("bot_inputs"))
                raise SelfPlayError(
                    f"{str(folder)!r} was played by bots with other inputs ({before}, now "
                    f"{wanted.get('bot_inputs')}); resuming would mix games of different bots: choose "
                    "another --out folder"
                )
            if set(diff) <= {"rummykit", "digest", "revision"}:
                if complete():
                    return False
                raise SelfPlayError(
                    f"{str(folder)!r} was played by other rummykit sources ({_sources(found)}; these are "
                    f"{_sources(wanted)}); resuming would mix games of different code: choose another "
                    "--out folder"
                )
            raise SelfPlayError(
                f"{str(folder)!r} holds another self-play run (differs in {_keys(diff)}); "
                "choose another --out folder"
            )
        return False
    if folder.exists() and any(folder.iterdir()):
        raise SelfPlayError(f"{str(folder)!r} is not empty and holds no self-play run")
    folder.mkdir(parents=True, exist_ok=True)
    tmp = run_file.with_suffix(".tmp")
    tmp.write_text(json.dumps(wanted, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, run_file)
    return True


def _shown(value: object) -> str:
    """A value of a run file as a message repeats it: quoted, clipped, escapes written out."""
    try:
        return quoted(value, 120)
    except RecursionError:
        return "<nested too deeply>"


def _keys(keys: Sequence[str]) -> str:
    """The first keys of a run file that differ, each quoted (a crafted file may hold thousands)."""
    shown = ", ".join(quoted(k) for k in keys[:8])
    return shown + (f" and {len(keys) - 8} more" if len(keys) > 8 else "")


def _sources(run: dict[str, Any]) -> str:
    """Which code played a run, from its run file: version, the start of the sources' digest, rules
    revision (``not recorded`` for runs of before revisions)."""
    version, digest, revision = run.get("rummykit"), run.get("digest"), run.get("revision")
    shown = [
        f"rummykit {version[:20]}" if isinstance(version, str) and version.isprintable() else "rummykit ?",
        f"sources {digest[:12]}" if isinstance(digest, str) and digest.isalnum() else "sources ?",
        f"rules revision {revision}" if type(revision) is int else "rules revision not recorded",
    ]
    return ", ".join(shown)


def _unclaim(folder: Path, remove_folder: bool) -> None:
    """Take back a run that was started but never wrote a batch (its backend failed first): its
    files, and the folder when the run made it, so a corrected command starts afresh."""
    for name in (RUN_FILE, INDEX_FILE, LOCK_FILE):
        (folder / name).unlink(missing_ok=True)
    if remove_folder:
        with suppress(OSError):  # not empty: something else was put there meanwhile
            folder.rmdir()


def _index_lines(folder: Path) -> Iterator[tuple[int, dict[str, Any], int, int]]:
    """Each readable line of the index, one at a time: its batch, its entry, and where the line
    starts in the file and how long it is (a line torn by an interruption is skipped).

    Raises:
        NotationError: a line no run writes (JSON nested too deeply, or a game number that is not
            a whole number 0 or more): the index was not written by self-play.
    """
    path = folder / INDEX_FILE
    if not path.exists():
        return
    with path.open("rb") as f:
        offset = 0
        for number, raw in enumerate(f, start=1):
            start, offset = offset, offset + len(raw)
            try:
                entry = json.loads(raw)
            except RecursionError:
                raise NotationError(
                    f"{quoted(str(path), 200)} line {number} is nested too deeply for an index line"
                ) from None
            except ValueError:
                continue
            if isinstance(entry, dict) and isinstance(entry.get("batch"), int):
                for key in ("batch", "first", "games"):
                    value = entry.get(key, 0)
                    if type(value) is not int or value < 0:
                        raise NotationError(
                            f"{quoted(str(path), 200)} line {number}: {quoted(key)} must be a whole number "
                            f"(0 or more), not {quoted(value)}"
                        )
                yield entry["batch"], entry, start, len(raw)


def _rewrite_index(folder: Path, spans: Iterator[tuple[int, int]]) -> None:
    """Replace the index by the lines at ``spans`` (start, length) of the present one, in that order.

    The lines are copied, not kept: a run of 10⁶ batches rewrites its index in constant memory.
    """
    path = folder / INDEX_FILE
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as out:
        if path.exists():
            with path.open("rb") as old:
                for start, length in spans:
                    old.seek(start)
                    out.write(old.read(length).rstrip(b"\n") + b"\n")
    os.replace(tmp, path)


def _latest_lines(
    folder: Path, batches: int, keep: Callable[[int, dict[str, Any]], bool]
) -> Iterator[tuple[int, int, int]]:
    """Batch, start and length of each batch's last index line that ``keep`` accepts, in batch
    order (two arrays of ``batches`` numbers, not the entries, are held meanwhile)."""
    starts = array("q", [-1]) * batches
    lengths = array("q", [0]) * batches
    for b, entry, start, length in _index_lines(folder):
        if 0 <= b < batches and keep(b, entry):
            starts[b], lengths[b] = start, length
    return ((b, starts[b], lengths[b]) for b in range(batches) if starts[b] >= 0)


def _intact(folder: Path) -> Callable[[int, dict[str, Any]], bool]:
    """Whether an index line's batch file is there, whole (its SHA-256 as the line says)."""

    def intact(b: int, entry: dict[str, Any]) -> bool:
        return entry.get("file") == batch_file(b) and _sha256(folder / batch_file(b)) == entry.get("sha256")

    return intact


def _complete(folder: Path, batches: int) -> bool:
    """Whether every one of ``batches`` batches is written whole (read only: nothing is rewritten)."""
    return sum(1 for _ in _latest_lines(folder, batches, _intact(folder))) == batches


def _finished(folder: Path, batches: int) -> set[int]:
    """Batches listed in the index whose file is intact; the index is rewritten to list just those."""
    good: set[int] = set()

    def spans() -> Iterator[tuple[int, int]]:
        for b, start, length in _latest_lines(folder, batches, _intact(folder)):
            good.add(b)
            yield start, length

    for stray in folder.glob("*.tmp"):
        stray.unlink()
    _rewrite_index(folder, spans())
    return good


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _write_batch(folder: Path, batch: int, first: int, out: BatchOut) -> dict[str, Any]:
    """Write a batch's file (atomically) and return its index entry."""
    data = "".join(line + "\n" for line in out.lines).encode("utf-8")
    path = folder / batch_file(batch)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return {
        "batch": batch,
        "file": path.name,
        "first": first,
        "games": len(out.lines),
        "sha256": hashlib.sha256(data).hexdigest(),
        "seats": [list(s) for s in out.seats],
        "points": [list(p) for p in out.points],
    } | ({"sat_out": [list(s) for s in out.sat_out]} if any(out.sat_out) else {})


def _sort_index(folder: Path, batches: int) -> None:
    _rewrite_index(
        folder, ((start, length) for _, start, length in _latest_lines(folder, batches, lambda b, e: True))
    )


def _too_long(piece: str, limit: int) -> bool:
    """Whether a piece read by ``readline(limit + 2)`` is a line of more than ``limit`` characters
    (its newline not counted)."""
    return len(piece) - piece.endswith("\n") > limit


def _line_error(number: int, path: Path, limit: int) -> NotationError:
    return NotationError(
        f"line {number} of {quoted(str(path))} is longer than {limit} characters; a record is at most {limit}"
    )


def record_lines(path: Path, limit: int = MAX_RECORD_LINE) -> Iterator[str]:
    """The lines of batch file ``path`` in order, as written (no newline translation), each read in
    pieces of at most ``limit`` characters and its newline, so that a longer line is never held
    whole.

    Raises:
        NotationError: a line is longer than ``limit`` characters (the file's remaining lines are not
            read).
    """
    with path.open(encoding="utf-8", newline="") as f:
        number = 0
        while piece := f.readline(limit + 2):
            number += 1
            if _too_long(piece, limit):
                raise _line_error(number, path, limit)
            yield piece


def nth_record_line(path: Path, index: int, limit: int = MAX_RECORD_LINE) -> str | None:
    """Line ``index`` (from 0) of batch file ``path``, or ``None`` when the file has fewer lines. The
    lines before it are skipped in pieces of at most ``limit`` characters, however long they are.

    Raises:
        NotationError: that line is longer than ``limit`` characters.
    """
    with path.open(encoding="utf-8", newline="") as f:
        for number in range(index + 1):
            piece = f.readline(limit + 2)
            if not piece:
                return None
            if number == index:
                if _too_long(piece, limit):
                    raise _line_error(number + 1, path, limit)
                return piece
            while piece and not piece.endswith("\n"):  # the rest of a long line, a piece at a time
                piece = f.readline(limit + 2)
    return None


def read_records(out: str | Path) -> Iterator[Record]:
    """Every record of a finished or interrupted run, in game order of the index's batches, each
    batch file checked against its index line: as many games, the same SHA-256.

    Raises:
        NotationError: a line is not a record, or longer than :data:`MAX_RECORD_LINE` characters; a
            batch file the index lists is missing, or holds other games than it lists (cut short,
            added to, or changed).
    """
    folder = Path(out)
    entries = {batch: entry for batch, entry, _, _ in _index_lines(folder)}  # the last line of a batch
    for batch in sorted(entries):
        path, entry = folder / batch_file(batch), entries[batch]
        if not path.is_file():
            raise NotationError(f"the index lists {quoted(path.name)}, but the run has no such file")
        digest, count = hashlib.sha256(), 0
        for line in record_lines(path):
            digest.update(line.encode("utf-8"))
            count += 1
            yield Record.loads(line)
        if count != entry.get("games"):
            raise NotationError(
                f"{quoted(path.name)} holds {count} games, not the {entry.get('games')} its index lists: "
                "it was changed after the run wrote it"
            )
        listed = entry.get("sha256")
        if isinstance(listed, str) and digest.hexdigest() != listed:
            raise NotationError(
                f"{quoted(path.name)} holds other games than its index lists (its SHA-256 differs): it "
                "was changed after the run wrote it"
            )


def batch_games(out: str | Path, file: str) -> tuple[int, int] | None:
    """The first game's number and the number of games of batch ``file`` of the run in ``out``, as
    its index says; ``None`` when the index does not list the file."""
    found = None
    for _, entry, _, _ in _index_lines(Path(out)):
        if entry.get("file") == file:
            found = int(entry.get("first", 0)), int(entry.get("games", 0))
    return found


def game_line(out: str | Path, game: int, limit: int = MAX_RECORD_LINE) -> str:
    """The record line of game number ``game`` (from 0, as the index numbers them) of a run folder,
    read as :func:`nth_record_line` reads it.

    Raises:
        NotationError: no index in ``out``, no written batch holds that game, or its line is longer
            than ``limit`` characters.
    """
    folder = Path(out)
    written: list[tuple[int, int]] = []
    for batch, entry, _, _ in _index_lines(folder):
        first, count = int(entry.get("first", -1)), int(entry.get("games", 0))
        written.append((first, first + count - 1))
        if first <= game < first + count:
            path = folder / batch_file(batch)
            if not path.is_file():
                raise NotationError(f"the index lists {quoted(path.name)}, but the run has no such file")
            line = nth_record_line(path, game - first, limit)
            if line is None:
                raise NotationError(
                    f"{quoted(path.name)} holds fewer games than the {count} its index lists: it was cut "
                    "short after the run wrote it"
                )
            return line
    if not written:
        raise NotationError(f"{str(folder)!r} holds no self-play run (no readable {INDEX_FILE})")
    ranges = _ranges(written)
    raise NotationError(
        f"the run in {str(folder)!r} has no game {game}; the games written are {ranges} (numbered from 0)"
    )


def _ranges(spans: list[tuple[int, int]]) -> str:
    """Game numbers ``(first, last)`` as text, neighbours joined: ``0–3, 8–11``."""
    merged: list[list[int]] = []
    for first, last in sorted(spans):
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in merged)


def game_seats(out: str | Path, game: int) -> tuple[str, ...] | None:
    """The bot of each seat of game number ``game`` of a run folder, as the index lists them
    (``None`` where no written batch holds that game)."""
    for _, entry, _, _ in _index_lines(Path(out)):
        first, count = int(entry.get("first", -1)), int(entry.get("games", 0))
        seats = entry.get("seats")
        if first <= game < first + count and isinstance(seats, list) and len(seats) == count:
            row = seats[game - first]
            return tuple(str(s) for s in row) if isinstance(row, list) else None
    return None


__all__ = [
    "BatchOut",
    "BatchPlan",
    "GamePlan",
    "SelfPlayConfig",
    "SelfPlayError",
    "SelfPlayResult",
    "batch_file",
    "batch_games",
    "bot_fingerprints",
    "default_batch",
    "game_line",
    "game_seats",
    "nth_record_line",
    "plan_games",
    "play_batch",
    "read_records",
    "record_lines",
    "run_selfplay",
]
