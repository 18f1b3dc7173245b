"""The observation space: its bounds hold every observation (random and greedy play of every preset
and table size, both scopes, with both encoders), and they are not trivially wide."""

from __future__ import annotations

import functools
import math
import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import rummykit as rk
from rummykit.bots import make_bot, match_action
from rummykit.envs import GYM_ID, RummyEnv, rummy_v0
from rummykit.envs import observation as ob
from rummykit.envs.game import TokenGame, worst_hand_points

Policy = Callable[[TokenGame, random.Random], int]

TABLES = [
    (preset, players)
    for preset in rk.PRESET_NAMES
    for players in range(rk.Rules.preset(preset).min_players, rk.Rules.preset(preset).max_players + 1)
]
"""Every preset at every table size it allows (2-6 seats where supported)."""

VARIANTS = [
    ("viennese(ante_frequency=per_hand)", 3, "match"),  # chips and pot unbounded
    ("viennese(knock_money=0, buyback_limit=3)", 3, "match"),  # chips bounded by antes and buy-backs
    ("german(match_end=penalty_limit, penalty_limit=50)", 3, "match"),
    ("german(num_hands=3)", 2, "match"),
    ("basic(hand_scoring=winner_gets_sum)", 3, "match"),  # target_score with minus points
    ("scala40(elimination_threshold=51)", 4, "match"),
    ("gin(oklahoma=true)", 2, "hand"),
    ("gin(oklahoma=true, oklahoma_spade_doubles=true)", 2, "hand"),  # the doubled entry
    ("gin(oklahoma=true, oklahoma_spade_doubles=true, match_end=target_score)", 2, "match"),
    ("gin(match_end=target_score)", 2, "match"),
    ("german(max_stock_rebuilds=unlimited)", 2, "hand"),  # the turn and the rebuilds unbounded
    ("german(joker_robbing=true, robbed_joker_counts_toward_hand=false)", 3, "hand"),
    ("viennese(knock_extra_turn=false)", 3, "hand"),
]
"""Rule sets whose bounds take other branches of the proofs."""

GREEDY = make_bot("greedy")
ENCODERS = ["python", "compiled"]


def outside(
    box: spaces.Box, obs: npt.NDArray[np.float32], rows: list[ob.FeatureBound]
) -> list[tuple[int, str, float, float, float]]:
    """The entries of ``obs`` outside ``box``: index, feature, value, low, high."""
    names = {i: row.name for row in rows for i in row.indices}
    bad = np.flatnonzero((obs < box.low) | (obs > box.high) | np.isnan(obs))
    return [(int(i), names[int(i)], float(obs[i]), float(box.low[i]), float(box.high[i])) for i in bad]


def check_inside(
    box: spaces.Box, obs: npt.NDArray[np.float32], rows: list[ob.FeatureBound], where: str
) -> None:
    if not box.contains(obs):
        broken = outside(box, obs, rows)
        raise AssertionError(f"{where}: outside the observation space at (index, feature, value, low, high) "
                             f"{broken[:5]}" + (f" and {len(broken) - 5} more" if len(broken) > 5 else ""))


def encoders(kind: str, game: TokenGame) -> list[Any]:
    if kind == "compiled":
        if ob._NATIVE is None:
            pytest.skip("the compiled encoder is not built, or RUMMYKIT_PURE=1")
        return [ob.CompiledEncoder(game.layout, game.rules) for _ in range(game.players)]
    return [ob.Encoder(game.layout) for _ in range(game.players)]


def env_box(rules: str, players: int, scope: str, derived: bool) -> spaces.Box:
    """The observation Box of the AEC environment, checked to equal the single-agent one."""
    env = rummy_v0.raw_env(rules=rules, players=players, scope=scope, derived_features=derived)  # type: ignore[arg-type]
    box = env.observation_space("player_0")["observation"]
    single = RummyEnv(rules=rules, players=players, scope=scope, derived_features=derived)  # type: ignore[arg-type]
    assert isinstance(box, spaces.Box) and isinstance(single.observation_space, spaces.Box)
    assert box == single.observation_space and box.dtype == np.float32
    return box


