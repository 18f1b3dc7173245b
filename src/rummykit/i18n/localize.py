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
from rummykit.explain.terms import OPTION_LABELS
from rummykit.i18n.cards import RANK_NAMES, card_name, glyphs
from rummykit.i18n.catalogue import ERRORS, FRAGMENTS, RULE_NAMES
from rummykit.i18n.moves import describe_action
from rummykit.melds import meld_text_cards

_PLACEHOLDER: Final = re.compile(r"\{([a-z_]+[0-9]?)\}")
_ANY_FIELD: Final = re.compile(r"\{[^{}]*\}")
NESTED: Final = frozenset({"reason", "problem", "why", "scope", "where", "who", "first", "how", "times"})
"""Placeholder names whose piece has its own catalogue entry."""
MAX_DEPTH: Final = 3


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


def _cards(piece: str) -> str:
    try:
        cards = meld_text_cards(piece)
    except RummyError:
        raise _NoFit(piece) from None
    return card_name(cards[0], "de") if len(cards) == 1 else glyphs(piece)


def _meld(piece: str) -> str:
    try:
        meld_text_cards(piece)
    except RummyError:
        raise _NoFit(piece) from None
    return glyphs(piece)


def _action(piece: str) -> str:
    try:
        return describe_action(Action.parse(piece), "de", form="verb")
    except RummyError:
        raise _NoFit(piece) from None


def _seat(piece: str, names: Sequence[str]) -> str:
    if not piece.isdigit():
        raise _NoFit(piece)
    seat = int(piece)
    return names[seat] if seat < len(names) else f"Platz {seat}"


def _option(piece: str) -> str:
    """An option by its label, as the lobby and the rules pages name it (before a rule's short name)."""
    names = OPTION_LABELS.get(piece) or RULE_NAMES.get(piece)
    if names is None:
        raise _NoFit(piece)
    return names[1]


def _game(piece: str) -> str:
    try:
        return preset_line(piece, "de")[0]
    except RummyError:
        return piece


def _rank(piece: str) -> str:
    if piece not in RANKS:
        raise _NoFit(piece)
    rank = RANKS.index(piece) + 1
    return RANK_NAMES["de"].get(rank, str(rank))


def _piece(name: str, piece: str, rule: str, names: Sequence[str], depth: int) -> str:
    kind = _kind(name)
    simple: dict[str, Callable[[str], str]] = {
        "action": _action,
        "card": _cards,
        "cards": _cards,
        "pending": _cards,
        "text": _meld,
        "meld": _meld,
        "shape": glyphs,
        "option": _option,
        "game": _game,
        "rank": _rank,
        "alts": lambda p: " oder ".join(_cards(c) for c in p.split(" or ")),
        "sign": lambda p: {"<=": "≤", "<": "<"}.get(p, p),
    }
    if kind in simple:
        return simple[kind](piece)
    if kind == "seat":
        return _seat(piece, names)
    if kind in NESTED:
        text = _german(piece, rule, names, depth + 1, fragments=True)
        if text is None:
            raise _NoFit(piece)
        return text
    return piece


_DU: Final = (
    (re.compile(r"\bDu hat sich\b"), "Du hast dich"),
    (re.compile(r"\bDu hat\b"), "Du hast"),
    (re.compile(r"\bDu ist\b"), "Du bist"),
)
"""A front end may call the person at the keyboard "Du": the verb then takes the second person."""


def _fill(template: str, match: re.Match[str], rule: str, names: Sequence[str], depth: int) -> str:
    pieces = match.groupdict()
    values = {k: _piece(k, v, rule, names, depth) for k, v in pieces.items()}
    values.update({f"{k}_raw": v for k, v in pieces.items()})
    text = template.format(**values)
    for pattern, second_person in _DU:
        text = pattern.sub(second_person, text)
    return text


def _german(
    message: str, rule: str, names: Sequence[str], depth: int = 0, *, fragments: bool = False
) -> str | None:
    """The German text of ``message`` (raised with ``rule``) from the catalogue, or ``None``."""
    if depth > MAX_DEPTH:
        return None
    if fragments:
        for en, de in FRAGMENTS:
            m = template_regex(en).fullmatch(message)
            if m is not None:
                try:
                    return _fill(de, m, rule, names, depth)
                except _NoFit:
                    continue
    for entry_rule, en, de in ERRORS:
        if entry_rule not in (rule, "*"):
            continue
        m = template_regex(en).fullmatch(message)
        if m is None:
            continue
        try:
            return _fill(de, m, rule, names, depth)
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
    """``message`` (an engine error text raised with ``rule``) in ``lang``; ``None`` when the
    catalogue has no entry for it in German. English is the message itself, seats named."""
    if lang != "de":
        return name_seats(message, names)
    return _german(message, rule, names)


def localize_reason(reason: str, lang: str, names: Sequence[str] = ()) -> str:
    """A reason the engine gives as text, not as an error (``Match.no_buyback_offer``), in ``lang``."""
    if lang != "de":
        return name_seats(reason, names)
    text = _german(reason, "", names, fragments=True)
    return text if text is not None else "nicht möglich"


def localize_error(exc: BaseException, lang: str, names: Sequence[str] = ()) -> str:
    """The message of ``exc`` for people, in ``lang`` (``en`` or ``de``); ``names`` are the players'
    names by seat, put in place of "seat N".

    >>> from rummykit.errors import LayOffError
    >>> localize_error(LayOffError("layoff QH on 3: only a player who has opened may lay off",
    ...                            "layoff_requires_opened"), "de")
    'Herz-Dame an Figur 3 anlegen: Anlegen darf nur, wer schon ausgelegt hat'
    """
    message = str(exc)
    if lang != "de":
        return name_seats(message, names)
    rule = error_rule(exc)
    text = _german(message, rule, names)
    return text if text is not None else _fallback(message, rule, exc)


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
