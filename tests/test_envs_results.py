"""What training needs around the environments: the hand's result on its final step, the zero-sum
``reward="margin"``, opponents swapped between episodes, and the mask once an episode has ended."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
import gymnasium
import numpy as np

import rummykit as rk
from rummykit.actions import Discard, Draw, Pass
from rummykit.bots import make_bot
from rummykit.envs import GYM_ID, RummyEnv, rummy_v0
from rummykit.envs import encoding as enc
from rummykit.envs.game import TokenGame

HAND_FIELDS = {
    "seat", "termination", "scored", "winner", "winners", "won", "points", "own_points", "penalties", "gains",
}


def _token(mask: Any, rng: np.random.Generator) -> int:
    """A random allowed token; 0 where nothing is allowed (the step a vector env spends resetting)."""
    allowed = np.flatnonzero(mask)
    return int(rng.choice(allowed)) if len(allowed) else 0


def _check_result(result: dict[str, Any], seat: int, players: int) -> None:
    assert set(result) >= HAND_FIELDS
    assert result["seat"] == seat and len(result["points"]) == players
    assert result["own_points"] == result["points"][seat]
    assert result["scored"] == (result["winner"] != -1) == bool(result["winners"])
    assert result["won"] == (seat in result["winners"])
    assert result["termination"] in {str(t) for t in rk.Termination}
    assert json.loads(json.dumps(result)) == result  # plain JSON
    assert None not in result.values()  # a vector env batches each field: an int array holds no None


def test_the_final_step_carries_the_result_under_gymnasium_auto_reset() -> None:
    """Under auto-reset the game already holds the next deal when the trainer looks; the final info
    does not: its points are what the episode paid (``reward="score"``), also when two sub-envs end
    on the same step (no ``None`` that a batched integer field could not hold)."""
    fns = [lambda: gymnasium.make(GYM_ID, rules="viennese", opponents="random") for _ in range(3)]
    envs = gymnasium.vector.SyncVectorEnv(fns)
    try:
        _, info = envs.reset(seed=[1, 2, 3])
        rng = np.random.default_rng(1)
        paid = [0.0, 0.0, 0.0]
        ended: list[dict[str, Any]] = []
        resetting = [False, False, False]
        while len(ended) < 8:
            actions = np.array([_token(m, rng) for m in info["action_mask"]])
            _, rewards, terminated, truncated, info = envs.step(actions)
            for i in range(3):
                if resetting[i]:  # this step dealt the next hand (Gymnasium's next-step auto-reset)
                    resetting[i], paid[i] = False, 0.0
                    continue
                paid[i] += float(rewards[i])
                if terminated[i] or truncated[i]:
                    resetting[i] = True
                    assert info["_result"][i] and not truncated[i]
                    result = {key: info["result"][key][i] for key in HAND_FIELDS}
                    seat = int(result["seat"])
                    _check_result(json.loads(json.dumps(result, default=int)), seat, 2)
                    assert result["own_points"] == paid[i]
                    assert sum(result["points"]) == result["own_points"] + result["points"][1 - seat]
                    ended.append(result)
        assert {r["scored"] for r in ended} == {True, False}  # scored and unscored hands told apart
    finally:
        envs.close()


def test_the_final_info_of_sb3_dummy_vec_env_carries_the_result() -> None:
    vec_env = pytest.importorskip("stable_baselines3.common.vec_env")
    venv = vec_env.DummyVecEnv(
        [lambda: RummyEnv(rules="german", players=3, opponents="greedy", reward="score") for _ in range(2)]
    )
    venv.seed(4)
    venv.reset()
    rng = np.random.default_rng(4)
    paid = [0.0, 0.0]
    results = 0
    while results < 4:
        masks = venv.env_method("action_masks")
        _, rewards, dones, infos = venv.step(np.array([_token(m, rng) for m in masks]))
        for i in range(2):
            paid[i] += float(rewards[i])
            if dones[i]:
                result = infos[i]["result"]
                _check_result(result, infos[i]["seat"], 3)
                assert result["own_points"] == paid[i]
                assert venv.envs[i].unwrapped.game.round.result is None  # the next deal's already
                paid[i] = 0.0
                results += 1


def test_match_scope_results_carry_the_match_and_a_rubbers_chips() -> None:
    for rules, ledger in (("viennese", "own_chips"), ("german", "own_score")):
        env = RummyEnv(rules=rules, players=3, opponents="greedy", scope="match")
        _, info = env.reset(seed=5)
        paid = info["reward_before_first_move"]
        rng = np.random.default_rng(5)
        while True:
            _, reward, terminated, truncated, info = env.step(_token(info["action_mask"], rng))
            paid += reward
            if terminated or truncated:
                break
        result = info["result"]
        _check_result(result, env.seat, 3)
        match = env.game.match
        assert match is not None and match.is_over
        figures = result["match"]
        assert figures["scores"] == list(match.scores) and figures["winners"] == list(match.winners)
        assert figures["won"] == (env.seat in match.winners) and figures["hands_dealt"] == match.hands_dealt
        assert figures[ledger] == paid
        assert ("chips" in figures) == match.is_rubber


def test_every_agent_of_the_aec_and_parallel_envs_gets_its_result() -> None:
    env = rummy_v0.env(rules="german", players=3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    seen: dict[str, dict[str, Any]] = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        paid[agent] += reward
        if termination or truncation:
            seen[agent] = info["result"]
            env.step(None)
            continue
        env.step(_token(obs["action_mask"], rng))
    assert set(seen) == set(env.possible_agents)
    for seat, agent in enumerate(env.possible_agents):
        _check_result(seen[agent], seat, 3)
        assert seen[agent]["own_points"] == paid[agent]

    par = rummy_v0.parallel_env(rules="viennese", players=2, reward="win")
    observations, _ = par.reset(seed=3)
    while par.agents:
        actions = {a: _token(observations[a]["action_mask"], rng) for a in par.agents}
        observations, _, terminations, truncations, infos = par.step(actions)
    assert all(terminations.values()) and not any(truncations.values())
    for seat, agent in enumerate(par.possible_agents):
        _check_result(infos[agent]["result"], seat, 2)


def _greedy_hand(game: TokenGame, seed: int, zero_sum: bool = True) -> list[float]:
    """Play one hand (or match) with the greedy bot in every seat; each step's rewards summed per seat,
    every step's rewards checked to be zero-sum (``zero_sum``)."""
    game.reset(seed)
    bot = make_bot("greedy")
    rng = random.Random(seed)
    paid = [0.0] * game.players
    while not game.is_over:
        legal = game.match.legal_actions() if game.match is not None else game.round.legal_actions()
        rewards = game.apply(bot.choose(game.round.view(game.to_move), legal, rng))
        assert abs(sum(rewards)) < 1e-9 or not zero_sum
        paid = [p + r for p, r in zip(paid, rewards, strict=True)]
    return paid


