"""What a player types at the terminal: the short forms, the action notation and the meta commands.

Short forms select cards by their position in the hand as shown (positions count from 1, in the
displayed sort order): ``d`` draw, ``t`` take, ``m 1 2 3`` meld (or open), ``l 4 2`` lay card 4 off
on meld 2, ``x 5`` discard, ``k 5`` knock, ``r 5`` call Rummy, ``b`` buy back; the German ``z``
(ziehen) and ``n`` (nehmen) draw and take. A line that starts with an action's verb is read as the
notation of :mod:`rummykit.actions` (``discard QS``); any other first word is refused as an unknown
command, pointing at ``help``. Meta commands (``help``, ``hint``, ``sort``, ``undo``, ``log``,
``rules``, ``quit`` …) are returned by name.

German is read as the German help and hints write it (:func:`german_words`): the verbs
(``anlegen 5H an 2``), ``an``/``auf``/``gegen`` for ``on``, ``Figur`` before a meld's number, ``dann``
for ``then``, ``unten``/``oben`` for a run's ``low``/``high`` end, cards in words (``Pik-7``,
``Kreuz-Buben``) and a hint's verb at the end (``Pik-7 an Figur 7 unten anlegen``); a move the hints
and the log write with two verbs or without a card is read whole (:func:`german_phrase`: ``klopfen
und Pik-2 abwerfen``, ``bei der offenen Karte passen``). What the terminal
reads as a card is stricter than :meth:`rummykit.cards.Card.parse` where the table shows German
letters (:func:`check_card_token`): ``DK`` is refused there, not read as the king of diamonds.

A stranger types this input: a line is at most :data:`MAX_LINE` characters, and an error message
repeats at most :data:`MAX_ECHO` characters of it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from rummykit.actions import (
    ACTION_VERBS,
    Action,
    BuyBack,
    Decline,
    Draw,
    KnockDeclare,
    MeldAction,
    Open,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.cards import RANKS_DE, SUITS, Card
from rummykit.errors import IllegalMeldError, NotationError, quoted
from rummykit.i18n.moves import describe_action
from rummykit.melds import Meld, arrange_meld
from rummykit.rules import Rules
from rummykit.views import Phase

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
    "z": "draw",  # ziehen
    "n": "take",  # nehmen
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


GERMAN_VERBS: Final = frozenset(verb for verb in SHORT_VERBS if len(verb) > 1 and verb != "lay")
"""The German verbs a line may start with, or end with as a German hint writes a move
(``Kreuz-Buben abwerfen``)."""
PARTICLES: Final = {
    "an": "on",
    "auf": "on",
    "gegen": "on",
    "dann": "then",
    "unten": "low",
    "oben": "high",
}
"""German words of the notation's keywords: ``anlegen 5H an 2 unten``, ``tauschen 6C gegen 3 dann …``."""
_AFTER_ON: Final = frozenset({"figur", "den", "einen", "zwei", "drei", "vier", "joker", "von", "der"})
"""Words between ``gegen``/``an`` and a meld's number that say no more than it: ``gegen zwei Joker von
Figur 2``, ``an Figur 2``."""
_PILES: Final = frozenset({"vom stoß", "vom stoss", "von der ablage"})
"""Where a draw or a take comes from, as the German hint says it (``vom Stoß ziehen``)."""
_SUIT_WORDS: Final = {"kreuz": 0, "karo": 1, "herz": 2, "pik": 3}
_RANK_WORDS: Final = {"ass": 1, "bube": 11, "buben": 11, "dame": 12, "könig": 13, "koenig": 13} | {
    str(n): n for n in range(2, 11)
}
_CARD_WORDS: Final = re.compile(r"^([a-z]+)-([a-zö0-9]+)$")
_KEYWORDS: Final = frozenset({"on", "then", "low", "high", "|", "meld", "layoff"})
"""Words of an action's notation that are no card."""
GERMAN_SUIT_INITIALS: Final = {"K": (1, 0), "H": (2,), "P": (3,)}
"""The suits a German player may write by the initial of their German name: K Karo or Kreuz, H Herz,
P Pik (the notation's letters are C D H S)."""
_RANK_FIRST: Final = re.compile(r"^(10|[2-9AJQKTBD])([a-zäöü]{1,5})$", re.IGNORECASE)
"""A rank and then letters that may mean a suit (``7P`` Pik, ``7Kr`` Kreuz, ``AKaro``)."""


