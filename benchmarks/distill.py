"""Data and fit of the learned discard (:mod:`rummykit.bots.distill`): oracle distillation.

Collect: ``python benchmarks/distill.py collect --rounds 500 --seed 50000 --out FILE``.
Fit: ``python benchmarks/distill.py fit FILE [FILE ...] --l2 0.001 --tau 30`` (the shipped weights).

``collect`` plays heads-up Viennese rounds of ``search:<level>`` against greedy on the arena's
duplicate deals (seats rotated, as ``benchmarks/ceiling.py`` deals them). The search plays as it is
(the race); at each of its discards with two candidates or more and no knock allowed it also
records, per candidate, the honest features of :func:`~rummykit.bots.distill.discard_features`
(on its own determinizations) and the value of the candidate in duels on the opponent's **true** hand
(:func:`~rummykit.bots.knock_duel.discard_duel_values` on the level's duel determinizations dealt by
``ceiling.oracle(rnd, "hands")``: the true hand, the stock shuffled from the rest). The oracle's
choice is the candidate with the best duel value (ties: the earlier candidate, the search's order).
One JSON line per decision: the deal, the turn, the candidates, their rows, the race's choice, the
oracle's choice and the duel values.

``fit`` fits the conditional logit of :mod:`rummykit.bots.distill` by Newton's method with an L2
penalty on the features standardized over the candidates (the weights are printed for the raw
features), holding out the decisions of the last ``--holdout`` share of the deals, and prints on the
held-out decisions how often the model and the race pick the oracle's candidate, and the mean duel
value each loses against the oracle's pick (its regret, in points of the duels' utility); then the
fit on all decisions, as the constant to paste into :data:`~rummykit.bots.distill.DISCARD_WEIGHTS`.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from typing import Any

from ceiling import oracle  # the sibling benchmark (run as a script, benchmarks/ is on the path)

import rummykit as rk
from rummykit.actions import Action, Discard
from rummykit.arena import ArenaConfig, Game, build_games, deal_seed
from rummykit.bots import make_bot
from rummykit.bots.distill import FEATURES, model_rows
from rummykit.bots.inference import TableMemory
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.knock_duel import discard_duel_values
from rummykit.views import PlayerView


class Recorder(IsmctsBot):
    """The search bot as it is, recording its discard decisions with the oracle's choice."""

    def __init__(self, level: str, rnd: rk.Round, game: Game, rows: list[dict[str, Any]]) -> None:
        super().__init__(level)
        self.rnd = rnd
        self.game = game
        self.rows = rows
        self.oracle = oracle(rnd, "hands")
        key = f"{game.seed}-{game.table}-{game.deal}-{game.rotation}"
        self.oracle_rng = random.Random(f"distill-oracle-{key}")

    def duel_discard(
        self, view: PlayerView, candidates: list[Action], rng: random.Random, memory: TableMemory
    ) -> Action:
        if len(candidates) < 2 or not all(isinstance(a, Discard) for a in candidates):
            return super().duel_discard(view, candidates, rng, memory)
        self.searches += 1
        cards = [int(a.card) for a in candidates if isinstance(a, Discard)]
        samples = self.duel_samples(view, rng, memory)  # the race's determinizations, as it deals them
        races, features = self.distill_rows(view, memory, cards, samples)
        race = max(range(len(cards)), key=lambda i: (races[i], -i))
        honest, self.sampler = self.sampler, self.oracle
        try:
            truth = self.duel_samples(view, self.oracle_rng, memory)[: self.duel_determinizations]
        finally:
            self.sampler = honest
        hand = [int(c) for c in view.hand]
        pile = [int(c) for c in view.discard_pile]
        choices = [(c, False) for c in cards]
        duels = discard_duel_values(view.rules, hand, choices, truth, pile, self.win_bonus)
        n = len(truth)
        label = max(range(len(cards)), key=lambda i: (duels[i], -i))
        game = self.game
        self.rows.append(
            {
                "deal": [game.seed, game.table, game.deal, game.rotation],
                "turn": view.turn,
                "cards": cards,
                "rows": features,
                "race": race,
                "oracle": label,
                "duels": [d / n for d in duels],
            }
        )
        return candidates[race]


def collect(rules: rk.Rules, games: Sequence[Game], level: str, out: str) -> int:
    """Play ``games`` with the :class:`Recorder` in the search's seat; append the decisions to ``out``
    (one JSON line each); the number of decisions."""
    total = 0
    for game in games:
        rnd = rk.Round.new(rules, len(game.specs), seed=deal_seed(game.seed, game.table, game.deal))
        rows: list[dict[str, Any]] = []
        bots = [
            Recorder(level, rnd, game, rows) if game.seats[s] == 0 else make_bot(spec)
            for s, spec in enumerate(game.specs)
        ]
        rngs = [
            random.Random(f"rummykit-bot-{game.seed}-{game.table}-{game.deal}-{game.rotation}-{s}")
            for s in range(len(bots))
        ]
        while not rnd.is_over:
            seat = rnd.to_move
            rnd.apply(bots[seat].choose(rnd.view(seat), rnd.legal_actions(), rngs[seat]))
        with open(out, "a") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
        total += len(rows)
    return total