MARGIN_TABLES = [
    (preset, players)
    for preset in rk.PRESET_NAMES
    for players in (2, 4)
    if rk.Rules.preset(preset).min_players <= players <= rk.Rules.preset(preset).max_players
]


@pytest.mark.parametrize(("preset", "players"), MARGIN_TABLES)
def test_margin_rewards_sum_to_zero_over_the_seats(preset: str, players: int) -> None:
    game = TokenGame(preset, players, reward="margin")
    for seed in range(2):
        paid = _greedy_hand(game, seed)
        result = game.round.result
        assert result is not None and result.scored
        seats = game.round.active_seats
        for s in range(players):
            others = [result.points[o] for o in seats if o != s]
            expected = result.points[s] - sum(others) / len(others) if s in seats else 0.0
            assert paid[s] == pytest.approx(expected)
        assert max(paid) > 0  # a hand won pays its winner, in every preset


def test_margin_rewards_of_a_match_are_zero_sum_and_add_up_to_the_margin_of_its_ledger() -> None:
    for rules in ("german", "viennese"):
        game = TokenGame(rules, 3, scope="match", reward="margin")
        paid = _greedy_hand(game, 7)
        match = game.match
        assert match is not None and match.is_over
        ledger = match.chips if match.is_rubber else match.scores
        for s in range(3):
            assert paid[s] == pytest.approx(ledger[s] - sum(ledger[o] for o in range(3) if o != s) / 2)


def _stalled(game: TokenGame) -> list[float]:
    """Every seat only draws and discards: the hand ends unscored (the stock exhausted)."""
    paid = [0.0] * game.players
    while not game.is_over:
        legal = game.round.legal_actions()
        action = next(a for kind in (Draw, Discard, Pass) for a in legal if isinstance(a, kind))
        paid = [p + r for p, r in zip(paid, game.apply(action), strict=True)]
    return paid


def test_a_german_hand_won_pays_more_under_margin_than_a_stalled_one() -> None:
    won: dict[str, float] = {}
    stalled: dict[str, float] = {}
    for kind in ("score", "margin"):
        game = TokenGame("german", 3, reward=kind)  # type: ignore[arg-type]
        paid = _greedy_hand(game, 3, zero_sum=kind == "margin")
        result = game.round.result
        assert result is not None and result.scored and result.winner is not None
        won[kind] = paid[result.winner]
        game.reset(3)
        stall = _stalled(game)
        assert game.round.result is not None and not game.round.result.scored
        stalled[kind] = stall[result.winner]
    assert won["score"] == stalled["score"] == 0.0  # the trap: winning pays what stalling pays
    assert won["margin"] > stalled["margin"] == 0.0


