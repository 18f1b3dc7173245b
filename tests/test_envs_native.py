"""The compiled observation encoder against its Python twin: the same bytes, seat by seat.

Seeded random play of many rule sets, table sizes and both scopes; at random moments (so several
decisions may pass between two updates, new hands are dealt, a seat may be mid-spelling) each seat's
Python :class:`~rummykit.envs.observation.Encoder` and :class:`~rummykit.envs.observation.CompiledEncoder`
are brought up to date from the same state and their observations (with the action spelled so far)
must be byte-identical.
"""

from __future__ import annotations

import functools
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable

import pytest

pytest.importorskip("pettingzoo")
import numpy as np

import rummykit as rk
from rummykit import solver
from rummykit.envs import encoding as enc
from rummykit.envs import observation as ob
from rummykit.envs.game import TokenGame

Policy = Callable[[TokenGame, random.Random], int]
"""A token policy of random play (the ``keen_taker`` fixture)."""

REQUIRED = os.environ.get("RUMMYKIT_REQUIRE_NATIVE") == "1"
"""Set by ``make asan`` and by ``make test NATIVE_REQUIRED=1`` (CI): a missing extension fails instead
of skipping the differential tests."""
compiled = pytest.mark.skipif(ob._NATIVE is None and not REQUIRED, reason="not built, or RUMMYKIT_PURE=1")

CONFIGS = [
    ("german", 2, "hand"),
    ("german", 4, "match"),
    ("german_dskv", 4, "hand"),
    ("scala40", 2, "hand"),
    ("scala40", 4, "match"),
    ("basic", 3, "hand"),
    ("viennese", 2, "match"),
    ("viennese", 4, "hand"),
    ("romme_ohne_auslegen", 2, "hand"),
    ("romme_ohne_auslegen", 3, "match"),
    ("gin", 2, "hand"),
    ("gin", 2, "match"),
    ("gin(oklahoma=true, oklahoma_spade_doubles=true)", 2, "hand"),
    ("gin(oklahoma=true, oklahoma_spade_doubles=true)", 2, "match"),
    ("german(joker_robbing=true)", 3, "hand"),
    ("viennese(knock_extra_turn=false)", 3, "hand"),
    ("viennese(may_discard_taken_discard=true)", 2, "hand"),
    ("basic", 6, "hand"),
]


def play_and_compare(
    rules: str,
    players: int,
    scope: str,
    derived: bool,
    compares: int,
    keen: Policy | None = None,
    doubled: set[float] | None = None,
) -> set[float]:
    """Random play (or ``keen``'s, the ``keen_taker`` fixture); at random moments one seat's two encoders are
    brought up to date and compared. The values of the take bound entry met (those of the doubled
    entry added to ``doubled``)."""
    rng = random.Random(f"{rules}/{players}/{scope}/{derived}")
    game = TokenGame(rules, players, scope=scope, derived_features=derived)  # type: ignore[arg-type]
    game.reset(seed=players)
    python = [ob.Encoder(game.layout) for _ in range(players)]
    native = [ob.CompiledEncoder(game.layout, game.rules) for _ in range(players)]
    takes: set[float] = set()

    def compare(seat: int) -> None:
        rnd = game.round
        state = rnd.live_state()
        figures = game.figures()
        view = functools.partial(rnd.view, seat) if derived else None
        python[seat].encode_state(state, seat, figures, view)
        native[seat].encode_state(state, seat, figures, view)
        tokens = game.composer.tokens if seat == game.to_move and not game.is_over else None
        a = python[seat].snapshot(tokens)
        b = native[seat].snapshot(tokens)
        assert a.dtype == b.dtype == np.float32
        assert a.tobytes() == b.tobytes(), np.flatnonzero(a != b)
        assert np.array_equal(b, game.observe(seat))  # the game's own encoder agrees
        if game.layout.take_bound:
            takes.add(float(b[game.layout.take_block]))
        if game.layout.doubled and doubled is not None:
            assert state.gin is not None and b[game.layout.doubled_block] == float(state.gin.doubled)
            doubled.add(float(b[game.layout.doubled_block]))

    compared = 0
    while compared < compares:
        if game.is_over or game.stuck:  # the final observations; the encoders go on into the next deal
            for seat in range(players):
                compare(seat)
            game.reset()
            continue
        if rng.random() < 0.6:
            compare(rng.randrange(players))
            compared += 1
        game.step(keen(game, rng) if keen is not None else rng.choice(game.composer.allowed()))
    return takes


