"""The PettingZoo and Gymnasium environments: API conformance, seeding, determinism, hidden cards."""

from __future__ import annotations

import functools
import random
import types
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

import rummykit as rk
from rummykit.determinize import sample_round
from rummykit.envs import GYM_ID, RummyEnv, rummy_v0
from rummykit.envs import encoding as enc
from rummykit.envs.game import TokenGame
from rummykit.envs.observation import MatchFigures, encode_view

TABLES = [
    (preset, players)
    for preset in rk.PRESET_NAMES
    if not rk.Rules.preset(preset).is_gin  # the environments refuse gin (test_gin_is_refused)
    for players in (2, 4, 6)
    if rk.Rules.preset(preset).min_players <= players <= rk.Rules.preset(preset).max_players
] + [("german_dskv", 3)]


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_pettingzoo_api_seed_and_max_cycles(preset: str, players: int) -> None:
    api_test(rummy_v0.env(rules=preset, players=players), num_cycles=300)
    seed_test(functools.partial(rummy_v0.env, rules=preset, players=players), num_cycles=200)
    # max_cycles_test drives the Parallel API and its AEC form, every agent acting in every cycle.
    mod = types.SimpleNamespace(
        parallel_env=functools.partial(rummy_v0.parallel_env, rules=preset, players=players),
        env=lambda **kw: parallel_to_aec(rummy_v0.parallel_env(rules=preset, players=players, **kw)),
    )
    max_cycles_test(mod)


def test_parallel_api() -> None:
    parallel_api_test(rummy_v0.parallel_env(rules="german", players=3), num_cycles=300)


def test_match_scope_viennese_rubber_rewards_are_chips() -> None:
    env = rummy_v0.env(rules="viennese", players=3, scope="match")
    env.reset(seed=4)
    rng = random.Random(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    hands = 0
    for _agent in env.agent_iter(max_iter=200_000):
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        before = env.unwrapped.game.engine_actions
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        game = env.unwrapped.game
        if game.engine_actions != before and game.round.is_over:
            hands += 1
        for a in env.agents:
            totals[a] += env.rewards[a]
    match = env.unwrapped.game.match
    assert match.is_over and match.is_rubber
    assert [totals[f"player_{s}"] for s in range(3)] == [float(c) for c in match.chips]
    assert sum(match.chips) == 0


def test_win_reward_is_zero_sum_and_hand_scope_reward_is_points() -> None:
    for reward in ("score", "win"):
        env = rummy_v0.env(rules="german", players=3, reward=reward)
        env.reset(seed=11)
        rng = random.Random(11)
        got = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, r, termination, truncation, _ = env.last()
            got[agent] += r
            if termination or truncation:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        result = env.unwrapped.game.round.result
        if reward == "score":
            assert [got[f"player_{s}"] for s in range(3)] == [float(p) for p in result.points]
        else:
            assert abs(sum(got.values())) < 1e-9
            assert got[f"player_{result.winner}"] > 0


def test_illegal_token_raw_env_raises_and_env_terminates() -> None:
    raw = rummy_v0.raw_env(rules="viennese", players=2)
    raw.reset(seed=1)
    with pytest.raises(ValueError, match="masked out"):
        raw.step(enc.DONE)  # nothing has been spelled yet
    wrapped = rummy_v0.env(rules="viennese", players=2)
    wrapped.reset(seed=1)
    mover = wrapped.agent_selection
    wrapped.step(enc.DONE)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[mover] == -1.0


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError, match="scope"):
        rummy_v0.env(rules="german", players=2, scope="rubber")
    with pytest.raises(rk.RulesError, match="players"):
        rummy_v0.env(rules="german_dskv", players=6)
    with pytest.raises(ValueError, match="render_mode"):
        rummy_v0.env(rules="german", players=2, render_mode="human")


def _play(env: Any, seed: int, steps: int) -> list[tuple[str, bytes, float]]:
    env.reset(seed=seed)
    rng = random.Random(seed)
    trace = []
    for agent in env.agent_iter(max_iter=steps):
        obs, r, termination, truncation, _ = env.last()
        trace.append((agent, obs["observation"].tobytes() + obs["action_mask"].tobytes(), r))
        if termination or truncation:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return trace


@pytest.mark.parametrize("preset", ["german", "viennese"])
def test_same_seed_same_trajectory(preset: str) -> None:
    a = _play(rummy_v0.env(rules=preset, players=3), 5, 400)
    b = _play(rummy_v0.env(rules=preset, players=3), 5, 400)
    c = _play(rummy_v0.env(rules=preset, players=3), 6, 400)
    assert a == b
    assert a != c


