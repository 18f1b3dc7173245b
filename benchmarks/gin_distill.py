"""Distilling the peeking gin search's discards into the model of :mod:`rummykit.bots.gin_distill`.

``collect`` plays the gin search (the race, ``GinSearchBot``) against OpenSpiel's simple bot as
``benchmarks/vs_openspiel.py`` does (the same deals for a seed, each deck order from both seats) and,
at every discard decision with two or more candidates, writes one JSON line: the honest features of
each candidate (:func:`~rummykit.bots.gin_distill.discard_features`), the teacher's value of each (the
mean duel against the opponent's true hand with sampled stocks, the ``+peek`` bot's values), the race's
choice, the deal, seat and turn. The race's choice is played (``--play race``) or the teacher's
(``--play teacher``).

``fit`` fits the conditional logit on those lines (a softmax over the candidates of one decision,
linear in the features, L2 penalty, full-batch gradient descent on standardized features): the label
of a decision is the set of candidates with the teacher's best value (a tie counts any of them as
right), decisions where every candidate is worth the same are dropped. Games whose deal number is a
multiple of ``--hold`` are held out: the fit reports on them how often the model's choice, and the
race's, is one of the teacher's, and prints the coefficients (raw feature scale) to paste into
``DISCARD_WEIGHTS``.

    nice -n 5 .venv/bin/python benchmarks/gin_distill.py collect --games 1000 --seed 100 --out d.jsonl
    .venv/bin/python benchmarks/gin_distill.py fit d.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rummykit.actions import Action, Discard
from rummykit.bots.gin_distill import FEATURES
from rummykit.bots.gin_duel import duel_values
from rummykit.bots.gin_search import GinSearchBot, race_choice
from rummykit.bots.greedy import without
from rummykit.cards import Card
from rummykit.round import Round
from rummykit.views import PlayerView

sys.path.insert(0, str(Path(__file__).parent))
from vs_openspiel import peeked_opponents, play_game


class RecordingBot(GinSearchBot):
    """The race that records every discard decision (features, the teacher's values, the race's
    choice) in ``rows`` and plays the race's choice or (``teacher``) the teacher's."""

    def __init__(self, level: str, mirror: Round, teacher: bool, rows: list[dict[str, Any]]) -> None:
        super().__init__(level, distilled=True)
        self.distilled = False
        self.oracle = peeked_opponents(mirror, whole_stock=False)
        self.teacher = teacher
        self.rows = rows

    def gin_discard(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        picked = self.discard_candidates(view, legal)
        if len(picked) == 1:
            return Discard(Card(picked[0]))
        self.searches += 1
        chances, feeds = self.race_values(view, picked, rng)
        features = self.distilled_features(view, picked, chances, feeds, rng)
        samples = self.oracle(view, rng, self.budget.determinizations)
        hand = list(view.hand)
        values = duel_values(view.rules, [(without(hand, (c,)), c) for c in picked], samples)
        race = race_choice(chances, feeds)
        best = min(range(len(picked)), key=lambda i: (-values[i], i))
        row = {"turn": view.turn, "cards": picked, "features": features, "teacher": values, "race": race}
        self.rows.append(row)
        return Discard(Card(picked[best if self.teacher else race]))


def collect(args: argparse.Namespace) -> int:
    deals = -(-args.games // 2)
    start = time.perf_counter()
    with open(args.out, "a", encoding="utf-8") as out:
        for deal in range(deals):
            for player in (0, 1):
                rows: list[dict[str, Any]] = []

                def make(mirror: Round, rows: list[dict[str, Any]] = rows) -> GinSearchBot:
                    return RecordingBot(args.level, mirror, args.play == "teacher", rows)

                outcome = play_game("search", args.rules, args.seed, deal, player, make=make)
                for row in rows:
                    row.update(seed=args.seed, deal=deal, player=player, points=outcome.points)
                    out.write(json.dumps(row) + "\n")
            if deal % 50 == 49:
                print(
                    f"{2 * (deal + 1)} games, {time.perf_counter() - start:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    return 0


def load(paths: Sequence[str]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    return rows


def arrays(rows: Sequence[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Padded features (decisions × candidates × features), the candidate mask, the teacher's best
    set and the race's choice, for the decisions where the teacher's values differ."""
    useful = [r for r in rows if max(r["teacher"]) - min(r["teacher"]) > 1e-9]
    k = max(len(r["features"]) for r in useful)
    x = np.zeros((len(useful), k, len(FEATURES)))
    mask = np.zeros((len(useful), k), dtype=bool)
    best = np.zeros((len(useful), k), dtype=bool)
    race = np.array([r["race"] for r in useful])
    for n, r in enumerate(useful):
        m = len(r["features"])
        x[n, :m] = r["features"]
        mask[n, :m] = True
        top = max(r["teacher"])
        best[n, :m] = [v >= top - 1e-9 for v in r["teacher"]]
    return x, mask, best, race


