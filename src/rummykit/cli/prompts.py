"""What the terminal says to the player to move, in English and German.

The status line names what the seat may do now with the short forms that do it (``draw (d) or take
(t) the discard``): by the game's family and phase, with gin's own phases (the first upcard, the
wall, the knock and lay-off), and the buy-back offer between hands of a rubber. The notice of the
``rules`` and ``help`` commands, the answers that stop the game at an Enter prompt, and the German
words for why a game stopped are here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

from rummykit.actions import (
    BuyBack,
    CallRummy,
    Discard,
    Knock,
    KnockDeclare,
    LayOffCard,
    MeldAction,
    Pass,
    TakeDiscard,
)
from rummykit.cli.parsing import META_COMMANDS
from rummykit.explain.language import Lang
from rummykit.match import Match
from rummykit.permissions import may_lay_off
from rummykit.views import Phase

PROMPT_WIDTH: Final = 80
"""The terminal width the turn prompt fits in: past it the prompt leaves out the reminder of the commands."""
RULES_NOTICE: Final = "'rules': how to play at this table ('regeln': auf Deutsch) · 'help': your moves"
RULES_NOTICE_DE: Final = "„regeln“: die Regeln dieses Tisches („rules en“: Englisch) · „hilfe“: deine Züge"
STOP_REASONS_DE: Final = {
    "end of input": "Ende der Eingabe",
    "interrupted": "abgebrochen",
    "quit": "auf Wunsch",
    "terminal closed": "Terminal geschlossen",
}
"""Why a game stopped, in German (the English reason is the key)."""

GIN_PROMPTS: Final[dict[Phase, tuple[str, str]]] = {
    Phase.FIRST_UPCARD: ("take the upcard (t) or pass", "die offene Karte nehmen (t) oder passen"),
    Phase.WALL: (
        "the wall: knock (k) with the upcard, or pass",
        "Mauer: mit offener Karte klopfen (k) oder passen",
    ),
}
"""Gin: what the player to move may do in the phases of a fixed choice, in English and German
(``Phase.DRAW`` uses the common prompt; after the draw, the knock and the lay-offs list the moves
legal then). Each fits an 80-column line after "Your turn: " with the keys (``help`` spells out
the moves)."""
GIN_OTHER_PHASES: Final = ("discard (x N) or knock (k)", "abwerfen (x N) oder klopfen (k)")
GIN_WALL_PASS_ONLY: Final = (
    "the wall: pass (the hand is not scored)",
    "Mauer: passen (das Spiel endet ohne Wertung)",
)
"""Gin at the wall when the upcard leaves too much deadwood to knock: passing is all there is."""


def _may_knock(legal: Sequence[object]) -> bool:
    return any(isinstance(action, (Knock, KnockDeclare)) for action in legal)


def rules_notice(lang: str) -> str:
    """The line that points at the ``rules`` and ``help`` commands."""
    return RULES_NOTICE_DE if lang == "de" else RULES_NOTICE


def is_quit(answer: str) -> bool:
    """Whether an answer to an Enter prompt asks to stop the game (quit, q, exit, ende, beenden)."""
    return META_COMMANDS.get(answer.strip().lower()) == "quit"


def _knock_game_moves(legal: Sequence[object], t: Lang) -> str:
    """Knock games after the draw: discarding, and knocking or calling Rummy only when legal (never in
    the extra turns after a knock, RULES.md §4.5)."""
    moves = [t("discard (x N)", "abwerfen (x N)")]
    if any(isinstance(a, Knock) for a in legal):
        moves.append(t("knock (k N)", "klopfen (k N)"))
    if any(isinstance(a, CallRummy) for a in legal):
        moves.append(t("rummy (r N)", "Rummy (r N)"))
    if len(moves) == 1:
        return moves[0]
    return ", ".join(moves[:-1]) + t(" or ", " oder ") + moves[-1]


def _gin_moves(phase: Phase, legal: Sequence[object], t: Lang, layoffs_done: bool = False) -> str:
    """Gin after the draw, the knock and the lay-offs: the moves legal now, and only those (a knock
    offered with 52 deadwood, or lay-offs after passing on them, were refused when typed). Where
    passing is all the defender may do, the line says why (``layoffs_done``: the lay-offs onto the
    knocker's melds are over and the defender's own melds are laid)."""
    if phase is Phase.LAYOFF and list(legal) == [Pass()]:
        if layoffs_done:
            return t("no meld left to lay: pass", "keine Figur mehr auszulegen: passen")
        return t("nothing fits the knocker's melds: pass", "nichts passt an die Figuren: passen")
    moves = []
    if any(isinstance(a, LayOffCard) for a in legal):
        moves.append(t("lay off (l N)", "anlegen (l N)"))
    if any(isinstance(a, Discard) for a in legal):
        moves.append(t("discard (x N)", "abwerfen (x N)"))
    if KnockDeclare() in legal:
        moves.append(t("knock (k; k N discards N)", "klopfen (k; k N wirft N ab)"))
    big_gin = phase is Phase.KNOCK and any(isinstance(a, Discard) for a in legal)  # melds before it
    if any(isinstance(a, MeldAction) for a in legal) and big_gin:
        moves.append(t("lay every card for big gin (m …)", "alle Karten als großes Gin auslegen (m …)"))
    elif any(isinstance(a, MeldAction) for a in legal):
        moves.append(t("meld (m …)", "auslegen (m …)"))
    if Pass() in legal:
        moves.append(t("pass", "passen"))
    listed = moves[0] if len(moves) == 1 else ", ".join(moves[:-1]) + t(" or ", " oder ") + moves[-1]
    if phase is Phase.KNOCK:
        return t(f"after the knock: {listed}", f"Klopfen: {listed}")
    return listed


def turn_prompt(
    match: Match, seat: int, name: str | None, lang: str, names: Sequence[str] | None = None
) -> Text:
    """The status line of ``seat``, the seat to move: what it may do now and the keys for it.

    ``name`` is the player's name at a hot-seat table (``Ben's turn``); ``None`` addresses the one
    person at the terminal (``Your turn``). After a knock the line says who knocked and that this
    is the seat's last turn, naming the knocker by ``names`` (``Bot 2 knocked – your last turn``).
    """
    t = Lang(lang)
    rnd = match.round
    legal = match.legal_actions()
    if BuyBack() in legal:
        cost, score = match.rules.buyback_cost, match.scores[seat]
        target = match.buyback_target(seat)  # the total it sets (a score counts a total negative)
        after = score + match.totals[seat] - (target if target is not None else match.totals[seat])
        whose = t("Your score", "Dein Stand") if name is None else t(f"{name}'s score", f"Stand von {name}")
        return Text(
            t(
                f"{whose} is {score}: buy back to {after} for {cost} chips (b) or decline?",
                f"{whose} ist {score}: für {cost} Chips auf {after} zurückkaufen (b) oder ablehnen?",
            ),
            style="bold",
        )
    if rnd.phase is Phase.DRAW:
        if TakeDiscard() in legal:
            what = t("draw (d) or take (t) the discard", "ziehen (d) oder von der Ablage nehmen (t)")
        else:
            what = t("draw (d)", "ziehen (d)")
    elif rnd.phase is Phase.PLAY:
        need = match.rules.opening_min_points
        if not rnd.view(seat).opened[seat] and need:
            what = t(
                f"open (m …, at least {need} points) or discard (x N)",
                f"auslegen (m …, ab {need} Punkten), abwerfen (x N)",
            )
        elif may_lay_off(match.rules, rnd.opened_turn[seat], rnd.turn):
            what = t(
                "meld (m …), lay off (l …), then discard (x N)",
                "auslegen (m …), anlegen (l …), abwerfen (x N)",
            )
        else:
            # Not yet opened where nothing is needed to open (Basic Rummy), or opened this turn where
            # lay-offs wait for the next one (layoff_on_opening_turn = false).
            what = t("meld (m …), then discard (x N)", "auslegen (m …), dann abwerfen (x N)")
    elif match.rules.is_gin and rnd.phase is Phase.FIRST_UPCARD and TakeDiscard() not in legal:
        what = t("both passed on the upcard: draw (d)", "beide haben gepasst: ziehen (d)")
    elif match.rules.is_gin and rnd.phase in (Phase.DISCARD, Phase.KNOCK, Phase.LAYOFF):
        gin = rnd.view(seat).gin
        what = _gin_moves(rnd.phase, legal, t, gin is not None and gin.layoffs_done)
    elif match.rules.is_gin and rnd.phase is Phase.WALL and not _may_knock(legal):
        what = t(*GIN_WALL_PASS_ONLY)
    elif match.rules.is_gin:
        what = t(*GIN_PROMPTS.get(rnd.phase, GIN_OTHER_PHASES))
    else:
        what = _knock_game_moves(legal, t)
    who = t("Your turn", "Dein Zug") if name is None else t(f"{name}'s turn", f"{name} ist dran")
    knocker = rnd.knocker
    if match.rules.is_knock_game and not match.rules.is_gin and knocker is not None:
        by = names[knocker] if names is not None else t(f"Seat {knocker + 1}", f"Platz {knocker + 1}")
        has = t("knocked", "hat geklopft")
        last = (
            t("your last turn", "dein letzter Zug")
            if name is None
            else t(f"{name}'s last turn", f"letzter Zug von {name}")
        )
        who = f"{by} {has} – {last}"
    keys = t("   help · hint · quit", "   hilfe · tipp · ende")
    if len(f"{who}: {what}{keys}") > PROMPT_WIDTH:
        keys = ""  # the line stays one line on a terminal of 80 columns; 'help' is still understood
    return Text.assemble((f"{who}: ", "bold"), what, (keys, "dim"))
