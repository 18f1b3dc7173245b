"""How well the search's samplers read an opponent's hand, on the same decisions.

Run: ``python benchmarks/reading.py --rules viennese --hands 30 --seed 500``.

Plays ``--hands`` heads-up hands between two greedy bots and keeps seat 0's views and actions; then
replays those views through each sampler (a fresh :class:`~rummykit.bots.inference.TableMemory`
per hand, so every sampler sees exactly the same decisions) and deals ``--samples`` hands of seat 1
per decision:

* ``uniform``: the unseen cards dealt at random (no inference);
* ``inference``: :func:`~rummykit.bots.inference.sample_hidden` (the search's default);
* ``particles``: :class:`~rummykit.bots.particles.ParticleSampler`, with the model's options
  (``--power``, ``--particles``; ``--moves ""`` for no such row);
* ``calibrated``: :class:`~rummykit.bots.calibrated.CalibratedSampler` (``sample_hidden``'s hands
  resampled towards the opponent's true strength; knock games).
* ``hands:K`` (``--known``): seat 1's true hand with ``K`` of its hidden cards kept, the others
  dealt uniformly (``benchmarks/ceiling.py``'s :func:`partly_true`): what share ``K`` is worth.

Printed per sampler: the mean share of seat 1's true hidden cards (those not known to be held)
found in the dealt hands, over all decisions and from turn 8 on; in knock games the mean least
deadwood of the dealt hands against the true one, and how often each is below 15 (a hand near a
knock) — draw decisions from turn 4 on; and the CPU seconds the sampler took.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from ceiling import partly_true  # the sibling benchmark (run as a script, benchmarks/ is on the path)

import rummykit as rk
from rummykit import solver
from rummykit.actions import Action
from rummykit.bots import make_bot
from rummykit.bots.calibrated import CalibratedSampler
from rummykit.bots.inference import Sampler, TableMemory, sample_hidden
from rummykit.bots.particles import PARTICLES, Model, ParticleSampler
from rummykit.determinize import unseen_cards
from rummykit.views import Phase, PlayerView

NEAR: int = 15
"""Deadwood below which a hand counts as near a knock."""

Record = list[tuple[PlayerView, Action, Counter[int], int]]


def record(rules: rk.Rules, hands: int, seed: int) -> list[Record]:
    """Seat 0's views and actions, seat 1's true hidden cards and least deadwood, per hand."""
    out: list[Record] = []
    for h in range(hands):
        rnd = rk.Round.new(rules, 2, seed=seed + h)
        bot = make_bot("greedy")
        rng = random.Random(h)
        rec: Record = []
        while not rnd.is_over:
            seat = rnd.to_move
            view = rnd.view(seat)
            action = bot.choose(view, rnd.legal_actions(), rng)
            if seat == 0:
                truth = Counter(int(c) for c in rnd.hands[1])
                truth.subtract(int(c) for c in view.known_cards[1])
                cards = [int(c) for c in rnd.hands[1]]
                rec.append((view, action, +truth, solver.min_deadwood(cards, rules) if cards else 0))
            rnd.apply(action)
        out.append(rec)
    return out


def deal(
    kind: str,
    view: PlayerView,
    memory: TableMemory,
    sampler: Sampler,
    rng: random.Random,
    truth: Counter[int],
) -> list[int]:
    """Seat 1's hand as ``kind`` deals it (``truth``: its true hidden cards)."""
    if kind.startswith("hands:"):
        hand = [int(c) for c in view.known_cards[1]] + list(truth.elements())
        unseen = [int(c) for c in unseen_cards(view)]
        return partly_true(view, {1: hand}, unseen, float(kind[len("hands:") :]), rng)[0][1]
    if kind == "uniform":
        return sample_hidden(view, rng, None, False)[0][1]
    if kind == "inference":
        return sample_hidden(view, rng, memory)[0][1]
    return sampler(view, rng, memory)[0][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="viennese")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--samples", type=int, default=20, help="hands dealt per decision")
    parser.add_argument("--particles", type=int, default=PARTICLES)
    parser.add_argument("--power", type=float, default=1.0, help="the particle model's likelihood exponent")
    parser.add_argument(
        "--moves",
        default="0",
        help="comma-separated: the filter's resample-move steps per particle, a row each",
    )
    parser.add_argument(
        "--known", default="", help="comma-separated fractions K: a row of partly true hands (hands:K) each"
    )
    args = parser.parse_args()
    rules = rk.Rules.preset(args.rules)
    records = record(rules, args.hands, args.seed)
    print(
        f"{args.rules}, {args.hands} hands of greedy against greedy, seed {args.seed}, {args.samples} samples"
    )
    print(
        "| sampler | decisions | share | from turn 8 | deadwood dealt / true | below 15 dealt / true "
        "| ESS | distinct hands | moves accepted | CPU per decision |"
    )
    print("|---|---:|---:|---:|---|---|---:|---:|---:|---:|")
    kinds = ["uniform", "inference"] + [f"particles, {m} moves" for m in args.moves.split(",") if m]
    kinds += ["calibrated"] if rules.family == "knock" else []
    kinds += [f"hands:{k}" for k in args.known.split(",") if k]
    for kind in kinds:
        moves = int(kind.split(", ")[1].split()[0]) if kind.startswith("particles") else 0
        ess: list[float] = []
        distinct: list[int] = []
        proposed = accepted = 0
        shares: list[float] = []
        late: list[float] = []
        dealt_d = true_d = near = true_near = counted = 0
        cpu = 0.0
        for h, rec in enumerate(records):
            memory = TableMemory()
            rng = random.Random(h)
            sampler: Sampler = (
                CalibratedSampler()
                if kind == "calibrated"
                else ParticleSampler(args.particles, Model(power=args.power), moves)
            )
            for view, action, truth, deadwood in rec:
                memory.observe(view)
                total = sum(truth.values())
                if view.phase is not Phase.OVER and total:
                    t0 = time.process_time()
                    dealt = [deal(kind, view, memory, sampler, rng, truth) for _ in range(args.samples)]
                    cpu += time.process_time() - t0
                    known = [int(c) for c in view.known_cards[1]]
                    got = 0.0
                    for hand in dealt:
                        guess = Counter(hand)
                        guess.subtract(known)
                        got += sum((guess & truth).values()) / total
                    shares.append(got / len(dealt))
                    if view.turn >= 8:
                        late.append(got / len(dealt))
                    if rules.is_knock_game and view.phase is Phase.DRAW and view.turn >= 4:
                        for hand in dealt:
                            d = solver.min_deadwood(hand, rules)
                            dealt_d += d
                            near += d < NEAR
                        true_d += deadwood * len(dealt)
                        true_near += (deadwood < NEAR) * len(dealt)
                        counted += len(dealt)
                    if isinstance(sampler, ParticleSampler) and view.seat in sampler.filters:
                        pf = sampler.filters[view.seat]
                        distinct.append(len({tuple(sorted(h[1])) for h in pf.hands}))
                memory.acted(view, action)
            if isinstance(sampler, ParticleSampler) and 0 in sampler.filters:
                pf = sampler.filters[0]
                ess += pf.ess
                proposed += pf.proposed
                accepted += pf.accepted
        strength = "– | –"
        if counted:
            strength = f"{dealt_d / counted:.1f} / {true_d / counted:.1f} | "
            strength += f"{near / counted:.3f} / {true_near / counted:.3f}"
        print(
            f"| {kind} | {len(shares)} | {sum(shares) / len(shares):.3f} "
            f"| {sum(late) / max(1, len(late)):.3f} "
            f"| {strength} | {sum(ess) / max(1, len(ess)):.0f} | {sum(distinct) / max(1, len(distinct)):.0f} "
            f"| {accepted / max(1, proposed):.2f} | {1000 * cpu / max(1, len(shares)):.0f} ms |",
            flush=True,
        )


if __name__ == "__main__":
    main()