def play_checking(
    rules: str, players: int, scope: str, derived: bool, kind: str, tokens: int, keen: Policy | None = None
) -> int:
    """Play ``tokens`` tokens (random tokens, or whole greedy actions at half the decisions; ``keen``'s
    tokens where given) and check every seat's observation from ``kind``'s encoders, at the start of
    every decision and mid-spelling, and at the end of every hand; the observations checked."""
    rng = random.Random(f"{rules}/{players}/{scope}/{derived}/{kind}")
    box = env_box(rules, players, scope, derived)
    game = TokenGame(rules, players, scope=scope, derived_features=derived)  # type: ignore[arg-type]
    rows = ob.feature_bounds(game.rules, players, derived, scope == "match")
    game.reset(seed=players)
    mine = encoders(kind, game)
    checked = 0

    def check(seat: int) -> None:
        nonlocal checked
        rnd = game.round
        view = functools.partial(rnd.view, seat) if derived else None
        mine[seat].encode_state(rnd.live_state(), seat, game.figures(), view)
        spelled = game.composer.tokens if seat == game.to_move and not game.is_over else None
        where = f"{rules} at {players} ({scope}, {kind}), seat {seat}, turn {rnd.turn}, tokens {spelled}"
        check_inside(box, mine[seat].snapshot(spelled), rows, where)
        checked += 1

    for _ in range(tokens):
        if game.is_over or game.truncated:
            for seat in range(players):
                check(seat)
            game.reset()
            continue
        if not game.composer.tokens or rng.random() < 0.2:
            check(rng.randrange(players))
        if keen is not None:
            game.step(keen(game, rng))
        elif not game.composer.tokens and rng.random() < 0.5:
            if game.match is not None:
                action = match_action(GREEDY, game.match, rng)
            else:
                rnd = game.round
                action = GREEDY.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng)
            game.apply(action)
        else:
            game.step(rng.choice(game.composer.allowed()))
    return checked


@pytest.mark.parametrize("kind", ENCODERS)
@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_every_observation_lies_in_the_space(preset: str, players: int, kind: str) -> None:
    """Every preset at every table size, in hand and match scope (the derived block at two and three
    seats), with the Python and the compiled encoder; the bounds of the presets are finite in a hand."""
    derived = players <= 3
    assert np.isfinite(env_box(preset, players, "hand", derived).high).all()
    checked = play_checking(preset, players, "hand", derived, kind, 2500)
    checked += play_checking(preset, players, "match", False, kind, 5000)
    assert checked > 3000


@pytest.mark.parametrize("kind", ENCODERS)
@pytest.mark.parametrize(("rules", "players", "scope"), VARIANTS)
def test_observations_of_other_rule_sets_lie_in_the_space(
    rules: str, players: int, scope: str, kind: str
) -> None:
    assert play_checking(rules, players, scope, False, kind, 4000) > 1000


@pytest.mark.parametrize("kind", ENCODERS)
@pytest.mark.parametrize(
    ("rules", "players", "scope"),
    [
        ("german(max_takes_in_a_row=10)", 2, "hand"),
        ("viennese(max_takes_in_a_row=10)", 4, "hand"),  # extra turns after a knock take on, past 1
        ("basic(max_takes_in_a_row=10)", 3, "match"),
        ("scala40", 2, "hand"),
    ],
)
def test_observations_of_seats_that_keep_taking_lie_in_the_space(
    rules: str, players: int, scope: str, kind: str, keen_taker: Policy
) -> None:
    """Play that takes the discard nine turns in ten: the take bound entry runs up to its bound."""
    assert play_checking(rules, players, scope, False, kind, 3000, keen=keen_taker) > 1000


