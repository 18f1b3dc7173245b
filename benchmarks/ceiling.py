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
* ``distilled``: the inference's determinizations (honest), and a knock-game discard with no knock
  allowed chosen by the learned score of :mod:`rummykit.bots.distill`
  (:attr:`~rummykit.bots.ismcts.IsmctsBot.distilled`) instead of the best race.
* ``hands:K`` (a fraction ``K`` in [0, 1]): the true hands with only part of them kept, ``K`` of
  each hand's hidden cards (the cards not publicly known to be held) kept true, the others and the
  stock dealt uniformly from the cards this seat cannot see, redrawn for every determinization
  (:func:`oracle`); ``hands:1`` deals as ``hands``, ``hands:0`` keeps only the publicly known cards.
  It measures how much knowledge of the opponent's cards a way of deciding needs.
* ``hands`` less ``honest`` bounds what any inference can add to this search: the value of knowing
  the opponents' cards.
* ``full`` bounds the search's way of deciding: what it makes of a game with nothing hidden. If this
  row is not far ahead of ``honest``, the limit is the search's model of play (its play-outs and its
  candidates), not what it knows.

``--variants nofeed`` plays the race without the charge for a discard that feeds the next seat
(:attr:`~rummykit.bots.ismcts.IsmctsBot.feeds` ``None``). ``--variants discards`` plays duels for
the discards with no knock allowed alone (the draws and the
knock-or-wait decisions raced, :class:`DiscardDuels`: what the learned discard of ``distilled`` is
taught). ``--variants race,duel`` plays every mode with the knock games' races (the bot as it is)
and with duel play-outs (:attr:`~rummykit.bots.ismcts.IsmctsBot.knock_duels`, :mod:`rummykit.bots.knock_duel`)
on the same deals; a ``duel`` row also gives its paired difference to the ``race`` row of its mode,
in points and in rounds won. The paired differences use rows of this run or, else, rows of the
outcomes file; a row without an ``honest`` row of its variant is paired with the ``honest`` race
(marked "(race)").

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
from rummykit.actions import Action, Discard
from rummykit.arena import ArenaConfig, Game, build_games, deal_seed, mean_interval, wilson_interval
from rummykit.bots import make_bot
from rummykit.bots.calibrated import CalibratedSampler, bucket
from rummykit.bots.inference import Sampler, TableMemory, sample_hidden
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.particles import Model, ParticleSampler
from rummykit.determinize import unseen_cards
from rummykit.views import PlayerView

MODES = ("honest", "particles", "calibrated", "strength", "hands", "full", "distilled")
VARIANTS = ("race", "duel", "discards", "nofeed")
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


def oracle(rnd: rk.Round, mode: str, known: float = 1.0) -> Sampler:
    """A sampler that deals the true hands of ``rnd`` (read as the round goes on) and either the
    true stock (``full``) or the rest of the unseen cards shuffled (``hands``).

    ``known`` below 1 (``hands``, the ``hands:K`` modes) keeps only part of each hand true. Of each
    other seat's true hand, the cards everybody knows it holds (``PlayerView.known_cards``: taken from
    the discard pile and not laid or thrown since; the whole hand once it is shown) always stay; of
    the rest, its hidden cards, a subset of ``round(known * hidden)`` cards chosen uniformly at random
    stays true, and the other places are filled by cards drawn uniformly, without replacement, from
    the unseen cards of the view (``unseen_cards``, or ``unseen`` when given) less the true cards kept
    for any seat. A replacement is never a card this seat has seen (its hand, the melds, the discard
    pile, a shown hand), but it may by chance be one of the true cards that were not kept, so the
    share of the true hidden cards in a dealt hand is ``known`` plus that chance (``hands:0`` deals
    the hidden cards as uniform dealing does). The stock is the rest of those unseen cards, shuffled.
    Subset and replacements are drawn afresh from ``rng`` for every determinization (seeded: the same
    ``rng`` state deals the same hands). ``known`` 1 is ``hands``.
    """
    if not 0.0 <= known <= 1.0:
        raise ValueError(f"the known fraction must lie in [0, 1], not {known}")

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
        if known < 1.0:
            return partly_true(view, hands, rest, known, rng)
        for hand in hands.values():
            for c in hand:
                if c in rest:  # cards a seat took from the pile are known, not unseen
                    rest.remove(c)
        rng.shuffle(rest)
        return hands, rest

    return sample


