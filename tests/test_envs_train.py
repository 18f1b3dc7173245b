"""A short MaskablePPO run (``train`` extra) and the policy bot that plays its exported network."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

import rummykit as rk
from rummykit.arena import ArenaConfig, run_arena
from rummykit.bots import make_bot
from rummykit.bots.policy import POLICY_ENV_VAR, PolicyBot, PolicyFileError, export_policy
from rummykit.envs import encoding as enc
from rummykit.envs.game import TokenGame
from rummykit.envs.observation import OBSERVATION_VERSION, Layout, observation_size
from rummykit.envs.single import RummyEnv


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    torch.set_num_threads(1)
    env = RummyEnv(rules="viennese", players=2, opponents="random", derived_features=True)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu",
        policy_kwargs={"net_arch": [32, 32]},
    )
    model.set_logger(Logger(folder=None, output_formats=[]))  # SB3's default makes a folder in /tmp
    model.learn(total_timesteps=384)
    assert model.num_timesteps >= 384
    path = tmp_path_factory.mktemp("policy") / "policy.npz"
    export_policy(model, path, rules="viennese", players=2, derived_features=True)
    return model, path


def test_an_exported_oklahoma_policy_names_the_doubled_entry(tmp_path: Path) -> None:
    """``export_policy`` records in the file's meta whether the rules have the doubled entry, so the
    bot reads the vector it was trained on and refuses a table without the entry."""
    from sb3_contrib import MaskablePPO

    rules = "gin(oklahoma=true, oklahoma_spade_doubles=true)"
    env = RummyEnv(rules=rules, players=2, opponents="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, seed=0, device="cpu", policy_kwargs={"net_arch": [8]})
    path = tmp_path / "spades.npz"
    export_policy(model, path, rules=rules, players=2, derived_features=False)
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
    assert meta["doubled"] and meta["gin"] and not meta["take_bound"] and meta["observation"] == 4
    bot = make_bot("policy", path=str(path))
    assert isinstance(bot, PolicyBot) and bot.doubled
    assert bot.layout.size == env.observation_space.shape[0] == observation_size(2, gin=True, doubled=True)
    bot.check_table(rk.Rules.parse(rules), 2)
    with pytest.raises(PolicyFileError, match="where oklahoma_spade_doubles is on"):
        bot.check_table(rk.Rules.preset("gin"), 2)


def test_exported_policy_chooses_what_the_model_predicts(trained: tuple[object, Path]) -> None:
    model, path = trained
    bot = make_bot("policy", path=str(path))
    assert isinstance(bot, PolicyBot)
    game = TokenGame("viennese", 2, derived_features=True)
    game.reset(seed=9)
    rng = random.Random(0)
    compared = 0
    while not game.is_over and compared < 200:
        seat = game.to_move
        obs = game.observe(seat)
        mask = game.mask().astype(bool)
        predicted, _ = model.predict(obs, action_masks=mask, deterministic=True)  # type: ignore[attr-defined]
        scores = bot.scores(obs)
        allowed = np.flatnonzero(mask)
        assert int(predicted) == int(allowed[np.argmax(scores[allowed])])
        compared += 1
        game.step(rng.choice(game.composer.allowed()))
    assert compared == 200


def test_policy_bot_plays_in_the_arena(trained: tuple[object, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _, path = trained
    monkeypatch.setenv(POLICY_ENV_VAR, str(path))
    res = run_arena(ArenaConfig("viennese", ("policy", "random"), rounds=2, seed=1), workers=1)
    assert res.games == 2
    rnd = rk.Round.new(rk.Rules.preset("viennese"), players=2, seed=4)
    bot = make_bot("policy")
    other = make_bot("random")
    rng = random.Random(1)
    while not rnd.is_over:
        player = bot if rnd.to_move == 0 else other
        rnd.apply(player.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))


def test_self_play_does_not_resume_with_other_weights(
    trained: tuple[object, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The weights file is what the policy bot plays: a run records its SHA-256 and refuses to
    resume under another file (the same file elsewhere is fine)."""
    import hashlib
    import shutil

    from rummykit.selfplay import SelfPlayConfig, SelfPlayError, batch_file, run_selfplay

    _, path = trained
    monkeypatch.setenv(POLICY_ENV_VAR, str(path))
    config = SelfPlayConfig("viennese", ("policy", "random"), games=4, seed=3, batch=2)
    run_selfplay(config, tmp_path / "run", workers=1)
    digest = "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
    assert make_bot("policy").fingerprint == digest  # type: ignore[attr-defined]
    (tmp_path / "run" / batch_file(1)).unlink()
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["b0"] = arrays["b0"] + 1.0
    other = tmp_path / "other.npz"
    np.savez(other, **arrays)
    monkeypatch.setenv(POLICY_ENV_VAR, str(other))
    with pytest.raises(SelfPlayError, match="bots with other inputs"):
        run_selfplay(config, tmp_path / "run", workers=1)
    shutil.copy(path, tmp_path / "same.npz")
    monkeypatch.setenv(POLICY_ENV_VAR, str(tmp_path / "same.npz"))
    assert run_selfplay(config, tmp_path / "run", workers=1).played == 2


