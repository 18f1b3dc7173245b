"""Moves in words, English and German: ``lays off the queen of hearts on meld 3`` /
``legt Herz-Dame an Figur 3 an``.

A description has no subject; a front end writes the player's name in front of it (``Anna legt …``).
``form="verb"`` gives the German infinitive phrase used at the head of an error message
(``Herz-Dame an Figur 3 anlegen: …``). A card that goes face down is not named (the public rule of
:mod:`rummykit.disclosure`) when the caller passes the rules; without rules the move is described
as its player sees it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, Literal

from rummykit.actions import (
    Action,
    BuyBack,
    CallRummy,
    Decline,
    Discard,
    Draw,
    Knock,
    KnockDeclare,
    LayOff,
    LayOffCard,
    MeldAction,
    Open,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.cards import JOKER_CODE, Card
from rummykit.disclosure import face_down_card
from rummykit.errors import IllegalMeldError
from rummykit.i18n.cards import card_name, card_object, cards_glyphs, glyphs
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.views import Phase

Form = Literal["third", "verb"]


def _melds(melds: Sequence[Sequence[int]], rules: Rules | None = None) -> str:
    """Melds as cards; with ``rules`` a joker with the card it stands for as the engine reads the meld
    (``JK(=2♣) 3♣ 4♣``), so two moves that differ only in the joker's place read differently."""
    return " | ".join(_meld_text(m, rules) for m in melds)


def _meld_text(cards: Sequence[int], rules: Rules | None) -> str:
    if rules is not None and JOKER_CODE in cards:
        try:
            return glyphs(Meld.from_cards(tuple(cards), rules).notation())
        except IllegalMeldError:
            pass  # an offered move is legal; a hand-written one may not read as a meld
    return cards_glyphs(list(cards))


def _layoff(layoff: LayOff, lang: str, form: Form) -> str:
    card = card_object(layoff.card, lang)
    if lang == "de":
        end = {"low": " unten", "high": " oben"}.get(layoff.end or "", "")
        return (
            f"{card} an Figur {layoff.target}{end} anlegen"
            if form == "verb"
            else (f"legt {card} an Figur {layoff.target}{end} an")
        )
    end = {"low": " at the low end", "high": " at the high end"}.get(layoff.end or "", "")
    return (
        f"lay off the {card} on meld {layoff.target}{end}"
        if form == "verb"
        else (f"lays off the {card} on meld {layoff.target}{end}")
    )


def _face_down(action: Action, lang: str, form: Form) -> str:
    de = lang == "de"
    if isinstance(action, Knock):
        if de:
            return (
                "klopfen, eine Karte verdeckt" if form == "verb" else "klopft und legt eine Karte verdeckt ab"
            )
        return "knock, a card face down" if form == "verb" else "knocks, laying a card face down"
    if isinstance(action, CallRummy):
        if de:
            return "Rummy rufen" if form == "verb" else "ruft Rummy und legt eine Karte verdeckt ab"
        return "call Rummy" if form == "verb" else "calls Rummy, laying a card face down"
    if de:
        return "ausmachen" if form == "verb" else "macht aus und legt eine Karte verdeckt ab"
    return "go out" if form == "verb" else "goes out, laying a card face down"


