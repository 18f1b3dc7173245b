"""Rich renderables for terminal play and replay: the table, hands, round results; no I/O here.

Everything shown comes from :class:`~rummykit.views.PlayerView` objects and the public match
figures (totals, chips, pot). A hand is shown only when the caller passes it (the seat at the
keyboard, or every seat in an all-hands replay), so a screen can never leak a hidden card by accident.

The layout is made for an 80×24 terminal: one header line, one line per player, one line for the
piles, the table melds in two columns, a few lines of recent moves, the hand (positions above
cards) and a status line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from rich.cells import cell_len
from rich.console import (
    Console,
    ConsoleOptions,
    ConsoleRenderable,
    Group,
    RenderableType,
    RenderHook,
    RenderResult,
)
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from rummykit.cards import JOKER_CODE, RANKS, SUITS, Card, sort_key_by_rank, sort_key_by_suit
from rummykit.cli.gin_line import gin_line
from rummykit.explain.language import Lang
from rummykit.explain.terms import hand_out_name, tiebreak_reason
from rummykit.gin import knocked_big_gin, knocked_gin, undercut_by
from rummykit.i18n.cards import ascii_faces, face_letters
from rummykit.match import Match
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.views import PlayerView, RoundResult, Termination

SortMode = Literal["suit", "rank"]

BOARD_WIDTH: Final = 80
"""The terminal width the table is laid out for (a longer line, such as a knocker's hand, wraps)."""
SUIT_STYLES: Final = ("green", "bright_blue", "red", "bold")
"""Four-colour deck (clubs, diamonds, hearts, spades), readable on dark and light backgrounds."""
JOKER_STYLE: Final = "bold magenta"
SUIT_SYMBOLS: Final = "♣♦♥♠"

TITLES: Final[dict[str, str]] = {
    "german": "German Rummy (Rommé)",
    "german_dskv": "German Rummy, DSkV rules",
    "viennese": "Viennese Rummy (Wiener Rummy)",
    "romme_ohne_auslegen": "Rommé ohne Auslegen",
    "scala40": "Scala 40",
    "basic": "Basic Rummy",
    "gin": "Gin Rummy",
}


GERMAN_NOUNS: Final[dict[str, tuple[str, str]]] = {
    "card": ("Karte", "Karten"),
    "meld": ("Figur", "Figuren"),
    "bot": ("Bot", "Bots"),
    "chip": ("Chip", "Chips"),
    "point": ("Punkt", "Punkte"),
    "hand": ("Spiel", "Spiele"),
}
"""German singular and plural of the nouns :func:`count` is used with."""


def count(n: int, noun: str, lang: str = "en") -> str:
    """``1 card``, ``2 cards``, ``0 bots`` (``1 Karte``, ``2 Karten``): a number with its noun in the
    right number."""
    if lang == "de" and noun in GERMAN_NOUNS:
        one, many = GERMAN_NOUNS[noun]
        return f"{n} {one if n == 1 else many}"
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def game_title(rules: Rules, lang: str = "en") -> str:
    t = Lang(lang)
    title = TITLES.get(rules.name, rules.name)
    if lang == "de" and rules.name in TITLES:
        from rummykit.explain import preset_line

        title = preset_line(rules.name, "de")[0]
    return title if not rules.changes() else f"{title}, {t('changed rules', 'geänderte Regeln')}"


def card_face(card: int, ascii_only: bool = False) -> str:
    """The card as shown: ``Q♠`` (or ``QS`` with ``ascii_only``), ``JK`` for a joker."""
    c = Card(card)
    if c.is_joker:
        return "JK"
    return RANKS[c.rank - 1] + (SUITS[c.suit] if ascii_only else SUIT_SYMBOLS[c.suit])


_NOTATION_CARD: Final = re.compile(r"(?<![\w])(10|[2-9JQKA])([CDHS])(?![\w])")
"""A card in notation inside a sentence (``QS``, ``10H``): upper case, standing alone."""
_SYMBOL_CARD: Final = re.compile(r"(?<![\w])(10|[2-9JQKA])([♣♦♥♠])")
"""A card with a suit symbol inside a sentence (``Q♠``)."""


def faces_in(text: str, ascii_only: bool = False) -> str:
    """``text`` with every card shown as on the table: ``QS`` → ``Q♠``, or with ``ascii_only``
    ``Q♠`` → ``QS``."""
    if ascii_only:
        return _SYMBOL_CARD.sub(lambda m: m.group(1) + SUITS[SUIT_SYMBOLS.index(m.group(2))], text)
    return _NOTATION_CARD.sub(lambda m: m.group(1) + SUIT_SYMBOLS[SUITS.index(m.group(2))], text)


def default_letters(lang: str) -> str:
    """The rank letters cards are shown with by default: German packs' B, D, K in German."""
    return "de" if lang == "de" else "en"


class Lettered:
    """A renderable shown with its cards in the rank letters ``letters`` (``B♥`` for ``J♥`` in
    German, :func:`rummykit.i18n.cards.face_letters`), and with ``ascii_only`` in suit letters
    (``BH``, :func:`rummykit.i18n.cards.ascii_faces`); every other character, style and the layout
    are kept (the letters swapped are the same width)."""

    def __init__(self, renderable: RenderableType, letters: str, ascii_only: bool = False) -> None:
        self.renderable = renderable
        self.letters = letters
        self.ascii_only = ascii_only

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            if segment.control or not segment.text:
                yield segment
            else:
                text = face_letters(segment.text, self.letters)
                yield Segment(ascii_faces(text) if self.ascii_only else text, segment.style)


class CardLetters(RenderHook):
    """Everything a console prints shows its cards in the rank letters ``letters``, and with
    ``ascii_only`` in suit letters: the terminal's setting applied once, to the table, the moves,
    the hints and the messages alike (the screens draw suit symbols; this hook writes them)."""

    def __init__(self, letters: str, ascii_only: bool = False) -> None:
        self.letters = letters
        self.ascii_only = ascii_only

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [Lettered(r, self.letters, self.ascii_only) for r in renderables]


def card_style(card: int) -> str:
    c = Card(card)
    return JOKER_STYLE if c.is_joker else SUIT_STYLES[c.suit]


def card_text(card: int, ascii_only: bool = False, extra_style: str = "") -> Text:
    style = card_style(card) + (f" {extra_style}" if extra_style else "")
    return Text(card_face(card, ascii_only), style=style)


def cards_text(cards: Sequence[int], ascii_only: bool = False, sep: str = " ") -> Text:
    return Text(sep).join(card_text(c, ascii_only) for c in cards)


def meld_text(meld: Meld, ascii_only: bool = False, width: int | None = None) -> Text:
    """A table meld with its joker assignments: ``5♥ 6♥ JK(=7♥)``, ``Q♣ Q♦ JK(=Q♥/Q♠)``.

    Where the meld is wider than ``width``, its jokers are written ``JK`` alone (a joker's card
    follows from its place in a run, and from the missing suits in a set): ``8♣ 9♣ JK J♣ Q♣ K♣``."""
    parts: list[Text] = []
    bare: list[Text] = []
    for i, c in enumerate(meld.cards):
        if c == JOKER_CODE:
            stands = "/".join(card_face(r, ascii_only) for r in meld.represented(i))
            parts.append(Text.assemble(Text("JK", style=JOKER_STYLE), Text(f"(={stands})", style="magenta")))
            bare.append(Text("JK", style=JOKER_STYLE))
        else:
            parts.append(card_text(c, ascii_only))
            bare.append(parts[-1])
    shown = Text(" ").join(parts)
    return Text(" ").join(bare) if width is not None and shown.cell_len > width else shown


def sorted_hand(hand: Sequence[Card], mode: SortMode) -> tuple[Card, ...]:
    """The hand in display order; positions typed by the player count from 1 in this order."""
    key = sort_key_by_suit if mode == "suit" else sort_key_by_rank
    return tuple(sorted(hand, key=key))


def hand_grid(cards: Sequence[Card], ascii_only: bool = False, highlight: Sequence[Card] = ()) -> Table:
    """Positions (dim) above the cards, 16 cards per row."""
    grid = Table.grid(padding=(0, 1))
    per_row = HAND_ROW_CARDS
    width = max(2, *(len(card_face(c, ascii_only)) for c in cards)) if cards else 2
    for _ in range(min(per_row, max(1, len(cards)))):
        grid.add_column(justify="right", min_width=width)
    marks = list(highlight)
    for start in range(0, len(cards), per_row):
        chunk = cards[start : start + per_row]
        grid.add_row(*(Text(str(start + i + 1), style="dim") for i in range(len(chunk))))
        row: list[Text] = []
        for c in chunk:
            if c in marks:
                marks.remove(c)
                row.append(card_text(c, ascii_only, "reverse"))
            else:
                row.append(card_text(c, ascii_only))
        grid.add_row(*row)
    return grid


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """Match figures shown beside the round: cumulative totals, chips and pot (rubbers)."""

    totals: tuple[int, ...] | None = None
    chips: tuple[int, ...] | None = None
    pot: int | None = None
    eliminated: tuple[bool, ...] = ()
    round_number: int = 1
    rounds_planned: int | None = None
    total_label: str = "score"
    dealt_again: bool = False
    """Only a scored hand counts (``match_end = single_hand``): a hand that ended unscored was dealt
    again, so every round before ``round_number`` went unscored."""
    redealt: int = 0
    """``unscored_hand = redeal``: how many times in a row this round was dealt again after ending
    unscored (it keeps its ``round_number``)."""
    deals_again: bool = False
    """The round that just ended unscored does not count: its dealer deals it again."""
    bonuses: tuple[int, ...] | None = None
    """Gin to a target score: the end-of-game bonuses each seat got (in ``totals``), once paid."""
    pot_won: int | None = None
    """A rubber that ended: the chips its pot held for the winners."""
    minus: tuple[int, ...] | None = None
    """A match to a limit of minus points (``match_end = penalty_limit``): each seat's minus points,
    which end the match, whatever the scores in ``totals`` (plus points less minus points) say."""
    limit: int | None = None
    tiebreak: str | None = None
    """The ``match_tiebreak`` rule that picked the winner among seats level on the best total
    (:attr:`Match.tiebreak <rummykit.match.Match.tiebreak>`)."""
    """The limit of minus points that ends such a match (``penalty_limit``)."""


@dataclass(slots=True)
class Board:
    """What one screen shows. ``hands`` maps seats to the hands to show (in display order)."""

    view: PlayerView
    names: tuple[str, ...]
    score: Scoreboard
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    sort_mode: SortMode = "suit"
    ascii_only: bool = False
    log: Sequence[Text | str] = ()
    status: Text | str = ""
    highlight: tuple[Card, ...] = ()
    hidden_note: str = ""
    height: int = 24
    subtitle: str = ""
    lang: str = "en"
    result_below: int = 0
    """Lines of the hand's result shown below the board (a replay at the end of a hand); the board
    then leaves out the players table and the hands, which the result lists with the scores."""


def match_scoreboard(match: Match) -> Scoreboard:
    """Scores, chips and pot of a rubber, and the round number.

    Scores are signed as the browser shows them (``Match.scores``: plus points minus the minus or bad
    points), so 23 minus points show as ``-23`` in both front ends and the highest score leads; a
    match to a target score shows the points won, which it adds up (a lost hand takes none away).
    """
    rules = match.rules
    totals: tuple[int, ...] = match.scores
    label = "score"
    if rules.match_end == "target_score":
        totals, label = tuple(match.gains), "points won"
    minus = limit = None
    if rules.match_end == "penalty_limit":
        minus, limit = match.totals, rules.penalty_limit
    planned = None
    if rules.match_end == "fixed_hands":
        planned = rules.num_hands or match.players
    elif rules.match_end == "single_hand":
        planned = 1
    return Scoreboard(
        totals=totals,
        chips=match.chips if match.is_rubber else None,
        pot=match.pot if match.is_rubber else None,
        eliminated=tuple(s not in match.active_seats for s in range(match.players)),
        round_number=match.hand_number,
        redealt=match.redeals_in_a_row,
        rounds_planned=planned,
        total_label=label,
        dealt_again=rules.match_end == "single_hand",
        bonuses=tuple(match.bonuses) if any(match.bonuses) else None,
        pot_won=match.pot_won if match.is_rubber and match.is_over else None,
        tiebreak=match.tiebreak,
        minus=minus,
        limit=limit,
    )


MINUS_NAME_WIDTH: Final = 30
"""The widest a name is shown in the players table beside the column of minus points, so that the
table stays within :data:`BOARD_WIDTH` (a longer name ends in ``…``)."""


def minus_heading(score: Scoreboard, lang: str = "en") -> str:
    """The heading of the column of minus points in a match to a limit: ``minus of 200``."""
    return Lang(lang)(f"minus of {score.limit}", f"Minus von {score.limit}")


def minus_cell(score: Scoreboard, seat: int, lang: str = "en") -> str:
    """A seat's minus points against the limit and what is left of it (``127, 73 left``), or that it
    reached the limit (``218 reached``), in a match to a limit of minus points."""
    assert score.minus is not None and score.limit is not None
    t = Lang(lang)
    points = score.minus[seat]
    left = score.limit - points
    if left <= 0:
        return t(f"{points} reached", f"{points} erreicht")
    return t(f"{points}, {left} left", f"{points}, noch {left}")


def round_text(score: Scoreboard, lang: str = "en") -> str:
    """The header's hand: ``hand 2 of 3``, ``hand 4``; where only a scored hand counts and this is
    not the first deal, the hands dealt again: ``hand 3 (hands 1–2 not scored)``."""
    t = Lang(lang)
    n = score.round_number
    if score.dealt_again and n > 1:
        before = t("hand 1", "Spiel 1") if n == 2 else t(f"hands 1–{n - 1}", f"Spiele 1–{n - 1}")
        counted = t("not scored", "zählte nicht" if n == 2 else "zählten nicht")
        return t(f"hand {n} ({before} {counted})", f"Spiel {n} ({before} {counted})")
    again = ""
    if score.redealt:
        times = f" {score.redealt}×" if score.redealt > 1 else ""
        again = t(f" (dealt again{times})", f" (neu gegeben{times})")
    if score.rounds_planned:
        return t(f"hand {n} of {score.rounds_planned}", f"Spiel {n} von {score.rounds_planned}") + again
    return t(f"hand {n}", f"Spiel {n}") + again


HEADER_WIDTH: Final = BOARD_WIDTH - 2
"""The widest header line: two columns short of the screen, so that it never reaches the last
column (a terminal that wraps on writing there would push the board down a line)."""
SHORTEST_NAME: Final = 6
"""The fewest characters of the dealer's name a crowded header keeps (then ``…``)."""
_ALIAS: Final = re.compile(r" \([^()]*\)")
"""A game title's name in the other language, ``Wiener Rommé (Wiener Rummy)``: left out first."""


def _header_parts(board: Board, dealer: str, short_title: bool = False) -> list[str]:
    v = board.view
    s = board.score
    t = Lang(board.lang)
    title = game_title(v.rules, board.lang)
    if short_title:
        title = _ALIAS.sub("", title, count=1)
    parts = [title, round_text(s, board.lang)]
    parts.append(t(f"dealer {dealer}", f"Geber {dealer}"))
    if s.pot is not None:
        parts.append(t(f"pot {s.pot}", f"Pott {s.pot}"))
    if board.subtitle:
        parts.append(board.subtitle)
    return parts


def _header(board: Board, width: int = HEADER_WIDTH) -> Text:
    """The header line within ``width`` columns: a crowded one (changed rules, a high round or pot,
    a long name) leaves out the title's name in the other language, then shortens the dealer's
    name, and is cut with ``…`` where even that is not enough; it never wraps."""
    dealer = board.names[board.view.dealer]
    line = " · ".join(_header_parts(board, dealer))
    if cell_len(line) > width:
        line = " · ".join(_header_parts(board, dealer, short_title=True))
    over = cell_len(line) - width
    if over > 0 and cell_len(dealer) > SHORTEST_NAME:
        keep = max(SHORTEST_NAME, cell_len(dealer) - over - 1)
        clipped = Text(dealer)
        clipped.truncate(keep)
        line = " · ".join(_header_parts(board, clipped.plain.rstrip() + "…", short_title=True))
    text = Text(line, style="bold", no_wrap=True, overflow="ellipsis")
    text.truncate(width, overflow="ellipsis")
    return text


def header_text(board: Board) -> str:
    """The board's header line as plain text, in full (to judge whether it fits a width): the
    header shown is shortened to :data:`HEADER_WIDTH` (:func:`_header`)."""
    return " · ".join(_header_parts(board, board.names[board.view.dealer]))


def players_table(board: Board) -> Table:
    v = board.view
    s = board.score
    t = Lang(board.lang)
    knock = v.rules.is_knock_game
    table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="dim")
    table.add_column("", width=1)
    # The column of minus points (a match to a limit) takes its room from a long name, not the scores.
    widest = MINUS_NAME_WIDTH if s.minus is not None else None
    table.add_column(t("player", "Spieler"), no_wrap=True, min_width=10, max_width=widest)
    table.add_column(t("cards", "Karten"), justify="right")
    table.add_column(t("state", "Status") if knock else t("opened", "ausgelegt"), no_wrap=True)
    if s.totals is not None:
        table.add_column(t(s.total_label, "Punkte"), justify="right")
    if s.minus is not None:
        table.add_column(minus_heading(s, board.lang), justify="right", no_wrap=True)
    if s.chips is not None:
        table.add_column(t("chips", "Chips"), justify="right")
    for seat, name in enumerate(board.names):
        out = bool(s.eliminated) and s.eliminated[seat]
        playing = seat in v.active_seats
        mark = Text("▶", style="bold yellow") if v.phase.value != "over" and seat == v.to_move else Text("")
        if out:
            state = Text(t("out", "ausgeschieden"), style="dim")
        elif not playing:
            state = Text(t("sits out", "setzt aus"), style="dim")
        elif knock:
            state = Text(t("knocked", "geklopft"), style="bold yellow") if v.knocker == seat else Text("")
        else:
            state = Text(t("yes", "ja"), style="green") if v.opened[seat] else Text("–", style="dim")
        row: list[Text | str] = [
            mark,
            Text(name, style="bold" if seat == v.seat and seat in board.hands else ""),
            str(v.hand_sizes[seat]) if playing and not out else "",
            state,
        ]
        if s.totals is not None:
            row.append(str(s.totals[seat]))
        if s.minus is not None:
            row.append(minus_cell(s, seat, board.lang))
        if s.chips is not None:
            row.append(str(s.chips[seat]))
        table.add_row(*row)
    return table