def test_bad_policy_files_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(POLICY_ENV_VAR, raising=False)
    with pytest.raises(PolicyFileError, match="needs a file"):
        make_bot("policy")
    with pytest.raises(PolicyFileError, match="cannot read"):
        make_bot("policy", path=str(tmp_path / "missing.npz"))
    np.savez(tmp_path / "other.npz", w0=np.zeros((2, 2)))
    with pytest.raises(PolicyFileError, match="cannot read"):
        make_bot("policy", path=str(tmp_path / "other.npz"))
    meta = {"layers": 1, "players": 2, "derived_features": False, "encoding": enc.ENCODING_VERSION,
            "observation": OBSERVATION_VERSION}
    narrow = tmp_path / "narrow.npz"
    weights = {"w0": np.zeros((5, enc.NUM_TOKENS)), "b0": np.zeros(enc.NUM_TOKENS)}
    np.savez(narrow, meta=np.array(json.dumps(meta)), **weights)
    with pytest.raises(PolicyFileError, match="first layer reads 5 inputs"):
        make_bot("policy", path=str(narrow))
    old = tmp_path / "old.npz"
    np.savez(old, meta=np.array(json.dumps(meta | {"encoding": -1})), w0=np.zeros((5, 2)), b0=np.zeros(2))
    with pytest.raises(PolicyFileError, match="trained on encoding v-1"):
        make_bot("policy", path=str(old))
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, meta=np.array([{"layers": 1}], dtype=object))
    with pytest.raises(PolicyFileError):
        make_bot("policy", path=str(pickled))
    # Weights that would fail in the middle of a game are refused when the file is read.
    size = observation_size(2, False, False)
    two = meta | {"layers": 2}
    tokens = (enc.NUM_TOKENS,)
    broken = [  # (w0, b0, w1, b1, what the refusal says)
        ((size, 8), (8,), (9, *tokens), tokens, "layer 1 reads 9"),  # the layers do not chain
        ((size, 8), (7,), (8, *tokens), tokens, "layer 0 has weights"),  # a bias of the wrong size
        ((size,), (8,), (8, *tokens), tokens, "layer 0 has"),  # a weight that is not a matrix
    ]
    for w0, b0, w1, b1, message in broken:
        path = tmp_path / "broken.npz"
        np.savez(path, meta=np.array(json.dumps(two)), w0=np.zeros(w0), b0=np.zeros(b0), w1=np.zeros(w1),
                 b1=np.zeros(b1))  # fmt: skip
        with pytest.raises(PolicyFileError, match=message):
            make_bot("policy", path=str(path))
    nan = tmp_path / "nan.npz"
    np.savez(nan, meta=np.array(json.dumps(meta)), w0=np.full((size, enc.NUM_TOKENS), np.nan),
             b0=np.zeros(enc.NUM_TOKENS))  # fmt: skip
    with pytest.raises(PolicyFileError, match="not finite"):
        make_bot("policy", path=str(nan))
    anonymous = tmp_path / "anonymous.npz"
    np.savez(anonymous, meta=np.array(json.dumps({"layers": 1})), **weights)
    with pytest.raises(PolicyFileError, match="does not say the table"):
        make_bot("policy", path=str(anonymous))


def test_policy_for_another_table_size_is_refused(trained: tuple[object, Path]) -> None:
    _, path = trained
    bot = make_bot("policy", path=str(path))
    rnd = rk.Round.new(rk.Rules.preset("viennese"), players=3, seed=1)
    with pytest.raises(PolicyFileError, match="table of 2"):
        bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), random.Random(0))
    assert bot.layers[-1][0].shape[1] == enc.NUM_TOKENS


