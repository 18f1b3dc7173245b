"""``rummykit play``: a match in the terminal against bots, or hot-seat among several people.

Input is the action notation of :mod:`rummykit.actions` plus short forms that select cards by their
position in the hand as shown (positions count from 1, in the displayed sort order):

==================  ===========================================================
``d`` / ``draw``    draw from the stock; ``t`` / ``take`` takes the discard
``m 1 2 3``         meld (or open, before the first meld) the cards at positions 1 2 3;
                    several melds: ``m 1 2 3 | 7 8 9``
``l 4 2``           lay the card at position 4 off on table meld 2 (``layoff 4 on 2 low``)
``x 5``             discard the card at position 5 (``discard QS`` works too)
``k 5`` / ``r 5``   knock games: knock, or call Rummy, discarding card 5
``help`` ``hint``   the legal moves; the solver's suggestion (``auto`` plays its first step)
``sort`` ``undo``   sort by suit or rank; take back your last move (``--practice``)
``log`` ``quit``    the recent moves; save and leave
``rules``           this table's rules, a page at a time (``regeln``: in German)
==================  ===========================================================

``--lang de`` (or a German locale: ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) plays in German: prompts,
help, moves, errors (from the message catalogue :mod:`rummykit.i18n`), the table and the scores;
German words work for the commands too (``hilfe``, ``tipp``, ``ende`` …).

Every game is saved as a record (``rk.Record``) after each of your moves, into the user data
directory (``$RUMMYKIT_DATA_DIR/games``, else e.g. ``~/.local/share/rummykit/games``) or
``--save-dir``; ``rummykit replay FILE`` steps through it and ``rummykit play --resume FILE``
continues it. A game in which nobody at the keyboard has moved yet is not written, so quitting at the
first prompt leaves no empty file behind; at start the most recent unfinished game is offered. At the
end of input (EOF), on Ctrl-C and when the terminal is closed (SIGHUP) the game is saved and the
command ends cleanly; a save is written to a temporary file and renamed, so it is never half-written.

In hot-seat play the hand-over clears the screen and the terminal's scroll-back, so the next player
cannot scroll up to the previous player's hand.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import random
import re
import shlex
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Final

import typer
from rich.console import Console, RenderableType
from rich.text import Text

from rummykit.actions import (
    Action,
    CallRummy,
    Discard,
    Draw,
    Knock,
    KnockDeclare,
    TakeDiscard,
)
from rummykit.bots import (
    BOT_KIND_LINES,
    LEVEL_LINES,
    Bot,
    UnknownBotError,
    bot_kinds,
    bot_label,
    check_seat,
    make_bot,
    match_action,
    seat_notice,
    shadow_notices,
)
from rummykit.cards import Card
from rummykit.cli import pager, screen
from rummykit.cli.action_text import describe
from rummykit.cli.hints import hint
from rummykit.cli.parsing import MAX_LINE as MAX_LINE  # re-exported: the line limit of this command
from rummykit.cli.parsing import (
    arranged_melds,
    clip,
    legal_moves_lines,
    parse_input,
    short_error,
    short_help,
)
from rummykit.cli.paths import games_dir
from rummykit.cli.prompts import STOP_REASONS_DE, is_quit, rules_notice, turn_prompt
from rummykit.cli.saves import (
    HUMAN,
    PersonMarks,
    SavedGame,
    latest_unfinished,
    load_saved,
    person_name,
    save_meta,
    shown,
    write_save,
)
from rummykit.errors import IllegalActionError, NotationError, RummyError
from rummykit.explain.language import Lang
from rummykit.i18n import (
    CARD_LETTERS,
    cards_glyphs,
    describe_action,
    lang_from_env,
    localize_error,
    message_letters,
    normalize_lang,
    notation_letters,
    rule_name,
)
from rummykit.i18n.levels import bot_name
from rummykit.i18n.localize import localize_note, localize_reason
from rummykit.match import Match, MatchEvent
from rummykit.record import Record
from rummykit.round import Event, Round
from rummykit.rules import Rules
from rummykit.sheet import ScoreSheet, sheet_text
from rummykit.views import Phase

BOT_STRENGTH: Final = ("search", "greedy", "random")
"""Registered bot kinds from strongest to weakest (kinds not listed rank after these)."""
DEFAULT_BOT: Final = "search"
DEFAULT_LEVEL: Final = "medium"
DEFAULT_DELAY: Final = 0.7
"""Seconds between bot moves on a terminal (``--fast`` or ``--delay 0`` skips the pauses)."""
DEFAULT_PLAYERS: Final = 3
"""Players at the table without ``--players``, where the game allows three."""
MAX_DELAY: Final = 60.0
"""The longest ``--delay`` (seconds): beyond it the pause is a mistake, and ``time.sleep`` overflows."""
LAST_MOVES: Final = 3
"""Moves repeated above a hand's score table on a terminal (the screen is cleared for it), at least;
after a knock or a Rummy call, every move from it on (:func:`moves_to_repeat`), up to
:data:`MOST_REPEATED`."""
MOST_REPEATED: Final = 8
"""The most moves repeated above a score table: with the table they fit a 24-row screen."""
ENDING_MOVES: Final = (Knock, CallRummy, KnockDeclare)
"""The moves after which a knock game's hand plays out: what the score table's repeat starts from."""


def moves_to_repeat(rnd: Round) -> int:
    """How many of the hand's last moves to repeat above its score table: :data:`LAST_MOVES`, or
    after a knock or a Rummy call every move from it on (at three players a knock is followed by
    four more moves; the last three left the knock out), up to :data:`MOST_REPEATED`."""
    history = rnd.history
    ending = next(
        (i for i in range(len(history) - 1, -1, -1) if isinstance(history[i].action, ENDING_MOVES)),
        None,
    )
    since = 0 if ending is None else len(history) - ending
    return min(max(LAST_MOVES, since), MOST_REPEATED)


CLEAR_ALL: Final = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, clear the screen, then clear the scroll-back (xterm, tmux, VTE, Windows Terminal)."""


class BotFailed(Exception):
    """A seat's bot raised an error, answered with no action, or chose one the engine refused: the
    game stops (saved), and the message names the bot and the seat, as the arena's does."""

    def __init__(self, seat: int, label: str, name: str, problem: str) -> None:
        super().__init__(f"the bot {label!r} at seat {seat + 1} ({name}) {problem}")


