"""What perfect knowledge would be worth to the search bot: its ceiling against an opponent.

Run: ``python benchmarks/ceiling.py --rules viennese --level hard --rounds 300 --seed 9100``.

The search bot (:class:`~rummykit.bots.ismcts.IsmctsBot`) values its moves on determinizations:
the hands of the other seats and the stock, dealt from the cards it cannot see and weighted by what
the table showed (:mod:`rummykit.bots.inference`). This benchmark plays the same duplicate deals
(the arena's deals, seats rotated) three times against the opponent bot, the search bot's
determinizations coming from its sampler (``honest``), from the true hands of the other seats with
the stock shuffled from the rest (``hands``: perfect inference), and from the true hands and the
true order of the stock (``full``: nothing hidden). Everything else of the bot is unchanged, except
that with ``full`` the melding games' play-outs draw the stock as one pile
(:attr:`~rummykit.bots.ismcts.IsmctsBot.known_stock`): their usual draw sequence per seat deals the
same distribution for an unknown stock, but for a known one it deals the wrong cards as soon as a seat
takes a discard instead of drawing. (The knock games' races keep a sequence per seat.)

* ``particles``: the determinizations come from the particle filter of
  :mod:`rummykit.bots.particles` (an honest sampler, like ``honest``; ``--power`` and ``--moves``
  set its model's exponent and its resample-move steps); ``--reading`` also prints, on
  the decisions of this mode, the mean share of the opponents' true hidden cards found in the hands
  that uniform dealing, the inference's sampler and the filter deal (20 of each per decision).
* ``calibrated``: the determinizations of the inference's sampler resampled towards the opponents'
  true strength (:class:`~rummykit.bots.calibrated.CalibratedSampler`, knock games; honest too).
* ``strength``: the inference's determinizations resampled to the opponents' true strength (the
  bucket of the least deadwood of their true hands, :class:`TrueStrength`), their cards still
  guessed: between ``honest`` and ``hands``, what knowing the strength alone is worth.
* ``hands`` less ``honest`` bounds what any inference can add to this search: the value of knowing
  the opponents' cards.
* ``full`` bounds the search's way of deciding: what it makes of a game with nothing hidden. If this
  row is not far ahead of ``honest``, the limit is the search's model of play (its play-outs and its
  candidates), not what it knows.

``--variants race,duel`` plays every mode with the knock games' races (the bot as it is) and with
duel play-outs (:attr:`~rummykit.bots.ismcts.IsmctsBot.knock_duels`, :mod:`rummykit.bots.knock_duel`)
on the same deals; a ``duel`` row also gives its paired difference to the ``race`` row of its mode,
in points and in rounds won.

Printed per mode: rounds won by the search bot (Wilson interval), points per round of both bots,
the lead per round, and the paired differences to ``honest`` on the same deals in points and in
rounds won (mean ± 95 %), CPU seconds per round and per move of the search bot and the load average.
``--outcomes FILE`` keeps the per-round outcomes, so a mode already played on the same deals is
read back instead of replayed. Cheating bots exist only here: a bot of the library sees
its :class:`~rummykit.views.PlayerView` and nothing else.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import rummykit as rk
from rummykit import solver
from rummykit.arena import ArenaConfig, Game, build_games, deal_seed, mean_interval, wilson_interval
from rummykit.bots import make_bot
from rummykit.bots.calibrated import CalibratedSampler, bucket
from rummykit.bots.inference import Sampler, TableMemory, sample_hidden
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.particles import Model, ParticleSampler
from rummykit.determinize import unseen_cards
from rummykit.views import PlayerView

MODES = ("honest", "particles", "calibrated", "strength", "hands", "full")
VARIANTS = ("race", "duel")
READING_SAMPLES = 20
OFF_BUCKET = 0.001
"""``strength``: the weight left to a dealt hand outside its seat's true bucket."""
"""Determinizations per decision that ``--reading`` compares."""


@dataclass
class Reading:
    """Per searched decision of the search bot, the mean share of an opponent's true hidden cards
    (not known to be held) found in the hands each sampler deals."""

    decisions: int = 0
    inference: float = 0.0
    particles: float = 0.0
    uniform: float = 0.0