def describe_action(
    action: Action,
    lang: str,
    *,
    form: Form = "third",
    taken: int | None = None,
    rules: Rules | None = None,
    goes_out: bool = False,
    phase: Phase | None = None,
    meld_rules: Rules | None = None,
    layoffs_done: bool | None = None,
    freed: int | None = None,
) -> str:
    """``action`` in words without a subject, in ``lang`` (``en`` or ``de``).

    ``taken`` names the card a ``take`` picks up (the action itself does not hold it); with ``rules``
    a card that goes face down is left out (``goes_out``: the action ends the hand by going out).
    ``phase``, the phase the action is made in, tells what a gin ``pass`` or ``knock`` means (on the
    first upcard, at the wall, after the melds); without it they are described in general. With
    ``meld_rules`` a meld's joker shows the card it stands for (``JK(=2♣) 3♣ 4♣``): the words of
    two offered moves that differ only in the joker's place differ too. ``layoffs_done`` (the
    view's ``gin.layoffs_done`` before the move) tells which of a gin defender's two passes it is:
    the one that ends the lay-offs onto the knocker's melds (``False``), or the one that ends the
    defender's own melds and so the hand (``True``); without it the pass is described for both.
    ``freed``, the number of jokers a joker exchange frees (:func:`rummykit.melding_table.jokers_freed`
    on the table before it), is counted in its words: two naturals may free one joker (one takes its
    place, the other completes a set of four) or two; without it an exchange of several cards does
    not say how many.
    An action kind without words here is written in its notation.

    >>> describe_action(Action.parse("layoff QH on 3"), "de")
    'legt Herz-Dame an Figur 3 an'
    >>> describe_action(Action.parse("layoff QH on 3"), "en")
    'lays off the queen of hearts on meld 3'
    """
    de = lang == "de"
    verb = form == "verb"
    if rules is not None and face_down_card(action, rules, goes_out=goes_out) is not None:
        return _face_down(action, lang, form)
    if isinstance(action, Draw):
        if de:
            return "vom Stoß ziehen" if verb else "zieht vom Stoß"
        return "draw from the stock" if verb else "draws from the stock"
    if isinstance(action, TakeDiscard):
        if taken is None:
            if de:
                return "von der Ablage nehmen" if verb else "nimmt die oberste Karte der Ablage"
            return "take the discard" if verb else "takes the top discard"
        card = card_object(taken, lang)
        if de:
            return f"{card} von der Ablage nehmen" if verb else f"nimmt {card} von der Ablage"
        return f"take the {card} from the discard pile" if verb else f"takes the {card} from the discard pile"
    if isinstance(action, Open):
        if de:
            return (
                f"{_melds(action.melds, meld_rules)} auslegen"
                if verb
                else f"legt zum ersten Mal aus: {_melds(action.melds, meld_rules)}"
            )
        laid = _melds(action.melds, meld_rules)
        return f"open with {laid}" if verb else f"opens with {laid}"
    if isinstance(action, MeldAction):
        if de:
            laid = _melds(action.melds, meld_rules)
            return f"{laid} auslegen" if verb else f"legt aus: {laid}"
        laid = _melds(action.melds, meld_rules)
        return f"meld {laid}" if verb else f"melds {laid}"
    if isinstance(action, LayOff):
        return _layoff(action, lang, form)
    if isinstance(action, Swap):
        return _swap(action, lang, form, meld_rules, freed)
    if isinstance(action, Pass):
        return _pass(lang, form, phase, layoffs_done)
    if isinstance(action, KnockDeclare):
        if phase is Phase.WALL:
            if de:
                return "mit der offenen Karte klopfen" if verb else "klopft mit der offenen Karte"
            return "knock with the upcard" if verb else "knocks with the upcard"
        if de:
            return "klopfen" if verb else "klopft"
        return "knock" if verb else "knocks"
    if isinstance(action, LayOffCard):
        card = card_object(action.card, lang)
        if de:
            return (
                f"{card} an eine Figur des Klopfenden anlegen"
                if verb
                else f"legt {card} an eine Figur des Klopfenden an"
            )
        return (
            f"lay off the {card} on the knocker's melds"
            if verb
            else f"lays off the {card} on the knocker's melds"
        )
    if isinstance(action, Knock) and phase is Phase.WALL:
        card = card_object(action.card, lang)
        if de:
            return (
                f"mit der offenen Karte klopfen und {card} abwerfen"
                if verb
                else f"klopft mit der offenen Karte und wirft {card} ab"
            )
        return (
            f"knock with the upcard, discarding the {card}"
            if verb
            else f"knocks with the upcard, discarding the {card}"
        )
    if isinstance(action, Knock):
        card = card_object(action.card, lang)
        if de:
            return f"klopfen und {card} abwerfen" if verb else f"klopft und wirft {card} ab"
        return f"knock, discarding the {card}" if verb else f"knocks, discarding the {card}"
    if isinstance(action, CallRummy):
        card = card_object(action.card, lang)
        if de:
            return f"Rummy rufen, {card} verdeckt" if verb else f"ruft Rummy und legt {card} verdeckt ab"
        return f"call Rummy, the {card} face down" if verb else f"calls Rummy, laying the {card} face down"
    if isinstance(action, Discard):
        card = card_object(action.card, lang)
        if de:
            return f"{card} abwerfen" if verb else f"wirft {card} ab"
        return f"discard the {card}" if verb else f"discards the {card}"
    if isinstance(action, BuyBack):
        if de:
            return "sich zurückkaufen" if verb else "kauft sich in die Partie zurück"
        return "buy back" if verb else "buys back into the rubber"
    if isinstance(action, Decline):
        if de:
            return "den Rückkauf ablehnen" if verb else "verzichtet auf den Rückkauf"
        return "decline the buy-back" if verb else "declines the buy-back"
    return str(action)


