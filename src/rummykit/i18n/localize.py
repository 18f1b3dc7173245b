"""Engine errors for people in English or German: :func:`localize_error`.

The English text is the engine's own message (seats replaced by names). The German text comes from
the catalogue (:mod:`rummykit.i18n.catalogue`): the entry whose English template matches the message
gives the German sentence, each piece rendered in German. A message without an entry (a new one, or
one from code outside the engine) is never shown in English in a German front end: it becomes a
German sentence naming the broken rule.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Final

from rummykit.actions import Action
from rummykit.cards import RANKS
from rummykit.errors import (
    IllegalActionError,
    IllegalMeldError,
    NotationError,
    RulesError,
    RummyError,
    name_seats,
)
from rummykit.explain import preset_line
from rummykit.explain.language import number_de, times_de
from rummykit.explain.terms import OPTION_LABELS
from rummykit.i18n.cards import RANK_NAMES, card_name, glyphs
from rummykit.i18n.catalogue import ERRORS, FRAGMENTS, OPTION_EN, PEOPLE_EN, RULE_NAMES
from rummykit.i18n.moves import describe_action, du_agrees_de
from rummykit.melds import meld_text_cards
from rummykit.record import ReplayError
from rummykit.revisions import OlderRulesError, older_text, written

_PLACEHOLDER: Final = re.compile(r"\{([a-z_]+[0-9]?)\}")
_ANY_FIELD: Final = re.compile(r"\{[^{}]*\}")
NESTED: Final = frozenset({"reason", "problem", "why", "scope", "where", "who", "first", "how", "times"})
"""Placeholder names whose piece has its own catalogue entry."""
MAX_DEPTH: Final = 3
_OPTION: Final = "{option}"


class _NoFit(Exception):
    """A piece of a message does not read as its placeholder's kind: try the next entry."""


@functools.cache
def template_regex(template: str) -> re.Pattern[str]:
    """A template as a regular expression: literal text, each ``{name}`` a named group (a name used
    twice must repeat the same text)."""
    out: list[str] = []
    seen: set[str] = set()
    pos = 0
    for m in _PLACEHOLDER.finditer(template):
        out.append(re.escape(template[pos : m.start()]))
        name = m.group(1)
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>.*?)")
        seen.add(name)
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out), re.DOTALL)


def skeleton(template: str) -> str:
    """A template with every placeholder (or interpolated expression) written ``{}``: a catalogue
    template and the engine's f-string of one message agree on it."""
    return _ANY_FIELD.sub("{}", template)


def rule_name(rule: str, lang: str) -> str | None:
    """The name of rule id ``rule`` for people in ``lang`` (an option's label for an option id), or
    ``None`` for an id the catalogue does not know."""
    names = RULE_NAMES.get(rule) or OPTION_LABELS.get(rule)
    if names is None:
        return None
    return names[1] if lang == "de" else names[0]


def _kind(name: str) -> str:
    return name.rstrip("0123456789")


def _notation(piece: str) -> tuple[int, ...]:
    try:
        return meld_text_cards(piece)
    except RummyError:
        raise _NoFit(piece) from None


def _cards(piece: str, lang: str) -> str:
    cards = _notation(piece)
    return card_name(cards[0], "de") if lang == "de" and len(cards) == 1 else glyphs(piece)


def _meld(piece: str, lang: str) -> str:
    _notation(piece)
    return glyphs(piece)


def _action(piece: str, lang: str) -> str:
    try:
        action = Action.parse(piece)
    except RummyError:
        raise _NoFit(piece) from None
    return describe_action(action, "de", form="verb") if lang == "de" else glyphs(piece)


def _seat(piece: str, names: Sequence[str], lang: str) -> str:
    if not piece.isdigit():
        raise _NoFit(piece)
    if lang != "de":
        return piece  # the template says "seat {seat}": name_seats names the whole sentence's seats
    seat = int(piece)
    return names[seat] if seat < len(names) else f"Platz {seat}"


def _option(piece: str, lang: str) -> str:
    """An option by its label, as the lobby and the rules pages name it (before a rule's short name)."""
    names = OPTION_LABELS.get(piece) or RULE_NAMES.get(piece)
    if names is None:
        raise _NoFit(piece)
    return names[1] if lang == "de" else names[0]


def _game(piece: str, lang: str) -> str:
    try:
        return preset_line(piece, lang)[0]
    except RummyError:
        return piece