def _logsumexp(z: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, log Σ exp(z) over ``keep``, and the softmax over ``keep``."""
    z = np.where(keep, z, -np.inf)
    top = z.max(axis=1, keepdims=True)
    e = np.exp(z - top)
    total = e.sum(axis=1, keepdims=True)
    return (np.log(total) + top)[:, 0], e / total


def fit_logit(x: np.ndarray, mask: np.ndarray, best: np.ndarray, l2: float, steps: int = 3000) -> np.ndarray:
    """Coefficients (of the raw features) of the conditional logit with set labels (module docstring)."""
    flat = x[mask]
    mu, sd = flat.mean(axis=0), flat.std(axis=0)
    sd[sd < 1e-12] = 1.0
    z = (x - mu) / sd
    w = np.zeros(x.shape[2])
    m1 = np.zeros_like(w)
    m2 = np.zeros_like(w)
    n = len(x)
    for t in range(1, steps + 1):
        logits = z @ w
        _, p = _logsumexp(logits, mask)
        _, q = _logsumexp(logits, best)
        grad = np.einsum("nk,nkd->d", p - q, z) / n + l2 * w
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w -= 0.05 * (m1 / (1 - 0.9**t)) / (np.sqrt(m2 / (1 - 0.999**t)) + 1e-8)
    raw: np.ndarray = w / sd
    return raw


def loss(x: np.ndarray, mask: np.ndarray, best: np.ndarray, w: np.ndarray) -> float:
    logits = x @ w
    return float(np.mean(_logsumexp(logits, mask)[0] - _logsumexp(logits, best)[0]))


def agreement(x: np.ndarray, mask: np.ndarray, best: np.ndarray, w: np.ndarray) -> float:
    """The share of decisions whose highest-scoring candidate (the first of equal ones) is one of the
    teacher's best."""
    logits = np.where(mask, x @ w, -np.inf)
    pick = logits.argmax(axis=1)
    return float(best[np.arange(len(x)), pick].mean())


def fit(args: argparse.Namespace) -> int:
    rows = load(args.data)
    test = [r for r in rows if r["deal"] % args.hold == 0]
    train = [r for r in rows if r["deal"] % args.hold != 0]
    xt, mt, bt, _ = arrays(train)
    xh, mh, bh, rh = arrays(test)
    print(
        f"decisions: {len(rows)} recorded; with a teacher's preference {len(xt)} training, {len(xh)} held out"
    )
    w = fit_logit(xt, mt, bt, args.l2)
    race_only = np.zeros_like(w)
    race_only[FEATURES.index("race")] = 1.0
    race_only[FEATURES.index("feed")] = -0.1
    print(
        f"held-out agreement with the teacher: model {agreement(xh, mh, bh, w):.3f}, "
        f"race {float(bh[np.arange(len(xh)), rh].mean()):.3f}; training: model {agreement(xt, mt, bt, w):.3f}"
    )
    print(f"held-out loss: model {loss(xh, mh, bh, w):.4f}, uniform {loss(xh, mh, bh, np.zeros_like(w)):.4f}")
    for name, value in zip(FEATURES, w, strict=True):
        print(f"  {name:<16}{value:+.4f}")
    print("DISCARD_WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in w) + ")")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="record the discard decisions of games against OpenSpiel's bot")
    c.add_argument("--games", type=int, default=200)
    c.add_argument("--seed", type=int, default=100)
    c.add_argument("--level", default="hard")
    c.add_argument("--rules", default="gin")
    c.add_argument("--play", choices=("race", "teacher"), default="race")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the conditional logit and report held-out agreement")
    f.add_argument("data", nargs="+")
    f.add_argument("--l2", type=float, default=1e-3)
    f.add_argument(
        "--hold", type=int, default=5, help="games of deals that are multiples of this are held out"
    )
    args = parser.parse_args(argv)
    return collect(args) if args.command == "collect" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