_PASS: Final[dict[Phase | None, tuple[str, str, str, str]]] = {
    # phase: English verb form, English third person, German verb form, German third person
    Phase.FIRST_UPCARD: (
        "pass on the upcard",
        "passes on the upcard",
        "bei der offenen Karte passen",
        "passt bei der offenen Karte",
    ),
    Phase.WALL: (
        "pass at the wall (the hand ends unscored)",
        "passes at the wall; the hand ends unscored",
        "an der Mauer passen (das Spiel endet ohne Wertung)",
        "passt an der Mauer; das Spiel endet ohne Wertung",
    ),
    Phase.KNOCK: (
        "pass: done laying melds",
        "has laid the melds and passes",
        "passen: fertig mit dem Auslegen",
        "hat ausgelegt und passt",
    ),
    Phase.LAYOFF: (
        "pass: done laying off or melding",
        "is done laying off or melding and passes",
        "passen: fertig mit dem Anlegen oder Auslegen",
        "ist mit dem Anlegen oder Auslegen fertig und passt",
    ),
    None: ("pass", "passes", "passen", "passt"),
}
"""A gin ``pass`` in words, by the phase it is made in."""

_DEFENDER_PASS: Final[dict[bool, tuple[str, str, str, str]]] = {
    # gin.layoffs_done before the pass: English verb form, English third person, German verb form,
    # German third person
    False: (
        "pass: done laying off",
        "is done laying off",
        "passen: fertig mit dem Anlegen",
        "ist mit dem Anlegen fertig",
    ),
    True: (
        "pass: done laying melds",
        "is done laying melds",
        "passen: fertig mit dem Auslegen",
        "ist mit dem Auslegen fertig",
    ),
}
"""The gin defender's two passes (``Phase.LAYOFF``): the first ends the lay-offs onto the knocker's
melds, after which the defender lays its own melds; the second ends those, and the hand is scored.
Each says what it ended, so the log does not call the defender done with melding before its melds."""


def _pass(lang: str, form: Form, phase: Phase | None, layoffs_done: bool | None = None) -> str:
    if phase is Phase.LAYOFF and layoffs_done is not None:
        en_verb, en_third, de_verb, de_third = _DEFENDER_PASS[layoffs_done]
    else:
        en_verb, en_third, de_verb, de_third = _PASS.get(phase, _PASS[None])
    if lang == "de":
        return de_verb if form == "verb" else de_third
    return en_verb if form == "verb" else en_third


_NUMBERS: Final = {"en": ("a", "two", "three", "four"), "de": ("einen", "zwei", "drei", "vier")}


def joker_count(freed: int | None, cards: int, lang: str) -> str:
    """The jokers a joker exchange takes: ``a joker``/``einen Joker``, ``two jokers``/``zwei Joker``;
    without the count, one card frees exactly one and several say no number (``jokers``/``Joker``)."""
    if freed is None and cards == 1:
        freed = 1
    if freed is None:
        return "Joker" if lang == "de" else "jokers"
    number = _NUMBERS[lang][freed - 1] if 1 <= freed <= len(_NUMBERS[lang]) else str(freed)
    if lang == "de":
        return f"{number} Joker"
    return f"{number} joker" if freed == 1 else f"{number} jokers"