def _rank(piece: str, lang: str) -> str:
    if piece not in RANKS:
        raise _NoFit(piece)
    if lang != "de":
        return piece
    rank = RANKS.index(piece) + 1
    return RANK_NAMES["de"].get(rank, str(rank))


def _often(piece: str, lang: str) -> str:
    if not piece.isdigit():
        raise _NoFit(piece)
    return times_de(int(piece)) if lang == "de" else piece


def _bytes(piece: str, lang: str) -> str:
    if not piece.isdigit():
        raise _NoFit(piece)
    return number_de(int(piece)) if lang == "de" else piece


def _field(piece: str, lang: str) -> str:
    """A record's field the engine quotes (``'players'``), in German quotation marks as the German text
    quotes the other fields (``„players“``)."""
    if lang == "de" and len(piece) > 1 and piece[0] == piece[-1] == "'":
        return f"„{piece[1:-1]}“"
    return piece


def _alts(piece: str, lang: str) -> str:
    return (" oder " if lang == "de" else " or ").join(_cards(c, lang) for c in piece.split(" or "))


_PIECES: Final[dict[str, Callable[[str, str], str]]] = {
    "action": _action,
    "card": _cards,
    "cards": _cards,
    "pending": _cards,
    "text": _meld,
    "meld": _meld,
    "shape": lambda piece, lang: glyphs(piece),
    "option": _option,
    "game": _game,
    "rank": _rank,
    "alts": _alts,
    "often": _often,
    "field": _field,
    "bytes": _bytes,
    "sign": lambda piece, lang: {"<=": "≤", "<": "<"}.get(piece, piece),
}
"""How each kind of piece reads for people, by the piece's name (see :mod:`rummykit.i18n.catalogue`)."""


def _piece(name: str, piece: str, rule: str, names: Sequence[str], lang: str, depth: int) -> str:
    kind = _kind(name)
    if kind in _PIECES:
        return _PIECES[kind](piece, lang)
    if kind == "seat":
        return _seat(piece, names, lang)
    if kind in NESTED:
        text = _people(piece, rule, names, lang, depth + 1, fragments=True)
        if text is None:
            raise _NoFit(piece)
        return text
    return piece


def _fill(template: str, match: re.Match[str], rule: str, names: Sequence[str], lang: str, depth: int) -> str:
    pieces = match.groupdict()
    values = {k: _piece(k, v, rule, names, lang, depth) for k, v in pieces.items()}
    values.update({f"{k}_raw": v for k, v in pieces.items()})
    text = template.format(**values)
    return name_seats(text, names) if lang != "de" else du_agrees_de(text)


def people_english(template: str) -> str:
    """The English a player reads for the engine's English ``template``: :data:`PEOPLE_EN`'s sentence
    where the engine names an option or value by its id, a rules refusal's option by its label and
    its id (:data:`OPTION_EN`), else the template itself."""
    if template in PEOPLE_EN:
        return PEOPLE_EN[template]
    if template.startswith(_OPTION):
        return OPTION_EN + template[len(_OPTION) :]
    return template


def _people(
    message: str, rule: str, names: Sequence[str], lang: str, depth: int = 0, *, fragments: bool = False
) -> str | None:
    """``message`` (raised with ``rule``) for people in ``lang`` from the catalogue, or ``None``."""
    if depth > MAX_DEPTH:
        return None
    if fragments:
        for en, de in FRAGMENTS:
            m = template_regex(en).fullmatch(message)
            if m is not None:
                try:
                    return _fill(de if lang == "de" else people_english(en), m, rule, names, lang, depth)
                except _NoFit:
                    continue
    for entry_rule, en, de in ERRORS:
        if entry_rule not in (rule, "*"):
            continue
        m = template_regex(en).fullmatch(message)
        if m is None:
            continue
        try:
            return _fill(de if lang == "de" else people_english(en), m, rule, names, lang, depth)
        except _NoFit:
            continue
    return None


def error_rule(exc: BaseException) -> str:
    """The catalogue key of an error: its ``rule``, ``notation`` for notation errors, ``rules`` for
    rules errors, else ``""``."""
    if isinstance(exc, (IllegalActionError, IllegalMeldError)):
        return exc.rule
    if isinstance(exc, NotationError):
        return "notation"
    if isinstance(exc, RulesError):
        return "rules"
    return ""