def test_reward_kinds_are_checked_and_listed_wherever_reward_is_taken() -> None:
    listed = r"reward must be one of 'score', 'win', 'margin', not 'points'"
    with pytest.raises(ValueError, match=listed):
        TokenGame("german", 2, reward="points")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=listed):
        RummyEnv(rules="german", reward="points")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=listed):
        rummy_v0.env(rules="german", reward="points")
    with pytest.raises(ValueError, match=listed):
        rummy_v0.parallel_env(rules="german", reward="points")
    env = gymnasium.make(GYM_ID, rules="german", players=2, reward="margin")
    _, info = env.reset(seed=1)
    assert info["action_mask"].any()
    assert rummy_v0.env(rules="gin", reward="margin").game.reward_kind == "margin"


class TwoSeatsOnly:
    """A bot that plays only heads-up tables (as a policy trained for two seats does)."""

    name = "two-seats-only"

    def check_table(self, rules: rk.Rules, players: int) -> None:
        if players != 2:
            raise rk.RulesError(f"two-seats-only plays two seats, not {players}")

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        return legal[0]


def _names(bots: list[Any]) -> list[str]:
    return [bot.name for bot in bots]


def test_set_opponents_takes_effect_at_the_next_reset_and_is_checked_as_the_constructor_checks() -> None:
    env = RummyEnv(rules="german", players=3, opponents="random", seat=0)
    _, info = env.reset(seed=1)
    env.set_opponents(["greedy", make_bot("random")])
    assert _names(env.bots) == ["random", "random"]  # never mid-hand
    rng = np.random.default_rng(1)
    for _ in range(20):
        _, _, terminated, truncated, info = env.step(_token(info["action_mask"], rng))
        assert not (terminated or truncated)
    assert _names(env.bots) == ["random", "random"]
    env.reset(seed=2)
    assert _names(env.bots) == ["greedy", "random"]
    env.reset(seed=3)
    assert _names(env.bots) == ["greedy", "random"]  # kept, not applied again and again

    for bad, error, words in (
        (["greedy"], ValueError, "give one bot spec or 2, not 1"),
        ([3, "greedy"], TypeError, "a bot kind such as 'greedy' or a bot with a name and choose"),
        (TwoSeatsOnly(), rk.RulesError, "plays two seats, not 3"),
    ):
        with pytest.raises(error, match=words):
            env.set_opponents(bad)  # type: ignore[arg-type]
        with pytest.raises(error, match=words):
            RummyEnv(rules="german", players=3, opponents=bad)  # type: ignore[arg-type]
    env.reset(seed=4)
    assert _names(env.bots) == ["greedy", "random"]  # a refused change leaves the opponents alone
    RummyEnv(rules="german", players=2, opponents=TwoSeatsOnly()).set_opponents(TwoSeatsOnly())


def test_set_opponents_through_sb3_vec_envs() -> None:
    vec_env = pytest.importorskip("stable_baselines3.common.vec_env")

    def make() -> gymnasium.Env[Any, Any]:
        return gymnasium.make(GYM_ID, rules="viennese", players=2, opponents="random")

    dummy = vec_env.DummyVecEnv([make, make])
    dummy.reset()
    dummy.env_method("set_opponents", "greedy", indices=[1])
    assert [_names(b) for b in dummy.get_attr("bots")] == [["random"], ["random"]]
    rng = np.random.default_rng(0)
    done = [False, False]
    while not all(done):  # auto-reset deals the next hand with the new opponent
        masks = dummy.env_method("action_masks")
        _, _, dones, _ = dummy.step(np.array([_token(m, rng) for m in masks]))
        done = [d or bool(n) for d, n in zip(done, dones, strict=True)]
    assert [_names(b) for b in dummy.get_attr("bots")] == [["random"], ["greedy"]]

    subproc = vec_env.SubprocVecEnv([make, make], start_method="fork")
    try:
        subproc.reset()
        subproc.env_method("set_opponents", [make_bot("greedy")])  # a bot object, pickled to each worker
        assert [_names(b) for b in subproc.get_attr("bots")] == [["random"], ["random"]]
        subproc.reset()
        assert [_names(b) for b in subproc.get_attr("bots")] == [["greedy"], ["greedy"]]
        masks = subproc.env_method("action_masks")
        subproc.step(np.array([_token(m, rng) for m in masks]))
    finally:
        subproc.close()


def test_the_mask_is_all_zeros_once_an_illegal_token_ended_the_episode() -> None:
    env = RummyEnv(rules="viennese", players=2, opponents="random")
    assert not env.action_masks().any()  # before the first reset no token is accepted either
    _, info = env.reset(seed=1)
    assert info["action_mask"].any() and env.action_masks().any()
    assert not info["action_mask"][enc.KNOCK]
    _, _, terminated, _, info = env.step(enc.KNOCK)
    assert terminated and info["illegal"] and "result" not in info
    assert not info["action_mask"].any() and not env.action_masks().any()
    assert info["action_mask"].dtype == np.int8 and env.action_masks().dtype == bool
    _, info = env.reset(seed=1)
    assert info["action_mask"].any() and env.action_masks().any()
