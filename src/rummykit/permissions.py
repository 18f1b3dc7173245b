"""Who may lay off and exchange jokers now: pure predicates shared by the engine and the bots.

The permissions depend only on the rules, the turn in which the player opened (``None`` before the
opening) and the current turn, so a bot reading a :class:`~rummykit.views.PlayerView` decides
exactly as :mod:`rummykit.melding` does. A refusal is the id of the broken rule, the ``rule`` an
:class:`~rummykit.errors.IllegalActionError` reports.

>>> from rummykit.rules import Rules
>>> german = Rules.preset("german")
>>> may_lay_off(german, opened_turn=3, turn=3), may_lay_off(german, opened_turn=3, turn=5)
(False, True)
>>> exchange_bar(german, opened_turn=None, turn=5)
'joker_exchange_requires_opened'
"""

from __future__ import annotations

from rummykit.rules import Rules


def layoff_bar(rules: Rules, opened_turn: int | None, turn: int) -> str | None:
    """The rule that forbids a lay-off (anlegen) now, or ``None``: lay-offs need an opening
    (``layoff_requires_opened``) on an earlier turn (``layoff_on_opening_turn``; decision D7)."""
    if rules.layoff_requires_opened and opened_turn is None:
        return "layoff_requires_opened"
    if not rules.layoff_on_opening_turn and opened_turn is not None and opened_turn >= turn:
        return "layoff_on_opening_turn"
    return None


def may_lay_off(rules: Rules, opened_turn: int | None, turn: int) -> bool:
    """Whether a player who opened in ``opened_turn`` may lay off in ``turn``."""
    return layoff_bar(rules, opened_turn, turn) is None


def exchange_bar(rules: Rules, opened_turn: int | None, turn: int) -> str | None:
    """The rule that forbids a joker exchange (Joker tauschen) now, or ``None``: exchanges need
    ``joker_exchange``, an opening where ``joker_exchange_requires_opened`` asks for one, and a later
    turn than the opening unless ``joker_exchange_on_opening_turn``."""
    if not rules.joker_exchange:
        return "joker_exchange"
    if rules.joker_exchange_requires_opened and opened_turn is None:
        return "joker_exchange_requires_opened"
    if not rules.joker_exchange_on_opening_turn and opened_turn == turn:
        return "joker_exchange_on_opening_turn"
    return None