def _fallback(message: str, rule: str, exc: BaseException) -> str:
    """A German sentence for a message without an entry: the action, if it leads the message, and the
    name of the broken rule."""
    head = message.split(": ", 1)[0]
    try:
        action = describe_action(Action.parse(head), "de", form="verb") + ": "
    except RummyError:
        action = ""
    if isinstance(exc, NotationError):
        return "Das ist kein gültiger Zug (oder keine gültige Schreibweise)"
    if isinstance(exc, RulesError):
        option = exc.option and rule_name(exc.option, "de")
        return f"Ungültige Regel „{option}“" if option else "Ungültige Regeln"
    name = rule_name(rule, "de")
    if name is None:
        return f"{action}Das ist nicht erlaubt"
    return f"{action}Nicht erlaubt ({name})"


def localize_message(message: str, rule: str, lang: str, names: Sequence[str] = ()) -> str | None:
    """``message`` (an engine error text raised with ``rule``) for people in ``lang``; ``None`` when
    the catalogue has no entry for it. The engine's English (seats named) is what English falls back
    to (:func:`localize_error`)."""
    return _people(message, rule, names, lang)


def localize_note(note: str, lang: str) -> str:
    """A notice the library writes in English (a bot's :func:`~rummykit.bots.base.seat_notice`) in
    ``lang``; the English itself where the catalogue has no entry for it."""
    return _people(note, "", (), lang, fragments=True) or note


def localize_reason(reason: str, lang: str, names: Sequence[str] = ()) -> str:
    """A reason the engine gives as text, not as an error (``Match.no_buyback_offer``), in ``lang``."""
    text = _people(reason, "", names, lang, fragments=True)
    if text is not None:
        return text
    return "nicht möglich" if lang == "de" else name_seats(reason, names)


def localize_error(exc: BaseException, lang: str, names: Sequence[str] = ()) -> str:
    """The message of ``exc`` for people, in ``lang`` (``en`` or ``de``); ``names`` are the players'
    names by seat, put in place of "seat N". Cards read with suit symbols and options by their
    labels; the engine's own text (``str(exc)``) is what programs see.

    >>> from rummykit.errors import LayOffError, DiscardError
    >>> localize_error(LayOffError("layoff QH on 3: only a player who has opened may lay off",
    ...                            "layoff_requires_opened"), "de")
    'Herz-Dame an Figur 3 anlegen: Anlegen darf nur, wer schon ausgelegt hat'
    >>> localize_error(DiscardError("discard JK: a joker may be discarded only as the closing card "
    ...                             "(joker_discard_allowed is only_when_closing)",
    ...                             "joker_discard_allowed"), "en")
    'discard JK: a joker may be discarded only as the closing card'
    """
    if isinstance(exc, ReplayError):
        return _replay_error(exc, lang, names)
    if isinstance(exc, OlderRulesError):
        said = "der Text" if lang == "de" else "the text"
        return f"{localize_error(exc.cause, lang, names)} ({said} {written(exc.revision, lang)})"
    message = str(exc)
    rule = error_rule(exc)
    text = _people(message, rule, names, lang)
    if text is not None:
        return text
    return _fallback(message, rule, exc) if lang == "de" else name_seats(message, names)


def _replay_error(exc: ReplayError, lang: str, names: Sequence[str]) -> str:
    """A record's action that cannot be replayed: which, the engine's reason, and for an older record
    the rule changes since that may be why."""
    reason = localize_error(exc.cause, lang, names)
    older = older_text(exc.revision, exc.changes, lang)
    if lang == "de":
        try:
            action = describe_action(Action.parse(exc.action), "de", form="verb")
        except RummyError:
            action = exc.action
        return f"Zug {exc.number} der Aufzeichnung ({action}) lässt sich nicht nachspielen: {reason}{older}"
    return f"record action {exc.number} ({exc.action}) cannot be replayed: {reason}{older}"


def error_texts(exc: BaseException, names: Sequence[str] = ()) -> dict[str, str]:
    """``{"en": …, "de": …}``: the message of ``exc`` in every language (what the web server sends)."""
    return {"en": localize_error(exc, "en", names), "de": localize_error(exc, "de", names)}


__all__ = [
    "error_rule",
    "error_texts",
    "localize_error",
    "localize_message",
    "localize_reason",
    "rule_name",
    "skeleton",
]