def german_card(word: str) -> str | None:
    """A card written in German words as the hints and the log write it (``Pik-7``, ``Herz-Dame``,
    ``Kreuz-Buben``) in notation (``7S``), or ``None`` for any other word."""
    m = _CARD_WORDS.match(word.lower())
    if m is None or m.group(1) not in _SUIT_WORDS or m.group(2) not in _RANK_WORDS:
        return None
    return str(Card.of(_RANK_WORDS[m.group(2)], _SUIT_WORDS[m.group(1)]))


def _whole_phrases() -> dict[str, str]:
    """The German words of every move without a card, as the hints, the help and the log write them
    (``bei der offenen Karte passen``, ``passen: fertig mit dem Anlegen``, ``an der Mauer passen``),
    lower case, to the move's notation."""
    phrases: dict[str, str] = {}
    for action in (Draw(), TakeDiscard(), Pass(), KnockDeclare(), BuyBack(), Decline()):
        for phase in (None, *Phase):
            for layoffs_done in (None, False, True):
                words = describe_action(action, "de", form="verb", phase=phase, layoffs_done=layoffs_done)
                for phrase in (words, words.partition(" (")[0]):  # with or without the parenthesis
                    phrases.setdefault(" ".join(phrase.lower().split()), str(action))
    return phrases


WHOLE_PHRASES: Final = _whole_phrases()
"""German moves without a card, whole, as the game writes them, to their notation."""
_JOKER_WORDS: Final = frozenset({"einen joker", "den joker", "ein joker", "der joker", "joker"})
"""A joker in words at the head of a clause, as the hints write it (``einen Joker abwerfen``)."""


def german_phrase(line: str, top: Card | None = None) -> str | None:
    """A move written as the German hints and the log write it, with more than one verb or without
    a card (``klopfen und Pik-2 abwerfen``, ``Karo-5 gegen einen Joker von Figur 2 tauschen und 6♦ 7♦
    auslegen``, ``Rummy rufen, Pik-2 verdeckt``, ``bei der offenen Karte passen``, ``einen Joker
    abwerfen``), as a line the rest of :func:`parse_input` reads; ``None`` for any other line.
    ``top``, the discard pile's top card, is what ``Pik-7 von der Ablage nehmen`` must name.

    Raises:
        NotationError: the take names another card than ``top``.
    """
    low = " ".join(line.lower().split())
    if low in WHOLE_PHRASES:
        return WHOLE_PHRASES[low]
    clauses: list[list[str]] = [[]]
    for word in line.split():
        if word.lower() == "und":
            clauses.append([])
        else:
            clauses[-1].append(word)
    joker = False
    for clause in clauses:  # "einen Joker an Figur 1 anlegen": the joker is the card of a German clause
        if not clause or clause[-1].lower() not in GERMAN_VERBS:
            continue
        for size in (2, 1):
            if len(clause) > size and " ".join(clause[:size]).lower() in _JOKER_WORDS:
                clause[:size] = ["JK"]
                joker = True
                break
    flat = " und ".join(" ".join(clause) for clause in clauses)
    words, low = flat.split(), flat.lower()
    heads = [" ".join(clause[:-1]) for clause in clauses]
    last = [clause[-1].lower() if clause else "" for clause in clauses]
    lead = " ".join(clauses[0]).lower()
    knock = lead in ("klopfen", "mit der offenen karte klopfen")
    if len(clauses) == 2 and knock and last[1] == "abwerfen" and heads[1]:
        return f"knock {heads[1]}"  # "klopfen und Pik-2 abwerfen"
    if len(clauses) > 1 and last[0] == "tauschen" and all(v in ("auslegen", "anlegen") for v in last[1:]):
        then = [f"dann {verb} {head}" for verb, head in zip(last[1:], heads[1:], strict=True)]
        return " ".join([f"tauschen {heads[0]}", *then])
    if re.fullmatch(r"rummy rufen, \S+ verdeckt", low):
        return f"rummy {words[2]}"
    if re.fullmatch(r"\S+ von der ablage (auf)?nehmen", low):  # the hint names the card taken
        named = Card.parse(german_card(words[0]) or words[0])
        if top is not None and named != top:
            raise NotationError(f"the discard pile shows {top}, not {named}")
        return "take"
    if re.fullmatch(r"\S+ an eine figur des klopfenden anlegen", low):
        return f"layoff {words[0]}"  # gin: onto the knocker's melds, where it fits
    return flat if joker else None


