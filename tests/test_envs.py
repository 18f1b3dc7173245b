"""The PettingZoo and Gymnasium environments: API conformance, seeding, determinism, hidden cards."""

from __future__ import annotations

import functools
import io
import random
import types
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, render_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

import rummykit as rk
from rummykit.bots import make_bot
from rummykit.determinize import sample_round
from rummykit.envs import GYM_ID, RummyEnv, rummy_v0
from rummykit.envs import encoding as enc
from rummykit.envs.game import TokenGame, worst_hand_points, worst_match_points
from rummykit.envs.observation import MatchFigures, encode_view

VIENNESE = rk.Rules.preset("viennese")
TABLES = [
    (preset, players)
    for preset in rk.PRESET_NAMES
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


@pytest.mark.parametrize("rules", ["viennese", "romme_ohne_auslegen"])
def test_match_scope_rubber_rewards_are_chips(rules: str) -> None:
    """Both knock games play a rubber to elimination: the match rewards are chips, not bad points."""
    env = rummy_v0.env(rules=rules, players=3, scope="match")
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


def test_a_win_is_not_shared_with_a_dealer_who_sits_the_hand_out() -> None:
    """DSkV at four: the dealer holds no cards, and their 0 points would tie with the winner's 0."""
    env = rummy_v0.env(rules="german_dskv", players=4, reward="win")
    for seed in range(3):
        env.reset(seed=seed)
        rng = random.Random(seed)
        got = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, r, termination, truncation, _ = env.last()
            got[agent] += r
            env.step(
                None if termination or truncation else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            )
        rnd = env.unwrapped.game.round
        result = rnd.result
        (out,) = set(range(4)) - set(rnd.active_seats)
        assert result.scored and result.winner is not None
        expected = [0.0 if s == out else 1.0 if s == result.winner else -0.5 for s in range(4)]
        assert [got[f"player_{s}"] for s in range(4)] == expected


def test_gymnasium_match_rewards_include_hands_the_bots_finish_before_the_first_move() -> None:
    """Seat 5 of six at Viennese, seed 1064: the bots play a whole hand before the agent's first move;
    what it cost the agent comes with the first step, so the episode adds up to the agent's chips."""
    env = RummyEnv(rules="viennese", players=6, opponents="greedy", seat=5, scope="match")
    _, info = env.reset(seed=1064)
    match = env.game.match
    assert match is not None and match.hands_dealt == 2  # the first hand ended inside reset()
    before = float(match.chips[5])
    assert before != 0 and info["reward_before_first_move"] == before
    rng = random.Random(0)
    total, done = 0.0, False
    while not done:
        _, reward, terminated, truncated, info = env.step(
            rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        )
        total += reward
        done = terminated or truncated
    assert terminated and total == float(env.game.match.chips[5])


def match_policy_file(path: Any, rules: str, players: int, observation: int) -> Any:
    """A policy file of random weights for a match-scope table of ``rules`` (observation version
    ``observation``)."""
    import json

    from rummykit.envs.observation import Layout, has_take_bound

    layout = Layout.for_rules(rk.Rules.preset(rules), players, derived=False)
    weights = np.random.default_rng(5)
    w0 = weights.normal(size=(layout.size, 24)).astype(np.float32)
    w1 = weights.normal(size=(24, enc.NUM_TOKENS)).astype(np.float32)
    meta = {
        "layers": 2, "rules": rules, "players": players, "derived_features": False, "scope": "match",
        "gin": False, "take_bound": has_take_bound(rk.Rules.preset(rules)), "doubled": False,
        "encoding": enc.ENCODING_VERSION, "observation": observation,
    }  # fmt: skip
    np.savez(path, meta=np.array(json.dumps(meta)), w0=w0, b0=np.zeros(24, np.float32), w1=w1,
             b1=np.zeros(enc.NUM_TOKENS, np.float32))  # fmt: skip
    return path


def test_a_winner_collects_match_shows_each_seats_plus_points(tmp_path: Any) -> None:
    """Basic pays plus points only and its match goes to 100 of them: the match totals of a match
    scope observation are those plus points, each seat's from the observer's left (observation v4;
    v3 showed the minus points that scoring never pays, zeros), within the observation space. A
    policy bot of observation v3 is still shown the zeros it was trained on."""
    from rummykit.bots import match_action
    from rummykit.bots.policy import PolicyBot
    from rummykit.envs.observation import OBSERVATION_VERSION, SEAT_FEATURES
    from rummykit.views import MatchView

    game = TokenGame("basic", 3, scope="match")
    game.reset(seed=4)
    rng = random.Random(4)
    greedy = make_bot("greedy")
    match = game.match
    assert match is not None
    while not any(match.gains) and not game.is_over:
        game.apply(match_action(greedy, match, rng))
    assert any(match.gains) and not any(match.totals)
    low, high = game.observation_bounds()
    for seat in range(3):
        obs = game.observe(seat)
        entries = [obs[game.layout.per_seat + SEAT_FEATURES * k + 6] for k in range(3)]
        assert entries == [np.float32(match.gains[(seat + k) % 3] / 100) for k in range(3)]
        assert np.all(low <= obs) and np.all(obs <= high)
    figures = {}
    for version in (3, OBSERVATION_VERSION):
        bot = PolicyBot(match_policy_file(tmp_path / f"v{version}.npz", "basic", 3, version))
        bot.follow_match(MatchView.of(match, 0))
        figures[version] = bot._figures.totals if bot._figures else None
    assert figures == {3: (0, 0, 0), OBSERVATION_VERSION: tuple(match.gains)}


@pytest.mark.parametrize("rules", ["viennese", "basic"])
def test_a_match_scope_policy_bot_reads_what_the_environment_showed(tmp_path: Any, rules: str) -> None:
    """A policy exported with ``scope="match"`` is shown the match figures (totals, chips, pot, hands
    dealt, an open buy-back) before each decision, as the environment showed them in training: in a
    Viennese rubber of three and a basic match to 100 plus points (the others played by greedy), the
    bot chooses exactly what the same network chooses token by token on the environment's own
    observations (which differ from a hand-scope bot's zeros from the second hand on)."""
    from rummykit.bots import match_action
    from rummykit.bots.policy import PolicyBot
    from rummykit.envs.observation import OBSERVATION_VERSION

    bot = PolicyBot(match_policy_file(tmp_path / "match.npz", rules, 3, OBSERVATION_VERSION))
    game = TokenGame(rules, 3, scope="match")
    game.reset(seed=21)
    rng = random.Random(0)
    greedy = make_bot("greedy")  # seats 1 and 2, so that hands end and the figures move
    decisions = 0
    while not game.is_over and decisions < 300:
        match = game.match
        assert match is not None
        if game.to_move != 0:
            for token in enc.tokens_of(enc.canonical(match_action(greedy, match, rng))):
                game.step(token)
            continue
        chosen = match_action(bot, match, rng)
        applied = None
        while applied is None:
            scores = bot.scores(game.observe(0))
            applied, _ = game.step(max(game.composer.allowed(), key=lambda t: scores[t]))
        assert applied == chosen
        decisions += 1
    assert game.match is not None and game.match.hands_dealt >= 3, decisions


SPADES = "gin(oklahoma=true, oklahoma_spade_doubles=true)"
"""Oklahoma gin where a spade as the first upcard doubles the hand (observation v3's doubled entry)."""


def _gin_policy(path: Any, w0: Any, w1: Any, **meta: object) -> Any:
    """A two-layer gin policy file of ``w0`` and ``w1`` (zero biases) with ``meta`` over a v3 file's."""
    import json

    from rummykit.bots.policy import PolicyBot

    full = {"layers": 2, "rules": "gin", "players": 2, "derived_features": False, "scope": "hand",
            "gin": True, "take_bound": False, "doubled": False, "encoding": enc.ENCODING_VERSION,
            "observation": 3} | meta
    np.savez(path, meta=np.array(json.dumps(full)), w0=w0, b0=np.zeros(w0.shape[1], np.float32), w1=w1,
             b1=np.zeros(enc.NUM_TOKENS, np.float32))  # fmt: skip
    return PolicyBot(path)


def test_a_v2_gin_policy_plays_oklahoma_gin_on_the_vector_without_the_doubled_entry(tmp_path: Any) -> None:
    """Observation v3 only added the doubled entry: a v2 gin policy plays a table where a spade upcard
    doubles the hand, reading the vector without the entry, and chooses every move as a v3 policy of
    the same weights that ignores the entry (a zero row there). The v3 policy reads the entry (1 in a
    doubled hand) and is refused at a plain gin or an Oklahoma table without the doubling, with the
    reason."""
    from rummykit.bots.policy import PolicyFileError
    from rummykit.envs.observation import Layout

    rules = rk.Rules.parse(SPADES)
    layout = Layout.for_rules(rules, 2)
    assert layout.doubled and layout.size == Layout.of(2, gin=True).size + 1
    weights = np.random.default_rng(11)
    w0 = weights.normal(size=(layout.size - 1, 24)).astype(np.float32)
    w1 = weights.normal(size=(24, enc.NUM_TOKENS)).astype(np.float32)
    old = _gin_policy(tmp_path / "v2.npz", w0, w1, observation=2)
    new = _gin_policy(tmp_path / "v3.npz", np.insert(w0, layout.doubled_block, 0.0, axis=0), w1, rules=SPADES,
                      doubled=True)  # fmt: skip
    assert old.layout == Layout.of(2, gin=True) and new.layout == layout
    rng = random.Random(4)
    stakes = set()
    for seed in range(8):
        rnd = rk.Round.new(rules, players=2, seed=seed)
        gin = rnd.view(0).gin
        assert gin is not None
        stakes.add(gin.doubled)
        while not rnd.is_over:
            view, legal = rnd.view(rnd.to_move), rnd.legal_actions()
            seen = encode_view(view, MatchFigures.none(2), layout=new.layout)
            assert seen[layout.doubled_block] == gin.doubled
            action = old.choose(view, legal, rng)
            assert action == new.choose(view, legal, rng)
            rnd.apply(action)
    assert stakes == {False, True}
    for other in ("gin", "gin(oklahoma=true)"):
        table = rk.Round.new(rk.Rules.parse(other), players=2, seed=1)
        old.choose(table.view(table.to_move), table.legal_actions(), rng)  # plays every gin table
        with pytest.raises(PolicyFileError, match="trained on rules where oklahoma_spade_doubles is on"):
            new.choose(table.view(table.to_move), table.legal_actions(), rng)


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
    assert wrapped.rewards[mover] == wrapped.game.default_illegal_reward == worst_hand_points(VIENNESE) - 1


def test_raw_env_refuses_what_is_no_token_and_names_the_tokens_allowed() -> None:
    """``raw_env`` never rounds an action to a token (1.5 was stepped as token 1), and its refusal of
    a masked-out token names the agent and what it may play; nothing changes either way."""
    raw = rummy_v0.raw_env(rules="gin", players=2)
    raw.reset(seed=1)
    mover = raw.agent_selection
    assert [enc.token_name(t) for t in np.flatnonzero(raw.observe(mover)["action_mask"])] == ["take", "pass"]
    before = raw.observe(mover)["observation"]
    for action in (1.5, np.float32(1.0), enc.NUM_TOKENS, -1):
        with pytest.raises(ValueError, match=f"{mover} is to move: its action must be a token"):
            raw.step(action)  # type: ignore[arg-type]
    refusal = rf"{mover} is to move: token 0 \(draw\) is masked out; allowed: take, pass"
    with pytest.raises(ValueError, match=refusal):
        raw.step(enc.DRAW)
    assert raw.agent_selection == mover and np.array_equal(raw.observe(mover)["observation"], before)
    assert not any(raw.terminations.values())


def test_an_illegal_token_is_named_in_the_offenders_final_info() -> None:
    """``env()``: the offender's final ``info`` says ``illegal`` (as Gymnasium's and the Parallel API's
    do), no agent's info keeps the ``action`` of an earlier step, and every final mask is all zeros
    (the offender's showed the tokens it had been allowed)."""
    import warnings

    env = rummy_v0.env(rules="german", players=3)
    env.reset(seed=2)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    offender = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns on the illegal move
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0]))
    finals = {}
    for agent in env.agent_iter():
        obs, reward, termination, _, info = env.last()
        assert termination and not obs["action_mask"].any()  # the offender's mask too
        finals[agent] = (reward, info)
        env.step(None)
    assert finals[offender] == (env.illegal_reward, {"illegal": True})
    assert all(info == {} and reward == 0.0 for a, (reward, info) in finals.items() if a != offender)