class QuitGame(Exception):
    """The player quit or the input ended."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# Bots -----------------------------------------------------------------------------------------------
def strongest_kind(kinds: Sequence[str]) -> str:
    ranked = sorted(kinds, key=lambda k: BOT_STRENGTH.index(k) if k in BOT_STRENGTH else len(BOT_STRENGTH))
    return ranked[0]


def resolve_bots(spec: str | None, count: int, kinds: Sequence[str]) -> tuple[list[str], str | None]:
    """Bot kinds (``kind:level``) for ``count`` seats from ``--bots``, and a notice to show.

    ``spec`` is a comma-separated list (the last entry repeats). Without it the default opponent
    ``search:medium`` is used, or, when that kind is not available, the strongest registered kind,
    with a notice saying so.

    Raises:
        UnknownBotError: a named kind or level does not exist (the message lists the bots).
    """
    notice = None
    if spec is None:
        kind = DEFAULT_BOT
        if DEFAULT_BOT not in kinds:
            kind = strongest_kind(kinds)
            shown = bot_label(f"{kind}:{DEFAULT_LEVEL}")
            notice = f"'{DEFAULT_BOT}' bots are not available here; playing against '{shown}' bots"
        entries = [f"{kind}:{DEFAULT_LEVEL}"]
    else:
        entries = [e.strip() for e in spec.split(",") if e.strip()]
        if not entries:
            raise UnknownBotError(f"--bots is empty; bots: {', '.join(kinds)}")
    out: list[str] = []
    for i in range(count):
        entry = entries[min(i, len(entries) - 1)]
        kind, _, level = entry.partition(":")
        kind = kind.strip().lower()
        if kind not in kinds:
            raise UnknownBotError(f"unknown bot {kind!r}; available bots: {', '.join(kinds)}")
        out.append(f"{kind}:{level.strip() or DEFAULT_LEVEL}")
    return out, notice


@dataclass(slots=True)
class Player:
    name: str
    bot: Bot | None = None
    label: str = "human"
    typed: bool = True
    """Whether a person gave the name (``--names``), not the game (``You``, ``Player 2``, ``Bot 3``):
    a default name is shown in the language of whoever reads the save (a replay, a resumed game)."""


@contextlib.contextmanager
def hangup_stops_the_game() -> Iterator[None]:
    """A closed terminal (SIGHUP) stops the game like the end of input: it is saved, then the command
    ends. Without this the hang-up could kill the process halfway through writing the save."""
    hangup = getattr(signal, "SIGHUP", None)
    if hangup is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        signal.signal(hangup, signal.SIG_IGN)  # one stop; the save that follows is not interrupted
        raise QuitGame("terminal closed")

    previous = signal.signal(hangup, stop)
    try:
        yield
    finally:
        signal.signal(hangup, previous)


# The session ----------------------------------------------------------------------------------------
class PlaySession:
    """One match at the terminal: reads lines, applies moves, lets bots play, renders the screen."""

    def __init__(
        self,
        match: Match,
        players: Sequence[Player],
        console: Console,
        read_line: Callable[[str], str],
        *,
        delay: float = 0.0,
        practice: bool = False,
        ascii_only: bool = False,
        save_path: Path | None = None,
        sleep: Callable[[float], None] = time.sleep,
        notices: Sequence[str] = (),
        lang: str = "en",
        letters: str | None = None,
        draw: Sequence[str] = (),
        marks: PersonMarks | None = None,
    ) -> None:
        self.match = match
        self.players = list(players)
        self.names = tuple(p.name for p in players)
        self.console = console
        self.read_line = read_line
        self.delay = delay
        self.practice = practice
        self.ascii_only = False  # the screens draw suit symbols; the render hook writes --ascii
        self.save_path = save_path
        self.save_problem: str | None = None
        """Why the last save failed (the folder is not writable, the disk is full), or ``None``."""
        self.sleep = sleep
        self.sort_mode: screen.SortMode = "suit"
        self.log: list[Text] = [Text(n, style="yellow") for n in notices]
        self.humans = [s for s, p in enumerate(players) if p.bot is None]
        self.shown_seat: int | None = None
        self.highlight: tuple[Card, ...] = ()
        self.live = console.is_terminal and delay > 0
        self.lang = lang
        self.t = Lang(lang)
        self.letters = letters or screen.default_letters(lang)
        self.draw = list(draw)
        """The lines of the draw for the first dealer (they are among the notices too)."""
        self.marks = PersonMarks() if marks is None else marks
        """The people's moves ``auto`` played or typed right after a ``hint`` (the record's ``seats``)."""
        self.hint_at: int | None = None
        """The number of actions when a hint was last shown: a move at that decision follows it."""
        console.push_render_hook(screen.CardLetters(self.letters, ascii_only))

    # Helpers ---------------------------------------------------------------------------------------
    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    def scoreboard(self) -> screen.Scoreboard:
        return screen.match_scoreboard(self.match)

    def board(self, viewer: int | None, status: Text | str = "") -> screen.Board:
        rnd = self.match.round
        view = rnd.view(viewer if viewer is not None else rnd.to_move)
        hands = {viewer: screen.sorted_hand(view.hand, self.sort_mode)} if viewer is not None else {}
        return screen.Board(
            view=view,
            names=self.names,
            score=self.scoreboard(),
            hands=hands,
            sort_mode=self.sort_mode,
            ascii_only=self.ascii_only,
            log=self.log,
            status=status,
            highlight=self.highlight if viewer is not None else (),
            hidden_note=self.t(
                "hands hidden: hand the terminal to the next player",
                "Hände verdeckt: gib das Terminal an die nächste Person weiter",
            ),
            height=self.console.size.height,
            lang=self.lang,
        )

    def deadwood(self, viewer: int | None) -> dict[int, str] | None:
        """The viewer's deadwood in a knock game, as its hand's title shows it; with the card drawn
        (a card above the hand size) the figure before the discard, said so."""
        rules = self.match.rules
        if viewer is None or not rules.is_knock_game:
            return None
        from rummykit import solver

        hand = list(self.match.round.view(viewer).hand)
        drawn = len(hand) > rules.hand_size_for(len(self.match.round.active))
        return {viewer: screen.deadwood_label(solver.min_deadwood(hand, rules), drawn, self.lang)}

    def show(self, viewer: int | None, status: Text | str = "", extra: Sequence[RenderableType] = ()) -> None:
        if self.console.is_terminal:
            self.console.clear()
        self.console.print(screen.render_board(self.board(viewer, status), self.deadwood(viewer)))
        for item in extra:
            self.console.print(item)

    def ask(self, prompt: str) -> str:
        try:
            return self.read_line(prompt)
        except EOFError:
            raise QuitGame("end of input") from None
        except KeyboardInterrupt:
            raise QuitGame("interrupted") from None

    def human_has_moved(self) -> bool:
        return any(e.seat in self.humans for e in self.match.history if isinstance(e, (Event, MatchEvent)))

    def movers(self) -> list[int]:
        """The seat that played each action of the match, in order."""
        return [e.seat for e in self.match.history if isinstance(e, (Event, MatchEvent))]

    def save(self) -> bool:
        """Write the record; a game in which no person has moved yet is not written (no empty files).

        A save that fails (a folder made read-only, a full disk) does not stop the game: the log says
        so in one line, once per reason, the next save tries again, and the message at the end says
        that the game was not saved (:attr:`save_problem`)."""
        if self.save_path is None or not self.human_has_moved():
            return False
        labels = [p.label for p in self.players]
        seats = self.marks.seats(labels, self.movers())
        record = dataclasses.replace(Record.from_match(self.match), seats=seats)
        data: dict[str, Any] = record.to_dict()
        typed = [p.typed for p in self.players]
        data["meta"] = save_meta(self.names, labels, self.practice, self.match.is_over, typed)
        try:
            write_save(self.save_path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            problem = self.t(
                f"cannot save the game to {shown(str(self.save_path))}: {reason}",
                f"die Partie lässt sich nicht in {shown(str(self.save_path))} speichern: {reason}",
            )
            if problem != self.save_problem:
                self.add_log(Text(self.t("warning: ", "Warnung: ") + problem, style="yellow"))
            self.save_problem = problem
            return False
        self.save_problem = None
        return True

    def not_saved(self) -> str:
        """``; not saved (why)`` for the line that ends the game when its last save failed, else ``""``."""
        if self.save_problem is None:
            return ""
        return self.t("; not saved: ", "; nicht gespeichert: ") + self.save_problem

    def clear_all(self) -> None:
        """Clear the screen and the scroll-back, so nobody can scroll up to an earlier hand."""
        if self.console.is_terminal:
            self.console.file.write(CLEAR_ALL)
            self.console.file.flush()

    def add_log(self, entry: Text) -> None:
        self.log.append(entry)
        del self.log[:-50]

    def bot_rng(self, seat: int) -> random.Random:
        # One generator per decision, derived from the match seed: an undo replays the same bot moves.
        return random.Random(f"rummykit-bot-{self.match.seed}-{seat}-{len(self.match.actions)}")

    # Flow ------------------------------------------------------------------------------------------
    def run(self) -> int:
        with hangup_stops_the_game():
            return self._run()

    def _run(self) -> int:
        try:
            self.show_draw()
            while not self.match.is_over:
                seat = self.match.to_move
                player = self.players[seat]
                if player.bot is not None:
                    self.bot_move(seat, player.bot)
                else:
                    self.human_turn(seat)
            saved = self.save()
            self.show_sheet()
            self.console.print(
                screen.winners_text(self.match.winners, self.names, self.scoreboard(), self.lang)
            )
            if saved:
                self.console.print(Text(self.t("Game saved to:", "Partie gespeichert in:"), style="dim"))
                self.print_whole(shown(str(self.save_path)), "dim")
            elif self.save_problem is not None:
                self.console.print(Text(self.t("warning: ", "Warnung: ") + self.save_problem, style="yellow"))
        except BotFailed as failure:
            saved = self.save()
            where = ""
            if saved:
                where = self.t("; game saved, to continue it:", "; Partie gespeichert, weiter mit:")
            else:
                where = self.not_saved()
            with contextlib.suppress(OSError):
                self.console.print(Text(f"error: {failure}{where}", style="red"))
                if saved:
                    self.print_whole(self.resume_command(), "bold")
            return 2
        except (QuitGame, KeyboardInterrupt) as stop:
            t = self.t
            reason = stop.reason if isinstance(stop, QuitGame) else "interrupted"
            where = ""
            saved = self.save()
            if saved:
                where = t("; game saved, to continue it:", "; Partie gespeichert, weiter mit:")
            elif self.save_problem is not None:
                where = self.not_saved()
            elif self.save_path is not None and not self.human_has_moved():
                where = t(
                    "; nothing saved, no move was made", "; nichts gespeichert, es wurde kein Zug gemacht"
                )
            text = t(
                f"Game stopped ({reason}){where}",
                f"Partie unterbrochen ({STOP_REASONS_DE.get(reason, reason)}){where}",
            )
            with contextlib.suppress(OSError):  # the terminal may be gone (hang-up)
                self.console.print(Text(text, style="yellow"))
                if saved:
                    self.print_whole(self.resume_command(), "bold")
        return 0

    def resume_command(self) -> str:
        """The command that continues this game, its path quoted where a shell needs it."""
        return f"rummykit play --resume {shown(shlex.quote(str(self.save_path)))}"

    def show_sheet(self) -> None:
        """At the end of a match of more than one hand, its score sheet as a tournament keeps it: per
        hand the dealer, who ended it, the points, any Hand-Rommé factor and the running totals
        (:func:`~rummykit.sheet.sheet_text`, the winner line left to the match's own), narrowed to the
        terminal's width (short headers, names cut with ``…``). A sheet still wider than the terminal
        is not shown, never wrapped into rows nobody can read: ``rummykit sheet``
        prints it from the saved game."""
        if len(self.match.rounds) < 2:
            return
        text = sheet_text(ScoreSheet.of(self.match), self.names, self.lang, width=self.console.size.width)
        table = text.split("\n\n", 1)[0].splitlines()
        if max(len(line) for line in table) <= self.console.size.width:
            for line in table:
                self.console.print(Text(line), soft_wrap=True)

    def print_whole(self, line: str, style: str = "") -> None:
        """``line`` on a line of its own and never broken by the console (a command or a path to copy):
        one longer than the terminal is wrapped by the terminal alone, which copies as one line."""
        self.console.print(Text(line, style=style), soft_wrap=True)

    def apply(self, seat: int, action: Action) -> None:
        m = self.match
        rnd = m.round
        before = rnd.view(seat)
        hand_before = list(before.hand)
        was_over = rnd.is_over
        m.apply(action)
        drawn = None
        if isinstance(action, (Draw, TakeDiscard)) and self.players[seat].bot is None:
            now = list(rnd.view(seat).hand)
            for c in hand_before:
                now.remove(c)
            self.highlight = tuple(now)
            if isinstance(action, Draw) and len(now) == 1 and not self.hot_seat:
                drawn = now[0]  # said to the one person at the keyboard (not where others read along)
        elif isinstance(action, Discard | Knock | CallRummy):
            self.highlight = ()
        self.add_log(describe(action, self.names[seat], before, self.ascii_only, self.lang, drawn))
        if not self.live:
            self.console.print(self.log[-1])
        if rnd.is_over and not was_over:
            self.round_over(rnd)

    def round_over(self, rnd: Round) -> None:
        view = rnd.view(rnd.to_move)
        score = self.scoreboard()
        if self.match.round is not rnd:  # the next hand is dealt: this one's number, as it was shown
            hand = len(self.match.rounds) - 1
            number, again = self.match.hand_in_series(hand), self.match.times_dealt_again(hand)
            redeal = hand in self.match.redealt
            score = dataclasses.replace(score, round_number=number, redealt=again, deals_again=redeal)
        self.save()
        if self.console.is_terminal:
            # The clear would hide the hand's last moves (such as the discards after a knock): repeat them.
            self.console.clear()
            for entry in self.log[-moves_to_repeat(rnd) :]:
                self.console.print(entry)
        self.console.print(screen.result_table(view, self.names, score, self.ascii_only, self.lang))
        for line in self.no_offer_notes():
            self.console.print(Text(line, style="yellow"))
        self.highlight = ()
        self.shown_seat = None
        if self.match.is_over:
            return
        self.wait_for_enter(
            self.t(
                "Press Enter for the next hand (or type quit) > ",
                "Enter für das nächste Spiel (oder „ende“) > ",
            )
        )
        self.log = []

    def show_draw(self) -> None:
        """The draw for the first dealer on a screen of its own, before a bot makes the first move:
        the bots' moves would push it out of the log before the person at the terminal read it. On a
        terminal it waits for Enter; on a pipe (a script, a test) it is printed and play goes on."""
        m = self.match
        if not self.draw or m.history or self.players[m.to_move].bot is None:
            return
        viewer = self.humans[0] if not self.hot_seat else None
        log = [Text(line, style="yellow") for line in self.draw]
        board = dataclasses.replace(self.board(viewer), log=log)
        if self.console.is_terminal:
            self.console.clear()
        self.console.print(screen.render_board(board, self.deadwood(viewer)))
        if self.console.is_terminal:
            first = self.names[m.to_move]
            self.wait_for_enter(
                self.t(
                    f"{first} moves first: press Enter to start (or type quit) > ",
                    f"{first} fängt an: Enter startet (oder „ende“) > ",
                )
            )

    def wait_for_enter(self, prompt: str) -> None:
        """Ask ``prompt`` until the answer is a bare Enter; a quit word stops the game. Anything else
        (a move typed ahead) is not taken as Enter: the player is told it was ignored and asked again."""
        while True:
            answer = self.ask(prompt)
            if is_quit(answer):
                raise QuitGame("quit")
            if not answer.strip():
                return
            typed = clip(" ".join(answer.split()))
            self.console.print(
                Text(
                    self.t(
                        f"'{typed}' ignored: only Enter goes on here (or type quit)",
                        f"„{typed}“ ignoriert: hier geht es nur mit Enter weiter (oder „ende“)",
                    ),
                    style="yellow",
                )
            )

    def no_offer_notes(self) -> list[str]:
        """Why a person whose total is in the buy-back window gets no offer (e.g. the one buy-back used)."""
        m = self.match
        if not m.is_rubber or m.is_over:
            return []
        low, high = m.rules.buyback_window
        notes = []
        for s in self.humans:
            why = m.no_buyback_offer(s)
            if why and low < m.totals[s] < high and s not in m.pending_buyback:
                notes.append(
                    self.t("No buy-back offer: ", "Kein Rückkaufangebot: ")
                    + localize_reason(why, self.lang, self.names)
                )
        return notes

    def bot_move(self, seat: int, bot: Bot) -> None:
        m = self.match
        rng = self.bot_rng(seat)
        player = self.players[seat]

        def failed(problem: str) -> BotFailed:
            return BotFailed(seat, player.label, self.names[seat], problem)

        try:  # a bot is code from anywhere (a plug-in): what it does wrong stops the game, named
            # Bots that read the match state for buy-back decisions get it through the bots' helper.
            action = match_action(bot, m, rng)
        except Exception as exc:
            raise failed(f"raised {type(exc).__name__}: {exc}") from exc
        if not isinstance(action, (Action, str)):
            raise failed(f"answered {type(action).__name__}, not an action")
        try:  # the engine refuses an action before it changes anything
            self.apply(seat, Action.parse(action) if isinstance(action, str) else action)
        except RummyError as exc:
            raise failed(f"chose {action!s:.40}: {exc}") from exc
        if m.is_over:
            return
        if self.live and self.match.round.view(seat).phase is not Phase.OVER:
            viewer = self.humans[0] if not self.hot_seat else None
            self.show(viewer)
            self.sleep(self.delay)

    def hand_over(self, seat: int) -> None:
        self.clear_all()
        name = self.names[seat]
        self.console.print(
            Text(
                self.t(
                    f"Hand over to {name}: the other players look away.",
                    f"Weiter an {name}: die anderen schauen weg.",
                ),
                style="bold yellow",
            )
        )
        self.wait_for_enter(
            self.t(
                f"{name}, press Enter to see your hand (or type quit) > ",
                f"{name}, Enter zeigt deine Hand (oder „ende“) > ",
            )
        )

    def status(self, seat: int) -> Text:
        """The status line of ``seat``, the seat to move (:func:`rummykit.cli.prompts.turn_prompt`)."""
        name = self.names[seat] if self.hot_seat else None
        return turn_prompt(self.match, seat, name, self.lang, self.names)

    def human_turn(self, seat: int) -> None:
        if self.hot_seat and self.shown_seat != seat:
            self.hand_over(seat)
        self.shown_seat = seat
        self.save()
        self.show(seat, self.status(seat))
        while True:
            line = self.ask("> ")
            message = self.handle(seat, line)
            if message is None:
                return
            if message:
                self.console.print(message)

    def handle(self, seat: int, line: str) -> RenderableType | None:
        """Act on one typed line: ``None`` when a move was made, else what to print."""
        m = self.match
        view = m.round.view(seat)
        hand = screen.sorted_hand(view.hand, self.sort_mode)
        try:
            parsed = parse_input(
                line,
                hand,
                view.opened[seat] or view.rules.is_gin,
                lang=self.lang,
                letters=self.letters,
                gin=view.rules.is_gin,
                top=view.top_discard,
            )
        except NotationError as exc:
            return Text(self.t("✗ not a move: ", "✗ kein Zug: ") + short_error(exc, self.lang), style="red")
        if isinstance(parsed, str):
            return self.meta(seat, parsed)
        return self.move(seat, parsed)

    def move(self, seat: int, action: Action, auto: bool = False) -> RenderableType | None:
        """Apply the player's move (``auto``: the solver's, chosen by ``auto``): ``None`` when done,
        else the one-line reason it was refused. The move is marked as ``auto``'s, or as hinted when a
        hint was shown for this decision (:attr:`marks`)."""
        m = self.match
        before = len(m.actions)
        try:
            self.apply(seat, action)
        except IllegalActionError as exc:
            name = rule_name(exc.rule, self.lang)
            rule = f" [{name}]" if name else ""
            text = localize_error(exc, self.lang, self.names)
            arranged = arranged_melds(action, m.rules)
            order = " | ".join(cards_glyphs(list(cards)) for cards in arranged or ())
            if order and order not in text:  # the engine names a reversed run's order itself
                rule += self.t(f" · did you mean {order}?", f" · meintest du {order}?")
            return Text(self.t("✗ not allowed: ", "✗ nicht erlaubt: ") + text + rule, style="red")
        except RummyError as exc:
            return Text(self.t("✗ not a move: ", "✗ kein Zug: ") + short_error(exc, self.lang), style="red")
        if auto:
            self.marks.stand_in.add(before + 1)
        elif self.hint_at == before:
            self.marks.hinted.add(before + 1)
        if m.is_over:
            return None
        if (m.to_move != seat or m.round.view(seat).phase is Phase.OVER) and self.hot_seat:
            self.shown_seat = None
        return None

    def meta(self, seat: int, command: str) -> RenderableType | None:
        m = self.match
        t = self.t
        if command == "help":
            legal, lang = m.legal_actions(), self.lang
            lines = [
                # German: the moves with German words, as typed (the notation's English words work too).
                t("Legal moves:", "Erlaubte Züge (so eintippen wie hier; draw, layoff … gehen auch):"),
                # In the table's court letters (a German hand shows D♦ where the notation says QD).
                *(notation_letters(line, self.letters) for line in legal_moves_lines(legal, m.rules, lang)),
                short_help(self.lang, m.rules, self.practice),
            ]
            return Text("\n".join(lines))
        if command == "hint":
            view = m.round.view(seat)
            legal = m.legal_actions()
            suggestion = hint(view, legal, m.round if not m.pending_buyback else None, self.lang)
            done = view.gin.layoffs_done if view.gin is not None else None
            table = [tm.meld for tm in view.melds]
            text = suggestion.text(self.lang, view.top_discard, view.phase, done, table, view.rules)
            line = screen.faces_in(text, self.ascii_only)
            self.hint_at = len(m.actions)
            return Text.assemble((t("hint: ", "Tipp: "), "bold green"), line)
        if command == "auto":
            legal = m.legal_actions()
            suggestion = hint(
                m.round.view(seat), legal, m.round if not m.pending_buyback else None, self.lang
            )
            if not suggestion.actions:
                return Text(t("✗ no suggestion", "✗ kein Vorschlag"), style="red")
            return self.move(seat, suggestion.actions[0], auto=True)
        if command == "sort":
            self.sort_mode = "rank" if self.sort_mode == "suit" else "suit"
            return None
        if command == "log":
            return Text("\n").join(self.log[-20:]) if self.log else Text(t("no moves yet", "noch keine Züge"))
        if command == "undo":
            return self.undo(seat)
        if command.startswith("rules"):
            return self.show_rules(seat, command.partition(" ")[2] or self.lang)
        raise QuitGame("quit")

    def show_rules(self, seat: int, lang: str) -> RenderableType:
        """This table's rules (house rules included) a page at a time, then the table again."""
        from rich.markdown import Markdown

        from rummykit.explain import explain

        text = explain(self.match.rules, lang)
        clear = self.console.clear if self.console.is_terminal else None
        page = screen.Lettered(Markdown(text), self.letters)
        pager.page(self.console, page, self.ask, "rules" if lang == "en" else "Regeln", clear, self.lang)
        self.show(seat, self.status(seat))
        return ""

    def undo(self, seat: int) -> RenderableType | None:
        t = self.t
        if not self.practice:
            return Text(
                t(
                    "✗ undo is only available in practice games (rummykit play --practice)",
                    "✗ Zurücknehmen gibt es nur in Übungsspielen (rummykit play --practice)",
                ),
                style="red",
            )
        m = self.match
        seats = [e.seat for e in m.history if isinstance(e, (Event, MatchEvent))]
        mine = [i for i, s in enumerate(seats) if s in self.humans]
        if not mine:
            return Text(t("✗ nothing to undo", "✗ nichts zurückzunehmen"), style="red")
        record = Record.from_match(m)
        keep = mine[-1]
        undone = record.actions[keep:]
        self.match = dataclasses.replace(record, actions=record.actions[:keep]).replay()
        self.marks.keep(keep)
        self.hint_at = None
        self.highlight = ()
        if self.lang == "de":  # in words, as the German log says moves
            events = [e for e in m.history if isinstance(e, (Event, MatchEvent))][keep:]
            words = [
                describe_action(a, "de", form="verb", rules=m.rules, freed=_undone_freed(m, e))
                for a, e in zip(undone, events, strict=True)
            ]
        else:
            words = [str(a) for a in undone]
        self.add_log(Text(t("undone: ", "zurückgenommen: ") + "; ".join(words), style="yellow"))
        self.shown_seat = self.match.to_move
        return None


