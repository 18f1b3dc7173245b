"""What a player types at the terminal: the short forms, the action notation and the meta commands.

Short forms select cards by their position in the hand as shown (positions count from 1, in the
displayed sort order): ``d`` draw, ``t`` take, ``m 1 2 3`` meld (or open), ``l 4 2`` lay card 4 off
on meld 2, ``x 5`` discard, ``k 5`` knock, ``r 5`` call Rummy, ``b`` buy back. A line that starts with
an action's verb is read as the notation of :mod:`rummykit.actions` (``discard QS``); any other
first word is refused as an unknown command, pointing at ``help``. Meta commands (``help``, ``hint``,
``sort``, ``undo``, ``log``, ``rules``, ``quit`` …) are returned by name.

A stranger types this input: a line is at most :data:`MAX_LINE` characters, and an error message
repeats at most :data:`MAX_ECHO` characters of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from rummykit.actions import ACTION_VERBS, Action
from rummykit.cards import Card
from rummykit.errors import NotationError
from rummykit.rules import Rules

MAX_LINE: Final = 200
"""Longest input line read as a move; longer lines are refused without being echoed back."""
MAX_ECHO: Final = 60
"""Longest piece of the player's input repeated in an error message."""
_LONG_QUOTE: Final = re.compile(rf"'([^']{{{MAX_ECHO + 1},}})'")
"""A quoted piece of input longer than :data:`MAX_ECHO` inside an error message."""

META_COMMANDS: Final = {
    "help": "help",
    "?": "help",
    "moves": "help",
    "hint": "hint",
    "auto": "auto",
    "sort": "sort",
    "undo": "undo",
    "log": "log",
    "rules": "rules",
    "regeln": "rules de",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    # German words for the same commands.
    "hilfe": "help",
    "züge": "help",
    "tipp": "hint",
    "sortieren": "sort",
    "zurück": "undo",
    "protokoll": "log",
    "ende": "quit",
    "beenden": "quit",
}
SHORT_VERBS: Final = {
    "d": "draw",
    "t": "take",
    "x": "discard",
    "m": "meld",
    "l": "layoff",
    "lay": "layoff",
    "k": "knock",
    "r": "rummy",
    "b": "buyback",
    # The German verbs of the prompts and the help ("ziehen (d)"), for the same actions.
    "ziehen": "draw",
    "nehmen": "take",
    "aufnehmen": "take",
    "auslegen": "meld",
    "anlegen": "layoff",
    "tauschen": "swap",
    "tausche": "swap",
    "abwerfen": "discard",
    "klopfen": "knock",
    "passen": "pass",
    "zurückkaufen": "buyback",
    "ablehnen": "decline",
}


def _position_card(token: str, hand: Sequence[Card]) -> str:
    n = int(token)
    if not 1 <= n <= len(hand):
        raise NotationError(f"no card at position {n}: your hand has {len(hand)} cards (1–{len(hand)})")
    return str(hand[n - 1])


def _cards_by_position(words: Sequence[str], hand: Sequence[Card]) -> list[str]:
    """Replace position numbers by the cards at those positions (a number after ``on`` is a meld)."""
    out: list[str] = []
    for i, w in enumerate(words):
        if w.isdigit() and not (i > 0 and words[i - 1].lower() == "on"):
            out.append(_position_card(w, hand))
        else:
            out.append(w)
    return out


def parse_input(text: str, hand: Sequence[Card], opened: bool) -> Action | str:
    """A typed line as an action, or the name of a meta command (``help``, ``hint`` …).

    ``hand`` is the hand in display order (positions count from 1); ``opened`` chooses between
    ``open`` and ``meld`` for the short form ``m``.

    Raises:
        NotationError: the line is neither a command nor an action.
    """
    if len(text) > MAX_LINE:
        raise NotationError(f"that line is {len(text)} characters long; a move is at most {MAX_LINE}")
    line = " ".join(text.replace("|", " | ").split())
    if not line:
        raise NotationError("type a move, or 'help' for the legal moves")
    first, _, rest = line.partition(" ")
    verb = first.lower()
    if verb in META_COMMANDS and not rest:
        return META_COMMANDS[verb]
    if verb == "rules" and rest.lower() in ("en", "de"):
        return f"rules {rest.lower()}"
    if verb in META_COMMANDS:
        raise NotationError(f"{first!r} takes nothing after it")
    verb = SHORT_VERBS.get(verb, verb)
    if verb not in ACTION_VERBS:
        raise NotationError(f"unknown command {first!r}; 'help' lists your moves and the short forms")
    words = rest.split()
    if verb == "meld" and not opened:
        verb = "open"
    if verb == "layoff" and len(words) >= 2 and words[1].lower() != "on":
        words.insert(1, "on")
    if verb in ("discard", "knock", "rummy", "open", "meld", "layoff", "swap"):
        words = _cards_by_position(words, hand)
    return Action.parse(" ".join([verb, *words]))