@pytest.mark.parametrize("rules,players", [("gin", 2), ("viennese", 2), ("german", 4)])
def test_a_truncated_episode_allows_no_token(rules: str, players: int) -> None:
    """After ``max_cycles`` every agent is truncated and may only step ``None``: each final mask is
    all zeros in the AEC and the Parallel API (the agent to move was shown the tokens it had been
    allowed), and a Parallel step once every agent is done says so instead of a ``KeyError``."""
    aec = rummy_v0.env(rules=rules, players=players, max_cycles=7)
    aec.reset(seed=3)
    for agent in aec.agent_iter():
        obs, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            assert truncation and not obs["action_mask"].any(), agent
            aec.step(None)
            continue
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    par = rummy_v0.parallel_env(rules=rules, players=players, max_cycles=7)
    observations, _ = par.reset(seed=3)
    truncations = {}
    while par.agents:
        mover = par.aec.agent_selection
        observations, _, _, truncations, _ = par.step(
            {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items() if a == mover}
        )
    assert all(truncations.values()) and not any(o["action_mask"].any() for o in observations.values())
    with pytest.raises(RuntimeError, match="every agent is done"):
        par.step({mover: 0})


def test_a_gin_match_of_unscored_hands_is_truncated_by_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """The gin preset's match is one scored hand, so policies that never knock see every hand reach the
    wall and dealt again: the hand guard truncates the episode after ``MAX_UNSCORED_HANDS`` (lowered
    here from 100) unscored hands in a row, ``info["truncation"]`` says so, every final mask is all
    zeros, and the README's account of how episodes end names that limit."""
    from pathlib import Path

    from rummykit import guard

    assert f"once {guard.MAX_UNSCORED_HANDS} hands in a row have ended without a score" in " ".join(
        (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8").split()
    )
    monkeypatch.setattr(guard, "MAX_UNSCORED_HANDS", 3)
    env = rummy_v0.env(rules="gin", players=2, scope="match")
    env.reset(seed=5)
    rng = random.Random(5)
    finals = {}
    for agent in env.agent_iter():
        obs, _, termination, truncation, info = env.last()
        if termination or truncation:
            finals[agent] = (termination, truncation, info.get("truncation"), bool(obs["action_mask"].any()))
            env.step(None)
            continue
        allowed = [t for t in np.flatnonzero(obs["action_mask"]).tolist() if t != enc.KNOCK]
        env.step(next((t for t in (enc.DRAW, enc.PASS) if t in allowed), rng.choice(allowed)))
    match = env.unwrapped.game.match
    assert match is not None and not match.is_over and match.hands_dealt == 4
    why = "3 hands in a row ended without a score (a guard against endless hands)"
    assert finals == {a: (False, True, why, False) for a in env.possible_agents}


def test_parallel_actions_keyed_by_no_agent_are_refused() -> None:
    """Actions keyed by seat numbers (or a misspelt name) left the mover without a token: every step
    cost it ``illegal_reward`` and nothing moved, silently. They are refused, and nothing changes."""
    env = rummy_v0.parallel_env(rules="viennese", players=2)
    observations, _ = env.reset(seed=1)
    mover = env.aec.agent_selection
    token = int(np.flatnonzero(observations[mover]["action_mask"])[0])
    before = observations[mover]["observation"]
    for key in (int(mover[-1]), "player_2", "Player_0"):
        with pytest.raises(ValueError, match=rf"keyed by agent \(player_0, player_1\), not {key!r}"):
            env.step({key: token})  # type: ignore[dict-item]
    assert env.aec.agent_selection == mover and env.agents == ["player_0", "player_1"]
    assert np.array_equal(env.aec.observe(mover)["observation"], before)
    _, rewards, _, _, infos = env.step({mover: token})
    assert not any(rewards.values()) and "illegal" not in infos[mover]


def _wrapped_reference(**kwargs: Any) -> Any:
    """``raw_env`` inside PettingZoo's classic wrappers: what ``env()`` returned before it built them in."""
    from pettingzoo.utils import wrappers

    inner = wrappers.TerminateIllegalWrapper(rummy_v0.raw_env(**kwargs), illegal_reward=-1.0)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(inner))