def _undone_freed(match: Match, event: Event | MatchEvent) -> int | None:
    """How many jokers the joker exchange of ``event`` took (read on the table as it lay before it),
    for the words of an undo: ``Kreuz-5 Kreuz-7 gegen zwei Joker von Figur 1 tauschen``."""
    if not isinstance(event, Event):
        return None
    for rnd in match.rounds:
        history = rnd.history
        if event.index < len(history) and history[event.index] is event:
            return rnd.jokers_freed(event)
    return None


# The command ----------------------------------------------------------------------------------------
def _fail(message: str, letters: str = "en") -> typer.Exit:
    """One ``error:`` line on stderr, its cards in the rank ``letters`` the table shows (``B♥`` in
    German), and the exit of every refused command line (2)."""
    typer.echo(f"error: {message_letters(message, letters)}", err=True)
    return typer.Exit(2)


def _read_line_factory(console: Console) -> Callable[[str], str]:
    def read(prompt: str) -> str:
        return console.input(Text(prompt, style="bold"))

    return read


GAME_OPTIONS: Final = {
    "rules_text": "--rules",
    "assignments": "--set",
    "rules_file": "--rules-file",
    "players": "--players",
    "humans": "--humans",
    "names": "--names",
    "bots": "--bots",
    "seed": "--seed",
    "dealer": "--dealer",
    "new": "--new",
}
"""The options that make a new game; a resumed game is the saved one, so ``--resume`` refuses them
(the options of how it is shown and saved still apply)."""


