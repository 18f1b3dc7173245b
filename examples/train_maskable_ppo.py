"""Train MaskablePPO (sb3-contrib) on heads-up Viennese Rummy (or ``--rules``, ``--players``) against
the random bot.

    pip install -e '.[train]'
    python examples/train_maskable_ppo.py --cpu-minutes 30 --out runs/viennese
    python examples/train_maskable_ppo.py --rules scala40 --players 3 --cpu-minutes 30

The agent plays ``rummykit/Rummy-v0`` (its seat drawn every hand) with the solver's derived features
(:mod:`rummykit.envs.observation`) and the win/loss reward, plus a potential-based shaping term on
its own minimum deadwood (``--shaping``), which leaves the best policy unchanged (Ng, Harada and
Russell 1999) and only speeds learning up. Training stops when the process has used
``--cpu-minutes`` of CPU time (all threads counted, the evaluations not), or after
``--wall-minutes`` on a busy machine. Every ``--eval-every`` steps the deterministic
policy plays ``--eval-hands`` hands against random; the curve goes to ``curve.csv`` and
``curve.png``. The result is ``policy.zip`` (sb3) and ``policy.npz``, which
``make_bot("policy", path=…)`` plays with numpy alone.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import time
from pathlib import Path
from typing import Any

import gymnasium

import rummykit.envs  # noqa: F401  (registers rummykit/Rummy-v0)
from rummykit import solver
from rummykit.bots.policy import export_policy
from rummykit.envs.single import RummyEnv


def cpu_seconds() -> float:
    """CPU time of this process and its finished children, every thread counted."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class DeadwoodShaping(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Potential-based shaping: ``scale * (phi(s') - phi(s))`` with ``phi = -deadwood / 100`` of the
    agent's hand, measured after its discards (between its turns)."""

    def __init__(self, env: gymnasium.Env[Any, Any], scale: float) -> None:
        super().__init__(env)
        self.scale = scale
        self._phi = 0.0

    def _potential(self) -> float | None:
        base = self.env.unwrapped
        assert isinstance(base, RummyEnv)
        view = base.game.view(base.seat)
        if len(view.hand) != view.rules.hand_size_for(len(view.hand_sizes)):
            return None
        return -solver.min_deadwood(view.hand, view.rules) / 100.0

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        self._phi = self._potential() or 0.0
        return obs, info

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            reward -= self.scale * self._phi  # phi of a terminal state is 0
        else:
            phi = self._potential()
            if phi is not None:
                reward += self.scale * (phi - self._phi)
                self._phi = phi
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> Any:
        base = self.env.unwrapped
        assert isinstance(base, RummyEnv)
        return base.action_masks()


def make_env(seed: int, shaping: float, rules: str = "viennese", players: int = 2) -> gymnasium.Env[Any, Any]:
    env: gymnasium.Env[Any, Any] = RummyEnv(
        rules=rules, players=players, opponents="random", reward="win", derived_features=True
    )
    if shaping:
        env = DeadwoodShaping(env, shaping)
    env.reset(seed=seed)
    return env