@pytest.mark.parametrize("rules,players", [("viennese", 2), ("german", 3)])
def test_classic_env_plays_exactly_like_the_wrapped_raw_env(rules: str, players: int) -> None:
    """Same seeds and tokens, including an illegal token now and then: identical observations,
    masks, rewards, ends and infos at every step."""
    import warnings

    rng = random.Random(5)
    for episode in range(6):
        ours = rummy_v0.env(rules=rules, players=players, illegal_reward=-1.0)
        ref = _wrapped_reference(rules=rules, players=players)
        for e in (ours, ref):
            e.reset(seed=episode)
        illegal_at = rng.randrange(5, 200) if episode % 2 else None
        offender: str | None = None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PettingZoo warns on the illegal move
            for step, (a, b) in enumerate(zip(ours.agent_iter(), ref.agent_iter(), strict=True)):
                assert a == b
                got, want = ours.last(), ref.last()
                assert np.array_equal(got[0]["observation"], want[0]["observation"])
                if offender is None:
                    assert np.array_equal(got[0]["action_mask"], want[0]["action_mask"])
                    assert got[1:] == want[1:]
                else:  # the wrappers left the mover's mask and the last action's infos
                    assert not got[0]["action_mask"].any()
                    assert got[1:4] == want[1:4]
                    assert got[4] == ({"illegal": True} if a == offender else {})
                if got[2] or got[3]:
                    token = None
                elif step == illegal_at:
                    token = int(np.flatnonzero(got[0]["action_mask"] == 0)[0])
                    offender = a
                else:
                    token = int(rng.choice(np.flatnonzero(got[0]["action_mask"])))
                ours.step(token)
                ref.step(token)
                assert ours.rewards == ref.rewards and ours.terminations == ref.terminations