def _swap(action: Swap, lang: str, form: Form, rules: Rules | None = None, freed: int | None = None) -> str:
    de = lang == "de"
    naturals = (
        " ".join(card_name(c, lang) for c in action.cards)
        if len(action.cards) == 1
        else cards_glyphs(list(action.cards))
    )
    jokers = joker_count(freed, len(action.cards), lang)
    if de:
        parts = [
            f"{naturals} gegen {jokers} von Figur {action.target} tauschen"
            if form == "verb"
            else f"tauscht {naturals} gegen {jokers} von Figur {action.target}"
        ]
        if action.melds:
            melds = _melds(action.melds, rules)
            parts.append(f"{melds} auslegen" if form == "verb" else f"legt aus: {melds}")
        parts += [_layoff(lo, lang, form) for lo in action.layoffs]
        return " und ".join(parts)
    article = "the " if len(action.cards) == 1 else ""
    swap = "swap" if form == "verb" else "swaps"
    parts = [f"{swap} {article}{naturals} for {jokers} of meld {action.target}"]
    if action.melds:
        parts.append(f"{'meld' if form == 'verb' else 'melds'} {_melds(action.melds, rules)}")
    parts += [_layoff(lo, lang, form) for lo in action.layoffs]
    return " and ".join(parts)


def seat_draw_text(card: int | None, *, deals_first: bool, lang: str) -> str:
    """A line of the draw for the first dealer: ``draws the king of spades for the seats and deals
    first`` / ``zieht um Plätze und Geber Pik-König und gibt zuerst`` (said as the seat draw, not to be
    read as a draw from the stock whose card everybody saw); ``card=None``: the seats were drawn by
    lot."""
    de = lang == "de"
    if card is None:
        return "gibt zuerst (Plätze ausgelost)" if de else "deals first (seats by lot)"
    name = card_object(Card(card), lang)
    text = f"zieht um Plätze und Geber {name}" if de else f"draws the {name} for the seats"
    if deals_first:
        text += " und gibt zuerst" if de else " and deals first"
    return text


def first_dealer_text(card: int, lang: str) -> str:
    """The seat draw's last line when the dealer did not draw in its last round (a player beside
    them drew a joker and drew again lower): ``deals first with the king of hearts`` / ``gibt
    zuerst mit Herz-König``."""
    name = card_name(Card(card), lang)
    return f"gibt zuerst mit {name}" if lang == "de" else f"deals first with the {name}"


_DU_VERBS: Final = {
    "gibt": "gibst",
    "hat sich": "hast dich",
    "hat": "hast",
    "ist": "bist",
    "kauft sich": "kaufst dich",
    "klopft": "klopfst",
    "legt": "legst",
    "macht": "machst",
    "muss": "musst",
    "nimmt": "nimmst",
    "ruft": "rufst",
    "tauscht": "tauschst",
    "verzichtet": "verzichtest",
    "wirft": "wirfst",
    "zieht": "ziehst",
}
_DU_ALTERNATION: Final = "|".join(sorted(_DU_VERBS, key=len, reverse=True))
_DU_VERB: Final = re.compile(rf"\b({_DU_ALTERNATION})\b")
_DU_SUBJECT: Final = re.compile(rf"\bDu ({_DU_ALTERNATION})\b")


def second_person_de(third: str) -> str:
    """A German move description (third person, :func:`describe_action`) said to the person at the
    keyboard: ``nimmt Herz-8 von der Ablage`` → ``nimmst Herz-8 von der Ablage`` (after "Du").

    >>> second_person_de("klopft und wirft Karo-König ab")
    'klopfst und wirfst Karo-König ab'
    """
    return _DU_VERB.sub(lambda m: _DU_VERBS[m.group(1)], third)


def du_agrees_de(text: str) -> str:
    """``text`` with each "Du" followed by a third-person verb in the second person: an engine message
    names a seat, and a front end may call the person at the keyboard "Du".

    >>> du_agrees_de("Du hat sich schon zurückgekauft")
    'Du hast dich schon zurückgekauft'
    """
    return _DU_SUBJECT.sub(lambda m: "Du " + _DU_VERBS[m.group(1)], text)