def share(rnd: rk.Round, view: PlayerView, hands: dict[int, list[int]]) -> float:
    """The share of the other seats' true hidden cards that ``hands`` holds (multisets)."""
    found = total = 0
    for s, hand in hands.items():
        truth = Counter(int(c) for c in rnd.hands[s])
        truth.subtract(int(c) for c in view.known_cards[s])
        truth = +truth
        guess = Counter(hand)
        found += sum((guess & truth).values())
        total += sum(truth.values())
    return found / total if total else 1.0


def reading(rnd: rk.Round, sampler: Sampler, into: Reading) -> Sampler:
    """``sampler``, measuring at each new decision how well it and the inference's
    :func:`~rummykit.bots.inference.sample_hidden` (and uniform hands) read the true hidden cards."""
    seen: set[tuple[int, int, int]] = set()

    def sample(
        view: PlayerView,
        rng: random.Random,
        memory: TableMemory | None = None,
        behaviour: bool = True,
        weights: dict[int, list[float]] | None = None,
        unseen: Sequence[int] | None = None,
    ) -> tuple[dict[int, list[int]], list[int]]:
        key = (view.turn, len(view.hand), len(view.discard_pile))
        if key not in seen and view.revealed.count(None) == len(view.revealed):
            seen.add(key)
            probe = random.Random(hash(key))
            into.decisions += 1
            n = READING_SAMPLES
            into.particles += sum(share(rnd, view, sampler(view, probe, memory)[0]) for _ in range(n)) / n
            into.inference += (
                sum(share(rnd, view, sample_hidden(view, probe, memory)[0]) for _ in range(n)) / n
            )
            into.uniform += (
                sum(share(rnd, view, sample_hidden(view, probe, None, False)[0]) for _ in range(n)) / n
            )
        return sampler(view, rng, memory, behaviour, weights, unseen)

    return sample


def oracle(rnd: rk.Round, mode: str) -> Sampler:
    """A sampler that deals the true hands of ``rnd`` (read as the round goes on) and either the
    true stock (``full``) or the rest of the unseen cards shuffled (``hands``)."""

    def sample(
        view: PlayerView,
        rng: random.Random,
        memory: TableMemory | None = None,
        behaviour: bool = True,
        weights: dict[int, list[float]] | None = None,
        unseen: Sequence[int] | None = None,
    ) -> tuple[dict[int, list[int]], list[int]]:
        hands = {s: [int(c) for c in rnd.hands[s]] for s in view.active_seats if s != view.seat}
        if mode == "full":
            return hands, [int(c) for c in reversed(rnd.stock)]  # the next card drawn first
        rest = [int(c) for c in unseen_cards(view)] if unseen is None else list(unseen)
        for hand in hands.values():
            for c in hand:
                if c in rest:  # cards a seat took from the pile are known, not unseen
                    rest.remove(c)
        rng.shuffle(rest)
        return hands, rest

    return sample


class TrueStrength(CalibratedSampler):
    """The inference's determinizations resampled so that every opponent's hand lies in the bucket
    (:func:`~rummykit.bots.calibrated.bucket`) of the least deadwood of its true hand in ``rnd``
    (other hands keep :data:`OFF_BUCKET` of their weight): the true strength, guessed cards."""

    def __init__(self, rnd: rk.Round) -> None:
        super().__init__()
        self.rnd = rnd

    def weight(self, view: PlayerView, hands: dict[int, list[int]]) -> float:
        w = 1.0
        for seat, hand in hands.items():
            if view.revealed[seat] is None and hand:
                truth = solver.min_deadwood([int(c) for c in self.rnd.hands[seat]], view.rules)
                same = bucket(solver.min_deadwood(hand, view.rules)) == bucket(truth)
                w *= 1.0 if same else OFF_BUCKET
        return w


@dataclass
class Outcome:
    lead: float
    """The search bot's points less the opponent's (mean over the opponent seats)."""
    points: float
    opponent: float
    won: float
    cpu: float
    moves: int