def test_classic_env_refuses_what_the_wrappers_refused() -> None:
    fresh = rummy_v0.env(rules="viennese", players=2)
    with pytest.raises(AttributeError):
        _ = fresh.terminations
    with pytest.raises(Exception, match="reset"):
        fresh.step(0)
    fresh.reset(seed=3)
    for token in (enc.NUM_TOKENS, -1, None, "draw"):
        with pytest.raises(ValueError, match="must be a token"):
            fresh.step(token)  # type: ignore[arg-type]
    assert not any(fresh.terminations.values())


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError, match="scope"):
        rummy_v0.env(rules="german", players=2, scope="rubber")
    with pytest.raises(rk.RulesError, match="players"):
        rummy_v0.env(rules="german_dskv", players=6)
    for make in (rummy_v0.env, rummy_v0.parallel_env, RummyEnv):
        with pytest.raises(ValueError, match="render_mode must be None, 'ansi' or 'human', not 'rgb_array'"):
            make(rules="german", players=2, render_mode="rgb_array")


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


@pytest.mark.parametrize(("preset", "players"), [("german", 3), ("viennese", 3), ("gin", 2)])
def test_same_seed_same_trajectory(preset: str, players: int) -> None:
    a = _play(rummy_v0.env(rules=preset, players=players), 5, 400)
    b = _play(rummy_v0.env(rules=preset, players=players), 5, 400)
    c = _play(rummy_v0.env(rules=preset, players=players), 6, 400)
    assert a == b
    assert a != c


def test_observations_hide_what_the_seat_cannot_see() -> None:
    """Re-dealing every card a seat cannot see changes neither its observation nor its mask.

    The environment's own observations are compared (its per-seat encoders, which rewrite only what
    changed), with the re-dealt round's built from scratch. Gin hands are driven partly by the
    greedy bot, so that knocks, knock discards, melds and lay-offs are checked too.
    """
    rng = random.Random(3)
    greedy = make_bot("greedy")
    checked = 0
    phases: set[rk.Phase] = set()
    for preset, players in [
        ("german", 3),
        ("viennese", 4),
        ("scala40", 2),
        ("romme_ohne_auslegen", 3),
        ("basic", 4),
        ("german_dskv", 4),
        ("gin", 2),
        ("gin", 2),
    ]:
        game = TokenGame(preset, players)
        game.reset(seed=len(preset) + checked)
        for _ in range(600):
            if game.is_over:
                break
            if game.composer.tokens == []:
                rnd = game.round
                phases.add(rnd.phase)
                for seat in range(players):
                    obs = game.observe(seat)
                    other = sample_round(rnd.view(seat), rng)
                    fresh = TokenGame(preset, players)
                    fresh.play_from(other)
                    assert np.array_equal(fresh.observe(seat), obs)
                    if seat == rnd.to_move:
                        assert np.array_equal(fresh.mask(), game.mask())
                    checked += 1
                if rnd.rules.is_gin and rng.random() < 0.7:
                    view = rnd.view(rnd.to_move)
                    game.apply(greedy.choose(view, rnd.legal_actions(), rng))
                    continue
            game.step(rng.choice(game.composer.allowed()))
    assert checked > 500
    assert {rk.Phase.FIRST_UPCARD, rk.Phase.KNOCK, rk.Phase.LAYOFF} <= phases


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