def german_words(words: Sequence[str]) -> list[str]:
    """The words after a verb with the German ones in notation: ``K♥ an Figur 1 unten`` →
    ``K♥ on 1 low``, ``5H gegen den Joker von Figur 2 dann auslegen 6 7`` → ``5H on 2 then meld 6 7``,
    ``Pik-7`` → ``7S``. English notation passes unchanged."""
    out: list[str] = []
    for word in words:
        low = word.lower()
        if low in _AFTER_ON and (low == "figur" or (out and out[-1] == "on")):
            continue  # "an Figur 2", "gegen den Joker von Figur 2"; "Figur 2" alone too
        if out and out[-1] == "then" and SHORT_VERBS.get(low) in ("meld", "layoff"):
            out.append(SHORT_VERBS[low])  # "dann auslegen", "dann anlegen"
            continue
        out.append(PARTICLES.get(low) or german_card(word) or word)
    return out


def check_card_token(token: str, letters: str = "en", lang: str = "en") -> None:
    """Refuse a card ``token`` a German player may mean as another card, or tell how a suit is typed.

    Where the table shows German letters (``letters="de"``: D Dame, B Bube, K König, A Ass) the
    notation still reads a token suit first when rank first fails (``DK``: diamonds, king). A German
    reading of the same token, rank first with the initial of a German suit name (``D``ame ``K``aro),
    is then another card: the token is refused with how to type each card. Only ``DK`` is such a token
    (``D`` is the one letter that is both a suit and a German rank, ``K`` the one German suit initial
    that is also a rank). With ``lang="de"`` a rank followed by no suit letter (``7P`` for Pik,
    ``7Kr``) is refused with how suits are typed. Any other token is left to the notation.

    Raises:
        NotationError: the token is refused.
    """
    try:
        card = Card.parse(token)
    except NotationError:
        m = _RANK_FIRST.match(token)
        if lang == "de" and m is not None:
            raise NotationError(
                f"not a card: {quoted(token)} (the suit is a letter after the rank: C clubs, D diamonds, "
                "H hearts, S spades; or the card's position in the hand: x 5)"
            ) from None
        return
    upper = token.upper()
    if letters != "de" or len(upper) != 2 or card.is_joker or upper[0] not in RANKS_DE:
        return
    rank = RANKS_DE.index(upper[0]) + 1
    readings = [Card.of(rank, suit) for suit in GERMAN_SUIT_INITIALS.get(upper[1], ())]
    if readings and card not in readings:
        typed = [(c.symbol(), RANKS_DE[c.rank - 1] + SUITS[c.suit]) for c in (card, *readings)]
        (first, how), (second, how2), (third, how3) = typed
        raise NotationError(
            f"{quoted(token)} could be several cards: {first} is typed {how}, {second} {how2}, {third} {how3}"
        )


def _position_card(token: str, hand: Sequence[Card]) -> str:
    n = int(token)
    if len(hand) == 1 and n != 1:
        raise NotationError(f"no card at position {n}: your hand has 1 card")
    if not 1 <= n <= len(hand):
        raise NotationError(f"no card at position {n}: your hand has {len(hand)} cards (1–{len(hand)})")
    return str(hand[n - 1])


def _cards_by_position(words: Sequence[str], hand: Sequence[Card]) -> list[str]:
    """Replace position numbers by the cards at those positions (a number after ``on`` is a meld)."""
    out: list[str] = []
    for i, w in enumerate(words):
        if w.isdecimal() and w.isascii() and not (i > 0 and words[i - 1].lower() == "on"):
            out.append(_position_card(w, hand))
        else:
            out.append(w)
    return out


def _layoff_on(words: list[str], lead: bool) -> list[str]:
    """``on`` put in front of the meld number where a lay-off leaves it out (``l 4 2``, ``anlegen 5H
    2``): in the lay-off itself (``lead``) and in each ``then layoff`` clause."""
    out = list(words)
    if lead and len(out) >= 2 and out[1].lower() != "on":
        out.insert(1, "on")
    for i in range(len(out) - 4, -1, -1):  # "then layoff CARD N": a clause without its number is
        if out[i].lower() == "then" and out[i + 1].lower() == "layoff" and out[i + 3].lower() != "on":
            out.insert(i + 3, "on")  # left to the notation's refusal
    return out


def _example_error(exc: NotationError, verb: str, text: str, gin: bool) -> NotationError:
    """The notation's refusal of a lay-off or an exchange with the player's own line quoted and an
    example of the short and German forms (the notation's example is the English record form)."""
    message = str(exc)
    if verb == "layoff" and message.startswith(("not a lay-off", "a lay-off moves one card")):
        if gin:
            return NotationError(f"not a lay-off: {quoted(text)} (e.g. 'layoff 5H' or 'l 4')")
        return NotationError(f"not a lay-off: {quoted(text)} (e.g. 'layoff 5H on 2' or 'l 4 2')")
    if verb == "swap" and message.startswith("not a joker exchange"):
        return NotationError(
            f"not a joker exchange: {quoted(text)} (e.g. 'swap 6C on 3 then meld 8D 9D JK' or 'swap 4 on 3')"
        )
    return exc