def _new_game_options(ctx: typer.Context) -> list[str]:
    """The :data:`GAME_OPTIONS` given on the command line or from the environment."""
    given = ("COMMANDLINE", "ENVIRONMENT")  # by name: typer carries its own copy of click's enum
    sources = {parameter: ctx.get_parameter_source(parameter) for parameter in GAME_OPTIONS}
    return [GAME_OPTIONS[p] for p, source in sources.items() if source is not None and source.name in given]


def play_command(
    ctx: typer.Context,
    rules_text: Annotated[
        str, typer.Option("--rules", "-r", help="Preset, alias or rules text form, e.g. viennese.")
    ] = "german",
    assignments: Annotated[
        list[str] | None,
        typer.Option("--set", "-s", metavar="OPTION=VALUE", help="Change a rule option (repeatable)."),
    ] = None,
    rules_file: Annotated[Path | None, typer.Option("--rules-file", help="Load the rules from TOML.")] = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help=f"Players at the table. Default: {DEFAULT_PLAYERS}, or the nearest count the game allows "
            "(gin: 2).",
        ),
    ] = None,
    humans: Annotated[
        int, typer.Option("--humans", help="People at this terminal (hot-seat when more than one).")
    ] = 1,
    names: Annotated[str | None, typer.Option("--names", help="Comma-separated names of the people.")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="Bot kinds, comma-separated, search with an optional level, e.g. 'search:hard,greedy' "
            "(the last one repeats). Default: search:medium. "
            + "; ".join(f"{kind} {line}" for kind, line in BOT_KIND_LINES.items())
            + ". Levels of search: "
            + "; ".join(LEVEL_LINES.values())
            + ".",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deals and the bots.")] = None,
    dealer: Annotated[
        int | None,
        typer.Option(
            "--dealer",
            help="Seat (1 = the first player) of the first dealer. Default: the players draw for it.",
            show_default=False,
        ),
    ] = None,
    fast: Annotated[bool, typer.Option("--fast", help="Show bot moves without pauses.")] = False,
    delay: Annotated[float, typer.Option("--delay", help="Seconds between bot moves.")] = DEFAULT_DELAY,
    practice: Annotated[bool, typer.Option("--practice", help="Allow 'undo'.")] = False,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Suit letters instead of symbols.")] = False,
    letters: LettersOption = None,
    save_dir: Annotated[
        Path | None, typer.Option("--save-dir", help="Folder for the saved game records.")
    ] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not save the game.")] = False,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue a saved game (a file in the save folder).")
    ] = None,
    new: Annotated[
        bool, typer.Option("--new", help="Start a new game without offering the last unfinished one.")
    ] = False,
    lang_option: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help="Language of the game: en or de (German). Default: the locale (LC_ALL, LC_MESSAGES, LANG).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play a match in the terminal: you against bots, or several people taking turns (hot-seat)."""
    from rummykit.cli import build_rules
    from rummykit.cli.checks import writable_folder

    lang = play_language(lang_option)
    t = Lang(lang)
    letters = card_letters(letters, lang)
    console = Console(highlight=False)
    if not 0 <= delay <= MAX_DELAY:  # also refuses nan, which compares false
        raise _fail(
            t(
                f"--delay must be between 0 and {MAX_DELAY:g} seconds, not {delay:g}",
                f"--delay: zwischen 0 und {MAX_DELAY:g} Sekunden, nicht {delay:g}",
            )
        )
    pause = 0.0 if fast else delay
    saved = None
    if resume is not None:
        clash = _new_game_options(ctx)
        if clash:
            raise _fail(
                t(
                    f"--resume continues the saved game as it was saved; leave out {', '.join(clash)}",
                    f"--resume setzt die gespeicherte Partie unverändert fort; {', '.join(clash)} "
                    "bitte weglassen",
                )
            )
        saved = _load_for_resume(resume, lang, letters)
    try:
        rules: Rules = build_rules(None if rules_file else rules_text, rules_file, assignments or [])
    except RummyError as exc:
        raise _fail(localize_error(exc, lang), letters) from None
    if saved is None and not new and not no_save:
        wanted = _wanted_game(_new_game_options(ctx), rules, players)
        if wanted is not None:
            saved = _offer_unfinished(console, games_dir(save_dir), lang, wanted)
    if saved is not None:
        read = _read_line_factory(console)
        session = resumed_session(
            saved,
            console,
            read,
            practice=practice,
            delay=pause,
            ascii_only=ascii_only,
            save=not no_save,
            lang=lang,
            letters=letters,
        )
        raise typer.Exit(session.run())

    if players is None:
        players = min(max(DEFAULT_PLAYERS, rules.min_players), rules.max_players)
    try:
        rules.check_table(players)
    except RummyError as exc:
        raise _fail(localize_error(exc, lang).removeprefix("players: "), letters) from None
    if dealer is not None and not 1 <= dealer <= players:
        raise _fail(
            t(
                f"--dealer must be a seat from 1 to {players}, not {dealer}",
                f"--dealer: ein Platz von 1 bis {players}, nicht {dealer}",
            )
        )
    if not 1 <= humans <= players:
        raise _fail(
            t(
                f"--humans must be between 1 and --players ({players}), not {humans}",
                f"--humans: zwischen 1 und --players ({players}), nicht {humans}",
            )
        )
    try:
        kinds, notice = resolve_bots(bots, players - humans, bot_kinds())
        bot_list = [make_bot(k) for k in kinds]
        for bot in bot_list:
            check_seat(bot, rules, players)  # a policy for another table, OpenSpiel's bot at German
    except RummyError as exc:  # an unknown bot, the policy bot without a working file, a bot refusing
        raise _fail(localize_error(exc, lang), letters) from None
    said = [*shadow_notices(kinds), *(seat_notice(bot, rules) for bot in bot_list)]  # English, as arena
    bot_notices = list(dict.fromkeys(n if lang == "en" else localize_note(n, lang) for n in said if n))
    people = [name for n in (names or "").split(",") if (name := person_name(n))]
    seats: list[Player] = []
    for s in range(humans):
        default = t("You", "Du") if humans == 1 else t(f"Player {s + 1}", f"Spieler {s + 1}")
        seats.append(Player(people[s], typed=True) if s < len(people) else Player(default, typed=False))
    for i, (kind, bot) in enumerate(zip(kinds, bot_list, strict=True)):
        seats.append(Player(f"Bot {humans + i + 1}", bot, kind, typed=False))
    try:
        match = Match.new(rules, players, seed=seed, dealer=None if dealer is None else dealer - 1)
    except RummyError as exc:
        raise _fail(localize_error(exc, lang), letters) from None
    if not no_save:
        problem = writable_folder(games_dir(save_dir), "--save-dir")
        if problem:
            raise _fail(problem)  # names the folder and the system's reason: kept as the system says it
    save_path = None
    if not no_save:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        save_path = games_dir(save_dir) / f"{stamp}-{rules.name}-seed{match.seed}.json"
    notices = ([notice] if notice else []) + bot_notices
    draw = fit_lines(seat_draw_lines(match, [p.name for p in seats], lang), DRAW_WIDTH)
    notices += draw
    bots_line = (
        f"{screen.count(len(kinds), 'bot', lang)}: {', '.join(sorted({bot_name(k, lang) for k in kinds}))}"
        if kinds
        else t("no bots", "keine Bots")
    )
    notices.append(f"{bots_line} · {t('seed', 'Startwert')} {match.seed}")
    notices.append(rules_notice(lang))
    session = PlaySession(
        match,
        seats,
        console,
        _read_line_factory(console),
        practice=practice,
        save_path=save_path,
        notices=notices,
        delay=pause,
        ascii_only=ascii_only,
        lang=lang,
        letters=letters,
        draw=draw,
    )
    raise typer.Exit(session.run())


