"""Lay-off searches in pure Python (the reference twin of the compiled ones; :mod:`.layoffs` is the API)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummykit.cards import JOKER_CODE, Card
from rummykit.melds import End, Meld
from rummykit.rules import Rules

Layoff = tuple[Card, int, End | None]
"""One lay-off: the card, the index of the table meld, and the run end (``None`` for a set)."""


def python_layoff_targets(hand: Iterable[int], table_melds: Sequence[Meld], rules: Rules) -> list[Layoff]:
    """Where each card of the hand can be laid off right now (RULES.md §2.5).

    One entry per distinct card, table meld and run end (``None`` for a set), in card code order,
    then meld order, then ``low`` before ``high``."""
    out: list[Layoff] = []
    for card in sorted(set(hand)):
        c = Card(card)
        for i, meld in enumerate(table_melds):
            if meld.is_set:
                if meld.can_lay_off(c, rules):
                    out.append((c, i, None))
            else:
                out.extend((c, i, end) for end in meld.layoff_ends(c, rules))
    return out


def python_layoff_chain(hand: Iterable[int], table_melds: Sequence[Meld], rules: Rules) -> tuple[Layoff, ...]:
    """A largest legal sequence of lay-offs from the hand, chains included.

    Cards that only fit after another lay-off count too: after ``5H`` goes on ``2H 3H 4H`` the ``6H``
    fits. Each step is legal when it is made, in the order returned. Among sequences laying off the
    most cards the one removing the most ``card_points`` is chosen, ties broken deterministically."""
    counts: dict[int, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    melds = list(table_melds)
    # Cards that could ever go on meld i (a superset): jokers, and naturals of its suit or rank.
    relevant = [
        frozenset(
            c
            for c in counts
            if c == JOKER_CODE or (Card(c).suit == m.suit if m.is_run else Card(c).rank == m.rank)
        )
        for m in melds
    ]
    # Cards that matter from meld i on: the memo key ignores every other card.
    later: list[frozenset[int]] = [frozenset()] * (len(melds) + 1)
    for i in range(len(melds) - 1, -1, -1):
        later[i] = later[i + 1] | relevant[i]
    memo: dict[tuple[int, tuple[int, ...]], tuple[int, int, tuple[Layoff, ...]]] = {}
    options: dict[tuple[int, tuple[int, ...]], list[tuple[Layoff, ...]]] = {}
    order = {i: sorted(r) for i, r in enumerate(later)}

    def search(i: int, cnt: dict[int, int]) -> tuple[int, int, tuple[Layoff, ...]]:
        if i == len(melds):
            return (0, 0, ())
        mkey = (i, tuple(cnt[c] for c in order[i]))
        found = memo.get(mkey)
        if found is not None:
            return found
        best = search(i + 1, cnt)
        own = tuple(cnt[c] for c in sorted(relevant[i]))
        if any(own):
            okey = (i, own)
            extensions = options.get(okey)
            if extensions is None:
                mine = {c: cnt[c] for c in relevant[i] if cnt[c]}
                extensions = options[okey] = _meld_extensions(melds[i], i, mine, rules)
            for steps in extensions:
                for c, _, _ in steps:
                    cnt[c] -= 1
                n, pts, rest = search(i + 1, cnt)
                for c, _, _ in steps:
                    cnt[c] += 1
                points = pts + sum(rules.card_points(c) for c, _, _ in steps)
                if (len(steps) + n, points) > best[:2]:
                    best = (len(steps) + n, points, (*steps, *rest))
        memo[mkey] = best
        return best

    return search(0, counts)[2]


def _meld_extensions(meld: Meld, index: int, cnt: dict[int, int], rules: Rules) -> list[tuple[Layoff, ...]]:
    """Every non-empty legal sequence of lay-offs onto one meld using cards of ``cnt``."""
    out: list[tuple[Layoff, ...]] = []
    seen: set[tuple[int, ...]] = set()

    def grow(m: Meld, steps: tuple[Layoff, ...], used: dict[int, int]) -> None:
        for card in sorted(cnt):
            if cnt[card] - used.get(card, 0) <= 0:
                continue
            c = Card(card)
            ends: tuple[End | None, ...] = (None,) if m.is_set else m.layoff_ends(c, rules)
            for end in ends:
                if m.is_set and not m.can_lay_off(c, rules):
                    continue
                nxt = m.with_layoff(c, rules, end)
                step: Layoff = (c, index, end)
                used[card] = used.get(card, 0) + 1
                sig = tuple(nxt.cards)
                if sig not in seen:
                    seen.add(sig)
                    out.append((*steps, step))
                    grow(nxt, (*steps, step), used)
                used[card] -= 1

    grow(meld, (), {})
    return out
