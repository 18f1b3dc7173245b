"""Distilling the peeking gin search's discards into the model of :mod:`rummykit.bots.gin_distill`.

``collect`` plays the gin search (the race, ``GinSearchBot``) against OpenSpiel's simple bot as
``benchmarks/vs_openspiel.py`` does (the same deals for a seed, each deck order from both seats) and,
at every discard decision with two or more candidates, writes one JSON line: the honest features of
each candidate (:func:`~rummykit.bots.gin_distill.discard_features`), the teacher's value of each (the
mean duel against the opponent's true hand with sampled stocks, the ``+peek`` bot's values), the race's
choice, the deal, seat and turn. The race's choice is played (``--play race``), the teacher's
(``--play teacher``) or the fitted model's (``--play model``: data on the states the distilled bot
reaches).

``fit`` fits the conditional logit on those lines (a softmax over the candidates of one decision,
linear in the features, L2 penalty, full-batch gradient descent on standardized features): the label
of a decision is the set of candidates with the teacher's best value (a tie counts any of them as
right), or (``--objective value``) the fit maximises the teacher's mean value of the softmax's
choices; decisions where every candidate is worth the same are dropped. Games whose deal number is a
multiple of ``--hold`` are held out: the fit reports on them how often the model's choice, the
race's and the current ``DISCARD_WEIGHTS``' choice is one of the teacher's and the teacher's mean value
of each choice, and the new model against the current one on the same decisions (the paired difference
of the teacher's values, with its 95 % interval). It prints the coefficients (raw feature scale) to
paste into ``DISCARD_WEIGHTS`` and, with ``--save FILE``, writes them as JSON for
``benchmarks/vs_openspiel.py``'s ``+weights=FILE`` bot.

    nice -n 5 .venv/bin/python benchmarks/gin_distill.py collect --games 1000 --seed 100 --out d.jsonl
    .venv/bin/python benchmarks/gin_distill.py fit d.jsonl --save w.json
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
from rummykit.bots.gin_distill import DISCARD_WEIGHTS, FEATURES, distilled_choice
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
    choice) in ``rows`` and plays the choice of ``play``: ``race``, ``teacher`` or ``model``."""

    def __init__(self, level: str, mirror: Round, play: str, rows: list[dict[str, Any]]) -> None:
        super().__init__(level, distilled=True)
        self.distilled = False
        self.oracle = peeked_opponents(mirror, whole_stock=False)
        self.play = play
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
        played = {"race": race, "teacher": best, "model": distilled_choice(features)}[self.play]
        return Discard(Card(picked[played]))