def test_observations_hide_what_the_seat_cannot_see() -> None:
    """Re-dealing every card a seat cannot see changes neither its observation nor its mask."""
    rng = random.Random(3)
    checked = 0
    for preset, players in [("german", 3), ("viennese", 4), ("scala40", 2), ("romme_ohne_auslegen", 3),
                            ("basic", 4), ("german_dskv", 4)]:
        game = TokenGame(preset, players)
        game.reset(seed=len(preset))
        for _ in range(600):
            if game.is_over:
                break
            if game.composer.tokens == []:
                rnd = game.round
                for seat in range(players):
                    view = rnd.view(seat)
                    obs = encode_view(view, MatchFigures.none(players))
                    for _ in range(1):
                        other = sample_round(view, rng)
                        assert np.array_equal(encode_view(other.view(seat), MatchFigures.none(players)), obs)
                        if seat == rnd.to_move:
                            mine = enc.Composer(enc.candidate_actions(rnd)).allowed()
                            theirs = enc.Composer(enc.candidate_actions(other)).allowed()
                            assert mine == theirs
                        checked += 1
            game.step(rng.choice(game.composer.allowed()))
    assert checked > 500


def test_observation_sees_taken_discard() -> None:
    rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=8)
    while rnd.phase is not rk.Phase.DRAW:  # german deals an upcard; make sure a discard lies on top
        rnd.apply(rnd.legal_actions()[-1])
    top = rnd.view(0).top_discard
    mover = rnd.to_move
    rnd.apply("take")
    watcher = 1 - mover
    obs = encode_view(rnd.view(watcher), MatchFigures.none(2))
    assert obs[enc.NUM_CODES + top] == 1.0  # the opponent (relative seat 1) holds the taken card
    assert encode_view(rnd.view(mover), MatchFigures.none(2))[enc.NUM_CODES + top] == 0.0


def test_ansi_render_shows_the_board_of_the_seat_to_move() -> None:
    env = rummy_v0.env(rules="german", players=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    hand = env.unwrapped.game.view(env.unwrapped.game.to_move).hand
    assert "player_" in text and "to move" in text
    assert f"({len(hand)} cards" in text
    plain = rummy_v0.env(rules="german", players=2)
    plain.reset(seed=2)
    assert plain.render() is None


def test_gymnasium_env_checks_and_masks() -> None:
    env = RummyEnv(rules="viennese", players=2, opponents="greedy")
    check_env(env, skip_render_check=True)
    made = gymnasium.make(GYM_ID, rules="german", players=3, opponents=["random", "greedy"])
    obs, info = made.reset(seed=3)
    assert obs.shape == made.observation_space.shape
    masks = made.unwrapped.action_masks()
    assert masks.dtype == bool and np.array_equal(masks, info["action_mask"].astype(bool))
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(3000):
        token = int(rng.choice(np.flatnonzero(made.unwrapped.action_masks())))
        obs, reward, terminated, _, info = made.step(token)
        total += reward
        if terminated:
            break
    assert terminated and not info.get("illegal")
    result = made.unwrapped.game.round.result
    assert total == result.points[made.unwrapped.seat]


def test_gymnasium_illegal_token_ends_the_episode() -> None:
    env = RummyEnv(rules="viennese", players=2, opponents="random")
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(enc.KNOCK)
    assert terminated and info["illegal"] and reward == -1.0


@pytest.mark.parametrize("vector", ["sync", "async"])
def test_vector_envs(vector: str) -> None:
    fns = [lambda: gymnasium.make(GYM_ID, rules="viennese", opponents="random") for _ in range(2)]
    envs = gymnasium.vector.SyncVectorEnv(fns) if vector == "sync" else gymnasium.vector.AsyncVectorEnv(fns)
    try:
        obs, info = envs.reset(seed=[1, 2])
        assert obs.shape[0] == 2
        rng = np.random.default_rng(1)
        for _ in range(50):
            masks = info["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, _, _, _, info = envs.step(actions)
            assert not any(info.get("illegal", [False, False]))
        assert len(envs.call("action_masks")) == 2
    finally:
        envs.close()


def test_gin_is_refused() -> None:
    with pytest.raises(rk.RulesError, match="do not play gin"):
        TokenGame("gin", 2)