@compiled
@pytest.mark.parametrize(("rules", "players", "scope"), CONFIGS)
def test_compiled_encoder_gives_the_python_encoders_bytes(rules: str, players: int, scope: str) -> None:
    play_and_compare(rules, players, scope, derived=False, compares=400)
    play_and_compare(rules, players, scope, derived=True, compares=60)


@compiled
@pytest.mark.parametrize(
    ("rules", "players", "scope"),
    [
        ("german(max_takes_in_a_row=10)", 2, "hand"),
        ("german(max_takes_in_a_row=10)", 4, "match"),
        ("viennese(max_takes_in_a_row=10)", 3, "match"),
        ("basic", 2, "hand"),
        ("romme_ohne_auslegen", 2, "match"),
        ("scala40", 2, "hand"),
    ],
)
def test_compiled_encoder_agrees_while_seats_keep_taking(
    rules: str, players: int, scope: str, keen_taker: Policy
) -> None:
    """Play that takes the discard nine turns in ten: the take bound entry goes through many values
    (up to 1 under a bound of 10, when the next take ends the hand; back to 0 after a stock draw
    and in a new hand), and the two encoders still give the same bytes."""
    takes = play_and_compare(rules, players, scope, derived=False, compares=400, keen=keen_taker)
    takes |= play_and_compare(rules, players, scope, derived=True, compares=60, keen=keen_taker)
    if rules == "scala40":  # max_takes_in_a_row does not apply: no take bound entry
        assert not takes
        return
    assert len(takes) > 8 and 0.0 in takes
    if "max_takes_in_a_row=10" in rules:
        assert 1.0 in takes


@compiled
@pytest.mark.parametrize("scope", ["hand", "match"])
def test_compiled_encoder_writes_the_doubled_entry(scope: str) -> None:
    """Oklahoma gin with the spade doubling: the compiled encoder's doubled entry is the hand's
    ``GinInfo.doubled`` (1 or 0, both met over the seeded deals, about ten) and its bytes the Python
    encoder's."""
    doubled: set[float] = set()
    spades = "gin(oklahoma=true, oklahoma_spade_doubles=true)"
    play_and_compare(spades, 2, scope, False, 1000, doubled=doubled)
    assert doubled == {0.0, 1.0}


@compiled
def test_compiled_encoder_refuses_a_doubled_entry_outside_the_gin_layout() -> None:
    """The constructor checks the layout it is given: the doubled entry only with the gin block, after
    it and inside the vector."""
    native = ob._NATIVE
    assert native is not None
    spades = rk.Rules.parse("gin(oklahoma=true, oklahoma_spade_doubles=true)")
    lay = ob.Layout.for_rules(spades, 2)

    def build(**changes: object) -> object:
        args: dict[str, object] = {
            "seats": 2, "table": lay.table, "pile": lay.pile, "taken": lay.taken, "per_seat": lay.per_seat,
            "prefix": lay.prefix, "gin_block": lay.gin_block, "take_block": lay.take_block,
            "doubled_block": lay.doubled_block, "size": lay.size, "gin": True, "take_bound": False,
            "doubled": True, "deck_size": 52, "max_upcard_draws": spades.max_upcard_draws,
            "max_takes_in_a_row": spades.max_takes_in_a_row, "phases": ob._PHASES,
            "gin_phases": ob._GIN_PHASES,
        }  # fmt: skip
        return native.ObsEncoder(**(args | changes))

    assert build() is not None
    for changes in ({"gin": False}, {"doubled_block": lay.gin_block}, {"doubled_block": lay.size}):
        with pytest.raises(ValueError, match="bad layout"):
            build(**changes)


