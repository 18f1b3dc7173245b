"""Engine texts for people in English and German: error messages, moves, table labels.

Pure functions without dependencies; the engine itself keeps speaking English and rule ids, and the
front ends (terminal, web) call these when they show something to a person.

>>> import rummykit as rk
>>> from rummykit.i18n import describe_action, localize_error
>>> describe_action(rk.Action.parse("layoff QH on 3"), "de")
'legt Herz-Dame an Figur 3 an'
>>> m = rk.Match.new(rk.Rules.preset("german"), 2, seed=4)
>>> try:
...     m.apply("discard QH")
... except rk.RummyError as exc:
...     print(localize_error(exc, "de"))
Herz-Dame abwerfen: Zuerst vom Stoß ziehen oder von der Ablage nehmen
"""

from __future__ import annotations

from collections.abc import Callable

from rummykit.errors import register_localizer
from rummykit.i18n.cards import (
    CARD_LETTERS,
    card_name,
    cards_glyphs,
    face_letters,
    glyphs,
    message_letters,
    notation_letters,
)
from rummykit.i18n.labels import LABEL_KEYS, label, labels
from rummykit.i18n.language import LANGUAGES, lang_from_env, normalize_lang
from rummykit.i18n.localize import (
    error_rule,
    error_texts,
    localize_error,
    localize_message,
    localize_note,
    rule_name,
)
from rummykit.i18n.moves import describe_action, first_dealer_text, seat_draw_text

register_localizer(localize_error)  # behind RummyError.localized


def in_every_language(make: Callable[[str], str]) -> dict[str, str]:
    """``{"en": make("en"), "de": make("de")}``: one text in every language (what the web server
    sends, so that each client shows its own language)."""
    return {lang: make(lang) for lang in LANGUAGES}


__all__ = [
    "CARD_LETTERS",
    "LABEL_KEYS",
    "LANGUAGES",
    "card_name",
    "cards_glyphs",
    "describe_action",
    "error_rule",
    "error_texts",
    "face_letters",
    "first_dealer_text",
    "glyphs",
    "in_every_language",
    "label",
    "labels",
    "lang_from_env",
    "localize_error",
    "localize_message",
    "localize_note",
    "message_letters",
    "normalize_lang",
    "notation_letters",
    "rule_name",
    "seat_draw_text",
]