def piles_line(board: Board) -> Text:
    v = board.view
    t = Lang(board.lang)
    top = v.top_discard
    line = Text.assemble(
        (t("Stock ", "Stoß "), "dim"),
        (str(v.stock_size), "bold"),
        (t("  Discard ", "  Ablage "), "dim"),
        card_text(top, board.ascii_only, "bold")
        if top is not None
        else Text(t("empty", "leer"), style="dim"),
    )
    if len(v.discard_pile) > 1:
        line.append(t(f" ({len(v.discard_pile)} in pile)", f" ({len(v.discard_pile)} Karten)"), style="dim")
    if not v.rules.is_knock_game:
        melds = t(f"  Table melds {len(v.melds)}", f"  {count(len(v.melds), 'meld', 'de')} auf dem Tisch")
        line.append(
            melds if v.melds else t("  No melds on the table", "  Keine Figuren auf dem Tisch"), style="dim"
        )
    if v.must_lay is not None:
        line.append(t("  must lay ", "  muss auslegen: "), style="yellow")
        line.append_text(card_text(v.must_lay, board.ascii_only))
    return line


NARROW_MELD_WIDTH: Final = 22
"""The width of a meld in the three-column grid (``1 JK 5♥ 6♥ 7♥ 8♥ 9♥`` fits)."""