def test_the_environments_hand_out_observations_in_their_spaces() -> None:
    """The environments' own observations (AEC, Parallel, single-agent), under Gymnasium's passive
    checker: no warning about the space or an observation outside it."""
    rng = np.random.default_rng(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for rules, players, scope in [("viennese", 3, "match"), ("gin", 2, "hand"), ("german", 4, "hand")]:
            made = gymnasium.make(GYM_ID, rules=rules, players=players, scope=scope, opponents="greedy")
            box = made.observation_space
            assert box == spaces.Box(*made.unwrapped.game.observation_bounds(), dtype=np.float32)
            assert np.isfinite(box.high).mean() > 0.99  # infinite at most for a match's chips and hands
            obs, info = made.reset(seed=1)
            for _ in range(400):
                assert made.observation_space.contains(obs)
                token = int(rng.choice(np.flatnonzero(info["action_mask"])))
                obs, _, terminated, truncated, info = made.step(token)
                if terminated or truncated:
                    obs, info = made.reset()
    messages = [str(w.message) for w in caught if "Box" in str(w.message) or "observation" in str(w.message)]
    assert not messages
    par = rummy_v0.parallel_env(rules="german_dskv", players=4, scope="match")
    low, high = ob.observation_bounds(par.aec.rules, 4, match=True)
    assert par.observation_space("player_3")["observation"] == spaces.Box(low, high, dtype=np.float32)
    assert np.isfinite(high).all()
    observations, _ = par.reset(seed=2)
    for _ in range(300):
        for agent, o in observations.items():
            assert par.observation_space(agent).contains(o), agent
        mover = par.aec.agent_selection
        mask = observations[mover]["action_mask"]
        observations, *_ = par.step({mover: int(rng.choice(np.flatnonzero(mask)))})
        if not par.agents:
            observations, _ = par.reset()


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_the_bounds_are_not_trivially_wide(preset: str, players: int) -> None:
    """Flags are [0, 1], card counts [0, copies in the deck], parts of a whole [0, 1]; the scaled
    counts and points have the bounds the rules give; every entry is bounded in a hand, and in a
    match only the figures the rules do not bound are infinite."""
    rules = rk.Rules.preset(preset)
    for derived in (False, True):
        for match in (False, True):
            rows = ob.feature_bounds(rules, players, derived, match)
            low, high = ob.observation_bounds(rules, players, derived, match)
            size = ob.Layout.for_rules(rules, players, derived).size
            assert sorted(i for row in rows for i in row.indices) == list(range(size))
            assert low.dtype == high.dtype == np.float32 and (low < high).all()
            # The entries the rules keep constant: gin's stock rebuilds, the match figures in a hand,
            # the chips and the pot of a match that is no rubber.
            rubber = rules.is_knock_game and rules.match_end == "elimination_last_survivor"
            constant = {"stock rebuilds"} if rules.is_gin else set()
            if not match:
                constant |= {"match total / 100", "chips / 100", "pot / 100", "hands dealt / 10"}
            elif not rubber:
                constant |= {"chips / 100", "pot / 100"}
            for row in rows:
                where = f"{preset} at {players}: {row.name}"
                if row.kind in ("flag", "fraction"):
                    assert (row.low, row.high) == (0.0, 1.0), where
                elif row.kind == "count":
                    copies = rules.jokers_total if row.name.endswith("joker") else rules.num_decks
                    assert (row.low, row.high) == (0.0, copies), where
                elif row.low == row.high:  # a constant: declared [low, low + 1]
                    assert row.name in constant, where
                    assert high[row.indices[0]] == np.float32(row.low + 1), where
                else:
                    assert row.low < row.high, where
                if row.low != row.high:  # the declared arrays are the rows' ranges
                    assert (low[list(row.indices)] == np.float32(row.low)).all(), where
                    assert (high[list(row.indices)] == np.float32(row.high)).all(), where
                unbounded = {"chips / 100", "pot / 100", "hands dealt / 10"}
                if not match or row.name not in unbounded:
                    assert math.isfinite(row.high) and math.isfinite(row.low), where
            named = {row.name: row for row in rows}
            assert named["hand size / 20"].high == rules.deck_size / 20
            assert named["this hand's points / 100"].low == worst_hand_points(rules) / 100
            assert named["stock rebuilds"].high == (0 if rules.is_gin else rules.max_stock_rebuilds)
            assert "doubled" not in named  # only under oklahoma_spade_doubles, which no preset has
            if ob.has_take_bound(rules):
                extra = players - 1 if rules.is_knock_game and rules.knock_extra_turn else 0
                limit = rules.max_takes_in_a_row
                assert named["takes in a row / max_takes_in_a_row"].high == (limit + extra) / limit
            if not match:  # the match figures are 0 in a hand: declared [0, 1]
                for name in ("match total / 100", "chips / 100", "pot / 100", "hands dealt / 10"):
                    assert (low[list(named[name].indices)] == 0).all()
                    assert (high[list(named[name].indices)] == 1).all()


def test_the_doubled_entry_is_a_flag() -> None:
    """Under ``oklahoma_spade_doubles`` the entry after the gin block is declared [0, 1] (a flag),
    with and without the derived block, in both scopes; every entry still belongs to one feature."""
    rules = rk.Rules.parse("gin(oklahoma=true, oklahoma_spade_doubles=true, match_end=target_score)")
    for derived in (False, True):
        for match in (False, True):
            lay = ob.Layout.for_rules(rules, 2, derived)
            rows = ob.feature_bounds(rules, 2, derived, match)
            assert sorted(i for row in rows for i in row.indices) == list(range(lay.size))
            (row,) = [row for row in rows if row.name == "doubled"]
            assert (row.kind, row.indices, row.low, row.high) == ("flag", (lay.doubled_block,), 0.0, 1.0)
            low, high = ob.observation_bounds(rules, 2, derived, match)
            assert (low[lay.doubled_block], high[lay.doubled_block]) == (0.0, 1.0)


def test_only_the_rules_unbounded_figures_are_infinite() -> None:
    """Unlimited stock rebuilds leave the turn and the rebuilds unbounded; a rubber with antes every
    hand its chips and pot; every other rubber with knock money its chips; a match that is no fixed
    series its hands dealt."""

    def infinite(rules: str, players: int, match: bool) -> set[str]:
        rows = ob.feature_bounds(rk.Rules.parse(rules), players, False, match)
        return {row.name for row in rows if not (math.isfinite(row.low) and math.isfinite(row.high))}

    assert infinite("german(max_stock_rebuilds=unlimited)", 2, False) == {"turn / 100", "stock rebuilds"}
    assert infinite("german", 3, True) == set()
    assert infinite("viennese", 3, True) == {"chips / 100", "hands dealt / 10"}
    assert infinite("viennese(knock_money=0)", 3, True) == {"hands dealt / 10"}
    every_hand = {"chips / 100", "pot / 100", "hands dealt / 10"}
    assert infinite("viennese(ante_frequency=per_hand)", 3, True) == every_hand
    assert infinite("gin", 2, True) == {"hands dealt / 10"}
    # Finite figures where the rules bound them: one hand's points, a German match of two hands.
    rows = {row.name: row for row in ob.feature_bounds(rk.Rules.preset("german"), 2, False, True)}
    assert rows["match total / 100"].high == 2 * -worst_hand_points(rk.Rules.preset("german")) / 100
    assert rows["hands dealt / 10"].high == 0.2
    assert rows["this hand's points / 100"].high == 0.0  # German pays minus points only
    assert ob.feature_bounds(rk.Rules.preset("basic"), 2)[0].high == 1.0  # one deck


def test_a_bound_that_is_too_tight_is_reported_with_its_index() -> None:
    rules = rk.Rules.preset("german")
    rows = ob.feature_bounds(rules, 2)
    low, high = ob.observation_bounds(rules, 2)
    box = spaces.Box(low, high, dtype=np.float32)
    obs = np.zeros(box.shape, dtype=np.float32)
    obs[52] = 7.0  # seven jokers in hand: the deck has six
    assert outside(box, obs, rows) == [(52, "hand: joker", 7.0, 0.0, 6.0)]
    with pytest.raises(AssertionError, match=r"\(52, 'hand: joker', 7.0, 0.0, 6.0\)"):
        check_inside(box, obs, rows, "a made-up vector")


def test_a_target_score_match_pays_minus_points_only_as_plus_points() -> None:
    """``match_total_bound`` bounds a seat's minus points in a ``target_score`` match by the plus
    points paid, which holds because the rules accept that match end only with scorings whose minus
    points are plus points paid (``winner_gets_sum``, ``gin_difference``) or none (``winner_collects``)."""
    from typing import get_args

    from rummykit.rules import HandScoring

    accepted = set()
    for preset in rk.PRESET_NAMES:
        for scoring in get_args(HandScoring):
            try:
                rk.Rules.parse(f"{preset}(match_end=target_score, hand_scoring={scoring})")
            except rk.RulesError:
                continue
            accepted.add(scoring)
    assert accepted <= {"winner_gets_sum", "gin_difference", "winner_collects"}, accepted