def test_policy_files_of_encoding_v0_still_play(trained: tuple[object, Path], tmp_path: Path) -> None:
    """Encoding v1 only added gin's PASS after v0's tokens, observation v2 the take bound entry (v3's
    doubled entry is gin's only, not in a Viennese vector): a v0 file (without PASS, reading vectors
    without the take bound entry) plays as a v3 file whose weights ignore the entry."""
    _, path = trained
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays.pop("meta")))
    assert meta["observation"] == OBSERVATION_VERSION == 4 and meta["take_bound"] and not meta["doubled"]
    take = Layout.for_rules(rk.Rules.preset("viennese"), 2, derived=True).take_block
    arrays["w0"][take] = 0.0  # the v3 policy ignores the take bound entry
    blind = tmp_path / "blind.npz"
    np.savez(blind, meta=np.array(json.dumps(meta)), **arrays)
    new = make_bot("policy", path=str(blind))
    last = meta["layers"] - 1
    arrays[f"w{last}"] = arrays[f"w{last}"][:, : enc.V0_TOKENS]
    arrays[f"b{last}"] = arrays[f"b{last}"][: enc.V0_TOKENS]
    arrays["w0"] = np.delete(arrays["w0"], take, axis=0)
    meta.pop("gin")
    meta.pop("take_bound")
    meta.pop("doubled")
    old_path = tmp_path / "v0.npz"
    np.savez(old_path, meta=np.array(json.dumps(meta | {"encoding": 0, "observation": 0})), **arrays)
    old = make_bot("policy", path=str(old_path))
    assert old.layers[-1][0].shape[1] == enc.NUM_TOKENS
    rnd = rk.Round.new(rk.Rules.preset("viennese"), players=2, seed=6)
    rng = random.Random(2)
    moves = 0
    while not rnd.is_over and moves < 120:
        view, legal = rnd.view(rnd.to_move), rnd.legal_actions()
        action = old.choose(view, legal, rng)
        assert action == new.choose(view, legal, rng)
        rnd.apply(action)
        moves += 1
    assert moves > 20


def test_a_policy_plays_only_where_the_take_bound_entry_is_as_trained(trained: tuple[object, Path]) -> None:
    """A v2 policy trained on Viennese reads the take bound entry: Scala 40, whose vectors have
    none, is refused (a v1 policy reads vectors without it under any rules)."""
    _, path = trained
    bot = make_bot("policy", path=str(path))
    assert isinstance(bot, PolicyBot) and bot.take_bound
    scala = rk.Round.new(rk.Rules.preset("scala40"), players=2, seed=1)
    with pytest.raises(PolicyFileError, match="where max_takes_in_a_row applies"):
        bot.choose(scala.view(scala.to_move), scala.legal_actions(), random.Random(0))


def test_a_gin_policy_plays_gin_and_only_gin(tmp_path: Path) -> None:
    size = TokenGame("gin", 2).obs_size
    meta = {"layers": 1, "players": 2, "derived_features": False, "gin": True,
            "encoding": enc.ENCODING_VERSION, "observation": OBSERVATION_VERSION}
    weights = np.random.default_rng(0).normal(size=(size, enc.NUM_TOKENS))
    path = tmp_path / "gin.npz"
    np.savez(path, meta=np.array(json.dumps(meta)), w0=weights, b0=np.zeros(enc.NUM_TOKENS))
    bot = make_bot("policy", path=str(path))
    greedy = make_bot("greedy")
    rng = random.Random(3)
    for seed in range(4):
        rnd = rk.Round.new(rk.Rules.preset("gin"), players=2, seed=seed)
        while not rnd.is_over:
            player = bot if rnd.to_move == 0 else greedy
            rnd.apply(player.choose(rnd.view(rnd.to_move), rnd.legal_actions(), rng))
    viennese = rk.Round.new(rk.Rules.preset("viennese"), players=2, seed=1)
    with pytest.raises(PolicyFileError, match="trained on gin rules"):
        bot.choose(viennese.view(viennese.to_move), viennese.legal_actions(), rng)
    # Observation v3, trained without the doubled entry: a table where a spade upcard doubles the
    # hand has it, and is refused (a v2 gin policy plays there: tests/test_envs.py).
    rules = rk.Rules.parse("gin(oklahoma=true, oklahoma_spade_doubles=true)")
    spades = rk.Round.new(rules, players=2, seed=1)
    with pytest.raises(PolicyFileError, match="where oklahoma_spade_doubles is off"):
        bot.choose(spades.view(spades.to_move), spades.legal_actions(), rng)