@compiled
def test_compiled_encoder_writes_every_spelling_as_encode_prefix_does() -> None:
    """Random token sequences (not only legal ones) give the same action block."""
    rng = random.Random(5)
    game = TokenGame("basic", 3)
    layout = game.layout
    game.reset(seed=1)
    native = ob.CompiledEncoder(layout, game.rules)
    native.encode_state(game.round.live_state(), 0, game.figures(), None)
    base = native.out.copy()
    for _ in range(2000):
        tokens = [rng.randrange(enc.NUM_VERBS)] + [
            rng.randrange(enc.CARD0, enc.TARGET0 + enc.MAX_TABLE_MELDS) for _ in range(rng.randrange(12))
        ]
        expected = base.copy()
        ob.encode_prefix(expected, 3, tokens, cleared=True)
        assert native.snapshot(tokens).tobytes() == expected.tobytes()
    assert native.snapshot([]).tobytes() == base.tobytes()


@compiled
def test_compiled_token_ids_are_the_encodings() -> None:
    native = ob._NATIVE
    assert native is not None
    assert native.TOKENS == (
        enc.NUM_VERBS,
        enc.CARD0,
        enc.NEXT,
        enc.LOW,
        enc.HIGH,
        enc.THEN_MELD,
        enc.THEN_LAYOFF,
        enc.DONE,
        enc.TARGET0,
    )
    assert native.SIZES == (ob.C, ob.M, ob.SEAT_FEATURES, ob._GIN_HEAD)