def fit(decisions: Sequence[dict[str, Any]], l2: float, tau: float = 0.0, steps: int = 50) -> list[float]:
    """The weights of the conditional logit on ``decisions`` (raw features, :func:`model_rows`),
    fitted by Newton's method on standardized features with the penalty ``l2 * |w|²`` added to the
    mean negative log-likelihood of the oracle's choices; with ``tau`` > 0 the target of a decision
    is instead the softmax of its duel values at temperature ``tau`` (cross-entropy; soft labels),
    and the weights are returned times ``tau``: the score ``w · x`` then estimates the candidate's
    duel utility in points (up to a constant per decision)."""
    import numpy as np

    xs = [np.asarray(model_rows(d["rows"]), dtype=float) for d in decisions]
    stacked = np.vstack(xs)
    mean = stacked.mean(axis=0)
    scale = stacked.std(axis=0)
    scale[scale == 0] = 1.0
    zs = [(x - mean) / scale for x in xs]
    targets: list[Any] = []
    for d, x in zip(decisions, xs, strict=True):
        q = np.zeros(len(x))
        if tau > 0:
            v = np.asarray(d["duels"], dtype=float) / tau
            q = np.exp(v - v.max())
            q /= q.sum()
        else:
            q[int(d["oracle"])] = 1.0
        targets.append(q)
    k = stacked.shape[1]
    w = np.zeros(k)
    n = len(decisions)
    for _ in range(steps):
        grad = 2 * l2 * w
        hess = 2 * l2 * np.eye(k)
        for z, q in zip(zs, targets, strict=True):
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            zbar = p @ z
            grad += (zbar - q @ z) / n
            centred = z - zbar
            hess += (centred.T * p) @ centred / n
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return [float(v) for v in w / scale * (tau if tau > 0 else 1.0)]


def pick(rows: Sequence[Sequence[float]], weights: Sequence[float]) -> int:
    """The candidate with the highest score (ties: the earlier)."""
    values = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
    return max(range(len(values)), key=lambda i: (values[i], -i))


def evaluate(decisions: Sequence[dict[str, Any]], weights: Sequence[float]) -> dict[str, float]:
    """Agreement with the oracle and mean duel regret of the model and of the race on ``decisions``."""
    n = max(1, len(decisions))
    pairs = [(pick(model_rows(d["rows"]), weights), d) for d in decisions]
    return {
        "decisions": float(len(decisions)),
        "model agrees": sum(m == d["oracle"] for m, d in pairs) / n,
        "race agrees": sum(d["race"] == d["oracle"] for _, d in pairs) / n,
        "model regret": sum(max(d["duels"]) - d["duels"][m] for m, d in pairs) / n,
        "race regret": sum(max(d["duels"]) - d["duels"][d["race"]] for _, d in pairs) / n,
        "model = race": sum(m == d["race"] for m, d in pairs) / n,
    }


def load(paths: Sequence[str]) -> list[dict[str, Any]]:
    """The decisions of the collected files."""
    out: list[dict[str, Any]] = []
    for path in paths:
        with open(path) as f:
            out += [json.loads(line) for line in f if line.strip()]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play rounds and record the decisions")
    c.add_argument("--rules", default="viennese")
    c.add_argument("--level", default="hard")
    c.add_argument("--rounds", type=int, default=300)
    c.add_argument("--seed", type=int, default=50000)
    c.add_argument("--skip", type=int, default=0, help="rounds of the seed's deals to skip (resume)")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the conditional logit")
    f.add_argument("files", nargs="+")
    f.add_argument("--l2", type=float, default=1.0)
    f.add_argument("--tau", type=float, default=0.0, help="soft labels: the duels' softmax, this temperature")
    f.add_argument("--holdout", type=float, default=0.25, help="share of the deals held out")
    args = parser.parse_args()
    if args.command == "collect":
        rules = rk.Rules.preset(args.rules)
        config = ArenaConfig(
            rules=args.rules, bots=(f"search:{args.level}", "greedy"), rounds=args.rounds, seed=args.seed
        )
        games = build_games(config)[args.skip : args.rounds]
        total = collect(rules, games, args.level, args.out)
        print(f"{len(games)} rounds, {total} decisions -> {args.out}")
        return
    decisions = load(args.files)
    deals = sorted({tuple(d["deal"][:3]) for d in decisions})
    cut = set(deals[int(len(deals) * (1 - args.holdout)) :])
    train = [d for d in decisions if tuple(d["deal"][:3]) not in cut]
    test = [d for d in decisions if tuple(d["deal"][:3]) in cut]
    weights = fit(train, args.l2, args.tau)
    print(f"{len(decisions)} decisions of {len(deals)} deals; held out {len(test)} of {len(cut)} deals")
    for name, part in (("train", train), ("held out", test)):
        figures = ", ".join(f"{k} {v:.3f}" for k, v in evaluate(part, weights).items())
        print(f"{name}: {figures}")
    everything = fit(decisions, args.l2, args.tau)
    print("DISCARD_WEIGHTS = (")
    for name, w in zip(FEATURES, everything, strict=True):
        print(f"    {w:.4f},  # {name}")
    print(")")


if __name__ == "__main__":
    main()