def parse_input(
    text: str,
    hand: Sequence[Card],
    opened: bool,
    *,
    lang: str = "en",
    letters: str = "en",
    gin: bool = False,
    top: Card | None = None,
) -> Action | str:
    """A typed line as an action, or the name of a meta command (``help``, ``hint`` …).

    ``hand`` is the hand in display order (positions count from 1); ``opened`` chooses between
    ``open`` and ``meld`` for the short form ``m``. German words are read in every language
    (:func:`german_words`); ``letters``, the rank letters the table shows, and ``lang`` decide which
    card tokens are refused as ambiguous or explained (:func:`check_card_token`); ``gin`` gives a
    refused lay-off gin's example; ``top``, the discard pile's top card, is the card a take written
    with its card (``Pik-7 von der Ablage nehmen``) must name.

    Raises:
        NotationError: the line is neither a command nor an action.
    """
    if len(text) > MAX_LINE:
        raise NotationError(f"that line is {len(text)} characters long; a move is at most {MAX_LINE}")
    line = " ".join(text.replace("|", " | ").split())
    line = german_phrase(line, top) or line
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
    last = rest.rpartition(" ")[2].lower()
    if verb not in SHORT_VERBS and verb not in ACTION_VERBS and last in GERMAN_VERBS:
        # A move as the German hint writes it, the verb last: "Kreuz-Buben abwerfen".
        verb, rest = last, line.rpartition(" ")[0]
    verb = SHORT_VERBS.get(verb, verb)
    if verb not in ACTION_VERBS:
        raise NotationError(f"unknown command {first!r}; 'help' lists your moves and the short forms")
    if verb in ("draw", "take") and rest.lower() in _PILES:
        rest = ""  # "vom Stoß ziehen", "von der Ablage nehmen"
    words = german_words(rest.split())
    if verb == "meld" and not opened:
        verb = "open"
    if verb in ("layoff", "swap"):
        words = _layoff_on(words, lead=verb == "layoff")
    if verb in ("discard", "knock", "rummy", "open", "meld", "layoff", "swap"):
        words = _cards_by_position(words, hand)
    for i, word in enumerate(words):
        meld_number = word.isdecimal() and word.isascii() and i > 0 and words[i - 1].lower() == "on"
        if word.lower() in _KEYWORDS or "(" in word or meld_number:
            continue  # a keyword, an annotated joker (JK(=7H)), a meld's number
        for token in word.replace(",", " ").split():
            check_card_token(token, letters, lang)
    try:
        return Action.parse(" ".join([verb, *words]))
    except NotationError as exc:
        raise _example_error(exc, verb, line, gin) from None


def arranged_melds(action: Action, rules: Rules) -> tuple[tuple[Card, ...], ...] | None:
    """The melds of ``action`` (an opening, a meld, an exchange's ``then meld``) in an order that
    forms them (:func:`rummykit.melds.arrange_meld`: a run low to high, its jokers in the gaps), when a
    meld was typed in another order and every meld has one; else ``None``. The terminal offers it
    when the engine refuses the order (``9♣ 10♣ Q♣ JK`` → ``9♣ 10♣ JK Q♣``)."""
    if not isinstance(action, (Open, MeldAction, Swap)) or not action.melds:
        return None
    arranged: list[tuple[Card, ...]] = []
    for cards in action.melds:
        try:
            meld = Meld.from_cards(tuple(cards), rules)
        except IllegalMeldError:
            try:
                meld = arrange_meld([str(c) for c in cards], rules)
            except (IllegalMeldError, NotationError):
                return None
        arranged.append(tuple(Card(c) for c in meld.cards))
    if arranged == [tuple(Card(c) for c in cards) for cards in action.melds]:
        return None
    return tuple(arranged)