@pytest.mark.parametrize(("rules", "players", "scope"), [("gin", 2, "hand"), ("german", 3, "match")])
def test_ansi_render_after_the_end_says_how_it_ended(rules: str, players: int, scope: str) -> None:
    """Once the hand (match) is over the board names no seat to move (it said the seat after the last
    mover was): it says how the hand ended and shows the score table, every hand as scored."""
    import re

    env = rummy_v0.env(rules=rules, players=players, scope=scope, render_mode="ansi")
    env.reset(seed=4)
    rng = random.Random(4)
    for _ in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else _token(obs, rng))
    game = env.unwrapped.game
    assert game.is_over
    text = re.sub(r"\x1b\[[0-9;]*m", "", env.render())
    over = "the match is over: " if scope == "match" else "the hand is over: "
    assert "to move" not in text and over in text
    from rich.console import Console

    from rummykit.cli.screen import Scoreboard, card_text, match_scoreboard, result_table, termination_text

    names = [f"player_{s}" for s in range(players)]
    assert over + termination_text(game.round.result, names, rules=game.rules) in text
    table = io.StringIO()  # the terminal game's score table: every seat's cards, as scored
    score = match_scoreboard(game.match) if game.match is not None else Scoreboard()
    Console(file=table, width=100).print(result_table(game.view(game.to_move), names, score))
    assert re.match(r"Hand \d+ over", table.getvalue()) and table.getvalue() in text
    for seat in range(players):  # the cards of a seat the board does not show
        assert all(card_text(card).plain in table.getvalue() for card in game.view(seat).hand)


def test_ansi_render_after_an_episode_cut_short_says_why() -> None:
    """An episode cut short (``max_cycles``, an illegal token in ``env()`` or the Gymnasium
    environment) leaves the hand unfinished: the board names no seat to move (it named the one that
    could no longer act) but says why the episode ended."""
    import re
    import warnings

    def plain(text: str | None) -> str:
        assert text is not None
        return re.sub(r"\x1b\[[0-9;]*m", "", text)

    cut = rummy_v0.env(rules="viennese", players=2, max_cycles=3, render_mode="ansi")
    cut.reset(seed=2)
    rng = random.Random(2)
    while not any(cut.truncations.values()):
        cut.step(_token(cut.last()[0], rng))
    text = plain(cut.render())
    assert "to move" not in text and "the episode was cut short: max_cycles (3 steps) reached" in text

    illegal = rummy_v0.env(rules="viennese", players=2, render_mode="ansi")
    illegal.reset(seed=2)
    offender = illegal.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns on the illegal move
        illegal.step(enc.KNOCK)  # no knock in the draw phase
    text = plain(illegal.render())
    assert "to move" not in text and f"cut short: {offender} played the masked-out token 7 (knock)" in text

    single = RummyEnv(rules="viennese", players=2, render_mode="ansi")
    single.reset(seed=2)
    single.step(enc.KNOCK)
    text = plain(single.render())
    assert "to move" not in text and "cut short: ended by the masked-out token 7" in text