def _wrapped_lines(text: Text, width: int) -> int:
    """Lines ``text`` takes in a cell ``width`` wide, wrapped between cards."""
    lines, line = 1, -1
    for word in text.plain.split(" "):
        size = cell_len(word)
        if line >= 0 and line + 1 + size > width:
            lines, line = lines + 1, size
        else:
            line += 1 + size
    return lines


def meld_grid_lines(board: Board, columns: int) -> int:
    """Lines the table melds take in ``columns`` columns (:func:`melds_grid`)."""
    melds = board.view.melds
    rows = math.ceil(len(melds) / columns)
    if columns == 2:
        return rows
    texts = [meld_text(tm.meld, board.ascii_only, NARROW_MELD_WIDTH) for tm in melds]
    lines = [_wrapped_lines(text, NARROW_MELD_WIDTH) for text in texts]
    return sum(max(lines[r::rows]) for r in range(rows))


def melds_grid(board: Board, columns: int = 2) -> Table | None:
    """The table melds, numbered, in ``columns`` columns. In three (a crowded table, which then keeps
    the board within the screen) a meld wider than :data:`NARROW_MELD_WIDTH` writes its jokers
    ``JK`` alone, and one still wider goes on over a second line."""
    v = board.view
    if not v.melds:
        return None
    grid = Table.grid(padding=(0, 1))
    width = (34, 36) if columns == 2 else (NARROW_MELD_WIDTH, NARROW_MELD_WIDTH)
    for _ in range(columns):
        grid.add_column(justify="right", style="dim")
        grid.add_column(
            no_wrap=columns == 2,
            overflow="ellipsis" if columns == 2 else "fold",
            min_width=width[0],
            max_width=width[1],
        )
    rows = math.ceil(len(v.melds) / columns)
    for r in range(rows):
        cells: list[Text] = []
        for col in range(columns):
            i = col * rows + r
            if i < len(v.melds):
                cells.append(Text(str(i + 1)))
                tm = v.melds[i]
                narrow = None if columns == 2 else NARROW_MELD_WIDTH
                cells.append(meld_text(tm.meld, board.ascii_only, narrow))
            else:
                cells += [Text(""), Text("")]
        grid.add_row(*cells)
    return grid