def evaluate(
    model: Any,
    hands: int,
    seed: int,
    opponents: str = "random",
    max_steps: int = 400,
    rules: str = "viennese",
    players: int = 2,
) -> dict[str, float]:
    """Hands won (best points of a scored hand), lost and unscored by the deterministic policy; a
    hand the agent has not finished after ``max_steps`` tokens counts as unscored."""
    env = RummyEnv(rules=rules, players=players, opponents=opponents, reward="win", derived_features=True)
    won = lost = unscored = 0
    for i in range(hands):
        obs, _ = env.reset(seed=seed + i)
        done = False
        reward = 0.0
        for _ in range(max_steps):
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, done, _, _ = env.step(int(action))
            if done:
                break
        result = env.game.round.result
        if not done or result is None or not result.scored:
            unscored += 1
        elif reward > 0:
            won += 1
        else:
            lost += 1
    return {"won": won / hands, "lost": lost / hands, "unscored": unscored / hands}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu-minutes", type=float, default=30.0)
    parser.add_argument("--wall-minutes", type=float, default=None, help="also stop after this wall time")
    parser.add_argument("--rules", default="viennese", help="a preset or rules text, e.g. scala40, basic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="default: runs/<rules>")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shaping", type=float, default=1.0)
    parser.add_argument("--eval-every", type=int, default=100_000)
    parser.add_argument("--eval-hands", type=int, default=60)
    parser.add_argument("--final-hands", type=int, default=300)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    table = {"rules": args.rules, "players": args.players}
    out: Path = args.out or Path("runs") / args.rules

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)
    out.mkdir(parents=True, exist_ok=True)
    start_wall = time.time()
    start_cpu = cpu_seconds()
    vec = DummyVecEnv(
        [lambda i=i: make_env(args.seed * 1000 + i, args.shaping, **table) for i in range(args.envs)]
    )
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=256,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.99,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    model.set_logger(Logger(folder=None, output_formats=[]))  # the curve below is the log, no SB3 folder
    curve_path = out / "curve.csv"
    rows: list[dict[str, float]] = []

    eval_cpu = [0.0]

    def training_cpu() -> float:
        """CPU seconds spent training (the evaluations along the curve are not counted)."""
        return cpu_seconds() - start_cpu - eval_cpu[0]

    class Budget(BaseCallback):
        next_eval = args.eval_every

        def _on_step(self) -> bool:
            steps = self.num_timesteps
            if steps >= self.next_eval:
                self.next_eval = steps + args.eval_every
                cpu = training_cpu()
                before = cpu_seconds()
                score = evaluate(self.model, args.eval_hands, seed=10_000_000, **table)
                eval_cpu[0] += cpu_seconds() - before
                wall_minutes = (time.time() - start_wall) / 60
                row = {"steps": steps, "cpu_minutes": cpu / 60, "wall_minutes": wall_minutes}
                row.update(score)
                rows.append(row)
                with curve_path.open("w", newline="") as f:
                    writer = csv.DictWriter(f, fieldnames=list(row))
                    writer.writeheader()
                    writer.writerows(rows)
                print(json.dumps(row), flush=True)
            late = args.wall_minutes is not None and time.time() - start_wall > args.wall_minutes * 60
            return training_cpu() < args.cpu_minutes * 60 and not late

    model.learn(total_timesteps=10**9, callback=Budget())
    cpu = training_cpu()
    wall = time.time() - start_wall
    model.save(out / "policy.zip")
    export_policy(model, out / "policy.npz", rules=args.rules, players=args.players, derived_features=True)
    final = {
        "steps": model.num_timesteps,
        "cpu_minutes": cpu / 60,
        "eval_cpu_minutes": eval_cpu[0] / 60,
        "wall_minutes": wall / 60,
        "against_random": evaluate(model, args.final_hands, seed=20_000_000, **table),
        "against_greedy": evaluate(model, args.final_hands, seed=30_000_000, opponents="greedy", **table),
        "load_average": os.getloadavg(),
    }
    (out / "final.json").write_text(json.dumps(final, indent=2))
    print(json.dumps(final), flush=True)
    plot(rows, out / "curve.png", f"{args.rules}, {args.players} players")


def plot(rows: list[dict[str, float]], path: Path, table: str = "viennese, 2 players") -> None:
    """The evaluation curve: hands won against random over CPU minutes."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    x = [r["cpu_minutes"] for r in rows]
    ax.plot(x, [100 * r["won"] for r in rows], marker="o", label="won")
    ax.plot(x, [100 * r["unscored"] for r in rows], marker=".", label="unscored (stock exhausted)")
    ax.axhline(90, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("CPU minutes (2-core machine)")
    ax.set_ylabel("% of hands against random")
    ax.set_ylim(0, 100)
    ax.set_title(f"MaskablePPO, {table}")
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
