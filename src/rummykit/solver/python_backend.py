"""The pure-Python backend: the reference twin of the compiled kernels, always available."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rummykit.cards import JOKER_CODE, Card
from rummykit.rules import Rules
from rummykit.solver.cover import _best_discards_of, _deadwood_of_cards, _max_value, _Search
from rummykit.solver.encoding import _MAX_CACHE, _NATURALS, _hand_key, _masks
from rummykit.solver.tables import _tables, clear_tables

_CARDS: Final = tuple(Card(c) for c in range(JOKER_CODE + 1))


def _as_sequence(cards: Iterable[int]) -> Sequence[int]:
    return cards if type(cards) is tuple or type(cards) is list else tuple(cards)


class PythonBackend:
    """The search kernels in Python, with per-hand result caches per rule set."""

    name: Final = "python"

    def min_deadwood(self, cards: Iterable[int], rules: Rules) -> int:
        cards = _as_sequence(cards)
        t = _tables(rules)
        have, dup, jokers = _masks(cards)
        key = have | dup << 64 | jokers << 128
        cache = t.deadwood_cache
        found = cache.get(key)
        if found is not None:
            return found
        result = _deadwood_of_cards(t, cards, have, dup, jokers)
        if len(cache) >= _MAX_CACHE:
            cache.clear()
        cache[key] = result
        return result

    def best_discards(self, cards: Iterable[int], rules: Rules) -> tuple[int, tuple[Card, ...]]:
        cards = _as_sequence(cards)
        if not cards:
            raise ValueError("best_discards needs at least one card")
        t = _tables(rules)
        masks = _masks(cards)
        key = _hand_key(*masks)
        cache = t.discard_cache
        found = cache.get(key)
        if found is None:
            found = _best_discards_of(_Search(t, cards, masks))
            if len(cache) >= _MAX_CACHE:
                cache.clear()
            cache[key] = found
        return found[0], tuple(map(_CARDS.__getitem__, found[1]))

    def max_opening_value(self, cards: Iterable[int], rules: Rules, keep_one: bool) -> int:
        cards = _as_sequence(cards)
        t = _tables(rules)
        masks = _masks(cards)
        ckey = (_hand_key(*masks), keep_one)
        found = t.opening_cache.get(ckey)
        if found is not None:
            return found
        search = _Search(t, cards, masks)
        kept = not keep_one or search.rest != search.key & _NATURALS
        result = max(0, _max_value(search.rest, search.jokers, kept, search.by_low, search.opener, {}))
        if len(t.opening_cache) >= _MAX_CACHE:
            t.opening_cache.clear()
        t.opening_cache[ckey] = result
        return result

    def clear_caches(self, meld_tables: bool = True) -> None:
        clear_tables(meld_tables)

    def knock_races(
        self,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        stocks: Sequence[Sequence[int]],
        draws: int,
        points_per_turn: float,
    ) -> list[list[float]] | None:
        return None  # the play-outs of rummykit.bots.race are the reference