class DiscardDuels(IsmctsBot):
    """The search bot with ``knock_duels`` on for its discards with no knock allowed alone: its draws
    and its knock-or-wait decisions stay the race's (the ``discards`` variant)."""

    def duel_draw(self, view: PlayerView, rng: random.Random, memory: TableMemory) -> Action:
        duels, self.knock_duels = self.knock_duels, False
        try:
            return super().duel_draw(view, rng, memory)
        finally:
            self.knock_duels = duels

    def duel_discard(
        self, view: PlayerView, candidates: list[Action], rng: random.Random, memory: TableMemory
    ) -> Action:
        duels = self.knock_duels
        self.knock_duels = duels and all(isinstance(a, Discard) for a in candidates)
        try:
            return super().duel_discard(view, candidates, rng, memory)
        finally:
            self.knock_duels = duels


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


def partly_true(
    view: PlayerView, hands: dict[int, list[int]], unseen: list[int], known: float, rng: random.Random
) -> tuple[dict[int, list[int]], list[int]]:
    """The true ``hands`` with the publicly known cards and ``round(known * hidden)`` random hidden
    cards of each kept, the other places and the stock dealt from ``unseen`` (see :func:`oracle`)."""
    rest = list(unseen)
    dealt: dict[int, list[int]] = {}
    for s, hand in hands.items():
        shown = view.revealed[s]  # a knocker's hand is shown to everybody
        public = [int(c) for c in (shown if shown is not None else view.known_cards[s])]
        hidden = list(hand)
        for c in public:
            hidden.remove(c)
        kept = rng.sample(hidden, round(known * len(hidden)))
        for c in kept:
            rest.remove(c)  # a hidden card is unseen; its twin (two decks) stays in the pool
        dealt[s] = public + kept
    rng.shuffle(rest)
    for s, hand in hands.items():
        n = len(hand) - len(dealt[s])
        dealt[s] += rest[:n]
        del rest[:n]
    return dealt, rest


