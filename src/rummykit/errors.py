"""The error hierarchy of rummykit.

Every error raised for bad input derives from :class:`RummyError` and from :class:`ValueError`, so a
caller can catch one family (``except rk.IllegalActionError``) or everything (``except
rk.RummyError``). Programs branch on the class or on the ``rule`` attribute, never on message text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

Localizer = Callable[[BaseException, str, Sequence[str]], str]
"""``(error, lang, names) -> text``: :func:`rummykit.i18n.localize_error`, which registers itself
(:func:`register_localizer`) when ``rummykit`` is imported; the errors cannot import the message
catalogue, which is built on them."""
_localizer: Localizer | None = None


def register_localizer(localize: Localizer) -> None:
    """Make ``localize`` the function behind :meth:`RummyError.localized`."""
    global _localizer
    _localizer = localize


_SEAT: re.Pattern[str] = re.compile(r"\b(?:the player in )?seat (\d+)('s)?")


def name_seats(message: str, names: Sequence[str]) -> str:
    """``message`` with every "seat N" (and "the player in seat N") replaced by that player's name.

    The engine knows seats, not names; front ends that know the names call this before showing an
    error. Seats without a name stay as they are.

    >>> name_seats("knock 5H: the player in seat 1 has already knocked", ["Anna", "Ben"])
    'knock 5H: Ben has already knocked'
    """

    def name(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        if seat >= len(names):
            return m.group(0)
        return names[seat] + (m.group(2) or "")

    return _SEAT.sub(name, message)


QUOTED_CHARACTERS: Final = 40
"""The most characters of a value from outside (typed by a player, sent by a web client, read from a
file) that an error message quotes."""


def quoted(value: object, limit: int = QUOTED_CHARACTERS) -> str:
    r"""``value`` as an error message quotes it: its ``repr``, with a text clipped to its first
    ``limit`` characters and ``…`` after the closing quote when there were more.

    The ``repr`` writes out every newline, control character and terminal escape (``\n``,
    ``\x1b``), so a quoted value cannot break a log line or a terminal; the clip keeps a message
    short however long the input was (a web client's move, a rules text, an option's value).

    >>> quoted("QX")
    "'QX'"
    >>> quoted("x" * 50 + "\n")
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'…"
    >>> print(quoted("7H\n\x1b[31m"))
    '7H\n\x1b[31m'
    >>> quoted((1, 2))
    '(1, 2)'
    """
    if isinstance(value, str):
        return repr(value[:limit]) + ("…" if len(value) > limit else "")
    try:
        text = repr(value)
    except ValueError:  # an integer of more digits than Python writes out
        text = f"<an integer of {value.bit_length()} bits>" if isinstance(value, int) else "<unprintable>"
    return text if len(text) <= limit else text[:limit] + "…"


class RummyError(Exception):
    """Root of every error rummykit raises for bad input. Its message is English; front ends show it
    in the player's language with :meth:`localized` (:func:`rummykit.i18n.localize_error`, keyed by
    ``rule``).

    Errors pickle with their attributes (``rule``, ``option``), so an error raised in a worker
    process (the arena's, self-play's, the server's bot processes) reaches the caller unchanged.
    """

    def localized(self, lang: str = "en", names: Sequence[str] = ()) -> str:
        """The message in ``lang``: German for ``"de"`` (also ``"DE"``, ``"de-AT"``, ``"de_DE.UTF-8"``),
        from the message catalogue; for every other language the message itself (``str(err)``);
        seats are named by ``names`` where given.

        >>> import rummykit as rk
        >>> try:
        ...     rk.Round.new(rk.Rules.preset("german"), 2, seed=4).apply("discard QH")
        ... except rk.RummyError as exc:
        ...     print(exc.localized("de"))
        Herz-Dame abwerfen: Zuerst vom Stoß ziehen oder von der Ablage nehmen
        """
        code = lang.strip().lower().replace("-", "_").split("_", 1)[0] if isinstance(lang, str) else ""
        if code != "de" or _localizer is None:  # English, and every language without a catalogue
            return name_seats(str(self), names)
        return _localizer(self, code, names)

    def __reduce__(self) -> tuple[object, ...]:
        # Exception pickles as cls(*args), which fails for the subclasses whose __init__ takes more
        # than the message; rebuild from the arguments by the built-in exception's own __init__
        # (ImportError's sets msg), then restore the attributes (rule, option, notes).
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


def _rebuild(cls: type[RummyError], args: tuple[object, ...], attributes: dict[str, object]) -> RummyError:
    error = cls.__new__(cls)
    builtin = next(b for b in cls.__mro__ if b.__module__ == "builtins" and issubclass(b, BaseException))
    builtin.__init__(error, *args)
    error.__dict__.update(attributes)
    return error


class NotationError(RummyError, ValueError):
    """Text that is not valid card, meld, action, rules or record notation."""


class RulesError(RummyError, ValueError):
    """An invalid option value or an inconsistent combination of options."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class IllegalMeldError(RummyError, ValueError):
    """Cards that do not form a valid meld (set or run) under the rules in force.

    ``rule`` names the broken rule, e.g. ``"set_distinct_suits"`` or ``"run_wraparound"``.
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


class IllegalActionError(RummyError, ValueError):
    """An action that the current round or match does not allow.

    ``rule`` names the broken rule: the option name of RULES.md §6 where there is one
    (``"opening_min_points"``, ``"may_discard_taken_discard"``), otherwise a short identifier such as
    ``"not_your_turn"`` or ``"card_not_in_hand"``. The round is left unchanged.
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


class WrongTurnError(IllegalActionError):
    """The action does not fit the phase of the turn (e.g. discarding before drawing)."""


class CardNotInHandError(IllegalActionError):
    """The action uses cards the player does not hold."""


class DrawError(IllegalActionError):
    """Drawing or taking the discard is not allowed now."""


class OpeningError(IllegalActionError):
    """The opening (first meld) breaks a rule, e.g. ``opening_min_points``."""


class MeldError(IllegalActionError):
    """A meld in the action is invalid, or melding is not allowed now."""


class LayOffError(IllegalActionError):
    """A lay-off (Anlegen) is not allowed."""


class JokerExchangeError(IllegalActionError):
    """A joker exchange (Joker tauschen) is not allowed."""


class DiscardError(IllegalActionError):
    """The card may not be discarded now."""


def taken_discard_error(action: object, card: object, copies: int) -> DiscardError:
    """The refusal to discard ``card``, just taken from the discard pile (``may_discard_taken_discard``
    off). With two packs the hand may hold ``copies`` of it: the other is barred too, since the two
    cannot be told apart, and the message says so."""
    if copies > 1:
        message = (
            f"{action}: you may not discard the card you took from the discard pile, nor your other "
            f"{card}: the two cannot be told apart (may_discard_taken_discard is off)"
        )
    else:
        message = (
            f"{action}: you may not discard the card you took from the discard pile "
            "(may_discard_taken_discard is off)"
        )
    return DiscardError(message, "may_discard_taken_discard")


class KnockError(IllegalActionError):
    """Knocking or calling Rummy is not allowed."""


class MatchDecisionError(IllegalActionError):
    """A match decision (buy-back) is not allowed."""
