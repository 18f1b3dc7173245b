"""How strong a knock-game opponent really is, and how strong the search's sampler deals it.

Run: ``python benchmarks/strength.py --rules viennese --hands 3000 --seed 7000``
(``--write src/rummykit/bots/calibrated.py`` also writes the counts into the calibrated sampler).

Plays ``--hands`` heads-up hands between two greedy bots; at every draw decision of either seat
(each seat a viewer with its own :class:`~rummykit.bots.inference.TableMemory`), before anyone
knocked, it counts the least deadwood of the other seat's true hand and of ``--samples`` hands
:func:`~rummykit.bots.inference.sample_hidden` deals it, by the turns the other seat has played (the
races' clock, ``view.turn // 2``, pooled from :data:`~rummykit.bots.calibrated.MAX_TURN` on) and by
the bucket of :mod:`rummykit.bots.calibrated`. Printed per turns played: decisions, mean least
deadwood and share below 15 of the true and the dealt hands, and the same by the discards the other
seat has taken (0, 1, 2 or more). A hand still running after :data:`LONGEST` turns is left there.
With ``--write`` the two count tables replace the block between the ``BEGIN``/``END STRENGTH
TABLES`` markers of the given file.
"""

from __future__ import annotations

import argparse
import random
import re
from collections import defaultdict

import rummykit as rk
from rummykit import solver
from rummykit.bots import make_bot
from rummykit.bots.calibrated import BUCKETS, MAX_TURN, bucket, played
from rummykit.bots.inference import TableMemory, sample_hidden
from rummykit.views import Phase

NEAR = 15
"""Deadwood below which a hand counts as near a knock."""
LONGEST = 60
"""Turns after which a hand is left (two greedy bots can pass the stock round for ever)."""

Counts = list[list[int]]


def measure(
    rules: rk.Rules, hands: int, seed: int, samples: int
) -> tuple[Counts, Counts, dict[tuple[int, int], list[float]]]:
    """The true and the dealt count tables, and per (turns played, discards taken) the sums
    ``[decisions, true deadwood, true near, dealt deadwood, dealt near]`` (dealt: per sample)."""
    true_counts = [[0] * BUCKETS for _ in range(MAX_TURN + 1)]
    dealt_counts = [[0] * BUCKETS for _ in range(MAX_TURN + 1)]
    by_taken: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0] * 5)
    for h in range(hands):
        rnd = rk.Round.new(rules, 2, seed=seed + h)
        bot = make_bot("greedy")
        rng = random.Random(seed + h)
        probe = random.Random(f"strength-{seed}-{h}")
        memories = [TableMemory(), TableMemory()]
        while not rnd.is_over and rnd.view(rnd.to_move).turn < LONGEST:
            seat = rnd.to_move
            view = rnd.view(seat)
            memories[seat].observe(view)
            action = bot.choose(view, rnd.legal_actions(), rng)
            other = 1 - seat
            if view.phase is Phase.DRAW and view.knocker is None and view.revealed[other] is None:
                t = played(view)
                d = solver.min_deadwood([int(c) for c in rnd.hands[other]], rules)
                true_counts[t][bucket(d)] += 1
                row = by_taken[t, min(2, len(memories[seat].of(other).taken))]
                row[0] += 1
                row[1] += d
                row[2] += d < NEAR
                for _ in range(samples):
                    dealt = sample_hidden(view, probe, memories[seat])[0][other]
                    dd = solver.min_deadwood(dealt, rules)
                    dealt_counts[t][bucket(dd)] += 1
                    row[3] += dd / samples
                    row[4] += (dd < NEAR) / samples
            memories[seat].acted(view, action)
            rnd.apply(action)
    return true_counts, dealt_counts, by_taken


def table_block(name: str, counts: Counts, doc: str) -> str:
    """The Python source of a count table and its docstring."""
    rows = "\n".join(f"    ({', '.join(str(c) for c in row)})," for row in counts)
    return f"{name}: Final[tuple[tuple[int, ...], ...]] = (\n{rows}\n)\n{doc}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="viennese")
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--samples", type=int, default=10, help="hands sample_hidden deals per decision")
    parser.add_argument("--write", help="a file whose STRENGTH TABLES block is replaced by the counts")
    args = parser.parse_args()
    rules = rk.Rules.preset(args.rules)
    true_counts, dealt_counts, by_taken = measure(rules, args.hands, args.seed, args.samples)
    print(
        f"{args.rules}, {args.hands} hands of greedy against greedy, seed {args.seed}, {args.samples} samples"
    )
    print(
        "| turns played | discards taken | decisions | least deadwood true / dealt | below 15 true / dealt |"
    )
    print("|---:|---|---:|---|---|")
    for t in range(MAX_TURN + 1):
        rows = [(k, by_taken[t, k]) for k in range(3) if (t, k) in by_taken]
        total = [sum(r[i] for _, r in rows) for i in range(5)]
        for label, r in [("all", total)] + [(("0", "1", "2+")[k], r) for k, r in rows]:
            if r[0]:
                n = r[0]
                print(
                    f"| {t}{'+' if t == MAX_TURN else ''} | {label} | {int(n)} "
                    f"| {r[1] / n:.1f} / {r[3] / n:.1f} "
                    f"| {r[2] / n:.3f} / {r[4] / n:.3f} |"
                )
    if args.write:
        how = (
            f"made by\n``python benchmarks/strength.py --rules {args.rules} --hands {args.hands} "
            f"--seed {args.seed} --samples {args.samples} --write ...``"
        )
        block = (
            "# BEGIN STRENGTH TABLES\n"
            + table_block(
                "TRUE_COUNTS",
                true_counts,
                f'"""Draw decisions (either seat of greedy against greedy, {args.rules}) per turns the '
                f'other\nseat has played (row) and bucket of its true least deadwood; {how}."""',
            )
            + table_block(
                "SAMPLED_COUNTS",
                dealt_counts,
                '"""The same decisions: the buckets of the hands ``sample_hidden`` dealt the other seat."""',
            )
            + "# END STRENGTH TABLES"
        )
        with open(args.write) as f:
            text = f.read()
        text = re.sub(r"# BEGIN STRENGTH TABLES\n.*# END STRENGTH TABLES", lambda _: block, text, flags=re.S)
        with open(args.write, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