def _token(obs: dict[str, Any], rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


def test_human_render_prints_the_board_on_reset_and_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's classic convention: ``reset`` and every step print the board (the ``ansi`` mode's
    text) to stdout, ``render()`` prints it too and returns ``None``; a step of an agent already done
    prints nothing."""
    assert rummy_v0.raw_env.metadata["render_modes"] == rummy_v0.parallel_env.metadata["render_modes"]
    assert set(rummy_v0.raw_env.metadata["render_modes"]) == {"ansi", "human"}
    human = rummy_v0.env(rules="german", players=2, render_mode="human")
    ansi = rummy_v0.env(rules="german", players=2, render_mode="ansi")
    human.reset(seed=2)
    ansi.reset(seed=2)
    board = capsys.readouterr().out
    assert board == ansi.render() and "player_" in board and "to move" in board
    rng = random.Random(2)
    for _ in range(6):
        token = _token(human.last()[0], rng)
        human.step(token)
        ansi.step(token)
        assert capsys.readouterr().out == ansi.render()
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render()
    human.step(enc.KNOCK)  # masked out: the game ends, the board is printed once more
    printed = capsys.readouterr().out
    assert printed.count("the episode was cut short: player_0 played the masked-out token 7") == 1
    human.step(None)  # a done agent's step: nothing
    assert capsys.readouterr().out == ""


def test_human_render_of_the_parallel_env(capsys: pytest.CaptureFixture[str]) -> None:
    human = rummy_v0.parallel_env(rules="viennese", players=3, render_mode="human")
    ansi = rummy_v0.parallel_env(rules="viennese", players=3, render_mode="ansi")
    observations, _ = human.reset(seed=4)
    ansi.reset(seed=4)
    assert human.render_mode == "human"
    assert capsys.readouterr().out == ansi.render()
    rng = random.Random(4)
    for _ in range(4):
        mover = human.aec.agent_selection
        actions = {mover: _token(observations[mover], rng)}
        observations, *_ = human.step(actions)
        ansi.step(actions)
        assert capsys.readouterr().out == ansi.render()
    human.step({human.aec.agent_selection: enc.KNOCK})  # masked out: ignored, the board printed again
    assert capsys.readouterr().out == ansi.render()
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render()


def test_human_render_of_the_gymnasium_env(capsys: pytest.CaptureFixture[str]) -> None:
    """Gymnasium's convention: the board is printed at the end of ``reset`` and of every ``step``;
    ``render()`` returns ``None``."""
    assert set(RummyEnv.metadata["render_modes"]) == {"ansi", "human"}
    human = gymnasium.make(GYM_ID, rules="gin", opponents="greedy", render_mode="human")
    ansi = gymnasium.make(GYM_ID, rules="gin", opponents="greedy", render_mode="ansi")
    _, info = human.reset(seed=5)
    ansi.reset(seed=5)
    assert capsys.readouterr().out == ansi.render()
    rng = random.Random(5)
    for _ in range(6):
        token = _token({"action_mask": info["action_mask"]}, rng)
        _, _, terminated, truncated, info = human.step(token)
        ansi.step(token)
        assert capsys.readouterr().out == ansi.render()
        if terminated or truncated:
            break
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render()


def test_the_api_checks_pass_in_human_mode(capsys: pytest.CaptureFixture[str]) -> None:
    """Gymnasium's ``check_env`` (its render checks of every declared mode included) and PettingZoo's
    API, Parallel API and render tests, with ``render_mode="human"``."""
    made = gymnasium.make(GYM_ID, rules="viennese", opponents="greedy", render_mode="human")
    check_env(made.unwrapped)
    api_test(rummy_v0.env(rules="viennese", players=3, render_mode="human"), num_cycles=100)
    parallel_api_test(rummy_v0.parallel_env(rules="gin", players=2, render_mode="human"), num_cycles=100)
    render_test(functools.partial(rummy_v0.env, rules="german", players=2))
    assert "to move" in capsys.readouterr().out


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
    _, first = env.reset(seed=1)
    _, reward, terminated, _, info = env.step(enc.KNOCK)
    assert terminated and info["illegal"] and reward == worst_hand_points(VIENNESE) - 1
    chosen = RummyEnv(rules="viennese", players=2, opponents="random", illegal_reward=-3)
    chosen.reset(seed=1)
    assert chosen.step(enc.KNOCK)[1] == -3.0
    with pytest.raises(RuntimeError, match=r"the episode is over \(ended by the masked-out token .*reset"):
        env.step(int(np.flatnonzero(first["action_mask"])[0]))  # the hand must not go on after its end
    _, info = env.reset(seed=1)
    assert not env.step(int(np.flatnonzero(info["action_mask"])[0]))[2]  # a new episode plays again


def test_max_cycles_in_the_middle_of_an_action_says_why() -> None:
    """The limit can fall between two tokens of one action: the truncation still says why, in both
    APIs."""
    for cycles in range(5, 12):
        env = rummy_v0.env(rules="german", players=2, max_cycles=cycles)
        env.reset(seed=1)
        rng = np.random.default_rng(0)
        for _ in env.agent_iter():
            obs, _, termination, truncation, info = env.last()
            if termination or truncation:
                assert truncation and info["truncation"] == f"max_cycles ({cycles} steps) reached", cycles
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    par = rummy_v0.parallel_env(rules="german", players=2, max_cycles=1)
    par.reset(seed=1)
    (mover,) = [a for a in par.agents if par.aec.agent_selection == a]
    masked_out = int(np.flatnonzero(par.aec.observe(mover)["action_mask"] == 0)[0])
    *_, truncations, infos = par.step({mover: masked_out})  # a masked-out token at the limit
    assert all(truncations.values()) and infos[mover]["truncation"] == "max_cycles (1 steps) reached"


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


def test_gymnasium_gin_env_checks_and_plays_to_the_score() -> None:
    check_env(RummyEnv(rules="gin", opponents="greedy"), skip_render_check=True)
    env = gymnasium.make(GYM_ID, rules="gin", opponents="greedy")
    rng = np.random.default_rng(4)
    for seed in range(3):
        _, info = env.reset(seed=seed)
        total = 0.0
        while True:
            token = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(token)
            total += reward
            if terminated or truncated:
                break
        result = env.unwrapped.game.round.result
        assert terminated and total == result.points[env.unwrapped.seat]


def test_play_from_a_round_goes_on_from_it_and_refuses_another_table() -> None:
    rnd = rk.Round.new(rk.Rules.preset("gin"), players=2, seed=4)
    rnd.apply("pass")
    game = TokenGame("gin", 2)
    game.play_from(rnd)
    assert game.to_move == rnd.to_move and not game.is_over
    assert game.composer.allowed() == [enc.TAKE, enc.PASS]
    with pytest.raises(ValueError, match="play_from"):
        TokenGame("german", 3).play_from(rk.Round.new(rk.Rules.preset("german"), players=2, seed=1))


def test_classic_env_takes_a_zero_dimensional_integer_array() -> None:
    """What a policy's ``predict`` returns for one observation (``Discrete.contains`` accepts it)."""
    env = rummy_v0.env(rules="german", players=2)
    env.reset(seed=3)
    token = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
    env.step(np.array(token))
    assert not any(env.terminations.values())  # a legal token, not the illegal-move penalty
    with pytest.raises(ValueError, match="token"):
        env.step(np.array(1.5))


