"""The search bot in Gin Rummy: gin's own phases go to greedy's gin play (:mod:`.gin_play`).

:class:`~rummykit.bots.search.SearchBot` races the draw (take the upcard or draw from the stock) and
the discard of the knock games; gin adds decisions it does not know: the first upcard, ``knock``
as an action of its own before the discard, the wall, the knocker's discard and melds and the
defender's lay-offs and melds (RULES.md §5.4). :class:`GinSearchBot` is the search bot with those
decisions played by :func:`~rummykit.bots.gin_play.gin_action`; in every other game, and for the
draw and the plain discard in gin, it is the search bot unchanged. ``make_bot("search")`` builds it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.actions import Action, Discard, KnockDeclare
from rummykit.bots.gin_play import gin_action
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.search import SearchBot
from rummykit.views import Phase, PlayerView


class GinSearchBot(SearchBot):
    """:class:`SearchBot` that also plays gin (see the module docstring)."""

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.gin is None or view.phase is Phase.DRAW or len(legal) == 1:
            return super().choose(view, legal, rng)
        if view.phase is Phase.DISCARD:
            greedy = gin_action(view, legal)
            if isinstance(greedy, KnockDeclare):
                return greedy
            return super().choose(view, [a for a in legal if isinstance(a, Discard)], rng)
        return gin_action(view, legal)


class CombinedSearchBot(IsmctsBot):
    """The ``search`` bot: information-set search (:class:`IsmctsBot`) in every game, except that a gin
    hand is played by :class:`GinSearchBot` (gin's own first-upcard, meld and lay-off phases; the bot
    measured against OpenSpiel's)."""

    def __init__(self, level: str | None = None) -> None:
        super().__init__(level)
        self.gin_search = GinSearchBot(level)

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if view.gin is not None:
            return self.gin_search.choose(view, legal, rng)
        return super().choose(view, legal, rng)