def clip(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, so no input is echoed back at length."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_error(exc: Exception, lang: str = "en") -> str:
    """A notation error in one short line in ``lang`` (the card-format reminder shortened, quoted
    input clipped)."""
    from rummykit.i18n import localize_error

    text = _LONG_QUOTE.sub(lambda m: f"'{clip(m.group(1))}'", localize_error(exc, lang))
    if text.startswith("not a card:") and "(write rank then suit" in text:
        text = text.split(" (", 1)[0] + " (cards: QS, 10H, JK; or a position)"
    if text.startswith("Keine Karte:") and "(erst der Wert" in text:
        text = text.split(" (", 1)[0] + " (Karten: DS, 10H, JK; oder ihre Stelle)"
    return clip(text, 2 * MAX_ECHO + 60)


SHORT_FORMS: Final[dict[str, tuple[str, str]]] = {
    "d": ("d draw", "d/z ziehen"),
    "t": ("t take", "t/n von der Ablage nehmen"),
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
    "pass": ("pass", "passen"),
}
"""The short forms in English and German, by key; :func:`short_help` lists those of the game."""
SWAP_FORMS: Final[dict[str, tuple[str, str]]] = {
    "hand": (
        "swap 4 on 2 swap card 4 for meld 2's joker (it goes to your hand)",
        "tauschen 4 gegen 2 Karte 4 gegen den Joker von Figur 2 tauschen (er kommt auf die Hand)",
    ),
    "new_meld_same_turn": (
        "swap 4 on 2 then meld 5 6 JK swap card 4 for meld 2's joker and meld it at once with cards 5 6",
        "tauschen 4 gegen 2 dann auslegen 5 6 JK Karte 4 gegen den Joker von Figur 2 tauschen und "
        "ihn gleich mit den Karten 5 und 6 auslegen",
    ),
    "any_meld_same_turn": (
        "swap 4 on 2 then meld 5 6 JK swap card 4 for meld 2's joker and meld it at once with cards 5 6 "
        "(or lay it off: … then layoff JK on 3)",
        "tauschen 4 gegen 2 dann auslegen 5 6 JK Karte 4 gegen den Joker von Figur 2 tauschen und "
        "ihn gleich mit den Karten 5 und 6 auslegen (oder anlegen: … dann anlegen JK an 3)",
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


GERMAN_NOTATION_VERBS: Final = {
    "draw": "ziehen",
    "take": "nehmen",
    "open": "auslegen",
    "meld": "auslegen",
    "layoff": "anlegen",
    "swap": "tauschen",
    "discard": "abwerfen",
    "knock": "klopfen",
    "pass": "passen",
    "buyback": "zurückkaufen",
    "decline": "ablehnen",
}
"""The German verb the help writes for each verb of the notation (``rummy`` is the same word); each
is one of :data:`SHORT_VERBS`, so what the German help lists is typed as it stands."""


def german_notation(text: str) -> str:
    """An action's notation with German words, as :func:`parse_input` reads it back: ``layoff JK on
    2 low`` → ``anlegen JK an 2 unten``, ``swap 6C on 3 then meld 8D 9D JK`` → ``tauschen 6C gegen 3
    dann auslegen 8D 9D JK``; the cards stay notation."""
    words = text.split(" ")
    out: list[str] = []
    for i, word in enumerate(words):
        if i == 0 or words[i - 1] == "then":
            out.append(GERMAN_NOTATION_VERBS.get(word, word))
        elif word == "on":
            out.append("gegen" if words[0] == "swap" and "then" not in words[:i] else "an")
        else:
            out.append({"then": "dann", "low": "unten", "high": "oben"}.get(word, word))
    return " ".join(out)


def legal_moves_lines(legal: Sequence[Action], rules: Rules | None = None, lang: str = "en") -> list[str]:
    """The legal moves grouped by kind, discards on one line; in German with the German words
    (:func:`german_notation`). With ``rules``, a list of openings ends by saying that it shows the
    best one and the single melds (the engine lists those; any other opening that reaches the
    minimum is accepted as well)."""
    words = german_notation if lang == "de" else str
    groups: dict[str, list[str]] = {}
    for action in legal:
        verb = str(action).split(" ", 1)[0]
        groups.setdefault(verb, []).append(str(action))
    lines: list[str] = []
    simple = [words(i) for g in groups.values() for i in g if " " not in i]  # draw, take, pass, gin's knock …
    if simple:
        lines.append("  " + "  ·  ".join(simple))
    for verb, items in groups.items():
        items = [i for i in items if " " in i]
        if not items:
            continue
        if verb in ("discard", "knock", "rummy"):
            lines.append(f"  {words(verb)} " + " ".join(i.split(" ", 1)[1] for i in items))
        else:
            lines.extend(f"  {words(i)}" for i in items)
        if verb == "open" and rules is not None and rules.opening_min_points:
            need = rules.opening_min_points
            lines.append(
                f"  (und jedes andere Auslegen ab {need} Punkten)"
                if lang == "de"
                else f"  (and any other opening worth at least {need} points)"
            )
    return lines
