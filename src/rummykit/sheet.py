"""A match's score sheet: per hand the dealer, who ended it, each seat's points and the multiplier,
the running totals, and the winners; built from a finished (or stopped) :class:`~rummykit.match.Match`,
usually a record's replay (``rummykit sheet RECORD.json``).

Points and totals are signed as the terminal and the web page show them (``Match.scores``: plus
points less minus or bad points, higher is better), so a German hand lost with 23 minus points reads
``-23``. A match to a target score (gin's game to 100) is decided by the points won, which a lost
hand does not take away (``Match.gains``): its sheet lists those, as the score sheets of gin do, so a
gin hand lost by 23 reads ``0`` for the loser, not ``-23``. Every deal is a row, a hand dealt again
under ``unscored_hand = redeal`` too (``counted`` is false and it shares its ``number`` with the deal
that replaced it); a buy-back of a knock-game rubber changes the totals after its hand, and gin's
end-of-game bonuses are added after the last hand, each listed apart. The totals after the last row
are the match's.

A rubber's sheet keeps its chips as a scorekeeper settles them (RULES.md §4.8): the chips at the
start (the ante paid once per rubber, or a position's), what each hand moved (its ante under
``ante_frequency = per_hand`` and its knock money), each buy-back's price, and the pot the winners
took at the end, split as :meth:`Match.pot_shares <rummykit.match.Match.pot_shares>` splits it. These
add up to the chips at the end.

>>> import rummykit as rk
>>> m = rk.Match.new(rk.Rules.preset("gin"), 2, seed=3)
>>> while not m.is_over:
...     _ = m.apply(m.legal_actions()[0])
>>> sheet = ScoreSheet.of(m)
>>> sheet.totals == m.scores and sheet.winners == m.winners
True
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any, Final

from rummykit.explain.terms import tiebreak_reason
from rummykit.match import BonusParts, Match, MatchEvent
from rummykit.views import RoundResult, Termination


@dataclass(frozen=True, slots=True)
class SheetHand:
    """One deal of the match and the totals after it."""

    deal: int
    """The deal's number in the match, from 1 (every deal counts here)."""
    number: int
    """The hand's number in the match's series (a hand dealt again shares it with the next deal)."""
    dealer: int
    termination: str
    """Why the hand ended (:class:`~rummykit.views.Termination`'s value); ``""`` while it runs."""
    winner: int | None
    """Who went out, called Rummy or knocked; ``None`` for a hand not scored (or not over)."""
    points: tuple[int | None, ...]
    """Per seat, the hand's points (``None``: the seat was not dealt in)."""
    multiplier: int
    """Hand-Rommé, Rummy or Oklahoma factor applied (1: none)."""
    scored: bool
    counted: bool
    """False for a hand dealt again by the same dealer (``unscored_hand = redeal``)."""
    totals: tuple[int, ...]
    """Per seat, the match score after the hand (the points won, in a match to a target score)."""
    chips: tuple[int, ...] | None = None
    """A rubber's chips the hand moved per seat (:meth:`Match.hand_chips
    <rummykit.match.Match.hand_chips>`: its ante under ``ante_frequency = per_hand`` and its knock
    money); ``None`` in other matches."""