LettersOption = Annotated[
    str | None,
    typer.Option(
        "--letters",
        help="Rank letters of the cards shown: de (B, D, K, A: Bube, Dame, König, Ass) or en "
        "(J, Q, K, A). Default: de when the game is in German. Both are understood when you type.",
        show_default=False,
    ),
]
"""``--letters`` of ``play`` and ``replay`` (read with :func:`card_letters`)."""

LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="Language: en or de (German). Default: the locale (LC_ALL, LC_MESSAGES, LANG).",
        show_default=False,
    ),
]
"""``--lang`` of ``replay`` and ``sheet`` (read with :func:`play_language`)."""


def card_letters(option: str | None, lang: str) -> str:
    """The rank letters of ``--letters`` (``de`` or ``en``), else the language's default.

    Raises:
        typer.Exit: ``--letters`` names no set of letters.
    """
    if option is None:
        return screen.default_letters(lang)
    if option.strip().lower() not in CARD_LETTERS:
        raise _fail(
            Lang(lang)(
                f"--letters: no card letters {option[:20]!r}; choose de (B, D, K, A) or en (J, Q, K, A)",
                f"--letters: keine Kartenbuchstaben {option[:20]!r}; "
                "wähle de (B, D, K, A) oder en (J, Q, K, A)",
            )
        )
    return option.strip().lower()