def test_pure_python_is_chosen_by_the_environment_variable() -> None:
    """``RUMMYKIT_PURE=1`` gives the Python encoder even where the compiled one is built."""
    code = (
        "import rummykit as rk; from rummykit.envs import observation as ob; "
        "german = rk.Rules.preset('german'); "
        "print(type(ob.state_encoder(ob.Layout.for_rules(german, 2), german)).__name__)"
    )
    env = dict(os.environ, RUMMYKIT_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Encoder"


def walk_both(python: enc.TokenComposer, native: enc.TokenComposer, rng: random.Random) -> int:
    """Step both composers with the same tokens (some masked out) until an action completes; every
    answer along the way must be the same. The number of positions compared."""
    positions = 0
    while True:
        positions += 1
        assert native.tokens == python.tokens
        assert native.allowed() == python.allowed()
        assert native.mask().tobytes() == python.mask().tobytes()
        assert [native.is_allowed(t) for t in range(-1, enc.NUM_TOKENS + 1)] == [
            python.is_allowed(t) for t in range(-1, enc.NUM_TOKENS + 1)
        ]
        assert native.reachable() == python.reachable()
        assert all(a is b for a, b in zip(native.reachable(), python.reachable(), strict=True))
        wrong = rng.choice([t for t in range(-1, enc.NUM_TOKENS + 1) if not python.is_allowed(t)])
        with pytest.raises(ValueError) as expected:
            python.copy().step(wrong)
        with pytest.raises(ValueError, match=re.escape(str(expected.value))):
            native.copy().step(wrong)
        allowed = python.allowed()
        if not allowed:
            return positions
        token = rng.choice(allowed)
        twin = native.copy()
        a, b = python.step(token), native.step(token)
        assert a is b
        assert twin.tokens == python.tokens[:-1]  # a copy steps on independently
        if a is not None:
            assert native.tokens == python.tokens and native.allowed() == python.allowed() == []
            assert native.reachable() == python.reachable()
            return positions


@compiled
@pytest.mark.parametrize(("rules", "players", "scope"), CONFIGS)
def test_compiled_short_trie_answers_as_the_composer(rules: str, players: int, scope: str) -> None:
    """On seeded play, every decision the compiled trie takes (all candidates spelled as a verb or a
    verb and a card) is walked by it and by :class:`Composer` side by side."""
    rng = random.Random(f"trie/{rules}/{players}")
    game = TokenGame(rules, players, scope=scope)  # type: ignore[arg-type]
    game.reset(seed=players)
    compiled_decisions = positions = 0
    for _ in range(300):
        if game.is_over or game.stuck:
            game.reset()
            continue
        if not game.composer.tokens:
            candidates = enc.candidate_actions(game.match if game.match is not None else game.round)
            native = enc.composer(candidates)
            if not isinstance(native, enc.Composer):
                compiled_decisions += 1
                positions += walk_both(enc.Composer(candidates), native, rng)
            assert type(game.composer) is type(native)
        game.step(rng.choice(game.composer.allowed()))
    assert compiled_decisions > 20 and positions > compiled_decisions


@compiled
def test_compiled_short_trie_leaves_mixed_spellings_to_the_composer() -> None:
    """A verb both alone and with a card, a verb alone twice, or a longer spelling: the Python trie."""
    parse = rk.Action.parse
    for actions in (
        [parse("draw"), parse("draw")],
        [parse("discard 2H"), parse("meld 7C 8C 9C")],
        [parse("knock"), parse("knock QS")],
        [parse("knock QS"), parse("knock")],
    ):
        assert isinstance(enc.composer(actions), enc.Composer)
    empty = enc.composer([])
    assert empty.is_empty and empty.allowed() == [] and not empty.mask().any()
    twice = enc.composer([parse("discard 2H"), parse("take"), parse("discard 2H")])
    assert not isinstance(twice, enc.Composer)
    assert twice.allowed() == [enc.TAKE, enc.DISCARD]
    assert twice.step(enc.DISCARD) is None
    assert twice.allowed() == [enc.card_token(rk.Card.parse("2H"))]


@compiled
@pytest.mark.parametrize("rules", ["german", "german_dskv", "scala40", "german(joker_robbing=true)"])
def test_compiled_opening_search_finds_what_the_python_search_finds(rules: str) -> None:
    """On the melds of hands met in seeded play (and of hands dealt with jokers), the compiled search
    gives ``judge`` the same collections in the same order and returns the same openings, also when
    the limit or the budget stops it early."""
    native = ob._NATIVE
    assert native is not None
    rng = random.Random(rules)
    game = TokenGame(rules, 4)
    game.reset(seed=11)
    searched = stopped = 0
    while searched < 60:
        if game.is_over or game.stuck:
            game.reset()
            continue
        rnd = game.round
        hand = rnd.live_state().hands[rnd.to_move].cards()
        melds = solver.all_melds(hand, rnd.rules)
        if len(melds) >= 2:
            searched += 1
            left = [0] * ob.C
            for c in hand:
                left[c] += 1
            limit, budget = rng.choice([(256, 2048), (3, 2048), (256, 5), (1, 2)])
            seen: dict[str, list[object]] = {"python": [], "native": [], "all": []}

            def judge(melds: tuple[tuple[rk.Card, ...], ...], log: list[object]) -> object:
                log.append(melds)
                return ("open", melds) if (len(log) + len(melds[0])) % 3 else None

            py_found = enc.search_openings(
                melds, left[:], len(hand), budget, limit, functools.partial(judge, log=seen["python"])
            )  # type: ignore[arg-type]
            c_found = native.search_openings(
                melds, left[:], len(hand), budget, limit, functools.partial(judge, log=seen["native"])
            )
            assert c_found == py_found
            assert seen["native"] == seen["python"]
            enc.search_openings(
                melds, left[:], len(hand), 10**6, 10**6, functools.partial(judge, log=seen["all"])
            )  # type: ignore[arg-type]
            stopped += len(seen["all"]) > len(seen["python"])  # the limit or the budget stopped it
        game.step(rng.choice(game.composer.allowed()))
    assert stopped > 0


def test_an_encoder_that_is_built_but_does_not_load_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """A built extension that fails to load (another ABI, a missing library) is not "not built": the
    line names the loader's error, as the solver's does."""
    import importlib

    from rummykit.envs import compiled

    def broken(name: str) -> object:
        raise ImportError(f"{name}: file too short")

    monkeypatch.delenv("RUMMYKIT_PURE", raising=False)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: object())
    monkeypatch.setattr(importlib, "import_module", broken)
    why = "rummykit.envs._native does not load (rummykit.envs._native: file too short)"
    assert compiled._load() == (None, why)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert compiled._load() == (None, "rummykit.envs._native is not built")
