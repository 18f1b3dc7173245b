"""``rummykit replay FILE``: step through a saved hand or match, forwards and backwards.

The record (``rk.Record``, as ``rummykit play`` saves it) is replayed action by action. The screen
shows the table from one seat's view (``--seat N``, only that hand) or with every hand (``--all``).
Commands: Enter or ``n`` next, ``b`` back, ``+N``/``-N`` several steps, ``go N`` to the position
after action N, ``hand N`` to the first deal of hand N of the series as the header numbers it (a
hand dealt again shares its number with the deal that replaced it; ``round N`` too), ``start``,
``end``, ``seat N``, ``all``, ``q``;
the German words work too, in every language (:data:`REPLAY_HELP_DE`: ``zurück``, ``zu N``,
``spiel N``, ``anfang``, ``ende``, ``platz N``, ``alle``, ``beenden``, ``hilfe``).
At the end of input the command ends. ``--lang de`` (or a German locale, as for ``rummykit play``)
shows the table, the moves and the results in German.

A record may come from anyone: one of more than :data:`~rummykit.cli.saves.MAX_SAVE_BYTES` (the
largest saved game ``play --resume`` reads) is refused, and the replay keeps the table only every
:data:`SNAPSHOT_EVERY` actions (and at each round's start and end), replaying forward from there,
so its memory does not grow with one table per action.

A record that says who played each seat (``seats``) names a bot's seat by its bot where the file
carries no names, and marks each move a bot made for a person (a stand-in) or a person made right
after a hint.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, Final, NoReturn

import typer
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.text import Text

from rummykit.actions import CallRummy, Discard, Knock, KnockDeclare, Open, Pass, TakeDiscard
from rummykit.cli import screen
from rummykit.cli.action_text import describe
from rummykit.cli.play import LangOption, LettersOption, card_letters, play_language
from rummykit.cli.saves import MAX_SAVE_BYTES, names_in, printable, typed_names
from rummykit.errors import NotationError, RummyError
from rummykit.explain.language import Lang
from rummykit.i18n import localize_error, message_letters
from rummykit.match import Match
from rummykit.record import Record, ReplayError, read_json
from rummykit.round import Round
from rummykit.selfplay import INDEX_FILE, RUN_FILE, batch_games, game_line, game_seats, nth_record_line
from rummykit.state import RoundState

REPLAY_HELP = "Enter next · b back · +N/-N · go N · hand N · start · end · seat N · all · q"
REPLAY_HELP_DE = "Enter vor · zurück · +N/-N · zu N · spiel N · anfang · ende · platz N · alle · q"
REPLAY_PROMPT = "replay> "
REPLAY_PROMPT_DE = "Wiedergabe> "
SNAPSHOT_EVERY: Final = 64
"""The replay keeps the table after every this many actions (and at each round's start and end); a
position between two is replayed forward from the one before it (at most this many actions)."""


def load_record(
    path: Path, game: int | None = None, lang: str = "en"
) -> tuple[Record, tuple[str, ...] | None]:
    """The record in ``path`` and the player names saved with it (``meta.names``), if any: a name the
    game gave (``You``, ``Player 2``; not one a person typed, ``meta.typed``) in ``lang``.

    ``path`` is a record file (JSON), or a self-play run folder (:mod:`rummykit.selfplay`) or one of
    its batch files (JSONL, a record per line), from which ``game`` picks one: the game's number in
    the run (from 0) for a folder or a batch file beside its index, else the line of the file.

    Raises:
        NotationError: unreadable file, larger than :data:`~rummykit.cli.saves.MAX_SAVE_BYTES`, not
            JSON or not a rummykit record; a run or batch file without ``game``, or without that game.
    """
    run: Path | None = None
    try:
        if path.is_file() and path.suffix != ".jsonl" and path.name != INDEX_FILE:
            _check_size(path, path.stat().st_size)
        if path.is_dir():
            text, run = _run_game(path, game), path
        elif path.name == INDEX_FILE:  # the run's index lists batches, not games: the run it indexes
            text, run = _run_game(path.parent, game), path.parent
        elif path.suffix == ".jsonl":
            text = _batch_game(path, game)
            listed = (path.parent / INDEX_FILE).exists() and batch_games(path.parent, path.name) is not None
            run = path.parent if listed else None  # --game numbers the run's games, not the file's lines
        else:
            if game is not None:
                raise NotationError(f"--game picks a game of a self-play run; {str(path)!r} is one record")
            text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise NotationError(f"cannot read record {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise NotationError(f"a record must be JSON text (UTF-8): {exc}") from None
    _check_size(path, len(text.encode("utf-8", "surrogatepass")))  # a game of a run: its line
    try:
        data: Any = read_json(text)
    except ValueError as exc:
        raise NotationError(f"a record must be JSON: {exc}") from None
    record = Record.from_dict(data)
    names = None
    meta = data.get("meta") if isinstance(data, dict) else None
    if isinstance(meta, dict):
        raw = meta.get("names")
        if isinstance(raw, list) and len(raw) == record.players and all(isinstance(n, str) for n in raw):
            names = names_in(raw, typed_names(raw, meta.get("typed")), lang)
    if names is None and run is not None and game is not None:
        names = bot_names(game_seats(run, game), record.players)
    return record, names


def _check_size(path: Path, size: int) -> None:
    if size > MAX_SAVE_BYTES:
        raise NotationError(f"record {str(path)!r} is {size} bytes; a record is at most {MAX_SAVE_BYTES}")


def bot_names(seats: tuple[str, ...] | None, players: int) -> tuple[str, ...] | None:
    """A self-play game's seats named by their bots (``search:medium``), a seat number added where
    two seats play the same bot (``greedy 1``, ``greedy 2``)."""
    if seats is None or len(seats) != players:
        return None
    return tuple(f"{s} {i + 1}" if seats.count(s) > 1 else s for i, s in enumerate(seats))


def seat_names(record: Record) -> tuple[str, ...]:
    """Names for a record that carries none (a web download, a self-play record read alone), from its
    ``seats``: a bot's seat by its bot (``greedy:medium``, numbered where two seats share one) or
    ``Bot N`` where the record does not say which; ``""`` (the replay's ``Player N``) for a person's
    seat and for every seat of a record without ``seats``."""
    if record.seats is None:
        return ("",) * record.players
    bots = tuple(s.bot or "" for s in record.seats)
    return tuple(
        ""
        if seat.kind != "bot"
        else f"Bot {i + 1}"
        if seat.bot is None
        else f"{seat.bot} {i + 1}"
        if bots.count(seat.bot) > 1
        else seat.bot
        for i, seat in enumerate(record.seats)
    )


def _run_game(folder: Path, game: int | None) -> str:
    if not (folder / RUN_FILE).is_file():
        raise NotationError(
            f"{str(folder)!r} is a folder but no self-play run (it has no {RUN_FILE}); "
            "replay a record file, or a run folder with --game N"
        )
    if game is None:
        raise NotationError(f"{str(folder)!r} is a self-play run of many games: pick one with --game N")
    return game_line(folder, game, MAX_SAVE_BYTES)


def _batch_game(path: Path, game: int | None) -> str:
    """Game ``game`` of a self-play batch file: by its number in the run when the run's index is
    beside it and lists the file (a game of another batch file is refused, naming the games this one
    holds), else by its line (from 0)."""
    if game is None:
        raise NotationError(f"{str(path)!r} holds a game per line: pick one with --game N")
    held = batch_games(path.parent, path.name) if (path.parent / INDEX_FILE).exists() else None
    if held is not None:
        first, count = held
        if not first <= game < first + count:
            raise NotationError(
                f"{str(path)!r} holds games {first}–{first + count - 1} of its run (--game counts "
                f"through the whole run); replay the run folder {str(path.parent)!r} for game {game}"
            )
        return game_line(path.parent, game, MAX_SAVE_BYTES)
    line = nth_record_line(path, game, MAX_SAVE_BYTES)
    if line is not None:
        return line
    raise NotationError(f"{str(path)!r} has no game {game}")


@dataclasses.dataclass(frozen=True, slots=True)
class Frame:
    """The replay at one position: the round in play, the match scores, and the round that the last
    action ended (for its result table)."""

    state: RoundState
    score: screen.Scoreboard
    ended: RoundState | None


class ReplaySession:
    """A record with a cursor: the game after the first ``position`` actions.

    One pass over the record keeps a frame every :data:`SNAPSHOT_EVERY` positions and at each one
    where a round starts or ends or the match decides (a buy-back); the positions between are
    replayed forward from the frame before them on a copy of its round (:meth:`frame`). So every step
    (forwards, backwards, or a jump) costs at most :data:`SNAPSHOT_EVERY` actions whatever the
    record's length, and the memory grows with one table per :data:`SNAPSHOT_EVERY` actions, not per
    action (a 100,000-action record: some 50 MB instead of 500 MB).
    """

    def __init__(
        self,
        record: Record,
        names: Sequence[str] | None,
        console: Console,
        read_line: Callable[[str], str],
        *,
        seat: int | None = 0,
        ascii_only: bool = False,
        lang: str = "en",
        letters: str | None = None,
    ) -> None:
        self.record = record
        self.lang = lang
        self.t = Lang(lang)
        console.push_render_hook(screen.CardLetters(letters or screen.default_letters(lang), ascii_only))
        default = self.t("Player", "Spieler")
        # Names come from the file: without control characters, so that they cannot send terminal
        # escapes, and at most 40 characters, as 'rummykit play --resume' shows them.
        given = tuple(names) if names else seat_names(record)
        self.names = tuple(printable(n)[:40] or f"{default} {s + 1}" for s, n in enumerate(given))
        self.help = self.t(REPLAY_HELP, REPLAY_HELP_DE)
        self.console = console
        self.read_line = read_line
        self.seat = seat
        self.ascii_only = False  # the screens draw suit symbols; the render hook writes --ascii
        self.total = len(record.actions)
        self.stopped: ReplayError | None = None
        """Why the replay stops before the record's end (an action refused), if it does."""
        # One pass over the record: a frame per position, the round each action belongs to and
        # whether it ended it.
        game = self._empty()
        self.round_of: list[int] = []
        self.ends_round: list[bool] = []
        self.round_starts: list[int] = [0]
        self.seat_of: list[int] = []
        self.frames: dict[int, Frame] = {0: self._frame(game, None)}
        """The frames kept, by position (:meth:`frame` gives the others)."""
        self.kept: list[int] = [0]
        """The positions of :attr:`frames`, in order."""
        self._last: tuple[int, Frame] = (0, self.frames[0])
        score = self.frames[0].score
        for i, action in enumerate(record.actions, start=1):
            rnd = self._round(game)
            number = self._round_number(game)
            was_over = rnd.is_over
            self.seat_of.append(game.to_move)
            try:
                game.apply(action)
            except RummyError as exc:
                # As Record.replay says it (and so 'rummykit play --resume'): which action failed.
                # The actions before it are still shown: a record an older version wrote and a later
                # rule stops can be read up to there.
                self.stopped = record.replay_error(i, action, exc)
                self.total = i - 1
                break
            self.round_of.append(number)
            ended = rnd.is_over and not was_over
            self.ends_round.append(ended)
            if isinstance(game, Match) and self._round_number(game) != number:
                self.round_starts.append(len(self.round_of))
            before, score = score, self._score(game)
            # Kept: every SNAPSHOT_EVERY-th position, and each one that the round's own play does not
            # reach from the position before (a match action, a round's end, a new deal, a score).
            plain = not was_over and not ended and self._round(game) is rnd and score == before
            if not plain or i % SNAPSHOT_EVERY == 0:
                self.frames[i] = Frame(self._round(game).state(), score, rnd.state() if ended else None)
                self.kept.append(i)
        self.winners: tuple[int, ...] = game.winners if isinstance(game, Match) else ()
        """Who won the match the record plays to its end (empty for a hand, or a match not ended)."""
        self.position = 0
        self.series: dict[int, tuple[int, int]] = {}
        """A match's hands by number (as :attr:`round_of` counts them): their number in the series and
        the times they were dealt again before (``unscored_hand = redeal``)."""
        if isinstance(game, Match):
            hands = range(1, len(game.rounds) + 1)
            self.series = {h: (game.hand_in_series(h), game.times_dealt_again(h)) for h in hands}

    def _empty(self) -> Round | Match:
        game: Round | Match = self.record.start()
        return game

    def _frame(self, game: Round | Match, ended: RoundState | None) -> Frame:
        return Frame(self._round(game).state(), self._score(game), ended)

    @staticmethod
    def _score(game: Round | Match) -> screen.Scoreboard:
        return screen.match_scoreboard(game) if isinstance(game, Match) else screen.Scoreboard()

    def frame(self, position: int) -> Frame:
        """The replay after ``position`` actions (0 to :attr:`total`): a kept frame, or the last one
        computed or kept before it, played forward with the record's actions (the round's own play:
        the kept frames hold every position where the match acts)."""
        kept = self.frames.get(position)
        if kept is not None:
            return kept
        base = self.kept[bisect.bisect_right(self.kept, position) - 1]
        start, frame = self._last if base < self._last[0] < position else (base, self.frames[base])
        rnd = Round.from_state(frame.state)
        for action in self.record.actions[start:position]:
            rnd.apply(action)
        result = Frame(rnd.state(), frame.score, None)
        self._last = (position, result)
        return result

    @staticmethod
    def _round(game: Round | Match) -> Round:
        return game.round if isinstance(game, Match) else game

    @staticmethod
    def _round_number(game: Round | Match) -> int:
        return len(game.rounds) if isinstance(game, Match) else 1

    def go(self, position: int) -> None:
        self.position = max(0, min(self.total, position))

    def render(self) -> list[RenderableType]:
        frame = self.frame(self.position)
        rnd = Round.from_state(frame.state)
        score = frame.score
        viewer = self.seat if self.seat is not None else rnd.to_move
        view = rnd.view(viewer)
        if self.seat is not None:
            hands = (
                {self.seat: screen.sorted_hand(view.hand, "suit")} if self.seat in rnd.active_seats else {}
            )
        else:
            hands = {s: screen.sorted_hand(rnd.view(s).hand, "suit") for s in rnd.active_seats}
        log: list[Text] = []
        t = self.t
        if self.position:
            i = self.position - 1
            log.append(Text(f"{i + 1}. ", style="dim") + self._describe(i))
        elif self.record.position is not None:
            log.append(Text(self._given_position(), style="yellow"))
        status = Text.assemble(
            (t(f"action {self.position} of {self.total}", f"Zug {self.position} von {self.total}"), "bold"),
            t(" · view: ", " · Sicht: ")
            + (self.names[self.seat] if self.seat is not None else t("all hands", "alle Hände")),
            ("\n" + self.help, "dim"),
        )
        board = screen.Board(
            view=view,
            names=self.names,
            score=score,
            hands=hands,
            ascii_only=self.ascii_only,
            log=log,
            status=status,
            hidden_note=(
                t(
                    f"{self.names[self.seat]} is not in this hand",
                    f"{self.names[self.seat]} spielt dieses Spiel nicht mit",
                )
                if self.seat is not None
                else ""
            ),
            height=self.console.size.height,
            subtitle=t("replay", "Wiedergabe"),
            lang=self.lang,
        )
        if cell_len(screen.header_text(board)) > min(self.console.size.width, screen.HEADER_WIDTH):
            # The header would wrap: the word "replay" moves to the start of the status line.
            board = dataclasses.replace(board, subtitle="", status=Text(board.subtitle + " · ") + status)
        # The end of the match: the line the live game ended with, who won and the match's figures.
        over: list[RenderableType] = (
            [screen.winners_text(self.winners, self.names, score, self.lang)]
            if self.winners and self.position == self.total
            else []
        )
        if self.position and frame.ended is not None:
            # The end of a hand: its result lists every hand and score, below the table it left.
            ended = Round.from_state(frame.ended)
            hand = self.round_of[self.position - 1]
            number, again = self.series.get(hand, (hand, 0))
            redeal = self.series.get(hand + 1, (0, 0))[1] > again  # the next deal is this hand again
            end_score = dataclasses.replace(score, round_number=number, redealt=again, deals_again=redeal)
            result = screen.result_table(
                ended.view(viewer), self.names, end_score, self.ascii_only, self.lang
            )
            options = self.console.options.update(height=None)
            parts: list[RenderableType] = [result, *over]
            below = sum(len(self.console.render_lines(part, options)) for part in parts)
            table = dataclasses.replace(board, result_below=below, status="")
            return [screen.render_board(table), result, *over, board.status]
        return [screen.render_board(board), *over]

    def _given_position(self) -> str:
        """The line at the start of a match record that began from a given position (a resumed
        series, a puzzle): its scores were not played in this record."""
        assert self.record.position is not None
        before = self.record.position.hands_dealt
        if before:
            return self.t(
                f"Starts from a given position (after {before} hands), not played here",
                f"Beginnt mit vorgegebenem Stand (nach {before} Spielen), nicht hier erspielt",
            )
        return self.t(
            "Starts from a given position, not played here",
            "Beginnt mit vorgegebenem Stand, nicht hier erspielt",
        )

    def _describe(self, index: int) -> Text:
        seat = self.seat_of[index]
        action = self.record.actions[index]
        before = self._before_view(index, seat)
        text = describe(action, self.names[seat], before, self.ascii_only, self.lang)
        if self.record.seats is not None:
            stand_in, hinted = self.record.seats[seat].marks(index + 1)
            if stand_in:
                text.append(self.t(" (a stand-in bot)", " (Bot als Vertretung)"), "dim")
            elif hinted:
                text.append(self.t(" (after a hint)", " (nach einem Tipp)"), "dim")
        return text

    def _before_view(self, index: int, seat: int) -> Any:
        # The top of the discard pile before a 'take'; the phase of a gin pass or knock (what it
        # passes on); the card taken before an opening (what the opening counts); and, seen from
        # another seat, what the mover held, so that a card laid face down is not named (with every
        # hand shown, it is).
        action = self.record.actions[index]
        hidden_from_viewer = self.seat not in (None, seat) and isinstance(action, (Knock, CallRummy, Discard))
        if not isinstance(action, (TakeDiscard, Pass, KnockDeclare, Open)) and not hidden_from_viewer:
            return None
        return Round.from_state(self.frame(index).state).view(seat)

    def show(self) -> None:
        if self.console.is_terminal:
            self.console.clear()
        for item in self.render():
            self.console.print(item)

    def command(self, line: str) -> str | None:
        """Act on one typed line; ``"quit"`` to stop, or a message to print."""
        words = line.strip().lower().split()
        if not words or words[0] in ("n", "next", "v", "vor", "weiter"):
            self.go(self.position + 1)
            return None
        verb, args = words[0], words[1:]
        try:
            if verb in ("b", "back", "p", "prev", "z", "zurück", "zurueck"):
                self.go(self.position - 1)
            elif verb[0] in "+-" and verb[1:].isdigit():
                self.go(self.position + int(verb))
            elif verb in ("go", "zu", "gehe") and len(args) == 1 and args[0].isdigit():
                self.go(int(args[0]))
            elif verb in ("hand", "round", "spiel") and len(args) == 1 and args[0].isdigit():
                # N is the hand's number in the series, as the header counts (a hand dealt again and
                # the deal that replaced it share it): the first deal of that number.
                n = int(args[0])
                numbers = [self.series.get(d, (d, 0))[0] for d in range(1, len(self.round_starts) + 1)]
                if n not in numbers:
                    hands = numbers[-1]
                    return self.t(
                        "✗ there is 1 hand in this record"
                        if hands == 1
                        else f"✗ there are {hands} hands in this record",
                        f"✗ diese Aufzeichnung hat {hands} {'Spiel' if hands == 1 else 'Spiele'}",
                    )
                self.go(self.round_starts[numbers.index(n)])
            elif verb in ("start", "anfang"):
                self.go(0)
            elif verb in ("end", "ende"):
                self.go(self.total)
            elif verb in ("seat", "platz") and len(args) == 1 and args[0].isdigit():
                n = int(args[0])
                if not 1 <= n <= self.record.players:
                    return self.t(
                        f"✗ seats are numbered 1 to {self.record.players}",
                        f"✗ die Plätze sind von 1 bis {self.record.players} nummeriert",
                    )
                self.seat = n - 1
            elif verb in ("all", "alle"):
                self.seat = None
            elif verb in ("q", "quit", "exit", "beenden"):
                return "quit"
            elif verb in ("help", "?", "hilfe"):
                return self.help
            else:
                shown = line.strip()[:40]
                return (
                    self.t(f"✗ unknown command {shown!r}; ", f"✗ unbekannter Befehl {shown!r}; ") + self.help
                )
        except RummyError as exc:
            return f"✗ {localize_error(exc, self.lang)}"
        return None

    def run(self) -> int:
        self.show()
        while True:
            try:
                line = self.read_line(self.t(REPLAY_PROMPT, REPLAY_PROMPT_DE))
            except (EOFError, KeyboardInterrupt):
                return 0
            message = self.command(line)
            if message == "quit":
                return 0
            if message:
                self.console.print(Text(message, style="red" if message.startswith("✗") else ""))
            else:
                self.show()


def _fail(message: str, letters: str = "en") -> NoReturn:
    """One ``error:`` line on stderr, its cards in the rank ``letters`` the table shows (``B♥`` in
    German), and exit code 2, as every command refuses bad input."""
    typer.echo(f"error: {message_letters(message, letters)}", err=True)
    raise typer.Exit(2)


def replay_command(
    file: Annotated[
        Path,
        typer.Argument(
            help="A saved game record (JSON), or a self-play run or batch file.", show_default=False
        ),
    ],
    seat: Annotated[
        int, typer.Option("--seat", help="Show the table from this seat's view (1 = first).")
    ] = 1,
    all_hands: Annotated[bool, typer.Option("--all", help="Show every hand.")] = False,
    at: Annotated[int, typer.Option("--at", help="Start after this many actions.")] = 0,
    game: Annotated[
        int | None,
        typer.Option(
            "--game",
            help="The game to show of a self-play run folder or batch file (its number in the run, from 0).",
            show_default=False,
        ),
    ] = None,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Suit letters instead of symbols.")] = False,
    letters: LettersOption = None,
    lang_option: LangOption = None,
) -> None:
    """Step through a saved hand or match, forwards and backwards, from one seat's view or all."""
    lang = play_language(lang_option)
    t = Lang(lang)
    letters = card_letters(letters, lang)
    if at < 0:
        _fail(t(f"--at must be 0 or more, not {at}", f"--at: 0 oder mehr, nicht {at}"))
    if game is not None and game < 0:
        _fail(t(f"--game must be 0 or more, not {game}", f"--game: 0 oder mehr, nicht {game}"))
    try:
        record, names = load_record(file, game, lang)
    except RummyError as exc:
        _fail(localize_error(exc, lang), letters)
    if not 1 <= seat <= record.players:
        _fail(
            t(
                f"--seat must be between 1 and {record.players}",
                f"--seat muss zwischen 1 und {record.players} liegen",
            )
        )
    for note in record.older_notes(lang):
        typer.echo(message_letters(t(f"note: {note}", f"Hinweis: {note}"), letters), err=True)
    console = Console(highlight=False)
    try:
        session = ReplaySession(
            record,
            names,
            console,
            lambda prompt: console.input(Text(prompt, style="bold")),
            seat=None if all_hands else seat - 1,
            ascii_only=ascii_only,
            lang=lang,
            letters=letters,
        )
        session.go(at)
    except RummyError as exc:
        _fail(localize_error(exc, lang), letters)
    if session.stopped is not None:
        said = localize_error(session.stopped, lang)
        stops = t(f"warning: {said}; the replay stops there", f"Warnung: {said}; das Nachspielen endet dort")
        typer.echo(message_letters(stops, letters), err=True)
    raise typer.Exit(session.run())