def _looping_token(mask: np.ndarray[Any, Any]) -> int:
    """A policy that never ends a hand: take the top discard, shed the first card it may."""
    for token in (enc.TAKE, enc.DISCARD):
        if mask[token]:
            return token
    return int(np.flatnonzero(mask)[0])


LOOPING_VIENNESE = "viennese(max_takes_in_a_row=500)"
"""Rules whose own bound on takes in a row lies beyond the guard lowered to 400 actions."""


@pytest.mark.usefixtures("loopers")
def test_a_looping_hand_ends_dead_by_the_rules() -> None:
    env = RummyEnv(rules="viennese", players=2, opponents="looper")
    _, info = env.reset(seed=4)
    for _ in range(1_000):
        _, reward, terminated, truncated, info = env.step(_looping_token(info["action_mask"]))
        if terminated or truncated:
            break
    assert terminated and not truncated and reward == 0
    assert env.game.round.result.termination is rk.Termination.DRAWN


@pytest.mark.usefixtures("loopers")  # the guard lowered to 400 actions without a stock draw
def test_an_endless_hand_is_truncated_in_both_apis() -> None:
    env = rummy_v0.env(rules=LOOPING_VIENNESE, players=2)
    env.reset(seed=4)
    steps = 0
    for _ in env.agent_iter():
        obs, _, termination, truncation, info = env.last()
        if termination or truncation:
            assert truncation and not termination
            assert "400 actions without a draw from the stock" in info["truncation"]
            env.step(None)
            continue
        env.step(_looping_token(obs["action_mask"]))
        steps += 1
    assert 400 < steps < 400 * 3  # a take is one token, a discard two: cut soon after the limit

    single = RummyEnv(rules=LOOPING_VIENNESE, players=2, opponents="looper")
    _, info = single.reset(seed=4)
    for _ in range(5_000):
        _, _, terminated, truncated, info = single.step(_looping_token(info["action_mask"]))
        if terminated or truncated:
            break
    assert truncated and not terminated and "without a draw from the stock" in info["truncation"]
    # A truncated episode has no result, and its mask is all zeros (as after a normal end).
    assert truncated and "result" not in info
    assert not info["action_mask"].any() and not single.action_masks().any()


@pytest.mark.usefixtures("loopers")
def test_a_hand_that_draws_forever_is_truncated_at_the_hand_limit() -> None:
    env = RummyEnv(rules="viennese(max_stock_rebuilds=unlimited)", players=2, opponents="drawer")
    _, info = env.reset(seed=4)
    for _ in range(20_000):
        mask = info["action_mask"]
        token = enc.DRAW if mask[enc.DRAW] else _looping_token(mask)
        _, _, terminated, truncated, info = env.step(token)
        if terminated or truncated:
            break
    assert truncated and not terminated
    assert info["truncation"].startswith("the hand did not end within 3,000 actions")