def arrangement_text(
    melds: Sequence[Meld], deadwood_cards: Sequence[Card], deadwood: int, ascii_only: bool = False
) -> Text:
    """A knock game's hand as the showdown shows it: ``[melds] | deadwood cards = deadwood``; a hand
    without melds is its cards alone (``A♣ 3♥ A♠ 5♠ = 10``), with no bar before them."""
    bar = [Text("|", style="dim")] if melds else []
    shown = Text(" ").join(
        [Text.assemble("[", meld_text(m, ascii_only), "]") for m in melds]
        + ([*bar, cards_text(tuple(deadwood_cards), ascii_only)] if deadwood_cards else [])
    )
    shown.append(f" = {deadwood}", style="bold")
    return shown


def knock_line(board: Board) -> Text | None:
    """Who knocked, and the hand the knocker lays face up at the knock (RULES.md §4.5: split into
    melds and deadwood, with the deadwood announced), arranged as the showdown will count it. Only
    what the view reveals is shown."""
    v = board.view
    if v.knocker is None or v.phase.value == "over":
        return None
    shown = v.revealed[v.knocker] if v.revealed else None
    who = board.names[v.knocker]
    has = "hast" if who == "Du" else "hat"  # "Du" (the one person at the terminal) is spoken to
    line = Text(Lang(board.lang)(f"{who} knocked", f"{who} {has} geklopft"), style="bold yellow")
    if shown:
        from rummykit import solver

        best = solver.best_arrangement(list(shown), v.rules)
        line.append(": ")
        line.append_text(arrangement_text(best.melds, best.deadwood_cards, best.deadwood, board.ascii_only))
    return line