def play_language(option: str | None, environ: dict[str, str] | None = None) -> str:
    """The language of the game: ``--lang`` when given (``de``, ``de_DE.UTF-8`` …), else the locale.

    Raises:
        typer.Exit: ``--lang`` names a language the game does not speak.
    """
    if option is None:
        return lang_from_env(os.environ if environ is None else environ)
    lang = normalize_lang(option)
    if lang is None:
        raise _fail(f"--lang: no language {option[:20]!r}; languages: en, de")
    return lang


DRAW_WIDTH: Final = screen.BOARD_WIDTH - 2
"""The widest line of the draw for the first dealer (a log line longer than the screen is cut)."""
_AFTER_COMMA: Final = re.compile(r"(?<=[,;]) ")


def fit_lines(lines: Sequence[str], width: int) -> list[str]:
    """``lines`` broken after a comma or semicolon where one is wider than ``width`` (the draw of six
    players is some 120 characters), the rest of a line indented: the board shows each log line on
    one line and cuts what is longer."""
    out: list[str] = []
    for line in lines:
        current = ""
        for piece in _AFTER_COMMA.split(line):
            if current and len(current) + 1 + len(piece) > width:
                out.append(current)
                current = "  " + piece
            else:
                current = f"{current} {piece}" if current else piece
        out.append(current)
    return out