def clip(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, so no input is echoed back at length."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_error(exc: Exception, lang: str = "en") -> str:
    """A notation error in one short line in ``lang`` (the card-format reminder shortened, quoted
    input clipped)."""
    from rummykit.i18n import localize_error

    text = _LONG_QUOTE.sub(lambda m: f"'{clip(m.group(1))}'", localize_error(exc, lang))
    if text.startswith("not a card:"):
        text = text.split(" (", 1)[0] + " (cards: QS, 10H, JK; or a position)"
    if text.startswith("Keine Karte:"):
        text = text.split(" (", 1)[0] + " (Karten: DS, 10H, JK; oder ihre Stelle)"
    return clip(text, 2 * MAX_ECHO + 60)


SHORT_FORMS: Final[dict[str, tuple[str, str]]] = {
    "d": ("d draw", "d ziehen"),
    "t": ("t take", "t von der Ablage nehmen"),
    "m": (
        "m 1 2 3 meld/open cards 1 2 3 (| between melds)",
        "m 1 2 3 Karten 1 2 3 auslegen (| zwischen Figuren)",
    ),
    "l": ("l 4 2 lay card 4 off on meld 2", "l 4 2 Karte 4 an Figur 2 anlegen"),
    "x": ("x 5 discard card 5", "x 5 Karte 5 abwerfen"),
    "k": ("k 5 knock", "k 5 klopfen"),
    "r": ("r 5 rummy", "r 5 Rummy"),
    "gin k": ("k knock, k 5 knock discarding card 5", "k klopfen, k 5 klopfen und Karte 5 abwerfen"),
    "gin m": ("m 1 2 3 meld cards 1 2 3 after a knock", "m 1 2 3 Karten 1 2 3 nach dem Klopfen auslegen"),
    "gin l": ("l 4 lay card 4 off", "l 4 Karte 4 anlegen"),
    "pass": ("pass", "pass (passen)"),
}
"""The short forms in English and German, by key; :func:`short_help` lists those of the game."""
SWAP_FORMS: Final[dict[str, tuple[str, str]]] = {
    "hand": (
        "swap 4 on 2 swap card 4 for meld 2's joker (it goes to your hand)",
        "swap 4 on 2 Karte 4 gegen den Joker von Figur 2 tauschen (er kommt auf die Hand)",
    ),
    "new_meld_same_turn": (
        "swap 4 on 2 then meld 5 6 JK swap card 4 for meld 2's joker and meld it at once with cards 5 6",
        "swap 4 on 2 then meld 5 6 JK Karte 4 gegen den Joker von Figur 2 tauschen und ihn "
        "gleich mit den Karten 5 und 6 auslegen",
    ),
    "any_meld_same_turn": (
        "swap 4 on 2 then meld 5 6 JK swap card 4 for meld 2's joker and meld it at once with cards 5 6 "
        "(or lay it off: … then layoff JK on 3)",
        "swap 4 on 2 then meld 5 6 JK Karte 4 gegen den Joker von Figur 2 tauschen und ihn "
        "gleich mit den Karten 5 und 6 auslegen (oder anlegen: … then layoff JK on 3)",
    ),
}
"""The joker exchange in the short help, by ``exchanged_joker_destination``: where the freed joker
must be laid in the same turn, the example lays it, as a bare swap is refused there."""
COMMANDS_HELP: Final = (
    "sort · hint · auto (play the hint) · undo · log · rules (regeln: German) · quit",
    "sortieren · tipp · auto (Tipp spielen) · zurück · protokoll · regeln (rules en: Englisch) · ende",
)
"""The commands, ``undo`` among them for a practice game (``rummykit play --practice``)."""


def short_help(lang: str = "en", rules: Rules | None = None, practice: bool = True) -> str:
    """The one-paragraph help of the short forms and commands in ``lang``: the short forms of the
    game of ``rules`` (melding games meld and lay off, knock games knock and call Rummy, gin knocks,
    melds after the knock, lays off and passes), or all of them without ``rules``; ``undo`` only in
    a ``practice`` game, the only one that takes a move back."""
    keys: tuple[str, ...]
    german = lang == "de"
    swap: tuple[str, ...] = ()
    if rules is None:
        keys = ("d", "t", "m", "l", "x", "k", "r")
    elif rules.is_gin:
        keys = ("d", "t", "x", "gin k", "gin m", "gin l", "pass")
    elif rules.is_knock_game:
        keys = ("d", "t", "x", "k", "r")
    else:
        keys = ("d", "t", "m", "l", "x")
        if rules.joker_exchange:
            swap = (SWAP_FORMS[rules.exchanged_joker_destination][german],)
    forms = " · ".join([*(SHORT_FORMS[key][german] for key in keys), *swap])
    commands = COMMANDS_HELP[german]
    if not practice:
        commands = commands.replace(" · zurück", "").replace(" · undo", "")
    return ("Kurzformen: " if german else "short forms: ") + forms + " · " + commands


def legal_moves_lines(legal: Sequence[Action], rules: Rules | None = None, lang: str = "en") -> list[str]:
    """The legal moves grouped by kind, discards on one line. With ``rules``, a list of openings
    ends by saying that it shows the best one and the single melds (the engine lists those; any other
    opening that reaches the minimum is accepted as well)."""
    groups: dict[str, list[str]] = {}
    for action in legal:
        verb = str(action).split(" ", 1)[0]
        groups.setdefault(verb, []).append(str(action))
    lines: list[str] = []
    simple = [i for g in groups.values() for i in g if " " not in i]  # draw, take, pass, gin's knock …
    if simple:
        lines.append("  " + "  ·  ".join(simple))
    for verb, items in groups.items():
        items = [i for i in items if " " in i]
        if not items:
            continue
        if verb in ("discard", "knock", "rummy"):
            lines.append(f"  {verb} " + " ".join(i.split(" ", 1)[1] for i in items))
        else:
            lines.extend(f"  {i}" for i in items)
        if verb == "open" and rules is not None and rules.opening_min_points:
            need = rules.opening_min_points
            lines.append(
                f"  (und jedes andere Auslegen ab {need} Punkten)"
                if lang == "de"
                else f"  (and any other opening worth at least {need} points)"
            )
    return lines