def deadwood_label(deadwood: int, before_discard: bool, lang: str) -> str:
    """What a knock game's hand shows of its deadwood (the least its cards leave unmelded): after
    the draw, with a card too many, the figure before the discard, said so (the discard lowers it
    when the card thrown is deadwood)."""
    t = Lang(lang)
    if before_discard:
        return t(f"deadwood {deadwood} before the discard", f"Restpunkte {deadwood} vor dem Abwerfen")
    return t(f"deadwood {deadwood}", f"Restpunkte {deadwood}")


def _hand_block(
    board: Board, seat: int, cards: tuple[Card, ...], deadwood: str | None
) -> list[RenderableType]:
    v = board.view
    own = seat == v.seat
    name = board.names[seat]
    if board.lang == "de":
        who = "Deine Hand" if name == "Du" else f"Hand von {name}"
        order = "nach Farbe" if board.sort_mode == "suit" else "nach Wert"
    else:
        who = "Your hand" if name == "You" else f"{name}'s hand"
        order = f"by {board.sort_mode}"
    title = Text(f"{who} ({count(len(cards), 'card', board.lang)}, {order})", style="bold")
    if deadwood is not None:
        title.append(f" · {deadwood}", style="")
    return [title, hand_grid(cards, board.ascii_only, board.highlight if own else ())]


HAND_ROW_CARDS: Final = 16
"""Cards per line of a hand in the grid with positions above them."""
COMPACT_ROW_CARDS: Final = 15
"""Cards per line of a hand in :func:`hand_rows` (beside a name of up to 16 characters)."""


def hand_rows(board: Board, deadwood: dict[int, str] | None = None) -> Table:
    """Every shown hand on one line (two for a hand above :data:`COMPACT_ROW_CARDS` cards): the
    seat's name and its cards, without positions (the players table above gives the counts). The
    board uses it where the hands with positions would push it past the screen (every hand of five
    or six seats in a replay)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, overflow="ellipsis", max_width=16, style="bold")
    grid.add_column()
    for seat, cards in board.hands.items():
        shown = Text()
        for start in range(0, len(cards), COMPACT_ROW_CARDS):
            if start:
                shown.append("\n")
            shown.append_text(cards_text(cards[start : start + COMPACT_ROW_CARDS], board.ascii_only))
        if deadwood and seat in deadwood:
            shown.append(f" · {deadwood[seat]}")
        grid.add_row(Text(board.names[seat]), shown)
    return grid


def render_board(board: Board, deadwood: dict[int, str] | None = None) -> Group:
    """The whole table as one renderable, fitted to ``board.height`` lines where possible: a crowded
    table shows its melds in three columns, and several hands that do not fit with their positions
    are shown one row each (:func:`hand_rows`). ``deadwood``: a line about a seat's deadwood shown
    after its hand's title (:func:`deadwood_label`)."""
    below = board.result_below
    parts: list[RenderableType] = [_header(board)]
    if not below:
        parts.append(players_table(board))
    parts.append(piles_line(board))
    knock = knock_line(board)
    gin = gin_line(board.view, board.names, lambda cards: cards_text(cards, board.ascii_only), board.lang)
    used = 1 + (below or len(board.names) + 1) + 1
    used += (math.ceil(knock.cell_len / BOARD_WIDTH) if knock is not None else 0) + (
        1 if gin is not None else 0
    )
    melds = len(board.view.melds)
    hand_lines = (
        sum(1 + 2 * max(1, math.ceil(len(h) / HAND_ROW_CARDS)) for h in board.hands.values()) or 1
    ) * (not below)
    two, three = (meld_grid_lines(board, 2), meld_grid_lines(board, 3)) if melds else (0, 0)
    meld_lines = min(two, three)
    status_lines = (board.status.plain if isinstance(board.status, Text) else board.status).count("\n") + 1
    status_lines += 1  # the prompt
    compact = len(board.hands) > 1 and board.height - used - hand_lines - status_lines - meld_lines < 1
    if compact:
        hand_lines = sum(max(1, math.ceil(len(h) / COMPACT_ROW_CARDS)) for h in board.hands.values())
    used += hand_lines + status_lines
    columns = 2
    crowded = melds and board.height - used - two < 1
    if crowded and three < two:
        columns = 3  # a crowded table (six players, 19 melds): the board stays within the screen
    grid = melds_grid(board, columns)
    if grid is not None:
        parts.append(grid)
        used += two if columns == 2 else three
    if knock is not None:
        parts.append(knock)
    if gin is not None:
        parts.append(gin)
    room = max(1, min(6, board.height - used))
    log = list(board.log)[-room:]
    for entry in log:
        line = entry.copy() if isinstance(entry, Text) else Text(entry, style="cyan")
        line.no_wrap, line.overflow = True, "ellipsis"
        parts.append(line)
    if below:
        pass  # the result below lists every hand
    elif compact:
        parts.append(hand_rows(board, deadwood))
    elif board.hands:
        for seat, cards in board.hands.items():
            parts += _hand_block(board, seat, cards, (deadwood or {}).get(seat))
    else:
        hidden = Lang(board.lang)("(hands hidden)", "(Hände verdeckt)")
        parts.append(Text(board.hidden_note or hidden, style="dim italic"))
    if board.status:
        parts.append(board.status if isinstance(board.status, Text) else Text(board.status))
    return Group(*parts)


