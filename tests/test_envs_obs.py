"""The observation encoder: kept vectors equal fresh ones; outside gin, v3 without its take bound
entry equals v0 entry for entry; the take bound entry follows the takes in a row; under Oklahoma's
spade doubling the doubled entry says whether the hand scores double, and without it a vector is the
v2 vector."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest

pytest.importorskip("pettingzoo")
import numpy as np
import numpy.typing as npt

import rummykit as rk
from rummykit.envs import encoding as enc
from rummykit.envs import observation as ob
from rummykit.envs.game import TokenGame
from rummykit.views import PlayerView


def encode_v0(view: PlayerView, figures: ob.MatchFigures) -> npt.NDArray[np.float32]:
    """Observation v0 as it was first released (built from scratch, one dict of non-zero entries)."""
    C, M = ob.C, ob.M
    seats = len(view.hand_sizes)
    me = view.seat
    rel = [(me + k) % seats for k in range(seats)]
    values: dict[int, float] = {}

    def count(offset: int, cards: Iterable[int]) -> None:
        for card in cards:
            values[offset + card] = values.get(offset + card, 0.0) + 1.0

    count(0, view.hand)
    pos = C
    for k in range(1, seats):
        shown = view.revealed[rel[k]] if view.revealed else None
        count(pos, shown if shown is not None else (view.known_cards[rel[k]] if view.known_cards else ()))
        pos += C
    slot = C + 4 + seats
    for i, tm in enumerate(view.melds[:M]):
        base = pos + i * slot
        count(base, tm.meld.cards)
        values[base + C] = 1.0
        if tm.meld.is_run:
            values[base + C + 1] = 1.0
            values[base + C + 2] = tm.meld.start / 14.0
            values[base + C + 3] = tm.meld.end / 14.0
        values[base + C + 4 + (tm.owner - me) % seats] = 1.0
    pos += M * slot
    count(pos, view.discard_pile)
    pos += C
    for depth, card in enumerate(reversed(view.discard_pile)):
        values.setdefault(pos + card, 1.0 / (1 + depth))
    pos += C
    if view.taken_discard is not None:
        values[pos + view.taken_discard] = 1.0
    pos += C
    if view.must_lay is not None:
        values[pos + view.must_lay] = 1.0
    pos += C
    for seat in rel:
        features = (
            view.hand_sizes[seat] / 20.0,
            float(view.opened[seat]),
            float(seat in view.active_seats),
            float(view.knocker == seat),
            float(seat in view.extra_turns),
            view.scores[seat] / 100.0,
            figures.totals[seat] / 100.0,
            figures.chips[seat] / 100.0,
        )
        for i, value in enumerate(features):
            values[pos + i] = value
        pos += 8
    values[pos + (rk.Phase.DRAW, rk.Phase.PLAY, rk.Phase.DISCARD, rk.Phase.OVER).index(view.phase)] = 1.0
    globals_ = (
        float(view.is_my_turn),
        float(figures.buyback_pending),
        view.stock_size / view.rules.deck_size,
        float(view.stock_rebuilds),
        view.turn / 100.0,
        figures.pot / 100.0,
        figures.hands_dealt / 10.0,
        float(figures.is_match),
    )
    for i, value in enumerate(globals_, start=pos + 4):
        values[i] = value
    pos += 12
    values[pos + (view.to_move - me) % seats] = 1.0
    out = np.zeros(ob.observation_size(seats), dtype=np.float32)
    out[list(values)] = list(values.values())
    return out


def play_comparing(
    game: TokenGame, rng: random.Random, compare: Callable[[int], None], count: int, token: Callable[[], int]
) -> None:
    """Play ``game`` by ``token`` until ``compare`` has run ``count`` times at random decision
    points (for a random seat, so several decisions may pass between two updates of its encoder),
    and for every seat at the end of each game, whose encoders are kept into the next deal."""
    compared = 0
    while compared < count:
        if game.is_over:
            for seat in range(game.players):
                compare(seat)
            game.reset()
            continue
        if not game.composer.tokens and rng.random() < 0.5:
            compare(rng.randrange(game.players))
            compared += 1
        game.step(token())


@pytest.mark.parametrize(
    ("preset", "players", "scope"),
    [
        ("german", 3, "hand"),
        ("german_dskv", 4, "hand"),
        ("viennese", 2, "match"),
        ("viennese", 4, "hand"),
        ("romme_ohne_auslegen", 2, "hand"),
        ("scala40", 4, "hand"),
        ("basic", 2, "match"),
        ("gin", 2, "hand"),
        ("gin", 2, "match"),
        ("gin(oklahoma=true, oklahoma_spade_doubles=true)", 2, "match"),
    ],
)
def test_kept_vectors_equal_fresh_ones_and_v0(preset: str, players: int, scope: str) -> None:
    """Each seat's encoder is brought up to date at random moments (so several decisions may pass
    between two updates, and new hands are dealt); the vector must equal one built from scratch
    and, outside gin, the v0 vector (once the take bound entry is taken out where it is present)."""
    rng = random.Random(preset)
    game = TokenGame(preset, players, scope=scope)  # type: ignore[arg-type]
    game.reset(seed=players)
    lay = game.layout

    def compare(seat: int) -> None:
        kept = game.observe(seat)
        kept[lay.prefix : lay.gin_block] = 0.0
        view = game.view(seat)
        assert np.array_equal(kept, ob.encode_view(view, game.figures()))
        if not game.rules.is_gin:
            v1 = np.delete(kept, lay.take_block) if lay.take_bound else kept
            assert np.array_equal(v1, encode_v0(view, game.figures()))

    play_comparing(game, rng, compare, 150, lambda: rng.choice(game.composer.allowed()))


def test_gin_block_names_the_gin_facts() -> None:
    rnd = rk.Round.new(rk.Rules.preset("gin"), players=2, seed=5, dealer=1)
    rnd.apply("pass")
    lay = ob.Layout.of(2, gin=True)
    view = rnd.view(1)
    obs = ob.encode_view(view, ob.MatchFigures.none(2))
    gin = obs[lay.gin_block : lay.derived_block]
    assert gin[0] == 1.0 and gin[1:4].sum() == 0  # first-upcard phase
    assert gin[4] == pytest.approx(view.gin.knock_card / 10)
    assert gin[5] == pytest.approx(0.5)  # one pass so far
    assert obs.shape == (ob.observation_size(2, gin=True),)
    assert obs[lay.per_seat + 16 : lay.per_seat + 20].sum() == 0  # no melding-game phase


@pytest.mark.parametrize(("preset", "players"), [("viennese", 3), ("german", 2), ("gin", 2)])
def test_kept_vectors_with_derived_features_equal_fresh_ones(preset: str, players: int) -> None:
    """The derived block, written from a view built only when its source changed, equals the one of
    a vector built from scratch at every decision of a few hands."""
    rng = random.Random(players)
    game = TokenGame(preset, players, derived_features=True)
    game.reset(seed=11)
    lay = ob.Layout.of(players, derived=True, gin=game.rules.is_gin)
    compared = 0
    while compared < 60:
        if game.is_over:
            game.reset()
            continue
        if not game.composer.tokens:
            seat = game.to_move if rng.random() < 0.7 else rng.randrange(players)
            kept = game.observe(seat)
            kept[lay.prefix : lay.gin_block] = 0.0
            assert np.array_equal(kept, ob.encode_view(game.view(seat), game.figures(), derived=True))
            compared += 1
        game.step(rng.choice(game.composer.allowed()))


TAKE_ENTRY_AT_TWO = 98 * 2 + 2488
"""The take bound entry at a table of two (the module docstring's ``98·S + 2488``)."""


def test_take_bound_entry_rises_with_each_take_and_drops_after_a_stock_draw() -> None:
    """German heads-up with ``max_takes_in_a_row=10``: four turns begin by taking the discard, one
    by drawing from the stock, then every turn takes until the hand ends dead. At the start of each
    turn, in both seats' vectors (the game's, a kept Python encoder's and one built from scratch),
    the entry after the action so far holds the takes in a row / 10: up by 0.1 per take, 0 after
    the draw, 1 when the next take ends the hand."""
    game = TokenGame("german(max_takes_in_a_row=10)", 2)
    game.reset(seed=4)
    at = TAKE_ENTRY_AT_TWO
    assert game.obs_size == at + 1
    python = [ob.Encoder(game.layout) for _ in range(2)]

    def entries() -> set[float]:
        values = set()
        for seat in range(2):
            values.add(float(game.observe(seat)[at]))
            values.add(
                float(python[seat].encode_state(game.round.live_state(), seat, game.figures(), None)[at])
            )
            values.add(float(ob.encode_view(game.view(seat), game.figures())[at]))
        return values

    seen = []
    turns = 0
    while not game.is_over:
        allowed = game.composer.allowed()
        if not game.composer.tokens and enc.DRAW in allowed:  # a turn begins
            (value,) = entries()
            seen.append(value)
            token = enc.DRAW if turns == 4 else enc.TAKE
            turns += 1
        elif not game.composer.tokens and enc.DISCARD in allowed:
            token = enc.DISCARD
        else:
            token = allowed[0]
        game.step(token)
    result = game.round.result
    assert result is not None and result.termination is rk.Termination.DRAWN
    expected = [k / 10 for k in range(5)] + [k / 10 for k in range(11)]
    assert seen == [float(np.float32(v)) for v in expected]
    assert entries() == {1.0}


@pytest.mark.parametrize(
    ("rules", "players", "size"),
    [
        ("gin", 2, 2799),
        ("scala40", 2, 2684),
        ("scala40", 4, 2880),
        ("german", 2, 2685),
        ("viennese", 4, 2881),
        ("basic", 6, 3077),
        ("romme_ohne_auslegen", 3, 2783),
    ],
)
def test_only_rule_sets_with_the_take_bound_gain_an_entry(rules: str, players: int, size: int) -> None:
    """Gin (its takes are in the gin block) and Scala 40 (``max_takes_in_a_row`` does not apply)
    keep the v1 size; every other rule set has one entry more, after the action so far and before
    the derived block."""
    game = TokenGame(rules, players)
    game.reset(seed=1)
    gin = game.rules.is_gin
    bound = game.rules.not_applicable("max_takes_in_a_row") is None
    assert bound == (rules not in ("gin", "scala40"))
    assert game.obs_size == game.observe(0).shape[0] == size
    assert ob.observation_size(players, gin=gin) == size - bound  # the v1 size
    assert ob.observation_size(players, gin=gin, take_bound=bound) == size
    derived = TokenGame(rules, players, derived_features=True)
    assert derived.obs_size == size + ob.DERIVED_FEATURES
    assert derived.layout.derived_block == size
    if bound:
        assert game.layout.take_block == 98 * players + 2488 == size - 1


@pytest.mark.parametrize(
    ("preset", "players", "scope"),
    [
        ("german(max_takes_in_a_row=10)", 3, "match"),
        ("viennese(max_takes_in_a_row=10)", 2, "hand"),
        ("basic", 2, "match"),
        ("scala40", 2, "hand"),
    ],
)
def test_kept_vectors_equal_fresh_ones_while_seats_keep_taking(
    preset: str, players: int, scope: str, keen_taker: Callable[[TokenGame, random.Random], int]
) -> None:
    """Play that takes the discard nine turns in ten: the kept vectors (updated at random moments,
    across hands that end at the bound and new deals) equal the fresh ones, and the take bound
    entry is seen at many values, its bound included."""
    rng = random.Random(preset)
    game = TokenGame(preset, players, scope=scope)  # type: ignore[arg-type]
    game.reset(seed=players)
    lay = game.layout
    values: set[float] = set()

    def compare(seat: int) -> None:
        kept = game.observe(seat)
        kept[lay.prefix : lay.gin_block] = 0.0
        view = game.view(seat)
        assert np.array_equal(kept, ob.encode_view(view, game.figures()))
        if lay.take_bound:
            values.add(float(kept[lay.take_block]))
            assert kept[lay.take_block] == np.float32(view.takes_in_a_row / view.rules.max_takes_in_a_row)

    play_comparing(game, rng, compare, 300, lambda: keen_taker(game, rng))
    if lay.take_bound:
        bound = game.rules.max_takes_in_a_row
        assert len(values) > 8 and 0.0 in values
        if bound == 10:
            assert 1.0 in values


SPADES = "gin(oklahoma=true, oklahoma_spade_doubles=true)"
"""Oklahoma gin where a spade as the first upcard doubles the hand: the only vectors with the doubled
entry."""
DOUBLED_AT_TWO = 98 * 2 + 2603
"""The doubled entry at gin's table of two (the module docstring's ``98·S + 2603``)."""


@pytest.mark.parametrize("scope", ["hand", "match"])
def test_doubled_entry_says_whether_the_hand_scores_double(scope: str) -> None:
    """At random moments of random play, across deals (the encoders are kept into the next one), the
    entry after the gin block holds 1 exactly when the hand's ``GinInfo.doubled`` is set, in the
    game's vector, a kept Python encoder's and one built from scratch, also once the first upcard
    is taken or buried; both values occur. Taken out, the vector is the v2 vector (the gin layout
    without the entry)."""
    rng = random.Random(scope)
    game = TokenGame(SPADES, 2, scope=scope)  # type: ignore[arg-type]
    game.reset(seed=3)
    lay = game.layout
    at = lay.doubled_block
    assert lay.doubled and not lay.take_bound and at == DOUBLED_AT_TWO == lay.size - 1
    v2 = ob.Layout.of(2, gin=True)
    python = [ob.Encoder(lay) for _ in range(2)]
    seen: set[tuple[bool, bool]] = set()

    def compare(seat: int) -> None:
        state = game.round.live_state()
        assert state.gin is not None
        doubled = state.gin.doubled
        kept = game.observe(seat)
        kept[lay.prefix : lay.gin_block] = 0.0
        mine = python[seat].encode_state(state, seat, game.figures(), None)
        view = game.view(seat)
        fresh = ob.encode_view(view, game.figures())
        assert np.array_equal(kept, fresh) and np.array_equal(mine, fresh)
        assert fresh[at] == (1.0 if doubled else 0.0)
        assert np.array_equal(np.delete(fresh, at), ob.encode_view(view, game.figures(), layout=v2))
        seen.add((doubled, state.turn > 2))  # past the first upcard's turns too

    play_comparing(game, rng, compare, 300, lambda: rng.choice(game.composer.allowed()))
    assert seen == {(False, False), (False, True), (True, False), (True, True)}


def test_only_oklahoma_spade_doubles_gains_the_doubled_entry() -> None:
    """Every preset at every table size and gin under Oklahoma without the doubling keep the v2
    layout (no doubled entry, the same size); with it gin has one entry more, right after the gin
    block and before the derived block."""
    for preset in rk.PRESET_NAMES:
        rules = rk.Rules.preset(preset)
        for players in range(rules.min_players, rules.max_players + 1):
            lay = ob.Layout.for_rules(rules, players)
            assert not lay.doubled and not ob.has_doubled(rules)
            v2 = ob.observation_size(players, gin=rules.is_gin, take_bound=ob.has_take_bound(rules))
            assert lay.size == lay.derived_block == v2
    oklahoma = rk.Rules.parse("gin(oklahoma=true)")
    assert not ob.has_doubled(oklahoma) and ob.Layout.for_rules(oklahoma, 2).size == 2799
    spades = rk.Rules.parse(SPADES)
    assert ob.has_doubled(spades)
    assert TokenGame(SPADES, 2).obs_size == ob.observation_size(2, gin=True, doubled=True) == 2800
    derived = TokenGame(SPADES, 2, derived_features=True).layout
    assert derived.doubled_block == DOUBLED_AT_TWO and derived.derived_block == 2800
    assert derived.size == 2800 + ob.DERIVED_FEATURES
    with pytest.raises(ValueError, match="doubled block without the gin block"):
        ob.Layout.of(2, doubled=True)


def test_the_readme_table_gives_each_presets_observation_length() -> None:
    """The README's table of presets for learners states the vector length per seat count
    (``98·S + n``) and the derived block's growth; both are what the environments hand out."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ((?:`\w+`(?:, )?)+) \| [^|]+ \| 98·S \+ (\d+)", readme, re.MULTILINE)
    named = {name for names, _ in rows for name in re.findall(r"`(\w+)`", names)}
    assert named == set(rk.PRESET_NAMES) - {"gin"}
    for names, extra in rows:
        for name in re.findall(r"`(\w+)`", names):
            rules = rk.Rules.preset(name)
            for seats in range(rules.min_players, rules.max_players + 1):
                assert TokenGame(rules, seats).obs_size == 98 * seats + int(extra), (name, seats)
    assert "| `gin` | 2 | 2,799 " in readme and TokenGame("gin", 2).obs_size == 2799
    grown = re.search(r"The lengths grow by (\d+) with `derived_features=True`", readme)
    assert grown is not None
    assert TokenGame("scala40", 3, derived_features=True).obs_size == 98 * 3 + 2488 + int(grown.group(1))
    # The heads-up figures it gives, without the derived block and with it (gin with it too).
    heads_up = re.search(r"Heads-up, ([^.]+?) hand out ([\d,]+) entries, Scala 40 ([\d,]+)\.", readme)
    derived = re.search(r"`derived_features=True` \(([\d,]+), ([\d,]+); gin ([\d,]+)\)", readme)
    assert heads_up is not None and derived is not None
    figure = [int(f.replace(",", "")) for f in (*heads_up.groups()[1:], *derived.groups())]
    names = {"German": "german", "Viennese": "viennese", "Rommé ohne Auslegen": "romme_ohne_auslegen"}
    for name in re.split(r", | and ", heads_up.group(1)):
        preset = names.get(name, name.lower())
        assert TokenGame(preset, 2).obs_size == figure[0], name
        assert TokenGame(preset, 2, derived_features=True).obs_size == figure[2], name
    assert TokenGame("scala40", 2).obs_size == figure[1]
    assert TokenGame("scala40", 2, derived_features=True).obs_size == figure[3]
    assert TokenGame("gin", 2, derived_features=True).obs_size == figure[4]