def seat_draw_lines(match: Match, names: Sequence[str], lang: str) -> list[str]:
    """The draw for the first dealer, one line per round (``Anna zieht K♠ und gibt zuerst``)."""
    draw = match.seat_draw
    if draw is None:
        return []
    if lang != "de":
        return draw.describe(names)

    def verb(name: str, third: str, second: str) -> str:
        return second if name == "Du" else third

    dealer = names[draw.dealer]
    if draw.method == "random":
        return [f"Plätze ausgelost: {dealer} {verb(dealer, 'gibt', 'gibst')} zuerst"]
    rounds = draw.drawn()
    lines = []
    for i, cards in enumerate(rounds):
        parts = [f"{names[s]} {verb(names[s], 'zieht', 'ziehst')} {screen.card_face(c)}" for s, c in cards]
        if i == len(rounds) - 1:
            if draw.dealer_drew_last:
                lines.append(", ".join(parts) + f" und {verb(dealer, 'gibt', 'gibst')} zuerst")
            else:
                assert draw.dealer_card is not None
                card = screen.card_face(draw.dealer_card)
                lines.append(
                    ", ".join(parts) + f"; {dealer} {verb(dealer, 'gibt', 'gibst')} zuerst mit {card}"
                )
        else:
            lines.append(", ".join(parts) + "; Gleichstand: noch einmal")
    return lines