@pytest.mark.parametrize("preset", rk.PRESET_NAMES)
def test_an_illegal_token_costs_more_than_any_hand(preset: str) -> None:
    """A learner that ignores the mask must not find forfeiting cheaper than playing: the default
    illegal reward lies below every hand of random play (and ``reward="win"`` keeps -1, a loss)."""
    rules = rk.Rules.preset(preset)
    illegal = TokenGame(rules, rules.min_players).default_illegal_reward
    assert TokenGame(rules, rules.min_players, reward="win").default_illegal_reward == -1.0
    worst = 0
    for players in {rules.min_players, min(4, rules.max_players)}:
        random_bot = make_bot("random")
        for seed in range(25):
            rnd = rk.Round.new(rules, players, seed=seed)
            rng = random.Random(seed)
            while not rnd.is_over:
                rnd.apply(random_bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
            assert rnd.result is not None
            worst = min(worst, *rnd.result.points)
    assert illegal < worst
    assert illegal == worst_hand_points(rules) - 1


@pytest.mark.parametrize("preset", rk.PRESET_NAMES)
def test_in_match_scope_an_illegal_token_costs_more_than_any_match(preset: str) -> None:
    """Over a whole match the rewards add up to the match's score (or chips): the default illegal
    reward in ``scope="match"`` lies below every match of random play, and below the bound of a
    match of the preset's end (a German match of fixed hands loses at most one hand's worst per
    hand)."""
    rules = rk.Rules.preset(preset)
    players = rules.min_players
    illegal = TokenGame(rules, players, scope="match").default_illegal_reward
    assert illegal == worst_match_points(rules, players) - 1 <= worst_hand_points(rules) - 1
    if rules.match_end == "fixed_hands":
        assert illegal == worst_hand_points(rules) * (rules.num_hands or players) - 1
    worst = 0.0
    for seed in range(6):
        game = TokenGame(rules, players, scope="match")
        game.reset(seed=seed)
        rng = random.Random(seed)
        totals = [0.0] * players
        while not game.is_over and not game.truncated:
            assert game.match is not None
            rewards = game.apply(rng.choice(game.match.legal_actions()))
            totals = [t + r for t, r in zip(totals, rewards, strict=True)]
        worst = min(worst, *totals)
    assert illegal < worst


@pytest.mark.parametrize(
    ("rules", "players", "scope"),
    [("german", 3, "hand"), ("viennese", 2, "match"), ("gin", 2, "hand"), ("scala40", 2, "hand")],
)
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_env_plays_on_exactly_like_the_original(
    rules: str, players: int, scope: Any, how: str
) -> None:
    """Search over environments (MCTS, rollouts) copies them: a copy taken mid-spelling of an action
    gives the same observations, masks, rewards and ends as the original for the same tokens."""
    import copy
    import pickle

    env = rummy_v0.env(rules=rules, players=players, scope=scope)
    env.reset(seed=3)
    rng = random.Random(3)

    def token(e: Any) -> int:
        return int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])))

    for _ in range(57):  # somewhere in the hand, often mid-spelling
        if any(env.terminations.values()):
            break
        env.step(token(env))
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    for _ in range(300):
        a, b = env.agent_selection, twin.agent_selection
        assert a == b
        got, want = env.last(), twin.last()
        assert np.array_equal(got[0]["observation"], want[0]["observation"])
        assert np.array_equal(got[0]["action_mask"], want[0]["action_mask"])
        assert got[1:] == want[1:]
        if got[2] or got[3]:
            break
        t = token(env)
        env.step(t)
        twin.step(t)
    single = RummyEnv(rules=rules, players=players, opponents="greedy", scope=scope)
    _, info = single.reset(seed=4)
    other = copy.deepcopy(single) if how == "deepcopy" else pickle.loads(pickle.dumps(single))
    for _ in range(100):
        t = int(rng.choice(np.flatnonzero(info["action_mask"])))
        first, second = single.step(t), other.step(t)
        assert np.array_equal(first[0], second[0]) and first[1:4] == second[1:4]
        info = first[4]
        if first[2] or first[3]:
            break


def test_a_step_before_reset_and_rules_of_the_wrong_type_are_refused_clearly() -> None:
    env = RummyEnv(rules="german")
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step(0)  # it played a placeholder deal (seed 0) without a word
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        rummy_v0.parallel_env(rules="german").step({"player_0": 0})
    with pytest.raises(TypeError, match="rules must be a Rules or a preset's name"):
        rummy_v0.env(rules=42)
    with pytest.raises(TypeError, match="not int"):
        RummyEnv(rules=42)  # type: ignore[arg-type]


def test_opponents_may_be_bot_objects_and_their_errors_name_them() -> None:
    class Failing:
        name = "failing"

        def choose(self, view: Any, legal: Any, rng: Any) -> Any:
            raise RuntimeError("boom")

    env = RummyEnv(rules="viennese", opponents=make_bot("greedy"), seat=0)
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(TypeError, match="a bot kind such as 'greedy' or a bot with a name and choose"):
        RummyEnv(opponents=[3])  # type: ignore[list-item]
    failing = RummyEnv(rules="viennese", opponents=[Failing()], seat=1)
    with pytest.raises(RuntimeError, match="boom") as caught:  # at the opponent's first move
        failing.reset(seed=2)
        for _ in range(50):
            failing.step(int(np.flatnonzero(failing.action_masks())[0]))
    assert "the opponent bot 'failing' at seat 0" in caught.value.__notes__


@pytest.mark.parametrize("action", [3.7, 3.0, 200, -1, enc.NUM_TOKENS, True, "draw", np.float32(0.0)])
def test_an_action_that_is_no_token_is_refused_by_every_environment(action: object) -> None:
    """A float is never rounded to a token (3.7 would play ``MELD`` where that is allowed) and an
    integer outside ``Discrete(107)`` is no masked-out token: each environment raises ``ValueError``
    and nothing changes."""
    gym_env = RummyEnv(rules="scala40", players=3, opponents="random")
    gym_env.reset(seed=1)
    aec = rummy_v0.env(rules="scala40", players=3)
    aec.reset(seed=1)
    par = rummy_v0.parallel_env(rules="scala40", players=3)
    par.reset(seed=1)
    before = gym_env.game.round.live_state().copy()
    with pytest.raises(ValueError, match="must be a token 0-106"):
        gym_env.step(action)  # type: ignore[arg-type]
    assert gym_env.game.round.live_state() == before and gym_env.action_masks().any()
    with pytest.raises(ValueError, match="must be a token 0-106"):
        aec.step(action)  # type: ignore[arg-type]
    assert not any(aec.terminations.values())
    with pytest.raises(ValueError, match="must be a token 0-106"):
        par.step(dict.fromkeys(par.agents, action))  # type: ignore[arg-type]


def test_integer_arrays_of_one_entry_are_tokens() -> None:
    env = RummyEnv(rules="basic", players=2, opponents="random")
    _, info = env.reset(seed=2)
    token = int(np.flatnonzero(info["action_mask"])[0])
    for action in (np.array(token), np.array([token]), np.int64(token)):
        env.reset(seed=2)
        _, _, terminated, _, step_info = env.step(action)  # type: ignore[arg-type]
        assert not step_info.get("illegal") and not terminated