@dataclass(frozen=True, slots=True)
class SheetBuyBack:
    """A buy-back after hand ``deal``: ``seat`` paid ``chips`` and its bad points went ``before`` to
    ``after``."""

    deal: int
    seat: int
    before: int
    after: int
    chips: int
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The sheet of a match (:meth:`of`)."""

    rules: str
    players: int
    start: tuple[int, ...]
    """The scores the match started from (a record's position; zeros for a fresh match)."""
    hands: tuple[SheetHand, ...]
    buybacks: tuple[SheetBuyBack, ...]
    bonuses: tuple[int, ...]
    """Gin's end-of-game bonuses per seat, added after the last hand (zeros elsewhere)."""
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    """Empty while the match is not over."""
    chips: tuple[int, ...] | None
    """A knock-game rubber's chips per seat at the end (``None`` for other matches)."""
    tiebreak: str | None = None
    """The ``match_tiebreak`` rule that picked the winners among seats level on the best total
    (:attr:`Match.tiebreak <rummykit.match.Match.tiebreak>`); ``None`` otherwise."""
    bonus_parts: tuple[BonusParts, ...] = ()
    """Gin's end-of-game bonuses per seat itemised (:meth:`Match.bonus_parts`): the text sheet lists
    the box bonus, the game bonus and the shutout's doubling on rows of their own above their sum."""
    start_chips: tuple[int, ...] | None = None
    """A rubber's chips per seat before the first hand (:meth:`Match.start_chips`: the ante paid once
    per rubber, or a position's chips); ``None`` for other matches."""
    pot_won: int = 0
    """The chips a rubber's pot held when its winners took it (0 while it runs and elsewhere)."""
    pot_shares: tuple[int, ...] = ()
    """Per seat, the chips it took from the pot (:meth:`Match.pot_shares`); empty while the rubber
    runs and elsewhere."""

    @classmethod
    def of(cls, match: Match) -> ScoreSheet:
        n = match.players
        position = match.position
        won = match.rules.match_end == "target_score"  # the points won decide: list those
        start = (0,) * n
        if position is not None:
            gains = position.gains or (0,) * n
            start = gains if won else tuple(g - t for g, t in zip(gains, position.totals, strict=True))
        running = list(start)
        after: dict[int, list[MatchEvent]] = {}
        for event in match.history:
            if isinstance(event, MatchEvent) and event.new_total is not None and event.hand is not None:
                after.setdefault(event.hand, []).append(event)
        hands: list[SheetHand] = []
        buybacks: list[SheetBuyBack] = []
        redealt = set(match.redealt)
        rubber = match.is_rubber
        for deal, rnd in enumerate(match.rounds, start=1):
            result: RoundResult | None = rnd.result
            scored = result is not None and result.scored
            hand_points = (result.gains if won else result.points) if result is not None else None
            if hand_points is not None and scored:
                running = [t + p for t, p in zip(running, hand_points, strict=True)]
            active = set(rnd.active_seats)
            hands.append(
                SheetHand(
                    deal=deal,
                    number=match.hand_in_series(deal),
                    dealer=rnd.dealer,
                    termination="" if result is None else str(result.termination),
                    winner=None if result is None or not scored else result.winner,
                    points=tuple(
                        None if s not in active else (hand_points[s] if hand_points is not None else 0)
                        for s in range(n)
                    ),
                    multiplier=1 if result is None else result.multiplier,
                    scored=scored,
                    counted=deal not in redealt,
                    totals=tuple(running),
                    chips=match.hand_chips(deal) if rubber else None,
                )
            )
            for event in after.get(deal, ()):
                assert event.old_total is not None and event.new_total is not None
                running[event.seat] += event.old_total - event.new_total
                buybacks.append(
                    SheetBuyBack(
                        deal, event.seat, event.old_total, event.new_total, event.chips, tuple(running)
                    )
                )
        bonuses = tuple(match.bonuses)
        running = [t + b for t, b in zip(running, bonuses, strict=True)]
        return cls(
            rules=str(match.rules),
            players=n,
            start=start,
            hands=tuple(hands),
            buybacks=tuple(buybacks),
            bonuses=bonuses,
            totals=tuple(running),
            winners=match.winners,
            chips=match.chips if rubber else None,
            tiebreak=match.tiebreak,
            bonus_parts=match.bonus_parts() if any(bonuses) else (),
            start_chips=match.start_chips() if rubber else None,
            pot_won=match.pot_won if rubber else 0,
            pot_shares=match.pot_shares() if rubber and match.pot_won else (),
        )

    def to_dict(self, names: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The sheet as JSON-ready data (``names``: the seats' names, by seat)."""
        return {
            "rules": self.rules,
            "players": self.players,
            "names": list(names) if names is not None else None,
            "start": list(self.start),
            "hands": [
                {
                    "deal": h.deal,
                    "hand": h.number,
                    "dealer": h.dealer,
                    "termination": h.termination,
                    "scored": h.scored,
                    "counted": h.counted,
                    "winner": h.winner,
                    "points": list(h.points),
                    "multiplier": h.multiplier,
                    "totals": list(h.totals),
                    "chips": None if h.chips is None else list(h.chips),
                }
                for h in self.hands
            ],
            "buybacks": [
                {"after_deal": b.deal, "seat": b.seat, "from": b.before, "to": b.after, "chips": b.chips}
                for b in self.buybacks
            ],
            "bonuses": list(self.bonuses),
            "bonus_parts": [
                {"hands_won": p.hands_won, "box": p.box, "game": p.game, "shutout": p.shutout}
                for p in self.bonus_parts
            ],
            "totals": list(self.totals),
            "winners": list(self.winners),
            "tiebreak": self.tiebreak,
            "chips": None if self.chips is None else list(self.chips),
            "start_chips": None if self.start_chips is None else list(self.start_chips),
            "pot_won": self.pot_won,
            "pot_shares": list(self.pot_shares),
        }


def _words(lang: str) -> dict[str, str]:
    de = lang == "de"
    return {
        "hand": "Spiel" if de else "Hand",
        "hand_short": "Nr." if de else "#",
        "dealer": "Geber" if de else "Dealer",
        "dealer_short": "Gb." if de else "Dlr",
        "ended": "Ende" if de else "Ended",
        "x": "×",
        "start": "Anfang" if de else "Start",
        "bonus": "Bonus am Ende" if de else "End bonuses",
        "box": "Box-Bonus ({n} je gewonnenes Spiel)" if de else "Box bonus ({n} a hand won)",
        "game": "Partiebonus" if de else "Game bonus",
        "shutout": "Zu null gewonnen: verdoppelt" if de else "Shutout: doubled",
        "winner": "Sieger" if de else "Winner",
        "winners": "Sieger (geteilt)" if de else "Winners (shared)",
        "running": "Die Partie läuft noch" if de else "The match is not over",
        "chips": "Chips",
        "chips_moved": "Chips" if de else "chips",
        "pot": "Pott: {n} Chips" if de else "Pot: {n} chips",
        "points": "Punkte" if de else "points",
        "total": "Stand" if de else "total",
    }


TERMINATION_WORDS = {
    Termination.WENT_OUT.value: ("{who} went out", "{who} macht aus"),
    Termination.RUMMY.value: ("{who}: Rummy", "{who}: Rummy"),
    Termination.KNOCK.value: ("{who} knocked", "{who} klopft"),
    Termination.STOCK_EXHAUSTED.value: ("stock out, not scored", "Stoß leer, keine Wertung"),
    Termination.WALL.value: ("wall, not scored", "Mauer, keine Wertung"),
    Termination.DRAWN.value: ("dead hand, not scored", "totes Spiel, keine Wertung"),
    "": ("under way", "läuft"),
}
"""How the text sheet says why a hand ended (English, German)."""


def ended_text(
    hand: SheetHand, names: tuple[str, ...], lang: str = "en", words: dict[str, tuple[str, str]] | None = None
) -> str:
    """Why ``hand`` ended, in words: ``Anna went out``, ``stock out, not scored, dealt again``
    (``words``: another table of them, :data:`SHORT_TERMINATION_WORDS` on a narrow sheet)."""
    said = TERMINATION_WORDS if words is None else words
    en, de = said.get(hand.termination, (hand.termination, hand.termination))
    who = names[hand.winner] if hand.winner is not None else ""
    text = (de if lang == "de" else en).format(who=who)
    if not hand.counted:
        text += ", neu gegeben" if lang == "de" else ", dealt again"
    return text


def sheet_text(sheet: ScoreSheet, names: tuple[str, ...], lang: str = "en", width: int | None = None) -> str:
    """The sheet as an aligned plain-text table: one row per deal (the hand's points, then the
    totals after it), the buy-backs and end bonuses in between, and the winners.

    A rubber's table has a third group of columns, the chips each row moved, and a row for the pot
    its winners took (each one's share); the chips at the end follow the winners.

    With ``width`` (a terminal's columns) a table wider than that is made narrower while it stays
    readable: short headers (``Nr.``, ``Gb.``), a hand's end in a few words (``Anna aus``), names
    cut with ``…`` (no shorter than three letters) and one space between columns where two do not
    fit; a rubber's chips columns go last (the pot is then said below the table, and the chips at
    the end still are). A table that cannot fit even so is returned in full (the caller decides
    where it goes)."""
    lines = _table(sheet, names, lang)
    chips_shown = sheet.start_chips is not None
    if width is not None and _widest(lines) > width:
        longest = max(len(name) for name in names)
        # Two spaces between columns while names keep six characters, then one.
        # Names no longer than the cut are tried uncut: short headers and ends narrow the table too.
        tries = [(2, cut) for cut in range(longest, min(longest - 1, 5), -1)]
        tries += [(1, cut) for cut in range(longest, min(longest - 1, SHORTEST_NAME - 1), -1)]
        # A rubber's chips columns stay while the table fits with them, then go.
        for chips, (gap, cut) in [(c, t) for c in dict.fromkeys((chips_shown, False)) for t in tries]:
            cut_names = tuple(_cut(name, cut) for name in names)
            compact = _table(sheet, cut_names, lang, gap=" " * gap, chips=chips)
            if _widest(compact) <= width:
                lines, chips_shown = compact, chips
                break
    w = _words(lang)
    if sheet.winners:
        key = "winner" if len(sheet.winners) == 1 else "winners"
        lines.append("")
        lines.append(f"{w[key]}: " + ", ".join(names[s] for s in sheet.winners))
        if sheet.tiebreak is not None:
            said = "Gleichstand entschieden" if lang == "de" else "tie broken"
            lines[-1] += f" ({said}: {tiebreak_reason(sheet.tiebreak, lang)})"
    else:
        lines.append("")
        lines.append(w["running"])
    if sheet.pot_won and sheet.pot_shares and not chips_shown:
        shares = ", ".join(f"{names[s]} +{c}" for s, c in enumerate(sheet.pot_shares) if c)
        lines.append(f"{w['pot'].format(n=sheet.pot_won)} ({shares})")
    if sheet.chips is not None:
        lines.append(f"{w['chips']}: " + ", ".join(f"{names[s]} {c}" for s, c in enumerate(sheet.chips)))
    return "\n".join(lines) + "\n"


def _moved(chips: tuple[int, ...]) -> list[str]:
    """Chips that changed hands, signed: ``+2`` won, ``-1`` paid, ``0`` none."""
    return [f"{c:+d}" if c else "0" for c in chips]


def _hand_chips(hand: SheetHand) -> list[str]:
    """A hand's chips columns: what it moved per seat, signed (:func:`_moved`); ``–`` for a seat not
    dealt in that paid nothing. A dealer who sits the hand out (``dealer_sits_out_at_table_of``) is
    still in the rubber and pays a per-hand ante, which is shown: the columns add up."""
    if hand.chips is None:
        return [""] * len(hand.points)
    shown = zip(hand.points, hand.chips, _moved(hand.chips), strict=True)
    return ["–" if p is None and not c else m for p, c, m in shown]


SHORTEST_NAME: Final = 4
"""The fewest characters a name is cut to on a narrow sheet: three letters and ``…``."""


def _cut(name: str, most: int) -> str:
    """``name`` in at most ``most`` characters, a cut one ending in ``…``."""
    return name if len(name) <= most else name[: most - 1].rstrip() + "…"


def _widest(lines: list[str]) -> int:
    return max(len(line) for line in lines)


SHORT_TERMINATION_WORDS: Final[dict[str, tuple[str, str]]] = {
    Termination.WENT_OUT.value: ("{who} out", "{who} aus"),
    Termination.RUMMY.value: ("{who}: Rummy", "{who}: Rummy"),
    Termination.KNOCK.value: ("{who} knocked", "{who} klopft"),
    Termination.STOCK_EXHAUSTED.value: ("stock out, unscored", "Stoß leer, ungewertet"),
    Termination.WALL.value: ("wall, unscored", "Mauer, ungewertet"),
    Termination.DRAWN.value: ("dead, unscored", "tot, ungewertet"),
    "": ("under way", "läuft"),
}
"""How a narrow text sheet says why a hand ended (English, German)."""


def _table(
    sheet: ScoreSheet, names: tuple[str, ...], lang: str, gap: str | None = None, chips: bool = True
) -> list[str]:
    """The table's lines, two spaces between columns; with ``gap`` compact: short headers and ends,
    ``gap`` between columns, and a buy-back's or a label's words over the columns it leaves empty.
    ``chips``: a rubber's chips columns and its pot row (left out where they do not fit)."""
    compact = gap is not None
    gap = gap or "  "
    w = _words(lang)
    n = sheet.players
    first = [w["hand_short"], w["dealer_short"]] if compact else [w["hand"], w["dealer"]]
    # A rubber's chips: a third group of columns, what each row moved (the end's chips follow the table).
    rubber = chips and sheet.start_chips is not None
    chips_names = names if rubber else ()
    header = [*first, w["ended"], *names, w["x"], *names, *chips_names]
    rows: list[list[str]] = [header]
    group = ["", "", "", *([w["points"]] + [""] * (n - 1)), "", *([w["total"]] + [""] * (n - 1))]
    group += [w["chips_moved"], *[""] * (n - 1)] if rubber else []
    rows.insert(0, group)
    no_chips = [""] * len(chips_names)
    spans: dict[int, tuple[int, int]] = {}  # row → (first, last) column its one text covers (compact)
    if any(sheet.start) or (rubber and any(sheet.start_chips or ())):
        start_chips = _moved(sheet.start_chips) if rubber and sheet.start_chips is not None else []
        rows.append([w["start"], "", "", *[""] * n, "", *map(str, sheet.start), *start_chips])
        if compact:
            spans[len(rows) - 1] = (0, 2)
    for hand in sheet.hands:
        rows.append(
            [
                str(hand.number),
                names[hand.dealer],
                ended_text(hand, names, lang, SHORT_TERMINATION_WORDS if compact else None),
                *("–" if p is None else str(p) for p in hand.points),
                f"×{hand.multiplier}" if hand.multiplier > 1 else "",
                *map(str, hand.totals),
                *(_hand_chips(hand) if rubber else no_chips),
            ]
        )
        for b in (b for b in sheet.buybacks if b.deal == hand.deal):
            said = (
                f"{names[b.seat]} kauft zurück: {b.before} → {b.after} ({b.chips} Chips)"
                if lang == "de"
                else f"{names[b.seat]} buys back: {b.before} → {b.after} ({b.chips} chips)"
            )
            paid = [_moved((-b.chips,))[0] if s == b.seat else "" for s in range(n)] if rubber else []
            rows.append(["", "", said, *[""] * n, "", *map(str, b.totals), *paid])
            if compact:
                spans[len(rows) - 1] = (2, 3 + n)
    if any(sheet.bonuses):
        # Gin score sheets itemise the end: box bonus (per hand won), game bonus, a shutout's doubling.
        won = next((p for p in sheet.bonus_parts if p.box and p.hands_won), None)
        each = won.box // won.hands_won if won is not None else 0
        for kind, label in (("box", w["box"].format(n=each)), ("game", w["game"]), ("shutout", w["shutout"])):
            values = [getattr(p, kind) for p in sheet.bonus_parts]
            if any(values):
                rows.append([label, "", "", *map(str, values), "", *[""] * n])
                spans[len(rows) - 1] = (0, 2)  # over the hand, dealer and end: a label that long
        rows.append([w["bonus"], "", "", *map(str, sheet.bonuses), "", *map(str, sheet.totals)])
        spans[len(rows) - 1] = (0, 2)  # would otherwise widen the hand numbers' column
    if rubber and sheet.pot_won and sheet.pot_shares:
        # The pot the winners took, each one's share in the chips columns (a shared pot as it split).
        shares = [_moved((c,))[0] if c else "" for c in sheet.pot_shares]
        rows.append([w["pot"].format(n=sheet.pot_won), "", "", *[""] * n, "", *[""] * n, *shares])
        spans[len(rows) - 1] = (0, 2)
    widths = [max(len(r[i]) for k, r in enumerate(rows) if k not in spans) for i in range(len(header))]
    for k, (low, high) in spans.items():  # a spanning text wider than its columns widens the last
        room = sum(widths[low : high + 1]) + len(gap) * (high - low)
        widths[high] += max(0, len(rows[k][low]) - room)
    numeric = set(range(3, 3 + n)) | set(range(4 + n, 4 + 2 * n + len(chips_names)))
    lines = []
    for k, r in enumerate(rows):
        cells = [c.rjust(widths[i]) if i in numeric else c.ljust(widths[i]) for i, c in enumerate(r)]
        if k in spans:
            low, high = spans[k]
            room = sum(widths[low : high + 1]) + len(gap) * (high - low)
            cells[low : high + 1] = [r[low].ljust(room)]
        lines.append(gap.join(cells).rstrip())
    return lines


FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP's CSV injection)."""


def csv_cell(value: object) -> object:
    """``value`` safe for a spreadsheet: a text cell that starts like a formula (a name from a
    stranger's record such as ``=HYPERLINK(…)``) gets a leading ``'``, so it stays text; numbers,
    negative ones included, stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def sheet_csv(sheet: ScoreSheet, names: tuple[str, ...]) -> str:
    """The sheet as CSV: a header, then one row per deal, buy-back, end bonus and the result
    (``row`` says which); points and totals one column per seat, named after the seat. A rubber's
    sheet has a chips column per seat as well, each row the change it made: the ``start`` row the
    chips before the first hand (the ante paid once per rubber, or a position's), a hand's row the
    chips it moved (its ante under ``ante_frequency = per_hand`` and its knock money; empty for a
    seat not dealt in that paid nothing, a dealer sitting the hand out pays a per-hand ante all the
    same), a buy-back's row the chips its buyer paid (``-5``); the result row has every
    seat's chips at the end (:attr:`Match.chips <rummykit.match.Match.chips>`), as the text sheet's
    last line does, which are those changes and the seat's share of the pot
    (:attr:`ScoreSheet.pot_shares`).

    The kinds of row are a closed set that readers may rely on: ``start``, ``hand``, ``buyback``,
    ``bonus`` and ``result``. So gin's end bonuses stay one ``bonus`` row (their sum per seat): the
    parts (box, game, shutout) are in the text and JSON sheets, where a reader meets no new kind.
    A text cell that would start a formula is escaped (:func:`csv_cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")

    def write(row: list[object]) -> None:
        writer.writerow([csv_cell(cell) for cell in row])

    n = sheet.players
    write(
        [
            "row",
            "deal",
            "hand",
            "dealer",
            "termination",
            "scored",
            "counted",
            "winner",
            "multiplier",
            *(f"points {name}" for name in names),
            *(f"total {name}" for name in names),
            *(f"chips {name}" for name in names if sheet.chips is not None),
        ]
    )
    blank = [""] * n
    no_chips = blank if sheet.chips is not None else []
    start_chips = list(sheet.start_chips) if sheet.start_chips is not None else no_chips
    if any(sheet.start) or any(sheet.start_chips or ()):
        write(["start", "", "", "", "", "", "", "", "", *blank, *sheet.start, *start_chips])
    for hand in sheet.hands:
        moved = (
            ["" if p is None and not c else c for p, c in zip(hand.points, hand.chips, strict=True)]
            if hand.chips is not None
            else no_chips
        )
        write(
            [
                "hand",
                hand.deal,
                hand.number,
                names[hand.dealer],
                hand.termination,
                str(hand.scored).lower(),
                str(hand.counted).lower(),
                "" if hand.winner is None else names[hand.winner],
                hand.multiplier,
                *("" if p is None else p for p in hand.points),
                *hand.totals,
                *moved,
            ]
        )
        for b in (b for b in sheet.buybacks if b.deal == hand.deal):
            points = [b.before - b.after if s == b.seat else "" for s in range(n)]
            paid = [-b.chips if s == b.seat else "" for s in range(n)]
            write(["buyback", b.deal, "", "", "", "", "", names[b.seat], "", *points, *b.totals, *paid])
    if any(sheet.bonuses):
        write(["bonus", "", "", "", "", "", "", "", "", *sheet.bonuses, *sheet.totals, *no_chips])
    winners = " ".join(names[s] for s in sheet.winners)
    chips = list(sheet.chips) if sheet.chips is not None else []
    write(["result", "", "", "", sheet.tiebreak or "", "", "", winners, "", *blank, *sheet.totals, *chips])
    return out.getvalue()
