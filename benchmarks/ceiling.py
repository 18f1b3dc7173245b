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
the lead per round, and the paired difference to ``honest`` on the same deals (mean ± 95 %), CPU
seconds per round and the load average. Cheating bots exist only here: a bot of the library sees
its :class:`~rummykit.views.PlayerView` and nothing else.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import rummykit as rk
from rummykit.arena import ArenaConfig, Game, build_games, deal_seed, mean_interval, wilson_interval
from rummykit.bots import make_bot
from rummykit.bots.inference import Sampler, TableMemory
from rummykit.bots.ismcts import IsmctsBot
from rummykit.determinize import unseen_cards
from rummykit.views import PlayerView

MODES = ("honest", "hands", "full")
VARIANTS = ("race", "duel")


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


@dataclass
class Outcome:
    lead: float
    """The search bot's points less the opponent's (mean over the opponent seats)."""
    points: float
    opponent: float
    won: float
    cpu: float


def play(rules: rk.Rules, game: Game, mode: str, duels: bool = False) -> Outcome:
    """One round of an arena ``game``, the search bot's sampler set by ``mode`` (``duels``: its knock
    games valued by duel play-outs)."""
    specs = game.specs
    players = len(specs)
    rnd = rk.Round.new(rules, players, seed=deal_seed(game.seed, game.table, game.deal))
    bots = [make_bot(spec) for spec in specs]
    searching = [game.seats[s] == 0 for s in range(players)]  # the arena's first bot is the search
    for seat, bot in enumerate(bots):
        if searching[seat]:
            assert isinstance(bot, IsmctsBot)
            bot.knock_duels = duels
        if searching[seat] and mode != "honest":
            assert isinstance(bot, IsmctsBot)
            bot.sampler = oracle(rnd, mode)
            bot.known_stock = mode == "full"
    rngs = [
        random.Random(f"rummykit-bot-{game.seed}-{game.table}-{game.deal}-{game.rotation}-{s}")
        for s in range(players)
    ]
    cpu = 0.0
    while not rnd.is_over:
        seat = rnd.to_move
        t0 = time.process_time()
        action = bots[seat].choose(rnd.view(seat), rnd.legal_actions(), rngs[seat])
        if searching[seat]:
            cpu += time.process_time() - t0
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
    return Outcome(own - other, own, other, won, cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="viennese")
    parser.add_argument("--level", default="hard", help="the search level (easy, medium, hard)")
    parser.add_argument("--opponent", default="greedy", help="the other bot (any arena bot spec)")
    parser.add_argument("--rounds", type=int, default=300, help="duplicate deals (seats rotated)")
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated: " + ", ".join(MODES))
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
        "| paired vs race (points; rounds won) | CPU/round | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for mode in modes:
        for variant in variants:
            loads = [os.getloadavg()[0]]
            outcomes = []
            for game in games:
                outcomes.append(play(rules, game, mode, variant == "duel"))
                loads.append(os.getloadavg()[0])
            results[mode, variant] = outcomes
            n = len(outcomes)
            won = sum(o.won for o in outcomes)
            lo, hi = wilson_interval(won, n)
            lead, _, _ = mean_interval([o.lead for o in outcomes])
            paired = versus = "–"
            if mode != "honest" and ("honest", variant) in results:
                paired = _paired(outcomes, results["honest", variant], lambda o: o.lead)
            if variant != "race" and (mode, "race") in results:
                race = results[mode, "race"]
                points = _paired(outcomes, race, lambda o: o.lead)
                versus = f"{points}; {_paired(outcomes, race, lambda o: o.won, 3)}"
            print(
                f"| {mode} | {variant} | {won / n:.3f} ({lo:.3f}–{hi:.3f}) "
                f"| {sum(o.points for o in outcomes) / n:.2f} / {sum(o.opponent for o in outcomes) / n:.2f} "
                f"| {lead:+.2f} | {paired} | {versus} | {sum(o.cpu for o in outcomes) / n:.2f} s "
                f"| {min(loads):.1f}–{max(loads):.1f} |",
                flush=True,
            )


def _paired(
    outcomes: Sequence[Outcome], base: Sequence[Outcome], of: Callable[[Outcome], float], digits: int = 2
) -> str:
    """The mean paired difference of ``of`` between ``outcomes`` and ``base`` (same deals) ± its 95 %."""
    mean, low, _ = mean_interval([of(o) - of(b) for o, b in zip(outcomes, base, strict=True)])
    return f"{mean:+.{digits}f} ± {mean - low:.{digits}f}"


if __name__ == "__main__":
    main()