# Round results ---------------------------------------------------------------------------------
def termination_text(
    result: RoundResult, names: Sequence[str], lang: str = "en", rules: Rules | None = None
) -> str:
    t = Lang(lang)
    who = names[result.winner] if result.winner is not None else ""
    has = "hast" if who == "Du" else "hat"  # "Du" (the one person at the terminal) is spoken to
    if rules is not None and rules.is_gin and result.termination is Termination.KNOCK:
        text = (
            t(f"{who} {'have' if who == 'You' else 'has'} big gin", f"{who} {has} großes Gin")
            if knocked_big_gin(result, rules)
            else t(f"{who} {'have' if who == 'You' else 'has'} gin", f"{who} {has} Gin")
            if knocked_gin(result, rules)
            else t(f"{who} knocked", f"{who} {has} geklopft")
        )
        defender = undercut_by(result, rules)
        if defender is not None:
            other = names[defender]
            text += t(
                f"; {other} undercut", f"; {other} {'unterbietest' if other == 'Du' else 'unterbietet'}"
            )
        return text
    if result.termination is Termination.WALL:
        return t(
            "the stock reached the wall: this hand is not scored",
            "der Stoß hat die Mauer erreicht: dieses Spiel zählt nicht",
        )
    if result.termination is Termination.DRAWN:
        n = result.take_bound(rules) if rules is not None else None
        if n is not None:  # the log's last move is then a take of a card that stayed on the pile
            return t(
                f"a dead hand after {n} takes in a row: not scored",
                f"ein totes Spiel nach {n} Aufnahmen hintereinander: es zählt nicht",
            )
        return t(
            "a dead hand (the discards went back and forth): not scored",
            "ein totes Spiel (die abgelegten Karten gingen hin und her): es zählt nicht",
        )
    if result.termination is Termination.WENT_OUT:
        text = t(f"{who} went out", f"{who} {has} ausgemacht")
        if result.multiplier > 1:
            name = hand_out_name(rules, t) if rules is not None else "Hand-Rommé"
            scoring = rules.hand_scoring if rules is not None else "losers_penalty"
            en, de = {
                "winner_collects": ("winnings", "Pluspunkte"),
                "winner_gets_sum": ("penalties and winnings", "Minus- und Pluspunkte"),
            }.get(scoring, ("penalties", "Minuspunkte"))
            text += t(f" ({name}: {en} ×{result.multiplier})", f" ({name}: {de} ×{result.multiplier})")
        return text
    if result.termination is Termination.RUMMY:
        return t(f"{who} called Rummy", f"{who} {has} Rummy gerufen")
    if result.termination is Termination.KNOCK:
        return t(f"{who} knocked", f"{who} {has} geklopft")
    return t(
        "the stock ran out: this hand is not scored", "der Stoß ist aufgebraucht: dieses Spiel zählt nicht"
    )


