"""The pure-Python backend: the reference twin of the compiled kernels, always available."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Final

from rummykit.cards import JOKER_CODE, Card
from rummykit.melds import Meld
from rummykit.rules import Rules
from rummykit.solver.arrangement import Arrangement
from rummykit.solver.candidates import python_all_melds
from rummykit.solver.cover import (
    _arrangement_path,
    _best_discards_of,
    _best_with_card,
    _covers,
    _deadwood_of_cards,
    _fits,
    _max_value,
    _remove,
    _Search,
    _to_meld,
    _value_path,
)
from rummykit.solver.encoding import _NATURALS, _decode, _hand_key, _masks
from rummykit.solver.layoff_search import Layoff, python_layoff_chain, python_layoff_targets
from rummykit.solver.tables import _BUDGET_STEP, _Cand, _tables, clear_tables, make_room

_CARDS: Final = tuple(Card(c) for c in range(JOKER_CODE + 1))


def _as_sequence(cards: Iterable[int]) -> Sequence[int]:
    return cards if type(cards) is tuple or type(cards) is list else tuple(cards)


class PythonBackend:
    """The search kernels in Python, with per-hand result caches per rule set.

    The caches are bounded (:mod:`.tables`): each result dict holds at most ``_MAX_CACHE`` entries,
    only the :data:`~.tables.HOT_MELD_OPTION_SETS` most recently used meld-option sets keep results,
    and all of them together at most :data:`~.tables.RESULT_BUDGET` entries (about 75 MiB)."""

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
        if not len(cache) % _BUDGET_STEP:
            make_room(t, cache)
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
            if not len(cache) % _BUDGET_STEP:
                make_room(t, cache)
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
        if not len(t.opening_cache) % _BUDGET_STEP:
            make_room(t, t.opening_cache)
        t.opening_cache[ckey] = result
        return result

    def best_opening(
        self,
        cards: Sequence[int],
        rules: Rules,
        must_include: int | None,
        keep_one: bool,
        minimum: int,
        single: bool,
    ) -> tuple[Meld, ...] | None:
        if self.max_opening_value(cards, rules, keep_one) < max(minimum, 1):
            return None  # no collection reaches the minimum, the constrained ones neither
        search = _Search(_tables(rules), cards)
        key = search.key
        memo: dict[int, int] = {}
        all_cands = [c for lst in search.by_low.values() for c in lst]
        all_cands.sort(key=lambda c: (-c.value, c.shape.cards))
        kept0 = not keep_one or search.rest != key & _NATURALS
        best_total = -1
        best: list[_Cand] = []
        if must_include is None and not single:
            total = _max_value(search.rest, search.jokers, kept0, search.by_low, search.opener, memo)
            if total > 0:
                best_total = total
                best = _value_path(search, search.rest, search.jokers, kept0, memo)
        else:
            # Fix one meld (the one holding the required card, or the one meeting the minimum alone),
            # then complete with the best melds of the remaining cards.
            for anchor in all_cands:
                if single and anchor.value < minimum:
                    continue
                if not _fits(search.rest, search.jokers, anchor):
                    continue
                rest = search.rest - anchor.naturals
                jokers = search.jokers - anchor.jokers
                need = must_include is not None and not _covers(anchor, must_include)
                if need:
                    assert must_include is not None
                    tail = _best_with_card(search, rest, jokers, kept0, must_include, memo)
                    if tail is None:
                        continue
                    sub_total, sub_melds = tail
                else:
                    sub_total = _max_value(rest, jokers, kept0, search.by_low, search.opener, memo)
                    if sub_total < 0:
                        continue
                    sub_melds = []
                total = anchor.value + sub_total
                if total > best_total:
                    if not need:
                        sub_melds = _value_path(search, rest, jokers, kept0, memo)
                    best_total = total
                    best = [anchor, *sub_melds]
        if best_total <= 0 or best_total < minimum:
            return None
        return tuple(_to_meld(c.shape, rules) for c in best)

    def best_arrangement(self, cards: Sequence[int], rules: Rules) -> Arrangement:
        t = _tables(rules)
        search = _Search(t, cards)
        chosen = _arrangement_path(search, search.rest, search.jokers, {})
        left = _decode(_remove(search.key, chosen))
        melds = tuple(_to_meld(c.shape, rules) for c in chosen)
        return Arrangement(melds, tuple(left), sum(t.dv[c] for c in left))

    def all_melds(self, cards: Sequence[int], rules: Rules) -> list[tuple[Card, ...]]:
        return python_all_melds(cards, rules)

    def layoff_targets(self, hand: Sequence[int], table_melds: Sequence[Meld], rules: Rules) -> list[Layoff]:
        return python_layoff_targets(hand, table_melds, rules)

    def layoff_chain(
        self, hand: Sequence[int], table_melds: Sequence[Meld], rules: Rules
    ) -> tuple[Layoff, ...]:
        return python_layoff_chain(hand, table_melds, rules)

    def clear_caches(self, meld_tables: bool = True) -> None:
        clear_tables(meld_tables)

    def meld_race(
        self,
        rules: Rules,
        seat: tuple[Sequence[int], bool, Sequence[Meld]],
        first: int | None,
        barred: int | None,
        draws: Sequence[int],
        race: tuple[int, bool, bool, bool, float, float],
    ) -> float | None:
        return None  # the play-outs of rummykit.bots.race are the reference

    def knock_races(
        self,
        rules: Rules,
        hands: Sequence[Sequence[int]],
        stocks: Sequence[Sequence[int]],
        draws: int,
        points_per_turn: float,
        live: Collection[int] | None = None,
        out_margin: int = 0,
        out_weight: float = 0.0,
    ) -> list[list[float]] | None:
        return None  # the play-outs of rummykit.bots.race are the reference

    def gin_duels(
        self,
        rules: Rules,
        hands: Sequence[tuple[Sequence[int], int | None]],
        opponents: Sequence[Sequence[int]],
        stocks: Sequence[Sequence[int]],
        turns: int,
        drawn: float,
        barred_taken: bool,
    ) -> list[list[float]] | None:
        return None  # the play-outs of rummykit.bots.gin_duel are the reference