def test_a_policy_under_other_rules_is_named_before_the_game(
    trained: tuple[object, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A Viennese policy plays a German table (the observation has the same layout) but never learned
    to meld: the arena, self-play and the terminal say so in one line before the first move; under
    its own rules they say nothing."""
    from typer.testing import CliRunner

    from rummykit.bots import seat_notices
    from rummykit.cli import app

    _, path = trained
    monkeypatch.setenv(POLICY_ENV_VAR, str(path))
    bot = make_bot("policy")
    assert isinstance(bot, PolicyBot) and bot.trained_rules == rk.Rules.preset("viennese")
    assert bot.table_notice(rk.Rules.preset("viennese")) is None
    german = rk.Rules.preset("german")
    expected = "note: this policy was trained on viennese; this table plays german"
    assert seat_notices(german, ["policy", "greedy", "policy"]) == [expected]
    assert seat_notices(rk.Rules.preset("viennese"), ["policy", "greedy"]) == []
    runner = CliRunner()
    arena = runner.invoke(app, ["arena", "--rules", "german", "--bots", "policy,greedy", "-n", "2", "-q"])
    assert arena.exit_code == 0 and expected in arena.stderr
    own = runner.invoke(app, ["arena", "--rules", "viennese", "--bots", "policy,greedy", "-n", "2", "-q"])
    assert own.exit_code == 0 and "note:" not in own.stderr
    out = tmp_path / "run"
    selfplay = runner.invoke(
        app, ["selfplay", "--rules", "german", "--bots", "policy,greedy", "-n", "2", "-q", "-o", str(out)]
    )
    assert selfplay.exit_code == 0 and expected in selfplay.stderr
    play = runner.invoke(
        app, ["play", "--rules", "german", "--players", "2", "--bots", "policy", "--dealer", "2", "--no-save",
              "--fast"],
        input="quit\n",
    )  # fmt: skip
    assert expected in play.stdout  # the bot deals: the first screen is yours, the notices above the board
    german = runner.invoke(
        app, ["play", "--rules", "german", "--players", "2", "--bots", "policy", "--dealer", "2", "--no-save",
              "--fast", "--lang", "de"],
        input="ende\n",
    )  # fmt: skip
    assert "Hinweis: Diese Strategie wurde mit Wiener Rommé (Wiener Rummy) trainiert" in german.stdout


def test_a_network_the_policy_bot_would_play_otherwise_is_not_exported(tmp_path: Path) -> None:
    """A ReLU network was exported without a word and played with tanh: the bot agreed with the model
    on 88 of 200 decisions, and arena figures of the file were quietly those of another network."""
    import torch
    from sb3_contrib import MaskablePPO

    env = RummyEnv(rules="viennese", players=2, opponents="random")
    relu = MaskablePPO(
        "MlpPolicy", env, n_steps=64, seed=0, device="cpu",
        policy_kwargs={"net_arch": [8], "activation_fn": torch.nn.ReLU},
    )
    with pytest.raises(ValueError, match=r"tanh activations, not ReLU"):
        export_policy(relu, tmp_path / "relu.npz", rules="viennese", players=2, derived_features=False)
    assert not (tmp_path / "relu.npz").exists()


def test_two_policy_files_play_one_arena_run(trained: tuple[object, Path], tmp_path: Path) -> None:
    """``policy:FILE`` names the file in the spec, so checkpoint can play checkpoint in one run (one
    ``RUMMYKIT_POLICY`` allowed one file per run, and ``policy:/path`` was refused as an unknown
    level, the path lowered)."""
    _, path = trained
    other = tmp_path / "Other Checkpoint.npz"
    other.write_bytes(path.read_bytes())
    specs = (f"policy:{path}", f"policy:{other}")
    res = run_arena(ArenaConfig("viennese", specs, rounds=2, seed=1), workers=1)
    assert res.games == 2 and sorted(res.to_dict()["bots"]) == sorted(specs)
    assert make_bot(f" Policy : {other} ").fingerprint == make_bot("policy", path=str(path)).fingerprint  # type: ignore[attr-defined]
    with pytest.raises(rk.RummyError, match=r"named twice"):
        make_bot(f"policy:{path}", path=str(path))


def test_stable_baselines_make_vec_env_makes_the_registered_environment() -> None:
    """``make_vec_env`` asks for ``render_mode="rgb_array"`` and retries without it on ``TypeError``:
    the refusal of that mode must be one, or the usual way to vectorise the environment fails."""
    from stable_baselines3.common.env_util import make_vec_env

    import rummykit.envs

    with warnings.catch_warnings():  # Gymnasium warns of the rgb_array asked for before the retry
        warnings.simplefilter("ignore")
        vec = make_vec_env(rummykit.envs.GYM_ID, n_envs=2, env_kwargs={"rules": "basic", "players": 3})
    obs = vec.reset()
    assert obs.shape == (2, *vec.observation_space.shape)
    assert vec.env_method("action_masks")[0].any()
    vec.close()