class TotalKept:
    """A showdown cell that ends in its total (``… | 2♦ = 2``), wrapped between its words to the
    width of the cell with the total kept beside the card before it on the last line: a wrap never
    leaves ``= 2`` alone on a line under the row (the other columns' figures stand on the first)."""

    def __init__(self, text: Text, kept: int = 3) -> None:
        self.text = text
        self.kept = kept
        """Words kept together at the end: the last card, ``=`` and the total."""

    def units(self) -> list[Text]:
        """The words a line may break between: the last ``kept`` of them as one, and the bar between
        melds and deadwood with the word after it (``| 2♦ = 2``)."""
        words = [w for w in self.text.split(" ") if w.plain]
        head, tail = words[: -self.kept], words[-self.kept :]
        units = [*head, Text(" ").join(tail)] if tail else head
        joined: list[Text] = []
        for unit in units:
            if joined and joined[-1].plain == "|":
                joined[-1] = Text(" ").join([joined[-1], unit])
            else:
                joined.append(unit)
        return joined

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        units = self.units()
        widest = max((u.cell_len for u in units), default=0)
        return Measurement(widest, max(widest, self.text.cell_len)).clamp(max_width=options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        lines: list[Text] = []
        for unit in self.units():
            if lines and lines[-1].cell_len + 1 + unit.cell_len <= width:
                lines[-1].append(" ")
                lines[-1].append_text(unit)
            else:
                lines.append(unit.copy())
        shown = Text("\n").join(lines)
        shown.overflow = "fold"  # a unit wider than the cell (a narrow terminal) is folded, not lost
        yield shown


def result_table(
    view: PlayerView,
    names: Sequence[str],
    score: Scoreboard,
    ascii_only: bool = False,
    lang: str = "en",
) -> Group:
    """The score table after a hand: every hand shown (Viennese: arrangement and deadwood), the
    hand's points, totals, and chips and pot in a rubber."""
    t = Lang(lang)
    result = view.result
    assert result is not None
    gin = view.rules.is_gin
    ended = termination_text(result, names, lang, view.rules)
    if score.deals_again:
        ended += t(
            "; it does not count, the same dealer deals again",
            "; es zählt nicht, derselbe Geber gibt neu",
        )
    best = undercut_by(result, view.rules)
    best = result.winner if best is None else best
    title = Text(
        t(f"Hand {score.round_number} over: {ended}", f"Spiel {score.round_number} vorbei: {ended}"),
        style="bold",
    )
    knock = view.rules.is_knock_game
    table = Table(box=None, pad_edge=False, padding=(0, 1), header_style="dim")
    widest = MINUS_NAME_WIDTH if score.minus is not None else None  # as in the players table
    table.add_column(t("player", "Spieler"), no_wrap=True, max_width=widest)
    table.add_column(
        t("melds | deadwood", "Figuren | Restpunkte") if knock else t("cards left", "Karten übrig"),
        overflow="fold",
    )
    table.add_column(t("hand", "Spiel"), justify="right")
    if score.totals is not None:
        table.add_column(t(score.total_label, "Punkte"), justify="right")
    if score.minus is not None:
        table.add_column(minus_heading(score, lang), justify="right", no_wrap=True)
    if score.chips is not None:
        table.add_column(t("chips", "Chips"), justify="right")
    for seat, name in enumerate(names):
        if seat not in view.active_seats:
            absent = Text(t("(not in this hand)", "(nicht in diesem Spiel)"), style="dim")
            cells: list[RenderableType] = [Text(name, style="dim"), absent, ""]
        else:
            arrangement = result.arrangements[seat] if result.arrangements else None
            total = arrangement is not None or (gin and result.scored)  # the row ends "= 3"
            if arrangement is not None:
                shown = arrangement_text(
                    arrangement.melds, arrangement.deadwood_cards, arrangement.deadwood, ascii_only
                )
            else:
                hand = view.revealed[seat] if view.revealed else None
                shown = cards_text(hand, ascii_only) if hand else Text("–", style="dim")
                if gin and result.scored:
                    # The melds each player laid (the knocker's with the lay-offs), then the deadwood.
                    own = [tm.meld for tm in view.melds if tm.owner == seat]
                    laid = [Text.assemble("[", meld_text(m, ascii_only), "]") for m in own]
                    if laid:
                        shown = Text(" ").join([*laid, Text("|", style="dim"), shown] if hand else laid)
                    shown.append(f" = {result.hand_values[seat]}", style="bold")
                elif hand and result.scored:
                    # A melding game: the cards left and what they count (before a Hand-Rommé factor).
                    shown.append(f" = {result.hand_values[seat]}", style="bold")
                    total = True
            # A game to a target score adds up the points won (a lost hand takes none away): gin's
            # loser shows 0 for the hand, as its column of points won does, not the knocker's with a minus.
            won = view.rules.match_end == "target_score"
            points = (result.gains if won else result.points)[seat] if result.scored else 0
            mark = " ★" if best == seat and result.scored else ""
            cells = [
                _name_marked(name, mark, widest),
                TotalKept(shown) if total else shown,
                str(points),
            ]
        if score.totals is not None:
            cells.append(
                str(score.totals[seat])
                + (t(" out", " ausgeschieden") if score.eliminated and score.eliminated[seat] else "")
            )
        if score.minus is not None:
            cells.append(minus_cell(score, seat, lang))
        if score.chips is not None:
            cells.append(str(score.chips[seat]))
        table.add_row(*cells)
    parts: list[RenderableType] = [title, table]
    arithmetic = gin_arithmetic(result, view.rules, names, lang)
    if arithmetic is not None:
        parts.append(Text(arithmetic))
    money = knock_money_text(view, names, score, lang)
    if money is not None:
        parts.append(Text(money, style="yellow"))
    if score.pot:
        parts.append(Text(t(f"Pot: {score.pot} chips", f"Pott: {score.pot} Chips"), style="yellow"))
    return Group(*parts)


def _name_marked(name: str, mark: str, widest: int | None) -> Text:
    """A name in the result table with the winner's mark after it, a name cut to leave the mark room
    where the column is at most ``widest`` wide."""
    shown = Text(name)
    if widest is not None and shown.cell_len + len(mark) > widest:
        shown.truncate(widest - len(mark) - 1)
        shown.append("…")
    shown.append(mark)
    shown.stylize("bold" if mark else "")
    return shown


def gin_arithmetic(result: RoundResult, rules: Rules, names: Sequence[str], lang: str = "en") -> str | None:
    """How a scored gin hand's points came about (RULES.md §5.4), or ``None`` for other hands: the
    defender's deadwood less the knocker's, plus the gin bonus, for the knocker; after an undercut the
    knocker's deadwood less the defender's, plus the undercut bonus, for the defender; all of it
    doubled where a spade upcard doubles the hand (``oklahoma_spade_doubles``)."""
    if not rules.is_gin or result.termination is not Termination.KNOCK or not result.scored:
        return None
    knocker = result.winner
    if knocker is None:
        return None
    t = Lang(lang)
    defender = next(s for s in range(len(result.points)) if s != knocker)
    undercut = undercut_by(result, rules) is not None
    scorer, other = (defender, knocker) if undercut else (knocker, defender)
    terms = f"{result.hand_values[other]} − {result.hand_values[scorer]}"
    if undercut and rules.undercut_bonus:
        terms += t(f" + {rules.undercut_bonus} (undercut)", f" + {rules.undercut_bonus} (Unterbieten)")
    elif knocked_big_gin(result, rules):
        if rules.big_gin_bonus:
            terms += t(f" + {rules.big_gin_bonus} (big gin)", f" + {rules.big_gin_bonus} (großes Gin)")
    elif knocked_gin(result, rules) and rules.gin_bonus:
        terms += t(f" + {rules.gin_bonus} (gin)", f" + {rules.gin_bonus} (Gin)")
    if result.multiplier > 1:  # a spade upcard under oklahoma_spade_doubles
        terms = f"({terms}) × {result.multiplier}" + t(" (spade upcard)", " (Pik aufgedeckt)")
    who = names[scorer]
    if lang == "de":
        return f"{who} {'bekommst' if who == 'Du' else 'bekommt'} {terms} = {result.points[scorer]}"
    return f"{who} {'score' if who == 'You' else 'scores'} {terms} = {result.points[scorer]}"


def knock_money_text(
    view: PlayerView, names: Sequence[str], score: Scoreboard, lang: str = "en"
) -> str | None:
    """A rubber's knock money for the hand just ended (RULES.md §4.8: the knocker or Rummy caller gets
    ``knock_money`` chips from every other player in the hand), or ``None`` where none changed hands."""
    result, rules = view.result, view.rules
    if result is None or score.chips is None or not rules.knock_money or not result.scored:
        return None
    winner = result.winner
    if winner is None:
        return None
    payers = [s for s in view.active_seats if s != winner]
    if not payers:
        return None
    t = Lang(lang)
    who = names[winner]
    each = rules.knock_money
    total = count(each * len(payers), "chip", lang)
    if len(payers) == 1:
        source = t(f"from {names[payers[0]]}", f"von {names[payers[0]]}")
    else:
        source = t(f"{each} from each other player", f"{each} von jedem anderen Spieler")
    if lang == "de":
        gets = "bekommst" if who == "Du" else "bekommt"
        return f"Klopfgeld: {who} {gets} {total} ({source})"
    gets = "get" if who == "You" else "gets"
    return f"Knock money: {who} {gets} {total} ({source})"


def winners_text(winners: Sequence[int], names: Sequence[str], score: Scoreboard, lang: str = "en") -> Text:
    if not winners:
        return Text("")
    t = Lang(lang)
    who = t(" and ", " und ").join(names[w] for w in winners)
    chips = ", ".join(f"{names[s]} {c}" for s, c in enumerate(score.chips or ()))
    scores = ", ".join(f"{names[s]} {total}" for s, total in enumerate(score.totals or ()))
    bonuses = ", ".join(f"{names[s]} {b}" for s, b in enumerate(score.bonuses or ()))
    # A match to a limit of minus points ends on them, not on the scores: the limit is said, and the
    # minus points by name where the scores do not say them (plus points count in them too).
    minus = ", ".join(f"{names[s]} {p}" for s, p in enumerate(score.minus or ()))
    said = score.minus is not None and score.totals == tuple(-p for p in score.minus)
    if lang == "de":
        verb = "gewinnst" if who == "Du" else ("gewinnt" if len(winners) == 1 else "gewinnen")
        text = Text(f"Partie beendet: {who} {verb}", style="bold green")
        if score.chips is not None:
            gets = "bekommst" if who == "Du" else ("bekommt" if len(winners) == 1 else "bekommen")
            pot = f" von {score.pot_won} Chips" if score.pot_won else ""
            text.append(f" und {gets} den Pott{pot} (Chips: {chips})")
        if score.totals is not None:
            limit = f"; Minuspunkte: {minus}, Grenze {score.limit}" if minus else ""
            limit = f"; Grenze: {score.limit} Minuspunkte" if said else limit
            text.append(f" (Punkte: {scores}{limit})", style="")
        if score.tiebreak is not None:
            text.append(f"; Gleichstand entschieden: {tiebreak_reason(score.tiebreak, lang)}", style="")
        if score.bonuses is not None:
            text.append(f"; darin Boni: {bonuses}", style="")
        return text
    verb = "win" if len(winners) > 1 or who == "You" else "wins"
    text = Text(f"Match over: {who} {verb} the match", style="bold green")
    if score.chips is not None:
        pot = f" of {score.pot_won} chips" if score.pot_won else ""
        text.append(f" and the pot{pot} (chips {chips})")
    if score.totals is not None:
        limit = f"; minus points {minus}, limit {score.limit}" if minus else ""
        limit = f"; limit {score.limit} minus points" if said else limit
        text.append(f" (scores {scores}{limit})", style="")
    if score.tiebreak is not None:
        text.append(f"; tie broken: {tiebreak_reason(score.tiebreak, lang)}", style="")
    if score.bonuses is not None:
        text.append(f"; bonuses included: {bonuses}", style="")
    return text
