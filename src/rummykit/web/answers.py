"""The parts of a table's answers that depend on a client's message alone, not on the table: why
a message was refused (:func:`bad_message_text`), the words of a simple move (:func:`simple_texts`)
and a composed group of cards judged (:func:`_judged`); the last two are kept, as the same ones
repeat.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final

from pydantic import ValidationError

from rummykit.actions import Action
from rummykit.cards import Card, not_a_card
from rummykit.errors import IllegalMeldError, NotationError
from rummykit.melding_conditions import opening_value
from rummykit.melds import arrange_meld
from rummykit.rules import Rules
from rummykit.web.limits import MESSAGE_CHARACTERS, shown
from rummykit.web.texts import action_texts, engine_error_texts

__all__ = ["SIMPLE_TEXTS_KEPT", "bad_message_text", "simple_texts"]


def bad_message_text(exc: ValidationError) -> str:
    """Why a client message was refused, quoting at most :func:`~rummykit.web.limits.shown` of any
    value the client sent (an unknown ``type``, an unexpected field's name), never the raw input."""
    errors = exc.errors()
    if not errors:
        return "bad message: invalid"
    first = errors[0]
    where = ".".join(shown(part) for part in first.get("loc", ()))
    if first["type"] == "union_tag_invalid":
        ctx = first.get("ctx", {})
        what = f"unknown type '{shown(ctx.get('tag', ''))}'; types: {ctx.get('expected_tags', '')}"
    else:
        what = shown(first["msg"], MESSAGE_CHARACTERS)  # a validator's text may repeat the input
    return "bad message: " + " ".join(part for part in (where, what) if part)


_SIMPLE_TEXTS: Final[dict[str, dict[str, str]]] = {}
SIMPLE_TEXTS_KEPT: Final = 4096


def simple_texts(action: Action) -> dict[str, str]:
    """:func:`~rummykit.web.texts.action_texts` of a move, worded once per notation (a move's words
    depend on the move alone; the simple moves of the state messages repeat: draw, discard 7H …)."""
    key = str(action)
    found = _SIMPLE_TEXTS.get(key)
    if found is None:
        if len(_SIMPLE_TEXTS) >= SIMPLE_TEXTS_KEPT:
            _SIMPLE_TEXTS.clear()
        found = _SIMPLE_TEXTS[key] = action_texts(action)
    return found


def opening_total(
    groups: Sequence[tuple[str, ...]], entries: Sequence[dict[str, Any]], rules: Rules, taken: Card | None
) -> int:
    """What the composed ``groups`` (judged as ``entries``) count toward ``opening_min_points`` as the
    engine counts an opening (:func:`~rummykit.melding_conditions.opening_value`): the melds'
    values summed, or under ``opening_scope = single_meld`` the best one's, and under
    ``opening_counts_taken_discard = false`` without the value of ``taken``, the discard taken this
    turn. A group that is no meld counts nothing."""
    values = [entry["value"] for entry in entries if entry["legal"]]
    if rules.opening_scope != "single_meld" and (taken is None or rules.opening_counts_taken_discard):
        return sum(values)
    melds = [arrange_meld(g, rules) for g, entry in zip(groups, entries, strict=True) if entry["legal"]]
    return opening_value(melds, rules, taken)


@functools.lru_cache(maxsize=1024)
def _judged(group: tuple[str, ...], rules: Rules) -> dict[str, Any]:
    """One composed group judged under ``rules`` (the entry of an ``evaluation``; kept for the
    groups judged last, as a person composing sends the same groups again with each card added).
    An entry is shared by every answer that holds it: read it, never change it."""
    cards = [shown(card) for card in group]  # the client's own texts, escaped
    entry: dict[str, Any] = {"cards": cards, "legal": False, "value": 0, "kind": None, "error": None}
    try:
        for card in group:
            if card.split() != [card]:  # "5H 6H 7H" is three cards, not one
                raise not_a_card(card)
        meld = arrange_meld(group, rules)
    except (IllegalMeldError, NotationError) as exc:
        entry["error"] = str(exc)
        entry["error_texts"] = engine_error_texts(exc)
    else:
        entry.update(
            legal=True,
            value=meld.value,
            kind=str(meld.kind),
            text=meld.notation(),
            play=meld.notation(annotate=False),
        )
    return entry