def play(
    rules: rk.Rules,
    game: Game,
    mode: str,
    read: Reading | None = None,
    power: float = 1.0,
    duels: bool = False,
    moves: int = 0,
) -> Outcome:
    """One round of an arena ``game``, the search bot's sampler set by ``mode`` (``duels``: its knock
    games valued by duel play-outs; ``moves``: the particle filter's resample-move steps)."""
    specs = game.specs
    players = len(specs)
    rnd = rk.Round.new(rules, players, seed=deal_seed(game.seed, game.table, game.deal))
    bots = [make_bot(spec) for spec in specs]
    searching = [game.seats[s] == 0 for s in range(players)]  # the arena's first bot is the search
    for seat, bot in enumerate(bots):
        if searching[seat]:
            assert isinstance(bot, IsmctsBot)
            bot.knock_duels = duels
        if searching[seat] and mode == "particles":
            assert isinstance(bot, IsmctsBot)
            bot.sampler = ParticleSampler(model=Model(power=power), moves=moves)
            if read is not None:
                bot.sampler = reading(rnd, bot.sampler, read)
        elif searching[seat] and mode in ("calibrated", "strength"):
            assert isinstance(bot, IsmctsBot)
            bot.sampler = CalibratedSampler() if mode == "calibrated" else TrueStrength(rnd)
        elif searching[seat] and mode != "honest":
            assert isinstance(bot, IsmctsBot)
            bot.sampler = oracle(rnd, mode)
            bot.known_stock = mode == "full"
    rngs = [
        random.Random(f"rummykit-bot-{game.seed}-{game.table}-{game.deal}-{game.rotation}-{s}")
        for s in range(players)
    ]
    cpu = 0.0
    moves = 0
    while not rnd.is_over:
        seat = rnd.to_move
        t0 = time.process_time()
        action = bots[seat].choose(rnd.view(seat), rnd.legal_actions(), rngs[seat])
        if searching[seat]:
            cpu += time.process_time() - t0
            moves += 1
        rnd.apply(action)
    assert rnd.result is not None
    points = rnd.result.points
    mine = [s for s in rnd.active_seats if searching[s]]
    theirs = [s for s in rnd.active_seats if not searching[s]]
    best = max(points[s] for s in rnd.active_seats)
    winners = [s for s in rnd.active_seats if points[s] == best]
    won = sum(1 for s in winners if s in mine) / len(winners)
    own = sum(points[s] for s in mine) / len(mine)
    other = sum(points[s] for s in theirs) / len(theirs)
    return Outcome(own - other, own, other, won, cpu, moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="viennese")
    parser.add_argument("--level", default="hard", help="the search level (easy, medium, hard)")
    parser.add_argument("--opponent", default="greedy", help="the other bot (any arena bot spec)")
    parser.add_argument("--rounds", type=int, default=300, help="duplicate deals (seats rotated)")
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated: " + ", ".join(MODES))
    parser.add_argument(
        "--outcomes",
        help="JSON file of per-round outcomes: modes found there (same rules, level, opponent, seed, "
        "rounds) are not replayed, and the modes played are added",
    )
    parser.add_argument(
        "--power", type=float, default=1.0, help="particles: the model's likelihood exponent (Model.power)"
    )
    parser.add_argument(
        "--moves", type=int, default=0, help="particles: resample-move steps per particle (ParticleSampler)"
    )
    parser.add_argument(
        "--reading", action="store_true", help="particles: also measure how well each sampler reads the hands"
    )
    parser.add_argument(
        "--variants", default="race", help="comma-separated: race (as it is), duel (knock_duels)"
    )
    args = parser.parse_args()
    modes = args.modes.split(",")
    if unknown := set(modes) - set(MODES):
        parser.error(f"unknown modes: {', '.join(sorted(unknown))}")
    variants = args.variants.split(",")
    if unknown := set(variants) - set(VARIANTS):
        parser.error(f"unknown variants: {', '.join(sorted(unknown))}")
    search = f"search:{args.level}"
    config = ArenaConfig(rules=args.rules, bots=(search, args.opponent), rounds=args.rounds, seed=args.seed)
    games = build_games(config)[: args.rounds]
    rules = rk.Rules.preset(args.rules)
    results: dict[tuple[str, str], list[Outcome]] = {}
    print(f"{search} against {args.opponent}, {args.rules}, {len(games)} rounds, seed {args.seed}")
    print(
        "| determinizations | variant | rounds won | points/round | lead | paired vs honest "
        "| paired rounds won | paired vs race (points; rounds won) | CPU/round | CPU/move | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    read = Reading() if args.reading else None
    setting = [args.rules, args.level, args.opponent, args.seed, len(games)]
    stored: dict[str, list[list[float]]] = {}
    if args.outcomes and os.path.exists(args.outcomes):
        with open(args.outcomes) as f:
            saved = json.load(f)
        if saved["setting"] == setting:
            stored = saved["modes"]
    for mode, variant in [(m, v) for m in modes for v in variants]:
        loads = [os.getloadavg()[0]]
        outcomes: list[Outcome] = []
        label = mode
        if mode == "particles" and (args.power != 1.0 or args.moves):
            options = [f"power {args.power:g}"] if args.power != 1.0 else []
            options += [f"{args.moves} moves"] if args.moves else []
            label = f"{mode} ({', '.join(options)})"
        key = label if variant == "race" else f"{label}, {variant}"
        if key in stored:
            outcomes = [Outcome(*row[:5], int(row[5])) for row in stored[key]]
            loads = [float("nan")]
        reads = read if mode == "particles" else None
        for game in games[len(outcomes) :]:
            outcomes.append(play(rules, game, mode, reads, args.power, variant == "duel", args.moves))
            loads.append(os.getloadavg()[0])
        results[mode, variant] = outcomes
        if args.outcomes:
            stored[key] = [[o.lead, o.points, o.opponent, o.won, o.cpu, o.moves] for o in outcomes]
            with open(args.outcomes, "w") as f:
                json.dump({"setting": setting, "modes": stored}, f)
        n = len(outcomes)
        won = sum(o.won for o in outcomes)
        lo, hi = wilson_interval(won, n)
        lead, _, _ = mean_interval([o.lead for o in outcomes])
        paired = paired_won = versus = "–"
        if mode != "honest" and ("honest", variant) in results:
            honest = results["honest", variant]
            paired = _paired(outcomes, honest, lambda o: o.lead)
            paired_won = _paired(outcomes, honest, lambda o: o.won, 3)
        if variant != "race" and (mode, "race") in results:
            race = results[mode, "race"]
            points = _paired(outcomes, race, lambda o: o.lead)
            versus = f"{points}; {_paired(outcomes, race, lambda o: o.won, 3)}"
        print(
            f"| {label} | {variant} | {won / n:.3f} ({lo:.3f}–{hi:.3f}) "
            f"| {sum(o.points for o in outcomes) / n:.2f} / {sum(o.opponent for o in outcomes) / n:.2f} "
            f"| {lead:+.2f} | {paired} | {paired_won} | {versus} | {sum(o.cpu for o in outcomes) / n:.2f} s "
            f"| {1000 * sum(o.cpu for o in outcomes) / max(1, sum(o.moves for o in outcomes)):.0f} ms "
            f"| {min(loads):.1f}–{max(loads):.1f} |",
            flush=True,
        )
    if read is not None and read.decisions:
        d = read.decisions
        print(
            f"reading ({d} decisions, {READING_SAMPLES} samples each; share of the true hidden cards dealt): "
            f"uniform {read.uniform / d:.3f}, inference {read.inference / d:.3f}, "
            f"particles {read.particles / d:.3f}"
        )


def _paired(
    outcomes: Sequence[Outcome], base: Sequence[Outcome], of: Callable[[Outcome], float], digits: int = 2
) -> str:
    """The mean paired difference of ``of`` between ``outcomes`` and ``base`` (same deals) ± its 95 %."""
    mean, low, _ = mean_interval([of(o) - of(b) for o, b in zip(outcomes, base, strict=True)])
    return f"{mean:+.{digits}f} ± {mean - low:.{digits}f}"


if __name__ == "__main__":
    main()