def _load_for_resume(path: Path, lang: str = "en", letters: str = "en") -> SavedGame:
    t = Lang(lang)
    try:
        saved = load_saved(path)
    except RummyError as exc:
        raise _fail(
            t(
                f"cannot resume {shown(path.name)}: {localize_error(exc, lang)}",
                f"{shown(path.name)} kann nicht fortgesetzt werden: {localize_error(exc, lang)}",
            ),
            letters,
        ) from None
    if saved.is_finished:
        name, whole = shown(path.name), shown(str(path))
        raise _fail(
            t(
                f"{name} is a finished game; 'rummykit replay {whole}' shows it",
                f"{name} ist eine beendete Partie; „rummykit replay {whole}“ zeigt sie",
            )
        )
    return saved


FRESH_GAME_OPTIONS: Final = frozenset({"--humans", "--names", "--bots", "--seed", "--dealer"})
"""Options that only a new game can honour: given any of them, no unfinished game is offered."""


def _wanted_game(
    given: Sequence[str], rules: Rules, players: int | None
) -> Callable[[SavedGame], bool] | None:
    """Which unfinished game ``rummykit play`` may offer, given the new-game options on the command line.

    Without any, the most recent unfinished game of any kind. ``--rules``, ``--set``, ``--rules-file``
    or ``--players`` ask for a kind of game: only an unfinished game under exactly those rules (and at
    that many seats) is offered, so ``--rules viennese`` never offers a German game. A seat's bot, a
    name, a seed or a dealer describe a new game (``None``: offer nothing).
    """
    if FRESH_GAME_OPTIONS & set(given):
        return None
    if not given:
        return lambda saved: True
    return lambda saved: saved.match.rules == rules and players in (None, saved.match.players)


def _offer_unfinished(
    console: Console, folder: Path, lang: str = "en", wanted: Callable[[SavedGame], bool] = lambda saved: True
) -> SavedGame | None:
    """Offer the most recent unfinished game that is ``wanted``; it, when the player says yes (Enter),
    else ``None``."""
    t = Lang(lang)
    unreadable: list[tuple[Path, RummyError]] = []
    candidate = latest_unfinished(folder, wanted, unreadable)
    for path, exc in unreadable:  # an unfinished game that no longer loads is not dropped unsaid
        reason = localize_error(exc, lang)
        said = t(
            f"note: {shown(path.name)} cannot be resumed: {reason}",
            f"Hinweis: {shown(path.name)} lässt sich nicht fortsetzen: {reason}",
        )
        console.print(Text(said, style="yellow"))
    if candidate is None:
        return None
    console.print(Text(t("Unfinished game: ", "Unbeendete Partie: ") + candidate.summary(lang), style="bold"))
    console.print(Text(f"({shown(str(candidate.path))})", style="dim"))
    try:
        answer = console.input(t("Resume it? [Y/n] ", "Weiterspielen? [J/n] "))
    except (EOFError, KeyboardInterrupt):
        console.print(
            Text(t("No answer: nothing started.", "Keine Antwort: nichts gestartet."), style="yellow")
        )
        raise typer.Exit(0) from None
    return candidate if answer.strip().lower() in ("", "y", "yes", "j", "ja") else None


def _older_notice(saved: SavedGame, lang: str) -> list[str]:
    """One short line for a save of an older rummykit (the log shows one line per entry; the notes
    themselves are long): where to read how it was read and what may play differently now."""
    if not saved.older_notes:
        return []
    name = shown(saved.path.name)
    return [
        Lang(lang)(
            f"an older save: 'rummykit replay {name}' says how it was read",
            f"ein älterer Spielstand: „rummykit replay {name}“ sagt, wie er gelesen wurde",
        )
    ]


def resumed_session(
    saved: SavedGame,
    console: Console,
    read_line: Callable[[str], str],
    *,
    practice: bool = False,
    delay: float = 0.0,
    ascii_only: bool = False,
    save: bool = True,
    lang: str = "en",
    letters: str | None = None,
) -> PlaySession:
    """A session that continues ``saved`` where it stopped, saving into the same file (unless ``save``
    is false).

    Raises:
        typer.Exit: a seat's bot kind is not available here, or its bot cannot play this table
            (:func:`check_seat`, as for a new game: refused before the first move, not at its turn).
    """
    seats: list[Player] = []
    m = saved.match
    typed = saved.typed or (True,) * len(saved.names)
    # A default name in the language played now: a game begun in English goes on in German with "Du".
    for name, label, given in zip(saved.names_in(lang), saved.players, typed, strict=True):
        if label == HUMAN:
            seats.append(Player(name, typed=given))
            continue
        try:
            bot = make_bot(label)
            check_seat(bot, m.rules, m.players)  # a save may seat OpenSpiel's gin bot at a German table
            seats.append(Player(name, bot, label, typed=given))
        except RummyError as exc:  # an unknown bot, the policy bot without a working file, a refusal
            said = localize_error(exc, lang)
            raise _fail(
                Lang(lang)(
                    f"cannot resume {shown(saved.path.name)}: {said}",
                    f"{shown(saved.path.name)} kann nicht fortgesetzt werden: {said}",
                ),
                letters or screen.default_letters(lang),
            ) from None
    return PlaySession(
        m,
        seats,
        console,
        read_line,
        delay=delay,
        practice=practice or saved.practice,
        ascii_only=ascii_only,
        save_path=saved.path if save else None,
        notices=[
            Lang(lang)(
                f"resumed {shown(saved.path.name)}: hand {m.hand_number} · seed {m.seed}",
                f"fortgesetzt: {shown(saved.path.name)}, Spiel {m.hand_number} · "
                f"Startwert {m.seed}",
            ),
            rules_notice(lang),
            *_older_notice(saved, lang),
        ],
        lang=lang,
        letters=letters,
        marks=saved.marks,
    )
