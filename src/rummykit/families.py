"""The registry of turn-logic families: ``Rules.family`` names one, :func:`family_for` returns it.

* ``"melding"`` (:mod:`rummykit.melding`): German Rummy, Scala 40, Basic Rummy; cards go on the table.
* ``"knock"`` (:mod:`rummykit.knocking`): Viennese Rummy, Rommé ohne Auslegen; cards stay in hand.
* ``"gin"`` (:mod:`rummykit.gin`): Gin Rummy as OpenSpiel plays it; the knocker lays melds, the
  defender lays off, one decision at a time.

A new family is one module implementing :class:`~rummykit.family.Family`, one name in
``Rules.family`` and one entry here; the round never branches on the family itself.

>>> from rummykit.rules import Rules
>>> family_for(Rules.preset("viennese")) is FAMILIES["knock"]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from rummykit.errors import RulesError
from rummykit.family import Family
from rummykit.gin import GIN_FAMILY
from rummykit.knocking import KNOCK_FAMILY
from rummykit.melding import MELDING_FAMILY
from rummykit.rules import Rules

_BY_NAME: Final[dict[str, Family]] = {"melding": MELDING_FAMILY, "knock": KNOCK_FAMILY, "gin": GIN_FAMILY}
FAMILIES: Final[Mapping[str, Family]] = MappingProxyType(_BY_NAME)
"""Turn logic by ``Rules.family``."""


_last_asked: tuple[Rules, Family] | None = None
"""The rules asked for last and their family: the engine asks twice on every action, nearly always
for the same (immutable) rules object, and ``Rules.family`` is a computed property."""


def family_for(rules: Rules) -> Family:
    """The turn logic of ``rules``.

    Raises:
        RulesError: no family of that name is registered.
    """
    global _last_asked
    last = _last_asked
    if last is not None and last[0] is rules:
        return last[1]
    try:
        family = _BY_NAME[rules.family]  # the plain dict: the engine asks on every action
    except KeyError:
        raise RulesError(f"no turn logic for the {rules.family!r} family", "family") from None
    _last_asked = (rules, family)
    return family