def collect(args: argparse.Namespace) -> int:
    deals = -(-args.games // 2)
    start = time.perf_counter()
    with open(args.out, "a", encoding="utf-8") as out:
        for deal in range(deals):
            for player in (0, 1):
                rows: list[dict[str, Any]] = []

                def make(mirror: Round, rows: list[dict[str, Any]] = rows) -> GinSearchBot:
                    return RecordingBot(args.level, mirror, args.play, rows)

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


Data = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def arrays(rows: Sequence[dict[str, Any]]) -> Data:
    """For the decisions where the teacher's values differ: padded features (decisions × candidates
    × features), the candidate mask, the teacher's values, its best set and the race's choice."""
    useful = [r for r in rows if max(r["teacher"]) - min(r["teacher"]) > 1e-9]
    k = max(len(r["features"]) for r in useful)
    x = np.zeros((len(useful), k, len(useful[0]["features"][0])))
    mask = np.zeros((len(useful), k), dtype=bool)
    values = np.zeros((len(useful), k))
    race = np.array([r["race"] for r in useful])
    for n, r in enumerate(useful):
        m = len(r["features"])
        x[n, :m] = r["features"]
        mask[n, :m] = True
        values[n, :m] = r["teacher"]
    top = np.where(mask, values, -np.inf).max(axis=1, keepdims=True)
    best = mask & (values >= top - 1e-9)
    return x, mask, values, best, race


def _softmax(z: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, log Σ exp(z) over ``keep``, and the softmax over ``keep``."""
    z = np.where(keep, z, -np.inf)
    top = z.max(axis=1, keepdims=True)
    e = np.exp(z - top)
    total = e.sum(axis=1, keepdims=True)
    return (np.log(total) + top)[:, 0], e / total


def fit_logit(data: Data, l2: float, objective: str = "choice", steps: int = 3000) -> np.ndarray:
    """Coefficients (of the raw features) of the conditional logit: ``choice`` maximises the
    likelihood of the teacher's best set, ``value`` the teacher's mean value of the softmax policy."""
    x, mask, values, best, _ = data
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
        _, p = _softmax(logits, mask)
        if objective == "choice":
            _, q = _softmax(logits, best)
            weight = p - q
        else:
            mean = (p * values).sum(axis=1, keepdims=True)
            weight = -p * (values - mean) * 100
        grad = np.einsum("nk,nkd->d", weight, z) / n + l2 * w
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w -= 0.05 * (m1 / (1 - 0.9**t)) / (np.sqrt(m2 / (1 - 0.999**t)) + 1e-8)
    raw: np.ndarray = w / sd
    return raw


def picks(data: Data, w: np.ndarray) -> np.ndarray:
    """Per decision, the highest-scoring candidate (the first of equal ones)."""
    x, mask = data[0], data[1]
    pick: np.ndarray = np.where(mask, x @ w, -np.inf).argmax(axis=1)
    return pick


def gain(data: Data, pick: np.ndarray, base: np.ndarray) -> tuple[float, float]:
    """The teacher's mean value of ``pick`` less that of ``base`` on the same decisions, and the half
    width of its 95 % interval."""
    values = data[2]
    rows = np.arange(len(pick))
    diff = values[rows, pick] - values[rows, base]
    return float(diff.mean()), float(1.96 * diff.std(ddof=1) / np.sqrt(len(diff)))


def report(name: str, data: Data, pick: np.ndarray) -> str:
    """How often ``pick`` is one of the teacher's best, its mean teacher value against the race's
    (with the 95 % interval of the paired difference), and how often it differs from the race."""
    _, _, values, best, race = data
    rows = np.arange(len(pick))
    mean, half = gain(data, pick, race)
    return (
        f"{name:<10} agreement {best[rows, pick].mean():.3f}, teacher's value {values[rows, pick].mean():.4f}"
        f" ({mean:+.4f} ± {half:.4f} against the race), "
        f"differs from the race {np.mean(pick != race):.3f}"
    )


def fit(args: argparse.Namespace) -> int:
    rows = load(args.data)
    train = arrays([r for r in rows if r["deal"] % args.hold != 0])
    test = arrays([r for r in rows if r["deal"] % args.hold == 0])
    print(
        f"decisions: {len(rows)} recorded; with a teacher's preference {len(train[0])} training, "
        f"{len(test[0])} held out"
    )
    w = fit_logit(train, args.l2, args.objective)
    current = np.array(DISCARD_WEIGHTS)
    for label, data in (("held out", test), ("training", train)):
        print(label)
        chosen = picks(data, w)
        print("  " + report("model", data, chosen))
        print("  " + report("race", data, data[4]))
        if len(current) == data[0].shape[2]:  # the current DISCARD_WEIGHTS on the same decisions
            now = picks(data, current)
            print("  " + report("current", data, now))
            mean, half = gain(data, chosen, now)
            print(f"  model against the current weights: {mean:+.4f} ± {half:.4f}")
        print("  " + report("teacher", data, data[3].argmax(axis=1)))
        for name in ("duel", "pf_duel"):  # the honest duels alone (the +duel and +pf bots)
            if FEATURES.index(name) < data[0].shape[2]:
                alone = np.zeros(data[0].shape[2])
                alone[FEATURES.index(name)] = 1.0
                print("  " + report(name, data, picks(data, alone)))
    for name, value in zip(FEATURES, w, strict=False):
        print(f"  {name:<16}{value:+.4f}")
    print("DISCARD_WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in w) + ")")
    if args.save:
        saved = {
            "features": list(FEATURES[: len(w)]),
            "weights": [round(float(v), 4) for v in w],
            "data": args.data,
            "objective": args.objective,
            "l2": args.l2,
            "decisions": {"recorded": len(rows), "training": len(train[0]), "held_out": len(test[0])},
        }
        Path(args.save).write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="record the discard decisions of games against OpenSpiel's bot")
    c.add_argument("--games", type=int, default=200)
    c.add_argument("--seed", type=int, default=100)
    c.add_argument("--level", default="hard")
    c.add_argument("--rules", default="gin")
    c.add_argument("--play", choices=("race", "teacher", "model"), default="race")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the conditional logit and report held-out agreement")
    f.add_argument("data", nargs="+")
    f.add_argument("--l2", type=float, default=3e-3)
    f.add_argument("--objective", choices=("choice", "value"), default="value")
    f.add_argument(
        "--hold", type=int, default=5, help="games of deals that are multiples of this are held out"
    )
    f.add_argument("--save", help="write the coefficients as JSON (vs_openspiel.py's +weights=FILE)")
    args = parser.parse_args(argv)
    return collect(args) if args.command == "collect" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