def parse_mode(mode: str) -> tuple[str, float]:
    """A mode's name and known fraction: ``hands:K`` is ``("hands", K)``, any other mode ``(mode, 1)``.

    Raises:
        ValueError: an unknown mode, or a fraction outside [0, 1].
    """
    base, _, fraction = mode.partition(":")
    if base not in MODES or (fraction and base != "hands"):
        raise ValueError(f"unknown mode {mode!r}")
    known = float(fraction) if fraction else 1.0
    if not 0.0 <= known <= 1.0:
        raise ValueError(f"the known fraction must lie in [0, 1], not {known}")
    return base, known


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
    variant: str = "race",
    moves: int = 0,
    margin: float = 0.0,
) -> Outcome:
    """One round of an arena ``game``, the search bot's sampler set by ``mode`` and its way of deciding
    by ``variant`` (one of :data:`VARIANTS`: ``duel`` values its knock games by duel play-outs,
    ``discards`` only its discards with no knock allowed, ``nofeed`` is the race without the feed charge;
    ``moves``: the particle filter's resample-move steps; ``margin``: ``distilled``'s
    :attr:`~rummykit.bots.ismcts.IsmctsBot.distill_margin`)."""
    specs = game.specs
    players = len(specs)
    rnd = rk.Round.new(rules, players, seed=deal_seed(game.seed, game.table, game.deal))
    bots = [
        DiscardDuels(spec.partition(":")[2])
        if variant == "discards" and game.seats[s] == 0
        else make_bot(spec)
        for s, spec in enumerate(specs)
    ]
    searching = [game.seats[s] == 0 for s in range(players)]  # the arena's first bot is the search
    for seat, bot in enumerate(bots):
        if searching[seat]:
            assert isinstance(bot, IsmctsBot)
            bot.knock_duels = variant in ("duel", "discards")
            if variant == "nofeed":
                bot.feeds = None
        if searching[seat] and mode == "particles":
            assert isinstance(bot, IsmctsBot)
            bot.sampler = ParticleSampler(model=Model(power=power), moves=moves)
            if read is not None:
                bot.sampler = reading(rnd, bot.sampler, read)
        elif searching[seat] and mode in ("calibrated", "strength"):
            assert isinstance(bot, IsmctsBot)
            bot.sampler = CalibratedSampler() if mode == "calibrated" else TrueStrength(rnd)
        elif searching[seat] and mode == "distilled":
            assert isinstance(bot, IsmctsBot)
            bot.distilled = True
            bot.distill_margin = margin
        elif searching[seat] and mode != "honest":
            assert isinstance(bot, IsmctsBot)
            base, known = parse_mode(mode)
            bot.sampler = oracle(rnd, base, known)
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
    parser.add_argument(
        "--modes",
        default=",".join(MODES),
        help="comma-separated: " + ", ".join(MODES) + ", hands:K (K of the hidden cards true)",
    )
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
        "--margin", type=float, default=0.0, help="distilled: IsmctsBot.distill_margin (duel points)"
    )
    parser.add_argument(
        "--reading", action="store_true", help="particles: also measure how well each sampler reads the hands"
    )
    parser.add_argument(
        "--variants",
        default="race",
        help="comma-separated: race (as it is), duel (knock_duels), discards, nofeed (no feed charge)",
    )
    args = parser.parse_args()
    modes = args.modes.split(",")
    for mode in modes:
        try:
            parse_mode(mode)
        except ValueError as error:
            parser.error(str(error))
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
        if mode == "distilled" and args.margin:
            label = f"{mode} (margin {args.margin:g})"
        key = _key(label, variant)
        if key in stored:
            outcomes = [_outcome(row) for row in stored[key]]
            loads = [float("nan")]
        reads = read if mode == "particles" else None
        for game in games[len(outcomes) :]:
            outcomes.append(play(rules, game, mode, reads, args.power, variant, args.moves, args.margin))
            loads.append(os.getloadavg()[0])
        results[label, variant] = outcomes
        if args.outcomes:
            stored[key] = [[o.lead, o.points, o.opponent, o.won, o.cpu, o.moves] for o in outcomes]
            with open(args.outcomes, "w") as f:
                json.dump({"setting": setting, "modes": stored}, f)
        n = len(outcomes)
        won = sum(o.won for o in outcomes)
        lo, hi = wilson_interval(won, n)
        lead, _, _ = mean_interval([o.lead for o in outcomes])
        paired = paired_won = versus = "–"
        honest = _rows(results, stored, "honest", variant, n)
        suffix = ""
        if honest is None:  # no honest row of this variant: pair with the honest race
            honest, suffix = _rows(results, stored, "honest", "race", n), " (race)"
        if mode != "honest" and honest is not None:
            paired = _paired(outcomes, honest, lambda o: o.lead) + suffix
            paired_won = _paired(outcomes, honest, lambda o: o.won, 3) + suffix
        race = _rows(results, stored, label, "race", n)
        if variant != "race" and race is not None:
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


def _key(label: str, variant: str) -> str:
    """A row's key in the outcomes file: the mode's label, and the variant unless it is the race."""
    return label if variant == "race" else f"{label}, {variant}"


def _outcome(row: list[float]) -> Outcome:
    """An outcome as the outcomes file stores it (its fields in order)."""
    lead, points, opponent, won, cpu, moves = row
    return Outcome(lead, points, opponent, won, cpu, int(moves))


def _rows(
    results: dict[tuple[str, str], list[Outcome]],
    stored: dict[str, list[list[float]]],
    label: str,
    variant: str,
    n: int,
) -> list[Outcome] | None:
    """The outcomes of ``label`` and ``variant`` played in this run, or else read from the outcomes
    file when it holds all ``n`` rounds; ``None`` when neither has them."""
    if (label, variant) in results:
        return results[label, variant]
    rows = stored.get(_key(label, variant), [])
    return [_outcome(row) for row in rows] if len(rows) == n else None


def _paired(
    outcomes: Sequence[Outcome], base: Sequence[Outcome], of: Callable[[Outcome], float], digits: int = 2
) -> str:
    """The mean paired difference of ``of`` between ``outcomes`` and ``base`` (same deals) ± its 95 %."""
    mean, low, _ = mean_interval([of(o) - of(b) for o, b in zip(outcomes, base, strict=True)])
    return f"{mean:+.{digits}f} ± {mean - low:.{digits}f}"


if __name__ == "__main__":
    main()
