"""The backend seam: which implementation runs the search kernels.

A backend implements :class:`Backend`: ``min_deadwood``, ``best_discards`` (the value and the
discards), ``max_opening_value``, ``best_opening``, ``best_arrangement``, ``layoff_targets``,
``layoff_chain``, ``clear_caches`` and optionally the knock-game race play-outs, for every rule
set the solver supports, with answers identical to the pure-Python reference
(:class:`~.python_backend.PythonBackend`).
Two exist:

* ``native``: the compiled C++ kernels (:mod:`rummykit.solver.native`, built by ``pip install``
  when a C++17 compiler is present);
* ``python``: the reference twin, always available.

The native backend is active when its extension was built, unless the environment variable
``RUMMYKIT_PURE`` is ``1``. :func:`describe` says which is active (``rummykit info``);
:func:`use` switches for a block (tests run every kernel against every backend).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Final, Protocol

from rummykit.cards import Card
from rummykit.melds import Meld
from rummykit.native_source import stale_reason
from rummykit.rules import Rules
from rummykit.solver.arrangement import Arrangement
from rummykit.solver.layoff_search import Layoff
from rummykit.solver.python_backend import PythonBackend

PURE_ENV: Final = "RUMMYKIT_PURE"
"""Set to ``1`` to run the pure-Python backend even where the extension is built."""


class Backend(Protocol):
    """What a solver backend provides (cards: any iterable of card codes, at most two copies of a face).

    ``min_deadwood`` and ``best_discards`` raise :class:`ValueError` for a face held three times,
    ``best_discards`` also for an empty hand.
    """

    @property
    def name(self) -> str: ...

    def min_deadwood(self, cards: Iterable[int], rules: Rules) -> int: ...

    def best_discards(self, cards: Iterable[int], rules: Rules) -> tuple[int, tuple[Card, ...]]: ...

    def max_opening_value(self, cards: Iterable[int], rules: Rules, keep_one: bool) -> int: ...

    def best_opening(
        self,
        cards: Sequence[int],
        rules: Rules,
        must_include: int | None,
        keep_one: bool,
        minimum: int,
        single: bool,
    ) -> tuple[Meld, ...] | None:
        """:func:`rummykit.solver.best_opening` with the opening minimum and scope given (``single``:
        one meld must reach ``minimum`` alone); ``must_include`` is held by ``cards``."""
        ...

    def best_arrangement(self, cards: Sequence[int], rules: Rules) -> Arrangement:
        """:func:`rummykit.solver.best_arrangement`."""
        ...

    def all_melds(self, cards: Sequence[int], rules: Rules) -> list[tuple[Card, ...]]:
        """:func:`rummykit.solver.all_melds`."""
        ...

    def layoff_targets(self, hand: Sequence[int], table_melds: Sequence[Meld], rules: Rules) -> list[Layoff]:
        """:func:`rummykit.solver.layoff_targets`."""
        ...

    def layoff_chain(
        self, hand: Sequence[int], table_melds: Sequence[Meld], rules: Rules
    ) -> tuple[Layoff, ...]:
        """:func:`rummykit.solver.layoff_chain`."""
        ...

    def clear_caches(self, meld_tables: bool = True) -> None: ...

    def meld_race(
        self,
        rules: Rules,
        seat: tuple[Sequence[int], bool, Sequence[Meld]],
        first: int | None,
        barred: int | None,
        draws: Sequence[int],
        race: tuple[int, bool, bool, bool, float, float],
    ) -> float | None:
        """:func:`rummykit.bots.race.race_after_draw` of a melding-game ``seat`` (cards, opened,
        table melds) drawing ``first`` (``barred``: may not be discarded in that turn) and then
        ``draws``, or :func:`~rummykit.bots.race.meld_race` on ``draws`` when ``first`` is
        ``None``. ``race``: opening minimum, single-meld scope, a card kept for the discard,
        lay-offs on the opening turn, points shed per turn and turns charged when closed. ``None``
        when the backend leaves the race to the Python play-out."""
        ...

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
        """:func:`rummykit.bots.race.knock_race` of every hand on every stock's first ``draws`` cards
        (a row per stock; ``live``: the cards that may still come, for draw-aware discards with
        ``out_margin`` and ``out_weight``, see :func:`~rummykit.bots.race.race_shed`), or ``None``
        when the backend leaves the races to the Python play-out."""
        ...

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
        """:func:`rummykit.bots.gin_duel.gin_duel` of every ``(hand, up)`` against every opponent hand
        with its stock (a row per opponent hand; at most ``turns`` turns, ``drawn`` for a duel nobody
        won; ``barred_taken``: a card taken from the discard pile may not be discarded in the same turn),
        or ``None`` when the backend leaves the duels to the Python play-out."""
        ...


def _load_native() -> tuple[Backend | None, str]:
    """The native backend, or ``None`` and why it is not used."""
    if importlib.util.find_spec("rummykit.solver._native") is None:
        return None, "the compiled solver is not built (no C++17 compiler at install); running pure Python"
    try:
        module = importlib.import_module("rummykit.solver._native")
        if (stale := stale_reason(module, Path(__file__).with_name("_native.cpp"))) is not None:
            return None, f"{stale}; running pure Python"
        from rummykit.solver.native import NativeBackend
    except ImportError as exc:
        return None, f"the compiled solver does not load ({exc}); running pure Python"
    return NativeBackend(), "compiled"


python: Final[Backend] = PythonBackend()
native, native_status = _load_native()
"""The native backend when its extension is importable (``None`` otherwise) and a status line."""
pure_requested: Final = os.environ.get(PURE_ENV, "") == "1"
current: Backend = python if pure_requested or native is None else native
"""The backend the public functions call."""


def compiled_source() -> str:
    """The digest of the C++ source the active compiled solver was built from; ``""`` where the
    pure-Python backend runs (:mod:`rummykit.native_source`)."""
    if current.name != "native":
        return ""
    return str(getattr(importlib.import_module("rummykit.solver._native"), "SOURCE_DIGEST", ""))


def available() -> dict[str, Backend]:
    """Every backend that can run here, by name (``python`` always)."""
    found: dict[str, Backend] = {"python": python}
    if native is not None:
        found["native"] = native
    return found


def select(name: str) -> Backend:
    """Make ``name`` (``python`` or ``native``) the active backend and return it.

    Raises:
        ValueError: no such backend here (``native`` when the extension is not built).
    """
    global current
    found = available().get(name)
    if found is None:
        raise ValueError(f"solver backend {name!r} is not available here ({', '.join(available())})")
    current = found
    return found


@contextmanager
def use(name: str) -> Iterator[Backend]:
    """Run a block with the backend ``name`` active, then restore the previous one."""
    before = current
    try:
        yield select(name)
    finally:
        select(before.name)


def describe() -> str:
    """One line: the active backend and, for the pure twin, why."""
    if current.name == "native":
        return "solver backend: native (compiled C++ kernels)"
    reason = f"{PURE_ENV}=1" if pure_requested else native_status
    return f"solver backend: python ({reason})"


def notice() -> str | None:
    """The one-line notice for users when the compiled solver is missing (not when chosen off)."""
    if native is None and not pure_requested:
        return "note: " + native_status
    return None
